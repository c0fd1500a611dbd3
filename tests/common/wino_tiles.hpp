// 4x4 Winograd data tiles drawn for the PRA tests (golden vs NVIDIA's PRA, RTL vs golden): integer
// tiles over the precision's range with its ends, and fp16 tiles whose values sit in a narrow or
// wide exponent window (cancellation, alignment out of range), pair up with a partner one row
// apart (the operand the PRA subtracts: equal, negated, nearby), or are NVDLA's float edges
// (zeros, denormals, infinities, NaNs, the largest finite value).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "common/fp_operands.hpp"
#include "golden/config.hpp"

namespace dla::test {

inline std::array<uint16_t, 16> draw_wino_tile(FpOperands& r, golden::Precision p) {
  std::array<uint16_t, 16> t{};
  if (p != golden::Precision::Fp16) {
    const int bits = golden::bits_per_element(p);
    const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    const bool ends = r.draw(4) == 0;
    for (auto& v : t) {
      const int64_t x = ends ? (r.draw(2) ? lo : hi) - (r.draw(2) ? 0 : static_cast<int64_t>(r.draw(3)) * (r.draw(2) ? -1 : 1))
                             : lo + static_cast<int64_t>(r.raw() % static_cast<uint64_t>(hi - lo + 1));
      v = static_cast<uint16_t>(std::clamp(x, lo, hi));
    }
    return t;
  }
  const golden::fp::Format f = golden::fp::kFp16;
  const uint32_t kind = r.draw(4);
  const uint32_t lo = r.draw(31);
  const uint32_t span = 1 + r.draw(kind == 0 ? 31 : 4);
  for (auto& v : t) {
    if (kind == 1 && r.draw(3) == 0) {
      v = static_cast<uint16_t>(r.one(f));
    } else {
      const uint32_t e = std::min(30u, lo + r.draw(span));
      v = static_cast<uint16_t>((r.draw(2) << 15) | (e << 10) | (r.raw() & 0x3ff));
    }
  }
  if (kind == 2) {
    // partners one or two rows below (the first pass's operands), or in the next column
    for (std::size_t i = 0; i < 8; ++i) {
      const std::size_t j = r.draw(3) == 0 ? (i % 4 < 3 ? i + 1 : i) : i + (r.draw(2) ? 4 : 8);
      t[j] = static_cast<uint16_t>(r.partner(f, t[i]));
    }
  }
  if (kind == 3 && r.draw(4) == 0) t[r.draw(16)] = static_cast<uint16_t>(0x7c00 | (r.draw(2) << 15) | (r.draw(3) ? (r.raw() & 0x3ff) | 1 : 0));
  return t;
}

}  // namespace dla::test
