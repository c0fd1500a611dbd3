// The convolution pipeline's state on the golden device: what CBUF holds between layers (D_MISC_CFG
// reuse / skip-release flags; golden::run_conv takes and leaves it) and CBUF's flush after reset:
// CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE reads 0 until the program lets time pass (a poll's second
// read, any wait), and no convolution starts before (docs/CONV.md "CBUF flush").
#pragma once

#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "harness/golden_device.hpp"

namespace dla::harness::engines {

struct ConvDeviceState {
  golden::ConvCbufState cbuf;
  bool flushing = false;  // CBUF is still being cleared after reset (FLUSH_DONE = 0)
};

[[nodiscard]] ConvDeviceState& conv_state(GoldenDevice& d);
[[nodiscard]] const ConvDeviceState& conv_state(const GoldenDevice& d);
[[nodiscard]] std::vector<GoldenDevice::Hooks> conv_golden_hooks();

}  // namespace dla::harness::engines
