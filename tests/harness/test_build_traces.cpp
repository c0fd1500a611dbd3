// NVIDIA's trace tests of the NVDLA builds modeled beyond the three the engines' own trace tests
// cover: every trace of the build's folder on the golden model of that build, NVIDIA's CRC.
#include <catch2/catch.hpp>

#include "golden/config.hpp"
#include "golden_traces.hpp"

using dla::harness::testing::check_golden_traces;

TEST_CASE("every nv_small_256 trace reproduces NVIDIA's CRC on the golden model", "[traces][builds]") {
  const auto* hw = dla::golden::find_config("nv_small_256");
  REQUIRE(hw != nullptr);
  CHECK(hw->atomic_c == 32);
  CHECK(hw->cbuf_entry_bytes / hw->atom_bytes == 4);  // an entry holds four memory atoms
  check_golden_traces("nv_small_256", *hw, {"cdp_", "dc_", "img_", "pdp_", "sdp_"}, 84);
}

TEST_CASE("every nv_medium_512 trace reproduces NVIDIA's CRC on the golden model", "[traces][builds]") {
  const auto* hw = dla::golden::find_config("nv_medium_512");
  REQUIRE(hw != nullptr);
  CHECK(hw->atom_bytes == 16);
  CHECK(hw->cbuf_entry_bytes / hw->atom_bytes == 2);  // an entry holds two memory atoms
  check_golden_traces("nv_medium_512", *hw, {"cdp_", "dc_", "img_", "pdp_", "sdp_"}, 4);
}
