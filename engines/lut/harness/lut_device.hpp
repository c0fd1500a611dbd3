// The LUT RAMs of SDP and CDP on the golden device: S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA of each
// block program its own tables (golden::LutRam, docs/LUT.md), which its layers then read.
#pragma once

#include <string_view>
#include <vector>

#include "engines/lut/golden/lut.hpp"
#include "harness/golden_device.hpp"

namespace dla::harness::engines {

// The LUT RAM of `block` ("SDP" or "CDP"); std::out_of_range for a block without one.
[[nodiscard]] golden::LutRam& lut_ram(GoldenDevice& d, std::string_view block);
[[nodiscard]] std::vector<GoldenDevice::Hooks> lut_golden_hooks();

}  // namespace dla::harness::engines
