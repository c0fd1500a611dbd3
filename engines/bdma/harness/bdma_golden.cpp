#include "engines/bdma/harness/bdma_golden.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "engines/bdma/golden/bdma.hpp"
#include "harness/errors.hpp"

namespace dla::harness::engines {

namespace {

void bdma_write(GoldenDevice& d, uint32_t offset, uint32_t value) {
  std::optional<golden::BdmaEngine::Batch> batch;
  try {
    batch = d.state<golden::BdmaEngine>().write(offset, value);
  } catch (const golden::BdmaRefused& e) {
    throw InputError("BDMA", "", fmt::format("the golden device refuses the write: {}", e.what()));
  }
  if (!batch) return;
  // The batch runs in FIFO order; its last command's done event sets BDMA_DONE_STATUS<g> and
  // frees the group.
  Memory& mem = d.memory();
  std::string summary;
  for (const golden::BdmaCommand& c : batch->commands) {
    golden::bdma_copy(c, [&](uint64_t a) { return mem.read(a); }, [&](uint64_t a, uint8_t v) { mem.write(a, v); });
    if (summary.empty()) summary = golden::bdma_describe(c);
  }
  if (batch->commands.size() > 1) summary += fmt::format(" and {} more command(s)", batch->commands.size() - 1);
  GoldenLayer layer;
  layer.unit = "BDMA";
  layer.group = batch->group;
  layer.summary = std::move(summary);
  d.record_layer(std::move(layer));
  const int g = batch->group;
  d.queue_done(g == 0 ? "BDMA_0" : "BDMA_1", [g](GoldenDevice& dev) { dev.state<golden::BdmaEngine>().release_group(g); });
}

}  // namespace

std::vector<GoldenDevice::Hooks> bdma_golden_hooks() {
  GoldenDevice::Hooks h;
  h.blocks = {"BDMA"};
  h.write = [](GoldenDevice& d, std::string_view, const RegDef& r, uint32_t value) {
    bdma_write(d, r.offset, value);
    return true;
  };
  h.read = [](GoldenDevice& d, std::string_view, const RegDef& r) -> std::optional<uint32_t> {
    return d.state<golden::BdmaEngine>().read(r.offset);
  };
  h.never_comes = [](const GoldenDevice& d, std::string_view intr) -> std::optional<std::string> {
    if (!intr.starts_with("BDMA_")) return std::nullopt;
    const char g = intr.back();
    if (!d.has_block("BDMA")) {
      return fmt::format("{} has no BDMA (nv_full only, as in NVDLA), so {} never comes", d.config(), intr);
    }
    return fmt::format("BDMA group {} has no outstanding launch (CFG_LAUNCH{} not written since its last "
                       "interrupt, or the interrupt came and was cleared)",
                       g, g);
  };
  return {h};
}

}  // namespace dla::harness::engines
