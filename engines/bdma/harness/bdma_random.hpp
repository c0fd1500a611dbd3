// `dlacosim random bdma`: what engines/bdma/harness/bdma_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `bdma` generator (engines/bdma/harness/bdma_random.cpp): layer L filled in with random legal BDMA
// launches (nv_full only: InputError naming --config elsewhere); and the memcpy reference's verdict
// on a device's memory after the layer ("" when it agrees, else the first difference).
[[nodiscard]] RandomLayer generate_bdma_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);
[[nodiscard]] std::string bdma_reference_diff(const RandomLayer& L, const JsonNode& root, const Memory& mem);

}  // namespace dla::harness
