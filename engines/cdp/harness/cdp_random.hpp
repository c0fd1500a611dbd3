// `dlacosim random cdp`: what engines/cdp/harness/cdp_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `cdp` generator (engines/cdp/harness/cdp_random.cpp): layer L filled in with a random legal LRN layer.
[[nodiscard]] RandomLayer generate_cdp_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
