// CACC's fp16 accumulation (engines/conv/golden/cacc_fp16.hpp) against hand-worked values and
// double arithmetic. NVIDIA's CACC judges it bit for bit in tests/cmod/test_cacc_fp16_oracle.cpp.
#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <random>

#include "engines/conv/golden/cacc_fp16.hpp"

using namespace dla::golden;

namespace {

uint64_t word(int exp, int64_t mant) {
  return (static_cast<uint64_t>(exp) << 38) | (static_cast<uint64_t>(mant) & ((uint64_t{1} << 38) - 1));
}
double word_value(int exp, int64_t mant) { return std::ldexp(static_cast<double>(mant), exp - 50); }

double acc_value(CaccFp48 a) {
  int64_t m = static_cast<int64_t>(a & ((uint64_t{1} << 40) - 1));
  if ((m >> 39) != 0) m -= int64_t{1} << 40;
  return std::ldexp(static_cast<double>(m), static_cast<int>((a >> 40) & 0xff) - 101);
}

}  // namespace

TEST_CASE("cacc fp16: hand-worked accumulations", "[cacc][fp16]") {
  // 2^29 * 2^(28 - 50) = 128: normalized to 2^38 * 2^(70 - 101); fp32 exponent 70 + 64.
  const CaccFp48 a = cacc_fp16_add(0, word(28, int64_t{1} << 29));
  CHECK(a == ((uint64_t{70} << 40) | (uint64_t{1} << 38)));
  CHECK(acc_value(a) == 128.0);
  CHECK(cacc_fp48_to_fp32(a) == 0x43000000u);  // 128.0f
  CHECK(cacc_fp16_add(a, word(28, -(int64_t{1} << 29))) == 0);  // 128 - 128: an empty accumulator
  CHECK(cacc_fp16_add(a, word(28, 0)) == a);                      // a zero word changes nothing
  const CaccFp48 neg = cacc_fp16_add(0, word(0, -3));             // -3 * 2^-50
  CHECK(acc_value(neg) == -3.0 * std::ldexp(1.0, -50));
  CHECK(cacc_fp48_to_fp32(neg) == std::bit_cast<uint32_t>(static_cast<float>(-3.0 * std::ldexp(1.0, -50))));
  // A NaN word makes a NaN accumulator that stays: sign and fraction at the top, fp32 NaN out.
  const uint64_t nan_word = (uint64_t{0x3f} << 38) | (uint64_t{1} << 37) | (uint64_t{0x201} << 27);
  const CaccFp48 n = cacc_fp16_add(a, nan_word);
  CHECK((n >> 40) == 0xff);
  CHECK(cacc_fp16_add(n, word(28, 12345)) == n);
  CHECK(cacc_fp48_to_fp32(n) == 0xff800201u);
}

TEST_CASE("cacc fp16: chains equal the exact sum within the accumulator's rounding", "[cacc][fp16]") {
  std::mt19937_64 rng(3);
  for (int chain = 0; chain < 20'000; ++chain) {
    CaccFp48 acc = 0;
    double exact = 0.0;  // exact in double: the words' values span less than 2^53 here
    const int base = 4 * static_cast<int>(rng() % 12);
    const int length = 1 + static_cast<int>(rng() % 64);
    double bound = 0.0;
    for (int k = 0; k < length; ++k) {
      const int e = base + 4 * static_cast<int>(rng() % 3);
      const int64_t m = static_cast<int64_t>(rng() % (uint64_t{1} << 30)) - (int64_t{1} << 29);
      acc = cacc_fp16_add(acc, word(e, m));
      exact += word_value(e, m);
      // Each add rounds to the accumulator's 40-bit mantissa: half a unit of its last place.
      bound += std::ldexp(1.0, static_cast<int>((acc >> 40) & 0xff) - 101);
    }
    INFO("chain " << chain);
    CHECK(std::abs(acc_value(acc) - exact) <= bound);
    // The fp32 is the accumulator rounded to 24 bits: within half an fp32 unit.
    const auto f = std::bit_cast<float>(cacc_fp48_to_fp32(acc));
    const double v = acc_value(acc);
    if (v != 0.0) CHECK(std::abs(static_cast<double>(f) - v) <= std::ldexp(std::abs(v), -24));
    else CHECK(f == 0.0f);
  }
}
