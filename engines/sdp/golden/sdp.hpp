// The NVDLA SDP (single data point processor), integer pipelines, register level and bit exact:
//
//   input (32-bit) -> X1 = BS (ALU, MUL/PReLU, truncate, ReLU) -> X2 = BN (same)
//                  -> Y = EW (operand converters, MUL/PReLU, ALU incl. EQL, LUT)
//                  -> C (output converter, 17-bit saturation) -> int8 / int16 (or EQL status)
//
// Spec: ../shared/reference/nvdla-arithmetic.md §2 (datapath), §1.3 (LUT, via golden/lut.hpp),
// §8 (layout, via golden/layout.hpp). Written from the spec text, never from RTL. Decisions the
// spec leaves open are listed in docs/SDP.md ("Decisions"). Every rounding / shifting /
// saturating step goes through golden/arith.hpp.
//
// The model decodes the raw register values of the SDP and SDP_RDMA blocks itself (field
// positions from the generated golden/nvdla_regs.hpp) into a typed SdpConfig, then runs a whole
// layer through byte callbacks, so it never depends on a memory model.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"

namespace dla::golden {

// ---- typed configuration ----------------------------------------------------------------------

enum class SdpAluAlgo : uint8_t { Max = 0, Min = 1, Sum = 2, Eql = 3 };
// D_DATA_FORMAT / D_FEATURE_MODE_CFG precision codes.
enum class SdpPrecision : uint8_t { Int8 = 0, Int16 = 1, Fp16 = 2, Reserved = 3 };
// SDP_RDMA D_{B,N,E}RDMA_CFG.DATA_USE: what the operand stream carries.
enum class SdpDmaUse : uint8_t { Mul = 0, Alu = 1, Both = 2, Reserved = 3 };

[[nodiscard]] constexpr int sdp_precision_bytes(SdpPrecision p) { return p == SdpPrecision::Int8 ? 1 : 2; }

// One operand DMA (BRDMA for BS, NRDMA for BN, ERDMA for EW).
struct SdpDmaCfg {
  bool enabled = false;          // !DISABLE
  SdpDmaUse use = SdpDmaUse::Mul;
  int data_bytes = 1;            // DATA_SIZE: 1 or 2
  bool per_element = false;      // DATA_MODE: false = one value per channel (PER_KERNEL)
  bool ram_mc = true;            // RAM_TYPE 1 MC; 0 CV (sdp_hw_problems)
  uint64_t base = 0;             // {BASE_ADDR_HIGH, BASE_ADDR_LOW}
  uint64_t line_stride = 0;
  uint64_t surface_stride = 0;
  uint64_t batch_stride = 0;
  // Bytes per channel in memory: data_bytes, doubled when the stream interleaves ALU and MUL.
  [[nodiscard]] int element_bytes() const { return data_bytes * (use == SdpDmaUse::Both ? 2 : 1); }
};

// X1 (BS) or X2 (BN).
struct SdpXCfg {
  bool bypass = true;
  bool alu_bypass = true;
  SdpAluAlgo alu_algo = SdpAluAlgo::Max;  // Eql (3) behaves as Sum here (RTL)
  bool mul_bypass = true;
  bool mul_prelu = false;
  bool relu_bypass = true;
  bool alu_src_mem = false;
  int alu_shift = 0;          // ALU_SHIFT_VALUE, 6 bits: operand << shift (saturating)
  int16_t alu_operand = 0;    // register operand
  bool mul_src_mem = false;
  int mul_shift = 0;          // low 6 bits of MUL_SHIFT_VALUE: truncation right shift
  int16_t mul_operand = 0;
};

// EW operand input converter (only for DMA operands).
struct SdpCvtCfg {
  bool bypass = true;
  int32_t offset = 0;
  int16_t scale = 0;
  int truncate = 0;  // 6 bits
};

// Y (EW).
struct SdpYCfg {
  bool bypass = true;
  bool alu_bypass = true;
  SdpAluAlgo alu_algo = SdpAluAlgo::Max;
  bool mul_bypass = true;
  bool mul_prelu = false;
  bool lut_bypass = true;
  bool alu_src_mem = false;
  SdpCvtCfg alu_cvt{};
  int32_t alu_operand = 0;    // register operand, full 32 bits
  bool mul_src_mem = false;
  SdpCvtCfg mul_cvt{};
  int32_t mul_operand = 0;
  int truncate = 0;           // EW_TRUNCATE, 10 bits
};

// Output converter C.
struct SdpOutCvtCfg {
  int32_t offset = 0;
  int16_t scale = 0;
  int shift = 0;  // 6 bits
};

struct SdpConfig {
  // Cube (SDP core registers; W/H/C are stored value + 1). n = batches (flying mode only).
  CubeShape shape{};
  int atom_bytes = 8;
  // D_FEATURE_MODE_CFG (SDP)
  bool flying = false;
  bool output_to_pdp = false;
  // WINOGRAD (flying only): WDMA writes the cube in 2x2 tiles (docs/SDP.md, "Winograd write
  // order"); the values are those of the same cube without it. SDP_RDMA's own WINOGRAD bit makes
  // its operand DMAs fetch per-element operands in that order; without it NVDLA would pair them
  // with other outputs, so per-element operands need both bits (unsupported()).
  bool winograd = false;
  bool rdma_winograd = false;
  bool nan_to_zero = false;
  // precisions: input read by MRDMA (SDP_RDMA IN_PRECISION), processing, output (SDP D_DATA_FORMAT);
  // SDP_RDMA's own copy of PROC_PRECISION (NVIDIA's firmware writes both from one table entry, and
  // the operand DMAs group their lanes by it); int16 -> int8 is (IN INT16, PROC INT8, OUT INT8)
  // from memory (docs/SDP.md "Precisions").
  SdpPrecision in_precision = SdpPrecision::Int8;
  SdpPrecision proc_precision = SdpPrecision::Int8;
  SdpPrecision out_precision = SdpPrecision::Int8;
  SdpPrecision rdma_proc_precision = SdpPrecision::Int8;
  // Whether SDP_RDMA runs (memory input or an operand DMA enabled): then its copies count.
  bool rdma_active = false;
  // source cube (MRDMA, flying off)
  CubeShape rdma_shape{};
  uint64_t src_base = 0, src_line_stride = 0, src_surface_stride = 0;
  bool src_ram_mc = true;  // D_SRC_DMA_CFG.SRC_RAM_TYPE (1 MC, 0 CV; sdp_hw_problems)
  // destination (WDMA)
  uint64_t dst_base = 0, dst_line_stride = 0, dst_surface_stride = 0, dst_batch_stride = 0;
  bool dst_ram_mc = true;  // D_DST_DMA_CFG.DST_RAM_TYPE
  // operand DMAs and stages
  SdpDmaCfg brdma{}, nrdma{}, erdma{};
  SdpXCfg bs{}, bn{};
  SdpYCfg ew{};
  SdpOutCvtCfg cvt{};
  LutConfig lut{};
  // D_PERF_ENABLE
  bool perf_dma_en = false, perf_lut_en = false, perf_sat_en = false, perf_nan_inf_en = false;
  bool rdma_perf_nan_inf_en = false;  // SDP_RDMA D_PERF_ENABLE.PERF_NAN_INF_COUNT_EN

  [[nodiscard]] bool lut_active() const { return !ew.bypass && !ew.lut_bypass; }
  // EQL mode: EW ALU comparing; no write-back, D_STATUS.STATUS_UNEQUAL instead.
  [[nodiscard]] bool eql_mode() const { return !ew.bypass && !ew.alu_bypass && ew.alu_algo == SdpAluAlgo::Eql; }
  // Channels per atom of the input in memory, and per group of the datapath (PROC: the operand
  // DMAs' lanes; int16 -> int8 reads two int16 surfaces per 32-lane group).
  [[nodiscard]] int lanes_per_atom() const { return atom_bytes / sdp_precision_bytes(in_precision); }
  [[nodiscard]] int proc_lanes_per_atom() const { return atom_bytes / sdp_precision_bytes(proc_precision); }
  // Everything in this config the model cannot run, one sentence each (empty: runnable).
  [[nodiscard]] std::vector<std::string> unsupported() const;
};

// What NVDLA's SDP does not have in Winograd mode (D_FEATURE_MODE_CFG.WINOGRAD): the EW ALU's EQL
// and int8 input -> int16 output. The reasons a set-up is refused, one sentence each (empty:
// allowed); SdpConfig::unsupported() and the `conv` layer compiler use them.
[[nodiscard]] std::vector<std::string> sdp_winograd_refusals(bool eql, SdpPrecision in, SdpPrecision out);

// Raw register value at a block-relative byte offset. For D_ registers it is the value of the
// group being executed; S_ registers have one copy.
using SdpRegReader = std::function<uint32_t(uint32_t offset)>;

// Decodes the SDP block (`sdp`) and the SDP_RDMA block (`rdma`) registers. Only defined field
// bits are read. `atom_bytes` is the configuration's memory atom (8 nv_small, 32 nv_full).
// What build `hw` lacks for the layer: a DMA the layer uses whose RAM_TYPE selects CV-SRAM on a
// build without NVDLA's secondary memory interface. Empty: it runs.
[[nodiscard]] std::vector<std::string> sdp_hw_problems(const SdpConfig& c, const HwConfig& hw);
[[nodiscard]] SdpConfig decode_sdp(const SdpRegReader& sdp, const SdpRegReader& rdma, int atom_bytes);

// One line for reports: cube, precisions, input source and the active stages.
[[nodiscard]] std::string sdp_describe(const SdpConfig& c);

// ---- stages (one element; exposed for the hand-computed tests) --------------------------------

// X stage (BS or BN): 32-bit in, 32-bit out. alu_op / mul_op are the 16-bit operands (register
// value or DMA value, already chosen by the caller).
[[nodiscard]] int64_t sdp_x_stage(const SdpXCfg& c, int64_t in32, int64_t alu_op16, int64_t mul_op16);

// EW operand input converter: x16 (DMA value sign-extended to 16 bits) -> 32 bits.
[[nodiscard]] int64_t sdp_ew_cvt(const SdpCvtCfg& c, int64_t x16);

struct SdpYResult {
  int64_t value = 0;          // 32-bit
  std::optional<LutResult> lut;  // set when the LUT ran
};
// Y stage: alu_op32 / mul_op32 are the operands after conversion (or the register values).
[[nodiscard]] SdpYResult sdp_y_stage(const SdpYCfg& c, const LutConfig& lut_cfg, const LutTables& tables,
                                     int64_t in32, int64_t alu_op32, int64_t mul_op32);

struct SdpOutResult {
  int64_t value = 0;       // int8 or int16 value written
  bool saturated = false;  // the 17-bit stage clamped (the final 17 -> 8/16 clamp never sets it)
};
// Output converter C, then the final clamp to `out_bits` (8 or 16).
[[nodiscard]] SdpOutResult sdp_out_cvt(const SdpOutCvtCfg& c, int64_t in32, int out_bits);

// An fp16 operand from memory (BS, BN, EW) or BS / BN's registers: NaN flushed with NAN_TO_ZERO,
// widened exactly to fp32.
[[nodiscard]] uint32_t sdp_fp16_operand(uint16_t op, bool nan_to_zero);
// fp16 pipeline (docs/FP16.md "SDP"). X stage (BS or BN) on the fp32 word x32 with fp16 operands:
// ALU (data first), MUL or PReLU, ReLU, each in fp32; operand NaNs flushed with NAN_TO_ZERO; no
// shifter (ALU_SHIFT_VALUE and MUL_SHIFT_VALUE are not read).
[[nodiscard]] uint32_t sdp_x_stage_fp16(const SdpXCfg& c, uint32_t x32, uint16_t alu_op, uint16_t mul_op,
                                        bool nan_to_zero);
// EW (Y) in fp16: MUL or PReLU, ALU (data first; EQL gives the integer 0 or 1 from the raw
// patterns), then the float LUT (lut_lookup_fp); fp32 throughout. alu_op32 / mul_op32 are fp32:
// a register operand as written (no NaN flush), a memory operand through sdp_fp16_operand
// (EW_*_CVT offset, scale, truncate and bypass are not read in fp16, nor EW_TRUNCATE).
[[nodiscard]] SdpYResult sdp_y_stage_fp16(const SdpYCfg& c, const LutConfig& lut_cfg, const LutTables& tables,
                                          uint32_t x32, uint32_t alu_op32, uint32_t mul_op32);
// The output converter: x32 rounded to fp16 and written as such, or on to int16 (OUT_PRECISION
// INT16); `saturated` is what D_PERF_OUT_SATURATION counts in fp16: an output of magnitude 0x7bff.
// (NAN_TO_ZERO acts on the input, before BS: run_sdp.)
[[nodiscard]] SdpOutResult sdp_fp16_out(const SdpConfig& c, uint32_t x32);

// ---- one layer --------------------------------------------------------------------------------

struct SdpStats {
  uint64_t elements = 0;         // lanes computed (including padded lanes of the last atom)
  uint32_t out_saturation = 0;   // D_PERF_OUT_SATURATION (only with PERF_SAT_EN), saturating
  LutStats lut{};                // D_PERF_LUT_* (only with PERF_LUT_EN and the LUT active)
  bool unequal = false;          // D_STATUS.STATUS_UNEQUAL (EQL mode)
  // fp16 (docs/FP16.md "SDP"): SDP_RDMA D_STATUS_NAN_INPUT_NUM / D_STATUS_INF_INPUT_NUM (fp16 read
  // from memory with SDP_RDMA's PERF_NAN_INF_COUNT_EN: every lane of every atom) and SDP
  // D_STATUS_NAN_OUTPUT_NUM (fp16 out with SDP's PERF_NAN_INF_COUNT_EN: every lane computed).
  uint32_t nan_input = 0, inf_input = 0, nan_output = 0;
};

struct SdpRun {
  SdpStats stats{};
  // Every computed lane: shape (n, lanes, h, w) where lanes = channels rounded up to whole atoms
  // of the output. int8/int16 values (EQL mode: the low 16 bits passed through, signed).
  Cube<int64_t> output{};
  bool wrote_memory = false;  // false in EQL mode and with OUTPUT_DST = PDP
};

// Where the SDP writes its output: the destination layout and the shape including padded lanes.
[[nodiscard]] FeatureLayout sdp_output_layout(const SdpConfig& c);
[[nodiscard]] CubeShape sdp_output_shape(const SdpConfig& c);

// Runs one layer. Flying off: the input cube is read by MRDMA from memory through `read` (every
// lane of every atom, padded lanes included). Flying on: `flying_input` holds the 32-bit CACC
// results (n, c, h, w); channels beyond its c are 0, as CACC delivers them. Operands come from
// `read` (BRDMA/NRDMA/ERDMA) or the registers. Output atoms go through `write` unless EQL mode or
// OUTPUT_DST = PDP. Throws std::invalid_argument naming the problem if cfg.unsupported() is not
// empty or a stage takes its operand from memory while that operand DMA is disabled.
[[nodiscard]] SdpRun run_sdp(const SdpConfig& cfg, const LutTables& tables, const ByteReader& read,
                             const ByteWriter& write, const Cube<int64_t>* flying_input = nullptr);

}  // namespace dla::golden
