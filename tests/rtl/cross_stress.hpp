// The RTL tests' stress matrix, in one place: cross mode (golden and RTL, compared) at 3
// back-pressure seeds x rand-reset 0/1/2, stall probability 0.3 on every handshake, plus one
// slow-memory leg: DMA read latency 64..256 cycles and 4 bytes/cycle of bandwidth (half an
// nv_small beat, an eighth of an nv_full one per cycle; docs/CLI.md "Memory model options").
#pragma once

#include <cstdint>
#include <vector>

#include "harness/program_runner.hpp"

namespace cross_stress {

inline std::vector<dla::harness::RunOptions> options() {
  std::vector<dla::harness::RunOptions> out;
  auto leg = [&](uint64_t seed, int rr) -> dla::harness::RunOptions& {
    dla::harness::RunOptions o;
    o.mode = "cross";
    o.seed = seed;
    o.stall = 0.3;
    o.sim.seed = seed;
    o.sim.rand_reset = rr;
    o.sim.watchdog = 200000;
    out.push_back(o);
    return out.back();
  };
  for (const uint64_t seed : {11u, 22u, 33u}) {
    for (const int rr : {0, 1, 2}) leg(seed, rr);
  }
  dla::harness::RunOptions& slow = leg(44, 2);
  slow.mem.latency_min = 64;
  slow.mem.latency_max = 256;
  slow.mem.bandwidth = 4;
  return out;
}

}  // namespace cross_stress
