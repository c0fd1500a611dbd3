// Conv layers whose CDMA fetch outlasts the convolution, on the RTL at a long memory latency
// (DMA reads answered in order after 64..256 cycles, unlimited bandwidth): the weight bytes past
// the last kernel up to WEIGHT_BYTES (rounded up to 128) and input lines no output uses are read
// but not needed, so their responses can come back after CACC's last element. The layer must end
// only when they are in: released early, the CDMA_WT / CDMA_DAT interrupts the program waits for
// never came (a watchdog stop) and CDMA went on fetching with the next register group's
// configuration (docs/CONV_RTL.md "Operation"). Bundled layers with weight padding: judged by the
// independent int64 reference in cross mode, the cross_stress legs (stall seeds x rand-reset); unused
// input lines: register words written directly, output compared with the golden device.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "conv_reference.hpp"
#include "golden/config.hpp"
#include "engines/conv/harness/conv_bench.hpp"

using namespace conv_ref;  // NOLINT(google-build-using-namespace)

namespace {

// The stress legs of cross_stress.hpp (stall seeds x rand-reset), each with a slow memory of
// unlimited bandwidth and a short watchdog (a hang ends in 20000 cycles instead of 200000; the
// layers here finish in a few thousand).
std::vector<RunOptions> slow_memory_legs() {
  std::vector<RunOptions> out = cross_stress::options();
  for (RunOptions& o : out) {
    o.mem = {};
    o.mem.latency_min = 64;
    o.mem.latency_max = 256;
    o.sim.watchdog = 20000;
  }
  return out;
}

}  // namespace

TEST_CASE("conv layers whose fetch outlasts the convolution end only when the last read is in (memory latency 64..256)",
          "[rtl][conv][mem]") {
  // small_fc: 20 kernels x 100 bytes, WEIGHT_BYTES 2048 (6 unused atoms, fetched last);
  // full_int8_fc and full_int16_1x1_odd: the same on nv_full.
  for (const char* name : {"small_fc", "full_int8_fc", "full_int16_1x1_odd"}) {
    const fs::path f = kLayers / (std::string(name) + ".json");
    for (const RunOptions& o : slow_memory_legs()) check_layer(f, *o.seed, &o);
  }
}

TEST_CASE("a conv whose last input lines no output uses ends only when they are in (registers written directly)",
          "[rtl][conv][mem]") {
  // 4x8x16 -> 4x1x8, 1x1 kernels, stride y 8: only line 0 feeds an output, and with one kernel
  // group (8 kernels x 16 bytes = WEIGHT_BYTES 128, no padding) CDMA fetches lines 1..7 after
  // every byte the output needs. The conv layer compiler's Split-H bands hold only the input
  // lines their outputs read, so this writes the register words of golden's config directly
  // (conv_bench).
  dla::golden::ConvParams p;
  p.w = 4;
  p.h = 8;
  p.c = 16;
  p.k = 8;
  p.stride_y = 8;
  p.clip_truncate = 7;
  for (const bool slow : {false, true}) {
    engines::ConvBenchMode m;
    if (slow) {
      m.mem.latency_min = 64;
      m.mem.latency_max = 256;
    }
    for (const uint64_t seed : {1u, 2u, 3u}) {
      const auto r = engines::measure_conv(dla::golden::nv_small(), p, seed, 0.3, static_cast<int>(seed % 3), m);
      INFO("seed " << seed << (slow ? " latency 64..256" : " latency 4..32") << ": " << r.detail);
      REQUIRE(r.detail.empty());
      CHECK(r.outputs_equal);
      REQUIRE(r.dma.has_value());
      // every input atom (8 lines x 4 positions x 2 atoms) and weight atom (128 / 8) was read
      CHECK(r.dma->bytes_read == 8 * (8 * 4 * 2 + 16));
    }
  }
}
