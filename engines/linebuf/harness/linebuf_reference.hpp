// An int64 reference for `linebuf` stacks (docs/LINEBUF.md §1), independent of the golden model:
// plain loops with their own rounding (floor, then the remainder against half) and clamping,
// nothing from golden/'s arithmetic (golden's LinebufMap / LinebufLayer are used as plain data).
// Used by engines/linebuf/tests/rtl/test_linebuf.cpp and by `dlacosim random linebuf` (golden's every map against it).
#pragma once

#include <string>
#include <vector>

#include "engines/linebuf/golden/linebuf.hpp"

namespace dla::harness::linebuf_ref {

// One layer on `in` at `bits` (8 or 16): conv 3x3 (pad, pool) or FC, activation, requantize.
[[nodiscard]] golden::LinebufMap layer(const golden::LinebufMap& in, const golden::LinebufLayer& L, int bits);
// Every layer's output, each fed the reference's previous output.
[[nodiscard]] std::vector<golden::LinebufMap> stack(const golden::LinebufMap& in,
                                                    const std::vector<golden::LinebufLayer>& layers, int bits);
// "" when `got` equals the reference maps `ref` (shape and every value), else the first difference.
[[nodiscard]] std::string first_difference(const std::vector<golden::LinebufMap>& got,
                                           const std::vector<golden::LinebufMap>& ref);

}  // namespace dla::harness::linebuf_ref
