// The LUT engine (engines/lut/harness/lut.cpp: layers and bench; engines/lut/rtl): registry entry.
#include "harness/engine.hpp"
#include "engines/lut/harness/lut.hpp"
#include "engines/lut/harness/lut_device.hpp"

namespace dla::harness::engines {

Engine engine_lut() {
  return {.name = "lut",
          .order = 20,
          .handler = &lut_handler,
          .rate_unit = "elements/cycle",
          .flip_bit = true,
          .golden_hooks = &lut_golden_hooks,
          .bench = BenchSupport{.run = &bench_lut, .format = &format_bench_lut, .memory_port = false}};
}

}  // namespace dla::harness::engines
