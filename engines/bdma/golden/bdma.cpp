#include "engines/bdma/golden/bdma.hpp"

#include <cstdio>
#include <tuple>

namespace dla::golden {

namespace {

namespace r = bdma_reg;

constexpr uint32_t kAddrLowMask = 0xffffffe0u;  // V32[31:5]
constexpr uint32_t kAddrHighMask = 0xffu;       // 40-bit addresses: nvdlav1 keeps ADDR_HIGH[7:0]
constexpr uint32_t kStrideMask = 0xffffffe0u;   // STRIDE[31:5]
constexpr uint32_t kLineSizeMask = 0x1fffu;     // SIZE[12:0]
constexpr uint32_t kRepeatMask = 0xffffffu;     // NUMBER[23:0], only [12:0] used
constexpr uint32_t kRepeatUsed = 0x1fffu;
constexpr uint32_t kCmdMask = 0x3u;             // SRC_RAM_TYPE[0], DST_RAM_TYPE[1]

std::size_t idx(uint32_t offset) { return offset / 4; }

std::string hex(uint64_t v) {
  char buf[24];
  (void)std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string dec(uint64_t v) { return std::to_string(v); }

// Defined bits of a staging register (index = offset / 4).
uint32_t staging_mask(std::size_t i) {
  switch (i * 4) {
    case r::kSrcAddrLow:
    case r::kDstAddrLow: return kAddrLowMask;
    case r::kSrcAddrHigh:
    case r::kDstAddrHigh: return kAddrHighMask;
    case r::kLine: return kLineSizeMask;
    case r::kCmd: return kCmdMask;
    case r::kLineRepeat:
    case r::kSurfRepeat: return kRepeatMask;
    default: return kStrideMask;  // the four strides
  }
}

uint64_t addr(uint32_t lo, uint32_t hi) { return (uint64_t{hi & kAddrHighMask} << 32) | (lo & kAddrLowMask); }

}  // namespace

std::array<uint32_t, bdma_reg::kStagingRegs> BdmaCommand::registers() const {
  std::array<uint32_t, r::kStagingRegs> v{};
  v[idx(r::kSrcAddrLow)] = static_cast<uint32_t>(src);
  v[idx(r::kSrcAddrHigh)] = static_cast<uint32_t>(src >> 32);
  v[idx(r::kDstAddrLow)] = static_cast<uint32_t>(dst);
  v[idx(r::kDstAddrHigh)] = static_cast<uint32_t>(dst >> 32);
  v[idx(r::kLine)] = static_cast<uint32_t>(line_bytes / kBdmaUnit - 1);
  v[idx(r::kCmd)] = (src_mc ? 1u : 0u) | (dst_mc ? 2u : 0u);
  v[idx(r::kLineRepeat)] = static_cast<uint32_t>(lines - 1);
  v[idx(r::kSrcLine)] = static_cast<uint32_t>(src_line);
  v[idx(r::kDstLine)] = static_cast<uint32_t>(dst_line);
  v[idx(r::kSurfRepeat)] = static_cast<uint32_t>(surfaces - 1);
  v[idx(r::kSrcSurf)] = static_cast<uint32_t>(src_surf);
  v[idx(r::kDstSurf)] = static_cast<uint32_t>(dst_surf);
  return v;
}

BdmaCommand BdmaCommand::decode(const std::array<uint32_t, bdma_reg::kStagingRegs>& v) {
  BdmaCommand c;
  c.src = addr(v[idx(r::kSrcAddrLow)], v[idx(r::kSrcAddrHigh)]);
  c.dst = addr(v[idx(r::kDstAddrLow)], v[idx(r::kDstAddrHigh)]);
  c.line_bytes = (uint64_t{v[idx(r::kLine)] & kLineSizeMask} + 1) * kBdmaUnit;
  c.src_mc = (v[idx(r::kCmd)] & 1u) != 0;
  c.dst_mc = (v[idx(r::kCmd)] & 2u) != 0;
  c.lines = static_cast<int>(v[idx(r::kLineRepeat)] & kRepeatUsed) + 1;
  c.surfaces = static_cast<int>(v[idx(r::kSurfRepeat)] & kRepeatUsed) + 1;
  c.src_line = v[idx(r::kSrcLine)] & kStrideMask;
  c.dst_line = v[idx(r::kDstLine)] & kStrideMask;
  c.src_surf = v[idx(r::kSrcSurf)] & kStrideMask;
  c.dst_surf = v[idx(r::kDstSurf)] & kStrideMask;
  return c;
}

std::vector<std::string> bdma_command_problems(const std::array<uint32_t, bdma_reg::kStagingRegs>& v) {
  std::vector<std::string> out;
  for (const auto& [off, name, what] : {std::tuple{r::kLineRepeat, "CFG_LINE_REPEAT", "lines"},
                                        std::tuple{r::kSurfRepeat, "CFG_SURF_REPEAT", "surfaces"}}) {
    const uint32_t n = v[idx(off)] & kRepeatMask;
    if ((n & ~kRepeatUsed) != 0) {
      out.push_back(std::string(name) + ".NUMBER is " + hex(n) + ": bits [23:13] are reserved and must be 0 (at most " +
                    dec(kBdmaMaxRepeat) + " " + what + ")");
    }
  }
  const BdmaCommand c = BdmaCommand::decode(v);
  if (c.bytes() > kBdmaMaxCommandBytes) {
    out.push_back("the command copies " + dec(c.bytes()) + " bytes (" + dec(c.line_bytes) + " B x " + dec(c.lines) +
                  " line(s) x " + dec(c.surfaces) + " surface(s)); the golden model runs commands of at most " +
                  dec(kBdmaMaxCommandBytes) + " bytes");
  }
  return out;
}

std::string bdma_describe(const BdmaCommand& c) {
  return "copy " + dec(c.line_bytes) + " B x " + dec(c.lines) + " line(s) x " + dec(c.surfaces) + " surface(s) from " +
         hex(c.src) + " (line " + hex(c.src_line) + ", surface " + hex(c.src_surf) + ", " +
         (c.src_mc ? "MC" : "CVSRAM") + ") to " + hex(c.dst) + " (line " + hex(c.dst_line) + ", surface " +
         hex(c.dst_surf) + ", " + (c.dst_mc ? "MC" : "CVSRAM") + ")";
}

void bdma_copy(const BdmaCommand& c, const ByteReader& read, const ByteWriter& write) {
  std::vector<uint8_t> line(c.line_bytes);
  for (int s = 0; s < c.surfaces; ++s) {
    for (int l = 0; l < c.lines; ++l) {
      const uint64_t from = c.src + static_cast<uint64_t>(s) * c.src_surf + static_cast<uint64_t>(l) * c.src_line;
      const uint64_t to = c.dst + static_cast<uint64_t>(s) * c.dst_surf + static_cast<uint64_t>(l) * c.dst_line;
      for (uint64_t i = 0; i < c.line_bytes; ++i) line[i] = read(from + i);
      for (uint64_t i = 0; i < c.line_bytes; ++i) write(to + i, line[i]);
    }
  }
}

std::optional<BdmaEngine::Batch> BdmaEngine::write(uint32_t offset, uint32_t value) {
  if (offset < r::kOp && offset % 4 == 0) {
    const std::size_t i = idx(offset);
    staging_[i] = value & staging_mask(i);
    return std::nullopt;
  }
  switch (offset) {
    case r::kOp: {
      if ((value & 1u) == 0) return std::nullopt;
      if (busy_[0] && busy_[1]) {
        throw BdmaRefused(
            "BDMA.CFG_OP written while both groups are busy: NVDLA takes no command then, even with free slots "
            "(programming guide); wait for a BDMA done interrupt first");
      }
      if (fifo_.size() >= static_cast<std::size_t>(kBdmaFifoDepth)) {
        throw BdmaRefused("BDMA.CFG_OP written with the command FIFO full (" + dec(fifo_.size()) +
                          " commands pushed and not launched, STATUS.FREE_SLOT = 0): the command would be lost and no "
                          "launch can drain the FIFO; a group holds at most " +
                          dec(kBdmaFifoDepth) + " commands and firmware polls STATUS.FREE_SLOT > 0 before each CFG_OP");
      }
      if (const auto p = bdma_command_problems(staging_); !p.empty()) throw BdmaRefused("BDMA.CFG_OP: " + p.front());
      fifo_.push_back(BdmaCommand::decode(staging_));
      return std::nullopt;
    }
    case r::kLaunch0:
    case r::kLaunch1: {
      if ((value & 1u) == 0) return std::nullopt;
      const int g = offset == r::kLaunch0 ? 0 : 1;
      if (busy_[static_cast<std::size_t>(g)]) {
        throw BdmaRefused("BDMA.CFG_LAUNCH" + dec(g) + " written while group " + dec(g) +
                          " is busy (its previous launch has not signalled BDMA_DONE_STATUS" + dec(g) +
                          "): NVDLA's C model fails; at most one outstanding launch per group");
      }
      if (fifo_.empty()) {
        throw BdmaRefused("BDMA.CFG_LAUNCH" + dec(g) +
                          " written with no command pushed since the previous launch: the last command of a group "
                          "carries its interrupt, so BDMA_DONE_STATUS" +
                          dec(g) + " would never come");
      }
      for (const BdmaCommand& c : fifo_) {
        if (c.dst_mc != fifo_.front().dst_mc) {
          throw BdmaRefused("BDMA.CFG_LAUNCH" + dec(g) +
                            ": the group's commands write to both CVSRAM and MC; all operations of one group must "
                            "have the same CFG_CMD.DST_RAM_TYPE (programming guide)");
        }
      }
      Batch b;
      b.group = g;
      b.commands.assign(fifo_.begin(), fifo_.end());
      fifo_.clear();
      busy_[static_cast<std::size_t>(g)] = true;
      return b;
    }
    case r::kCfgStatus:
      stall_count_en_ = (value & 1u) != 0;
      return std::nullopt;
    default:
      return std::nullopt;  // read-only STATUS registers, undefined offsets
  }
}

uint32_t BdmaEngine::read(uint32_t offset) const {
  if (offset < r::kOp && offset % 4 == 0) return staging_[idx(offset)];
  switch (offset) {
    case r::kCfgStatus: return stall_count_en_ ? 1u : 0u;
    case r::kStatus:
      return static_cast<uint32_t>(free_slots()) | (idle() ? 1u << 8 : 0u) | (busy_[0] ? 1u << 9 : 0u) |
             (busy_[1] ? 1u << 10 : 0u);
    case r::kGrp0ReadStall: return stall_[0];
    case r::kGrp0WriteStall: return stall_[1];
    case r::kGrp1ReadStall: return stall_[2];
    case r::kGrp1WriteStall: return stall_[3];
    default: return 0;  // CFG_OP, CFG_LAUNCH0/1 are triggers: they read 0
  }
}

void BdmaEngine::release_group(int g) { busy_[static_cast<std::size_t>(g)] = false; }

}  // namespace dla::golden
