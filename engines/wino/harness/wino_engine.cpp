// The Winograd PRA / POA units (engines/wino/harness/wino.cpp; engines/wino/rtl): registry entry.
#include "harness/engine.hpp"
#include "engines/wino/harness/wino.hpp"

namespace dla::harness::engines {

Engine engine_wino() {
  return {.name = "wino", .order = 30, .handler = &wino_handler, .rate_unit = "tiles/cycle", .flip_bit = true};
}

}  // namespace dla::harness::engines
