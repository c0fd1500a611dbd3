// The NVDLA hybrid LUT engine, SDP and CDP integer variants. Spec:
// ../shared/reference/nvdla-arithmetic.md section 1 (1.3 SDP, 1.5 CDP); decisions in docs/LUT.md.
#include "engines/lut/golden/lut.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_reg_structs.hpp"

namespace dla::golden {
namespace {

struct VariantShape {
  int in_bits;    // X and START/END width
  int frac_bits;  // interpolation fraction
  int out_bits;   // result width
  int max_bias_offset;  // largest offset for which the exponent underflow bias is 2^offset
};

constexpr VariantShape shape_of(LutVariant v) {
  // SDP: 32-bit data, 35-bit fraction, 32-bit result; the RTL's `1 << off` is a 32-bit expression.
  // CDP: 38-bit signed range registers, 16-bit fraction, 16-bit result; the bias is a 38-bit
  // quantity, so 2^off for off <= 37 (docs/LUT.md: assumed by analogy, not verified in NVDLA).
  return v == LutVariant::Sdp ? VariantShape{32, 35, 32, 31} : VariantShape{38, 16, 16, 37};
}

struct TableIndex {
  LutTableStatus status = LutTableStatus::Uflow;
  int index = 0;
  uint64_t frac = 0;
};

// Bits of d below bit `shift`, left-aligned into a frac_bits-bit fraction (truncated when
// shift > frac_bits, zero-filled when shift < frac_bits): floor((d mod 2^shift) * 2^fb / 2^shift).
uint64_t fraction_below(Wide d, int shift, int frac_bits) {
  if (shift <= 0) return 0;
  const Wide rem = shift >= 64 ? d : (d & ((Wide{1} << shift) - 1));
  return static_cast<uint64_t>(floor_shift(rem << frac_bits, shift));
}

// Linear index: entry i at START + i * 2^sel; d = X - START >= 1.
TableIndex linear_index(Wide d, int sel, int depth, int frac_bits) {
  Wide i = 0;
  uint64_t f = 0;
  if (sel >= 0) {
    i = floor_shift(d, sel);
    f = fraction_below(d, sel, frac_bits);
  } else {
    // d >= 1, so a left shift of 9 or more is past every table (clamp to avoid overflow).
    i = -sel >= 16 ? Wide{1} << 16 : d << -sel;
  }
  if (i >= depth - 1) return {LutTableStatus::Oflow, depth - 1, 0};
  return {LutTableStatus::Hit, static_cast<int>(i), f};
}

// Exponent index (LE only): entry i at START + 2^(i + off); d = X - START >= 1.
TableIndex exponent_index(Wide d, int off, int frac_bits) {
  const int e = static_cast<int>(std::bit_width(static_cast<uint64_t>(d))) - 1;  // d < 2^39
  if (e < off) return {LutTableStatus::Uflow, 0, 0};
  const int i = e - off;
  if (i >= kLutLeEntries - 1) return {LutTableStatus::Oflow, kLutLeEntries - 1, 0};
  return {LutTableStatus::Hit, i, fraction_below(d, e, frac_bits)};
}

int narrow_select(LutVariant v, LutPrecision p, int8_t sel) {
  if (v == LutVariant::Sdp) return sel;
  const int bits = p == LutPrecision::Int8 ? 6 : 7;
  return static_cast<int>(sign_extend(static_cast<uint8_t>(sel), bits));
}

int shift5(int s) { return static_cast<int>(sign_extend(static_cast<uint32_t>(s), 5)); }

// Table selection (section 1.3 "INDEX MUXING"), the same in every variant and precision: sets
// lo_selected and the final uflow / oflow flags from the two tables' own statuses.
LutTableStatus select_table(const LutConfig& c, LutResult& r) {
  if (r.le_status == LutTableStatus::Uflow && r.lo_status == LutTableStatus::Uflow) {
    r.lo_selected = c.uflow_prio_lo;            // 1. both underflow
  } else if (r.le_status == LutTableStatus::Oflow && r.lo_status == LutTableStatus::Oflow) {
    r.lo_selected = c.oflow_prio_lo;            // 2. both overflow
  } else if (r.le_hit == r.lo_hit) {
    r.lo_selected = c.hybrid_prio_lo;           // 3. both hit, 4. one uflow + one oflow
  } else {
    r.lo_selected = r.lo_hit;                   // 5. exactly one hit
  }
  const LutTableStatus chosen = r.lo_selected ? r.lo_status : r.le_status;
  r.uflow = chosen == LutTableStatus::Uflow;
  r.oflow = chosen == LutTableStatus::Oflow;
  return chosen;
}

// Both tables' indexes into the result.
void record(LutResult& r, const TableIndex& le, const TableIndex& lo) {
  r.le_status = le.status;
  r.lo_status = lo.status;
  r.le_index = le.index;
  r.lo_index = lo.index;
  r.le_frac = le.frac;
  r.lo_frac = lo.frac;
  r.le_hit = le.status == LutTableStatus::Hit;
  r.lo_hit = lo.status == LutTableStatus::Hit;
}

}  // namespace

// ---- registers ------------------------------------------------------------------------------

namespace {

// The fields SDP's and CDP's S_LUT_* registers share (the generated structs name them alike).
template <class S>
void decode_lut_common(const S& s, LutConfig& c) {
  using Index = regs::sdp::S_LUT_INFO::LUT_LE_INDEX_OFFSET;
  using Scale = regs::sdp::S_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_UFLOW_SCALE;
  using Shift = regs::sdp::S_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_UFLOW_SHIFT;
  auto i8 = [](uint32_t x) { return static_cast<int8_t>(sign_extend(x, Index::width)); };
  auto scale = [](uint32_t x) { return static_cast<int16_t>(sign_extend(x, Scale::width)); };
  auto shift = [](uint32_t x) { return static_cast<int>(sign_extend(x, Shift::width)); };
  c.le_linear = s.lut_cfg_lut_le_function != 0;
  c.uflow_prio_lo = s.lut_cfg_lut_uflow_priority != 0;
  c.oflow_prio_lo = s.lut_cfg_lut_oflow_priority != 0;
  c.hybrid_prio_lo = s.lut_cfg_lut_hybrid_priority != 0;
  c.le_index_offset = i8(s.lut_info_lut_le_index_offset);
  c.le_index_select = i8(s.lut_info_lut_le_index_select);
  c.lo_index_select = i8(s.lut_info_lut_lo_index_select);
  c.le_uflow_scale = scale(s.lut_le_slope_scale_lut_le_slope_uflow_scale);
  c.le_oflow_scale = scale(s.lut_le_slope_scale_lut_le_slope_oflow_scale);
  c.le_uflow_shift = shift(s.lut_le_slope_shift_lut_le_slope_uflow_shift);
  c.le_oflow_shift = shift(s.lut_le_slope_shift_lut_le_slope_oflow_shift);
  c.lo_uflow_scale = scale(s.lut_lo_slope_scale_lut_lo_slope_uflow_scale);
  c.lo_oflow_scale = scale(s.lut_lo_slope_scale_lut_lo_slope_oflow_scale);
  c.lo_uflow_shift = shift(s.lut_lo_slope_shift_lut_lo_slope_uflow_shift);
  c.lo_oflow_shift = shift(s.lut_lo_slope_shift_lut_lo_slope_oflow_shift);
}

}  // namespace

LutConfig decode_lut_config(LutVariant v, std::span<const uint32_t> w, LutPrecision precision) {
  if (w.size() < static_cast<std::size_t>(lut_reg_count(v))) {
    throw std::invalid_argument("decode_lut_config: too few register words");
  }
  // The generated decoders of the single registers; w[k] is the word at S_LUT_CFG + 4k, the
  // registers below it are not the LUT's.
  auto word_at = [w](uint32_t offset) {
    return offset < kLutCfgFirstOffset ? 0u : w[(offset - kLutCfgFirstOffset) / 4];
  };
  LutConfig c;
  if (v == LutVariant::Sdp) {
    const auto s = regs::sdp::S::read(word_at);
    decode_lut_common(s, c);
    c.le_start = sign_extend(s.lut_le_start, 32);
    c.le_end = sign_extend(s.lut_le_end, 32);
    c.lo_start = sign_extend(s.lut_lo_start, 32);
    c.lo_end = sign_extend(s.lut_lo_end, 32);
  } else {
    const auto s = regs::cdp::S::read(word_at);
    decode_lut_common(s, c);
    auto range = [](uint32_t high, uint32_t low) {
      constexpr int kBits = 32 + regs::cdp::S_LUT_LE_START_HIGH::LUT_LE_START_HIGH::width;  // 38
      return sign_extend((static_cast<uint64_t>(high) << 32) | low, kBits);
    };
    c.le_start = range(s.lut_le_start_high, s.lut_le_start_low);
    c.le_end = range(s.lut_le_end_high, s.lut_le_end_low);
    c.lo_start = range(s.lut_lo_start_high, s.lut_lo_start_low);
    c.lo_end = range(s.lut_lo_end_high, s.lut_lo_end_low);
  }
  c.precision = precision;
  return c;
}

std::vector<uint32_t> encode_lut_config(LutVariant v, const LutConfig& c) {
  std::vector<uint32_t> w;
  w.push_back((c.le_linear ? 1u : 0u) | (c.uflow_prio_lo ? 1u << 4 : 0u) |
              (c.oflow_prio_lo ? 1u << 5 : 0u) | (c.hybrid_prio_lo ? 1u << 6 : 0u));
  w.push_back(static_cast<uint32_t>(static_cast<uint8_t>(c.le_index_offset)) |
              static_cast<uint32_t>(static_cast<uint8_t>(c.le_index_select)) << 8 |
              static_cast<uint32_t>(static_cast<uint8_t>(c.lo_index_select)) << 16);
  auto range = [&](int64_t r) {
    const auto u = static_cast<uint64_t>(r);
    w.push_back(static_cast<uint32_t>(u & 0xffffffffu));
    if (v == LutVariant::Cdp) w.push_back(static_cast<uint32_t>((u >> 32) & 0x3fu));
  };
  range(c.le_start);
  range(c.le_end);
  range(c.lo_start);
  range(c.lo_end);
  auto scales = [](int16_t u, int16_t o) {
    return static_cast<uint32_t>(static_cast<uint16_t>(u)) |
           static_cast<uint32_t>(static_cast<uint16_t>(o)) << 16;
  };
  auto shifts = [](int u, int o) {
    return (static_cast<uint32_t>(u) & 0x1fu) | (static_cast<uint32_t>(o) & 0x1fu) << 5;
  };
  w.push_back(scales(c.le_uflow_scale, c.le_oflow_scale));
  w.push_back(shifts(c.le_uflow_shift, c.le_oflow_shift));
  w.push_back(scales(c.lo_uflow_scale, c.lo_oflow_scale));
  w.push_back(shifts(c.lo_uflow_shift, c.lo_oflow_shift));
  return w;
}

std::vector<std::pair<uint32_t, uint32_t>> lut_register_writes(LutVariant v, const LutConfig& cfg,
                                                               const LutTables& t) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const auto words = encode_lut_config(v, cfg);
  for (std::size_t k = 0; k < words.size(); ++k) {
    out.emplace_back(kLutCfgFirstOffset + 4 * static_cast<uint32_t>(k), words[k]);
  }
  out.emplace_back(kLutAccessCfgOffset, lut_access_cfg(false, true, 0));
  for (int16_t e : t.le) out.emplace_back(kLutAccessDataOffset, static_cast<uint16_t>(e));
  out.emplace_back(kLutAccessCfgOffset, lut_access_cfg(true, true, 0));
  for (int16_t e : t.lo) out.emplace_back(kLutAccessDataOffset, static_cast<uint16_t>(e));
  return out;
}

// ---- lookup ---------------------------------------------------------------------------------

LutResult lut_lookup(LutVariant v, const LutConfig& c, const LutTables& t, int64_t x_in) {
  const VariantShape s = shape_of(v);
  const Wide x = sign_extend(static_cast<uint64_t>(x_in), s.in_bits);
  const Wide le_start = sign_extend(static_cast<uint64_t>(c.le_start), s.in_bits);
  const Wide le_end = sign_extend(static_cast<uint64_t>(c.le_end), s.in_bits);
  const Wide lo_start = sign_extend(static_cast<uint64_t>(c.lo_start), s.in_bits);
  const Wide lo_end = sign_extend(static_cast<uint64_t>(c.lo_end), s.in_bits);

  // Index generation, independently per table. X <= START (equal included) is underflow.
  TableIndex le;
  if (x > le_start) {
    le = c.le_linear ? linear_index(x - le_start, narrow_select(v, c.precision, c.le_index_select),
                                    kLutLeEntries, s.frac_bits)
                     : exponent_index(x - le_start, c.le_index_offset, s.frac_bits);
  }
  TableIndex lo;
  if (x > lo_start) {
    lo = linear_index(x - lo_start, narrow_select(v, c.precision, c.lo_index_select), kLutLoEntries,
                      s.frac_bits);
  }

  LutResult r;
  record(r, le, lo);

  const LutTableStatus chosen_status = select_table(c, r);
  const int16_t* table = r.lo_selected ? t.lo.data() : t.le.data();
  const TableIndex& ix = r.lo_selected ? lo : le;
  const Wide y0 = table[ix.index];

  if (chosen_status == LutTableStatus::Hit) {
    const Wide y1 = table[ix.index + 1];  // a hit index is at most DEPTH - 2
    const Wide f = static_cast<Wide>(ix.frac);
    if (v == LutVariant::Sdp) {
      // out = sat_32(rhaz((y0 * (2^35 - F) + y1 * F) / 2^35))
      const Wide sum = y0 * ((Wide{1} << 35) - f) + y1 * f;
      r.value = sat(rhaz_shift(sum, 35), 32);
    } else {
      // r = sat_16(y0 + rhaz((y1 - y0) * f16 / 2^16))
      r.value = sat(y0 + rhaz_shift((y1 - y0) * f, 16), 16);
    }
    return r;
  }

  // Under/overflow: linear extrapolation from the end entry with the table's slope.
  const bool lo_tab = r.lo_selected;
  Wide anchor;
  int16_t scale;
  int shift;
  if (r.uflow) {
    anchor = lo_tab ? lo_start : le_start;
    scale = lo_tab ? c.lo_uflow_scale : c.le_uflow_scale;
    shift = shift5(lo_tab ? c.lo_uflow_shift : c.le_uflow_shift);
    // Exponent-mode LE underflow: the first entry sits at START + 2^off. RTL rule: B = 2^off for
    // off >= 0 (so B = 1 at off = 0; the SDP C model has 0 there), B = 0 for negative off.
    const int off = c.le_index_offset;
    if (!lo_tab && !c.le_linear && off >= 0 && off <= s.max_bias_offset) {
      anchor += Wide{1} << off;
    }
  } else {
    anchor = lo_tab ? lo_end : le_end;
    scale = lo_tab ? c.lo_oflow_scale : c.le_oflow_scale;
    shift = shift5(lo_tab ? c.lo_oflow_shift : c.le_oflow_shift);
  }
  const Wide product = (x - anchor) * Wide{scale};
  if (v == LutVariant::Sdp) {
    // out = sat_32(y0 + sat_32(sshift((X - (A + B)) * scale)))
    r.value = sat(y0 + signed_shift_sat(product, shift, 32), 32);
  } else {
    // r = sat_16(y0 + sshift((Q - (A + B)) * scale)); the shifted product is exact in the RTL
    // (88 bits); clamping it to 64 bits first cannot change the 16-bit result.
    r.value = sat(y0 + signed_shift_sat(product, shift, 64), 16);
  }
  return r;
}

// ---- lookup, fp16 -----------------------------------------------------------------------------
// NVDLA v1's float LUT (docs/FP16.md "SDP EW and LUT", "CDP in fp16"): the index comes from
// D = X - START in fp32. SDP (sdp_y_idx, sdp_y_inp): a 35-bit fraction, FpFloatToIntFrac's
// linear index, the weighted sum y0 (1 - f) + y1 f in fp17. CDP (its HLS wrapper): a 16-bit
// truncated fraction, host float's exact linear index, y0 + fp17(y1 - y0) f in fp17, the
// extrapolation's product added first.

namespace {

int fp_frac_bits(LutVariant v) { return v == LutVariant::Sdp ? 35 : 16; }

// D = X - START; only D > 0 (not +-0, not NaN) lands in a table.
bool fp_below_start(uint32_t d) {
  return (d >> 31) != 0 || fp::is_zero(fp::kFp32, d) || fp::is_nan(fp::kFp32, d);
}

// SDP's linear index of D / 2^sel (FpFloatToIntFrac<8,23,8,9,35>): the hidden 1 is always set (a
// denormal D reads as 1.m * 2^-127), the exponent is kept in 8 signed bits (an exponent field
// of 255 reads as 2^-128), both parts are truncated, the integer part saturates at 511.
TableIndex sdp_fp_linear_index(uint32_t d, int sel, int depth) {
  const fp::Fields f = fp::unpack(fp::kFp32, d);
  const uint64_t m = f.mant | (1u << 23);
  const int abs_expo = static_cast<int8_t>(static_cast<uint8_t>(f.exp - 127));
  const int lshift = abs_expo - sel - 23;  // q = m * 2^lshift
  uint64_t i = 511;
  uint64_t frac = 0;
  if (lshift < 0) {
    constexpr int kBits = 35;
    i = -lshift >= 24 ? 0 : std::min<uint64_t>(m >> -lshift, 511);
    const int fs = kBits + lshift;  // the fraction: m * 2^fs, kept to 35 bits
    frac = fs >= 0 ? (fs >= 64 ? 0 : (m << fs) & ((uint64_t{1} << kBits) - 1)) : (-fs >= 24 ? 0 : m >> -fs);
  }
  if (i >= static_cast<uint64_t>(depth - 1)) return {LutTableStatus::Oflow, depth - 1, 0};
  return {LutTableStatus::Hit, static_cast<int>(i), frac};
}

// CDP's linear index: q = D / 2^sel exactly (host float; an infinity pattern is infinite),
// index floor(q), the 16-bit fraction floor(frac(q) * 2^16).
TableIndex cdp_fp_linear_index(uint32_t d, int sel, int depth) {
  const double q = std::ldexp(static_cast<double>(std::bit_cast<float>(d)), -sel);
  if (!(q < depth - 1)) return {LutTableStatus::Oflow, depth - 1, 0};
  const double i = std::floor(q);
  return {LutTableStatus::Hit, static_cast<int>(i), static_cast<uint64_t>(std::floor((q - i) * 65536.0))};
}

// Exponent index (LE only): the unbiased exponent of D; the fraction its mantissa (SDP all 23
// bits, CDP the top 16).
TableIndex fp_exponent_index(LutVariant v, uint32_t d, int off) {
  const fp::Fields f = fp::unpack(fp::kFp32, d);
  const int e = static_cast<int>(f.exp) - 127;
  if (e < off) return {LutTableStatus::Uflow, 0, 0};
  if (e - off >= kLutLeEntries - 1) return {LutTableStatus::Oflow, kLutLeEntries - 1, 0};
  const uint64_t frac = v == LutVariant::Sdp ? uint64_t{f.mant} << (35 - 23) : uint64_t{f.mant} >> (23 - 16);
  return {LutTableStatus::Hit, e - off, frac};
}

uint32_t u16(int16_t v) { return static_cast<uint16_t>(v); }
uint32_t u32(int64_t v) { return static_cast<uint32_t>(static_cast<uint64_t>(v)); }

}  // namespace

LutResult lut_lookup_fp(LutVariant v, const LutConfig& c, const LutTables& t, uint32_t x) {
  using fp::kFp16, fp::kFp17, fp::kFp32;
  const bool sdp = v == LutVariant::Sdp;
  const auto linear = sdp ? &sdp_fp_linear_index : &cdp_fp_linear_index;
  const uint32_t le_d = fp::sub(kFp32, x, u32(c.le_start)), lo_d = fp::sub(kFp32, x, u32(c.lo_start));
  TableIndex le;
  if (!fp_below_start(le_d)) {
    le = c.le_linear ? linear(le_d, c.le_index_select, kLutLeEntries) : fp_exponent_index(v, le_d, c.le_index_offset);
  }
  TableIndex lo;
  if (!fp_below_start(lo_d)) lo = linear(lo_d, c.lo_index_select, kLutLoEntries);
  LutResult r;
  record(r, le, lo);
  const LutTableStatus chosen = select_table(c, r);
  const int16_t* table = r.lo_selected ? t.lo.data() : t.le.data();
  const TableIndex& ix = r.lo_selected ? lo : le;
  const uint32_t y0 = fp::convert(kFp16, kFp17, u16(table[ix.index]));

  uint32_t o = 0;
  if (chosen == LutTableStatus::Hit) {
    const int fb = fp_frac_bits(v);
    const uint32_t f = fp::from_fraction(kFp17, ix.frac, fb);
    if (sdp) {
      // y0 * (1 - f) + y1 * f; f = 0 weighs y0 by exactly 1 (and y1 by +0, which keeps a NaN).
      const uint32_t y1 = fp::convert(kFp16, kFp17, u16(table[ix.index + 1]));
      const uint32_t a0 = ix.frac == 0 ? fp::pack(kFp17, {0, static_cast<uint32_t>(kFp17.bias()), 0})
                                       : fp::from_fraction(kFp17, (uint64_t{1} << fb) - ix.frac, fb);
      o = fp::add(kFp17, fp::mul(kFp17, a0, y0), fp::mul(kFp17, f, y1));
    } else {
      // (y1 - y0) in fp32, narrowed to fp17, times f, plus y0 (the product first).
      const uint32_t d = fp::sub(kFp32, fp::convert(kFp16, kFp32, u16(table[ix.index + 1])),
                                 fp::convert(kFp16, kFp32, u16(table[ix.index])));
      o = fp::add(kFp17, fp::mul(kFp17, fp::convert(kFp32, kFp17, d), f), y0);
    }
  } else {
    // y0 + (X - anchor) * scale in fp17; the anchor is START (underflow) or END (overflow), plus
    // 2^offset for an exponent-mode LE underflow (a host float: SDP's is denormal below 2^-126,
    // CDP's +0 for offset <= -127). No shift.
    const bool lo_tab = r.lo_selected;
    uint32_t gap = 0;
    int16_t scale = 0;
    if (r.uflow) {
      scale = lo_tab ? c.lo_uflow_scale : c.le_uflow_scale;
      gap = lo_tab ? lo_d : le_d;
      if (!lo_tab && !c.le_linear) {
        const int off = c.le_index_offset;
        const uint32_t bias = !sdp && off <= -127 ? 0u : std::bit_cast<uint32_t>(std::ldexp(1.0f, off));
        gap = fp::sub(kFp32, x, fp::add(kFp32, u32(c.le_start), bias));
      }
    } else {
      scale = lo_tab ? c.lo_oflow_scale : c.le_oflow_scale;
      gap = fp::sub(kFp32, x, u32(lo_tab ? c.lo_end : c.le_end));
    }
    const uint32_t b = fp::mul(kFp17, fp::convert(kFp32, kFp17, gap), fp::convert(kFp16, kFp17, u16(scale)));
    o = sdp ? fp::add(kFp17, y0, b) : fp::add(kFp17, b, y0);
  }
  r.value = sdp ? fp::convert(kFp17, kFp32, o) : o;
  return r;
}

// ---- statistics -----------------------------------------------------------------------------

namespace {
void bump(uint32_t& c) {
  if (c != 0xffffffffu) ++c;
}
}  // namespace

void accumulate(LutVariant v, LutStats& st, const LutResult& r) {
  if (v == LutVariant::Sdp) {
    if (r.uflow) bump(st.uflow);
    if (r.oflow) bump(st.oflow);
    if (!r.uflow && !r.oflow) bump(st.hybrid);
    if (r.le_hit) bump(st.le_hit);
    if (r.lo_hit) bump(st.lo_hit);
    return;
  }
  using S = LutTableStatus;
  if (r.le_status == S::Uflow && r.lo_status == S::Uflow) {
    bump(st.uflow);
  } else if (r.le_status == S::Oflow && r.lo_status == S::Oflow) {
    bump(st.oflow);
  } else if (r.le_hit && !r.lo_hit) {
    bump(st.le_hit);
  } else if (r.lo_hit && !r.le_hit) {
    bump(st.lo_hit);
  } else {
    bump(st.hybrid);  // both hit, or one uflow and the other oflow
  }
}

// ---- table programming ----------------------------------------------------------------------

bool LutRam::cfg_write(uint32_t word) {
  if (busy_) {
    error_ = true;
    return false;
  }
  table_lo_ = ((word >> 16) & 1u) != 0;
  write_ = ((word >> 17) & 1u) != 0;
  const uint32_t last = table_lo_ ? kLutLoEntries - 1 : kLutLeEntries - 1;
  const uint32_t a = word & 0x3ffu;
  addr_ = a > last ? last : a;
  return true;
}

uint32_t LutRam::cfg_read() const { return lut_access_cfg(table_lo_, write_, addr_); }

bool LutRam::data_write(uint32_t word) {
  if (busy_) {
    error_ = true;
    return false;
  }
  if (!write_) return true;  // access type READ: a DATA write is ignored
  const auto value = static_cast<int16_t>(sign_extend(word & 0xffffu, 16));
  const uint32_t last = table_lo_ ? kLutLoEntries - 1 : kLutLeEntries - 1;
  (table_lo_ ? tables_.lo[addr_] : tables_.le[addr_]) = value;
  if (addr_ < last) ++addr_;
  return true;
}

uint32_t LutRam::data_read() {
  const int16_t e = table_lo_ ? tables_.lo[addr_] : tables_.le[addr_];
  const uint32_t last = table_lo_ ? kLutLoEntries - 1 : kLutLeEntries - 1;
  if (!write_ && addr_ < last) ++addr_;
  return static_cast<uint16_t>(e);
}

}  // namespace dla::golden
