// The NVDLA integer arithmetic rules (../shared/reference/nvdla-arithmetic.md, "Key helper
// semantics"). Every rounding, shifting and saturating step of every golden unit goes through
// these functions: one rule, one place.
#pragma once

#include <cstdint>

namespace dla::golden {

// Wide enough for every intermediate in NVDLA's datapaths (CDP's flow path reaches 88 bits).
using Wide = __int128;

constexpr Wide min_of_bits(int bits) { return -(Wide{1} << (bits - 1)); }
constexpr Wide max_of_bits(int bits) { return (Wide{1} << (bits - 1)) - 1; }

// True when v lies outside the signed `bits`-bit range, i.e. sat() would clamp it.
constexpr bool saturates(Wide v, int bits) { return v < min_of_bits(bits) || v > max_of_bits(bits); }

// sat_N: clamp to the signed N-bit range [-2^(N-1), 2^(N-1)-1]; 1 <= bits <= 64.
constexpr int64_t sat(Wide v, int bits) {
  if (v < min_of_bits(bits)) return static_cast<int64_t>(min_of_bits(bits));
  if (v > max_of_bits(bits)) return static_cast<int64_t>(max_of_bits(bits));
  return static_cast<int64_t>(v);
}

// Reinterpret the low `bits` bits of raw as a two's-complement number.
constexpr int64_t sign_extend(uint64_t raw, int bits) {
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t v = raw & mask;
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// Arithmetic shift right without rounding (floor division by 2^s), s >= 0.
constexpr Wide floor_shift(Wide v, int s) { return s >= 127 ? (v < 0 ? -1 : 0) : (v >> s); }

// rhaz(v / 2^s): divide by 2^s, round half away from zero (-2.5 -> -3, 2.5 -> 3); s >= 0.
// Exact for every Wide v and every s: floor, then look at the shifted-out bits (no negation or
// addition that could overflow, so INT128_MIN and s near 127 are fine too).
constexpr Wide rhaz_shift(Wide v, int s) {
  using UWide = unsigned __int128;
  if (s == 0) return v;
  // |v| <= 2^127, so v / 2^s lies in [-0.5, 0.5); only -2^127 / 2^128 = -0.5 rounds away.
  // (-2^127 is built from the unsigned pattern: negating 2^127 would overflow.)
  if (s >= 128) return (s == 128 && v == static_cast<Wide>(UWide{1} << 127)) ? -1 : 0;
  const Wide floor_q = v >> s;
  const UWide rem = static_cast<UWide>(v) & ((UWide{1} << s) - 1);
  const UWide half = UWide{1} << (s - 1);
  // A tie rounds up for v >= 0 and stays at the floor (away from zero) for v < 0.
  const bool up = rem > half || (rem == half && v >= 0);
  return floor_q + (up ? 1 : 0);
}

// NVDLA shiftrightsu / IntShiftRight: sat_out(rhaz(v / 2^s)) for an unsigned shift amount.
// Follows the RTL where it differs from the C model: a shift of in_bits or more gives 0.
// `saturated`, when given, reports whether the clamp was applied (shiftrightsatsu's flag).
constexpr int64_t shift_right_sat(Wide v, int in_bits, int s, int out_bits, bool* saturated = nullptr) {
  const Wide r = s >= in_bits ? Wide{0} : rhaz_shift(v, s);
  if (saturated != nullptr) *saturated = saturates(r, out_bits);
  return sat(r, out_bits);
}

// The saturation flag of NVDLA's HLS IntShiftRightSat (SDP's and CDP's output converters): set where the
// result (rounded, saturated) differs from the plain floor shift by more than 1. So a value whose
// floor lies one past the range (2^(out_bits-1) or -2^(out_bits-1) - 1) is clamped but not
// flagged; NVIDIA's C model counts that way (nvdla/hw cmod/hls/include/nvdla_int.h), unlike the
// plain clamp flag of shift_right_sat.
constexpr int64_t shift_right_sat_hls(Wide v, int in_bits, int s, int out_bits, bool& saturated) {
  const int64_t r = shift_right_sat(v, in_bits, s, out_bits);
  const Wide floor_q = s >= in_bits ? (v < 0 ? Wide{-1} : Wide{0}) : floor_shift(v, s);
  saturated = floor_q - r > 1 || floor_q - r < -1;
  return r;
}

// NVDLA shiftrightss / IntSignedShiftRight: the shift amount is signed; s >= 0 shifts right
// with rhaz, s < 0 shifts left; the result is saturated to out_bits either way.
constexpr int64_t signed_shift_sat(Wide v, int s, int out_bits) {
  if (s >= 0) return sat(rhaz_shift(v, s), out_bits);
  const int left = -s;
  if (v == 0) return 0;
  // out_bits <= 64: any non-zero value shifted left by 64 or more saturates.
  if (left >= 64) return sat(v > 0 ? max_of_bits(100) : min_of_bits(100), out_bits);
  // Clamping v to 65 bits keeps the sign and the saturation outcome (|v| >= 2^64 saturates
  // anyway) while making v * 2^left (left <= 63) fit in Wide.
  const Wide v65 = v < min_of_bits(65) ? min_of_bits(65) : (v > max_of_bits(65) ? max_of_bits(65) : v);
  return sat(v65 * (Wide{1} << left), out_bits);
}

// NVDLA shiftleftsu / IntShiftLeft: sat_out(v * 2^s), s >= 0.
constexpr int64_t shift_left_sat(Wide v, int s, int out_bits) { return signed_shift_sat(v, -s, out_bits); }

}  // namespace dla::golden
