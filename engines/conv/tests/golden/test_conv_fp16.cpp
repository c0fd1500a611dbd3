// fp16 direct convolution (engines/conv/golden/conv_fp16.hpp), CACC's fp32 output before SDP:
//  * layers whose arithmetic is exact (small integers, zeros, pads) against a plain int64
//    convolution written here, converted to fp32 by hand;
//  * hand-worked layers whose result depends on NVDLA's order of accumulation (channel blocks
//    outside kernel positions, kernel positions row-major) through CACC's 40-bit mantissa;
//  * NaN rules: a NaN anywhere in an atom (masked lanes too) and CDMA's NaN flush.
// NVIDIA's C model judges whole fp16 layers in tests/cmod/test_conv_fp16_cmod.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_fp16.hpp"
#include "golden/layout.hpp"

using namespace dla::golden;

namespace {

constexpr uint64_t kInBase = 0x10000000;
constexpr uint64_t kWtBase = 0x20000000;

struct Mem {
  std::unordered_map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? 0 : it->second;
  }
};

// A small integer as fp16 bits, by hand: |v| < 2048.
uint16_t half_of_int(int v) {
  if (v == 0) return 0;
  const uint16_t sign = v < 0 ? uint16_t{0x8000} : uint16_t{0};
  int m = v < 0 ? -v : v;
  int e = 0;
  if (m >= 2048) throw std::logic_error("half_of_int: too large");
  while ((m >> e) > 1) ++e;                                  // m = 1.f * 2^e
  const int frac = (m << (10 - e)) & 0x3ff;                  // exact: e <= 10
  return static_cast<uint16_t>(sign | static_cast<uint16_t>(((e + 15) << 10) | frac));
}

uint32_t fp32_bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

ConvParams fp16_params(int w, int h, int c, int k, int r, int s) {
  ConvParams p;
  p.w = w;
  p.h = h;
  p.c = c;
  p.k = k;
  p.r = r;
  p.s = s;
  p.precision = Precision::Fp16;
  return p;
}

// Stores input (c, h, w order, batch-major) and weights (k, c, r, s) given as fp16 bits.
void store(const ConvConfig& cfg, const ConvParams& p, const std::vector<uint16_t>& x, const std::vector<uint16_t>& wt,
           Mem& mem) {
  Cube<int64_t> in(cfg.input);
  std::size_t i = 0;
  for (int n = 0; n < cfg.input.n; ++n)
    for (int c = 0; c < p.c; ++c)
      for (int y = 0; y < p.h; ++y)
        for (int xx = 0; xx < p.w; ++xx) in.at(n, c, y, xx) = static_cast<int16_t>(x[i++]);
  store_cube(cfg.in_layout, in, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  Cube<int64_t> w(CubeShape{p.k, p.c, p.r, p.s});
  i = 0;
  for (auto& v : w.data()) v = static_cast<int16_t>(wt[i++]);
  store_weights(cfg.weight_layout(), w, kWtBase, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
}

ConvRun run(const ConvParams& p, const std::vector<uint16_t>& x, const std::vector<uint16_t>& wt, bool flush = false) {
  ConvConfig cfg = conv_config_from(p, nv_full(), kInBase, kWtBase);
  cfg.nan_to_zero = flush;
  REQUIRE(cfg.unsupported().empty());
  Mem mem;
  store(cfg, p, x, wt, mem);
  return run_conv(cfg, nv_full(), [&](uint64_t a) { return mem.read(a); });
}

}  // namespace

TEST_CASE("fp16 convolution is exact where the arithmetic is: small integers against an int64 loop", "[conv][fp16]") {
  struct Case {
    ConvParams p;
    int pad_value;
  };
  std::vector<Case> cases;
  {
    ConvParams p = fp16_params(5, 4, 3, 2, 1, 1);
    cases.push_back({p, 0});
    p = fp16_params(7, 6, 70, 20, 3, 3);  // two channel blocks, two kernel groups
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    cases.push_back({p, 3});
    p = fp16_params(9, 5, 130, 17, 2, 3);  // three channel blocks, stride and dilation
    p.stride_x = 2;
    p.dilation_y = 2;
    p.pad_left = 2;
    p.pad_bottom = 1;
    cases.push_back({p, -2});
    p = fp16_params(4, 4, 64, 16, 4, 4);  // exactly one block, one group
    p.pad_top = 3;
    p.pad_right = 2;
    cases.push_back({p, 1});
    p = fp16_params(3, 3, 33, 5, 3, 3);
    p.batch = 3;
    cases.push_back({p, 0});
  }
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> val(-8, 8);  // zeros included: CSC masks them
  for (const Case& cs : cases) {
    ConvParams p = cs.p;
    p.pad_value = half_of_int(cs.pad_value);
    INFO("W x H x C " << p.w << "x" << p.h << "x" << p.c << " K " << p.k << " RxS " << p.r << "x" << p.s);
    const int N = p.batch;
    std::vector<int> xi(static_cast<std::size_t>(N * p.c * p.h * p.w)), wi(static_cast<std::size_t>(p.k * p.c * p.r * p.s));
    for (int& v : xi) v = val(rng);
    for (int& v : wi) v = val(rng);
    std::vector<uint16_t> xh, wh;
    for (int v : xi) xh.push_back(half_of_int(v));
    for (int v : wi) wh.push_back(half_of_int(v));
    const ConvRun r = run(p, xh, wh);
    const int ow = conv_out_w(p), oh = conv_out_h(p);
    REQUIRE(r.cacc.shape() == CubeShape{N, (p.k + 15) / 16 * 16, oh, ow});
    int bad = 0;
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < r.cacc.shape().c; ++k)
        for (int y = 0; y < oh; ++y)
          for (int x = 0; x < ow; ++x) {
            int64_t sum = 0;
            for (int c = 0; k < p.k && c < p.c; ++c)
              for (int ky = 0; ky < p.r; ++ky)
                for (int kx = 0; kx < p.s; ++kx) {
                  const int iy = y * p.stride_y + ky * p.dilation_y - p.pad_top;
                  const int ix = x * p.stride_x + kx * p.dilation_x - p.pad_left;
                  const bool inside = iy >= 0 && iy < p.h && ix >= 0 && ix < p.w;
                  const int d = inside ? xi[static_cast<std::size_t>(((n * p.c + c) * p.h + iy) * p.w + ix)] : cs.pad_value;
                  sum += int64_t{d} * wi[static_cast<std::size_t>(((k * p.c + c) * p.r + ky) * p.s + kx)];
                }
            const uint32_t want = fp32_bits(static_cast<float>(sum));  // exact: |sum| < 2^24
            const auto got = static_cast<uint32_t>(r.cacc.at(n, k, y, x));
            // An empty sum is +0 (no word added); a sum that cancels to 0 may carry either sign.
            const bool ok = got == want || (sum == 0 && (got & 0x7fffffffu) == 0);
            if (!ok && ++bad <= 5) FAIL_CHECK("n=" << n << " k=" << k << " y=" << y << " x=" << x << ": got 0x" << std::hex << got << " want 0x" << want);
          }
    CHECK(bad == 0);
    CHECK(r.stats.out_saturation == 0);
  }
}

TEST_CASE("fp16 convolution accumulates kernel positions row-major (hand-worked)", "[conv][fp16]") {
  // One output of a 2x2 kernel of ones over [[65504, -65504], [2^-24, 0]]. Row-major:
  // 65504 - 65504 = 0, then + 2^-24 = 2^-24 exactly. Column-major would add 2^-24 to 65504 first:
  // beside 65504, CACC's 40-bit two's complement mantissa has an LSB of 2^-23 (2^39 * 2^-23 = 2^16),
  // so 2^-24 is half an LSB and rounds away from zero, and the result would be 2^-23.
  const ConvParams p = fp16_params(2, 2, 1, 1, 2, 2);
  const ConvRun r = run(p, {0x7bff, 0xfbff, 0x0001, 0x0000}, {0x3c00, 0x3c00, 0x3c00, 0x3c00});
  CHECK(static_cast<uint32_t>(r.cacc.at(0, 0, 0, 0)) == 0x33800000u);  // 2^-24 in fp32
}

TEST_CASE("fp16 convolution accumulates channel blocks outside kernel positions (hand-worked)", "[conv][fp16]") {
  // C = 65: channel 0 in block 0, channel 64 in block 1; a 1x2 kernel of ones over a 2x1 input.
  // NVDLA's order: block 0 at s = 0 (65504), block 0 at s = 1 (+ 2^-24: half an LSB beside 65504,
  // rounded away from zero to 65504 + 2^-23), block 1 at s = 0 (- 65504), block 1 at s = 1 (0):
  // 2^-23. Kernel positions outside blocks would give 65504 - 65504 + 2^-24 = 2^-24.
  const ConvParams p = fp16_params(2, 1, 65, 1, 1, 2);
  std::vector<uint16_t> x(65 * 2, 0), w(65 * 2, 0x3c00);
  x[0] = 0x7bff;        // c 0, x 0
  x[1] = 0x0001;        // c 0, x 1
  x[64 * 2] = 0xfbff;   // c 64, x 0
  const ConvRun r = run(p, x, w);
  CHECK(static_cast<uint32_t>(r.cacc.at(0, 0, 0, 0)) == 0x34000000u);  // 2^-23 in fp32
}

TEST_CASE("fp16 convolution: a NaN anywhere in an atom is the result, and CDMA's flush turns data NaNs into +0", "[conv][fp16]") {
  const ConvParams p = fp16_params(1, 1, 4, 1, 1, 1);
  const auto is_nan32 = [](int64_t v) {
    const auto u = static_cast<uint32_t>(v);
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0;
  };
  // A NaN datum against weight 0 (a masked lane) still makes the word NaN.
  CHECK(is_nan32(run(p, {0x3c00, 0x7e00, 0x4000, 0x4200}, {0x3c00, 0x0000, 0x3c00, 0x3c00}).cacc.at(0, 0, 0, 0)));
  // A NaN weight against datum 0 likewise.
  CHECK(is_nan32(run(p, {0x3c00, 0x0000, 0x4000, 0x4200}, {0x3c00, 0x7e01, 0x3c00, 0x3c00}).cacc.at(0, 0, 0, 0)));
  // D_NAN_FLUSH_TO_ZERO: the data NaN becomes +0: 1 + 2 + 3 = 6.
  CHECK(static_cast<uint32_t>(run(p, {0x3c00, 0x7e00, 0x4000, 0x4200}, {0x3c00, 0x3c00, 0x3c00, 0x3c00}, true)
                                  .cacc.at(0, 0, 0, 0)) == 0x40c00000u);
  // Weights are never flushed.
  CHECK(is_nan32(run(p, {0x3c00, 0x3c00, 0x4000, 0x4200}, {0x3c00, 0x7e00, 0x3c00, 0x3c00}, true).cacc.at(0, 0, 0, 0)));
}

TEST_CASE("fp16 convolution refuses the modes it does not model yet, naming them, and runs Winograd", "[conv][fp16]") {
  ConvConfig c = conv_config_from(fp16_params(4, 4, 8, 4, 1, 1), nv_full(), kInBase, kWtBase);
  CHECK(c.unsupported().empty());
  c.cvt.enabled = true;
  c.cvt.scale = 1;
  REQUIRE_FALSE(c.unsupported().empty());
  CHECK_THAT(c.unsupported().back(), Catch::Contains("input converter"));
  // Image input runs in fp16, its converter too (integer pixels into fp16, docs/FP16.md).
  c = conv_config_from(fp16_params(4, 4, 8, 4, 1, 1), nv_full(), kInBase, kWtBase);
  c.image.enabled = true;
  c.cvt.enabled = true;
  c.cvt.scale = 1;
  CHECK(conv_fp16_unsupported(c).empty());
  // Winograd runs in fp16 (docs/FP16.md "Convolution: fp16 Winograd").
  c = conv_config_from(fp16_params(4, 4, 8, 4, 1, 1), nv_full(), kInBase, kWtBase);
  c.mode = ConvMode::Winograd;
  CHECK(conv_fp16_unsupported(c).empty());
  // nv_small has no fp16.
  CHECK_FALSE(conv_config_from(fp16_params(4, 4, 8, 4, 1, 1), nv_small(), kInBase, kWtBase).unsupported().empty());
}
