// `dlacosim random linebuf`: what engines/linebuf/harness/linebuf_random.cpp gives the engine's registration.
#pragma once

#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"

namespace dla::harness {

// The `linebuf` generator (engines/linebuf/harness/linebuf_random.cpp): layer L filled in with a random legal
// line-buffer stack (any configuration: the engine is not NVDLA's). Runs through the layer handler.
[[nodiscard]] RandomLayer generate_linebuf_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);
// The golden model's maps of a `linebuf` layer against the int64 reference (harness/linebuf_reference.hpp):
// "" when every map agrees, else the first difference.
[[nodiscard]] std::string linebuf_golden_reference_diff(const LayerHeader& h, const JsonNode& root);

}  // namespace dla::harness
