// After reset, every D_ register of both register groups reads its NVDLA reset value (the
// register database, regs/nvdla-registers.json), also when the model starts from all-ones or
// random flip-flop values (rand-reset 1 and 2). Verilator 5.006 once left the upper words of a
// packed register file unreset (VL_CONSTHI_W_*: group 1's zero-reset registers read 0xffffffff
// under rand-reset 1) and zeroed memory past its end; dla_group_regs resets its words one 32-bit
// word at a time since (docs/RTL_CONVENTIONS.md).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/regdb.hpp"
#include "tops/rtl_devices.hpp"

using namespace dla::harness;
namespace golden = dla::golden;

namespace {

// Reads every D_ register of `blocks` in group 0 and in group 1 (S_POINTER.PRODUCER selects the
// group CSB reads and writes) and checks it against its reset value; returns the registers checked.
int check_reset_values(Device& dev, const golden::HwConfig& hw, const std::vector<std::string>& blocks) {
  const RegDb& db = RegDb::nvdla();
  int checked = 0;
  for (const std::string& name : blocks) {
    const RegBlock* b = db.block(name);
    REQUIRE(b != nullptr);
    const RegDef& pointer = b->regs.at("S_POINTER");
    for (const uint32_t group : {0u, 1u}) {
      dev.reg_write(*db.address(hw.name, pointer), group);
      for (const auto& [reg_name, r] : b->regs) {
        if (!r.dual) continue;
        INFO(hw.name << " " << name << "." << reg_name << " group " << group);
        CHECK(dev.reg_read(*db.address(hw.name, r)) == r.reset);
        ++checked;
      }
    }
    dev.reg_write(*db.address(hw.name, pointer), 0);
  }
  return checked;
}

}  // namespace

TEST_CASE("RTL register groups read their reset values after reset, from any initial flip-flop values",
          "[rtl][regs]") {
  for (const golden::HwConfig* hw : {&golden::nv_small(), &golden::nv_full()}) {
    for (const int rr : {1, 2}) {
      INFO("rand-reset " << rr);
      RunOptions o;
      o.sim.rand_reset = rr;
      o.sim.seed = 7;
      std::string why;
      auto core = make_nvdla_core_device(nvdla_core_blocks(), *hw, o, why);
      REQUIRE(core != nullptr);
      // Every D_ register of the convolution blocks, SDP, SDP_RDMA, PDP and PDP_RDMA, both groups.
      CHECK(check_reset_values(*core, *hw, nvdla_core_blocks()) > 400);
      auto cdp = make_cdp_rtl_device(*hw, o);
      REQUIRE(cdp != nullptr);
      CHECK(check_reset_values(*cdp, *hw, {"CDP", "CDP_RDMA"}) > 40);
    }
  }
}
