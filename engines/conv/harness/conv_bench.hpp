// Convolution RTL throughput (docs/CONV_RTL.md "Throughput", docs/WINOGRAD.md "Bench"): one layer,
// direct or Winograd, on the verilated NVDLA core (conv pipeline flying into SDP), checked byte for
// byte against the golden device, with the cycles of its phases.
#pragma once

#include "harness/bench.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "harness/mem_model.hpp"

namespace dla::harness::engines {

// How measure_conv runs the layer.
struct ConvBenchMode {
  golden::ConvMode mode = golden::ConvMode::Direct;
  golden::WinoScheme scheme = golden::WinoScheme::Exact;  // Winograd only
  int pra_truncate = 0;                                    // Winograd only
  // > 0: input and pad values in [-data_max - 1, data_max], weights in [-weight_max, weight_max]
  // (the same values for the same seed in either mode); 0: random bytes (direct mode only).
  int data_max = 0;
  int weight_max = 0;
  bool rtl = true;  // false: the golden device only (no cycles; the API for golden-side tests)
  MemOptions mem;   // the RTL's DMA read latency and bandwidth
};

struct ConvBenchResult {
  std::string config;
  golden::ConvParams params;
  golden::ConvMode mode = golden::ConvMode::Direct;
  // Direct: MACs / (ATOMIC_C x ATOMIC_K) = W'H' x K x C x R x S / (AC x AK). Winograd: one
  // atomic operation per cycle, kernel groups x W'H'/4 x ceil(C_ext / 4).
  uint64_t ideal_cycles = 0;
  // Atomic operations CSC issues: direct groups x W'H' x blocks x R x S, Winograd groups x
  // W'H'/4 x channel groups of 4.
  uint64_t atomic_ops = 0;
  uint64_t cycles_layer = 0;     // last OP_EN write -> CACC_DONE (CDMA loading included)
  uint64_t cycles_data = 0;      // last OP_EN write -> CDMA_DAT_DONE (input cube in CBUF); compute overlaps it
  uint64_t cycles_to_sdp = 0;    // last OP_EN write -> SDP_DONE
  bool outputs_equal = false;    // RTL memory output == golden device output
  uint32_t out_saturation_rtl = 0, out_saturation_golden = 0;  // CACC D_OUT_SATURATION (group 0)
  // RTL perf counters of the layer (PERF_ENABLE DMA bits set): CDMA read stall / latency cycles,
  // SDP write stall cycles.
  uint32_t cdma_dat_stall = 0, cdma_wt_stall = 0, cdma_dat_latency = 0, cdma_wt_latency = 0, sdp_wr_stall = 0;
  std::vector<uint8_t> golden_output;  // the golden device's output region
  std::string detail;            // why not, when not
  [[nodiscard]] double util_layer() const { return cycles_layer ? double(ideal_cycles) / double(cycles_layer) : 0; }
  uint64_t macs = 0;              // W'H' x K x C x R x S
  double rtl_seconds = 0;         // wall time of the simulated layer (last OP_EN write -> SDP_DONE)
  [[nodiscard]] double simulated_macs_per_s() const { return rtl_seconds > 0 ? double(macs) / rtl_seconds : 0; }
  uint64_t layer_bytes = 0;       // input region + weights + output region: what the layer must move
  std::optional<DmaTraffic> dma;  // what the RTL's DMA ports moved (whole run)
};

// Runs `p` (int8, or int16 on nv_full) with random data, weights and pad value from `seed` on hw's nvdla_core RTL
// (DMA latency and bandwidth from mode.mem, `stall` back-pressure) and on the golden device, in `mode` (Winograd:
// through golden::wino_compile, the `conv` layer compiler's register words). Throws
// std::invalid_argument naming the problem when the layer cannot run in that mode.
[[nodiscard]] ConvBenchResult measure_conv(const golden::HwConfig& hw, const golden::ConvParams& p, uint64_t seed,
                                           double stall = 0.0, int rand_reset = 0, const ConvBenchMode& mode = {});

// The reference layer: 3x3 kernels, pad 1, 32x16x32 input -> 32x16x16 output, int8.
[[nodiscard]] golden::ConvParams conv_bench_layer();

// The Winograd comparison layer (nv_full): 3x3 pad 1, 32x32x64 -> 32x32x128, int16, CLIP 12.
[[nodiscard]] golden::ConvParams conv_bench_wino_layer();
// Its mode: exact scheme at PRA_TRUNCATE 0, values small enough for the exact scheme (data
// +-2000, weights +-1000), the same in both modes. `winograd` false: the direct run.
[[nodiscard]] ConvBenchMode conv_bench_wino_mode(bool winograd, bool rtl = true);

// The same layer and values direct and Winograd on nv_full: cycles, ideal cycles, utilization,
// outputs equal golden, the ratio direct / Winograd cycles.
struct ConvWinoComparison {
  ConvBenchResult direct, wino;
  [[nodiscard]] double speedup() const {
    return wino.cycles_layer ? double(direct.cycles_layer) / double(wino.cycles_layer) : 0;
  }
};
[[nodiscard]] ConvWinoComparison measure_conv_wino(uint64_t seed, bool rtl = true,
                                                   const golden::ConvParams& p = conv_bench_wino_layer(),
                                                   const MemOptions& mem = {});

// What the engine registers (its _engine.cpp).
// Direct convolution on the NVDLA core RTL: utilization (engines/conv/harness/conv_bench.hpp)
[[nodiscard]] std::vector<BenchCase> bench_conv(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_conv(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
