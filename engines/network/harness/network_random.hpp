// `dlacosim random network`: what engines/network/harness/network_random.cpp gives the engine's registration.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/memory.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"
#include "engines/network/harness/network.hpp"

namespace dla::harness {

// The `network` generator (engines/network/harness/network_random.cpp): 2 to 4 convolutions over one input
// (CBUF data reuse between them), sometimes one chained, sometimes a pooling and an LRN layer; and
// the int64 references' verdict on every layer's output tensor in a device's memory ("" when all
// agree).
[[nodiscard]] RandomLayer generate_network_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng);
// `base_of` says where a device's run put a tensor (null: where the network file's compiler put it;
// a loadable's bound outputs live in memories of their own).
[[nodiscard]] std::string network_reference_diff(
    const RandomLayer& L, const JsonNode& root, const Memory& mem,
    const std::function<uint64_t(const engines::NetTensor&)>& base_of = nullptr);
// The same for the network `root` as compiled into `n` (no second compile).
[[nodiscard]] std::string network_reference_diff(
    const LayerHeader& h, const JsonNode& root, const engines::CompiledNetwork& n, const Memory& mem,
    const std::function<uint64_t(const engines::NetTensor&)>& base_of = nullptr);

}  // namespace dla::harness
