// NVDLA v1's floating-point arithmetic (fp16, fp17, fp32): every float rule of every golden unit,
// once. These are NVDLA's rules, not IEEE 754's; docs/FP16.md lists each departure (no infinities
// out of arithmetic, denormal handling per operation, alignment without sticky bit, NaN payloads).
// Values travel as their bit patterns in the low bits of a uint32_t.
#pragma once

#include <cstdint>

namespace dla::golden::fp {

// A float format: 1 sign bit, exp_bits of biased exponent, mant_bits of stored mantissa.
struct Format {
  int exp_bits;
  int mant_bits;
  constexpr int width() const { return 1 + exp_bits + mant_bits; }
  constexpr uint32_t mask() const { return width() >= 32 ? ~0u : (1u << width()) - 1; }
  constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
  constexpr uint32_t exp_max() const { return (1u << exp_bits) - 1; }
  constexpr uint32_t mant_mask() const { return (1u << mant_bits) - 1; }
  friend constexpr bool operator==(Format, Format) = default;
};

inline constexpr Format kFp16{5, 10};
inline constexpr Format kFp17{6, 10};  // fp16 with one more exponent bit: SDP's internal format
inline constexpr Format kFp32{8, 23};

// Field views of a value's bits.
struct Fields {
  uint32_t sign;
  uint32_t exp;
  uint32_t mant;
};
Fields unpack(Format f, uint32_t bits);
uint32_t pack(Format f, Fields v);

bool is_nan(Format f, uint32_t bits);
bool is_inf(Format f, uint32_t bits);
bool is_zero(Format f, uint32_t bits);  // either sign
// The largest finite value of that sign: what NVDLA produces where IEEE would give infinity.
uint32_t max_finite(Format f, uint32_t sign);

// Arithmetic in one format (NVIDIA's FpAdd / FpSub / FpMul / FpMax / FpMin / FpRelu).
uint32_t add(Format f, uint32_t a, uint32_t b);
uint32_t sub(Format f, uint32_t a, uint32_t b);
uint32_t mul(Format f, uint32_t a, uint32_t b);
uint32_t max(Format f, uint32_t a, uint32_t b);
uint32_t min(Format f, uint32_t a, uint32_t b);
uint32_t relu(Format f, uint32_t a);

// Between formats: the six conversions NVDLA has (fp16 <-> fp17, fp16 <-> fp32, fp17 <-> fp32);
// any other pair throws std::invalid_argument.
uint32_t convert(Format from, Format to, uint32_t bits);

// A signed int_bits-bit integer (two's complement in the low bits of v) to a float, rounded to
// nearest even (NVIDIA's FpIntToFloat: int16 / int17 -> fp16).
uint32_t from_int(Format to, uint64_t v, int int_bits);
// An unsigned frac_bits-bit fraction, value v / 2^frac_bits, to a float (FpFractionToFloat:
// uint16 -> fp17, the LUT's interpolation fraction).
uint32_t from_fraction(Format to, uint64_t v, int frac_bits);
// A float to a signed int_bits-bit integer: |x| rounded half away from zero, saturated; NaN gives
// the most negative integer (FpFloatToInt: fp16 -> int16).
int64_t to_int(Format from, uint32_t bits, int int_bits);

}  // namespace dla::golden::fp

namespace dla::golden {

// PDP's D_RECIP_KERNEL_WIDTH / _HEIGHT for a kernel of k (1..8): 1/k in 0.16 fixed point,
// truncated, for integer data; 1/k rounded to fp17 for fp16 data (docs/FP16.md "PDP"). The PDP
// compiler, the loadable export and the firmware model program these, as NVIDIA's firmware does
// (pdp.c recip_kernel_size); throws std::invalid_argument outside 1..8.
uint32_t pdp_recip_kernel(bool fp16, int k);

}  // namespace dla::golden
