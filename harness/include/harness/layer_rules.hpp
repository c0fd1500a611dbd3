// Rules every unit's layer parser and compiler applies alike: NVDLA's 13-bit size fields, the
// element limit of one layer, the "cube" object, and the bytes a compiler fills where no element
// lives (so a unit that writes or reads there shows as a mismatch).
#pragma once

#include <cstdint>

#include "golden/cube.hpp"
#include "harness/json_reader.hpp"

namespace dla::harness {

inline constexpr int kMaxCubeDim = 8192;                // W / H / C / K fields hold value - 1 in 13 bits
inline constexpr int64_t kMaxLayerElements = 4'000'000;  // values one layer's list (or output) may hold
inline constexpr uint8_t kGapFill = 0xa5;                // input / operand bytes no element owns
inline constexpr uint8_t kOutputFill = 0x5a;             // the output region before the layer

// A "cube" object {"w", "h", "c"}: each 1 .. kMaxCubeDim, W x H x C at most kMaxLayerElements
// (fails at the object naming the product). N is 1.
[[nodiscard]] golden::CubeShape parse_cube(const JsonNode& cube);

}  // namespace dla::harness
