// `network` layers: the unit's entry points (network.hpp, docs/NETWORKS.md): validation, and runs
// of the compiled program with --stop-after and --wave-layer. The compiler is network_graph.cpp
// (the graph) and network_compile.cpp (the layers and the schedule).
#include "engines/network/harness/network.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/engine.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/program_builder.hpp"
#include "harness/report.hpp"

namespace dla::harness::engines {

namespace {

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile_network(h, root); }

// The layer named `name` (position in the execution order), or InputError naming `option`.
std::size_t layer_position(const CompiledNetwork& n, const std::string& name, const char* option) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < n.order.size(); ++k) {
    const NetLayer& L = n.layers[static_cast<std::size_t>(n.order[k])];
    if (L.name == name) return k;
    names.push_back(L.name);
  }
  throw InputError(option, name, fmt::format("no layer \"{}\" in the network (its layers: {})", name, join_and(names)));
}

std::size_t end_of(const CompiledNetwork& n, std::size_t k) {
  return n.layers[static_cast<std::size_t>(n.order[k])].end_step;
}

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const CompiledNetwork n = compile_network(h, root);
  Program p = n.program;
  RunOptions o = opt;
  std::string note;
  if (!opt.stop_after.empty()) {
    const std::size_t k = layer_position(n, opt.stop_after, "--stop-after");
    p.steps.resize(end_of(n, k));
    note = fmt::format("stopped after layer {} ({} of {} layers)", opt.stop_after, k + 1, n.order.size());
  }
  if (!opt.wave_layer.empty()) {
    const std::string& w = opt.wave_layer;
    if (o.sim.wave.empty()) throw InputError("--wave-layer", w, "needs --wave FILE (where the waves go)");
    if (o.mode == "golden") throw InputError("--wave-layer", w, "the golden model has no waves");
    const std::size_t k = layer_position(n, w, "--wave-layer");
    if (end_of(n, k) > p.steps.size()) {
      throw InputError("--wave-layer", w, fmt::format("the run stops before layer {} ends", w));
    }
    // The RTL alone, with this run's seed, stall, reset and memory, up to the two checks.
    const auto cycles_until = [&](std::size_t steps) -> uint64_t {
      Program q = n.program;
      q.steps.resize(steps);
      RunOptions ro = o;
      ro.mode = "rtl";
      ro.sim.wave.clear();
      const RunResult rr = run_layer_program(q, h, ro, "network");
      if (rr.status != Status::Pass) {
        throw std::runtime_error(fmt::format("--wave-layer: the run up to step {} did not pass: {}", steps, rr.message));
      }
      return rr.cycles;
    };
    o.sim.wave_from = k == 0 ? 0 : cycles_until(end_of(n, k - 1));
    o.sim.wave_to = cycles_until(end_of(n, k));
    note += fmt::format("{}waves of layer {}: cycles {}..{}", note.empty() ? "" : "; ", w, o.sim.wave_from,
                        o.sim.wave_to);
  }
  RunResult r = run_layer_program(p, h, o, "network");
  if (!note.empty()) r.message = note + (r.message.empty() ? "" : "\n  " + r.message);
  return r;
}

}  // namespace

UnitHandler network_handler() { return {"network", &validate, &run}; }

}  // namespace dla::harness::engines
