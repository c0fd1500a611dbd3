// The LUT engine (harness/engines/lut/lut.cpp: layers and bench; rtl/lut): registry entry.
#include "harness/engine.hpp"
#include "engines/lut/lut.hpp"

namespace dla::harness::engines {

Engine engine_lut() {
  return {.name = "lut",
          .order = 20,
          .handler = &lut_handler,
          .rate_unit = "elements/cycle",
          .flip_bit = true,
          .bench = BenchSupport{.run = &bench_lut, .format = &format_bench_lut, .memory_port = false}};
}

}  // namespace dla::harness::engines
