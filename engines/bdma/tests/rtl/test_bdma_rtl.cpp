// BDMA RTL (rtl/top/nvdla_engine_top.sv (Engine "bdma"), engines/bdma/harness/bdma_rtl.cpp; docs/BDMA.md): every bundled
// bdma layer and generated ones in cross mode (RTL against the golden model) under the stress legs,
// each also judged by the memcpy reference of the random generator (engines/bdma/harness/bdma_random.cpp,
// from ../shared/reference/pdp-cdp-bdma-rubik.md §5) on the RTL's memory; STATUS / FREE_SLOT over
// the CSB; the device's refusals, and the group rules refused exactly where the golden device
// refuses them.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/bdma/harness/bdma.hpp"
#include "harness/program_builder.hpp"
#include "engines/bdma/harness/bdma_random.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;
namespace golden = dla::golden;

namespace {

// One layer in cross mode under leg `o`: passes, and the RTL's memory agrees with the memcpy
// reference over every byte the program initialized or a command wrote.
void cross_with_reference(const RandomLayer& L, const RunOptions& o) {
  cross_stress::cross_with_reference(L, o, &engines::compile_bdma_layer, &make_bdma_rtl_device, &bdma_reference_diff);
}

uint32_t addr(const std::string& reg) {
  const RegDb& db = RegDb::nvdla();
  return *db.address("nv_full", *db.find(reg));
}

RunOptions leg0() { return cross_stress::options().front(); }

}  // namespace

TEST_CASE("every bundled bdma layer passes on the RTL against golden and memcpy under the stress legs",
          "[rtl][bdma]") {
  for (const RandomLayer& L : cross_stress::bundled_as_random<RandomLayer>("bdma", golden::nv_full(), 16)) {
    for (const RunOptions& o : cross_stress::options()) cross_with_reference(L, o);
  }
}

TEST_CASE("BDMA RTL equals golden and memcpy on 50 generated layers", "[rtl][bdma]") {
  const std::vector<RunOptions> legs = cross_stress::options();
  Rng rng = Rng::derive(15, "bdma_rtl");
  for (int i = 0; i < 50; ++i) {
    RandomLayer L;
    L.unit = "bdma";
    L.name = fmt::format("bdma_rtl_{}", i);
    L.config = &golden::nv_full();
    L.seed = static_cast<uint64_t>(i) + 1;
    L = generate_bdma_layer(golden::nv_full(), L, rng);
    cross_with_reference(L, legs[static_cast<std::size_t>(i) % legs.size()]);
  }
}

TEST_CASE("BDMA RTL over the CSB: STATUS, FREE_SLOT, groups busy until the done interrupt, the copy", "[rtl][bdma]") {
  const std::unique_ptr<Device> d = make_bdma_rtl_device(golden::nv_full(), leg0());
  Memory& mem = d->memory();
  for (uint64_t i = 0; i < 3 * 64; ++i) mem.write(0x100000 + i, static_cast<uint8_t>(i * 7 + 1));
  CHECK(d->reg_read(addr("BDMA.STATUS")) == 0x114u);  // reset: 20 free slots, idle
  // Three commands of 64 bytes (CFG_LINE.SIZE 1), one line each, 0x100000 + 64k -> 0x200000 + 128k.
  for (uint32_t k = 0; k < 3; ++k) {
    d->reg_write(addr("BDMA.CFG_SRC_ADDR_LOW"), 0x100000 + 64 * k);
    d->reg_write(addr("BDMA.CFG_DST_ADDR_LOW"), 0x200000 + 128 * k);
    d->reg_write(addr("BDMA.CFG_LINE"), 1);
    d->reg_write(addr("BDMA.CFG_CMD"), 3);
    d->reg_write(addr("BDMA.CFG_LINE_REPEAT"), 0);
    d->reg_write(addr("BDMA.CFG_SRC_LINE"), 64);
    d->reg_write(addr("BDMA.CFG_DST_LINE"), 64);
    d->reg_write(addr("BDMA.CFG_SURF_REPEAT"), 0);
    d->reg_write(addr("BDMA.CFG_OP"), 1);
    CHECK(d->reg_read(addr("BDMA.STATUS")) == 20u - (k + 1));  // FREE_SLOT, not idle, no group busy
  }
  // Defined bits only: V32[31:5] of an address, ADDR_HIGH[7:0], LINE.SIZE[12:0].
  d->reg_write(addr("BDMA.CFG_SRC_ADDR_HIGH"), 0xffffffffu);
  CHECK(d->reg_read(addr("BDMA.CFG_SRC_ADDR_HIGH")) == 0xffu);
  d->reg_write(addr("BDMA.CFG_SRC_ADDR_HIGH"), 0);
  CHECK(d->reg_read(addr("BDMA.CFG_SRC_ADDR_LOW")) == 0x100080u);
  d->reg_write(addr("BDMA.CFG_STATUS"), 1);
  CHECK(d->reg_read(addr("BDMA.CFG_STATUS")) == 1u);
  d->reg_write(addr("BDMA.CFG_LAUNCH1"), 1);
  CHECK((d->reg_read(addr("BDMA.STATUS")) & 0x700u) == 0x400u);  // GRP1_BUSY, not idle
  CHECK(d->reg_read(addr("BDMA.CFG_LAUNCH1")) == 0u);            // triggers read 0
  REQUIRE(d->wait_interrupt("BDMA_1", 100000).raised);
  CHECK(d->reg_read(addr("BDMA.STATUS")) == 0x114u);
  CHECK_FALSE(d->interrupt_pending("BDMA_0"));
  for (uint64_t k = 0; k < 3; ++k) {
    for (uint64_t i = 0; i < 64; ++i) {
      INFO("command " << k << " byte " << i);
      CHECK(mem.read(0x200000 + 128 * k + i) == static_cast<uint8_t>((64 * k + i) * 7 + 1));
      CHECK(mem.read(0x200000 + 128 * k + 64 + i) == 0);  // the gap is not written
    }
  }
}

TEST_CASE("BDMA RTL stall counters: counted per group under back-pressure while STALL_COUNT_EN, 0 otherwise",
          "[rtl][bdma]") {
  // One group-0 launch of a 16-line copy (64 bytes a line) with the counters enabled or not and
  // the DMA ports back-pressured or not; the counters are read over the CSB after the interrupt.
  struct Stalls {
    uint32_t rd0, wr0, rd1, wr1;
    uint64_t cycles;
  };
  const auto run = [](double stall, bool enable) {
    RunOptions o = leg0();
    o.stall = stall;
    const std::unique_ptr<Device> d = make_bdma_rtl_device(golden::nv_full(), o);
    for (uint64_t i = 0; i < 16 * 64; ++i) d->memory().write(0x100000 + i, static_cast<uint8_t>(i * 5 + 3));
    d->reg_write(addr("BDMA.CFG_STATUS"), enable ? 1u : 0u);
    d->reg_write(addr("BDMA.CFG_SRC_ADDR_LOW"), 0x100000);
    d->reg_write(addr("BDMA.CFG_DST_ADDR_LOW"), 0x200000);
    d->reg_write(addr("BDMA.CFG_LINE"), 1);
    d->reg_write(addr("BDMA.CFG_CMD"), 3);
    d->reg_write(addr("BDMA.CFG_LINE_REPEAT"), 15);
    d->reg_write(addr("BDMA.CFG_SRC_LINE"), 64);
    d->reg_write(addr("BDMA.CFG_DST_LINE"), 64);
    d->reg_write(addr("BDMA.CFG_SURF_REPEAT"), 0);
    d->reg_write(addr("BDMA.CFG_OP"), 1);
    d->reg_write(addr("BDMA.CFG_LAUNCH0"), 1);
    REQUIRE(d->wait_interrupt("BDMA_0", 200000).raised);
    for (uint64_t i = 0; i < 16 * 64; ++i) REQUIRE(d->memory().read(0x200000 + i) == static_cast<uint8_t>(i * 5 + 3));
    return Stalls{d->reg_read(addr("BDMA.STATUS_GRP0_READ_STALL")), d->reg_read(addr("BDMA.STATUS_GRP0_WRITE_STALL")),
                  d->reg_read(addr("BDMA.STATUS_GRP1_READ_STALL")), d->reg_read(addr("BDMA.STATUS_GRP1_WRITE_STALL")),
                  d->cycles()};
  };
  {
    // no back-pressure: no request waits, so nothing is counted even when enabled
    const Stalls s = run(0.0, true);
    CHECK(s.rd0 == 0u);
    CHECK(s.wr0 == 0u);
    CHECK(s.rd1 == 0u);
    CHECK(s.wr1 == 0u);
  }
  {
    // back-pressure on every DMA handshake: group 0's requests wait and are counted, group 1 ran
    // nothing; a counter never exceeds the cycles run
    const Stalls s = run(0.3, true);
    INFO("read stall " << s.rd0 << " write stall " << s.wr0 << " cycles " << s.cycles);
    CHECK(s.rd0 > 0u);
    CHECK(s.wr0 > 0u);
    CHECK(s.rd0 < s.cycles);
    CHECK(s.wr0 < s.cycles);
    CHECK(s.rd1 == 0u);
    CHECK(s.wr1 == 0u);
  }
  {
    // the same back-pressure with STALL_COUNT_EN clear: nothing counted
    const Stalls s = run(0.3, false);
    CHECK(s.rd0 == 0u);
    CHECK(s.wr0 == 0u);
    CHECK(s.rd1 == 0u);
    CHECK(s.wr1 == 0u);
  }
}

TEST_CASE("BDMA RTL device refuses what bdma_core would not do as NVDLA does, naming the register and the rule",
          "[rtl][bdma]") {
  const auto expect_refused = [](auto&& program, const std::string& reg, const std::string& rule) {
    const std::unique_ptr<Device> d = make_bdma_rtl_device(golden::nv_full(), leg0());
    try {
      program(*d);
      FAIL("not refused: " << rule);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(reg) != std::string::npos);
      CHECK(std::string(e.what()).find(rule) != std::string::npos);
    }
  };
  const auto command = [](Device& d, uint32_t src, uint32_t dst, uint32_t line_units) {
    d.reg_write(addr("BDMA.CFG_SRC_ADDR_LOW"), src);
    d.reg_write(addr("BDMA.CFG_DST_ADDR_LOW"), dst);
    d.reg_write(addr("BDMA.CFG_LINE"), line_units - 1);
    d.reg_write(addr("BDMA.CFG_SRC_LINE"), 32 * line_units);
    d.reg_write(addr("BDMA.CFG_DST_LINE"), 32 * line_units);
    d.reg_write(addr("BDMA.CFG_OP"), 1);
  };
  expect_refused([](Device& d) { d.reg_write(addr("BDMA.CFG_LAUNCH0"), 1); }, "BDMA.CFG_LAUNCH0",
                 "no command pushed since the previous launch");
  expect_refused(
      [&](Device& d) {
        for (uint32_t k = 0; k < 21; ++k) command(d, 0x100000 + 0x1000 * k, 0x200000 + 0x1000 * k, 1);
      },
      "BDMA.CFG_OP", "20 commands are pushed and not launched");
  expect_refused([&](Device& d) { command(d, 0x100000, 0x100020, 2); }, "BDMA.CFG_OP", "meets bytes another line");
  expect_refused(
      [&](Device& d) {
        command(d, 0x100000, 0x200000, 1);
        command(d, 0x200000, 0x300000, 1);
      },
      "BDMA.CFG_OP", "meets bytes another line");
  expect_refused(
      [&](Device& d) {
        d.reg_write(addr("BDMA.CFG_LINE_REPEAT"), 0x2000);
        command(d, 0x100000, 0x200000, 1);
      },
      "BDMA.CFG_OP", "bits [23:13] are reserved");
  expect_refused(
      [&](Device& d) {
        command(d, 0x100000, 0x200000, 1);
        d.reg_write(addr("BDMA.CFG_CMD"), 2);
        command(d, 0x110000, 0x210000, 1);
        d.reg_write(addr("BDMA.CFG_LAUNCH1"), 1);
      },
      "BDMA.CFG_LAUNCH1", "same CFG_CMD.DST_RAM_TYPE");
  // Reading one source twice is fine.
  const std::unique_ptr<Device> d = make_bdma_rtl_device(golden::nv_full(), leg0());
  command(*d, 0x100000, 0x200000, 1);
  command(*d, 0x100000, 0x300000, 1);
  d->reg_write(addr("BDMA.CFG_LAUNCH0"), 1);
  CHECK(d->wait_interrupt("BDMA_0", 100000).raised);
  CHECK_THROWS_AS(make_bdma_rtl_device(golden::nv_small(), leg0()), InputError);
}

namespace {

// A program of group operations: 'c' n: one 32-byte command n (its own source and destination);
// 'L' g: CFG_LAUNCHg; 'W' g: wait for BDMA_g (acknowledged, as every wait_intr); 'A': a wait on the
// interrupt line (no acknowledge). `at[i]`: the step of operation i's last register write.
struct GroupOp {
  char kind;
  int n;
};

Program group_program(const std::vector<GroupOp>& ops, std::vector<std::size_t>& at) {
  LayerHeader h;
  h.file = "bdma-groups";
  h.name = "bdma_groups";
  h.config = &golden::nv_full();
  engines::ProgramBuilder b(h);
  std::vector<uint8_t> src(0x8000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 13 + 5);
  b.load(0x100000, std::move(src), "sources");
  const auto w = [&](const char* r, uint32_t v) { b.write(b.reg("BDMA", r), v); };
  for (const GroupOp& op : ops) {
    switch (op.kind) {
      case 'c':
        w("CFG_SRC_ADDR_LOW", 0x100000 + 0x1000 * static_cast<uint32_t>(op.n));
        w("CFG_DST_ADDR_LOW", 0x200000 + 0x1000 * static_cast<uint32_t>(op.n));
        w("CFG_LINE", 0);
        w("CFG_CMD", 3);
        w("CFG_SRC_LINE", 32);
        w("CFG_DST_LINE", 32);
        w("CFG_OP", 1);
        break;
      case 'L':
        w(op.n == 0 ? "CFG_LAUNCH0" : "CFG_LAUNCH1", 1);
        break;
      case 'W':
        b.wait_intr(op.n == 0 ? "BDMA_0" : "BDMA_1");
        break;
      default:
        b.add(StepOp::WaitAny, "wait");
    }
    at.push_back(b.program().steps.size() - 1);
  }
  return b.program();
}

// The program on the golden device and on the RTL device: both pass (refused_op < 0), or both
// refuse operation `refused_op` with `rule`.
void same_refusal(const std::vector<GroupOp>& ops, int refused_op, const std::string& rule) {
  std::vector<std::size_t> at;
  const Program p = group_program(ops, at);
  for (const char* mode : {"golden", "rtl"}) {
    RunOptions o = leg0();
    o.mode = mode;
    const RunResult r = run_program_in_mode(p, golden::nv_full(), o);
    INFO(mode << ": " << r.message);
    if (refused_op < 0) {
      CHECK(r.status == Status::Pass);
    } else {
      CHECK(r.status == Status::BadInput);
      const std::size_t step = at[static_cast<std::size_t>(refused_op)];
      CHECK_THAT(r.message, Catch::Contains(fmt::format("compiled step {} (", step)));
      CHECK_THAT(r.message, Catch::Contains(rule));
    }
  }
}

}  // namespace

TEST_CASE("BDMA RTL device refuses a CFG_OP while both groups are busy and a busy group's launch where golden does",
          "[rtl][bdma]") {
  const std::string both = "written while both groups are busy";
  // Both groups launched, no wait: the next CFG_OP.
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 1}, {'c', 2}}, 4, both);
  // Group 0 launched again before its interrupt was waited for.
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 0}}, 3, "written while group 0 is busy");
  // The wait for BDMA_0 frees group 0 only: a command is taken, group 1 launched again is not.
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 1}, {'W', 0}, {'c', 2}, {'L', 1}}, 6,
               "written while group 1 is busy");
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 1}, {'W', 0}, {'c', 2}, {'L', 0}, {'c', 3}}, 7, both);
  // A wait on the line frees the oldest launch (group 0) only.
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 1}, {'A', 0}, {'c', 2}, {'L', 0}, {'c', 3}}, 7, both);
  // The wait for BDMA_1 frees both (launches complete in launch order): everything is taken.
  same_refusal({{'c', 0}, {'L', 0}, {'c', 1}, {'L', 1}, {'W', 1}, {'c', 2}, {'L', 0}, {'c', 3}, {'L', 1}, {'W', 0},
                {'W', 1}},
               -1, "");
}
