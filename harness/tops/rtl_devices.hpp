// The RTL devices this build has: which register blocks each verilated unit implements, and a
// factory the program runner uses for --mode cross|rtl.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/layer.hpp"

namespace dla::harness {

// The NVDLA core (convolution pipeline + SDP + PDP): the blocks it implements, and a device for a
// program whose enabled blocks are among them (nullptr with `why` otherwise; make_nvdla_core_top
// does not check).
[[nodiscard]] const std::vector<std::string>& nvdla_core_blocks();
[[nodiscard]] std::unique_ptr<Device> make_nvdla_core_device(const std::vector<std::string>& blocks,
                                                             const golden::HwConfig& cfg, const RunOptions& opt,
                                                             std::string& why);
[[nodiscard]] std::unique_ptr<Device> make_nvdla_core_top(const std::vector<std::string>& blocks,
                                                          const golden::HwConfig& cfg, const RunOptions& opt);

// CDP with CDP_RDMA (rtl/top/nvdla_engine_top.sv (Engine "cdp"); engines/cdp/harness/cdp_rtl.cpp): the device for a program
// whose enabled blocks are CDP and CDP_RDMA.
[[nodiscard]] std::unique_ptr<Device> make_cdp_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt);

// BDMA (rtl/top/nvdla_engine_top.sv (Engine "bdma"); engines/bdma/harness/bdma_rtl.cpp, nv_full only): the device for a
// program whose only enabled block is BDMA.
[[nodiscard]] std::unique_ptr<Device> make_bdma_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt);

// RUBIK (rtl/top/nvdla_engine_top.sv (Engine "rubik"); engines/rubik/harness/rubik_rtl.cpp, nv_full only): the device for a
// program whose only enabled block is RBK.
[[nodiscard]] std::unique_ptr<Device> make_rubik_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt);

// nvdla_core and RUBIK over one memory (harness/tops/core_pairs_rtl.cpp, nv_full only): the
// device for a program that enables RBK and blocks of nvdla_core (deconvolution; docs/DECONV.md).
[[nodiscard]] std::unique_ptr<Device> make_core_rubik_rtl_device(const std::vector<std::string>& blocks,
                                                                 const golden::HwConfig& cfg, const RunOptions& opt);
// nvdla_core and nvdla_cdp_top over one memory (the same file; nv_small and nv_full): the device
// for a program that enables CDP and blocks of nvdla_core (networks with LRN; docs/NETWORKS.md).
[[nodiscard]] std::unique_ptr<Device> make_core_cdp_rtl_device(const std::vector<std::string>& blocks,
                                                               const golden::HwConfig& cfg, const RunOptions& opt);

// nvdla_core and nvdla_bdma_top over one memory (the same file; nv_full only): the device for a
// program that enables BDMA and blocks of nvdla_core (networks with copies; docs/NETWORKS.md).
[[nodiscard]] std::unique_ptr<Device> make_core_bdma_rtl_device(const std::vector<std::string>& blocks,
                                                                const golden::HwConfig& cfg, const RunOptions& opt);

// The checks nvdla_core's and RUBIK's devices run on every CSB write before the RTL sees it: they
// refuse (InputError naming the register and the rule) a group those RTLs cannot compute as NVDLA
// does. `runs_sdp`: the program enables SDP (PDP may take its input on the fly).
[[nodiscard]] std::function<void(uint32_t addr, uint32_t value)> make_nvdla_core_guard(const golden::HwConfig& cfg,
                                                                                     bool runs_sdp);
[[nodiscard]] std::function<void(uint32_t addr, uint32_t value)> make_rubik_guard(const golden::HwConfig& cfg);
[[nodiscard]] std::function<void(uint32_t addr, uint32_t value)> make_cdp_guard(const golden::HwConfig& cfg);
// BDMA's check (engines/bdma/harness/bdma_rtl.cpp) needs the waits too: a group is busy from its launch
// until a wait of the program releases it, as on the golden device.
struct BdmaGuardHooks {
  std::function<void(uint32_t addr, uint32_t value)> write;
  std::function<void(std::string_view intr)> waited;  // a wait for `intr` returned raised
  std::function<void()> waited_any;                   // a wait for the interrupt line returned raised
};
[[nodiscard]] BdmaGuardHooks make_bdma_guard(const golden::HwConfig& cfg);
// The units whose done pulses nvdla_core wires to its GLB ("SDP", "CACC", ...).
[[nodiscard]] const std::vector<std::string>& nvdla_core_intr_units();

// The check an RTL device with PDP runs on every CSB write (engines/pdp/harness/pdp_rtl.cpp): when a
// PDP group is launched it refuses (InputError naming the register and the rule) what this PDP
// RTL does not compute as NVDLA does. `flying_ok`: the top feeds PDP from SDP on the fly.
[[nodiscard]] std::function<void(uint32_t addr, uint32_t value)> make_pdp_guard(const golden::HwConfig& cfg,
                                                                              const std::string& top,
                                                                              bool flying_ok);

}  // namespace dla::harness
