// LUT engine unit (engines/lut/rtl/lut_engine.sv, Vlut_sdp / Vlut_cdp): the job a `lut` layer describes,
// and its two runs (RTL driver, golden model). Used by the layer handler, the benchmark and the
// RTL tests. The layer format is in docs/LAYER_FORMAT.md ("`lut` layers").
#pragma once

#include "harness/bench.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "engines/lut/golden/lut.hpp"
#include "engines/lut/golden/lut_builders.hpp"
#include "harness/layer.hpp"
#include "harness/sim.hpp"

namespace dla::harness::engines {

// Lookups per beat of the verilated engines (rtl/CMakeLists.txt: Lanes=4 for both variants).
inline constexpr int kLutLanes = 4;

struct LutJob {
  golden::LutVariant variant = golden::LutVariant::Sdp;
  golden::LutPrecision precision = golden::LutPrecision::Int16;  // CDP only
  std::vector<uint32_t> regs;  // the S_LUT_* words from offset 0x10 (lut_reg_count of them)
  golden::LutTables tables;    // programmed through S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA
  bool perf_en = true;         // D_PERF_LUT_EN: statistics counters count
  std::vector<int64_t> inputs;
  double holes = 0.0;          // probability of a masked-off lane before an element (RTL only)
  bool busy_check = false;     // try two table writes while streaming: both must be refused
  // Float lookups (NVDLA v1's fp16 LUT, docs/FP16.md): inputs, START / END are fp32 patterns, the
  // entries and slope scales fp16; each result is the pattern (SDP fp32, CDP fp17).
  bool fp = false;
};

// Tables and configuration built from a function description ({"function": "sigmoid", ...}, docs/
// LAYER_FORMAT.md "lut layers"); the caller checks the node's keys. Shared by lut and sdp layers.
[[nodiscard]] golden::LutProgram lut_program_from_function(golden::LutVariant variant, golden::LutPrecision precision,
                                                           const JsonNode& tn);
// Applies named S_LUT_* fields (le_function, priorities, selects, start/end, slopes) on top of `c`.
// fp16: ranges fp32, scales fp16, shifts refused (see parse_lut_object).
void apply_lut_register_fields(golden::LutVariant variant, golden::LutPrecision precision, const JsonNode& rn,
                               golden::LutConfig& c, bool fp16 = false);

// The "lut" object of an `sdp` or `cdp` layer (docs/LAYER_FORMAT.md): {"function": ..., builder keys}
// or {"le": [65 entries], "lo": [257 entries]}, optionally with "registers" (named S_LUT_* fields
// over the built configuration, or over an all-zero one for inline tables). One parser for both
// units; throws InputError naming the JSON pointer and the rule.
// fp16 (SDP with PROC_PRECISION fp16, docs/FP16.md "SDP EW and LUT"): table entries are fp16
// values (parse_fp16), the range registers fp32 (parse_fp32), the slope scales fp16, the slope
// shifts refused (not read); or {"function": "sigmoid"|"tanh"|"exp"} with the entries' placement
// (le_function, le_start, le_index_offset, le_index_select, lo_start, lo_index_select) in real
// units.
[[nodiscard]] golden::LutProgram parse_lut_object(golden::LutVariant variant, golden::LutPrecision precision,
                                                  const JsonNode& tn, bool fp16 = false);

// Parses a `lut` layer body (throws InputError naming file, JSON pointer and rule).
[[nodiscard]] LutJob parse_lut_layer(const LayerHeader& h, const JsonNode& root);

struct LutElement {
  int64_t value = 0;
  bool uflow = false, oflow = false, le_hit = false, lo_hit = false, lo_sel = false;
  bool operator==(const LutElement&) const = default;
};

// One programming-port request as NVDLA software issues it (data: S_LUT_ACCESS_DATA, else
// S_LUT_ACCESS_CFG).
struct LutProgOp {
  bool data = false;
  bool write = false;
  uint32_t wdata = 0;
};

// The programming-port requests of a run, in order, and what the engine reports.
//   phase 0: table programming (lut_register_writes' ACCESS_CFG/ACCESS_DATA writes), then the
//            read-back of both tables (ACCESS_CFG read type + 65 / 257 DATA reads);
//            with busy_check also ACCESS_CFG(LE, write, 0) so a DATA write would store;
//   phase 1 (busy_check, issued while the layer streams): ACCESS_CFG(LO, write, 3) and a DATA
//            write of 0x7fff -- both must be refused;
//   phase 2 (busy_check, after the layer): ACCESS_CFG read, then a second read-back.
struct LutProgPlan {
  std::vector<LutProgOp> setup, busy, after;
  std::vector<std::size_t> readback_first;  // request index of each read-back's LE entry 0
};
[[nodiscard]] LutProgPlan lut_prog_plan(const LutJob& job);

struct LutOutcome {
  std::vector<LutElement> elements;  // in input order
  golden::LutStats stats;
  std::vector<uint32_t> rsp_rdata;   // one per programming request (setup, busy, after)
  std::vector<uint8_t> rsp_err;
  std::array<bool, 3> sticky_err{};  // prog_err_o after setup, after the stream, after clearing
  uint64_t cycles = 0;               // RTL only
};

[[nodiscard]] LutOutcome lut_run_golden(const LutJob& job);
[[nodiscard]] LutOutcome lut_run_rtl(const LutJob& job, const SimOptions& sopt, double stall, uint64_t seed);

// The edge inputs for a configuration: every table entry's position (linear: START + i*2^sel,
// exponent: START + 2^(i+off)) and its neighbours +-1, START/END +-1 of both tables, 0, +-1,
// and the extremes of the input width (SDP 32, CDP 38 bits). Sorted, no duplicates.
[[nodiscard]] std::vector<int64_t> lut_edge_inputs(golden::LutVariant v, const golden::LutConfig& cfg);

// What the engine registers (its _engine.cpp).
// LUT engine (SDP and CDP variants; engines/lut/harness/lut.hpp has the job API)
[[nodiscard]] UnitHandler lut_handler();
[[nodiscard]] std::vector<BenchCase> bench_lut(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_lut(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
