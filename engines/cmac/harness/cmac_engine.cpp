// The CMAC engine (engines/cmac/harness/cmac.cpp: layers and bench; engines/cmac/rtl): registry entry.
#include "harness/engine.hpp"
#include "engines/cmac/harness/cmac.hpp"

namespace dla::harness::engines {

Engine engine_cmac() {
  return {.name = "cmac",
          .order = 10,
          .handler = &cmac_handler,
          .rate_unit = "ops/cycle",
          .flip_bit = true,
          .bench = BenchSupport{.run = &bench_cmac, .format = &format_bench_cmac, .memory_port = false, .per_config = true}};
}

}  // namespace dla::harness::engines
