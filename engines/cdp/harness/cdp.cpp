// `cdp` layers: one LRN layer (cube, precision, window, bypasses, input / output converters, the
// LUT by function or by entries, input / output layouts) that the layer compiler turns into the
// register program a driver would issue (docs/LAYER_FORMAT.md, "`cdp` layers"): the input image at
// an aligned base (golden/layout.hpp), the output region pre-filled, S_POINTER, the S_LUT_* words
// and both tables (golden::lut_register_writes; tables from the same "lut" parser as `sdp`
// layers), every writable D_ register of CDP_RDMA and CDP, D_OP_ENABLE of CDP then CDP_RDMA,
// wait_intr CDP_0, reads of the statistics registers (expected from the int64 reference) and a
// `check golden` over the output region. It runs through the register-program path
// (run_program_in_mode: golden / cross / rtl), like an NVDLA trace.
#include "engines/cdp/harness/cdp.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "golden/arith.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/cdp/harness/cdp_reference.hpp"
#include "harness/errors.hpp"
#include "harness/program_runner.hpp"
#include "engines/lut/harness/lut.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

namespace rc = golden::regs::cdp;
namespace rr = golden::regs::cdp_rdma;
using golden::CdpConfig;
using golden::CdpPrecision;
using golden::CubeShape;
using golden::FeatureLayout;
using golden::LutVariant;
using golden::regs::place;

uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

struct Layer {
  CdpConfig cfg{};
  golden::LutTables tables{};
  std::vector<int64_t> input;  // C*H*W, c-major
  FeatureLayout in_layout{}, out_layout{};
};

// A converter object {"offset", "scale", "shift"} with NVDLA's field ranges; `offset_bits` is the
// width the datapath keeps, `prod_bits` the width of (value - offset) x scale: a shift of that
// many bits or more would give 0 for every element.
void parse_cvt(const std::optional<JsonNode>& n, const char* what, int offset_bits, const char* offset_rule,
               int shift_max, int prod_bits, int32_t& scale, int& shift, int64_t& offset) {
  if (!n) return;
  n->allow_keys({"offset", "scale", "shift"});
  if (const auto v = n->get("offset")) {
    const int64_t lo = -(int64_t{1} << (offset_bits - 1)), hi = (int64_t{1} << (offset_bits - 1)) - 1;
    const int64_t o = v->as_int(INT64_MIN, INT64_MAX);
    if (o < lo || o > hi) v->fail(fmt::format("{} is out of range [{}, {}]: {}", o, lo, hi, offset_rule));
    offset = o;
  }
  if (const auto v = n->get("scale")) scale = static_cast<int32_t>(v->as_int(-32768, 32767));
  if (const auto v = n->get("shift")) {
    shift = static_cast<int>(v->as_int(0, shift_max));
    if (shift >= prod_bits) {
      v->fail(fmt::format("a shift of {} or more in the {} gives 0 for every element ((value - offset) x scale has {} "
                          "bits)",
                          prod_bits, what, prod_bits));
    }
  }
}

// NVDLA's C model requires a linear table to end where its last entry sits: END = START +
// (entries - 1) x 2^select.
void check_linear_end(const JsonNode& lut, const char* table, int64_t start, int64_t end, int sel, int steps) {
  const golden::Wide span = sel >= 0 ? golden::Wide{steps} << sel : golden::Wide{steps} >> -sel;
  const bool exact = sel >= 0 || (steps % (1 << std::min(-sel, 30))) == 0;
  const golden::Wide want = golden::Wide{start} + span;
  if (exact && want == end) return;
  const auto regs = lut.get("registers");
  const std::string key = fmt::format("{}_end", table);
  const JsonNode& at = regs && regs->get(key) ? *regs->get(key) : lut;
  if (!exact) {
    at.fail(fmt::format("the linear {} table with index select {} spans {} / 2^{} input steps, not a whole number "
                        "(NVDLA's C model requires END = START + {} x 2^select)",
                        table == std::string("le") ? "LE" : "LO", sel, steps, -sel, steps));
  }
  at.fail(fmt::format("the linear {} table ends at START + {} x 2^{} = {}, but its END is {} (NVDLA's C model "
                      "requires them equal; an END the builder clamped means the table does not fit the 38-bit "
                      "range)",
                      table == std::string("le") ? "LE" : "LO", steps, sel, static_cast<int64_t>(want), end));
}

Layer parse_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "cube", "input", "lrn", "in_cvt",
                   "out_cvt", "lut", "perf_lut_en", "output"});
  const golden::HwConfig& hw = *h.config;
  Layer L;
  CdpConfig& c = L.cfg;
  c.atom_bytes = hw.atom_bytes;

  const JsonNode cube = root.require("cube");
  c.shape = parse_cube(cube);

  const JsonNode in = root.require("input");
  in.allow_keys({"precision", "data", "line_stride", "surface_stride", "base", "nan_to_zero"});
  const JsonNode pn = in.require("precision");
  const golden::Precision prec = *golden::parse_precision(pn.as_choice({"int8", "int16", "fp16"}));
  if (!hw.supports(prec)) {
    pn.fail(fmt::format("{} has no {} (int16 and fp16 only on nv_full)", hw.name, golden::precision_name(prec)));
  }
  const bool int8 = prec == golden::Precision::Int8;
  const bool fp16 = prec == golden::Precision::Fp16;
  c.precision = c.rdma_precision = static_cast<CdpPrecision>(golden::precision_code(prec));
  if (const auto n = in.get("nan_to_zero")) {
    if (!fp16) n->fail("NAN_TO_ZERO applies to fp16 input only");
    c.nan_to_zero = n->as_bool();
  }
  // fp16 (docs/FP16.md "CDP in fp16"): NVDLA reads neither converter.
  for (const char* key : {"in_cvt", "out_cvt"}) {
    if (const auto n = root.get(key); n && fp16) {
      n->fail("CDP's converters are not read in fp16 (NVDLA widens the data to fp17 exactly and rounds the product to "
              "fp16)");
    }
  }
  const int bpe = golden::bytes_per_element(prec);
  const int bits = 8 * bpe;

  const JsonNode lrn = root.require("lrn");
  lrn.allow_keys({"window", "sqsum_bypass", "mul_bypass"});
  const JsonNode wn = lrn.require("window");
  c.normalz_len = static_cast<int>(wn.as_int(INT32_MIN, INT32_MAX));
  if (c.normalz_len != 3 && c.normalz_len != 5 && c.normalz_len != 7 && c.normalz_len != 9) {
    wn.fail(fmt::format("{} is not a window NVDLA's CDP has: D_LRN_CFG.NORMALZ_LEN sums 3, 5, 7 or 9 channels",
                        c.normalz_len));
  }
  if (const auto v = lrn.get("sqsum_bypass")) c.sqsum_bypass = v->as_bool();
  if (const auto v = lrn.get("mul_bypass")) c.mul_bypass = v->as_bool();

  int64_t in_off = 0;
  parse_cvt(root.get("in_cvt"), "input converter", int8 ? 8 : 16,
            int8 ? "int8 subtracts DATIN_OFFSET's low 8 bits" : "DATIN_OFFSET is 16 bits", 31, int8 ? 25 : 33,
            c.datin_scale, c.datin_shift, in_off);
  c.datin_offset = static_cast<int32_t>(in_off);
  parse_cvt(root.get("out_cvt"), "output converter", int8 ? 25 : 32,
            int8 ? "int8 keeps DATOUT_OFFSET's low 25 bits" : "DATOUT_OFFSET is 32 bits", 63, int8 ? 42 : 50,
            c.datout_scale, c.datout_shift, c.datout_offset);

  const JsonNode lut = root.require("lut");
  const golden::LutProgram lp =
      parse_lut_object(LutVariant::Cdp, int8 ? golden::LutPrecision::Int8 : golden::LutPrecision::Int16, lut, fp16);
  c.lut = lp.config;
  L.tables = lp.tables;
  if (!fp16) {
    // The select as the engine reads it (6 bits int8, 7 bits int16; named fields are range-checked).
    const auto narrow = [&](int8_t s) { return static_cast<int>(golden::sign_extend(static_cast<uint8_t>(s), int8 ? 6 : 7)); };
    if (c.lut.le_linear) check_linear_end(lut, "le", c.lut.le_start, c.lut.le_end, narrow(c.lut.le_index_select), 64);
    check_linear_end(lut, "lo", c.lut.lo_start, c.lut.lo_end, narrow(c.lut.lo_index_select), 256);
  }
  c.perf_lut_en = true;
  if (const auto v = root.get("perf_lut_en")) c.perf_lut_en = v->as_bool();

  // Layouts: every lane of the last surface is read and written.
  const CubeShape shape = golden::cdp_shape(c);
  L.in_layout = feature_layout_of(in, shape, hw.atom_bytes, bpe, kCdpInputBase, "input");
  const JsonNode out = root.require("output");
  out.allow_keys({"line_stride", "surface_stride", "base"});
  L.out_layout = feature_layout_of(out, shape, hw.atom_bytes, bpe, kCdpOutputBase, "output");
  c.src_base = L.in_layout.base;
  c.src_line_stride = L.in_layout.line_stride;
  c.src_surface_stride = L.in_layout.surface_stride;
  c.dst_base = L.out_layout.base;
  c.dst_line_stride = L.out_layout.line_stride;
  c.dst_surface_stride = L.out_layout.surface_stride;
  const uint64_t in_end = c.src_base + L.in_layout.region_bytes(shape);
  const uint64_t out_end = c.dst_base + L.out_layout.region_bytes(shape);
  if (c.dst_base < in_end && c.src_base < out_end) {
    (out.get("base") ? *out.get("base") : out)
        .fail(fmt::format("the output region [{:#x}, {:#x}) overlaps the input region [{:#x}, {:#x}): CDP reads its "
                          "input while it writes",
                          c.dst_base, out_end, c.src_base, in_end));
  }
  if (const auto u = c.unsupported(hw); !u.empty()) root.fail(u.front());
  L.input = fp16 ? resolve_fp16_values(in.require("data"), c.shape.elements(), h.seed)
                 : resolve_values(in.require("data"), c.shape.elements(), bpe,
                                  static_cast<int64_t>(golden::min_of_bits(bits)),
                                  static_cast<int64_t>(golden::max_of_bits(bits)), h.seed);
  return L;
}

void emit_registers(ProgramBuilder& pb, const Layer& L, int group, int rdma_group) {
  const CdpConfig& c = L.cfg;
  const auto lo = [](uint64_t a) { return static_cast<uint32_t>(a); };
  const auto hi = [](uint64_t a) { return static_cast<uint32_t>(a >> 32); };
  const auto fmt_code = static_cast<uint32_t>(c.precision);  // NVDLA's code: 0 int8, 1 int16, 2 fp16

  pb.write(pb.reg("CDP_RDMA", "S_POINTER"), static_cast<uint32_t>(rdma_group));
  pb.write(pb.reg("CDP", "S_POINTER"), static_cast<uint32_t>(group));
  for (const auto& [off, val] : golden::lut_register_writes(LutVariant::Cdp, c.lut, L.tables)) {
    pb.write(pb.reg_at("CDP", off), val);
  }

  std::map<uint32_t, uint32_t> r;
  r[rr::D_DATA_CUBE_WIDTH::offset] = u32(c.shape.w - 1);
  r[rr::D_DATA_CUBE_HEIGHT::offset] = u32(c.shape.h - 1);
  r[rr::D_DATA_CUBE_CHANNEL::offset] = u32(c.shape.c - 1);
  r[rr::D_SRC_BASE_ADDR_LOW::offset] = lo(c.src_base);
  r[rr::D_SRC_BASE_ADDR_HIGH::offset] = hi(c.src_base);
  r[rr::D_SRC_LINE_STRIDE::offset] = lo(c.src_line_stride);
  r[rr::D_SRC_SURFACE_STRIDE::offset] = lo(c.src_surface_stride);
  r[rr::D_SRC_DMA_CFG::offset] = place(1u, rr::D_SRC_DMA_CFG::SRC_RAM_TYPE{});
  r[rr::D_DATA_FORMAT::offset] = fmt_code;
  pb.write_group("CDP_RDMA", r);

  std::map<uint32_t, uint32_t> p;
  p[rc::D_FUNC_BYPASS::offset] = place(c.sqsum_bypass ? 1u : 0u, rc::D_FUNC_BYPASS::SQSUM_BYPASS{}) |
                                 place(c.mul_bypass ? 1u : 0u, rc::D_FUNC_BYPASS::MUL_BYPASS{});
  p[rc::D_DST_BASE_ADDR_LOW::offset] = lo(c.dst_base);
  p[rc::D_DST_BASE_ADDR_HIGH::offset] = hi(c.dst_base);
  p[rc::D_DST_LINE_STRIDE::offset] = lo(c.dst_line_stride);
  p[rc::D_DST_SURFACE_STRIDE::offset] = lo(c.dst_surface_stride);
  p[rc::D_DST_DMA_CFG::offset] = place(1u, rc::D_DST_DMA_CFG::DST_RAM_TYPE{});
  p[rc::D_DATA_FORMAT::offset] = fmt_code;
  p[rc::D_LRN_CFG::offset] = place(u32((c.normalz_len - 3) / 2), rc::D_LRN_CFG::NORMALZ_LEN{});
  p[rc::D_DATIN_OFFSET::offset] = place(u32(c.datin_offset), rc::D_DATIN_OFFSET::DATIN_OFFSET{});
  p[rc::D_DATIN_SCALE::offset] = place(u32(c.datin_scale), rc::D_DATIN_SCALE::DATIN_SCALE{});
  p[rc::D_DATIN_SHIFTER::offset] = place(u32(c.datin_shift), rc::D_DATIN_SHIFTER::DATIN_SHIFTER{});
  p[rc::D_DATOUT_OFFSET::offset] = u32(c.datout_offset);
  p[rc::D_DATOUT_SCALE::offset] = place(u32(c.datout_scale), rc::D_DATOUT_SCALE::DATOUT_SCALE{});
  p[rc::D_DATOUT_SHIFTER::offset] = place(u32(c.datout_shift), rc::D_DATOUT_SHIFTER::DATOUT_SHIFTER{});
  p[rc::D_PERF_ENABLE::offset] = place(c.perf_lut_en ? 1u : 0u, rc::D_PERF_ENABLE::LUT_EN{});
  if (c.precision == CdpPrecision::Fp16) {
    p[rc::D_NAN_FLUSH_TO_ZERO::offset] = place(c.nan_to_zero ? 1u : 0u, rc::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO{});
  }
  pb.write_group("CDP", p);
}

struct Compiled {
  Program program;
  uint64_t elements = 0;  // output lanes written
};

Compiled compile(const LayerHeader& h, const JsonNode& root, const Placement& at = {}) {
  Layer L = parse_layer(h, root);
  CdpConfig& c = L.cfg;
  place_tensors(at, L.in_layout, L.out_layout, c);
  const int group = at.group_of("CDP");
  ProgramBuilder pb(h);
  const CubeShape shape = golden::cdp_shape(c);
  if (!at.input) pb.load_cube_values(L.in_layout, shape, c.shape.c, L.input, kGapFill);
  const uint64_t out_bytes = L.out_layout.region_bytes(shape);
  pb.fill(L.out_layout.base, out_bytes, kOutputFill, "output region");
  emit_registers(pb, L, group, at.group_of("CDP_RDMA"));
  // Launch: CDP, then CDP_RDMA (most NVDLA traces' order), and wait for the done interrupt.
  pb.write(pb.reg("CDP", "D_OP_ENABLE"), 1);
  pb.write(pb.reg("CDP_RDMA", "D_OP_ENABLE"), 1);
  pb.wait_intr(fmt::format("CDP_{}", group));
  if (c.precision != CdpPrecision::Fp16) {
    // Statistics of the layer's group, as the int64 reference counts them; integer data has no NaN
    // or Inf.
    const cdp_ref::Stats s = cdp_ref::reference(cdp_ref::read_layer(root, h.name, h.seed)).stats;
    pb.read(pb.reg("CDP", "D_PERF_LUT_UFLOW"), s.uflow);
    pb.read(pb.reg("CDP", "D_PERF_LUT_OFLOW"), s.oflow);
    pb.read(pb.reg("CDP", "D_PERF_LUT_HYBRID"), s.hybrid);
    pb.read(pb.reg("CDP", "D_PERF_LUT_LE_HIT"), s.le_hit);
    pb.read(pb.reg("CDP", "D_PERF_LUT_LO_HIT"), s.lo_hit);
    pb.read(pb.reg("CDP", "D_OUT_SATURATION"), s.saturation);
    for (const char* name : {"D_INF_INPUT_NUM", "D_NAN_INPUT_NUM", "D_NAN_OUTPUT_NUM"}) pb.read(pb.reg("CDP", name), 0);
    pb.check_golden(L.out_layout.base, out_bytes);
    run_on_placed_device(at, pb.program(), "cdp");
  } else {
    // fp16: no int64 reference applies (it rounds); the golden model's counts, judged by NVIDIA's
    // C model where it runs.
    std::optional<GoldenDevice> own;
    GoldenDevice* dev = &run_on_placed_or_own_device(at, pb.program(), "cdp", own, *h.config);
    for (const char* name : {"D_PERF_LUT_UFLOW", "D_PERF_LUT_OFLOW", "D_PERF_LUT_HYBRID", "D_PERF_LUT_LE_HIT",
                             "D_PERF_LUT_LO_HIT", "D_OUT_SATURATION", "D_INF_INPUT_NUM", "D_NAN_INPUT_NUM",
                             "D_NAN_OUTPUT_NUM"}) {
      const RegDef& reg = pb.reg("CDP", name);
      pb.read(reg, dev->peek("CDP", reg.offset, group));
    }
    pb.check_golden(L.out_layout.base, out_bytes);
  }
  Compiled out;
  out.program = std::move(pb.program());
  out.elements = shape.elements();
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_layer_program(compile(h, root).program, h, opt, "cdp");
}

}  // namespace

Program compile_cdp_layer(const LayerHeader& h, const JsonNode& root) { return compile(h, root).program; }

Program compile_cdp_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, at).program;
}

golden::CdpConfig cdp_layer_config(const LayerHeader& h, const JsonNode& root) { return parse_layer(h, root).cfg; }

UnitHandler cdp_handler() { return {"cdp", &validate, &run}; }

}  // namespace dla::harness::engines
