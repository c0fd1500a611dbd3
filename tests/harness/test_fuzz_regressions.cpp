// Inputs that crashed a parser, found by the fuzz targets or while writing them
// (tests/fuzz/regressions/<target>/, docs/FUZZING.md), replayed through the same entry the fuzz
// target uses: each must now be accepted or refused with an InputError; any other exception fails
// the test, a crash or sanitizer report fails the binary. Also the refusals' messages, the 100 KB
// lines std::regex could not take, and a suite's bare pattern in the current directory.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "../fuzz/fuzz_inputs.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("fuzz regression inputs are accepted or refused with InputError", "[fuzz]") {
  const fs::path root = fs::path(DLA_SOURCE_DIR) / "tests/fuzz/regressions";
  std::set<fs::path> files;  // sorted: a stable order in the log
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().filename() != "README.md") files.insert(e.path());
  }
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    const std::string target = f.parent_path().filename().string();
    const auto kind = dla::fuzz::input_of_target(target);
    const std::string unit = target.starts_with("layer_") ? target.substr(6) : std::string();
    INFO(f.string());
    CHECK_NOTHROW((void)dla::fuzz::parse_bytes(kind, read_bytes(f), unit));
  }
}

TEST_CASE("a suite's bare pattern matches files of the current directory", "[fuzz][suite]") {
  const fs::path dir = fs::temp_directory_path() / "dla-suite-bare-pattern";
  fs::create_directories(dir);
  std::ofstream(dir / "a.json") << "{}";
  std::ofstream(dir / "suite.json") << R"({"layers": ["*.json"]})";
  const fs::path cwd = fs::current_path();
  fs::current_path(dir);
  const auto suite = dla::harness::load_suite("suite.json");
  fs::current_path(cwd);
  REQUIRE(suite.entries.size() == 2);
  CHECK(suite.entries[0].layer == fs::path("./a.json"));
  CHECK(suite.entries[1].layer == fs::path("./suite.json"));
  fs::remove_all(dir);
}

TEST_CASE("a 100 KB .dat record and .cfg line parse without overflowing the stack", "[fuzz][dat]") {
  // std::regex recursed once per character: both crashed with SIGSEGV at about 100 KB per line.
  const std::size_t n = 40000;
  std::string payload;
  for (std::size_t i = 0; i < n; ++i) payload += i == 0 ? "0x01" : " 0x02";
  const auto& scratch = dla::fuzz::scratch();
  const auto dat = scratch.write("long_line.dat", "{\n{offset:0x10, size:" + std::to_string(n) + ", payload:" + payload + "},\n}\n");
  const auto image = dla::harness::read_dat_image(dat);
  REQUIRE(image.size() == 0x10 + n);
  CHECK(image[0x10] == 1);
  CHECK(image[0x10 + n - 1] == 2);
  const auto cfg = scratch.write("long_line.cfg", "mem_load(pri_mem, 0x80000000, \"long_line.dat\"" + std::string(200000, ' ') + ");\n");
  const auto program = dla::harness::import_nvdla_cfg(cfg, "nv_small");
  REQUIRE(program.steps.size() == 1);
  CHECK(program.steps[0].bytes.size() == 0x10 + n);
}

TEST_CASE("what the fuzzing findings are refused with", "[fuzz][dat][json]") {
  const auto& scratch = dla::fuzz::scratch();
  auto error_of = [](const auto& f) -> std::string {
    try {
      f();
    } catch (const dla::harness::InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const auto wraps = scratch.write("wraps.dat", "{\n{offset:0xffffffffffffffff, size:2, payload:0x01 0x02},\n}\n");
  CHECK_THAT(error_of([&] { (void)dla::harness::read_dat_image(wraps); }),
             Catch::Contains("a record at offset 0xffffffffffffffff ends past the 256 MiB an image may span"));
  const auto last = scratch.write("last.dat", "{\n{offset:0xfffffff, size:1, payload:0x05},\n}\n");
  CHECK(dla::harness::read_dat_image(last).size() == 0x10000000);  // the last byte of 256 MiB
  const auto big = scratch.write("big.dat", "{\n{offset:0x10000000, size:1, payload:0x05},\n}\n");
  CHECK_THAT(error_of([&] { (void)dla::harness::read_dat_image(big); }), Catch::Contains("ends past the 256 MiB"));
  const auto offset = scratch.write("offset.dat", "{\n{offset:0x10000000000000000, size:1, payload:0x05},\n}\n");
  CHECK_THAT(error_of([&] { (void)dla::harness::read_dat_file(offset); }),
             Catch::Contains("line 2: offset \"0x10000000000000000\" is not a 64-bit number"));
  const auto size = scratch.write("size.dat", "{\n{offset:0x0, size:0x1, payload:0x05},\n}\n");
  CHECK_THAT(error_of([&] { (void)dla::harness::read_dat_file(size); }),
             Catch::Contains("line 2: size \"0x1\" is not a decimal 64-bit number"));
  const auto json = scratch.write("overflow.json", "{\"unit\": \"cmac\", \"seed\": 1e999}");
  CHECK_THAT(error_of([&] { (void)dla::harness::load_layer(json); }),
             Catch::Contains("overflow.json: malformed JSON: number overflow parsing '1e999'"));
}
