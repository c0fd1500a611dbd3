// Deconvolution (engines/deconv/harness/deconv.cpp, deconv_bench.cpp; no RTL of its own: nvdla_core and
// nvdla_rubik_top over one memory, harness/tops/core_pairs_rtl.cpp): registry entry.
#include "engines/deconv/harness/deconv_reference.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "harness/engine.hpp"
#include "engines/deconv/harness/deconv_random.hpp"

namespace dla::harness::engines {

Engine engine_deconv() {
  return {.name = "deconv",
          .order = 100,
          .handler = &deconv_handler,
          .rtl_tops = {RtlTop{.name = "nvdla_core+nvdla_rubik_top",
                              .order = 40,
                              .engines = {"conv", "sdp", "pdp", "rubik"},
                              .make = [](const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                         const RunOptions& opt) { return make_core_rubik_rtl_device(blocks, cfg, opt); }}},
          .bench = BenchSupport{.run = &bench_deconv, .format = &format_bench_deconv},
          .random = RandomSupport{.order = 70,
                                  .generate = &generate_deconv_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_deconv_layer(h, root).program};
                                  },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        if (L.focus == "fp16") return std::string(kNoFloatReference);
                                        return deconv_ref::compare(deconv_ref::read_layer(root, L.seed), mem);
                                      },
                                  .golden_only_rtl = "RUBIK",
                                  .focus = {RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer fp16 (fp16 data regimes, fp16 BS / BN / "
                                                                "EW, fp16 or int16 out; RTL against golden, --judge "
                                                                "cmod adds NVIDIA's C model)"}}},
          .needs_register = "RBK.D_OP_ENABLE",
          .absent_rule =
              "deconv layers run on nv_full only (their CONTRACT needs RBK, which exists there only, as in NVDLA)"};
}

}  // namespace dla::harness::engines
