// The verilated RUBIK (rtl/top/nvdla_engine_top.sv (Engine "rubik"): rubik_core and the GLB) as an RTL device for
// register programs whose only enabled block is RBK (nv_full only, as in NVDLA; docs/RUBIK.md).
#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "Vrubik_nv_full.h"
#include "golden/nvdla_regs.hpp"
#include "engines/rubik/golden/rubik.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_device.hpp"
#include "tops/rtl_devices.hpp"

namespace dla::harness {

namespace {

namespace rb = golden::regs::rbk;

// Mirrors the CSB writes to RBK (S_POINTER.PRODUCER, both groups' D_ registers) and, when a
// group's D_OP_ENABLE.OP_EN is written 1, refuses (InputError naming the register and the rule)
// what rubik_core does not compute as NVDLA does: everything golden::RubikConfig::unsupported
// names (reserved codes, SPLIT / MERGE with DATAIN_CHANNEL != DATAOUT_CHANNEL, planar data
// not 64-byte aligned, CONTRACT W·sx > 8192) and layers whose written atoms meet each other or
// the atoms read (rubik_core reads ahead of its writes, so the result would depend on its
// timing). The check is the golden model's own atom-level walk on a zero memory, values unused.
// The mirror takes every write; the hardware drops writes to a group whose OP_EN is set, so a
// program rewriting a running group's registers is checked as written (rubik layers never do).
class RubikGuard {
 public:
  explicit RubikGuard(const golden::HwConfig& hw) : hw_(&hw) {
    const RegDb& db = RegDb::nvdla();
    base_ = *db.address(hw.name, *db.find("RBK.S_STATUS"));
    for (auto& g : d_) {
      g.fill(0);
      g[word(rb::D_MISC_CFG::offset)] = rb::D_MISC_CFG::reset;
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    if (addr < base_ || addr >= base_ + 0x1000) return;
    const uint32_t off = addr - base_;
    if (off == rb::S_POINTER::offset) {
      producer_ = static_cast<int>(value & 1u);
    } else if (off >= rb::dual_group_start && off <= rb::D_PERF_WRITE_STALL::offset && off % 4 == 0) {
      d_[static_cast<std::size_t>(producer_)][word(off)] = value;
      if (off == rb::D_OP_ENABLE::offset && (value & 1u) != 0) check(producer_);
    }
  }

 private:
  static constexpr std::size_t kWords = (rb::D_PERF_WRITE_STALL::offset - rb::dual_group_start) / 4 + 1;
  static std::size_t word(uint32_t off) { return (off - rb::dual_group_start) / 4; }

  void check(int g) const {
    const auto& regs = d_[static_cast<std::size_t>(g)];
    const golden::RubikConfig c = golden::decode_rubik([&](uint32_t off) { return regs[word(off)]; });
    try {
      (void)golden::run_rubik(c, *hw_, [](uint64_t) { return uint8_t{0}; }, [](uint64_t, uint8_t) {});
    } catch (const std::invalid_argument& e) {
      throw InputError("RBK.D_OP_ENABLE", fmt::format("group {}", g),
                       fmt::format("this RTL (nvdla_rubik_top) refuses the layer ({}): {}", golden::rubik_describe(c),
                                   e.what()));
    }
  }

  const golden::HwConfig* hw_;
  uint32_t base_ = 0;
  int producer_ = 0;
  std::array<std::array<uint32_t, kWords>, 2> d_{};
};

}  // namespace

std::unique_ptr<Device> make_rubik_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt) {
  if (cfg.name != "nv_full") {
    throw InputError("--config", "", fmt::format("{} has no RUBIK (nv_full only, as in NVDLA)", cfg.name));
  }
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  static const std::vector<std::string> intr_units{"RUBIK"};  // done pulses wired to the top's GLB
  auto dev = std::make_unique<RtlDevice<Vrubik_nv_full>>(cfg, fmt::format("nvdla_rubik_top ({})", cfg.name),
                                                         intr_units, static_cast<unsigned>(cfg.atom_bytes), o);
  dev->set_write_guard(RubikGuard(cfg));
  return dev;
}

std::function<void(uint32_t addr, uint32_t value)> make_rubik_guard(const golden::HwConfig& cfg) {
  return RubikGuard(cfg);
}

}  // namespace dla::harness
