// nv_full's CMAC in fp16 (cmac_array with SupportFp16: cmac_fp16_dot, cmac_fp16_mul) against the
// golden cell (engines/cmac/golden/cmac_fp16.hpp, judged by NVIDIA's MAC in tests/cmod): every
// output word of over a million edge-biased lane products, direct and Winograd, through the
// valid/ready ports under random back-pressure and each randomized-reset mode; and hand-worked
// atoms from docs/FP16.md "CMAC".
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <numeric>
#include <random>
#include <vector>

#include "Vcmac_nv_full.h"
#include "engines/cmac/golden/cmac_fp16.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;
using dla::golden::cmac_fp16_cell;
using dla::golden::CmacFp16Out;

namespace {

constexpr int kLanes = 64;
constexpr int kCells = 16;
constexpr int kOutputs = 32;  // int8 gives two kernels per cell; fp16 uses the first 16
constexpr int kWordBits = 44;
using Lanes = std::array<uint16_t, kLanes>;

// A stripe: the weights of the cells it loads (others output 0) and its data atoms.
struct Stripe {
  std::array<Lanes, kCells> weights{};
  std::array<bool, kCells> loaded{};
  std::vector<Lanes> atoms;
};

// What the array gave for one atom: every kernel's direct word and its four Winograd words.
struct Beat {
  std::array<uint64_t, kOutputs> psum{};
  std::array<std::array<uint64_t, 4>, kOutputs> wino{};
};

// The golden cell for an atom: a lane is active unless its datum or its weight is +-0 (CSC's mask).
CmacFp16Out golden(const Lanes& data, const Lanes& weight, bool winograd) {
  std::array<bool, kLanes> active{};
  for (int c = 0; c < kLanes; ++c) active[c] = (data[c] & 0x7fff) != 0 && (weight[c] & 0x7fff) != 0;
  return cmac_fp16_cell(data, weight, active, winograd);
}

// Runs the stripes through Vcmac_nv_full in fp16 mode, each port stalled with `stall`.
std::vector<Beat> run(const std::vector<Stripe>& stripes, double stall, uint64_t seed, int rand_reset) {
  SimOptions so;
  so.seed = seed;
  so.rand_reset = rand_reset;
  Sim<Vcmac_nv_full> sim(so, "cmac_array (nv_full fp16)");
  Vcmac_nv_full& t = sim.top();
  t.cfg_int16_i = 1;
  t.cfg_fp16_i = 1;
  t.wt_valid_i = 0;
  t.dat_valid_i = 0;
  t.out_ready_i = 0;
  sim.reset();

  struct Wt {
    int cell;
    bool last;
    const Lanes* w;
  };
  struct Dat {
    const Lanes* d;
    bool st, end;
  };
  std::deque<Wt> wq;
  std::deque<Dat> dq;
  for (const Stripe& s : stripes) {
    std::vector<int> cells;
    for (int c = 0; c < kCells; ++c) {
      if (s.loaded[c]) cells.push_back(c);
    }
    // Load order is free: cells in a shuffled order, the last beat closes the set.
    std::shuffle(cells.begin(), cells.end(), std::mt19937_64(seed + wq.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) wq.push_back({cells[i], i + 1 == cells.size(), &s.weights[cells[i]]});
    for (std::size_t a = 0; a < s.atoms.size(); ++a) dq.push_back({&s.atoms[a], a == 0, a + 1 == s.atoms.size()});
  }
  const std::size_t total = dq.size();
  StallInjector wt_stall(seed, "fp16.wt", stall), dat_stall(seed, "fp16.dat", stall), out_stall(seed, "fp16.out", stall);
  std::vector<Beat> beats;
  beats.reserve(total);
  bool wt_on = false, dat_on = false;
  while (beats.size() < total) {
    if (!wt_on && !wq.empty() && !wt_stall.stall()) {
      const Wt& b = wq.front();
      t.wt_cell_i = static_cast<uint8_t>(b.cell);
      t.wt_last_i = b.last;
      for (int i = 0; i < kLanes; ++i) put_bits(t.wt_data_i, i * 16, 16, (*b.w)[i]);
      wt_on = true;
    }
    if (!dat_on && !dq.empty() && !dat_stall.stall()) {
      const Dat& d = dq.front();
      for (int i = 0; i < kLanes; ++i) put_bits(t.dat_data_i, i * 16, 16, (*d.d)[i]);
      t.dat_stripe_st_i = d.st;
      t.dat_stripe_end_i = d.end;
      t.dat_channel_end_i = d.end;
      dat_on = true;
    }
    t.wt_valid_i = wt_on;
    t.dat_valid_i = dat_on;
    t.out_ready_i = !out_stall.stall();
    sim.settle();
    const bool wt_fire = wt_on && t.wt_ready_o;
    const bool dat_fire = dat_on && t.dat_ready_o;
    if (t.out_valid_o && t.out_ready_i) {
      Beat b;
      for (int k = 0; k < kOutputs; ++k) {
        b.psum[k] = get_bits(t.out_psum_o, static_cast<unsigned>(k * kWordBits), kWordBits);
        for (int o = 0; o < 4; ++o) {
          b.wino[k][o] = get_bits(t.out_wino_o, static_cast<unsigned>((k * 4 + o) * kWordBits), kWordBits);
        }
      }
      beats.push_back(b);
      sim.progress();
    }
    sim.tick();
    if (wt_fire) {
      wq.pop_front();
      wt_on = false;
      sim.progress();
    }
    if (dat_fire) {
      dq.pop_front();
      dat_on = false;
      sim.progress();
    }
  }
  return beats;
}

// Edge-biased fp16 operands. Each lane set draws one profile: any bit pattern, an edge mix (+-0,
// denormals, largest normal, infinity, all-ones fractions), a narrow exponent band (blocks equal
// or adjacent: small shifts, carries between rows), a wide band (shifts up to and past 32), or
// mostly zeros (masked lanes). NaNs come at `nan_p` per operand, payload and sign random.
class Operands {
 public:
  explicit Operands(uint64_t seed) : rng_(seed) {}

  Lanes lanes(double nan_p) {
    Lanes l{};
    const auto profile = draw(5);
    const auto band = static_cast<uint16_t>(draw(28));
    for (auto& v : l) v = value(profile, band, nan_p);
    return l;
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }
  uint64_t draw(uint64_t n) { return rng_() % n; }

 private:
  uint16_t value(uint64_t profile, uint16_t band, double nan_p) {
    const auto sign = static_cast<uint16_t>(draw(2) << 15);
    auto bits = [&](uint64_t exp, uint64_t frac) { return static_cast<uint16_t>(sign | (exp << 10) | frac); };
    if (chance(nan_p)) return bits(31, 1 + draw(0x3ff));
    switch (profile) {
      case 0: {
        const auto v = static_cast<uint16_t>(rng_());
        return ((v >> 10) & 0x1f) == 31 && (v & 0x3ff) != 0 ? static_cast<uint16_t>(v & 0xfbff) : v;
      }
      case 1:
        switch (draw(10)) {
          case 0: return sign;                        // +-0
          case 1: return bits(0, 1 + draw(0x3ff));    // denormal
          case 2: return bits(30, 0x3ff);             // largest normal
          case 3: return bits(31, 0);                 // infinity: 1.0 x 2^16 here
          case 4: return bits(0, 1);                  // smallest denormal
          case 5: return bits(0, 0x3ff);              // largest denormal
          case 6: return bits(1, 0);                  // smallest normal
          case 7: return bits(draw(31), 0x3ff);       // all-ones fraction
          default: return bits(draw(31), draw(0x400));
        }
      case 2: return bits(band + draw(4), draw(0x400));
      case 3: return chance(0.8) ? sign : bits(draw(31), draw(0x400));
      default: return bits((band + draw(12)) % 31, draw(0x400));
    }
  }
  std::mt19937_64 rng_;
};

// Random stripes: mostly all 16 cells loaded, some a random subset; 1..24 atoms each. About one
// weight set in 12 and one atom in 20 carry NaNs (often in lanes the other operand masks).
std::vector<Stripe> random_stripes(Operands& gen, int atoms) {
  std::vector<Stripe> out;
  int n = 0;
  while (n < atoms) {
    Stripe s;
    const int cells = gen.chance(0.85) ? kCells : 1 + static_cast<int>(gen.draw(kCells));
    std::array<int, kCells> order{};
    std::iota(order.begin(), order.end(), 0);
    for (int i = kCells - 1; i > 0; --i) std::swap(order[i], order[gen.draw(static_cast<uint64_t>(i) + 1)]);
    for (int i = 0; i < cells; ++i) {
      s.loaded[order[i]] = true;
      s.weights[order[i]] = gen.lanes(gen.chance(0.08) ? 1.0 / 64 : 0.0);
    }
    const int len = 1 + static_cast<int>(gen.draw(24));
    for (int a = 0; a < len; ++a) s.atoms.push_back(gen.lanes(gen.chance(0.05) ? 1.0 / 64 : 0.0));
    n += len;
    out.push_back(std::move(s));
  }
  return out;
}

struct Tally {
  long products = 0, words = 0, mismatches = 0, nan_words = 0, shifted_out = 0;
};

// Compares every output word of every beat with golden; kernels 16..31 and unloaded cells give 0.
Tally compare(const std::vector<Stripe>& stripes, const std::vector<Beat>& beats) {
  Tally t;
  std::size_t i = 0;
  for (const Stripe& s : stripes) {
    for (const Lanes& atom : s.atoms) {
      REQUIRE(i < beats.size());
      const Beat& b = beats[i++];
      for (int k = 0; k < kOutputs; ++k) {
        CmacFp16Out direct, wino;
        if (k < kCells && s.loaded[k]) {
          direct = golden(atom, s.weights[k], false);
          wino = golden(atom, s.weights[k], true);
          t.products += kLanes;
          t.nan_words += (direct.word[0] >> 38) == 0x3f;
        }
        const bool ok = b.psum[k] == direct.word[0] && b.wino[k][0] == wino.word[0] &&
                        b.wino[k][1] == wino.word[1] && b.wino[k][2] == wino.word[2] && b.wino[k][3] == wino.word[3];
        t.words += 5;
        if (!ok) {
          ++t.mismatches;
          if (t.mismatches <= 5) {
            UNSCOPED_INFO("beat " << i - 1 << " kernel " << k << ": psum " << std::hex << b.psum[k] << " expected "
                                  << direct.word[0] << ", wino " << b.wino[k][0] << ' ' << b.wino[k][1] << ' '
                                  << b.wino[k][2] << ' ' << b.wino[k][3] << " expected " << wino.word[0] << ' '
                                  << wino.word[1] << ' ' << wino.word[2] << ' ' << wino.word[3] << std::dec);
          }
        }
      }
    }
  }
  CHECK(i == beats.size());
  return t;
}

constexpr uint16_t kOne = 0x3c00;       // 1.0: exponent 15 = block 3, mantissa 0x400 << 3
constexpr uint16_t kMinusOne = 0xbc00;
constexpr uint16_t kMax = 0x7bff;       // 65504: exponent 30 = block 7, mantissa 0x7ff << 2
constexpr uint64_t kMant38 = (uint64_t{1} << 38) - 1;
uint64_t word(uint64_t exp, int64_t mant) { return (exp << 38) | (static_cast<uint64_t>(mant) & kMant38); }

}  // namespace

TEST_CASE("fp16 CMAC: a million edge-biased products, direct and Winograd, equal golden", "[rtl][cmac][fp16]") {
  // The main run: > 1,000,000 lane products with all three ports stalled, random reset values.
  Operands gen(0xf16);
  const auto stripes = random_stripes(gen, 1200);
  const Tally t = compare(stripes, run(stripes, 0.3, 17, 2));
  INFO("products " << t.products << ", words " << t.words << ", NaN words " << t.nan_words);
  CHECK(t.mismatches == 0);
  CHECK(t.products >= 1'000'000);
  CHECK(t.nan_words > 0);
  // Each reset mode and other stall rates, shorter.
  for (const int rr : {0, 1}) {
    for (const double stall : {0.0, 0.6}) {
      Operands g2(100 + static_cast<uint64_t>(rr) * 10 + static_cast<uint64_t>(stall * 10));
      const auto s2 = random_stripes(g2, 120);
      const Tally t2 = compare(s2, run(s2, stall, 23 + static_cast<uint64_t>(rr), rr));
      INFO("reset mode " << rr << ", stall " << stall);
      CHECK(t2.mismatches == 0);
    }
  }
}

TEST_CASE("fp16 CMAC: hand-worked atoms", "[rtl][cmac][fp16]") {
  // Cell c holds weight set c; one stripe of two atoms. Each expected word is worked out from
  // docs/FP16.md "CMAC" by hand, and golden must agree with it too.
  Stripe s;
  for (int c = 0; c < 5; ++c) s.loaded[c] = true;
  Lanes d{};
  // Cell 0: 1.0 x 1.0 in lane 0. Blocks 3 + 3 = 6, no shift: 0x2000 x 0x2000 = 2^26, exponent field
  // 24; the value 2^26 x 2^(24 - 50) = 1. Winograd: lanes 0..3 are M[0][0], which only Y[0][0] sees.
  s.weights[0][0] = kOne;
  d[0] = kOne;
  // Cell 1: -1.0 x 1.0 in lane 0 (negative product), and lanes the mask drops whatever their
  // exponent: lane 3 (65504 against a +0 datum) and lane 4 (infinity against -0).
  s.weights[1][0] = kMinusOne;
  s.weights[1][3] = kMax;
  s.weights[1][4] = 0x7c00;
  d[3] = 0x0000;
  d[4] = 0x8000;
  // Cell 2: a NaN weight in lane 5, whose datum is 0 (masked): sign 1, fraction 0x201, exponent
  // bits all ones, in all four Winograd words. It comes before the weight NaN of lane 9.
  s.weights[2][0] = kOne;
  s.weights[2][5] = 0xfe01;
  s.weights[2][9] = 0x7fff;
  d[9] = kOne;
  // Cell 3: 65504 x 65504 in lane 1 (blocks 7 + 7 = 14, exponent field 56; 0x1ffc^2 = 0x3ff0010)
  // and 1.0 x 1.0 in lane 0, block 6: 8 blocks down, a shift of 32, which gives 0.
  s.weights[3][0] = kOne;
  s.weights[3][1] = kMax;
  d[1] = kMax;
  // Cell 4: nothing active (its only nonzero-pattern weight is -0): exponent 0, sum 0.
  s.weights[4][7] = 0x8000;
  s.atoms.push_back(d);
  // The same atom with a NaN datum in lane 2: every cell gives it (sign 0, fraction 0x010) except
  // cell 2, whose weight NaN comes first.
  d[2] = 0x7c10;
  s.atoms.push_back(d);

  const std::vector<Beat> beats = run({s}, 0.3, 5, 2);
  REQUIRE(beats.size() == 2);
  const uint64_t wt_nan = (uint64_t{0x3f} << 38) | (uint64_t{1} << 37) | (uint64_t{0x201} << 27);
  const uint64_t dat_nan = (uint64_t{0x3f} << 38) | (uint64_t{0x010} << 27);
  using Words = std::array<uint64_t, 4>;
  const std::array<std::array<Words, 5>, 2> expected = {{
      {{
          {word(24, 1 << 26), word(24, 0), word(24, 0), word(24, 0)},
          {word(24, -(1 << 26)), word(24, 0), word(24, 0), word(24, 0)},
          {wt_nan, wt_nan, wt_nan, wt_nan},
          {word(56, 0x3ff0010), word(56, 0), word(56, 0), word(56, 0)},
          {0, 0, 0, 0},
      }},
      {{
          {dat_nan, dat_nan, dat_nan, dat_nan},
          {dat_nan, dat_nan, dat_nan, dat_nan},
          {wt_nan, wt_nan, wt_nan, wt_nan},
          {dat_nan, dat_nan, dat_nan, dat_nan},
          {dat_nan, dat_nan, dat_nan, dat_nan},
      }},
  }};
  for (int a = 0; a < 2; ++a) {
    const Beat& b = beats[a];
    for (int c = 0; c < 5; ++c) {
      INFO("atom " << a << " cell " << c);
      const Words& w = expected[a][c];
      CHECK(golden(s.atoms[a], s.weights[c], false).word[0] == w[0]);  // direct: word 0 only
      CHECK(golden(s.atoms[a], s.weights[c], true).word == w);
      CHECK(b.psum[c] == w[0]);
      CHECK(b.wino[c] == w);
    }
    // Cells not loaded and the second kernel slots give 0.
    for (int k = 5; k < kOutputs; ++k) {
      INFO("atom " << a << " kernel " << k);
      CHECK(b.psum[k] == 0);
      CHECK(b.wino[k] == Words{});
    }
  }
  // The product form itself: exact at shift 0, 0 at shift 32.
  CHECK(dla::golden::cmac_fp16_product(false, 0x2000, 0x2000, 0) == 1 << 26);
  CHECK(dla::golden::cmac_fp16_product(true, 0x2000, 0x2000, 0) == -(1 << 26));
  CHECK(dla::golden::cmac_fp16_product(false, 0x2000, 0x2000, 32) == 0);
}
