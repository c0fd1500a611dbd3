// CACC's fp16 primitives (engines/conv/rtl/cacc_fp_add.sv, cacc_fp_to_fp32.sv, through
// cacc_fp_top.sv) against the golden accumulation (engines/conv/golden/cacc_fp16.hpp, judged by
// NVIDIA's CACC in tests/cmod/test_cacc_fp16_oracle.cpp): a million edge-biased (accumulator,
// word) pairs, each comparing both the sum and the accumulator's fp32, bit for bit; and hand-worked
// cases from docs/FP16.md "CACC". Combinational units: no reset or back-pressure to vary.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <utility>

#include "Vcacc_fp_top.h"
#include "engines/cmac/golden/cmac_fp16.hpp"
#include "engines/conv/golden/cacc_fp16.hpp"

using dla::golden::cacc_fp16_add;
using dla::golden::cacc_fp48_to_fp32;

namespace {

constexpr int kPairs = 1'000'000;
constexpr uint64_t kMask38 = (uint64_t{1} << 38) - 1;
constexpr uint64_t kMask40 = (uint64_t{1} << 40) - 1;

uint64_t acc_of(int exp, int64_t mant) {
  return (static_cast<uint64_t>(exp & 0xff) << 40) | (static_cast<uint64_t>(mant) & kMask40);
}
uint64_t word_of(int exp, int64_t mant) {
  return (static_cast<uint64_t>(exp & 0x3f) << 38) | (static_cast<uint64_t>(mant) & kMask38);
}
int64_t sext(uint64_t v, int bits) {
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>(((v & ((sign << 1) - 1)) ^ sign) - sign);
}
// Copies of the sign bit below it (the word's normalizing shift), to aim operands only.
int sign_run(int64_t v, int bits) {
  const auto u = static_cast<uint64_t>(v);
  const uint64_t s = (u >> (bits - 1)) & 1;
  int i = bits - 2;
  while (i >= 0 && ((u >> i) & 1) == s) --i;
  return bits - 2 - i;
}

struct Checker {
  VerilatedContext ctx;
  Vcacc_fp_top top{&ctx, "top"};
  std::pair<uint64_t, uint32_t> run(uint64_t acc, uint64_t word) {
    top.acc_i = acc;
    top.word_i = word;
    top.eval();
    return {top.sum_o, top.fp32_o};
  }
};

// (accumulator, word) pairs where the rules differ: accumulators from realistic chains (MAC cell
// words added from empty), random patterns, exponents at both ends, NaNs, -2^39, +-1, mantissas
// at fp32 rounding edges; words of every exponent, zero / +-1 / extreme / NaN, aimed at the
// accumulator's exponent 0..45 places either side, with lost bits at, above and below a tie,
// or cancelling the accumulator exactly or nearly.
class Operands {
 public:
  explicit Operands(uint64_t seed) : rng_(seed) {}

  std::pair<uint64_t, uint64_t> pair() {
    switch (draw(16)) {
      case 0: {  // x - x: an exact zero (from empty), or back near a chain's value
        const int x = static_cast<int>(draw(63));
        int64_t w = mantissa(38);
        if (w == 0 || w == -(int64_t{1} << 37)) w = 1;
        const uint64_t a = cacc_fp16_add(draw(4) == 0 ? chain() : 0, word_of(x, w));
        return {a, word_of(x, -w)};
      }
      case 1: {  // the accumulator's lost bits at, just above or below a tie (or none)
        const int d = 1 + static_cast<int>(draw(40));
        const uint64_t tie = uint64_t{1} << (d - 1);
        const uint64_t pattern[] = {tie, tie | 1, tie - 1, 0};
        const uint64_t low = (uint64_t{1} << d) - 1;
        const int exp = 12 + static_cast<int>(draw(100 - d));
        const int64_t m = sext((static_cast<uint64_t>(mantissa(40)) & ~low) | pattern[draw(4)], 40);
        const std::optional<uint64_t> w = word_at(exp + d, mantissa(38));
        if (w) return {acc_of(exp, m), *w};
        break;
      }
      default: break;
    }
    const uint64_t a = acc();
    return {a, word(a)};
  }

 private:
  uint64_t draw(uint64_t n) { return rng_() % n; }

  // An edge-biased two's complement mantissa of `bits` bits.
  int64_t mantissa(int bits) {
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    switch (draw(12)) {
      case 0: return 0;
      case 1: return 1;
      case 2: return -1;
      case 3: return -(int64_t{1} << (bits - 1));
      case 4: return (int64_t{1} << (bits - 1)) - 1;
      case 5: return static_cast<int64_t>((rng_() & (mask >> 1)) >> draw(static_cast<uint64_t>(bits)));  // short
      case 6: return ~static_cast<int64_t>((rng_() & (mask >> 1)) >> draw(static_cast<uint64_t>(bits)));
      case 7:
      case 8: return sext(rng_(), bits);
      default: {  // normalized: the bit below the sign differs from it
        const uint64_t v = rng_() & mask;
        const uint64_t below = uint64_t{1} << (bits - 2);
        return sext(((v >> (bits - 1)) & 1) ? v & ~below : v | below, bits);
      }
    }
  }

  int end_exp() { return draw(2) ? static_cast<int>(draw(6)) : 250 + static_cast<int>(draw(6)); }

  // What CACC meets: a MAC cell word from a drawn fp16 atom.
  uint64_t cell_word() {
    std::array<uint16_t, dla::golden::kCmacFp16Channels> d{};
    std::array<uint16_t, dla::golden::kCmacFp16Channels> w{};
    std::array<bool, dla::golden::kCmacFp16Channels> act{};
    const auto lo = static_cast<uint32_t>(draw(28));
    const uint64_t density = 1 + draw(8);
    for (std::size_t c = 0; c < d.size(); ++c) {
      d[c] = static_cast<uint16_t>(((rng_() & 1) << 15) | ((lo + draw(3)) << 10) | (rng_() & 0x3ff));
      w[c] = static_cast<uint16_t>(((rng_() & 1) << 15) | ((lo + draw(3)) << 10) | (rng_() & 0x3ff));
      act[c] = draw(8) < density;
    }
    return dla::golden::cmac_fp16_cell(d, w, act, false).word[0];
  }

  // One of a few running accumulations, one word further, restarted from empty now and then.
  uint64_t chain() {
    uint64_t& a = chains_[draw(chains_.size())];
    if (draw(48) == 0) a = 0;
    a = cacc_fp16_add(a, draw(2) ? cell_word() : word_of(4 * static_cast<int>(draw(16)), mantissa(38)));
    return a;
  }

  uint64_t acc() {
    switch (draw(16)) {
      case 0: return 0;
      case 1:
      case 2:
      case 3:
      case 4: return chain();
      case 5: return rng_() & ((uint64_t{1} << 48) - 1);
      case 6: return acc_of(end_exp(), mantissa(40));
      case 7: return acc_of(0xff, mantissa(40));  // NaN
      case 8: {
        const int64_t m[] = {-(int64_t{1} << 39), 1, -1, (int64_t{1} << 39) - 1, 0};
        return acc_of(draw(2) ? end_exp() : static_cast<int>(draw(256)), m[draw(5)]);
      }
      case 9: {  // fp32 rounding edges: the bit below the 24 kept, carries through all ones
        const uint64_t low[] = {0x4000, 0x3fff, 0x4001, 0x0000, 0x7fff, 0xc000};
        uint64_t mag = (uint64_t{1} << 38) | (rng_() & ((uint64_t{1} << 38) - 1));
        if (draw(3) == 0) mag |= ((uint64_t{1} << 24) - 1) << 15;
        mag = (mag & ~uint64_t{0x7fff}) | low[draw(6)];
        if (draw(4) == 0) mag >>= draw(39);  // unnormalized
        const int64_t m = draw(2) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
        return acc_of(draw(4) == 0 ? end_exp() : static_cast<int>(draw(256)), m);
      }
      default:
        return acc_of(draw(2) ? static_cast<int>(draw(256)) : 12 + static_cast<int>(draw(140)), mantissa(40));
    }
  }

  // A word whose normalized exponent is norm_exp, reshaping mac if its own shift misses the range.
  static std::optional<uint64_t> word_at(int norm_exp, int64_t mac) {
    for (int tries = 0; tries < 2 && mac != 0; ++tries) {
      const int n0 = sign_run(mac, 38);
      const int e = norm_exp + n0 - 49;
      if (e >= 0 && e <= 62) return word_of(e, mac);
      mac = e > 62 ? sext(static_cast<uint64_t>(mac) << std::min(n0, e - 62), 38) : mac >> -e;
    }
    return std::nullopt;
  }

  uint64_t word(uint64_t a) {
    const int64_t m = sext(a, 40);
    const int eff = m == 0 ? 0 : static_cast<int>((a >> 40) & 0xff);  // empty counts as exponent 0
    std::optional<uint64_t> w;
    switch (draw(12)) {
      case 0: return word_of(static_cast<int>(draw(64)), mantissa(38));
      case 1: return word_of(0x3f, mantissa(38));  // NaN (or a zero word)
      case 2: return word_of(static_cast<int>(draw(64)), 0);
      case 3: return cell_word();
      case 4:
      case 5:
      case 6:
      case 7: {  // 0..45 places either side
        const int d = static_cast<int>(draw(46));
        w = word_at(draw(2) ? eff + d : eff - d, mantissa(38));
        break;
      }
      case 8:
      case 9: {  // the word's lost bits at, just above or below a tie (or none); its mantissa normalized
        const int d = 3 + static_cast<int>(draw(36));
        const uint64_t tie = uint64_t{1} << (d - 3);
        const uint64_t pattern[] = {tie, tie | 1, tie - 1, 0};
        const uint64_t low = (uint64_t{1} << (d - 2)) - 1;
        int64_t mac = mantissa(38);
        if (sign_run(mac, 38) != 0) mac ^= int64_t{1} << 36;
        w = word_at(eff - d, sext((static_cast<uint64_t>(mac) & ~low) | pattern[draw(4)], 38));
        break;
      }
      default: {  // nearly or exactly minus the accumulator: (-m / 4) * 2^(eff - 49 - 50)
        const int64_t deltas[] = {0, 0, 1, -1, 2, -2, static_cast<int64_t>(draw(1024)) - 512};
        const int e = eff - 49;
        if (e >= 0 && e <= 62) return word_of(e, ((-m) >> 2) + deltas[draw(7)]);
        break;
      }
    }
    return w ? *w : word_of(static_cast<int>(draw(64)), mantissa(38));
  }

  std::mt19937_64 rng_;
  std::array<uint64_t, 8> chains_{};
};

}  // namespace

TEST_CASE("cacc fp prims: add and fp32 equal golden on a million pairs", "[rtl][conv][fp16]") {
  Checker c;
  Operands draw(2026);
  std::size_t wrong_add = 0;
  std::size_t wrong_fp32 = 0;
  const auto fp32_check = [&](uint64_t acc, uint32_t got) {
    const uint32_t want = cacc_fp48_to_fp32(acc);
    if (got != want && ++wrong_fp32 <= 8) {
      UNSCOPED_INFO("fp32(" << std::hex << acc << "): RTL " << got << ", golden " << want << std::dec);
    }
  };
  for (int i = 0; i < kPairs; ++i) {
    const auto [acc, word] = draw.pair();
    const auto [sum, fp32] = c.run(acc, word);
    const uint64_t want = cacc_fp16_add(acc, word);
    if (sum != want && ++wrong_add <= 8) {
      UNSCOPED_INFO("add(" << std::hex << acc << ", " << word << "): RTL " << sum << ", golden " << want << std::dec);
    }
    fp32_check(acc, fp32);
    // The sum's fp32 too: the accumulators the rules above produce (rounded, renormalized, wrapped).
    fp32_check(want, c.run(want, 0).second);
  }
  INFO("add: " << kPairs << " pairs, " << wrong_add << " differ; fp32: " << 2 * kPairs << " accumulators, "
               << wrong_fp32 << " differ");
  CHECK(wrong_add == 0);
  CHECK(wrong_fp32 == 0);
  c.top.final();
}

TEST_CASE("cacc fp prims: hand-worked cases", "[rtl][conv][fp16]") {
  Checker c;
  struct Add {
    const char* what;
    uint64_t acc;
    uint64_t word;
    uint64_t sum;
  };
  constexpr int64_t k39 = int64_t{1} << 39;
  constexpr int64_t k38 = int64_t{1} << 38;
  const uint64_t nan_word = (uint64_t{0x3f} << 38) | (uint64_t{1} << 37) | (uint64_t{0x201} << 27);
  const Add adds[] = {
      // word(50, 1) = 1 * 2^(50 - 50): n0 = 36 (bits 36..1 copy the sign), mant 1 << 36, two bits up
      // 2^38, exponent 50 - 36 + 49 = 63 (2^38 * 2^(63 - 101) = 1). The empty accumulator is
      // aligned 63 > 40 places: 0, nothing lost, no rounding.
      {"empty + 1.0", 0, word_of(50, 1), 0x3f'40'0000'0000},
      {"empty + 1.0 (normalized word)", 0, word_of(14, int64_t{1} << 36), 0x3f'40'0000'0000},
      // An empty accumulator's stale exponent counts as 0; read as 200 it would swallow the word.
      {"empty (exponent 200) + 1.0", acc_of(200, 0), word_of(50, 1), 0x3f'40'0000'0000},
      // 65504 = 2047 * 2^5: n0 = 21, 2047 << 28, exponent 50 - 21 + 49 = 78 (LSB 2^-23).
      {"empty + 65504", 0, word_of(50, 65504), 0x4e'7f'f000'0000},
      // docs/FP16.md "Convolution" rule 6: 2^-24 = word(26, 1) is 2^38 at exponent 39, aligned 39
      // places: lost = 2^39 alone, guard without sticky; positive, so up: 65504 + 2^-23.
      {"65504 + 2^-24 (tie, up)", 0x4e'7f'f000'0000, word_of(26, 1), 0x4e'7f'f000'0001},
      // -65504 = 0x8010000000 at 78; -2^-24 = word(26, -1): n0 = 37, -2^39 at exponent 38, aligned
      // 40 places: -1 with lost 2^39 (guard, no sticky). Raw 0x800fffffff, negative: a tie stays
      // (truncation already went away from zero): -(65504 + 2^-23).
      {"-65504 - 2^-24 (tie, away)", 0x4e'80'1000'0000, word_of(26, -1), 0x4e'80'0fff'ffff},
      // -3 * 2^-26 = word(24, -3): n0 = 35, -3 * 2^37 at exponent 38, aligned 40: -1, lost
      // 0xa000000000 (guard and sticky): above half, rounds up to -65504.
      {"-65504 - 0.375 ulp (rounds up)", 0x4e'80'1000'0000, word_of(24, -3), 0x4e'80'1000'0000},
      // The same word's negation: raw 0, exact zero, exponent 0.
      {"65504 - 65504", 0x4e'7f'f000'0000, word_of(50, -65504), 0},
      // A NaN word: exponent 0xff, its mantissa bits 37..27 (0x601) at the top; a NaN accumulator
      // then stays (its own top 11 bits again).
      {"65504 + NaN", 0x4e'7f'f000'0000, nan_word, 0xff'c0'2000'0000},
      {"NaN + 1.0", 0xff'c0'2000'0000, word_of(50, 1), 0xff'c0'2000'0000},
      // A zero word changes nothing, even with the NaN exponent.
      {"65504 + zero NaN-exponent word", 0x4e'7f'f000'0000, word_of(0x3f, 0), 0x4e'7f'f000'0000},
      // (2^39 - 1) at 100 plus 2^38 at 100 (word(51, 2^36), n0 = 0): raw 0xbfffffffff overflows;
      // one right, 0x5fffffffff at 101 with the dropped 1 as guard: up, 0x6000000000.
      {"overflow", acc_of(100, k39 - 1), word_of(51, int64_t{1} << 36), 0x65'60'0000'0000},
      // (2^39 - 1) at 100 plus word(48, 1) (2^38 at 61, aligned 39: lost 2^39): rounds up into the
      // sign bit, one right again: 2^38 at 101.
      {"round carries", acc_of(100, k39 - 1), word_of(48, 1), 0x65'40'0000'0000},
      // -1 at exponent 10 under a word at 63: 53 > 40 places, so 0 (not -1), nothing lost: 1.0.
      {"beyond 40 places", acc_of(10, -1), word_of(50, 1), 0x3f'40'0000'0000},
      // 2^38 at 66 (8) plus word(14, 1 - 2^37) (n0 = 0: -2^39 + 4 at 63, i.e. -2 + 2^-36): aligned
      // 3, -2^36 with lost 2^39; raw 3 * 2^36 shifts left 1 and the lost bit comes back in:
      // 0x6000000001 at 65 = 6 + 2^-36, exact.
      {"lost bit shifts back in", acc_of(66, k38), word_of(14, 1 - (int64_t{1} << 37)), 0x41'60'0000'0001},
      // (1 - 2^38) at 13 plus word(0, 1) (2^38 at 13): raw 1, left 38 places, exponent 13 - 38 = -25
      // = 231 mod 256.
      {"exponent wraps", acc_of(13, 1 - k38), word_of(0, 1), 0xe7'40'0000'0000},
  };
  for (const Add& a : adds) {
    INFO(a.what);
    CHECK(cacc_fp16_add(a.acc, a.word) == a.sum);  // the hand-working against the rules
    CHECK(c.run(a.acc, a.word).first == a.sum);
  }

  struct Fp32 {
    const char* what;
    uint64_t acc;
    uint32_t fp32;
  };
  const Fp32 fp32s[] = {
      // 2^38 at 63: fraction 0, exponent 63 + 64 = 127.
      {"1.0", 0x3f'40'0000'0000, 0x3f80'0000},
      // 2047 << 28 at 78: fraction bits 37..15 = 0x3ff << 13, exponent 142.
      {"65504", 0x4e'7f'f000'0000, 0x477f'e000},
      // -2^39 at 62: its own case, exponent 62 + 65 = 127: -1.0.
      {"-2^39", acc_of(62, -k39), 0xbf80'0000},
      // Bit 14, the first one dropped, alone: a tie, rounds up in magnitude for both signs.
      {"1 + 2^-24", acc_of(63, k38 + (1 << 14)), 0x3f80'0001},
      {"-(1 + 2^-24)", acc_of(63, -(k38 + (1 << 14))), 0xbf80'0001},
      // NaN: sign, 0xff, the mantissa's bits 38..29 (0x201) at the bottom of the fraction.
      {"NaN", 0xff'c0'2000'0000, 0xff80'0201},
      {"empty", 0, 0},
  };
  for (const Fp32& f : fp32s) {
    INFO(f.what);
    CHECK(cacc_fp48_to_fp32(f.acc) == f.fp32);
    CHECK(c.run(f.acc, 0).second == f.fp32);
  }
  c.top.final();
}
