#!/usr/bin/env bash
# Full synthesis of every RTL module in every configuration that has a synthesis check, including
# the ones the test run leaves out (label synth_full): Yosys 0.55, no latches. Takes about 25 min
# of CPU. Then `node scripts/synth/report.mjs build` prints the cell counts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cd build
ctest --output-on-failure -j "${DLA_JOBS:-$(nproc)}" -L synth
