// `random network` (docs/RANDOM.md "network"): small networks of convolutions over one input
// tensor -- 2 to 4 branches reading it (so the compiler's CBUF data reuse applies between
// branches that follow each other, docs/NETWORKS.md "CBUF reuse"), sometimes a convolution
// chained on the first branch -- each with its own kernel, padding, stride, dilation, clip and
// ReLU, int8 (int16 on nv_full too), ping-pong or sequential. Judged by the int64 conv reference
// (harness/conv_reference.hpp) of every layer: the branches from the input's values, a chained
// layer from its input branch's reference output. With --focus fp16 (nv_full) every tensor is
// fp16 (NaNs, infinities, denormals among the data), each layer with a bias from memory and ReLU
// or neither, and some pooled on the fly: on the RTL against golden (the int64 reference has no
// fp16), NVIDIA's C model with --judge cmod.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/harness/conv_reference.hpp"
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

// The network's layers as `conv` layer documents for the reference: the layer's keys, its input's
// values and its resolved weights inline.
ojson conv_doc(const ojson& layer, const golden::HwConfig& hw, bool int16, const Tensor& in,
               const std::vector<int64_t>& in_values, const std::vector<int64_t>& weights) {
  const char* prec = int16 ? "int16" : "int8";
  ojson doc{{"unit", "conv"},
            {"config", hw.name},
            {"input", {{"w", in.w}, {"h", in.h}, {"c", in.c}, {"precision", prec}, {"data", {{"values", in_values}}}}},
            {"weights",
             {{"k", layer["weights"]["k"]},
              {"r", layer["weights"]["r"]},
              {"s", layer["weights"]["s"]},
              {"data", {{"values", weights}}}}},
            {"output", {{"precision", prec}}}};
  for (const char* key : {"padding", "stride", "dilation", "clip", "bs"}) {
    if (layer.contains(key)) doc[key] = layer[key];
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
  if (chained) (void)draw_conv(d, hw, prec, outs.front(), "chain", tensors, layers);
  const bool sequential = d.chance(0.25);
  ojson doc{{"unit", "network"},
            {"name", L.name},
            {"config", hw.name},
            {"seed", L.seed},
            {"stall", L.stall},
            {"tensors", tensors},
            {"layers", layers}};
  if (sequential) doc["schedule"] = "sequential";
  L.doc = std::move(doc);
  // How many layers take x from CBUF: the compiled program's DATA_REUSE layers.
  int reuses = 0;
  try {
    const auto jd = parse_json_text(L.name + ".json", L.doc.dump());
    const engines::CompiledNetwork n = engines::compile_network(layer_header(L, jd->file), JsonNode::root(jd));
    for (const ProgramStep& st : n.program.steps) {
      if (st.op == StepOp::RegWrite && st.reg->block == "CDMA" && st.reg->name == "D_MISC_CFG" &&
          (st.value & (1u << 16)) != 0) {
        ++reuses;
      }
    }
  } catch (const InputError&) {
    // run_random_layer reports the refusal (a generator bug) with the compiler's words
  }
  const auto pooled = std::count_if(L.doc["layers"].begin(), L.doc["layers"].end(), [](const ojson& l) { return l.contains("pool"); });
  L.features = fmt::format("{}{} input {}x{}x{}, {} branch(es){}, data-reuse {}{}", golden::precision_name(prec),
                           sequential ? " sequential" : "", x.w, x.h, x.c, branches, chained ? " + chain" : "", reuses,
                           pooled > 0 ? fmt::format(", {} pooled on the fly", pooled) : "");
  return L;
}

std::string network_reference_diff(const RandomLayer& L, const JsonNode& root, const Memory& mem,
                                   const std::function<uint64_t(const engines::NetTensor&)>& base_of) {
  const engines::CompiledNetwork n = engines::compile_network(layer_header(L, root.file()), root);
  const bool int16 = L.doc["tensors"][0]["precision"] == "int16";
  std::map<std::string, std::pair<Tensor, std::vector<int64_t>>> values;  // tensor -> shape, reference values
  const engines::NetTensor& x = n.tensors.front();
  values[x.name] = {Tensor{x.name, x.w, x.h, x.c}, x.values};
  for (std::size_t i = 0; i < n.layers.size(); ++i) {
    const ojson& layer = L.doc["layers"][i];
    const auto& [in, in_values] = values.at(layer["input"].get<std::string>());
    const ojson cd = conv_doc(layer, *L.config, int16, in, in_values, n.layers[i].weights);
    const auto jd = parse_json_text(L.name + "-" + layer["name"].get<std::string>() + ".json", cd.dump());
    const conv_ref::Layer ref = conv_ref::read_layer(JsonNode::root(jd), layer["name"].get<std::string>(), L.seed);
    const conv_ref::Expected e = conv_ref::reference(ref);
    if (const std::string why = conv_ref::not_applicable(ref, e); !why.empty()) {
      // values of +-40 keep every partial sum far below CACC's width: never reached
      return fmt::format("layer {}: the reference cannot judge it: {}", layer["name"].get<std::string>(), why);
    }
    const engines::NetTensor* out = nullptr;
    for (const engines::NetTensor& t : n.tensors) {
      if (t.name == layer["output"]) out = &t;
    }
    if (out == nullptr) throw std::logic_error("random network: no output tensor " + layer["output"].dump());
    if (const std::string diff = conv_ref::diff(conv_ref::read_output(mem, base_of ? base_of(*out) : out->layout.base, ref), e.out, ref);
        !diff.empty()) {
      return fmt::format("layer {}: {}", layer["name"].get<std::string>(), diff);
    }
    values[out->name] = {Tensor{out->name, out->w, out->h, out->c}, e.out};
  }
  return "";
}

}  // namespace dla::harness
