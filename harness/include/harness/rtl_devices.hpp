// The RTL devices this build has: which register blocks each verilated unit implements, and a
// factory the program runner uses for --mode cross|rtl.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/layer.hpp"

namespace dla::harness {

// A device for a program that enables `blocks`, or nullptr with `why` set when no verilated unit
// implements all of them.
[[nodiscard]] std::unique_ptr<Device> make_rtl_device(const std::vector<std::string>& blocks,
                                                      const golden::HwConfig& cfg, const RunOptions& opt,
                                                      std::string& why);

// The NVDLA core (convolution pipeline + SDP): the blocks it implements, and a device for a
// program whose enabled blocks are among them (nullptr with `why` otherwise).
[[nodiscard]] const std::vector<std::string>& nvdla_core_blocks();
[[nodiscard]] std::unique_ptr<Device> make_nvdla_core_device(const std::vector<std::string>& blocks,
                                                             const golden::HwConfig& cfg, const RunOptions& opt,
                                                             std::string& why);

}  // namespace dla::harness
