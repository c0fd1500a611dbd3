#include "harness/layer_rules.hpp"

#include <fmt/format.h>

namespace dla::harness {

golden::CubeShape parse_cube(const JsonNode& cube) {
  cube.allow_keys({"w", "h", "c"});
  golden::CubeShape s;
  s.n = 1;
  s.w = static_cast<int>(cube.require("w").as_int(1, kMaxCubeDim));
  s.h = static_cast<int>(cube.require("h").as_int(1, kMaxCubeDim));
  s.c = static_cast<int>(cube.require("c").as_int(1, kMaxCubeDim));
  const int64_t elems = int64_t{s.w} * s.h * s.c;
  if (elems > kMaxLayerElements) {
    cube.fail(fmt::format("{}x{}x{} = {} elements exceed the limit of {}", s.w, s.h, s.c, elems, kMaxLayerElements));
  }
  return s;
}

}  // namespace dla::harness
