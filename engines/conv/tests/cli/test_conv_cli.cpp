// dlacosim with `conv` layers: malformed layers exit 2 naming file, JSON pointer and rule (the
// rule texts are checked in engines/conv/tests/rtl/test_conv_layers.cpp); the bundled layers validate, and one
// of each configuration runs on golden and in cross mode (every layer runs in
// engines/conv/tests/rtl/test_conv_layers.cpp).
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";
const std::string kConv = kSrc + "/testvectors/layers/conv/";

}  // namespace

TEST_CASE("malformed conv layers exit 2 from run and validate naming file and JSON pointer", "[cli][conv]") {
  struct Case {
    const char* file;
    const char* where;
  };
  const std::vector<Case> cases = {
      {"conv_k_zero.json", "/weights/k"},       {"conv_int16_small.json", "/precision"},
      {"conv_dilation_too_big.json", "/dilation/x"}, {"conv_cbuf_nvdla.json", "/input"},
      {"conv_cbuf_rtl.json", "/input"},         {"conv_weights_cbuf.json", "/weights"},
      {"conv_int16_to_int8_flying.json", "/output/precision"},
  };
  for (const auto& c : cases) {
    for (const std::string cmd : {"run", "validate"}) {
      const Cmd r = dlacosim(cmd + " " + kBad + c.file);
      INFO(cmd << " " << c.file << "\n" << r.out);
      CHECK(r.exit == 2);
      CHECK_THAT(r.out, Catch::Contains(kBad + c.file + ": " + c.where + ": "));
    }
  }
}

TEST_CASE("the bundled conv layers validate, and run on golden and in cross mode", "[cli][conv]") {
  std::string files;
  for (const auto& e : fs::directory_iterator(kConv)) {
    if (e.path().extension() == ".json") {
      files += ' ';
      files += e.path().string();
    }
  }
  const Cmd v = dlacosim("validate" + files);
  INFO(v.out);
  CHECK(v.exit == 0);
  CHECK_THAT(v.out, !Catch::Contains("FAIL"));
  for (const char* mode : {"golden", "cross"}) {
    for (const char* f : {"small_3x3_pad1.json", "full_int16_3x3_dilation.json"}) {
      const Cmd r = dlacosim(std::string("run --seed 5 --rand-reset 1 --mode ") + mode + " " + kConv + f);
      INFO(r.out);
      CHECK(r.exit == 0);
      CHECK_THAT(r.out, Catch::Contains("PASS"));
    }
  }
}
