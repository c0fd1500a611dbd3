#!/usr/bin/env bash
# Runs every example command of `dlacosim --help` and of the README's "Using dlacosim" block as
# written (from the repository root, `dlacosim` replaced by the built binary); each must exit 0.
# Also: `dlacosim help COMMAND` exits 0 for every command and 2 for an unknown one.
# usage: check_examples.sh DLACOSIM_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
cd "$2"
fail=0

# Example lines: the help's "  dlacosim ..." lines (backslash continuations joined) and the
# README's "build/harness/dlacosim ..." lines.
mapfile -t examples < <(
  "$bin" --help | sed -n '/^examples/,$p' | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' |
    sed -n 's/^  dlacosim /dlacosim /p'
  sed -n 's#^build/harness/dlacosim #dlacosim #p' README.md)
if ((${#examples[@]} < 10)); then
  echo "FAIL: found only ${#examples[@]} examples (expected the help's and the README's)"
  exit 1
fi
for ex in "${examples[@]}"; do
  cmd="${bin} ${ex#dlacosim }"
  start=$(date +%s)
  if out=$(bash -c "$cmd" 2>&1 >/dev/null); then
    echo "ok   ($(( $(date +%s) - start )) s) $ex"
  else
    echo "FAIL (exit $?) $ex"
    echo "$out" | tail -5
    fail=1
  fi
done

for c in run regress validate bench import merge report random; do
  "$bin" help "$c" >/dev/null 2>&1 || { echo "FAIL: dlacosim help $c exits $?"; fail=1; }
done
"$bin" help >/dev/null 2>&1 || { echo "FAIL: dlacosim help exits $?"; fail=1; }
"$bin" help NONSENSE >/dev/null 2>/tmp/dlacosim-help-err.$$
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q 'unknown command "NONSENSE"' /tmp/dlacosim-help-err.$$; then
  echo "FAIL: dlacosim help NONSENSE: exit $rc, stderr: $(head -1 /tmp/dlacosim-help-err.$$)"
  fail=1
fi
rm -f /tmp/dlacosim-help-err.$$
"$bin" NONSENSE >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: dlacosim NONSENSE exits $rc, expected 2"; fail=1; }
exit $fail
