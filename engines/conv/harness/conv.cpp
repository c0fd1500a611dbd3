// `conv` layers: one convolution (input cube, kernels, padding, stride, dilation, precision, CACC
// clip; direct, or Winograd through golden::wino_compile) with optional SDP post-ops, compiled into the register program NVDLA's driver issues
// (docs/LAYER_FORMAT.md "`conv` layers", docs/CONV.md "Compiler"): the input cube and the weights
// as memory images (golden/layout.hpp), the D_ groups of CDMA, CSC, CMAC_A, CMAC_B and CACC with
// the bookkeeping values from golden::conv_derived, SDP and SDP_RDMA from the `sdp` layer compiler
// (flying input), the CBUF flush poll, D_OP_ENABLE consumers first, the done interrupts, status
// reads and a `check golden` over the output region. D_BANK as NVDLA's driver chooses it (data
// banks for the whole input, the rest for the weights); a layer whose input and one kernel group
// CBUF cannot hold is split into bands of output rows (Split-H).
// Image input ("input": {"format": ...}): engines/conv/harness/conv_image.hpp, docs/IMAGE_INPUT.md "Compiler".
#include "engines/conv/harness/conv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "golden/arith.hpp"
#include "engines/conv/golden/conv_wfold.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/pdp/golden/pdp.hpp"
#include "engines/sdp/golden/sdp.hpp"
#include "engines/wino/golden/wino.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "engines/conv/harness/conv_banks.hpp"
#include "engines/conv/harness/conv_device.hpp"
#include "engines/conv/harness/conv_image.hpp"
#include "engines/conv/harness/conv_modes.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "harness/program_builder.hpp"
#include "engines/sdp/harness/sdp_compiler.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

namespace cd = golden::regs::cdma;
namespace cs = golden::regs::csc;
namespace ca = golden::regs::cacc;
using golden::ConvConfig;
using golden::ConvParams;
using golden::HwConfig;
using golden::Precision;
using golden::regs::place;

constexpr uint64_t kWeightBase = 0xd000'0000ull;  // input at sdp::kInputBase, output at sdp::kOutputBase
constexpr int kMaxKernel = 32;                    // CSC WEIGHT_WIDTH_EXT / HEIGHT_EXT: 5 bits
constexpr int kMaxPadLeftTop = 31;                // PAD_LEFT / PAD_TOP: 5 bits
constexpr int kMaxPadRightBottom = 63;            // CDMA PAD_RIGHT / PAD_BOTTOM: 6 bits
constexpr int64_t kMaxBytePerKernel = 1 << 18;    // BYTE_PER_KERNEL: 18 bits (value - 1)
constexpr const char* kConvBlocks[] = {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"};

uint32_t u(int64_t v) { return static_cast<uint32_t>(v); }
uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v & 0xffffffffu); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }


// Split-H: output rows [o0, o1) of the layer, run as one hardware layer.
struct Band {
  int o0 = 0;
  int o1 = 0;
};

struct ConvLayer {
  ConvParams p;
  std::vector<int64_t> input;    // C x H x W, (c, h, w) order
  std::vector<int64_t> weights;  // K x C x R x S, (k, c, r, s) order
  sdp::Layer post;               // SDP after CACC (flying)
  std::optional<golden::WinoLayer> wino;  // "mode": "winograd": the compiled Winograd layer
  std::vector<Band> bands;       // one for a layer CBUF holds whole
  std::optional<golden::PdpConfig> pool;  // "pool": PDP on the fly after SDP
  golden::FeatureLayout pool_layout{};    // PDP's output (with "pool")
  std::optional<ImageLayer> image;        // "input": {"format": ...} (engines/conv/harness/conv_image.hpp)
  BatchLayer batch;                       // "batch" (engines/conv/harness/conv_modes.hpp)
  bool compressed = false;                // "weights": {"compressed": true}
  std::optional<golden::CompressedWeights> comp;  // the compressed weight images
  [[nodiscard]] bool modes() const { return batch.n > 1 || compressed; }  // batched or compressed: no Split-H
};

// The hardware layer of band `b` of a direct convolution (NVDLA's compiler's Split-H): the input
// rows the band's outputs read (an overlap of extent - stride rows with the next band), the pads
// that fall inside the band (top only in the first band, bottom only in the last), the input base
// moved to the band's first row. The output rows and bases are moved by the caller.
ConvConfig band_config(const ConvConfig& c, const Band& b) {
  ConvConfig s = c;
  const int extent = (c.kernel_h - 1) * c.dilation_y + 1;
  const int first = b.o0 * c.stride_y - c.pad_top;  // first input row read (< 0: padding)
  const int last = (b.o1 - 1) * c.stride_y - c.pad_top + extent - 1;
  const int in0 = std::max(0, first);
  const int in1 = std::min(c.input.h - 1, last);
  s.input.h = in1 - in0 + 1;
  s.pad_top = in0 - first;
  s.pad_bottom = last - in1;
  s.in_layout.base = c.in_layout.base + static_cast<uint64_t>(in0) * c.in_layout.line_stride;
  s.output.h = b.o1 - b.o0;
  return s;
}

// CBUF holds the input (NVDLA's banks, or this RTL's Winograd / W-fold rows when more) beside one kernel
// group, or beside `weight_banks` banks when more.
bool cbuf_holds(const ConvConfig& c, const HwConfig& hw, int weight_banks = 0) {
  return rtl_data_banks(c, hw) + std::max(weight_banks, golden::conv_derived(c, hw).weight_banks_min) <=
         golden::cbuf_geometry(hw).banks;
}

// Bands of as many output rows as CBUF holds, from the top (each band as tall as fits); empty
// when a band cannot fit. A band reads at least one input row: output rows whose window lies in
// the top padding only (PAD_TOP above the kernel's extent) join the first band that reads one
// (a hardware layer has an input of at least one row).
// An output one column wide takes bands of at least two rows: a 1 x 1 band's SDP would move its
// surfaces as one contiguous run, ignoring the whole cube's surface stride (NVDLA's SDP DMAs; the
// golden SDP refuses it), so a last single row joins the band before it.
// `weight_banks`: banks each band leaves for the weights (0: one kernel group's).
std::vector<Band> split_h(const ConvConfig& c, const HwConfig& hw, int weight_banks = 0) {
  const int oh = c.output.h;
  if (cbuf_holds(c, hw)) return {{0, oh}};
  const int extent = (c.kernel_h - 1) * c.dilation_y + 1;
  // The first output row whose window reaches input row 0.
  const int first_real = std::max(0, (c.pad_top - extent + 1 + c.stride_y - 1) / c.stride_y);
  const int min_rows = c.output.w == 1 ? std::min(2, oh) : 1;
  std::vector<Band> out;
  for (int o0 = 0; o0 < oh;) {
    const int min_o1 = std::max(o0 + min_rows, first_real + 1);
    if (min_o1 > oh || !cbuf_holds(band_config(c, {o0, min_o1}), hw, weight_banks)) return {};
    // The rows a band reads grow with its height: the tallest band from o0 that fits.
    int lo = min_o1, hi = oh;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (cbuf_holds(band_config(c, {o0, mid}), hw, weight_banks)) lo = mid;
      else hi = mid - 1;
    }
    if (oh - lo > 0 && oh - lo < min_rows) {
      if (lo - 1 - o0 < min_rows) return {};  // no split leaves every band min_rows tall
      --lo;
    }
    out.push_back({o0, lo});
    o0 = lo;
  }
  return out;
}

// The one D_BANK split of Split-H bands that share their weights (docs/CONV.md §9): the tallest
// band's, when its weight banks hold all the weights; none for one band or when they do not.
std::optional<ConvBanks> shared_weight_banks(const ConvConfig& c, const HwConfig& hw, const std::vector<Band>& bands) {
  if (bands.size() < 2) return std::nullopt;
  ConvBanks sb{0, 0};
  for (const Band& b : bands) {
    if (const ConvBanks bb = conv_bank_split(band_config(c, b), hw); bb.data > sb.data) sb = bb;
  }
  if (sb.weight < golden::conv_derived(c, hw).weight_banks_all) return std::nullopt;
  return sb;
}

// Bytes the bands fetch: each band's input rows (its W atoms of each surface a row), and the
// weights once when the bands share them, else once per band.
uint64_t band_fetch_bytes(const ConvConfig& c, const HwConfig& hw, const std::vector<Band>& bands) {
  uint64_t bytes = 0;
  for (const Band& b : bands) {
    const ConvConfig bc = band_config(c, b);
    bytes += static_cast<uint64_t>(bc.input.h) * static_cast<uint64_t>(bc.in_layout.surfaces(bc.input.c)) *
             static_cast<uint64_t>(bc.input.w) * bc.in_layout.atom_bytes;
  }
  const uint64_t times = shared_weight_banks(c, hw, bands) ? 1 : bands.size();
  return bytes + golden::conv_derived(c, hw).weight_bytes * times;
}

// SDP of band `b`: its output rows, and the per-element operand rows, from the band's first row.
sdp::Layer band_post(const sdp::Layer& post, const Band& b) {
  sdp::Layer s = post;
  s.shape.h = b.o1 - b.o0;
  s.out_layout.base += static_cast<uint64_t>(b.o0) * post.out_layout.line_stride;
  for (sdp::Dma* d : {&s.bs.dma, &s.bn.dma, &s.ew.dma}) {
    if (d->per_element) d->layout.base += static_cast<uint64_t>(b.o0) * d->layout.line_stride;
  }
  return s;
}

int get_int(const JsonNode& obj, std::string_view key, int min, int max, int fallback) {
  const auto n = obj.get(key);
  return n ? static_cast<int>(n->as_int(min, max)) : fallback;
}

// The rules on the kernel's extent along one axis (x: S, dilation x, left/right pads, W).
void check_extent(const JsonNode& root, const char* axis, int size, int taps, int dilation, int pad_lo, int pad_hi) {
  const bool x = axis[0] == 'x';
  const int extent = (taps - 1) * dilation + 1;
  const int padded = size + pad_lo + pad_hi;
  if (extent > padded) {
    const JsonNode at = dilation > 1 ? root.require("dilation").require(axis) : root.require("weights").require(x ? "s" : "r");
    at.fail(fmt::format("the kernel spans {} input {} (({} - 1) x dilation {} + 1), more than the padded input's {} "
                        "({} {} + pads {} + {})",
                        extent, x ? "columns" : "rows", taps, dilation, padded, x ? "W" : "H", size, pad_lo, pad_hi));
  }
  if (pad_hi >= extent) {
    root.require("padding").require(x ? "right" : "bottom")
        .fail(fmt::format("{} {} must be smaller than the kernel's {} extent {} (({} - 1) x dilation {} + 1), as "
                          "NVDLA requires: a larger pad adds outputs that see padding only",
                          x ? "PAD_RIGHT" : "PAD_BOTTOM", pad_hi, x ? "x" : "y", extent, taps, dilation));
  }
}

// The CBUF rule: the input and one kernel group in the banks, NVDLA's (ENTRY_PER_SLICE) and this
// RTL's (rtl_data_rows: NVDLA's for direct and image input, its own layout for Winograd and W-fold).
// Winograd: CBUF holds the channel-extended cube (golden::wino_geometry), and this RTL stores it as
// rows of 2x2 positions x one memory atom of channels (docs/WINOGRAD.md "conv layers").
// `why` ends the message (what was tried).
void check_cbuf(const JsonNode& in, const JsonNode& wt, const ConvConfig& c, const HwConfig& hw, std::string_view why) {
  const bool wino = c.mode == golden::ConvMode::Winograd;
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  const int kpg = std::min(c.kernels, c.atomic_k);
  const int slices = wino ? golden::wino_geometry(c).h_ext : c.input.h;
  if (d.data_banks_min + d.weight_banks_min > cb.banks) {
    (d.data_banks_min >= d.weight_banks_min ? in : wt)
        .fail(fmt::format("the layer does not fit in CBUF: the {}input needs {} banks (ENTRY_PER_SLICE {} x H{} {} "
                          "entries, {} per bank) and one kernel group of weights {} ({} kernels x {} bytes, {} per "
                          "bank), more than {}'s {} banks{}",
                          wino ? "channel-extended " : "", d.data_banks_min, d.entries_per_slice, wino ? "_ext" : "",
                          slices, cb.entries_per_bank, d.weight_banks_min, kpg, d.byte_per_kernel,
                          cb.entries_per_bank * cb.entry_bytes, hw.name, cb.banks, why));
  }
  if (const int data = rtl_data_banks(c, hw); data + d.weight_banks_min > cb.banks) {
    (data >= d.weight_banks_min ? in : wt)
        .fail(fmt::format("the layer does not fit in this RTL's CBUF: the {} input needs {} rows in this RTL's "
                          "layout ({} banks of {} entries, where NVDLA's needs {} entries; {}) and one kernel group of "
                          "weights {} banks, more than {}'s {} banks{}",
                          wino ? "Winograd" : "W-folded", rtl_data_rows(c, hw), data, cb.entries_per_bank,
                          int64_t{d.entries_per_slice} * slices, wino ? "docs/WINOGRAD.md" : "docs/WFOLD.md",
                          d.weight_banks_min, hw.name, cb.banks, why));
  }
}

// The field a Winograd problem is about (golden::WinoSubject), for the error's JSON pointer.
JsonNode wino_subject_node(const JsonNode& root, golden::WinoSubject s) {
  using golden::WinoSubject;
  const auto field = [&](std::string_view key) { return root.get(key).value_or(root.require("mode")); };
  switch (s) {
    case WinoSubject::Kernel: return root.require("weights");
    case WinoSubject::Weights: return root.require("weights").require("data");
    case WinoSubject::Stride: return field("stride");
    case WinoSubject::Dilation: return field("dilation");
    case WinoSubject::PraTruncate: return field("pra_truncate");
    case WinoSubject::OutputSize: return root.require("input");
    case WinoSubject::Clip: return field("clip");
    case WinoSubject::Converter: return root.require("input").require("converter");
    default: return root.require("mode");  // Hardware, Other
  }
}

// K x C x R x S weight values as a cube (n = kernel, c, h = r, w = s).
golden::Cube<int64_t> weight_cube(const ConvParams& p, const std::vector<int64_t>& values) {
  golden::Cube<int64_t> w(golden::CubeShape{p.k, p.c, p.r, p.s});
  std::copy(values.begin(), values.end(), w.data().begin());
  return w;
}

// "pool": SDP's output flies to PDP (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = ON_FLYING), which
// pools it into the output region (packed at SDP's output base). PDP takes the whole width on the
// fly (no split), so the pooled width must fit PDP's line buffer.
void parse_pool_post_op(const JsonNode& pool, const JsonNode& root, const HwConfig& hw, ConvLayer& L) {
  if (L.wino) {
    pool.fail("a pool post-op needs SDP's output in line order; a Winograd convolution delivers 2x2 tiles "
              "(D_FEATURE_MODE_CFG.WINOGRAD)");
  }
  if (L.bands.size() > 1) {
    pool.fail(fmt::format("CBUF cannot hold the layer, and a pool post-op is not split (Split-H would cut "
                          "pooling windows across {} bands); pool in a separate `pdp` layer",
                          L.bands.size()));
  }
  if (const auto out = root.get("output")) {
    for (const char* key : {"line_stride", "surface_stride"}) {
      if (const auto n = out->get(key)) n->fail("with \"pool\" the output (PDP's) is packed; strides are not taken");
    }
  }
  sdp::Layer& s = L.post;
  if (s.out_prec != s.in_prec) {
    root.require("output").require("precision").fail(
        "with a pool post-op SDP's output precision must be the convolution's: converting, SDP writes half atoms "
        "(int16 -> int8) or two atoms per position (int8 -> int16), which this RTL does not hand to PDP on the fly");
  }
  golden::PdpConfig c;
  c.atom_bytes = hw.atom_bytes;
  c.precision = static_cast<golden::PdpPrecision>(golden::precision_code(s.out_prec));
  c.rdma_precision = c.precision;
  c.in = {1, s.shape.c, s.shape.h, s.shape.w};
  c.off_flying = false;
  (void)parse_pool(pool, c);
  if (const int max_w = hw.pdp_max_out_width(s.out_prec, c.kernel_h, c.stride_h); c.out.w > max_w) {
    pool.fail(fmt::format("on the fly PDP takes the whole width (no split): the pooled width {} exceeds the {} "
                          "columns of PDP's line buffer on {}; pool in a separate `pdp` layer",
                          c.out.w, max_w, hw.name));
  }
  c.in_widths = {c.in.w, 1, 1};
  c.out_widths = {c.out.w, 1, 1};
  L.pool_layout = golden::FeatureLayout::packed(golden::pdp_output_shape(c), hw.atom_bytes,
                                                golden::bytes_per_element(s.out_prec), sdp::kOutputBase);
  c.dst_base = L.pool_layout.base;
  c.dst_line_stride = L.pool_layout.line_stride;
  c.dst_surface_stride = L.pool_layout.surface_stride;
  if (const auto u = c.unsupported(hw); !u.empty()) pool.fail(u.front());
  s.to_pdp = true;
  L.pool = c;
}

// "wfold": "off" | "auto" | N (docs/WFOLD.md, docs/LAYER_FORMAT.md): the fold width ws, 0 for
// unfolded; refuses what docs/WFOLD.md "Where it cannot apply" lists. `ow`: the layer's W'.
int parse_wfold(const JsonNode& n, const ConvParams& p, const HwConfig& hw, bool wino, int ow) {
  constexpr const char* kRule = "must be \"off\", \"auto\" or a power of two 2..16 (the fold width ws, docs/WFOLD.md)";
  int ws = 0;
  bool automatic = false;
  if (n.is_string()) {
    const std::string v = n.as_string();
    if (v == "off") return 0;
    if (v != "auto") n.fail(kRule);
    automatic = true;
  } else if (n.raw().is_number_integer()) {
    const int64_t v = n.raw().get<int64_t>();
    if (v != 2 && v != 4 && v != 8 && v != 16) n.fail(kRule);
    ws = static_cast<int>(v);
  } else {
    n.fail(kRule);
  }
  if (!hw.wfold) n.fail(golden::wfold_hw_refusal(hw));
  if (wino) n.fail("W-fold and \"mode\": \"winograd\" exclude each other (docs/WFOLD.md)");
  if (automatic) {
    ws = golden::wfold_auto_ws(p, hw);
  } else if (const std::string e = golden::wfold_ws_refusal(p, hw, ws); !e.empty()) {
    n.fail(e);
  }
  if (ws != 0 && int64_t{ow} * ((p.s + ws - 1) / ws) > kMaxCubeDim) {
    n.fail(fmt::format("the folded width W' x S' = {} x {} exceeds CSC's {} (DATAIN_WIDTH_EXT)", ow,
                       (p.s + ws - 1) / ws, kMaxCubeDim));
  }
  return ws;
}

std::vector<uint8_t> weight_image(const ConvLayer& L, const ConvConfig& c);

// What an fp16 layer cannot have (docs/FP16.md "Convolution"): NVDLA's rules (no input converter,
// no CACC clip in fp16) and what this model does not run in fp16 yet.
void check_fp16_layer(const JsonNode& root, const JsonNode& in) {
  const auto not_yet = [&](const char* key, const char* what) {
    if (const auto n = root.get(key)) n->fail(fmt::format("{} in fp16 is not modelled yet (docs/FP16.md)", what));
  };
  // Winograd in fp16: the weights are U = G g G^T itself, the PRA has no truncation.
  if (const auto n = root.get("wino_scheme"))
    n->fail("fp16 Winograd weights are U = G g G^T in fp16 (no integer scheme to choose; docs/FP16.md)");
  if (const auto n = root.get("pra_truncate"))
    n->fail("the PRA does not truncate fp16 data (NVDLA ignores D_PRA_CFG.PRA_TRUNCATE in fp16)");
  not_yet("wfold", "W-fold");
  // Image input: an integer pixel format goes through the converter into fp16 (its "converter"),
  // an fp16 format passes it unchanged (parse_image_input).
  if (const auto cv = in.get("converter"); cv && !is_image_input(in)) {
    cv->fail("NVDLA has no CDMA input converter for fp16 feature data (NVIDIA's C model leaves CVT_EN with fp16 "
             "input undefined); image input converts integer pixels to fp16");
  }
  if (const auto c = root.get("clip"); c && c->as_int(0, 16) != 0) {
    c->fail("CACC has no clip in fp16 (it delivers each sum as fp32); leave \"clip\" at 0");
  }
}

ConvLayer parse_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "mode", "wino_scheme", "pra_truncate",
                   "precision", "input", "weights", "padding", "stride", "dilation", "clip", "output", "bs", "bn", "ew",
                   "perf", "pool", "wfold", "batch", "post_extension"});
  const HwConfig& hw = *h.config;
  ConvLayer L;
  ConvParams& p = L.p;
  const auto mode = root.get("mode");
  const bool wino = mode && mode->as_choice({"direct", "winograd"}) == "winograd";
  golden::WinoScheme scheme = golden::WinoScheme::Exact;
  int pra_truncate = 0;
  for (const char* key : {"wino_scheme", "pra_truncate"}) {
    if (const auto n = root.get(key); n && !wino) n->fail("only with \"mode\": \"winograd\"");
  }
  if (const auto n = root.get("wino_scheme"))
    scheme = n->as_choice({"exact", "nvdla"}) == "exact" ? golden::WinoScheme::Exact : golden::WinoScheme::Nvdla;
  if (const auto n = root.get("pra_truncate")) pra_truncate = static_cast<int>(n->as_int(0, golden::kWinoMaxPraTruncate));
  if (const auto n = root.get("precision")) {
    p.precision = *golden::parse_precision(n->as_choice({"int8", "int16", "fp16"}));
    if (!hw.supports(p.precision)) {
      n->fail(fmt::format("{} does not support {} convolution (int16 and fp16 only on nv_full)", hw.name,
                          golden::precision_name(p.precision)));
    }
  }
  const JsonNode in = root.require("input");
  // Image input: the format gives C and, without "precision", the precision (an fp16 format fp16).
  if (is_image_input(in)) L.image = parse_image_input(root, in, hw, p);
  const bool f16 = p.precision == Precision::Fp16;
  if (f16) check_fp16_layer(root, in);
  if (const auto pe = root.get("post_extension"); pe && !L.image)
    pe->fail("channel post-extension (CSC D_POST_Y_EXTENSION) exists only with image input (CSC assertion, §3)");
  L.batch = parse_batch(root, hw, wino, L.image.has_value());  // "batch": nv_full, feature input only
  p.batch = L.batch.n;
  const int bpe = golden::bytes_per_element(p.precision);
  const auto vmin = static_cast<int64_t>(golden::min_of_bits(8 * bpe));
  const auto vmax = static_cast<int64_t>(golden::max_of_bits(8 * bpe));

  if (!L.image) {
    in.allow_keys({"w", "h", "c", "data", "converter"});
    p.w = static_cast<int>(in.require("w").as_int(1, kMaxCubeDim));
    p.h = static_cast<int>(in.require("h").as_int(1, kMaxCubeDim));
    p.c = static_cast<int>(in.require("c").as_int(1, kMaxCubeDim));
  }
  if (const auto cv = in.get("converter")) {
    cv->allow_keys({"offset", "scale", "truncate"});
    p.cvt.enabled = true;
    p.cvt.offset = get_int(*cv, "offset", -32768, 32767, 0);
    p.cvt.scale = get_int(*cv, "scale", -32768, 32767, 1);
    p.cvt.truncate = get_int(*cv, "truncate", 0, 63, 0);
  }
  const JsonNode wt = root.require("weights");
  wt.allow_keys({"k", "r", "s", "data", "compressed"});
  L.compressed = parse_compressed(root, wt, hw, wino);
  p.k = static_cast<int>(wt.require("k").as_int(1, kMaxCubeDim));
  p.r = static_cast<int>(wt.require("r").as_int(1, kMaxKernel));
  p.s = static_cast<int>(wt.require("s").as_int(1, kMaxKernel));
  if (const auto pad = root.get("padding")) {
    pad->allow_keys({"left", "right", "top", "bottom", "value", "top_bottom_value"});
    p.pad_left = get_int(*pad, "left", 0, kMaxPadLeftTop, 0);
    p.pad_right = get_int(*pad, "right", 0, kMaxPadRightBottom, 0);
    p.pad_top = get_int(*pad, "top", 0, kMaxPadLeftTop, 0);
    p.pad_bottom = get_int(*pad, "bottom", 0, kMaxPadRightBottom, 0);
    if (const auto v = pad->get("value"); v && f16) {
      p.pad_value = static_cast<int32_t>(golden::sign_extend(parse_fp16(*v), 16));  // CSC's raw fp16 pattern
    } else {
      p.pad_value = static_cast<int32_t>(get_int(*pad, "value", static_cast<int>(vmin), static_cast<int>(vmax), 0));
    }
    // Image input: "value" pads left / right (CDMA) and, unless "top_bottom_value" is given, top /
    // bottom (CSC); p.pad_value is CSC's.
    if (const auto tb = pad->get("top_bottom_value"); tb && !L.image) {
      tb->fail("only with image input (\"input\": {\"format\": ...}); a feature input has one pad value");
    }
    if (L.image) {
      L.image->image.pad_value_lr = p.pad_value;
      if (const auto tb = pad->get("top_bottom_value"); tb && f16) {
        p.pad_value = static_cast<int32_t>(golden::sign_extend(parse_fp16(*tb), 16));
      } else {
        p.pad_value = static_cast<int32_t>(
            get_int(*pad, "top_bottom_value", static_cast<int>(vmin), static_cast<int>(vmax), p.pad_value));
      }
    }
  }
  if (const auto st = root.get("stride")) {
    st->allow_keys({"x", "y"});
    p.stride_x = get_int(*st, "x", 1, 8, 1);
    p.stride_y = get_int(*st, "y", 1, 8, 1);
  }
  if (const auto dl = root.get("dilation")) {
    dl->allow_keys({"x", "y"});
    p.dilation_x = get_int(*dl, "x", 1, 32, 1);
    p.dilation_y = get_int(*dl, "y", 1, 32, 1);
  }
  p.clip_truncate = get_int(root, "clip", 0, 16, 0);

  check_extent(root, "x", p.w, p.s, p.dilation_x, p.pad_left, p.pad_right);
  check_extent(root, "y", p.h, p.r, p.dilation_y, p.pad_top, p.pad_bottom);
  const int ow = golden::conv_out_w(p), oh = golden::conv_out_h(p);
  if (ow > kMaxCubeDim || oh > kMaxCubeDim) {
    const auto pad = root.get("padding");
    (pad ? *pad : root).fail(fmt::format("the output is {} x {} (W' x H'); each must be at most {}", ow, oh, kMaxCubeDim));
  }
  if (int64_t{ow} * oh * p.k * p.batch > kMaxLayerElements) {
    wt.require("k").fail(fmt::format("the output W' x H' x K x batches = {} x {} x {} x {} exceeds the limit of {} "
                                     "elements",
                                     ow, oh, p.k, p.batch, kMaxLayerElements));
  }
  if (int64_t{p.w} * p.h * p.c * p.batch > kMaxLayerElements) {
    in.fail(fmt::format("the input W x H x C x batches = {} x {} x {} x {} exceeds the limit of {} elements", p.w, p.h,
                        p.c, p.batch, kMaxLayerElements));
  }
  const int64_t bpk = int64_t{p.r} * p.s * p.c * bpe;
  if (bpk > kMaxBytePerKernel) {
    wt.fail(fmt::format("a kernel of R x S x C = {} x {} x {} {}-byte weights is {} bytes; BYTE_PER_KERNEL holds at "
                        "most {}",
                        p.r, p.s, p.c, bpe, bpk, kMaxBytePerKernel));
  }
  if (bpk / bpe * p.k > kMaxLayerElements) {
    wt.fail(fmt::format("K x C x R x S = {} weights exceed the limit of {}", bpk / bpe * p.k, kMaxLayerElements));
  }
  if (const auto n = root.get("wfold"); n && !L.image) p.wfold_ws = parse_wfold(*n, p, hw, wino, ow);
  ConvConfig cfg = L.image ? image_conv_config(p, *L.image, hw, sdp::kInputBase, kWeightBase)
                           : golden::conv_config_from(p, hw, sdp::kInputBase, kWeightBase);
  apply_batch_input(root, L.batch, cfg);
  if (p.wfold_ws != 0) {
    if (const uint64_t fbpk = golden::conv_derived(cfg, hw).byte_per_kernel; fbpk > uint64_t{kMaxBytePerKernel}) {
      root.require("wfold").fail(fmt::format("a kernel's folded weights (R x S' x C' x {} bytes) are {} bytes; "
                                             "BYTE_PER_KERNEL holds at most {}",
                                             bpe, fbpk, kMaxBytePerKernel));
    }
  }
  if (wino) {
    cfg.mode = golden::ConvMode::Winograd;
    const uint64_t wbpk = golden::wino_weight_layout(cfg).kernel_bytes();
    if (wbpk > uint64_t{kMaxBytePerKernel}) {
      wt.fail(fmt::format("a kernel's pre-transformed Winograd weights (16 x C_ext {} x {} bytes) are {} "
                          "bytes; BYTE_PER_KERNEL holds at most {}",
                          golden::wino_geometry(cfg).c_ext, bpe, wbpk, kMaxBytePerKernel));
    }
  } else if (L.image) {
    check_image_layer(root, cfg, hw);  // the whole image in CBUF: no Split-H
    L.bands = {{0, oh}};
  } else if (L.modes()) {
    check_modes_cbuf(root, cfg, hw, L.compressed);  // every batch in CBUF: no Split-H
    L.bands = {{0, oh}};
  } else {
    // Split-H when CBUF cannot hold the whole input; a kernel group that does not fit, or an input
    // of which not even one output row's band fits, is refused.
    if (const golden::ConvDerived d = golden::conv_derived(cfg, hw); d.weight_banks_min >= golden::cbuf_geometry(hw).banks) {
      check_cbuf(in, wt, band_config(cfg, {0, 1}), hw, "");
    }
    L.bands = split_h(cfg, hw);
    if (L.bands.empty()) {
      check_cbuf(in, wt, band_config(cfg, {0, 1}), hw, " even for one output row (Split-H)");
      if (cfg.output.w == 1) {
        in.fail("CBUF cannot hold the input band of two output rows, and an output one column wide is split in bands "
                "of at least two (Split-H: a 1 x 1 band's SDP would ignore the cube's surface stride)");
      }
      in.fail("CBUF cannot hold the input band of one output row (Split-H)");
    }
    // Shorter bands beside all the weights, which then stay in CBUF for every band (fetched
    // once, docs/CONV.md §9), where that fetches fewer bytes than the tallest bands do.
    if (L.bands.size() > 1 && !shared_weight_banks(cfg, hw, L.bands)) {
      const std::vector<Band> resident = split_h(cfg, hw, golden::conv_derived(cfg, hw).weight_banks_all);
      if (!resident.empty() && band_fetch_bytes(cfg, hw, resident) < band_fetch_bytes(cfg, hw, L.bands)) {
        L.bands = resident;
      }
    }
  }

  const auto count = [](int64_t v) { return static_cast<std::size_t>(v); };
  if (L.image) {
    resolve_image_data(in, p, *L.image, h.seed);
  } else {
    const std::size_t n = count(int64_t{p.c} * p.h * p.w * p.batch);
    L.input = f16 ? resolve_fp16_values(in.require("data"), n, h.seed)
                  : resolve_values(in.require("data"), n, bpe, vmin, vmax, h.seed);
  }
  L.weights = f16 ? resolve_fp16_values(wt.require("data"), count(bpk / bpe * p.k), h.seed)
                  : resolve_values(wt.require("data"), count(bpk / bpe * p.k), bpe, vmin, vmax, h.seed);
  if (L.compressed) {
    // A whole kernel group's mask bits must fit bank 15 (the golden device's rule, refused here
    // with the pointer rather than when the layer runs).
    if (const std::string w = golden::wmb_bank_problem(cfg); !w.empty()) wt.require("compressed").fail(w);
    // The compressor (cdma-input-modes.md §5.2) over the uncompressed image; the banks must hold
    // the largest compressed group beside the WMB bank.
    L.comp = compress_layer_weights(root, cfg, weight_image(L, cfg));
    apply_compression(cfg, *L.comp);
  }
  if (L.modes()) (void)modes_bank_split(root, cfg, hw, L.comp ? &*L.comp : nullptr);
  if (wino) {
    // golden::wino_compile judges the layer (its first problem is the error) and pre-transforms
    // the weights; CBUF then holds the channel-extended cube.
    golden::WinoLayer wl = golden::wino_compile(p, weight_cube(p, L.weights), scheme, pra_truncate, hw,
                                                sdp::kInputBase, kWeightBase);
    if (!wl.problems.empty()) wino_subject_node(root, wl.problems.front().subject).fail(wl.problems.front().text);
    check_cbuf(in, wt, wl.cfg, hw, "; Split-H is not done for Winograd layers");
    L.wino = std::move(wl);
    L.bands = {{0, oh}};
  }

  sdp::Layer& s = L.post;
  s.cfg = &hw;
  s.shape = golden::CubeShape{1, p.k, oh, ow};
  s.in_prec = p.precision;
  s.flying = true;
  s.winograd = wino;
  if (const auto out = root.get("output")) {
    sdp::parse_output(*out, s, p.precision);
  } else {
    s.out_prec = p.precision;
    s.out_layout = golden::FeatureLayout::packed({1, s.out_lanes(), oh, ow}, hw.atom_bytes, bpe, sdp::kOutputBase);
  }
  if (const auto out = root.get("output"); f16 && out && out->get("converter")) {
    out->require("converter").fail("SDP's output converter is not used in fp16: NVDLA rounds the fp32 result to fp16 "
                                   "(and on to int16) and ignores D_CVT_OFFSET / SCALE / SHIFT");
  }
  if (f16 && s.out_prec == Precision::Int8) {
    root.require("output").require("precision").fail(
        "an fp16 convolution writes fp16 or int16: NVDLA's SDP has no fp16 -> int8 output (its write DMA would store "
        "the low byte of each fp16)");
  }
  if (!f16 && s.out_prec == Precision::Fp16) {
    root.require("output").require("precision").fail(
        "only an fp16 convolution writes fp16: NVDLA's SDP has no integer -> fp16 output");
  }
  if (s.in_prec == Precision::Int16 && s.out_prec == Precision::Int8) {
    // CACC flies int16 results 16 channels per position; SDP converts int16 -> int8 only when it
    // reads its input from memory (PROC_PRECISION INT8 there; NVIDIA's firmware, C model and RTL).
    root.require("output").require("precision").fail(
        "an int16 convolution cannot write int8 on the fly: NVDLA converts int16 -> int8 only in an SDP layer that "
        "reads its input from memory (write the int16 output and add an `sdp` layer with input int16, output int8)");
  }
  if (s.out_prec != s.in_prec && L.batch.n > 1) {
    root.require("output").require("precision").fail(
        "a precision conversion with batches is not available: NVDLA's SDP write DMA has no batch walk in its "
        "int8 -> int16 mode (NVIDIA's C model asserts it)");
  }
  if (L.batch.n > 1) apply_batch_output(root, L.batch, s);  // SDP writes every batch (operands reused)
  sdp::parse_stages(root, s, h.seed);
  if (wino) {
    // NVDLA's SDP has neither EQL nor int8 -> int16 in Winograd mode.
    const auto sp = [](Precision q) { return static_cast<golden::SdpPrecision>(golden::precision_code(q)); };
    if (const auto e = golden::sdp_winograd_refusals(s.eql(), sp(s.in_prec), sp(s.in_prec)); !e.empty())
      root.require("ew").require("alu").require("algo").fail(e.front());
    if (const auto e = golden::sdp_winograd_refusals(false, sp(s.in_prec), sp(s.out_prec)); !e.empty())
      root.require("output").require("precision").fail(e.front());
  }
  if (const auto pool = root.get("pool")) parse_pool_post_op(*pool, root, hw, L);
  return L;
}

// The memory images: the input cube (packed; padded lanes and gaps kGapFill, which CSC must
// ignore) and the weights (WeightLayout; the tail up to WEIGHT_BYTES kGapFill, fetched but unused).
std::vector<uint8_t> input_image(const ConvLayer& L, const ConvConfig& c) {
  golden::Cube<int64_t> cube(c.input);  // batches: N x C x H x W values, batch-major
  std::size_t i = 0;
  for (int n = 0; n < c.input.n; ++n)
    for (int ch = 0; ch < c.input.c; ++ch)
      for (int y = 0; y < c.input.h; ++y)
        for (int x = 0; x < c.input.w; ++x) cube.at(n, ch, y, x) = L.input[i++];
  return golden::store_cube_bytes(c.in_layout, cube, kGapFill);
}

// Winograd: golden::wino_compile's pre-transformed image (zero-padded channels and kernels).
std::vector<uint8_t> weight_image(const ConvLayer& L, const ConvConfig& c) {
  if (L.wino) return L.wino->weights;
  if (L.image) return image_weight_bytes(c, weight_cube(L.p, L.weights));
  const golden::WeightLayout wl = c.weight_layout();  // W-fold: the folded weights' (K x R x S' x C')
  std::vector<uint8_t> bytes(wl.padded_bytes(), kGapFill);
  golden::Cube<int64_t> w = weight_cube(L.p, L.weights);
  if (c.wfold_ws != 0) w = golden::wfold_weights(c, w);
  golden::store_weights(wl, w, 0, [&](uint64_t a, uint8_t v) { bytes[a] = v; });
  return bytes;
}

CompiledConv compile(const LayerHeader& h, const JsonNode& root, bool expect, const Placement& at = {}) {
  ConvLayer L = parse_layer(h, root);
  const HwConfig& hw = *h.config;
  CompiledConv out;
  out.conv = L.wino    ? L.wino->cfg
             : L.image ? image_conv_config(L.p, *L.image, hw, sdp::kInputBase, kWeightBase)
                       : golden::conv_config_from(L.p, hw, sdp::kInputBase, kWeightBase);
  if (!L.wino && !L.image) apply_batch_input(root, L.batch, out.conv);
  if (L.comp) apply_compression(out.conv, *L.comp);
  // The placement (harness/placement.hpp): the input and output tensors, the constants.
  if (at.input) {
    if (L.image) throw std::logic_error("conv compiler: a placed input is a feature cube, not an image");
    out.conv.in_layout.base = *at.input;
  } else if (L.image && at.constant) {  // an image the layer loads: its planes are placed constants
    out.conv.in_layout.base = at.place_constant("image plane 0", image_plane_bytes(*L.image, out.conv, 0).size(), 0);
    if (L.image->format->planes == 2) {
      out.conv.image.base_uv =
          at.place_constant("image plane 1", image_plane_bytes(*L.image, out.conv, 1).size(), 0);
    }
  }
  const std::vector<uint8_t> weights = L.comp ? L.comp->data : weight_image(L, out.conv);
  out.conv.weight_base = at.place_constant("weights", weights.size(), out.conv.weight_base);
  if (L.comp) {
    out.conv.compression.wmb_base =
        at.place_constant("weight mask bits", L.comp->wmb.size(), out.conv.compression.wmb_base);
    out.conv.compression.wgs_base =
        at.place_constant("weight group sizes", L.comp->wgs_bytes().size(), out.conv.compression.wgs_base);
  }
  sdp::place_operands(L.post, at);
  if (at.output && L.pool) {
    L.pool_layout.base = L.pool->dst_base = *at.output;
  } else if (at.output) {
    L.post.out_layout.base = *at.output;
  }
  const ConvConfig& c = out.conv;
  out.out_layout = L.pool ? L.pool_layout : L.post.out_layout;
  out.out_shape = L.pool ? golden::CubeShape{1, c.output.c, L.pool->out.h, L.pool->out.w} : c.output;
  out.out_bytes = L.pool ? L.pool_layout.region_bytes(golden::pdp_output_shape(*L.pool)) : L.post.output_bytes();
  ProgramBuilder pb(h);

  // Memory: input, weights, SDP operand streams, output pre-filled.
  if (L.image) {
    pb.load(c.in_layout.base, image_plane_bytes(*L.image, c, 0), "image plane 0");
    if (L.image->format->planes == 2) pb.load(c.image.base_uv, image_plane_bytes(*L.image, c, 1), "image plane 1");
  } else if (!at.input) {
    pb.load(c.in_layout.base, input_image(L, c), "input cube");
  }
  if (L.comp) {
    pb.load(c.weight_base, L.comp->data, "compressed weights");
    pb.load(c.compression.wmb_base, L.comp->wmb, "weight mask bits");
    pb.load(c.compression.wgs_base, L.comp->wgs_bytes(), "weight group sizes");
  } else {
    pb.load(c.weight_base, weights, "weights");
  }
  // A placed pooled layer fills the pooled tensor it writes (SDP's cube goes to PDP on the fly).
  const bool fill_pooled = at.output && L.pool;
  sdp::emit_operands_and_output(pb, L.post, at, !fill_pooled);
  if (fill_pooled) pb.fill(out.out_layout.base, out.out_bytes, kOutputFill, "output region");

  // One hardware layer per Split-H band (one band when CBUF holds the layer), the bands in
  // alternate register groups (a finished layer hands the consumer pointer to the other group),
  // each programmed after the previous one finished (docs/CONV.md "Split-H").
  // The bands share the weights: where CBUF holds all of them beside the tallest band's input,
  // every band takes that one bank split, the first fetches the weights and keeps them
  // (SKIP_WEIGHT_RLS) and the others reuse them (WEIGHT_REUSE), as NVDLA's driver does
  // (docs/CONV.md "CBUF reuse").
  const std::optional<ConvBanks> shared_banks =
      L.wino || L.image || L.modes() ? std::nullopt : shared_weight_banks(c, hw, L.bands);
  const std::size_t nb = L.bands.size();
  for (std::size_t bi = 0; bi < nb; ++bi) {
    const Band& b = L.bands[bi];
    // Each block's group: the placed one, flipped by every band before (a finished hardware layer
    // hands the block's consumer pointer to the other group).
    const auto grp = [&](std::string_view block) { return static_cast<int>((bi + static_cast<std::size_t>(at.group_of(block))) % 2); };
    // A band is its own hardware layer unless CBUF holds the whole layer (a single band may
    // still be smaller than the layer: rows only top padding reads are not fetched).
    ConvConfig cb =
        L.wino || L.image || L.modes() || (L.bands.size() == 1 && cbuf_holds(c, hw)) ? c : band_config(c, b);
    cb.cbuf.weight_reuse = shared_banks && bi > 0;
    cb.cbuf.skip_weight_rls = shared_banks && bi + 1 < nb;
    cb.cbuf.skip_data_rls = at.keep_data && bi + 1 == nb;
    const sdp::Layer post = band_post(L.post, b);
    // Registers: pointers (PRODUCER = g) and the D_ groups of the pipeline, then SDP and SDP_RDMA.
    for (const char* block : kConvBlocks) pb.write(pb.reg(block, "S_POINTER"), static_cast<uint32_t>(grp(block)));
    const ConvBanks banks = shared_banks ? *shared_banks
                            : L.modes()  ? modes_bank_split(root, cb, hw, L.comp ? &*L.comp : nullptr)
                            : L.image ? image_bank_split(cb, hw)
                                      : conv_bank_split(cb, hw);
    // The input the previous convolution kept, where the device's CBUF holds it for this layer.
    if (at.reuse_data && nb == 1 && at.device != nullptr) {
      ConvConfig trial = cb;
      trial.cbuf.data_reuse = true;
      trial.cbuf.data_banks = banks.data;
      trial.cbuf.weight_banks = banks.weight;
      const golden::ConvCbufState& held = conv_state(*at.device).cbuf;
      cb.cbuf.data_reuse = golden::cbuf_reuse_problems(held.last ? &*held.last : nullptr, trial, hw).empty();
    }
    BlockWords words = conv_register_words(cb, hw, banks, post.out_layout);
    if (L.wino) apply_wino_regs(words, L.wino->regs);  // SDP's WINOGRAD bit comes with L.post
    if (L.image) apply_image_regs(words, cb);
    apply_modes_regs(words, cb);  // batches, compressed weights (nothing for one batch, uncompressed)
    for (const char* block : kConvBlocks) pb.write_group(block, words.at(block));
    sdp::emit_registers(pb, post, grp("SDP"), grp("SDP_RDMA"));
    if (L.pool) emit_pdp_registers(pb, *L.pool, grp("PDP"), grp("PDP_RDMA"));

    // Launch as the firmware does (conv-pipeline.md §8): CBUF flushed, then consumers before
    // producers; SDP_RDMA only when an SDP stage reads operands (flying input needs no MRDMA).
    ProgramStep& flush = pb.add(StepOp::RegRead, "poll CDMA.S_CBUF_FLUSH_STATUS (FLUSH_DONE = 1)");
    flush.reg = &pb.reg("CDMA", "S_CBUF_FLUSH_STATUS");
    flush.value = 1;
    flush.mask = cd::S_CBUF_FLUSH_STATUS::FLUSH_DONE::mask;
    flush.poll_reads = kPollReads;
    if (L.pool) pb.write(pb.reg("PDP", "D_OP_ENABLE"), 1);
    pb.write(pb.reg("SDP", "D_OP_ENABLE"), 1);
    if (post.reads_operands()) pb.write(pb.reg("SDP_RDMA", "D_OP_ENABLE"), 1);
    for (const char* block : {"CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) pb.write(pb.reg(block, "D_OP_ENABLE"), 1);
    for (const char* unit : {"CDMA_DAT", "CDMA_WT"}) pb.wait_intr(fmt::format("{}_{}", unit, grp("CDMA")));
    for (const char* unit : {"CACC", "SDP"}) pb.wait_intr(fmt::format("{}_{}", unit, grp(unit)));
    if (L.pool) pb.wait_intr(fmt::format("PDP_{}", grp("PDP")));
  }

  // Status and counters (of the last band): the golden model's values.
  std::optional<GoldenDevice> own;
  GoldenDevice* dev = nullptr;
  if (expect) {
    dev = at.device != nullptr ? at.device : &own.emplace(hw);
    ProgramRunOptions po;
    po.mode = "golden";
    const RunResult gr = run_program(pb.program(), dev, nullptr, po);
    if (gr.status != Status::Pass) {
      throw std::runtime_error(
          fmt::format("conv compiler: the golden model did not run the compiled layer: {}", gr.message));
    }
  }
  // CSB reads of D_ registers go to the group the pointers produce into: the last band's.
  const auto last = [&](std::string_view block) {
    return static_cast<int>((L.bands.size() - 1 + static_cast<std::size_t>(at.group_of(block))) % 2);
  };
  pb.read(pb.reg("CACC", "D_OUT_SATURATION"),
          dev != nullptr ? dev->peek("CACC", ca::D_OUT_SATURATION::offset, last("CACC")) : 0u);
  if (c.precision == golden::Precision::Fp16) {
    // CDMA's fp16 counters (the last band's: each band is a hardware layer), the golden model's
    for (const char* name : {"D_NAN_INPUT_DATA_NUM", "D_INF_INPUT_DATA_NUM", "D_NAN_INPUT_WEIGHT_NUM",
                             "D_INF_INPUT_WEIGHT_NUM"}) {
      const RegDef& reg = pb.reg("CDMA", name);
      pb.read(reg, dev != nullptr ? dev->peek("CDMA", reg.offset, last("CDMA")) : 0u);
    }
  }
  sdp::emit_status_reads(pb, dev, last("SDP"));
  sdp::emit_fp16_status_reads(pb, dev, L.post, last("SDP"), last("SDP_RDMA"));
  if (L.pool) {
    // Integer data counts no NaN or Inf; fp16's counts are the golden model's.
    const bool fp16 = L.pool->precision == golden::PdpPrecision::Fp16;
    for (const char* name : {"D_INF_INPUT_NUM", "D_NAN_INPUT_NUM", "D_NAN_OUTPUT_NUM"}) {
      const RegDef& reg = pb.reg("PDP", name);
      pb.read(reg, fp16 && dev != nullptr ? dev->peek("PDP", reg.offset, last("PDP")) : 0u);
    }
  }

  out.bands = static_cast<int>(L.bands.size());
  out.bands_share_weights = shared_banks.has_value();
  ProgramStep& chk = pb.add(StepOp::Check, "check golden over the output region");
  chk.check = CheckKind::Golden;
  chk.addr = out.out_layout.base;
  chk.size = out.out_bytes;
  out.program = std::move(pb.program());
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root, false); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const CompiledConv c = compile(h, root, true);
  RunOptions o = opt;  // the layer's seed and stall (run_layer already applied --seed/--stall)
  o.seed = h.seed;
  o.stall = h.stall;
  o.sim.seed = h.seed;
  RunResult r = run_program_in_mode(c.program, *h.config, o);
  r.unit = "conv";
  return r;
}

}  // namespace

BlockWords conv_register_words(const ConvConfig& c, const HwConfig& hw, const ConvBanks& banks,
                               const golden::FeatureLayout& out) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const uint32_t prec = golden::precision_code(c.precision);
  const uint32_t atom = u(c.atom_bytes);
  BlockWords w;
  // W-fold: CDMA's copies are the layer's, CSC's the folded convolution's (docs/WFOLD.md "Registers").
  const ConvConfig& v = c.wfold_ws != 0 ? golden::wfold_view(c) : c;

  // CDMA. D_MISC_CFG: DIRECT, the CBUF reuse / skip-release flags of c.cbuf (CSC's the same);
  // image-mode, mean, compressed-weight and batch registers stay 0 (D_FETCH_GRAIN 0: one line
  // per grain).
  const auto reuse = [&c](auto data_reuse, auto weight_reuse, auto skip_data, auto skip_weight) {
    return place(c.cbuf.data_reuse ? 1u : 0u, data_reuse) | place(c.cbuf.weight_reuse ? 1u : 0u, weight_reuse) |
           place(c.cbuf.skip_data_rls ? 1u : 0u, skip_data) | place(c.cbuf.skip_weight_rls ? 1u : 0u, skip_weight);
  };
  auto& cdma = w["CDMA"];
  cdma[cd::D_MISC_CFG::offset] = place(prec, cd::D_MISC_CFG::IN_PRECISION{}) | place(prec, cd::D_MISC_CFG::PROC_PRECISION{}) |
                                 reuse(cd::D_MISC_CFG::DATA_REUSE{}, cd::D_MISC_CFG::WEIGHT_REUSE{},
                                       cd::D_MISC_CFG::SKIP_DATA_RLS{}, cd::D_MISC_CFG::SKIP_WEIGHT_RLS{});
  cdma[cd::D_DATAIN_SIZE_0::offset] =
      place(u(c.input.w - 1), cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}) | place(u(c.input.h - 1), cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{});
  cdma[cd::D_DATAIN_SIZE_1::offset] = place(u(c.input.c - 1), cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{});
  cdma[cd::D_DATAIN_SIZE_EXT_0::offset] = place(u(c.input.w - 1), cd::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) |
                                          place(u(c.input.h - 1), cd::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{});
  cdma[cd::D_DAIN_RAM_TYPE::offset] = place(1u, cd::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{});  // MCIF
  cdma[cd::D_DAIN_ADDR_HIGH_0::offset] = hi32(c.in_layout.base);
  cdma[cd::D_DAIN_ADDR_LOW_0::offset] = lo32(c.in_layout.base);
  cdma[cd::D_LINE_STRIDE::offset] = lo32(c.in_layout.line_stride);
  cdma[cd::D_SURF_STRIDE::offset] = lo32(c.in_layout.surface_stride);
  cdma[cd::D_DAIN_MAP::offset] =
      place(c.in_layout.line_stride == uint64_t{atom} * u(c.input.w) ? 1u : 0u, cd::D_DAIN_MAP::LINE_PACKED{}) |
      place(c.in_layout.surface_stride == uint64_t{atom} * u(c.input.w) * u(c.input.h) ? 1u : 0u,
            cd::D_DAIN_MAP::SURF_PACKED{});
  cdma[cd::D_ENTRY_PER_SLICE::offset] = place(u(d.entries_per_slice - 1), cd::D_ENTRY_PER_SLICE::ENTRIES{});
  cdma[cd::D_WEIGHT_SIZE_0::offset] = place(d.byte_per_kernel - 1, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{});
  cdma[cd::D_WEIGHT_SIZE_1::offset] = place(u(c.kernels - 1), cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{});
  cdma[cd::D_WEIGHT_RAM_TYPE::offset] = place(1u, cd::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE{});
  cdma[cd::D_WEIGHT_ADDR_HIGH::offset] = hi32(c.weight_base);
  cdma[cd::D_WEIGHT_ADDR_LOW::offset] = lo32(c.weight_base);
  cdma[cd::D_WEIGHT_BYTES::offset] = lo32(d.weight_bytes);
  cdma[cd::D_CVT_CFG::offset] =
      place(c.cvt.enabled ? 1u : 0u, cd::D_CVT_CFG::CVT_EN{}) | place(u(c.cvt.truncate), cd::D_CVT_CFG::CVT_TRUNCATE{});
  cdma[cd::D_CVT_OFFSET::offset] = place(u(c.cvt.offset), cd::D_CVT_OFFSET::CVT_OFFSET{});
  cdma[cd::D_CVT_SCALE::offset] = place(u(c.cvt.scale), cd::D_CVT_SCALE::CVT_SCALE{});
  cdma[cd::D_CONV_STRIDE::offset] =
      place(u(c.stride_x - 1), cd::D_CONV_STRIDE::CONV_X_STRIDE{}) | place(u(c.stride_y - 1), cd::D_CONV_STRIDE::CONV_Y_STRIDE{});
  cdma[cd::D_ZERO_PADDING::offset] =
      place(u(c.pad_left), cd::D_ZERO_PADDING::PAD_LEFT{}) | place(u(c.pad_right), cd::D_ZERO_PADDING::PAD_RIGHT{}) |
      place(u(c.pad_top), cd::D_ZERO_PADDING::PAD_TOP{}) | place(u(c.pad_bottom), cd::D_ZERO_PADDING::PAD_BOTTOM{});
  cdma[cd::D_ZERO_PADDING_VALUE::offset] = place(u(c.pad_value), cd::D_ZERO_PADDING_VALUE::PAD_VALUE{});
  cdma[cd::D_BANK::offset] =
      place(u(banks.data - 1), cd::D_BANK::DATA_BANK{}) | place(u(banks.weight - 1), cd::D_BANK::WEIGHT_BANK{});
  if (c.wfold_ws != 0) {
    cdma[cd::D_WFOLD::offset] = place(1u, cd::D_WFOLD::WFOLD_EN{}) |
                                place(u(std::countr_zero(u(c.wfold_ws))), cd::D_WFOLD::WS_LOG2{}) |
                                place(u(c.kernel_w - 1), cd::D_WFOLD::KERNEL_WIDTH{}) |
                                place(u(c.dilation_x - 1), cd::D_WFOLD::X_DILATION{});
  }

  // CSC: the datapath's view (same sizes as CDMA), the output, ATOMICS, release all H slices.
  auto& csc = w["CSC"];
  csc[cs::D_MISC_CFG::offset] = place(prec, cs::D_MISC_CFG::IN_PRECISION{}) | place(prec, cs::D_MISC_CFG::PROC_PRECISION{}) |
                                reuse(cs::D_MISC_CFG::DATA_REUSE{}, cs::D_MISC_CFG::WEIGHT_REUSE{},
                                      cs::D_MISC_CFG::SKIP_DATA_RLS{}, cs::D_MISC_CFG::SKIP_WEIGHT_RLS{});
  csc[cs::D_DATAIN_SIZE_EXT_0::offset] = place(u(v.input.w - 1), cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) |
                                         place(u(v.input.h - 1), cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{});
  csc[cs::D_DATAIN_SIZE_EXT_1::offset] = place(u(v.input.c - 1), cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{});
  csc[cs::D_ENTRY_PER_SLICE::offset] = place(u(d.entries_per_slice - 1), cs::D_ENTRY_PER_SLICE::ENTRIES{});
  csc[cs::D_WEIGHT_SIZE_EXT_0::offset] = place(u(v.kernel_w - 1), cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) |
                                         place(u(c.kernel_h - 1), cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{});
  csc[cs::D_WEIGHT_SIZE_EXT_1::offset] = place(u(v.input.c - 1), cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) |
                                         place(u(c.kernels - 1), cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{});
  csc[cs::D_WEIGHT_BYTES::offset] = lo32(d.weight_bytes);
  csc[cs::D_DATAOUT_SIZE_0::offset] = place(u(c.output.w - 1), cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) |
                                      place(u(c.output.h - 1), cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{});
  csc[cs::D_DATAOUT_SIZE_1::offset] = place(u(c.kernels - 1), cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{});
  csc[cs::D_ATOMICS::offset] = place(u(d.atomics - 1), cs::D_ATOMICS::ATOMICS{});
  csc[cs::D_RELEASE::offset] = place(u(v.input.h - 1), cs::D_RELEASE::RLS_SLICES{});
  csc[cs::D_CONV_STRIDE_EXT::offset] = place(u(v.stride_x - 1), cs::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}) |
                                       place(u(c.stride_y - 1), cs::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{});
  csc[cs::D_DILATION_EXT::offset] = place(u(v.dilation_x - 1), cs::D_DILATION_EXT::X_DILATION_EXT{}) |
                                    place(u(c.dilation_y - 1), cs::D_DILATION_EXT::Y_DILATION_EXT{});
  csc[cs::D_ZERO_PADDING::offset] =
      place(u(v.pad_left), cs::D_ZERO_PADDING::PAD_LEFT{}) | place(u(c.pad_top), cs::D_ZERO_PADDING::PAD_TOP{});
  csc[cs::D_ZERO_PADDING_VALUE::offset] = place(u(c.pad_value), cs::D_ZERO_PADDING_VALUE::PAD_VALUE{});
  csc[cs::D_BANK::offset] = cdma[cd::D_BANK::offset];
  static_assert(cs::D_BANK::DATA_BANK::lsb == cd::D_BANK::DATA_BANK::lsb &&
                cs::D_BANK::WEIGHT_BANK::lsb == cd::D_BANK::WEIGHT_BANK::lsb);

  w["CMAC_A"][golden::regs::cmac_a::D_MISC_CFG::offset] = place(prec, golden::regs::cmac_a::D_MISC_CFG::PROC_PRECISION{});
  w["CMAC_B"][golden::regs::cmac_b::D_MISC_CFG::offset] = place(prec, golden::regs::cmac_b::D_MISC_CFG::PROC_PRECISION{});

  // CACC: the output as SDP writes it (firmware: low address bits, strides, packed only for 1x1).
  auto& cacc = w["CACC"];
  cacc[ca::D_MISC_CFG::offset] = place(prec, ca::D_MISC_CFG::PROC_PRECISION{});
  cacc[ca::D_DATAOUT_SIZE_0::offset] = place(u(c.output.w - 1), ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) |
                                       place(u(c.output.h - 1), ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{});
  cacc[ca::D_DATAOUT_SIZE_1::offset] = place(u(c.kernels - 1), ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{});
  cacc[ca::D_DATAOUT_ADDR::offset] = lo32(out.base);
  cacc[ca::D_LINE_STRIDE::offset] = place(lo32(out.line_stride), ca::D_LINE_STRIDE::LINE_STRIDE{});
  cacc[ca::D_SURF_STRIDE::offset] = place(lo32(out.surface_stride), ca::D_SURF_STRIDE::SURF_STRIDE{});
  const uint32_t packed_1x1 = c.output.w == 1 && c.output.h == 1 ? 1u : 0u;
  cacc[ca::D_DATAOUT_MAP::offset] =
      place(packed_1x1, ca::D_DATAOUT_MAP::LINE_PACKED{}) | place(packed_1x1, ca::D_DATAOUT_MAP::SURF_PACKED{});
  cacc[ca::D_CLIP_CFG::offset] = place(u(c.clip_truncate), ca::D_CLIP_CFG::CLIP_TRUNCATE{});
  return w;
}

void apply_wino_regs(BlockWords& w, const std::vector<golden::WinoRegWrite>& regs) {
  const RegDb& db = RegDb::nvdla();
  for (const golden::WinoRegWrite& r : regs) {
    const std::string name = fmt::format("{}.{}", r.block, r.reg);
    const RegDef* def = db.find(name);
    const RegField* f = def != nullptr ? def->field(r.field) : nullptr;
    if (f == nullptr) throw std::logic_error(fmt::format("apply_wino_regs: no register field {}.{}", name, r.field));
    uint32_t& word = w[std::string(r.block)][def->offset];
    word = (word & ~f->mask()) | ((r.value << f->lsb) & f->mask());
  }
}

UnitHandler conv_handler() { return {"conv", &validate, &run}; }

CompiledConv compile_conv_layer(const LayerHeader& h, const JsonNode& root, bool expect_status) {
  return compile(h, root, expect_status);
}

CompiledConv compile_conv_layer(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, true, at);
}

}  // namespace dla::harness::engines
