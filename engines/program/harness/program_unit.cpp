// Register-program layers: parsed and validated fully here, then replayed by the program runner
// (harness/program_runner.hpp). Golden mode runs them on the golden device; cross and rtl modes
// need RTL units with a CSB register port, and are refused as bad input while none is in the build.
#include "harness/program.hpp"
#include "harness/program_runner.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

void validate(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "steps"});
  (void)parse_program(root, h.name, h.config->name);
}

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "steps"});
  const Program program = parse_program(root, h.name, h.config->name);
  RunOptions o = opt;  // the layer's own seed and stall unless the command line set them
  o.seed = h.seed;
  o.stall = h.stall;
  o.sim.seed = h.seed;
  return run_program_in_mode(program, *h.config, o);
}

}  // namespace

UnitHandler program_handler() { return {"program", &validate, &run}; }

}  // namespace dla::harness::engines
