// RUBIK RTL (rtl/top/nvdla_engine_top.sv (Engine "rubik"), engines/rubik/harness/rubik_rtl.cpp; docs/RUBIK.md "RTL"): every
// bundled rubik layer and generated ones in cross mode (RTL against the golden model) under the
// stress legs, each also judged on the RTL's memory by the independent re-layout reference
// (harness/rubik_reference.hpp: element loops from each mode's meaning); both register groups
// queued, the GLB bits and the stall counters over the CSB; the device's refusals.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/rubik/harness/rubik_reference.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/rubik/harness/rubik_random.hpp"

using namespace dla::harness;
namespace golden = dla::golden;

namespace {

// One layer in cross mode under leg `o`, and the RTL's memory judged by the re-layout reference
// over the whole output region.
void cross_with_reference(const RandomLayer& L, const RunOptions& o) {
  cross_stress::cross_with_reference(L, o, &engines::compile_rubik_layer, &make_rubik_rtl_device,
                                     [](const RandomLayer& layer, const JsonNode& root, const Memory& mem) {
                                       return rubik_ref::compare(rubik_ref::read_layer(root, layer.seed), mem);
                                     });
}

uint32_t addr(const std::string& reg) {
  const RegDb& db = RegDb::nvdla();
  return *db.address("nv_full", *db.find(reg));
}

RunOptions leg0() { return cross_stress::options().front(); }

}  // namespace

TEST_CASE("every bundled rubik layer passes on the RTL against golden and the reference under the stress legs",
          "[rtl][rubik]") {
  for (const RandomLayer& L : cross_stress::bundled_as_random<RandomLayer>("rubik", golden::nv_full(), 25)) {
    for (const RunOptions& o : cross_stress::options()) cross_with_reference(L, o);
  }
}

TEST_CASE("RUBIK RTL equals golden and the reference on 90 generated layers", "[rtl][rubik]") {
  const std::vector<RunOptions> legs = cross_stress::options();
  Rng rng = Rng::derive(15, "rubik_rtl");
  for (int i = 0; i < 90; ++i) {
    RandomLayer L;
    L.unit = "rubik";
    L.name = fmt::format("rubik_rtl_{}", i);
    L.config = &golden::nv_full();
    L.seed = static_cast<uint64_t>(i) + 1;
    L = generate_rubik_layer(golden::nv_full(), L, rng);
    cross_with_reference(L, legs[static_cast<std::size_t>(i) % legs.size()]);
  }
}

// fp16 moves as 16-bit patterns: NaN payloads, infinities, -0 and denormals arrive unchanged (the
// re-layout reference compares every byte).
TEST_CASE("RUBIK RTL equals golden and the reference on 30 generated fp16 layers", "[rtl][rubik][fp16]") {
  const std::vector<RunOptions> legs = cross_stress::options();
  Rng rng = Rng::derive(16, "rubik_rtl_fp16");
  for (int i = 0; i < 30; ++i) {
    RandomLayer L;
    L.unit = "rubik";
    L.name = fmt::format("rubik_rtl_fp16_{}", i);
    L.config = &golden::nv_full();
    L.seed = static_cast<uint64_t>(i) + 1;
    L.focus = "fp16";
    L = generate_rubik_layer(golden::nv_full(), L, rng);
    REQUIRE(L.doc.at("precision") == "fp16");
    cross_with_reference(L, legs[static_cast<std::size_t>(i) % legs.size()]);
  }
}

// Group 0: SPLIT int16 of a 20 x 8 x 17 cube (two surfaces, two atoms per plane line) into planes,
// D_PERF_ENABLE set; group 1: MERGE int16 of those planes into a second cube, D_PERF_ENABLE clear.
// Expected bytes from the modes' meaning: plane c, line h, element w is cube element (c, h, w), the
// plane line's bytes past 20 elements 0; the merged cube is the first one, lanes past 17 0.
TEST_CASE("RUBIK RTL runs both groups queued: S_STATUS, GLB bits 8 and 9, stall counters, the data",
          "[rtl][rubik]") {
  constexpr uint64_t kCube = 0x100000, kPlanes = 0x200000, kOut = 0x300000;
  constexpr int kW = 20, kH = 8, kC = 17;
  constexpr uint64_t kLine = kW * 32, kSurf = kH * kLine, kPlaneLine = 64, kPlanar = kH * kPlaneLine;
  const auto elem = [](int c, int h, int w) { return static_cast<uint16_t>(0x1000 * (c % 16) + 0x40 * h + w + 1); };
  for (const double stall : {0.0, 0.3}) {
    RunOptions o = leg0();
    o.stall = stall;
    const std::unique_ptr<Device> d = make_rubik_rtl_device(golden::nv_full(), o);
    Memory& mem = d->memory();
    for (int c = 0; c < 32; ++c) {  // lanes past C hold garbage the SPLIT must not move
      for (int h = 0; h < kH; ++h) {
        for (int w = 0; w < kW; ++w) {
          const uint64_t a = kCube + static_cast<uint64_t>(c / 16) * kSurf + h * kLine + w * 32 + (c % 16) * 2;
          const uint16_t v = c < kC ? elem(c, h, w) : 0xeeee;
          mem.write(a, static_cast<uint8_t>(v));
          mem.write(a + 1, static_cast<uint8_t>(v >> 8));
        }
      }
    }
    for (uint64_t i = 0; i < kC * kPlanar + 64; ++i) mem.write(kPlanes + i, 0x5a);
    for (uint64_t i = 0; i < 2 * kSurf; ++i) mem.write(kOut + i, 0x5a);
    const auto common = [&](uint32_t misc, uint32_t perf) {
      d->reg_write(addr("RBK.D_MISC_CFG"), misc);
      d->reg_write(addr("RBK.D_DATAIN_SIZE_0"), ((kH - 1) << 16) | (kW - 1));
      d->reg_write(addr("RBK.D_DATAIN_SIZE_1"), kC - 1);
      d->reg_write(addr("RBK.D_DATAOUT_SIZE_1"), kC - 1);
      d->reg_write(addr("RBK.D_PERF_ENABLE"), perf);
    };
    d->reg_write(addr("RBK.S_POINTER"), 0);
    common(0x101, 1);
    d->reg_write(addr("RBK.D_DAIN_ADDR_LOW"), kCube);
    d->reg_write(addr("RBK.D_DAIN_LINE_STRIDE"), kLine);
    d->reg_write(addr("RBK.D_DAIN_SURF_STRIDE"), kSurf);
    d->reg_write(addr("RBK.D_DAOUT_ADDR_LOW"), kPlanes);
    d->reg_write(addr("RBK.D_DAOUT_LINE_STRIDE"), kPlaneLine);
    d->reg_write(addr("RBK.D_DAOUT_PLANAR_STRIDE"), kPlanar);
    d->reg_write(addr("RBK.D_OP_ENABLE"), 1);
    d->reg_write(addr("RBK.S_POINTER"), 1);
    common(0x102, 0);
    d->reg_write(addr("RBK.D_DAIN_ADDR_LOW"), kPlanes);
    d->reg_write(addr("RBK.D_DAIN_LINE_STRIDE"), kPlaneLine);
    d->reg_write(addr("RBK.D_DAIN_PLANAR_STRIDE"), kPlanar);
    d->reg_write(addr("RBK.D_DAOUT_ADDR_LOW"), kOut);
    d->reg_write(addr("RBK.D_DAOUT_LINE_STRIDE"), kLine);
    d->reg_write(addr("RBK.D_DAOUT_SURF_STRIDE"), kSurf);
    CHECK(d->reg_read(addr("RBK.S_STATUS")) == 0x00001);  // group 0 running, group 1 not enabled
    d->reg_write(addr("RBK.D_OP_ENABLE"), 1);
    CHECK(d->reg_read(addr("RBK.S_STATUS")) == 0x20001);  // group 1 pending
    REQUIRE(d->wait_interrupt("RUBIK_0", 100000).raised);
    CHECK((d->reg_read(addr("GLB.S_INTR_STATUS")) & 0x300u) == 0x100u);
    REQUIRE(d->wait_interrupt("RUBIK_1", 100000).raised);
    CHECK((d->reg_read(addr("GLB.S_INTR_STATUS")) & 0x300u) == 0x300u);
    CHECK(d->reg_read(addr("RBK.S_STATUS")) == 0u);
    CHECK(d->reg_read(addr("RBK.S_POINTER")) == 1u);  // PRODUCER 1, CONSUMER back to 0
    CHECK(d->reg_read(addr("RBK.D_OP_ENABLE")) == 0u);
    // Group 1 ran without PERF_EN: 0. Group 0 with it: 0 without back-pressure, some cycles with.
    CHECK(d->reg_read(addr("RBK.D_PERF_READ_STALL")) == 0u);
    CHECK(d->reg_read(addr("RBK.D_PERF_WRITE_STALL")) == 0u);
    d->reg_write(addr("RBK.S_POINTER"), 0);
    const uint32_t rd_stall = d->reg_read(addr("RBK.D_PERF_READ_STALL"));
    const uint32_t wr_stall = d->reg_read(addr("RBK.D_PERF_WRITE_STALL"));
    INFO("stall " << stall << ": read stall " << rd_stall << ", write stall " << wr_stall << ", cycles "
                  << d->cycles());
    if (stall == 0.0) {
      CHECK(rd_stall == 0u);
      CHECK(wr_stall == 0u);
    } else {
      CHECK(rd_stall > 0u);
      CHECK(wr_stall > 0u);
      CHECK(rd_stall + wr_stall < d->cycles());
    }
    int bad = 0;
    for (int c = 0; c < kC; ++c) {
      for (int h = 0; h < kH; ++h) {
        for (int w = 0; w < 32; ++w) {  // two atoms of 16 elements per plane line
          const uint64_t a = kPlanes + c * kPlanar + h * kPlaneLine + w * 2;
          const uint16_t want = w < kW ? elem(c, h, w) : 0;
          bad += (mem.read(a) | (mem.read(a + 1) << 8)) != want;
        }
      }
    }
    for (int c = 0; c < 32; ++c) {
      for (int h = 0; h < kH; ++h) {
        for (int w = 0; w < kW; ++w) {
          const uint64_t a = kOut + static_cast<uint64_t>(c / 16) * kSurf + h * kLine + w * 32 + (c % 16) * 2;
          const uint16_t want = c < kC ? elem(c, h, w) : 0;
          bad += (mem.read(a) | (mem.read(a + 1) << 8)) != want;
        }
      }
    }
    CHECK(bad == 0);
    CHECK(mem.read(kPlanes + kC * kPlanar) == 0x5a);  // nothing past the last plane
  }
}

TEST_CASE("RUBIK RTL device refuses what rubik_core would not do as NVDLA does, naming the register and the rule",
          "[rtl][rubik]") {
  // A CONTRACT int8 layer of 4 x 2 x 8 with sx = sy = 2 at `in`, written at `out`.
  const auto contract = [](Device& d, uint32_t misc, uint32_t in, uint32_t out, uint32_t in_ch, uint32_t out_ch) {
    d.reg_write(addr("RBK.D_MISC_CFG"), misc);
    d.reg_write(addr("RBK.D_DATAIN_SIZE_0"), (1 << 16) | 3);
    d.reg_write(addr("RBK.D_DATAIN_SIZE_1"), in_ch);
    d.reg_write(addr("RBK.D_DATAOUT_SIZE_1"), out_ch);
    d.reg_write(addr("RBK.D_DAIN_ADDR_LOW"), in);
    d.reg_write(addr("RBK.D_DAIN_LINE_STRIDE"), 4 * 32);
    d.reg_write(addr("RBK.D_DAIN_SURF_STRIDE"), 8 * 32);
    d.reg_write(addr("RBK.D_DAIN_PLANAR_STRIDE"), 0x400);
    d.reg_write(addr("RBK.D_CONTRACT_STRIDE_0"), 8 * 32);
    d.reg_write(addr("RBK.D_DECONV_STRIDE"), 0x10001);
    d.reg_write(addr("RBK.D_DAOUT_ADDR_LOW"), out);
    d.reg_write(addr("RBK.D_DAOUT_LINE_STRIDE"), 8 * 32);
    d.reg_write(addr("RBK.D_CONTRACT_STRIDE_1"), 16 * 32);
    d.reg_write(addr("RBK.D_DAOUT_SURF_STRIDE"), 32 * 32);
    d.reg_write(addr("RBK.D_DAOUT_PLANAR_STRIDE"), 0x400);
    d.reg_write(addr("RBK.D_OP_ENABLE"), 1);
  };
  const auto expect_refused = [&](uint32_t misc, uint32_t in, uint32_t out, uint32_t in_ch, uint32_t out_ch,
                                  const std::string& rule) {
    const std::unique_ptr<Device> d = make_rubik_rtl_device(golden::nv_full(), leg0());
    try {
      contract(*d, misc, in, out, in_ch, out_ch);
      FAIL("not refused: " << rule);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find("RBK.D_OP_ENABLE") != std::string::npos);
      CHECK(std::string(e.what()).find(rule) != std::string::npos);
    }
  };
  expect_refused(0x000, 0x100000, 0x100000 + 3 * 32, 31, 7, "is also read as input");  // output meets input
  expect_refused(0x001, 0x100000, 0x200000, 7, 6, "differ; both count the planes");     // SPLIT C != C
  expect_refused(0x300, 0x100000, 0x200000, 31, 7, "IN_PRECISION 3 is reserved");
  expect_refused(0x003, 0x100000, 0x200000, 31, 7, "RUBIK_MODE 3 is reserved");
  expect_refused(0x001, 0x100000, 0x200020, 7, 7, "64-byte aligned");  // planar output at 32 mod 64
  // The same CONTRACT with disjoint regions runs.
  const std::unique_ptr<Device> d = make_rubik_rtl_device(golden::nv_full(), leg0());
  contract(*d, 0x000, 0x100000, 0x200000, 31, 7);
  CHECK(d->wait_interrupt("RUBIK_0", 100000).raised);
  CHECK_THROWS_AS(make_rubik_rtl_device(golden::nv_small(), leg0()), InputError);
}
