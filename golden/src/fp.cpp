// NVDLA v1's float rules (golden/include/golden/fp.hpp). Written from the behaviour of NVIDIA's
// float library of NVDLA v1 (the functions its HLS units were generated from) as documented in
// docs/FP16.md; tests/golden/test_fp.cpp checks them against hand-worked values and IEEE 754, and
// tests/cmod/test_fp_oracle.cpp against NVIDIA's own library on millions of operands.
#include "golden/fp.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "golden/arith.hpp"

namespace dla::golden::fp {
namespace {

constexpr uint64_t low_bits(uint64_t v, int n) { return n >= 64 ? v : v & ((uint64_t{1} << n) - 1); }
constexpr uint64_t bit(uint64_t v, int pos) { return pos >= 64 ? 0 : (v >> pos) & 1; }

// Leading zeros of v as a width-bit number (width when v is 0).
int leading_zeros(uint64_t v, int width) {
  return v == 0 ? width : width - (64 - __builtin_clzll(v));
}

bool is_zero_fields(Fields v) { return v.exp == 0 && v.mant == 0; }

// The significand with its leading bit: 1 for every value but an exact zero. NVDLA's add and
// multiply give denormals (exponent 0) a leading 1 too, as if they were 2^(1-bias-1) * 1.m.
uint64_t significand(Format f, Fields v) {
  return v.mant | (uint64_t{is_zero_fields(v) ? 0u : 1u} << f.mant_bits);
}

struct Rounded {
  uint64_t value;  // out_width bits
  bool overflow;   // the kept bits were all ones and rounded up: value wrapped to 0
};

// Keep the top out_width of in_width bits, rounding to nearest even on the dropped bits.
Rounded round_even(uint64_t v, int in_width, int out_width) {
  if (in_width <= out_width) return {v << (out_width - in_width), false};
  const int drop = in_width - out_width;
  const uint64_t kept = v >> drop;
  const bool guard = bit(v, drop - 1) != 0;
  const bool sticky = low_bits(v, drop - 1) != 0;
  const bool carry = guard && (sticky || (kept & 1) != 0);
  const uint64_t all = low_bits(~uint64_t{0}, out_width);
  return {(kept + (carry ? 1 : 0)) & all, carry && kept == all};
}

// A normal in_mant-bit mantissa (leading 1 implied) scaled by 2^-shift (shift >= 1) into an
// out_mant-bit denormal, rounded to nearest even; overflow when it rounds up to the smallest normal.
Rounded denormalize(uint64_t mant, int in_mant, int shift, int out_mant) {
  const int delta = in_mant - out_mant;
  const uint64_t full = mant | (uint64_t{1} << in_mant);
  const int guard_pos = delta + shift - 1;
  const bool guard = bit(full, guard_pos) != 0;
  const bool sticky = low_bits(full, guard_pos) != 0;
  const bool lsb = bit(full, guard_pos + 1) != 0;
  const bool carry = guard && (sticky || lsb);
  const uint64_t kept = low_bits((full >> shift) >> delta, out_mant + 1);
  const uint64_t sum = low_bits(kept + (carry ? 1 : 0), out_mant + 1);
  return {low_bits(sum, out_mant), bit(sum, out_mant) != 0};
}

Fields nan_of(Format to, uint32_t sign, uint64_t payload) {
  return {sign, to.exp_max(), static_cast<uint32_t>(low_bits(payload, to.mant_bits))};
}

// Exponent widening with the mantissa width kept (fp16 -> fp17, the second step of fp16 -> fp32).
uint32_t widen_exponent(Format from, Format to, Fields in, bool keep_denormals) {
  const uint32_t delta = static_cast<uint32_t>(to.bias() - from.bias());
  const uint32_t in_exp_max = from.exp_max();
  if (in.exp == in_exp_max) {
    // Infinity becomes the largest finite value; NaN keeps sign and payload.
    return in.mant == 0 ? max_finite(to, in.sign) : pack(to, nan_of(to, in.sign, in.mant));
  }
  if (is_zero_fields(in)) return pack(to, {in.sign, 0, 0});
  if (keep_denormals && in.exp == 0) {
    const int lz = leading_zeros(in.mant, from.mant_bits);
    return pack(to, {in.sign, delta - static_cast<uint32_t>(lz),
                     static_cast<uint32_t>(low_bits(uint64_t{in.mant} << (lz + 1), to.mant_bits))});
  }
  // Without denormals, exponent 0 is taken as a normal exponent (fp17 -> fp32).
  return pack(to, {in.sign, in.exp + delta, in.mant});
}

uint32_t widen(Format from, Format to, uint32_t bits, bool keep_denormals) {
  Fields in = unpack(from, bits);
  const bool nan = in.exp == from.exp_max() && in.mant != 0;
  // The mantissa grows first; a NaN's payload stays in the low bits.
  if (!nan) in.mant <<= (to.mant_bits - from.mant_bits);
  return widen_exponent({from.exp_bits, to.mant_bits}, to, in, keep_denormals);
}

// Narrowing (fp17 -> fp16, fp32 -> fp16, fp32 -> fp17).
uint32_t narrow(Format from, Format to, uint32_t bits, bool keep_denormals) {
  const Fields in = unpack(from, bits);
  if (in.exp == from.exp_max() && in.mant != 0) return pack(to, nan_of(to, in.sign, in.mant));
  const int64_t delta = from.bias() - to.bias();
  const int64_t exp = in.exp;
  const uint32_t inf = max_finite(to, in.sign);
  const uint32_t zero = pack(to, {in.sign, 0, 0});
  if (exp >= static_cast<int64_t>(to.exp_max()) + delta) return inf;
  if (exp < delta - to.mant_bits) return zero;
  if (exp <= delta) {
    const Rounded r = denormalize(in.mant, from.mant_bits, static_cast<int>(delta - exp + 1), to.mant_bits);
    if (r.overflow) return pack(to, {in.sign, 1, static_cast<uint32_t>(r.value)});
    return keep_denormals ? pack(to, {in.sign, 0, static_cast<uint32_t>(r.value)}) : zero;
  }
  uint32_t out_exp = static_cast<uint32_t>(exp - delta);
  const Rounded r = round_even(in.mant | (uint64_t{1} << from.mant_bits), from.mant_bits + 1, to.mant_bits + 1);
  if (r.overflow && ++out_exp == to.exp_max()) return inf;
  return pack(to, {in.sign, out_exp, static_cast<uint32_t>(low_bits(r.value, to.mant_bits))});
}

// NaN operands pass through, the first operand's first.
bool nan_operand(Format f, uint32_t a, uint32_t b, uint32_t& out) {
  if (is_nan(f, a)) {
    out = a & f.mask();
    return true;
  }
  if (is_nan(f, b)) {
    out = b & f.mask();
    return true;
  }
  return false;
}

}  // namespace

Fields unpack(Format f, uint32_t bits) {
  return {(bits >> (f.exp_bits + f.mant_bits)) & 1u, (bits >> f.mant_bits) & f.exp_max(), bits & f.mant_mask()};
}

uint32_t pack(Format f, Fields v) {
  return ((v.sign & 1u) << (f.exp_bits + f.mant_bits)) | ((v.exp & f.exp_max()) << f.mant_bits) |
         (v.mant & f.mant_mask());
}

bool is_nan(Format f, uint32_t bits) {
  const Fields v = unpack(f, bits);
  return v.exp == f.exp_max() && v.mant != 0;
}

bool is_inf(Format f, uint32_t bits) {
  const Fields v = unpack(f, bits);
  return v.exp == f.exp_max() && v.mant == 0;
}

bool is_zero(Format f, uint32_t bits) { return is_zero_fields(unpack(f, bits)); }

uint32_t max_finite(Format f, uint32_t sign) { return pack(f, {sign, f.exp_max() - 1, f.mant_mask()}); }

uint32_t add(Format f, uint32_t a, uint32_t b) {
  const Fields x = unpack(f, a);
  const Fields y = unpack(f, b);
  const int m = f.mant_bits;
  const int64_t exp_max = f.exp_max();
  // Both significands sit m + 2 bits up in a 2m + 3-bit register; the smaller one is shifted
  // right into it and the bits that fall out are lost (no sticky bit: not IEEE's rounding).
  const int guard = m + 2;
  const int width = 2 * m + 3;
  const bool a_larger = x.exp > y.exp || (x.exp == y.exp && x.mant >= y.mant);
  const Fields& big = a_larger ? x : y;
  const Fields& small = a_larger ? y : x;
  const int dist = static_cast<int>(big.exp - small.exp);
  const uint64_t l = significand(f, big) << guard;
  const uint64_t s = dist <= guard ? significand(f, small) << (guard - dist)
                                   : (dist - guard >= 64 ? 0 : significand(f, small) >> (dist - guard));
  const uint64_t sum = x.sign == y.sign ? l + s : l - s;

  const uint32_t sign = big.sign;  // also the sign of an exact zero: 1 + -1 = +0, -1 + 1 = -0
  int64_t exp = big.exp;
  bool inf = false;
  uint64_t mant = 0;
  if (bit(sum, width) != 0) {
    if (exp < exp_max - 1) {
      ++exp;
      mant = sum >> 1;
    } else {
      inf = true;
    }
  } else {
    const int lz = leading_zeros(sum, width);
    if (sum == 0 || exp <= lz) {
      exp = 0;  // below the normal range: flushed to zero
    } else {
      exp -= lz;
      mant = low_bits(sum << lz, width);
    }
  }
  uint32_t out = 0;
  if (!nan_operand(f, a, b, out)) {
    const Rounded r = round_even(mant, width, m + 1);
    if (!inf && r.overflow) {
      if (exp < exp_max - 1) {
        ++exp;
      } else {
        inf = true;
      }
    }
    out = inf ? max_finite(f, sign)
              : pack(f, {sign, static_cast<uint32_t>(exp), static_cast<uint32_t>(low_bits(r.value, m))});
  }
  return out;
}

uint32_t sub(Format f, uint32_t a, uint32_t b) {
  return add(f, a, b ^ (uint32_t{1} << (f.exp_bits + f.mant_bits)));
}

uint32_t mul(Format f, uint32_t a, uint32_t b) {
  uint32_t out = 0;
  if (nan_operand(f, a, b, out)) return out;
  const Fields x = unpack(f, a);
  const Fields y = unpack(f, b);
  const int m = f.mant_bits;
  const int64_t exp_max = f.exp_max();
  const int64_t bias = f.bias();
  const uint32_t sign = x.sign ^ y.sign;
  const uint32_t zero = pack(f, {sign, 0, 0});
  const int64_t exp_sum = int64_t{x.exp} + y.exp;
  if (is_zero_fields(x) || is_zero_fields(y) || exp_sum < bias) return zero;
  if (exp_sum >= exp_max + bias) return max_finite(f, sign);
  // The exact product has 2m + 2 bits; its leading 1 is at bit 2m + 1 or 2m.
  const int pm = 2 * m + 1;
  const uint64_t product = significand(f, x) * significand(f, y);
  int64_t exp = exp_sum - bias;
  uint64_t frac = 0;
  if (bit(product, pm) != 0) {
    if (exp >= exp_max - 1) return max_finite(f, sign);
    ++exp;
    frac = low_bits(product, pm);
  } else {
    frac = low_bits(product << 1, pm);
  }
  const Rounded r = round_even(frac | (uint64_t{1} << pm), pm + 1, m + 1);
  if (r.overflow && ++exp == exp_max) return max_finite(f, sign);
  if (exp == 0) return zero;  // below the normal range: flushed to zero
  return pack(f, {sign, static_cast<uint32_t>(exp), static_cast<uint32_t>(low_bits(r.value, m))});
}

namespace {
// a > b by sign and magnitude; +0 > -0, and between equal values the second is "greater".
bool greater(Format f, uint32_t a, uint32_t b) {
  const Fields x = unpack(f, a);
  const Fields y = unpack(f, b);
  const bool abs_greater = x.exp != y.exp ? x.exp > y.exp : x.mant > y.mant;
  if (x.sign == 0) return y.sign != 0 || abs_greater;
  return y.sign != 0 && !abs_greater;
}
}  // namespace

uint32_t max(Format f, uint32_t a, uint32_t b) {
  uint32_t out = 0;
  if (nan_operand(f, a, b, out)) return out;
  return (greater(f, a, b) ? a : b) & f.mask();
}

uint32_t min(Format f, uint32_t a, uint32_t b) {
  uint32_t out = 0;
  if (nan_operand(f, a, b, out)) return out;
  return (greater(f, a, b) ? b : a) & f.mask();
}

uint32_t relu(Format f, uint32_t a) {
  const Fields v = unpack(f, a);
  return (v.sign == 0 || is_nan(f, a)) ? a & f.mask() : 0u;
}

uint32_t convert(Format from, Format to, uint32_t bits) {
  if (from == kFp16 && to == kFp17) return widen(from, to, bits, true);
  if (from == kFp16 && to == kFp32) return widen(from, to, bits, true);
  if (from == kFp17 && to == kFp32) return widen(from, to, bits, false);
  if (from == kFp17 && to == kFp16) return narrow(from, to, bits, true);
  if (from == kFp32 && to == kFp16) return narrow(from, to, bits, true);
  if (from == kFp32 && to == kFp17) return narrow(from, to, bits, false);
  throw std::invalid_argument("fp::convert: NVDLA has no conversion between these formats");
}

uint32_t from_int(Format to, uint64_t v, int int_bits) {
  const int64_t value = sign_extend(v, int_bits);
  if (value == 0) return 0;
  const uint32_t sign = value < 0 ? 1u : 0u;
  const uint64_t magnitude = value < 0 ? uint64_t(0) - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const int lz = leading_zeros(magnitude, int_bits);
  uint64_t exp = (static_cast<uint64_t>(int_bits - 1 - lz + to.bias())) & to.exp_max();
  const Rounded r = round_even(low_bits(magnitude << lz, int_bits), int_bits, to.mant_bits + 1);
  if (exp == to.exp_max()) return max_finite(to, sign);
  if (r.overflow && ++exp >= to.exp_max()) return max_finite(to, sign);
  return pack(to, {sign, static_cast<uint32_t>(exp), static_cast<uint32_t>(low_bits(r.value, to.mant_bits))});
}

uint32_t from_fraction(Format to, uint64_t v, int frac_bits) {
  v = low_bits(v, frac_bits);
  if (v == 0) return 0;
  const int lz = leading_zeros(v, frac_bits);
  const uint64_t normalized = low_bits(v << (lz + 1), frac_bits + 1);  // leading 1 at bit frac_bits
  const int64_t exp = to.bias() - lz - 1;
  if (frac_bits <= to.mant_bits) {
    return pack(to, {0, static_cast<uint32_t>(exp),
                     static_cast<uint32_t>(low_bits(normalized, frac_bits) << (to.mant_bits - frac_bits))});
  }
  const Rounded r = round_even(normalized, frac_bits + 1, to.mant_bits + 1);
  if (r.overflow) return pack(to, {0, static_cast<uint32_t>(exp + 1), 0});
  if (exp <= 0) return 0;
  return pack(to, {0, static_cast<uint32_t>(exp), static_cast<uint32_t>(low_bits(r.value, to.mant_bits))});
}

int64_t to_int(Format from, uint32_t bits, int int_bits) {
  const Fields v = unpack(from, bits);
  const int64_t int_max = static_cast<int64_t>(max_of_bits(int_bits));
  const int64_t int_min = static_cast<int64_t>(min_of_bits(int_bits));
  if (is_nan(from, bits)) return int_min;
  // Every value, zero and denormals included, is read as 1.m * 2^(exp - bias); zero and the
  // denormals are far below one half, so they round to 0 all the same.
  const Wide significand_all = Wide(v.mant) | (Wide{1} << from.mant_bits);
  const int shift = from.mant_bits - (static_cast<int>(v.exp) - from.bias());
  const Wide magnitude = shift <= 0 ? significand_all << -shift : rhaz_shift(significand_all, shift);
  if (magnitude > int_max) return v.sign != 0 ? int_min : int_max;
  return static_cast<int64_t>(v.sign != 0 ? -magnitude : magnitude);
}

}  // namespace dla::golden::fp

namespace dla::golden {

uint32_t pdp_recip_kernel(bool fp16, int k) {
  if (k < 1 || k > 8) throw std::invalid_argument("pdp_recip_kernel: a pooling kernel is 1..8, not " + std::to_string(k));
  if (!fp16) return 0x10000u / static_cast<uint32_t>(k);
  return fp::convert(fp::kFp32, fp::kFp17, std::bit_cast<uint32_t>(1.0f / static_cast<float>(k)));
}

}  // namespace dla::golden
