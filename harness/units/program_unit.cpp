// Register-program layers: parsed and validated fully here. Executing one needs a unit with a
// CSB register port; until such a unit is in the build, running one is refused as bad input.
#include "harness/program.hpp"
#include "units/units.hpp"

namespace dla::harness::units {

namespace {

void validate(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "steps"});
  (void)parse_program(root, h.name, h.config->name);
}

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions&) {
  validate(h, root);
  throw InputError(h.file.string(), "/unit",
                   "register programs parse, but no unit with a CSB register port is in this build yet");
}

}  // namespace

UnitHandler program_handler() { return {"program", &validate, &run}; }

}  // namespace dla::harness::units
