// `network` layers (engines/network/harness/, docs/NETWORKS.md): a layer graph compiled into one
// register program; it runs on the RTL top its enabled blocks choose. Registry entry, with the one
// tops only networks need: nvdla_core and nvdla_cdp_top over one memory (convolutions and LRN),
// nvdla_core and nvdla_bdma_top (convolutions and copies; harness/tops/core_pairs_rtl.cpp), tried
// after every single top.
#include <memory>

#include "harness/random_layers.hpp"
#include "tops/rtl_devices.hpp"
#include "harness/engine.hpp"
#include "engines/network/harness/network.hpp"
#include "engines/network/harness/network_random.hpp"

namespace dla::harness::engines {

Engine engine_network() {
  return {.name = "network",
          .order = 950,
          .handler = &network_handler,
          .rate_unit = "elements/cycle",
          .rtl_tops = {RtlTop{.name = "nvdla_core+nvdla_cdp_top",
                              .order = 60,
                              .engines = {"conv", "sdp", "pdp", "cdp"},
                              .make = [](const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                         const RunOptions& opt) { return make_core_cdp_rtl_device(blocks, cfg, opt); }},
                      RtlTop{.name = "nvdla_core+nvdla_bdma_top",
                             .order = 61,
                             .engines = {"conv", "sdp", "pdp", "bdma"},
                             .make = [](const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                        const RunOptions& opt) { return make_core_bdma_rtl_device(blocks, cfg, opt); }}},
          .bench = BenchSupport{.run = &bench_network, .format = &format_bench_network},
          .random = RandomSupport{.order = 90,
                                  .generate = &generate_network_layer,
                                  .compile =
                                      [](const LayerHeader& h, const JsonNode& root) {
                                        auto n = std::make_shared<const CompiledNetwork>(compile_network(h, root));
                                        RandomCompiled c{.program = n->program};
                                        if (root.raw()["tensors"][0]["precision"] != "fp16") {
                                          c.memory_reference = [h, root, n](const Memory& mem) {
                                            return network_reference_diff(h, root, *n, mem);
                                          };
                                        }
                                        return c;
                                      },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        if (L.focus == "fp16") return std::string(kNoFloatReference);
                                        return network_reference_diff(L, root, mem);
                                      },
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every tensor fp16 (NaNs, infinities, denormals; biases, "
                                                                "ReLU, pools on the fly; RTL against golden, --judge cmod "
                                                                "adds NVIDIA's C model; docs/FP16.md)"}}},
          .compile_program = [](const LayerHeader& h, const JsonNode& root) { return compile_network(h, root).program; },
          .compile_loadable = [](const LayerHeader& h, const JsonNode& root) {
            const CompiledNetwork cn = compile_network(h, root);
            return loadable::Exported{export_loadable(cn, h), loadable_inputs(cn)};
          }};
}

}  // namespace dla::harness::engines
