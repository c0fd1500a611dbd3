// The golden device's unit of CDP: LRN from memory through CDP_RDMA (docs/CDP.md).
#include "engines/cdp/harness/cdp.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engines/cdp/golden/cdp.hpp"
#include "engines/lut/harness/lut_device.hpp"
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

namespace rc = gregs::cdp;
namespace rcr = gregs::cdp_rdma;

std::string cdp_blocked(const GoldenDevice& d, int g) {
  const int gr = d.consumer("CDP_RDMA");
  if (!d.armed("CDP_RDMA", gr)) {
    return fmt::format("CDP group {} is waiting for CDP_RDMA group {} to be armed (CDP_RDMA.D_OP_ENABLE)", g, gr);
  }
  return "";
}

std::vector<std::string> cdp_partners(const GoldenDevice&, int) { return {"CDP_RDMA"}; }

void cdp_run(GoldenDevice& d, int g) {
  const int gr = d.consumer("CDP_RDMA");
  const golden::CdpConfig cfg = golden::decode_cdp([&](uint32_t off) { return d.peek("CDP", off, g); },
                                                   [&](uint32_t off) { return d.peek("CDP_RDMA", off, gr); },
                                                   d.hw().atom_bytes);
  Memory& mem = d.memory();
  const golden::CdpRun r = golden::run_cdp(
      cfg, d.hw(), engines::lut_ram(d, "CDP").tables(), [&](uint64_t a) { return mem.read(a); },
      [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  // Statistics of the group that ran (cleared at layer start, so always written); the NaN / Inf
  // counts are fp16's (0 for integers); no back-pressure in golden.
  d.set_hw_register("CDP", rc::D_OUT_SATURATION::offset, g, r.stats.out_saturation);
  d.set_hw_register("CDP", rc::D_PERF_LUT_UFLOW::offset, g, r.stats.lut.uflow);
  d.set_hw_register("CDP", rc::D_PERF_LUT_OFLOW::offset, g, r.stats.lut.oflow);
  d.set_hw_register("CDP", rc::D_PERF_LUT_HYBRID::offset, g, r.stats.lut.hybrid);
  d.set_hw_register("CDP", rc::D_PERF_LUT_LE_HIT::offset, g, r.stats.lut.le_hit);
  d.set_hw_register("CDP", rc::D_PERF_LUT_LO_HIT::offset, g, r.stats.lut.lo_hit);
  d.set_hw_register("CDP", rc::D_NAN_INPUT_NUM::offset, g, r.stats.nan_input);
  d.set_hw_register("CDP", rc::D_INF_INPUT_NUM::offset, g, r.stats.inf_input);
  d.set_hw_register("CDP", rc::D_NAN_OUTPUT_NUM::offset, g, r.stats.nan_output);
  d.set_hw_register("CDP", rc::D_PERF_WRITE_STALL::offset, g, 0);
  d.set_hw_register("CDP_RDMA", rcr::D_PERF_READ_STALL::offset, gr, 0);
  record_memory_layer(d, "CDP", g, golden::cdp_describe(cfg), golden::cdp_output_layout(cfg), r.output);
}

}  // namespace

namespace engines {

GoldenDevice::Unit cdp_golden_unit() { return {"CDP", "CDP", &cdp_blocked, &cdp_partners, &cdp_run, {}}; }

}  // namespace engines

}  // namespace dla::harness
