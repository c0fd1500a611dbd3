// The check every RTL device with PDP (nvdla_core) runs on the CSB writes: what
// this PDP RTL does not compute as NVDLA does is refused with the rule (docs/PDP_RTL.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "engines/pdp/golden/pdp.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "tops/rtl_devices.hpp"

namespace dla::harness {

namespace {

// Mirrors the CSB writes to PDP and PDP_RDMA (S_POINTER.PRODUCER, both D_ groups) and checks a
// group when it is launched (PDP's OP_EN, and PDP_RDMA's when off-flying, in either order): the
// RTL refuses what it would not compute as NVDLA does (rules in docs/PDP_RTL.md) instead of
// computing wrong values silently. The RTL decodes its own registers.
class PdpGuard {
 public:
  // `top`: the top the guard speaks for; `flying_ok`: the program runs SDP, whose output the top
  // wires to PDP.
  PdpGuard(const golden::HwConfig& hw, std::string top, bool flying_ok)
      : hw_(&hw), top_(std::move(top)), flying_ok_(flying_ok) {
    const RegDb& db = RegDb::nvdla();
    // SDP: its precisions matter when it feeds PDP on the fly.
    for (const char* name : {"PDP", "PDP_RDMA", "SDP"}) {
      const RegBlock* b = db.block(name);
      Block blk;
      blk.name = name;
      blk.base = *db.address(hw.name, b->regs.begin()->second) - b->regs.begin()->second.offset;
      blocks_.push_back(std::move(blk));
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      Block& b = blocks_[i];
      if (addr < b.base || addr >= b.base + 0x1000) continue;
      const uint32_t off = addr - b.base;
      if (off == 0x4) b.producer = static_cast<int>(value & 1u);
      const auto g = static_cast<std::size_t>(b.producer);
      if (i == kSdp) {  // only mirrored (its launch is not checked here)
        b.group[g][off] = value;
        return;
      }
      if (off >= 0x8 && !b.armed[g]) b.group[g][off] = value;
      if (off == 0x8 && (value & 1u) != 0 && !b.armed[g]) {
        b.armed[g] = true;
        launched(g);
      }
      return;
    }
  }

 private:
  static constexpr std::size_t kSdp = 2;  // blocks_: PDP, PDP_RDMA, SDP
  struct Block {
    std::string name;
    uint32_t base = 0;
    int producer = 0;
    std::array<bool, 2> armed{};
    std::array<std::map<uint32_t, uint32_t>, 2> group;
    [[nodiscard]] uint32_t reg(std::size_t g, uint32_t off) const {
      const auto it = group[g].find(off);
      return it == group[g].end() ? 0u : it->second;
    }
  };

  void launched(std::size_t g) {
    Block& p = blocks_[0];
    Block& r = blocks_[1];
    if (!p.armed[g]) return;
    const bool off_flying = ((p.reg(g, 0x24) >> 4) & 1u) != 0;
    if (off_flying && !r.armed[g]) return;
    p.armed[g] = false;
    r.armed[g] = false;
    const std::string where = fmt::format("group {}", g);
    const auto refuse = [&](const std::string& reg, const std::string& rule) {
      throw InputError(reg, where, fmt::format("this RTL ({}) refuses the layer: {}", top_, rule));
    };
    if (!off_flying && !flying_ok_) {
      refuse("PDP.D_OPERATION_MODE_CFG.FLYING_MODE",
             "on-the-fly input comes from SDP, and the program does not enable SDP; only OFF_FLYING (PDP_RDMA) "
             "runs without it");
    }
    const uint32_t fmt_p = p.reg(g, 0x84) & 3u;
    if (fmt_p == 3) refuse("PDP.D_DATA_FORMAT", "INPUT_DATA 3 is reserved (0 INT8, 1 INT16, 2 FP16)");
    if (fmt_p == 2) {
      if (!hw_->supports(golden::Precision::Fp16)) {
        refuse("PDP.D_DATA_FORMAT", fmt::format("FP16: {} has no fp16", hw_->name));
      }
      // fp16's own limits are the golden model's (an 8-wide average with a padded-line value)
      const golden::PdpConfig cfg = golden::decode_pdp([&](uint32_t off) { return p.reg(g, off); },
                                                       [&](uint32_t off) { return r.reg(g, off); }, hw_->atom_bytes);
      if (const auto why = cfg.unsupported(*hw_); !why.empty()) refuse("PDP.D_*", why.front());
    }
    if (fmt_p == 1 && !hw_->int16) refuse("PDP.D_DATA_FORMAT", fmt::format("INT16: {} has no int16", hw_->name));
    const auto m1 = [](uint32_t v, int lsb, int bits) { return static_cast<int>((v >> lsb) & ((1u << bits) - 1u)) + 1; };
    const int w = m1(p.reg(g, 0x0c), 0, 13), h = m1(p.reg(g, 0x10), 0, 13), c = m1(p.reg(g, 0x14), 0, 13);
    const int ow = m1(p.reg(g, 0x18), 0, 13), oh = m1(p.reg(g, 0x1c), 0, 13);
    const uint32_t mode = p.reg(g, 0x24);
    if ((mode & 3u) == 3u) refuse("PDP.D_OPERATION_MODE_CFG.POOLING_METHOD", "3 is not a pooling method");
    const int n = m1(mode, 8, 8);
    const uint32_t k = p.reg(g, 0x34);
    const int kw = m1(k, 0, 4), kh = m1(k, 8, 4), sw = m1(k, 16, 4), sh = m1(k, 20, 4);
    const uint32_t pad = p.reg(g, 0x40);
    const int pl = pad & 7u, pt = (pad >> 4) & 7u, pr = (pad >> 8) & 7u, pb = (pad >> 12) & 7u;
    if (kw > 8 || kh > 8) refuse("PDP.D_POOLING_KERNEL_CFG", "kernel width and height are 1...8");
    if (pl >= kw || pr >= kw || pt >= kh || pb >= kh) {
      refuse("PDP.D_POOLING_PADDING_CFG", fmt::format("padding (left {}, right {}, top {}, bottom {}) must be smaller "
                                                      "than the kernel ({} x {}): a window of padding only has no value",
                                                      pl, pr, pt, pb, kw, kh));
    }
    if (w + pl + pr < kw || h + pt + pb < kh || ow != (w + pl + pr - kw) / sw + 1 || oh != (h + pt + pb - kh) / sh + 1) {
      refuse("PDP.D_DATA_CUBE_OUT_WIDTH/HEIGHT",
             fmt::format("output {} x {} is not (W + pads - kernel) / stride + 1 of input {} x {}", ow, oh, w, h));
    }
    const int max_w = 4096 / hw_->atom_bytes;
    if (n == 1 && ow > max_w) {
      refuse("PDP.D_DATA_CUBE_OUT_WIDTH", fmt::format("output width {} exceeds the {} columns of the line buffer; "
                                                      "split the width (SPLIT_NUM)", ow, max_w));
    }
    if (n > 1 && !off_flying) {
      refuse("PDP.D_OPERATION_MODE_CFG.SPLIT_NUM", "on the fly from SDP, PDP takes the whole width (no split)");
    }
    if (n > 1) {
      const uint32_t pin = p.reg(g, 0x2c), pout = p.reg(g, 0x30);
      const int fi = m1(pin, 0, 10), la = m1(pin, 10, 10), mi = m1(pin, 20, 10);
      const int fo = m1(pout, 0, 10), lo = m1(pout, 10, 10), mo = m1(pout, 20, 10);
      if (fi + (n - 2) * mi + la != w || fo + (n - 2) * mo + lo != ow) {
        refuse("PDP.D_PARTIAL_WIDTH_IN/OUT", "the split widths do not add up to the input and output widths");
      }
      const int ov = kw - sw;
      // A piece's windows: its input (plus the overlap after the first, the pads at the ends);
      // every piece but the last must end on a window boundary so the next starts on one.
      const auto piece_ok = [&](int in, int out, bool first, bool last) {
        const int span = (first ? pl : 0) + in + (first ? 0 : ov) + (last ? pr : 0);
        return span >= kw && out == (span - kw) / sw + 1 && (last || (span - kw) % sw == 0);
      };
      if (!piece_ok(fi, fo, true, false) || (n > 2 && !piece_ok(mi, mo, false, false)) || !piece_ok(la, lo, false, true)) {
        refuse("PDP.D_PARTIAL_WIDTH_IN/OUT", "a split's output width is not the pooling of its input width (with "
                                             "the kernel - stride overlap)");
      }
      if (std::max({fo, mo, lo}) > max_w) {
        refuse("PDP.D_PARTIAL_WIDTH_OUT", fmt::format("a split's output width exceeds the {} columns of the line buffer",
                                                      max_w));
      }
    }
    if (!off_flying) {
      // SDP hands PDP the atoms it would write; converting int8 <-> int16 it writes half atoms
      // (int16 -> int8) or two atoms per position (int8 -> int16), not PDP's surface order.
      namespace sf = golden::regs::sdp::D_DATA_FORMAT;
      const Block& sdp = blocks_[kSdp];  // the SDP group last programmed feeds this layer
      const uint32_t sdp_fmt = sdp.reg(static_cast<std::size_t>(sdp.producer), golden::regs::sdp::D_DATA_FORMAT::offset);
      const uint32_t proc = golden::regs::field(sdp_fmt, sf::PROC_PRECISION{});
      const uint32_t out = golden::regs::field(sdp_fmt, sf::OUT_PRECISION{});
      if (proc != out) {
        refuse("SDP.D_DATA_FORMAT", fmt::format("SDP converts its output ({} -> {}) while it feeds PDP on the fly; "
                                                "this RTL hands PDP SDP's memory atoms, whose packing then is not "
                                                "PDP's (docs/PDP_RTL.md)",
                                                golden::precision_code_name(proc), golden::precision_code_name(out)));
      }
      return;  // PDP_RDMA does not run
    }
    // PDP_RDMA must read what PDP pools.
    const uint32_t rmode = r.reg(g, 0x34), rk = r.reg(g, 0x38);
    if (m1(r.reg(g, 0x10), 0, 13) != h || m1(r.reg(g, 0x14), 0, 13) != c ||
        (n == 1 && m1(r.reg(g, 0x0c), 0, 13) != w) || (r.reg(g, 0x30) & 3u) != fmt_p || m1(rmode, 0, 8) != n ||
        (n > 1 && (m1(rk, 0, 4) != kw || m1(rk, 4, 4) != sw || r.reg(g, 0x40) != p.reg(g, 0x2c)))) {
      refuse("PDP_RDMA.D_*", "PDP_RDMA's cube, format, split or kernel differs from PDP's");
    }
  }

  const golden::HwConfig* hw_;
  std::string top_;
  bool flying_ok_ = false;
  std::vector<Block> blocks_;
};

}  // namespace

std::function<void(uint32_t, uint32_t)> make_pdp_guard(const golden::HwConfig& cfg, const std::string& top,
                                                       bool flying_ok) {
  return PdpGuard(cfg, top, flying_ok);
}

}  // namespace dla::harness
