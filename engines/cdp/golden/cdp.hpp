// The NVDLA CDP (channel data processor: local response normalization across channels) with its
// CDP_RDMA, integer data, register level and bit exact: input converter, square sum over a
// window of 3/5/7/9 channels centred on each channel, the CDP variant of the hybrid LUT
// (golden/lut.hpp), the multiply by the converted input, output converter with saturation.
//
// Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §1 and §3, nvdla-arithmetic.md §1.5 (CDP LUT)
// and §5 (CDP datapath widths), the LUT programming seed ../shared/seeds/002_*. Written from the
// spec text, never from RTL. Decisions the spec leaves open are listed in docs/CDP.md
// ("Decisions"). Rounding goes through golden/arith.hpp, address math through golden/layout.hpp,
// the LUT through golden/lut.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"

namespace dla::golden {

// D_DATA_FORMAT codes (CDP.INPUT_DATA_TYPE and CDP_RDMA.INPUT_DATA).
enum class CdpPrecision : uint8_t { Int8 = 0, Int16 = 1, Fp16 = 2, Reserved = 3 };

[[nodiscard]] constexpr int cdp_precision_bytes(CdpPrecision p) { return p == CdpPrecision::Int8 ? 1 : 2; }

struct CdpConfig {
  int atom_bytes = 8;
  // CDP_RDMA: the cube (CDP has no size registers; output size = input size).
  CubeShape shape{};  // n = 1
  uint64_t src_base = 0, src_line_stride = 0, src_surface_stride = 0;
  bool src_ram_mc = true;  // RAM_TYPE 1 MC; 0 (CV) needs the secondary interface: refused without (unsupported())
  CdpPrecision rdma_precision = CdpPrecision::Int8;
  bool rdma_perf_en = false;
  // CDP core.
  CdpPrecision precision = CdpPrecision::Int8;
  bool sqsum_bypass = false;  // D_FUNC_BYPASS.SQSUM_BYPASS: the LUT looks up x itself
  bool mul_bypass = false;    // D_FUNC_BYPASS.MUL_BYPASS: the output is the LUT value
  int normalz_len = 3;        // D_LRN_CFG.NORMALZ_LEN: 3, 5, 7 or 9 channels
  int32_t datin_offset = 0;   // D_DATIN_OFFSET: int8 uses its low 8 bits, int16 all 16 (signed)
  int32_t datin_scale = 1;    // signed 16
  int datin_shift = 0;        // 0..31
  int64_t datout_offset = 0;  // signed 32 (int8: its low 25 bits, signed)
  int32_t datout_scale = 1;   // signed 16
  int datout_shift = 0;       // 0..63
  uint64_t dst_base = 0, dst_line_stride = 0, dst_surface_stride = 0;
  bool dst_ram_mc = true;
  bool nan_to_zero = false;   // fp16 only
  bool perf_dma_en = false;
  bool perf_lut_en = false;   // D_PERF_ENABLE.LUT_EN: the five LUT counters count
  LutConfig lut{};            // S_LUT_* (single registers), select width from `precision`

  [[nodiscard]] int lanes_per_atom() const { return atom_bytes / cdp_precision_bytes(precision); }
  // Channels rounded up to whole atoms: every lane of the last surface is computed and written.
  [[nodiscard]] int lanes() const;
  // Everything in this config NVDLA's CDP cannot do or the model does not model, one sentence each
  // naming the register field and the rule (empty: runnable on `hw`).
  [[nodiscard]] std::vector<std::string> unsupported(const HwConfig& hw) const;
};

using CdpRegReader = std::function<uint32_t(uint32_t offset)>;

// Decodes the CDP block (`cdp`: D_ registers of one group and the S_LUT_* registers) and the
// CDP_RDMA block (`rdma`, one group). Only defined field bits are read.
[[nodiscard]] CdpConfig decode_cdp(const CdpRegReader& cdp, const CdpRegReader& rdma, int atom_bytes);

// One line for reports: cube, precision, window, bypasses, converters.
[[nodiscard]] std::string cdp_describe(const CdpConfig& c);

// ---- the datapath, one step at a time (each exact at NVDLA's widths) ---------------------------

// Input converter: sat_9 (int8) / sat_17 (int16) of rhaz(((in - offset) * scale) / 2^shift).
// int8 subtracts the low 8 bits of DATIN_OFFSET as a signed byte.
[[nodiscard]] int64_t cdp_convert_in(const CdpConfig& c, int64_t in);
// LUT input for channel `ch` of one pixel: the square sum of the converted values x[ch + j],
// |j| <= (N - 1) / 2, channels outside [0, C) contributing 0; x[ch] itself with SQSUM_BYPASS.
// `x` holds the converted values of every lane of the pixel (lanes >= C are 0).
[[nodiscard]] int64_t cdp_lut_input(const CdpConfig& c, const std::vector<int64_t>& x, int ch);
// Output converter: sat_8 / sat_16 of rhaz(((p - DATOUT_OFFSET) * DATOUT_SCALE) / 2^DATOUT_SHIFTER)
// (int8: DATOUT_OFFSET's low 25 bits, signed); `saturated` reports the clamp.
[[nodiscard]] int64_t cdp_convert_out(const CdpConfig& c, int64_t p, bool& saturated);

struct CdpStats {
  LutStats lut{};               // counted only with D_PERF_ENABLE.LUT_EN (else all 0)
  uint32_t out_saturation = 0;  // D_OUT_SATURATION (saturating at 0xFFFFFFFF; 0 in fp16)
  // fp16 (docs/FP16.md "CDP in fp16"): D_NAN_INPUT_NUM / D_INF_INPUT_NUM (every lane of every atom
  // read, before NAN_TO_ZERO) and D_NAN_OUTPUT_NUM (every lane written); 0 for integers.
  uint32_t nan_input = 0, inf_input = 0, nan_output = 0;
  bool operator==(const CdpStats&) const = default;
};

struct CdpRun {
  Cube<int64_t> output{};  // every lane written: (1, lanes, h, w)
  uint64_t elements = 0;   // lanes computed
  CdpStats stats{};
};

// The normalization of a whole cube (n = 1, c = lanes, values already sign-extended); lanes >= C
// are ignored on input and computed with x = 0.
[[nodiscard]] CdpRun cdp_normalize(const CdpConfig& cfg, const LutTables& tables, const Cube<int64_t>& input);

[[nodiscard]] FeatureLayout cdp_input_layout(const CdpConfig& c);
[[nodiscard]] FeatureLayout cdp_output_layout(const CdpConfig& c);
[[nodiscard]] CubeShape cdp_shape(const CdpConfig& c);  // (1, lanes, h, w)

// Runs one layer: reads the input cube through `read` (CDP_RDMA's source layout, every lane of
// every atom), normalizes, writes every lane of every output atom through `write`. Throws
// std::invalid_argument naming the first problem if cfg.unsupported(hw) is not empty.
[[nodiscard]] CdpRun run_cdp(const CdpConfig& cfg, const HwConfig& hw, const LutTables& tables, const ByteReader& read,
                             const ByteWriter& write);

}  // namespace dla::golden
