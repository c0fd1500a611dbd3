// The SDP engine (engines/sdp/harness/sdp.cpp: layers, bench; engines/sdp/rtl inside nvdla_core): registry entry.
#include "harness/engine.hpp"
#include "tops/nvdla_core_golden.hpp"
#include "engines/sdp/harness/sdp.hpp"
#include "engines/sdp/harness/sdp_random.hpp"

namespace dla::harness::engines {

Engine engine_sdp() {
  return {.name = "sdp",
          .order = 40,
          .handler = &sdp_handler,
          .rate_unit = "elements/cycle",
          .blocks = {"SDP", "SDP_RDMA"},
          .interrupts = {"SDP"},
          .golden = [] { return std::vector<GoldenDevice::Unit>{golden_units::sdp()}; },
          .bench = BenchSupport{.run = &bench_sdp, .format = &format_bench_sdp, .per_config = true},
          .random = RandomSupport{.order = 20,
                                  .generate = &generate_sdp_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_sdp_layer(h, root, true)};
                                  },
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer fp16 from memory (NaNs, infinities, "
                                                                "denormals; BS, BN, EW with the float LUT; fp16 or "
                                                                "int16 out): the RTL against golden; with --judge "
                                                                "cmod NVIDIA's C model too (docs/FP16.md)"}}}};
}

}  // namespace dla::harness::engines
