// `rubik` layers: one RUBIK transform (mode, precision, cube, CONTRACT's strides, input / output
// layouts) that the layer compiler turns into the register program a driver would issue
// (docs/LAYER_FORMAT.md, "`rubik` layers"; docs/RUBIK.md): the input image at an aligned base, the
// output region pre-filled, S_POINTER, every writable D_ register of RBK, D_OP_ENABLE, wait_intr
// RUBIK_0 and a `check golden` over the output region. It runs through the register-program path
// (run_program_in_mode), like an NVDLA trace. RUBIK is nv_full only, as in NVDLA.
#include "engines/rubik/harness/rubik.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "golden/arith.hpp"
#include "golden/layout.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

namespace rb = golden::regs::rbk;
using golden::CubeShape;
using golden::FeatureLayout;
using golden::RubikConfig;
using golden::RubikMode;
using golden::regs::place;

constexpr int kMaxStride = 32;                     // DECONV_X/Y_STRIDE: 5 bits (value - 1)
constexpr uint64_t kRegionLimit = 0x1000'0000ull;  // bytes of one region the compiler allocates
constexpr uint64_t kAtom = golden::kRubikAtomBytes;
constexpr uint64_t kMaxStrideBytes = 0xffff'ffe0ull;    // 32-bit stride registers, bits [31:5]
constexpr uint64_t kMaxBase = 0xffff'ffff'ffe0ull;      // the compiler's 48-bit address space

constexpr uint64_t u64(int v) { return static_cast<uint64_t>(v); }
constexpr uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
uint32_t lo(uint64_t a) { return static_cast<uint32_t>(a); }
uint32_t hi(uint64_t a) { return static_cast<uint32_t>(a >> 32); }

const char* mode_word(RubikMode m) { return golden::rubik_mode_name(m); }

struct Layer {
  RubikConfig cfg{};
  std::vector<int64_t> input;  // contract: sub-cube j, c, h, w; split: c, h, w; merge: plane c, h, w
  uint64_t in_begin = 0, in_end = 0, out_begin = 0, out_end = 0;
};

// Keys of `node` that only other modes give meaning to are refused by name; then the allowed set.
void check_mode_keys(const JsonNode& node, RubikMode mode, std::initializer_list<std::string_view> allowed,
                     std::initializer_list<std::pair<std::string_view, const char*>> other_modes) {
  for (const auto& [key, why] : other_modes) {
    if (const auto v = node.get(key)) v->fail(fmt::format("\"{}\" has no meaning in {} mode: {}", key, mode_word(mode), why));
  }
  node.allow_keys(allowed);
}

// A byte address or stride: at most `max`, a multiple of `align` (the registers keep bits
// [31:5]; planar data wants 64).
uint64_t parse_bytes(const JsonNode& n, uint64_t max, uint64_t align, const char* rule) {
  const uint64_t v = n.as_u64(max);
  if (v % align != 0) n.fail(fmt::format("{} is not a multiple of {}: {}", v, align, rule));
  return v;
}

uint64_t opt_bytes(const JsonNode& node, const char* key, uint64_t dflt, uint64_t max, uint64_t align,
                   const char* rule) {
  const auto v = node.get(key);
  return v ? parse_bytes(*v, max, align, rule) : dflt;
}

constexpr const char* kAlign32 = "RUBIK's address and stride registers hold bits [31:5] (32-byte units)";
constexpr const char* kAlign64 = "planar data's address and line stride must be 64-byte aligned (programming guide)";

// The "at least" rule of a stride, failing at the key (or the object when the key is absent).
void need_at_least(const JsonNode& node, const char* key, uint64_t v, uint64_t min, const std::string& why) {
  if (v >= min) return;
  const auto k = node.get(key);
  (k ? *k : node).fail(fmt::format("{} {} is less than {}: {}", key, v, min, why));
}

// Planar data (MERGE's input, SPLIT's output) from `node`: base, line and planar strides (64-byte
// aligned; defaults packed), each plane line of `plane_line` bytes. Returns the region's end.
uint64_t parse_planes(const JsonNode& node, const RubikConfig& c, uint64_t default_base, const char* verb,
                      uint64_t& base, uint64_t& line, uint64_t& planar) {
  constexpr uint64_t kAlign = 64;
  const uint64_t plane_line = round_up(u64(c.width) * u64(c.bpe()), kAtom);
  base = opt_bytes(node, "base", default_base, kMaxBase, kAlign, kAlign64);
  line = opt_bytes(node, "line_stride", round_up(plane_line, kAlign), kMaxStrideBytes, kAlign, kAlign64);
  need_at_least(node, "line_stride", line, plane_line,
                fmt::format("a plane line of {} elements is {} as {} bytes (whole 32-byte atoms)", c.width, verb,
                            plane_line));
  planar = opt_bytes(node, "planar_stride", u64(c.height) * line, kMaxStrideBytes, kAlign, kAlign64);
  const uint64_t plane_bytes = (u64(c.height) - 1) * line + plane_line;
  if (c.out_channels > 1) need_at_least(node, "planar_stride", planar, plane_bytes, "the planes would overlap");
  return base + (u64(c.out_channels) - 1) * planar + plane_bytes;
}

Layer parse_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "mode", "precision", "cube", "stride",
                   "input", "output"});
  const golden::HwConfig& hw = *h.config;
  const RegDef* status = RegDb::nvdla().find("RBK.S_STATUS");
  if (hw.atom_bytes != static_cast<int>(kAtom) || !RegDb::nvdla().address(hw.name, *status)) {
    (root.get("config") ? *root.get("config") : root)
        .fail(fmt::format("{} has no RUBIK (the RBK block exists on nv_full only, as in NVDLA)", hw.name));
  }
  Layer L;
  RubikConfig& c = L.cfg;
  const std::string m = root.require("mode").as_choice({"contract", "split", "merge"});
  c.mode = m == "contract" ? RubikMode::Contract : m == "split" ? RubikMode::Split : RubikMode::Merge;
  const bool contract = c.mode == RubikMode::Contract;
  const bool split = c.mode == RubikMode::Split;
  const std::string prec = root.require("precision").as_choice({"int8", "int16", "fp16"});
  c.precision = prec == "int8"    ? golden::RubikPrecision::Int8
                : prec == "int16" ? golden::RubikPrecision::Int16
                                  : golden::RubikPrecision::Fp16;
  const int bpe = c.bpe();
  const int ca = c.lanes_per_atom();

  const JsonNode cube = root.require("cube");
  cube.allow_keys({"w", "h", "c"});
  c.width = static_cast<int>(cube.require("w").as_int(1, kMaxCubeDim));
  c.height = static_cast<int>(cube.require("h").as_int(1, kMaxCubeDim));
  const int channels = static_cast<int>(cube.require("c").as_int(1, kMaxCubeDim));
  c.in_channels = c.out_channels = channels;

  if (const auto s = root.get("stride")) {
    if (!contract) s->fail(fmt::format("\"stride\" has no meaning in {} mode: D_DECONV_STRIDE is CONTRACT's", m));
    s->allow_keys({"x", "y"});
    if (const auto v = s->get("x")) c.sx = static_cast<int>(v->as_int(1, kMaxStride));
    if (const auto v = s->get("y")) c.sy = static_cast<int>(v->as_int(1, kMaxStride));
  }
  if (contract) {
    if (u64(c.width) * u64(c.sx) > u64(kMaxCubeDim)) {
      root.require("stride").require("x").fail(fmt::format(
          "the output width W x sx = {} x {} exceeds 8192 (programming guide: deconv_x_stride x datain_width <= 8192)",
          c.width, c.sx));
    }
    // DATAIN_CHANNEL holds the sx*sy sub-cubes' channels, as the programming guide programs it.
    if (u64(c.sx) * u64(c.sy) * u64(channels) > u64(kMaxCubeDim)) {
      cube.require("c").fail(fmt::format("sx x sy x C = {} x {} x {} exceeds 8192, what D_DATAIN_SIZE_1.DATAIN_CHANNEL "
                                         "holds (13 bits)",
                                         c.sx, c.sy, channels));
    }
    c.in_channels = c.sx * c.sy * channels;
  }
  const int64_t count = int64_t{c.sx} * c.sy * channels * c.height * c.width;
  if (count > kMaxLayerElements) {
    cube.fail(fmt::format("the layer carries {} input elements, more than the limit of {}", count, kMaxLayerElements));
  }

  const int surfaces = c.surfaces();
  const uint64_t line_atoms = u64(c.width) * kAtom;                    // one cube line
  const JsonNode in = root.require("input");
  const JsonNode out = root.require("output");
  if (c.mode == RubikMode::Merge) {
    check_mode_keys(in, c.mode, {"data", "base", "line_stride", "planar_stride"},
                    {{"surface_stride", "MERGE reads planes (D_DAIN_SURF_STRIDE is unused)"},
                     {"contract_stride", "D_CONTRACT_STRIDE_0 is CONTRACT's"}});
    L.in_end = parse_planes(in, c, kRubikInputBase, "read", c.dain_base, c.dain_line_stride, c.dain_planar_stride);
  } else {
    check_mode_keys(in, c.mode,
                    contract ? std::initializer_list<std::string_view>{"data", "base", "line_stride", "surface_stride",
                                                                       "contract_stride"}
                             : std::initializer_list<std::string_view>{"data", "base", "line_stride", "surface_stride"},
                    contract ? std::initializer_list<std::pair<std::string_view, const char*>>{
                                   {"planar_stride", "CONTRACT reads a cube (D_DAIN_PLANAR_STRIDE is MERGE's)"}}
                             : std::initializer_list<std::pair<std::string_view, const char*>>{
                                   {"planar_stride", "SPLIT reads a cube (D_DAIN_PLANAR_STRIDE is MERGE's)"},
                                   {"contract_stride", "D_CONTRACT_STRIDE_0 is CONTRACT's"}});
    c.dain_base = opt_bytes(in, "base", kRubikInputBase, kMaxBase, kAtom, kAlign32);
    c.dain_line_stride = opt_bytes(in, "line_stride", line_atoms, kMaxStrideBytes, kAtom, kAlign32);
    c.dain_surf_stride =
        opt_bytes(in, "surface_stride", u64(c.height) * c.dain_line_stride, kMaxStrideBytes, kAtom, kAlign32);
    const FeatureLayout sub = golden::rubik_subcube_layout(c, 0);
    const CubeShape sub_shape{1, surfaces * ca, c.height, c.width};
    if (const std::string err = sub.validate(sub_shape); !err.empty()) {
      in.fail(fmt::format("the input {} layout is invalid: {}", contract ? "sub-cube" : "cube", err));
    }
    const uint64_t sub_bytes = sub.region_bytes(sub_shape);
    if (contract) {
      c.contract_stride_0 = opt_bytes(in, "contract_stride", u64(surfaces) * c.dain_surf_stride, kMaxStrideBytes,
                                      kAtom, kAlign32);
      if (c.sx * c.sy > 1) {
        need_at_least(in, "contract_stride", c.contract_stride_0, sub_bytes,
                      fmt::format("the {} sub-cubes of {} bytes each would overlap", c.sx * c.sy, sub_bytes));
      }
    }
    L.in_end = c.dain_base + u64(c.sx * c.sy - 1) * c.contract_stride_0 + sub_bytes;
  }
  L.in_begin = c.dain_base;

  if (split) {
    check_mode_keys(out, c.mode, {"base", "line_stride", "planar_stride"},
                    {{"surface_stride", "SPLIT writes planes (D_DAOUT_SURF_STRIDE is unused)"},
                     {"contract_stride", "D_CONTRACT_STRIDE_1 is CONTRACT's"}});
    L.out_end =
        parse_planes(out, c, kRubikOutputBase, "written", c.daout_base, c.daout_line_stride, c.daout_planar_stride);
  } else if (contract) {
    check_mode_keys(out, c.mode, {"base", "line_stride", "surface_stride", "contract_stride"},
                    {{"planar_stride", "CONTRACT writes a cube (D_DAOUT_PLANAR_STRIDE is SPLIT's)"}});
    const uint64_t out_line = u64(c.width) * u64(c.sx) * kAtom;
    c.daout_base = opt_bytes(out, "base", kRubikOutputBase, kMaxBase, kAtom, kAlign32);
    c.daout_line_stride = opt_bytes(out, "line_stride", out_line, kMaxStrideBytes, kAtom, kAlign32);
    need_at_least(out, "line_stride", c.daout_line_stride, out_line,
                  fmt::format("an output line holds W x sx = {} atoms", c.width * c.sx));
    c.contract_stride_1 =
        opt_bytes(out, "contract_stride", u64(c.sy) * c.daout_line_stride, kMaxStrideBytes, kAtom, kAlign32);
    need_at_least(out, "contract_stride", c.contract_stride_1, u64(c.sy) * c.daout_line_stride,
                  fmt::format("one input line becomes sy = {} output lines of {} bytes", c.sy, c.daout_line_stride));
    const uint64_t surface_bytes =
        (u64(c.height) - 1) * c.contract_stride_1 + (u64(c.sy) - 1) * c.daout_line_stride + out_line;
    c.daout_surf_stride =
        opt_bytes(out, "surface_stride", u64(c.height) * c.contract_stride_1, kMaxStrideBytes, kAtom, kAlign32);
    if (surfaces > 1) {
      need_at_least(out, "surface_stride", c.daout_surf_stride, surface_bytes, "the output surfaces would overlap");
    }
    L.out_end = c.daout_base + u64(surfaces - 1) * c.daout_surf_stride + surface_bytes;
  } else {
    check_mode_keys(out, c.mode, {"base", "line_stride", "surface_stride"},
                    {{"planar_stride", "MERGE writes a cube (D_DAOUT_PLANAR_STRIDE is SPLIT's)"},
                     {"contract_stride", "D_CONTRACT_STRIDE_1 is CONTRACT's"}});
    c.daout_base = opt_bytes(out, "base", kRubikOutputBase, kMaxBase, kAtom, kAlign32);
    c.daout_line_stride = opt_bytes(out, "line_stride", line_atoms, kMaxStrideBytes, kAtom, kAlign32);
    c.daout_surf_stride =
        opt_bytes(out, "surface_stride", u64(c.height) * c.daout_line_stride, kMaxStrideBytes, kAtom, kAlign32);
    const FeatureLayout ol = golden::rubik_merge_output_layout(c);
    const CubeShape shape{1, surfaces * ca, c.height, c.width};
    if (const std::string err = ol.validate(shape); !err.empty()) {
      out.fail(fmt::format("the output cube layout is invalid: {}", err));
    }
    L.out_end = c.daout_base + ol.region_bytes(shape);
  }
  L.out_begin = c.daout_base;
  for (const auto& [node, bytes] : {std::pair{&in, L.in_end - L.in_begin}, std::pair{&out, L.out_end - L.out_begin}}) {
    if (bytes > kRegionLimit) {
      node->fail(fmt::format("the region needs {} bytes, more than the {} MiB the compiler allocates", bytes,
                             kRegionLimit >> 20));
    }
  }
  if (L.out_begin < L.in_end && L.in_begin < L.out_end) {
    (out.get("base") ? *out.get("base") : out)
        .fail(fmt::format("the output region [{:#x}, {:#x}) overlaps the input region [{:#x}, {:#x}): RUBIK reads its "
                          "input while it writes",
                          L.out_begin, L.out_end, L.in_begin, L.in_end));
  }
  c.dain_ram_mc = c.daout_ram_mc = true;
  if (const auto u = c.unsupported(hw); !u.empty()) root.fail(u.front());
  const int bits = 8 * bpe;
  // fp16 moves as 16-bit patterns (NVIDIA's C model: 16 elements per atom, as int16): any pattern,
  // NaN payloads included, arrives unchanged.
  L.input = c.precision == golden::RubikPrecision::Fp16
                ? resolve_fp16_values(in.require("data"), static_cast<std::size_t>(count), h.seed)
                : resolve_values(in.require("data"), static_cast<std::size_t>(count), bpe,
                                 static_cast<int64_t>(golden::min_of_bits(bits)),
                                 static_cast<int64_t>(golden::max_of_bits(bits)), h.seed);
  return L;
}

void emit_registers(ProgramBuilder& pb, const RubikConfig& c, int group) {
  pb.write(pb.reg("RBK", "S_POINTER"), static_cast<uint32_t>(group));
  std::map<uint32_t, uint32_t> r;
  r[rb::D_MISC_CFG::offset] = place(static_cast<uint32_t>(c.mode), rb::D_MISC_CFG::RUBIK_MODE{}) |
                              place(static_cast<uint32_t>(c.precision), rb::D_MISC_CFG::IN_PRECISION{});
  r[rb::D_DAIN_RAM_TYPE::offset] = place(c.dain_ram_mc ? 1u : 0u, rb::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{});
  r[rb::D_DATAIN_SIZE_0::offset] = place(static_cast<uint32_t>(c.width - 1), rb::D_DATAIN_SIZE_0::DATAIN_WIDTH{}) |
                                   place(static_cast<uint32_t>(c.height - 1), rb::D_DATAIN_SIZE_0::DATAIN_HEIGHT{});
  r[rb::D_DATAIN_SIZE_1::offset] = static_cast<uint32_t>(c.in_channels - 1);
  r[rb::D_DAIN_ADDR_HIGH::offset] = hi(c.dain_base);
  r[rb::D_DAIN_ADDR_LOW::offset] = lo(c.dain_base);
  r[rb::D_DAIN_LINE_STRIDE::offset] = lo(c.dain_line_stride);
  r[rb::D_DAOUT_RAM_TYPE::offset] = place(c.daout_ram_mc ? 1u : 0u, rb::D_DAOUT_RAM_TYPE::DATAOUT_RAM_TYPE{});
  r[rb::D_DATAOUT_SIZE_1::offset] = static_cast<uint32_t>(c.out_channels - 1);
  r[rb::D_DAOUT_ADDR_HIGH::offset] = hi(c.daout_base);
  r[rb::D_DAOUT_ADDR_LOW::offset] = lo(c.daout_base);
  r[rb::D_DAOUT_LINE_STRIDE::offset] = lo(c.daout_line_stride);
  // The registers a mode does not use are written 0, as the programming guide leaves them.
  switch (c.mode) {
    case RubikMode::Contract:
      r[rb::D_DAIN_SURF_STRIDE::offset] = lo(c.dain_surf_stride);
      r[rb::D_DAOUT_SURF_STRIDE::offset] = lo(c.daout_surf_stride);
      r[rb::D_CONTRACT_STRIDE_0::offset] = lo(c.contract_stride_0);
      r[rb::D_CONTRACT_STRIDE_1::offset] = lo(c.contract_stride_1);
      r[rb::D_DECONV_STRIDE::offset] = place(static_cast<uint32_t>(c.sx - 1), rb::D_DECONV_STRIDE::DECONV_X_STRIDE{}) |
                                       place(static_cast<uint32_t>(c.sy - 1), rb::D_DECONV_STRIDE::DECONV_Y_STRIDE{});
      break;
    case RubikMode::Split:
      r[rb::D_DAIN_SURF_STRIDE::offset] = lo(c.dain_surf_stride);
      r[rb::D_DAOUT_PLANAR_STRIDE::offset] = lo(c.daout_planar_stride);
      break;
    default:
      r[rb::D_DAIN_PLANAR_STRIDE::offset] = lo(c.dain_planar_stride);
      r[rb::D_DAOUT_SURF_STRIDE::offset] = lo(c.daout_surf_stride);
      break;
  }
  pb.write_group("RBK", r);
}

// The input image: CONTRACT's sx*sy sub-cubes or SPLIT's cube (padded lanes 0, stride gaps
// kGapFill), or MERGE's planes (element bytes little endian; gaps and line tails kGapFill).
void load_input(ProgramBuilder& pb, const Layer& L) {
  const RubikConfig& c = L.cfg;
  if (c.mode == RubikMode::Merge) {
    std::vector<uint8_t> img(L.in_end - L.in_begin, kGapFill);
    std::size_t i = 0;
    for (int ch = 0; ch < c.in_channels; ++ch) {
      for (int y = 0; y < c.height; ++y) {
        for (int x = 0; x < c.width; ++x) {
          const uint64_t v = static_cast<uint64_t>(L.input.at(i++));
          const uint64_t off = u64(ch) * c.dain_planar_stride + u64(y) * c.dain_line_stride + u64(x) * u64(c.bpe());
          for (int b = 0; b < c.bpe(); ++b) img.at(off + u64(b)) = static_cast<uint8_t>(v >> (8 * b));
        }
      }
    }
    pb.load(L.in_begin, std::move(img), "input planes");
    return;
  }
  const int channels = c.out_channels;
  const CubeShape lanes{1, c.surfaces() * c.lanes_per_atom(), c.height, c.width};
  const std::size_t per_sub = static_cast<std::size_t>(channels) * u64(c.height) * u64(c.width);
  for (int j = 0; j < c.sx * c.sy; ++j) {
    const auto first = L.input.begin() + static_cast<std::ptrdiff_t>(per_sub * static_cast<std::size_t>(j));
    pb.load_cube_values(golden::rubik_subcube_layout(c, j), lanes, channels,
                        std::vector<int64_t>(first, first + static_cast<std::ptrdiff_t>(per_sub)), kGapFill);
  }
}

Program compile(const LayerHeader& h, const JsonNode& root, const Placement& at = {}) {
  Layer L = parse_layer(h, root);
  // A placed layer reads a tensor in memory and writes one: the regions move as a whole.
  if (at.input) {
    L.in_end = *at.input + (L.in_end - L.in_begin);
    L.in_begin = L.cfg.dain_base = *at.input;
  }
  if (at.output) {
    L.out_end = *at.output + (L.out_end - L.out_begin);
    L.out_begin = L.cfg.daout_base = *at.output;
  }
  const int group = at.group_of("RBK");
  ProgramBuilder pb(h);
  if (!at.input) load_input(pb, L);
  pb.fill(L.out_begin, L.out_end - L.out_begin, kOutputFill, "output region");
  emit_registers(pb, L.cfg, group);
  pb.write(pb.reg("RBK", "D_OP_ENABLE"), 1);
  pb.wait_intr(fmt::format("RUBIK_{}", group));
  pb.check_golden(L.out_begin, L.out_end - L.out_begin);
  run_on_placed_device(at, pb.program(), "rubik");
  return std::move(pb.program());
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_layer_program(compile(h, root), h, opt, "rubik");
}

}  // namespace

Program compile_rubik_layer(const LayerHeader& h, const JsonNode& root) { return compile(h, root); }

Program compile_rubik_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, at);
}

void emit_rubik_registers(ProgramBuilder& pb, const golden::RubikConfig& c, int group) { emit_registers(pb, c, group); }

golden::RubikConfig rubik_layer_config(const LayerHeader& h, const JsonNode& root) { return parse_layer(h, root).cfg; }

UnitHandler rubik_handler() { return {"rubik", &validate, &run}; }

}  // namespace dla::harness::engines
