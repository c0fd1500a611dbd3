#include "engines/conv/harness/conv_device.hpp"

#include "golden/nvdla_regs.hpp"

namespace dla::harness::engines {

namespace gregs = golden::regs;

ConvDeviceState& conv_state(GoldenDevice& d) { return d.state<ConvDeviceState>(); }

const ConvDeviceState& conv_state(const GoldenDevice& d) {
  static const ConvDeviceState kReset{};  // a device without CDMA: nothing held, nothing to flush
  const ConvDeviceState* s = d.find_state<ConvDeviceState>();
  return s != nullptr ? *s : kReset;
}

std::vector<GoldenDevice::Hooks> conv_golden_hooks() {
  GoldenDevice::Hooks h;
  // CDMA clears CBUF after reset; FLUSH_DONE (reset value 0) rises when time has passed.
  h.reset = [](GoldenDevice& d) {
    if (d.has_block("CDMA")) conv_state(d).flushing = true;
  };
  h.time_passes = [](GoldenDevice& d) {
    ConvDeviceState* s = d.has_block("CDMA") ? &conv_state(d) : nullptr;
    if (s == nullptr || !s->flushing) return false;
    s->flushing = false;
    d.set_hw_register("CDMA", gregs::cdma::S_CBUF_FLUSH_STATUS::offset, 0,
                      gregs::cdma::S_CBUF_FLUSH_STATUS::FLUSH_DONE::mask);
    return true;
  };
  return {h};
}

}  // namespace dla::harness::engines
