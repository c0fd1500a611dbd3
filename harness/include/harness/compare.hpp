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

struct CompareResult {
  std::string region;          // what was compared, e.g. "psum"
  std::string axes = "n,c,h,w";  // what the four coordinates mean for this region
  CubeShape shape{};
  bool shape_ok = true;
  std::size_t elements = 0;
  std::size_t mismatches = 0;
  std::vector<Mismatch> first;  // the first `max_listed` mismatches, in element order
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
