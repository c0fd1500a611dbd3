// Direct-convolution RTL throughput (docs/CONV_RTL.md "Throughput"): one layer on the verilated
// NVDLA core (conv pipeline flying into SDP), checked byte for byte against the golden device,
// with the cycles of its phases.
#pragma once

#include <cstdint>
#include <string>

#include "golden/config.hpp"
#include "golden/conv.hpp"

namespace dla::harness::units {

struct ConvBenchResult {
  std::string config;
  golden::ConvParams params;
  uint64_t ideal_cycles = 0;     // MACs / (ATOMIC_C x ATOMIC_K): W'H' x K x C x R x S / (AC x AK)
  uint64_t atomic_ops = 0;       // atomic operations CSC issues (groups x W'H' x blocks x R x S)
  uint64_t cycles_layer = 0;     // last OP_EN write -> CACC_DONE (CDMA loading included)
  uint64_t cycles_data = 0;      // last OP_EN write -> CDMA_DAT_DONE (input cube in CBUF); compute overlaps it
  uint64_t cycles_to_sdp = 0;    // last OP_EN write -> SDP_DONE
  bool outputs_equal = false;    // RTL memory output == golden device output
  uint32_t out_saturation_rtl = 0, out_saturation_golden = 0;  // CACC D_OUT_SATURATION (group 0)
  // RTL perf counters of the layer (PERF_ENABLE DMA bits set): CDMA read stall / latency cycles,
  // SDP write stall cycles.
  uint32_t cdma_dat_stall = 0, cdma_wt_stall = 0, cdma_dat_latency = 0, cdma_wt_latency = 0, sdp_wr_stall = 0;
  std::string detail;            // why not, when not
  [[nodiscard]] double util_layer() const { return cycles_layer ? double(ideal_cycles) / double(cycles_layer) : 0; }
  uint64_t macs = 0;              // W'H' x K x C x R x S
  double rtl_seconds = 0;         // wall time of the simulated layer (last OP_EN write -> SDP_DONE)
  [[nodiscard]] double simulated_macs_per_s() const { return rtl_seconds > 0 ? double(macs) / rtl_seconds : 0; }
};

// Runs `p` (int8, or int16 on nv_full) with random data, weights and pad value from `seed` on hw's nvdla_core RTL
// (DMA latency 4..32 cycles, `stall` back-pressure) and on the golden device.
[[nodiscard]] ConvBenchResult measure_conv(const golden::HwConfig& hw, const golden::ConvParams& p, uint64_t seed,
                                           double stall = 0.0, int rand_reset = 0);

// The reference layer: 3x3 kernels, pad 1, 32x16x32 input -> 32x16x16 output, int8.
[[nodiscard]] golden::ConvParams conv_bench_layer();

}  // namespace dla::harness::units
