// dlacosim with `deconv` layers: a bundled layer validates and runs on golden, cross and rtl modes
// (the RTL is nvdla_core and RUBIK over one memory), under stalls, rand-reset and memory limits
// too; --config nv_large exits 2 (no RUBIK); a malformed layer exits 2 naming file, JSON pointer
// and rule.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;

}  // namespace

TEST_CASE("a bundled deconv layer runs on golden, cross and rtl modes", "[cli][deconv]") {
  const std::string layer = kSrc + "/testvectors/layers/deconv/s2x2_k4_crop1_int8.json";
  Cmd r = dlacosim("validate " + layer);
  INFO(r.out);
  CHECK(r.exit == 0);
  r = dlacosim("run " + layer + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS s2x2_k4_crop1_int8 [deconv nv_full golden]"));
  for (const char* mode : {"cross", "rtl"}) {
    r = dlacosim("run " + layer + " --mode " + mode);
    INFO(r.out);
    CHECK(r.exit == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("PASS s2x2_k4_crop1_int8 [deconv nv_full ") + mode + "]"));
  }
  r = dlacosim("run " + layer +
               " --mode cross --seed 5 --stall 0.3 --rand-reset 2 --mem-latency 64:256 --mem-bandwidth 4");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS s2x2_k4_crop1_int8 [deconv nv_full cross] seed=5 stall=0.30 rand-reset=2") &&
                        Catch::Contains("latency 64:256, bandwidth 4 B/cycle"));
}

TEST_CASE("a malformed deconv layer exits 2 naming file, JSON pointer and rule", "[cli][deconv]") {
  const std::string f = "/tmp/dla_deconv_cli_bad.json";
  std::ofstream(f) << R"({"unit":"deconv","config":"nv_full","input":{"w":3,"h":2,"c":3,"data":{"random":{}}},)"
                      R"("weights":{"k":2,"r":3,"s":3,"data":{"random":{}}},"stride":{"x":2,"y":2},"crop":{"left":3}})";
  for (const char* cmd : {"validate ", "run "}) {
    const Cmd r = dlacosim(std::string(cmd) + f);
    INFO(r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains("dla_deconv_cli_bad.json") && Catch::Contains("/crop/left") &&
                          Catch::Contains("crop.left 3 exceeds"));
  }
}
