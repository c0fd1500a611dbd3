// The CDP engine (engines/cdp/harness/cdp.cpp, cdp_bench.cpp, cdp_rtl.cpp; engines/cdp/rtl in nvdla_cdp_top):
// registry entry.
#include "engines/cdp/harness/cdp_reference.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "harness/engine.hpp"
#include "engines/cdp/harness/cdp_random.hpp"

namespace dla::harness::engines {

Engine engine_cdp() {
  return {.name = "cdp",
          .order = 70,
          .handler = &cdp_handler,
          .blocks = {"CDP", "CDP_RDMA"},
          .interrupts = {"CDP"},
          .golden = [] { return std::vector<GoldenDevice::Unit>{cdp_golden_unit()}; },
          .rtl_tops = {RtlTop{.name = "nvdla_cdp_top",
                              .order = 10,
                              .engines = {"cdp"},
                              .make = [](const std::vector<std::string>&, const golden::HwConfig& cfg,
                                         const RunOptions& opt) { return make_cdp_rtl_device(cfg, opt); }}},
          .bench = BenchSupport{.run = &bench_cdp, .format = &format_bench_cdp, .per_config = true},
          .random = RandomSupport{.order = 40,
                                  .generate = &generate_cdp_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_cdp_layer(h, root)};
                                  },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        const auto prec = root.require("input").get("precision");
                                        if (prec && prec->as_string() == "fp16") {
                                          return std::string("n/a: fp16 (the int64 reference is integer; golden "
                                                             "and, with --judge cmod, NVIDIA's C model judge)");
                                        }
                                        const cdp_ref::Layer R = cdp_ref::read_layer(root, L.name, L.seed);
                                        return cdp_ref::compare(R, cdp_ref::read_output(R, mem));
                                      },
                                  .golden_only_rtl = "CDP",
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer fp16 (LRN and bypasses, NaNs, infinities, "
                                                                "denormals, NAN_TO_ZERO, float LUT placements): the RTL "
                                                                "against golden; with --judge cmod NVIDIA's C model too "
                                                                "(docs/FP16.md)"}}}};
}

}  // namespace dla::harness::engines
