// The golden float rules (golden/include/golden/fp.hpp) against expectations that do not come
// from them: values worked by hand (docs/FP16.md lists each NVDLA departure from IEEE 754), and
// IEEE 754 arithmetic of the compiler (_Float16, float, double: correctly rounded to nearest even)
// on every operand where NVDLA's rules and IEEE's coincide. The bit-exact judge of the rest is
// NVIDIA's own library (tests/cmod/test_fp_oracle.cpp).
#include <catch2/catch.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "common/fp_operands.hpp"
#include "golden/fp.hpp"

namespace fp = dla::golden::fp;
using fp::kFp16;
using fp::kFp17;
using fp::kFp32;

namespace {

double value_of(fp::Format f, uint32_t bits) {
  const fp::Fields v = fp::unpack(f, bits);
  const double sign = v.sign != 0 ? -1.0 : 1.0;
  if (v.exp == 0) return sign * std::ldexp(static_cast<double>(v.mant), 1 - f.bias() - f.mant_bits);
  return sign * std::ldexp(static_cast<double>(v.mant | (1u << f.mant_bits)), static_cast<int>(v.exp) - f.bias() - f.mant_bits);
}

uint32_t ieee16(double d) { return std::bit_cast<uint16_t>(static_cast<_Float16>(d)); }
uint32_t ieee32(double d) { return std::bit_cast<uint32_t>(static_cast<float>(d)); }
uint32_t ieee(fp::Format f, double d) { return f == kFp16 ? ieee16(d) : ieee32(d); }

bool normal(fp::Format f, uint32_t bits) {
  const fp::Fields v = fp::unpack(f, bits);
  return v.exp != 0 && v.exp != f.exp_max();
}

}  // namespace

TEST_CASE("fp: hand-worked values, each NVDLA departure from IEEE 754", "[fp]") {
  // Ordinary arithmetic.
  CHECK(fp::add(kFp16, 0x3c00, 0x3c00) == 0x4000);  // 1 + 1 = 2
  CHECK(fp::mul(kFp16, 0x3e00, 0x4000) == 0x4200);  // 1.5 * 2 = 3
  CHECK(fp::sub(kFp16, 0x4200, 0x3c00) == 0x4000);  // 3 - 1 = 2
  CHECK(fp::add(kFp32, 0x3f800000, 0x33800000) == 0x3f800000);  // 1 + 2^-24: a tie, to even
  CHECK(fp::add(kFp32, 0x3f800001, 0x33800000) == 0x3f800002);  // 1 + ulp + half ulp: a tie, to even
  // No infinity from arithmetic: overflow gives the largest finite value (IEEE: infinity).
  CHECK(fp::add(kFp16, 0x7bff, 0x7bff) == 0x7bff);
  CHECK(fp::mul(kFp16, 0xfbff, 0x4000) == 0xfbff);
  CHECK(fp::add(kFp16, 0x7c00, 0x7c00) == 0x7bff);  // inf + inf
  CHECK(fp::add(kFp16, 0x7c00, 0x7800) == 0x7e00);  // inf + 32768: a NaN pattern of two non-NaNs
  CHECK(fp::mul(kFp16, 0x7c00, 0x3800) == 0x7800);  // inf * 0.5 = 2^16 * 0.5
  // A denormal operand is read as a normal one of exponent field 0: 0x0001 is (1 + 2^-10) * 2^-15,
  // so 0x0001 + 0x0001 = (1 + 2^-10) * 2^-14 (IEEE: 2^-24 + 2^-24 = 2^-23, 0x0002).
  CHECK(fp::add(kFp16, 0x0001, 0x0001) == 0x0401);
  CHECK(fp::mul(kFp16, 0x0001, 0x4400) == 0x0801);  // * 4: (1 + 2^-10) * 2^-13 (IEEE: 0x0004)
  // Results below the normal range are flushed to a signed zero.
  CHECK(fp::sub(kFp16, 0x0401, 0x0400) == 0x0000);  // 2^-24 (IEEE: 0x0001)
  CHECK(fp::mul(kFp16, 0x0400, 0x3800) == 0x0000);   // 2^-14 * 0.5
  CHECK(fp::mul(kFp16, 0x07ff, 0x37ff) == 0x0000);   // just below 2^-14: IEEE rounds up to 0x0400
  CHECK(fp::mul(kFp16, 0x8400, 0x3800) == 0x8000);
  // An exact zero sum takes the first operand's sign when magnitudes are equal (IEEE: +0).
  CHECK(fp::add(kFp16, 0x3c00, 0xbc00) == 0x0000);
  CHECK(fp::add(kFp16, 0xbc00, 0x3c00) == 0x8000);
  // NaN operands pass through unchanged, the first operand's first.
  CHECK(fp::add(kFp16, 0x7e01, 0x3c00) == 0x7e01);
  CHECK(fp::mul(kFp16, 0x3c00, 0xfd55) == 0xfd55);
  CHECK(fp::sub(kFp16, 0x3c00, 0x7e00) == 0xfe00);  // the subtrahend's sign flips first
  CHECK(fp::max(kFp16, 0x7d00, 0x7e00) == 0x7d00);
  // +0 is greater than -0.
  CHECK(fp::max(kFp16, 0x8000, 0x0000) == 0x0000);
  CHECK(fp::min(kFp16, 0x0000, 0x8000) == 0x8000);
  // Conversions: infinity becomes the largest finite value of the wider format.
  CHECK(fp::convert(kFp16, kFp32, 0x7c00) == 0x7f7fffff);
  CHECK(fp::convert(kFp16, kFp17, 0xfc00) == 0x1fbff);
  CHECK(fp::convert(kFp16, kFp32, 0x3c00) == 0x3f800000);
  CHECK(fp::convert(kFp16, kFp32, 0x0001) == 0x33800000);  // denormals are kept: 2^-24
  CHECK(fp::convert(kFp16, kFp17, 0x0200) == 0x04000);     // 2^-15 = 2^(16-31)
  // A NaN keeps its payload bits in place: fp16 -> fp32 leaves them low; fp32 -> fp16 cuts them,
  // so the quiet NaN 0x7fc00000 becomes the pattern of infinity.
  CHECK(fp::convert(kFp16, kFp32, 0x7e00) == 0x7f800200);
  CHECK(fp::convert(kFp32, kFp16, 0x7fc00000) == 0x7c00);
  CHECK(fp::convert(kFp32, kFp16, 0x7f800001) == 0x7c01);
  CHECK(fp::convert(kFp32, kFp16, 0x477fefff) == 0x7bff);  // 65519.99: rounds down
  CHECK(fp::convert(kFp32, kFp16, 0x477ff000) == 0x7bff);  // 65520: IEEE rounds to infinity
  CHECK(fp::convert(kFp32, kFp16, 0x33000001) == 0x0001);  // just over half of 2^-24
  CHECK(fp::convert(kFp32, kFp16, 0x33000000) == 0x0000);  // exactly half: to even
  CHECK(fp::convert(kFp32, kFp17, 0x30000000) == 0x00000);  // fp17 keeps no denormal: 2^-31
  CHECK(fp::convert(kFp17, kFp16, 0x07c00) == 0x3c00);      // 1.0 (fp17's bias is 31)
  CHECK(fp::convert(kFp17, kFp32, 0x00001) == 0x30002000);  // exponent 0 read as 1.m * 2^-31
  CHECK(fp::convert(kFp32, kFp17, 0x307fffff) == 0x00400);  // rounds up to fp17's smallest normal
  // Integers: rounded to nearest even in; |x| rounded half away from zero out, saturated.
  CHECK(fp::from_int(kFp16, 0x8000, 16) == 0xf800);   // -32768
  CHECK(fp::from_int(kFp16, 2049, 16) == 0x6800);     // 2049: a tie, to even (2048)
  CHECK(fp::from_int(kFp16, 2051, 16) == 0x6802);     // 2051: a tie, to even (2052)
  CHECK(fp::from_int(kFp16, 65535, 17) == 0x7bff);    // IEEE: infinity
  CHECK(fp::from_fraction(kFp17, 0x8000, 16) == 0x7800);  // 0.5
  CHECK(fp::from_fraction(kFp17, 0xffff, 16) == 0x7c00);  // rounds up to 1.0
  CHECK(fp::to_int(kFp16, 0x4100, 16) == 3);     // 2.5 -> 3
  CHECK(fp::to_int(kFp16, 0xc100, 16) == -3);    // -2.5 -> -3
  CHECK(fp::to_int(kFp16, 0x3800, 16) == 1);     // 0.5 -> 1
  CHECK(fp::to_int(kFp16, 0x7bff, 16) == 32767);
  CHECK(fp::to_int(kFp16, 0xfc00, 16) == -32768);
  CHECK(fp::to_int(kFp16, 0x7e00, 16) == -32768);  // NaN
  CHECK(fp::relu(kFp16, 0xbc00) == 0x0000);
  CHECK(fp::relu(kFp16, 0xfe00) == 0xfe00);  // a NaN passes
  CHECK_THROWS_AS(fp::convert(kFp16, kFp16, 0), std::invalid_argument);
}

TEST_CASE("fp: add and mul equal IEEE 754 on normal operands with exact results in the normal range", "[fp]") {
  dla::test::FpOperands draw(2026);
  for (fp::Format f : {kFp16, kFp32}) {
    int checked_add = 0;
    int checked_mul = 0;
    int checked_dropped = 0;
    for (int i = 0; i < 600'000; ++i) {
      const uint32_t a = draw.one(f);
      const uint32_t b = draw.draw(2) ? draw.partner(f, a) : draw.one(f);
      if (!normal(f, a) || !normal(f, b)) continue;
      const double x = value_of(f, a);
      const double y = value_of(f, b);
      // Products of two normals are exact in double; so are fp16 sums and fp32 sums whose
      // exponents differ by less than 29.
      // A product or sum below the smallest normal is flushed to zero before rounding (IEEE may
      // round it up to the smallest normal): only exact results in the normal range compare.
      const double min_normal = std::ldexp(1.0, 1 - f.bias());
      const uint32_t p = ieee(f, x * y);
      if (normal(f, p) && std::abs(x * y) >= min_normal) {
        CHECK(fp::mul(f, a, b) == p);
        ++checked_mul;
      }
      const int dist = std::abs(static_cast<int>(fp::unpack(f, a).exp) - static_cast<int>(fp::unpack(f, b).exp));
      if (x + y == 0.0 || (f == kFp32 && dist >= 29)) continue;
      const uint32_t s = ieee(f, x + y);
      if (!normal(f, s) || std::abs(x + y) < min_normal) continue;
      // Where the smaller operand loses bits out of the alignment register (no sticky bit), the
      // m + 2 guard bits still decide the rounding as IEEE's would.
      CHECK(fp::add(f, a, b) == s);
      if (dist <= f.mant_bits + 2) {
        ++checked_add;
      } else {
        ++checked_dropped;
      }
    }
    CHECK(checked_add > 100'000);
    CHECK(checked_mul > 100'000);
    CHECK(checked_dropped > 1'000);
  }
}

TEST_CASE("fp: conversions equal IEEE 754 on every value both represent", "[fp]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (fp::unpack(kFp16, h).exp == kFp16.exp_max()) continue;
    const double v = value_of(kFp16, h);
    CHECK(fp::convert(kFp16, kFp32, h) == ieee32(v));
    CHECK(value_of(kFp17, fp::convert(kFp16, kFp17, h)) == v);
    // Back from fp32 and fp17 unchanged.
    CHECK(fp::convert(kFp32, kFp16, ieee32(v)) == h);
    if (fp::unpack(kFp16, h).exp != 0) CHECK(fp::convert(kFp17, kFp16, fp::convert(kFp16, kFp17, h)) == h);
    // To int16: |x| rounded half away from zero (std::round), saturated.
    const double r = std::round(v);
    CHECK(fp::to_int(kFp16, h, 16) == static_cast<int64_t>(std::clamp(r, -32768.0, 32767.0)));
  }
  dla::test::FpOperands draw(7);
  for (int i = 0; i < 1'000'000; ++i) {
    const uint32_t w = draw.one(kFp32);
    if (!normal(kFp32, w)) continue;
    const uint32_t h = ieee16(value_of(kFp32, w));  // correctly rounded, denormals included
    if (fp::unpack(kFp16, h).exp == kFp16.exp_max()) {
      CHECK(fp::convert(kFp32, kFp16, w) == fp::max_finite(kFp16, fp::unpack(kFp32, w).sign));
    } else {
      CHECK(fp::convert(kFp32, kFp16, w) == h);
    }
  }
  for (int32_t n = -32768; n < 32768; ++n) {
    CHECK(fp::from_int(kFp16, static_cast<uint16_t>(n), 16) == ieee16(n));
  }
}
