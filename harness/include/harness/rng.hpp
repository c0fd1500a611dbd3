// Deterministic randomness: every random choice of a run derives from the one run seed, split
// into independent named streams so adding a stream does not shift the others.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace dla::harness {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  // A stream for `name`, independent of the parent's position.
  [[nodiscard]] static Rng derive(uint64_t seed, std::string_view name) {
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ULL;
    return Rng(mix(h));
  }
  uint64_t next() {  // splitmix64
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix(state_);
  }
  // Uniform in [lo, hi] (inclusive).
  int64_t range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return span == 0 ? static_cast<int64_t>(next()) : lo + static_cast<int64_t>(next() % span);
  }
  // True with probability p.
  bool chance(double p) { return p > 0 && static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  // Log-uniform in [lo, hi], 1 <= lo <= hi: small values as likely per octave as large ones (the
  // random-layer generators' sizes).
  int64_t log_range(int64_t lo, int64_t hi) {
    const double u = static_cast<double>(next() >> 11) * 0x1.0p-53;
    const double v = std::exp(std::log(static_cast<double>(lo)) +
                              u * (std::log(static_cast<double>(hi) + 1.0) - std::log(static_cast<double>(lo))));
    return std::clamp(static_cast<int64_t>(v), lo, hi);
  }

 private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

// Back-pressure on one valid/ready port. An input port holds each beat back for random idle
// cycles before presenting it (and keeps valid up until it is taken, as the protocol demands);
// an output port drops ready at random.
class StallInjector {
 public:
  StallInjector(uint64_t seed, std::string_view port, double probability)
      : rng_(Rng::derive(seed, port)), p_(probability) {}
  [[nodiscard]] bool stall() { return rng_.chance(p_); }

 private:
  Rng rng_;
  double p_;
};

}  // namespace dla::harness
