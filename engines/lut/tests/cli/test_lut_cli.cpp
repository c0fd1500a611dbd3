// dlacosim with `lut` layers: malformed layers exit 2 naming file, JSON pointer and rule; the
// bundled layers validate and run; a flipped bit fails with coordinates; `bench lut` runs.
#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";
const std::string kLut = kSrc + "/testvectors/layers/lut/";

}  // namespace

TEST_CASE("malformed lut layers exit 2 naming file, JSON pointer and rule", "[cli][lut]") {
  const std::vector<dla::test::BadFile> cases = {
      {"20_lut_le_length.json", "/tables/le", "the LE table needs exactly 65 entries, 64 given"},
      {"20_lut_lo_length.json", "/tables/lo", "the LO table needs exactly 257 entries, 258 given"},
      {"20_lut_bad_function.json", "/tables/function", "\"softmax\" is not one of: sigmoid, tanh, exp, lrn"},
      {"20_lut_shift_range.json", "/registers/le_uflow_shift", "16 is out of range [-16, 15]"},
      {"20_lut_select_range.json", "/tables/lo_index_select", "40 is out of range [-32, 31]"},
      {"20_lut_raw_words.json", "/registers/raw", "SDP takes exactly 10 register words"},
      {"20_lut_empty_input.json", "/input", "the input stream is empty"},
      {"20_lut_lrn_param.json", "/tables/lrn_beta", "only the lrn function takes this parameter"},
      {"20_lut_start_range.json", "/registers/lo_start", "2147483648 is out of range [-2147483648, 2147483647]"},
  };
  dla::test::check_bad_files(kBad, cases);
}

TEST_CASE("every bundled lut layer validates", "[cli][lut]") {
  std::string files;
  int n = 0;
  for (const auto& e : fs::directory_iterator(kLut)) {
    if (e.path().extension() == ".json") {
      files += ' ';
      files += e.path().string();
      ++n;
    }
  }
  REQUIRE(n >= 20);
  const Cmd r = dlacosim("validate" + files);
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, !Catch::Contains("FAIL"));
}

TEST_CASE("lut run: pass, regions, JSON report, and a flipped bit exits 1 with its coordinates", "[cli][lut]") {
  const fs::path json = fs::temp_directory_path() / "dla_cli_lut.json";
  fs::remove(json);
  Cmd r = dlacosim("run " + kLut + "cdp_int8_lrn_exponent.json --rand-reset 2 --stall 0.5 --json " + json.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  for (const char* region : {"value:", "flags:", "stats:", "tables:", "prog:", "prog_err:"}) {
    CHECK_THAT(r.out, Catch::Contains(region));
  }
  CHECK(fs::exists(json));
  fs::remove(json);

  r = dlacosim("run " + kLut + "sdp_tanh_linear.json --flip-bit 123:31");
  INFO(r.out);
  CHECK(r.exit == 1);
  CHECK_THAT(r.out, Catch::Contains("value: ") && Catch::Contains("1 mismatch,") &&
                        Catch::Contains("element=123)"));
  r = dlacosim("run " + kLut + "sdp_tanh_linear.json --mode golden");
  CHECK(r.exit == 0);
}

TEST_CASE("dlacosim bench lut reports both variants", "[cli][lut][bench]") {
  const Cmd r = dlacosim("bench lut --ops 20000");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("sim lookup/s") && Catch::Contains("golden lookup/s"));
  CHECK_THAT(r.out, Catch::Contains("\nsdp ") && Catch::Contains("\ncdp "));
}
