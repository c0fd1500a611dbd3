#!/usr/bin/env bash
# Renders an HTML report (`dlacosim report`) in headless Chromium and checks what a person sees:
# the DOM after the page's script ran has one row per run, sorted by cycles when the URL says
# #sort=cycles, and the failing run's heatmap; a 1280x2000 screenshot is kept as an artifact. And
# a network run's picture (tensors, layers, each layer's status), with a screenshot.
# Chromium is Debian's package, which scripts/setup.sh installs: without it the test fails (a
# skip would let a broken set-up pass unseen).
# usage: check_html_report_browser.sh DLACOSIM_BINARY SOURCE_DIR ARTIFACT_DIR
set -uo pipefail
bin=$1
src=$2
art=$3
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: no chromium on PATH (scripts/setup.sh installs Debian's package chromium)"
  exit 1
fi
mkdir -p "$art"
art=$(cd "$art" && pwd)  # absolute, for file:// URLs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}

# The smoke suite (5 runs, one per unit) and a cmac run forced to fail: flipping bit 5 of psum
# element 1486 = kernel 3, op 100 of the layer's (1, 8, 1, 462) cube.
"$bin" regress "$src/testvectors/suites/smoke.json" -j 2 --json "$work/smoke.json" >/dev/null ||
  { echo "FAIL: regress of the smoke suite"; exit 1; }
"$bin" run "$src/testvectors/layers/cmac/small_int8_random.json" --flip-bit 1486:5 --json "$work/flip.json" >/dev/null
[ $? -eq 1 ] || { echo "FAIL: the --flip-bit run did not exit 1"; exit 1; }
"$bin" report "$work/smoke.json" "$work/flip.json" --html "$art/report.html" --title "browser check" >/dev/null ||
  { echo "FAIL: dlacosim report"; exit 1; }

chrome() {  # chrome ARGS... : one headless Chromium with a fresh profile, no network of its own
  local profile
  profile=$(mktemp -d -p "$work")
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" "$@" \
    2>"$work/chrome.err"
}

start=$(date +%s.%N)
chrome --dump-dom "file://$art/report.html#sort=cycles" >"$work/dom.html"
check "chromium rendered the page ($(wc -c <"$work/dom.html") bytes of DOM)" grep -q '</html>' "$work/dom.html"
rows=$(grep -o '<tr class="run[^"]*" id="run-[0-9]*">' "$work/dom.html" | wc -l)
check "6 rows in the runs table (found $rows)" [ "$rows" -eq 6 ]
failed=$(grep -o '<tr class="run failed" id="run-[0-9]*">' "$work/dom.html" | wc -l)
check "1 failed row (found $failed)" [ "$failed" -eq 1 ]
# #sort=cycles: the script sorted the rows by cycles, ascending; the data order is not sorted.
grep -o '<td class="num cycles" data-v="[0-9]*"' "$work/dom.html" | grep -o '[0-9]*"$' | tr -d '"' >"$work/cycles"
check "rows sorted by cycles: $(tr '\n' ' ' <"$work/cycles")" bash -c "[ \$(wc -l <'$work/cycles') -eq 6 ] && sort -n -c '$work/cycles'"
grep -o '<td class="num cycles" data-v="[0-9]*"' "$art/report.html" | grep -o '[0-9]*"$' | tr -d '"' >"$work/cycles0"
check "the file's own order is not sorted (so the script did it)" bash -c "! sort -n -c '$work/cycles0' 2>/dev/null"
check "the sorted column is marked" grep -q '<th data-col="cycles" data-dir="asc">' "$work/dom.html"
check "the failure's heatmap: kernel 3, the cell of ops 90..104" \
  grep -q '<rect class="cell"[^>]*><title>kernel=3 h=0 op=90..104: 1 mismatch</title>' "$work/dom.html"
check "the failure's coordinates" grep -q '<td>(n=0, kernel=3, h=0, op=100)</td>' "$work/dom.html"

chrome --screenshot="$art/report.png" --window-size=1280,2000 "file://$art/report.html" >/dev/null
# A PNG of 1280 x 2000: the signature, then IHDR's width and height (big-endian) at bytes 16..23.
header=$(od -An -tx1 -N24 "$art/report.png" 2>/dev/null | tr -d ' \n')
check "screenshot $art/report.png is a 1280x2000 PNG" [ "$header" = "89504e470d0a1a0a0000000d4948445200000500000007d0" ]
# A network run's picture (docs/NETWORKS.md): LeNet-5 in cross mode stopped after pool1, so conv1
# and pool1 pass and the five later layers did not run; its eight tensors; a screenshot kept.
"$bin" run "$src/testvectors/networks/lenet5.json" --stop-after pool1 --json "$work/net.json" >/dev/null ||
  { echo "FAIL: run lenet5 --stop-after pool1"; exit 1; }
"$bin" report "$work/net.json" --html "$art/network.html" --title "network picture" >/dev/null ||
  { echo "FAIL: dlacosim report of the network run"; exit 1; }
chrome --dump-dom "file://$art/network.html" >"$work/net-dom.html"
check "network picture: 8 tensors" [ "$(grep -o '<g class="net-tensor"' "$work/net-dom.html" | wc -l)" -eq 8 ]
check "network picture: conv1 and pool1 pass" \
  [ "$(grep -o '<g class="net-layer pass" data-layer="\(conv1\|pool1\)">' "$work/net-dom.html" | wc -l)" -eq 2 ]
check "network picture: 5 layers not run" [ "$(grep -o '<g class="net-layer not-run"' "$work/net-dom.html" | wc -l)" -eq 5 ]
chrome --screenshot="$art/network.png" --window-size=800,1100 "file://$art/network.html" >/dev/null
check "screenshot $art/network.png written" test -s "$art/network.png"
echo "chromium: $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }") s for the DOM dumps and the screenshots"
[ "$fail" -eq 0 ] || { echo "chromium stderr:"; tail -5 "$work/chrome.err"; }
exit "$fail"
