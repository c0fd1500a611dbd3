#!/usr/bin/env bash
# Configures and builds everything (both configurations of every unit) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DLA_JOBS:-$(nproc)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs" "$@"
