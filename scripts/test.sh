#!/usr/bin/env bash
# The tests: set up, build everything, run every test (unit, RTL cross-checks, CLI, lint and
# synthesis) through CTest.
#
#   bash scripts/test.sh [--sanitize] [CTEST ARGS...]
#
# --sanitize: afterwards, builds the project's C++ (golden model, harness, CLI, tests) once more
# in build-sanitize/ with AddressSanitizer and UndefinedBehaviorSanitizer, linked with build/'s
# verilated models (not instrumented: cmake/DlaRtlImport.cmake), and runs the golden, harness,
# CLI and RTL Catch2 tests there (no lint or synthesis: build/ ran those). Any sanitizer report
# fails the test it occurs in.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  shift
fi
bash scripts/setup.sh
bash scripts/build.sh
jobs=${DLA_JOBS:-$(nproc)}
(
  cd build
  # Synthesis of further configurations of modules that another check already synthesizes is left
  # to scripts/synth-all.sh (label synth_full); CI elaborates them in Yosys instead (label elab).
  ctest --output-on-failure -j "$jobs" --timeout 1800 -LE synth_full "$@"
)
if ((sanitize)); then
  # -O1: the sanitizers' recommended level, and half the compile time of -O3.
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
        -DDLA_SANITIZE=ON -DDLA_RTL_FROM="$PWD/build"
  cmake --build build-sanitize -j "$jobs"
  cd build-sanitize
  # Leaks are reported too (LeakSanitizer is part of AddressSanitizer on Linux); the suppressions
  # name Verilator runtime allocations only, each with its reason.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$PWD/../scripts/sanitize/lsan.supp" \
    ctest --output-on-failure -j "$jobs" --timeout 1800 "$@"
fi
