#!/usr/bin/env bash
# Configures and builds everything (every configuration of every unit; NVIDIA's C model where an
# nvdla/hw checkout is at hand, scripts/cmod-args.sh) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DLA_JOBS:-$(nproc)}
source scripts/cmod-args.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${cmod_args[@]}"
cmake --build build -j "$jobs" "$@"
