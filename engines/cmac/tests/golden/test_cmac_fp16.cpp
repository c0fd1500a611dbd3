// CMAC's fp16 atomic operation (engines/cmac/golden/cmac_fp16.hpp) against expectations of its
// own: int64 products, hand-worked atoms, and the dot product in double within the bound that
// block alignment allows. NVIDIA's MAC cell judges it bit for bit in
// tests/cmod/test_cmac_fp16_oracle.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "engines/cmac/golden/cmac_fp16.hpp"

using namespace dla::golden;

namespace {

using Atom = std::array<uint16_t, kCmacFp16Channels>;
using Active = std::array<bool, kCmacFp16Channels>;

double fp16_value(uint16_t v) {
  const int e = (v >> 10) & 0x1f;
  const double m = (v & 0x3ff) + (e != 0 ? 1024.0 : 0.0);
  const double x = std::ldexp(m, (e == 0 ? 1 : e) - 25);
  return (v >> 15) != 0 ? -x : x;
}

int64_t mantissa_of(uint64_t word) {
  const uint64_t m = word & ((uint64_t{1} << kCmacFp16MantBits) - 1);
  return (m >> 37) != 0 ? static_cast<int64_t>(m) - (int64_t{1} << kCmacFp16MantBits) : static_cast<int64_t>(m);
}

// The word's value: the mantissa sum scaled by 2^(exponent - 50) (a 2^-24 * 2^-24 product of two
// smallest units, shifted up by 2 + 2 for the exponents' low bits).
double value_of(uint64_t word) {
  return std::ldexp(static_cast<double>(mantissa_of(word)), static_cast<int>((word >> 38) & 0x3f) - 50);
}

}  // namespace

TEST_CASE("cmac fp16: the Booth product is exact unshifted and within one unit shifted", "[cmac][fp16]") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200'000; ++i) {
    const uint32_t w = static_cast<uint32_t>(rng()) & 0x3fff;  // 11-bit mantissa << up to 3
    const uint32_t d = static_cast<uint32_t>(rng()) & 0x3fff;
    const bool neg = (rng() & 1) != 0;
    const int64_t exact = (neg ? -1 : 1) * static_cast<int64_t>(w) * d;
    REQUIRE(cmac_fp16_product(neg, w, d, 0) == exact);
    const uint32_t s = 4 * static_cast<uint32_t>(rng() % 9);
    // The two carry-save rows are truncated separately: at most one unit from the floor.
    const int64_t floor_shifted = exact >> s;
    const int64_t got = cmac_fp16_product(neg, w, d, s);
    REQUIRE(std::abs(got - floor_shifted) <= 1);
  }
  CHECK(cmac_fp16_product(false, 0x3fff, 0x3fff, 32) == 0);  // aligned out entirely
}

TEST_CASE("cmac fp16: hand-worked atoms", "[cmac][fp16]") {
  Atom d{};
  Atom w{};
  Active all{};
  all.fill(true);
  d.fill(0x3c00);  // 1.0: exponent 15 = block 3, low bits 3
  w.fill(0x4000);  // 2.0: exponent 16 = block 4, low bits 0
  // 64 products of 0x400 << 3 by 0x400: 2^23 each, 2^29 in all, exponent (3 + 4) * 4.
  CHECK(cmac_fp16_cell(d, w, all, false).word[0] == ((uint64_t{28} << 38) | (uint64_t{1} << 29)));
  CHECK(value_of(cmac_fp16_cell(d, w, all, false).word[0]) == 128.0);
  // Masked channels take no part; a negative weight subtracts.
  Active half{};
  for (std::size_t c = 0; c < 32; ++c) half[c] = true;
  w[0] = 0xc000;  // -2.0
  CHECK(value_of(cmac_fp16_cell(d, w, half, false).word[0]) == 31 * 2.0 - 2.0);
  // A NaN anywhere wins, even in a masked channel: exponent bits all ones, sign and fraction kept.
  w[40] = 0xfe01;
  const uint64_t nan = (uint64_t{0x3f} << 38) | (uint64_t{1} << 37) | (uint64_t{0x201} << 27);
  CHECK(cmac_fp16_cell(d, w, half, false).word == std::array<uint64_t, 4>{nan, 0, 0, 0});
  CHECK(cmac_fp16_cell(d, w, half, true).word == std::array<uint64_t, 4>{nan, nan, nan, nan});
  // Infinity is a number of exponent 31 (2^16).
  w.fill(0x7c00);
  d.fill(0);
  d[5] = 0x3c00;
  CHECK(value_of(cmac_fp16_cell(d, w, all, false).word[0]) == 65536.0);
}

TEST_CASE("cmac fp16: the sum equals the dot product up to the alignment's truncation", "[cmac][fp16]") {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 20'000; ++n) {
    Atom d{};
    Atom w{};
    Active act{};
    // Exponents in a window so that some products align deep and some not at all.
    const int lo = static_cast<int>(rng() % 23);  // exponents 0 .. 30: no NaN, no infinity
    const int span = 1 + static_cast<int>(rng() % 8);
    for (std::size_t c = 0; c < kCmacFp16Channels; ++c) {
      auto draw = [&] {
        const uint32_t e = static_cast<uint32_t>(lo + static_cast<int>(rng() % static_cast<uint64_t>(span)));
        return static_cast<uint16_t>(((rng() & 1) << 15) | (e << 10) | (rng() & 0x3ff));
      };
      d[c] = draw();
      w[c] = draw();
      act[c] = rng() % 8 != 0;
    }
    const bool wino = (n & 1) != 0;
    const CmacFp16Out out = cmac_fp16_cell(d, w, act, wino);
    std::array<double, kCmacFp16Channels> p{};
    for (std::size_t c = 0; c < kCmacFp16Channels; ++c) p[c] = act[c] ? fp16_value(d[c]) * fp16_value(w[c]) : 0.0;
    std::array<double, 16> q{};
    for (std::size_t i = 0; i < 16; ++i) q[i] = p[4 * i] + p[4 * i + 1] + p[4 * i + 2] + p[4 * i + 3];
    std::array<double, 4> expect{};
    if (!wino) {
      for (double v : q) expect[0] += v;
    } else {
      // The POA's output transform as a plain formula of the 4x4 positions (rows r, columns c).
      auto at = [&](int r, int c) { return q[static_cast<std::size_t>(4 * r + c)]; };
      std::array<double, 4> row0{};
      std::array<double, 4> row1{};
      for (int c = 0; c < 4; ++c) {
        row0[static_cast<std::size_t>(c)] = at(0, c) + at(1, c) + at(2, c);
        row1[static_cast<std::size_t>(c)] = at(1, c) - at(2, c) - at(3, c);
      }
      expect[0] = row0[0] + row0[1] + row0[2];
      expect[1] = row0[1] - row0[2] - row0[3];
      expect[2] = row1[0] + row1[1] + row1[2];
      expect[3] = row1[1] - row1[2] - row1[3];
    }
    // Each product loses less than two units of the block's last place: 64 products in direct
    // convolution, at most 9 groups of four in a Winograd output.
    const double unit = std::ldexp(1.0, static_cast<int>((out.word[0] >> 38) & 0x3f) - 50);
    for (std::size_t k = 0; k < (wino ? 4u : 1u); ++k) {
      INFO("atom " << n << " output " << k);
      CHECK(std::abs(value_of(out.word[k]) - expect[k]) <= (wino ? 72.0 : 128.0) * unit);
    }
  }
}
