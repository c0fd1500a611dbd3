#!/usr/bin/env bash
# Plot a LUT built by the golden table builders against the exact function.
#   scripts/plot_lut.sh FUNCTION OUT.png     FUNCTION: sigmoid | tanh | exp | lrn
# Writes OUT.csv (x_int,x,f,lut,err,table,flag) and OUT.png (f and lut on top, error below).
# Needs a C++20 compiler and gnuplot (Debian: apt-get install gnuplot-nox).
set -euo pipefail
fn=${1:?usage: plot_lut.sh sigmoid|tanh|exp|lrn OUT.png}
out=${2:?usage: plot_lut.sh sigmoid|tanh|exp|lrn OUT.png}
root=$(cd "$(dirname "$0")/.." && pwd)
csv=${out%.png}.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v gnuplot >/dev/null || { echo "plot_lut.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }

cat > "$tmp/lut_csv.cpp" <<'CPP'
#include <cstdio>
#include <fstream>
#include <string>
#include "engines/lut/golden/lut_builders.hpp"
using namespace dla::golden;
int main(int argc, char** argv) {
  const std::string name = argv[1];
  LutFunctionSpec fn;
  LutVariant v = LutVariant::Sdp;
  LutBuildSpec spec;
  int64_t lo = 0, hi = 0;
  if (name == "sigmoid" || name == "tanh") {
    fn.function = name == "sigmoid" ? LutFunction::Sigmoid : LutFunction::Tanh;
    fn.in_scale = 1.0 / 4096;  // X in Q.12
    fn.out_scale = 16384;      // Q2.14
    spec = plan_lut(v, fn, -16, 16, false, name == "sigmoid" ? -4 : -2, name == "sigmoid" ? 4 : 2);
    lo = -20 * 4096; hi = 20 * 4096;
  } else if (name == "exp") {
    fn.function = LutFunction::Exp;
    fn.in_scale = 1.0 / 4096;
    fn.out_scale = 256;
    spec = plan_lut(v, fn, -16, 4, false, 0, 4);  // density where exp is steep
    lo = -18 * 4096; hi = 4 * 4096;  // exp(4) * 256 = 13977 still fits int16
  } else if (name == "lrn") {
    fn.function = LutFunction::Lrn;
    v = LutVariant::Cdp;
    fn.out_scale = 16384;
    spec = plan_lut(v, fn, 0, 1073741824.0, true, 0, 65536);
    lo = 0; hi = 1 << 22;
  } else {
    std::fprintf(stderr, "unknown function %s\n", name.c_str());
    return 2;
  }
  const LutProgram p = build_lut(spec);
  const LutAccuracy a = lut_accuracy(p, v, fn, lo, hi, 8193);
  std::fprintf(stderr, "%s: max abs err %.3g at x_int %lld, mean %.3g over %llu samples\n",
               name.c_str(), a.max_abs_err, static_cast<long long>(a.x_at_max), a.mean_abs_err,
               static_cast<unsigned long long>(a.samples));
  std::ofstream os(argv[2]);
  write_lut_csv(os, p, v, fn, lo, hi, 8193);
  return 0;
}
CPP
${CXX:-c++} -std=c++20 -O1 -I"$root/golden/include" -I"$root" "$tmp/lut_csv.cpp" "$root/engines/lut/golden/lut.cpp" \
  "$root/engines/lut/golden/lut_builders.cpp" -o "$tmp/lut_csv"
"$tmp/lut_csv" "$fn" "$csv"

logx=""
[ "$fn" = lrn ] && logx="set logscale x"
gnuplot <<GP
set datafile separator ","
set terminal png size 1000,800
set output "$out"
set key autotitle columnhead
$logx
set multiplot layout 2,1 title "LUT $fn (golden builder)"
set ylabel "value"
plot "$csv" using 2:3 with lines lw 2 title "f(x)", "$csv" using 2:4 with lines title "lut(x)"
set ylabel "lut - f"
set xlabel "x"
plot "$csv" using 2:5 with lines title "error"
unset multiplot
GP
echo "wrote $csv and $out"
