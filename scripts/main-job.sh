#!/usr/bin/env bash
# The main job: set up, build, and run the default regression (every bundled layer, RTL against
# the golden model) with a summary table. Reports land in build/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh --target dlacosim
mkdir -p build/reports
./build/harness/dlacosim regress testvectors/suites/default.json -j "${DLA_JOBS:-$(nproc)}" \
  --junit build/reports/default-junit.xml --json build/reports/default.json
