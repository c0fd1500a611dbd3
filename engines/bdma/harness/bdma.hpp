// `bdma` layers (docs/LAYER_FORMAT.md, "`bdma` layers"): copy commands in launches, compiled into
// the register program a driver would issue.
#pragma once

#include "harness/bench.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "engines/bdma/golden/bdma.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

inline constexpr uint64_t kBdmaMaxLayerBytes = uint64_t{16} << 20;  // bytes copied by all commands
inline constexpr uint64_t kBdmaMaxLayerLines = uint64_t{1} << 20;   // lines of all commands
inline constexpr uint64_t kBdmaMaxLayerExtent = uint64_t{64} << 20; // source + destination extents (gaps too)
inline constexpr uint8_t kBdmaDstFill = 0x5a;  // destination regions before the layer

struct BdmaLaunch {
  int group = 0;
  std::vector<golden::BdmaCommand> commands;  // 1..20, executed in order
};

struct BdmaLayer {
  std::vector<BdmaLaunch> launches;
  bool poll_free_slot = false;  // poll STATUS.FREE_SLOT != 0 before every CFG_OP, as the firmware does
  bool stall_count = false;     // CFG_STATUS.STALL_COUNT_EN
};

// Parses and checks a `bdma` layer body (throws InputError naming file, JSON pointer and rule):
// nv_full only; addresses and strides multiples of 32 below 2^40 / 2^32; line sizes multiples of 32
// up to 8192 x 32 bytes; 1..8192 lines and surfaces; line strides >= the line size and surface
// strides >= line stride x lines; 1..20 commands per launch, one destination RAM type per launch;
// no written region overlapping another command's source or destination.
[[nodiscard]] BdmaLayer bdma_layer(const LayerHeader& h, const JsonNode& root);

// Compiles a `bdma` layer into its register program: destination regions filled with 0x5a, every
// command's source extent loaded with bytes drawn from the layer seed (stride gaps included), then
// per launch: (a wait for the group's previous launch, or for the oldest one when both groups are
// busy,) per command (a FREE_SLOT poll,) the twelve CFG_* registers and CFG_OP, and CFG_LAUNCH<g>;
// then the outstanding interrupts in launch order, STATUS read back idle (0x114) and a golden
// check of every destination extent.
[[nodiscard]] Program compile_bdma_layer(const LayerHeader& h, const JsonNode& root);
// The same, placed in a network's program (docs/NETWORKS.md): with `at.input` the sources are
// tensors already in memory (nothing loaded); run on `at.device` when it has one.
[[nodiscard]] Program compile_bdma_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at);

// First byte and end of the region a command touches on one side (stride gaps included).
[[nodiscard]] uint64_t bdma_src_end(const golden::BdmaCommand& c);
[[nodiscard]] uint64_t bdma_dst_end(const golden::BdmaCommand& c);

// What the engine registers (its _engine.cpp).
// BDMA copy launches: `bdma` layers compiled to register programs (engines/bdma/harness/bdma.cpp)
[[nodiscard]] UnitHandler bdma_handler();
// BDMA copies on the BDMA RTL: bytes per cycle against NVDLA's rate (engines/bdma/harness/bdma_bench.cpp)
[[nodiscard]] std::vector<BenchCase> bench_bdma(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_bdma(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
