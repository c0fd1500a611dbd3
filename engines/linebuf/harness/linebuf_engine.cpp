// The line-buffer 3x3 engine of seed 003 (engines/linebuf/harness/linebuf.cpp, linebuf_bench.cpp; engines/linebuf/rtl; docs/LINEBUF.md):
// registry entry.
#include "harness/engine.hpp"
#include "engines/linebuf/harness/linebuf.hpp"
#include "engines/linebuf/harness/linebuf_random.hpp"

namespace dla::harness::engines {

Engine engine_linebuf() {
  return {.name = "linebuf",
          .order = 110,
          .handler = &linebuf_handler,
          .rate_unit = "elements/cycle",
          .flip_bit = true,
          .bench = BenchSupport{.run = &bench_linebuf, .format = &format_bench_linebuf, .memory_port = false},
          .random = RandomSupport{.order = 90,
                                  .generate = &generate_linebuf_layer,
                                  .layer_reference = &linebuf_golden_reference_diff,
                                  .reports_reference_counts = true,
                                  .focus = {}}};
}

}  // namespace dla::harness::engines
