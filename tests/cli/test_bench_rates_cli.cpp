// The engines' rates from memory, by simulated cycles (exact on any machine): every case of
// `bench pdp`, `bench cdp`, `bench bdma` and `bench rubik` at the default DMA latency reaches at
// least 0.9 of the rate NVDLA's design reaches on it (`nvdla_elements_per_cycle`; for PDP on the
// fly, the rate of the same layer with SDP alone: PDP must not stall SDP). `bench sdp` has its own
// case in test_sdp_cli.cpp. A fall like SDP's in nvdla_core (docs/PERFORMANCE.md, SDP) fails here.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

void check_rates(const std::string& unit, std::size_t min_cases) {
  const Cmd r = dlacosim("bench " + unit + " --json", false);
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
