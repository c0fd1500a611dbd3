// The register program: the hub every layer description and NVDLA trace compiles into
// (../shared/DESIGN.md §2). A list of memory loads/fills, register writes/reads, interrupt
// waits and checks, replayed identically against the golden model and the RTL.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/json_reader.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

enum class StepOp { MemLoad, MemFill, RegWrite, RegRead, WaitIntr, WaitAny, Check };
enum class CheckKind { Golden, Crc32, File };

// Reads a poll makes before it gives up, where the program does not say (JSON "max_reads").
// Enough for the longest wait a poll covers on the RTL: CBUF's flush after reset, 16,384 cycles
// on nv_medium_512, at a few cycles per CSB read.
inline constexpr uint32_t kPollReads = 1'000'000;

struct ProgramStep {
  StepOp op = StepOp::RegWrite;
  std::string where;  // "file: /steps/3" or "file: line 12", for run-time messages
  // memory
  uint64_t addr = 0;
  uint64_t size = 0;
  uint8_t fill = 0;
  std::vector<uint8_t> bytes;  // mem_load payload (laid out from addr; sparse .dat gaps are 0)
  // registers
  const RegDef* reg = nullptr;
  uint32_t value = 0;
  uint32_t mask = 0xffffffffu;  // reg_read: bits compared
  // reg_read as a poll (JSON op "poll"): read up to poll_reads times until (read & mask) equals
  // `value` (or differs from it with poll_not_equal); each device polls on its own, nothing is
  // compared between them. 0: a single read, compared.
  uint32_t poll_reads = 0;
  bool poll_not_equal = false;
  // interrupts: unit and group, e.g. "SDP_0"
  std::string intr;
  uint32_t sync_id = 0;
  // checks
  CheckKind check = CheckKind::Golden;
  uint32_t crc = 0;
  std::filesystem::path file;
};

struct Program {
  std::string name;
  std::string config;
  std::vector<ProgramStep> steps;
};

// Register values a judging C model is given instead of the program's (step index -> value), and
// why (docs/CMOD.md "Where the model is not a judge"); empty for the program as written.
struct CmodAdaptation {
  std::map<std::size_t, uint32_t> writes;
  std::string why;
  [[nodiscard]] bool empty() const { return writes.empty(); }
};

// Parses the "steps" array of a program layer (docs/LAYER_FORMAT.md); throws InputError.
[[nodiscard]] Program parse_program(const JsonNode& root, const std::string& name, const std::string& config);

// An NVDLA .dat memory image: `{offset:0x.., size:N, payload:0x.. ...},` lines.
struct DatChunk {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};
[[nodiscard]] std::vector<DatChunk> read_dat_file(const std::filesystem::path& file);
// The same image as bytes from its load address (gaps between records are 0); an image spanning
// more than kMaxDatImageBytes (a record's offset + size) is refused.
inline constexpr uint64_t kMaxDatImageBytes = uint64_t{256} << 20;
[[nodiscard]] std::vector<uint8_t> read_dat_image(const std::filesystem::path& file);

// Interrupt names accepted by wait_intr: <UNIT>_<GROUP> as in GLB S_INTR_STATUS.
[[nodiscard]] bool valid_interrupt_name(const std::string& name);

}  // namespace dla::harness
