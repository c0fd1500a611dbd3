// The PDP engine (engines/pdp/harness/pdp.cpp, pdp_bench.cpp, pdp_rtl.cpp; engines/pdp/rtl inside nvdla_core):
// registry entry.
#include "engines/pdp/harness/pdp_reference.hpp"
#include "harness/engine.hpp"
#include "tops/nvdla_core_golden.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/pdp/harness/pdp_random.hpp"

namespace dla::harness::engines {

Engine engine_pdp() {
  return {.name = "pdp",
          .order = 60,
          .handler = &pdp_handler,
          .blocks = {"PDP", "PDP_RDMA"},
          .interrupts = {"PDP"},
          .golden = [] { return std::vector<GoldenDevice::Unit>{golden_units::pdp()}; },
          .bench = BenchSupport{.run = &bench_pdp, .format = &format_bench_pdp, .per_config = true},
          .random = RandomSupport{.order = 30,
                                  .generate = &generate_pdp_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_pdp_layer(h, root)};
                                  },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        const auto prec = root.require("input").get("precision");
                                        if (prec && prec->as_string() == "fp16") {
                                          return std::string("n/a: fp16 (the int64 reference is integer; golden "
                                                             "and, with --judge cmod, NVIDIA's C model judge)");
                                        }
                                        const pdp_ref::Layer R = pdp_ref::read_layer(root, L.name, L.seed);
                                        return pdp_ref::compare(R, pdp_ref::read_output(R, mem));
                                      },
                                  .golden_only_rtl = "PDP",
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer fp16 (NaNs, infinities, denormals, pad "
                                                                "values, NAN_TO_ZERO): the RTL against golden; with "
                                                                "--judge cmod NVIDIA's C model too (docs/FP16.md)"}}}};
}

}  // namespace dla::harness::engines
