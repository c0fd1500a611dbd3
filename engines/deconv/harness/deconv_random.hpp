// `dlacosim random deconv`: what engines/deconv/harness/deconv_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `deconv` generator (engines/deconv/harness/deconv_random.cpp), nv_full only; judged by harness/deconv_reference.hpp.
[[nodiscard]] RandomLayer generate_deconv_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
