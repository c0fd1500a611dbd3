// The NVDLA RUBIK engine (RBK block, nv_full only): data-layout transforms of int8 / int16 / fp16
// data (fp16 moves as 16-bit patterns, as int16), register level and bit exact.
//   CONTRACT  depth-to-space for deconvolution: a W x H cube of sx*sy sub-cubes of Cout channels
//             becomes a (W*sx) x (H*sy) x Cout cube (whole 32-byte atoms are moved);
//   SPLIT     a W x H x C feature cube becomes C planes of H lines of W packed elements;
//   MERGE     C such planes become a W x H x C feature cube.
//
// Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §1 (register groups) and §6 (registers, the
// address formulas of each mode), the programming guide seed ../shared/seeds/000_* (RUBIK
// programming, which registers each mode does not use, alignment limits). Written from the spec
// text, never from RTL. Decisions the spec leaves open are listed in docs/RUBIK.md ("Decisions").
// Feature cubes go through golden/layout.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/layout.hpp"

namespace dla::golden {

// D_MISC_CFG.RUBIK_MODE and D_MISC_CFG.IN_PRECISION codes.
enum class RubikMode : uint8_t { Contract = 0, Split = 1, Merge = 2, Reserved = 3 };
enum class RubikPrecision : uint8_t { Int8 = 0, Int16 = 1, Fp16 = 2, Reserved = 3 };

inline constexpr int kRubikAtomBytes = 32;  // RUBIK moves 32-byte atoms (nv_full's atom)

[[nodiscard]] const char* rubik_mode_name(RubikMode m);

struct RubikConfig {
  RubikMode mode = RubikMode::Contract;
  RubikPrecision precision = RubikPrecision::Int16;  // IN_PRECISION resets to INT16
  int width = 1;         // DATAIN_WIDTH + 1 (input W; output W is width * sx in CONTRACT)
  int height = 1;        // DATAIN_HEIGHT + 1
  int in_channels = 1;   // DATAIN_CHANNEL + 1: the planes MERGE reads (unused by CONTRACT)
  int out_channels = 1;  // DATAOUT_CHANNEL + 1: Cout of CONTRACT, the planes SPLIT writes
  int sx = 1, sy = 1;    // DECONV_X_STRIDE + 1, DECONV_Y_STRIDE + 1 (CONTRACT only)
  // Addresses and strides in bytes (the registers keep bits [31:5], so all are multiples of 32).
  uint64_t dain_base = 0, dain_line_stride = 0, dain_surf_stride = 0, dain_planar_stride = 0;
  uint64_t daout_base = 0, daout_line_stride = 0, daout_surf_stride = 0, daout_planar_stride = 0;
  uint64_t contract_stride_0 = 0;  // CONTRACT: input stride between the sx*sy sub-cubes
  uint64_t contract_stride_1 = 0;  // CONTRACT: output stride between consecutive input lines
  bool dain_ram_mc = false, daout_ram_mc = false;  // recorded only: one memory
  bool perf_en = false;                            // D_PERF_ENABLE.PERF_EN

  [[nodiscard]] int bpe() const { return precision == RubikPrecision::Int8 ? 1 : 2; }
  [[nodiscard]] int lanes_per_atom() const { return kRubikAtomBytes / bpe(); }
  // Channels of the cube side of the transform: Cout (CONTRACT, SPLIT) or C (MERGE).
  [[nodiscard]] int cube_channels() const { return mode == RubikMode::Merge ? in_channels : out_channels; }
  // 32-byte surfaces of the cube side (CONTRACT: of one sub-cube).
  [[nodiscard]] int surfaces() const;
  // Everything in this config RUBIK cannot do or the model does not model, one sentence each
  // naming the register field and the rule (empty: runnable on `hw`). Overlaps are found by run_rubik.
  [[nodiscard]] std::vector<std::string> unsupported(const HwConfig& hw) const;
};

using RubikRegReader = std::function<uint32_t(uint32_t offset)>;

// Decodes the RBK block's D_ registers of one group. Only defined field bits are read.
[[nodiscard]] RubikConfig decode_rubik(const RubikRegReader& rbk);

// One line for reports: mode, precision, sizes, strides.
[[nodiscard]] std::string rubik_describe(const RubikConfig& c);

// The input cube of CONTRACT sub-cube j (j = sy_i * sx + sx_i) and of SPLIT, and the output cube
// of MERGE, as feature layouts (atom 32, the precision's bpe).
[[nodiscard]] FeatureLayout rubik_subcube_layout(const RubikConfig& c, int j);
[[nodiscard]] FeatureLayout rubik_merge_output_layout(const RubikConfig& c);

struct RubikRun {
  uint64_t atoms_read = 0;     // 32-byte atoms read
  uint64_t atoms_written = 0;  // 32-byte atoms written
};

// Runs one layer: reads through `read`, writes whole 32-byte atoms through `write`. Throws
// std::invalid_argument naming the first problem if cfg.unsupported(hw) is not empty, if two
// written atoms land on the same address, or if a written atom is also read (the result would
// depend on the engine's order); nothing is written then.
[[nodiscard]] RubikRun run_rubik(const RubikConfig& cfg, const HwConfig& hw, const ByteReader& read,
                                 const ByteWriter& write);

}  // namespace dla::golden
