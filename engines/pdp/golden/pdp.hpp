// The NVDLA PDP (planar data processor) with its PDP_RDMA, integer and fp16 data (docs/FP16.md
// "PDP"), register level and bit exact: max / min / average pooling over kernels up to 8x8 with strides up to 16, padding (pad
// values in average pooling), the two reciprocal multiplications of the average, split-width mode.
//
// Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §1-2, nvdla-arithmetic.md §4 (widths, pad value
// widths), the programming guide's PDP section and hardware limitations
// (../shared/seeds/000_*.txt). Written from the spec text, never from RTL. Decisions the spec
// leaves open are listed in docs/PDP.md ("Decisions"). Rounding goes through golden/arith.hpp,
// address math through golden/layout.hpp.
//
// The model decodes the raw register values of the PDP and PDP_RDMA blocks (field positions from
// the generated golden/nvdla_regs.hpp) into a typed PdpConfig, lists what NVDLA cannot do with
// it (unsupported()), and runs a whole layer through byte callbacks (off-flying) or from the cube
// SDP streams to it (on-the-fly).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"

namespace dla::golden {

enum class PdpMethod : uint8_t { Average = 0, Max = 1, Min = 2, Reserved = 3 };
// D_DATA_FORMAT.INPUT_DATA codes (PDP and PDP_RDMA).
enum class PdpPrecision : uint8_t { Int8 = 0, Int16 = 1, Fp16 = 2, Reserved = 3 };

[[nodiscard]] constexpr int pdp_precision_bytes(PdpPrecision p) { return p == PdpPrecision::Int8 ? 1 : 2; }

// PARTIAL_WIDTH_IN / PARTIAL_WIDTH_OUT (stored value + 1).
struct PdpPartialWidths {
  int first = 1;
  int mid = 1;
  int last = 1;
  bool operator==(const PdpPartialWidths&) const = default;
};

struct PdpConfig {
  int atom_bytes = 8;
  // PDP core
  CubeShape in{};   // D_DATA_CUBE_IN_* (n = 1)
  CubeShape out{};  // D_DATA_CUBE_OUT_*
  PdpMethod method = PdpMethod::Average;
  bool off_flying = true;  // FLYING_MODE: true = input from memory (PDP_RDMA), false = from SDP
  int splits = 1;          // SPLIT_NUM + 1
  bool nan_to_zero = false;
  PdpPartialWidths in_widths{}, out_widths{};
  int kernel_w = 1, kernel_h = 1, stride_w = 1, stride_h = 1;
  uint32_t recip_w = 0x10000, recip_h = 0x10000;  // 17-bit unsigned 0.16 fixed point
  int pad_left = 0, pad_top = 0, pad_right = 0, pad_bottom = 0;
  std::array<int32_t, 7> pad_value{};  // PAD_VALUE_{1..7}X, 19 bits sign-extended
  uint64_t dst_base = 0, dst_line_stride = 0, dst_surface_stride = 0;
  bool dst_ram_mc = true;  // RAM_TYPE 1 MC; 0 (CV) needs the secondary interface: refused without (unsupported())
  PdpPrecision precision = PdpPrecision::Int8;
  bool perf_dma_en = false;
  // PDP_RDMA (meaningful when off_flying)
  CubeShape rdma_in{};
  uint64_t src_base = 0, src_line_stride = 0, src_surface_stride = 0;
  bool src_ram_mc = true;
  PdpPrecision rdma_precision = PdpPrecision::Int8;
  int rdma_splits = 1;
  int rdma_kernel_w = 1, rdma_stride_w = 1;
  int rdma_pad_width = 0;  // recorded only (cmod ignores it; trace tests write random values)
  PdpPartialWidths rdma_in_widths{};
  bool rdma_perf_en = false;

  // Channels per atom (the lanes PDP processes together).
  [[nodiscard]] int lanes_per_atom() const { return atom_bytes / pdp_precision_bytes(precision); }
  // Channels rounded up to whole atoms: every lane of the last surface is pooled and written.
  [[nodiscard]] int lanes() const;
  // Everything in this config NVDLA's PDP cannot do or the model does not model, one sentence each
  // naming the register field and the rule (empty: runnable on `hw`).
  [[nodiscard]] std::vector<std::string> unsupported(const HwConfig& hw) const;
};

using PdpRegReader = std::function<uint32_t(uint32_t offset)>;

// Decodes the PDP block (`pdp`) and the PDP_RDMA block (`rdma`) registers of one group each.
// Only defined field bits are read.
[[nodiscard]] PdpConfig decode_pdp(const PdpRegReader& pdp, const PdpRegReader& rdma, int atom_bytes);

// One line for reports: cube, method, kernel, stride, pads, split, source.
[[nodiscard]] std::string pdp_describe(const PdpConfig& c);

// Output size NVDLA computes for one dimension: (in + pad_lo + pad_hi - kernel) / stride + 1
// (0 when the padded input is shorter than the kernel).
[[nodiscard]] int pdp_out_size(int in, int pad_lo, int pad_hi, int kernel, int stride);

// Bits PAD_VALUE_{n}X is sign-extended from for `bpe`-byte data (cmod: 8/9/10/10/11/11/11 for
// int8, +8 for int16); NVDLA's software programs n * pad_value, which always fits.
[[nodiscard]] int pdp_pad_value_bits(int n, int bpe);

// The average of one window: `sum` is the sum of the valid elements plus the pad values
// (PAD_VALUE_{ncol}X per valid row, kernel_w * PAD_VALUE_{nrow}X); returns
// rhaz(rhaz(sum * recip_w / 2^16) * recip_h / 2^16). Throws std::domain_error when an
// intermediate does not fit NVDLA's datapath widths (window sum bits+6, first quotient bits+3,
// result bits) for `bits`-bit data.
[[nodiscard]] int64_t pdp_average(int64_t sum, uint32_t recip_w, uint32_t recip_h, int bits);

// Pools `input` (n = 1, c = lanes, h = in.h, w = in.w) into (1, lanes, out.h, out.w). Split mode
// does not change the result (unsupported() checks the partial widths make it so). Throws
// std::domain_error for pad values / averages outside NVDLA's widths.
[[nodiscard]] Cube<int64_t> pdp_pool(const PdpConfig& cfg, const Cube<int64_t>& input);

[[nodiscard]] FeatureLayout pdp_input_layout(const PdpConfig& c);
[[nodiscard]] FeatureLayout pdp_output_layout(const PdpConfig& c);
[[nodiscard]] CubeShape pdp_input_shape(const PdpConfig& c);   // lanes, not channels
[[nodiscard]] CubeShape pdp_output_shape(const PdpConfig& c);  // lanes, not channels

struct PdpRun {
  Cube<int64_t> output{};  // every lane written: (1, lanes, out.h, out.w)
  uint64_t elements = 0;   // lanes pooled
  // fp16 (docs/FP16.md "PDP"): D_NAN_INPUT_NUM / D_INF_INPUT_NUM (every lane of every atom read
  // from memory, before NAN_TO_ZERO) and D_NAN_OUTPUT_NUM (every lane written); 0 for integers.
  uint32_t nan_input = 0, inf_input = 0, nan_output = 0;
};

// Runs one layer. Off-flying: the input cube is read through `read` (PDP_RDMA's source layout,
// every lane of every atom). On-the-fly: `flying_input` is SDP's output (1, lanes >= in.c, in.h,
// in.w; it must match PDP's input cube). Output atoms go through `write`. Throws
// std::invalid_argument naming the first problem if cfg.unsupported(hw) is not empty.
[[nodiscard]] PdpRun run_pdp(const PdpConfig& cfg, const HwConfig& hw, const ByteReader& read, const ByteWriter& write,
                             const Cube<int64_t>* flying_input = nullptr);

}  // namespace dla::golden
