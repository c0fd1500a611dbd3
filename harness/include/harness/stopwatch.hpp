// Wall time of a run, a campaign or a bench case (reports print it; speed is measured by benches).
#pragma once

#include <chrono>

namespace dla::harness {

[[nodiscard]] inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace dla::harness
