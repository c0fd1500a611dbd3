// dlacosim with `cdp` layers: malformed layers exit 2 naming file, JSON pointer and rule (a window
// NVDLA's CDP does not have, a linear LUT whose END is not where its last entry sits, an input
// converter offset int8 cannot hold); a bundled layer validates and runs on golden.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";

}  // namespace

TEST_CASE("malformed cdp layers exit 2 naming file, JSON pointer and rule", "[cli][cdp]") {
  dla::test::check_bad_files(
      kBad, {{"40_cdp_window.json", "/lrn/window",
              "6 is not a window NVDLA's CDP has: D_LRN_CFG.NORMALZ_LEN sums 3, 5, 7 or 9"},
             {"40_cdp_lut_end.json", "/lut/registers/le_end",
              "the linear LE table ends at START + 64 x 2^10 = 65536, but its END is 65537"},
             {"40_cdp_cvt_offset.json", "/in_cvt/offset",
              "-300 is out of range [-128, 127]: int8 subtracts DATIN_OFFSET's low 8 bits"}});
}

TEST_CASE("a bundled cdp layer validates and runs on golden", "[cli][cdp]") {
  const std::string layer = kSrc + "/testvectors/layers/cdp/small_lrn5_c13.json";
  Cmd r = dlacosim("validate " + layer);
  INFO(r.out);
  CHECK(r.exit == 0);
  r = dlacosim("run " + layer + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS small_lrn5_c13 [cdp nv_small golden]"));
}
