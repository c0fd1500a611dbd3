// An independent reference for `rubik` layers (docs/LAYER_FORMAT.md, "`rubik` layers"): the layer
// read from its JSON (with the format's documented default strides), and the expected bytes of the
// whole output region computed element by element from what each mode means (docs/RUBIK.md):
//   CONTRACT  depth-to-space: output element (c, X, Y) is element (c, X / sx, Y / sy) of sub-cube
//             (Y mod sy) * sx + (X mod sx); output line Y at (Y / sy) * CONTRACT_STRIDE_1 +
//             (Y mod sy) * LINE_STRIDE;
//   SPLIT     cube -> planes: plane c, line h, element w is the cube's (c, h, w); the bytes of a
//             plane line's last 32-byte atom past W elements are 0;
//   MERGE     planes -> cube: the cube's (c, h, w) is plane c's (h, w); lanes past C are 0.
// Nothing from golden/ or from the layer compiler is used; input values come from the harness's
// value generator (resolve_values), so they are the values the layer runs with. Used by
// engines/rubik/tests/harness/test_rubik_layers.cpp and `dlacosim random rubik`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/json_reader.hpp"
#include "harness/memory.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::rubik_ref {

inline constexpr uint64_t kInputBase = 0x8000'0000ull;
inline constexpr uint64_t kOutputBase = 0xc000'0000ull;

struct Layer {
  std::string mode;  // "contract", "split", "merge"
  int bpe = 1;
  int W = 1, H = 1, C = 1, sx = 1, sy = 1;
  uint64_t in_base = kInputBase, in_line = 0, in_surface = 0, in_contract = 0, in_planar = 0;
  uint64_t out_base = kOutputBase, out_line = 0, out_surface = 0, out_contract = 0, out_planar = 0;
  std::vector<int64_t> values;  // contract: sub-cube, c, h, w; split: c, h, w; merge: plane, h, w
};

[[nodiscard]] Layer read_layer(const JsonNode& root, uint64_t seed);

// The output region [out_base, out_base + bytes.size()): every byte the layer writes, the
// rest kOutputFill.
[[nodiscard]] std::vector<uint8_t> expected_output(const Layer& L);

// Empty when `mem` holds expected_output(L) at out_base, else the first differing byte (with the
// element it belongs to) and the count of differing bytes.
[[nodiscard]] std::string compare(const Layer& L, const Memory& mem);

}  // namespace dla::harness::rubik_ref
