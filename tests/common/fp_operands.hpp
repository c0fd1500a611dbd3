// Float operands drawn for the fp tests (golden vs NVIDIA's library, RTL vs golden): random bit
// patterns, and in most draws the values where float rules differ: zeros, denormals, infinities,
// NaNs, the largest finite value, exponents at the ends of the range, pairs whose exponents differ
// by about the mantissa width, equal magnitudes of opposite sign, mantissas ending in a tie.
#pragma once

#include <cstdint>
#include <random>

#include "golden/fp.hpp"

namespace dla::test {

struct NamedFormat {
  const char* name;
  golden::fp::Format format;
};
inline constexpr NamedFormat kFpFormats[] = {{"fp16", golden::fp::kFp16}, {"fp17", golden::fp::kFp17},
                                              {"fp32", golden::fp::kFp32}};

class FpOperands {
 public:
  explicit FpOperands(uint64_t seed) : rng_(seed) {}

  uint32_t one(golden::fp::Format f) {
    const uint32_t sign = draw(2);
    const uint32_t exp_max = f.exp_max();
    const uint32_t mant = static_cast<uint32_t>(rng_()) & f.mant_mask();
    const uint32_t top = mant_edge(f);
    switch (draw(12)) {
      case 0:
        return static_cast<uint32_t>(rng_()) & f.mask();
      case 1:
        return pack(f, sign, 0, draw(2) ? 0 : mant);  // zero or denormal
      case 2:
        return pack(f, sign, exp_max, draw(3) ? 0 : (mant | 1));  // infinity or NaN
      case 3:
        return pack(f, sign, exp_max - 1 - draw(2), draw(2) ? f.mant_mask() : top);  // largest
      case 4:
        return pack(f, sign, 1 + draw(2), draw(2) ? top : mant);  // smallest normals
      case 5:
        return pack(f, sign, draw(exp_max + 1), top);  // a mantissa at a rounding edge
      default:
        return pack(f, sign, draw(exp_max + 1), mant);
    }
  }

  // A second operand near the first in one of the ways that exercise alignment and cancellation.
  uint32_t partner(golden::fp::Format f, uint32_t a) {
    const golden::fp::Fields x = golden::fp::unpack(f, a);
    const uint32_t exp_max = f.exp_max();
    switch (draw(6)) {
      case 0:
        return a ^ (1u << (f.exp_bits + f.mant_bits));  // the negation
      case 1: {
        const int dist = static_cast<int>(draw(static_cast<uint32_t>(f.mant_bits + 6)));
        const int64_t e = static_cast<int64_t>(x.exp) + (draw(2) ? dist : -dist);
        const uint32_t exp = e < 0 ? 0 : (e > exp_max ? exp_max : static_cast<uint32_t>(e));
        return pack(f, draw(2), exp, mant_edge(f));
      }
      case 2:
        return pack(f, draw(2), x.exp, x.mant ^ (1u << draw(static_cast<uint32_t>(f.mant_bits))));
      case 3:
        // Exponents whose sum sits at the bias or the top of the range (products at the edges).
        return pack(f, draw(2), static_cast<uint32_t>(f.bias()) + exp_max - x.exp - 1 + draw(3),
                    static_cast<uint32_t>(rng_()) & f.mant_mask());
      default:
        return one(f);
    }
  }

  uint32_t draw(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  uint64_t raw() { return rng_(); }

 private:
  static uint32_t pack(golden::fp::Format f, uint32_t sign, uint32_t exp, uint32_t mant) {
    return golden::fp::pack(f, {sign, exp & f.exp_max(), mant & f.mant_mask()});
  }

  // Mantissas whose low bits are a run of ones or zeros: rounding ties and carries.
  uint32_t mant_edge(golden::fp::Format f) {
    const uint32_t run = (1u << draw(static_cast<uint32_t>(f.mant_bits + 1))) - 1;
    const uint32_t high = static_cast<uint32_t>(rng_()) & f.mant_mask();
    return draw(2) ? ((high & ~run) | run) & f.mant_mask() : (high & ~run) & f.mant_mask();
  }

  std::mt19937_64 rng_;
};

}  // namespace dla::test
