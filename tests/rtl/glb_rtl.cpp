// The GLB interrupt block (rtl/glb/nvdla_glb.sv) through its verilated models, driven cycle by
// cycle over CSB: reset values, write-1-to-clear, S_INTR_SET, the mask, the level interrupt and
// same-cycle races; then the GLB inside the SDP-only top through the RTL device (no GLB state
// in the harness). Expected values are written here from the register data
// (regs/nvdla-registers.json, GLB) -- never taken from the RTL.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <filesystem>

#include "Vglb_nv_full.h"
#include "Vglb_nv_small.h"
#include "golden/config.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/report.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "harness/sim.hpp"

using namespace dla::harness;

namespace {

// S_INTR_STATUS bits by hand (GLB field "<UNIT>_DONE_STATUS<g>").
constexpr uint32_t kSdp0 = 1u << 0, kSdp1 = 1u << 1, kCacc1 = 1u << 21;
constexpr uint32_t kDefined = 0x003f03ffu;  // bits 0-9 and 16-21

// Done inputs, one per (unit, group), with the bit each must set.
enum class Src { Sdp, Cdp, Pdp, Bdma, Rubik, CdmaDat, CdmaWt, Cacc };
struct Pulse {
  Src src;
  int group;
};

template <class Model>
class Glb {
 public:
  Glb(uint32_t base, int rand_reset) : base_(base), sim_(options(rand_reset), "nvdla_glb") {
    idle();
    sim_.reset();
  }

  // Register addresses in this model's map.
  [[nodiscard]] uint32_t version() const { return base_ + 0x0; }
  [[nodiscard]] uint32_t mask() const { return base_ + 0x4; }
  [[nodiscard]] uint32_t set() const { return base_ + 0x8; }
  [[nodiscard]] uint32_t status() const { return base_ + 0xc; }

  // One cycle: a CSB write (accepted in this cycle) with optional done pulses in the same cycle.
  void write(uint32_t addr, uint32_t value, std::initializer_list<Pulse> pulses = {}) {
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 1;
    m.csb_req_addr_i = addr;
    m.csb_req_wdata_i = value;
    drive(pulses);
    sim_.settle();
    REQUIRE(m.csb_req_ready_o == 1);
    sim_.tick();
    idle();
    sim_.settle();
    CHECK(m.csb_rsp_valid_o == 0);  // a write has no response
  }

  // A CSB read: the request cycle, then the data in the next cycle.
  uint32_t read(uint32_t addr) {
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 0;
    m.csb_req_addr_i = addr;
    sim_.settle();
    REQUIRE(m.csb_req_ready_o == 1);
    sim_.tick();
    idle();
    sim_.settle();
    REQUIRE(m.csb_rsp_valid_o == 1);
    const uint32_t data = m.csb_rsp_rdata_o;
    sim_.tick();
    sim_.settle();
    CHECK(m.csb_rsp_valid_o == 0);  // one response per read
    return data;
  }

  // One cycle with done pulses and no CSB request.
  void pulse(std::initializer_list<Pulse> pulses) {
    drive(pulses);
    sim_.tick();
    idle();
  }
  void idle_cycles(int n) {
    for (int i = 0; i < n; ++i) sim_.tick();
  }

  bool intr() {
    sim_.settle();
    return sim_.top().intr_o != 0;
  }

 private:
  static SimOptions options(int rand_reset) {
    SimOptions o;
    o.seed = 5;
    o.rand_reset = rand_reset;
    return o;
  }

  void idle() {
    Model& m = sim_.top();
    m.csb_req_valid_i = 0;
    m.csb_req_write_i = 0;
    m.csb_req_addr_i = 0;
    m.csb_req_wdata_i = 0;
    m.sdp_done_i = m.cdp_done_i = m.pdp_done_i = m.bdma_done_i = 0;
    m.rubik_done_i = m.cdma_dat_done_i = m.cdma_wt_done_i = m.cacc_done_i = 0;
  }

  void drive(std::initializer_list<Pulse> pulses) {
    Model& m = sim_.top();
    for (const Pulse& p : pulses) {
      const auto bit = static_cast<uint8_t>(1u << p.group);
      switch (p.src) {
        case Src::Sdp: m.sdp_done_i |= bit; break;
        case Src::Cdp: m.cdp_done_i |= bit; break;
        case Src::Pdp: m.pdp_done_i |= bit; break;
        case Src::Bdma: m.bdma_done_i |= bit; break;
        case Src::Rubik: m.rubik_done_i |= bit; break;
        case Src::CdmaDat: m.cdma_dat_done_i |= bit; break;
        case Src::CdmaWt: m.cdma_wt_done_i |= bit; break;
        case Src::Cacc: m.cacc_done_i |= bit; break;
      }
    }
  }

  uint32_t base_;
  Sim<Model> sim_;
};

template <class Model>
void check_reset(uint32_t base) {
  for (const int rr : {0, 1, 2}) {
    INFO("rand-reset " << rr);
    Glb<Model> g(base, rr);
    CHECK_FALSE(g.intr());
    CHECK(g.read(g.version()) == 0x00303031u);  // MAJOR 0x31 '1', MINOR 0x3030 "00"
    CHECK(g.read(g.mask()) == 0u);
    CHECK(g.read(g.status()) == 0u);
    CHECK(g.read(g.set()) == 0u);
    g.write(g.version(), 0xffffffffu);  // read-only
    CHECK(g.read(g.version()) == 0x00303031u);
  }
}

}  // namespace

TEST_CASE("GLB reset values follow the register data in both maps", "[rtl][glb]") {
  SECTION("nv_small, base 0x1000") { check_reset<Vglb_nv_small>(0x1000); }
  SECTION("nv_full, base 0x0") { check_reset<Vglb_nv_full>(0x0); }
}

TEST_CASE("GLB decodes only its own 4 KiB window", "[rtl][glb]") {
  Glb<Vglb_nv_small> s(0x1000, 0);
  s.write(0x0004, 0x1u);  // nv_full's S_INTR_MASK address: not this map's GLB
  s.write(0x9004, 0x1u);  // SDP's S_POINTER
  CHECK(s.read(s.mask()) == 0u);
  CHECK(s.read(0x0000) == 0u);  // another block's read answers 0 here (the top ORs)
  CHECK(s.read(0x1010) == 0u);  // undefined GLB offset
  Glb<Vglb_nv_full> f(0x0, 0);
  f.write(0x1004, 0x1u);  // nv_small's S_INTR_MASK address
  CHECK(f.read(f.mask()) == 0u);
  CHECK(f.read(0x1000) == 0u);
  f.write(0x0004, 0x1u);
  CHECK(f.read(f.mask()) == 0x1u);
}

TEST_CASE("GLB done pulses set their S_INTR_STATUS bits", "[rtl][glb]") {
  struct Case {
    Pulse p;
    uint32_t bit;
  };
  const Case cases[] = {
      {{Src::Sdp, 0}, 1u << 0},      {{Src::Sdp, 1}, 1u << 1},      {{Src::Cdp, 0}, 1u << 2},
      {{Src::Cdp, 1}, 1u << 3},      {{Src::Pdp, 0}, 1u << 4},      {{Src::Pdp, 1}, 1u << 5},
      {{Src::Bdma, 0}, 1u << 6},     {{Src::Bdma, 1}, 1u << 7},     {{Src::Rubik, 0}, 1u << 8},
      {{Src::Rubik, 1}, 1u << 9},    {{Src::CdmaDat, 0}, 1u << 16}, {{Src::CdmaDat, 1}, 1u << 17},
      {{Src::CdmaWt, 0}, 1u << 18},  {{Src::CdmaWt, 1}, 1u << 19},  {{Src::Cacc, 0}, 1u << 20},
      {{Src::Cacc, 1}, 1u << 21},
  };
  Glb<Vglb_nv_small> g(0x1000, 2);
  uint32_t all = 0;
  for (const Case& c : cases) {
    INFO("expected bit mask " << c.bit);
    g.pulse({c.p});
    g.idle_cycles(3);  // the bit stays set after the pulse
    all |= c.bit;
    CHECK(g.read(g.status()) == all);
    CHECK(g.intr());
  }
  CHECK(all == kDefined);
}

TEST_CASE("GLB S_INTR_STATUS is write-1-to-clear and S_INTR_SET sets", "[rtl][glb]") {
  Glb<Vglb_nv_full> g(0x0, 1);
  g.pulse({{Src::Sdp, 0}, {Src::Cacc, 1}});
  CHECK(g.read(g.status()) == (kSdp0 | kCacc1));
  g.write(g.status(), 0x0u);  // writing 0 changes nothing
  CHECK(g.read(g.status()) == (kSdp0 | kCacc1));
  g.write(g.status(), kSdp0 | kSdp1);  // clears only the written bits that are set
  CHECK(g.read(g.status()) == kCacc1);
  CHECK(g.intr());
  g.write(g.status(), kCacc1);
  CHECK(g.read(g.status()) == 0u);
  CHECK_FALSE(g.intr());

  g.write(g.set(), 0x6u);  // SDP_DONE_SET1, CDP_DONE_SET0
  CHECK(g.read(g.status()) == 0x6u);
  CHECK(g.intr());
  CHECK(g.read(g.set()) == 0u);  // write-only
  g.write(g.set(), 0xffffffffu);  // only the defined fields exist
  CHECK(g.read(g.status()) == kDefined);
  g.write(g.status(), 0xffffffffu);
  CHECK(g.read(g.status()) == 0u);
  CHECK_FALSE(g.intr());
}

TEST_CASE("GLB S_INTR_MASK gates the interrupt line but not the status", "[rtl][glb]") {
  Glb<Vglb_nv_small> g(0x1000, 0);
  g.write(g.mask(), kSdp0);
  CHECK(g.read(g.mask()) == kSdp0);
  g.pulse({{Src::Sdp, 0}});
  CHECK(g.read(g.status()) == kSdp0);  // masked: recorded
  CHECK_FALSE(g.intr());               // but not signalled
  g.write(g.set(), kSdp1);              // an unmasked source raises the line
  CHECK(g.intr());
  g.write(g.status(), kSdp1);
  CHECK_FALSE(g.intr());
  g.write(g.mask(), 0x0u);  // unmasking a pending source raises the line
  CHECK(g.intr());
  g.write(g.mask(), 0xffffffffu);
  CHECK(g.read(g.mask()) == kDefined);
  CHECK_FALSE(g.intr());
  CHECK(g.read(g.status()) == kSdp0);
}

TEST_CASE("GLB done pulse in the same cycle as a clear of another bit keeps both effects", "[rtl][glb]") {
  Glb<Vglb_nv_small> g(0x1000, 2);
  g.write(g.set(), kSdp1);
  g.write(g.status(), kSdp1, {{Src::Sdp, 0}});  // clear SDP_1 while SDP_0 completes
  CHECK(g.read(g.status()) == kSdp0);
  g.write(g.status(), kSdp0, {{Src::Cacc, 1}});
  CHECK(g.read(g.status()) == kCacc1);
}

// Set wins (NVDLA's NV_NVDLA_GLB_ic): a completion in the cycle the driver clears the previous
// one of the same source must not be lost.
TEST_CASE("GLB done pulse and a clear of the same bit in one cycle leave the bit set", "[rtl][glb]") {
  Glb<Vglb_nv_full> g(0x0, 0);
  g.pulse({{Src::Sdp, 0}});
  CHECK(g.read(g.status()) == kSdp0);
  g.write(g.status(), kSdp0, {{Src::Sdp, 0}});
  CHECK(g.read(g.status()) == kSdp0);
  CHECK(g.intr());
  g.write(g.status(), kSdp0);  // a clear alone still clears
  CHECK(g.read(g.status()) == 0u);
  // A clear of a bit that is not set, together with its pulse: set.
  g.write(g.status(), kCacc1, {{Src::Cacc, 1}});
  CHECK(g.read(g.status()) == kCacc1);
}

// The RTL device keeps no GLB state: HW_VERSION comes from the RTL (the harness used to answer 0),
// S_INTR_SET / S_INTR_STATUS go to the RTL, and an interrupt of a unit the top does not contain
// can still be raised by software.
TEST_CASE("RTL device reads and writes the GLB of the SDP top over CSB", "[rtl][glb]") {
  for (const auto* hw : {&dla::golden::nv_small(), &dla::golden::nv_full()}) {
    INFO(hw->name);
    const uint32_t base = hw->name == "nv_small" ? 0x1000u : 0x0u;
    RunOptions o;
    o.seed = 3;
    o.stall = 0.3;
    o.sim.rand_reset = 2;
    std::string why;
    const auto dev = make_rtl_device({"SDP", "SDP_RDMA"}, *hw, o, why);
    REQUIRE(dev != nullptr);
    CHECK(dev->reg_read(base + 0x0) == 0x00303031u);
    CHECK(dev->reg_read(base + 0x4) == 0u);
    CHECK_FALSE(dev->interrupt_pending("SDP_1"));
    dev->reg_write(base + 0x8, kSdp1);
    CHECK(dev->interrupt_pending("SDP_1"));
    CHECK(dev->reg_read(base + 0xc) == kSdp1);
    CHECK(dev->wait_interrupt("SDP_1", 10).raised);
    dev->reg_write(base + 0xc, kSdp1);
    CHECK_FALSE(dev->interrupt_pending("SDP_1"));

    const WaitResult none = dev->wait_interrupt("CDP_0", 1000);
    CHECK_FALSE(none.raised);
    CHECK_THAT(none.detail, Catch::Contains("does not contain"));
    dev->reg_write(base + 0x4, 1u << 2);  // masked and set by software: still raised
    dev->reg_write(base + 0x8, 1u << 2);
    CHECK(dev->wait_interrupt("CDP_0", 10).raised);
    CHECK(dev->reg_read(base + 0xc) == (1u << 2));
  }
}

// A layer whose own interrupt is masked: the line never rises, the status bit does, and the
// wait finds it by polling S_INTR_STATUS (as the golden device does).
TEST_CASE("RTL device waits for a masked interrupt through S_INTR_STATUS", "[rtl][glb]") {
  const std::filesystem::path cfg = std::filesystem::path(DLA_SHARED_DIR) / "nvdla-traces" / "nv_small" /
                                    "sdp_3x3x33_bn_int8_reg_0" / "sdp_3x3x33_bn_int8_reg_0.cfg";
  Program p = import_nvdla_cfg(cfg, "nv_small");
  const RegDb& db = RegDb::nvdla();
  ProgramStep mask;
  mask.op = StepOp::RegWrite;
  mask.where = "test: mask SDP_0 and SDP_1";
  mask.reg = db.find("GLB.S_INTR_MASK");
  REQUIRE(mask.reg != nullptr);
  mask.value = 0x3u;
  p.steps.insert(p.steps.begin(), mask);
  ProgramStep version;
  version.op = StepOp::RegRead;
  version.where = "test: hardware version";
  version.reg = db.find("GLB.S_NVDLA_HW_VERSION");
  REQUIRE(version.reg != nullptr);
  version.value = 0x00303031u;
  p.steps.push_back(version);
  for (const int rr : {0, 1, 2}) {
    RunOptions o;
    o.mode = "cross";
    o.seed = 17;
    o.stall = 0.3;
    o.sim.seed = 17;
    o.sim.rand_reset = rr;
    const RunResult r = run_program_in_mode(p, dla::golden::nv_small(), o);
    INFO("rand-reset " << rr << "\n" << format_run(r));
    CHECK(r.status == Status::Pass);
  }
}
