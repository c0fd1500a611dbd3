// LUT builder accuracy report: max and mean absolute error of the golden table builders
// (golden/lut_builders.hpp) against the double-precision functions, for the tables that
// scripts/plot_lut.sh plots. Built and run by scripts/lut_accuracy.sh (no CMake target: it only
// needs engines/lut/golden/lut.cpp and engines/lut/golden/lut_builders.cpp).
//   lut_accuracy            markdown table on stdout
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engines/lut/golden/lut_builders.hpp"

using namespace dla::golden;

namespace {

struct Case {
  std::string name;
  LutVariant variant;
  LutFunctionSpec fn;
  LutBuildSpec spec;
  std::string tables;
  struct Range {
    std::string label;
    double lo, hi;  // real x
    uint64_t samples;
  };
  std::vector<Range> ranges;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  // The same programs as scripts/plot_lut.sh.
  for (const bool sig : {true, false}) {
    Case c;
    c.name = sig ? "sigmoid" : "tanh";
    c.variant = LutVariant::Sdp;
    c.fn.function = sig ? LutFunction::Sigmoid : LutFunction::Tanh;
    c.fn.in_scale = 1.0 / 4096;
    c.fn.out_scale = 16384;
    const double d = sig ? 4 : 2;
    c.spec = plan_lut(c.variant, c.fn, -16, 16, false, -d, d);
    c.tables = sig ? "LE lin [-16,16], LO [-4,4]" : "LE lin [-16,16], LO [-2,2]";
    c.ranges = {{"density", -d, d, 1000001}, {"raw", -16, 16, 1000001}, {"plot", -20, 20, 8193}};
    out.push_back(c);
  }
  {
    Case c;
    c.name = "exp";
    c.variant = LutVariant::Sdp;
    c.fn.function = LutFunction::Exp;
    c.fn.in_scale = 1.0 / 4096;
    c.fn.out_scale = 256;
    c.spec = plan_lut(c.variant, c.fn, -16, 4, false, 0, 4);
    c.tables = "LE lin [-16,4], LO [0,4]";
    c.ranges = {{"density", 0, 4, 1000001}, {"raw", -16, 4, 1000001}, {"plot", -18, 4, 8193}};
    out.push_back(c);
  }
  {
    Case c;
    c.name = "lrn";
    c.variant = LutVariant::Cdp;
    c.fn.function = LutFunction::Lrn;
    c.fn.out_scale = 16384;
    c.spec = plan_lut(c.variant, c.fn, 0, 1073741824.0, true, 0, 65536);
    c.tables = "LE exp [0,2^30], LO [0,65536]";
    c.ranges = {{"density", 0, 65536, 65537}, {"raw", 0, 1073741824.0, 1000001}, {"plot", 0, 4194304, 8193}};
    out.push_back(c);
  }
  return out;
}

}  // namespace

int main() {
  std::printf("| function | variant | in / out scale | tables | range (real x) | samples | max abs err | at x | mean abs err | max err (LSB) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases()) {
    const LutProgram p = build_lut(c.spec);
    for (const auto& r : c.ranges) {
      const auto lo = static_cast<int64_t>(std::floor(r.lo / c.fn.in_scale));
      const auto hi = static_cast<int64_t>(std::ceil(r.hi / c.fn.in_scale));
      const LutAccuracy a = lut_accuracy(p, c.variant, c.fn, lo, hi, r.samples);
      std::printf("| %s | %s | 2^%d / %g | %s | %s [%g, %g] | %llu | %.3g | %.6g | %.3g | %.2f |\n", c.name.c_str(),
                  c.variant == LutVariant::Sdp ? "SDP" : "CDP", static_cast<int>(std::lround(std::log2(c.fn.in_scale))),
                  c.fn.out_scale, c.tables.c_str(), r.label.c_str(), r.lo, r.hi,
                  static_cast<unsigned long long>(a.samples), a.max_abs_err,
                  static_cast<double>(a.x_at_max) * c.fn.in_scale, a.mean_abs_err, a.max_abs_err * c.fn.out_scale);
    }
  }
  return 0;
}
