// The DMA server's memory model (MemOptions: latency range, bandwidth) on the NVDLA core: the
// traffic it reports is the layer's, a bandwidth limit holds over the run, and a latency range
// reaches the RTL (its CDMA latency counters see it). docs/CLI.md "Memory model options".
#include <catch2/catch.hpp>

#include "golden/config.hpp"
#include "engines/conv/harness/conv_bench.hpp"

using namespace dla::harness;

namespace {

// The conv bench's reference layer on nv_small (32x16x32 -> 32x16x16, 3x3, pad 1, int8): CDMA
// reads 32*16*4 = 2048 input atoms and 3*3*32*16 / 8 = 576 weight atoms of 8 bytes; SDP writes
// 32*16 positions x 2 channel surfaces = 1024 atoms.
constexpr uint64_t kDatReads = 2048, kWtReads = 576, kWrites = 1024;

engines::ConvBenchResult run(const MemOptions& mem) {
  engines::ConvBenchMode m;
  m.mem = mem;
  return engines::measure_conv(dla::golden::nv_small(), engines::conv_bench_layer(), 1, 0.0, 0, m);
}

}  // namespace

TEST_CASE("DMA traffic is the layer's, and a bandwidth limit holds over the run", "[harness][mem]") {
  const auto free = run({});
  REQUIRE(free.outputs_equal);
  REQUIRE(free.dma.has_value());
  CHECK(free.dma->bytes_read == 8 * (kDatReads + kWtReads));
  CHECK(free.dma->bytes_written == 8 * kWrites);
  CHECK(free.dma->mem.unlimited());

  MemOptions tight;
  tight.bandwidth = 0.5;  // a beat every 16 cycles at best
  const auto lim = run(tight);
  REQUIRE(lim.outputs_equal);
  REQUIRE(lim.dma.has_value());
  CHECK(lim.dma->bytes_read == free.dma->bytes_read);
  CHECK(lim.dma->bytes_written == free.dma->bytes_written);
  // Every byte moves after the last OP_EN write (programming moves none): at most 0.5 per cycle,
  const uint64_t bytes = lim.dma->bytes_read + lim.dma->bytes_written;
  // the bucket may hold one 8-byte beat at OP_EN
  CHECK(2 * bytes <= lim.cycles_to_sdp + 2 * 8);
  CHECK(lim.cycles_to_sdp > free.cycles_to_sdp);
}

TEST_CASE("a latency range reaches the RTL: CDMA's latency counters see it", "[harness][mem]") {
  MemOptions slow;
  slow.latency_min = 64;
  slow.latency_max = 256;
  const auto r = run(slow);
  REQUIRE(r.outputs_equal);
  REQUIRE(r.dma.has_value());
  CHECK(r.dma->mem.latency_min == 64);
  CHECK(r.dma->mem.latency_max == 256);
  // Each read waits at least the minimum (at 4..32 the sum stays below 40 per read,
  // engines/conv/tests/rtl/test_conv_rtl.cpp); in-order responses can add to the maximum, so no upper bound.
  CHECK(r.cdma_dat_latency >= 64 * kDatReads);
  CHECK(r.cdma_wt_latency >= 64 * kWtReads);
  const auto base = run({});
  CHECK(base.cdma_dat_latency < 40 * kDatReads);
  CHECK(r.cycles_to_sdp > base.cycles_to_sdp);
}
