// Register programs (engines/program/harness/program_unit.cpp): a layer unit of their own, run on the RTL top
// their enabled blocks choose. Registry entry.
#include "harness/engine.hpp"
#include "engines/program/harness/program_unit.hpp"

namespace dla::harness::engines {

Engine engine_program() {
  return {.name = "program", .order = 1000, .handler = &program_handler, .rate_unit = "elements/cycle"};
}

}  // namespace dla::harness::engines
