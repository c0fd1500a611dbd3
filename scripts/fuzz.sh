#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, docs/FUZZING.md) in build-fuzz/ with clang, ASan and
# UBSan, and runs each for a while from seed corpora made of the bundled files.
#
#   bash scripts/fuzz.sh [--time S] [--build-only] [TARGET...]
#
# --time S      seconds per target (default 10)
# --build-only  build the targets, do not run them
# TARGET        layer_cmac layer_lut layer_wino layer_sdp layer_conv layer_pdp layer_cdp layer_program suite
#               cfg txn dat results (default: all)
#
# Needs build/ built first (scripts/build.sh): the fuzz build links its verilated models instead of
# verilating (cmake/DlaFuzz.cmake). Each target runs as one process at nice 19. The corpus grows in
# build-fuzz/corpus/<target>/ across runs; a crash, leak, timeout or out-of-memory input is
# written to build-fuzz/findings/ and fails the script. The timeout is wall-clock: 60 s, because
# at nice 19 on a machine busy with builds a 2 s input (a bundled 224 x 224 x 64 conv layer under
# ASan) took over 10 s. Executions per target are printed and
# appended to build-fuzz/fuzz-stats.tsv (date, target, seconds, CPU seconds, executions, result).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
seconds=10
build_only=0
targets=()
while (($#)); do
  case $1 in
    --time) seconds=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=(layer_cmac layer_lut layer_wino layer_sdp layer_conv layer_pdp layer_cdp layer_program suite cfg txn dat results)
[ -f build/rtl/libdla_rtl.a ] || { echo "fuzz: build/ is not built (run bash scripts/build.sh first)" >&2; exit 2; }
command -v clang++-14 >/dev/null || { echo "fuzz: clang++-14 missing (bash scripts/setup.sh installs it)" >&2; exit 2; }

bf=$src/build-fuzz
t0=$(date +%s)
if [ ! -f "$bf/CMakeCache.txt" ]; then
  # -O1: libFuzzer's and the sanitizers' recommended level, and far less compile time than -O3.
  flock /tmp/dla-build.lock cmake -S . -B "$bf" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DCMAKE_CXX_COMPILER=clang++-14 -DDLA_FUZZ=ON -DDLA_RTL_FROM="$src/build" >/dev/null
fi
flock /tmp/dla-build.lock cmake --build "$bf" -j "${DLA_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
echo "fuzz: build $(($(date +%s) - t0)) s"
((build_only)) && exit 0

bash tests/fuzz/make_seeds.sh "$bf/seeds" "$src/build/harness/dlacosim" >/dev/null
mkdir -p "$bf/findings" "$bf/tmp" "$bf/logs"
fail=0
for t in "${targets[@]}"; do
  mkdir -p "$bf/corpus/$t"
  log=$bf/logs/$t.log
  # The scratch files of the parsers go to build-fuzz/tmp (TMPDIR); leaks are reported (LeakSanitizer).
  set +e
  TIMEFORMAT='%U %S'
  { time TMPDIR=$bf/tmp ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      nice -n 19 "$bf/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$bf/findings/$t-" "$bf/corpus/$t" "$bf/seeds/$t" >"$log" 2>&1; } 2>"$log.cpu"
  rc=$?
  set -e
  cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.cpu")  # user + system seconds
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  result=ok
  if [ "$rc" -ne 0 ]; then
    result="FAIL (exit $rc; $log)"
    fail=1
    grep -m3 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "$log" || tail -5 "$log"
  fi
  printf 'fuzz: %-14s %6s s (%4s CPU s) %12s executions  %s\n' "$t" "$seconds" "$cpu" "${execs:-?}" "$result"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$seconds" "$cpu" "${execs:-?}" "$result" >>"$bf/fuzz-stats.tsv"
done
echo "fuzz: total $(($(date +%s) - t0)) s"
exit $fail
