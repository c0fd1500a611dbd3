// `network` layers: the compiler (network.hpp, docs/NETWORKS.md); the graph it compiles is
// network_graph.cpp's.
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
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/bdma/harness/bdma.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "engines/network/harness/network_internal.hpp"
#include "engines/pdp/golden/pdp.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/sdp/harness/sdp.hpp"
#include "golden/arith.hpp"
#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/placement.hpp"
#include "harness/program.hpp"
#include "harness/program_builder.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines::network_detail {

namespace {

using nlohmann::json;

// ---- one layer as a layer of its unit ----------------------------------------------------------

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
    s["input"] = {{"w", in.w}, {"h", in.h}, {"c", in.c}, {"data", values_json(in.values, in.prec)}};
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
    s["weights"]["data"] = values_json(L.weights, in.prec);
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
    s["input"] = {{"data", values_json(in.values, in.prec)}};
    s["output"] = json::object();
  } else {
    s["cube"] = {{"w", in.w}, {"h", in.h}, {"c", in.c}};
    s["input"] = {{"precision", prec_name(in.prec)}, {"data", values_json(in.values, in.prec)}};
    s["output"] = json::object();
    if (L.op == "sdp") {
      s["output"]["precision"] = prec_name(out.prec);
      if (j.contains("converter")) s["output"]["converter"] = j["converter"];
      if (L.operand >= 0) {
        const NetTensor& op = n.out.tensors[static_cast<std::size_t>(L.operand)];
        json& ew = s["ew"];
        if (!ew.is_object()) ew = json::object();
        if (!ew.contains("alu") || !ew["alu"].is_object()) ew["alu"] = json::object();
        ew["alu"]["operand"] = values_json(op.values, op.prec);
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
  L.k = static_cast<int>(wt.require("k").as_int(1, kMaxCubeDim));
  L.r = static_cast<int>(wt.require("r").as_int(1, 32));
  L.s = static_cast<int>(wt.require("s").as_int(1, 32));
  const int64_t count = int64_t{L.k} * in.c * L.r * L.s;
  if (count > kMaxLayerElements) wt.fail(fmt::format("K x C x R x S = {} weights exceed the limit of {}", count, kMaxLayerElements));
  if (in.prec == golden::Precision::Fp16) {
    L.weights = resolve_fp16_values(wt.require("data"), static_cast<std::size_t>(count), n.h->seed);
    return;
  }
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
    c.precision = static_cast<golden::PdpPrecision>(golden::precision_code(in.prec));
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

// ---- compile_network's steps ----------------------------------------------------------------

// The graph: the file's keys, memory and schedule, then its tensors and layers parsed, checked,
// ordered, fused and allocated.
void build_graph(Net& n, const JsonNode& root, std::optional<bool> pingpong) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "memory", "schedule", "fusion", "tensors",
                   "layers"});
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
}

// The network's inputs in memory: the program loads them and the golden device holds them.
void load_inputs(const Net& n, GoldenDevice& dev, ProgramBuilder& pb) {
  for (const NetTensor& t : n.out.tensors) {
    if (t.producer >= 0 || !t.format.empty() || t.elided) continue;
    golden::Cube<int64_t> cube({t.n, t.c, t.h, t.w});
    std::copy(t.values.begin(), t.values.end(), cube.data().begin());
    ProgramStep& s = pb.add(StepOp::MemLoad, fmt::format("mem_load network input {}", t.name));
    s.addr = t.layout.base;
    s.bytes = golden::store_cube_bytes(t.layout, cube, kGapFill);
    dev.memory().write(s.addr, s.bytes);
  }
}

// CBUF reuse (docs/NETWORKS.md "CBUF reuse"): a conv layer whose input is the one the
// convolution before it read (the conv pipeline's previous layer: no conv or deconv between)
// takes it from CBUF; that one keeps it there.
std::vector<int> cbuf_shares(const Net& n) {
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
  return shares_input;
}

// Layer order[k]: placed, compiled by its unit's compiler (which runs it on the golden device),
// checked against its output tensor and cut into the schedule's segments.
Segments compile_layer(Net& n, const LayerHeader& h, GoldenDevice& dev, std::map<std::string, int>& parity,
                       const std::vector<int>& shares_input, std::size_t k) {
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
  L.steps = std::move(placed.program.steps);  // only the export reads them: moved, not copied
  return std::move(placed.seg);
}

// Every layer in execution order (compile_layer), the block groups carried from one to the next;
// then each produced tensor holds what the golden model computed.
std::vector<Segments> compile_layers(Net& n, const LayerHeader& h, GoldenDevice& dev) {
  std::map<std::string, int> parity;
  std::vector<Segments> segs;
  const std::vector<int> shares_input = cbuf_shares(n);
  for (std::size_t k = 0; k < n.out.order.size(); ++k) {
    segs.push_back(compile_layer(n, h, dev, parity, shares_input, k));
  }
  for (NetTensor& t : n.out.tensors) {
    if (t.producer >= 0) t.values = read_tensor(dev, t);
  }
  return segs;
}

// The schedule: each layer's setup, launch, wait and post segments; with pingpong, the next layer's
// setup between this one's launch and its wait (the S_POINTER writes keep each segment's groups).
void schedule_layers(Net& n, const LayerHeader& h, std::vector<Segments>& segs, ProgramBuilder& pb) {
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
}

}  // namespace

}  // namespace dla::harness::engines::network_detail

namespace dla::harness::engines {

CompiledNetwork compile_network(const LayerHeader& h, const JsonNode& root, std::optional<bool> pingpong) {
  network_detail::Net n;
  n.h = &h;
  n.hw = h.config;
  network_detail::build_graph(n, root, pingpong);

  // The network's inputs in memory, then the layers, each run on the golden model as it is
  // placed (its output values feed the next layers' compilers).
  GoldenDevice dev(*n.hw);
  ProgramBuilder pb(h);
  network_detail::load_inputs(n, dev, pb);
  std::vector<network_detail::Segments> segs = network_detail::compile_layers(n, h, dev);
  network_detail::schedule_layers(n, h, segs, pb);
  n.out.program = std::move(pb.program());
  n.out.program.name = h.name;
  return std::move(n.out);
}

}  // namespace dla::harness::engines
