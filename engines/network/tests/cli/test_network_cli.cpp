// dlacosim with `network` files (docs/NETWORKS.md): malformed networks exit 2 from run and validate
// naming file, JSON pointer and rule; the bundled LeNet-5 validates and runs in cross mode (every
// layer compared); `compile` prints its one register program, which `run` replays.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;
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
             {"int16_small.json", "/tensors/0/precision", "nv_small has no int16 (int16 and fp16 only on nv_full)"},
             {"concat_align.json", "/layers/2/inputs/0",
              "branch \"a\" has 4 channels, not a multiple of 8 (nv_small's 8-byte atom of int8): the next branch "
              "\"b\" would start at channel 4 of \"cat\", inside an atom surface"}});
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

TEST_CASE("run --stop-after and --wave-layer: the program up to a layer, waves of one layer's window",
          "[cli][network]") {
  const auto cycles_of = [](const std::string& out) {
    std::smatch m;
    REQUIRE(std::regex_search(out, m, std::regex(R"(cycles=(\d+))")));
    return std::stoull(m[1]);
  };
  const fs::path tmp = fs::temp_directory_path();
  const std::string pid = std::to_string(::getpid());
  const std::string json = (tmp / (pid + "-dla_net_stop.json")).string();
  Cmd r = dlacosim("run " + kLenet + " --stop-after pool1 --json " + json);
  INFO(r.out);
  REQUIRE(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("stopped after layer pool1 (2 of 7 layers)"));
  const uint64_t after_pool1 = cycles_of(r.out);
  {
    std::ifstream in(json);
    const auto res = nlohmann::json::parse(in)["results"][0];
    CHECK(res["compares"].size() == 2);  // conv1's and pool1's tensors, nothing after
  }
  fs::remove(json);
  r = dlacosim("run " + kLenet + " --stop-after conv2");
  REQUIRE(r.exit == 0);
  const uint64_t after_conv2 = cycles_of(r.out);
  CHECK(after_pool1 < after_conv2);
  // The wave window of conv2 is exactly what lies between those two cross runs.
  const std::string wave = (tmp / (pid + "-dla_net_conv2.fst")).string();
  const std::string full = (tmp / (pid + "-dla_net_full.fst")).string();
  r = dlacosim("run " + kLenet + " --wave-layer conv2 --wave " + wave);
  INFO(r.out);
  REQUIRE(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains(fmt::format("waves of layer conv2: cycles {}..{}", after_pool1, after_conv2)));
  REQUIRE(dlacosim("run " + kLenet + " --wave " + full).exit == 0);
  REQUIRE(fs::exists(wave));
  CHECK(fs::file_size(wave) < fs::file_size(full) / 2);
  fs::remove(wave);
  fs::remove(full);
  // Refusals.
  r = dlacosim("run " + kLenet + " --stop-after nope");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--stop-after: nope: no layer \"nope\" in the network (its layers: conv1, pool1"));
  r = dlacosim("run " + kLenet + " --wave-layer conv2");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("needs --wave FILE"));
  r = dlacosim("run " + kLenet + " --stop-after pool1 --wave-layer conv2 --wave " + wave);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("the run stops before layer conv2 ends"));
  r = dlacosim("run " + kSrc + "/testvectors/layers/rubik/contract_int8_s2x2.json --stop-after x");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--stop-after: applies to network files; this is a rubik layer"));
}

TEST_CASE("the HTML report draws a network run with its tensors and layers and the status of each layer", "[cli][network]") {
  // LeNet-5 stopped after pool1 in cross mode: conv1 and pool1 compared (pass), the other five
  // layers not run; its eight tensors drawn.
  const fs::path dir = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_net_html");
  fs::create_directories(dir);
  const std::string results = (dir / "r.json").string(), html = (dir / "r.html").string();
  Cmd r = dlacosim("run " + kLenet + " --stop-after pool1 --json " + results);
  INFO(r.out);
  REQUIRE(r.exit == 0);
  r = dlacosim("report " + results + " --html " + html);
  REQUIRE(r.exit == 0);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = page.find(what); at != std::string::npos; at = page.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("<h2 id=\"networks\">") == 1);
  CHECK(count("<g class=\"net-tensor\"") == 8);
  CHECK(count("<g class=\"net-layer ") == 7);
  CHECK(count("<g class=\"net-layer pass\" data-layer=\"conv1\">") == 1);
  CHECK(count("<g class=\"net-layer pass\" data-layer=\"pool1\">") == 1);
  CHECK(count("<g class=\"net-layer not-run\"") == 5);
  CHECK(count("class=\"net-edge\"") == 14);  // each layer reads one tensor and writes one
  // Ranks: image on top, logits at the bottom (the fifteenth row).
  CHECK(page.find("data-tensor=\"image\"><title>tensor image: 28 x 28 x 1 int8</title><rect x=\"20\" y=\"8\"") !=
        std::string::npos);
  CHECK(page.find("data-tensor=\"logits\"><title>tensor logits: 1 x 1 x 10 int8</title><rect x=\"20\" y=\"876\"") !=
        std::string::npos);
  fs::remove_all(dir);
}
