// Table builders for the hybrid LUT (golden/lut.hpp): a layer names a function and a range
// instead of listing 322 entries and 14 register fields.
//
// Scaling convention: the LUT input X is an integer; the real argument is x = X * in_scale. A
// table entry is round(f(x) * out_scale) clamped to int16 (e.g. out_scale = 2^14 for a Q2.14
// result). Entry i of a table sits at the integer X the hardware assigns to it:
//   LE exponent: X = LE_START + 2^(i + offset);  LE linear: X = LE_START + i * 2^select;
//   LO:          X = LO_START + i * 2^select.
// START/END/slopes are set consistently (END = the last entry's X) so the hardware's
// under/overflow extrapolation starts exactly at the first/last entry.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "engines/lut/golden/lut.hpp"

namespace dla::golden {

enum class LutFunction { Sigmoid, Tanh, Exp, Lrn };

struct LutFunctionSpec {
  LutFunction function = LutFunction::Sigmoid;
  double in_scale = 1.0;         // real x = X * in_scale
  double out_scale = 16384.0;    // entry = round(f(x) * out_scale), clamped to int16
  // LRN: f(x) = (k + alpha * x)^-beta (alpha already divided by the window size if wanted).
  double lrn_k = 1.0, lrn_alpha = 1e-4, lrn_beta = 0.75;
};

// f(X * in_scale) in real output units (not multiplied by out_scale).
double lut_function_value(const LutFunctionSpec& fn, int64_t x);
std::string to_string(LutFunction f);

// How the under/overflow slopes are chosen:
//   Flat    slope 0: the output holds the end entry (right for bounded sigmoid/tanh far out);
//   Tangent f'(x) at the anchor entry, converted to scale * 2^-shift;
//   Auto    Flat for sigmoid/tanh, Tangent for exp and LRN.
enum class LutSlopeMode { Auto, Flat, Tangent };

struct LutBuildSpec {
  LutVariant variant = LutVariant::Sdp;
  LutPrecision precision = LutPrecision::Int16;  // CDP: select width 7 (int16) / 6 (int8) bits
  LutFunctionSpec fn;
  // LE table.
  bool le_linear = false;
  int64_t le_start = 0;
  int le_index_offset = 0;  // exponent mode
  int le_index_select = 0;  // linear mode
  // LO table (always linear).
  int64_t lo_start = 0;
  int lo_index_select = 0;
  // Priorities (true = LO). Defaults: LO as the density table wins where both hit; LE as the
  // raw wide table handles both-underflow/overflow.
  bool uflow_prio_lo = false, oflow_prio_lo = false, hybrid_prio_lo = true;
  LutSlopeMode slopes = LutSlopeMode::Auto;
};

struct LutProgram {
  LutConfig config;
  LutTables tables;
};

// Fill tables, END registers and slopes. Throws std::invalid_argument when a field does not fit
// (start outside the variant's range, select/offset outside the signed field). An END that does
// not fit the register (exponent tables reaching past 2^31 in SDP) is clamped to the largest
// value: such a table cannot overflow anyway.
LutProgram build_lut(const LutBuildSpec& spec);

// Convenience planner over real input ranges: the "raw" table covers [raw_lo, raw_hi] (LE, in
// exponent or linear mode), the "density" table (LO) covers [dense_lo, dense_hi]; selects and
// offsets are the smallest that cover the range. Ranges are in real x (X = x / in_scale).
LutBuildSpec plan_lut(LutVariant v, const LutFunctionSpec& fn, double raw_lo, double raw_hi,
                      bool le_exponent, double dense_lo, double dense_hi);

// Convert a real slope (output integer units per input integer unit) into the hardware's
// scale * 2^-shift with scale int16 and shift signed 5-bit, keeping as many scale bits as fit.
void lut_slope_to_scale_shift(double slope, int16_t& scale, int& shift);

struct LutAccuracy {
  double max_abs_err = 0.0;   // in real output units (entry units / out_scale)
  double mean_abs_err = 0.0;
  int64_t x_at_max = 0;       // integer input of the worst sample
  uint64_t samples = 0;
};

// Compare lut_lookup (value / out_scale) with f over the integer inputs x_lo..x_hi, `samples`
// points evenly spaced (both ends included; every integer if the range is smaller).
LutAccuracy lut_accuracy(const LutProgram& p, LutVariant v, const LutFunctionSpec& fn,
                         int64_t x_lo, int64_t x_hi, uint64_t samples = 4097);

// Write "x_int,x,f,lut,err,table,flag" CSV rows over the same sample points (for plotting).
void write_lut_csv(std::ostream& os, const LutProgram& p, LutVariant v, const LutFunctionSpec& fn,
                   int64_t x_lo, int64_t x_hi, uint64_t samples = 4097);

}  // namespace dla::golden
