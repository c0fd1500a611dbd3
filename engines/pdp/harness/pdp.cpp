// `pdp` layers: one pooling layer (cube, method, kernel, stride, padding and pad value, precision,
// input / output layouts, width split) that the layer compiler turns into the register program a
// driver would issue (docs/LAYER_FORMAT.md, "`pdp` layers"): the input image at an aligned base
// (golden/layout.hpp), the output region pre-filled, S_POINTER, every writable D_ register of
// PDP_RDMA and PDP (RECIP_KERNEL_* = floor(2^16 / k) and PAD_VALUE_{n}X = n x pad value as NVDLA's
// firmware programs them; split widths as NVDLA's compiler PDPNode computes them), D_OP_ENABLE of
// PDP then PDP_RDMA, wait_intr PDP_0, reads of the NaN/Inf counters (0 for integers) and a
// `check golden` over the output region. It runs through the register-program path
// (run_program_in_mode: golden / cross / rtl), like an NVDLA trace.
#include "engines/pdp/harness/pdp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/layout.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/pdp/golden/pdp.hpp"
#include "harness/errors.hpp"
#include "harness/program_runner.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

namespace rp = golden::regs::pdp;
namespace rr = golden::regs::pdp_rdma;
using golden::CubeShape;
using golden::FeatureLayout;
using golden::PdpConfig;
using golden::regs::place;

constexpr int kMaxPartialWidth = 1024;        // 10-bit PARTIAL_WIDTH fields (value - 1)
constexpr uint64_t kRegionLimit = 0x1000'0000ull;

constexpr uint64_t u64(int v) { return static_cast<uint64_t>(v); }
uint32_t u32(int v) { return static_cast<uint32_t>(v); }

// Width split as NVDLA's compiler (PDPNode) computes it for output lines of at most `max_w`
// columns: OUT_FIRST = min(max, W'), OUT_MID = max, OUT_LAST = the rest; IN_FIRST = (OUT_FIRST-1)
// x SW + KW - PAD_LEFT, IN_MID = (OUT_MID-1) x SW + KW - overlap, IN_LAST = (OUT_LAST-1) x SW + KW
// - PAD_RIGHT - overlap (overlap = KW - SW).
void split_widths(PdpConfig& c, int max_w) {
  const int ow = c.out.w;
  const int n = (ow + max_w - 1) / max_w;
  c.splits = n;
  if (n == 1) {
    c.in_widths = {c.in.w, 1, 1};
    c.out_widths = {ow, 1, 1};
    return;
  }
  const int ov = c.kernel_w - c.stride_w;
  const int first = max_w;
  const int mid = max_w;
  const int last = ow - first - (n - 2) * mid;
  c.out_widths = {first, mid, last};
  c.in_widths = {(first - 1) * c.stride_w + c.kernel_w - c.pad_left, (mid - 1) * c.stride_w + c.kernel_w - ov,
                 (last - 1) * c.stride_w + c.kernel_w - c.pad_right - ov};
}

}  // namespace

// A packed layout with the optional "line_stride" / "surface_stride" / "base" of `node`, checked.
FeatureLayout feature_layout_of(const JsonNode& node, const CubeShape& shape, int atom, int bpe,
                                uint64_t default_base, const char* what) {
  uint64_t base = default_base;
  if (const auto b = node.get("base")) base = b->as_u64(0xffff'ffff'ffffull);
  FeatureLayout l = FeatureLayout::packed(shape, atom, bpe, base);
  const auto ls = node.get("line_stride");
  const auto ss = node.get("surface_stride");
  if (ls) l.line_stride = ls->as_u64(0xffffffffu);
  l.surface_stride = ss ? ss->as_u64(0xffffffffu) : u64(shape.h) * l.line_stride;
  l.batch_stride = 0;
  if (const std::string err = l.validate(shape); !err.empty()) {
    const JsonNode& at = err.rfind("base", 0) == 0 && node.get("base") ? *node.get("base")
                         : (ss && err.find("surface") != std::string::npos) ? *ss
                         : ls                                                ? *ls
                                                                             : node;
    at.fail(fmt::format("the {} layout is invalid: {} ({}-byte atom, {} channels per atom)", what, err, atom,
                        atom / bpe));
  }
  if (l.region_bytes(shape) > kRegionLimit) {
    node.fail(fmt::format("the {} region needs {} bytes, more than the {} MiB the compiler allocates", what,
                          l.region_bytes(shape), kRegionLimit >> 20));
  }
  return l;
}

// The "pool" object (method, kernel, stride, pad) onto `c`, whose input cube (in) and precision
// are set: method, kernel, strides, pads, PAD_VALUE_{n}X, RECIP_KERNEL_* and the output cube.
int64_t parse_pool(const JsonNode& pool, PdpConfig& c) {
  const int bits = 8 * golden::pdp_precision_bytes(c.precision);
  const bool fp16 = c.precision == golden::PdpPrecision::Fp16;
  int64_t pad_value = 0;
  pool.allow_keys({"method", "kernel", "stride", "pad"});
  const std::string m = pool.require("method").as_choice({"average", "max", "min"});
  c.method = m == "average" ? golden::PdpMethod::Average : m == "max" ? golden::PdpMethod::Max : golden::PdpMethod::Min;
  const auto two = [](const JsonNode& n, int& w, int& hh, int max, const char* rule) {
    n.allow_keys({"w", "h"});
    for (const auto& [key, dst] : {std::pair<const char*, int*>{"w", &w}, {"h", &hh}}) {
      if (const auto v = n.get(key)) {
        *dst = static_cast<int>(v->as_int(1, 64));
        if (*dst > max) v->fail(rule);
      }
    }
  };
  const JsonNode kn = pool.require("kernel");
  two(kn, c.kernel_w, c.kernel_h, 8, "NVDLA's PDP kernel is at most 8 x 8 (KERNEL_WIDTH/HEIGHT)");
  if (const auto sn = pool.get("stride")) two(*sn, c.stride_w, c.stride_h, 16, "NVDLA's PDP stride is at most 16");
  if (const auto pad = pool.get("pad")) {
    pad->allow_keys({"left", "right", "top", "bottom", "value"});
    const auto side = [&](const char* key, int kernel, const char* dim) {
      const auto v = pad->get(key);
      if (!v) return 0;
      const auto p = static_cast<int>(v->as_int(0, 7));
      if (p >= kernel) {
        v->fail(fmt::format("padding must be less than the kernel {} {} (NVDLA: PAD_LEFT/RIGHT < kernel width, "
                            "PAD_TOP/BOTTOM < kernel height)",
                            dim, kernel));
      }
      return p;
    };
    c.pad_left = side("left", c.kernel_w, "width");
    c.pad_right = side("right", c.kernel_w, "width");
    c.pad_top = side("top", c.kernel_h, "height");
    c.pad_bottom = side("bottom", c.kernel_h, "height");
    if (const auto v = pad->get("value")) {
      pad_value = fp16 ? parse_fp16(*v)
                       : v->as_int(static_cast<int64_t>(golden::min_of_bits(bits)), static_cast<int64_t>(golden::max_of_bits(bits)));
    }
  }
  if (fp16) {
    // fp16 (docs/FP16.md "PDP"): PAD_VALUE_{n}X are fp17 patterns, n x the fp16 pad value rounded
    // to fp17 as NVIDIA's driver programs them (the reciprocals too: pdp_recip_kernel).
    namespace fp = golden::fp;
    const uint32_t v17 = fp::convert(fp::kFp16, fp::kFp17, static_cast<uint32_t>(pad_value));
    for (int n = 1; n <= 7; ++n) {
      c.pad_value[static_cast<std::size_t>(n - 1)] =
          static_cast<int32_t>(fp::mul(fp::kFp17, fp::from_int(fp::kFp17, static_cast<uint64_t>(n), 8), v17));
    }
  } else {
    for (int n = 1; n <= 7; ++n) c.pad_value[static_cast<std::size_t>(n - 1)] = static_cast<int32_t>(n * pad_value);
  }
  c.recip_w = golden::pdp_recip_kernel(fp16, c.kernel_w);
  c.recip_h = golden::pdp_recip_kernel(fp16, c.kernel_h);
  const int span_w = c.in.w + c.pad_left + c.pad_right - c.kernel_w;
  const int span_h = c.in.h + c.pad_top + c.pad_bottom - c.kernel_h;
  if (span_w < 0 || span_h < 0) {
    kn.fail(fmt::format("the kernel {}x{} is larger than the padded input {}x{}", c.kernel_w, c.kernel_h,
                        c.in.w + c.pad_left + c.pad_right, c.in.h + c.pad_top + c.pad_bottom));
  }
  if (span_w % c.stride_w != 0) {
    (pool.get("pad") ? *pool.get("pad") : pool)
        .fail(fmt::format("W + pad left + pad right - kernel width = {} must be a multiple of the stride {} (NVDLA "
                          "uses every input column)",
                          span_w, c.stride_w));
  }
  c.out = {1, c.in.c, golden::pdp_out_size(c.in.h, c.pad_top, c.pad_bottom, c.kernel_h, c.stride_h),
           golden::pdp_out_size(c.in.w, c.pad_left, c.pad_right, c.kernel_w, c.stride_w)};
  c.in.n = 1;
  return pad_value;
}

namespace {

struct Layer {
  PdpConfig cfg{};
  golden::Precision prec = golden::Precision::Int8;
  std::vector<int64_t> input;  // C*H*W, c-major
  FeatureLayout in_layout{}, out_layout{};
  int64_t pad_value = 0;
};

Layer parse_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "cube", "input", "pool", "split", "output"});
  const golden::HwConfig& hw = *h.config;
  Layer L;
  PdpConfig& c = L.cfg;
  c.atom_bytes = hw.atom_bytes;

  const JsonNode cube = root.require("cube");
  c.in = parse_cube(cube);

  const JsonNode in = root.require("input");
  in.allow_keys({"precision", "data", "line_stride", "surface_stride", "base", "nan_to_zero"});
  const JsonNode pn = in.require("precision");
  L.prec = *golden::parse_precision(pn.as_choice({"int8", "int16", "fp16"}));
  if (!hw.supports(L.prec)) {
    pn.fail(fmt::format("{} has no {} (int16 and fp16 only on nv_full)", hw.name, golden::precision_name(L.prec)));
  }
  c.precision = static_cast<golden::PdpPrecision>(golden::precision_code(L.prec));
  c.rdma_precision = c.precision;
  if (const auto n = in.get("nan_to_zero")) {
    if (L.prec != golden::Precision::Fp16) n->fail("NAN_TO_ZERO applies to fp16 input only");
    c.nan_to_zero = n->as_bool();
  }
  const int bpe = golden::bytes_per_element(L.prec);
  const int bits = 8 * bpe;

  // Pooling.
  const JsonNode pool = root.require("pool");
  L.pad_value = parse_pool(pool, c);

  // Split.
  const int hw_max = hw.pdp_max_out_width(L.prec, c.kernel_h, c.stride_h);
  // Each piece's input width must fit the 10-bit PARTIAL_WIDTH_IN fields too.
  const int field_max = std::max(1, (kMaxPartialWidth - c.kernel_w) / c.stride_w);
  std::optional<JsonNode> split_node = root.get("split");
  if (!split_node) {
    split_widths(c, std::min(hw_max, field_max));
  } else {
    split_node->allow_keys({"max_width", "num", "out_widths"});
    if (const auto mw = split_node->get("max_width")) {
      if (split_node->get("num") || split_node->get("out_widths")) {
        mw->fail("give either \"max_width\" (automatic split) or \"num\" and \"out_widths\" (explicit), not both");
      }
      split_widths(c, static_cast<int>(mw->as_int(1, std::min(hw_max, field_max))));
    } else {
      const JsonNode num = split_node->require("num");
      c.splits = static_cast<int>(num.as_int(1, 256));
      const JsonNode ow = split_node->require("out_widths");
      if (!ow.is_array() || ow.size() != 3) ow.fail("must be [first, mid, last] output widths");
      c.out_widths = {static_cast<int>(ow[0].as_int(1, kMaxPartialWidth)), static_cast<int>(ow[1].as_int(1, kMaxPartialWidth)),
                      static_cast<int>(ow[2].as_int(1, kMaxPartialWidth))};
      const int ov = c.kernel_w - c.stride_w;
      c.in_widths = {(c.out_widths.first - 1) * c.stride_w + c.kernel_w - c.pad_left,
                     (c.out_widths.mid - 1) * c.stride_w + c.kernel_w - ov,
                     (c.out_widths.last - 1) * c.stride_w + c.kernel_w - c.pad_right - ov};
      if (c.splits == 1) {
        num.fail("an explicit split needs at least 2 pieces (leave \"split\" out for none)");
      }
    }
  }
  if (c.splits > 256) {
    (split_node ? *split_node : root)
        .fail(fmt::format("the split needs {} pieces; SPLIT_NUM (8 bits) holds at most 256", c.splits));
  }
  if (c.splits > 1) {
    const JsonNode& at = split_node ? *split_node : root;
    for (const int w : {c.in_widths.first, c.in_widths.mid, c.in_widths.last}) {
      if (w < 1 || w > kMaxPartialWidth) {
        at.fail(fmt::format("the split gives a piece of {} input columns (IN {}/{}/{}, OUT {}/{}/{}); PARTIAL_WIDTH_IN "
                            "holds 1..{}",
                            w, c.in_widths.first, c.in_widths.mid, c.in_widths.last, c.out_widths.first,
                            c.out_widths.mid, c.out_widths.last, kMaxPartialWidth));
      }
    }
  }
  c.off_flying = true;
  c.rdma_in = c.in;
  c.rdma_splits = c.splits;
  c.rdma_kernel_w = c.kernel_w;
  c.rdma_stride_w = c.stride_w;
  c.rdma_pad_width = c.pad_left;
  c.rdma_in_widths = c.in_widths;

  // Layouts: every lane of the last surface is read and written.
  L.in_layout = feature_layout_of(in, golden::pdp_input_shape(c), hw.atom_bytes, bpe, kPdpInputBase, "input");
  const JsonNode out = root.require("output");
  out.allow_keys({"line_stride", "surface_stride", "base"});
  L.out_layout = feature_layout_of(out, golden::pdp_output_shape(c), hw.atom_bytes, bpe, kPdpOutputBase, "output");
  c.src_base = L.in_layout.base;
  c.src_line_stride = L.in_layout.line_stride;
  c.src_surface_stride = L.in_layout.surface_stride;
  c.dst_base = L.out_layout.base;
  c.dst_line_stride = L.out_layout.line_stride;
  c.dst_surface_stride = L.out_layout.surface_stride;
  const uint64_t in_end = c.src_base + L.in_layout.region_bytes(golden::pdp_input_shape(c));
  const uint64_t out_end = c.dst_base + L.out_layout.region_bytes(golden::pdp_output_shape(c));
  if (c.dst_base < in_end && c.src_base < out_end) {
    (out.get("base") ? *out.get("base") : out)
        .fail(fmt::format("the output region [{:#x}, {:#x}) overlaps the input region [{:#x}, {:#x}): PDP reads its "
                          "input while it writes",
                          c.dst_base, out_end, c.src_base, in_end));
  }

  // Whatever else NVDLA's PDP cannot do (line buffer, split rules), as the golden model states it.
  if (const auto u = c.unsupported(hw); !u.empty()) {
    const bool split_rule = u.front().find("PARTIAL_WIDTH") != std::string::npos ||
                            u.front().find("line buffer") != std::string::npos ||
                            u.front().find("SPLIT") != std::string::npos;
    const JsonNode& at = split_rule && split_node ? *split_node : split_rule ? cube : root;
    at.fail(u.front());
  }
  L.input = L.prec == golden::Precision::Fp16
                ? resolve_fp16_values(in.require("data"), c.in.elements(), h.seed)
                : resolve_values(in.require("data"), c.in.elements(), bpe,
                                 static_cast<int64_t>(golden::min_of_bits(bits)),
                                 static_cast<int64_t>(golden::max_of_bits(bits)), h.seed);
  return L;
}

}  // namespace

void emit_pdp_registers(ProgramBuilder& pb, const PdpConfig& c, int group, int rdma_group) {
  const auto lo = [](uint64_t a) { return static_cast<uint32_t>(a); };
  const auto hi = [](uint64_t a) { return static_cast<uint32_t>(a >> 32); };
  const auto fmt_code = static_cast<uint32_t>(c.precision);  // NVDLA's code: 0 int8, 1 int16, 2 fp16
  const uint32_t split = u32(c.splits - 1);
  const auto widths = [](const golden::PdpPartialWidths& w) {
    return place(u32(w.first - 1), rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_FIRST{}) |
           place(u32(w.mid - 1), rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_MID{}) |
           place(u32(w.last - 1), rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_LAST{});
  };

  pb.write(pb.reg("PDP_RDMA", "S_POINTER"), static_cast<uint32_t>(rdma_group));
  pb.write(pb.reg("PDP", "S_POINTER"), static_cast<uint32_t>(group));
  if (c.off_flying) {
    std::map<uint32_t, uint32_t> r;
    r[rr::D_DATA_CUBE_IN_WIDTH::offset] = u32(c.in.w - 1);
    r[rr::D_DATA_CUBE_IN_HEIGHT::offset] = u32(c.in.h - 1);
    r[rr::D_DATA_CUBE_IN_CHANNEL::offset] = u32(c.in.c - 1);
    r[rr::D_FLYING_MODE::offset] = place(1u, rr::D_FLYING_MODE::FLYING_MODE{});
    r[rr::D_SRC_BASE_ADDR_LOW::offset] = lo(c.src_base);
    r[rr::D_SRC_BASE_ADDR_HIGH::offset] = hi(c.src_base);
    r[rr::D_SRC_LINE_STRIDE::offset] = lo(c.src_line_stride);
    r[rr::D_SRC_SURFACE_STRIDE::offset] = lo(c.src_surface_stride);
    r[rr::D_SRC_RAM_CFG::offset] = place(1u, rr::D_SRC_RAM_CFG::SRC_RAM_TYPE{});
    r[rr::D_DATA_FORMAT::offset] = fmt_code;
    r[rr::D_OPERATION_MODE_CFG::offset] = place(split, rr::D_OPERATION_MODE_CFG::SPLIT_NUM{});
    r[rr::D_POOLING_KERNEL_CFG::offset] = place(u32(c.kernel_w - 1), rr::D_POOLING_KERNEL_CFG::KERNEL_WIDTH{}) |
                                          place(u32(c.stride_w - 1), rr::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH{});
    r[rr::D_POOLING_PADDING_CFG::offset] = place(u32(c.pad_left), rr::D_POOLING_PADDING_CFG::PAD_WIDTH{});
    r[rr::D_PARTIAL_WIDTH_IN::offset] = widths(c.in_widths);
    pb.write_group("PDP_RDMA", r);
  }

  std::map<uint32_t, uint32_t> p;
  p[rp::D_DATA_CUBE_IN_WIDTH::offset] = u32(c.in.w - 1);
  p[rp::D_DATA_CUBE_IN_HEIGHT::offset] = u32(c.in.h - 1);
  p[rp::D_DATA_CUBE_IN_CHANNEL::offset] = u32(c.in.c - 1);
  p[rp::D_DATA_CUBE_OUT_WIDTH::offset] = u32(c.out.w - 1);
  p[rp::D_DATA_CUBE_OUT_HEIGHT::offset] = u32(c.out.h - 1);
  p[rp::D_DATA_CUBE_OUT_CHANNEL::offset] = u32(c.out.c - 1);
  p[rp::D_OPERATION_MODE_CFG::offset] =
      place(static_cast<uint32_t>(c.method), rp::D_OPERATION_MODE_CFG::POOLING_METHOD{}) |
      place(c.off_flying ? 1u : 0u, rp::D_OPERATION_MODE_CFG::FLYING_MODE{}) |
      place(split, rp::D_OPERATION_MODE_CFG::SPLIT_NUM{});
  p[rp::D_PARTIAL_WIDTH_IN::offset] = widths(c.in_widths);
  p[rp::D_PARTIAL_WIDTH_OUT::offset] = widths(c.out_widths);
  p[rp::D_POOLING_KERNEL_CFG::offset] = place(u32(c.kernel_w - 1), rp::D_POOLING_KERNEL_CFG::KERNEL_WIDTH{}) |
                                        place(u32(c.kernel_h - 1), rp::D_POOLING_KERNEL_CFG::KERNEL_HEIGHT{}) |
                                        place(u32(c.stride_w - 1), rp::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH{}) |
                                        place(u32(c.stride_h - 1), rp::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT{});
  p[rp::D_RECIP_KERNEL_WIDTH::offset] = c.recip_w;
  p[rp::D_RECIP_KERNEL_HEIGHT::offset] = c.recip_h;
  p[rp::D_POOLING_PADDING_CFG::offset] = place(u32(c.pad_left), rp::D_POOLING_PADDING_CFG::PAD_LEFT{}) |
                                         place(u32(c.pad_top), rp::D_POOLING_PADDING_CFG::PAD_TOP{}) |
                                         place(u32(c.pad_right), rp::D_POOLING_PADDING_CFG::PAD_RIGHT{}) |
                                         place(u32(c.pad_bottom), rp::D_POOLING_PADDING_CFG::PAD_BOTTOM{});
  for (uint32_t i = 0; i < 7; ++i) {
    p[rp::D_POOLING_PADDING_VALUE_1_CFG::offset + 4 * i] =
        place(static_cast<uint32_t>(c.pad_value[i]), rp::D_POOLING_PADDING_VALUE_1_CFG::PAD_VALUE_1X{});
  }
  p[rp::D_SRC_BASE_ADDR_LOW::offset] = lo(c.src_base);
  p[rp::D_SRC_BASE_ADDR_HIGH::offset] = hi(c.src_base);
  p[rp::D_SRC_LINE_STRIDE::offset] = lo(c.src_line_stride);
  p[rp::D_SRC_SURFACE_STRIDE::offset] = lo(c.src_surface_stride);
  p[rp::D_DST_BASE_ADDR_LOW::offset] = lo(c.dst_base);
  p[rp::D_DST_BASE_ADDR_HIGH::offset] = hi(c.dst_base);
  p[rp::D_DST_LINE_STRIDE::offset] = lo(c.dst_line_stride);
  p[rp::D_DST_SURFACE_STRIDE::offset] = lo(c.dst_surface_stride);
  p[rp::D_DST_RAM_CFG::offset] = place(1u, rp::D_DST_RAM_CFG::DST_RAM_TYPE{});
  p[rp::D_DATA_FORMAT::offset] = fmt_code;
  if (c.precision == golden::PdpPrecision::Fp16) {
    p[rp::D_NAN_FLUSH_TO_ZERO::offset] = place(c.nan_to_zero ? 1u : 0u, rp::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO{});
  }
  pb.write_group("PDP", p);
}

namespace {

struct Compiled {
  Program program;
  uint64_t elements = 0;  // output lanes written
};

Compiled compile(const LayerHeader& h, const JsonNode& root, const Placement& at = {}) {
  Layer L = parse_layer(h, root);
  PdpConfig& c = L.cfg;
  place_tensors(at, L.in_layout, L.out_layout, c);
  const int group = at.group_of("PDP");
  ProgramBuilder pb(h);
  if (!at.input) pb.load_cube_values(L.in_layout, golden::pdp_input_shape(c), c.in.c, L.input, kGapFill);
  const uint64_t out_bytes = L.out_layout.region_bytes(golden::pdp_output_shape(c));
  pb.fill(L.out_layout.base, out_bytes, kOutputFill, "output region");
  emit_pdp_registers(pb, c, group, at.group_of("PDP_RDMA"));
  // Launch: PDP, then PDP_RDMA (most NVDLA traces' order), and wait for the done interrupt.
  pb.write(pb.reg("PDP", "D_OP_ENABLE"), 1);
  pb.write(pb.reg("PDP_RDMA", "D_OP_ENABLE"), 1);
  pb.wait_intr(fmt::format("PDP_{}", group));
  // The NaN / Inf counters: 0 for integer data; fp16's from the golden model.
  std::optional<GoldenDevice> own;
  GoldenDevice* dev = nullptr;
  if (c.precision == golden::PdpPrecision::Fp16) {
    dev = &run_on_placed_or_own_device(at, pb.program(), "pdp", own, *h.config);
  }
  for (const auto& [name, off] : {std::pair{"D_INF_INPUT_NUM", rp::D_INF_INPUT_NUM::offset},
                                  std::pair{"D_NAN_INPUT_NUM", rp::D_NAN_INPUT_NUM::offset},
                                  std::pair{"D_NAN_OUTPUT_NUM", rp::D_NAN_OUTPUT_NUM::offset}}) {
    pb.read(pb.reg("PDP", name), dev != nullptr ? dev->peek("PDP", off, group) : 0u);
  }
  pb.check_golden(L.out_layout.base, out_bytes);
  if (dev == nullptr) run_on_placed_device(at, pb.program(), "pdp");
  Compiled out;
  out.program = std::move(pb.program());
  out.elements = golden::pdp_output_shape(c).elements();
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_layer_program(compile(h, root).program, h, opt, "pdp");
}

}  // namespace

UnitHandler pdp_handler() { return {"pdp", &validate, &run}; }

Program compile_pdp_layer(const LayerHeader& h, const JsonNode& root) { return compile(h, root).program; }

Program compile_pdp_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, at).program;
}

}  // namespace dla::harness::engines
