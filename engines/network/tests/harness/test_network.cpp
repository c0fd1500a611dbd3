// `network` layers (engines/network/harness/, docs/NETWORKS.md): the bundled LeNet-5
// (testvectors/networks/lenet5.json) on the golden model against an independent int64 reference
// assembled here from per-op reference functions (plain loops over the tensors: convolution, CACC's
// clip, SDP's ReLU and output saturation, max pooling), every tensor; the compiled schedule (one
// program, layer N+1 programmed into the other register groups before N's done interrupts); and
// every refusal, each naming the JSON pointer and the rule. The RTL runs: tests/rtl/test_network_rtl.cpp.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "golden/nvdla_regs.hpp"
#include "engines/cdp/harness/cdp_reference.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"
#include "layer_helpers.hpp"
#include "engines/network/harness/network.hpp"
#include "engines/network/harness/network_random.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;
using nlohmann::json;

namespace {

const fs::path kLenet = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/lenet5.json";
const fs::path kLenetFused = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/lenet5_fused.json";
const fs::path kResnet = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/resnet_block.json";
const fs::path kInception = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/inception.json";
const fs::path kYolo = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/yolo_tiny.json";
const fs::path kResnet18 = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/resnet18_stem.json";
const fs::path kDecoder = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/decoder.json";
const fs::path kAlexnet = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/alexnet_lrn.json";
const fs::path kDense = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/dense_block.json";
const fs::path kMlpBatch = fs::path(DLA_SOURCE_DIR) / "testvectors/networks/mlp_batch.json";
const fs::path kContract = fs::path(DLA_SOURCE_DIR) / "tests/data/networks/contract.json";  // the rubik op

// A tensor of the reference: C x H x W values, c-major (n images: N x C x H x W, batch-major).
struct Ref {
  int w = 0, h = 0, c = 0;
  std::vector<int64_t> v;
  int n = 1;
  [[nodiscard]] int64_t at(int ch, int y, int x) const {
    return v[static_cast<std::size_t>((int64_t{ch} * h + y) * w + x)];
  }
};

// Round half away from zero of v / 2^s (CACC's clip, docs/LAYER_FORMAT.md `clip`).
int64_t rhaz(int64_t v, int s) {
  if (s == 0) return v;
  const int64_t half = int64_t{1} << (s - 1);
  return v >= 0 ? (v + half) >> s : -((-v + half) >> s);
}
int64_t sat(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}

// Leaky ReLU with slope 1/8: x, or x / 8 rounded half away from zero below 0.
int64_t leaky(int64_t x) { return x >= 0 ? x : rhaz(x, 3); }

// What SDP does after the convolution or on its memory input: BS ReLU, or leaky ReLU (the LUT
// tables of leaky_lut_ok), then the output converter sat17(rhaz((x - offset) * scale / 2^shift)),
// then int8.
struct Activation {
  bool relu = false, lut_leaky = false;
  bool raw = false;  // what reaches SDP, unchanged (for tests of the data)
  int64_t offset = 0, scale = 1;
  int shift = 0;
  [[nodiscard]] int64_t operator()(int64_t v) const {
    if (raw) return v;
    if (relu && v < 0) v = 0;
    if (lut_leaky) v = leaky(v);
    return sat(sat(rhaz((v - offset) * scale, shift), 17), 8);
  }
};

// Direct convolution, zero padding, stride sx x sy, K x C x R x S weights; CACC:
// sat32(rhaz(acc / 2^clip)); then SDP (`act`).
Ref conv(const Ref& in, const std::vector<int64_t>& w, int k, int r, int s, int pad_l, int pad_r, int pad_t, int pad_b,
         int sx, int sy, int clip, const Activation& act) {
  Ref o{(in.w + pad_l + pad_r - s) / sx + 1, (in.h + pad_t + pad_b - r) / sy + 1, k, {}};
  for (int kk = 0; kk < k; ++kk) {
    for (int oy = 0; oy < o.h; ++oy) {
      for (int ox = 0; ox < o.w; ++ox) {
        int64_t acc = 0;
        for (int c = 0; c < in.c; ++c) {
          for (int y = 0; y < r; ++y) {
            for (int x = 0; x < s; ++x) {
              const int iy = oy * sy + y - pad_t, ix = ox * sx + x - pad_l;
              if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;
              acc += in.at(c, iy, ix) * w[static_cast<std::size_t>(((int64_t{kk} * in.c + c) * r + y) * s + x)];
            }
          }
        }
        o.v.push_back(act(sat(rhaz(acc, clip), 32)));
      }
    }
  }
  return o;
}

// A batched tensor's images one by one through `f` (an op of one image), the outputs batch after
// batch.
template <class F>
Ref per_image(const Ref& in, F f) {
  if (in.n == 1) return f(in);
  const std::size_t cube = in.v.size() / static_cast<std::size_t>(in.n);
  Ref out;
  for (int b = 0; b < in.n; ++b) {
    const auto first = in.v.begin() + static_cast<std::ptrdiff_t>(cube * static_cast<std::size_t>(b));
    const Ref o = f(Ref{in.w, in.h, in.c, {first, first + static_cast<std::ptrdiff_t>(cube)}});
    if (b == 0) out = Ref{o.w, o.h, o.c, {}, in.n};
    out.v.insert(out.v.end(), o.v.begin(), o.v.end());
  }
  return out;
}

// SDP from memory: BS ReLU (when asked), EW sum with a per-element operand (when given):
// sat32(v + op), output sat17 then int8.
Ref sdp(const Ref& in, const Ref* operand, bool relu) {
  Ref o{in.w, in.h, in.c, {}};
  for (std::size_t i = 0; i < in.v.size(); ++i) {
    int64_t v = in.v[i];
    if (relu && v < 0) v = 0;
    if (operand != nullptr) v = sat(v + operand->v[i], 32);
    o.v.push_back(sat(sat(v, 17), 8));
  }
  return o;
}

// Transposed convolution as its definition, a scatter-add: input pixel (c, y, x) times tap (r, s)
// of kernel k lands at output (y sy + r - crop_t, x sx + s - crop_l), dropped outside the W' x H'
// output ((W - 1) sx + S - crop_l - crop_r wide); then CACC's clip and SDP.
Ref deconv(const Ref& in, const std::vector<int64_t>& w, int k, int r, int s, int sx, int sy, int cl, int cr, int ct,
           int cb, int clip, const Activation& act) {
  Ref o{(in.w - 1) * sx + s - cl - cr, (in.h - 1) * sy + r - ct - cb, k, {}};
  std::vector<int64_t> acc(static_cast<std::size_t>(o.w) * o.h * k, 0);
  for (int kk = 0; kk < k; ++kk) {
    for (int c = 0; c < in.c; ++c) {
      for (int y = 0; y < in.h; ++y) {
        for (int x = 0; x < in.w; ++x) {
          for (int ry = 0; ry < r; ++ry) {
            for (int rx = 0; rx < s; ++rx) {
              const int oy = y * sy + ry - ct, ox = x * sx + rx - cl;
              if (oy < 0 || oy >= o.h || ox < 0 || ox >= o.w) continue;
              acc[static_cast<std::size_t>((int64_t{kk} * o.h + oy) * o.w + ox)] +=
                  in.at(c, y, x) * w[static_cast<std::size_t>(((int64_t{kk} * in.c + c) * r + ry) * s + rx)];
            }
          }
        }
      }
    }
  }
  for (const int64_t a : acc) o.v.push_back(act(sat(rhaz(a, clip), 32)));
  return o;
}

// Max pooling; padded positions take no part (NVDLA's PDP pads only averages).
Ref maxpool(const Ref& in, int kw, int kh, int sw, int sh, int pl = 0, int pr = 0, int pt = 0, int pb = 0) {
  Ref o{(in.w + pl + pr - kw) / sw + 1, (in.h + pt + pb - kh) / sh + 1, in.c, {}};
  for (int c = 0; c < in.c; ++c) {
    for (int oy = 0; oy < o.h; ++oy) {
      for (int ox = 0; ox < o.w; ++ox) {
        int64_t m = std::numeric_limits<int64_t>::min();
        for (int y = 0; y < kh; ++y) {
          for (int x = 0; x < kw; ++x) {
            const int iy = oy * sh + y - pt, ix = ox * sw + x - pl;
            if (iy >= 0 && iy < in.h && ix >= 0 && ix < in.w) m = std::max(m, in.at(c, iy, ix));
          }
        }
        o.v.push_back(m);
      }
    }
  }
  return o;
}

Ref maxpool(const Ref& in, const json& pool) {
  REQUIRE(pool["method"] == "max");
  const json pad = pool.value("pad", json::object());
  const json stride = pool.value("stride", json::object());
  return maxpool(in, pool["kernel"]["w"], pool["kernel"]["h"], stride.value("w", 1), stride.value("h", 1),
                 pad.value("left", 0), pad.value("right", 0), pad.value("top", 0), pad.value("bottom", 0));
}

// LRN on CDP: harness/cdp_reference.hpp (written from the spec: the square sum over the window,
// the LUT's lookup and interpolation, the multiply and converters; nothing from golden/ or the
// compilers), run on a `cdp` unit layer holding the reference's own tensor and the network
// layer's CDP fields.
Ref lrn(const Ref& in, const json& L, const std::string& config) {
  json u = {{"unit", "cdp"},
            {"config", config},
            {"seed", 1},
            {"cube", {{"w", in.w}, {"h", in.h}, {"c", in.c}}},
            {"input", {{"precision", "int8"}, {"data", {{"values", in.v}}}}},
            {"output", json::object()}};
  for (const char* k : {"lrn", "in_cvt", "out_cvt", "lut", "perf_lut_en"}) {
    if (L.contains(k)) u[k] = L[k];
  }
  const auto doc = parse_json_text("lrn_reference.json", u.dump());
  const cdp_ref::Result res = cdp_ref::reference(cdp_ref::read_layer(JsonNode::root(doc), L["name"], 1));
  // res.out: every lane (C rounded up to the atom) x H x W; the tensor is the first C lanes.
  const auto n = static_cast<std::ptrdiff_t>(in.c) * in.h * in.w;
  return Ref{in.w, in.h, in.c, std::vector<int64_t>(res.out.begin(), res.out.begin() + n)};
}

// RUBIK CONTRACT (depth-to-space): output (x sx + i, y sy + j, c) is input channel
// (j sx + i) C' + c at (x, y).
Ref contract(const Ref& in, int sx, int sy) {
  const int cout = in.c / (sx * sy);
  Ref o{in.w * sx, in.h * sy, cout, {}};
  for (int c = 0; c < cout; ++c) {
    for (int oy = 0; oy < o.h; ++oy) {
      for (int ox = 0; ox < o.w; ++ox) o.v.push_back(in.at(((oy % sy) * sx + ox % sx) * cout + c, oy / sy, ox / sx));
    }
  }
  return o;
}

// Concatenation along channels (c-major values: one branch after the other).
Ref concat(const std::vector<const Ref*>& branches) {
  Ref o{branches.front()->w, branches.front()->h, 0, {}};
  for (const Ref* b : branches) {
    REQUIRE(b->w == o.w);
    REQUIRE(b->h == o.h);
    o.c += b->c;
    o.v.insert(o.v.end(), b->v.begin(), b->v.end());
  }
  return o;
}

// A layer's `ew.lut` is the leaky ReLU of the bundled networks: LO linear from -1024 in steps of 8
// (select 3) with entry i = leaky(-1024 + 8 i), exact on that grid, so interpolation gives
// rhaz(x / 8) below 0 and x above; the underflow extrapolates from T[0] at START with scale 1 and
// shift 3 (slope 1/8), the overflow from T[256] at END = 1024 with slope 1; LO wins every
// priority, and LE (linear from 0, select 0: it hits only where LO hits) is never chosen.
bool leaky_lut_ok(const json& lut) {
  const json& r = lut["registers"];
  bool ok = lut["lo"].size() == 257 && lut["le"].size() == 65;
  for (std::size_t i = 0; ok && i < 257; ++i) ok = lut["lo"][i].get<int64_t>() == leaky(-1024 + 8 * static_cast<int64_t>(i));
  ok = ok && r["lo_start"] == -1024 && r["lo_index_select"] == 3 && r["lo_end"] == 1024 && r["lo_uflow_scale"] == 1 &&
       r["lo_uflow_shift"] == 3 && r["lo_oflow_scale"] == 1 && r["lo_oflow_shift"] == 0;
  ok = ok && r["hybrid_priority"] == "lo" && r["uflow_priority"] == "lo" && r["oflow_priority"] == "lo";
  return ok && r["le_function"] == "linear" && r["le_start"] == 0 && r["le_index_select"] == 0;
}

Activation activation_of(const json& L) {
  Activation a;
  a.relu = L.contains("bs") && L["bs"].value("relu", false);
  if (L.contains("ew")) {
    REQUIRE(L["ew"].size() == 1);  // only the LUT
    REQUIRE(leaky_lut_ok(L["ew"]["lut"]));
    a.lut_leaky = true;
  }
  if (L.contains("converter")) {
    a.offset = L["converter"].value("offset", 0);
    a.scale = L["converter"].value("scale", 1);
    a.shift = L["converter"].value("shift", 0);
  }
  return a;
}

json lenet_json() {
  std::ifstream in(kLenet);
  return json::parse(in);
}

// The program's checks, each of which must cover exactly a produced tensor; and the tensors lie in
// the network's memory without overlapping (but a concat's branch inside its cube).
int checks_at_tensors(const engines::CompiledNetwork& n) {
  int checks = 0;
  for (const auto& s : n.program.steps) {
    if (s.op != StepOp::Check) continue;
    ++checks;
    const bool at_tensor = std::any_of(n.tensors.begin(), n.tensors.end(), [&](const engines::NetTensor& t) {
      return t.producer >= 0 && t.layout.base == s.addr && t.bytes == s.size;
    });
    CHECK(at_tensor);
  }
  for (const auto& a : n.tensors) {
    if (!a.format.empty()) continue;  // an image: its planes are its reader's constants
    CHECK(a.layout.base >= n.memory_base);
    CHECK(a.layout.base + a.bytes <= n.memory_base + n.memory_bytes);
    for (const auto& b : n.tensors) {
      if (&a == &b || a.parent >= 0 || b.parent >= 0 || !b.format.empty()) continue;
      CHECK((a.layout.base + a.bytes <= b.layout.base || b.layout.base + b.bytes <= a.layout.base));
    }
  }
  return checks;
}

std::string refusal(const json& body) { return testing::refusal(body.dump(), "dla_network_bad.json"); }

}  // namespace

// An image tensor as its reader's CDMA sees it, unpacked from the bytes the program loads for the
// reader's planes ("image plane 0" / "image plane 1") by cdma-input-modes.md, not by the golden
// model: table 1.2 (T_R8: b0 -> channel 0; T_Y8___U8V8_N444: plane 0 Y, plane 1 b0 = V, b1 = U,
// channels Y, U, V), §1.3's pixel addresses (plane base + y x line stride + (x_offset + x) x bpp,
// x_offset 0 here; default line strides W x bpp rounded up to the atom) and §2.2's converter
// (zero-extended unsigned component, minus the offset, times the scale, sat17(rhaz(/ 2^truncate)),
// sat8 for PROC int8).
static Ref image_input(const engines::CompiledNetwork& n, const json& tensor, const std::string& reader, int atom) {
  const std::string format = tensor["format"];
  REQUIRE((format == "T_R8" || format == "T_Y8___U8V8_N444"));
  REQUIRE(tensor.value("sign", "unsigned") == "unsigned");
  REQUIRE(tensor.value("x_offset", 0) == 0);
  const auto plane = [&](int k) {
    const ProgramStep* load = nullptr;
    for (const ProgramStep& st : n.program.steps) {
      if (st.op == StepOp::MemLoad && st.where.find("layer " + reader + " (conv)") != std::string::npos &&
          st.where.find(fmt::format("image plane {}", k)) != std::string::npos) {
        REQUIRE(load == nullptr);
        load = &st;
      }
    }
    REQUIRE(load != nullptr);
    return load->bytes;
  };
  Ref r{tensor["w"], tensor["h"], tensor["c"], {}};
  const auto roundup = [&](int v) { return (v + atom - 1) / atom * atom; };
  const std::vector<uint8_t> p0 = plane(0);
  const int ls = tensor.value("line_stride", roundup(r.w));
  std::vector<std::vector<int64_t>> ch(1);  // components by channel, (y, x) order
  for (int y = 0; y < r.h; ++y) {
    for (int x = 0; x < r.w; ++x) ch[0].push_back(p0.at(static_cast<std::size_t>(y * ls + x)));
  }
  if (format == "T_Y8___U8V8_N444") {
    const std::vector<uint8_t> p1 = plane(1);
    const int uvls = tensor.value("uv_line_stride", roundup(2 * r.w));
    ch.resize(3);
    for (int y = 0; y < r.h; ++y) {
      for (int x = 0; x < r.w; ++x) {
        const std::size_t a = static_cast<std::size_t>(y * uvls + 2 * x);
        ch[2].push_back(p1.at(a));      // b0 = V
        ch[1].push_back(p1.at(a + 1));  // b1 = U
      }
    }
  }
  REQUIRE(static_cast<int>(ch.size()) == r.c);
  const json cvt = tensor.value("converter", json::object());
  for (const auto& c : ch) {
    for (const int64_t v : c) {
      const int64_t m = (v - cvt.value("offset", 0)) * cvt.value("scale", 1);
      r.v.push_back(sat(sat(rhaz(m, cvt.value("truncate", 0)), 17), 8));
    }
  }
  return r;
}

// The reference of every layer of network file `file`, from the reference's own tensors (never
// golden's), checked against the golden model's tensor; returns the number of non-zero elements.
static int check_against_reference(const fs::path& file, std::map<std::string, Ref>& ref) {
  const LoadedLayer l = load_layer(file);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::ifstream is(file);
  const json j = json::parse(is);
  for (std::size_t i = 0; i < n.tensors.size(); ++i) {
    const engines::NetTensor& t = n.tensors[i];
    if (t.producer >= 0) continue;
    ref[t.name] = Ref{t.w, t.h, t.c, t.values, t.n};
    if (!j["tensors"][i].contains("format")) continue;
    for (const json& L : j["layers"]) {
      if (L.value("input", "") == t.name) ref[t.name] = image_input(n, j["tensors"][i], L["name"], l.header.config->atom_bytes);
    }
  }
  int nonzero = 0;
  // A tensor of the reference; a concat's output is assembled from its branches when first read.
  const auto get = [&](const std::string& name) -> const Ref& {
    if (!ref.contains(name)) {
      for (const json& L : j["layers"]) {
        if (L["op"] != "concat" || L["output"] != name) continue;
        std::vector<const Ref*> branches;
        for (const json& b : L["inputs"]) branches.push_back(&ref.at(b.get<std::string>()));
        ref[name] = concat(branches);
      }
    }
    return ref.at(name);
  };
  for (const int li : n.order) {
    const json& L = j["layers"][static_cast<std::size_t>(li)];
    const engines::NetLayer& nl = n.layers[static_cast<std::size_t>(li)];
    const Ref& in = get(L["input"]);
    const bool relu = L.contains("bs") && L["bs"].value("relu", false);
    Ref out;
    if (L["op"] == "conv") {
      const json pad = L.value("padding", json::object());
      const json stride = L.value("stride", json::object());
      out = per_image(in, [&](const Ref& image) {  // a batched tensor: each image on its own
        return conv(image, nl.weights, L["weights"]["k"], L["weights"]["r"], L["weights"]["s"], pad.value("left", 0),
                    pad.value("right", 0), pad.value("top", 0), pad.value("bottom", 0), stride.value("x", 1),
                    stride.value("y", 1), L.value("clip", 0), activation_of(L));
      });
      if (L.contains("pool")) out = maxpool(out, L["pool"]);  // conv -> SDP -> PDP on the fly
      // A pdp the compiler fused into it (automatic fusion): the reference still pools separately.
      if (nl.pool_from >= 0) out = maxpool(out, j["layers"][static_cast<std::size_t>(nl.pool_from)]["pool"]);
    } else if (L["op"] == "deconv") {
      const json crop = L.value("crop", json::object());
      const json stride = L.value("stride", json::object());
      out = deconv(in, nl.weights, L["weights"]["k"], L["weights"]["r"], L["weights"]["s"], stride.value("x", 1),
                   stride.value("y", 1), crop.value("left", 0), crop.value("right", 0), crop.value("top", 0),
                   crop.value("bottom", 0), L.value("clip", 0), activation_of(L));
    } else if (L["op"] == "sdp") {
      out = sdp(in, L.contains("operand") ? &get(L["operand"]) : nullptr, relu);
    } else if (L["op"] == "cdp") {
      out = lrn(in, L, j["config"]);
    } else if (L["op"] == "bdma") {
      out = in;  // a copy
    } else if (L["op"] == "rubik") {
      REQUIRE(L["mode"] == "contract");
      out = contract(in, L["stride"]["x"], L["stride"]["y"]);
    } else {
      REQUIRE(L["op"] == "pdp");
      out = maxpool(in, L["pool"]);
    }
    const engines::NetTensor& t = n.tensors[static_cast<std::size_t>(nl.output)];
    INFO("layer " << nl.name << " -> tensor " << t.name);
    REQUIRE(out.w == t.w);
    REQUIRE(out.h == t.h);
    REQUIRE(out.c == t.c);
    REQUIRE(out.n == t.n);
    if (!t.elided) CHECK(t.values == out.v);  // an elided tensor (automatic fusion) never reaches memory
    nonzero += static_cast<int>(std::count_if(out.v.begin(), out.v.end(), [](int64_t v) { return v != 0; }));
    ref[t.name] = std::move(out);
  }
  // Every concat's output, as the golden model holds it after its branches' layers.
  for (const engines::NetLayer& L : n.layers) {
    if (L.op != "concat") continue;
    const engines::NetTensor& t = n.tensors[static_cast<std::size_t>(L.output)];
    INFO("concat " << L.name << " -> tensor " << t.name);
    CHECK(t.values == get(t.name).v);
  }
  return nonzero;
}

// The data exercise the layers: each named tensor of the reference at most 3/4 zeros and under
// 10 % at int8's maximum.
static void check_exercised(const std::map<std::string, Ref>& ref, std::initializer_list<const char*> names) {
  for (const std::string t : names) {
    INFO(t);
    const auto& v = ref.at(t).v;
    CHECK(std::count(v.begin(), v.end(), 0) < static_cast<long>(v.size()) * 3 / 4);
    CHECK(std::count(v.begin(), v.end(), 127) < static_cast<long>(v.size()) / 10);
  }
}

TEST_CASE("network lenet5: every tensor of the golden model equals an int64 reference of its ops", "[network]") {
  std::map<std::string, Ref> ref;
  const int nonzero = check_against_reference(kLenet, ref);
  // The data exercise the layers (not all zero after the ReLUs, and not mostly saturated).
  CHECK(nonzero > 1000);
  int saturated = 0;
  for (const auto& [name, t] : ref) saturated += static_cast<int>(std::count(t.v.begin(), t.v.end(), 127));
  CHECK(saturated < nonzero / 4);
  const Ref& logits = ref.at("logits");
  CHECK(std::count_if(logits.v.begin(), logits.v.end(), [](int64_t v) { return v != 0; }) >= 5);
  // conv1 reads the T_R8 image in image input mode (CDMA D_DATAIN_FORMAT PIXEL, PIXEL_FORMAT 0);
  // the other convolutions read feature cubes.
  const LoadedLayer l = load_layer(kLenet);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::vector<std::string> formats;
  for (const ProgramStep& st : n.program.steps) {
    if (st.op == StepOp::RegWrite && st.reg->block == "CDMA" && st.reg->name == "D_DATAIN_FORMAT") {
      formats.push_back(fmt::format("{}:{}", st.where.substr(st.where.find("layer ") + 6, 5), st.value & 1u));
    }
  }
  CHECK(formats == std::vector<std::string>{"conv1:1", "conv2:0", "fc1 (:0", "fc2 (:0", "fc3 (:0"});
}

TEST_CASE("network lenet5 with automatic fusion: each pool joins its convolution and the tensors equal the reference",
          "[network]") {
  // lenet5.json with "fusion": "auto": pool1 and pool2 read only conv1's and conv2's outputs, so
  // the compiler fuses them (conv -> SDP -> PDP on the fly) as lenet5_fused.json does by hand.
  std::ifstream is(kLenet);
  json j = json::parse(is);
  j["fusion"] = "auto";
  const fs::path f = fs::temp_directory_path() / "dla_network_lenet5_auto_fusion.json";
  std::ofstream(f) << j.dump(2);
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(f, ref) > 300);  // p1, p2 and the rest equal the unfused reference
  const LoadedLayer l = load_layer(f);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::vector<std::string> order, waits;
  for (const int i : n.order) order.push_back(n.layers[static_cast<std::size_t>(i)].name);
  CHECK(order == std::vector<std::string>{"conv1", "conv2", "fc1", "fc2", "fc3"});
  for (const auto& st : n.program.steps) {
    if (st.op == StepOp::WaitIntr && st.intr.rfind("PDP", 0) == 0) waits.push_back(st.intr);
  }
  CHECK(waits == std::vector<std::string>{"PDP_0", "PDP_1"});
  CHECK(n.tensors.at(1).name == "c1");
  CHECK(n.tensors.at(1).elided);  // the 24 x 24 x 6 map stays on chip
  CHECK(n.layers.at(1).fused_into == 0);
  fs::remove(f);
  // A pdp reading a network input (inception's pool branch) stays a layer of its own.
  std::ifstream is2(kInception);
  json k = json::parse(is2);
  k["fusion"] = "auto";
  std::ofstream(f) << k.dump(2);
  const LoadedLayer li = load_layer(f);
  CHECK(engines::compile_network(li.header, li.root()).order.size() == 8);
  fs::remove(f);
}

TEST_CASE("network lenet5_fused: conv -> SDP -> PDP on the fly equals the reference's conv then pool",
          "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kLenetFused, ref) > 300);
  // The pooled maps come straight from the convolutions: no 24x24x6 or 8x8x16 tensor, and PDP runs
  // in its groups 0 then 1 behind SDP.
  const LoadedLayer l = load_layer(kLenetFused);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  CHECK(n.tensors.size() == 6);
  std::vector<std::string> waits;
  for (const auto& st : n.program.steps) {
    if (st.op == StepOp::WaitIntr && st.intr.rfind("PDP", 0) == 0) waits.push_back(st.intr);
  }
  CHECK(waits == std::vector<std::string>{"PDP_0", "PDP_1"});
  CHECK(n.layers[1].macs == 8 * 8 * 16 * 6 * 25);  // conv2's MACs: the convolution's output, not the pooled
}

TEST_CASE("network resnet_block: every tensor of the golden model equals an int64 reference of its ops",
          "[network]") {
  std::map<std::string, Ref> ref;
  const int nonzero = check_against_reference(kResnet, ref);
  CHECK(nonzero > 2000);
  // The residual add changed the values (the skip tensor is not zero), and the ReLU clamped some.
  CHECK(ref.at("sum").v != ref.at("b").v);
  CHECK(std::count(ref.at("sum").v.begin(), ref.at("sum").v.end(), 0) < std::count(ref.at("y").v.begin(), ref.at("y").v.end(), 0));
  // Register groups per block: SDP ran conv_a (0) and conv_b (1) on the fly, so the add is in
  // group 0 and the ReLU in 1; SDP_RDMA, never enabled by the convolutions, starts at 0 with the add.
  const LoadedLayer l = load_layer(kResnet);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::map<std::string, std::vector<std::string>> waits;
  std::map<std::string, std::vector<uint32_t>> rdma_pointer;
  for (const auto& st : n.program.steps) {
    for (const char* name : {"add", "relu"}) {
      if (st.where.find(std::string("layer ") + name + " (") == std::string::npos) continue;
      if (st.op == StepOp::WaitIntr) waits[name].push_back(st.intr);
      if (st.op == StepOp::RegWrite && st.reg->block == "SDP_RDMA" && st.reg->name == "D_OP_ENABLE") {
        rdma_pointer[name].push_back(1);
      }
    }
  }
  CHECK(waits["add"] == std::vector<std::string>{"SDP_0"});
  CHECK(waits["relu"] == std::vector<std::string>{"SDP_1"});
  CHECK(rdma_pointer["add"].size() == 1);
  CHECK(rdma_pointer["relu"].size() == 1);
}

TEST_CASE("network mlp_batch: three fully connected layers over 16 batches equal the reference image by image",
          "[network]") {
  std::map<std::string, Ref> ref;
  const int nonzero = check_against_reference(kMlpBatch, ref);
  CHECK(nonzero > 1500);
  // Every batch is its own image: the 16 logits vectors differ, and each layer's data are not
  // mostly zero or saturated.
  for (const char* name : {"h1", "h2", "logits"}) {
    const Ref& r = ref.at(name);
    INFO(name);
    REQUIRE(r.n == 16);
    CHECK(std::count(r.v.begin(), r.v.end(), 0) * 4 <= static_cast<int64_t>(r.v.size()) * 3);
    CHECK(std::count_if(r.v.begin(), r.v.end(), [](int64_t v) { return v == 127 || v == -128; }) * 10 <
          static_cast<int64_t>(r.v.size()));
  }
  const Ref& logits = ref.at("logits");
  std::set<std::vector<int64_t>> images;
  for (int b = 0; b < 16; ++b) images.emplace(logits.v.begin() + b * 10, logits.v.begin() + (b + 1) * 10);
  CHECK(images.size() == 16);
  // One hardware layer per FC layer for all 16 batches: CDMA / CSC / CACC D_BATCH_NUMBER 15, CDMA
  // D_BATCH_STRIDE the input tensor's (one packed cube: 256 / 32 = 8 surfaces of 32 bytes), SDP
  // D_DST_BATCH_STRIDE the output's; the weights loaded once per layer.
  const LoadedLayer l = load_layer(kMlpBatch);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  REQUIRE(n.tensors.size() == 4);
  CHECK(n.tensors[0].layout.batch_stride == 256);
  CHECK(n.tensors[1].layout.batch_stride == 128);
  CHECK(n.tensors[2].layout.batch_stride == 64);
  CHECK(n.tensors[3].layout.batch_stride == 32);
  CHECK(n.tensors[3].bytes == 15 * 32 + 32);
  std::map<std::string, std::vector<uint32_t>> regs;
  int weight_loads = 0;
  for (const ProgramStep& st : n.program.steps) {
    if (st.op == StepOp::MemLoad && st.where.find("weights") != std::string::npos) ++weight_loads;
    if (st.op != StepOp::RegWrite) continue;
    const std::string r = st.reg->block + "." + st.reg->name;
    if (r == "CDMA.D_BATCH_NUMBER" || r == "CSC.D_BATCH_NUMBER" || r == "CACC.D_BATCH_NUMBER" ||
        r == "CDMA.D_BATCH_STRIDE" || r == "SDP.D_DST_BATCH_STRIDE") {
      regs[r].push_back(st.value);
    }
  }
  CHECK(weight_loads == 3);
  for (const char* r : {"CDMA.D_BATCH_NUMBER", "CSC.D_BATCH_NUMBER", "CACC.D_BATCH_NUMBER"}) {
    INFO(r);
    CHECK(regs[r] == std::vector<uint32_t>{15, 15, 15});
  }
  CHECK(regs["CDMA.D_BATCH_STRIDE"] == std::vector<uint32_t>{256, 128, 64});
  CHECK(regs["SDP.D_DST_BATCH_STRIDE"] == std::vector<uint32_t>{128, 64, 32});
  CHECK(n.layers[0].macs == 256 * 128 * 16);
}

TEST_CASE("network files: each batch refusal names the JSON pointer and the rule", "[network]") {
  std::ifstream in(kMlpBatch);
  const json base = json::parse(in);
  CHECK(refusal(base) == "accepted");
  {
    json j = base;  // a conv writes as many batches as it reads
    j["tensors"][1]["n"] = 8;
    CHECK(refusal(j) == "/layers/0/output | layer \"fc1\" (conv) reads 16 batch(es) of \"x\" and writes one per batch, "
                        "but tensor \"h1\" is declared with n 8");
  }
  {
    json j = base;  // other ops take one cube
    j["tensors"].push_back({{"name", "y"}, {"w", 1}, {"h", 1}, {"c", 10}, {"n", 16}});
    j["layers"].push_back({{"name", "act"}, {"op", "sdp"}, {"input", "logits"}, {"output", "y"},
                           {"bs", {{"relu", true}}}});
    CHECK(refusal(j) == "/layers/3/input | tensor \"logits\" holds 16 batches (n), and a sdp layer takes one cube: only "
                        "a direct conv layer on nv_full runs batches (CDMA / SDP batch mode)");
  }
  {
    json j = base;
    j["layers"][1]["mode"] = "winograd";
    CHECK(refusal(j).starts_with("/layers/1/mode | layer \"fc2\" reads 16 batches of \"h1\" (n): batches need "
                                 "CONV_MODE DIRECT"));
  }
  {
    json j = base;
    j["layers"][0]["pool"] = {{"method", "max"}, {"kernel", {{"w", 1}, {"h", 1}}}};
    CHECK(refusal(j).starts_with("/layers/0/pool | layer \"fc1\" reads 16 batches of \"x\" (n): a pool post-op"));
  }
  {
    json j = base;
    j["config"] = "nv_small";
    CHECK(refusal(j).starts_with("/layers/0/input | tensor \"x\" holds 16 batches (n): multi-batch convolution exists "
                                 "on nv_full only; nv_small has no batch mode"));
  }
  {
    json j = base;
    j["tensors"][0]["n"] = 33;
    CHECK(refusal(j) == "/tensors/0/n | 33 is out of range [1, 32]");
  }
}

TEST_CASE("network inception: four branches concatenated by placement equal the concatenation of the reference",
          "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kInception, ref) > 2000);
  // Every branch contributes (not all zero after its ReLU), and the 1x1 over the concatenation too.
  for (const char* t : {"b1", "b2", "b3", "b4", "y"}) {
    INFO(t);
    CHECK(std::count(ref.at(t).v.begin(), ref.at(t).v.end(), 0) < static_cast<long>(ref.at(t).v.size()) * 3 / 4);
    CHECK(std::count(ref.at(t).v.begin(), ref.at(t).v.end(), 127) < static_cast<long>(ref.at(t).v.size()) / 8);
  }
  const LoadedLayer l = load_layer(kInception);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  const auto tensor = [&](const std::string& name) -> const engines::NetTensor& {
    for (const auto& t : n.tensors) {
      if (t.name == name) return t;
    }
    FAIL("no tensor " << name);
    return n.tensors.front();
  };
  // The branches are the concatenated cube's surfaces 0, 1-2, 3 and 4 (8 channels a surface on
  // nv_small), at its strides; nothing else writes into the cube, and no step belongs to the
  // concat (it runs nothing).
  const engines::NetTensor& cat = tensor("cat");
  const uint64_t ss = cat.layout.surface_stride;
  CHECK(ss == 16 * 16 * 8);
  CHECK(tensor("b1").layout.base == cat.layout.base);
  CHECK(tensor("b2").layout.base == cat.layout.base + ss);
  CHECK(tensor("b3").layout.base == cat.layout.base + 3 * ss);
  CHECK(tensor("b4").layout.base == cat.layout.base + 4 * ss);
  CHECK(tensor("b4").c_offset == 32);
  for (const char* b : {"b1", "b2", "b3", "b4"}) {
    CHECK(tensor(b).layout.line_stride == cat.layout.line_stride);
    CHECK(tensor(b).layout.surface_stride == ss);
  }
  CHECK(tensor("b4").layout.base + tensor("b4").bytes == cat.layout.base + cat.bytes);
  CHECK(n.order.size() == 8);  // the hardware layers: every layer but the concat
  for (const auto& st : n.program.steps) {
    CHECK(st.where.find("layer concat (") == std::string::npos);
    const bool in_cat = st.addr >= cat.layout.base && st.addr < cat.layout.base + cat.bytes;
    if (st.op == StepOp::MemLoad) CHECK_FALSE(in_cat);  // no copy into the cube
  }
  CHECK(checks_at_tensors(n) == 8);
  // CBUF reuse (docs/NETWORKS.md "CBUF reuse"): the three 1x1 convolutions over x run one after
  // the other (b3_reduce moved before b2_3x3, which the file lists first), so b1_1x1 and b2_reduce
  // keep x in CBUF (SKIP_DATA_RLS) and b2_reduce and b3_reduce take it from there (DATA_REUSE,
  // fetching nothing); no other layer reuses, and no layer keeps or reuses weights (all differ).
  // CDMA's and CSC's copies agree, and so do the layers' data banks. The values are the
  // reference's (above).
  std::vector<std::string> order;
  for (const int i : n.order) order.push_back(n.layers[static_cast<std::size_t>(i)].name);
  CHECK(order == std::vector<std::string>{"b1_1x1", "b2_reduce", "b3_reduce", "b2_3x3", "b3_5x5", "b4_pool",
                                          "b4_1x1", "mix"});
  namespace gr = dla::golden::regs;
  const auto misc = [&](const std::string& layer, const char* block) {
    std::vector<uint32_t> v;
    for (const auto& st : n.program.steps) {
      if (st.op == StepOp::RegWrite && st.reg->block == block &&
          (st.reg->name == "D_MISC_CFG" || st.reg->name == "D_BANK") &&
          st.where.find("layer " + layer + " (") != std::string::npos) {
        v.push_back(st.value);
      }
    }
    return v;  // D_MISC_CFG then D_BANK (one hardware layer)
  };
  for (const char* layer : {"b1_1x1", "b2_reduce", "b2_3x3", "b3_reduce", "b3_5x5", "b4_1x1", "mix"}) {
    INFO(layer);
    const std::vector<uint32_t> cdma = misc(layer, "CDMA");
    REQUIRE(cdma.size() == 2);
    CHECK(misc(layer, "CSC") == cdma);
    const std::string name = layer;
    CHECK(gr::field(cdma[0], gr::cdma::D_MISC_CFG::SKIP_DATA_RLS{}) ==
          (name == "b1_1x1" || name == "b2_reduce" ? 1u : 0u));
    CHECK(gr::field(cdma[0], gr::cdma::D_MISC_CFG::DATA_REUSE{}) ==
          (name == "b2_reduce" || name == "b3_reduce" ? 1u : 0u));
    CHECK(gr::field(cdma[0], gr::cdma::D_MISC_CFG::WEIGHT_REUSE{}) == 0);
    CHECK(gr::field(cdma[0], gr::cdma::D_MISC_CFG::SKIP_WEIGHT_RLS{}) == 0);
  }
  for (const char* layer : {"b2_reduce", "b3_reduce"}) {
    CHECK(gr::field(misc("b1_1x1", "CDMA")[1], gr::cdma::D_BANK::DATA_BANK{}) ==
          gr::field(misc(layer, "CDMA")[1], gr::cdma::D_BANK::DATA_BANK{}));
  }
}

TEST_CASE("network yolo_tiny: leaky ReLU through the SDP LUT down to 13x13 equals the reference", "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kYolo, ref) > 2000);
  const Ref& c3 = ref.at("c3");
  CHECK(c3.w == 13);
  CHECK(c3.h == 13);
  for (const std::string t : {"p1", "c2", "c3", "det"}) {
    INFO(t);
    const auto& v = ref.at(t).v;
    // (p1 is max-pooled: a negative survives only where its whole window is negative)
    CHECK(std::count_if(v.begin(), v.end(), [](int64_t x) { return x < 0; }) >
          static_cast<long>(v.size()) / (t == "p1" ? 50 : 10));
    CHECK(std::count_if(v.begin(), v.end(), [](int64_t x) { return x > 0; }) > static_cast<long>(v.size()) / 10);
    CHECK(std::count_if(v.begin(), v.end(), [](int64_t x) { return x == 127 || x == -128; }) <
          static_cast<long>(v.size()) / 10);
  }
  // What reaches conv2's LUT covers its four regions: underflow (x <= -1024, extrapolated with
  // slope 1/8), hits below and above 0, overflow (x >= 1024, slope 1).
  const LoadedLayer l = load_layer(kYolo);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  Activation raw;
  raw.raw = true;
  const Ref x = conv(ref.at("p1"), n.layers[1].weights, 16, 3, 3, 1, 1, 1, 1, 1, 1, 0, raw);
  const auto count = [&](auto pred) { return std::count_if(x.v.begin(), x.v.end(), pred); };
  const long part = static_cast<long>(x.v.size()) / 20;
  CHECK(count([](int64_t v) { return v <= -1024; }) > part);
  CHECK(count([](int64_t v) { return v > -1024 && v < 0; }) > part);
  CHECK(count([](int64_t v) { return v >= 0 && v < 1024; }) > part);
  CHECK(count([](int64_t v) { return v >= 1024; }) > part);
  // Each LUT layer programs the LUT, so its setup is not moved under the previous layer.
  for (const auto& L : n.layers) {
    INFO(L.name);
    if (L.name == "conv2" || L.name == "conv3") CHECK_FALSE(L.overlapped);
    if (L.name == "pool2" || L.name == "head") CHECK(L.overlapped);
  }
}

TEST_CASE("network resnet18_stem: the stem and two basic blocks equal the reference", "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kResnet18, ref) > 10000);
  CHECK(ref.at("stem").w == 28);
  CHECK(ref.at("pool").w == 14);
  for (const std::string t : {"stem", "pool", "l1_1_a", "l1_1_b", "l1_1_out", "l1_2_a", "l1_2_b", "l1_2_out"}) {
    INFO(t);
    const auto& v = ref.at(t).v;
    CHECK(std::count(v.begin(), v.end(), 0) < static_cast<long>(v.size()) * 3 / 4);
    CHECK(std::count_if(v.begin(), v.end(), [](int64_t x) { return x == 127 || x == -128; }) <
          static_cast<long>(v.size()) / 10);
  }
  CHECK(ref.at("l1_1_sum").v != ref.at("l1_1_b").v);  // the residual adds change the values
  CHECK(ref.at("l1_2_sum").v != ref.at("l1_2_b").v);
  // The stem reads its image in image input mode with channel post-extension 2: CDMA
  // D_DATAIN_FORMAT PIXEL (bit 0), CSC D_POST_Y_EXTENSION 1 (E = 2^1).
  const auto conv1_reg = [](const engines::CompiledNetwork& n, const char* block, const char* name) {
    std::optional<uint32_t> v;
    for (const auto& st : n.program.steps) {
      if (st.op == StepOp::RegWrite && st.reg->block == block && st.reg->name == name &&
          st.where.find("layer conv1 (") != std::string::npos) {
        v = st.value;
      }
    }
    return v;
  };
  const LoadedLayer l = load_layer(kResnet18);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  CHECK(conv1_reg(n, "CDMA", "D_DATAIN_FORMAT").value_or(0) % 2 == 1);
  CHECK(conv1_reg(n, "CSC", "D_POST_Y_EXTENSION") == std::optional<uint32_t>(1));
  // The same network with a feature-cube input and "wfold": "auto" instead (the seed's W-fold on
  // the stem, golden only here): the compiler folds W (D_WFOLD non-zero) and every tensor still
  // equals the reference.
  std::ifstream is(kResnet18);
  json j = json::parse(is);
  j["tensors"][0] = {{"name", "image"}, {"w", 56}, {"h", 56}, {"c", 3}, {"precision", "int8"},
                     {"data", {{"random", {{"min", -32}, {"max", 31}}}}}};
  j["layers"][0].erase("post_extension");
  j["layers"][0]["wfold"] = "auto";
  const fs::path f = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_network_resnet18_wfold.json");
  std::ofstream(f) << j.dump(2);
  std::map<std::string, Ref> folded_ref;
  CHECK(check_against_reference(f, folded_ref) > 10000);
  const LoadedLayer lf = load_layer(f);
  CHECK(conv1_reg(engines::compile_network(lf.header, lf.root()), "CDMA", "D_WFOLD").value_or(0) != 0);
  fs::remove(f);
}

TEST_CASE("network decoder: a stride-2 deconvolution concatenated with a skip input equals the reference",
          "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kDecoder, ref) > 5000);
  check_exercised(ref, {"up", "y"});
  // The deconvolution runs as four sub-kernel convolutions then RUBIK (its interrupts), and writes
  // channels 0..31 of the concatenated cube; the skip input was loaded into channels 32..63.
  const LoadedLayer l = load_layer(kDecoder);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::vector<std::string> waits;
  for (const auto& st : n.program.steps) {
    if (st.op == StepOp::WaitIntr && st.where.find("layer upconv (") != std::string::npos && st.intr.rfind("SDP", 0) != 0 &&
        st.intr.rfind("CDMA", 0) != 0 && st.intr.rfind("CACC", 0) != 0) {
      waits.push_back(st.intr);
    }
  }
  CHECK(waits == std::vector<std::string>{"RUBIK_0"});
  CHECK(n.tensors[2].name == "up");
  CHECK(n.tensors[2].layout.base == n.tensors[3].layout.base);
  CHECK(n.tensors[1].layout.base == n.tensors[3].layout.base + n.tensors[3].layout.surface_stride);
  CHECK(n.layers[0].macs == 32ull * 32 * 16 * 64);
}

TEST_CASE("network dense_block: a BDMA copy places a concatenation inside the next one, equal to the reference",
          "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kDense, ref) > 4000);
  check_exercised(ref, {"y1", "y2", "out"});
  // cat2's first 64 channels are cat1's values (x then y1), its last 32 y2's.
  const Ref& cat1 = ref.at("cat1");
  const Ref& cat2 = ref.at("cat2");
  REQUIRE(cat2.v.size() == 96u * 144u);
  CHECK(std::equal(cat1.v.begin(), cat1.v.end(), cat2.v.begin()));
  // Placement: x and y1 are cat1's slices, cat1_copy and y2 cat2's; the copy is one BDMA command
  // from cat1 to cat2's base, by hand: a line of 12 atoms of 32 bytes (CFG_LINE 384 / 32 - 1 = 11),
  // 12 lines (LINE_REPEAT 11), 64 / 32 = 2 surfaces (SURF_REPEAT 1), line strides 384, surface
  // strides 12 x 384 = 4608; launched in group 0 and waited for on BDMA_0.
  const LoadedLayer l = load_layer(kDense);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  std::map<std::string, const engines::NetTensor*> t;
  for (const engines::NetTensor& x : n.tensors) t[x.name] = &x;
  CHECK(t["x"]->layout.base == t["cat1"]->layout.base);
  CHECK(t["y1"]->layout.base == t["cat1"]->layout.base + 4608);
  CHECK(t["cat1_copy"]->layout.base == t["cat2"]->layout.base);
  CHECK(t["y2"]->layout.base == t["cat2"]->layout.base + 2 * 4608);
  std::map<std::string, std::vector<uint32_t>> bdma;
  std::vector<std::string> waits;
  for (const ProgramStep& st : n.program.steps) {
    if (st.op == StepOp::RegWrite && st.reg->block == "BDMA") bdma[st.reg->name].push_back(st.value);
    if (st.op == StepOp::WaitIntr && st.where.find("layer copy1 (") != std::string::npos) waits.push_back(st.intr);
  }
  const auto lo = [](uint64_t a) { return static_cast<uint32_t>(a); };
  CHECK(bdma["CFG_SRC_ADDR_LOW"] == std::vector<uint32_t>{lo(t["cat1"]->layout.base)});
  CHECK(bdma["CFG_DST_ADDR_LOW"] == std::vector<uint32_t>{lo(t["cat2"]->layout.base)});
  CHECK(bdma["CFG_LINE"] == std::vector<uint32_t>{11});
  CHECK(bdma["CFG_LINE_REPEAT"] == std::vector<uint32_t>{11});
  CHECK(bdma["CFG_SURF_REPEAT"] == std::vector<uint32_t>{1});
  CHECK(bdma["CFG_SRC_LINE"] == std::vector<uint32_t>{384});
  CHECK(bdma["CFG_DST_LINE"] == std::vector<uint32_t>{384});
  CHECK(bdma["CFG_SRC_SURF"] == std::vector<uint32_t>{4608});
  CHECK(bdma["CFG_DST_SURF"] == std::vector<uint32_t>{4608});
  CHECK(bdma["CFG_OP"] == std::vector<uint32_t>{1});
  CHECK(bdma["CFG_LAUNCH0"] == std::vector<uint32_t>{1});
  CHECK(bdma["CFG_LAUNCH1"].empty());
  CHECK(waits == std::vector<std::string>{"BDMA_0"});
}

TEST_CASE("network files: bdma copy refusals name the JSON pointer and the rule", "[network]") {
  std::ifstream in(kDense);
  const json base = json::parse(in);
  CHECK(refusal(base) == "accepted");
  {
    json j = base;  // BDMA exists on nv_full only
    j["config"] = "nv_small";
    CHECK(refusal(j) == "/layers/2/op | nv_small has no BDMA block, which a bdma layer needs");
  }
  {
    json j = base;  // a copy keeps the shape
    j["tensors"][3]["c"] = 32;
    j["tensors"][5]["c"] = 64;
    CHECK(refusal(j).starts_with("/layers/2/output | layer \"copy1\" (bdma) computes 12 x 12 x 64 (W x H x C), but "
                                 "tensor \"cat1_copy\" is declared 12 x 12 x 32"));
  }
  {
    json j = base;  // nothing to choose
    j["layers"][2]["stride"] = {{"x", 2}};
    CHECK(refusal(j).starts_with("/layers/2/stride | unknown key \"stride\" in a bdma layer"));
  }
  {
    json j = base;  // a copy of a copy chain is fine; a copy of itself is not
    j["layers"][2]["output"] = "cat1";
    CHECK(refusal(j) == "/layers/2/output | a layer cannot write the tensor it reads (in place)");
  }
}

TEST_CASE("network alexnet_lrn: convolutions and LRN on CDP and max pooling equal the reference", "[network]") {
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kAlexnet, ref) > 3000);
  check_exercised(ref, {"c1", "n1", "p1", "c2", "n2", "p2"});
  // The LRN changes values (it normalizes: |n| <= |c|, smaller where the window's energy is high).
  const Ref& c2 = ref.at("c2");
  const Ref& n2 = ref.at("n2");
  std::size_t changed = 0;
  for (std::size_t i = 0; i < c2.v.size(); ++i) {
    CHECK(std::abs(n2.v[i]) <= std::abs(c2.v[i]));
    changed += n2.v[i] != c2.v[i] ? 1 : 0;
  }
  CHECK(changed > c2.v.size() / 10);
}

TEST_CASE("network rubik: a 1x1 convolution to 4 x 32 channels then RUBIK CONTRACT equals depth-to-space",
          "[network]") {
  std::ifstream in(kContract);
  const json j = json::parse(in);
  std::map<std::string, Ref> ref;
  CHECK(check_against_reference(kContract, ref) > 1000);
  {
    json b = j;  // sub-cubes of 16 channels: not the packed tensor's layout
    b["tensors"][1]["c"] = 64;
    b["tensors"][2]["c"] = 16;
    b["layers"][0]["weights"]["k"] = 64;
    CHECK(refusal(b) == "/layers/1/input | each sub-cube of \"s\" has 16 channels, not a multiple of 32 (the atom's): "
                        "RUBIK reads sub-cubes whole surfaces apart, so the packed tensor would not be their layout");
  }
  {
    json b = j;
    b["layers"][1]["mode"] = "split";
    CHECK(refusal(b).starts_with("/layers/1/mode | only \"contract\" runs in a network"));
  }
}

TEST_CASE("network lenet5: one program, each layer programmed into the other groups while the previous runs",
          "[network]") {
  const LoadedLayer l = load_layer(kLenet);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  REQUIRE(n.pingpong);
  const auto& steps = n.program.steps;
  // Index of the first step of layer `name` matching `pred`.
  const auto first = [&](const std::string& name, auto pred) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].where.find("layer " + name + " (") != std::string::npos && pred(steps[i])) return i;
    }
    FAIL("no such step of " << name);
    return steps.size();
  };
  const auto is_wait = [](const ProgramStep& s) { return s.op == StepOp::WaitIntr; };
  const auto is_write = [](const ProgramStep& s) { return s.op == StepOp::RegWrite; };
  const auto is_enable = [](const ProgramStep& s) { return s.op == StepOp::RegWrite && s.reg->name == "D_OP_ENABLE"; };
  const auto is_check = [](const ProgramStep& s) { return s.op == StepOp::Check; };
  const std::vector<std::string> order = {"conv1", "pool1", "conv2", "pool2", "fc1", "fc2", "fc3"};
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    INFO(order[k] << " -> " << order[k + 1]);
    // N+1's registers before N's done interrupts; N+1 launched after them; N's output checked.
    CHECK(first(order[k + 1], is_write) < first(order[k], is_wait));
    CHECK(first(order[k + 1], is_enable) > first(order[k], is_wait));
    CHECK(first(order[k], is_check) < first(order[k + 1], is_enable));
  }
  // Groups: conv1 runs in group 0, conv2 (the conv pipeline's second layer) in group 1, fc1 in 0.
  const auto waits_of = [&](const std::string& name) {
    std::vector<std::string> out;
    for (const auto& s : steps) {
      if (s.op == StepOp::WaitIntr && s.where.find("layer " + name + " (") != std::string::npos) out.push_back(s.intr);
    }
    return out;
  };
  CHECK(waits_of("conv1") == std::vector<std::string>{"CDMA_DAT_0", "CDMA_WT_0", "CACC_0", "SDP_0"});
  CHECK(waits_of("pool1") == std::vector<std::string>{"PDP_0"});
  CHECK(waits_of("conv2") == std::vector<std::string>{"CDMA_DAT_1", "CDMA_WT_1", "CACC_1", "SDP_1"});
  CHECK(waits_of("pool2") == std::vector<std::string>{"PDP_1"});
  CHECK(waits_of("fc1") == std::vector<std::string>{"CDMA_DAT_0", "CDMA_WT_0", "CACC_0", "SDP_0"});
  CHECK(checks_at_tensors(n) == 7);  // every layer's output checked once, at its tensor
}

TEST_CASE("network lenet5: the sequential schedule programs each layer after the previous one's interrupts",
          "[network]") {
  json j = lenet_json();
  j["schedule"] = "sequential";
  const auto f = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_network_seq.json");
  std::ofstream(f) << j.dump();
  const LoadedLayer l = load_layer(f);
  const engines::CompiledNetwork n = engines::compile_network(l.header, l.root());
  fs::remove(f);
  CHECK_FALSE(n.pingpong);
  std::size_t last_wait = 0;
  for (std::size_t i = 0; i < n.program.steps.size(); ++i) {
    const auto& s = n.program.steps[i];
    if (s.where.find("layer pool1 (") != std::string::npos && s.op == StepOp::RegWrite) {
      CHECK(i > last_wait);
      break;
    }
    if (s.op == StepOp::WaitIntr) last_wait = i;
  }
  for (const auto& L : n.layers) CHECK_FALSE(L.overlapped);
}

TEST_CASE("network files: each concat refusal names the JSON pointer and the rule", "[network]") {
  std::ifstream in(kInception);
  const json base = json::parse(in);
  CHECK(refusal(base) == "accepted");
  {
    json j = base;  // b2 with 12 channels: b3 would start inside surface 2
    j["tensors"][3]["c"] = 12;
    j["tensors"][8]["c"] = 32;
    j["layers"][2]["weights"]["k"] = 12;
    CHECK(refusal(j) == "/layers/7/inputs/1 | branch \"b2\" has 12 channels, not a multiple of 8 (nv_small's 8-byte "
                        "atom of int8): the next branch \"b3\" would start at channel 20 of \"cat\", inside an atom "
                        "surface (concat by placement writes each branch as whole surfaces; only the last branch may "
                        "end inside one)");
  }
  {
    json j = base;
    j["tensors"][8]["c"] = 40;
    CHECK(refusal(j) == "/layers/7/output | the branches hold 36 channels, but tensor \"cat\" is declared with 40");
  }
  {
    json j = base;  // a branch of another width
    j["tensors"][1]["w"] = 15;
    CHECK(refusal(j).starts_with("/layers/7/inputs/0 | branch \"b1\" is 15 x 16 x 8 int8, but the concat's output "
                                 "\"cat\" is 16 x 16 x 36 int8"));
  }
  {
    json j = base;  // b1 in two concats
    j["tensors"].push_back({{"name", "cat2"}, {"w", 16}, {"h", 16}, {"c", 16}});
    j["layers"].push_back({{"name", "concat2"}, {"op", "concat"}, {"inputs", {"b1", "x"}}, {"output", "cat2"}});
    CHECK(refusal(j).starts_with("/layers/9/inputs/0 | tensor \"b1\" is already placed in \"cat\" at channel 0"));
  }
  {
    json j = base;
    j["layers"][7]["inputs"] = {"b1"};
    CHECK(refusal(j) == "/layers/7/inputs | must be an array of at least two tensor names (the branches)");
  }
  {
    json j = base;
    j["layers"][7]["input"] = "b1";
    CHECK(refusal(j).starts_with("/layers/7/input | unknown key \"input\" in a concat layer"));
  }
}

TEST_CASE("network files: each refusal names the JSON pointer and the rule", "[network]") {
  const json base = lenet_json();
  CHECK(refusal(base) == "accepted");
  {
    json j = base;
    j["layers"][1]["input"] = "nope";
    CHECK(refusal(j) == "/layers/1/input | unknown tensor \"nope\" (the network declares image, c1, p1, c2, p2, f1, "
                        "f2 and logits)");
  }
  {
    json j = base;
    j["tensors"][1]["w"] = 22;
    CHECK(refusal(j) == "/layers/0/output | layer \"conv1\" (conv) computes 24 x 24 x 6 (W x H x C), but tensor "
                        "\"c1\" is declared 22 x 24 x 6");
  }
  {
    json j = base;
    j["tensors"][2]["c"] = 5;
    CHECK(refusal(j) == "/layers/1/output | layer \"pool1\" (pdp) computes 12 x 12 x 6 (W x H x C), but tensor "
                        "\"p1\" is declared 12 x 12 x 5");
  }
  {
    json j = base;  // conv1 reads p1, which pool1 computes from conv1's c1
    j["layers"][0]["input"] = "p1";
    CHECK(refusal(j).starts_with("/layers/0/input | the layers conv1 and pool1 form a cycle (each waits"));
  }
  {
    json j = base;
    j["memory"] = {{"bytes", 4096}};  // the image is not a feature tensor: c1 comes first
    CHECK(refusal(j).starts_with("/tensors/1 | tensor \"c1\" (24 x 24 x 6 int8) needs 4608 bytes at 0x10000000, "
                                 "beyond the network's memory of 4096 bytes"));
  }
  {
    json j = base;  // the weights do not fit either
    j["memory"] = {{"bytes", 20000}};
    CHECK(refusal(j).starts_with("/layers/4/weights | layer \"fc1\"'s constants"));
  }
  {
    json j = base;
    j["tensors"][0]["precision"] = "int16";
    CHECK(refusal(j) == "/tensors/0/precision | nv_small has no int16 (int16 and fp16 only on nv_full)");
  }
  {
    json j = base;
    j["tensors"][0]["precision"] = "fp16";
    CHECK(refusal(j) == "/tensors/0/precision | nv_small has no fp16 (int16 and fp16 only on nv_full)");
  }
  {
    json j = base;  // an image is read in image input mode: by a conv layer only
    j["layers"][1]["input"] = "image";
    CHECK(refusal(j) == "/layers/1/input | \"image\" is an image (T_R8): only a conv layer reads it (CDMA's image "
                        "input mode), not a pdp layer");
  }
  {
    json j = base;  // an image has one reader (its planes are loaded with it)
    j["layers"][2]["input"] = "image";
    CHECK(refusal(j).starts_with("/layers/2/input | image \"image\" is read by a second layer"));
  }
  {
    json j = base;  // a layer writes feature cubes, never an image
    j["tensors"][1]["format"] = "T_R8";
    CHECK(refusal(j).starts_with("/tensors/1/format | tensor \"c1\" is written by layer \"conv1\": an image is a "
                                 "network input"));
  }
  {
    json j = base;  // an op the configuration lacks: Winograd is nv_full's
    j["layers"][2]["mode"] = "winograd";
    CHECK(refusal(j).starts_with("/layers/2/mode | layer \"conv2\" (conv): Winograd"));
  }
  {
    json j = base;
    j["layers"][0]["op"] = "dma";
    CHECK(refusal(j) == "/layers/0/op | \"dma\" is not an op of network layers: conv, deconv, sdp, pdp, cdp, rubik, "
                        "bdma or concat");
  }
  {
    json j = base;  // RUBIK is nv_full's
    j["layers"][0]["op"] = "deconv";
    CHECK(refusal(j) == "/layers/0/op | nv_small has no RBK block, which a deconv layer needs");
  }
  {
    std::ifstream in(kDecoder);
    json j = json::parse(in);  // W' = 17: RUBIK's grid is 18 columns wide, the tensor packed
    j["layers"][0]["crop"]["right"] = 0;
    j["layers"][0]["crop"]["bottom"] = 0;
    j["layers"] = json::array({j["layers"][0]});
    j["tensors"] = {j["tensors"][0], j["tensors"][2]};
    j["tensors"][1]["w"] = 17;
    j["tensors"][1]["h"] = 17;
    CHECK(refusal(j) == "/layers/0/output | layer \"upconv\" (deconv) writes its 17 x 17 output in RUBIK's grid (line "
                        "stride 576, surface stride 10368), and tensor \"up\" is packed (line stride 544, surface stride "
                        "9248): W' and H' must be multiples of the stride");
  }
  {
    json j = base;
    j["layers"][1]["op"] = "rubik";
    j["layers"][1].erase("pool");
    CHECK(refusal(j) == "/layers/1/op | nv_small has no RBK block, which a rubik layer needs");
  }
  {
    json j = base;
    j["tensors"][1]["data"] = {{"constant", 1}};
    CHECK(refusal(j) == "/tensors/1/data | tensor \"c1\" is written by layer \"conv1\"; only network inputs take data");
  }
  {
    json j = base;
    j["tensors"][0].erase("data");
    CHECK(refusal(j) == "/tensors/0 | tensor \"image\" is written by no layer, so it is a network input and needs "
                        "\"data\"");
  }
  {
    json j = base;
    j["layers"][1]["output"] = "c2";
    CHECK(refusal(j) == "/layers/2/output | tensor \"c2\" is already written by layer \"pool1\"");
  }
  {
    json j = base;
    j["layers"][0]["weights"]["r"] = 40;
    CHECK(refusal(j) == "/layers/0/weights/r | 40 is out of range [1, 32]");
  }
  {
    json j = base;
    j["layers"][0]["clip"] = 17;
    CHECK(refusal(j) == "/layers/0/clip | layer \"conv1\" (conv): 17 is out of range [0, 16]");
  }
  {
    json j = base;
    j["layers"][0]["stride"] = {{"x", 2}};
    CHECK(refusal(j).starts_with("/layers/0/output | layer \"conv1\" (conv) computes 12 x 24 x 6"));
  }
  {
    json j = base;
    j["layers"][0]["colour"] = 1;
    CHECK(refusal(j).starts_with("/layers/0/colour | unknown key \"colour\" in a conv layer"));
  }
  {
    json j = base;
    j["tensors"][3]["name"] = "c1";
    CHECK(refusal(j) == "/tensors/3/name | tensor \"c1\" is declared twice (first at /tensors/1)");
  }
}

TEST_CASE("random network layers reuse CBUF data and are judged by every layer's int64 reference", "[network][random]") {
  // Generated networks (dlacosim random network, seed 1) run on the golden model: each equals the
  // reference of every layer (pdp and cdp layers among them), each takes x from CBUF at least once
  // (branches - 1 times), and a corrupted output element is caught and named at its layer.
  int reuse_layers = 0, chained = 0, int16 = 0, pools = 0, lrns = 0;
  for (const std::string cfg : {"nv_small", "nv_large", "nv_full"}) {
    for (uint64_t i = 0; i < 8; ++i) {
      const RandomLayer g = generate_random_layer("network", *dla::golden::find_config(cfg), 1, i);
      INFO(g.name << ": " << g.features);
      const auto jd = parse_json_text(g.name + ".json", g.doc.dump());
      const JsonNode root = JsonNode::root(jd);
      const engines::CompiledNetwork n = engines::compile_network(layer_header(g, jd->file), root);
      int reuses = 0;
      for (const ProgramStep& st : n.program.steps) {
        if (st.op == StepOp::RegWrite && st.reg->block == "CDMA" && st.reg->name == "D_MISC_CFG" &&
            dla::golden::regs::field(st.value, dla::golden::regs::cdma::D_MISC_CFG::DATA_REUSE{}) != 0) {
          ++reuses;
        }
      }
      const auto named = [&](const char* name) {
        return std::any_of(g.doc["layers"].begin(), g.doc["layers"].end(), [&](const auto& l) { return l["name"] == name; });
      };
      const bool chain = named("chain");
      const int branches = static_cast<int>(std::count_if(g.doc["layers"].begin(), g.doc["layers"].end(),
                                                          [](const auto& l) { return l["op"] == "conv"; })) -
                           (chain ? 1 : 0);
      pools += named("pool") ? 1 : 0;
      lrns += named("lrn") ? 1 : 0;
      CHECK(reuses == branches - 1);
      reuse_layers += reuses;
      chained += chain ? 1 : 0;
      int16 += g.doc["tensors"][0]["precision"] == "int16" ? 1 : 0;
      GoldenDevice gold(*dla::golden::find_config(cfg));
      REQUIRE(run_program(n.program, &gold, nullptr, {}).status == Status::Pass);
      CHECK(network_reference_diff(g, root, gold.memory()) == "");
      const engines::NetTensor& last = n.tensors.back();
      gold.memory().write(last.layout.base, static_cast<uint8_t>(gold.memory().read(last.layout.base) ^ 0x40));
      CHECK_THAT(network_reference_diff(g, root, gold.memory()),
                 Catch::Contains("layer " + g.doc["layers"].back()["name"].get<std::string>() + ": 1 of"));
    }
  }
  CHECK(reuse_layers >= 24);
  CHECK(chained >= 1);
  CHECK(int16 >= 1);
  CHECK(pools >= 3);
  CHECK(lrns >= 3);
}
