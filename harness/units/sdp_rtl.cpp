// The RTL devices for register programs: the verilated SDP top (SDP, SDP_RDMA, PDP, PDP_RDMA and
// the GLB, SDP -> PDP on the fly; rtl/top/nvdla_sdp_top.sv) when the program enables no other
// block (PDP alone included), else the NVDLA core (harness/units/nvdla_rtl.cpp).
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
  const auto is_sdp = [](const std::string& b) { return b == "SDP" || b == "SDP_RDMA"; };
  const bool runs_sdp = std::any_of(blocks.begin(), blocks.end(), is_sdp);
  const bool sdp_top = !blocks.empty() && std::all_of(blocks.begin(), blocks.end(), [&](const std::string& b) {
    return is_sdp(b) || b == "PDP" || b == "PDP_RDMA";
  });
  if (!sdp_top) return make_nvdla_core_device(blocks, cfg, opt, why);
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  const std::string unit = fmt::format("nvdla_sdp_top ({})", cfg.name);
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
  const auto make = [&]<class Model>(Model*) -> std::unique_ptr<Device> {
    static const std::vector<std::string> intr_units{"SDP", "PDP"};  // done pulses wired to the top's GLB
    auto dev = std::make_unique<RtlDevice<Model>>(cfg, unit, intr_units, atom, o);
    dev->set_write_guard(make_pdp_guard(cfg, "nvdla_sdp_top", runs_sdp));
    return dev;
  };
  if (cfg.name == "nv_small") return make(static_cast<Vsdp_nv_small*>(nullptr));
  if (cfg.name == "nv_large") return make(static_cast<Vsdp_nv_large*>(nullptr));
  if (cfg.name == "nv_full") return make(static_cast<Vsdp_nv_full*>(nullptr));
  throw InputError("--config", "", fmt::format("no SDP RTL build for configuration {}", cfg.name));
}

}  // namespace dla::harness
