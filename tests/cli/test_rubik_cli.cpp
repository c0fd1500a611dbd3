// dlacosim with `rubik` layers: malformed layers exit 2 naming file, JSON pointer and rule (planar
// data not 64-byte aligned, a stride the mode gives no meaning, a configuration without RUBIK); a
// bundled layer validates and runs on golden; cross mode exits 2 while there is no RUBIK RTL.
#include <catch2/catch.hpp>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";

}  // namespace

TEST_CASE("malformed rubik layers exit 2 naming file, JSON pointer and rule", "[cli][rubik]") {
  dla::test::check_bad_files(
      kBad, {{"41_rubik_planar_align.json", "/output/line_stride",
              "96 is not a multiple of 64: planar data's address and line stride must be 64-byte aligned"},
             {"41_rubik_stride_mode.json", "/input/surface_stride",
              "\"surface_stride\" has no meaning in merge mode: MERGE reads planes"},
             {"41_rubik_nv_small.json", "/config",
              "nv_small has no RUBIK (the RBK block exists on nv_full only, as in NVDLA)"}});
}

TEST_CASE("a bundled rubik layer validates and runs on golden, on the RTL and in cross mode", "[cli][rubik]") {
  const std::string layer = kSrc + "/testvectors/layers/rubik/contract_int8_s2x2.json";
  Cmd r = dlacosim("validate " + layer);
  INFO(r.out);
  CHECK(r.exit == 0);
  r = dlacosim("run " + layer + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full golden]"));
  r = dlacosim("run " + layer + " --mode cross");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full cross]"));
  r = dlacosim("run " + layer + " --mode rtl");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full rtl]"));
}
