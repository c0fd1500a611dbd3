// The pieces of the `sdp` layer compiler (engines/sdp/harness/sdp.cpp) that other layer compilers reuse:
// `conv` layers describe their SDP post-ops with the same fields ("output", "bs", "bn", "ew",
// "perf"; docs/LAYER_FORMAT.md) and get the same memory images and SDP / SDP_RDMA register words,
// with the input flying from CACC instead of read from memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/placement.hpp"
#include "harness/program_builder.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines::sdp {

// Fixed, aligned bases of the regions the compilers allocate (each region < kRegionLimit).
inline constexpr uint64_t kInputBase = 0x8000'0000ull;
inline constexpr uint64_t kBsBase = 0x9000'0000ull;
inline constexpr uint64_t kBnBase = 0xa000'0000ull;
inline constexpr uint64_t kEwBase = 0xb000'0000ull;
inline constexpr uint64_t kOutputBase = 0xc000'0000ull;
inline constexpr uint64_t kRegionLimit = 0x1000'0000ull;

struct Operand {
  bool used = false;  // the ALU / MUL is active
  bool mem = false;   // from the stage's operand DMA
  int64_t reg = 0;    // register operand
  std::vector<int64_t> values;  // memory operand: C (per channel) or C*H*W (per element), c-major
};

struct Cvt {
  bool bypass = true;
  int64_t offset = 0, scale = 1, truncate = 0;
};

struct Dma {
  bool per_element = false;
  int data_bytes = 1;
  bool fp16 = false;  // fp16 operands (an fp16 datapath): values are fp16 bit patterns
  golden::FeatureLayout layout{};  // per element: lanes of the input atom, element_bytes each per w position
};

struct XStage {
  bool enabled = false;
  int algo = 2;  // SUM
  int alu_shift = 0;
  Operand alu;
  bool prelu = false;
  Operand mul;
  int truncate = 0;
  bool relu = false;
  Dma dma;
};

struct YStage {
  bool enabled = false;
  int algo = 2;
  Operand alu;
  Cvt alu_cvt;
  bool prelu = false;
  Operand mul;
  Cvt mul_cvt;
  int truncate = 0;
  bool lut = false;
  golden::LutConfig lut_cfg{};
  golden::LutTables tables{};
  Dma dma;
};

// The SDP part of a layer. For an `sdp` layer the input cube comes from memory; with `flying` it
// comes from CACC (a convolution), and `shape` / `in_prec` describe the CACC output.
struct Layer {
  const golden::HwConfig* cfg = nullptr;
  golden::CubeShape shape{};  // n = 1 (flying from a batched convolution: its batches)
  golden::Precision in_prec = golden::Precision::Int8, out_prec = golden::Precision::Int8;
  bool flying = false;
  bool winograd = false;       // flying from a Winograd convolution: D_FEATURE_MODE_CFG.WINOGRAD (2x2 tile order)
  bool to_pdp = false;         // D_FEATURE_MODE_CFG.OUTPUT_DST = PDP: the output flies to PDP, not to memory
  bool nan_to_zero = false;    // D_FEATURE_MODE_CFG.NAN_TO_ZERO (fp16: NaN data and memory operands to +0)
  std::vector<int64_t> input;  // memory input only: C*H*W, c-major
  golden::FeatureLayout in_layout{}, out_layout{};
  XStage bs, bn;
  YStage ew;
  int64_t cvt_offset = 0, cvt_scale = 1, cvt_shift = 0;
  bool perf_dma = false, perf_lut = true, perf_sat = true, perf_nan_inf = false;

  // The processing precision as NVDLA programs it (NVIDIA's firmware, map_proc_precision): the
  // input's, except int16 -> int8, which processes in int8 lane groups (memory input only; a
  // convolution flying int16 into SDP cannot write int8, docs/SDP.md "Precisions").
  [[nodiscard]] golden::Precision proc_prec() const {
    return in_prec == golden::Precision::Int16 && out_prec == golden::Precision::Int8 ? golden::Precision::Int8
                                                                                      : in_prec;
  }
  [[nodiscard]] int in_ca() const { return cfg->atom_bytes / golden::bytes_per_element(in_prec); }
  [[nodiscard]] int out_ca() const { return cfg->atom_bytes / golden::bytes_per_element(out_prec); }
  // Lanes of one datapath group (the operand streams' atoms are groups of these).
  [[nodiscard]] int proc_ca() const { return cfg->atom_bytes / golden::bytes_per_element(proc_prec()); }
  // Input and output channels in memory: whole atoms, and whole PROC groups (int16 -> int8 reads
  // its int16 surfaces in pairs, int8 -> int16 writes two int16 surfaces per group).
  [[nodiscard]] int in_lanes() const { return round_up(shape.c, std::max(in_ca(), proc_ca())); }
  [[nodiscard]] int out_lanes() const { return round_up(shape.c, std::max(out_ca(), proc_ca())); }
  static int round_up(int v, int m) { return (v + m - 1) / m * m; }
  // Lanes the datapath computes (and reads operands for): docs/SDP.md §4.
  [[nodiscard]] int lanes() const { return std::max(in_lanes(), out_lanes()); }
  [[nodiscard]] bool eql() const { return ew.enabled && ew.alu.used && ew.algo == 3; }
  // An active stage reads operands from memory (SDP_RDMA has work).
  [[nodiscard]] bool reads_operands() const {
    return bs.alu.mem || bs.mul.mem || bn.alu.mem || bn.mul.mem || ew.alu.mem || ew.mul.mem;
  }
  // Bytes from the output base to the end of the last output atom.
  [[nodiscard]] uint64_t output_bytes() const {
    return out_layout.region_bytes({std::max(shape.n, 1), out_lanes(), shape.h, shape.w});
  }
};

// "output": precision (`default_prec` when the field is absent and a default is given), optional
// strides (checked; default packed) and converter. L.cfg and L.shape must be set.
void parse_output(const JsonNode& out, Layer& L, std::optional<golden::Precision> default_prec = std::nullopt);

// The optional "bs", "bn", "ew" and "perf" fields of `root` (memory operands resolved from
// `seed`). L.cfg, L.shape and L.in_prec must be set.
void parse_stages(const JsonNode& root, Layer& L, uint64_t seed);

// The operand streams' bases as `at` places them: BS, BN and EW streams are constants, but EW's
// stream is the placed `operand` tensor when there is one.
void place_operands(Layer& L, const Placement& at);

// mem_loads of the operand streams the stages read (not a placed `operand` tensor: it is in
// memory), then the output region pre-filled (with `fill_output`).
void emit_operands_and_output(ProgramBuilder& pb, const Layer& L, const Placement& at = {}, bool fill_output = true);

// S_POINTER of SDP (PRODUCER `group`) and SDP_RDMA (`rdma_group`; < 0: `group`), the LUT (S_LUT_*
// words and tables) when EW uses it, then every writable D_ register of SDP and of SDP_RDMA
// (flying or memory input as L says).
void emit_registers(ProgramBuilder& pb, const Layer& L, int group = 0, int rdma_group = -1);

// reg_reads of SDP.D_STATUS and its D_PERF counters, expecting the values `dev` holds after
// running the program (0 without a device: validation only).
// Reads of SDP's status and counters in `group` (the S_POINTER.PRODUCER the program left).
void emit_status_reads(ProgramBuilder& pb, const GoldenDevice* dev, int group = 0);
// fp16 layers (docs/FP16.md "SDP"): also SDP D_STATUS_NAN_OUTPUT_NUM and, when SDP reads its input
// from memory, SDP_RDMA D_STATUS_NAN_INPUT_NUM / D_STATUS_INF_INPUT_NUM of `rdma_group`.
void emit_fp16_status_reads(ProgramBuilder& pb, const GoldenDevice* dev, const Layer& L, int group, int rdma_group);

}  // namespace dla::harness::engines::sdp
