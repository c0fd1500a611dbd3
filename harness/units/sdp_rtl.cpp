// The RTL devices for register programs: the verilated SDP (with SDP_RDMA) and GLB
// (rtl/top/nvdla_sdp_top.sv), or the NVDLA core (convolution pipeline + SDP + GLB,
// harness/units/nvdla_rtl.cpp) when the program enables a convolution block.
#include <fmt/format.h>

#include <algorithm>

#include "Vsdp_nv_full.h"
#include "Vsdp_nv_large.h"
#include "Vsdp_nv_small.h"
#include "harness/errors.hpp"
#include "harness/rtl_device.hpp"
#include "harness/rtl_devices.hpp"

namespace dla::harness {

std::unique_ptr<Device> make_rtl_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                        const RunOptions& opt, std::string& why) {
  const bool sdp_only = std::all_of(blocks.begin(), blocks.end(),
                                    [](const std::string& b) { return b == "SDP" || b == "SDP_RDMA"; });
  if (!sdp_only) return make_nvdla_core_device(blocks, cfg, opt, why);
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  const std::string unit = fmt::format("nvdla_sdp_top ({})", cfg.name);
  const std::vector<std::string> intr_units{"SDP"};  // done pulses wired to the top's GLB
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
  if (cfg.name == "nv_small") return std::make_unique<RtlDevice<Vsdp_nv_small>>(cfg, unit, intr_units, atom, o);
  if (cfg.name == "nv_large") return std::make_unique<RtlDevice<Vsdp_nv_large>>(cfg, unit, intr_units, atom, o);
  if (cfg.name == "nv_full") return std::make_unique<RtlDevice<Vsdp_nv_full>>(cfg, unit, intr_units, atom, o);
  throw InputError("--config", "", fmt::format("no SDP RTL build for configuration {}", cfg.name));
}

}  // namespace dla::harness
