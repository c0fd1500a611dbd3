// NVDLA's own PDP trace tests (../shared/nvdla-traces: every pdp_* and sdp_pdp_* test), replayed on
// the golden device: each must reproduce NVIDIA's CRC on its own configuration. Also the golden
// device's PDP / PDP_RDMA blocks: either enable order, S_STATUS, the PDP_DONE bits, group 1,
// on-the-fly waiting for SDP, and refusals that name the register and the rule (docs/PDP.md).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden_traces.hpp"
#include "harness/golden_device.hpp"

using namespace dla::harness;
using dla::harness::testing::check_golden_traces;
using dla::harness::testing::Regs;

namespace {

// A 4x2x8 int8 cube at 0x1000 (one nv_small surface, packed), element (c, h, w) = 10*w + h - c,
// pooled 2x2 stride 2 (max) into 2x1 at 0x2000. Register values worked from pdp-cdp-bdma-rubik.md §2.
void program_max_2x2(const Regs& g) {
  for (int h = 0; h < 2; ++h) {
    for (int w = 0; w < 4; ++w) {
      for (int c = 0; c < 8; ++c) {
        g.dev.memory().write(0x1000 + static_cast<uint64_t>(h * 32 + w * 8 + c), static_cast<uint8_t>(10 * w + h - c));
      }
    }
  }
  for (const std::string b : {"PDP_RDMA", "PDP"}) {
    g.w(b + ".D_DATA_CUBE_IN_WIDTH", 3);
    g.w(b + ".D_DATA_CUBE_IN_HEIGHT", 1);
    g.w(b + ".D_DATA_CUBE_IN_CHANNEL", 7);
  }
  g.w("PDP_RDMA.D_SRC_BASE_ADDR_LOW", 0x1000);
  g.w("PDP_RDMA.D_SRC_LINE_STRIDE", 32);
  g.w("PDP_RDMA.D_SRC_SURFACE_STRIDE", 64);
  g.w("PDP_RDMA.D_SRC_RAM_CFG", 1);  // MC (reset 0 is CV-SRAM, which nv_small lacks)
  g.w("PDP_RDMA.D_FLYING_MODE", 1);
  g.w("PDP_RDMA.D_POOLING_KERNEL_CFG", 0x11);  // kernel width 2, stride 2
  g.w("PDP.D_DATA_CUBE_OUT_WIDTH", 1);
  g.w("PDP.D_DATA_CUBE_OUT_HEIGHT", 0);
  g.w("PDP.D_DATA_CUBE_OUT_CHANNEL", 7);
  g.w("PDP.D_OPERATION_MODE_CFG", 0x11);       // MAX, OFF_FLYING, no split
  g.w("PDP.D_POOLING_KERNEL_CFG", 0x110101);   // 2x2, stride 2x2
  g.w("PDP.D_DST_BASE_ADDR_LOW", 0x2000);
  g.w("PDP.D_DST_LINE_STRIDE", 16);
  g.w("PDP.D_DST_SURFACE_STRIDE", 16);
  g.w("PDP.D_DST_RAM_CFG", 1);
}

// Max over w in {2j, 2j+1}, h in {0, 1}: 10*(2j+1) + 1 - c.
std::vector<uint8_t> max_2x2_expected() {
  std::vector<uint8_t> v;
  for (int j = 0; j < 2; ++j) {
    for (int c = 0; c < 8; ++c) v.push_back(static_cast<uint8_t>(10 * (2 * j + 1) + 1 - c));
  }
  return v;
}

}  // namespace

TEST_CASE("nv_small PDP traces reproduce NVDLA's CRCs on the golden model", "[traces][pdp]") {
  check_golden_traces("nv_small", dla::golden::nv_small(), {"pdp_", "sdp_pdp_"}, 10);
}

TEST_CASE("nv_large PDP traces reproduce NVDLA's CRCs on the golden model", "[traces][pdp]") {
  check_golden_traces("nv_large", dla::golden::nv_large(), {"pdp_", "sdp_pdp_"}, 1);
}

TEST_CASE("golden PDP runs in either enable order and raises PDP_DONE of its group", "[golden_device][pdp]") {
  for (const bool rdma_first : {false, true}) {
    DYNAMIC_SECTION((rdma_first ? "PDP_RDMA first" : "PDP first")) {
      GoldenDevice dev(dla::golden::nv_small());
      const Regs g{dev, "nv_small"};
      program_max_2x2(g);
      g.w(rdma_first ? "PDP_RDMA.D_OP_ENABLE" : "PDP.D_OP_ENABLE", 1);
      CHECK(dev.layers().empty());
      CHECK_FALSE(dev.wait_interrupt("PDP_0", 1).raised);
      g.w(rdma_first ? "PDP.D_OP_ENABLE" : "PDP_RDMA.D_OP_ENABLE", 1);
      CHECK(dev.memory().read(0x2000, 16) == max_2x2_expected());
      CHECK(g.r("PDP.S_STATUS") == 1u);  // running until the program waits
      CHECK(dev.wait_interrupt("PDP_0", 1).raised);
      CHECK(g.r("GLB.S_INTR_STATUS") == (1u << 4));  // PDP_DONE_STATUS0
      CHECK(g.r("PDP.S_STATUS") == 0u);
      CHECK(g.r("PDP.D_OP_ENABLE") == 0u);
      CHECK(g.r("PDP.S_POINTER") == (1u << 16));  // consumer toggled
      CHECK(g.r("PDP_RDMA.S_POINTER") == (1u << 16));
      CHECK(g.r("PDP.D_NAN_INPUT_NUM") == 0u);
      CHECK(g.r("PDP.D_INF_INPUT_NUM") == 0u);
      CHECK(g.r("PDP.D_PERF_WRITE_STALL") == 0u);
    }
  }
}

TEST_CASE("golden PDP group 1 raises bit 5", "[golden_device][pdp]") {
  GoldenDevice dev(dla::golden::nv_small());
  const Regs g{dev, "nv_small"};
  // Group 0 first (the consumer), then group 1 with the same program.
  program_max_2x2(g);
  g.w("PDP.D_OP_ENABLE", 1);
  g.w("PDP_RDMA.D_OP_ENABLE", 1);
  REQUIRE(dev.wait_interrupt("PDP_0", 1).raised);
  g.w("PDP.S_POINTER", 1);
  g.w("PDP_RDMA.S_POINTER", 1);
  program_max_2x2(g);
  g.w("PDP.D_DST_BASE_ADDR_LOW", 0x3000);
  g.w("PDP.D_OP_ENABLE", 1);
  g.w("PDP_RDMA.D_OP_ENABLE", 1);
  REQUIRE(dev.wait_interrupt("PDP_1", 1).raised);
  CHECK(g.r("GLB.S_INTR_STATUS") == ((1u << 4) | (1u << 5)));
  CHECK(dev.memory().read(0x3000, 16) == max_2x2_expected());
}

TEST_CASE("golden PDP refuses what NVDLA cannot do, naming the register and the rule", "[golden_device][pdp]") {
  struct Case {
    const char* reg;
    uint32_t value;
    const char* why;
  };
  const std::vector<Case> cases = {
      {"PDP.D_POOLING_KERNEL_CFG", 0x110108, "KERNEL_WIDTH 9 exceeds"},
      {"PDP.D_DATA_FORMAT", 2, "nv_small has no fp16"},
      {"PDP.D_DATA_FORMAT", 1, "nv_small has no int16"},
      {"PDP.D_POOLING_PADDING_CFG", 0x2, "PAD_LEFT (2) and PAD_RIGHT (0) must be less than the kernel width 2"},
      {"PDP.D_DATA_CUBE_OUT_WIDTH", 2, "D_DATA_CUBE_OUT_WIDTH (3) must be"},
      {"PDP_RDMA.D_POOLING_KERNEL_CFG", 0x01, "PDP_RDMA D_POOLING_KERNEL_CFG"},
      {"PDP.D_OPERATION_MODE_CFG", 0x111, "D_PARTIAL_WIDTH_IN"},
  };
  for (const auto& k : cases) {
    DYNAMIC_SECTION(k.why) {
      GoldenDevice dev(dla::golden::nv_small());
      const Regs g{dev, "nv_small"};
      program_max_2x2(g);
      g.w(k.reg, k.value);
      g.w("PDP.D_OP_ENABLE", 1);
      g.w("PDP_RDMA.D_OP_ENABLE", 1);
      const WaitResult w = dev.wait_interrupt("PDP_0", 1);
      CHECK_FALSE(w.raised);
      CHECK_THAT(w.detail, Catch::Contains(k.why));
      CHECK(dev.memory().read(0x2000, 16) == std::vector<uint8_t>(16, 0));
    }
  }
}

TEST_CASE("golden PDP on the fly waits for SDP and says so", "[golden_device][pdp]") {
  GoldenDevice dev(dla::golden::nv_small());
  const Regs g{dev, "nv_small"};
  program_max_2x2(g);
  g.w("PDP.D_OPERATION_MODE_CFG", 0x01);  // MAX, ON_FLYING
  g.w("PDP.D_OP_ENABLE", 1);
  const WaitResult w = dev.wait_interrupt("PDP_0", 1);
  CHECK_FALSE(w.raised);
  CHECK_THAT(w.detail, Catch::Contains("on the fly from SDP"));
  CHECK_THAT(w.detail, Catch::Contains("SDP group 0 is not armed"));
}
