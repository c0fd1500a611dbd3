// CACC's fp16 accumulation (engines/conv/golden/cacc_fp16.hpp), written from the behaviour of
// NVDLA v1's CACC as docs/FP16.md "CACC" describes it.
#include "engines/conv/golden/cacc_fp16.hpp"

#include "golden/arith.hpp"

namespace dla::golden {
namespace {

constexpr int kMant = 40;  // the accumulator's mantissa
constexpr int kMacMant = 38;

constexpr uint64_t low(uint64_t v, int n) { return n >= 64 ? v : v & ((uint64_t{1} << n) - 1); }
constexpr uint64_t low(int64_t v, int n) { return low(static_cast<uint64_t>(v), n); }
constexpr int bit(int64_t v, int i) { return static_cast<int>((static_cast<uint64_t>(v) >> i) & 1); }
constexpr int bit(uint64_t v, int i) { return static_cast<int>((v >> i) & 1); }

// How far a width-bit two's complement value shifts left before its sign bit would change: the
// run of copies of the sign below it.
int sign_run(int64_t v, int width) {
  const int s = bit(v, width - 1);
  int i = width - 2;
  while (i >= 0 && bit(v, i) == s) --i;
  return width - 2 - i;
}

// A NaN accumulator: exponent all ones, the NaN's sign and fraction (11 bits) at the top.
CaccFp48 nan_of(uint64_t sign_and_fraction) {
  return (uint64_t{0xff} << kMant) | (low(sign_and_fraction, 11) << (kMant - 11));
}

}  // namespace

CaccFp48 cacc_fp16_add(CaccFp48 acc, uint64_t mac_word) {
  const auto mac_exp = static_cast<int>((mac_word >> kMacMant) & 0x3f);
  const int64_t mac = sign_extend(mac_word, kMacMant);
  auto acc_exp = static_cast<int>((acc >> kMant) & 0xff);
  const int64_t acc_m = sign_extend(acc, kMant);
  if (mac == 0) return acc;  // a zero word leaves the accumulator as it is, NaN included
  if (acc_exp == 0xff) return nan_of(low(acc_m >> (kMant - 11), 11));
  if (mac_exp == 0x3f) return nan_of(low(mac >> (kMacMant - 11), 11));

  // The word normalized (its sign bit and leading digit apart), placed two bits up in 40 bits;
  // exponent rebased: the word's value is mac * 2^(mac_exp - 50), the accumulator's m * 2^(e - 101).
  const int n0 = sign_run(mac, kMacMant);
  int64_t mac_ext = sign_extend(low(static_cast<uint64_t>(mac) << n0, kMacMant), kMacMant) * 4;
  const int mac_norm_exp = (mac_exp - n0 + 49) & 0xff;
  if (acc_m == 0) acc_exp = 0;
  int64_t acc_ext = acc_m;

  // The smaller operand is shifted right (arithmetically) to the larger exponent; the bits it
  // loses are kept for rounding. Beyond 40 places it becomes 0, for a negative value too.
  uint64_t lost = 0;
  int exp = mac_norm_exp;
  auto align = [&lost](int64_t& v, int dist) {
    if (dist > kMant) {
      v = 0;
      return;
    }
    lost = low(low(v, dist) << (kMant - dist), kMant);
    v >>= dist;
  };
  if (mac_norm_exp > acc_exp) {
    align(acc_ext, mac_norm_exp - acc_exp);
  } else if (mac_norm_exp < acc_exp) {
    exp = acc_exp;
    align(mac_ext, acc_exp - mac_norm_exp);
  }

  const int64_t raw = sign_extend(low(acc_ext + mac_ext, kMant), kMant);
  int64_t sum = raw;
  bool overflow = false;
  int overflow_bit = 0;
  if (bit(mac_ext, kMant - 1) == bit(acc_ext, kMant - 1) && bit(mac_ext, kMant - 1) != bit(raw, kMant - 1)) {
    // Signed overflow: one bit right, the true sign on top.
    overflow = true;
    overflow_bit = bit(raw, 0);
    sum = sign_extend((uint64_t(bit(mac_ext, kMant - 1)) << (kMant - 1)) | (low(raw, kMant) >> 1), kMant);
    ++exp;
  } else if (bit(raw, kMant - 2) == bit(raw, kMant - 1)) {
    // Left to normalize, the lost bits shifting back in.
    const int n1 = sign_run(raw, kMant);
    sum = sign_extend((low(raw, kMant - n1) << n1) | (lost >> (kMant - n1)), kMant);
    lost = low(lost << n1, kMant);
    exp -= n1;
  }
  // Round half away from zero: a positive sum rounds up on its guard bit, a negative one (two's
  // complement, so truncated downwards) only when guard and sticky bits are both set.
  const bool guard = overflow ? overflow_bit != 0 : bit(lost, kMant - 1) != 0;
  const bool sticky = overflow ? lost != 0 : low(lost, kMant - 1) != 0;
  const bool negative = bit(sum, kMant - 1) != 0;
  const bool round = negative ? guard && sticky : guard;
  int64_t result = sign_extend(low(sum + (round ? 1 : 0), kMant), kMant);
  if (bit(result, kMant - 1) != bit(sum, kMant - 1)) {
    result = sign_extend((uint64_t(bit(sum, kMant - 1)) << (kMant - 1)) | (low(result, kMant) >> 1), kMant);
    ++exp;
  }
  const uint64_t out_exp = result == 0 ? 0 : static_cast<uint64_t>(exp) & 0xff;
  return (out_exp << kMant) | low(result, kMant);
}

uint32_t cacc_fp48_to_fp32(CaccFp48 acc) {
  const auto exp = static_cast<uint32_t>((acc >> kMant) & 0xff);
  const int64_t m = sign_extend(acc, kMant);
  const auto sign = static_cast<uint32_t>(bit(m, kMant - 1));
  if (exp == 0xff) return (sign << 31) | (0xffu << 23) | static_cast<uint32_t>(low(m >> (kMant - 11), 10));
  if (sign != 0 && low(m, kMant - 1) == 0) {
    // -2^39: a magnitude one bit longer than any other.
    return (1u << 31) | (((exp + 65) & 0xffu) << 23);
  }
  // Sign and magnitude; the magnitude's leading 1 is bit 38 for every normalized accumulator.
  const uint64_t magnitude = sign != 0 ? low(~low(m, kMant - 1) + 1, kMant - 1) : low(m, kMant - 1);
  const uint64_t sm = (uint64_t{sign} << (kMant - 1)) | magnitude;
  uint32_t out_exp = low(m, kMant) == 0 ? 0 : (exp + 64) & 0xffu;
  uint64_t fraction = 0;
  // 24 bits kept, rounded half up in magnitude on the next bit alone.
  if (bit(sm, kMant - 26) != 0) {
    uint64_t t = low((sm >> (kMant - 25)) + 1, 25);
    if (bit(t, 24) != static_cast<int>(sign)) {
      t = (uint64_t{sign} << 24) | (t >> 1);
      out_exp = (out_exp + 1) & 0xffu;
    }
    fraction = low(t, 23);
  } else {
    fraction = low(sm >> (kMant - 25), 23);
  }
  return (sign << 31) | (out_exp << 23) | static_cast<uint32_t>(fraction);
}

}  // namespace dla::golden
