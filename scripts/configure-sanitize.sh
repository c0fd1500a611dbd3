#!/usr/bin/env bash
# Configures build-sanitize/, the sanitizer build (scripts/test.sh --sanitize, scripts/fuzz.sh):
# everything built by clang 14; the project's own C++ (golden model, harness, CLI, tests) with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation at -O1
# (the sanitizers' recommended level), the verilated models uninstrumented at their usual levels
# (cmake/DlaVerilate.cmake). Only the first call configures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build-sanitize/CMakeCache.txt ] && exit 0
command -v clang++-14 >/dev/null || { echo "configure-sanitize: clang++-14 missing (bash scripts/setup.sh installs it)" >&2; exit 2; }
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DDLA_SANITIZE=ON
