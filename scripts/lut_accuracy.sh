#!/usr/bin/env bash
# LUT builder accuracy report and plots (docs/LUT.md, "Accuracy").
#   scripts/lut_accuracy.sh [--no-plots]
# Builds tools/lut_accuracy.cpp against the golden sources, prints max and mean absolute error of
# the sigmoid / tanh / exp / LRN tables against the double-precision functions (markdown table),
# and writes docs/img/lut_<fn>.png with scripts/plot_lut.sh (needs gnuplot:
# apt-get install gnuplot-nox). The plots are documentation, not part of the tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CXX:-c++} -std=c++20 -O2 -Wall -Wextra -Wconversion -I"$root/golden/include" -I"$root" "$root/tools/lut_accuracy.cpp" \
  "$root/engines/lut/golden/lut.cpp" "$root/engines/lut/golden/lut_builders.cpp" -o "$tmp/lut_accuracy"
"$tmp/lut_accuracy"
[ "${1:-}" = "--no-plots" ] && exit 0
mkdir -p "$root/docs/img"
for fn in sigmoid tanh exp lrn; do
  "$root/scripts/plot_lut.sh" "$fn" "$root/docs/img/lut_$fn.png"
  rm -f "$root/docs/img/lut_$fn.csv"  # 0.5 MB each; plot_lut.sh FUNCTION OUT.png regenerates it
done
