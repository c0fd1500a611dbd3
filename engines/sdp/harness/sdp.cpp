// `sdp` layers: a friendly description of one SDP layer (cube, precisions, BS / BN / EW stages,
// LUT, output converter) that a layer compiler turns into the register program a driver would
// issue (docs/LAYER_FORMAT.md, "`sdp` layers"): memory images at fixed aligned bases (laid out by
// golden/layout.hpp), S_POINTER, the LUT tables and S_LUT_* words (golden::lut_register_writes),
// every writable D_ register of SDP and SDP_RDMA, D_OP_ENABLE last (SDP, then SDP_RDMA, as NVDLA
// traces do), wait_intr SDP_0, reg_reads of D_STATUS and the D_PERF counters (expected values from
// a golden run of the same program) and a `check golden` over the output region. The program then
// runs through the register-program path (run_program_in_mode: golden / cross / rtl), like an
// NVDLA trace. The SDP part (output, stages, their memory images and register words) is shared
// with `conv` layers' post-ops through engines/sdp/harness/sdp_compiler.hpp. Also `dlacosim bench sdp`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <utility>

#include "golden/arith.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"
#include "engines/lut/golden/lut_builders.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/sdp/golden/sdp.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/program.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "engines/lut/harness/lut.hpp"
#include "engines/sdp/harness/sdp.hpp"
#include "engines/sdp/harness/sdp_compiler.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines::sdp {

namespace {

namespace rs = golden::regs::sdp;
namespace rr = golden::regs::sdp_rdma;
using golden::CubeShape;
using golden::FeatureLayout;
using golden::LutVariant;
using golden::Precision;
using golden::regs::place;

constexpr uint64_t u64(int v) { return static_cast<uint64_t>(v); }

// ------------------------------------------------------------------ parsing helpers

Precision parse_prec(const JsonNode& n, const golden::HwConfig& cfg, const char* what) {
  const Precision p = *golden::parse_precision(n.as_choice({"int8", "int16", "fp16"}));
  if (!cfg.supports(p)) {
    n.fail(fmt::format("{} does not support {} {} (int16 and fp16 only on nv_full)", cfg.name,
                       golden::precision_name(p), what));
  }
  return p;
}

int algo_code(const JsonNode& n, bool ew) {
  const std::string a = ew ? n.as_choice({"max", "min", "sum", "eql"}) : n.as_choice({"max", "min", "sum"});
  return a == "max" ? 0 : a == "min" ? 1 : a == "sum" ? 2 : 3;
}

// Explicit strides (optional) on top of a packed layout; checked with FeatureLayout::validate.
FeatureLayout strided_layout(const JsonNode& node, const CubeShape& shape, int atom, int bpe, uint64_t base,
                             const char* what) {
  FeatureLayout l = FeatureLayout::packed(shape, atom, bpe, base);
  const auto ls = node.get("line_stride");
  const auto ss = node.get("surface_stride");
  if (ls) l.line_stride = ls->as_u64(0xffffffffu);
  if (ss) {
    l.surface_stride = ss->as_u64(0xffffffffu);
  } else {
    l.surface_stride = u64(shape.h) * l.line_stride;
  }
  l.batch_stride = 0;
  // NVDLA's SDP DMAs move a 1x1 cube as one contiguous run, ignoring its surface stride (NVIDIA's
  // C model asserts it packed; golden/sdp.cpp refuses the program): a 1x1 layout stays packed.
  // (Stricter than NVDLA for a batched 1x1 output, which its write DMA walks by the strides.)
  if (shape.w == 1 && shape.h == 1 && l.surface_stride != static_cast<uint64_t>(atom)) {
    (ss ? *ss : ls ? *ls : node)
        .fail(fmt::format("a 1x1 {} cube must be surface-packed (surface stride {} bytes, one atom): NVDLA's SDP "
                          "moves a 1x1 cube as one contiguous run; got {}",
                          what, atom, l.surface_stride));
  }
  const std::string err = l.validate(shape);
  if (!err.empty()) {
    const JsonNode& at = (ss && err.rfind("surface", 0) == 0) ? *ss : ls ? *ls : ss ? *ss : node;
    at.fail(fmt::format("the {} layout is invalid: {} ({}-byte atom, {} channels per atom)", what, err, atom,
                        atom / bpe));
  }
  if (l.region_bytes(shape) > kRegionLimit) {
    node.fail(fmt::format("the {} region needs {} bytes, more than the {} MiB the compiler allocates per region", what,
                          l.region_bytes(shape), kRegionLimit >> 20));
  }
  return l;
}

void parse_cvt(const JsonNode& n, Cvt& c) {
  n.allow_keys({"offset", "scale", "truncate"});
  c.bypass = false;
  if (const auto v = n.get("offset")) c.offset = v->as_int(INT32_MIN, INT32_MAX);
  if (const auto v = n.get("scale")) c.scale = v->as_int(-32768, 32767);
  if (const auto v = n.get("truncate")) c.truncate = v->as_int(0, 63);
}

// An operand: a number (or integer string) is a register operand; an object is a value source
// (random / values / file) for the stage's operand DMA.
// In fp16 a BS / BN register operand is one fp16 value (parse_fp16), an EW one fp32 (parse_fp32),
// kept as the sign-extended bit pattern.
enum class FpOperand { None, Fp16, Fp32 };

void parse_operand(const JsonNode& parent, Operand& op, int64_t reg_min, int64_t reg_max,
                   FpOperand fp = FpOperand::None) {
  op.used = true;
  const auto n = parent.get("operand");
  if (!n) parent.fail("missing required field \"operand\" (a register value, or {\"random\"|\"values\"|\"file\": ...} "
                      "for a memory operand)");
  if (n->is_object()) {
    op.mem = true;
  } else if (fp == FpOperand::Fp16) {
    op.reg = golden::sign_extend(parse_fp16(*n), 16);
  } else if (fp == FpOperand::Fp32) {
    op.reg = golden::sign_extend(parse_fp32(*n), 32);
  } else {
    op.reg = n->as_int(reg_min, reg_max);
  }
}

// The memory-operand values of a stage, once its DMA mode and size are known.
void resolve_operand(const JsonNode& parent, Operand& op, const Dma& dma, const CubeShape& shape, uint64_t seed) {
  if (!op.mem) return;
  const std::size_t count = dma.per_element ? u64(shape.c) * u64(shape.h) * u64(shape.w) : u64(shape.c);
  if (dma.fp16) {
    op.values = resolve_fp16_values(parent.require("operand"), count, seed);
    return;
  }
  const int bits = 8 * dma.data_bytes;
  op.values = resolve_values(parent.require("operand"), count, dma.data_bytes,
                             static_cast<int64_t>(golden::min_of_bits(bits)),
                             static_cast<int64_t>(golden::max_of_bits(bits)), seed);
}

// "operands": DMA mode, element size and (per element) strides of a stage's operand stream.
Dma parse_dma(const std::optional<JsonNode>& n, const Layer& L, bool default_per_element, bool both,
              uint64_t base, const char* what) {
  Dma d;
  d.per_element = default_per_element;
  // An int16 datapath reads 16-bit operands (NVDLA: "in INT16 Mode, should set to TWO_BYTE").
  const bool proc16 = L.proc_prec() == Precision::Int16;
  // An fp16 datapath reads fp16 operands (docs/FP16.md "SDP").
  d.fp16 = L.proc_prec() == Precision::Fp16;
  d.data_bytes = proc16 || d.fp16 ? 2 : 1;
  if (n) {
    n->allow_keys({"per", "precision", "line_stride", "surface_stride"});
    if (const auto p = n->get("per")) d.per_element = p->as_choice({"channel", "element"}) == "element";
    if (const auto p = n->get("precision"); p && d.fp16) {
      if (p->as_choice({"int8", "int16", "fp16"}) != "fp16") p->fail("an fp16 datapath reads fp16 operands: give \"fp16\"");
    } else if (p) {
      d.data_bytes = p->as_choice({"int8", "int16"}) == "int16" ? 2 : 1;
      if (proc16 && d.data_bytes == 1) {
        p->fail("one-byte operands with an int16 datapath: NVDLA reads 16-bit operands in int16 mode (register "
                "description of DATA_SIZE; NVIDIA's RTL asserts it); give \"int16\"");
      }
    }
    if (!d.per_element && (n->get("line_stride") || n->get("surface_stride"))) {
      (n->get("line_stride") ? *n->get("line_stride") : *n->get("surface_stride"))
          .fail("strides apply to per-element operands only (per-channel operands are packed)");
    }
  }
  const int eb = d.data_bytes * (both ? 2 : 1);
  const CubeShape s{1, L.lanes(), L.shape.h, L.shape.w};
  if (d.per_element) {
    // The input region is limited first, so a packed operand region (at most 4x its bytes) fits.
    d.layout = n ? strided_layout(*n, s, L.proc_ca() * eb, eb, base, what)
                 : FeatureLayout::packed(s, L.proc_ca() * eb, eb, base);
  } else {
    d.layout = FeatureLayout::packed({1, L.lanes(), 1, 1}, L.lanes() * eb, eb, base);
  }
  return d;
}

// ---- LUT (same field names as `lut` layers, SDP variant) -------------------------------------


void parse_lut(const JsonNode& tn, YStage& y, bool fp16) {
  const golden::LutProgram p = parse_lut_object(LutVariant::Sdp, golden::LutPrecision::Int16, tn, fp16);
  y.tables = p.tables;
  y.lut_cfg = p.config;
  y.lut = true;
}

// ------------------------------------------------------------------ the layer

void parse_x(const JsonNode& n, Layer& L, XStage& x, uint64_t base, const char* name, uint64_t seed) {
  n.allow_keys({"alu", "mul", "truncate", "relu", "operands"});
  x.enabled = true;
  // fp16 (docs/FP16.md "SDP"): fp16 operands; NVDLA has no shifter there (the shift fields are not read).
  const bool fp16 = L.proc_prec() == Precision::Fp16;
  const auto no_shift = [&](const JsonNode& parent, const char* key) {
    if (const auto s = parent.get(key); s && fp16)
      s->fail("there is no shifter in fp16: NVDLA does not read ALU_SHIFT_VALUE / MUL_SHIFT_VALUE then");
  };
  std::optional<JsonNode> alu = n.get("alu"), mul = n.get("mul");
  if (alu) {
    alu->allow_keys({"algo", "operand", "shift"});
    x.algo = alu->get("algo") ? algo_code(alu->require("algo"), false) : 2;
    no_shift(*alu, "shift");
    if (const auto s = alu->get("shift")) x.alu_shift = static_cast<int>(s->as_int(0, 63));
    parse_operand(*alu, x.alu, -32768, 32767, fp16 ? FpOperand::Fp16 : FpOperand::None);
  }
  if (mul) {
    mul->allow_keys({"operand", "prelu"});
    if (const auto p = mul->get("prelu")) x.prelu = p->as_bool();
    parse_operand(*mul, x.mul, -32768, 32767, fp16 ? FpOperand::Fp16 : FpOperand::None);
  }
  no_shift(n, "truncate");
  if (const auto t = n.get("truncate")) x.truncate = static_cast<int>(t->as_int(0, 63));
  if (const auto r = n.get("relu")) x.relu = r->as_bool();
  const bool any_mem = x.alu.mem || x.mul.mem;
  const auto on = n.get("operands");
  if (on && !any_mem) on->fail(fmt::format("{} takes no operand from memory (give an object as alu or mul operand)", name));
  if (!any_mem) return;
  x.dma = parse_dma(on, L, false, x.alu.mem && x.mul.mem, base, name);
  if (alu) resolve_operand(*alu, x.alu, x.dma, L.shape, seed);
  if (mul) resolve_operand(*mul, x.mul, x.dma, L.shape, seed);
}

void parse_y(const JsonNode& n, Layer& L, uint64_t seed) {
  YStage& y = L.ew;
  n.allow_keys({"alu", "mul", "truncate", "lut", "operands"});
  y.enabled = true;
  // fp16 (docs/FP16.md "SDP EW and LUT"): register operands fp32, memory operands fp16; NVDLA reads
  // neither the operand converters nor EW_TRUNCATE then.
  const bool fp16 = L.proc_prec() == Precision::Fp16;
  const FpOperand fp = fp16 ? FpOperand::Fp32 : FpOperand::None;
  const auto converter = [&](const JsonNode& parent, const Operand& op, Cvt& cvt) {
    const auto c = parent.get("converter");
    if (!c) return;
    if (fp16) c->fail("the EW operand converters are not read in fp16: NVDLA widens fp16 operands to fp32 exactly");
    if (!op.mem) c->fail("the input converter applies to memory operands only (register operands are used as is)");
    parse_cvt(*c, cvt);
  };
  std::optional<JsonNode> alu = n.get("alu"), mul = n.get("mul");
  if (alu) {
    alu->allow_keys({"algo", "operand", "converter"});
    y.algo = alu->get("algo") ? algo_code(alu->require("algo"), true) : 2;
    parse_operand(*alu, y.alu, INT32_MIN, INT32_MAX, fp);
    converter(*alu, y.alu, y.alu_cvt);
  }
  if (mul) {
    mul->allow_keys({"operand", "prelu", "converter"});
    if (const auto p = mul->get("prelu")) y.prelu = p->as_bool();
    parse_operand(*mul, y.mul, INT32_MIN, INT32_MAX, fp);
    converter(*mul, y.mul, y.mul_cvt);
  }
  if (const auto t = n.get("truncate")) {
    if (fp16) t->fail("EW_TRUNCATE is not read in fp16 (there is no shifter in NVDLA's float EW)");
    y.truncate = static_cast<int>(t->as_int(0, 1023));
  }
  if (const auto t = n.get("lut")) {
    if (fp16 && y.alu.used && y.algo == 3) {
      t->fail("EW ALU EQL with the LUT in use is undefined in fp16: the LUT would index the integer 0 or 1 as an fp32 "
              "pattern (NVIDIA's C model)");
    }
    parse_lut(*t, y, fp16);
  }
  const bool any_mem = y.alu.mem || y.mul.mem;
  const auto on = n.get("operands");
  if (on && !any_mem) on->fail("ew takes no operand from memory (give an object as alu or mul operand)");
  if (!any_mem) return;
  y.dma = parse_dma(on, L, true, y.alu.mem && y.mul.mem, kEwBase, "ew");
  if (alu) resolve_operand(*alu, y.alu, y.dma, L.shape, seed);
  if (mul) resolve_operand(*mul, y.mul, y.dma, L.shape, seed);
}

}  // namespace

void parse_output(const JsonNode& out, Layer& L, std::optional<Precision> default_prec) {
  out.allow_keys({"precision", "line_stride", "surface_stride", "converter"});
  if (const auto p = out.get("precision"); p || !default_prec) {
    L.out_prec = parse_prec(out.require("precision"), *L.cfg, "output");
  } else {
    L.out_prec = *default_prec;
  }
  L.out_layout = strided_layout(out, {1, L.out_lanes(), L.shape.h, L.shape.w}, L.cfg->atom_bytes,
                                golden::bytes_per_element(L.out_prec), kOutputBase, "output");
  if (const auto c = out.get("converter")) {
    c->allow_keys({"offset", "scale", "shift"});
    if (const auto v = c->get("offset")) L.cvt_offset = v->as_int(INT32_MIN, INT32_MAX);
    if (const auto v = c->get("scale")) L.cvt_scale = v->as_int(-32768, 32767);
    if (const auto v = c->get("shift")) L.cvt_shift = v->as_int(0, 63);
  }
}

void parse_stages(const JsonNode& root, Layer& L, uint64_t seed) {
  if (const auto n = root.get("bs")) parse_x(*n, L, L.bs, kBsBase, "bs", seed);
  if (const auto n = root.get("bn")) parse_x(*n, L, L.bn, kBnBase, "bn", seed);
  if (const auto n = root.get("ew")) parse_y(*n, L, seed);

  if (const auto p = root.get("perf")) {
    p->allow_keys({"dma", "lut", "sat", "nan_inf"});
    if (const auto v = p->get("dma")) L.perf_dma = v->as_bool();
    if (const auto v = p->get("lut")) L.perf_lut = v->as_bool();
    if (const auto v = p->get("sat")) L.perf_sat = v->as_bool();
    if (const auto v = p->get("nan_inf")) L.perf_nan_inf = v->as_bool();
  }
}

namespace {

// ------------------------------------------------------------------ memory images

// A cube of `lanes` channels (padded lanes 0) from c-major values of the real channels.
golden::Cube<int64_t> padded_cube(const std::vector<int64_t>& v, const CubeShape& real, int lanes) {
  golden::Cube<int64_t> cube({1, lanes, real.h, real.w});
  std::size_t i = 0;
  for (int c = 0; c < real.c; ++c) {
    for (int y = 0; y < real.h; ++y) {
      for (int x = 0; x < real.w; ++x) cube.at(0, c, y, x) = v[i++];
    }
  }
  return cube;
}

// The operand stream's bytes: one element per (channel[, h, w]); BOTH interleaves ALU then MUL.
std::vector<uint8_t> operand_image(const Layer& L, const Dma& d, const Operand& alu, const Operand& mul) {
  const bool both = alu.mem && mul.mem;
  const CubeShape real = d.per_element ? L.shape : CubeShape{1, L.shape.c, 1, 1};
  const auto pack = [&](std::size_t i) -> int64_t {
    if (!both) return alu.mem ? alu.values[i] : mul.values[i];
    const unsigned bits = 8u * static_cast<unsigned>(d.data_bytes);
    const uint64_t m = (uint64_t{1} << bits) - 1;
    return static_cast<int64_t>((static_cast<uint64_t>(alu.values[i]) & m) |
                                ((static_cast<uint64_t>(mul.values[i]) & m) << bits));
  };
  std::vector<int64_t> packed(alu.mem ? alu.values.size() : mul.values.size());
  for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = pack(i);
  const golden::Cube<int64_t> cube = padded_cube(packed, real, L.lanes());
  return golden::store_cube_bytes(d.layout, cube, kGapFill);
}

// ------------------------------------------------------------------ registers

uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v & 0xffffffffu); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
uint32_t bits(int64_t v) { return static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu); }
uint32_t b(bool v) { return v ? 1u : 0u; }
uint32_t u(int v) { return static_cast<uint32_t>(v); }
uint32_t prec_code(Precision p) { return golden::precision_code(p); }

// X-stage register words (BS or BN have the same field layout; the caller picks the offsets).
struct XWords {
  uint32_t cfg, alu_cfg, alu_val, mul_cfg, mul_val;
};
XWords x_words(const XStage& x) {
  using C = rs::D_DP_BS_CFG::BS_BYPASS;
  XWords w{};
  w.cfg = place(b(!x.enabled), C{}) | place(b(!x.alu.used), rs::D_DP_BS_CFG::BS_ALU_BYPASS{}) |
          place(u(x.algo), rs::D_DP_BS_CFG::BS_ALU_ALGO{}) | place(b(!x.mul.used), rs::D_DP_BS_CFG::BS_MUL_BYPASS{}) |
          place(b(x.prelu), rs::D_DP_BS_CFG::BS_MUL_PRELU{}) | place(b(!x.relu), rs::D_DP_BS_CFG::BS_RELU_BYPASS{});
  w.alu_cfg = place(b(x.alu.mem), rs::D_DP_BS_ALU_CFG::BS_ALU_SRC{}) |
              place(u(x.alu_shift), rs::D_DP_BS_ALU_CFG::BS_ALU_SHIFT_VALUE{});
  w.alu_val = place(bits(x.alu.reg), rs::D_DP_BS_ALU_SRC_VALUE::BS_ALU_OPERAND{});
  w.mul_cfg = place(b(x.mul.mem), rs::D_DP_BS_MUL_CFG::BS_MUL_SRC{}) |
              place(u(x.truncate), rs::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE{});
  w.mul_val = place(bits(x.mul.reg), rs::D_DP_BS_MUL_SRC_VALUE::BS_MUL_OPERAND{});
  return w;
}

// {B,N,E}RDMA_CFG word: same field layout for the three streams.
uint32_t dma_cfg(const Dma& d, const Operand& alu, const Operand& mul) {
  const bool on = alu.mem || mul.mem;
  const uint32_t use = alu.mem && mul.mem ? 2u : alu.mem ? 1u : 0u;  // BOTH / ALU / MUL
  return place(b(!on), rr::D_BRDMA_CFG::BRDMA_DISABLE{}) | place(use, rr::D_BRDMA_CFG::BRDMA_DATA_USE{}) |
         place(u(d.data_bytes - 1), rr::D_BRDMA_CFG::BRDMA_DATA_SIZE{}) |
         place(b(d.per_element), rr::D_BRDMA_CFG::BRDMA_DATA_MODE{}) | place(1u, rr::D_BRDMA_CFG::BRDMA_RAM_TYPE{});
}

// Status and counters a layer's program reads back after SDP_g.
constexpr std::pair<std::string_view, uint32_t> kStatusRegs[] = {
    {"D_STATUS", rs::D_STATUS::offset},
    {"D_PERF_OUT_SATURATION", rs::D_PERF_OUT_SATURATION::offset},
    {"D_PERF_LUT_UFLOW", rs::D_PERF_LUT_UFLOW::offset},
    {"D_PERF_LUT_OFLOW", rs::D_PERF_LUT_OFLOW::offset},
    {"D_PERF_LUT_HYBRID", rs::D_PERF_LUT_HYBRID::offset},
    {"D_PERF_LUT_LE_HIT", rs::D_PERF_LUT_LE_HIT::offset},
    {"D_PERF_LUT_LO_HIT", rs::D_PERF_LUT_LO_HIT::offset},
};

}  // namespace

void place_operands(Layer& L, const Placement& at) {
  const auto place = [&](const char* what, auto& x) {
    if (!x.alu.mem && !x.mul.mem) return;
    x.dma.layout.base = at.place_constant(what, operand_image(L, x.dma, x.alu, x.mul).size(), x.dma.layout.base);
  };
  place("BS operands", L.bs);
  place("BN operands", L.bn);
  if (at.operand && (L.ew.alu.mem || L.ew.mul.mem)) {
    L.ew.dma.layout.base = *at.operand;
  } else {
    place("EW operands", L.ew);
  }
}

void emit_operands_and_output(ProgramBuilder& pb, const Layer& L, const Placement& at, bool fill_output) {
  if (L.bs.alu.mem || L.bs.mul.mem) pb.load(L.bs.dma.layout.base, operand_image(L, L.bs.dma, L.bs.alu, L.bs.mul), "BS operands");
  if (L.bn.alu.mem || L.bn.mul.mem) pb.load(L.bn.dma.layout.base, operand_image(L, L.bn.dma, L.bn.alu, L.bn.mul), "BN operands");
  if ((L.ew.alu.mem || L.ew.mul.mem) && !at.operand) {
    pb.load(L.ew.dma.layout.base, operand_image(L, L.ew.dma, L.ew.alu, L.ew.mul), "EW operands");
  }
  if (fill_output) pb.fill(L.out_layout.base, L.output_bytes(), kOutputFill, "output region");
}

void emit_registers(ProgramBuilder& pb, const Layer& L, int group, int rdma_group) {
  // Pointers (PRODUCER: the group the D_ words go to), then the LUT (S_ registers), as a driver
  // does before the D_ group.
  pb.write(pb.reg("SDP", "S_POINTER"), static_cast<uint32_t>(group));
  pb.write(pb.reg("SDP_RDMA", "S_POINTER"), static_cast<uint32_t>(rdma_group < 0 ? group : rdma_group));
  if (L.ew.enabled && L.ew.lut) {
    for (const auto& [off, val] : golden::lut_register_writes(LutVariant::Sdp, L.ew.lut_cfg, L.ew.tables)) {
      pb.write(pb.reg_at("SDP", off), val);
    }
  }

  // SDP D_ group.
  std::map<uint32_t, uint32_t> s;
  s[rs::D_DATA_CUBE_WIDTH::offset] = u(L.shape.w - 1);
  s[rs::D_DATA_CUBE_HEIGHT::offset] = u(L.shape.h - 1);
  s[rs::D_DATA_CUBE_CHANNEL::offset] = u(L.shape.c - 1);
  s[rs::D_DST_BASE_ADDR_LOW::offset] = lo32(L.out_layout.base);
  s[rs::D_DST_BASE_ADDR_HIGH::offset] = hi32(L.out_layout.base);
  s[rs::D_DST_LINE_STRIDE::offset] = lo32(L.out_layout.line_stride);
  s[rs::D_DST_SURFACE_STRIDE::offset] = lo32(L.out_layout.surface_stride);
  const XWords bs = x_words(L.bs), bn = x_words(L.bn);
  s[rs::D_DP_BS_CFG::offset] = bs.cfg;
  s[rs::D_DP_BS_ALU_CFG::offset] = bs.alu_cfg;
  s[rs::D_DP_BS_ALU_SRC_VALUE::offset] = bs.alu_val;
  s[rs::D_DP_BS_MUL_CFG::offset] = bs.mul_cfg;
  s[rs::D_DP_BS_MUL_SRC_VALUE::offset] = bs.mul_val;
  static_assert(rs::D_DP_BN_CFG::offset - rs::D_DP_BS_CFG::offset == 0x14 &&
                rs::D_DP_BN_MUL_SRC_VALUE::offset - rs::D_DP_BS_MUL_SRC_VALUE::offset == 0x14 &&
                rs::D_DP_BN_CFG::BN_ALU_ALGO::lsb == rs::D_DP_BS_CFG::BS_ALU_ALGO::lsb &&
                rs::D_DP_BN_MUL_CFG::BN_MUL_SHIFT_VALUE::lsb == rs::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE::lsb,
                "BN registers mirror BS registers 0x14 bytes on");
  s[rs::D_DP_BN_CFG::offset] = bn.cfg;
  s[rs::D_DP_BN_ALU_CFG::offset] = bn.alu_cfg;
  s[rs::D_DP_BN_ALU_SRC_VALUE::offset] = bn.alu_val;
  s[rs::D_DP_BN_MUL_CFG::offset] = bn.mul_cfg;
  s[rs::D_DP_BN_MUL_SRC_VALUE::offset] = bn.mul_val;
  const YStage& y = L.ew;
  s[rs::D_DP_EW_CFG::offset] =
      place(b(!y.enabled), rs::D_DP_EW_CFG::EW_BYPASS{}) | place(b(!y.alu.used), rs::D_DP_EW_CFG::EW_ALU_BYPASS{}) |
      place(u(y.algo), rs::D_DP_EW_CFG::EW_ALU_ALGO{}) | place(b(!y.mul.used), rs::D_DP_EW_CFG::EW_MUL_BYPASS{}) |
      place(b(y.prelu), rs::D_DP_EW_CFG::EW_MUL_PRELU{}) | place(b(!y.lut), rs::D_DP_EW_CFG::EW_LUT_BYPASS{});
  s[rs::D_DP_EW_ALU_CFG::offset] = place(b(y.alu.mem), rs::D_DP_EW_ALU_CFG::EW_ALU_SRC{}) |
                                   place(b(y.alu_cvt.bypass), rs::D_DP_EW_ALU_CFG::EW_ALU_CVT_BYPASS{});
  s[rs::D_DP_EW_ALU_SRC_VALUE::offset] = bits(y.alu.reg);
  s[rs::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset] = bits(y.alu_cvt.offset);
  s[rs::D_DP_EW_ALU_CVT_SCALE_VALUE::offset] = bits(y.alu_cvt.scale) & 0xffffu;
  s[rs::D_DP_EW_ALU_CVT_TRUNCATE_VALUE::offset] = bits(y.alu_cvt.truncate);
  s[rs::D_DP_EW_MUL_CFG::offset] = place(b(y.mul.mem), rs::D_DP_EW_MUL_CFG::EW_MUL_SRC{}) |
                                   place(b(y.mul_cvt.bypass), rs::D_DP_EW_MUL_CFG::EW_MUL_CVT_BYPASS{});
  s[rs::D_DP_EW_MUL_SRC_VALUE::offset] = bits(y.mul.reg);
  s[rs::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset] = bits(y.mul_cvt.offset);
  s[rs::D_DP_EW_MUL_CVT_SCALE_VALUE::offset] = bits(y.mul_cvt.scale) & 0xffffu;
  s[rs::D_DP_EW_MUL_CVT_TRUNCATE_VALUE::offset] = bits(y.mul_cvt.truncate);
  s[rs::D_DP_EW_TRUNCATE_VALUE::offset] = u(y.truncate);
  // Output to memory (or on the fly to PDP), one batch; the input from memory or flying from CACC
  // (in 2x2 tiles from a Winograd convolution; SDP_RDMA's WINOGRAD bit with SDP's, as NVIDIA's
  // firmware writes them, so that per-element operands come in the same order).
  // Batches (flying from a batched convolution, docs/CDMA_MODES.md): BATCH_NUMBER and the output
  // batch stride; one batch writes 0 to both.
  const bool batched = L.flying && L.shape.n > 1;
  s[rs::D_FEATURE_MODE_CFG::offset] = place(b(L.flying), rs::D_FEATURE_MODE_CFG::FLYING_MODE{}) |
                                      place(b(L.to_pdp), rs::D_FEATURE_MODE_CFG::OUTPUT_DST{}) |
                                      place(b(L.winograd), rs::D_FEATURE_MODE_CFG::WINOGRAD{}) |
                                      place(b(L.nan_to_zero), rs::D_FEATURE_MODE_CFG::NAN_TO_ZERO{}) |
                                      place(batched ? u(L.shape.n - 1) : 0u, rs::D_FEATURE_MODE_CFG::BATCH_NUMBER{});
  s[rs::D_DST_DMA_CFG::offset] = place(1u, rs::D_DST_DMA_CFG::DST_RAM_TYPE{});
  s[rs::D_DST_BATCH_STRIDE::offset] = batched ? static_cast<uint32_t>(L.out_layout.batch_stride) : 0u;
  s[rs::D_DATA_FORMAT::offset] = place(prec_code(L.proc_prec()), rs::D_DATA_FORMAT::PROC_PRECISION{}) |
                                 place(prec_code(L.out_prec), rs::D_DATA_FORMAT::OUT_PRECISION{});
  s[rs::D_CVT_OFFSET::offset] = bits(L.cvt_offset);
  s[rs::D_CVT_SCALE::offset] = bits(L.cvt_scale) & 0xffffu;
  s[rs::D_CVT_SHIFT::offset] = bits(L.cvt_shift);
  s[rs::D_PERF_ENABLE::offset] =
      place(b(L.perf_dma), rs::D_PERF_ENABLE::PERF_DMA_EN{}) | place(b(L.perf_lut), rs::D_PERF_ENABLE::PERF_LUT_EN{}) |
      place(b(L.perf_sat), rs::D_PERF_ENABLE::PERF_SAT_EN{}) |
      place(b(L.perf_nan_inf), rs::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN{});
  pb.write_group("SDP", s);

  // SDP_RDMA D_ group.
  std::map<uint32_t, uint32_t> r;
  r[rr::D_DATA_CUBE_WIDTH::offset] = u(L.shape.w - 1);
  r[rr::D_DATA_CUBE_HEIGHT::offset] = u(L.shape.h - 1);
  r[rr::D_DATA_CUBE_CHANNEL::offset] = u(L.shape.c - 1);
  if (!L.flying) {
    r[rr::D_SRC_BASE_ADDR_LOW::offset] = lo32(L.in_layout.base);
    r[rr::D_SRC_BASE_ADDR_HIGH::offset] = hi32(L.in_layout.base);
    r[rr::D_SRC_LINE_STRIDE::offset] = lo32(L.in_layout.line_stride);
    r[rr::D_SRC_SURFACE_STRIDE::offset] = lo32(L.in_layout.surface_stride);
  }
  struct Stream {
    uint32_t cfg, base_lo, base_hi, line, surf, batch;
    const Dma* dma;
    const Operand *alu, *mul;
  };
  const Stream streams[] = {
      {rr::D_BRDMA_CFG::offset, rr::D_BS_BASE_ADDR_LOW::offset, rr::D_BS_BASE_ADDR_HIGH::offset,
       rr::D_BS_LINE_STRIDE::offset, rr::D_BS_SURFACE_STRIDE::offset, rr::D_BS_BATCH_STRIDE::offset, &L.bs.dma,
       &L.bs.alu, &L.bs.mul},
      {rr::D_NRDMA_CFG::offset, rr::D_BN_BASE_ADDR_LOW::offset, rr::D_BN_BASE_ADDR_HIGH::offset,
       rr::D_BN_LINE_STRIDE::offset, rr::D_BN_SURFACE_STRIDE::offset, rr::D_BN_BATCH_STRIDE::offset, &L.bn.dma,
       &L.bn.alu, &L.bn.mul},
      {rr::D_ERDMA_CFG::offset, rr::D_EW_BASE_ADDR_LOW::offset, rr::D_EW_BASE_ADDR_HIGH::offset,
       rr::D_EW_LINE_STRIDE::offset, rr::D_EW_SURFACE_STRIDE::offset, rr::D_EW_BATCH_STRIDE::offset, &L.ew.dma,
       &L.ew.alu, &L.ew.mul},
  };
  for (const Stream& st : streams) {
    r[st.cfg] = dma_cfg(*st.dma, *st.alu, *st.mul);
    if (!st.alu->mem && !st.mul->mem) continue;
    r[st.base_lo] = lo32(st.dma->layout.base);
    r[st.base_hi] = hi32(st.dma->layout.base);
    if (st.dma->per_element) {
      r[st.line] = lo32(st.dma->layout.line_stride);
      r[st.surf] = lo32(st.dma->layout.surface_stride);
    } else {
      // Unused by NVDLA's DMAs for per-channel operands, but its C model asserts a 1x1 cube's
      // stride packed: one group of PROC lanes.
      const uint32_t packed = static_cast<uint32_t>(L.proc_ca() * st.dma->data_bytes *
                                                   ((st.alu->mem && st.mul->mem) ? 2 : 1));
      r[st.line] = packed;
      r[st.surf] = packed;
    }
    r[st.batch] = 0;
  }
  r[rr::D_FEATURE_MODE_CFG::offset] = place(batched ? u(L.shape.n - 1) : 0u, rr::D_FEATURE_MODE_CFG::BATCH_NUMBER{}) |
                                      place(b(L.flying), rr::D_FEATURE_MODE_CFG::FLYING_MODE{}) |
                                      place(b(L.winograd), rr::D_FEATURE_MODE_CFG::WINOGRAD{}) |
                                      place(prec_code(L.in_prec), rr::D_FEATURE_MODE_CFG::IN_PRECISION{}) |
                                      place(prec_code(L.proc_prec()), rr::D_FEATURE_MODE_CFG::PROC_PRECISION{}) |
                                      place(prec_code(L.out_prec), rr::D_FEATURE_MODE_CFG::OUT_PRECISION{});
  r[rr::D_SRC_DMA_CFG::offset] = place(1u, rr::D_SRC_DMA_CFG::SRC_RAM_TYPE{});
  r[rr::D_PERF_ENABLE::offset] = place(b(L.perf_dma), rr::D_PERF_ENABLE::PERF_DMA_EN{}) |
                                 place(b(L.perf_nan_inf), rr::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN{});
  pb.write_group("SDP_RDMA", r);
}

void emit_status_reads(ProgramBuilder& pb, const GoldenDevice* dev, int group) {
  for (const auto& [name, off] : kStatusRegs) {
    pb.read(pb.reg("SDP", name), dev != nullptr ? dev->peek("SDP", off, group) : 0u);
  }
}

void emit_fp16_status_reads(ProgramBuilder& pb, const GoldenDevice* dev, const Layer& L, int group, int rdma_group) {
  if (L.proc_prec() != Precision::Fp16) return;
  pb.read(pb.reg("SDP", "D_STATUS_NAN_OUTPUT_NUM"),
          dev != nullptr ? dev->peek("SDP", rs::D_STATUS_NAN_OUTPUT_NUM::offset, group) : 0u);
  if (L.flying) return;
  for (const auto& [name, off] : {std::pair{"D_STATUS_NAN_INPUT_NUM", rr::D_STATUS_NAN_INPUT_NUM::offset},
                                  std::pair{"D_STATUS_INF_INPUT_NUM", rr::D_STATUS_INF_INPUT_NUM::offset}}) {
    pb.read(pb.reg("SDP_RDMA", name), dev != nullptr ? dev->peek("SDP_RDMA", off, rdma_group) : 0u);
  }
}

}  // namespace dla::harness::engines::sdp

namespace dla::harness::engines {

namespace {

using namespace sdp;  // NOLINT(google-build-using-namespace): this file is the sdp compiler
using golden::Precision;

Layer parse_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "cube", "input", "output", "bs", "bn",
                   "ew", "perf"});
  Layer L;
  L.cfg = h.config;
  const JsonNode cube = root.require("cube");
  L.shape = parse_cube(cube);

  const JsonNode in = root.require("input");
  in.allow_keys({"precision", "data", "line_stride", "surface_stride", "nan_to_zero"});
  L.in_prec = parse_prec(in.require("precision"), *L.cfg, "input");
  if (const auto n = in.get("nan_to_zero")) {
    L.nan_to_zero = n->as_bool();
    if (L.in_prec != Precision::Fp16) n->fail("NAN_TO_ZERO applies to fp16 input only");
  }
  parse_output(root.require("output"), L);
  const int ib = golden::bytes_per_element(L.in_prec);
  L.in_layout = strided_layout(in, {1, L.in_lanes(), L.shape.h, L.shape.w}, L.cfg->atom_bytes, ib, kInputBase, "input");
  const bool f16 = L.in_prec == Precision::Fp16;
  L.input = f16 ? resolve_fp16_values(in.require("data"), L.shape.elements(), h.seed)
                : resolve_values(in.require("data"), L.shape.elements(), ib,
                                 static_cast<int64_t>(golden::min_of_bits(8 * ib)),
                                 static_cast<int64_t>(golden::max_of_bits(8 * ib)), h.seed);
  // fp16 (docs/FP16.md "SDP"): fp16 in, fp16 or int16 out.
  const JsonNode out_prec = root.require("output").require("precision");
  if (f16 && L.out_prec == Precision::Int8)
    out_prec.fail("fp16 input is written as fp16 or int16: NVDLA's SDP has no fp16 -> int8 output");
  if (!f16 && L.out_prec == Precision::Fp16)
    out_prec.fail("only fp16 input is written as fp16: NVDLA's SDP has no integer -> fp16 conversion");
  if (const auto cv = root.require("output").get("converter"); cv && f16) {
    cv->fail("SDP's output converter is not used in fp16: NVDLA rounds the fp32 result to fp16 (and on to int16) and "
             "ignores D_CVT_OFFSET / SCALE / SHIFT");
  }
  parse_stages(root, L, h.seed);
  return L;
}

struct Compiled {
  Program program;
  uint64_t out_base = 0, out_bytes = 0;
  uint64_t elements = 0;  // lanes computed (W x H x lanes)
};

// Builds the program. With `expect`, runs it once on the golden device and appends reg_reads of
// D_STATUS and the D_PERF counters holding the golden values.
Compiled compile(const LayerHeader& h, const JsonNode& root, bool expect, const Placement& at = {}) {
  Layer L = parse_layer(h, root);
  if (at.input) L.in_layout.base = *at.input;
  if (at.output) L.out_layout.base = *at.output;
  place_operands(L, at);
  const int group = at.group_of("SDP");
  ProgramBuilder pb(h);
  Compiled out;
  out.out_base = L.out_layout.base;
  out.out_bytes = L.output_bytes();
  out.elements = static_cast<uint64_t>(L.lanes()) * static_cast<uint64_t>(L.shape.h) * static_cast<uint64_t>(L.shape.w);

  // Memory: input, operand streams, output pre-filled.
  if (!at.input) {
    pb.load(L.in_layout.base,
            golden::store_cube_bytes(L.in_layout, padded_cube(L.input, L.shape, L.in_lanes()), kGapFill), "input cube");
  }
  emit_operands_and_output(pb, L, at);
  emit_registers(pb, L, group, at.group_of("SDP_RDMA"));

  // Launch: SDP, then SDP_RDMA (the newer NVDLA traces' order), and wait for the done interrupt.
  pb.write(pb.reg("SDP", "D_OP_ENABLE"), 1);
  pb.write(pb.reg("SDP_RDMA", "D_OP_ENABLE"), 1);
  pb.wait_intr(fmt::format("SDP_{}", group));

  // Status and counters: the golden model's values (on the placement's device when it has one).
  std::optional<GoldenDevice> own;
  GoldenDevice* dev = nullptr;
  if (expect) {
    dev = at.device != nullptr ? at.device : &own.emplace(*h.config);
    ProgramRunOptions po;
    po.mode = "golden";
    const RunResult gr = run_program(pb.program(), dev, nullptr, po);
    if (gr.status != Status::Pass) {
      throw std::runtime_error(fmt::format("sdp compiler: the golden model did not run the compiled layer: {}",
                                           gr.message));
    }
  }
  emit_status_reads(pb, dev, group);
  emit_fp16_status_reads(pb, dev, L, group, at.group_of("SDP_RDMA"));

  ProgramStep& c = pb.add(StepOp::Check, "check golden over the output region");
  c.check = CheckKind::Golden;
  c.addr = out.out_base;
  c.size = out.out_bytes;
  out.program = std::move(pb.program());
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root, false); }

RunResult run_compiled(const Compiled& c, const LayerHeader& h, const RunOptions& opt) {
  RunOptions o = opt;  // the layer's seed and stall (run_layer already applied --seed/--stall)
  o.seed = h.seed;
  o.stall = h.stall;
  o.sim.seed = h.seed;
  RunResult r = run_program_in_mode(c.program, *h.config, o);
  r.unit = "sdp";
  return r;
}

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_compiled(compile(h, root, true), h, opt);
}

}  // namespace

UnitHandler sdp_handler() { return {"sdp", &validate, &run}; }

Program compile_sdp_layer(const LayerHeader& h, const JsonNode& root, bool expect_status) {
  return compile(h, root, expect_status).program;
}

Program compile_sdp_layer(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, true, at).program;
}

// ------------------------------------------------------------------ benchmark

std::vector<BenchCase> bench_sdp(const BenchOptions& opt) {
  // 32x32x64 int8 with BS, BN and EW active. "mem": BS per-channel ALU + MUL (interleaved), BN
  // per-element ALU + MUL (interleaved), EW per-element SUM, all from memory; "reg": the same
  // stages with register operands (the datapath's own rate). `--ops N` scales W to N elements.
  // nv_full also in fp16 (fp16 data, operands and output; the same stages without truncations).
  int w = 32;
  if (opt.ops != 0) w = static_cast<int>(std::clamp<uint64_t>(opt.ops / (32 * 64), 1, 1024));
  std::vector<BenchCase> cases;
  struct Case {
    const golden::HwConfig* cfg;
    bool mem, fp16;
  };
  std::vector<Case> runs;
  for (const auto* hw : bench_configs(opt, {&golden::nv_small(), &golden::nv_full()})) {
    for (const bool fp16 : {false, true}) {
      if (fp16 && !hw->supports(golden::Precision::Fp16)) continue;
      runs.push_back({hw, true, fp16});
      runs.push_back({hw, false, fp16});
    }
  }
  for (const Case& k : runs) {
    const auto* cfg = k.cfg;
    const bool mem = k.mem;
    {
      const std::string stages =
          k.fp16 ? (mem ? R"("bs":{"alu":{"algo":"sum","operand":{"random":{}}},"mul":{"operand":{"random":{}}},
                   "operands":{"per":"channel"}},
              "bn":{"alu":{"algo":"sum","operand":{"random":{}}},"mul":{"operand":{"random":{}}},"relu":true,
                   "operands":{"per":"element"}},
              "ew":{"alu":{"algo":"sum","operand":{"random":{}}}})"
                        : R"("bs":{"alu":{"algo":"sum","operand":-7},"mul":{"operand":0.75}},
              "bn":{"alu":{"algo":"max","operand":-100},"mul":{"operand":-0.5},"relu":true},
              "ew":{"alu":{"algo":"sum","operand":12},"mul":{"operand":3,"prelu":true}})")
          : mem ? R"("bs":{"alu":{"algo":"sum","operand":{"random":{}}},"mul":{"operand":{"random":{"min":-64,"max":64}}},
                   "truncate":4,"operands":{"per":"channel"}},
              "bn":{"alu":{"algo":"sum","operand":{"random":{}}},"mul":{"operand":{"random":{}}},"truncate":6,
                   "relu":true,"operands":{"per":"element"}},
              "ew":{"alu":{"algo":"sum","operand":{"random":{}}}})"
              : R"("bs":{"alu":{"algo":"sum","operand":-7},"mul":{"operand":45},"truncate":4},
              "bn":{"alu":{"algo":"max","operand":-100},"mul":{"operand":-90},"truncate":6,"relu":true},
              "ew":{"alu":{"algo":"sum","operand":12},"mul":{"operand":3,"prelu":true},"truncate":1})";
      const std::string io = k.fp16 ? R"("input":{"precision":"fp16","data":{"random":{}}},"output":{"precision":"fp16"})"
                                    : R"("input":{"precision":"int8","data":{"random":{}}},
  "output":{"precision":"int8","converter":{"offset":0,"scale":1,"shift":4}})";
      const std::string text = fmt::format(R"({{"unit":"sdp","config":"{}","seed":{},"cube":{{"w":{},"h":32,"c":64}},
  {}, {}}})",
                                           cfg->name, opt.seed, w, io, stages);
      const auto doc = parse_json_text(
          fmt::format("bench-sdp-{}-{}{}.json", cfg->name, mem ? "mem" : "reg", k.fp16 ? "-fp16" : ""), text);
      LayerHeader h;
      h.file = doc->file;
      h.unit = "sdp";
      h.name = fmt::format("bench_sdp_{}", cfg->name);
      h.config = cfg;
      h.seed = opt.seed;
      const Compiled c = compile(h, JsonNode::root(doc), true);
      const auto elements = static_cast<double>(c.elements);
      const auto reg_writes = std::count_if(c.program.steps.begin(), c.program.steps.end(),
                                            [](const ProgramStep& st) { return st.op == StepOp::RegWrite; });
      // The bytes the layer must move: every region the program loads (input cube, operand
      // streams: read) or fills (the output region: written).
      uint64_t layer_bytes = 0;
      for (const ProgramStep& st : c.program.steps) {
        if (st.op == StepOp::MemLoad) layer_bytes += st.bytes.size();
        if (st.op == StepOp::MemFill) layer_bytes += st.size;
      }

      // Golden: the whole program (memory images, registers, the layer) on the golden device.
      const auto g0 = std::chrono::steady_clock::now();
      int reps = 0;
      double gsec = 0;
      do {
        GoldenDevice dev(*cfg);
        ProgramRunOptions po;
        (void)run_program(c.program, &dev, nullptr, po);
        ++reps;
        gsec = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
      } while (gsec < 0.5 && reps < 50);
      const double golden_eps = elements * reps / gsec;

      // RTL alone (status registers still checked against the golden values), no back-pressure.
      RunOptions ro;
      ro.mode = "rtl";
      ro.seed = opt.seed;
      ro.stall = 0.0;
      ro.sim.seed = opt.seed;
      ro.mem = opt.mem;
      const auto t0 = std::chrono::steady_clock::now();
      const RunResult rr = run_compiled(c, h, ro);
      const double rsec = seconds_since(t0);

      BenchCase b;
      b.unit = "sdp";
      b.config = cfg->name;
      b.name = fmt::format("{}{}", mem ? "memory operands" : "register operands", k.fp16 ? " fp16" : "");
      b.element = "element";
      b.cycles = rr.cycles;
      b.elements = c.elements;
      // NVDLA: nv_small 1 element/cycle; nv_full BS/BN 16, EW 4 (EW is active in both cases).
      const double throughput = cfg->sdp_ew_lanes;
      b.nvdla_elements_per_cycle =
          nvdla_rate(throughput, nvdla_interface_bytes(*cfg, opt.mem), c.elements, layer_bytes);
      b.wall_s = rsec;
      b.mem = opt.mem;
      b.dma = rr.dma;
      b.status = std::string(status_name(rr.status));
      b.extra = {{"cube", fmt::format("{}x32x64", w)},
                 {"reg_writes", reg_writes},
                 {"layer_bytes", layer_bytes},
                 {"sim_elements_per_s", elements / rsec},
                 {"golden_elements_per_s", golden_eps}};
      cases.push_back(std::move(b));
    }
  }
  return cases;
}

std::string format_bench_sdp(const std::vector<BenchCase>& cases) {
  std::string out = fmt::format("{:<9} {:<14} {:>10} {:>9} {:>9} {:>9} {:>9} {:>14} {:>11} {:>13} {:>8}\n", "config",
                                "operands", "cube", "elements", "reg wr", "cycles", "elem/cyc", "NVDLA elem/cyc",
                                "sim elem/s", "golden elem/s", "status");
  std::string dma;
  for (const BenchCase& c : cases) {
    // "memory operands fp16" -> "memory fp16"
    std::string label = c.name.substr(0, c.name.find(' '));
    if (c.name.ends_with(" fp16")) label += " fp16";
    out += fmt::format("{:<9} {:<14} {:>10} {:>9} {:>9} {:>9} {:>9.3f} {:>14.3g} {:>11.3g} {:>13.3g} {:>8}\n",
                       c.config, label, c.extra.at("cube").get<std::string>(),
                       c.elements, c.extra.at("reg_writes").get<int64_t>(), c.cycles, c.elements_per_cycle(),
                       c.nvdla_elements_per_cycle.value_or(0), c.num("sim_elements_per_s"),
                       c.num("golden_elements_per_s"), c.status);
    if (c.dma) dma += fmt::format("  {} {}: {}\n", c.config, c.name, format_dma(*c.dma, c.cycles));
  }
  out += dma;
  out +=
      "cycles: from reset to the interrupt, CSB programming included (one register write per cycle). The RTL issues "
      "up to 1 (nv_small) / 16 (nv_full) elements per cycle while every operand atom they need is cached (one "
      "atom per stream, one DMA read in flight). NVDLA: nv_small SDP 1 element/cycle; nv_full BS/BN 16, EW 4 "
      "elements/cycle; capped by its 8 / 64 B/cycle interface (and --mem-bandwidth) for the layer's bytes. fp16: "
      "the same stages in fp16 (twice the bytes); SDP_RDMA reads one 32-byte atom a request, so with memory "
      "operands the nv_full RTL stays below NVDLA's 64-byte interface (docs/PERFORMANCE.md \"SDP\").\n";
  return out;
}

}  // namespace dla::harness::engines
