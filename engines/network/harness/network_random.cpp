// `random network` (docs/RANDOM.md "network"): small networks of convolutions over one input
// tensor -- 2 to 4 branches reading it (so the compiler's CBUF data reuse applies between
// branches that follow each other, docs/NETWORKS.md "CBUF reuse"), sometimes a convolution
// chained on the first branch -- each with its own kernel, padding, stride, dilation, clip and
// ReLU, int8 (int16 on nv_full too), ping-pong or sequential; sometimes a pooling (PDP) and an
// LRN (CDP) layer reading any of the network's tensors. Judged by the int64 reference of every
// layer (conv, pdp, cdp: engines/*/harness/*_reference.hpp), each from its input's values: the
// network input's, or the reference output of the layer that wrote it. With --focus fp16
// (nv_full) every tensor is fp16 (NaNs, infinities, denormals among the data), each conv with a
// bias from memory and ReLU or neither, some pooled on the fly, the PDP and CDP layers with fp16
// pad values and float LUTs: on the RTL against golden (the int64 reference has no fp16), NVIDIA's
// C model with --judge cmod.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "golden/config.hpp"
#include "engines/cdp/harness/cdp_random.hpp"
#include "engines/cdp/harness/cdp_reference.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "engines/conv/harness/conv_reference.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/pdp/harness/pdp_reference.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "engines/network/harness/network.hpp"
#include "engines/network/harness/network_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

struct Pick {
  Rng& r;
  int i(int lo, int hi) { return static_cast<int>(r.range(lo, hi)); }
  bool chance(double p) { return r.chance(p); }
  int log_i(int lo, int hi) { return static_cast<int>(r.log_range(lo, hi)); }
};

// A convolution's output extent, 0 when the dilated kernel does not fit.
int out_extent(int in, int pad, int k, int stride, int dil) {
  const int span = (k - 1) * dil + 1;
  return in + 2 * pad < span ? 0 : (in + 2 * pad - span) / stride + 1;
}

// A pad on both sides, below the dilated kernel's extent (NVDLA's rule), mostly none.
int draw_pad(Pick& d, int k, int dil) { return d.chance(0.4) ? 0 : d.i(0, std::min(31, (k - 1) * dil)); }

struct Tensor {
  std::string name;
  int w, h, c;
};

// One conv layer over `in` drawn into the doc's layers (and its output tensor into tensors).
Tensor draw_conv(Pick& d, const golden::HwConfig& hw, golden::Precision prec, const Tensor& in, const std::string& name,
                 ojson& tensors, ojson& layers) {
  const int ak = hw.atomic_k(prec);
  const bool fp16 = prec == golden::Precision::Fp16;
  const char* prec_name = golden::precision_name(prec).data();
  for (;;) {
    const int r = d.chance(0.3) ? 1 : d.chance(0.5) ? 3 : d.i(2, 5);
    const int s = d.chance(0.7) ? r : d.i(1, 5);
    const int stride = d.chance(0.7) ? 1 : 2;
    const int dil = d.chance(0.85) ? 1 : 2;
    const int px = draw_pad(d, s, dil), py = draw_pad(d, r, dil);
    const int ow = out_extent(in.w, px, s, stride, dil), oh = out_extent(in.h, py, r, stride, dil);
    if (ow < 1 || oh < 1) continue;
    const int k = d.chance(0.6) ? d.i(1, ak + 3) : d.log_i(1, 2 * ak + 5);
    Tensor out{name + "_out", ow, oh, k};
    const ojson weights = fp16 ? ojson{{"random", {{"min", -1.0}, {"max", 1.0}, {"specials", 0.002}}}}
                               : ojson{{"random", {{"min", -40}, {"max", 40}}}};
    ojson L{{"name", name},
            {"op", "conv"},
            {"input", in.name},
            {"output", out.name},
            {"weights", {{"k", k}, {"r", r}, {"s", s}, {"data", weights}}}};
    if (px != 0 || py != 0) L["padding"] = ojson{{"left", px}, {"right", px}, {"top", py}, {"bottom", py}};
    if (stride != 1) L["stride"] = ojson{{"x", stride}, {"y", stride}};
    if (dil != 1) L["dilation"] = ojson{{"x", dil}, {"y", dil}};
    if (!fp16) L["clip"] = prec == golden::Precision::Int16 ? d.i(6, 14) : d.i(3, 9);  // CACC has no clip in fp16
    if (fp16 && d.chance(0.6)) {
      L["bs"] = ojson{{"alu", {{"algo", "sum"}, {"operand", {{"random", {{"min", -2.0}, {"max", 2.0}}}}}}}};
      if (d.chance(0.5)) L["bs"]["relu"] = true;
    } else if (d.chance(0.5)) {
      L["bs"] = ojson{{"relu", true}};
    }
    // fp16: sometimes pooled on the fly (SDP -> PDP), within PDP's line buffer on every build.
    if (fp16 && ow >= 2 && oh >= 2 && ow <= 16 && d.chance(0.3)) {
      const int kw = d.i(1, std::min(3, ow)), kh = d.i(1, std::min(3, oh));
      static constexpr std::array<const char*, 3> kMethods = {"max", "min", "average"};
      L["pool"] = ojson{{"method", kMethods[static_cast<std::size_t>(d.i(0, 2))]},
                        {"kernel", {{"w", kw}, {"h", kh}}},
                        {"stride", {{"w", kw}, {"h", kh}}}};
      out.w = (ow - kw) / kw + 1;
      out.h = (oh - kh) / kh + 1;
      if ((ow - kw) % kw != 0 || (oh - kh) % kh != 0) {  // W - kernel a multiple of the stride
        L["pool"]["stride"] = ojson{{"w", 1}, {"h", 1}};
        out.w = ow - kw + 1;
        out.h = oh - kh + 1;
      }
    }
    tensors.push_back(ojson{{"name", out.name}, {"w", out.w}, {"h", out.h}, {"c", k}, {"precision", prec_name}});
    layers.push_back(std::move(L));
    return out;
  }
}

// Whether the unit's compiler takes a pdp / cdp layer with `keys` over `in` alone (the network's
// compile would refuse what it refuses): the LUT builder refuses some drawn placements, as in
// `random cdp`, which draws again.
bool unit_compiles(RandomLayer U, const char* unit, golden::Precision prec, const Tensor& in, const ojson& keys,
                   Program (*compile)(const LayerHeader&, const JsonNode&)) {
  U.unit = unit;
  ojson doc = random_layer_doc(U, in.w, in.h, in.c);
  doc["input"] = ojson{{"precision", golden::precision_name(prec)}, {"data", {{"random", ojson::object()}}}};
  for (const auto& [key, value] : keys.items()) {
    if (key != "name" && key != "op" && key != "input" && key != "output") doc[key] = value;
  }
  doc["output"] = ojson::object();
  return random_layer_compiles(U, doc, compile);
}

// A pooling layer over `in` from memory (PDP): every method, kernels 1..8, strides up to 16 (8 for
// `random loadable`; mostly within the kernel), pads below the kernel (at most 7) with a pad value over the element
// range. W + pads - kernel is a multiple of the stride (NVDLA's rule; the right pad makes it so),
// H is free.
Tensor draw_pdp(Pick& d, const RandomLayer& net, golden::Precision prec, const Tensor& in, ojson& tensors, ojson& layers,
                std::string& feat) {
  const int64_t vmax = prec == golden::Precision::Int16 ? 32767 : 127;
  for (;;) {
    static constexpr std::array<const char*, 3> kMethods = {"average", "max", "min"};
    const char* method = kMethods[static_cast<std::size_t>(d.i(0, 2))];
    const int kw = d.i(1, 8), kh = d.i(1, 8);
    // Strides up to 16 (NVDLA's fields); 8 in a loadable's networks, where NVIDIA's firmware stops.
    const int smax = net.unit == "loadable" ? 8 : 16;
    const int sw = d.chance(0.8) ? d.i(1, kw) : d.i(1, smax), sh = d.chance(0.8) ? d.i(1, kh) : d.i(1, smax);
    const auto pad = [&](int k) { return d.chance(0.5) ? 0 : d.i(0, std::min(7, k - 1)); };
    const int pl = pad(kw), pt = pad(kh), pb = pad(kh);
    const int pr = ((sw - (in.w + pl - kw) % sw) % sw + sw) % sw;  // (W + pl + pr - kw) % sw == 0
    if (pr > std::min(7, kw - 1) || in.w + pl + pr < kw || in.h + pt + pb < kh) continue;
    const Tensor out{"pool_out", (in.w + pl + pr - kw) / sw + 1, (in.h + pt + pb - kh) / sh + 1, in.c};
    ojson pool{{"method", method}, {"kernel", {{"w", kw}, {"h", kh}}}, {"stride", {{"w", sw}, {"h", sh}}}};
    ojson p{{"left", pl}, {"right", pr}, {"top", pt}, {"bottom", pb}};
    if (prec == golden::Precision::Fp16) {
      // Any fp16 pad value, except where NVIDIA's C model leaves the result undefined (average,
      // kernel width 8, vertical pads: as `random pdp --focus fp16`).
      static constexpr std::array<const char*, 6> kPads = {"0x8000", "-1.25", "0x7bff", "0x0001", "nan", "inf"};
      if (!(std::string_view(method) == "average" && kw == 8 && pt + pb > 0) && d.chance(0.5)) {
        p["value"] = kPads[static_cast<std::size_t>(d.i(0, 5))];
      }
    } else if (d.chance(0.7)) {
      p["value"] = d.chance(0.2) ? (d.chance(0.5) ? -vmax - 1 : vmax) : d.r.range(-vmax - 1, vmax);
    }
    pool["pad"] = std::move(p);
    const ojson layer{{"name", "pool"}, {"op", "pdp"}, {"input", in.name}, {"output", out.name}, {"pool", pool}};
    if (!unit_compiles(net, "pdp", prec, in, layer, &engines::compile_pdp_layer)) continue;
    tensors.push_back(ojson{{"name", out.name}, {"w", out.w}, {"h", out.h}, {"c", out.c},
                            {"precision", golden::precision_name(prec)}});
    layers.push_back(layer);
    feat += fmt::format(", pdp {} k{}x{} s{}x{} pad L{}R{}T{}B{} on {}", method, kw, kh, sw, sh, pl, pr, pt, pb, in.name);
    return out;
  }
}

// An LRN layer over `in` (CDP) as `random cdp` draws one, for data within +-data_max.
Tensor draw_cdp(Rng& rng, const RandomLayer& net, golden::Precision prec, const Tensor& in, int64_t data_max,
                ojson& tensors, ojson& layers, std::string& feat) {
  const Tensor out{"lrn_out", in.w, in.h, in.c};
  ojson L;
  std::string what;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 64) throw std::logic_error("network generator: no LRN layer the cdp compiler takes in 64 draws");
    L = ojson{{"name", "lrn"}, {"op", "cdp"}, {"input", in.name}, {"output", out.name}};
    what.clear();
    draw_cdp_lrn(rng, prec, in.c, data_max, L, what);
    if (unit_compiles(net, "cdp", prec, in, L, &engines::compile_cdp_layer)) break;
  }
  tensors.push_back(ojson{{"name", out.name}, {"w", out.w}, {"h", out.h}, {"c", out.c},
                          {"precision", golden::precision_name(prec)}});
  layers.push_back(std::move(L));
  feat += fmt::format(", cdp {} on {}", what, in.name);
  return out;
}

// A pdp or cdp layer's output against its reference, both lane-major, on the tensor's C channels
// only: a network's padded lanes hold the gap fill (docs/NETWORKS.md), which PDP carries through
// to its own padded lanes, so those are no values of the tensor (the unit references, whose
// layers load zeros there, compare every lane).
std::string channel_diff(const std::string& name, const std::vector<int64_t>& actual,
                         const std::vector<int64_t>& expected, const engines::NetTensor& t) {
  const std::size_t plane = static_cast<std::size_t>(t.h) * t.w, n = plane * static_cast<std::size_t>(t.c);
  if (actual.size() < n || expected.size() < n) {
    return fmt::format("{}: {} values read, {} expected, the tensor holds {}", name, actual.size(), expected.size(), n);
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (actual[i] != expected[i] && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  return fmt::format("{}: {} of {} values differ; first at c {} y {} x {}: {} (reference {})", name, bad, n,
                     first / plane, first % plane / t.w, first % t.w, actual[first], expected[first]);
}

// A network layer as the unit layer document its int64 reference reads: the layer's keys, its
// input's values and (conv) its resolved weights inline, its output where the network put it.
ojson unit_doc(const nlohmann::json& layer, const golden::HwConfig& hw, bool int16, const Tensor& in,
               const std::vector<int64_t>& in_values, const std::vector<int64_t>& weights,
               const golden::FeatureLayout& out) {
  const char* prec = int16 ? "int16" : "int8";
  const std::string op = layer["op"].get<std::string>();
  ojson doc{{"unit", op},
            {"config", hw.name},
            {"input", {{"w", in.w}, {"h", in.h}, {"c", in.c}, {"precision", prec}, {"data", {{"values", in_values}}}}}};
  for (const auto& [key, value] : layer.items()) {
    if (key != "name" && key != "op" && key != "input" && key != "output") doc[key] = value;
  }
  if (op == "conv") {
    doc["weights"]["data"] = ojson{{"values", weights}};
    doc["output"] = ojson{{"precision", prec}};  // read at `out` by the caller (conv_ref::read_output)
  } else {
    // pdp and cdp layers give the cube's shape apart from the input's data
    doc["cube"] = ojson{{"w", in.w}, {"h", in.h}, {"c", in.c}};
    doc["input"] = ojson{{"precision", prec}, {"data", {{"values", in_values}}}};
    doc["output"] = ojson{{"base", out.base}, {"line_stride", out.line_stride}, {"surface_stride", out.surface_stride}};
  }
  return doc;
}

}  // namespace

RandomLayer generate_network_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  Pick d{rng};
  const bool fp16 = L.focus == "fp16";
  const bool int16 = !fp16 && hw.int16 && d.chance(0.3);
  const golden::Precision prec = fp16 ? golden::Precision::Fp16 : int16 ? golden::Precision::Int16 : golden::Precision::Int8;
  // fp16 input regimes: small, around 1, large (sums saturate), with NaNs, infinities, denormals.
  static constexpr std::array<double, 3> kFp16Range = {0.0078125, 4.0, 3000.0};  // exact in fp16
  const double range = fp16 ? kFp16Range[static_cast<std::size_t>(d.i(0, 2))] : 0.0;  // int draws unchanged
  const ojson in_data = fp16 ? ojson{{"random", {{"min", -range}, {"max", range}, {"specials", 0.02}}}}
                             : ojson{{"random", {{"min", -40}, {"max", 40}}}};
  const int ac = hw.atomic_c;
  const Tensor x{"x", d.log_i(1, 20), d.log_i(1, 20), d.chance(0.6) ? d.i(1, ac + 3) : d.log_i(1, 2 * ac + 5)};
  ojson tensors = ojson::array();
  ojson layers = ojson::array();
  tensors.push_back(ojson{{"name", x.name},
                          {"w", x.w},
                          {"h", x.h},
                          {"c", x.c},
                          {"precision", golden::precision_name(prec)},
                          {"data", in_data}});
  const int branches = d.i(2, 4);
  std::vector<Tensor> outs;
  for (int b = 0; b < branches; ++b) outs.push_back(draw_conv(d, hw, prec, x, fmt::format("b{}", b), tensors, layers));
  const bool chained = d.chance(0.3);
  if (chained) outs.push_back(draw_conv(d, hw, prec, outs.front(), "chain", tensors, layers));
  const bool sequential = d.chance(0.25);
  // Sometimes a pooling and an LRN layer on any tensor (drawn after the rest, so a seed's
  // convolutions stay what they were before these layers existed).
  std::string post;
  const int64_t conv_max = int16 ? 32767 : 127;  // integer conv outputs span the output precision
  const auto any = [&](int64_t& data_max) -> const Tensor& {
    const int k = d.i(0, static_cast<int>(outs.size()));
    data_max = k == 0 ? 40 : conv_max;
    return k == 0 ? x : outs[static_cast<std::size_t>(k - 1)];
  };
  int64_t data_max = 0;
  const bool pooling = d.chance(0.35);
  if (pooling) (void)draw_pdp(d, L, prec, any(data_max), tensors, layers, post);
  if (d.chance(0.25)) {
    const Tensor& in = any(data_max);
    (void)draw_cdp(rng, L, prec, in, data_max, tensors, layers, post);
    // CDP runs on nvdla_cdp_top beside nvdla_core, which the device pairs with one bandwidth
    // bucket per top: it refuses a run whose two ports together pass a limit (docs/DECONV.md
    // "RTL"), so such a network runs without one (latency stays).
    if (!L.mem.unlimited()) {
      L.mem.bandwidth = 0;
      post += " (no bandwidth limit: two tops)";
    }
  }
  ojson doc{{"unit", "network"},
            {"name", L.name},
            {"config", hw.name},
            {"seed", L.seed},
            {"stall", L.stall},
            {"tensors", tensors},
            {"layers", layers}};
  if (sequential) doc["schedule"] = "sequential";
  // Sometimes automatic fusion (drawn last, so the layers above stay): a pooling layer that alone
  // reads a convolution's output then runs on the fly in it, SDP -> PDP, where PDP can take it
  // (the compiler's trial decides; else both stay layers of their own).
  if (pooling && d.chance(0.5)) doc["fusion"] = "auto";
  L.doc = std::move(doc);
  // How many layers take x from CBUF: the compiled program's DATA_REUSE layers; how many pooling
  // layers the compiler fused.
  int reuses = 0;
  long fused = 0;
  try {
    const auto jd = parse_json_text(L.name + ".json", L.doc.dump());
    const engines::CompiledNetwork n = engines::compile_network(layer_header(L, jd->file), JsonNode::root(jd));
    fused = std::count_if(n.layers.begin(), n.layers.end(), [](const engines::NetLayer& l) { return l.pool_from >= 0; });
    for (const ProgramStep& st : n.program.steps) {
      if (st.op == StepOp::RegWrite && st.reg->block == "CDMA" && st.reg->name == "D_MISC_CFG" &&
          (st.value & (1u << 16)) != 0) {
        ++reuses;
      }
    }
  } catch (const InputError&) {
    // run_random_layer reports the refusal (a generator bug) with the compiler's words
  }
  const auto pooled = fused + std::count_if(L.doc["layers"].begin(), L.doc["layers"].end(),
                                            [](const ojson& l) { return l["op"] == "conv" && l.contains("pool"); });
  L.features = fmt::format("{}{} input {}x{}x{}, {} branch(es){}, data-reuse {}{}{}", golden::precision_name(prec),
                           sequential ? " sequential" : "", x.w, x.h, x.c, branches, chained ? " + chain" : "", reuses,
                           pooled > 0 ? fmt::format(", {} pooled on the fly", pooled) : "", post);
  return L;
}

std::string network_reference_diff(const RandomLayer& L, const JsonNode& root, const Memory& mem,
                                   const std::function<uint64_t(const engines::NetTensor&)>& base_of) {
  const LayerHeader h = layer_header(L, root.file());
  return network_reference_diff(h, root, engines::compile_network(h, root), mem, base_of);
}

std::string network_reference_diff(const LayerHeader& h, const JsonNode& root, const engines::CompiledNetwork& n,
                                   const Memory& mem,
                                   const std::function<uint64_t(const engines::NetTensor&)>& base_of) {
  const nlohmann::json& doc = root.raw();
  const bool int16 = doc["tensors"][0]["precision"] == "int16";
  std::map<std::string, std::pair<Tensor, std::vector<int64_t>>> values;  // tensor -> shape, reference values
  const engines::NetTensor& x = n.tensors.front();
  values[x.name] = {Tensor{x.name, x.w, x.h, x.c}, x.values};
  for (std::size_t i = 0; i < n.layers.size(); ++i) {
    const nlohmann::json& layer = doc["layers"][i];
    const auto& [in, in_values] = values.at(layer["input"].get<std::string>());
    const std::string name = layer["name"].get<std::string>(), op = layer["op"].get<std::string>();
    const engines::NetTensor* out = nullptr;
    for (const engines::NetTensor& t : n.tensors) {
      if (t.name == layer["output"]) out = &t;
    }
    if (out == nullptr) throw std::logic_error("random network: no output tensor " + layer["output"].dump());
    golden::FeatureLayout at = out->layout;
    if (base_of) at.base = base_of(*out);
    const auto jd = parse_json_text(h.name + "-" + name + ".json",
                                    unit_doc(layer, *h.config, int16, in, in_values, n.layers[i].weights, at).dump());
    const JsonNode unit = JsonNode::root(jd);
    std::string diff;
    std::vector<int64_t> expected;  // lane-major: its first C x H x W are the tensor's values, c-major
    if (op == "conv") {
      const conv_ref::Layer ref = conv_ref::read_layer(unit, name, h.seed);
      const conv_ref::Expected e = conv_ref::reference(ref);
      if (const std::string why = conv_ref::not_applicable(ref, e); !why.empty()) {
        // values of +-40 keep every partial sum far below CACC's width: never reached
        return fmt::format("layer {}: the reference cannot judge it: {}", name, why);
      }
      // Pooled on the fly (automatic fusion), the output never reaches memory: the fused pooling
      // layer is judged on it.
      if (!out->elided) diff = conv_ref::diff(conv_ref::read_output(mem, at.base, ref), e.out, ref);
      if (!diff.empty()) diff = fmt::format("{}: {}", name, diff);  // pdp_ref and cdp_ref name the layer
      expected = e.out;
    } else if (op == "pdp") {
      const pdp_ref::Layer ref = pdp_ref::read_layer(unit, name, h.seed);
      expected = pdp_ref::reference(ref);
      diff = channel_diff(name, pdp_ref::read_output(ref, mem), expected, *out);
    } else if (op == "cdp") {
      const cdp_ref::Layer ref = cdp_ref::read_layer(unit, name, h.seed);
      expected = cdp_ref::reference(ref).out;
      diff = channel_diff(name, cdp_ref::read_output(ref, mem), expected, *out);
    } else {
      throw std::logic_error("random network: no reference for op " + op);
    }
    if (!diff.empty()) return "layer " + diff;
    expected.resize(static_cast<std::size_t>(out->c) * out->h * out->w);
    values[out->name] = {Tensor{out->name, out->w, out->h, out->c}, std::move(expected)};
  }
  return "";
}

}  // namespace dla::harness
