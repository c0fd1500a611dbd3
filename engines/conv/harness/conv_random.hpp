// `dlacosim random conv`: what engines/conv/harness/conv_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `conv` generator (engines/conv/harness/conv_random.cpp): layer L filled in with a random legal
// convolution (shrunk or split into Split-H bands until CBUF holds it).
[[nodiscard]] RandomLayer generate_conv_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);

}  // namespace dla::harness
