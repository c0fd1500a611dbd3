// The RTL tests' stress matrix, in one place: cross mode (golden and RTL, compared) at 3
// back-pressure seeds x rand-reset 0/1/2, stall probability 0.3 on every handshake.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/program_runner.hpp"

namespace cross_stress {

inline std::vector<dla::harness::RunOptions> options() {
  std::vector<dla::harness::RunOptions> out;
  for (const uint64_t seed : {11u, 22u, 33u}) {
    for (const int rr : {0, 1, 2}) {
      dla::harness::RunOptions o;
      o.mode = "cross";
      o.seed = seed;
      o.stall = 0.3;
      o.sim.seed = seed;
      o.sim.rand_reset = rr;
      o.sim.watchdog = 200000;
      out.push_back(o);
    }
  }
  return out;
}

}  // namespace cross_stress
