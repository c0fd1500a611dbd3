// `network` layers: the graph (network.hpp, docs/NETWORKS.md): tensors and layers parsed and
// checked, concat branches placed, image and batch rules, the execution order, the network inputs'
// data and the memory allocation. compile_network (network_compile.cpp) runs these steps first.
#include "engines/network/harness/network_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/conv/golden/conv_modes.hpp"
#include "golden/arith.hpp"
#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/engine.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/regdb.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines::network_detail {

namespace {

constexpr uint64_t kAlign = 0x100;  // tensor and constant alignment (NVDLA: 32 B)

const std::vector<std::string_view> kOps = {"conv", "deconv", "sdp", "pdp", "cdp", "rubik", "bdma", "concat"};
// Blocks an op needs in the configuration's register map.
std::vector<std::string_view> op_blocks(std::string_view op) {
  if (op == "conv") return {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP"};
  if (op == "deconv") return {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "RBK"};
  if (op == "sdp") return {"SDP", "SDP_RDMA"};
  if (op == "pdp") return {"PDP", "PDP_RDMA"};
  if (op == "concat") return {};  // placement only: no block runs
  if (op == "rubik") return {"RBK"};
  if (op == "bdma") return {"BDMA"};
  return {"CDP", "CDP_RDMA"};
}

uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

int tensor_ref(const Net& n, const JsonNode& node) {
  const std::string name = node.as_string();
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    if (n.out.tensors[i].name == name) return static_cast<int>(i);
  }
  std::vector<std::string> names;
  for (const auto& t : n.out.tensors) names.push_back(t.name);
  node.fail(fmt::format("unknown tensor \"{}\" (the network declares {})", name, join_and(names)));
}

std::string shape_text(const NetTensor& t) {
  return fmt::format("{} x {} x {} {}", t.w, t.h, t.c, prec_name(t.prec));
}

}  // namespace

// Keys of a network layer per op, besides name / op / input / output / description; they go into
// the unit layer as they are (so errors inside them keep their pointer under the layer).
std::vector<std::string_view> op_keys(std::string_view op) {
  if (op == "deconv") return {"weights", "stride", "crop", "output_padding", "clip", "converter", "bs", "bn", "ew"};
  if (op == "conv")
    return {"weights", "padding", "stride", "dilation", "clip", "converter", "bs", "bn", "ew", "mode", "wino_scheme",
            "pra_truncate", "wfold", "pool", "post_extension"};
  if (op == "sdp") return {"operand", "converter", "bs", "bn", "ew", "perf"};
  if (op == "pdp") return {"pool", "split"};
  if (op == "concat") return {};
  if (op == "rubik") return {"mode", "stride"};
  if (op == "bdma") return {};  // a copy of the input tensor: nothing to choose
  return {"lrn", "in_cvt", "out_cvt", "lut", "perf_lut_en"};
}

const char* prec_name(golden::Precision p) { return golden::precision_name(p).data(); }

void Net::fail_at(const std::string& pointer, const std::string& rule) const {
  throw InputError(h->file.string(), pointer.empty() ? "/" : pointer, rule);
}

uint64_t Net::allocate(uint64_t bytes, const JsonNode& at, const std::string& what) {
  const uint64_t base = next_free;
  const uint64_t end = base + bytes;
  if (end > out.memory_base + out.memory_bytes) {
    at.fail(fmt::format("{} needs {} bytes at {:#x}, beyond the network's memory of {} bytes at {:#x} "
                        "(used {} bytes before it; \"memory\": {{\"bytes\"}} sets the size, at most {})",
                        what, bytes, base, out.memory_bytes, out.memory_base, base - out.memory_base, kMemoryMax));
  }
  next_free = align_up(end);
  out.memory_used = end - out.memory_base;
  return base;
}

// ---- parsing and validation ------------------------------------------------------------------

void parse_tensors(Net& n, const JsonNode& root) {
  const JsonNode ts = root.require("tensors");
  if (!ts.is_array() || ts.size() == 0) ts.fail("must be a non-empty array of tensors");
  std::map<std::string, int> seen;
  for (const JsonNode& t : ts.items()) {
    t.allow_keys({"name", "w", "h", "c", "n", "precision", "data", "description", "format", "sign", "converter", "mean",
                  "x_offset", "line_stride", "uv_line_stride"});
    NetTensor x;
    if (const auto f = t.get("format")) x.format = f->as_string();
    for (const char* k : {"sign", "converter", "mean", "x_offset", "line_stride", "uv_line_stride"}) {
      if (x.format.empty() && t.get(k)) t.require(k).fail("only an image tensor (with \"format\") takes it");
    }
    x.name = t.require("name").as_string();
    if (x.name.empty()) t.require("name").fail("must not be empty");
    if (const auto it = seen.find(x.name); it != seen.end()) {
      t.require("name").fail(fmt::format("tensor \"{}\" is declared twice (first at /tensors/{})", x.name, it->second));
    }
    seen[x.name] = static_cast<int>(n.out.tensors.size());
    x.w = static_cast<int>(t.require("w").as_int(1, kMaxCubeDim));
    x.h = static_cast<int>(t.require("h").as_int(1, kMaxCubeDim));
    x.c = static_cast<int>(t.require("c").as_int(1, kMaxCubeDim));
    if (const auto b = t.get("n")) x.n = static_cast<int>(b->as_int(1, golden::kMaxConvBatches));
    if (int64_t{x.w} * x.h * x.c * x.n > kMaxLayerElements) {
      t.fail(fmt::format("{} x {} x {} x n {} = {} elements exceed the limit of {}", x.w, x.h, x.c, x.n,
                         int64_t{x.w} * x.h * x.c * x.n, kMaxLayerElements));
    }
    if (const auto p = t.get("precision")) x.prec = *golden::parse_precision(p->as_choice({"int8", "int16", "fp16"}));
    if (!n.hw->supports(x.prec)) {
      t.require("precision").fail(fmt::format("{} has no {} (int16 and fp16 only on nv_full)", n.hw->name, prec_name(x.prec)));
    }
    n.out.tensors.push_back(std::move(x));
    n.tensor_nodes.push_back(t);
  }
}

void parse_layers(Net& n, const JsonNode& root) {
  const JsonNode ls = root.require("layers");
  if (!ls.is_array() || ls.size() == 0) ls.fail("must be a non-empty array of layers");
  const RegDb& db = RegDb::nvdla();
  std::map<std::string, int> seen;
  for (const JsonNode& l : ls.items()) {
    NetLayer L;
    L.pointer = l.pointer();
    L.name = l.require("name").as_string();
    if (L.name.empty()) l.require("name").fail("must not be empty");
    if (const auto it = seen.find(L.name); it != seen.end()) {
      l.require("name").fail(fmt::format("layer \"{}\" is declared twice (first at /layers/{})", L.name, it->second));
    }
    seen[L.name] = static_cast<int>(n.out.layers.size());
    const JsonNode op = l.require("op");
    L.op = op.as_string();
    if (std::find(kOps.begin(), kOps.end(), L.op) == kOps.end()) {
      op.fail(fmt::format("\"{}\" is not an op of network layers: conv, deconv, sdp, pdp, cdp, rubik, bdma or concat",
                          L.op));
    }
    // Keys: the common ones and the op's.
    const bool concat = L.op == "concat";
    std::set<std::string> allowed = {"name", "op", concat ? "inputs" : "input", "output", "description"};
    for (auto k : op_keys(L.op)) allowed.insert(std::string(k));
    for (const auto& [key, v] : l.raw().items()) {
      if (!allowed.contains(key)) {
        (void)v;
        std::vector<std::string> a(allowed.begin(), allowed.end());
        l.require(key).fail(fmt::format("unknown key \"{}\" in a {} layer (allowed: {})", key, L.op, join_and(a)));
      }
    }
    for (auto b : op_blocks(L.op)) {
      const RegBlock* r = db.block(b);
      if (r == nullptr || !db.block_base(n.hw->name, *r)) {
        op.fail(fmt::format("{} has no {} block, which a {} layer needs", n.hw->name, b, L.op));
      }
    }
    L.output = tensor_ref(n, l.require("output"));
    if (concat) {
      const JsonNode ins = l.require("inputs");
      if (!ins.is_array() || ins.size() < 2) ins.fail("must be an array of at least two tensor names (the branches)");
      for (const JsonNode& i : ins.items()) L.inputs.push_back(tensor_ref(n, i));
    } else {
      L.input = tensor_ref(n, l.require("input"));
      if (L.input == L.output) l.require("output").fail("a layer cannot write the tensor it reads (in place)");
    }
    if (const auto o = l.get("operand")) {
      L.operand = tensor_ref(n, *o);
      if (L.operand == L.output) o->fail("a layer cannot write the tensor it reads (in place)");
    }
    n.out.layers.push_back(std::move(L));
    n.layer_nodes.push_back(l);
  }
  // Producers: at most one per tensor; network inputs carry data, produced tensors none.
  for (std::size_t i = 0; i < n.out.layers.size(); ++i) {
    NetTensor& t = n.out.tensors[static_cast<std::size_t>(n.out.layers[i].output)];
    if (t.producer >= 0) {
      n.layer_nodes[i].require("output").fail(fmt::format("tensor \"{}\" is already written by layer \"{}\"", t.name,
                                                          n.out.layers[static_cast<std::size_t>(t.producer)].name));
    }
    t.producer = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    const NetTensor& t = n.out.tensors[i];
    const JsonNode& tn = n.tensor_nodes[i];
    if (t.producer >= 0 && tn.get("data")) {
      tn.require("data").fail(fmt::format("tensor \"{}\" is written by layer \"{}\"; only network inputs take data",
                                          t.name, n.out.layers[static_cast<std::size_t>(t.producer)].name));
    }
    if (t.producer < 0 && !tn.get("data")) {
      tn.fail(fmt::format("tensor \"{}\" is written by no layer, so it is a network input and needs \"data\"", t.name));
    }
  }
}

// The tensors a layer reads: what it waits for.
std::vector<int> reads(const NetLayer& L) {
  std::vector<int> r = L.inputs;
  for (const int t : {L.input, L.operand}) {
    if (t >= 0) r.push_back(t);
  }
  return r;
}

// Concat by placement, as NVDLA's compiler does it: branch k becomes channels [offset_k,
// offset_k + C_k) of the concat's output, at the output's line and surface strides, so its
// producer writes straight into the concatenated cube and nothing copies. A branch starts at an
// atom-surface boundary (the hardware writes whole atoms, and a surface holds atom / bytes-per-
// element channels): every branch but the last has a multiple of that many channels.
void place_concats(Net& n) {
  for (std::size_t i = 0; i < n.out.layers.size(); ++i) {
    const NetLayer& L = n.out.layers[i];
    if (L.op != "concat") continue;
    const JsonNode ins = n.layer_nodes[i].require("inputs");
    const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
    const int ca = n.hw->atom_bytes / golden::bytes_per_element(out.prec);
    int offset = 0;
    for (std::size_t k = 0; k < L.inputs.size(); ++k) {
      NetTensor& b = n.out.tensors[static_cast<std::size_t>(L.inputs[k])];
      const JsonNode at = ins[k];
      if (L.inputs[k] == L.output) at.fail("a concat cannot take its own output as a branch");
      if (b.parent >= 0) {
        at.fail(fmt::format("tensor \"{}\" is already placed in \"{}\" at channel {}: a tensor is a branch of one "
                            "concat, once",
                            b.name, n.out.tensors[static_cast<std::size_t>(b.parent)].name, b.c_offset));
      }
      if (b.w != out.w || b.h != out.h || b.prec != out.prec) {
        at.fail(fmt::format("branch \"{}\" is {}, but the concat's output \"{}\" is {}: branches are channel slices, "
                            "with the output's width, height and precision",
                            b.name, shape_text(b), out.name, shape_text(out)));
      }
      if (offset % ca != 0) {
        const NetTensor& prev = n.out.tensors[static_cast<std::size_t>(L.inputs[k - 1])];
        ins[k - 1].fail(fmt::format(
            "branch \"{}\" has {} channels, not a multiple of {} ({}'s {}-byte atom of {}): the next branch \"{}\" "
            "would start at channel {} of \"{}\", inside an atom surface (concat by placement writes each branch as "
            "whole surfaces; only the last branch may end inside one)",
            prev.name, prev.c, ca, n.hw->name, n.hw->atom_bytes, prec_name(out.prec), b.name, offset, out.name));
      }
      b.parent = L.output;
      b.c_offset = offset;
      offset += b.c;
    }
    if (offset != out.c) {
      n.layer_nodes[i].require("output").fail(fmt::format("the branches hold {} channels, but tensor \"{}\" is declared "
                                                          "with {}",
                                                          offset, out.name, out.c));
    }
  }
  for (std::size_t i = 0; i < n.out.layers.size(); ++i) {
    const NetLayer& L = n.out.layers[i];
    if (L.op == "concat" && n.out.tensors[static_cast<std::size_t>(L.output)].parent >= 0) {
      n.layer_nodes[i].require("output").fail(fmt::format(
          "tensor \"{}\" is a concat's output and a branch of another concat (nested concats are not built: list "
          "every branch in the outer one)",
          n.out.tensors[static_cast<std::size_t>(L.output)].name));
    }
  }
}

// Image tensors: network inputs read by exactly one layer, a conv, as its input (image input mode).
void check_images(const Net& n) {
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    const NetTensor& t = n.out.tensors[i];
    if (t.format.empty()) continue;
    const JsonNode fmt_node = n.tensor_nodes[i].require("format");
    if (t.producer >= 0) {
      fmt_node.fail(fmt::format("tensor \"{}\" is written by layer \"{}\": an image is a network input (layers write "
                                "feature cubes)",
                                t.name, n.out.layers[static_cast<std::size_t>(t.producer)].name));
    }
    if (t.parent >= 0) fmt_node.fail(fmt::format("image \"{}\" cannot be a concat branch (a branch is a channel slice)", t.name));
    int readers = 0;
    for (std::size_t li = 0; li < n.out.layers.size(); ++li) {
      const NetLayer& L = n.out.layers[li];
      const JsonNode& node = n.layer_nodes[li];
      for (std::size_t k = 0; k < L.inputs.size(); ++k) {
        if (L.inputs[k] == static_cast<int>(i)) {
          node.require("inputs")[k].fail(fmt::format("\"{}\" is an image ({}): only a conv layer reads it, as its input",
                                                     t.name, t.format));
        }
      }
      if (L.operand == static_cast<int>(i)) {
        node.require("operand").fail(fmt::format("\"{}\" is an image ({}): only a conv layer reads it, as its input",
                                                 t.name, t.format));
      }
      if (L.input != static_cast<int>(i)) continue;
      if (L.op != "conv") {
        node.require("input").fail(fmt::format("\"{}\" is an image ({}): only a conv layer reads it (CDMA's image input "
                                               "mode), not a {} layer",
                                               t.name, t.format, L.op));
      }
      if (++readers > 1) {
        node.require("input").fail(fmt::format("image \"{}\" is read by a second layer: an image has one reader (its "
                                               "planes are loaded with that layer)",
                                               t.name));
      }
    }
  }
}

// Batches (a tensor's "n"): only a direct conv layer on nv_full runs them (CDMA reads batch n at
// D_DAIN_ADDR + n x D_BATCH_STRIDE, SDP writes it at D_DST_BASE + n x D_DST_BATCH_STRIDE), and it
// writes as many batches as it reads. Every other op takes one cube.
void check_batches(const Net& n) {
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    const NetTensor& t = n.out.tensors[i];
    if (t.n > 1 && !t.format.empty()) {
      n.tensor_nodes[i].require("n").fail(fmt::format("image \"{}\" has one batch: image input allows no batches "
                                                      "(D_BATCH_NUMBER must be 0; CSC assertion)",
                                                      t.name));
    }
  }
  for (std::size_t li = 0; li < n.out.layers.size(); ++li) {
    const NetLayer& L = n.out.layers[li];
    const JsonNode& node = n.layer_nodes[li];
    // The first batched tensor the layer touches, and where the layer names it.
    std::optional<JsonNode> at;
    int batched = -1;
    for (std::size_t k = 0; k < L.inputs.size() && !at; ++k) {
      if (n.out.tensors[static_cast<std::size_t>(L.inputs[k])].n > 1) {
        at = node.require("inputs")[k];
        batched = L.inputs[k];
      }
    }
    for (const char* key : {"input", "operand", "output"}) {
      const int t = std::string_view(key) == "input" ? L.input : std::string_view(key) == "operand" ? L.operand : L.output;
      if (!at && t >= 0 && n.out.tensors[static_cast<std::size_t>(t)].n > 1) {
        at = node.require(key);
        batched = t;
      }
    }
    if (!at) continue;
    const NetTensor& b = n.out.tensors[static_cast<std::size_t>(batched)];
    if (L.op != "conv") {
      at->fail(fmt::format("tensor \"{}\" holds {} batches (n), and a {} layer takes one cube: only a direct conv layer "
                           "on nv_full runs batches (CDMA / SDP batch mode)",
                           b.name, b.n, L.op));
    }
    const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
    const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
    if (in.n != out.n) {
      node.require("output").fail(fmt::format("layer \"{}\" (conv) reads {} batch(es) of \"{}\" and writes one per "
                                              "batch, but tensor \"{}\" is declared with n {}",
                                              L.name, in.n, in.name, out.name, out.n));
    }
    if (!golden::has_batch_and_compression(*n.hw)) {
      at->fail(fmt::format("tensor \"{}\" holds {} batches (n): multi-batch convolution exists on nv_full only; {} "
                           "has no batch mode (BATCH_DISABLE)",
                           b.name, b.n, n.hw->name));
    }
    const std::string why = fmt::format("layer \"{}\" reads {} batches of \"{}\" (n)", L.name, in.n, in.name);
    if (const auto m = node.get("mode"); m && m->is_string() && m->as_string() == "winograd") {
      m->fail(why + ": batches need CONV_MODE DIRECT (Winograd with batches is not allowed: CSC / CACC assertions)");
    }
    if (const auto w = node.get("wfold"); w && !(w->is_string() && w->as_string() == "off")) {
      w->fail(why + ": W-fold and batches exclude each other in this model (docs/CDMA_MODES.md)");
    }
    if (const auto p = node.get("pool")) {
      p->fail(why + ": a pool post-op with batches is not done (PDP on the fly takes one cube)");
    }
  }
}

// Execution order (Kahn, file order among ready layers, a conv over the tensor the previous conv
// read first); a cycle fails naming its layers.
void order_layers(Net& n) {
  const std::size_t count = n.out.layers.size();
  std::vector<bool> done(count, false);
  const auto ready = [&](const NetLayer& L) {
    for (const int t : reads(L)) {
      const int p = n.out.tensors[static_cast<std::size_t>(t)].producer;
      if (p >= 0 && !done[static_cast<std::size_t>(p)]) return false;
    }
    return true;
  };
  // The tensor the last conv-pipeline layer placed read, when it was a conv: a ready conv over
  // the same tensor goes next (it takes it from CBUF, "CBUF reuse"); else the file's order.
  int last_conv_input = -1;
  while (n.out.order.size() < count) {
    bool progress = false;
    std::size_t pick = count;
    for (std::size_t i = 0; i < count; ++i) {
      if (done[i] || !ready(n.out.layers[i])) continue;
      if (pick == count) pick = i;
      if (n.out.layers[i].op == "conv" && n.out.layers[i].input == last_conv_input && last_conv_input >= 0) {
        pick = i;
        break;
      }
    }
    if (pick < count) {
      done[pick] = true;
      n.out.order.push_back(static_cast<int>(pick));
      progress = true;
      const NetLayer& P = n.out.layers[pick];
      if (P.op == "conv" || P.op == "deconv") last_conv_input = P.op == "conv" ? P.input : -1;
    }
    if (!progress) {
      // Follow unfinished producers from the first waiting layer until one repeats: a cycle.
      const auto waits_on = [&](std::size_t i) {
        for (const int t : reads(n.out.layers[i])) {
          const int p = n.out.tensors[static_cast<std::size_t>(t)].producer;
          if (p >= 0 && !done[static_cast<std::size_t>(p)]) return static_cast<std::size_t>(p);
        }
        return count;
      };
      std::vector<std::size_t> path;
      std::size_t i = static_cast<std::size_t>(std::find(done.begin(), done.end(), false) - done.begin());
      while (std::find(path.begin(), path.end(), i) == path.end()) {
        path.push_back(i);
        i = waits_on(i);
      }
      std::vector<std::size_t> cycle(std::find(path.begin(), path.end(), i), path.end());
      std::sort(cycle.begin(), cycle.end());
      std::vector<std::string> names;
      for (const std::size_t c : cycle) names.push_back(n.out.layers[c].name);
      const NetLayer& first = n.out.layers[cycle.front()];
      n.layer_nodes[cycle.front()].require(first.op == "concat" ? "inputs" : "input").fail(
          fmt::format("the layers {} form a cycle (each waits for a tensor another of them writes)", join_and(names)));
    }
  }
  // A concat runs nothing: its branches' producers wrote its output in place.
  std::erase_if(n.out.order, [&](int i) { return n.out.layers[static_cast<std::size_t>(i)].op == "concat"; });
}

void resolve_inputs(Net& n) {
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    NetTensor& t = n.out.tensors[i];
    if (t.producer >= 0 || !t.format.empty() || t.elided) continue;  // an image's data goes to its reader as it is
    const JsonNode d = n.tensor_nodes[i].require("data");
    const auto count = static_cast<std::size_t>(int64_t{t.c} * t.h * t.w * t.n);
    if (t.prec == golden::Precision::Fp16) {  // sign-extended 16-bit patterns, as every fp16 layer's
      if (const auto k = d.get("constant")) {
        d.allow_keys({"constant"});
        t.values.assign(count, static_cast<int16_t>(parse_fp16(*k)));
      } else {
        t.values = resolve_fp16_values(d, count, n.h->seed);
      }
      continue;
    }
    const int bits = 8 * golden::bytes_per_element(t.prec);
    const auto lo = static_cast<int64_t>(golden::min_of_bits(bits));
    const auto hi = static_cast<int64_t>(golden::max_of_bits(bits));
    if (const auto k = d.get("constant")) {
      d.allow_keys({"constant"});
      t.values.assign(count, k->as_int(lo, hi));
    } else {
      t.values = resolve_values(d, count, golden::bytes_per_element(t.prec), lo, hi, n.h->seed);
    }
  }
}

void allocate_tensors(Net& n) {
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    NetTensor& t = n.out.tensors[i];
    if (t.parent >= 0 || !t.format.empty() || t.elided) continue;
    const int bpe = golden::bytes_per_element(t.prec);
    const golden::CubeShape shape{t.n, t.c, t.h, t.w};  // N packed cubes, one cube apart
    t.layout = golden::FeatureLayout::packed(shape, n.hw->atom_bytes, bpe, 0);
    t.bytes = t.layout.region_bytes(shape);
    t.layout.base = n.allocate(t.bytes, n.tensor_nodes[i], fmt::format("tensor \"{}\" ({})", t.name, shape_text(t)));
  }
  // Concat branches: their channel slice of the concatenated cube (same strides; a packed layout
  // of C channels has the strides of any other C, so the branch is a packed cube at this base).
  for (NetTensor& t : n.out.tensors) {
    if (t.parent < 0) continue;
    const NetTensor& p = n.out.tensors[static_cast<std::size_t>(t.parent)];
    t.layout = p.layout;
    t.layout.base = p.layout.base + static_cast<uint64_t>(t.c_offset / p.layout.channels_per_atom()) *
                                        p.layout.surface_stride;
    t.bytes = t.layout.region_bytes({1, t.c, t.h, t.w});
  }
}

}  // namespace dla::harness::engines::network_detail
