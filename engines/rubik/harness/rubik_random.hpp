// `dlacosim random rubik`: what engines/rubik/harness/rubik_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `rubik` generator (engines/rubik/harness/rubik_random.cpp): layer L filled in with a random legal RUBIK
// layer (nv_full only: InputError naming --config elsewhere).
[[nodiscard]] RandomLayer generate_rubik_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
