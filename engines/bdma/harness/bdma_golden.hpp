// BDMA on the golden device (docs/BDMA.md): no register groups and no OP_EN, so it is not a unit of
// the device's table; its register block is a command FIFO (golden::BdmaEngine) that the device
// hands every BDMA access to. A CFG_LAUNCH<g> runs the batch's copies at once and queues its done
// event; GRP<g>_BUSY clears when a wait releases that event.
#pragma once

#include <vector>

#include "harness/golden_device.hpp"

namespace dla::harness::engines {

[[nodiscard]] std::vector<GoldenDevice::Hooks> bdma_golden_hooks();

}  // namespace dla::harness::engines
