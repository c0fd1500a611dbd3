// The golden device's unit of RUBIK: data-layout transforms, nv_full only (docs/RUBIK.md).
#include "engines/rubik/harness/rubik.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engines/cdp/golden/cdp.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/pdp/golden/pdp.hpp"
#include "engines/rubik/golden/rubik.hpp"
#include "engines/sdp/golden/sdp.hpp"
#include "harness/golden_device.hpp"
#include "harness/memory.hpp"

namespace dla::harness {

namespace gregs = golden::regs;

namespace {

namespace rrb = gregs::rbk;

void rubik_run(GoldenDevice& d, int g) {
  const golden::RubikConfig cfg = golden::decode_rubik([&](uint32_t off) { return d.peek("RBK", off, g); });
  Memory& mem = d.memory();
  (void)golden::run_rubik(cfg, d.hw(), [&](uint64_t a) { return mem.read(a); },
                          [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  // No back-pressure on the golden device: both stall counters of the group that ran are 0.
  d.set_hw_register("RBK", rrb::D_PERF_READ_STALL::offset, g, 0);
  d.set_hw_register("RBK", rrb::D_PERF_WRITE_STALL::offset, g, 0);
  GoldenLayer layer;  // planar data is no feature cube: the record carries the summary only
  layer.unit = "RUBIK";
  layer.group = g;
  layer.summary = golden::rubik_describe(cfg);
  d.record_layer(std::move(layer));
}

}  // namespace

namespace engines {

GoldenDevice::Unit rubik_golden_unit() {
  return {"RUBIK", "RBK", [](const GoldenDevice&, int) { return std::string(); },
          [](const GoldenDevice&, int) { return std::vector<std::string>(); }, &rubik_run, {}};
}

}  // namespace engines

}  // namespace dla::harness
