// The compare engine: every element of an output cube, RTL (actual) against golden (expected).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "golden/cube.hpp"

namespace dla::harness {

using golden::Cube;
using golden::CubeCoord;
using golden::CubeShape;

struct Mismatch {
  CubeCoord coord;
  int64_t actual = 0;
  int64_t expected = 0;
};

// Where in the cube the mismatches are, coarsely: the (h, w) plane of each channel c is cut into a
// grid of at most kMaxGrid x kMaxGrid cells of cell_h x cell_w elements, and each cell counts the
// mismatching elements in it, summed over n. Only non-empty cells are kept, in (c, row, col)
// order, and at most kMaxCells of them (the rest, those of the highest channels, are only
// counted in cells_dropped), so a result stays small however broken the run. Drawn as a heatmap
// per channel by the HTML report (html_report.hpp).
struct MismatchCell {
  int c = 0;
  int row = 0;  // h / cell_h
  int col = 0;  // w / cell_w
  uint64_t count = 0;
  bool operator==(const MismatchCell&) const = default;
};

struct MismatchMap {
  static constexpr int kMaxGrid = 32;
  static constexpr std::size_t kMaxCells = 2048;
  int cell_h = 1;
  int cell_w = 1;
  int rows = 0;  // ceil(h / cell_h)
  int cols = 0;  // ceil(w / cell_w)
  std::vector<MismatchCell> cells;
  std::size_t cells_dropped = 0;
  [[nodiscard]] bool empty() const { return cells.empty() && cells_dropped == 0; }
};

// The grid of a cube shape: cell_h = ceil(h / kMaxGrid), rows = ceil(h / cell_h), same for w.
[[nodiscard]] MismatchMap mismatch_grid(const CubeShape& shape);

struct CompareResult {
  std::string region;          // what was compared, e.g. "psum"
  std::string axes = "n,c,h,w";  // what the four coordinates mean for this region
  CubeShape shape{};
  bool shape_ok = true;
  std::size_t elements = 0;
  std::size_t mismatches = 0;
  std::vector<Mismatch> first;  // the first `max_listed` mismatches, in element order
  MismatchMap map;              // where all the mismatches are (empty when none, or the shape differs)
  uint32_t crc_actual = 0;
  uint32_t crc_expected = 0;
  [[nodiscard]] bool pass() const { return shape_ok && mismatches == 0; }
};

struct CompareOptions {
  std::size_t max_listed = 10;
  int element_bytes = 8;                // bytes per element in the CRC and the dumps
  std::filesystem::path dump_dir;       // when set and the compare fails: gzip dumps
  std::string dump_stem = "cube";
};

// CRC32 (zlib) of the cube's elements, each as `element_bytes` little-endian bytes, flat order.
[[nodiscard]] uint32_t cube_crc32(const Cube<int64_t>& cube, int element_bytes);
[[nodiscard]] std::vector<uint8_t> cube_bytes(const Cube<int64_t>& cube, int element_bytes);

[[nodiscard]] CompareResult compare_cubes(std::string region, const Cube<int64_t>& actual,
                                          const Cube<int64_t>& expected, const CompareOptions& opt);

[[nodiscard]] std::string format_coord(const CompareResult& r, const CubeCoord& c);

}  // namespace dla::harness
