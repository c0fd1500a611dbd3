// dlacosim with image-input `conv` layers (testvectors/layers/image/, docs/LAYER_FORMAT.md "Image
// input"): they run with --mode golden and in cross mode (the RTL's image path, docs/IMAGE_INPUT.md
// "RTL"); malformed image layers exit 2 from `run --mode golden` and
// `validate`, naming file, JSON pointer and rule (the rule texts are checked in
// engines/conv/tests/harness/test_conv_image_layers.cpp).
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/conv_image/";
const std::string kImage = kSrc + "/testvectors/layers/image/";

}  // namespace

TEST_CASE("image layers pass with --mode golden and in cross mode", "[cli][conv][image]") {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(kImage)) {
    if (e.path().extension() != ".json") continue;
    ++n;
    const Cmd r = dlacosim("run " + e.path().string() + " --mode golden");
    INFO(r.out);
    CHECK(r.exit == 0);
    CHECK_THAT(r.out, Catch::StartsWith("PASS "));
  }
  CHECK(n >= 12);
  for (const char* f : {"abgr8_3x3_offset_pads_nv_full.json", "abgr8_3x3_postext4_nv_full.json"}) {
    const Cmd c = dlacosim(std::string("run ") + kImage + f);
    INFO(c.out);
    CHECK(c.exit == 0);
    CHECK_THAT(c.out, Catch::StartsWith("PASS "));
  }
}

TEST_CASE("malformed image layers exit 2 from run --mode golden and validate naming file, pointer and rule",
          "[cli][conv][image]") {
  struct Case {
    const char* file;
    const char* where;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"winograd.json", "/mode", "Winograd with image input is not allowed"},
      {"wfold.json", "/wfold", "exclude each other"},
      {"dilation.json", "/dilation", "image input allows no dilation"},
      {"channels.json", "/input/c", "must be the format's"},
      {"fp16.json", "/precision", "T_R16_F is an fp16 format: the precision must be fp16"},
      {"fp16_converter.json", "/input/converter",
       "T_A16B16G16R16_F is an fp16 format, which the input converter passes unchanged: give no converter"},
      {"fp16_small.json", "/input/format", "T_R16_F is an fp16 format and nv_small has no fp16"},
      {"fp16_raw_int.json", "/precision", "PROC precision fp16 differs from T_R8's 8-bit input"},
      {"pad_left.json", "/padding/left", "must be smaller than the kernel width"},
      {"cbuf.json", "/input", "the image does not fit in CBUF"},
      {"int16_small.json", "/input/format", "nv_small has no 16-bit input"},
      {"precision_no_cvt.json", "/precision", "only the input converter"},
      {"x_offset.json", "/input/x_offset", "PIXEL_X_OFFSET 8 exceeds"},
  };
  for (const auto& c : cases) {
    for (const std::string cmd : {"run --mode golden", "validate"}) {
      const Cmd r = dlacosim(cmd + " " + kBad + c.file);
      INFO(cmd << " " << c.file << "\n" << r.out);
      CHECK(r.exit == 2);
      CHECK_THAT(r.out, Catch::Contains(kBad + c.file + ": " + c.where + ": ") && Catch::Contains(c.rule));
    }
  }
}
