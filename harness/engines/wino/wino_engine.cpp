// The Winograd PRA / POA units (harness/engines/wino/wino.cpp; rtl/wino): registry entry.
#include "harness/engine.hpp"
#include "engines/wino/wino.hpp"

namespace dla::harness::engines {

Engine engine_wino() {
  return {.name = "wino", .order = 30, .handler = &wino_handler, .rate_unit = "tiles/cycle", .flip_bit = true};
}

}  // namespace dla::harness::engines
