// The BDMA engine (engines/bdma/harness/bdma.cpp, bdma_bench.cpp, bdma_rtl.cpp; engines/bdma/rtl in
// nvdla_bdma_top; on the golden device its register block is a command FIFO, bdma_golden.cpp, not a
// unit of the table): registry entry.
#include "tops/rtl_devices.hpp"
#include "engines/bdma/harness/bdma.hpp"
#include "engines/bdma/harness/bdma_golden.hpp"
#include "harness/engine.hpp"
#include "engines/bdma/harness/bdma_random.hpp"

namespace dla::harness::engines {

Engine engine_bdma() {
  return {.name = "bdma",
          .order = 80,
          .handler = &bdma_handler,
          .blocks = {"BDMA"},
          .interrupts = {"BDMA"},
          .golden_hooks = &bdma_golden_hooks,
          .rtl_tops = {RtlTop{.name = "nvdla_bdma_top",
                              .order = 20,
                              .engines = {"bdma"},
                              .make = [](const std::vector<std::string>&, const golden::HwConfig& cfg,
                                         const RunOptions& opt) { return make_bdma_rtl_device(cfg, opt); }}},
          .bench = BenchSupport{.run = &bench_bdma, .format = &format_bench_bdma},
          .random = RandomSupport{.order = 50,
                                  .generate = &generate_bdma_layer,
                                  .compile = [](const LayerHeader& h, const JsonNode& root) {
                                    return RandomCompiled{compile_bdma_layer(h, root)};
                                  },
                                  .memory_reference =
                                      [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                                        return bdma_reference_diff(L, root, mem);
                                      },
                                  .golden_only_rtl = "BDMA",
                                  .focus = {}},
          .needs_register = "BDMA.CFG_OP",
          .absent_rule = "bdma layers run on nv_full only (the BDMA block exists there only, as in NVDLA)"};
}

}  // namespace dla::harness::engines
