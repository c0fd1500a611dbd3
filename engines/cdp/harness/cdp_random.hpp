// `dlacosim random cdp`: what engines/cdp/harness/cdp_random.cpp gives the engine's registration.
#pragma once

#include <cstdint>
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

// The LRN keys of a `cdp` layer as `random cdp` draws them (window, bypasses, converters, LUT;
// docs/LAYER_FORMAT.md "`cdp` layers") into `doc`: integers for C channels of data in
// [-data_max - 1, data_max], fp16 as `--focus fp16` draws them; `feat` gets their description. The
// network generator's CDP layers.
void draw_cdp_lrn(Rng& rng, golden::Precision prec, int c, int64_t data_max, nlohmann::ordered_json& doc,
                  std::string& feat);

}  // namespace dla::harness
