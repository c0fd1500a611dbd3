#!/usr/bin/env bash
# The tests: set up, build everything, run every test (unit, RTL cross-checks, CLI, lint and
# synthesis) through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
# Synthesis of further configurations of modules that another check already synthesizes is left
# to scripts/synth-all.sh (label synth_full); CI elaborates them in Yosys instead (label elab).
ctest --output-on-failure -j "${DLA_JOBS:-$(nproc)}" --timeout 1800 -LE synth_full "$@"
