// The Winograd PRA / POA units (harness/units/wino.cpp; rtl/wino): registry entry.
#include "units/engine.hpp"

namespace dla::harness::units {

Engine engine_wino() {
  return {.name = "wino", .order = 30, .handler = &wino_handler, .rate_unit = "tiles/cycle", .flip_bit = true};
}

}  // namespace dla::harness::units
