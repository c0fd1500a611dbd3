// NVDLA direct convolution (CDMA -> CBUF -> CSC -> CMAC_A/B -> CACC), integer pipelines, register
// level and bit exact. The result is the CACC output cube of 32-bit values that flies into SDP
// (golden/sdp.hpp, run_sdp's flying input).
//
// Spec: ../shared/reference/conv-pipeline.md (registers, dataflow, issue order, CACC),
// nvdla-arithmetic.md §3 (CMAC/CACC widths) and §8 (layouts). Written from the spec text, never
// from RTL. Decisions the spec leaves open and the register relations a compiler has to honour
// are in docs/CONV.md. Every rounding / saturating step goes through golden/arith.hpp, every
// address through golden/layout.hpp (FeatureLayout for the input cube, WeightLayout for weights).
//
// Two ways in:
//   * decode_conv(): the raw register words of CDMA, CSC, CMAC_A, CMAC_B and CACC (one group each)
//     -> a typed ConvConfig, with every cross-block inconsistency listed;
//   * ConvParams + conv_config_from(): the layer a compiler starts from (W, H, C, K, R, S, pads,
//     stride, dilation, precision, clip) -> ConvConfig, and conv_derived() gives the values the
//     bookkeeping registers must hold (EPS, banks, ATOMICS, WEIGHT_BYTES, ...).
// run_conv() then computes the CACC output from memory.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"

namespace dla::golden {

// ---- configuration geometry -------------------------------------------------------------------

// Convolution buffer of a configuration (HwConfig): nv_small 32 banks x 512 entries x 8 bytes,
// nv_large 16 x 512 x 64, nv_full 16 x 256 x 128.
struct CbufGeometry {
  int banks = 32;
  int entries_per_bank = 512;
  int entry_bytes = 8;
};
[[nodiscard]] CbufGeometry cbuf_geometry(const HwConfig& hw);

// CSC stripe length limits (atomic operations per stripe; HwConfig): nv_small 8 .. 16, nv_large
// 32 .. 64, nv_full 16 .. 32.
// The partition never changes a result (see csc_stripes); it is modelled for the issue order.
struct StripeLimits {
  int lower = 8;
  int upper = 16;
};
[[nodiscard]] StripeLimits stripe_limits(const HwConfig& hw);

// The stripe lengths CSC uses for `positions` output positions of one kernel group
// (conv-pipeline.md §5): while left >= 2*upper: upper; else if left > upper: lower; else left.
[[nodiscard]] std::vector<int> csc_stripes(int positions, const StripeLimits& limits);

// ---- typed configuration ----------------------------------------------------------------------

// CDMA input converter (D_CVT_CFG / D_CVT_OFFSET / D_CVT_SCALE), applied to every element fetched
// from memory (not to the pad value): y = sat_in(rhaz((x - offset) * scale / 2^truncate)).
struct ConvInputCvt {
  bool enabled = false;
  int32_t offset = 0;  // s16
  int32_t scale = 0;   // s16
  int truncate = 0;    // 6 bits
};

// D_MISC_CFG.CONV_MODE. Winograd (nv_full only) is golden/conv_wino.hpp.
enum class ConvMode { Direct, Winograd };

// Image input (CDMA D_DATAIN_FORMAT.DATAIN_FORMAT = PIXEL): golden/conv_image.hpp,
// docs/IMAGE_INPUT.md. Plane 0's base and line stride are ConvConfig::in_layout's (the same
// registers, D_DAIN_ADDR_*_0 and D_LINE_STRIDE); the rest of the pixel registers are here.
struct ConvImage {
  bool enabled = false;
  int pixel_format = 0;        // D_DATAIN_FORMAT.PIXEL_FORMAT (cdma-input-modes.md table 1.2)
  bool sign_override = false;  // PIXEL_SIGN_OVERRIDE: 1 = components are two's complement
  int x_offset = 0;            // D_PIXEL_OFFSET.PIXEL_X_OFFSET (pixels inside the first atom)
  uint64_t base_uv = 0;        // D_DAIN_ADDR_HIGH_1/LOW_1: plane 1 (semi-planar formats)
  uint64_t line_stride_uv = 0; // D_LINE_UV_STRIDE
  bool mean = false;           // D_MEAN_FORMAT.MEAN_FORMAT: the global means replace CVT_OFFSET
  std::array<int32_t, 4> means{};  // MEAN_RY, MEAN_GU, MEAN_BV, MEAN_AX (s16), by CBUF channel
  int32_t pad_value_lr = 0;    // CDMA PAD_VALUE for the left / right pad pixels (signed, PROC bits)
  int post_extension = 1;      // E = 2^CSC D_POST_Y_EXTENSION: kernel rows per MAC atom (1, 2, 4; §3)
};

// Compressed weights (CDMA / CSC D_WEIGHT_FORMAT = COMPRESSED, nv_full; golden/conv_modes.hpp,
// docs/CDMA_MODES.md): weight_base / weight_bytes are then the compressed data stream's.
struct ConvCompression {
  bool enabled = false;
  uint64_t wmb_base = 0;   // D_WMB_ADDR_HIGH/LOW: the weight mask bits
  uint64_t wmb_bytes = 0;  // D_WMB_BYTES
  uint64_t wgs_base = 0;   // D_WGS_ADDR_HIGH/LOW: one little-endian uint32 per kernel group
  int weight_banks = 0;    // D_BANK.WEIGHT_BANK + 1 (decode_conv; 0: the bank rules are not checked)
};

// CBUF across layers (CDMA / CSC D_MISC_CFG, conv-pipeline.md §3, docs/CONV.md "CBUF reuse"):
// DATA_REUSE / WEIGHT_REUSE take the input / the weights the previous layer left in CBUF instead
// of fetching them; SKIP_DATA_RLS / SKIP_WEIGHT_RLS leave this layer's there for the next.
struct ConvCbufFlags {
  bool data_reuse = false;
  bool weight_reuse = false;
  bool skip_data_rls = false;
  bool skip_weight_rls = false;
  int data_banks = 0;    // D_BANK.DATA_BANK + 1 (0: not decoded)
  int weight_banks = 0;  // D_BANK.WEIGHT_BANK + 1
};

struct ConvConfig {
  ConvMode mode = ConvMode::Direct;       // CONV_MODE of all five blocks
  // W-fold (CDMA D_WFOLD, golden/conv_wfold.hpp, docs/WFOLD.md): ws 2..16 when WFOLD_EN, else 0.
  // In fold mode this config is the layer as in memory (the X geometry CDMA's and D_WFOLD's) and
  // weight_layout() / conv_derived() are the folded convolution's (wfold_view).
  int wfold_ws = 0;
  int pra_truncate = 0;                   // CSC D_PRA_CFG.PRA_TRUNCATE (Winograd only)
  Precision precision = Precision::Int8;  // CDMA IN_PRECISION = PROC_PRECISION = CSC = CMAC = CACC
  int atom_bytes = 8;                     // memory atom of the configuration
  int atomic_c = 8;                       // channels per atomic operation (channel block)
  int atomic_k = 8;                       // kernels per atomic operation (kernel group)

  // Input cube, as CDMA fetches it and CSC sees it, and where it lives. n = the batches
  // (D_BATCH_NUMBER + 1, nv_full, golden/conv_modes.hpp), in_layout.batch_stride = D_BATCH_STRIDE.
  CubeShape input{};
  FeatureLayout in_layout{};  // base D_DAIN_ADDR_*_0, D_LINE_STRIDE, D_SURF_STRIDE, D_BATCH_STRIDE, atom, bpe
  ConvInputCvt cvt{};
  // CDMA D_NAN_FLUSH_TO_ZERO (fp16): every NaN of the fetched feature data becomes +0 (weights and
  // CSC's pad value are not touched).
  bool nan_to_zero = false;
  // Image input: input is the image W x H x C (C = the format's channels), kernel_w the network
  // kernel's S; CSC runs image_view() (C' = S*C pre-extended channels, S' = 1). pad_value is then
  // CSC's (top / bottom pad rows) and image.pad_value_lr CDMA's (left / right pad pixels).
  ConvImage image{};

  // Weights: kernels x input channels x R (height) x S (width), uncompressed.
  int kernels = 1;
  int kernel_h = 1;  // R
  int kernel_w = 1;  // S
  uint64_t weight_base = 0;
  uint64_t weight_bytes = 0;  // D_WEIGHT_BYTES: bytes CDMA fetches (>= R*S*C*K*bpe uncompressed)
  ConvCompression compression{};
  ConvCbufFlags cbuf{};

  // Geometry (CSC): real values, not value-1. Winograd: the layer's stride and pads (CDMA's
  // registers); CSC then sees the channel-extended cube with stride 1 and no padding.
  int stride_x = 1, stride_y = 1;
  int dilation_x = 1, dilation_y = 1;
  int pad_left = 0, pad_top = 0;
  int pad_right = 0, pad_bottom = 0;  // CDMA only; implied by the output size (checked, not used)
  int32_t pad_value = 0;              // signed; int8 uses the low 8 bits

  // Output (CSC/CACC D_DATAOUT_SIZE): n = input.n, c = kernels, h = H', w = W'.
  CubeShape output{};
  int clip_truncate = 0;  // CACC D_CLIP_CFG.CLIP_TRUNCATE
  // CACC's own copy of the output address (D_DATAOUT_ADDR, D_LINE_STRIDE): SDP writes the output
  // at its addresses; CACC's steer only the 64-byte pairs of a batched output (batch_pairing_problem).
  uint64_t cacc_out_base = 0;
  uint64_t cacc_out_line_stride = 0;

  // Problems found while decoding (inconsistent blocks, unsupported modes). Filled by
  // decode_conv; unsupported() adds the semantic checks.
  std::vector<std::string> decode_problems{};

  [[nodiscard]] int bpe() const { return bytes_per_element(precision); }
  [[nodiscard]] WeightLayout weight_layout() const;
  // Channels of the CACC output cube: kernels rounded up to whole kernel groups (the lanes for
  // kernels >= K in the last group carry 0).
  [[nodiscard]] int output_lanes() const;
  // Everything the model cannot run, one sentence each (empty: runnable).
  [[nodiscard]] std::vector<std::string> unsupported() const;
};

// The input element CSC feeds for output position `pos` (raster order over W' x H') at kernel
// position (r, s): its row and column, and whether it lies inside the cube (outside: an atom of
// the pad value). Every precision's issue loop asks this one rule.
struct ConvTap {
  int h = 0, w = 0;
  bool inside = false;
};
[[nodiscard]] inline ConvTap conv_tap(const ConvConfig& c, int pos, int r, int s) {
  ConvTap t;
  t.h = (pos / c.output.w) * c.stride_y + r * c.dilation_y - c.pad_top;
  t.w = (pos % c.output.w) * c.stride_x + s * c.dilation_x - c.pad_left;
  t.inside = t.h >= 0 && t.h < c.input.h && t.w >= 0 && t.w < c.input.w;
  return t;
}

// ---- register decoding --------------------------------------------------------------------------

// Raw register value at a block-relative byte offset: D_ registers of the group being executed,
// S_ registers (single copy) otherwise.
using ConvRegReader = std::function<uint32_t(uint32_t offset)>;

struct ConvRegReaders {
  ConvRegReader cdma, csc, cmac_a, cmac_b, cacc;
};

// Decodes the five blocks' registers into a ConvConfig for `hw`. Field positions come from the
// generated golden/nvdla_regs.hpp; only defined field bits are read. Cross-block inconsistencies
// (CDMA vs CSC sizes, CSC vs CACC output, precisions, ENTRY_PER_SLICE, banks, ...) and modes the
// model does not run (Winograd off nv_full or outside its rules, fp16, image input outside
// golden/conv_image.hpp's rules, batches or compressed weights outside golden/conv_modes.hpp's)
// are listed in decode_problems. Batches and compressed weights: decode_conv_modes.
// DATAIN_FORMAT = PIXEL decodes the image registers (golden/conv_image.hpp). CONV_MODE = WINOGRAD in all five blocks decodes
// the Winograd registers (golden/conv_wino.hpp).
[[nodiscard]] ConvConfig decode_conv(const ConvRegReaders& regs, const HwConfig& hw);

// One line for reports: shapes, kernel, stride, dilation, pads, precision, clip.
[[nodiscard]] std::string conv_describe(const ConvConfig& c);

// ---- what a compiler starts from ----------------------------------------------------------------

struct ConvParams {
  int w = 1, h = 1, c = 1;  // input cube
  int k = 1;                // kernels (output channels)
  int r = 1, s = 1;         // kernel height, width
  int pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
  int32_t pad_value = 0;
  int stride_x = 1, stride_y = 1;
  int dilation_x = 1, dilation_y = 1;
  Precision precision = Precision::Int8;
  int clip_truncate = 0;
  ConvInputCvt cvt{};
  int wfold_ws = 0;  // W-fold width ws (docs/WFOLD.md), 0: unfolded
  int batch = 1;     // batches N (nv_full, golden/conv_modes.hpp): input and output packed per batch
};

// Output size: W' = (W + PL + PR - ((S-1)*dx + 1)) / sx + 1 (H' likewise); 0 when the dilated
// kernel does not fit.
[[nodiscard]] int conv_out_w(const ConvParams& p);
[[nodiscard]] int conv_out_h(const ConvParams& p);

// A typed config for `p` on `hw`: input packed at in_base (FeatureLayout::packed), weights at
// weight_base, WEIGHT_BYTES = padded_bytes() (of the folded weights with p.wfold_ws).
[[nodiscard]] ConvConfig conv_config_from(const ConvParams& p, const HwConfig& hw, uint64_t in_base,
                                          uint64_t weight_base);

// Values of the bookkeeping registers that must agree with the layer (docs/CONV.md §2).
struct ConvDerived {
  int entries_per_slice = 0;   // CDMA/CSC D_ENTRY_PER_SLICE (real value)
  int data_banks_min = 0;      // smallest DATA_BANK+1 that holds the whole input (EPS*H entries)
  int weight_banks_min = 0;    // smallest WEIGHT_BANK+1 that holds one full kernel group
  int weight_banks_all = 0;    // WEIGHT_BANK+1 that holds all weights (needed for SKIP_WEIGHT_RLS reuse)
  uint32_t byte_per_kernel = 0;  // CDMA D_WEIGHT_SIZE_0.BYTE_PER_KERNEL + 1 = R*S*C*bpe
  uint64_t weight_bytes = 0;     // D_WEIGHT_BYTES = roundup(R*S*C*K*bpe, 128)
  int atomics = 0;               // CSC D_ATOMICS + 1 = W'*H'
  int kernel_groups = 0;         // ceil(K / atomic_k)
  int channel_blocks = 0;        // ceil(C / atomic_c)
  std::vector<int> stripes{};    // stripe lengths of one kernel group (image: per output line)
};
[[nodiscard]] ConvDerived conv_derived(const ConvConfig& c, const HwConfig& hw);

// ---- CACC arithmetic (exposed for the hand-computed tests) --------------------------------------

// Width of CACC's saturating partial sums: 34 bits for int8 (RTL), 48 for int16.
[[nodiscard]] int cacc_psum_bits(Precision p);
// One accumulation step: sat_bits(acc + psum).
[[nodiscard]] int64_t cacc_accumulate(int64_t acc, int64_t psum, Precision p);
// Final conversion: sat32(rhaz(acc / 2^clip)); `saturated` reports the 32-bit clamp.
[[nodiscard]] int64_t cacc_output(int64_t acc, int clip_truncate, bool* saturated = nullptr);

// ---- one layer ---------------------------------------------------------------------------------

struct ConvStats {
  uint32_t out_saturation = 0;  // CACC D_OUT_SATURATION: outputs clamped to int32 (saturating count)
  uint64_t atomic_ops = 0;      // CMAC atomic operations issued (per kernel group, position, block, r, s)
  uint64_t psum_saturations = 0;  // CACC partial-sum saturations (34/48-bit); not a register
  int stripes_per_group = 0;
};

struct ConvRun {
  // CACC output, delivered to SDP: shape (N, output_lanes(), H', W'), 32-bit values; lanes for
  // kernels >= K are 0.
  Cube<int64_t> cacc{};
  ConvStats stats{};
};

// The CDMA input converter on one element x (already extended from its container, signed or
// not): sat_out(rhaz((x - operand) * CVT_SCALE / 2^CVT_TRUNCATE)); operand is CVT_OFFSET, or in
// image mode with MEAN_FORMAT the channel's mean (cdma-input-modes.md §2.2).
[[nodiscard]] int64_t cdma_convert(int64_t x, int32_t operand, const ConvInputCvt& cvt, int out_bits);

// CDMA's input fetch: the input cube through cfg.in_layout, then the input converter (feature
// input; image input is image_cbuf, golden/conv_image.hpp).
[[nodiscard]] Cube<int64_t> conv_fetch_input(const ConvConfig& cfg, const ByteReader& read);
// One little-endian element of `bpe` bytes at addr, sign-extended (weights and features).
[[nodiscard]] int64_t conv_read_element(const ByteReader& read, uint64_t addr, int bpe);

// What CBUF holds for the next layer: the golden device keeps one across the layers it runs.
// CDMA's fp16 status counters of a layer (engines/conv/golden/conv_fp16.hpp, conv_fp16_counts).
struct ConvFp16Counts {
  uint32_t data_nan = 0, data_inf = 0, weight_nan = 0, weight_inf = 0;
};

struct ConvCbufState {
  std::optional<ConvConfig> last{};  // the last layer run since reset (none: CBUF holds nothing)
  ConvFp16Counts fp16_counts{};      // CDMA's fp16 counters of the last layer (a reusing client keeps its)
  std::vector<uint8_t> weights{};    // its D_WEIGHT_BYTES weight bytes, kept when SKIP_WEIGHT_RLS
  Cube<int64_t> data{};              // its input cube as CDMA converted it, kept when SKIP_DATA_RLS
};

// Why `next` cannot take what CBUF holds after `last` (null: no layer since reset), one sentence
// each; empty when it reuses nothing or may. NVDLA's rule (conv-pipeline.md §3): the previous
// layer skipped the release and used the same banks and mode. This model also needs: weights
// that fitted their banks (the ring did not wrap), the same D_WEIGHT_BYTES and precision,
// uncompressed; data reuse in direct mode from feature input (not Winograd, image, W-fold) with
// the same input cube. A partial D_RELEASE keeps lines this model does not track.
[[nodiscard]] std::vector<std::string> cbuf_reuse_problems(const ConvConfig* last, const ConvConfig& next,
                                                           const HwConfig& hw);

// Runs the layer (either mode): input cube and weights read through `read`, or with a CBUF state
// taken from it (reuse flags) and left in it. Throws std::invalid_argument naming the problem
// when cfg.unsupported() (or cbuf_reuse_problems) is not empty; reuse flags without a state are
// refused.
[[nodiscard]] ConvRun run_conv(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read,
                               ConvCbufState* cbuf = nullptr);

}  // namespace dla::golden
