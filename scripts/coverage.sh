#!/usr/bin/env bash
# RTL coverage (docs/COVERAGE.md). Builds every verilated model with Verilator's line, toggle and
# cover-point coverage (-DDLA_COVERAGE=ON) in build-cov/, runs with DLA_COVERAGE_DIR set:
#   * the default regression (what scripts/main-job.sh runs) and the other bundled layers
#     (deconv, rubik, the layers random campaigns found),
#   * the random campaigns of every unit and configuration (`dlacosim random UNIT --config C`),
#   * the RTL Catch2 tests (the primitives, the DMA read engine, GLB, LUT, CMAC, Winograd),
# merges the per-process data with verilator_coverage and writes one lcov HTML report per RTL
# unit (rtl/<unit>/) to build-cov/coverage/<unit>/index.html, with a summary table (line and
# toggle coverage per unit) printed at the end and kept in build-cov/coverage/summary.md.
#
# usage: scripts/coverage.sh [--count N] [--seed S] [--no-build] [--no-tests] [--report-only]
#   --count N    random layers per (unit, configuration) (default 40)
#   --seed S     campaign seed (default 1)
#   --no-build   use build-cov/ as it is
#   --no-tests   skip the RTL Catch2 tests
#   --report-only  merge and report the data already in build-cov/coverage/data (no build, no runs)
# DLA_JOBS: parallel runs (default: nproc). DLA_BUILD_LOCK: a lock file the build step holds
# (flock), for machines where several people build at once.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-cov
out=$build/coverage
count=40
seed=1
do_build=1
do_tests=1
report_only=0
while (($#)); do
  case $1 in
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --no-tests) do_tests=0; shift ;;
    --report-only) report_only=1; do_build=0; shift ;;
    *) echo "coverage.sh: unknown option '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
jobs=${DLA_JOBS:-$(nproc)}
t0=$SECONDS

# lcov (genhtml) turns Verilator's coverage into HTML; installed like scripts/setup.sh does.
if ! command -v genhtml >/dev/null 2>&1; then
  echo "coverage: installing lcov"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends lcov
fi

lock=()
[ -n "${DLA_BUILD_LOCK:-}" ] && lock=(flock "$DLA_BUILD_LOCK")
if ((do_build)); then
  # No lint or synthesis checks here: they do not depend on coverage and run in build/.
  "${lock[@]}" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DDLA_COVERAGE=ON \
    -DDLA_RTL_LINT=OFF -DDLA_RTL_SYNTH=OFF >/dev/null
  targets=(--target dlacosim)
  ((do_tests)) && targets+=(--target dla_tests_rtl)
  "${lock[@]}" cmake --build "$build" "${targets[@]}" -j "$jobs"
fi
dla=$build/harness/dlacosim

export DLA_COVERAGE_DIR=$out/data
step() { echo "coverage: [$((SECONDS - t0)) s] $*"; }
# A failing run still counts for coverage; the failures are listed at the end.
failed=()
if ((!report_only)); then
rm -rf "$out"
mkdir -p "$out/data" "$out/runs"
run() {
  local log=$out/runs/$1.log
  shift
  "$@" >"$log" 2>&1 || failed+=("$* (log: $log)")
}

step "default regression and the other bundled layers"
cat >"$out/runs/extra.json" <<EOF
{"name": "coverage-extra", "description": "bundled layers outside the default suite",
 "layers": ["$root/testvectors/layers/deconv/*.json", "$root/testvectors/layers/rubik/*.json",
            "$root/testvectors/layers/random_found/*.json"]}
EOF
run regress-default "$dla" regress testvectors/suites/default.json -j "$jobs"
run regress-extra "$dla" regress "$out/runs/extra.json" -j "$jobs"

# Every unit with a random campaign (the engine registry, as `dlacosim help random` lists them), on
# every configuration that has it (a --list of one layer is refused elsewhere: BDMA and RUBIK exist
# on nv_full only).
random_units=$("$dla" help random | sed -n 's/.*(units: \([^;]*\);.*/\1/p' | tr -d ,)
[[ -n $random_units ]] || { echo "coverage: no units in 'dlacosim help random'" >&2; exit 2; }
for unit in $random_units; do
  case $unit in
    # conv nv_large: 40 random layers did not finish in 7.5 min with coverage counters
    # (docs/COVERAGE.md); its RTL is the nv_full RTL with other parameters.
    conv) configs=(nv_small nv_full) ;;
    *) configs=(nv_small nv_large nv_full) ;;
  esac
  for cfg in "${configs[@]}"; do
    "$dla" random "$unit" --config "$cfg" --count 1 --list >/dev/null 2>&1 || continue
    step "random $unit --config $cfg --count $count --seed $seed"
    run "random-$unit-$cfg" "$dla" random "$unit" --count "$count" --seed "$seed" --config "$cfg" \
      -j "$jobs" --quiet
  done
done

# The RTL tests of the blocks and paths the layers do not reach on their own: the primitives'
# own models, the DMA read engine, GLB, LUT table access, CSB register tests, BDMA's stall
# counters, the line-buffer engine (not a random-campaign unit) (the whole RTL suite
# takes too long with coverage counters).
if ((do_tests)); then
  step "RTL Catch2 tests"
  run ctest-rtl ctest --test-dir "$build" -j "$jobs" -R '^rtl:(GLB|RTL device reads|BDMA RTL over|BDMA RTL device|BDMA RTL stall|CDP RTL over|every bundled cmac|cmac|conv RTL perf|the two-top|dla_dma_rd|lut|linebuf|prim|RUBIK RTL runs|every bundled wino|wino layers)'
fi
fi

step "merging $(find "$out/data" -name '*.dat' | wc -l) coverage files"
verilator_coverage --write "$out/merged.dat" "$out"/data/*.dat
python3 scripts/coverage_report.py split "$out/merged.dat" "$out"
verilator_coverage --write-info "$out/line.info" "$out/line.dat"
verilator_coverage --write-info "$out/toggle.info" "$out/toggle.dat"

units=(cmac lut wino sdp conv pdp cdp bdma rubik linebuf dma prim glb top common)
for u in "${units[@]}"; do
  mkdir -p "$out/$u"
  # an engine's RTL is engines/<u>/rtl/, the shared RTL rtl/<u>/
  dir="rtl/$u"
  [ -d "engines/$u/rtl" ] && dir="engines/$u/rtl"
  lcov --quiet --extract "$out/line.info" "*/$dir/*" -o "$out/$u/line.info" >/dev/null 2>&1 || true
  lcov --quiet --extract "$out/toggle.info" "*/$dir/*" -o "$out/$u/toggle.info" >/dev/null 2>&1 || true
  if [ -s "$out/$u/line.info" ]; then
    genhtml --quiet --title "dlacosim RTL coverage: $dir (line)" -o "$out/$u" "$out/$u/line.info" \
      >/dev/null
  fi
  if [ -s "$out/$u/toggle.info" ]; then
    genhtml --quiet --title "dlacosim RTL coverage: $dir (toggle)" -o "$out/$u/toggle" \
      "$out/$u/toggle.info" >/dev/null
  fi
done

step "done; reports: $out/<unit>/index.html (toggle: $out/<unit>/toggle/index.html)"
if ((${#failed[@]})); then
  echo "coverage: runs that failed (their coverage still counts):"
  printf '  %s\n' "${failed[@]}"
fi
python3 scripts/coverage_report.py summary "$out" "${units[@]}"
echo "coverage: $((SECONDS - t0)) s"
