// `deconv` layers: a transposed convolution (input W x H x C, K kernels R x S, strides sx, sy,
// cropping and output padding, precision, CACC clip, SDP post-ops) compiled into what NVDLA's
// compiler issues (seed 001, "Deconvolution"; docs/DECONV.md): for each of the sx x sy output
// phases one stride-1 direct convolution with a sub-kernel of the reversed weights, compiled by
// the `conv` compiler (its SDP output is sub-cube j of the channel-extended cube), then one RUBIK
// CONTRACT layer, emitted by the `rubik` compiler's register emission, that writes the output cube.
//
// Output column ox of the uncropped output (ox = w*sx + s) is ox = q*sx + i (phase i); it sums
// x[q - m] * w[i + m*sx] over m. With cropping `a` the layer's column ox' reads full column
// ox' + a: output phase i' = ox' mod sx uses kernel phase (i' + a) mod sx and is shifted by
// qoff = (i' + a) div sx input columns. As a direct convolution (kernel width M = ceil(S / sx),
// taps t = M - 1 - m, i.e. the sub-kernel reversed): PAD_LEFT = M - 1 - qoff, PAD_RIGHT =
// Q' - W + qoff where Q' = ceil(W' / sx) is every sub-convolution's output width. Rows likewise.
#include "engines/deconv/harness/deconv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "golden/arith.hpp"
#include "golden/config.hpp"
#include "engines/rubik/golden/rubik.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/regdb.hpp"
#include "engines/conv/harness/conv.hpp"
#include "harness/program_builder.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/sdp/harness/sdp_compiler.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

using nlohmann::json;

constexpr int kMaxStride = 8;     // the deconvolution strides this compiler takes
constexpr int kMaxKernel = 32;    // R, S as for `conv` layers
constexpr uint64_t kAtom = 32;    // nv_full's memory atom
constexpr uint64_t kRegionLimit = sdp::kRegionLimit;

uint64_t u64(int64_t v) { return static_cast<uint64_t>(v); }

// One axis of the decomposition (x: W, S, sx, crop left / right, output padding x).
struct Axis {
  int size = 1, taps = 1, stride = 1, crop_lo = 0, crop_hi = 0, out_pad = 0;
  int full = 0;  // (size - 1) * stride + taps: the uncropped output
  int out = 0;   // full - crop_lo - crop_hi + out_pad
  int m = 0;     // sub-kernel taps: ceil(taps / stride)
  int q = 0;     // each sub-convolution's output extent: ceil(out / stride)
  [[nodiscard]] int qoff(int phase) const { return (phase + crop_lo) / stride; }
  [[nodiscard]] int kernel_phase(int phase) const { return (phase + crop_lo) % stride; }
  [[nodiscard]] int pad_lo(int phase) const { return m - 1 - qoff(phase); }
  // Output lines of phase i' the layer keeps (q' with q' * stride + i' < out); RUBIK's grid has q.
  [[nodiscard]] int needed(int phase) const { return out > phase ? (out - phase + stride - 1) / stride : 0; }
  // Lines its sub-convolution computes: the kept ones, or more (into the gap past the output) when
  // the kept ones do not reach the last input line (a kernel smaller than the stride), as a
  // convolution reads its whole input.
  [[nodiscard]] int lines(int phase) const { return std::max(needed(phase), size - qoff(phase)); }
  [[nodiscard]] int pad_hi(int phase) const { return lines(phase) - size + qoff(phase); }
};

struct Deconv {
  int c = 1, k = 1;
  golden::Precision prec = golden::Precision::Int8;
  golden::Precision out_prec = golden::Precision::Int8;
  Axis x, y;
  std::vector<int64_t> input;    // C x H x W
  std::vector<int64_t> weights;  // K x C x R x S
};

int opt_int(const JsonNode& n, std::string_view key, int min, int max, int fallback) {
  const auto v = n.get(key);
  return v ? static_cast<int>(v->as_int(min, max)) : fallback;
}

// The node a decomposition rule is about: the named key if the layer gives it, else its parent
// (else the root).
JsonNode at(const JsonNode& root, std::string_view parent, std::string_view key) {
  const auto p = root.get(parent);
  if (!p) return root;
  const auto k = p->get(key);
  return k ? *k : *p;
}

void finish_axis(const JsonNode& root, Axis& a, bool is_x) {
  const char* lo = is_x ? "left" : "top";
  const char* hi = is_x ? "right" : "bottom";
  const char* dim = is_x ? "columns" : "rows";
  a.full = (a.size - 1) * a.stride + a.taps;
  a.out = a.full - a.crop_lo - a.crop_hi + a.out_pad;
  if (a.out < 1) {
    root.require("crop").fail(fmt::format("cropping {} + {} of the {} output {} leaves none", a.crop_lo, a.crop_hi,
                                          a.full, dim));
  }
  a.m = (a.taps + a.stride - 1) / a.stride;
  a.q = (a.out + a.stride - 1) / a.stride;
  const int max_lo = (a.m - 1) * a.stride;
  if (a.crop_lo > max_lo) {
    at(root, "crop", lo).fail(fmt::format(
        "crop.{} {} exceeds (ceil({} / {}) - 1) x {} = {}: a sub-convolution would have to start inside the input "
        "(a negative PAD_{}), which this compiler does not do",
        lo, a.crop_lo, is_x ? "S" : "R", a.stride, a.stride, max_lo, is_x ? "LEFT" : "TOP"));
  }
  for (int i = 0; i < a.stride; ++i) {
    if (a.needed(i) == 0) continue;  // no output line of this phase is kept: no sub-convolution
    if (a.lines(i) > a.q) {
      at(root, "crop", hi).fail(fmt::format(
          "crop.{} {} drops whole input {} from the sub-convolution of output phase {} (it reads all {} input {} "
          "and would write {} lines, more than the {} of RUBIK's grid), which this compiler does not do",
          hi, a.crop_hi, dim, i, a.size, dim, a.lines(i), a.q));
    }
    if (a.pad_hi(i) > a.m - 1) {
      at(root, "output_padding", is_x ? "x" : "y")
          .fail(fmt::format("the output's last {} lie beyond every kernel tap: the sub-convolution of output phase {} "
                            "would need PAD_{} {} >= its kernel extent {} (NVDLA refuses outputs that see padding "
                            "only)",
                            dim, i, is_x ? "RIGHT" : "BOTTOM", a.pad_hi(i), a.m));
    }
  }
}

// SDP operands from memory must be per channel: a per-element operand has the output's shape,
// which no sub-convolution has.
void check_stage(const JsonNode& root, const char* stage) {
  const auto st = root.get(stage);
  if (!st) return;
  const bool ew = std::string_view(stage) == "ew";
  bool mem = false;
  for (const char* op : {"alu", "mul"}) {
    if (const auto o = st->get(op)) {
      if (const auto v = o->get("operand"); v && v->raw().is_object()) mem = true;
      if (ew && op == std::string_view("alu")) {
        if (const auto algo = o->get("algo"); algo && algo->raw() == "eql") {
          algo->fail("EW EQL writes no output, so there is no sub-cube for RUBIK to contract");
        }
      }
    }
  }
  if (!mem) return;
  const auto ops = st->get("operands");
  const auto per = ops ? ops->get("per") : std::nullopt;
  const bool per_element = per ? per->raw() == "element" : ew;
  if (per_element) {
    (per ? *per : *st).fail(fmt::format(
        "{}'s memory operands are per element here; a deconv layer takes per-channel operands only (each "
        "sub-convolution writes part of the output, so an operand with the output's shape fits none of them)",
        stage));
  }
}

Deconv parse(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "precision", "input", "weights",
                   "stride", "crop", "output_padding", "clip", "output", "bs", "bn", "ew"});
  const golden::HwConfig& hw = *h.config;
  const RegDef* status = RegDb::nvdla().find("RBK.S_STATUS");
  if (!RegDb::nvdla().address(hw.name, *status)) {
    (root.get("config") ? *root.get("config") : root)
        .fail(fmt::format("{} has no RUBIK, which a deconvolution's CONTRACT layer needs (the RBK block exists on "
                          "nv_full only, as in NVDLA)",
                          hw.name));
  }
  Deconv d;
  if (const auto p = root.get("precision")) {
    d.prec = *golden::parse_precision(p->as_choice({"int8", "int16", "fp16"}));
    if (!hw.supports(d.prec)) p->fail(fmt::format("{} has no {}", hw.name, golden::precision_name(d.prec)));
  }
  const bool fp16 = d.prec == golden::Precision::Fp16;
  const int bpe = golden::bytes_per_element(d.prec);
  const auto vmin = static_cast<int64_t>(golden::min_of_bits(8 * bpe));
  const auto vmax = static_cast<int64_t>(golden::max_of_bits(8 * bpe));
  const JsonNode in = root.require("input");
  in.allow_keys({"w", "h", "c", "data", "converter"});
  d.x.size = static_cast<int>(in.require("w").as_int(1, kMaxCubeDim));
  d.y.size = static_cast<int>(in.require("h").as_int(1, kMaxCubeDim));
  d.c = static_cast<int>(in.require("c").as_int(1, kMaxCubeDim));
  const JsonNode wt = root.require("weights");
  wt.allow_keys({"k", "r", "s", "data"});
  d.k = static_cast<int>(wt.require("k").as_int(1, kMaxCubeDim));
  d.y.taps = static_cast<int>(wt.require("r").as_int(1, kMaxKernel));
  d.x.taps = static_cast<int>(wt.require("s").as_int(1, kMaxKernel));
  if (const auto st = root.get("stride")) {
    st->allow_keys({"x", "y"});
    d.x.stride = opt_int(*st, "x", 1, kMaxStride, 1);
    d.y.stride = opt_int(*st, "y", 1, kMaxStride, 1);
  }
  if (const auto cr = root.get("crop")) {
    cr->allow_keys({"left", "right", "top", "bottom"});
    d.x.crop_lo = opt_int(*cr, "left", 0, kMaxCubeDim, 0);
    d.x.crop_hi = opt_int(*cr, "right", 0, kMaxCubeDim, 0);
    d.y.crop_lo = opt_int(*cr, "top", 0, kMaxCubeDim, 0);
    d.y.crop_hi = opt_int(*cr, "bottom", 0, kMaxCubeDim, 0);
  }
  if (const auto op = root.get("output_padding")) {
    op->allow_keys({"x", "y"});
    // As in the frameworks: fewer than the stride (the extra lines take no input at all).
    d.x.out_pad = opt_int(*op, "x", 0, d.x.stride - 1, 0);
    d.y.out_pad = opt_int(*op, "y", 0, d.y.stride - 1, 0);
  }
  finish_axis(root, d.x, true);
  finish_axis(root, d.y, false);
  if (int64_t{d.x.q} * d.x.stride > kMaxCubeDim) {
    at(root, "stride", "x").fail(fmt::format("RUBIK's output width ceil(W' / sx) x sx = {} x {} exceeds 8192 "
                                             "(programming guide: deconv_x_stride x datain_width <= 8192)",
                                             d.x.q, d.x.stride));
  }
  if (int64_t{d.x.stride} * d.y.stride * d.k > kMaxCubeDim) {
    wt.require("k").fail(fmt::format("the channel-extended cube has sx x sy x K = {} x {} x {} channels, more than "
                                     "the 8192 RUBIK's D_DATAIN_SIZE_1.DATAIN_CHANNEL holds",
                                     d.x.stride, d.y.stride, d.k));
  }
  if (int64_t{d.x.stride} * d.y.stride * d.k * d.x.q * d.y.q > kMaxLayerElements) {
    wt.require("k").fail(fmt::format("the channel-extended cube ({} x {} x {} x {} x {}) exceeds the limit of {} "
                                     "elements",
                                     d.x.stride, d.y.stride, d.k, d.x.q, d.y.q, kMaxLayerElements));
  }
  if (const auto out = root.get("output")) {
    out->allow_keys({"precision", "converter"});
  }
  for (const char* st : {"bs", "bn", "ew"}) check_stage(root, st);
  // The output precision (SDP's converter may narrow or widen it) is RUBIK's precision.
  {
    sdp::Layer probe;
    probe.cfg = &hw;
    probe.shape = golden::CubeShape{1, d.k, 1, 1};
    probe.in_prec = d.prec;
    probe.flying = true;
    if (const auto out = root.get("output")) {
      sdp::parse_output(*out, probe, d.prec);
      d.out_prec = probe.out_prec;
      // Each phase's convolution flies into SDP: int16 cannot become int8 on the way (docs/SDP.md).
      if (d.prec == golden::Precision::Int16 && d.out_prec == golden::Precision::Int8) {
        out->require("precision").fail(
            "an int16 deconvolution cannot write int8: its convolutions fly into SDP, and NVDLA converts int16 -> int8 "
            "only in an SDP layer that reads from memory (write int16 and convert in an `sdp` layer)");
      }
    } else {
      d.out_prec = d.prec;
    }
  }
  const auto count = [](int64_t v) { return static_cast<std::size_t>(v); };
  const auto values = [&](const JsonNode& node, std::size_t n) {
    return fp16 ? resolve_fp16_values(node, n, h.seed) : resolve_values(node, n, bpe, vmin, vmax, h.seed);
  };
  d.input = values(in.require("data"), count(int64_t{d.c} * d.y.size * d.x.size));
  d.weights = values(wt.require("data"), count(int64_t{d.k} * d.c * d.y.taps * d.x.taps));
  return d;
}

// The `conv` layer of output phase (px, py): the input as it is, the sub-kernel of kernel phase
// (kernel_phase(px), kernel_phase(py)) reversed (tap t = M - 1 - m holds w[phase + m * stride],
// 0 past the kernel), the pads of the phase, the layer's clip, output precision / converter and
// SDP stages.
json sub_conv(const JsonNode& root, const golden::HwConfig& hw, const LayerHeader& h, const Deconv& d, int px,
              int py) {
  const json& j = root.raw();
  const int ix = d.x.kernel_phase(px), iy = d.y.kernel_phase(py);
  std::vector<int64_t> w(u64(int64_t{d.k} * d.c * d.y.m * d.x.m), 0);
  std::size_t n = 0;
  for (int k = 0; k < d.k; ++k) {
    for (int c = 0; c < d.c; ++c) {
      for (int ty = 0; ty < d.y.m; ++ty) {
        const int r = iy + (d.y.m - 1 - ty) * d.y.stride;
        for (int tx = 0; tx < d.x.m; ++tx, ++n) {
          const int s = ix + (d.x.m - 1 - tx) * d.x.stride;
          if (r < d.y.taps && s < d.x.taps) {
            w[n] = d.weights[u64(((int64_t{k} * d.c + c) * d.y.taps + r) * d.x.taps + s)];
          }
        }
      }
    }
  }
  json in{{"w", d.x.size}, {"h", d.y.size}, {"c", d.c}, {"data", values_json(d.input, d.prec)}};
  if (j.contains("input") && j["input"].contains("converter")) in["converter"] = j["input"]["converter"];
  json s{{"unit", "conv"},
         {"config", hw.name},
         {"seed", h.seed},
         {"precision", golden::precision_name(d.prec)},
         {"input", std::move(in)},
         {"weights", {{"k", d.k}, {"r", d.y.m}, {"s", d.x.m}, {"data", values_json(w, d.prec)}}},
         {"padding",
          {{"left", d.x.pad_lo(px)}, {"right", d.x.pad_hi(px)}, {"top", d.y.pad_lo(py)}, {"bottom", d.y.pad_hi(py)}}}};
  for (const char* key : {"clip", "output", "bs", "bn", "ew"}) {
    if (j.contains(key)) s[key] = j[key];
  }
  // A phase whose last grid line lies past the output computes one line fewer, into the sub-cube's
  // full-size layout (RUBIK moves the line it did not write into the output's gaps).
  s["output"]["line_stride"] = u64(d.x.q) * kAtom;
  s["output"]["surface_stride"] = u64(d.x.q) * kAtom * u64(d.y.q);
  return s;
}

// The layer's decomposition: the parsed layer, its CONTRACT and the channel-extended cube.
struct Plan {
  Deconv d;
  golden::RubikConfig rc;
  uint64_t sub_bytes = 0;  // one sub-cube of the channel-extended cube
  uint64_t out_bytes = 0;  // the output region
  int phases = 0;          // sx * sy
  int obpe = 1;
};

Plan plan(const LayerHeader& h, const JsonNode& root) {
  Plan p;
  p.d = parse(h, root);
  const Deconv& d = p.d;
  const golden::HwConfig& hw = *h.config;
  p.obpe = golden::bytes_per_element(d.out_prec);
  const int surfaces = static_cast<int>((u64(d.k) * u64(p.obpe) + kAtom - 1) / kAtom);
  const uint64_t sub_line = u64(d.x.q) * kAtom;
  const uint64_t sub_surf = sub_line * u64(d.y.q);
  p.sub_bytes = sub_surf * u64(surfaces);
  p.phases = d.x.stride * d.y.stride;
  if (p.sub_bytes * u64(p.phases) > kRegionLimit) {
    root.require("weights").require("k").fail(fmt::format(
        "the channel-extended cube needs {} bytes, more than the {} MiB the compiler allocates",
        p.sub_bytes * u64(p.phases), kRegionLimit >> 20));
  }

  golden::RubikConfig& rc = p.rc;
  rc.mode = golden::RubikMode::Contract;
  rc.precision = d.out_prec == golden::Precision::Fp16    ? golden::RubikPrecision::Fp16
                 : d.out_prec == golden::Precision::Int16 ? golden::RubikPrecision::Int16
                                                          : golden::RubikPrecision::Int8;
  rc.width = d.x.q;
  rc.height = d.y.q;
  rc.out_channels = d.k;
  rc.in_channels = p.phases * d.k;
  rc.sx = d.x.stride;
  rc.sy = d.y.stride;
  rc.dain_base = kDeconvExtBase;
  rc.dain_line_stride = sub_line;
  rc.dain_surf_stride = sub_surf;
  rc.contract_stride_0 = p.sub_bytes;
  rc.daout_base = sdp::kOutputBase;
  rc.daout_line_stride = sub_line * u64(d.x.stride);
  rc.contract_stride_1 = rc.daout_line_stride * u64(d.y.stride);
  rc.daout_surf_stride = rc.contract_stride_1 * u64(d.y.q);
  rc.dain_ram_mc = rc.daout_ram_mc = true;
  p.out_bytes = rc.daout_surf_stride * u64(surfaces);
  if (p.out_bytes > kRegionLimit) {
    root.require("input").fail(fmt::format("the output region needs {} bytes, more than the {} MiB the compiler "
                                           "allocates",
                                           p.out_bytes, kRegionLimit >> 20));
  }
  if (const auto u = rc.unsupported(hw); !u.empty()) root.fail(u.front());
  return p;
}

// The sub-kernel convolution of output phase (px, py), writing sub-cube j = py * sx + px.
// `at` places the input, the constants, the groups and the device; the output is sub-cube j of the
// channel-extended cube.
CompiledConv compile_phase(const LayerHeader& h, const JsonNode& root, const Plan& p, int px, int py, Placement at) {
  const int jdx = py * p.d.x.stride + px;  // RUBIK's sub-cube j = sy_i * sx + sx_i
  const std::string text = sub_conv(root, *h.config, h, p.d, px, py).dump();
  const auto doc = parse_json_text(h.file, text);
  at.output = p.rc.dain_base + u64(jdx) * p.sub_bytes;
  try {
    return compile_conv_layer(h, JsonNode::root(doc), at);
  } catch (const InputError& e) {
    root.fail(fmt::format("the sub-kernel convolution of output phase (x {}, y {}) cannot be compiled: {} (at {} "
                          "of the generated conv layer)",
                          px, py, e.rule(), e.where().empty() ? "/" : e.where()));
  }
}

// Output phases with a kept output line in both axes (the others have no convolution).
template <class F>
void for_each_phase(const Plan& p, F f) {
  for (int py = 0; py < p.d.y.stride; ++py) {
    for (int px = 0; px < p.d.x.stride; ++px) {
      if (p.d.x.needed(px) != 0 && p.d.y.needed(py) != 0) f(px, py);
    }
  }
}

// Sub-cubes of phases without a kept output line are never written: defined bytes for RUBIK.
void fill_ext_cube(ProgramBuilder& pb, const Plan& p) {
  pb.fill(p.rc.dain_base, p.sub_bytes * u64(p.phases), kGapFill, "channel-extended cube");
}

// The CONTRACT layer from the channel-extended cube to the output, its interrupt and the check.
void emit_contract(ProgramBuilder& pb, const Plan& p, int group) {
  pb.fill(p.rc.daout_base, p.out_bytes, kOutputFill, "output region");
  emit_rubik_registers(pb, p.rc, group);
  pb.write(pb.reg("RBK", "D_OP_ENABLE"), 1);
  pb.wait_intr(fmt::format("RUBIK_{}", group));
  pb.check_golden(p.rc.daout_base, p.out_bytes);
}

CompiledDeconv compile(const LayerHeader& h, const JsonNode& root, const Placement& at = {}) {
  Plan p = plan(h, root);
  p.rc.dain_base = at.place_constant("channel-extended cube", p.sub_bytes * u64(p.phases), kDeconvExtBase);
  if (at.output) p.rc.daout_base = *at.output;
  CompiledDeconv out;
  out.out_w = p.d.x.out;
  out.out_h = p.d.y.out;
  out.k = p.d.k;
  out.out_base = p.rc.daout_base;
  out.out_line_stride = p.rc.daout_line_stride;
  out.out_surface_stride = p.rc.daout_surf_stride;
  out.out_bpe = p.obpe;

  ProgramBuilder pb(h);
  // The program runs as it grows (the sub-convolutions' status reads): on the placement's device
  // when it has one, else on a fresh one.
  std::optional<GoldenDevice> own;
  Placement sub = at;
  if (sub.device == nullptr) sub.device = &own.emplace(*h.config);
  fill_ext_cube(pb, p);
  run_on_placed_device(at, pb.program(), "deconv");
  for_each_phase(p, [&](int px, int py) {
    CompiledConv cc = compile_phase(h, root, p, px, py, sub);
    advance_groups(sub.group, cc.program);
    ++out.convolutions;
    auto& steps = pb.program().steps;
    for (ProgramStep& s : cc.program.steps) {
      s.where = fmt::format("{} [sub-convolution x {}, y {}]", s.where, px, py);
      steps.push_back(std::move(s));
    }
  });
  ProgramBuilder contract(h);
  emit_contract(contract, p, sub.group_of("RBK"));
  run_on_placed_device(at, contract.program(), "deconv");
  for (ProgramStep& s : contract.program().steps) pb.program().steps.push_back(std::move(s));
  out.program = std::move(pb.program());
  return out;
}

DeconvParts parts(const LayerHeader& h, const JsonNode& root) {
  const Plan p = plan(h, root);
  DeconvParts out;
  out.contract_config = p.rc;
  for_each_phase(p, [&](int px, int py) {
    out.convolutions.push_back({px, py, compile_phase(h, root, p, px, py, Placement{})});
  });
  ProgramBuilder pb(h);
  fill_ext_cube(pb, p);
  emit_contract(pb, p, 0);
  out.contract = std::move(pb.program());
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_layer_program(compile(h, root).program, h, opt, "deconv");
}

}  // namespace

CompiledDeconv compile_deconv_layer(const LayerHeader& h, const JsonNode& root) { return compile(h, root); }

CompiledDeconv compile_deconv_layer(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, at);
}

DeconvParts compile_deconv_parts(const LayerHeader& h, const JsonNode& root) { return parts(h, root); }

UnitHandler deconv_handler() { return {"deconv", &validate, &run}; }

}  // namespace dla::harness::engines
