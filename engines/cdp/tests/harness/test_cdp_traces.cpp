// NVDLA's own CDP trace tests (../shared/nvdla-traces: every cdp_* test), replayed on the golden
// device: each must reproduce NVIDIA's CRC on its own configuration. Also the golden device's CDP /
// CDP_RDMA blocks: either enable order, S_STATUS, the CDP_DONE bits, group 1, LUT programming and
// read-back through S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA, the statistics registers, and refusals
// that name the register and the rule (docs/CDP.md).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engines/lut/harness/lut_device.hpp"
#include "golden/config.hpp"
#include "golden_traces.hpp"
#include "harness/golden_device.hpp"

using namespace dla::harness;
using dla::harness::testing::check_golden_traces;
using dla::harness::testing::Regs;

namespace {

// A 1x1x8 int8 cube at 0x1000 (one nv_small atom), channel c holds c + 1, normalized over 3
// channels into 0x2000. Converters: x = in; out = rhaz(p / 2^7). LUT: LO linear from 0 with select
// 0 (entry i at Q = i), LO[i] = 1000 - i; LE linear from 0 with select 8 (it hits too); hybrid and
// underflow priority LO, so LO decides. Register values from pdp-cdp-bdma-rubik.md §3.
void program_lrn3(const Regs& g) {
  for (int c = 0; c < 8; ++c) g.dev.memory().write(0x1000 + static_cast<uint64_t>(c), static_cast<uint8_t>(c + 1));
  g.w("CDP_RDMA.D_DATA_CUBE_WIDTH", 0);
  g.w("CDP_RDMA.D_DATA_CUBE_HEIGHT", 0);
  g.w("CDP_RDMA.D_DATA_CUBE_CHANNEL", 7);
  g.w("CDP_RDMA.D_SRC_BASE_ADDR_LOW", 0x1000);
  g.w("CDP_RDMA.D_SRC_LINE_STRIDE", 8);
  g.w("CDP_RDMA.D_SRC_SURFACE_STRIDE", 8);
  g.w("CDP_RDMA.D_SRC_DMA_CFG", 1);  // MC (reset 0 is CV-SRAM, which nv_small lacks)
  g.w("CDP_RDMA.D_DATA_FORMAT", 0);
  g.w("CDP.D_DATA_FORMAT", 0);
  g.w("CDP.D_FUNC_BYPASS", 0);
  g.w("CDP.D_LRN_CFG", 0);  // LEN3
  g.w("CDP.D_DATIN_OFFSET", 0);
  g.w("CDP.D_DATIN_SCALE", 1);
  g.w("CDP.D_DATIN_SHIFTER", 0);
  g.w("CDP.D_DATOUT_OFFSET", 0);
  g.w("CDP.D_DATOUT_SCALE", 1);
  g.w("CDP.D_DATOUT_SHIFTER", 7);
  g.w("CDP.D_DST_BASE_ADDR_LOW", 0x2000);
  g.w("CDP.D_DST_LINE_STRIDE", 8);
  g.w("CDP.D_DST_SURFACE_STRIDE", 8);
  g.w("CDP.D_DST_DMA_CFG", 1);
  g.w("CDP.D_PERF_ENABLE", 2);  // LUT_EN
  g.w("CDP.S_LUT_CFG", 0x51);   // LE linear, uflow priority LO, hybrid priority LO
  g.w("CDP.S_LUT_INFO", 0x0800);  // LE select 8, LO select 0
  g.w("CDP.S_LUT_LE_END_LOW", 64 << 8);
  g.w("CDP.S_LUT_LO_END_LOW", 256);
  g.w("CDP.S_LUT_ACCESS_CFG", 0x30000);  // LO, write, address 0
  for (int i = 0; i < 257; ++i) g.w("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(1000 - i));
  g.w("CDP.S_LUT_ACCESS_CFG", 0x20000);  // LE, write, address 0
  for (int i = 0; i < 65; ++i) g.w("CDP.S_LUT_ACCESS_DATA", static_cast<uint32_t>(i));
}

// x = 1..8; Q = 5, 14, 29, 50, 77, 110, 149, 113 (channel 7's window stops at C = 8);
// r = 1000 - Q = 995, 986, 971, 950, 923, 890, 851, 887; p = r * x = 995, 1972, 2913, 3800, 4615,
// 5340, 5957, 7096; out = rhaz(p / 128) = 7.77 -> 8, 15.41 -> 15, 22.76 -> 23, 29.69 -> 30,
// 36.05 -> 36, 41.72 -> 42, 46.54 -> 47, 55.44 -> 55.
const std::vector<uint8_t> kLrn3Expected{8, 15, 23, 30, 36, 42, 47, 55};

}  // namespace

TEST_CASE("nv_small CDP traces reproduce NVDLA's CRCs on the golden model", "[traces][cdp]") {
  check_golden_traces("nv_small", dla::golden::nv_small(), {"cdp_"}, 13);
}

TEST_CASE("nv_large CDP traces reproduce NVDLA's CRCs on the golden model", "[traces][cdp]") {
  check_golden_traces("nv_large", dla::golden::nv_large(), {"cdp_"}, 1);
}

TEST_CASE("golden CDP runs in either enable order and raises CDP_DONE of its group", "[golden_device][cdp]") {
  for (const bool rdma_first : {false, true}) {
    DYNAMIC_SECTION((rdma_first ? "CDP_RDMA first" : "CDP first")) {
      GoldenDevice dev(dla::golden::nv_small());
      const Regs g{dev, "nv_small"};
      program_lrn3(g);
      g.w(rdma_first ? "CDP_RDMA.D_OP_ENABLE" : "CDP.D_OP_ENABLE", 1);
      CHECK(dev.layers().empty());
      CHECK_FALSE(dev.wait_interrupt("CDP_0", 1).raised);
      g.w(rdma_first ? "CDP.D_OP_ENABLE" : "CDP_RDMA.D_OP_ENABLE", 1);
      CHECK(dev.memory().read(0x2000, 8) == kLrn3Expected);
      CHECK(g.r("CDP.S_STATUS") == 1u);  // running until the program waits
      CHECK(dev.wait_interrupt("CDP_0", 1).raised);
      CHECK(g.r("GLB.S_INTR_STATUS") == (1u << 2));  // CDP_DONE_STATUS0
      CHECK(g.r("CDP.S_STATUS") == 0u);
      CHECK(g.r("CDP.D_OP_ENABLE") == 0u);
      CHECK(g.r("CDP.S_POINTER") == (1u << 16));  // consumer toggled
      CHECK(g.r("CDP_RDMA.S_POINTER") == (1u << 16));
      // Statistics of group 0 (read through PRODUCER = 0): every lookup hit both tables.
      CHECK(g.r("CDP.D_PERF_LUT_HYBRID") == 8u);
      CHECK(g.r("CDP.D_PERF_LUT_UFLOW") == 0u);
      CHECK(g.r("CDP.D_PERF_LUT_OFLOW") == 0u);
      CHECK(g.r("CDP.D_PERF_LUT_LE_HIT") == 0u);
      CHECK(g.r("CDP.D_PERF_LUT_LO_HIT") == 0u);
      CHECK(g.r("CDP.D_OUT_SATURATION") == 0u);
      CHECK(g.r("CDP.D_NAN_INPUT_NUM") == 0u);
      CHECK(g.r("CDP.D_INF_INPUT_NUM") == 0u);
      CHECK(g.r("CDP.D_NAN_OUTPUT_NUM") == 0u);
      CHECK(g.r("CDP.D_PERF_WRITE_STALL") == 0u);
    }
  }
}

TEST_CASE("golden CDP group 1 raises bit 3 and counts saturation", "[golden_device][cdp]") {
  GoldenDevice dev(dla::golden::nv_small());
  const Regs g{dev, "nv_small"};
  program_lrn3(g);
  g.w("CDP.D_OP_ENABLE", 1);
  g.w("CDP_RDMA.D_OP_ENABLE", 1);
  REQUIRE(dev.wait_interrupt("CDP_0", 1).raised);
  g.w("CDP.S_POINTER", 1);
  g.w("CDP_RDMA.S_POINTER", 1);
  program_lrn3(g);
  g.w("CDP.D_DST_BASE_ADDR_LOW", 0x3000);
  // Shift 4 instead of 7: p / 16 = 62.2 -> 62, 123.25 -> 123, 182.06 -> 127 (saturated), and every
  // later channel (p >= 3800) saturates too: 6 saturations. LUT_EN off: no LUT counts.
  g.w("CDP.D_DATOUT_SHIFTER", 4);
  g.w("CDP.D_PERF_ENABLE", 0);
  g.w("CDP.D_OP_ENABLE", 1);
  g.w("CDP_RDMA.D_OP_ENABLE", 1);
  REQUIRE(dev.wait_interrupt("CDP_1", 1).raised);
  CHECK(g.r("GLB.S_INTR_STATUS") == ((1u << 2) | (1u << 3)));
  CHECK(dev.memory().read(0x3000, 8) == std::vector<uint8_t>{62, 123, 127, 127, 127, 127, 127, 127});
  CHECK(g.r("CDP.D_OUT_SATURATION") == 6u);
  CHECK(g.r("CDP.D_PERF_LUT_HYBRID") == 0u);
  g.w("CDP.S_POINTER", 0);
  CHECK(g.r("CDP.D_OUT_SATURATION") == 0u);  // group 0's own statistics
  CHECK(g.r("CDP.D_PERF_LUT_HYBRID") == 8u);
}

TEST_CASE("golden CDP LUT tables read back through S_LUT_ACCESS_CFG / DATA", "[golden_device][cdp]") {
  GoldenDevice dev(dla::golden::nv_small());
  const Regs g{dev, "nv_small"};
  program_lrn3(g);
  g.w("CDP.S_LUT_ACCESS_CFG", 0x10000 | 5);  // LO, read, address 5
  CHECK(g.r("CDP.S_LUT_ACCESS_CFG") == (0x10000u | 5u));
  CHECK(g.r("CDP.S_LUT_ACCESS_DATA") == 995u);
  CHECK(g.r("CDP.S_LUT_ACCESS_DATA") == 994u);  // auto-increment
  g.w("CDP.S_LUT_ACCESS_CFG", 64);  // LE, read, address 64
  CHECK(g.r("CDP.S_LUT_ACCESS_DATA") == 64u);
  CHECK(g.r("CDP.S_LUT_ACCESS_DATA") == 64u);  // saturates at the last entry
  // A negative entry reads back as its 16-bit pattern.
  g.w("CDP.S_LUT_ACCESS_CFG", 0x20000 | 3);
  g.w("CDP.S_LUT_ACCESS_DATA", 0xffff8000u);
  g.w("CDP.S_LUT_ACCESS_CFG", 3);
  CHECK(g.r("CDP.S_LUT_ACCESS_DATA") == 0x8000u);
  CHECK(dla::harness::engines::lut_ram(dev, "CDP").tables().le[3] == -32768);
}

TEST_CASE("golden CDP refuses what NVDLA cannot do, naming the register and the rule", "[golden_device][cdp]") {
  struct Case {
    const char* reg;
    uint32_t value;
    const char* why;
  };
  const std::vector<Case> cases = {
      {"CDP.D_DATA_FORMAT", 2, "nv_small has no fp16"},
      {"CDP.D_DATA_FORMAT", 1, "nv_small has no int16"},
      {"CDP_RDMA.D_DATA_FORMAT", 1, "CDP_RDMA D_DATA_FORMAT.INPUT_DATA (int16) differs"},
      {"CDP.D_DST_BASE_ADDR_LOW", 0x2004, "CDP destination (D_DST_*): base 0x2004 is not aligned"},
      {"CDP_RDMA.D_SRC_BASE_ADDR_LOW", 0x1001, "CDP_RDMA source (D_SRC_*): base 0x1001 is not aligned"},
      {"CDP.D_DST_BASE_ADDR_LOW", 0x1000, "overlaps the CDP_RDMA source"},
  };
  for (const auto& k : cases) {
    DYNAMIC_SECTION(k.why) {
      GoldenDevice dev(dla::golden::nv_small());
      const Regs g{dev, "nv_small"};
      program_lrn3(g);
      g.w(k.reg, k.value);
      // In place, but with another surface stride: the layouts differ.
      if (std::string(k.why).find("overlaps") != std::string::npos) g.w("CDP.D_DST_SURFACE_STRIDE", 16);
      g.w("CDP.D_OP_ENABLE", 1);
      g.w("CDP_RDMA.D_OP_ENABLE", 1);
      const WaitResult w = dev.wait_interrupt("CDP_0", 1);
      CHECK_FALSE(w.raised);
      CHECK_THAT(w.detail, Catch::Contains(k.why));
      CHECK(dev.memory().read(0x2000, 8) == std::vector<uint8_t>(8, 0));
    }
  }
}

TEST_CASE("golden CDP waits for CDP_RDMA and says so", "[golden_device][cdp]") {
  GoldenDevice dev(dla::golden::nv_small());
  const Regs g{dev, "nv_small"};
  program_lrn3(g);
  g.w("CDP.D_OP_ENABLE", 1);
  const WaitResult w = dev.wait_interrupt("CDP_0", 1);
  CHECK_FALSE(w.raised);
  CHECK_THAT(w.detail, Catch::Contains("waiting for CDP_RDMA group 0 to be armed"));
}
