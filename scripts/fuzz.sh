#!/usr/bin/env bash
# Fuzzes the parsers: builds the libFuzzer targets (tests/fuzz, docs/FUZZING.md) in the sanitizer
# build (build-sanitize/: clang 14, ASan, UBSan, libFuzzer's coverage instrumentation; the same
# build `scripts/test.sh --sanitize` makes and tests) and runs each for a while from seed corpora
# made of the bundled files.
#
#   bash scripts/fuzz.sh [--time S] [--build-only] [TARGET...]
#
# --time S      seconds per target (default 10)
# --build-only  build the targets, do not run them
# TARGET        a tests/fuzz/fuzz_<TARGET>.cpp name, e.g. layer_conv, suite, cfg (default: all)
#
# Each target runs as one process at nice 19 (tests/fuzz/run_target.sh). The corpus grows in
# build-sanitize/fuzz-long/corpus/<target>/ across runs; a crash, leak, timeout or out-of-memory
# input is written to build-sanitize/fuzz-long/findings/ and fails the script. Executions per
# target are printed and appended to build-sanitize/fuzz-long/fuzz-stats.tsv.
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
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ! ((${#targets[@]})); then
  for f in tests/fuzz/fuzz_*.cpp; do t=${f##*/fuzz_}; targets+=("${t%.cpp}"); done
fi
for t in "${targets[@]}"; do
  [ -f "tests/fuzz/fuzz_$t.cpp" ] || { echo "fuzz: no target '$t' (tests/fuzz/fuzz_$t.cpp)" >&2; exit 2; }
done

t0=$(date +%s)
bash scripts/configure-sanitize.sh
bs=$src/build-sanitize
cmake --build "$bs" -j "${DLA_JOBS:-$(nproc)}" --target dlacosim "${targets[@]/#/fuzz_}"
echo "fuzz: build $(($(date +%s) - t0)) s"
((build_only)) && exit 0

dir=$bs/fuzz-long
bash tests/fuzz/make_seeds.sh "$dir/seeds" "$bs/harness/dlacosim" >/dev/null
fail=0
for t in "${targets[@]}"; do
  bash tests/fuzz/run_target.sh "$bs/tests/fuzz/fuzz_$t" "$t" "$dir" "$seconds" 19 || fail=1
done
echo "fuzz: total $(($(date +%s) - t0)) s"
exit $fail
