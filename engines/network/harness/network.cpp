// `network` layers: the compiler (network.hpp, docs/NETWORKS.md).
//
// Each layer is written as a layer of its unit (a `conv` / `deconv` / `sdp` / `pdp` / `cdp` /
// `rubik` layer JSON whose input values are the tensor's: a network input's data, or what the
// golden model computed for a produced tensor) and compiled by that unit's compiler with a
// placement (harness/placement.hpp): the input, output and EW operand tensors' bases (the compiler
// loads none of them: they are in memory), a constant allocated in the network's memory for each
// thing the layer loads (weights, operand streams), the group each block is at (NVDLA's consumer
// pointer flips once per hardware layer the block ran), and the network's golden device, which
// runs the layer. The unit compiler emits the final program (every address word, every group);
// the network compiler then
//   - cuts it into setup, launch, wait and post segments and moves the block parities on;
//   - schedules: layer N+1's memory images and registers (into its groups) are programmed after
//     layer N's launch and before N's done interrupts (pingpong), then N+1 is launched after N's
//     interrupts; N's status reads and the golden check of its output follow N's interrupts.
#include "engines/network/harness/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "golden/arith.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "golden/cube.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "harness/engine.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/bdma/harness/bdma.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "harness/program_builder.hpp"
#include "engines/sdp/harness/sdp.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

using nlohmann::json;

constexpr int kMaxDim = 8192;
constexpr int64_t kMaxElements = 4'000'000;
constexpr uint64_t kMemoryBase = 0x1000'0000ull;   // the network's memory window starts here
constexpr uint64_t kMemoryMax = 0x6000'0000ull;    // and ends below the unit compilers' fixed regions
constexpr uint64_t kAlign = 0x100;                  // tensor and constant alignment (NVDLA: 32 B)
constexpr uint8_t kGapFill = 0xa5;

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

uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
const char* prec_name(golden::Precision p) { return p == golden::Precision::Int16 ? "int16" : "int8"; }

struct Net {
  const LayerHeader* h = nullptr;
  const golden::HwConfig* hw = nullptr;
  CompiledNetwork out;
  std::vector<JsonNode> layer_nodes, tensor_nodes;
  uint64_t next_free = kMemoryBase;
  std::optional<JsonNode> memory_node;

  [[noreturn]] void fail_at(const std::string& pointer, const std::string& rule) const {
    throw InputError(h->file.string(), pointer.empty() ? "/" : pointer, rule);
  }
  // Allocates `bytes` in the network's memory window or fails at `at`.
  uint64_t allocate(uint64_t bytes, const JsonNode& at, const std::string& what) {
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
};

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
    x.w = static_cast<int>(t.require("w").as_int(1, kMaxDim));
    x.h = static_cast<int>(t.require("h").as_int(1, kMaxDim));
    x.c = static_cast<int>(t.require("c").as_int(1, kMaxDim));
    if (const auto b = t.get("n")) x.n = static_cast<int>(b->as_int(1, golden::kMaxConvBatches));
    if (int64_t{x.w} * x.h * x.c * x.n > kMaxElements) {
      t.fail(fmt::format("{} x {} x {} x n {} = {} elements exceed the limit of {}", x.w, x.h, x.c, x.n,
                         int64_t{x.w} * x.h * x.c * x.n, kMaxElements));
    }
    if (const auto p = t.get("precision")) x.prec = *golden::parse_precision(p->as_choice({"int8", "int16"}));
    if (!n.hw->supports(x.prec)) {
      t.require("precision").fail(fmt::format("{} has no int16 (int16 only on nv_full)", n.hw->name));
    }
    n.out.tensors.push_back(std::move(x));
    n.tensor_nodes.push_back(t);
  }
}

int tensor_ref(const Net& n, const JsonNode& node) {
  const std::string name = node.as_string();
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    if (n.out.tensors[i].name == name) return static_cast<int>(i);
  }
  std::vector<std::string> names;
  for (const auto& t : n.out.tensors) names.push_back(t.name);
  node.fail(fmt::format("unknown tensor \"{}\" (the network declares {})", name, join_and(names)));
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

std::string shape_text(const NetTensor& t) {
  return fmt::format("{} x {} x {} {}", t.w, t.h, t.c, prec_name(t.prec));
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

json unit_layer(const Net& n, const NetLayer& L, const JsonNode& node, uint64_t seed);

// Automatic fusion, where NVDLA's compiler fuses (conv -> SDP -> PDP on the fly): a pdp layer
// whose input is a conv layer's output that no other layer reads (not a network input, image,
// concat branch or cube, EW operand) joins that conv as its `pool` post-op, when the conv compiler
// takes that pooling on the fly (a trial compile; else both stay separate). The conv then writes
// the pdp's output tensor; the unpooled tensor never reaches memory.
void fuse_layers(Net& n) {
  for (std::size_t pi = 0; pi < n.out.layers.size(); ++pi) {
    NetLayer& P = n.out.layers[pi];
    if (P.op != "pdp" || n.layer_nodes[pi].get("split")) continue;
    NetTensor& t = n.out.tensors[static_cast<std::size_t>(P.input)];
    if (t.producer < 0 || t.parent >= 0 || !t.format.empty()) continue;
    const auto ci = static_cast<std::size_t>(t.producer);
    NetLayer& C = n.out.layers[ci];
    if (C.op != "conv" || C.pool_from >= 0 || n.layer_nodes[ci].get("pool")) continue;
    int readers = 0;
    for (const NetLayer& L : n.out.layers) {
      for (const int r : reads(L)) readers += r == P.input ? 1 : 0;
      if (L.op == "concat" && L.output == P.input) readers += 2;
    }
    if (readers != 1) continue;
    // The trial: the conv's unit layer with the pooling, on placeholder data.
    json trial = unit_layer(n, C, n.layer_nodes[ci], n.h->seed);
    if (!trial["input"].contains("format")) trial["input"]["data"] = {{"random", json::object()}};
    trial["pool"] = n.layer_nodes[pi].raw()["pool"];
    const auto doc = parse_json_text(n.h->file, trial.dump());
    try {
      (void)compile_conv_layer(LayerHeader{n.h->file, "conv", C.name, n.h->config, n.h->seed, n.h->stall},
                               JsonNode::root(doc), false);
    } catch (const InputError&) {
      continue;  // PDP cannot take this pooling on the fly: both layers stay
    }
    C.pool_from = static_cast<int>(pi);
    P.fused_into = static_cast<int>(ci);
    C.output = P.output;
    n.out.tensors[static_cast<std::size_t>(P.output)].producer = static_cast<int>(ci);
    t.producer = -1;
    t.elided = true;
  }
}

void resolve_inputs(Net& n) {
  for (std::size_t i = 0; i < n.out.tensors.size(); ++i) {
    NetTensor& t = n.out.tensors[i];
    if (t.producer >= 0 || !t.format.empty() || t.elided) continue;  // an image's data goes to its reader as it is
    const JsonNode d = n.tensor_nodes[i].require("data");
    const int bits = 8 * golden::bytes_per_element(t.prec);
    const auto lo = static_cast<int64_t>(golden::min_of_bits(bits));
    const auto hi = static_cast<int64_t>(golden::max_of_bits(bits));
    const auto count = static_cast<std::size_t>(int64_t{t.c} * t.h * t.w * t.n);
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

// ---- one layer as a layer of its unit ----------------------------------------------------------

json values_json(const std::vector<int64_t>& v) { return json{{"values", v}}; }

json unit_layer(const Net& n, const NetLayer& L, const JsonNode& node, uint64_t seed) {
  const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
  const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
  const json& j = node.raw();
  json s{{"unit", L.op}, {"name", L.name}, {"config", n.hw->name}, {"seed", seed}};
  for (auto k : op_keys(L.op)) {
    if (k != "operand" && k != "converter" && j.contains(std::string(k))) s[std::string(k)] = j[std::string(k)];
  }
  if (L.pool_from >= 0) s["pool"] = n.layer_nodes[static_cast<std::size_t>(L.pool_from)].raw()["pool"];
  if (L.op == "conv" || L.op == "deconv") {
    s["precision"] = prec_name(in.prec);
    s["input"] = {{"w", in.w}, {"h", in.h}, {"c", in.c}, {"data", values_json(in.values)}};
    if (in.n > 1) {  // batches at the tensors' batch strides (once allocated)
      s["batch"] = {{"n", in.n}};
      if (in.layout.batch_stride != 0) s["batch"]["input_stride"] = in.layout.batch_stride;
      if (out.layout.batch_stride != 0) s["batch"]["output_stride"] = out.layout.batch_stride;
    }
    if (!in.format.empty()) {  // image input mode: the tensor's image fields and data as they are
      const json& t = n.tensor_nodes[static_cast<std::size_t>(L.input)].raw();
      for (const char* k : {"format", "sign", "converter", "mean", "x_offset", "line_stride", "uv_line_stride", "data"}) {
        if (t.contains(k)) s["input"][k] = t[k];
      }
    }
    s["weights"]["data"] = values_json(L.weights);
    s["output"] = {{"precision", prec_name(out.prec)}};
    if (j.contains("converter")) s["output"]["converter"] = j["converter"];
  } else if (L.op == "bdma") {
    // One command copies the cube: a line of W atoms per row, H lines, one surface per atom of
    // channels, at each tensor's strides (the output may be a concat branch: the parent's strides).
    const uint64_t line = static_cast<uint64_t>(in.w) * static_cast<uint64_t>(n.hw->atom_bytes);
    const int surfaces = in.layout.surfaces(in.c);
    s["launches"] = json::array({{{"group", 0},  // the placement's (compile_bdma_layer_placed)
                                  {"commands", json::array({{{"src", in.layout.base},
                                                             {"dst", out.layout.base},
                                                             {"line_bytes", line},
                                                             {"lines", in.h},
                                                             {"surfaces", surfaces},
                                                             {"src_line_stride", in.layout.line_stride},
                                                             {"dst_line_stride", out.layout.line_stride},
                                                             {"src_surface_stride", in.layout.surface_stride},
                                                             {"dst_surface_stride", out.layout.surface_stride}}})}}});
  } else if (L.op == "rubik") {  // contract: the input's sub-cubes j = (y_i sx + x_i) are its channel blocks
    s["precision"] = prec_name(in.prec);
    s["cube"] = {{"w", in.w}, {"h", in.h}, {"c", out.c}};
    s["input"] = {{"data", values_json(in.values)}};
    s["output"] = json::object();
  } else {
    s["cube"] = {{"w", in.w}, {"h", in.h}, {"c", in.c}};
    s["input"] = {{"precision", prec_name(in.prec)}, {"data", values_json(in.values)}};
    s["output"] = json::object();
    if (L.op == "sdp") {
      s["output"]["precision"] = prec_name(out.prec);
      if (j.contains("converter")) s["output"]["converter"] = j["converter"];
      if (L.operand >= 0) {
        const NetTensor& op = n.out.tensors[static_cast<std::size_t>(L.operand)];
        json& ew = s["ew"];
        if (!ew.is_object()) ew = json::object();
        if (!ew.contains("alu") || !ew["alu"].is_object()) ew["alu"] = json::object();
        ew["alu"]["operand"] = values_json(op.values);
        ew["operands"] = {{"per", "element"}, {"precision", prec_name(op.prec)}};
      }
    }
  }
  return s;
}

// Where an error of the unit compiler lies in the network file: under the layer, at the same key
// when the layer gave it, else at the layer's input tensor (the generated cube / input / data).
[[noreturn]] void rethrow_in_layer(const Net& n, const NetLayer& L, const JsonNode& node, const InputError& e) {
  std::string where = e.where() == "/" ? "" : e.where();
  const std::string key = where.empty() ? "" : where.substr(1, where.find('/', 1) == std::string::npos
                                                                   ? std::string::npos
                                                                   : where.find('/', 1) - 1);
  std::string pointer = node.pointer();
  const bool given = !key.empty() && node.raw().contains(key) && key != "input" && key != "output";
  if (given) {
    pointer += where;
  } else if (key == "input" || key == "cube" || key == "precision") {
    pointer += "/input";
  } else if (key == "output" && node.raw().contains("converter")) {
    pointer += "/converter";
  } else if (key == "output") {
    pointer += "/output";
  }
  n.fail_at(pointer, fmt::format("layer \"{}\" ({}): {}", L.name, L.op, e.rule()));
}

// ---- relocation, regrouping, scheduling ------------------------------------------------------


// A layer's program cut where the firmware would cut it.
struct Segments {
  std::vector<ProgramStep> setup, launch, wait, post;
  bool overlappable = true;  // its setup may run while the previous layer runs
  bool single_shot = true;   // every block it enables runs once (one hardware layer)
  std::map<std::string, uint32_t> setup_pointer;  // block -> S_POINTER the setup leaves (launch needs it)
  std::map<std::string, uint32_t> last_pointer;   // block -> the last S_POINTER (post reads need it)
};

// A layer's start: D_OP_ENABLE, or BDMA's CFG_LAUNCH<g> (it has no D_OP_ENABLE).
bool is_enable(const ProgramStep& s) {
  return s.op == StepOp::RegWrite && s.reg != nullptr &&
         (s.reg->name == "D_OP_ENABLE" || s.reg->name == "CFG_LAUNCH0" || s.reg->name == "CFG_LAUNCH1");
}

struct Placed {
  Program program;
  Segments seg;
};

// Where layer L goes: its tensors' bases, its constants allocated in the network's memory as the
// unit compiler asks for them, each block's group, the network's golden device (the compiler runs
// the layer there).
struct ConstantRefused {
  InputError error;
};

Placement placement_of(Net& n, const NetLayer& L, const JsonNode& node, const std::map<std::string, int>& parity,
                       GoldenDevice& dev) {
  Placement at;
  if (n.out.tensors[static_cast<std::size_t>(L.input)].format.empty()) {
    at.input = n.out.tensors[static_cast<std::size_t>(L.input)].layout.base;
  }  // an image: its planes are the layer's constants
  at.output = n.out.tensors[static_cast<std::size_t>(L.output)].layout.base;
  if (L.operand >= 0) at.operand = n.out.tensors[static_cast<std::size_t>(L.operand)].layout.base;
  at.constant = [&n, &L, node](std::string_view what, uint64_t bytes) {
    try {
      return n.allocate(bytes, node.get("weights").value_or(node),
                        fmt::format("layer \"{}\"'s constants ({})", L.name, what));
    } catch (const InputError& e) {
      throw ConstantRefused{e};  // not a refusal of the unit compiler: passes rethrow_in_layer
    }
  };
  at.group = parity;
  at.device = &dev;
  return at;
}

// Cuts `steps` (the unit compiler's program as placed for layer L, already run on the golden
// device) into the schedule's segments; moves the block parities on.
Placed segment_layer(Net& n, const NetLayer& L, Program sub, std::map<std::string, int>& parity) {
  const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
  Placed p;
  std::map<std::string, int> enables;
  advance_groups(parity, sub);
  std::vector<ProgramStep> steps;
  for (ProgramStep& s : sub.steps) {
    const std::string_view wh = s.where;
    const std::string prefix = n.h->file.string() + ": ";
    s.where = fmt::format("{}: layer {} ({}): {}", n.h->file.string(), L.name, L.op,
                          wh.substr(0, prefix.size()) == prefix ? wh.substr(prefix.size()) : wh);
    // The output's pre-fill and check cover the tensor only (beyond lie other tensors).
    if ((s.op == StepOp::MemFill || s.op == StepOp::Check) && s.addr >= out.layout.base &&
        s.addr < out.layout.base + out.bytes && s.addr + s.size > out.layout.base + out.bytes) {
      throw std::logic_error(fmt::format("network compiler: {} reaches beyond tensor {}", s.where, out.name));
    }
    if (is_enable(s) && (s.value & 1u) != 0) ++enables[s.reg->block];
    steps.push_back(std::move(s));
  }
  for (const auto& [b, count] : enables) {
    if (count > 1) p.seg.single_shot = false;
  }
  // Segments: setup until the first launch step (a read such as the CBUF flush status, or an
  // enable), launch until the first interrupt wait, wait until after the last, post the rest.
  std::size_t a = steps.size(), b = steps.size(), c = steps.size();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].op == StepOp::RegRead || is_enable(steps[i]) || steps[i].op == StepOp::WaitIntr) {
      a = i;
      break;
    }
  }
  for (std::size_t i = a; i < steps.size(); ++i) {
    if (steps[i].op == StepOp::WaitIntr) {
      b = i;
      break;
    }
  }
  for (std::size_t i = steps.size(); i > b; --i) {
    if (steps[i - 1].op == StepOp::WaitIntr) {
      c = i;
      break;
    }
  }
  if (b == steps.size()) c = b;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ProgramStep& s = steps[i];
    if (s.op == StepOp::RegWrite && s.reg->name == "S_POINTER") {
      if (i < a) p.seg.setup_pointer[s.reg->block] = s.value;
      p.seg.last_pointer[s.reg->block] = s.value;
    }
    // A single register (LUT tables, S_LUT_*) would change under the running layer.
    if (i < a && s.op == StepOp::RegWrite && !s.reg->dual && s.reg->name != "S_POINTER") p.seg.overlappable = false;
    auto& dst = i < a ? p.seg.setup : i < b ? p.seg.launch : i < c ? p.seg.wait : p.seg.post;
    dst.push_back(s);
  }
  p.program.name = L.name;
  p.program.config = n.hw->name;
  p.program.steps = std::move(steps);
  return p;
}

void resolve_weights(Net& n, NetLayer& L, const JsonNode& node) {
  const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
  const JsonNode wt = node.require("weights");
  wt.allow_keys({"k", "r", "s", "data"});
  L.k = static_cast<int>(wt.require("k").as_int(1, kMaxDim));
  L.r = static_cast<int>(wt.require("r").as_int(1, 32));
  L.s = static_cast<int>(wt.require("s").as_int(1, 32));
  const int64_t count = int64_t{L.k} * in.c * L.r * L.s;
  if (count > kMaxElements) wt.fail(fmt::format("K x C x R x S = {} weights exceed the limit of {}", count, kMaxElements));
  const int bits = 8 * golden::bytes_per_element(in.prec);
  L.weights = resolve_values(wt.require("data"), static_cast<std::size_t>(count), golden::bytes_per_element(in.prec),
                             static_cast<int64_t>(golden::min_of_bits(bits)),
                             static_cast<int64_t>(golden::max_of_bits(bits)), n.h->seed);
}

// Shape and precision the layer produces, checked against its output tensor (and operand).
void check_shapes(const Net& n, const NetLayer& L, const JsonNode& node, int w, int h, int c, golden::Precision prec) {
  const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
  if (out.w != w || out.h != h || out.c != c) {
    node.require("output").fail(fmt::format("layer \"{}\" ({}) computes {} x {} x {} (W x H x C), but tensor \"{}\" "
                                            "is declared {} x {} x {}",
                                            L.name, L.op, w, h, c, out.name, out.w, out.h, out.c));
  }
  if (out.prec != prec) {
    node.require("output").fail(fmt::format("layer \"{}\" ({}) writes {}, but tensor \"{}\" is declared {}", L.name,
                                            L.op, prec_name(prec), out.name, prec_name(out.prec)));
  }
}

void check_contract(const Net& n, const NetLayer& L, const JsonNode& node);

void check_layer_shapes(const Net& n, const NetLayer& L, const JsonNode& node) {
  if (L.op == "concat") return;  // place_concats
  const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
  const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
  if (L.op == "conv") {
    // W' = (W + left + right - ((S - 1) x dilation + 1)) / stride + 1, when the fields are plain
    // integers in range (else the conv compiler names them).
    const json& j = node.raw();
    const auto get = [&](const char* obj, const char* key, int def, int lo, int hi) -> std::optional<int> {
      if (!j.contains(obj)) return def;
      const json& o = j[obj];
      if (!o.is_object()) return std::nullopt;
      if (!o.contains(key)) return def;
      if (!o[key].is_number_integer()) return std::nullopt;
      const auto v = o[key].get<int64_t>();
      return v >= lo && v <= hi ? std::optional<int>(static_cast<int>(v)) : std::nullopt;
    };
    const auto pl = get("padding", "left", 0, 0, 31), pr = get("padding", "right", 0, 0, 63);
    const auto pt = get("padding", "top", 0, 0, 31), pb = get("padding", "bottom", 0, 0, 63);
    const auto sx = get("stride", "x", 1, 1, 8), sy = get("stride", "y", 1, 1, 8);
    const auto dx = get("dilation", "x", 1, 1, 32), dy = get("dilation", "y", 1, 1, 32);
    if (pl && pr && pt && pb && sx && sy && dx && dy && !j.contains("pool")) {  // pooled: checked after compiling
      const int ew = (L.s - 1) * *dx + 1, eh = (L.r - 1) * *dy + 1;
      const int iw = in.w + *pl + *pr, ih = in.h + *pt + *pb;
      if (iw >= ew && ih >= eh) {
        check_shapes(n, L, node, (iw - ew) / *sx + 1, (ih - eh) / *sy + 1, L.k, out.prec);
      }
    }
  } else if (L.op == "pdp") {
    golden::PdpConfig c;
    c.atom_bytes = n.hw->atom_bytes;
    c.in = {1, in.c, in.h, in.w};
    (void)parse_pool(node.require("pool"), c);
    check_shapes(n, L, node, c.out.w, c.out.h, c.out.c, in.prec);
  } else if (L.op == "cdp") {
    check_shapes(n, L, node, in.w, in.h, in.c, in.prec);
  } else if (L.op == "rubik") {
    check_contract(n, L, node);
  } else if (L.op == "bdma") {  // a copy: the same cube
    check_shapes(n, L, node, in.w, in.h, in.c, in.prec);
  } else if (L.op == "sdp") {
    check_shapes(n, L, node, in.w, in.h, in.c, out.prec);
    if (L.operand >= 0) {
      const NetTensor& op = n.out.tensors[static_cast<std::size_t>(L.operand)];
      if (op.w != in.w || op.h != in.h || op.c != in.c || op.prec != in.prec) {
        node.require("operand").fail(fmt::format("the EW operand \"{}\" ({} x {} x {} {}) must have the input \"{}\"'s "
                                                 "shape and precision ({} x {} x {} {}): it is read per element",
                                                 op.name, op.w, op.h, op.c, prec_name(op.prec), in.name, in.w, in.h,
                                                 in.c, prec_name(in.prec)));
      }
      if (const auto ew = node.get("ew")) {
        if (const auto alu = ew->get("alu"); alu && alu->get("operand")) {
          alu->require("operand").fail("the EW operand is the layer's \"operand\" tensor; give it there only");
        }
      }
    } else if (const auto ew = node.get("ew")) {
      (void)ew;  // register operands or per-channel values: the sdp compiler judges them
    }
  }
}

// A deconvolution's output is RUBIK's grid: line stride ceil(W' / sx) sx x atom, surface stride
// ceil(H' / sy) sy x line. A network tensor is packed, so the grid must be packed: W' a multiple
// of the stride's x, H' of its y.
void check_deconv_output(const Net& n, NetLayer& L, const JsonNode& node, const CompiledDeconv& cd) {
  const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
  const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
  check_shapes(n, L, node, cd.out_w, cd.out_h, cd.k, out.prec);
  if (cd.out_line_stride != out.layout.line_stride || cd.out_surface_stride != out.layout.surface_stride) {
    node.require("output").fail(fmt::format(
        "layer \"{}\" (deconv) writes its {} x {} output in RUBIK's grid (line stride {}, surface stride {}), and tensor "
        "\"{}\" is packed (line stride {}, surface stride {}): W' and H' must be multiples of the stride",
        L.name, cd.out_w, cd.out_h, cd.out_line_stride, cd.out_surface_stride, out.name, out.layout.line_stride,
        out.layout.surface_stride));
  }
  // MACs: every input pixel times every kernel tap (the scatter-add), cropped lines included.
  L.macs = static_cast<uint64_t>(L.k) * static_cast<uint64_t>(in.c) * static_cast<uint64_t>(L.r) *
           static_cast<uint64_t>(L.s) * static_cast<uint64_t>(in.w) * static_cast<uint64_t>(in.h);
}

// RUBIK in a network: CONTRACT only (depth-to-space, docs/RUBIK.md). The input W x H x (sx sy C')
// holds sub-cube j = y_i sx + x_i as channels [j C', (j + 1) C'); RUBIK reads sub-cubes
// ceil(C' / Ca) surfaces apart, which is the packed tensor only when C' is a multiple of Ca (or
// there is one sub-cube). Output (W sx) x (H sy) x C', packed. Split and merge read or write
// planes, which are not network tensors.
void check_contract(const Net& n, const NetLayer& L, const JsonNode& node) {
  const NetTensor& in = n.out.tensors[static_cast<std::size_t>(L.input)];
  const JsonNode mode = node.require("mode");
  if (mode.as_choice({"contract", "split", "merge"}) != "contract") {
    mode.fail("only \"contract\" runs in a network: split and merge read or write planes, which are not network "
              "tensors (feature cubes)");
  }
  int sx = 1, sy = 1;
  if (const auto st = node.get("stride")) {
    st->allow_keys({"x", "y"});
    if (const auto x = st->get("x")) sx = static_cast<int>(x->as_int(1, 32));
    if (const auto y = st->get("y")) sy = static_cast<int>(y->as_int(1, 32));
  }
  if (in.c % (sx * sy) != 0) {
    node.require("input").fail(fmt::format("tensor \"{}\" has {} channels, not a multiple of stride x x y = {} (the "
                                           "sub-cubes)",
                                           in.name, in.c, sx * sy));
  }
  const int cout = in.c / (sx * sy);
  const int ca = n.hw->atom_bytes / golden::bytes_per_element(in.prec);
  if (sx * sy > 1 && cout % ca != 0) {
    node.require("input").fail(fmt::format("each sub-cube of \"{}\" has {} channels, not a multiple of {} (the atom's): "
                                           "RUBIK reads sub-cubes whole surfaces apart, so the packed tensor would not "
                                           "be their layout",
                                           in.name, cout, ca));
  }
  check_shapes(n, L, node, in.w * sx, in.h * sy, cout, in.prec);
}

// Values of tensor t as the golden device holds them.
std::vector<int64_t> read_tensor(GoldenDevice& dev, const NetTensor& t) {
  const golden::Cube<int64_t> cube = golden::load_cube(t.layout, {t.n, t.c, t.h, t.w},
                                                       [&](uint64_t a) { return dev.memory().read(a); });
  return {cube.data().begin(), cube.data().end()};
}

// S_POINTER writes setting each block of `ptr` (block -> value).
void set_pointers(std::vector<ProgramStep>& dst, const std::map<std::string, uint32_t>& ptr,
                  const std::set<std::string>& only, const std::string& where) {
  const RegDb& db = RegDb::nvdla();
  for (const auto& [block, v] : ptr) {
    if (!only.contains(block)) continue;
    ProgramStep s;
    s.op = StepOp::RegWrite;
    s.reg = db.find(block + ".S_POINTER");
    s.value = v;
    s.where = where;
    dst.push_back(std::move(s));
  }
}

std::set<std::string> blocks_of(const std::vector<ProgramStep>& steps, bool dual_reads_only) {
  std::set<std::string> out;
  for (const auto& s : steps) {
    if (s.reg == nullptr) continue;
    if (dual_reads_only ? (s.op == StepOp::RegRead && s.reg->dual) : is_enable(s)) out.insert(s.reg->block);
  }
  return out;
}

}  // namespace

CompiledNetwork compile_network(const LayerHeader& h, const JsonNode& root, std::optional<bool> pingpong) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "memory", "schedule", "fusion", "tensors",
                   "layers"});
  Net n;
  n.h = &h;
  n.hw = h.config;
  n.out.memory_base = kMemoryBase;
  n.out.memory_bytes = kMemoryMax;
  if (const auto m = root.get("memory")) {
    m->allow_keys({"bytes"});
    n.out.memory_bytes = m->require("bytes").as_u64(kMemoryMax);
    if (n.out.memory_bytes == 0) m->require("bytes").fail("must be at least 1");
  }
  if (const auto s = root.get("schedule")) n.out.pingpong = s->as_choice({"pingpong", "sequential"}) == "pingpong";
  if (pingpong) n.out.pingpong = *pingpong;
  parse_tensors(n, root);
  parse_layers(n, root);
  place_concats(n);
  check_images(n);
  check_batches(n);
  order_layers(n);
  for (std::size_t i = 0; i < n.out.layers.size(); ++i) {
    if (n.out.layers[i].op == "conv" || n.out.layers[i].op == "deconv") {
      resolve_weights(n, n.out.layers[i], n.layer_nodes[i]);
    }
    check_layer_shapes(n, n.out.layers[i], n.layer_nodes[i]);
  }
  if (const auto f = root.get("fusion"); f && f->as_choice({"auto", "off"}) == "auto") {
    fuse_layers(n);  // a fused pdp leaves the order (its conv ran before it, its readers after)
    std::erase_if(n.out.order, [&](int i) { return n.out.layers[static_cast<std::size_t>(i)].fused_into >= 0; });
  }
  resolve_inputs(n);
  allocate_tensors(n);

  // The network's inputs in memory, then the layers, each run on the golden model as it is
  // placed (its output values feed the next layers' compilers).
  GoldenDevice dev(*n.hw);
  ProgramBuilder pb(h);
  for (const NetTensor& t : n.out.tensors) {
    if (t.producer >= 0 || !t.format.empty() || t.elided) continue;
    golden::Cube<int64_t> cube({t.n, t.c, t.h, t.w});
    std::copy(t.values.begin(), t.values.end(), cube.data().begin());
    ProgramStep& s = pb.add(StepOp::MemLoad, fmt::format("mem_load network input {}", t.name));
    s.addr = t.layout.base;
    s.bytes = golden::store_cube_bytes(t.layout, cube, kGapFill);
    dev.memory().write(s.addr, s.bytes);
  }
  std::map<std::string, int> parity;
  std::vector<Segments> segs;
  // CBUF reuse (docs/NETWORKS.md "CBUF reuse"): a conv layer whose input is the one the
  // convolution before it read (the conv pipeline's previous layer: no conv or deconv between)
  // takes it from CBUF; that one keeps it there.
  std::vector<int> shares_input(n.out.order.size(), 0);  // with the next conv-pipeline layer
  for (std::size_t k = 0, prev = n.out.order.size(); k < n.out.order.size(); ++k) {
    const NetLayer& L = n.out.layers[static_cast<std::size_t>(n.out.order[k])];
    if (L.op != "conv" && L.op != "deconv") continue;
    if (prev < k) {
      const NetLayer& P = n.out.layers[static_cast<std::size_t>(n.out.order[prev])];
      shares_input[prev] = P.op == "conv" && L.op == "conv" && P.input == L.input ? 1 : 0;
    }
    prev = k;
  }
  for (std::size_t k = 0; k < n.out.order.size(); ++k) {
    const int li = n.out.order[k];
    NetLayer& L = n.out.layers[static_cast<std::size_t>(li)];
    const JsonNode& node = n.layer_nodes[static_cast<std::size_t>(li)];
    for (const int t : reads(L)) {  // what its producers wrote (a concat's output: every branch)
      NetTensor& x = n.out.tensors[static_cast<std::size_t>(t)];
      if (x.producer >= 0) x.values = read_tensor(dev, x);
    }
    const uint64_t seed = Rng::derive(h.seed, L.pointer).next();
    const LayerHeader sh{h.file, L.op, L.name, h.config, seed, h.stall};
    const auto doc = parse_json_text(h.file, unit_layer(n, L, node, seed).dump());
    const JsonNode sub = JsonNode::root(doc);
    Program prog;
    std::optional<CompiledConv> cc;
    std::optional<CompiledDeconv> cd;
    // The unit compiler emits the layer as placed and runs it on the network's golden device.
    Placement at = placement_of(n, L, node, parity, dev);
    at.keep_data = shares_input[k] != 0;
    at.reuse_data = k > 0 && L.op == "conv" && [&] {
      for (std::size_t j = k; j-- > 0;) {  // the conv-pipeline layer before
        const NetLayer& P = n.out.layers[static_cast<std::size_t>(n.out.order[j])];
        if (P.op == "conv" || P.op == "deconv") return shares_input[j] != 0;
      }
      return false;
    }();
    if (L.op == "deconv") {  // its output grid is judged before the placed layer runs (alone, at the fixed regions)
      std::optional<CompiledDeconv> alone;
      try {
        alone = compile_deconv_layer(sh, sub);
      } catch (const InputError& e) {
        rethrow_in_layer(n, L, node, e);
      }
      check_deconv_output(n, L, node, *alone);
    }
    try {
      if (L.op == "conv") {
        cc = compile_conv_layer(sh, sub, at);
        prog = cc->program;
      } else if (L.op == "deconv") {
        cd = compile_deconv_layer(sh, sub, at);
        prog = cd->program;
      } else if (L.op == "pdp") {
        prog = compile_pdp_layer_placed(sh, sub, at);
      } else if (L.op == "cdp") {
        prog = compile_cdp_layer_placed(sh, sub, at);
      } else if (L.op == "rubik") {
        prog = compile_rubik_layer_placed(sh, sub, at);
      } else if (L.op == "bdma") {
        prog = compile_bdma_layer_placed(sh, sub, at);
      } else {
        prog = compile_sdp_layer(sh, sub, at);
      }
    } catch (const ConstantRefused& e) {
      throw e.error;
    } catch (const InputError& e) {
      rethrow_in_layer(n, L, node, e);
    }
    if (cc) {
      const NetTensor& out = n.out.tensors[static_cast<std::size_t>(L.output)];
      L.macs = static_cast<uint64_t>(L.k) * static_cast<uint64_t>(n.out.tensors[static_cast<std::size_t>(L.input)].c) *
               static_cast<uint64_t>(L.r) * static_cast<uint64_t>(L.s) * static_cast<uint64_t>(cc->conv.output.w) *
               static_cast<uint64_t>(cc->conv.output.h) * static_cast<uint64_t>(out.n);
      check_shapes(n, L, node, cc->out_shape.w, cc->out_shape.h, cc->out_shape.c, out.prec);
      if (cc->out_layout.line_stride != out.layout.line_stride ||
          cc->out_layout.surface_stride != out.layout.surface_stride ||
          (out.n > 1 && cc->out_layout.batch_stride != out.layout.batch_stride)) {
        throw std::logic_error(fmt::format("network compiler: layer {}'s output layout differs from tensor {}'s",
                                           L.name, out.name));
      }
    }
    Placed placed = segment_layer(n, L, std::move(prog), parity);
    segs.push_back(std::move(placed.seg));
  }
  for (NetTensor& t : n.out.tensors) {
    if (t.producer >= 0) t.values = read_tensor(dev, t);
  }

  // The schedule.
  auto& steps = pb.program().steps;
  const auto append = [&](std::vector<ProgramStep>& v) {
    for (auto& s : v) steps.push_back(std::move(s));
  };
  for (std::size_t k = 0; k < segs.size(); ++k) {
    Segments& s = segs[k];
    NetLayer& L = n.out.layers[static_cast<std::size_t>(n.out.order[k])];
    const std::string where = fmt::format("{}: layer {} ({}): schedule", h.file.string(), L.name, L.op);
    if (k == 0 || !L.overlapped) append(s.setup);
    // Launch with the pointers its setup left (a later layer's setup may have moved them).
    if (L.overlapped) set_pointers(steps, s.setup_pointer, blocks_of(s.launch, false), where);
    append(s.launch);
    // The next layer's setup while this one runs.
    if (k + 1 < segs.size()) {
      NetLayer& next = n.out.layers[static_cast<std::size_t>(n.out.order[k + 1])];
      next.overlapped = n.out.pingpong && s.single_shot && segs[k + 1].overlappable;
      if (next.overlapped) append(segs[k + 1].setup);
    }
    append(s.wait);
    if (k + 1 < segs.size() && n.out.layers[static_cast<std::size_t>(n.out.order[k + 1])].overlapped) {
      set_pointers(steps, s.last_pointer, blocks_of(s.post, true), where);
    }
    append(s.post);
    L.end_step = steps.size();
  }
  n.out.program = std::move(pb.program());
  n.out.program.name = h.name;
  return std::move(n.out);
}

namespace {

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile_network(h, root); }

// The layer named `name` (position in the execution order), or InputError naming `option`.
std::size_t layer_position(const CompiledNetwork& n, const std::string& name, const char* option) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < n.order.size(); ++k) {
    const NetLayer& L = n.layers[static_cast<std::size_t>(n.order[k])];
    if (L.name == name) return k;
    names.push_back(L.name);
  }
  throw InputError(option, name, fmt::format("no layer \"{}\" in the network (its layers: {})", name, join_and(names)));
}

std::size_t end_of(const CompiledNetwork& n, std::size_t k) {
  return n.layers[static_cast<std::size_t>(n.order[k])].end_step;
}

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const CompiledNetwork n = compile_network(h, root);
  Program p = n.program;
  RunOptions o = opt;
  std::string note;
  if (!opt.stop_after.empty()) {
    const std::size_t k = layer_position(n, opt.stop_after, "--stop-after");
    p.steps.resize(end_of(n, k));
    note = fmt::format("stopped after layer {} ({} of {} layers)", opt.stop_after, k + 1, n.order.size());
  }
  if (!opt.wave_layer.empty()) {
    const std::string& w = opt.wave_layer;
    if (o.sim.wave.empty()) throw InputError("--wave-layer", w, "needs --wave FILE (where the waves go)");
    if (o.mode == "golden") throw InputError("--wave-layer", w, "the golden model has no waves");
    const std::size_t k = layer_position(n, w, "--wave-layer");
    if (end_of(n, k) > p.steps.size()) {
      throw InputError("--wave-layer", w, fmt::format("the run stops before layer {} ends", w));
    }
    // The RTL alone, with this run's seed, stall, reset and memory, up to the two checks.
    const auto cycles_until = [&](std::size_t steps) -> uint64_t {
      Program q = n.program;
      q.steps.resize(steps);
      RunOptions ro = o;
      ro.mode = "rtl";
      ro.sim.wave.clear();
      const RunResult rr = run_layer_program(q, h, ro, "network");
      if (rr.status != Status::Pass) {
        throw std::runtime_error(fmt::format("--wave-layer: the run up to step {} did not pass: {}", steps, rr.message));
      }
      return rr.cycles;
    };
    o.sim.wave_from = k == 0 ? 0 : cycles_until(end_of(n, k - 1));
    o.sim.wave_to = cycles_until(end_of(n, k));
    note += fmt::format("{}waves of layer {}: cycles {}..{}", note.empty() ? "" : "; ", w, o.sim.wave_from,
                        o.sim.wave_to);
  }
  RunResult r = run_layer_program(p, h, o, "network");
  if (!note.empty()) r.message = note + (r.message.empty() ? "" : "\n  " + r.message);
  return r;
}

}  // namespace

UnitHandler network_handler() { return {"network", &validate, &run}; }


}  // namespace dla::harness::engines
