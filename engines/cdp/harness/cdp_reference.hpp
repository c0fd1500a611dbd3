// An int64 reference for `cdp` layers, independent of the golden CDP: the layer read from its
// JSON (docs/LAYER_FORMAT.md, "`cdp` layers") and its expected output and statistics computed with
// plain integer loops as ../shared/reference/pdp-cdp-bdma-rubik.md §3 and nvdla-arithmetic.md §5
// state the arithmetic: x = sat(rhaz((in - DATIN_OFFSET) x DATIN_SCALE / 2^DATIN_SHIFTER)) to 9 / 17
// bits; Q = the sum of x^2 over the NORMALZ_LEN channels centred on c that lie in [0, C) (x itself
// with SQSUM_BYPASS); r = the CDP LUT at Q; p = r x x (r with MUL_BYPASS); out = sat(rhaz((p -
// DATOUT_OFFSET) x DATOUT_SCALE / 2^DATOUT_SHIFTER)) to 8 / 16 bits. Every lane of the last surface
// is computed (lanes past C with x = 0). The statistics follow the spec's CDP rule (exactly one
// counter per lookup). The one piece it shares with the golden model is the LUT lookup itself
// (golden::lut_lookup, verified on its own against hand-worked cases and the LUT RTL; docs/LUT.md),
// and the tables come from the same "lut" parser the layers use (engines::parse_lut_object). Input
// values are the JSON's "values", or the harness's value generator (resolve_values) for "random" /
// "file", so they are the values the layer runs with.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engines/lut/golden/lut.hpp"
#include "harness/json_reader.hpp"
#include "harness/memory.hpp"

namespace dla::harness::cdp_ref {

// Default bases of `cdp` layers (the compiler's too: engines/cdp/harness/cdp.hpp).
inline constexpr uint64_t kInputBase = 0x8000'0000ull;
inline constexpr uint64_t kOutputBase = 0xc000'0000ull;

struct Layer {
  std::string name, config;
  int W = 1, H = 1, C = 1;
  bool int16 = false;
  int atom = 8;
  int window = 3;
  bool sqsum_bypass = false, mul_bypass = false;
  int64_t in_offset = 0, in_scale = 1;
  int in_shift = 0;
  int64_t out_offset = 0, out_scale = 1;
  int out_shift = 0;
  bool perf_lut = true;
  golden::LutConfig lut{};
  golden::LutTables tables{};
  std::vector<int64_t> in;  // C*H*W, c-major
  uint64_t out_base = kOutputBase, out_line_stride = 0, out_surface_stride = 0;

  [[nodiscard]] int bpe() const { return int16 ? 2 : 1; }
  [[nodiscard]] int lanes() const {
    const int ca = atom / bpe();
    return (C + ca - 1) / ca * ca;
  }
  // Byte address of output lane c at (y, x).
  [[nodiscard]] uint64_t out_address(int c, int y, int x) const;
};

// D_PERF_LUT_{UFLOW,OFLOW,HYBRID,LE_HIT,LO_HIT} (0 without perf_lut_en) and D_OUT_SATURATION.
// `mixed` (not a register; for coverage): the lookups where one table underflowed and the other
// overflowed (counted in hybrid).
struct Stats {
  uint32_t uflow = 0, oflow = 0, hybrid = 0, le_hit = 0, lo_hit = 0, saturation = 0;
  uint32_t mixed = 0;
  bool operator==(const Stats&) const = default;
};

struct Result {
  std::vector<int64_t> out;  // lanes x H x W, lane-major
  Stats stats;
};

[[nodiscard]] Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed);
[[nodiscard]] Layer read_layer(const std::filesystem::path& file, uint64_t seed);

[[nodiscard]] Result reference(const Layer& L);

// Reads the output lanes from `mem` at the layer's output layout (sign-extended elements).
[[nodiscard]] std::vector<int64_t> read_output(const Layer& L, const Memory& mem);

// Empty when `actual` equals reference(L).out, else the first differing element and the count.
[[nodiscard]] std::string compare(const Layer& L, const std::vector<int64_t>& actual);

}  // namespace dla::harness::cdp_ref
