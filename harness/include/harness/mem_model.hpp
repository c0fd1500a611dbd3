// The memory behind the RTL devices' DMA ports (DmaServer, rtl_device.hpp): its read latency and
// bandwidth per run (dlacosim --mem-latency, --mem-bandwidth), and the traffic a run moved.
// docs/ARCHITECTURE.md "Memory model" describes the model; docs/CLI.md the options.
#pragma once

#include <cstdint>

namespace dla::harness {

struct MemOptions {
  int latency_min = 4;    // read latency in cycles, uniform in [latency_min, latency_max]
  int latency_max = 32;   // (seeded from the run seed; responses in request order)
  double bandwidth = 0;   // bytes per cycle shared by read responses and writes; 0: unlimited
  static constexpr int kLatencyLimit = 4096;
  static constexpr double kBandwidthMin = 0.001;
  static constexpr double kBandwidthMax = 65536;
  [[nodiscard]] bool unlimited() const { return bandwidth <= 0; }
};

// What one RTL device's DMA ports moved: the bytes of the read responses taken (each the atoms its
// request asked for) and of the write requests accepted (one atom each), under `mem`.
struct DmaTraffic {
  MemOptions mem;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  [[nodiscard]] double bytes_per_cycle(uint64_t cycles) const {
    return cycles != 0 ? static_cast<double>(bytes_read + bytes_written) / static_cast<double>(cycles) : 0.0;
  }
};

}  // namespace dla::harness
