// dlacosim with `network` files (docs/NETWORKS.md): malformed networks exit 2 from run and validate
// naming file, JSON pointer and rule; the bundled LeNet-5 validates and runs in cross mode (every
// layer compared); `compile` prints its one register program, which `run` replays.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_networks/";
const std::string kLenet = kSrc + "/testvectors/networks/lenet5.json";

}  // namespace

TEST_CASE("malformed networks exit 2 naming file, JSON pointer and rule", "[cli][network]") {
  dla::test::check_bad_files(
      kBad, {{"unknown_tensor.json", "/layers/0/input", "unknown tensor \"z\" (the network declares x and y)"},
             {"cycle.json", "/layers/0/input",
              "the layers first and second form a cycle (each waits for a tensor another of them writes)"},
             {"shape.json", "/layers/0/output",
              "layer \"conv\" (conv) computes 6 x 6 x 4 (W x H x C), but tensor \"y\" is declared 8 x 8 x 4"},
             {"memory.json", "/tensors/1",
              "tensor \"y\" (8 x 8 x 8 int8) needs 512 bytes at 0x10000200, beyond the network's memory of 1000 "
              "bytes"},
             {"int16_small.json", "/tensors/0/precision", "nv_small has no int16 (int16 only on nv_full)"}});
}

TEST_CASE("the bundled lenet5 validates, runs in cross mode and compiles to a replayable program",
          "[cli][network]") {
  Cmd r = dlacosim("validate " + kLenet);
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("(network on nv_small)"));
  r = dlacosim("run " + kLenet);
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS lenet5 [network nv_small cross]"));
  const Cmd c = dlacosim("compile " + kLenet, false);
  REQUIRE(c.exit == 0);
  const auto prog = nlohmann::json::parse(c.out);
  CHECK(prog["unit"] == "program");
  int checks = 0;
  for (const auto& s : prog["steps"]) checks += s["op"] == "check" ? 1 : 0;
  CHECK(checks == 7);
  const std::string f = (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-dla_lenet_prog.json")).string();
  std::ofstream(f) << c.out;
  r = dlacosim("run " + f + " --stall 0.2");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS lenet5 [program nv_small cross]"));
  std::filesystem::remove(f);
  // compile takes network files only.
  r = dlacosim("compile " + kSrc + "/testvectors/layers/rubik/contract_int8_s2x2.json");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("/unit: compile takes network files"));
}

TEST_CASE("bench network: both schedules measured, per-layer cycles adding up to the total", "[cli][network]") {
  const Cmd r = dlacosim("bench network " + kLenet + " --json", false);
  REQUIRE(r.exit == 0);
  const auto cases = nlohmann::json::parse(r.out);
  REQUIRE(cases.size() == 1);
  const auto& c = cases[0];
  INFO(c.dump());
  CHECK(c["status"] == "PASS");
  CHECK(c["unit"] == "network");
  const uint64_t total = c["cycles"];
  CHECK(c["sequential_cycles"].get<uint64_t>() > total);  // ping-pong hides register programming
  CHECK(c["pingpong_saved_cycles"].get<int64_t>() ==
        static_cast<int64_t>(c["sequential_cycles"].get<uint64_t>()) - static_cast<int64_t>(total));
  uint64_t sum = 0;
  for (const auto& L : c["layers"]) sum += L["cycles"].get<uint64_t>();
  CHECK(sum == total);
  REQUIRE(c["layers"].size() == 7);
  CHECK(c["layers"][0]["macs"] == 24 * 24 * 6 * 25);  // conv1: W' x H' x K x R x S x C (C = 1)
  CHECK(c["frames_per_s"].get<double>() == Approx(1e9 / static_cast<double>(total)));
  // Files are the network bench's alone; it needs at least one.
  CHECK(dlacosim("bench network").exit == 2);
  CHECK(dlacosim("bench sdp " + kLenet).exit == 2);
}
