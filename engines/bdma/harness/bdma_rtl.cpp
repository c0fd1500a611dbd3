// The verilated BDMA (rtl/top/nvdla_engine_top.sv (Engine "bdma"): bdma_core and the GLB) as an RTL device for
// register programs whose enabled blocks are only BDMA (nv_full only, as in NVDLA; docs/BDMA.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <iterator>
#include <memory>
#include <map>
#include <vector>

#include "Vbdma_nv_full.h"
#include "engines/bdma/golden/bdma.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_device.hpp"
#include "tops/rtl_devices.hpp"

namespace dla::harness {

namespace {

namespace r = golden::bdma_reg;

// Byte ranges [first, last) kept merged: does a range meet any of them?
class Extents {
 public:
  [[nodiscard]] bool meets(uint64_t first, uint64_t last) const {
    auto it = ranges_.upper_bound(first);
    if (it != ranges_.begin() && std::prev(it)->second > first) return true;
    return it != ranges_.end() && it->first < last;
  }
  void add(uint64_t first, uint64_t last) {
    auto it = ranges_.upper_bound(first);
    if (it != ranges_.begin() && std::prev(it)->second >= first) {
      --it;
      first = it->first;
      last = std::max(last, it->second);
      it = ranges_.erase(it);
    }
    while (it != ranges_.end() && it->first <= last) {
      last = std::max(last, it->second);
      it = ranges_.erase(it);
    }
    ranges_.emplace(first, last);
  }

 private:
  std::map<uint64_t, uint64_t> ranges_;
};

// Mirrors the CSB writes to BDMA (staging registers, commands gathered since the last launch) and
// refuses (InputError naming the register and the rule) what bdma_core would not do as NVDLA does,
// or would wait on for ever, instead of computing wrong values silently. bdma_core runs the
// reads of the next commands while the writes of earlier ones drain, so a program whose written
// bytes meet any other line it reads or writes while both may be in flight is refused: the
// lines of every command since BDMA was last idle (every launch released by a wait, nothing
// pushed); `bdma` layers never do that (docs/LAYER_FORMAT.md), a network's copies do it only
// across idle points (a copy of a copy).
//
// It also refuses what the golden device refuses about the groups (engines/bdma/golden/bdma.cpp): a CFG_OP
// while both groups are busy, a launch of a busy group. A group is busy, as on the golden device,
// from its launch until a wait of the program releases it: launches complete in launch order, and
// a wait releases them in that order until the interrupt waited for is in S_INTR_STATUS (any
// unmasked one for a wait on the line; harness/src/golden_device.cpp). So the guard keeps the
// launch order, and S_INTR_STATUS / S_INTR_MASK as the golden device keeps them from the CSB
// writes, and the device tells it of every wait that returned.
class BdmaGuard {
 public:
  explicit BdmaGuard(const golden::HwConfig& hw) {
    const RegDb& db = RegDb::nvdla();
    base_ = *db.address(hw.name, *db.find("BDMA.CFG_SRC_ADDR_LOW"));
    const auto glb = [&](const char* name, uint32_t& a) {
      const RegDef& r = *db.find(name);
      a = *db.address(hw.name, r);
      return r.writable_mask();
    };
    (void)glb("GLB.S_INTR_STATUS", glb_status_);
    set_writable_ = glb("GLB.S_INTR_SET", glb_set_);
    mask_writable_ = glb("GLB.S_INTR_MASK", glb_mask_);
  }

  // A wait for `intr` returned raised / a wait for the interrupt line returned raised.
  void waited(std::string_view intr) {
    const int bit = interrupt_bit(intr);
    if (bit < 0) return;
    while ((status_ & (1u << bit)) == 0 && release_next()) {
    }
  }
  void waited_any() {
    while ((status_ & ~mask_) == 0 && release_next()) {
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    if (addr == glb_status_) status_ &= ~value;  // write 1 to clear
    if (addr == glb_set_) status_ |= value & set_writable_;
    if (addr == glb_mask_) mask_ = value & mask_writable_;
    if (addr < base_ || addr >= base_ + 0x1000) return;
    const uint32_t off = addr - base_;
    if (off < r::kOp && off % 4 == 0) {
      staging_[off / 4] = value;
    } else if (off == r::kOp && (value & 1u) != 0) {
      op();
    } else if ((off == r::kLaunch0 || off == r::kLaunch1) && (value & 1u) != 0) {
      launch(off == r::kLaunch0 ? 0 : 1);
    }
  }

 private:
  [[noreturn]] static void refuse(const std::string& reg, const std::string& rule) {
    throw InputError(fmt::format("BDMA.{}", reg), "", fmt::format("this RTL (nvdla_bdma_top) refuses the program: {}", rule));
  }

  void op() {
    if (busy_[0] && busy_[1]) {
      refuse("CFG_OP", "written while both groups are busy: NVDLA takes no command then, even with free slots "
                       "(programming guide); wait for a BDMA done interrupt first");
    }
    if (gathered_.size() >= static_cast<std::size_t>(golden::kBdmaFifoDepth)) {
      refuse("CFG_OP", fmt::format("{} commands are pushed and not launched (STATUS.FREE_SLOT = 0): the command FIFO "
                                   "would hold the CSB for ever, since only a launch drains it",
                                   gathered_.size()));
    }
    if (const auto p = golden::bdma_command_problems(staging_); !p.empty()) refuse("CFG_OP", p.front());
    const golden::BdmaCommand c = golden::BdmaCommand::decode(staging_);
    // Lines of this command, then against everything the program touched before.
    std::vector<std::pair<uint64_t, uint64_t>> src, dst;
    for (int s = 0; s < c.surfaces; ++s) {
      for (int l = 0; l < c.lines; ++l) {
        const uint64_t from = c.src + static_cast<uint64_t>(s) * c.src_surf + static_cast<uint64_t>(l) * c.src_line;
        const uint64_t to = c.dst + static_cast<uint64_t>(s) * c.dst_surf + static_cast<uint64_t>(l) * c.dst_line;
        src.emplace_back(from, from + c.line_bytes);
        dst.emplace_back(to, to + c.line_bytes);
      }
    }
    Extents own_src;
    for (const auto& [a, b] : src) {
      if (written_.meets(a, b)) overlap(c, a, "reads");
      own_src.add(a, b);
    }
    for (const auto& [a, b] : dst) {
      if (written_.meets(a, b) || read_.meets(a, b) || own_src.meets(a, b)) overlap(c, a, "writes");
    }
    for (const auto& [a, b] : src) read_.add(a, b);
    for (const auto& [a, b] : dst) written_.add(a, b);
    gathered_.push_back(c);
  }

  [[noreturn]] static void overlap(const golden::BdmaCommand& c, uint64_t at, const char* what) {
    refuse("CFG_OP", fmt::format("the command ({}) {} a line at {:#x} that meets bytes another line of the program "
                                 "reads or writes, one of them a write: bdma_core overlaps commands and lines in time "
                                 "(reads run ahead of writes), so the result would depend on its timing",
                                 golden::bdma_describe(c), what, at));
  }

  void launch(int g) {
    const std::string reg = fmt::format("CFG_LAUNCH{}", g);
    if (busy_[static_cast<std::size_t>(g)]) {
      refuse(reg, fmt::format("written while group {} is busy (its previous launch has not signalled "
                              "BDMA_DONE_STATUS{}): NVDLA's C model fails; at most one outstanding launch per group",
                              g, g));
    }
    if (gathered_.empty()) {
      refuse(reg, fmt::format("no command pushed since the previous launch: BDMA_DONE_STATUS{} would never come", g));
    }
    for (const auto& c : gathered_) {
      if (c.dst_mc != gathered_.front().dst_mc) {
        refuse(reg, "the group's commands write to both CVSRAM and MC; all operations of one group must have the "
                    "same CFG_CMD.DST_RAM_TYPE (programming guide)");
      }
    }
    gathered_.clear();
    busy_[static_cast<std::size_t>(g)] = true;
    launched_.push_back(g);
  }

  // The oldest outstanding launch completes: its group is free, its done bit (6 / 7) set.
  bool release_next() {
    if (launched_.empty()) return false;
    const int g = launched_.front();
    launched_.pop_front();
    busy_[static_cast<std::size_t>(g)] = false;
    status_ |= 1u << interrupt_bit(g == 0 ? "BDMA_0" : "BDMA_1");
    // Nothing launched or pushed is left: every command so far has finished (its group's done
    // came after its last write), so later commands cannot overlap them in time.
    if (launched_.empty() && gathered_.empty()) {
      read_ = {};
      written_ = {};
    }
    return true;
  }

  uint32_t base_ = 0;
  uint32_t glb_status_ = 0, glb_set_ = 0, glb_mask_ = 0, set_writable_ = 0, mask_writable_ = 0;
  uint32_t status_ = 0, mask_ = 0;  // S_INTR_STATUS, S_INTR_MASK as the golden device has them
  std::array<bool, 2> busy_{};
  std::deque<int> launched_;        // groups of the outstanding launches, oldest first
  std::array<uint32_t, r::kStagingRegs> staging_{};
  std::vector<golden::BdmaCommand> gathered_;
  Extents read_, written_;
};

// The RTL device, telling the guard of every wait that returned.
class BdmaRtlDevice final : public RtlDevice<Vbdma_nv_full> {
 public:
  BdmaRtlDevice(const golden::HwConfig& cfg, const std::vector<std::string>& intr_units, const RtlDeviceOptions& o)
      : RtlDevice<Vbdma_nv_full>(cfg, fmt::format("nvdla_bdma_top ({})", cfg.name), intr_units,
                                 static_cast<unsigned>(cfg.atom_bytes), o),
        bdma_guard_(std::make_shared<BdmaGuard>(cfg)) {
    set_write_guard([g = bdma_guard_](uint32_t addr, uint32_t value) { (*g)(addr, value); });
  }

  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) override {
    WaitResult w = RtlDevice<Vbdma_nv_full>::wait_interrupt(intr, timeout_cycles);
    if (w.raised) bdma_guard_->waited(intr);
    return w;
  }
  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t timeout_cycles) override {
    WaitResult w = RtlDevice<Vbdma_nv_full>::wait_any_interrupt(timeout_cycles);
    if (w.raised) bdma_guard_->waited_any();
    return w;
  }

 private:
  std::shared_ptr<BdmaGuard> bdma_guard_;
};

}  // namespace

BdmaGuardHooks make_bdma_guard(const golden::HwConfig& cfg) {
  auto g = std::make_shared<BdmaGuard>(cfg);
  return {.write = [g](uint32_t addr, uint32_t value) { (*g)(addr, value); },
          .waited = [g](std::string_view intr) { g->waited(intr); },
          .waited_any = [g] { g->waited_any(); }};
}

std::unique_ptr<Device> make_bdma_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt) {
  if (cfg.name != "nv_full") {
    throw InputError("--config", "", fmt::format("{} has no BDMA (nv_full only, as in NVDLA)", cfg.name));
  }
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  static const std::vector<std::string> intr_units{"BDMA"};  // done pulses wired to the top's GLB
  return std::make_unique<BdmaRtlDevice>(cfg, intr_units, o);
}

}  // namespace dla::harness
