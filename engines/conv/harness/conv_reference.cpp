// The int64 reference of `conv` layers (harness/conv_reference.hpp): plain integer loops from
// nvdla-arithmetic.md §2-3, no golden/ code.
#include "engines/conv/harness/conv_reference.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/errors.hpp"
#include "harness/layer.hpp"
#include "engines/pdp/harness/pdp_reference.hpp"

namespace dla::harness::conv_ref {

namespace {

using nlohmann::json;

// A value list: inline "values" read here; "random" / "file" through the harness's generator.
std::vector<int64_t> values_of(const JsonNode& n, std::size_t count, int bytes, uint64_t seed) {
  const int64_t hi = (int64_t{1} << (8 * bytes - 1)) - 1;
  if (n.raw().contains("values")) {
    std::vector<int64_t> v;
    for (const auto& x : n.raw()["values"]) v.push_back(x.get<int64_t>());
    if (v.size() != count) n.fail("conv reference: " + std::to_string(v.size()) + " values, expected " + std::to_string(count));
    return v;
  }
  return resolve_values(n, count, bytes, -hi - 1, hi, seed);
}

int jint(const json& j, const char* key, int fallback) { return j.contains(key) ? j[key].get<int>() : fallback; }

// The integer pixel formats of cdma-input-modes.md table 1.2: name -> channels in CBUF, container
// bits of a component, packed 10-bit fields (10-bit colour, 2-bit alpha in channel 3).
struct PixelFacts {
  const char* name;
  int channels, bits;
  bool packed10;
};
constexpr PixelFacts kPixelFacts[] = {
    {"T_R8", 1, 8, false},           {"T_R10", 1, 16, false},          {"T_R12", 1, 16, false},
    {"T_R16", 1, 16, false},         {"T_R16_I", 1, 16, false},        {"T_A16B16G16R16", 4, 16, false},
    {"T_X16B16G16R16", 4, 16, false}, {"T_A16Y16U16V16", 4, 16, false}, {"T_V16U16Y16A16", 4, 16, false},
    {"T_A8B8G8R8", 4, 8, false},     {"T_A8R8G8B8", 4, 8, false},      {"T_B8G8R8A8", 4, 8, false},
    {"T_R8G8B8A8", 4, 8, false},     {"T_X8B8G8R8", 4, 8, false},      {"T_X8R8G8B8", 4, 8, false},
    {"T_B8G8R8X8", 4, 8, false},     {"T_R8G8B8X8", 4, 8, false},      {"T_A2B10G10R10", 4, 16, true},
    {"T_A2R10G10B10", 4, 16, true},  {"T_B10G10R10A2", 4, 16, true},   {"T_R10G10B10A2", 4, 16, true},
    {"T_A2Y10U10V10", 4, 16, true},  {"T_V10U10Y10A2", 4, 16, true},   {"T_A8Y8U8V8", 4, 8, false},
    {"T_V8U8Y8A8", 4, 8, false},     {"T_Y8___U8V8_N444", 3, 8, false}, {"T_Y8___V8U8_N444", 3, 8, false},
    {"T_Y10___U10V10_N444", 3, 16, false}, {"T_Y10___V10U10_N444", 3, 16, false},
    {"T_Y12___U12V12_N444", 3, 16, false}, {"T_Y12___V12U12_N444", 3, 16, false},
    {"T_Y16___U16V16_N444", 3, 16, false}, {"T_Y16___V16U16_N444", 3, 16, false}};

// An image layer's components as the layer runs with them: the JSON's values, or the harness's
// generator in the container's range keeping a packed field's low bits (docs/LAYER_FORMAT.md).
void read_image(const JsonNode& root, Layer& L, uint64_t seed) {
  const json& in = root.raw()["input"];
  const std::string name = in["format"].get<std::string>();
  const auto* f = std::find_if(std::begin(kPixelFacts), std::end(kPixelFacts),
                               [&](const PixelFacts& p) { return name == p.name; });
  if (f == std::end(kPixelFacts)) root.require("input").require("format").fail("conv reference: unknown format " + name);
  L.image = true;
  L.C = f->channels;
  L.container_bits = f->bits;
  L.packed10 = f->packed10;
  L.pixel_signed = in.value("sign", std::string("unsigned")) == "signed";
  if (!root.raw().contains("precision")) L.int16 = f->bits == 16;
  if (in.contains("mean")) {
    L.has_mean = true;
    for (int c = 0; c < 4; ++c) L.mean[c] = in["mean"][static_cast<std::size_t>(c)].get<int64_t>();
  }
  const int cb = f->bits;
  const int64_t lo = L.pixel_signed ? -(int64_t{1} << (cb - 1)) : 0;
  const int64_t hi = L.pixel_signed ? (int64_t{1} << (cb - 1)) - 1 : (int64_t{1} << cb) - 1;
  const JsonNode data = root.require("input").require("data");
  const auto count = static_cast<std::size_t>(int64_t{L.C} * L.H * L.W);
  if (data.raw().contains("values")) {
    L.in = values_of(data, count, cb / 8, seed);
    return;
  }
  const bool file = data.raw().contains("file") && !L.pixel_signed;
  L.in = resolve_values(data, count, cb / 8, file ? -(int64_t{1} << (cb - 1)) : lo,
                        file ? (int64_t{1} << (cb - 1)) - 1 : hi, seed);
  const auto plane = static_cast<std::size_t>(int64_t{L.H} * L.W);
  for (std::size_t i = 0; i < L.in.size(); ++i) {
    int64_t& v = L.in[i];
    const int w = !L.packed10 ? cb : i / plane == 3 ? 2 : 10;
    if (file || (w < cb && data.raw().contains("random"))) {
      const int64_t bits = v & ((int64_t{1} << w) - 1);
      v = L.pixel_signed && (bits >> (w - 1)) != 0 ? bits - (int64_t{1} << w) : bits;
    }
  }
}

// The CBUF element of an image component (cdma-input-modes.md §1.2, §2.2, §2.3): left-justified
// packed fields, the converter with the channel's mean or the offset, or the raw bits as a signed
// PROC element.
int64_t image_element(const Layer& L, int c, int64_t v) {
  const int proc_bits = L.int16 ? 16 : 8;
  int64_t x = v;
  if (L.packed10) x = v * (c == 3 ? (int64_t{1} << 14) : (int64_t{1} << 6));
  // the container's bits, zero- or sign-extended
  const int64_t mask = (int64_t{1} << L.container_bits) - 1;
  x &= mask;
  if (L.pixel_signed && (x >> (L.container_bits - 1)) != 0) x -= int64_t{1} << L.container_bits;
  if (L.cvt) {
    const int64_t op = L.has_mean ? L.mean[c] : L.cvt_offset;
    return clamp_bits(rhaz((x - op) * L.cvt_scale, L.cvt_truncate), proc_bits);
  }
  const int64_t raw = x & ((int64_t{1} << proc_bits) - 1);
  return (raw >> (proc_bits - 1)) != 0 ? raw - (int64_t{1} << proc_bits) : raw;
}

void read_operand(const JsonNode& parent, const char* dma_default_per, const json& operands, Operand& op,
                  const Layer& L, uint64_t seed) {
  op.used = true;
  const JsonNode n = parent.require("operand");
  if (!n.raw().is_object()) {
    op.reg = n.as_int(INT64_MIN, INT64_MAX);
    return;
  }
  op.mem = true;
  op.per_element = (operands.is_object() && operands.contains("per") ? operands["per"].get<std::string>()
                                                                      : std::string(dma_default_per)) == "element";
  const int bytes = operands.is_object() && operands.contains("precision") && operands["precision"] == "int16" ? 2 : 1;
  const auto count = static_cast<std::size_t>(op.per_element ? int64_t{L.K} * L.oh() * L.ow() : L.K);
  op.mem_values = values_of(n, count, bytes, seed);
  if (parent.raw().contains("converter")) {
    const json& c = parent.raw()["converter"];
    op.cvt = true;
    op.cvt_offset = c.value("offset", int64_t{0});
    op.cvt_scale = c.value("scale", int64_t{1});
    op.cvt_truncate = c.value("truncate", 0);
  }
}

void read_stage(const JsonNode& root, const char* key, Stage& st, Layer& L, uint64_t seed) {
  const auto n = root.get(key);
  if (!n) return;
  const bool ew = std::string(key) == "ew";
  if (ew && n->raw().contains("lut")) L.ew_lut = true;
  st.on = true;
  const json operands = n->raw().value("operands", json::object());
  if (const auto a = n->get("alu")) {
    st.alu_algo = a->raw().value("algo", std::string("sum"));
    if (st.alu_algo == "eql") L.ew_eql = true;
    st.alu_shift = jint(a->raw(), "shift", 0);
    read_operand(*a, ew ? "element" : "channel", operands, st.alu, L, seed);
  }
  if (const auto m = n->get("mul")) {
    st.prelu = m->raw().value("prelu", false);
    read_operand(*m, ew ? "element" : "channel", operands, st.mul, L, seed);
  }
  st.truncate = jint(n->raw(), "truncate", 0);
  st.relu = n->raw().value("relu", false);
}

// X stage (BS, BN): ALU (operand << shift, saturated to 32 bits; 33-bit max/min/sum), MUL (PReLU
// passes a non-negative ALU result's low 32 bits untruncated), truncation sat32(rhaz(v / 2^t)) even
// with MUL bypassed, then ReLU.
int64_t x_stage(const Stage& st, int64_t x, int k, int y, int xx, int oh, int ow, int64_t& relu_clamped) {
  if (!st.on) return x;
  int64_t v = x;
  if (st.alu.used) {
    const int64_t op16 = st.alu.at(k, y, xx, oh, ow);
    const int64_t op = st.alu_shift < 32 ? clamp_bits(op16 * (int64_t{1} << st.alu_shift), 32)
                       : op16 == 0     ? 0
                       : op16 > 0      ? INT32_MAX
                                       : INT32_MIN;
    v = st.alu_algo == "max" ? std::max(v, op) : st.alu_algo == "min" ? std::min(v, op) : v + op;
  }
  bool passed = false;
  if (st.mul.used) {
    if (st.prelu && v >= 0) {
      v = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu));
      passed = true;
    } else {
      v *= st.mul.at(k, y, xx, oh, ow);
    }
  }
  if (!passed) v = clamp_bits(rhaz(v, st.truncate), 32);
  if (st.relu && v < 0) {
    v = 0;
    ++relu_clamped;
  }
  return v;
}

int64_t ew_operand(const Operand& op, int k, int y, int x, int oh, int ow) {
  const int64_t raw = op.at(k, y, x, oh, ow);
  if (!op.mem || !op.cvt) return raw;
  return clamp_bits(rhaz((raw - op.cvt_offset) * op.cvt_scale, op.cvt_truncate), 32);
}

// sat32(rhaz(a * b / 2^t)) for 32-bit a and b: the product may reach 2^62, so it is split into
// a multiple of 2^31 and a remainder before rounding (exact, still int64).
int64_t ew_product(int64_t a, int64_t b, int t) {
  if (t >= 64) return 0;
  const int64_t p = a * b;  // |a|, |b| <= 2^31: |p| <= 2^62 fits int64; only (-2^31)^2 reaches 2^62
  if (p == (int64_t{1} << 62)) return clamp_bits(t <= 62 ? int64_t{1} << (62 - t) : 1, 32);  // t = 63: 0.5 -> 1
  return clamp_bits(rhaz(p, t), 32);
}

// Y stage (EW): MUL first (PReLU passes non-negative values; else sat32(rhaz(v * op / 2^t))), then
// ALU max/min/sum saturated to 32 bits.
int64_t y_stage(const Stage& st, int64_t x, int k, int y, int xx, int oh, int ow) {
  if (!st.on) return x;
  int64_t v = x;
  if (st.mul.used && !(st.prelu && v >= 0)) v = ew_product(v, ew_operand(st.mul, k, y, xx, oh, ow), st.truncate);
  if (st.alu.used) {
    const int64_t op = ew_operand(st.alu, k, y, xx, oh, ow);
    v = clamp_bits(st.alu_algo == "max" ? std::max(v, op) : st.alu_algo == "min" ? std::min(v, op) : v + op, 32);
  }
  return v;
}

// Why a Winograd layer may differ from the direct convolution ("" when it cannot), judged on its
// values (docs/WINOGRAD.md): the PRA computes V = B^T d B exactly and divides by 2^PRA_TRUNCATE,
// exact when every input element and the pad value are multiples of 2^PRA_TRUNCATE; it does not
// clamp while |d| <= 31 (int8) / 8191 (int16); NVDLA's weight scheme U = G g G^T truncates
// unless every entry of 4U = (2G) g (2G)^T is a multiple of 4, for each stride phase's kernel.
std::string wino_inexact(const Layer& L) {
  const int64_t lim = L.int16 ? 8191 : 31;
  const int64_t unit = int64_t{1} << L.pra_truncate;
  int64_t dmax = L.pad_value < 0 ? -L.pad_value : L.pad_value;
  bool multiples = L.pad_value % unit == 0;
  for (const int64_t v : L.in) {
    const int64_t x = L.cvt ? clamp_bits(rhaz((v - L.cvt_offset) * L.cvt_scale, L.cvt_truncate), L.int16 ? 16 : 8) : v;
    dmax = std::max(dmax, x < 0 ? -x : x);
    multiples = multiples && x % unit == 0;
  }
  if (dmax > lim) return "the Winograd PRA may clamp data beyond +-" + std::to_string(lim);
  if (!multiples) return "PRA_TRUNCATE " + std::to_string(L.pra_truncate) + " rounds the transformed data";
  if (L.wino_scheme == "exact") return "";
  constexpr int64_t kG2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
  for (int k = 0; k < L.K; ++k) {
    for (int c = 0; c < L.C; ++c) {
      for (int py = 0; py < L.sy; ++py) {
        for (int px = 0; px < L.sx; ++px) {
          int64_t g[3][3] = {};  // this stride phase's kernel
          for (int re = 0; re < 3; ++re) {
            for (int se = 0; se < 3; ++se) {
              const int r = re * L.sy + py, s = se * L.sx + px;
              if (r < 3 && s < 3) g[re][se] = L.wt[static_cast<std::size_t>(((int64_t{k} * L.C + c) * 3 + r) * 3 + s)];
            }
          }
          for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
              int64_t u4 = 0;
              for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) u4 += kG2[i][a] * g[a][b] * kG2[j][b];
              if (u4 % 4 != 0) return "NVDLA's Winograd weight scheme truncates the transformed weights";
            }
          }
        }
      }
    }
  }
  return "";
}

}  // namespace

int64_t clamp_bits(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}

int64_t rhaz(int64_t v, int s) {
  if (v >= (int64_t{1} << 62) || v <= -(int64_t{1} << 62)) throw std::range_error("conv reference: rhaz operand out of range");
  if (s == 0) return v;
  if (s >= 63) return 0;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t q = (mag + (int64_t{1} << (s - 1))) >> s;
  return v < 0 ? -q : q;
}

Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed, const std::string& config) {
  const json& j = root.raw();
  Layer L;
  L.name = name;
  L.config = config.empty() ? j["config"].get<std::string>() : config;
  L.wino = j.value("mode", std::string("direct")) == "winograd";
  L.wino_scheme = j.value("wino_scheme", std::string("exact"));
  L.pra_truncate = j.value("pra_truncate", 0);
  L.int16 = j.value("precision", std::string("int8")) == "int16";
  const json& in = j["input"];
  L.W = in["w"].get<int>();
  L.H = in["h"].get<int>();
  L.C = jint(in, "c", 1);
  if (in.contains("converter")) {
    L.cvt = true;
    L.cvt_offset = in["converter"].value("offset", int64_t{0});
    L.cvt_scale = in["converter"].value("scale", int64_t{1});
    L.cvt_truncate = in["converter"].value("truncate", 0);
  }
  const json& wt = j["weights"];
  L.K = wt["k"].get<int>();
  L.R = wt["r"].get<int>();
  L.S = wt["s"].get<int>();
  const json pad = j.value("padding", json::object());
  L.pl = jint(pad, "left", 0);
  L.pr = jint(pad, "right", 0);
  L.pt = jint(pad, "top", 0);
  L.pb = jint(pad, "bottom", 0);
  L.pad_value = pad.value("value", int64_t{0});
  const json st = j.value("stride", json::object());
  L.sx = jint(st, "x", 1);
  L.sy = jint(st, "y", 1);
  const json dl = j.value("dilation", json::object());
  L.dx = jint(dl, "x", 1);
  L.dy = jint(dl, "y", 1);
  L.clip = j.value("clip", 0);
  if (in.contains("format")) {  // image input: C, the components, PROC precision by default the format's
    read_image(root, L, seed);
    L.pad_value_tb = pad.value("top_bottom_value", L.pad_value);
  }
  if (j.contains("batch")) {
    const json& b = j["batch"];
    L.N = b.is_object() ? b.value("n", 1) : b.get<int>();
    if (b.is_object()) L.out_batch = b.value("output_stride", uint64_t{0});
  }
  const int bytes = L.int16 ? 2 : 1;
  if (!L.image) {
    L.in = values_of(root.require("input").require("data"),
                     static_cast<std::size_t>(int64_t{L.N} * L.C * L.H * L.W), bytes, seed);
    L.pad_value_tb = L.pad_value;
  }
  L.wt = values_of(root.require("weights").require("data"),
                   static_cast<std::size_t>(int64_t{L.K} * L.C * L.R * L.S), bytes, seed);
  const json out = j.value("output", json::object());
  L.out16 = out.value("precision", std::string(L.int16 ? "int16" : "int8")) == "int16";
  const json cv = out.value("converter", json::object());
  L.out_offset = cv.value("offset", int64_t{0});
  L.out_scale = cv.value("scale", int64_t{1});
  L.out_shift = cv.value("shift", 0);
  L.out_line = out.value("line_stride", uint64_t{0});
  L.out_surf = out.value("surface_stride", uint64_t{0});
  read_stage(root, "bs", L.bs, L, seed);
  read_stage(root, "bn", L.bn, L, seed);
  read_stage(root, "ew", L.ew, L, seed);
  if (j.contains("pool")) {
    const json& p = j["pool"];
    L.pool.on = true;
    L.pool.method = p["method"].get<std::string>();
    L.pool.kw = jint(p["kernel"], "w", 1);
    L.pool.kh = jint(p["kernel"], "h", 1);
    const json pst = p.value("stride", json::object());
    L.pool.sw = jint(pst, "w", 1);
    L.pool.sh = jint(pst, "h", 1);
    const json ppad = p.value("pad", json::object());
    L.pool.pl = jint(ppad, "left", 0);
    L.pool.pr = jint(ppad, "right", 0);
    L.pool.pt = jint(ppad, "top", 0);
    L.pool.pb = jint(ppad, "bottom", 0);
    L.pool.pad_value = ppad.value("value", int64_t{0});
  }
  return L;
}

Layer read_layer(const std::filesystem::path& file, uint64_t seed) {
  const LoadedLayer ll = load_layer(file);
  return read_layer(ll.root(), file.stem().string(), seed);
}

std::string not_applicable(const Layer& L, const Expected& e) {
  if (L.ew_lut) return "the EW LUT is not modelled by the int64 reference";
  if (L.ew_eql) return "EW EQL writes no output";
  if (L.wino) {
    if (const std::string why = wino_inexact(L); !why.empty()) return why;
  }
  // Every partial sum is bounded by the sum of |products|; below CACC's width none saturates.
  if (e.abs_sum_max >= (int64_t{1} << (L.int16 ? 47 : 33)))
    return "a partial sum may reach CACC's saturating width (the result depends on the accumulation order)";
  return "";
}

int64_t convert_output(const Layer& L, int64_t acc, int k, int oy, int ox, int oh, int ow, Expected& e) {
  const int64_t rounded = rhaz(acc, L.clip);
  const int64_t cacc = clamp_bits(rounded, 32);
  if (cacc != rounded) ++e.cacc_saturated;
  e.cacc.push_back(cacc);
  int64_t v = x_stage(L.bs, cacc, k, oy, ox, oh, ow, e.relu_clamped);
  v = x_stage(L.bn, v, k, oy, ox, oh, ow, e.relu_clamped);
  v = y_stage(L.ew, v, k, oy, ox, oh, ow);
  const int64_t t = clamp_bits(rhaz((v - L.out_offset) * L.out_scale, L.out_shift), 17);
  return clamp_bits(t, L.out16 ? 16 : 8);
}

Expected reference(const Layer& L) {
  Expected e;
  const int OH = L.oh(), OW = L.ow();
  const int in_bits = L.int16 ? 16 : 8;
  auto input = [&](int c, int y, int x) -> int64_t {
    if (y < 0 || y >= L.H || x < 0 || x >= L.W) return L.pad_value;  // padding is not converted
    const int64_t v = L.in[static_cast<std::size_t>((int64_t{c} * L.H + y) * L.W + x)];
    if (L.image) return image_element(L, c, v);
    return L.cvt ? clamp_bits(rhaz((v - L.cvt_offset) * L.cvt_scale, L.cvt_truncate), in_bits) : v;
  };
  // The converted input once (the converter is per element, so this changes nothing but speed).
  std::vector<int64_t> conv_in(L.in.size());
  for (int c = 0; c < L.C; ++c)
    for (int y = 0; y < L.H; ++y)
      for (int x = 0; x < L.W; ++x) conv_in[static_cast<std::size_t>((int64_t{c} * L.H + y) * L.W + x)] = input(c, y, x);
  e.cacc.reserve(static_cast<std::size_t>(int64_t{L.K} * OH * OW));
  e.out.reserve(e.cacc.capacity());
  for (int k = 0; k < L.K; ++k) {
    for (int oy = 0; oy < OH; ++oy) {
      for (int ox = 0; ox < OW; ++ox) {
        int64_t acc = 0, abs_sum = 0;
        for (int c = 0; c < L.C; ++c) {
          for (int r = 0; r < L.R; ++r) {
            const int y = oy * L.sy + r * L.dy - L.pt;
            for (int s = 0; s < L.S; ++s) {
              const int x = ox * L.sx + s * L.dx - L.pl;
              // top / bottom rows: CSC's pad value; left / right pixels: CDMA's (the same for features)
              const int64_t v = (y < 0 || y >= L.H)   ? L.pad_value_tb
                                : (x < 0 || x >= L.W) ? L.pad_value
                                                      : conv_in[static_cast<std::size_t>((int64_t{c} * L.H + y) * L.W + x)];
              const int64_t p = v * L.wt[static_cast<std::size_t>(((int64_t{k} * L.C + c) * L.R + r) * L.S + s)];
              acc += p;
              abs_sum += p < 0 ? -p : p;
            }
          }
        }
        e.abs_sum_max = std::max(e.abs_sum_max, abs_sum);
        e.out.push_back(convert_output(L, acc, k, oy, ox, OH, OW, e));
      }
    }
  }
  if (L.pool.on) {
    // PDP pools the K real channels of SDP's output (every lane is pooled on its own).
    pdp_ref::Layer p;
    p.W = OW;
    p.H = OH;
    p.C = L.K;
    p.int16 = L.out16;
    p.atom = L.atom();
    p.method = L.pool.method;
    p.kw = L.pool.kw;
    p.kh = L.pool.kh;
    p.sw = L.pool.sw;
    p.sh = L.pool.sh;
    p.pl = L.pool.pl;
    p.pr = L.pool.pr;
    p.pt = L.pool.pt;
    p.pb = L.pool.pb;
    p.pad_value = L.pool.pad_value;
    p.in = e.out;
    std::vector<int64_t> pooled = pdp_ref::reference(p);
    pooled.resize(static_cast<std::size_t>(int64_t{L.K} * L.out_h() * L.out_w()));  // lanes beyond K
    e.out = std::move(pooled);
  }
  return e;
}

std::vector<int64_t> read_output(const Memory& m, uint64_t base, const Layer& L) {
  const int bpe = L.out16 ? 2 : 1;
  const int ca = L.atom() / bpe;
  const auto atom = static_cast<uint64_t>(L.atom());
  const uint64_t line = L.out_line_stride();
  const uint64_t surf = L.out_surf_stride();
  std::vector<int64_t> out;
  out.reserve(static_cast<std::size_t>(int64_t{L.K} * L.out_h() * L.out_w()));
  for (int k = 0; k < L.K; ++k) {
    for (int y = 0; y < L.out_h(); ++y) {
      for (int x = 0; x < L.out_w(); ++x) {
        const uint64_t a = base + static_cast<uint64_t>(k / ca) * surf + static_cast<uint64_t>(y) * line +
                           static_cast<uint64_t>(x) * atom + static_cast<uint64_t>(k % ca) * static_cast<uint64_t>(bpe);
        const int64_t lo = m.read(a);
        out.push_back(bpe == 1 ? static_cast<int8_t>(lo) : static_cast<int16_t>(lo | int64_t{m.read(a + 1)} << 8));
      }
    }
  }
  return out;
}

Layer batch_image(const Layer& L, int b) {
  Layer one = L;
  const auto cube = static_cast<std::ptrdiff_t>(int64_t{L.C} * L.H * L.W);
  one.in.assign(L.in.begin() + cube * b, L.in.begin() + cube * (b + 1));
  one.N = 1;
  return one;
}

std::string diff(const std::vector<int64_t>& got, const std::vector<int64_t>& want, const Layer& L) {
  std::size_t n = 0, first = got.size();
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    if (got[i] != want[i]) {
      ++n;
      first = std::min(first, i);
    }
  }
  if (got.size() != want.size()) return std::to_string(got.size()) + " outputs, expected " + std::to_string(want.size());
  if (n == 0) return "";
  const auto hw = static_cast<std::size_t>(L.out_h()) * static_cast<std::size_t>(L.out_w());
  const std::size_t k = first / hw, y = first % hw / static_cast<std::size_t>(L.out_w()),
                    x = first % static_cast<std::size_t>(L.out_w());
  return std::to_string(n) + " of " + std::to_string(got.size()) + " outputs differ; first (k, h, w) = (" +
         std::to_string(k) + ", " + std::to_string(y) + ", " + std::to_string(x) + "): got " +
         std::to_string(got[first]) + ", expected " + std::to_string(want[first]);
}

}  // namespace dla::harness::conv_ref
