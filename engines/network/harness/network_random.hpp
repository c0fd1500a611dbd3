// `dlacosim random network`: what engines/network/harness/network_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `network` generator (engines/network/harness/network_random.cpp): 2 to 4 convolutions over one input
// (CBUF data reuse between them), sometimes one chained; and the int64 conv reference's verdict on
// every layer's output tensor in a device's memory ("" when all agree).
[[nodiscard]] RandomLayer generate_network_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);
[[nodiscard]] std::string network_reference_diff(const RandomLayer& L, const JsonNode& root, const Memory& mem);

}  // namespace dla::harness
