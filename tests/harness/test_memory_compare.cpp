#include <catch2/catch.hpp>
#include <filesystem>

#include "harness/compare.hpp"
#include "harness/files.hpp"
#include "harness/memory.hpp"
#include "harness/report.hpp"
#include "harness/rng.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

TEST_CASE("memory model: sparse, zero-filled, CRC32 as zlib", "[memory]") {
  Memory m;
  // NVDLA's all-zero passthrough tests expect crc32 of 0x800 zero bytes = 0xf1e8ba9e.
  CHECK(m.crc32(0x80000000ULL, 0x800) == 0xf1e8ba9eu);
  CHECK(m.pages() == 0);  // reading allocates nothing
  // The CRC-32 check value: crc32("123456789") = 0xCBF43926.
  const std::string nine = "123456789";
  m.write(0xfff9, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(nine.data()), nine.size()));
  CHECK(m.crc32(0xfff9, 9) == 0xcbf43926u);  // spans a page boundary at 0x10000
  CHECK(m.pages() == 2);
  CHECK(m.read(0xfff8) == 0);
  CHECK(m.read(0x10001) == '9');
  const uint64_t high = 0xffff'ffff'ffff'f000ULL;
  m.fill(high, 16, 0xab);
  CHECK(m.read(high + 15) == 0xab);
  CHECK(m.read(high + 16) == 0);
  const auto bytes = m.read(0xfffe, 4);
  CHECK(bytes == std::vector<uint8_t>{'6', '7', '8', '9'});
}

TEST_CASE("compare engine: counts, coordinates, CRCs, dumps", "[compare]") {
  Cube<int64_t> e({1, 2, 3, 4});
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = static_cast<int64_t>(i) - 10;
  Cube<int64_t> a = e;
  CompareOptions opt;
  auto r = compare_cubes("out", a, e, opt);
  CHECK(r.pass());
  CHECK(r.elements == 24);
  CHECK(r.crc_actual == r.crc_expected);
  // flip element (n=0, c=1, h=2, w=3) = flat ((0*2+1)*3+2)*4+3 = 23, and (0,0,1,0) = 4
  a.at(0, 1, 2, 3) ^= 1;
  a.at(0, 0, 1, 0) = 99;
  opt.max_listed = 1;
  opt.dump_dir = fs::temp_directory_path() / "dla_compare_dump";
  fs::remove_all(opt.dump_dir);
  r = compare_cubes("out", a, e, opt);
  CHECK_FALSE(r.pass());
  CHECK(r.mismatches == 2);
  REQUIRE(r.first.size() == 1);
  CHECK(r.first[0].coord == CubeCoord{0, 0, 1, 0});
  CHECK(r.first[0].actual == 99);
  CHECK(r.first[0].expected == -6);
  CHECK(r.crc_actual != r.crc_expected);
  CHECK(format_coord(r, r.first[0].coord) == "(n=0, c=0, h=1, w=0)");
  const auto dumped = read_gzip_file(opt.dump_dir / "cube.out.actual.bin.gz");
  CHECK(dumped == cube_bytes(a, 8));
  CHECK(read_gzip_file(opt.dump_dir / "cube.out.expected.bin.gz") == cube_bytes(e, 8));
  fs::remove_all(opt.dump_dir);
  // A shape difference is a mismatch of every element.
  r = compare_cubes("out", Cube<int64_t>({1, 1, 1, 1}), e, CompareOptions{});
  CHECK_FALSE(r.shape_ok);
  CHECK(r.mismatches == 24);
}

TEST_CASE("cube CRC is over little-endian element bytes", "[compare]") {
  Cube<int64_t> c({1, 1, 1, 3});
  c[0] = 0x31;
  c[1] = 0x32;
  c[2] = 0x33;
  // crc32("123") = 0x884863d2
  CHECK(cube_crc32(c, 1) == 0x884863d2u);
  c[0] = -1;
  CHECK(cube_bytes(c, 2) == std::vector<uint8_t>{0xff, 0xff, 0x32, 0x00, 0x33, 0x00});
}

TEST_CASE("reports: JUnit XML and exit codes", "[report]") {
  RunResult pass;
  pass.name = "a<b";
  pass.unit = "cmac";
  pass.config = "nv_small";
  pass.mode = "cross";
  RunResult fail = pass;
  fail.name = "f";
  fail.status = Status::Mismatch;
  fail.message = "1 elements differ";
  RunResult bad = pass;
  bad.name = "x";
  bad.status = Status::BadInput;
  const std::string xml = junit_xml("suite", {pass, fail, bad});
  CHECK_THAT(xml, Catch::Contains("tests=\"3\" failures=\"1\" errors=\"1\""));
  CHECK_THAT(xml, Catch::Contains("name=\"a&lt;b\""));
  CHECK_THAT(xml, Catch::Contains("<failure message=\"1 elements differ\">"));
  CHECK(exit_code(std::vector<RunResult>{pass}) == 0);
  CHECK(exit_code(std::vector<RunResult>{pass, fail}) == 1);
  CHECK(exit_code(std::vector<RunResult>{fail, bad}) == 2);
  CHECK_THAT(format_table({pass, fail}), Catch::Contains("1 passed, 1 failed"));
}

TEST_CASE("rng streams are deterministic and independent", "[rng]") {
  Rng a = Rng::derive(7, "x"), b = Rng::derive(7, "x"), c = Rng::derive(7, "y"), d = Rng::derive(8, "x");
  const uint64_t va = a.next();
  CHECK(va == b.next());
  CHECK(va != c.next());
  CHECK(va != d.next());
  Rng r(1);
  for (int i = 0; i < 1000; ++i) {
    const int64_t v = r.range(-3, 4);
    REQUIRE(v >= -3);
    REQUIRE(v <= 4);
  }
  StallInjector never(1, "p", 0.0), always(1, "p", 1.0);
  int n = 0;
  for (int i = 0; i < 100; ++i) n += never.stall() ? 1 : 0;
  CHECK(n == 0);
  for (int i = 0; i < 100; ++i) n += always.stall() ? 1 : 0;
  CHECK(n == 100);
}
