#!/usr/bin/env bash
# Runs one libFuzzer target for a while (docs/FUZZING.md): the CTest test fuzz:<target> and each
# step of scripts/fuzz.sh.
#
#   bash tests/fuzz/run_target.sh BINARY TARGET DIR SECONDS [NICE]
#
# DIR holds seeds/<target>/ (tests/fuzz/make_seeds.sh) and receives corpus/<target>/ (grown in
# place across runs), findings/<target>-* (a crash, leak, timeout or out-of-memory input),
# logs/<target>.log and one line per run in fuzz-stats.tsv (date, target, seconds, CPU seconds,
# executions, result). Exit 0 when the run found nothing, 1 otherwise.
set -euo pipefail
bin=$1 target=$2 dir=$3 seconds=$4 niceness=${5:-0}
mkdir -p "$dir/corpus/$target" "$dir/seeds/$target" "$dir/findings" "$dir/logs" "$dir/tmp"
log=$dir/logs/$target.log
# The timeout is wall-clock: 60 s, because at nice 19 on a machine busy with builds a 2 s input
# (a bundled 224 x 224 x 64 conv layer under ASan) once took over 10 s. The parsers' scratch files
# go to DIR/tmp; leaks are reported (LeakSanitizer).
set +e
TIMEFORMAT='%U %S'
{ time TMPDIR=$dir/tmp ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    nice -n "$niceness" "$bin" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$dir/findings/$target-" \
    "$dir/corpus/$target" "$dir/seeds/$target" >"$log" 2>&1; } 2>"$log.cpu"
rc=$?
set -e
cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.cpu")  # user + system seconds
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
result=ok
if [ "$rc" -ne 0 ]; then
  result="FAIL (exit $rc; $log)"
  grep -m3 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "$log" || tail -5 "$log"
fi
printf 'fuzz: %-14s %6s s (%4s CPU s) %12s executions  %s\n' "$target" "$seconds" "$cpu" "${execs:-?}" "$result"
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "$cpu" "${execs:-?}" "$result" >>"$dir/fuzz-stats.tsv"
[ "$rc" -eq 0 ]
