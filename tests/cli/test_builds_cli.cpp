// --config on the commands that run or compile files carrying their own configuration (issue 38):
// `regress` and `compile` move every layer, network and trace of theirs to another build.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/test_paths.hpp"
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kLayers = std::string(DLA_SOURCE_DIR) + "/testvectors/layers/";

}  // namespace

TEST_CASE("regress --config runs nv_small layers on nv_small_256, an unknown one exits 2", "[cli][builds]") {
  const std::string files = kLayers + "conv/small_3x3_pad1.json " + kLayers + "sdp/small_bias_per_channel.json";
  Cmd r = dlacosim("regress " + files + " -j 1 --no-progress --config nv_small_256");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("2 passed, 0 failed"));
  CHECK_THAT(r.out, Catch::Contains("nv_small_256"));
  r = dlacosim("regress " + files + " -j 1 --no-progress --config nv_tiny");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("nv_tiny") && Catch::Contains("nv_medium_1024_full"));
}

TEST_CASE("compile --config writes the network's program for another build", "[cli][builds]") {
  const std::string net = std::string(DLA_SOURCE_DIR) + "/testvectors/networks/lenet5.json";
  const Cmd own = dlacosim("compile " + net, false);
  REQUIRE(own.exit == 0);
  const Cmd other = dlacosim("compile " + net + " --config nv_medium_512", false);
  INFO(other.out);
  REQUIRE(other.exit == 0);
  const auto a = nlohmann::json::parse(own.out), b = nlohmann::json::parse(other.out);
  CHECK(a.at("config") == "nv_small");
  CHECK(b.at("config") == "nv_medium_512");
  CHECK(a.dump() != b.dump());  // 16-byte atoms: other strides and banks
}
