#!/usr/bin/env bash
# Issue 41: SIGINT / SIGTERM at random moments must never lose work. N times (default 50) a
# regression (a small suite, -j 2, --json --junit --html) is interrupted after a random delay,
# alternating SIGINT and SIGTERM; every 5th time also a `run --wave` of a longer convolution.
# After each: exit 130 (or 0 if it finished first), every result file parses and holds exactly the
# runs that finished (the runs the progress lines reported, no more, no fewer), marked interrupted
# exactly when it was, no temporary file is left, and every wave file opens in gtkwave's fst2vcd.
# usage: check_interrupts.sh DLACOSIM SOURCE_DIR WORK_DIR [N]
set -uo pipefail
bin=$1
src=$2
work=$3
n=${4:-50}
command -v fst2vcd >/dev/null || { echo "FAIL: fst2vcd (gtkwave, scripts/setup.sh) is not installed"; exit 1; }
py=$(command -v /usr/bin/python3 || command -v python3)
RANDOM=41  # the delays are the same every time
rm -rf "$work"
mkdir -p "$work"
fail=0

# The suite: 12 quick runs (about 2 s at -j 2 on a 2-core machine), so a random delay lands
# before, between and inside runs.
cat > "$work/suite.json" <<EOF
{ "name": "interrupts",
  "layers": [ { "layer": "$src/testvectors/layers/cmac/small_int8_random.json", "seeds": [1, 2, 3] },
              { "layer": "$src/testvectors/layers/sdp/small_relu.json", "seeds": [1, 2, 3] },
              { "layer": "$src/testvectors/layers/conv/small_3x3_pad1.json", "seeds": [1, 2, 3] },
              { "layer": "$src/testvectors/layers/pdp/small_*.json", "seeds": [1] } ] }
EOF
start=$(date +%s%N)
"$bin" regress "$work/suite.json" -j 2 --no-progress >/dev/null 2>&1
full_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "an uninterrupted regress takes ${full_ms} ms"
wave_layer="$src/tests/data/watchdog/full_conv_24x27.json"  # about 4 s: always interrupted

check_results() {  # DIR RC PROGRESS_FILE
  "$py" - "$1" "$2" "$3" <<'PY'
import json, sys, re, os, xml.etree.ElementTree as ET
d, rc, prog = sys.argv[1], int(sys.argv[2]), sys.argv[3]
errs = []
finished = [l.split(' ', 2)[2].rsplit(' (', 1)[0] for l in open(prog) if re.match(r'^\[\d+/\d+\] ', l)]
j = json.load(open(os.path.join(d, 'r.json')))
names = [r['name'] for r in j['results']]
if sorted(names) != sorted(finished): errs.append(f'JSON holds {names}, the progress reported {finished}')
if j['runs_finished'] != len(names): errs.append('runs_finished differs from the results held')
if j['interrupted'] != (rc == 130): errs.append(f'interrupted={j["interrupted"]} with exit {rc}')
if rc == 0 and len(names) != j['runs_planned']: errs.append('exit 0 without every run')
x = ET.parse(os.path.join(d, 'r.xml')).getroot()
if int(x.get('tests')) != len(names): errs.append(f'JUnit tests={x.get("tests")}, {len(names)} finished')
cases = [c.get('name') for c in x.iter('testcase')]
if sorted(cases) != sorted(names): errs.append('JUnit test cases differ from the JSON results')
props = {p.get('name'): p.get('value') for p in x.iter('property')}
if props.get('interrupted') != ('true' if rc == 130 else 'false'): errs.append('JUnit interrupted property')
h = open(os.path.join(d, 'r.html')).read()
rows = len(re.findall(r'<tr class="run[ "]', h))
if rows != len(names): errs.append(f'HTML has {rows} rows, {len(names)} finished')
if (rc == 130) != ('class="MISMATCH interrupted"' in h): errs.append('HTML interruption banner')
if errs:
    print('\n'.join(errs)); sys.exit(1)
print(len(names))
PY
}

for ((i = 0; i < n; ++i)); do
  sig=$([ $((i % 2)) -eq 0 ] && echo INT || echo TERM)
  d="$work/run$i"
  mkdir -p "$d"
  # A delay from 0.15 s to 1.1 x the full run: before the first run ends, between, inside, after.
  ms=$(( 150 + RANDOM % (full_ms * 11 / 10 - 150 + 1) ))
  delay=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
  "$bin" regress "$work/suite.json" -j 2 --json "$d/r.json" --junit "$d/r.xml" --html "$d/r.html" \
    >"$d/out.txt" 2>"$d/progress.txt" &
  pid=$!
  sleep "$delay"
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  what="regress SIG$sig after ${delay} s: exit $rc"
  if [ "$rc" -ne 130 ] && [ "$rc" -ne 0 ]; then
    echo "FAIL $what"; fail=1; continue
  fi
  if ! runs=$(check_results "$d" "$rc" "$d/progress.txt"); then
    msg=$runs
    echo "FAIL $what: $msg"; fail=1; continue
  fi
  if [ "$rc" -eq 130 ] && ! grep -q "^interrupted by SIG$sig: " "$d/out.txt"; then
    echo "FAIL $what: no 'interrupted by SIG$sig' line with the table"; fail=1; continue
  fi
  if ls "$d" | grep -q '\.tmp'; then echo "FAIL $what: temporary files left: $(ls "$d")"; fail=1; continue; fi
  echo "ok   $what ($runs runs finished)"

  if [ $((i % 5)) -eq 4 ]; then
    w="$work/wave$i"
    mkdir -p "$w"
    wms=$(( 300 + RANDOM % 1200 ))
    wdelay=$(printf '%d.%03d' $((wms / 1000)) $((wms % 1000)))
    "$bin" run "$wave_layer" --wave "$w/w.fst" --json "$w/r.json" >"$w/out.txt" 2>&1 &
    pid=$!
    sleep "$wdelay"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    what="run --wave SIG$sig after ${wdelay} s: exit $rc"
    if [ "$rc" -ne 130 ] && [ "$rc" -ne 0 ]; then echo "FAIL $what"; cat "$w/out.txt"; fail=1; continue; fi
    if ls "$w" | grep -q '\.tmp'; then echo "FAIL $what: temporary files left: $(ls "$w")"; fail=1; continue; fi
    if [ -e "$w/w.fst" ]; then
      if ! fst2vcd "$w/w.fst" >"$w/w.vcd" 2>/dev/null || ! grep -q '^\$enddefinitions' "$w/w.vcd"; then
        echo "FAIL $what: fst2vcd cannot read the wave file"; fail=1; continue
      fi
      grep -q "waves: $w/w.fst" "$w/out.txt" || { echo "FAIL $what: the summary does not name the waves"; fail=1; continue; }
      echo "ok   $what (fst2vcd reads $(grep -c '^#' "$w/w.vcd") time steps)"
    else
      echo "ok   $what (stopped before the RTL started: no wave file, no temporary)"
    fi
    "$py" -c "import json,sys; j=json.load(open('$w/r.json')); sys.exit(0 if j['interrupted'] == ($rc == 130) else 1)" ||
      { echo "FAIL $what: run --json not marked"; fail=1; }
  fi
done
[ "$fail" -eq 0 ] && echo "all $n interruptions kept their work"
exit "$fail"
