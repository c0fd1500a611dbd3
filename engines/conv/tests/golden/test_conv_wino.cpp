// Winograd convolution mode (golden/conv_wino.hpp) against a reference direct convolution written
// here as plain int64 loops (not golden::run_conv): random layers (3x3 at stride 1, 5x5 / 6x6 at
// stride 2) through wino_compile (exact scheme, PRA_TRUNCATE 0) and through register words encoded
// here, as NVDLA programs Winograd (the programming guide's tables, NVIDIA's firmware and C model),
// and read back by decode_conv; hand-worked layers for NVDLA's truncating scheme; the weight
// layout by hand; refusals with their reasons.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/layout.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

struct Mem {
  std::unordered_map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? 0 : it->second;
  }
};

constexpr uint64_t kInBase = 0x10000000;
constexpr uint64_t kWtBase = 0x20000000;

// out[k][y][x] = rhaz(sum over c, r, s of weight * (input or pad) / 2^clip), clamped to int32.
std::vector<int64_t> ref_conv(const ConvParams& p, const Cube<int64_t>& x, const Cube<int64_t>& wt, int ow, int oh) {
  std::vector<int64_t> out(static_cast<std::size_t>(p.k * oh * ow));
  for (int k = 0; k < p.k; ++k)
    for (int y = 0; y < oh; ++y)
      for (int xo = 0; xo < ow; ++xo) {
        int64_t acc = 0;
        for (int c = 0; c < p.c; ++c)
          for (int r = 0; r < p.r; ++r)
            for (int s = 0; s < p.s; ++s) {
              const int hi = y * p.stride_y + r - p.pad_top;
              const int wi = xo * p.stride_x + s - p.pad_left;
              const bool inside = hi >= 0 && hi < p.h && wi >= 0 && wi < p.w;
              acc += (inside ? x.at(0, c, hi, wi) : p.pad_value) * wt.at(k, c, r, s);
            }
        int64_t q = acc;
        if (p.clip_truncate > 0) {
          const int64_t mag = acc < 0 ? -acc : acc;
          const int64_t qm = (mag + (int64_t{1} << (p.clip_truncate - 1))) >> p.clip_truncate;
          q = acc < 0 ? -qm : qm;
        }
        out[static_cast<std::size_t>((k * oh + y) * ow + xo)] = q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : q);
      }
  return out;
}

// ---- register words for Winograd mode as NVDLA programs them (independent of the decoder)

using Words = std::map<uint32_t, uint32_t>;
struct WgWords {
  Words cdma, csc, cmac, cacc;
};

template <class F>
void put(Words& m, uint32_t offset, F f, int64_t v) {
  m[offset] |= regs::place(static_cast<uint32_t>(v), f);
}

// The hardware's right / bottom pads of a layer (its own pads and kernel R x S in `p`): the
// extended cube is the output + 4 (DATAOUT = DATAIN_SIZE_EXT - 4).
int wg_pad_right(const ConvParams& p) { return p.stride_x * (conv_out_w(p) + 4) - p.w - p.pad_left; }
int wg_pad_bottom(const ConvParams& p) { return p.stride_y * (conv_out_h(p) + 4) - p.h - p.pad_top; }

// The NVDLA registers of the layer `p` (its own pads, kernel R x S with ceil(R/sy) = ceil(S/sx) = 3).
WgWords encode_wg(const ConvParams& p, int pra_truncate, int clip, uint64_t weight_bytes, int data_banks, int weight_banks) {
  namespace cd = regs::cdma;
  namespace cs = regs::csc;
  namespace cm = regs::cmac_a;
  namespace ca = regs::cacc;
  const int prec = p.precision == Precision::Int16 ? 1 : 0;
  const int bpe = prec + 1;
  const int ow = conv_out_w(p), oh = conv_out_h(p);
  const int pad_right = wg_pad_right(p), pad_bottom = wg_pad_bottom(p);
  const int w_ext = ow + 4, h_ext = oh + 4;
  // C' = C on whole 32-byte atoms; every stride phase holds C' channels: C_ext = C' x sx x sy.
  const int c_pad = (p.c * bpe + 31) / 32 * 32 / bpe;
  const int c_ext = c_pad * p.stride_x * p.stride_y;
  // A slice is one extended row: W_ext x C_ext elements in 128-byte entries.
  const int eps = w_ext * c_ext * bpe / 128;
  const FeatureLayout in = FeatureLayout::packed(CubeShape{1, p.c, p.h, p.w}, 32, bpe, kInBase);
  WgWords w;
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::CONV_MODE{}, 1);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::CONV_MODE{}, 1);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}, p.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}, p.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_1::offset, cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}, p.c - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, w_ext - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, h_ext - 1);
  put(w.cdma, cd::D_DAIN_ADDR_LOW_0::offset, cd::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{}, static_cast<int64_t>(kInBase));
  put(w.cdma, cd::D_LINE_STRIDE::offset, cd::D_LINE_STRIDE::LINE_STRIDE{}, static_cast<int64_t>(in.line_stride));
  put(w.cdma, cd::D_SURF_STRIDE::offset, cd::D_SURF_STRIDE::SURF_STRIDE{}, static_cast<int64_t>(in.surface_stride));
  put(w.cdma, cd::D_ENTRY_PER_SLICE::offset, cd::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_0::offset, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}, 16 * c_ext * bpe - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_1::offset, cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}, p.k - 1);
  put(w.cdma, cd::D_WEIGHT_ADDR_LOW::offset, cd::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{}, static_cast<int64_t>(kWtBase));
  put(w.cdma, cd::D_WEIGHT_BYTES::offset, cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(weight_bytes));
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_X_STRIDE{}, p.stride_x - 1);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_Y_STRIDE{}, p.stride_y - 1);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_LEFT{}, p.pad_left);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_RIGHT{}, pad_right);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_TOP{}, p.pad_top);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_BOTTOM{}, pad_bottom);
  put(w.cdma, cd::D_ZERO_PADDING_VALUE::offset, cd::D_ZERO_PADDING_VALUE::PAD_VALUE{}, p.pad_value);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::WEIGHT_BANK{}, weight_banks - 1);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::WEIGHT_BANK{}, weight_banks - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, w_ext - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, h_ext - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_1::offset, cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}, c_ext - 1);
  put(w.csc, cs::D_ENTRY_PER_SLICE::offset, cs::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  // 4x4: the size after the weights' pre-transform.
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}, 3);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}, 3);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}, c_ext - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}, p.k - 1);
  put(w.csc, cs::D_WEIGHT_BYTES::offset, cs::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(weight_bytes));
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, ow - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, oh - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_1::offset, cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, p.k - 1);
  put(w.csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, ow * oh - 1);  // output points
  put(w.csc, cs::D_ZERO_PADDING_VALUE::offset, cs::D_ZERO_PADDING_VALUE::PAD_VALUE{}, p.pad_value);
  put(w.csc, cs::D_PRA_CFG::offset, cs::D_PRA_CFG::PRA_TRUNCATE{}, pra_truncate);
  put(w.cmac, cm::D_MISC_CFG::offset, cm::D_MISC_CFG::CONV_MODE{}, 1);
  put(w.cmac, cm::D_MISC_CFG::offset, cm::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::CONV_MODE{}, 1);
  put(w.cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, ow - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, oh - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_1::offset, ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, p.k - 1);
  put(w.cacc, ca::D_CLIP_CFG::offset, ca::D_CLIP_CFG::CLIP_TRUNCATE{}, clip);
  return w;
}

ConvConfig decode_wg(const WgWords& w, const HwConfig& hw) {
  auto reader = [](const Words& m) {
    return [&m](uint32_t off) {
      const auto it = m.find(off);
      return it == m.end() ? 0u : it->second;
    };
  };
  return decode_conv({reader(w.cdma), reader(w.csc), reader(w.cmac), reader(w.cmac), reader(w.cacc)}, hw);
}

// ---- one random layer ------------------------------------------------------------------------------

struct Layer {
  ConvParams p;
  Cube<int64_t> x, wt;
};

Layer random_layer(const ConvParams& p, std::mt19937& rng, int64_t data_max, int64_t weight_max) {
  Layer L{p, Cube<int64_t>(CubeShape{1, p.c, p.h, p.w}), Cube<int64_t>(CubeShape{p.k, p.c, p.r, p.s})};
  std::uniform_int_distribution<int64_t> dv(-data_max - 1, data_max), wv(-weight_max, weight_max);
  for (auto& v : L.x.data()) v = dv(rng);
  for (auto& v : L.wt.data()) v = wv(rng);
  // Range ends, so the extremes are reached.
  L.x.data().front() = -data_max - 1;
  L.x.data().back() = data_max;
  L.wt.data().front() = -weight_max;
  L.wt.data().back() = weight_max;
  L.p.pad_value = static_cast<int32_t>(dv(rng));
  return L;
}

void check_output(const Layer& L, const ConvRun& run) {
  const int ow = conv_out_w(L.p), oh = conv_out_h(L.p);
  const std::vector<int64_t> want = ref_conv(L.p, L.x, L.wt, ow, oh);
  REQUIRE(run.cacc.shape().h == oh);
  REQUIRE(run.cacc.shape().w == ow);
  REQUIRE(run.cacc.shape().c >= L.p.k);
  int bad = 0;
  for (int k = 0; k < run.cacc.shape().c; ++k)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        const int64_t w = k < L.p.k ? want[static_cast<std::size_t>((k * oh + y) * ow + x)] : 0;
        const int64_t got = run.cacc.at(0, k, y, x);
        if (got != w && ++bad <= 5) FAIL_CHECK("k=" << k << " y=" << y << " x=" << x << ": got " << got << " want " << w);
      }
  CHECK(bad == 0);
  CHECK(run.stats.psum_saturations == 0);
}

// Stores the layer's input (garbage in the padded lanes of the last atom) and the weight image.
void load(Mem& mem, const Layer& L, const WinoLayer& wl, std::mt19937& rng) {
  const FeatureLayout in = wl.cfg.in_layout;
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint64_t a = 0; a < in.region_bytes(wl.cfg.input); ++a) mem.bytes[in.base + a] = static_cast<uint8_t>(byte(rng));
  store_cube(in, L.x, [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  for (std::size_t i = 0; i < wl.weights.size(); ++i) mem.bytes[kWtBase + i] = wl.weights[i];
}

}  // namespace

TEST_CASE("winograd exact scheme at PRA_TRUNCATE 0 equals an int64 direct convolution on random layers", "[conv][wino]") {
  const HwConfig& hw = nv_full();
  std::mt19937 rng(4242);
  auto u = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  int layers = 0, stride2 = 0, int8_layers = 0;
  for (int i = 0; i < 24; ++i) {
    ConvParams p;
    p.stride_x = p.stride_y = i % 3 == 2 ? 2 : 1;
    if (i % 7 == 5) p.stride_x = 2;  // stride 2 in x only
    // A kernel that is 3x3 after channel extension: 3 at stride 1, 5 or 6 at stride 2.
    p.s = p.stride_x == 2 ? u(5, 6) : 3;
    p.r = p.stride_y == 2 ? u(5, 6) : 3;
    p.pad_left = u(0, (p.s - 1) / 2);
    p.pad_right = u(0, (p.s - 1) / 2);
    p.pad_top = u(0, (p.r - 1) / 2);
    p.pad_bottom = u(0, (p.r - 1) / 2);
    const int ow = 4 * u(2, 3), oh = 4 * u(2, 3);
    // Smallest input giving that output, plus (at stride 2) possibly one unused column/row.
    p.w = (ow - 1) * p.stride_x + p.s - p.pad_left - p.pad_right + (p.stride_x == 2 ? u(0, 1) : 0);
    p.h = (oh - 1) * p.stride_y + p.r - p.pad_top - p.pad_bottom + (p.stride_y == 2 ? u(0, 1) : 0);
    p.c = i % 4 == 0 ? u(65, 70) : u(1, 23);  // non-multiples of 4 and 64 too
    p.k = i % 5 == 0 ? u(33, 40) : u(1, 20);  // beyond one kernel group, non-multiples of 16 and 32
    p.clip_truncate = u(0, 4);
    int64_t data_max = 127, weight_max = 127;
    switch (i % 4) {
      case 0: p.precision = Precision::Int16; break;                                          // int8 values at int16
      case 1: p.precision = Precision::Int16; data_max = 8191; weight_max = 3640; break;      // int16 (PRA never clamps)
      case 2: p.precision = Precision::Int8; data_max = 31; weight_max = 14; break;          // int8 that fits 4U, V
      default: p.precision = Precision::Int16; data_max = 1000; weight_max = 1000; break;
    }
    REQUIRE(conv_out_w(p) == ow);
    REQUIRE(conv_out_h(p) == oh);
    const Layer L = random_layer(p, rng, data_max, weight_max);
    INFO("layer " << i << ": " << p.w << "x" << p.h << "x" << p.c << " K " << p.k << " kernel " << p.s << "x" << p.r
                  << " stride " << p.stride_x << "x" << p.stride_y << " pads " << p.pad_left << p.pad_right
                  << p.pad_top << p.pad_bottom << " " << precision_name(p.precision));
    p = L.p;  // with the drawn pad value
    const WinoLayer wl = wino_compile(p, L.wt, WinoScheme::Exact, 0, hw, kInBase, kWtBase);
    for (const auto& e : wl.problems) FAIL_CHECK(e.text);
    REQUIRE(wl.problems.empty());
    Mem mem;
    load(mem, L, wl, rng);
    auto rd = [&](uint64_t a) { return mem.read(a); };
    check_output(L, run_conv(wl.cfg, hw, rd));

    // The same layer from NVDLA's register words: decode_conv, then run_conv. The compiler grows
    // the right / bottom pads to make the extended cube the output + 4.
    CHECK(wl.cfg.pad_right == wg_pad_right(p));
    CHECK(wl.cfg.pad_bottom == wg_pad_bottom(p));
    const WgWords words = encode_wg(p, 0, p.clip_truncate + 2, wl.derived.weight_bytes, wl.derived.data_banks_min,
                                    wl.derived.weight_banks_min);
    const ConvConfig dec = decode_wg(words, hw);
    for (const auto& e : dec.unsupported()) FAIL_CHECK(e);
    REQUIRE(dec.unsupported().empty());
    CHECK(dec.mode == ConvMode::Winograd);
    check_output(L, run_conv(dec, hw, rd));
    ++layers;
    stride2 += p.stride_x == 2 || p.stride_y == 2;
    int8_layers += p.precision == Precision::Int8;
  }
  CHECK(layers == 24);
  CHECK(stride2 >= 8);
  CHECK(int8_layers == 6);
}

TEST_CASE("winograd exact scheme at PRA_TRUNCATE 2 is exact when 4 divides every input", "[conv][wino]") {
  const HwConfig& hw = nv_full();
  std::mt19937 rng(77);
  ConvParams p;
  p.w = p.h = 10;
  p.c = 9;
  p.k = 5;
  p.r = p.s = 3;
  p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 0;
  p.precision = Precision::Int16;
  p.clip_truncate = 1;
  Layer L = random_layer(p, rng, 2000, 500);
  for (auto& v : L.x.data()) v = v / 4 * 4;
  L.p.pad_value = L.p.pad_value / 4 * 4;
  const WinoLayer wl = wino_compile(L.p, L.wt, WinoScheme::Exact, 2, hw, kInBase, kWtBase);
  REQUIRE(wl.problems.empty());
  CHECK(wl.cfg.clip_truncate == 1);  // 1 + 2 - 2
  Mem mem;
  load(mem, L, wl, rng);
  check_output(L, run_conv(wl.cfg, hw, [&](uint64_t a) { return mem.read(a); }));
}

namespace {

// 10x10x1 input of constant value, one 3x3 kernel of constant value, no padding: 8x8 output, every
// output tile sees constant data (the extra right / bottom pads of the extended cube are read by
// no tile). Returns the CACC value of kernel 0 at every position (checked
// equal everywhere).
int64_t run_constant(Precision prec, int64_t data, int64_t weight, int pra_truncate, int clip) {
  const HwConfig& hw = nv_full();
  ConvParams p;
  p.w = p.h = 10;
  p.r = p.s = 3;
  p.precision = prec;
  p.clip_truncate = clip;
  Cube<int64_t> wt(CubeShape{1, 1, 3, 3}, weight);
  const WinoLayer wl = wino_compile(p, wt, WinoScheme::Nvdla, pra_truncate, hw, kInBase, kWtBase);
  REQUIRE(wl.problems.empty());
  Mem mem;
  store_cube(wl.cfg.in_layout, Cube<int64_t>(CubeShape{1, 1, 10, 10}, data), [&](uint64_t a, uint8_t b) { mem.bytes[a] = b; });
  for (std::size_t i = 0; i < wl.weights.size(); ++i) mem.bytes[kWtBase + i] = wl.weights[i];
  const ConvRun run = run_conv(wl.cfg, hw, [&](uint64_t a) { return mem.read(a); });
  const int64_t v = run.cacc.at(0, 0, 0, 0);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) CHECK(run.cacc.at(0, 0, y, x) == v);
  CHECK(run.cacc.at(0, 1, 2, 2) == 0);  // a lane without a kernel
  return v;
}

}  // namespace

TEST_CASE("winograd with NVDLA's truncating weights, hand-worked", "[conv][wino]") {
  // g = all w: U = w * outer(u, u), u = (1, 3/2, 1/2, 1). Constant data c: V = B^T d B has only
  // V[1][1] = 4c. So M[5] = U[1][1] * V[1][1] and every output is A^T M A = M[5].
  // w = 1: U[1][1] = 2.25 truncates to 2; c = 10: 2 * 40 = 80 (the direct convolution gives 90).
  CHECK(run_constant(Precision::Int8, 10, 1, 0, 0) == 80);
  CHECK(run_constant(Precision::Int16, 10, 1, 0, 0) == 80);
  // PRA saturation, int8: c = 100, V = 400 -> 127 at PRA_TRUNCATE 0: 2 * 127 = 254.
  CHECK(run_constant(Precision::Int8, 100, 1, 0, 0) == 254);
  // int16 does not clamp: 2 * 400 = 800.
  CHECK(run_constant(Precision::Int16, 100, 1, 0, 0) == 800);
  // PRA_TRUNCATE 2 with the layer's clip 2 (register CLIP_TRUNCATE 0): V = 400 / 4 = 100: 200.
  CHECK(run_constant(Precision::Int8, 100, 1, 2, 2) == 200);
  // PRA_TRUNCATE 1, c = 3: V = 12 / 2 = 6, M = 12; layer clip 3 -> register 2: rhaz(12 / 4) = 3.
  CHECK(run_constant(Precision::Int8, 3, 1, 1, 3) == 3);
  // Weight saturation, int8: w = 100, U[1][1] = 225 -> 127; c = 1: 127 * 4 = 508.
  CHECK(run_constant(Precision::Int8, 1, 100, 0, 0) == 508);
  // Truncation toward zero for negative U: w = -1, U[1][1] = -2.25 -> -2; c = 5: -2 * 20 = -40.
  CHECK(run_constant(Precision::Int16, 5, -1, 0, 0) == -40);
}

TEST_CASE("winograd weight layout, register values and derived bookkeeping by hand", "[conv][wino]") {
  ConvConfig c;
  c.mode = ConvMode::Winograd;
  c.input = CubeShape{1, 6, 10, 10};
  c.kernels = 40;
  c.atomic_k = 32;
  c.precision = Precision::Int8;
  // C = 6 int8 -> C' = 32 (one 32-byte atom) = C_ext at stride 1 -> 8 channel groups; kernel
  // bytes 16 x 32 = 512.
  const WinoWeightLayout wl = wino_weight_layout(c);
  CHECK(wl.kernel_bytes() == 512);
  CHECK(wl.offset(0, 0, 0) == 0);
  CHECK(wl.offset(0, 1, 0) == 1);   // channel innermost
  CHECK(wl.offset(0, 0, 1) == 4);   // then position
  CHECK(wl.offset(1, 0, 0) == 64);  // then kernel: 64 contiguous elements per kernel and group
  CHECK(wl.offset(0, 4, 0) == 32 * 64);  // then channel group (32 kernels in group 0)
  // Group 1 (kernels 32..39, 8 kernels) starts at 32 * 512 = 16384; kernel 33, channel 5, p 7:
  // (1 * 8 + 1) * 64 + 7 * 4 + 1 = 605.
  CHECK(wl.offset(33, 5, 7) == 16384 + 605);
  CHECK(wl.total_bytes() == 40 * 512);
  // Stride 2, C = 6 int8 on nv_full: each phase holds C' = 32 channels, the last too: C_ext =
  // 4 x 32 = 128; W_ext = (10 + 1 + 5) / 2 = 8.
  c.stride_x = c.stride_y = 2;
  c.pad_left = c.pad_top = 1;
  c.pad_right = c.pad_bottom = 5;
  const WinoGeometry g = wino_geometry(c);
  CHECK(g.w_ext == 8);
  CHECK(g.h_ext == 8);
  CHECK(g.phases == 4);
  CHECK(g.c_pad == 32);
  CHECK(g.c_ext == 128);
  CHECK(g.channel_groups == 32);
  CHECK(wino_ext_channel(c, 2, 1, 0) == 66);  // phase (1, 0) of channel 2: 2 * 32 + 2
  CHECK(wino_ext_channel(c, 5, 1, 1) == 101);  // the last real channel
  // Stride 2x1 (2 phases), C = 40 int8: 2 atoms per phase, C' 64, C_ext 128.
  c.stride_y = 1;
  c.input.c = 40;
  CHECK(wino_geometry(c).c_pad == 64);
  CHECK(wino_geometry(c).c_ext == 128);
  CHECK(wino_ext_channel(c, 39, 0, 1) == 103);
  // int16: 16 channels per atom; C = 40 -> C' 48, 96 at 2 phases.
  c.precision = Precision::Int16;
  CHECK(wino_geometry(c).c_pad == 48);
  CHECK(wino_geometry(c).c_ext == 96);
  // Stride 1: C_ext = C' (the example: C = 40 int8 -> 64, int16 -> 48).
  c.stride_x = 1;
  CHECK(wino_geometry(c).c_ext == 48);
  c.precision = Precision::Int8;
  CHECK(wino_geometry(c).c_ext == 64);
  c.input.c = 6;
  // int16: 16 kernels per group, 2 bytes per element; C = 6 -> C' 16, 4 channel groups, kernel
  // bytes 16 x 16 x 2 = 512.
  c.precision = Precision::Int16;
  c.atomic_k = 16;
  c.stride_x = c.stride_y = 1;
  const WinoWeightLayout w16 = wino_weight_layout(c);
  CHECK(w16.kernel_bytes() == 512);
  CHECK(w16.offset(17, 5, 7) == 16 * 512 + ((1 * 16 + 1) * 64 + 29) * 2);  // groups of 16, 16, 8

  // The compiler helper: 16x16x20 int8 at int16, K 20, pad 1, stride 1 on nv_full: W' = 16, the
  // extended cube 20 wide (PAD_RIGHT 1 + 2), C' = 32 int16 channels.
  ConvParams p;
  p.w = p.h = 16;
  p.c = 20;
  p.k = 20;
  p.r = p.s = 3;
  p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
  p.precision = Precision::Int16;
  p.clip_truncate = 3;
  const WinoLayer L = wino_compile(p, Cube<int64_t>(CubeShape{20, 20, 3, 3}, 1), WinoScheme::Exact, 1, nv_full(), 0, 0);
  REQUIRE(L.problems.empty());
  std::map<std::string, uint32_t> r;
  for (const auto& w : L.regs) r[std::string(w.block) + "." + std::string(w.reg) + "." + std::string(w.field)] = w.value;
  CHECK(r.at("CSC.D_MISC_CFG.CONV_MODE") == 1);
  CHECK(r.at("CACC.D_MISC_CFG.CONV_MODE") == 1);
  CHECK(r.at("CDMA.D_ZERO_PADDING.PAD_RIGHT") == 3);
  CHECK(r.at("CDMA.D_ZERO_PADDING.PAD_BOTTOM") == 3);
  CHECK(r.at("CDMA.D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT") == 19);  // 20 - 1
  CHECK(r.at("CSC.D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT") == 19);
  CHECK(r.at("CSC.D_DATAIN_SIZE_EXT_1.DATAIN_CHANNEL_EXT") == 31);
  CHECK(r.at("CSC.D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT") == 31);
  CHECK(r.at("CSC.D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT") == 3);  // 4x4
  CHECK(r.at("CSC.D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT") == 3);
  CHECK(r.at("CDMA.D_WEIGHT_SIZE_0.BYTE_PER_KERNEL") == 16 * 32 * 2 - 1);
  CHECK(r.at("CDMA.D_WEIGHT_BYTES.WEIGHT_BYTES") == 20 * 1024);  // a multiple of 128
  CHECK(r.at("CSC.D_ATOMICS.ATOMICS") == 16 * 16 - 1);  // output points
  CHECK(r.at("CSC.D_PRA_CFG.PRA_TRUNCATE") == 1);
  CHECK(r.at("CACC.D_CLIP_CFG.CLIP_TRUNCATE") == 4);  // 3 + 2 - 1
  CHECK(r.at("CSC.D_ZERO_PADDING.PAD_LEFT") == 0);
  CHECK(r.at("CSC.D_DATAOUT_SIZE_0.DATAOUT_WIDTH") == 15);
  CHECK(r.at("SDP.D_FEATURE_MODE_CFG.WINOGRAD") == 1);
  // EPS: one extended row, 20 x 32 int16 = 1280 bytes = 10 entries of 128.
  CHECK(r.at("CSC.D_ENTRY_PER_SLICE.ENTRIES") == 9);
  CHECK(r.at("CDMA.D_ENTRY_PER_SLICE.ENTRIES") == 9);
  CHECK(L.derived.data_banks_min == 1);  // 10 x 20 = 200 entries of 256
  CHECK(r.at("CSC.D_RELEASE.RLS_SLICES") == 19);
  CHECK(L.weights.size() == 20480);
}

TEST_CASE("winograd refusals name the reason", "[conv][wino]") {
  const HwConfig& hw = nv_full();
  ConvParams p;
  p.w = p.h = 10;  // W' = 8
  p.c = 3;
  p.k = 2;
  p.r = p.s = 3;
  auto problems = [&](const ConvParams& q, const HwConfig& h, WinoScheme scheme = WinoScheme::Exact, int t = 0) {
    std::string all;
    for (const auto& e : wino_compile(q, Cube<int64_t>(CubeShape{q.k, q.c, q.r, q.s}, 1), scheme, t, h, 0, 0).problems)
      all += e.text + "\n";
    return all;
  };
  CHECK(problems(p, hw).empty());
  ConvParams q = p;
  q.r = q.s = 5;
  q.w = q.h = 12;
  CHECK_THAT(problems(q, hw), Catch::Contains("ceil(R / stride_y) and ceil(S / stride_x) must be 3 (3x3 at stride 1, "
                                              "5x5 or 6x6 at stride 2); got 5x5 at stride 1x1"));
  q = p;
  q.r = q.s = 1;
  q.w = q.h = 8;
  CHECK_THAT(problems(q, hw), Catch::Contains("got 1x1 at stride 1x1"));
  // 3x3 at stride 2: its extended kernel is 2x2 (the programming guide's rule excludes it).
  q = p;
  q.w = q.h = 17;
  q.stride_x = q.stride_y = 2;
  CHECK_THAT(problems(q, hw), Catch::Contains("got 3x3 at stride 2x2"));
  q.r = q.s = 5;  // 5x5 at stride 2: (17 - 5) / 2 + 1 = 7 outputs, not a multiple of 4
  CHECK_THAT(problems(q, hw), Catch::Contains("multiples of 4 and at least 8"));
  q.w = q.h = 19;  // 8 outputs
  CHECK(problems(q, hw).empty());
  q = p;
  q.w = 11;  // W' = 9
  CHECK_THAT(problems(q, hw),
             Catch::Contains("Winograd needs output width and height multiples of 4 and at least 8 (NVDLA's hardware "
                             "limitations); got 9x8"));
  q = p;
  q.w = q.h = 6;  // W' = 4: a multiple of 4, but below 8
  CHECK_THAT(problems(q, hw), Catch::Contains("at least 8 (NVDLA's hardware limitations); got 4x4"));
  q = p;
  q.stride_x = 3;
  CHECK_THAT(problems(q, hw), Catch::Contains("Winograd strides here are 1 or 2"));
  CHECK_THAT(problems(p, nv_small()),
             Catch::Contains("Winograd (D_MISC_CFG.CONV_MODE = WINOGRAD) needs nv_full; nv_small is built with WINOGRAD_DISABLE"));
  q = p;
  q.cvt.enabled = true;
  q.cvt.scale = 1;
  CHECK_THAT(problems(q, hw), Catch::Contains("the Winograd fetch has no input converter"));
  q = p;
  q.precision = Precision::Int8;
  CHECK(problems(q, hw).empty());
  {
    Cube<int64_t> big(CubeShape{2, 3, 3, 3}, 15);  // 9 * 15 = 135 > 127
    const WinoLayer L = wino_compile(q, big, WinoScheme::Exact, 0, hw, 0, 0);
    REQUIRE(L.problems.size() == 1);
    CHECK_THAT(L.problems[0].text, Catch::Contains("the exact weights 4U do not fit int8"));
  }
  CHECK_THAT(problems(p, hw, WinoScheme::Nvdla, 2), Catch::Contains("needs CLIP_TRUNCATE >= PRA_TRUNCATE"));
  q = p;
  q.clip_truncate = 15;  // + 2 = 17
  CHECK_THAT(problems(q, hw), Catch::Contains("CLIP_TRUNCATE = clip + 2 - PRA_TRUNCATE = 17, above CACC's 16"));

  // Each problem names its subject (a layer compiler points at the field behind it).
  auto first_subject = [&](const ConvParams& r, const HwConfig& h, WinoScheme scheme = WinoScheme::Exact, int t = 0) {
    const auto u = wino_compile(r, Cube<int64_t>(CubeShape{r.k, r.c, r.r, r.s}, 1), scheme, t, h, 0, 0).problems;
    REQUIRE_FALSE(u.empty());
    return u.front().subject;
  };
  CHECK(first_subject(p, nv_small()) == WinoSubject::Hardware);
  CHECK(first_subject(p, hw, WinoScheme::Nvdla, 2) == WinoSubject::Clip);
  CHECK(first_subject(q, hw) == WinoSubject::Clip);
  CHECK(first_subject(p, hw, WinoScheme::Exact, 4) == WinoSubject::PraTruncate);
  q = p;
  q.r = q.s = 5;
  q.w = q.h = 12;
  CHECK(first_subject(q, hw) == WinoSubject::Kernel);
  q = p;
  q.w = 11;
  CHECK(first_subject(q, hw) == WinoSubject::OutputSize);
  q = p;
  q.stride_x = 3;
  CHECK(first_subject(q, hw) == WinoSubject::Stride);
  q = p;
  q.w = q.h = 12;
  q.dilation_x = 2;
  CHECK(first_subject(q, hw) == WinoSubject::Dilation);
  q = p;
  q.cvt.enabled = true;
  q.cvt.scale = 1;
  CHECK(first_subject(q, hw) == WinoSubject::Converter);
  {
    q = p;
    q.precision = Precision::Int8;
    const WinoLayer L = wino_compile(q, Cube<int64_t>(CubeShape{2, 3, 3, 3}, 15), WinoScheme::Exact, 0, hw, 0, 0);
    REQUIRE(L.problems.size() == 1);
    CHECK(L.problems[0].subject == WinoSubject::Weights);
  }
  {
    // 5x5 at stride 2, 16x16, pads 2: W' = (16 + 4 - 5) / 2 + 1 = 8; the extended cube 12 wide needs
    // W + PL + PR = 24: PAD_RIGHT 6.
    ConvParams s2 = p;
    s2.w = s2.h = 16;
    s2.r = s2.s = 5;
    s2.pad_left = s2.pad_right = s2.pad_top = s2.pad_bottom = 2;
    s2.stride_x = s2.stride_y = 2;
    ConvConfig cfg = wino_compile(s2, Cube<int64_t>(CubeShape{2, 3, 5, 5}, 1), WinoScheme::Exact, 0, hw, 0, 0).cfg;
    CHECK(cfg.pad_right == 6);
    CHECK(cfg.pad_bottom == 6);
    CHECK(cfg.unsupported().empty());
    cfg.pad_right = 5;
    std::string all;
    for (const auto& e : cfg.unsupported()) all += e;
    CHECK_THAT(all, Catch::Contains("Winograd needs W+PL+PR and H+PT+PB multiples of 4 x the stride"));
    cfg.pad_right = 14;  // a multiple of 8 again, but the extended cube is 16 wide, not 8 + 4
    all.clear();
    for (const auto& e : cfg.unsupported()) all += e;
    CHECK_THAT(all, Catch::Contains("must be the output + 4 = 12x12"));
  }

  // run_conv on a Winograd config refuses on nv_small, with the same reason.
  ConvConfig cfg = wino_compile(p, Cube<int64_t>(CubeShape{2, 3, 3, 3}, 1), WinoScheme::Exact, 0, hw, 0, 0).cfg;
  Mem mem;
  CHECK_THROWS_WITH(run_conv(cfg, nv_small(), [&](uint64_t a) { return mem.read(a); }),
                    Catch::Contains("needs nv_full; nv_small is built with WINOGRAD_DISABLE"));
  cfg.kernel_h = 4;
  CHECK_THROWS_WITH(run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); }),
                    Catch::Contains("runs a 3x3 kernel after channel extension"));

  // Register level: Winograd words on nv_small, an inconsistent CSC stride, mixed modes, NVDLA's
  // rules on the weight size, channels, ATOMICS and the extended cube.
  const WinoLayer base = wino_compile(p, Cube<int64_t>(CubeShape{2, 3, 3, 3}, 1), WinoScheme::Exact, 0, hw, 0, 0);
  const WgWords words = encode_wg(p, 0, 2, base.derived.weight_bytes, 1, 1);
  CHECK(decode_wg(words, hw).unsupported().empty());
  auto decoded = [&](auto mutate, const HwConfig& h) {
    WgWords w = words;
    mutate(w);
    std::string all;
    for (const auto& e : decode_wg(w, h).unsupported()) all += e + "\n";
    return all;
  };
  namespace cs = regs::csc;
  namespace cd = regs::cdma;
  CHECK_THAT(decoded([](WgWords&) {}, nv_small()), Catch::Contains("needs nv_full; nv_small is built with WINOGRAD_DISABLE"));
  CHECK_THAT(decoded([](WgWords& w) { w.csc[cs::D_CONV_STRIDE_EXT::offset] = 0x10001; }, hw),
             Catch::Contains("CSC D_CONV_STRIDE_EXT"));
  CHECK_THAT(decoded([](WgWords& w) { w.cacc[regs::cacc::D_MISC_CFG::offset] &= ~1u; }, hw),
             Catch::Contains("CONV_MODE is WINOGRAD in some but not all"));
  CHECK_THAT(decoded([](WgWords& w) { w.cdma[cd::D_DATAIN_SIZE_EXT_0::offset] = 0; }, hw),
             Catch::Contains("CDMA DATAIN_WIDTH_EXT+1"));
  // Our former convention: 3x3 in CSC, C channels, ATOMICS of tiles.
  CHECK_THAT(decoded([](WgWords& w) { w.csc[cs::D_WEIGHT_SIZE_EXT_0::offset] = 0x20002; }, hw),
             Catch::Contains("CSC D_WEIGHT_SIZE_EXT_0 is 3x3 (width x height); Winograd needs 4x4"));
  CHECK_THAT(decoded([](WgWords& w) { w.csc[cs::D_DATAIN_SIZE_EXT_1::offset] = 2; }, hw),
             Catch::Contains("CSC DATAIN_CHANNEL_EXT+1 is 3, Winograd needs 32"));
  CHECK_THAT(decoded([](WgWords& w) { w.csc[cs::D_ATOMICS::offset] = 15; }, hw),
             Catch::Contains("CSC D_ATOMICS+1 is 16, Winograd needs 64"));
  CHECK_THAT(decoded([](WgWords& w) { w.cdma[cd::D_CVT_CFG::offset] = 1; }, hw),
             Catch::Contains("no input converter"));
  // The extended cube two columns short of the output + 4 (NVDLA's DATAOUT = DATAIN_SIZE_EXT - 4).
  CHECK_THAT(decoded(
                 [](WgWords& w) {
                   w.cdma[cd::D_ZERO_PADDING::offset] &= ~cd::D_ZERO_PADDING::PAD_RIGHT::mask;
                   w.cdma[cd::D_ZERO_PADDING::offset] |= regs::place(1u, cd::D_ZERO_PADDING::PAD_RIGHT{});
                 },
                 hw),
             Catch::Contains("multiples of 4 x the stride"));
}

TEST_CASE("winograd stride 2: every phase's channels on whole atoms, padding channels carry 0", "[conv][wino]") {
  // C = 6 int8, a 5x5 kernel at stride 2x2 on nv_full: C' 32, phases at extended channels 0, 32,
  // 64, 96, C_ext = 128; all weights 1, exact scheme (U' = (2G) g (2G)^T).
  const HwConfig& hw = nv_full();
  ConvParams p;
  p.w = p.h = 19;  // W' = (19 - 5) / 2 + 1 = 8
  p.c = 6;
  p.k = 3;
  p.r = p.s = 5;
  p.stride_x = p.stride_y = 2;
  const WinoLayer L = wino_compile(p, Cube<int64_t>(CubeShape{3, 6, 5, 5}, 1), WinoScheme::Exact, 0, hw, 0, 0);
  for (const auto& e : L.problems) FAIL_CHECK(e.text);
  REQUIRE(L.problems.empty());
  REQUIRE(wino_geometry(L.cfg).c_ext == 128);
  CHECK(L.cfg.pad_right == 5);  // 2 x (8 + 4) - 19
  const WinoWeightLayout wl = wino_weight_layout(L.cfg);
  auto u = [&](int k, int e, int pos) { return static_cast<int8_t>(L.weights.at(wl.offset(k, e, pos))); };
  // 2G rows (2,0,0), (1,1,1), (1,-1,1), (0,0,2). Phase (py, px) takes the taps (2re + py, 2se + px)
  // of the 5x5 kernel, 0 beyond it.
  // Phase (0, 0): all nine taps 1: 2G g = rows (2,2,2), (3,3,3), (1,1,1), (2,2,2); times (2G)^T:
  // (4,6,2,4), (6,9,3,6), (2,3,1,2), (4,6,2,4).
  const int phase00[16] = {4, 6, 2, 4, 6, 9, 3, 6, 2, 3, 1, 2, 4, 6, 2, 4};
  // Phase (0, 1): columns se = 0, 1 (s = 1, 3): g = [[1,1,0]] x 3 rows; 2G g = rows (2,2,0),
  // (3,3,0), (1,1,0), (2,2,0); times (2G)^T: (4,4,0,0), (6,6,0,0), (2,2,0,0), (4,4,0,0).
  const int phase01[16] = {4, 4, 0, 0, 6, 6, 0, 0, 2, 2, 0, 0, 4, 4, 0, 0};
  // Phase (1, 0): rows re = 0, 1: g = [[1,1,1],[1,1,1],[0,0,0]]; 2G g = rows (2,2,2), (2,2,2), 0,
  // 0; times (2G)^T: (4,6,2,4), (4,6,2,4), 0, 0.
  const int phase10[16] = {4, 6, 2, 4, 4, 6, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0};
  // Phase (1, 1): g = [[1,1,0],[1,1,0],[0,0,0]]; 2G g = rows (2,2,0), (2,2,0), 0, 0; times (2G)^T:
  // (4,4,0,0), (4,4,0,0), 0, 0.
  const int phase11[16] = {4, 4, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const int* phases[4] = {phase00, phase01, phase10, phase11};
  for (int k = 0; k < 3; ++k) {
    for (int e = 0; e < 128; ++e) {  // 32 channel groups of 4
      const int phase = e / 32, c = e % 32;
      for (int pos = 0; pos < 16; ++pos) {
        INFO("kernel " << k << " extended channel " << e << " position " << pos);
        CHECK(u(k, e, pos) == (c < 6 ? phases[phase][pos] : 0));
      }
    }
  }
  CHECK(wino_ext_channel(L.cfg, 5, 1, 1) == 101);
}
