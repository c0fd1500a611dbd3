// The verilated SDP (with SDP_RDMA) as an RTL device for register programs.
#include <fmt/format.h>

#include "Vsdp_nv_full.h"
#include "Vsdp_nv_small.h"
#include "harness/rtl_device.hpp"
#include "harness/rtl_devices.hpp"

namespace dla::harness {

std::unique_ptr<Device> make_rtl_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                        const RunOptions& opt, std::string& why) {
  for (const auto& b : blocks) {
    if (b != "SDP" && b != "SDP_RDMA") {
      why = fmt::format("the program enables {}, and this build's RTL has SDP and SDP_RDMA only", b);
      return nullptr;
    }
  }
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  const std::string unit = fmt::format("sdp_core ({})", cfg.name);
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
  if (cfg.name == "nv_small") return std::make_unique<RtlDevice<Vsdp_nv_small>>(cfg, unit, "SDP", atom, o);
  return std::make_unique<RtlDevice<Vsdp_nv_full>>(cfg, unit, "SDP", atom, o);
}

}  // namespace dla::harness
