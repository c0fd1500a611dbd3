// Direct convolution (golden/conv.hpp) against a reference convolution written here with plain
// int64 loops (not the golden code): random small layers on nv_small and nv_full, CACC output
// compared before SDP; plus hand-worked CACC clip-truncate / saturation cases, the register
// relations of docs/CONV.md and the order-dependent 34-bit partial-sum saturation.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "golden/layout.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

// ---- the independent reference ----------------------------------------------------------------

// round half away from zero of v / 2^s, then clamp to int32: written out by hand.
int64_t ref_clip(int64_t v, int s, bool& saturated) {
  int64_t q = v;
  if (s > 0) {
    const int64_t mag = v < 0 ? -v : v;
    const int64_t qm = (mag + (int64_t{1} << (s - 1))) >> s;
    q = v < 0 ? -qm : qm;
  }
  saturated = q > INT32_MAX || q < INT32_MIN;
  return q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : q);
}

struct RefLayer {
  ConvParams p;
  std::vector<int64_t> x;  // [c][h][w]
  std::vector<int64_t> wt;  // [k][c][r][s]
  int64_t in(int c, int h, int w) const { return x[static_cast<std::size_t>((c * p.h + h) * p.w + w)]; }
  int64_t weight(int k, int c, int r, int s) const {
    return wt[static_cast<std::size_t>(((k * p.c + c) * p.r + r) * p.s + s)];
  }
};

// The CDMA input converter, by hand: sat(rhaz((x - off) * scale / 2^t)) to the element width.
int64_t ref_cvt(int64_t x, const ConvInputCvt& c, int bits) {
  if (!c.enabled) return x;
  const int64_t prod = (x - c.offset) * c.scale;
  int64_t q = prod;
  if (c.truncate > 0) {
    const int64_t mag = prod < 0 ? -prod : prod;
    const int64_t qm = (mag + (int64_t{1} << (c.truncate - 1))) >> c.truncate;
    q = prod < 0 ? -qm : qm;
  }
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1, lo = -(int64_t{1} << (bits - 1));
  return q > hi ? hi : (q < lo ? lo : q);
}

// out[k][oh][ow] = clip(sum over c, r, s of weight * input-or-pad), exact int64 accumulation.
std::vector<int64_t> ref_conv(const RefLayer& L, int ow_n, int oh_n, uint32_t& saturations) {
  const ConvParams& p = L.p;
  const int bits = p.precision == Precision::Int16 ? 16 : 8;
  std::vector<int64_t> out(static_cast<std::size_t>(p.k * oh_n * ow_n));
  saturations = 0;
  for (int k = 0; k < p.k; ++k)
    for (int oh = 0; oh < oh_n; ++oh)
      for (int ow = 0; ow < ow_n; ++ow) {
        int64_t acc = 0;
        for (int c = 0; c < p.c; ++c)
          for (int r = 0; r < p.r; ++r)
            for (int s = 0; s < p.s; ++s) {
              const int hi = oh * p.stride_y + r * p.dilation_y - p.pad_top;
              const int wi = ow * p.stride_x + s * p.dilation_x - p.pad_left;
              const bool inside = hi >= 0 && hi < p.h && wi >= 0 && wi < p.w;
              const int64_t v = inside ? ref_cvt(L.in(c, hi, wi), p.cvt, bits) : p.pad_value;
              acc += v * L.weight(k, c, r, s);
            }
        bool sat = false;
        out[static_cast<std::size_t>((k * oh_n + oh) * ow_n + ow)] = ref_clip(acc, p.clip_truncate, sat);
        if (sat) ++saturations;
      }
  return out;
}

// ---- memory and layer set-up ---------------------------------------------------------------------

struct Mem {
  std::unordered_map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? 0 : it->second;
  }
};

constexpr uint64_t kInBase = 0x10000000;
constexpr uint64_t kWtBase = 0x20000000;

// Random layer, stored in memory through the layouts; the padded lanes of the input's last atom
// and the weight tail get random garbage (the hardware must ignore them).
RefLayer make_layer(const ConvParams& p, const HwConfig& hw, std::mt19937& rng, Mem& mem, int64_t lo, int64_t hi) {
  RefLayer L;
  L.p = p;
  std::uniform_int_distribution<int64_t> val(lo, hi);
  std::uniform_int_distribution<int> byte(0, 255);
  L.x.resize(static_cast<std::size_t>(p.c * p.h * p.w));
  for (auto& v : L.x) v = val(rng);
  L.wt.resize(static_cast<std::size_t>(p.k * p.c * p.r * p.s));
  for (auto& v : L.wt) v = val(rng);

  const ConvConfig cfg = conv_config_from(p, hw, kInBase, kWtBase);
  // garbage first, then the real elements
  const uint64_t in_bytes = cfg.in_layout.region_bytes(cfg.input);
  for (uint64_t a = 0; a < in_bytes; ++a) mem.bytes[kInBase + a] = static_cast<uint8_t>(byte(rng));
  for (uint64_t a = 0; a < cfg.weight_bytes; ++a) mem.bytes[kWtBase + a] = static_cast<uint8_t>(byte(rng));
  Cube<int64_t> in(cfg.input);
  for (int c = 0; c < p.c; ++c)
    for (int h = 0; h < p.h; ++h)
      for (int w = 0; w < p.w; ++w) in.at(0, c, h, w) = L.in(c, h, w);
  store_cube(cfg.in_layout, in, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  Cube<int64_t> wts(CubeShape{p.k, p.c, p.r, p.s});
  for (int k = 0; k < p.k; ++k)
    for (int c = 0; c < p.c; ++c)
      for (int r = 0; r < p.r; ++r)
        for (int s = 0; s < p.s; ++s) wts.at(k, c, r, s) = L.weight(k, c, r, s);
  store_weights(cfg.weight_layout(), wts, kWtBase, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  return L;
}

void check_layer(const std::string& name, const ConvParams& p, const HwConfig& hw, uint32_t seed, int64_t lo = -128,
                 int64_t hi = 127) {
  INFO(name << " on " << hw.name << " seed " << seed);
  std::mt19937 rng(seed);
  Mem mem;
  const RefLayer L = make_layer(p, hw, rng, mem, lo, hi);
  const ConvConfig cfg = conv_config_from(p, hw, kInBase, kWtBase);
  REQUIRE(cfg.unsupported().empty());
  const int ow = conv_out_w(p), oh = conv_out_h(p);
  REQUIRE(ow >= 1);
  REQUIRE(oh >= 1);
  uint32_t ref_sat = 0;
  const std::vector<int64_t> expect = ref_conv(L, ow, oh, ref_sat);
  const ConvRun run = run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); });
  const int ak = hw.atomic_k(p.precision);
  REQUIRE(run.cacc.shape() == CubeShape{1, (p.k + ak - 1) / ak * ak, oh, ow});
  int bad = 0;
  for (int k = 0; k < run.cacc.shape().c; ++k)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        const int64_t want = k < p.k ? expect[static_cast<std::size_t>((k * oh + y) * ow + x)] : 0;
        const int64_t got = run.cacc.at(0, k, y, x);
        if (got != want && ++bad <= 5) FAIL_CHECK("k=" << k << " h=" << y << " w=" << x << ": got " << got << " want " << want);
      }
  CHECK(bad == 0);
  CHECK(run.stats.out_saturation == ref_sat);
  CHECK(run.stats.psum_saturations == 0);
}

ConvParams params(int w, int h, int c, int k, int r, int s) {
  ConvParams p;
  p.w = w;
  p.h = h;
  p.c = c;
  p.k = k;
  p.r = r;
  p.s = s;
  return p;
}

}  // namespace

TEST_CASE("golden convolution equals an int64 reference on random small layers (nv_small int8)", "[conv]") {
  const HwConfig& hw = nv_small();
  uint32_t seed = 1;
  {
    ConvParams p = params(5, 4, 8, 8, 1, 1);  // 1x1
    check_layer("1x1", p, hw, seed++);
  }
  {
    ConvParams p = params(7, 6, 16, 8, 3, 3);  // 3x3 pad 1
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    p.clip_truncate = 3;
    check_layer("3x3 pad 1", p, hw, seed++);
  }
  {
    ConvParams p = params(11, 9, 12, 10, 5, 5);  // 5x5 stride 2
    p.stride_x = p.stride_y = 2;
    p.pad_left = p.pad_top = 2;
    p.pad_right = p.pad_bottom = 2;
    p.pad_value = -7;
    p.clip_truncate = 5;
    check_layer("5x5 stride 2", p, hw, seed++);
  }
  {
    ConvParams p = params(9, 8, 9, 8, 3, 3);  // dilation 2
    p.dilation_x = p.dilation_y = 2;
    p.pad_left = p.pad_top = 1;
    p.pad_right = 1;
    check_layer("dilation 2", p, hw, seed++);
  }
  {
    ConvParams p = params(10, 10, 8, 3, 3, 3);  // dilation 3, different x/y
    p.dilation_x = 3;
    p.dilation_y = 2;
    p.pad_left = 3;
    p.pad_top = 2;
    p.pad_value = 93;
    check_layer("dilation 3x2", p, hw, seed++);
  }
  {
    ConvParams p = params(6, 5, 13, 11, 3, 2);  // C, K not multiples of 8
    p.pad_top = 1;
    p.clip_truncate = 2;
    check_layer("C=13 K=11", p, hw, seed++);
  }
  {
    ConvParams p = params(2, 2, 20, 19, 1, 1);  // W*H smaller than a stripe
    check_layer("W*H=4", p, hw, seed++);
  }
  {
    ConvParams p = params(1, 1, 37, 21, 1, 1);  // fully connected, 1x1xC
    p.clip_truncate = 1;
    check_layer("fc 1x1x37", p, hw, seed++);
  }
  {
    ConvParams p = params(4, 3, 17, 9, 3, 4);  // fully connected as a whole-cube kernel
    check_layer("fc 4x3x17 kernel 4x3", p, hw, seed++);
  }
  {
    ConvParams p = params(8, 7, 10, 12, 3, 3);  // asymmetric padding
    p.pad_left = 1;
    p.pad_right = 2;
    p.pad_top = 0;
    p.pad_bottom = 3;
    p.pad_value = -128;
    check_layer("asymmetric pad", p, hw, seed++);
  }
  {
    ConvParams p = params(12, 11, 8, 8, 2, 2);  // 121 positions: stripes 16 x6, 8, 16... several stripes
    p.stride_x = 1;
    p.stride_y = 1;
    check_layer("many stripes", p, hw, seed++);
  }
  {
    ConvParams p = params(5, 5, 9, 5, 3, 3);  // CDMA input converter
    p.cvt.enabled = true;
    p.cvt.offset = -3;
    p.cvt.scale = 3;
    p.cvt.truncate = 2;
    p.pad_left = p.pad_top = p.pad_right = p.pad_bottom = 1;
    p.pad_value = 5;
    check_layer("input converter", p, hw, seed++);
  }
  {
    ConvParams p = params(6, 6, 24, 8, 3, 3);  // clip 0
    check_layer("clip 0", p, hw, seed++);
  }
  // Random shapes.
  std::mt19937 rng(12345);
  auto u = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  for (int i = 0; i < 12; ++i) {
    ConvParams p = params(u(1, 9), u(1, 9), u(1, 40), u(1, 20), u(1, 4), u(1, 4));
    p.stride_x = u(1, 3);
    p.stride_y = u(1, 3);
    p.dilation_x = u(1, 3);
    p.dilation_y = u(1, 3);
    p.pad_left = u(0, 2);
    p.pad_top = u(0, 2);
    p.pad_right = u(0, 2);
    p.pad_bottom = u(0, 2);
    p.pad_value = u(-128, 127);
    p.clip_truncate = u(0, 8);
    if (conv_out_w(p) < 1 || conv_out_h(p) < 1) continue;
    check_layer("random " + std::to_string(i), p, hw, seed++);
  }
}

TEST_CASE("golden convolution equals an int64 reference on nv_full (int8 and int16)", "[conv]") {
  const HwConfig& hw = nv_full();
  uint32_t seed = 100;
  {
    ConvParams p = params(6, 5, 70, 40, 3, 3);  // int8: C, K beyond one block/group
    p.pad_left = p.pad_top = p.pad_right = p.pad_bottom = 1;
    p.pad_value = 17;
    p.clip_truncate = 4;
    check_layer("int8 3x3", p, hw, seed++);
  }
  {
    ConvParams p = params(7, 7, 130, 33, 1, 1);
    check_layer("int8 1x1", p, hw, seed++);
  }
  {
    ConvParams p = params(6, 5, 70, 20, 3, 3);  // int16: K beyond one 16-kernel group
    p.precision = Precision::Int16;
    p.pad_left = p.pad_top = 1;
    p.pad_right = 2;
    p.pad_value = -1234;
    p.clip_truncate = 9;
    check_layer("int16 3x3", p, hw, seed++, -4096, 4095);
  }
  {
    ConvParams p = params(9, 8, 20, 16, 3, 3);  // int16 strided, dilated, full range, 32-bit saturation
    p.precision = Precision::Int16;
    p.stride_x = 2;
    p.dilation_y = 2;
    p.clip_truncate = 7;
    check_layer("int16 stride/dilation", p, hw, seed++, -32768, 32767);
  }
  {
    ConvParams p = params(1, 1, 100, 17, 1, 1);  // int16 fully connected
    p.precision = Precision::Int16;
    p.clip_truncate = 16;
    check_layer("int16 fc", p, hw, seed++, -32768, 32767);
  }
}

TEST_CASE("CACC clip-truncate rounds half away from zero and saturates to int32, hand-worked", "[conv]") {
  bool s = true;
  CHECK(cacc_output(5, 1, &s) == 3);  // 2.5 -> 3
  CHECK_FALSE(s);
  CHECK(cacc_output(-5, 1) == -3);    // -2.5 -> -3
  CHECK(cacc_output(-4, 1) == -2);
  CHECK(cacc_output(7, 2) == 2);      // 1.75
  CHECK(cacc_output(-6, 2) == -2);    // -1.5 -> -2
  CHECK(cacc_output(-5, 2) == -1);    // -1.25
  CHECK(cacc_output(0x8000, 16) == 1);   // 0.5 -> 1
  CHECK(cacc_output(0x7fff, 16) == 0);   // 0.49998
  CHECK(cacc_output(-0x8000, 16) == -1);
  CHECK(cacc_output(12345, 0) == 12345);
  // 32-bit saturation
  CHECK(cacc_output(int64_t{1} << 32, 0, &s) == INT32_MAX);
  CHECK(s);
  CHECK(cacc_output(-(int64_t{1} << 31) - 1, 0, &s) == INT32_MIN);
  CHECK(s);
  CHECK(cacc_output(-(int64_t{1} << 31), 0, &s) == INT32_MIN);
  CHECK_FALSE(s);
  CHECK(cacc_output((int64_t{1} << 32) - 1, 1, &s) == INT32_MAX);  // 2^31 - 0.5 rounds to 2^31: saturates
  CHECK(s);
  CHECK(cacc_output((int64_t{1} << 32) - 2, 1, &s) == INT32_MAX);  // exactly 2^31 - 1
  CHECK_FALSE(s);
  CHECK(cacc_output(-(int64_t{1} << 32) - 1, 1, &s) == INT32_MIN);  // -2^31 - 0.5 -> -2^31 - 1: saturates
  CHECK(s);
  // The saturated 34-bit maximum, clip 3: (2^33 - 1) / 8 = 2^30 - 0.125 -> 2^30.
  CHECK(cacc_output((int64_t{1} << 33) - 1, 3) == (int64_t{1} << 30));
}

TEST_CASE("CACC partial sums saturate at 34 bits (int8) and 48 bits (int16)", "[conv]") {
  const int64_t max34 = (int64_t{1} << 33) - 1, min34 = -(int64_t{1} << 33);
  const int64_t max48 = (int64_t{1} << 47) - 1, min48 = -(int64_t{1} << 47);
  CHECK(cacc_psum_bits(Precision::Int8) == 34);
  CHECK(cacc_psum_bits(Precision::Int16) == 48);
  CHECK(cacc_accumulate(max34 - 10, 20, Precision::Int8) == max34);
  CHECK(cacc_accumulate(max34 - 10, 10, Precision::Int8) == max34);
  CHECK(cacc_accumulate(min34 + 5, -10, Precision::Int8) == min34);
  CHECK(cacc_accumulate(max34, -131072, Precision::Int8) == max34 - 131072);  // leaves saturation at once
  CHECK(cacc_accumulate(max34 - 10, 20, Precision::Int16) == max34 + 10);    // no clamp at 48 bits
  CHECK(cacc_accumulate(max48, 1, Precision::Int16) == max48);
  CHECK(cacc_accumulate(min48, -(int64_t{1} << 36), Precision::Int16) == min48);
}

TEST_CASE("34-bit partial-sum saturation follows the hardware's (channel block, r, s) order", "[conv]") {
  // One output position, K = 1, C = 8192 (1024 channel blocks), 9x9 kernel over a 9x9 input, all
  // data -128: 82944 atomic ops. Blocks 0..899 carry weight -128 (+131072 per op), blocks
  // 900..1023 weight 127 (-130048 per op). In the hardware's order the positive blocks come first.
  const HwConfig& hw = nv_small();
  ConvParams p = params(9, 9, 8192, 1, 9, 9);
  p.clip_truncate = 3;
  const ConvConfig cfg = conv_config_from(p, hw, kInBase, kWtBase);
  REQUIRE(cfg.unsupported().empty());
  Mem mem;
  Cube<int64_t> in(cfg.input, -128);
  store_cube(cfg.in_layout, in, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  Cube<int64_t> wts(CubeShape{1, p.c, p.r, p.s});
  for (int c = 0; c < p.c; ++c)
    for (int r = 0; r < p.r; ++r)
      for (int s = 0; s < p.s; ++s) wts.at(0, c, r, s) = c / 8 < 900 ? -128 : 127;
  store_weights(cfg.weight_layout(), wts, kWtBase, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  const ConvRun run = run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); });
  // Positive phase: 900 * 81 * 131072 = 9555148800 > 2^33 - 1 = 8589934591: clamps there.
  // Negative phase: 124 * 81 * 130048 = 1306202112 subtracted: 7283732479.
  // Clip 3: 7283732479 / 8 = 910466559.875 -> 910466560. (Exact, 48-bit: 8248946688 / 8 = 1031118336.)
  CHECK(run.cacc.at(0, 0, 0, 0) == 910466560);
  CHECK(run.stats.psum_saturations > 0);
  CHECK(run.stats.out_saturation == 0);
  for (int k = 1; k < 8; ++k) CHECK(run.cacc.at(0, k, 0, 0) == 0);  // lanes for kernels >= K
}

TEST_CASE("D_OUT_SATURATION counts outputs clamped to int32", "[conv]") {
  // 20480 ops of 8 * 127 * 127 = 129032: 2642575360 > 2^31 - 1; 3 kernels (+, -, small).
  const HwConfig& hw = nv_small();
  ConvParams p = params(5, 4, 8192, 3, 4, 5);
  const ConvConfig cfg = conv_config_from(p, hw, kInBase, kWtBase);
  Mem mem;
  Cube<int64_t> in(cfg.input, 127);
  store_cube(cfg.in_layout, in, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  Cube<int64_t> wts(CubeShape{3, p.c, p.r, p.s});
  for (int c = 0; c < p.c; ++c)
    for (int r = 0; r < p.r; ++r)
      for (int s = 0; s < p.s; ++s) {
        wts.at(0, c, r, s) = 127;
        wts.at(1, c, r, s) = -127;
        wts.at(2, c, r, s) = c == 0 ? 1 : 0;
      }
  store_weights(cfg.weight_layout(), wts, kWtBase, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  const ConvRun run = run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); });
  CHECK(run.cacc.at(0, 0, 0, 0) == INT32_MAX);
  CHECK(run.cacc.at(0, 1, 0, 0) == INT32_MIN);
  CHECK(run.cacc.at(0, 2, 0, 0) == 20 * 127);
  CHECK(run.stats.out_saturation == 2);
}

TEST_CASE("register relations: EPS, banks, ATOMICS, WEIGHT_BYTES, stripes", "[conv]") {
  // dc_6x8x192_3x3x192x32 (nv_small): EPS 144, BYTE_PER_KERNEL 1728, WEIGHT_BYTES 0xd800, 6 positions.
  ConvParams p = params(6, 8, 192, 32, 3, 3);
  p.pad_left = 2;
  p.pad_right = 3;
  p.pad_top = 2;
  p.dilation_x = p.dilation_y = 4;
  CHECK(conv_out_w(p) == 3);
  CHECK(conv_out_h(p) == 2);
  ConvDerived d = conv_derived(conv_config_from(p, nv_small(), 0, 0), nv_small());
  CHECK(d.entries_per_slice == 144);
  CHECK(d.byte_per_kernel == 1728);
  CHECK(d.weight_bytes == 0xd800);
  CHECK(d.atomics == 6);
  CHECK(d.kernel_groups == 4);
  CHECK(d.channel_blocks == 24);
  CHECK(d.data_banks_min == 3);    // 144 * 8 = 1152 entries
  CHECK(d.weight_banks_min == 4);  // 8 * 1728 = 13824 bytes of 4096-byte banks
  CHECK(d.stripes == std::vector<int>{6});
  // nv_large dc_8x16x128_3x3x128x32 (the trace programs 0xf): 4 atoms per position, 2 per 64-byte
  // entry: EPS 16.
  p = params(8, 16, 128, 32, 3, 3);
  p.pad_left = p.pad_top = 1;
  p.pad_bottom = 2;
  d = conv_derived(conv_config_from(p, nv_large(), 0, 0), nv_large());
  CHECK(d.entries_per_slice == 16);
  CHECK(d.weight_bytes == 0x9000);
  CHECK(d.atomics == 7 * 17);
  // The same layer on nv_full's 128-byte entries: 4 atoms per entry, one entry per position.
  CHECK(conv_derived(conv_config_from(p, nv_full(), 0, 0), nv_full()).entries_per_slice == 8);
  // Odd atom counts on 2-atom entries share entries: C = 96 -> 3 atoms -> 1 * W + ceil(W/2).
  p = params(7, 2, 96, 8, 1, 1);
  CHECK(conv_derived(conv_config_from(p, nv_large(), 0, 0), nv_large()).entries_per_slice == 7 + 4);
  // On 4-atom entries 3 atoms are more than half an entry: one entry per position.
  CHECK(conv_derived(conv_config_from(p, nv_full(), 0, 0), nv_full()).entries_per_slice == 7);
  // NVDLA v1's conv_8x8_fc_int16 (programs 3 = EPS 4): 32 int16 channels = 2 atoms = half a
  // 128-byte entry, two positions per entry: ceil(8 / 2).
  p = params(8, 8, 32, 16, 8, 8);
  p.precision = Precision::Int16;
  CHECK(conv_derived(conv_config_from(p, nv_full(), 0, 0), nv_full()).entries_per_slice == 4);
  // One atom of four: a quarter entry, four positions per entry: ceil(7 / 4).
  p = params(7, 2, 32, 8, 1, 1);
  CHECK(conv_derived(conv_config_from(p, nv_full(), 0, 0), nv_full()).entries_per_slice == 2);
  // nv_small: EPS = ceil(C/8) * W; dc_24x44x14: 48.
  p = params(24, 44, 14, 41, 3, 5);
  CHECK(conv_derived(conv_config_from(p, nv_small(), 0, 0), nv_small()).entries_per_slice == 48);
  // Stripe partition (conv-pipeline.md §5 examples).
  std::vector<int> s168(9, 16);
  s168.push_back(8);
  s168.push_back(16);
  CHECK(csc_stripes(168, {8, 16}) == s168);
  std::vector<int> s812(49, 16);
  s812.insert(s812.end(), {8, 8, 12});
  CHECK(csc_stripes(812, {8, 16}) == s812);
  CHECK(csc_stripes(6, {8, 16}) == std::vector<int>{6});
}

TEST_CASE("the convolution refuses what it cannot model, naming it", "[conv]") {
  ConvParams p = params(4, 4, 8, 8, 3, 3);
  ConvConfig cfg = conv_config_from(p, nv_small(), kInBase, kWtBase);
  REQUIRE(cfg.unsupported().empty());
  cfg.clip_truncate = 17;
  Mem mem;
  auto rd = [&](uint64_t a) { return mem.read(a); };
  CHECK_THROWS_WITH(run_conv(cfg, nv_small(), rd), Catch::Contains("CLIP_TRUNCATE 17"));
  cfg.clip_truncate = 0;
  cfg.weight_bytes = 0x80;
  CHECK_THROWS_WITH(run_conv(cfg, nv_small(), rd), Catch::Contains("D_WEIGHT_BYTES"));
  p.precision = Precision::Int16;
  CHECK_FALSE(conv_config_from(p, nv_small(), kInBase, kWtBase).unsupported().empty());
}

namespace {

// Register words of the five blocks for a typed config, written here from docs/CONV.md §2 with the
// generated field positions: the decoder's input, built independently of decode_conv.
struct ConvWords {
  std::map<uint32_t, uint32_t> cdma, csc, cmac, cacc;
};

template <class F>
void put(std::map<uint32_t, uint32_t>& m, uint32_t offset, F f, int64_t v) {
  m[offset] |= regs::place(static_cast<uint32_t>(v), f);
}

ConvWords encode(const ConvConfig& c, const HwConfig& hw) {
  namespace cd = regs::cdma;
  namespace cs = regs::csc;
  namespace cm = regs::cmac_a;
  namespace ca = regs::cacc;
  const ConvDerived d = conv_derived(c, hw);
  const int prec = c.precision == Precision::Int16 ? 1 : 0;
  ConvWords w;
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::SKIP_WEIGHT_RLS{}, 1);  // free: no effect
  // MC: the reset value 0 selects CV-SRAM, which the master builds but nv_large lack
  put(w.cdma, cd::D_DAIN_RAM_TYPE::offset, cd::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{}, 1);
  put(w.cdma, cd::D_WEIGHT_RAM_TYPE::offset, cd::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE{}, 1);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}, c.input.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}, c.input.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, c.input.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, c.input.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_1::offset, cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}, c.input.c - 1);
  put(w.cdma, cd::D_DAIN_ADDR_HIGH_0::offset, cd::D_DAIN_ADDR_HIGH_0::DATAIN_ADDR_HIGH_0{},
      static_cast<int64_t>(c.in_layout.base >> 32));
  put(w.cdma, cd::D_DAIN_ADDR_LOW_0::offset, cd::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{},
      static_cast<int64_t>(c.in_layout.base & 0xffffffffu));
  put(w.cdma, cd::D_LINE_STRIDE::offset, cd::D_LINE_STRIDE::LINE_STRIDE{}, static_cast<int64_t>(c.in_layout.line_stride));
  put(w.cdma, cd::D_SURF_STRIDE::offset, cd::D_SURF_STRIDE::SURF_STRIDE{},
      static_cast<int64_t>(c.in_layout.surface_stride));
  put(w.cdma, cd::D_ENTRY_PER_SLICE::offset, cd::D_ENTRY_PER_SLICE::ENTRIES{}, d.entries_per_slice - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_0::offset, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}, d.byte_per_kernel - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_1::offset, cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}, c.kernels - 1);
  put(w.cdma, cd::D_WEIGHT_ADDR_HIGH::offset, cd::D_WEIGHT_ADDR_HIGH::WEIGHT_ADDR_HIGH{},
      static_cast<int64_t>(c.weight_base >> 32));
  put(w.cdma, cd::D_WEIGHT_ADDR_LOW::offset, cd::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{},
      static_cast<int64_t>(c.weight_base & 0xffffffffu));
  put(w.cdma, cd::D_WEIGHT_BYTES::offset, cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(d.weight_bytes));
  put(w.cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_EN{}, c.cvt.enabled ? 1 : 0);
  put(w.cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_TRUNCATE{}, c.cvt.truncate);
  put(w.cdma, cd::D_CVT_OFFSET::offset, cd::D_CVT_OFFSET::CVT_OFFSET{}, c.cvt.offset);
  put(w.cdma, cd::D_CVT_SCALE::offset, cd::D_CVT_SCALE::CVT_SCALE{}, c.cvt.scale);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_X_STRIDE{}, c.stride_x - 1);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_Y_STRIDE{}, c.stride_y - 1);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_LEFT{}, c.pad_left);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_RIGHT{}, c.pad_right);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_TOP{}, c.pad_top);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_BOTTOM{}, c.pad_bottom);
  put(w.cdma, cd::D_ZERO_PADDING_VALUE::offset, cd::D_ZERO_PADDING_VALUE::PAD_VALUE{}, c.pad_value);
  const int data_banks = d.data_banks_min + 1, weight_banks = d.weight_banks_min;
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, c.input.w - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, c.input.h - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_1::offset, cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}, c.input.c - 1);
  put(w.csc, cs::D_ENTRY_PER_SLICE::offset, cs::D_ENTRY_PER_SLICE::ENTRIES{}, d.entries_per_slice - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}, c.kernel_w - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}, c.kernel_h - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}, c.input.c - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}, c.kernels - 1);
  put(w.csc, cs::D_WEIGHT_BYTES::offset, cs::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(d.weight_bytes));
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, c.output.w - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, c.output.h - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_1::offset, cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, c.kernels - 1);
  put(w.csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, d.atomics - 1);
  put(w.csc, cs::D_RELEASE::offset, cs::D_RELEASE::RLS_SLICES{}, c.input.h - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}, c.stride_x - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}, c.stride_y - 1);
  put(w.csc, cs::D_DILATION_EXT::offset, cs::D_DILATION_EXT::X_DILATION_EXT{}, c.dilation_x - 1);
  put(w.csc, cs::D_DILATION_EXT::offset, cs::D_DILATION_EXT::Y_DILATION_EXT{}, c.dilation_y - 1);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_LEFT{}, c.pad_left);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_TOP{}, c.pad_top);
  put(w.csc, cs::D_ZERO_PADDING_VALUE::offset, cs::D_ZERO_PADDING_VALUE::PAD_VALUE{}, c.pad_value);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  put(w.cmac, cm::D_MISC_CFG::offset, cm::D_MISC_CFG::PROC_PRECISION{}, prec);

  put(w.cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, c.output.w - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, c.output.h - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_1::offset, ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, c.kernels - 1);
  put(w.cacc, ca::D_CLIP_CFG::offset, ca::D_CLIP_CFG::CLIP_TRUNCATE{}, c.clip_truncate);
  return w;
}

ConvConfig decode(const ConvWords& w, const HwConfig& hw) {
  auto reader = [](const std::map<uint32_t, uint32_t>& m) {
    return [&m](uint32_t off) {
      const auto it = m.find(off);
      return it == m.end() ? 0u : it->second;
    };
  };
  return decode_conv({reader(w.cdma), reader(w.csc), reader(w.cmac), reader(w.cmac), reader(w.cacc)}, hw);
}

void check_round_trip(const ConvParams& p, const HwConfig& hw) {
  const ConvConfig want = conv_config_from(p, hw, 0x1234567800ull, 0x9abcdef000ull);
  REQUIRE(want.unsupported().empty());
  const ConvConfig got = decode(encode(want, hw), hw);
  INFO(conv_describe(want));
  for (const auto& e : got.decode_problems) FAIL_CHECK(e);
  CHECK(got.precision == want.precision);
  CHECK(got.atomic_c == want.atomic_c);
  CHECK(got.atomic_k == want.atomic_k);
  CHECK(got.input == want.input);
  CHECK(got.in_layout.base == want.in_layout.base);
  CHECK(got.in_layout.line_stride == want.in_layout.line_stride);
  CHECK(got.in_layout.surface_stride == want.in_layout.surface_stride);
  CHECK(got.in_layout.bpe == want.in_layout.bpe);
  CHECK(got.cvt.enabled == want.cvt.enabled);
  CHECK(got.cvt.offset == want.cvt.offset);
  CHECK(got.cvt.scale == want.cvt.scale);
  CHECK(got.cvt.truncate == want.cvt.truncate);
  CHECK(got.kernels == want.kernels);
  CHECK(got.kernel_h == want.kernel_h);
  CHECK(got.kernel_w == want.kernel_w);
  CHECK(got.weight_base == want.weight_base);
  CHECK(got.weight_bytes == want.weight_bytes);
  CHECK(got.stride_x == want.stride_x);
  CHECK(got.stride_y == want.stride_y);
  CHECK(got.dilation_x == want.dilation_x);
  CHECK(got.dilation_y == want.dilation_y);
  CHECK(got.pad_left == want.pad_left);
  CHECK(got.pad_top == want.pad_top);
  CHECK(got.pad_right == want.pad_right);
  CHECK(got.pad_bottom == want.pad_bottom);
  CHECK(got.pad_value == want.pad_value);
  CHECK(got.output == want.output);
  CHECK(got.clip_truncate == want.clip_truncate);
  CHECK(got.unsupported().empty());
}

}  // namespace

TEST_CASE("decode_conv reads back register words built from the layer (int8 and int16)", "[conv]") {
  ConvParams p = params(9, 8, 21, 11, 3, 3);
  p.stride_x = 2;
  p.dilation_y = 2;
  p.pad_left = 1;
  p.pad_right = 2;
  p.pad_top = 3;
  p.pad_value = -5;
  p.clip_truncate = 7;
  check_round_trip(p, nv_small());
  check_round_trip(p, nv_full());
  p.precision = Precision::Int16;
  p.pad_value = -1234;
  p.cvt = ConvInputCvt{true, -300, -7, 5};
  p.clip_truncate = 16;
  check_round_trip(p, nv_full());
  check_round_trip(params(1, 1, 96, 40, 1, 1), nv_full());  // 3 atoms on 2-atom entries
}

TEST_CASE("decode_conv names inconsistent or unsupported register words", "[conv]") {
  const HwConfig& hw = nv_small();
  ConvParams p = params(6, 5, 16, 8, 3, 3);
  p.pad_left = p.pad_top = 1;
  const ConvConfig cfg = conv_config_from(p, hw, 0x1000, 0x8000);
  auto problems = [&](auto mutate) {
    ConvWords w = encode(cfg, hw);
    mutate(w);
    std::string all;
    for (const auto& e : decode(w, hw).decode_problems) all += e + "\n";
    return all;
  };
  CHECK(problems([](ConvWords&) {}).empty());
  CHECK_THAT(problems([](ConvWords& w) { w.csc[regs::csc::D_ATOMICS::offset] = 3; }),
             Catch::Contains("D_ATOMICS"));
  CHECK_THAT(problems([](ConvWords& w) { w.cdma[regs::cdma::D_ENTRY_PER_SLICE::offset] += 1; }),
             Catch::Contains("D_ENTRY_PER_SLICE"));
  CHECK_THAT(problems([](ConvWords& w) { w.cacc[regs::cacc::D_MISC_CFG::offset] = 0x1000; }),
             Catch::Contains("precisions"));
  CHECK_THAT(problems([](ConvWords& w) { w.cmac[regs::cmac_a::D_MISC_CFG::offset] |= 1; }),
             Catch::Contains("WINOGRAD"));
  CHECK_THAT(problems([](ConvWords& w) { w.cdma[regs::cdma::D_BANK::offset] = 0x1f0000; }),
             Catch::Contains("more than the 32 CBUF banks"));
  CHECK_THAT(problems([](ConvWords& w) { w.csc[regs::csc::D_ZERO_PADDING_VALUE::offset] = 3; }),
             Catch::Contains("PAD_VALUE"));
  CHECK_THAT(problems([](ConvWords& w) { w.cdma[regs::cdma::D_WEIGHT_FORMAT::offset] = 1; }),
             Catch::Contains("compressed"));
  CHECK_THAT(problems([](ConvWords& w) { w.cacc[regs::cacc::D_BATCH_NUMBER::offset] = 1; }),
             Catch::Contains("batch"));
  CHECK_THAT(problems([](ConvWords& w) { w.cdma[regs::cdma::D_MISC_CFG::offset] |= regs::cdma::D_MISC_CFG::DATA_REUSE::mask; }),
             Catch::Contains("CDMA and CSC D_MISC_CFG.DATA_REUSE differ"));
  CHECK_THAT(problems([](ConvWords& w) { w.csc[regs::csc::D_MISC_CFG::offset] |= regs::csc::D_MISC_CFG::WEIGHT_REUSE::mask; }),
             Catch::Contains("CDMA and CSC D_MISC_CFG.WEIGHT_REUSE differ"));
  // A skip-release bit in one copy is no problem (encode sets CDMA's SKIP_WEIGHT_RLS alone), and
  // keeps nothing: CBUF keeps what both CDMA and CSC keep.
  CHECK_FALSE(decode(encode(cfg, hw), hw).cbuf.skip_weight_rls);
  // The four flags decode from both copies (the reuse rules are run_conv's, with a CBUF state).
  ConvWords both = encode(cfg, hw);
  for (uint32_t* m : {&both.cdma[regs::cdma::D_MISC_CFG::offset], &both.csc[regs::csc::D_MISC_CFG::offset]}) {
    *m |= regs::cdma::D_MISC_CFG::DATA_REUSE::mask | regs::cdma::D_MISC_CFG::SKIP_WEIGHT_RLS::mask;
  }
  const ConvConfig flags = decode(both, hw);
  CHECK(flags.decode_problems.empty());
  CHECK(flags.cbuf.data_reuse);
  CHECK_FALSE(flags.cbuf.weight_reuse);
  CHECK_FALSE(flags.cbuf.skip_data_rls);
  CHECK(flags.cbuf.skip_weight_rls);
  CHECK(flags.cbuf.data_banks >= 1);
}

// ---- CBUF reuse across layers (D_MISC_CFG, docs/CONV.md "CBUF reuse") ----------------------------

namespace {

// A layer's config with its D_BANK as the driver splits it (the whole input, all weights).
ConvConfig reuse_config(const ConvParams& p, const HwConfig& hw) {
  ConvConfig c = conv_config_from(p, hw, kInBase, kWtBase);
  const ConvDerived d = conv_derived(c, hw);
  c.cbuf.data_banks = d.data_banks_min;
  c.cbuf.weight_banks = d.weight_banks_all;
  return c;
}

// The CACC cube's K x H' x W' values against the reference of (input of `xin`, weights of `win`).
void check_reused(const ConvRun& run, const ConvParams& p, const RefLayer& xin, const RefLayer& win) {
  RefLayer mixed;
  mixed.p = p;
  mixed.x = xin.x;
  mixed.wt = win.wt;
  const int ow = conv_out_w(p), oh = conv_out_h(p);
  uint32_t sat = 0;
  const std::vector<int64_t> want = ref_conv(mixed, ow, oh, sat);
  int bad = 0;
  for (int k = 0; k < p.k; ++k)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        if (run.cacc.at(0, k, y, x) != want[static_cast<std::size_t>((k * oh + y) * ow + x)]) ++bad;
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("a layer reusing CBUF computes with the weights / input the previous layer kept, not memory's",
          "[conv][cbuf]") {
  const HwConfig& hw = nv_small();
  std::mt19937 rng(77);
  ConvParams p = params(8, 6, 16, 8, 3, 3);
  p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
  p.clip_truncate = 6;
  p.cvt = ConvInputCvt{true, 10, 3, 2};
  ConvParams q = p;  // the second layer: another kernel over the same input
  q.r = q.s = 1;
  q.pad_left = q.pad_right = q.pad_top = q.pad_bottom = 0;
  auto read = [](const Mem& m) { return [&m](uint64_t a) { return m.read(a); }; };
  Mem mem;
  ConvCbufState st;
  // The first layer, keeping what `skip_data` / `skip_weights` say in st.
  auto first = [&](bool skip_data, bool skip_weights) {
    const RefLayer a = make_layer(p, hw, rng, mem, -40, 40);
    ConvConfig ca = reuse_config(p, hw);
    ca.cbuf.skip_data_rls = skip_data;
    ca.cbuf.skip_weight_rls = skip_weights;
    (void)run_conv(ca, hw, read(mem), &st);
    return a;
  };

  SECTION("weights") {
    const RefLayer a = first(false, true);
    REQUIRE(st.weights.size() == reuse_config(p, hw).weight_bytes);
    const RefLayer b = make_layer(p, hw, rng, mem, -40, 40);  // memory now holds b's input and weights
    ConvConfig cb = reuse_config(p, hw);
    cb.cbuf.weight_reuse = true;
    check_reused(run_conv(cb, hw, read(mem), &st), p, b, a);
    // released: the layer after takes nothing
    CHECK(st.weights.empty());
    CHECK_THROWS_WITH(run_conv(cb, hw, read(mem), &st), Catch::Contains("its SKIP_WEIGHT_RLS is 0"));
  }
  SECTION("data, under another kernel, as converted into CBUF") {
    const RefLayer a = first(true, false);
    const RefLayer b = make_layer(q, hw, rng, mem, -40, 40);
    ConvConfig cb = reuse_config(q, hw);
    cb.cbuf.data_reuse = true;
    cb.cbuf.skip_data_rls = true;  // kept again for a third layer
    check_reused(run_conv(cb, hw, read(mem), &st), q, a, b);
    const RefLayer c = make_layer(q, hw, rng, mem, -40, 40);
    check_reused(run_conv(cb, hw, read(mem), &st), q, a, c);
  }
  SECTION("both: the first layer's result again") {
    const RefLayer a = first(true, true);
    (void)make_layer(p, hw, rng, mem, -40, 40);
    ConvConfig cb = reuse_config(p, hw);
    cb.cbuf.data_reuse = cb.cbuf.weight_reuse = true;
    check_reused(run_conv(cb, hw, read(mem), &st), p, a, a);
  }
}

TEST_CASE("CBUF reuse the previous layer did not leave is refused, naming the rule", "[conv][cbuf]") {
  const HwConfig& hw = nv_small();
  ConvParams p = params(8, 6, 16, 8, 3, 3);
  p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
  ConvConfig prev = reuse_config(p, hw);
  prev.cbuf.skip_data_rls = prev.cbuf.skip_weight_rls = true;
  ConvConfig next = reuse_config(p, hw);
  auto first = [&](const ConvConfig* last, const ConvConfig& n) {
    const std::vector<std::string> u = cbuf_reuse_problems(last, n, hw);
    return u.empty() ? std::string() : u.front();
  };
  CHECK(first(nullptr, next).empty());  // no reuse: nothing to check
  next.cbuf.weight_reuse = true;
  CHECK(first(&prev, next).empty());
  CHECK_THAT(first(nullptr, next), Catch::Contains("no convolution has run since reset"));
  ConvConfig other = next;
  other.cbuf.weight_banks += 1;
  CHECK_THAT(first(&prev, other), Catch::Contains("WEIGHT_REUSE needs the previous layer's D_BANK"));
  other = next;
  other.weight_bytes += 128;
  CHECK_THAT(first(&prev, other), Catch::Contains("WEIGHT_REUSE needs the held weights' D_WEIGHT_BYTES 1152"));
  ConvConfig wrapped = prev;  // 1152 weight bytes in one 4096-byte bank fit; in a 512-byte ring they would not
  wrapped.weight_bytes = 8192;
  other = next;
  other.weight_bytes = 8192;
  CHECK_THAT(first(&wrapped, other), Catch::Contains("its weight ring wrapped"));
  next.cbuf.weight_reuse = false;
  next.cbuf.data_reuse = true;
  CHECK(first(&prev, next).empty());
  other = next;
  other.cbuf.data_banks += 1;
  CHECK_THAT(first(&prev, other), Catch::Contains("DATA_REUSE needs the previous layer's D_BANK.DATA_BANK"));
  other = next;
  other.input.h += 1;
  CHECK_THAT(first(&prev, other), Catch::Contains("DATA_REUSE needs the held input cube 8x6x16"));
  other = next;
  other.wfold_ws = 2;
  CHECK_THAT(first(&prev, other), Catch::Contains("direct convolutions of feature input only"));
  ConvConfig released = prev;
  released.cbuf.skip_data_rls = false;
  CHECK_THAT(first(&released, next), Catch::Contains("released its input lines"));
  // A single layer has no CBUF state to take.
  Mem mem;
  CHECK_THROWS_WITH(run_conv(next, hw, [&](uint64_t a) { return mem.read(a); }),
                    Catch::Contains("a single layer has none"));
}
