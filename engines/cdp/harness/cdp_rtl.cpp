// The verilated CDP (rtl/top/nvdla_engine_top.sv (Engine "cdp"): CDP, CDP_RDMA and the GLB) as an RTL device for
// register programs whose enabled blocks are CDP and CDP_RDMA (docs/CDP_RTL.md).
#include <fmt/format.h>

#include <array>
#include <map>

#include "dla_rtl_models.hpp"
#include "harness/errors.hpp"
#include "harness/rtl_device.hpp"
#include "tops/rtl_devices.hpp"

namespace dla::harness {

namespace {

// Mirrors the CSB writes to CDP and CDP_RDMA (S_POINTER.PRODUCER, both D_ groups) and checks a
// group when both blocks have launched it (either order): the RTL refuses what it would not
// compute as NVDLA does (rules in docs/CDP_RTL.md) instead of computing wrong values silently.
// The RTL decodes its own registers.
class CdpGuard {
 public:
  explicit CdpGuard(const golden::HwConfig& hw) : hw_(&hw) {
    const RegDb& db = RegDb::nvdla();
    for (const char* name : {"CDP", "CDP_RDMA"}) {
      const RegBlock* b = db.block(name);
      Block blk;
      blk.name = name;
      blk.base = *db.address(hw.name, b->regs.begin()->second) - b->regs.begin()->second.offset;
      blk.op_en = name == std::string("CDP") ? 0x48u : 0x8u;
      blocks_.push_back(std::move(blk));
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    for (Block& b : blocks_) {
      if (addr < b.base || addr >= b.base + 0x1000) continue;
      const uint32_t off = addr - b.base;
      if (off == 0x4) b.producer = static_cast<int>(value & 1u);
      const auto g = static_cast<std::size_t>(b.producer);
      if (off >= b.op_en && !b.armed[g]) b.group[g][off] = value;
      if (off == b.op_en && (value & 1u) != 0 && !b.armed[g]) {
        b.armed[g] = true;
        launched(g);
      }
      return;
    }
  }

 private:
  struct Block {
    std::string name;
    uint32_t base = 0;
    uint32_t op_en = 0;
    int producer = 0;
    std::array<bool, 2> armed{};
    std::array<std::map<uint32_t, uint32_t>, 2> group;
    [[nodiscard]] uint32_t reg(std::size_t g, uint32_t off) const {
      const auto it = group[g].find(off);
      return it == group[g].end() ? 0u : it->second;
    }
  };

  void launched(std::size_t g) {
    Block& c = blocks_[0];
    Block& r = blocks_[1];
    if (!c.armed[g] || !r.armed[g]) return;
    c.armed[g] = false;
    r.armed[g] = false;
    const std::string where = fmt::format("group {}", g);
    const auto refuse = [&](const std::string& reg, const std::string& rule) {
      throw InputError(reg, where, fmt::format("this RTL (nvdla_cdp_top) refuses the layer: {}", rule));
    };
    // D_DATA_FORMAT resets to INT16 (1) in CDP, INT8 (0) in CDP_RDMA.
    const uint32_t fmt_c = c.group[g].count(0x68) != 0 ? c.reg(g, 0x68) & 3u : 1u;
    const uint32_t fmt_r = r.reg(g, 0x34) & 3u;
    static constexpr std::array<const char*, 4> kFormat{"INT8", "INT16", "FP16", "reserved (3)"};
    if (fmt_c == 3 || fmt_r == 3) {
      refuse(fmt_c == 3 ? "CDP.D_DATA_FORMAT" : "CDP_RDMA.D_DATA_FORMAT", "3 is reserved (0 INT8, 1 INT16, 2 FP16)");
    }
    if (fmt_c != fmt_r) {
      refuse("CDP.D_DATA_FORMAT", fmt::format("CDP's precision ({}) differs from CDP_RDMA's ({}): the datapath "
                                              "would convert data of the other kind",
                                              kFormat[fmt_c], kFormat[fmt_r]));
    }
    if (fmt_c == 1 && !hw_->int16) refuse("CDP.D_DATA_FORMAT", fmt::format("INT16: {} has no int16", hw_->name));
    // NVDLA v1 (nv_full) has fp16 beside int16; the RTL's fp16 lanes exist where the build has it.
    if (fmt_c == 2 && !hw_->supports(golden::Precision::Fp16)) {
      refuse("CDP.D_DATA_FORMAT", fmt::format("FP16: {} has no fp16", hw_->name));
    }
    // Whole-atom reads and writes: addresses and strides on the atom grid.
    const auto atom = static_cast<uint32_t>(hw_->atom_bytes);
    const auto aligned = [&](const Block& b, uint32_t off, const char* reg) {
      if (b.reg(g, off) % atom != 0) {
        refuse(fmt::format("{}.{}", b.name, reg),
               fmt::format("0x{:x} is not a multiple of the {}-byte memory atom", b.reg(g, off), atom));
      }
    };
    aligned(r, 0x18, "D_SRC_BASE_ADDR_LOW");
    aligned(r, 0x20, "D_SRC_LINE_STRIDE");
    aligned(r, 0x24, "D_SRC_SURFACE_STRIDE");
    aligned(c, 0x50, "D_DST_BASE_ADDR_LOW");
    aligned(c, 0x58, "D_DST_LINE_STRIDE");
    aligned(c, 0x5c, "D_DST_SURFACE_STRIDE");
  }

  const golden::HwConfig* hw_;
  std::vector<Block> blocks_;
};

template <class Model>
std::unique_ptr<Device> guarded(const golden::HwConfig& cfg, const std::string& unit, unsigned atom,
                                const RtlDeviceOptions& o) {
  static const std::vector<std::string> intr_units{"CDP"};  // done pulses wired to the top's GLB
  auto dev = std::make_unique<RtlDevice<Model>>(cfg, unit, intr_units, atom, o);
  dev->set_write_guard(CdpGuard(cfg));
  return dev;
}

}  // namespace

std::function<void(uint32_t addr, uint32_t value)> make_cdp_guard(const golden::HwConfig& cfg) { return CdpGuard(cfg); }

std::unique_ptr<Device> make_cdp_rtl_device(const golden::HwConfig& cfg, const RunOptions& opt) {
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  const std::string unit = fmt::format("nvdla_cdp_top ({})", cfg.name);
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
#define DLA_PICK(C) \
  if (cfg.name == #C) return guarded<rtl_models::C::cdp>(cfg, unit, atom, o);
  DLA_RTL_CONFIGS(DLA_PICK)
#undef DLA_PICK
  throw InputError("--config", "", fmt::format("no CDP RTL build for configuration {}", cfg.name));
}

}  // namespace dla::harness
