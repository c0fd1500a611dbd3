// The RTL device for a register program, chosen among the registered engines' RTL tops
// (include/harness/engine.hpp, RtlTop): the framework's one way to an RTL, naming no engine.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/layer.hpp"

namespace dla::harness {

// A device for a program that enables `blocks`, or nullptr with `why` set when no registered RTL top
// implements all of them (the first top in RtlTop::order whose blocks hold them).
[[nodiscard]] std::unique_ptr<Device> make_rtl_device(const std::vector<std::string>& blocks,
                                                      const golden::HwConfig& cfg, const RunOptions& opt,
                                                      std::string& why);

}  // namespace dla::harness
