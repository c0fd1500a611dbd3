// The golden device's units of nvdla_core's pipeline: conv (the CACC row), SDP and PDP, for their
// engines' descriptors (harness/tops/nvdla_core_golden.cpp).
#pragma once

#include "harness/golden_device.hpp"

namespace dla::harness::engines::golden_units {

[[nodiscard]] GoldenDevice::Unit sdp();
[[nodiscard]] GoldenDevice::Unit conv();
[[nodiscard]] GoldenDevice::Unit pdp();

}  // namespace dla::harness::engines::golden_units
