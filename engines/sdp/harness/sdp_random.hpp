// `dlacosim random sdp`: what engines/sdp/harness/sdp_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `sdp` generator (engines/sdp/harness/sdp_random.cpp): layer L filled in with a random legal SDP layer.
[[nodiscard]] RandomLayer generate_sdp_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
