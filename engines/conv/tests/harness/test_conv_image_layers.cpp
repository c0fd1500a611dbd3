// `conv` layers with image input (testvectors/layers/image/, docs/LAYER_FORMAT.md "Image input",
// docs/IMAGE_INPUT.md "Compiler") compiled and run on the golden device, judged by an int64
// reference written here from ../shared/reference/cdma-input-modes.md: the image unpacked from
// the device's memory by table 1.2's byte / bit positions at §1.3's addresses (from the compiled
// registers), the converter and means of §2.2 / §2.3, the pad values of §2.4, a plain convolution
// with the network weights, CACC's clip. No golden code computes an expected value. Also: the
// image-mode registers against §1.1 / §1.5 / §1.6 computed here, the "values" images equal what
// memory holds, the bundle covers the issue's cases, and the refusals name pointer and rule.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "golden/nvdla_regs.hpp"
#include "harness/layer.hpp"
#include "layer_helpers.hpp"
#include "engines/conv/harness/conv.hpp"

namespace fs = std::filesystem;
using dla::harness::GoldenDevice;
using dla::harness::InputError;
using dla::harness::LoadedLayer;
using dla::harness::Program;
using dla::harness::RunResult;
using dla::harness::Status;
using dla::harness::StepOp;
using nlohmann::json;

namespace {

const fs::path kImageLayers = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "image";
const fs::path kBadImage = fs::path(DLA_SOURCE_DIR) / "tests" / "data" / "bad_layers" / "conv_image";

// ---- table 1.2, written from the document's "memory -> CBUF channels" column ----------------
// CBUF channel ch <- `width` bits at `lsb` of plane `plane`'s little-endian pixel word.
struct Bits {
  int plane, lsb, width;
};
struct Format {
  int code;
  int container;  // 8 (INT8 formats) or 16
  int bpp0, bpp1;  // bytes per pixel of plane 0 / plane 1 (0: one plane)
  std::vector<Bits> ch;
};
constexpr Bits B(int b, int p = 0) { return {p, 8 * b, 8}; }
constexpr Bits H(int h, int p = 0) { return {p, 16 * h, 16}; }
constexpr Bits T(int lsb) { return {0, lsb, 10}; }  // 10-bit colour
constexpr Bits A2(int lsb) { return {0, lsb, 2}; }  // 2-bit alpha

const std::map<std::string, Format>& formats() {
  static const std::map<std::string, Format> m = {
      {"T_R8", {0, 8, 1, 0, {B(0)}}},
      {"T_R16", {3, 16, 2, 0, {H(0)}}},
      {"T_R12", {2, 16, 2, 0, {H(0)}}},
      {"T_A16B16G16R16", {6, 16, 8, 0, {H(0), H(1), H(2), H(3)}}},           // h0=R h1=G h2=B h3=A
      {"T_A16Y16U16V16", {9, 16, 8, 0, {H(2), H(1), H(0), H(3)}}},           // h0=V h1=U h2=Y h3=A
      {"T_V16U16Y16A16", {10, 16, 8, 0, {H(1), H(2), H(3), H(0)}}},          // h0=A h1=Y h2=U h3=V
      {"T_A8B8G8R8", {12, 8, 4, 0, {B(0), B(1), B(2), B(3)}}},               // b0=R b1=G b2=B b3=A
      {"T_A8R8G8B8", {13, 8, 4, 0, {B(2), B(1), B(0), B(3)}}},               // b0=B b1=G b2=R b3=A
      {"T_B8G8R8A8", {14, 8, 4, 0, {B(1), B(2), B(3), B(0)}}},               // b0=A b1=R b2=G b3=B
      {"T_R8G8B8X8", {19, 8, 4, 0, {B(3), B(2), B(1), B(0)}}},               // b0=X b1=B b2=G b3=R
      {"T_X8R8G8B8", {17, 8, 4, 0, {B(2), B(1), B(0), B(3)}}},               // b0=B b1=G b2=R b3=X
      {"T_A2B10G10R10", {20, 16, 4, 0, {T(0), T(10), T(20), A2(30)}}},       // R[9:0] G[19:10] B[29:20] A[31:30]
      {"T_B10G10R10A2", {22, 16, 4, 0, {T(2), T(12), T(22), A2(0)}}},        // A[1:0] R[11:2] G[21:12] B[31:22]
      {"T_V10U10Y10A2", {25, 16, 4, 0, {T(2), T(12), T(22), A2(0)}}},        // A[1:0] Y[11:2] U[21:12] V[31:22]
      {"T_A8Y8U8V8", {26, 8, 4, 0, {B(2), B(1), B(0), B(3)}}},               // b0=V b1=U b2=Y b3=A
      {"T_V8U8Y8A8", {27, 8, 4, 0, {B(1), B(2), B(3), B(0)}}},               // b0=A b1=Y b2=U b3=V
      {"T_Y8___U8V8_N444", {28, 8, 1, 2, {B(0), B(1, 1), B(0, 1)}}},         // plane 1 b0=V b1=U
      {"T_Y8___V8U8_N444", {29, 8, 1, 2, {B(0), B(0, 1), B(1, 1)}}},         // plane 1 b0=U b1=V
      {"T_Y10___U10V10_N444", {30, 16, 2, 4, {H(0), H(1, 1), H(0, 1)}}},     // plane 1 h0=V h1=U
      {"T_Y16___V16U16_N444", {35, 16, 2, 4, {H(0), H(0, 1), H(1, 1)}}},     // plane 1 h0=U h1=V
  };
  return m;
}

using dla::harness::testing::clamp_bits;
using dla::harness::testing::rhaz;
using dla::harness::testing::sext;
int64_t roundup(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// The last value written to BLOCK.REG's `field`.
uint32_t written(const Program& p, const std::string& block, const std::string& reg, dla::golden::regs::Field f) {
  for (auto it = p.steps.rbegin(); it != p.steps.rend(); ++it) {
    if (it->op == StepOp::RegWrite && it->reg->block == block && it->reg->name == reg)
      return dla::golden::regs::field(it->value, f);
  }
  FAIL("no write of " << block << "." << reg);
  return 0;
}
uint32_t word(const Program& p, const std::string& block, const std::string& reg) {
  return written(p, block, reg, dla::golden::regs::Field{0, 32});
}

// One bundled layer as its JSON says, and what the reference needs.
struct ImageCase {
  std::string name, config, format;
  Format f;
  int W = 0, H = 0, C = 0, K = 0, R = 0, S = 0, sx = 1, sy = 1, pl = 0, pr = 0, pt = 0, pb = 0, clip = 0;
  int xoff = 0;
  bool sign = false, int16 = false, cvt = false, mean = false;
  int64_t offset = 0, scale = 1, truncate = 0, pad_lr = 0, pad_tb = 0;
  std::array<int64_t, 4> means{};
  std::vector<int64_t> weights;  // K x C x R x S
  json j;
  int OW() const { return (pl + W + pr - S) / sx + 1; }
  int OH() const { return (pt + H + pb - R) / sy + 1; }
};

ImageCase read_case(const LoadedLayer& l) {
  ImageCase L;
  const json& j = l.root().raw();
  L.j = j;
  L.name = l.header.name;
  L.config = l.header.config->name;
  const json& in = j["input"];
  L.format = in["format"].get<std::string>();
  REQUIRE(formats().count(L.format) == 1);
  L.f = formats().at(L.format);
  L.W = in["w"].get<int>();
  L.H = in["h"].get<int>();
  L.C = static_cast<int>(L.f.ch.size());
  L.xoff = in.value("x_offset", 0);
  L.sign = in.value("sign", std::string("unsigned")) == "signed";
  L.int16 = j.value("precision", std::string(L.f.container == 16 ? "int16" : "int8")) == "int16";
  if (in.contains("converter")) {
    L.cvt = true;
    L.offset = in["converter"].value("offset", 0);
    L.scale = in["converter"].value("scale", 1);
    L.truncate = in["converter"].value("truncate", 0);
  }
  if (in.contains("mean")) {
    L.mean = true;
    for (std::size_t i = 0; i < 4; ++i) L.means[i] = in["mean"][i].get<int64_t>();
  }
  const json& w = j["weights"];
  L.K = w["k"].get<int>();
  L.R = w["r"].get<int>();
  L.S = w["s"].get<int>();
  if (j.contains("padding")) {
    const json& p = j["padding"];
    L.pl = p.value("left", 0);
    L.pr = p.value("right", 0);
    L.pt = p.value("top", 0);
    L.pb = p.value("bottom", 0);
    L.pad_lr = p.value("value", 0);
    L.pad_tb = p.value("top_bottom_value", L.pad_lr);
  }
  if (j.contains("stride")) {
    L.sx = j["stride"].value("x", 1);
    L.sy = j["stride"].value("y", 1);
  }
  L.clip = j.value("clip", 0);
  // The network weights: the JSON's values, or the harness's value generator (as for every layer).
  const int bits = L.int16 ? 16 : 8;
  L.weights = dla::harness::resolve_values(l.root().require("weights").require("data"),
                                           static_cast<std::size_t>(L.K * L.C * L.R * L.S), bits / 8,
                                           -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1, l.header.seed);
  return L;
}

struct Expected {
  std::vector<int64_t> out;  // K x H' x W'
  std::vector<int64_t> components;  // C x H x W as unpacked from memory
  int saturated_cvt = 0;
  int64_t abs_sum_max = 0;
};

// The reference: unpack (table 1.2 at §1.3's addresses), convert (§2.2, means §2.3), pad (§2.4),
// convolve, CACC clip; `mem(addr)` reads the device's memory.
template <class Mem>
Expected reference(const ImageCase& L, const Program& p, Mem mem) {
  namespace cd = dla::golden::regs::cdma;
  const uint64_t base0 = (uint64_t{word(p, "CDMA", "D_DAIN_ADDR_HIGH_0")} << 32) | word(p, "CDMA", "D_DAIN_ADDR_LOW_0");
  const uint64_t base1 = (uint64_t{word(p, "CDMA", "D_DAIN_ADDR_HIGH_1")} << 32) | word(p, "CDMA", "D_DAIN_ADDR_LOW_1");
  const uint64_t ls0 = written(p, "CDMA", "D_LINE_STRIDE", cd::D_LINE_STRIDE::LINE_STRIDE{});
  const uint64_t ls1 = written(p, "CDMA", "D_LINE_UV_STRIDE", cd::D_LINE_UV_STRIDE::UV_LINE_STRIDE{});
  const int atom = dla::golden::find_config(L.config)->atom_bytes;
  const int o = L.xoff;
  const int proc_bits = L.int16 ? 16 : 8;
  Expected e;
  e.components.assign(static_cast<std::size_t>(L.C * L.H * L.W), 0);
  std::vector<int64_t> conv_in(e.components.size());
  for (int y = 0; y < L.H; ++y) {
    for (int x = 0; x < L.W; ++x) {
      uint64_t wd[2] = {0, 0};
      const uint64_t a0 = base0 + static_cast<uint64_t>(y) * ls0 + static_cast<uint64_t>((o + x) * L.f.bpp0);
      for (int i = 0; i < L.f.bpp0; ++i) wd[0] |= uint64_t{mem(a0 + static_cast<uint64_t>(i))} << (8 * i);
      if (L.f.bpp1 != 0) {
        const uint64_t a1 = base1 + static_cast<uint64_t>(y) * ls1 +
                            static_cast<uint64_t>((o % (atom / L.f.bpp1) + x) * L.f.bpp1);
        for (int i = 0; i < L.f.bpp1; ++i) wd[1] |= uint64_t{mem(a1 + static_cast<uint64_t>(i))} << (8 * i);
      }
      for (int ch = 0; ch < L.C; ++ch) {
        const Bits& b = L.f.ch[static_cast<std::size_t>(ch)];
        const uint64_t field = (wd[b.plane] >> b.lsb) & ((uint64_t{1} << b.width) - 1);
        const std::size_t at = static_cast<std::size_t>((ch * L.H + y) * L.W + x);
        e.components[at] = L.sign ? sext(field, b.width) : static_cast<int64_t>(field);
        // Container: 10-bit colour left-justified (<< 6), 2-bit alpha << 14; else as stored.
        const int shift = b.width == 10 ? 6 : (b.width == 2 ? 14 : 0);
        const uint64_t container = field << shift;
        int64_t v;
        if (L.cvt) {
          const int64_t x17 = L.sign ? sext(container, L.f.container) : static_cast<int64_t>(container);
          const int64_t op = L.mean ? L.means[static_cast<std::size_t>(ch)] : L.offset;
          const int64_t t17 = clamp_bits(rhaz((x17 - op) * L.scale, static_cast<int>(L.truncate)), 17);
          v = clamp_bits(t17, proc_bits);
          if (v != t17) ++e.saturated_cvt;
        } else {
          v = sext(container, proc_bits);  // raw bits, a signed PROC element
        }
        conv_in[at] = v;
      }
    }
  }
  const int OW = L.OW(), OH = L.OH();
  for (int k = 0; k < L.K; ++k) {
    for (int oy = 0; oy < OH; ++oy) {
      for (int ox = 0; ox < OW; ++ox) {
        int64_t acc = 0, abs_sum = 0;
        for (int c = 0; c < L.C; ++c) {
          for (int r = 0; r < L.R; ++r) {
            const int y = oy * L.sy + r - L.pt;
            for (int s = 0; s < L.S; ++s) {
              const int x = ox * L.sx + s - L.pl;
              // Top / bottom pad rows: CSC's value for the whole row; left / right pixels: CDMA's.
              const int64_t v = (y < 0 || y >= L.H) ? L.pad_tb
                                : (x < 0 || x >= L.W) ? L.pad_lr
                                                      : conv_in[static_cast<std::size_t>((c * L.H + y) * L.W + x)];
              const int64_t prod = v * L.weights[static_cast<std::size_t>(((k * L.C + c) * L.R + r) * L.S + s)];
              acc += prod;
              abs_sum += prod < 0 ? -prod : prod;
            }
          }
        }
        e.abs_sum_max = std::max(e.abs_sum_max, abs_sum);
        e.out.push_back(clamp_bits(clamp_bits(rhaz(acc, L.clip), 32), proc_bits));
      }
    }
  }
  return e;
}

struct Ran {
  ImageCase L;
  Expected e;
  std::vector<int64_t> got;
  Program program;
};

// The output (K x H' x W') from SDP's packed output in `m`.
std::vector<int64_t> read_outputs(const dla::harness::engines::CompiledConv& c, const dla::harness::Memory& m,
                                  const ImageCase& L) {
  std::vector<int64_t> got;
  const int bpe = L.int16 ? 2 : 1;
  const int per_atom = c.out_layout.atom_bytes / bpe;
  for (int k = 0; k < L.K; ++k)
    for (int y = 0; y < L.OH(); ++y)
      for (int x = 0; x < L.OW(); ++x) {
        const uint64_t a = c.out_layout.base + static_cast<uint64_t>(k / per_atom) * c.out_layout.surface_stride +
                           static_cast<uint64_t>(y) * c.out_layout.line_stride +
                           static_cast<uint64_t>(x * c.out_layout.atom_bytes + (k % per_atom) * bpe);
        uint64_t v = 0;
        for (int i = 0; i < bpe; ++i) v |= uint64_t{m.read(a + static_cast<uint64_t>(i))} << (8 * i);
        got.push_back(sext(v, 8 * bpe));
      }
  return got;
}

Ran run_case(const fs::path& f) {
  const LoadedLayer l = dla::harness::load_layer(f);
  Ran out;
  out.L = read_case(l);
  const dla::harness::engines::CompiledConv c = dla::harness::engines::compile_conv_layer(l.header, l.root(), true);
  out.program = c.program;
  RunResult r;
  const auto dev = dla::harness::testing::run_golden(c.program, l, r);
  INFO(f.filename().string() << ": " << r.message);
  REQUIRE(r.status == Status::Pass);
  const dla::harness::Memory& m = dev->memory();
  out.e = reference(out.L, c.program, [&](uint64_t a) { return m.read(a); });
  out.got = read_outputs(c, m, out.L);
  return out;
}

std::string first_diff(const Ran& r) {
  if (r.got.size() != r.e.out.size()) return "sizes differ";
  for (std::size_t i = 0; i < r.got.size(); ++i) {
    if (r.got[i] != r.e.out[i]) {
      const std::size_t plane = static_cast<std::size_t>(r.L.OH() * r.L.OW());
      return "output (k " + std::to_string(i / plane) + ", y " + std::to_string(i % plane / r.L.OW()) + ", x " +
             std::to_string(i % plane % r.L.OW()) + ") golden " + std::to_string(r.got[i]) + " reference " +
             std::to_string(r.e.out[i]);
    }
  }
  return "";
}

}  // namespace

TEST_CASE("every image layer equals the int64 reference from the document on the golden model", "[conv][image]") {
  const auto files = dla::harness::testing::layer_files(kImageLayers);
  REQUIRE(files.size() >= 12);
  std::set<std::string> seen;
  for (const auto& f : files) {
    const Ran r = run_case(f);
    const ImageCase& L = r.L;
    INFO(f.filename().string());
    CHECK(first_diff(r) == "");
    // No partial sum near CACC's saturating width: the plain sum is what CACC computes.
    CHECK(r.e.abs_sum_max < (int64_t{1} << (L.int16 ? 47 : 33)));
    // Strong: many distinct outputs, few on the rails.
    const std::set<int64_t> distinct(r.e.out.begin(), r.e.out.end());
    CHECK(distinct.size() >= std::min<std::size_t>(16, r.e.out.size() / 2));
    const int64_t hi = L.int16 ? 32767 : 127;
    const auto rails = std::count_if(r.e.out.begin(), r.e.out.end(), [&](int64_t v) { return v == hi || v == -hi - 1; });
    CHECK(static_cast<std::size_t>(rails) * 4 <= r.e.out.size());
    // Memory holds the JSON's image: its "values", or the value generator's draws in the container's
    // range (unsigned 0..2^n - 1 or signed, n = 8 / 16) with each field's low w bits
    // (docs/LAYER_FORMAT.md "Image input").
    std::vector<int64_t> want;
    if (L.j["input"]["data"].contains("values")) {
      for (const auto& v : L.j["input"]["data"]["values"]) want.push_back(v.get<int64_t>());
      seen.insert("values");
    } else {
      const LoadedLayer l = dla::harness::load_layer(f);
      const int n = L.f.container;
      want = dla::harness::resolve_values(l.root().require("input").require("data"),
                                          static_cast<std::size_t>(L.C * L.H * L.W), n / 8,
                                          L.sign ? -(int64_t{1} << (n - 1)) : 0,
                                          L.sign ? (int64_t{1} << (n - 1)) - 1 : (int64_t{1} << n) - 1, l.header.seed);
      for (std::size_t i = 0; i < want.size(); ++i) {
        const int w = L.f.ch[i / static_cast<std::size_t>(L.H * L.W)].width;
        const uint64_t bits = static_cast<uint64_t>(want[i]) & ((uint64_t{1} << w) - 1);
        want[i] = L.sign ? sext(bits, w) : static_cast<int64_t>(bits);
      }
    }
    CHECK(want == r.e.components);
    seen.insert(L.config);
    seen.insert(L.format);
    const int code = L.f.code;
    if (code == 12 || code == 13 || code == 14 || code == 17 || code == 19) seen.insert("8-bit RGBA");
    if (code == 26 || code == 27) seen.insert("YUV packed");
    if (code >= 20 && code <= 25) seen.insert("10-bit packed");
    if ((code >= 1 && code <= 4) || (code >= 6 && code <= 10)) seen.insert("16-bit");
    if (code == 28 || code == 29) seen.insert("semi-planar 8");
    if (code >= 30) seen.insert("semi-planar 16");
    if (L.mean) seen.insert("mean");
    if (L.cvt && !L.mean) seen.insert("converter offset");
    if (!L.cvt) seen.insert("raw");
    if (L.f.container == 16 && !L.int16) seen.insert("16-bit input into int8");
    if (L.f.container == 8 && L.int16) seen.insert("8-bit input into int16");
    if (L.xoff != 0) seen.insert("x_offset");
    seen.insert(L.sign ? "signed" : "unsigned");
    if (L.j["input"].contains("line_stride") || L.j["input"].contains("uv_line_stride")) seen.insert("line strides");
    if (L.pl + L.pr + L.pt + L.pb > 0) seen.insert("pads");
    if (L.pad_lr != L.pad_tb) seen.insert("distinct pad values");
    if (L.sx > 1 || L.sy > 1) seen.insert("stride");
    if (L.R == 3 && L.S == 3) seen.insert("3x3");
    if (L.R == 7 && L.S == 7) seen.insert("7x7");
    if (L.S * L.C > (L.config == "nv_small" ? 8 : 64)) seen.insert("two channel blocks");
    if (r.e.saturated_cvt > 0) seen.insert("converter saturates");
    if (L.j.value("post_extension", 1) == 2) seen.insert("post-extension 2");
    if (L.j.value("post_extension", 1) == 4) seen.insert("post-extension 4");
  }
  for (const char* want : {"nv_small", "nv_large", "nv_full", "8-bit RGBA", "YUV packed", "10-bit packed", "16-bit",
                           "semi-planar 8", "semi-planar 16", "mean", "converter offset", "raw",
                           "16-bit input into int8", "x_offset", "signed", "unsigned", "line strides", "pads",
                           "distinct pad values", "stride", "3x3", "7x7", "two channel blocks", "values",
                           "post-extension 2", "post-extension 4"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("image layers program the image-mode registers of the document", "[conv][image]") {
  namespace cd = dla::golden::regs::cdma;
  namespace cs = dla::golden::regs::csc;
  for (const auto& f : dla::harness::testing::layer_files(kImageLayers)) {
    const LoadedLayer l = dla::harness::load_layer(f);
    const ImageCase L = read_case(l);
    INFO(f.filename().string());
    const Program p = dla::harness::engines::compile_conv_layer(l.header, l.root(), false).program;
    const int atom = l.header.config->atom_bytes;
    const int eb = L.config == "nv_full" ? 128 : (L.config == "nv_large" ? 64 : 8);  // §1.5 entry bytes
    const int bpe = L.int16 ? 2 : 1, cx = L.S * L.C;
    CHECK(written(p, "CDMA", "D_DATAIN_FORMAT", cd::D_DATAIN_FORMAT::DATAIN_FORMAT{}) == 1u);
    CHECK(written(p, "CSC", "D_DATAIN_FORMAT", cs::D_DATAIN_FORMAT::DATAIN_FORMAT{}) == 1u);
    CHECK(written(p, "CDMA", "D_DATAIN_FORMAT", cd::D_DATAIN_FORMAT::PIXEL_FORMAT{}) == uint32_t(L.f.code));
    CHECK(written(p, "CDMA", "D_DATAIN_FORMAT", cd::D_DATAIN_FORMAT::PIXEL_MAPPING{}) == 0u);
    CHECK(written(p, "CDMA", "D_DATAIN_FORMAT", cd::D_DATAIN_FORMAT::PIXEL_SIGN_OVERRIDE{}) == (L.sign ? 1u : 0u));
    CHECK(written(p, "CDMA", "D_PIXEL_OFFSET", cd::D_PIXEL_OFFSET::PIXEL_X_OFFSET{}) == uint32_t(L.xoff));
    CHECK(written(p, "CDMA", "D_PIXEL_OFFSET", cd::D_PIXEL_OFFSET::PIXEL_Y_OFFSET{}) == 0u);
    const uint32_t in_prec = L.f.container == 16 ? 1u : 0u;
    CHECK(written(p, "CDMA", "D_MISC_CFG", cd::D_MISC_CFG::IN_PRECISION{}) == in_prec);
    CHECK(written(p, "CSC", "D_MISC_CFG", cs::D_MISC_CFG::IN_PRECISION{}) == in_prec);
    CHECK(written(p, "CDMA", "D_MISC_CFG", cd::D_MISC_CFG::PROC_PRECISION{}) == (L.int16 ? 1u : 0u));
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_1", cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}) + 1 == uint32_t(L.C));
    // §1.3: line strides, the software's default roundup((o + W) * bpp0, atom) when not given.
    const json& in = L.j["input"];
    const int64_t ls0 = in.value("line_stride", roundup(int64_t{L.xoff + L.W} * L.f.bpp0, atom));
    CHECK(written(p, "CDMA", "D_LINE_STRIDE", cd::D_LINE_STRIDE::LINE_STRIDE{}) == uint32_t(ls0));
    const uint64_t base0 = word(p, "CDMA", "D_DAIN_ADDR_LOW_0");
    CHECK(base0 % static_cast<uint64_t>(atom) == 0);
    if (L.f.bpp1 != 0) {
      const int64_t lead = int64_t{L.xoff % (atom / L.f.bpp1)} * L.f.bpp1;
      const int64_t ls1 = in.value("uv_line_stride", roundup(lead + int64_t{L.W} * L.f.bpp1, atom));
      CHECK(written(p, "CDMA", "D_LINE_UV_STRIDE", cd::D_LINE_UV_STRIDE::UV_LINE_STRIDE{}) == uint32_t(ls1));
      const uint64_t base1 = word(p, "CDMA", "D_DAIN_ADDR_LOW_1");
      CHECK(base1 % static_cast<uint64_t>(atom) == 0);
      CHECK(base1 >= base0 + static_cast<uint64_t>(ls0 * L.H));  // the planes do not overlap
    }
    // §1.5 ENTRY_PER_SLICE, §1.6 the pre-extended kernel.
    const int eps = ((L.pl + L.W + L.pr) * L.C * bpe + eb - 1) / eb;
    CHECK(written(p, "CDMA", "D_ENTRY_PER_SLICE", cd::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    CHECK(written(p, "CSC", "D_ENTRY_PER_SLICE", cs::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    CHECK(written(p, "CDMA", "D_WEIGHT_SIZE_0", cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1 == uint32_t(L.R * cx * bpe));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_0", cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) == 0u);
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_0", cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}) + 1 == uint32_t(L.R));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_1", cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1 == uint32_t(cx));
    CHECK(written(p, "CDMA", "D_WEIGHT_BYTES", cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}) ==
          uint32_t(roundup(int64_t{L.K} * L.R * cx * bpe, 128)));
    CHECK(written(p, "CSC", "D_DILATION_EXT", cs::D_DILATION_EXT::X_DILATION_EXT{}) == 0u);
    // §3 channel post-extension: Y_EXTENSION = log2 E, and the weights in memory by row groups:
    // group -> row group q (rows qE .. min(R, qE + E) - 1, n rows) -> kernel -> row -> c' = s * C + c
    // (E = 1: group -> row -> kernel -> c', one block: C' <= 64 here).
    const int ext = L.j.value("post_extension", 1);
    CHECK(written(p, "CSC", "D_POST_Y_EXTENSION", cs::D_POST_Y_EXTENSION::Y_EXTENSION{}) ==
          uint32_t(ext == 4 ? 2 : ext - 1));
    if (cx <= (L.config == "nv_small" ? 8 : 64)) {
      const std::vector<uint8_t>* wmem = nullptr;
      const uint64_t wbase = word(p, "CDMA", "D_WEIGHT_ADDR_LOW");
      for (const auto& st : p.steps)
        if (st.op == StepOp::MemLoad && st.addr == wbase) wmem = &st.bytes;
      REQUIRE(wmem != nullptr);
      const int ak = L.config == "nv_small" ? 8 : (L.int16 ? 16 : 32);
      int64_t wrong = 0;
      for (int k = 0; k < L.K; ++k)
        for (int r = 0; r < L.R; ++r)
          for (int e = 0; e < cx; ++e) {
            const int g = k / ak, kpg = std::min(ak, L.K - g * ak), q = r / ext;
            const int n = std::min(L.R, q * ext + ext) - q * ext;
            const int64_t off = (int64_t{g} * ak * L.R * cx + int64_t{kpg} * q * ext * cx + int64_t{k % ak} * n * cx +
                                 int64_t{r % ext} * cx + e) * bpe;
            const int64_t want = e / L.C < L.S ? L.weights[static_cast<std::size_t>(((k * L.C + e % L.C) * L.R + r) * L.S +
                                                                                    e / L.C)]
                                               : 0;
            uint64_t v = 0;
            for (int i = 0; i < bpe; ++i) v |= uint64_t{(*wmem)[static_cast<std::size_t>(off + i)]} << (8 * i);
            wrong += sext(v, 8 * bpe) != want ? 1 : 0;
          }
      CHECK(wrong == 0);
    }
    // §2.1 means, §2.4 pad values.
    CHECK(written(p, "CDMA", "D_MEAN_FORMAT", cd::D_MEAN_FORMAT::MEAN_FORMAT{}) == (L.mean ? 1u : 0u));
    if (L.mean) {
      CHECK(written(p, "CDMA", "D_MEAN_GLOBAL_0", cd::D_MEAN_GLOBAL_0::MEAN_RY{}) == uint32_t(L.means[0] & 0xffff));
      CHECK(written(p, "CDMA", "D_MEAN_GLOBAL_0", cd::D_MEAN_GLOBAL_0::MEAN_GU{}) == uint32_t(L.means[1] & 0xffff));
      CHECK(written(p, "CDMA", "D_MEAN_GLOBAL_1", cd::D_MEAN_GLOBAL_1::MEAN_BV{}) == uint32_t(L.means[2] & 0xffff));
      CHECK(written(p, "CDMA", "D_MEAN_GLOBAL_1", cd::D_MEAN_GLOBAL_1::MEAN_AX{}) == uint32_t(L.means[3] & 0xffff));
    }
    CHECK(written(p, "CDMA", "D_CVT_CFG", cd::D_CVT_CFG::CVT_EN{}) == (L.cvt ? 1u : 0u));
    const uint32_t mask = L.int16 ? 0xffffu : 0xffu;
    CHECK((written(p, "CDMA", "D_ZERO_PADDING_VALUE", cd::D_ZERO_PADDING_VALUE::PAD_VALUE{}) & mask) ==
          (uint32_t(L.pad_lr) & mask));
    CHECK((written(p, "CSC", "D_ZERO_PADDING_VALUE", cs::D_ZERO_PADDING_VALUE::PAD_VALUE{}) & mask) ==
          (uint32_t(L.pad_tb) & mask));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", cd::D_ZERO_PADDING::PAD_LEFT{}) == uint32_t(L.pl));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", cd::D_ZERO_PADDING::PAD_RIGHT{}) == uint32_t(L.pr));
    CHECK(written(p, "CSC", "D_ZERO_PADDING", cs::D_ZERO_PADDING::PAD_TOP{}) == uint32_t(L.pt));
    CHECK(written(p, "CDMA", "D_BATCH_NUMBER", cd::D_BATCH_NUMBER::BATCHES{}) == 0u);
  }
}

TEST_CASE("the image reference catches a swapped channel order and a changed pre-extended weight", "[conv][image]") {
  // The reference unpacks by its own table: read as R and B swapped, an RGBA image gives other outputs.
  const fs::path f = kImageLayers / "abgr8_3x3_offset_pads_nv_full.json";
  const LoadedLayer l = dla::harness::load_layer(f);
  Ran r = run_case(f);
  REQUIRE(first_diff(r) == "");
  ImageCase swapped = r.L;
  std::swap(swapped.f.ch[0], swapped.f.ch[2]);
  const dla::harness::engines::CompiledConv c = dla::harness::engines::compile_conv_layer(l.header, l.root(), false);
  RunResult rr;
  const auto dev = dla::harness::testing::run_golden(c.program, l, rr);
  const dla::harness::Memory& m = dev->memory();
  CHECK(reference(swapped, c.program, [&](uint64_t a) { return m.read(a); }).out != r.e.out);
  // A weight of kernel 0 changed in the program: the outputs of kernel 0 differ from the reference.
  Program p = c.program;
  auto w = std::find_if(p.steps.begin(), p.steps.end(), [](const auto& s) {
    return s.op == StepOp::MemLoad && s.where.find("weights") != std::string::npos;
  });
  REQUIRE(w != p.steps.end());
  w->bytes[0] = static_cast<uint8_t>(w->bytes[0] + 1);
  p.steps.erase(std::remove_if(p.steps.begin(), p.steps.end(), [](const auto& s) { return s.op == StepOp::RegRead; }),
                p.steps.end());
  RunResult r2;
  const auto dev2 = dla::harness::testing::run_golden(p, l, r2);
  REQUIRE(r2.status == Status::Pass);
  const std::vector<int64_t> changed = read_outputs(c, dev2->memory(), r.L);
  CHECK(changed != r.e.out);
  // Only kernel 0's outputs move (pre-extended weight (k 0, c' 0, r 0) is network weight (0, 0, 0, 0)).
  const std::size_t plane = static_cast<std::size_t>(r.L.OH() * r.L.OW());
  CHECK(std::equal(changed.begin() + static_cast<std::ptrdiff_t>(plane), changed.end(),
                   r.e.out.begin() + static_cast<std::ptrdiff_t>(plane)));
}

TEST_CASE("malformed image layers are refused naming the JSON pointer and the rule", "[conv][image]") {
  struct Case {
    const char* file;
    const char* where;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"winograd.json", "/mode", "Winograd with image input is not allowed"},
      {"wfold.json", "/wfold", "image input and W-fold (D_WFOLD) exclude each other"},
      {"dilation.json", "/dilation", "image input allows no dilation"},
      {"channels.json", "/input/c", "T_A8B8G8R8 has 4 channel(s) in CBUF"},
      {"fp16.json", "/precision", "T_R16_F is an fp16 format: the precision must be fp16"},
      {"fp16_converter.json", "/input/converter", "passes unchanged: give no converter"},
      {"fp16_small.json", "/input/format", "T_R16_F is an fp16 format and nv_small has no fp16"},
      {"fp16_raw_int.json", "/precision", "differs from T_R8's 8-bit input"},
      {"unknown_format.json", "/input/format", "is not one of NVDLA's pixel formats"},
      {"pad_left.json", "/padding/left", "PAD_LEFT 3 must be smaller than the kernel width S = 3"},
      {"pad_top.json", "/padding/top", "PAD_TOP 2 must be smaller than the kernel height R = 2"},
      {"cbuf.json", "/input", "the image does not fit in CBUF"},
      {"int16_small.json", "/input/format", "T_R16 is a 16-bit format and nv_small has no 16-bit input"},
      {"int16_large.json", "/input/format", "T_A2B10G10R10 is a 16-bit format and nv_large has no 16-bit input"},
      {"precision_no_cvt.json", "/precision", "only the input converter"},
      {"x_offset.json", "/input/x_offset", "PIXEL_X_OFFSET 8 exceeds atom / bytes per pixel - 1 = 32 / 4 - 1 = 7"},
      {"line_stride.json", "/input/line_stride", "smaller than (PIXEL_X_OFFSET + W) * bytes per pixel"},
      {"line_stride_atom.json", "/input/line_stride", "multiple of the 32-byte memory atom"},
      {"uv_line_stride.json", "/input/uv_line_stride", "has one plane"},
      {"mean_no_cvt.json", "/input/mean", "give \"converter\""},
      {"mean_and_offset.json", "/input/converter/offset", "replaces CVT_OFFSET"},
      {"value_range.json", "/input/data", "outside T_A2B10G10R10's 2-bit unsigned field [0, 3]"},
      {"top_bottom_feature.json", "/padding/top_bottom_value", "only with image input"},
  };
  for (const auto& c : cases) {
    const fs::path f = kBadImage / c.file;
    INFO(c.file);
    try {
      (void)dla::harness::load_layer(f);
      FAIL("accepted " << c.file);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.file() == f.string());
      CHECK(e.where() == c.where);
      CHECK_THAT(e.rule(), Catch::Contains(c.rule));
    }
  }
}

TEST_CASE("an unsigned image from a file takes its bytes as unsigned components", "[conv][image]") {
  // T_R8 unsigned 4x2 from a .bin file with bytes >= 128, and T_R16 with halfwords >= 0x8000: memory
  // (plane 0, line stride 32 on nv_full) holds the bytes as given.
  const fs::path dir = fs::temp_directory_path() / ("dla-image-file-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::vector<uint8_t> bytes = {0x00, 0x7f, 0x80, 0xff, 0xc8, 0x01, 0x90, 0xfe};
  std::ofstream(dir / "img.bin", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 8);
  for (const std::string fmt : {"T_R8", "T_R16"}) {
    const int w = fmt == "T_R8" ? 4 : 2;
    std::ofstream(dir / "l.json") << R"({"unit": "conv", "config": "nv_full", "seed": 1, "input": {"format": ")" << fmt
                                   << R"(", "w": )" << w << R"(, "h": 2, "data": {"file": "img.bin"}},
      "weights": {"k": 1, "r": 1, "s": 1, "data": {"values": [1]}}})";
    const LoadedLayer l = dla::harness::load_layer(dir / "l.json");
    const Program p = dla::harness::engines::compile_conv_layer(l.header, l.root(), false).program;
    auto img = std::find_if(p.steps.begin(), p.steps.end(), [](const auto& s) {
      return s.op == StepOp::MemLoad && s.where.find("image plane 0") != std::string::npos;
    });
    REQUIRE(img != p.steps.end());
    INFO(fmt);
    REQUIRE(img->bytes.size() == 64u);  // two lines of 32 bytes
    for (int y = 0; y < 2; ++y)
      for (int i = 0; i < 4; ++i)
        CHECK(img->bytes[static_cast<std::size_t>(32 * y + i)] == bytes[static_cast<std::size_t>(4 * y + i)]);
  }
  fs::remove_all(dir);
}
