#include "harness/compare.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "harness/files.hpp"

namespace dla::harness {

std::vector<uint8_t> cube_bytes(const Cube<int64_t>& cube, int element_bytes) {
  std::vector<uint8_t> out;
  out.reserve(cube.size() * static_cast<std::size_t>(element_bytes));
  for (const int64_t v : cube.data()) {
    const auto u = static_cast<uint64_t>(v);
    for (int b = 0; b < element_bytes; ++b) out.push_back(static_cast<uint8_t>(u >> (8 * b)));
  }
  return out;
}

uint32_t cube_crc32(const Cube<int64_t>& cube, int element_bytes) {
  const auto bytes = cube_bytes(cube, element_bytes);
  return static_cast<uint32_t>(::crc32(::crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size())));
}

MismatchMap mismatch_grid(const CubeShape& shape) {
  MismatchMap m;
  const auto ceil_div = [](int a, int b) { return (a + b - 1) / b; };
  m.cell_h = std::max(1, ceil_div(shape.h, MismatchMap::kMaxGrid));
  m.cell_w = std::max(1, ceil_div(shape.w, MismatchMap::kMaxGrid));
  m.rows = ceil_div(shape.h, m.cell_h);
  m.cols = ceil_div(shape.w, m.cell_w);
  return m;
}

CompareResult compare_cubes(std::string region, const Cube<int64_t>& actual, const Cube<int64_t>& expected,
                            const CompareOptions& opt) {
  CompareResult r;
  r.region = std::move(region);
  r.shape = expected.shape();
  r.elements = expected.size();
  r.crc_actual = cube_crc32(actual, opt.element_bytes);
  r.crc_expected = cube_crc32(expected, opt.element_bytes);
  r.shape_ok = actual.shape() == expected.shape();
  if (r.shape_ok) {
    r.map = mismatch_grid(r.shape);
    std::map<std::tuple<int, int, int>, uint64_t> cells;  // (c, row, col) -> mismatches
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (actual[i] == expected[i]) continue;
      ++r.mismatches;
      const CubeCoord k = expected.coord(i);
      if (r.first.size() < opt.max_listed) r.first.push_back({k, actual[i], expected[i]});
      ++cells[{k.c, k.h / r.map.cell_h, k.w / r.map.cell_w}];
    }
    for (const auto& [key, count] : cells) {
      if (r.map.cells.size() == MismatchMap::kMaxCells) {
        ++r.map.cells_dropped;
        continue;
      }
      r.map.cells.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
    }
  } else {
    r.mismatches = expected.size();
  }
  if (!r.pass() && !opt.dump_dir.empty()) {
    std::filesystem::create_directories(opt.dump_dir);
    write_gzip_atomic(opt.dump_dir / (opt.dump_stem + "." + r.region + ".actual.bin.gz"),
                      cube_bytes(actual, opt.element_bytes));
    write_gzip_atomic(opt.dump_dir / (opt.dump_stem + "." + r.region + ".expected.bin.gz"),
                      cube_bytes(expected, opt.element_bytes));
  }
  return r;
}

std::string format_coord(const CompareResult& r, const CubeCoord& c) {
  // Label the coordinates with the region's axis names, e.g. "(n=0, c=3, h=0, w=17)".
  std::vector<std::string> names;
  std::stringstream ss(r.axes);
  for (std::string item; std::getline(ss, item, ',');) names.push_back(item);
  while (names.size() < 4) names.push_back("?");
  return fmt::format("({}={}, {}={}, {}={}, {}={})", names[0], c.n, names[1], c.c, names[2], c.h, names[3], c.w);
}

}  // namespace dla::harness
