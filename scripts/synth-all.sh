#!/usr/bin/env bash
# Full synthesis of every RTL module in every configuration that has a synthesis check, including
# the ones the test run leaves out (label synth_full): Yosys 0.55, no latches, with the optimizing
# flow (DLA_SYNTH_OPTIMIZE=1: resource sharing and ABC, scripts/synth/synth.mjs), so the cell counts
# compare with a real flow. Takes about 30 min of CPU. Then `node scripts/synth/report.mjs build`
# prints the cell counts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cd build
DLA_SYNTH_OPTIMIZE=1 ctest --output-on-failure -j "${DLA_JOBS:-$(nproc)}" -L synth
