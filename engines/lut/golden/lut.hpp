// The NVDLA two-table hybrid LUT engine (LE: 65 entries, linear or exponent index; LO: 257
// entries, linear index), in its two integer variants: SDP-Y (32-bit X, 35-bit fraction,
// weighted-sum interpolation, 32-bit output) and CDP (38-bit signed X, 16-bit fraction,
// y0 + (y1 - y0) * f interpolation, 16-bit output).
//
// Spec: ../shared/reference/nvdla-arithmetic.md section 1. Where NVDLA's C model and RTL
// disagree this model follows the RTL (see docs/LUT.md, "Decisions"):
//   * exponent-mode LE underflow bias B = 2^LE_INDEX_OFFSET for offset >= 0, i.e. B = 1 when the
//     offset is 0 (the SDP C model uses 0 there);
//   * SDP: B = 0 for offset >= 32 (the RTL's 32-bit shift expression), CDP: B = 0 for offset >= 38.
// Every rounding / shifting / saturating step goes through golden/arith.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dla::golden {

enum class LutVariant { Sdp, Cdp };

// CDP input precision (D_DATA_FORMAT): decides the width of the signed linear index select
// (7 bits for int16, 6 bits for int8). Ignored by SDP (its selects are signed 8-bit).
enum class LutPrecision { Int16, Int8 };

inline constexpr int kLutLeEntries = 65;
inline constexpr int kLutLoEntries = 257;

struct LutTables {
  std::array<int16_t, kLutLeEntries> le{};
  std::array<int16_t, kLutLoEntries> lo{};
  bool operator==(const LutTables&) const = default;
};

// The decoded S_LUT_* fields. The three 8-bit LUT_INFO fields are kept as their raw signed 8-bit
// value; CDP narrows the index selects itself (see lut_lookup), as its hardware does.
struct LutConfig {
  bool le_linear = false;        // LUT_LE_FUNCTION: false = exponent, true = linear
  bool uflow_prio_lo = false;    // LUT_UFLOW_PRIORITY: false = LE, true = LO
  bool oflow_prio_lo = false;    // LUT_OFLOW_PRIORITY
  bool hybrid_prio_lo = false;   // LUT_HYBRID_PRIORITY
  int8_t le_index_offset = 0;    // exponent mode: entry i sits at X = LE_START + 2^(i + offset)
  int8_t le_index_select = 0;    // linear LE: entry i sits at X = LE_START + i * 2^select
  int8_t lo_index_select = 0;
  int64_t le_start = 0, le_end = 0, lo_start = 0, lo_end = 0;  // SDP int32, CDP signed 38-bit
  int16_t le_uflow_scale = 0, le_oflow_scale = 0, lo_uflow_scale = 0, lo_oflow_scale = 0;
  int le_uflow_shift = 0, le_oflow_shift = 0, lo_uflow_shift = 0, lo_oflow_shift = 0;  // signed 5-bit
  LutPrecision precision = LutPrecision::Int16;  // CDP only
  bool operator==(const LutConfig&) const = default;
};

// ---- register words -------------------------------------------------------------------------
// Block-relative byte offsets shared by SDP and CDP.
inline constexpr uint32_t kLutAccessCfgOffset = 0x08;
inline constexpr uint32_t kLutAccessDataOffset = 0x0c;
// The configuration registers are the words at offsets 0x10, 0x14, ... in register-map order:
//   SDP (10 words): LUT_CFG, LUT_INFO, LE_START, LE_END, LO_START, LO_END, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
//   CDP (14 words): LUT_CFG, LUT_INFO, LE_START_LOW, LE_START_HIGH, LE_END_LOW, LE_END_HIGH,
//                   LO_START_LOW, LO_START_HIGH, LO_END_LOW, LO_END_HIGH, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
// The RTL engine's lut_regs_i port takes the same words in the same order (word k = offset
// 0x10 + 4k).
inline constexpr uint32_t kLutCfgFirstOffset = 0x10;
constexpr int lut_reg_count(LutVariant v) { return v == LutVariant::Sdp ? 10 : 14; }

// Decode words (lut_reg_count(v) of them, see above). Only the defined field bits are read.
LutConfig decode_lut_config(LutVariant v, std::span<const uint32_t> words,
                            LutPrecision precision = LutPrecision::Int16);
// The inverse: the register words for a config (start/end truncated to the register width).
std::vector<uint32_t> encode_lut_config(LutVariant v, const LutConfig& cfg);

// The full programming sequence a driver would issue, as (block-relative byte offset, value):
// the configuration words, then ACCESS_CFG(LE, write, addr 0) + 65 DATA writes, then
// ACCESS_CFG(LO, write, addr 0) + 257 DATA writes.
std::vector<std::pair<uint32_t, uint32_t>> lut_register_writes(LutVariant v, const LutConfig& cfg,
                                                               const LutTables& tables);

// S_LUT_ACCESS_CFG field helpers.
constexpr uint32_t lut_access_cfg(bool table_lo, bool write, uint32_t addr) {
  return (addr & 0x3ffu) | (table_lo ? 1u << 16 : 0u) | (write ? 1u << 17 : 0u);
}

// ---- lookup ---------------------------------------------------------------------------------
enum class LutTableStatus : uint8_t { Hit, Uflow, Oflow };

struct LutResult {
  int64_t value = 0;      // SDP: signed 32-bit, CDP: signed 16-bit
  bool uflow = false;     // final flags after the priority rules
  bool oflow = false;
  bool le_hit = false;    // LE (resp. LO) hit on its own, independent of the selection
  bool lo_hit = false;
  bool lo_selected = false;  // the table whose entry/slope produced value
  LutTableStatus le_status = LutTableStatus::Hit;
  LutTableStatus lo_status = LutTableStatus::Hit;
  int le_index = 0, lo_index = 0;      // 0..64 / 0..256 (0 on underflow, last on overflow)
  uint64_t le_frac = 0, lo_frac = 0;   // SDP 35-bit, CDP 16-bit fraction (0 unless hit)
};

// One lookup. x is the LUT input: SDP uses its low 32 bits as int32 (the EW ALU output), CDP its
// low 38 bits as a signed 38-bit value (the square sum, or x itself with SQSUM_BYPASS).
LutResult lut_lookup(LutVariant v, const LutConfig& cfg, const LutTables& tables, int64_t x);

// One lookup in NVDLA v1's float LUT (fp16 SDP and CDP; docs/FP16.md "SDP EW and LUT", "CDP in
// fp16"): x (SDP's EW output, CDP's square sum) and the four range registers (le_start .. lo_end,
// low 32 bits) are fp32 patterns, the table entries and slope scales fp16 patterns, the slope
// shifts unused. value is an fp32 pattern for SDP (its fp17 result widened), the fp17 pattern
// for CDP (which multiplies it in fp17); the fractions are SDP 35-bit, CDP 16-bit.
LutResult lut_lookup_fp(LutVariant v, const LutConfig& cfg, const LutTables& tables, uint32_t x);

// ---- statistics -----------------------------------------------------------------------------
struct LutStats {
  uint32_t uflow = 0, oflow = 0, hybrid = 0, le_hit = 0, lo_hit = 0;
  bool operator==(const LutStats&) const = default;
};

// Count one lookup, each counter saturating at 0xFFFFFFFF.
//   SDP: uflow/oflow += final flag; le_hit/lo_hit += that table's own hit (both may count);
//        hybrid += !(uflow || oflow) (every non-flow result).
//   CDP: exactly one counter per lookup: both uflow -> uflow; both oflow -> oflow; only LE hit ->
//        le_hit; only LO hit -> lo_hit; both hit, or one uflow and the other oflow -> hybrid.
void accumulate(LutVariant v, LutStats& stats, const LutResult& r);

// ---- table programming ----------------------------------------------------------------------
// S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA semantics, plus the engine's busy refusal (docs/LUT.md):
//   * cfg_write latches LUT_ADDR (clamped to the table's last entry), LUT_TABLE_ID, ACCESS_TYPE.
//   * data_write with ACCESS_TYPE = write stores LUT_DATA[15:0] at the current entry and
//     increments the address, saturating at 64 (LE) / 256 (LO). With ACCESS_TYPE = read it is
//     ignored (nothing stored, no increment).
//   * data_read returns the current entry (zero-extended 16 bits); with ACCESS_TYPE = read it then
//     increments (saturating); with ACCESS_TYPE = write it does not increment.
//   * while busy, cfg_write and data_write are refused: nothing changes except the sticky error
//     flag; they return false. Reads are always served.
class LutRam {
 public:
  bool cfg_write(uint32_t word);
  [[nodiscard]] uint32_t cfg_read() const;
  bool data_write(uint32_t word);
  uint32_t data_read();

  void set_busy(bool busy) { busy_ = busy; }
  [[nodiscard]] bool busy() const { return busy_; }
  [[nodiscard]] bool error() const { return error_; }
  void clear_error() { error_ = false; }

  [[nodiscard]] const LutTables& tables() const { return tables_; }
  LutTables& tables() { return tables_; }
  [[nodiscard]] uint32_t addr() const { return addr_; }
  [[nodiscard]] bool table_lo() const { return table_lo_; }

 private:
  LutTables tables_{};
  uint32_t addr_ = 0;
  bool table_lo_ = false;
  bool write_ = false;
  bool busy_ = false;
  bool error_ = false;
};

}  // namespace dla::golden
