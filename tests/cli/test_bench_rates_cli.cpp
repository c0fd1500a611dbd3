// The engines' rates from memory, by simulated cycles (exact on any machine): every case of
// `bench pdp`, `bench cdp`, `bench bdma` and `bench rubik` at the default DMA latency reaches at
// least 0.9 of the rate NVDLA's design reaches on it (`nvdla_elements_per_cycle`; for PDP on the
// fly, the rate of the same layer with SDP alone: PDP must not stall SDP). `bench sdp` has its own
// case in test_sdp_cli.cpp. A fall like SDP's in nvdla_core (docs/PERFORMANCE.md, SDP) fails here.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

void check_rates(const std::string& unit, std::size_t min_cases, const std::string& options = "") {
  const Cmd r = dlacosim("bench " + unit + " --json" + options, false);
  REQUIRE(r.exit == 0);
  const auto cases = nlohmann::json::parse(r.out);
  REQUIRE(cases.size() >= min_cases);
  for (const auto& c : cases) {
    INFO(c.dump());
    REQUIRE(c.at("nvdla_elements_per_cycle").is_number());
    const double rate = c.at("elements").get<double>() / c.at("cycles").get<double>();
    CHECK(rate >= 0.9 * c.at("nvdla_elements_per_cycle").get<double>());
  }
}

}  // namespace

TEST_CASE("bench pdp --json: every case at 0.9 of NVDLA's rate or more", "[cli][bench][pdp]") {
  check_rates("pdp", 11);  // 2 of them fp16 on nv_full
}

TEST_CASE("bench cdp --json: every case at 0.9 of NVDLA's rate or more", "[cli][bench][cdp]") {
  check_rates("cdp", 4);
}

TEST_CASE("bench bdma --json: every case at 0.9 of NVDLA's rate or more", "[cli][bench][bdma]") {
  check_rates("bdma", 2);
}

TEST_CASE("bench rubik --json: every case at 0.9 of NVDLA's rate or more", "[cli][bench][rubik]") {
  check_rates("rubik", 5);
}

// Every NVDLA build (issue 38): SDP, PDP and CDP at 0.9 of the build's own throughput or more, each
// case on every configuration of regs/hw_configs.json (7: nv_small, nv_small_256,
// nv_small_256_full, nv_medium_512, nv_medium_1024_full, nv_large, nv_full).
TEST_CASE("bench sdp pdp cdp --config all: every build at 0.9 of its NVDLA rate or more", "[cli][bench][builds]") {
  check_rates("sdp", 7 * 2 + 2, " --config all");
  check_rates("pdp", 7 * 3 + 2, " --config all");
  check_rates("cdp", 7 + 2, " --config all");
}

// conv on every master build: the C 128 / K 64 layer at 95 % of the build's MAC array or more, the C 64 /
// K 32 layer at 90 % (its first weight group's fetch is a larger share: 576 atoms on
// nv_medium_1024_full's one atom a cycle). MACs from the layer (32 x 16 outputs, 32 x 32 for
// C 128 where its input fits half of CBUF, 3 x 3 kernel),
// the array from NVIDIA's spec files (atomic C x atomic K), cycles CBUF loading included.
TEST_CASE("bench conv --config: every build's MAC array busy 95 % of a C 128 layer", "[cli][bench][builds]") {
  const std::map<std::string, double> macs_per_cycle{{"nv_small", 8 * 8},          {"nv_small_256", 32 * 8},
                                                     {"nv_small_256_full", 32 * 8}, {"nv_medium_512", 32 * 16},
                                                     {"nv_medium_1024_full", 32 * 32}, {"nv_large", 64 * 32},
                                                     {"nv_full", 64 * 32}};
  // nv_full's cases (int16 and fp16 too, 30 s of simulation) are the default bench's.
  const Cmd r = dlacosim("bench conv --json --config nv_small --config nv_small_256 --config nv_small_256_full "
                         "--config nv_medium_512 --config nv_medium_1024_full --config nv_large",
                         false);
  REQUIRE(r.exit == 0);
  const auto cases = nlohmann::json::parse(r.out);
  std::set<std::string> configs;
  for (const auto& c : cases) {
    INFO(c.dump());
    const std::string cfg = c.at("config"), name = c.at("case");
    configs.insert(cfg);
    const bool big = name.find("C 128") != std::string::npos;
    const double c_in = big ? 128 : 64, k = big ? 64 : 32;
    const std::string layer = c.at("layer");  // "32x16x64 -> 32x16x32, ...": W x H x C
    const double h = layer.starts_with("32x32x") ? 32 : 16;
    CHECK(layer.starts_with(fmt::format("32x{}x{} -> 32x{}x{}, 3x3 kernel", h, c_in, h, k)));
    const double macs = 32.0 * h * k * c_in * 9;
    CHECK(c.at("elements").get<double>() == macs);
    // nv_full's int16 / fp16 array: half the int8 MACs a cycle (atomic K 16)
    const double units = macs_per_cycle.at(cfg) / (name.starts_with("int8") ? 1 : 2);
    const double u = macs / (c.at("cycles").get<double>() * units);
    CHECK(u <= 1.0);
    CHECK(u >= (big ? 0.95 : 0.90));
  }
  CHECK(configs.size() == 6);
  CHECK(cases.size() == 6 * 2);
}

TEST_CASE("bench --config: an unknown configuration and a unit with fixed cases exit 2 with the rule",
          "[cli][bench][builds]") {
  Cmd r = dlacosim("bench pdp --config nv_tiny");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("nv_tiny") && Catch::Contains("unknown configuration") &&
                        Catch::Contains("nv_medium_1024_full"));
  r = dlacosim("bench lut --config nv_small");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--config applies to") && Catch::Contains("conv"));
}
