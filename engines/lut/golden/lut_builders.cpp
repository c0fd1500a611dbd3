// Table builders, planner and accuracy report for the hybrid LUT (see lut_builders.hpp).
#include "engines/lut/golden/lut_builders.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>

#include "golden/arith.hpp"

namespace dla::golden {
namespace {

int in_bits_of(LutVariant v) { return v == LutVariant::Sdp ? 32 : 38; }

int select_bits_of(LutVariant v, LutPrecision p) {
  if (v == LutVariant::Sdp) return 8;
  return p == LutPrecision::Int8 ? 6 : 7;
}

double real_f(const LutFunctionSpec& fn, double x) {
  switch (fn.function) {
    case LutFunction::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case LutFunction::Tanh: return std::tanh(x);
    case LutFunction::Exp: return std::exp(x);
    case LutFunction::Lrn: {
      const double base = std::max(fn.lrn_k + fn.lrn_alpha * x, 1e-30);
      return std::pow(base, -fn.lrn_beta);
    }
  }
  return 0.0;
}

// f at a (possibly fractional) integer-domain position X, in real output units.
double f_at(const LutFunctionSpec& fn, double x_int) { return real_f(fn, x_int * fn.in_scale); }

// d f / d X in entry units per integer input unit.
double slope_at(const LutFunctionSpec& fn, double x_int) {
  const double x = x_int * fn.in_scale;
  const double h = std::max(1e-6, std::abs(x) * 1e-6);
  const double d = (real_f(fn, x + h) - real_f(fn, x - h)) / (2.0 * h);
  return d * fn.in_scale * fn.out_scale;
}

int16_t quantize(double v) {
  if (std::isnan(v)) return 0;
  const double c = std::clamp(v, -1e15, 1e15);
  return static_cast<int16_t>(sat(static_cast<Wide>(std::llround(c)), 16));
}

void check_range(int64_t v, int bits, const char* what) {
  if (v < min_of_bits(bits) || v > max_of_bits(bits)) {
    throw std::invalid_argument(std::string("build_lut: ") + what + " out of range");
  }
}

int64_t clamp_to_bits(double v, int bits) {
  const double lo = static_cast<double>(min_of_bits(bits));
  const double hi = static_cast<double>(max_of_bits(bits));
  return static_cast<int64_t>(std::clamp(std::floor(v), lo, hi));
}

int ceil_log2(double v) { return v <= 1.0 ? 0 : static_cast<int>(std::ceil(std::log2(v))); }

bool flat_slopes(const LutBuildSpec& s) {
  if (s.slopes == LutSlopeMode::Flat) return true;
  if (s.slopes == LutSlopeMode::Tangent) return false;
  return s.fn.function == LutFunction::Sigmoid || s.fn.function == LutFunction::Tanh;
}

}  // namespace

double lut_function_value(const LutFunctionSpec& fn, int64_t x) {
  return f_at(fn, static_cast<double>(x));
}

std::string to_string(LutFunction f) {
  switch (f) {
    case LutFunction::Sigmoid: return "sigmoid";
    case LutFunction::Tanh: return "tanh";
    case LutFunction::Exp: return "exp";
    case LutFunction::Lrn: return "lrn";
  }
  return "?";
}

void lut_slope_to_scale_shift(double slope, int16_t& scale, int& shift) {
  scale = 0;
  shift = 0;
  if (!std::isfinite(slope) || slope == 0.0) return;
  // Largest shift in [-16, 15] with |slope| * 2^shift <= 32767 (most scale bits).
  const int s = static_cast<int>(std::floor(std::log2(32767.0 / std::abs(slope))));
  shift = std::clamp(s, -16, 15);
  scale = quantize(std::ldexp(slope, shift));
  if (scale == 0) shift = 0;
}

LutProgram build_lut(const LutBuildSpec& s) {
  const int in_bits = in_bits_of(s.variant);
  const int sel_bits = select_bits_of(s.variant, s.precision);
  check_range(s.le_start, in_bits, "le_start");
  check_range(s.lo_start, in_bits, "lo_start");
  check_range(s.le_index_offset, 8, "le_index_offset");
  check_range(s.le_index_select, sel_bits, "le_index_select");
  check_range(s.lo_index_select, sel_bits, "lo_index_select");

  LutProgram p;
  LutConfig& c = p.config;
  c.le_linear = s.le_linear;
  c.uflow_prio_lo = s.uflow_prio_lo;
  c.oflow_prio_lo = s.oflow_prio_lo;
  c.hybrid_prio_lo = s.hybrid_prio_lo;
  c.le_index_offset = static_cast<int8_t>(s.le_index_offset);
  c.le_index_select = static_cast<int8_t>(s.le_index_select);
  c.lo_index_select = static_cast<int8_t>(s.lo_index_select);
  c.le_start = s.le_start;
  c.lo_start = s.lo_start;
  c.precision = s.precision;

  // Entry positions in the integer input domain (fractional for negative selects/offsets).
  const auto le_x = [&](int i) {
    return s.le_linear ? static_cast<double>(s.le_start) + i * std::ldexp(1.0, s.le_index_select)
                       : static_cast<double>(s.le_start) + std::ldexp(1.0, i + s.le_index_offset);
  };
  const auto lo_x = [&](int i) {
    return static_cast<double>(s.lo_start) + i * std::ldexp(1.0, s.lo_index_select);
  };
  for (int i = 0; i < kLutLeEntries; ++i) p.tables.le[i] = quantize(f_at(s.fn, le_x(i)) * s.fn.out_scale);
  for (int i = 0; i < kLutLoEntries; ++i) p.tables.lo[i] = quantize(f_at(s.fn, lo_x(i)) * s.fn.out_scale);

  c.le_end = clamp_to_bits(le_x(kLutLeEntries - 1), in_bits);
  c.lo_end = clamp_to_bits(lo_x(kLutLoEntries - 1), in_bits);

  if (!flat_slopes(s)) {
    // Underflow anchors at entry 0, overflow at the last entry (where the hardware's START + B and
    // END put them), slope = f' there.
    lut_slope_to_scale_shift(slope_at(s.fn, le_x(0)), c.le_uflow_scale, c.le_uflow_shift);
    lut_slope_to_scale_shift(slope_at(s.fn, le_x(kLutLeEntries - 1)), c.le_oflow_scale,
                             c.le_oflow_shift);
    lut_slope_to_scale_shift(slope_at(s.fn, lo_x(0)), c.lo_uflow_scale, c.lo_uflow_shift);
    lut_slope_to_scale_shift(slope_at(s.fn, lo_x(kLutLoEntries - 1)), c.lo_oflow_scale,
                             c.lo_oflow_shift);
  }
  return p;
}

LutBuildSpec plan_lut(LutVariant v, const LutFunctionSpec& fn, double raw_lo, double raw_hi,
                      bool le_exponent, double dense_lo, double dense_hi) {
  if (!(raw_hi > raw_lo) || !(dense_hi > dense_lo) || fn.in_scale <= 0.0) {
    throw std::invalid_argument("plan_lut: empty range or non-positive in_scale");
  }
  LutBuildSpec s;
  s.variant = v;
  s.fn = fn;
  const double r_lo = std::floor(raw_lo / fn.in_scale);
  const double r_hi = std::ceil(raw_hi / fn.in_scale);
  if (le_exponent) {
    // Entry i at START + 2^(i + off): START one below the range, off so that entry 64 reaches hi.
    s.le_linear = false;
    s.le_start = static_cast<int64_t>(r_lo) - 1;
    s.le_index_offset = ceil_log2(r_hi - static_cast<double>(s.le_start)) - (kLutLeEntries - 1);
  } else {
    s.le_linear = true;
    s.le_start = static_cast<int64_t>(r_lo);
    s.le_index_select = static_cast<int>(std::ceil(std::log2((r_hi - r_lo) / (kLutLeEntries - 1))));
  }
  const double d_lo = std::floor(dense_lo / fn.in_scale);
  const double d_hi = std::ceil(dense_hi / fn.in_scale);
  s.lo_start = static_cast<int64_t>(d_lo);
  s.lo_index_select = static_cast<int>(std::ceil(std::log2((d_hi - d_lo) / (kLutLoEntries - 1))));
  return s;
}

namespace {
template <class Fn>
void for_samples(int64_t x_lo, int64_t x_hi, uint64_t samples, Fn&& fn) {
  if (x_hi < x_lo) std::swap(x_lo, x_hi);
  const auto span = static_cast<unsigned __int128>(x_hi - x_lo);
  if (samples < 2 || span + 1 <= samples) {
    for (int64_t x = x_lo;; ++x) {
      fn(x);
      if (x == x_hi) break;
    }
    return;
  }
  for (uint64_t k = 0; k < samples; ++k) {
    const auto off = static_cast<int64_t>(span * k / (samples - 1));
    fn(x_lo + off);
  }
}
}  // namespace

LutAccuracy lut_accuracy(const LutProgram& p, LutVariant v, const LutFunctionSpec& fn,
                         int64_t x_lo, int64_t x_hi, uint64_t samples) {
  LutAccuracy a;
  double sum = 0.0;
  for_samples(x_lo, x_hi, samples, [&](int64_t x) {
    const LutResult r = lut_lookup(v, p.config, p.tables, x);
    const double err = std::abs(static_cast<double>(r.value) / fn.out_scale - lut_function_value(fn, x));
    if (a.samples == 0 || err > a.max_abs_err) {
      a.max_abs_err = err;
      a.x_at_max = x;
    }
    sum += err;
    ++a.samples;
  });
  a.mean_abs_err = a.samples != 0 ? sum / static_cast<double>(a.samples) : 0.0;
  return a;
}

void write_lut_csv(std::ostream& os, const LutProgram& p, LutVariant v, const LutFunctionSpec& fn,
                   int64_t x_lo, int64_t x_hi, uint64_t samples) {
  os << "x_int,x,f,lut,err,table,flag\n";
  os.precision(10);
  for_samples(x_lo, x_hi, samples, [&](int64_t x) {
    const LutResult r = lut_lookup(v, p.config, p.tables, x);
    const double f = lut_function_value(fn, x);
    const double l = static_cast<double>(r.value) / fn.out_scale;
    os << x << ',' << static_cast<double>(x) * fn.in_scale << ',' << f << ',' << l << ',' << l - f
       << ',' << (r.lo_selected ? "LO" : "LE") << ','
       << (r.uflow ? "uflow" : r.oflow ? "oflow" : "hit") << '\n';
  });
}

}  // namespace dla::golden
