// The NVDLA BDMA (bridge DMA: memory-to-memory copies in command batches), register level.
//
// Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §5 (registers, one command's semantics, slots
// and groups) and §4 (GLB bits 6/7), the programming guide's BDMA section (../shared/seeds/000_*:
// 20 slots, FREE_SLOT polling, a group closed by GRP<n>_LAUNCH, "when both group0 and group1 are
// busy, no more command is allowed even if there are free slots", one DST_RAM_TYPE per group).
// Written from the spec text, never from RTL. Decisions the spec leaves open are in docs/BDMA.md.
//
// BDMA has no S_/D_ register groups and no OP_EN: the CFG_* registers are a staging area that a
// write of CFG_OP.EN=1 copies into a 20-entry command FIFO; CFG_LAUNCH0/1 closes the commands
// pushed since the previous launch as group 0/1 and starts them. BdmaEngine is that register
// block; the device (harness GoldenDevice) executes the batches it hands out and raises
// BDMA_DONE_STATUS<g> when the batch's interrupt is observed.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "golden/layout.hpp"

namespace dla::golden {

inline constexpr int kBdmaFifoDepth = 20;      // CSB command slots (STATUS.FREE_SLOT reset 0x14)
inline constexpr int kBdmaMaxRepeat = 8192;    // LINE_REPEAT / SURF_REPEAT NUMBER[12:0] + 1
inline constexpr int kBdmaMaxLineUnits = 8192; // CFG_LINE.SIZE[12:0] + 1 units of 32 bytes
inline constexpr uint64_t kBdmaUnit = 32;      // address, stride and line granule
// The golden model's limit on one command's bytes (NVDLA has none; the sparse memory would take
// minutes): a larger command is refused with the reason.
inline constexpr uint64_t kBdmaMaxCommandBytes = uint64_t{256} << 20;

// BDMA register offsets (block-relative), reference §5.
namespace bdma_reg {
inline constexpr uint32_t kSrcAddrLow = 0x00, kSrcAddrHigh = 0x04, kDstAddrLow = 0x08, kDstAddrHigh = 0x0c;
inline constexpr uint32_t kLine = 0x10, kCmd = 0x14, kLineRepeat = 0x18, kSrcLine = 0x1c, kDstLine = 0x20;
inline constexpr uint32_t kSurfRepeat = 0x24, kSrcSurf = 0x28, kDstSurf = 0x2c;
inline constexpr uint32_t kOp = 0x30, kLaunch0 = 0x34, kLaunch1 = 0x38, kCfgStatus = 0x3c, kStatus = 0x40;
inline constexpr uint32_t kGrp0ReadStall = 0x44, kGrp0WriteStall = 0x48, kGrp1ReadStall = 0x4c,
                          kGrp1WriteStall = 0x50;
inline constexpr int kStagingRegs = 12;  // CFG_SRC_ADDR_LOW .. CFG_DST_SURF
}  // namespace bdma_reg

// One copy command: for s < surfaces, l < lines: line_bytes from src + s*src_surf + l*src_line to
// dst + s*dst_surf + l*dst_line. Addresses and strides are multiples of 32 (the low 5 register bits
// do not exist); addresses are 40 bits (ADDR_HIGH[7:0]).
struct BdmaCommand {
  uint64_t src = 0, dst = 0;
  uint64_t line_bytes = kBdmaUnit;  // (CFG_LINE.SIZE + 1) * 32
  int lines = 1;                    // CFG_LINE_REPEAT.NUMBER + 1
  int surfaces = 1;                 // CFG_SURF_REPEAT.NUMBER + 1
  uint64_t src_line = 0, dst_line = 0, src_surf = 0, dst_surf = 0;
  bool src_mc = false, dst_mc = false;  // CFG_CMD RAM types (1 MC, 0 CVSRAM): one memory here

  [[nodiscard]] uint64_t bytes() const { return line_bytes * static_cast<uint64_t>(lines) * static_cast<uint64_t>(surfaces); }
  // The register values that program this command (index = offset / 4, CFG_SRC_ADDR_LOW..CFG_DST_SURF).
  [[nodiscard]] std::array<uint32_t, bdma_reg::kStagingRegs> registers() const;
  // Decodes the staging registers (only defined field bits are read). Reserved LINE/SURF_REPEAT
  // bits [23:13] set are reported by bdma_command_problems.
  [[nodiscard]] static BdmaCommand decode(const std::array<uint32_t, bdma_reg::kStagingRegs>& regs);
};

// What the golden model refuses in a staged command, one sentence each naming the field and rule
// (empty: runnable).
[[nodiscard]] std::vector<std::string> bdma_command_problems(const std::array<uint32_t, bdma_reg::kStagingRegs>& regs);

// One line for reports.
[[nodiscard]] std::string bdma_describe(const BdmaCommand& c);

// Executes one command: line by line, in surface-major order, each line read whole before it is
// written (so an overlapping copy behaves as NVDLA's read-then-write of a line).
void bdma_copy(const BdmaCommand& c, const ByteReader& read, const ByteWriter& write);

// A register access BDMA refuses: the program would hang or lose a command on NVDLA.
class BdmaRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The BDMA register block and command queue (reference §5). Time is the golden device's: a
// launched batch executes at once (its slots are free again immediately), but its group stays
// busy until the device releases the batch's done interrupt (release_group).
class BdmaEngine {
 public:
  struct Batch {
    int group = 0;
    std::vector<BdmaCommand> commands;  // in FIFO order; the last carries the interrupt
  };

  // A CSB write at a block offset. Returns the batch a CFG_LAUNCH<g> write starts, if any. Throws
  // BdmaRefused (with the reason) for a CFG_OP into a full FIFO or while both groups are busy, a
  // CFG_OP of a command the model refuses, a launch of a busy group, a launch with no command or
  // a batch mixing DST_RAM_TYPEs.
  std::optional<Batch> write(uint32_t offset, uint32_t value);
  [[nodiscard]] uint32_t read(uint32_t offset) const;
  // The batch of group g signalled its interrupt: GRP<g>_BUSY clears.
  void release_group(int g);

  [[nodiscard]] int free_slots() const { return kBdmaFifoDepth - static_cast<int>(fifo_.size()); }
  [[nodiscard]] bool busy(int g) const { return busy_[static_cast<std::size_t>(g)]; }
  [[nodiscard]] bool idle() const { return fifo_.empty() && !busy_[0] && !busy_[1]; }

 private:
  std::array<uint32_t, bdma_reg::kStagingRegs> staging_{};
  std::deque<BdmaCommand> fifo_;  // pushed, not yet launched (a launch drains its batch at once)
  std::array<bool, 2> busy_{};
  bool stall_count_en_ = false;
  std::array<uint32_t, 4> stall_{};  // GRP0 read, GRP0 write, GRP1 read, GRP1 write: 0 here
};

}  // namespace dla::golden
