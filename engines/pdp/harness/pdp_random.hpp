// `dlacosim random pdp`: what engines/pdp/harness/pdp_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `pdp` generator (engines/pdp/harness/pdp_random.cpp): layer L (name, seed, stall set) filled in
// with a random legal pooling layer drawn from `rng`.
[[nodiscard]] RandomLayer generate_pdp_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
