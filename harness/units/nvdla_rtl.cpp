// The verilated NVDLA core (rtl/top/nvdla_core.sv: CDMA, CBUF, CSC, CMAC_A/B, CACC flying into
// SDP with SDP_RDMA, and the GLB) as an RTL device for register programs (docs/CONV_RTL.md).
#include <fmt/format.h>

#include <algorithm>

#include "Vnvdla_core_nv_full.h"
#include "Vnvdla_core_nv_small.h"
#include "harness/rtl_device.hpp"
#include "harness/rtl_devices.hpp"

namespace dla::harness {

namespace {

// The units whose done pulses nvdla_core wires to its GLB.
const std::vector<std::string>& nvdla_core_intr_units() {
  static const std::vector<std::string> units{"SDP", "CACC", "CDMA_DAT", "CDMA_WT"};
  return units;
}

}  // namespace

const std::vector<std::string>& nvdla_core_blocks() {
  static const std::vector<std::string> blocks{"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "SDP_RDMA"};
  return blocks;
}

std::unique_ptr<Device> make_nvdla_core_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                               const RunOptions& opt, std::string& why) {
  const auto& have = nvdla_core_blocks();
  for (const auto& b : blocks) {
    if (std::find(have.begin(), have.end(), b) == have.end()) {
      why = fmt::format("the program enables {}, and this build's RTL has CDMA, CSC, CMAC_A, CMAC_B, CACC, SDP and "
                        "SDP_RDMA only",
                        b);
      return nullptr;
    }
  }
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  const std::string unit = fmt::format("nvdla_core ({})", cfg.name);
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
  if (cfg.name == "nv_small") {
    return std::make_unique<RtlDevice<Vnvdla_core_nv_small>>(cfg, unit, nvdla_core_intr_units(), atom, o);
  }
  return std::make_unique<RtlDevice<Vnvdla_core_nv_full>>(cfg, unit, nvdla_core_intr_units(), atom, o);
}

}  // namespace dla::harness
