// The RUBIK engine (engines/rubik/harness/rubik.cpp, rubik_bench.cpp, rubik_rtl.cpp; engines/rubik/rtl in
// nvdla_rubik_top): registry entry.
#include "tops/rtl_devices.hpp"
#include "engines/rubik/harness/rubik_reference.hpp"
#include "harness/engine.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/rubik/harness/rubik_random.hpp"

namespace dla::harness::engines {

Engine engine_rubik() {
  return {.name = "rubik",
          .order = 90,
          .handler = &rubik_handler,
          .blocks = {"RBK"},
          .interrupts = {"RUBIK"},
          .golden = [] { return std::vector<GoldenDevice::Unit>{rubik_golden_unit()}; },
          .rtl_tops = {RtlTop{.name = "nvdla_rubik_top",
                              .order = 30,
                              .engines = {"rubik"},
                              .make = [](const std::vector<std::string>&, const golden::HwConfig& cfg,
                                         const RunOptions& opt) { return make_rubik_rtl_device(cfg, opt); }}},
          .bench = BenchSupport{.run = &bench_rubik, .format = &format_bench_rubik},
          .random = RandomSupport{.order = 60,
                                  .generate = &generate_rubik_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_rubik_layer(h, root)};
                                  },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        return rubik_ref::compare(rubik_ref::read_layer(root, L.seed), mem);
                                      },
                                  .golden_only_rtl = "RUBIK",
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer fp16: any 16-bit pattern moved "
                                                                "(NaN payloads, infinities, -0, denormals)"}}},
          .needs_register = "RBK.D_OP_ENABLE",
          .absent_rule = "rubik layers run on nv_full only (the RBK block exists there only, as in NVDLA)"};
}

}  // namespace dla::harness::engines
