// `dlacosim random loadable` (docs/RANDOM.md "loadable", docs/LOADABLES.md "Export"): the
// networks of `random network` written as NVDLA loadables (`compile --loadable`), read back by
// the loadable reader, their bound inputs given the network's values, planned by the firmware
// model (descriptors -> register writes) and run in cross mode on golden and the RTL; every
// output tensor judged by the int64 reference of its op (conv, pdp, cdp) where the loadable's run
// left it. No layer
// unit of its own: a campaign of the network engine's export path.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engines/network/harness/network.hpp"
#include "engines/network/harness/network_random.hpp"
#include "harness/engine.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/random_layers.hpp"

namespace dla::harness::engines {

namespace {

// A generated network as its loadable runs it: exported, serialized, read back and planned.
struct ExportedRun {
  CompiledNetwork cn;
  loadable::Loadable back;
  loadable::Plan plan;
};

ExportedRun export_and_plan(const LayerHeader& h, const JsonNode& root) {
  ExportedRun r;
  r.cn = compile_network(h, root);
  const std::vector<uint8_t> bytes = loadable::serialize_loadable(export_loadable(r.cn, h));
  r.back = loadable::parse_loadable(bytes, h.name + ".nvdla");
  std::vector<loadable::InputBinding> inputs;
  for (auto& [tensor, raw] : loadable_inputs(r.cn)) {
    inputs.push_back({tensor, fmt::format("{}.nvdla.{}.raw", h.name, tensor), std::move(raw)});
  }
  r.plan = loadable::plan_loadable(r.back, *h.config, inputs);
  return r;
}

// Where the loadable's run put a tensor: its bound memory, else the window (memory 0) at the
// network's own offset.
uint64_t loadable_base(const ExportedRun& r, const NetTensor& t) {
  for (const loadable::MemoryEntry& m : r.back.memories) {
    if ((m.flags & loadable::kMemOutput) != 0 && r.back.tensors[m.tensor_desc_id].name == t.name) {
      return r.plan.memory_base[m.id];
    }
  }
  return r.plan.memory_base[0] + (t.layout.base - r.cn.memory_base);
}

}  // namespace

Engine engine_loadable() {
  return {.name = "loadable",
          .order = 960,
          .random = RandomSupport{
              .order = 95,
              .generate = &generate_network_layer,
              .compile =
                  [](const LayerHeader& h, const JsonNode& root) {
                    auto r = std::make_shared<const ExportedRun>(export_and_plan(h, root));
                    return RandomCompiled{.program = loadable::plan_program(r->back, r->plan),
                                          .memory_reference = [h, root, r](const Memory& mem) {
                                            return network_reference_diff(h, root, r->cn, mem, [&](const NetTensor& t) {
                                              return loadable_base(*r, t);
                                            });
                                          }};
                  },
              .memory_reference =
                  [](const JsonNode& root, const RandomLayer& L, const Memory& mem) {
                    const ExportedRun r = export_and_plan(layer_header(L, root.file()), root);
                    return network_reference_diff(L, root, mem, [&](const NetTensor& t) { return loadable_base(r, t); });
                  },
              .focus = {},
              .reproduce =
                  [](const RandomLayer& L, const std::string& path) {
                    // `compile --loadable` writes the loadable and its inputs beside the layer file.
                    const std::string nvdla = path.ends_with(".json") ? path.substr(0, path.size() - 5) + ".nvdla"
                                                                      : path + ".nvdla";
                    std::string inputs;
                    for (const auto& t : L.doc["tensors"]) {
                      if (t.contains("data")) inputs += fmt::format(" --input {0}={1}.{0}.raw", t["name"].get<std::string>(), nvdla);
                    }
                    return fmt::format("dlacosim compile {} --loadable {} && dlacosim run {} --config {}{} --mode cross "
                                       "--seed {} --stall {}",
                                       path, nvdla, nvdla, L.config->name, inputs, L.seed, L.stall);
                  }}};
}

}  // namespace dla::harness::engines
