// Winograd PRA and POA RTL against the golden model (docs/WINOGRAD.md): more than 100,000
// random tiles per unit and precision, every PRA_TRUNCATE, three back-pressure seeds and each
// randomized-reset mode; the bundled wino layers; throughput; bad layers.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "common/wino_tiles.hpp"
#include "harness/layer.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

// Writes a layer to a file unique to this process and runs it.
RunResult run_text(const std::string& tag, const std::string& json, const RunOptions& o) {
  const fs::path file = fs::temp_directory_path() / ("dla_wino_" + tag + "_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(file);
    f << json;
  }
  RunResult r = run_layer(file, o);
  fs::remove(file);
  return r;
}

constexpr uint64_t kSeeds[] = {101, 202, 303};
constexpr int kRandReset[] = {0, 1, 2};

}  // namespace

TEST_CASE("PRA RTL equals golden: >= 100,000 random tiles per precision, every PRA_TRUNCATE", "[rtl][wino][pra]") {
  // Per precision: 4 truncates x 3 seeds x 3 rand-reset modes = 36 runs of 2800 tiles = 100,800.
  for (const char* prec : {"int8", "int16"}) {
    uint64_t tiles = 0;
    for (int t = 0; t <= 3; ++t) {
      for (const uint64_t seed : kSeeds) {
        for (const int rr : kRandReset) {
          RunOptions o;
          o.seed = seed + static_cast<uint64_t>(7 * t + rr);  // fresh data in every run
          o.stall = 0.35;
          o.sim.rand_reset = rr;
          const RunResult r = run_text(
              "pra", std::string(R"({"unit":"wino","config":"nv_full","stage":"pra","precision":")") + prec +
                         R"(","pra_truncate":)" + std::to_string(t) + R"(,"tiles":2800,"data":{"random":{}}})",
              o);
          INFO(format_run(r));
          REQUIRE(r.status == Status::Pass);
          REQUIRE(!r.compares.empty());
          REQUIRE(r.compares[0].elements == 2800u * 16u);
          CHECK(r.compares[0].crc_actual == r.compares[0].crc_expected);
          tiles += r.compares[0].elements / 16;
        }
      }
    }
    INFO(prec);
    CHECK(tiles >= 100000);
  }
}

TEST_CASE("PRA fp16 RTL equals golden: 40,000 tiles, over a million fp17 adds", "[rtl][wino][pra][fp16]") {
  // Four value regimes x rand-reset 0/1/2 of 3,000 tiles, and 4,000 structured tiles (partners
  // that cancel, narrow exponent windows, NVDLA's float edges: tests/common/wino_tiles.hpp).
  // 32 fp17 adds per tile.
  const char* regimes[] = {R"({"min":-2,"max":2})", R"({"min":-65504,"max":65504,"specials":0.05})",
                           R"({"min":"0x8400","max":"0x0400"})", R"({"min":-8,"max":8,"specials":0.01})"};
  uint64_t tiles = 0;
  for (std::size_t g = 0; g < 4; ++g) {
    for (const int rr : kRandReset) {
      RunOptions o;
      o.seed = 900 + 10 * g + static_cast<uint64_t>(rr);
      o.stall = 0.35;
      o.sim.rand_reset = rr;
      const RunResult r = run_text(
          "pra16", std::string(R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"fp16","tiles":3000,)") +
                       R"("data":{"random":)" + regimes[g] + "}}",
          o);
      INFO(format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE(r.compares[0].elements == 3000u * 16u);
      tiles += 3000;
    }
  }
  dla::test::FpOperands ops(77);
  std::string values;
  for (int t = 0; t < 4000; ++t) {
    for (const uint16_t v : dla::test::draw_wino_tile(ops, dla::golden::Precision::Fp16))
      values += (values.empty() ? "\"0x" : ",\"0x") + fmt::format("{:04x}", v) + "\"";
  }
  RunOptions o;
  o.stall = 0.35;
  const RunResult r = run_text(
      "pra16v", R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"fp16","tiles":4000,"data":{"values":[)" +
                    values + "]}}",
      o);
  INFO(format_run(r));
  REQUIRE(r.status == Status::Pass);
  tiles += 4000;
  CHECK(tiles * 32 > 1'000'000);
}

TEST_CASE("POA RTL equals golden: >= 100,000 random tiles per precision", "[rtl][wino][poa]") {
  // Per precision: 3 seeds x 3 rand-reset modes = 9 runs of 11,200 kernel tiles = 100,800
  // (int8: 350 beats of 32 kernels, int16: 700 beats of 16). Rand-reset mode 1 runs draw the sums
  // from the whole port range, the others from the range 4-channel MAC results reach.
  for (const char* prec : {"int8", "int16"}) {
    const bool int8 = std::string(prec) == "int8";
    const std::string full = int8 ? R"({"min":-131072,"max":131071})" : R"({"min":-8589934592,"max":8589934591})";
    uint64_t tiles = 0;
    for (const uint64_t seed : kSeeds) {
      for (const int rr : kRandReset) {
        RunOptions o;
        o.seed = seed + static_cast<uint64_t>(rr);
        o.stall = 0.35;
        o.sim.rand_reset = rr;
        const RunResult r =
            run_text("poa",
                     std::string(R"({"unit":"wino","config":"nv_full","stage":"poa","precision":")") + prec +
                         R"(","tiles":11200,"sums":{"random":)" + (rr == 1 ? full : std::string("{}")) + "}}",
                     o);
        INFO(format_run(r));
        REQUIRE(r.status == Status::Pass);
        REQUIRE(!r.compares.empty());
        REQUIRE(r.compares[0].elements == 11200u * 4u);
        CHECK(r.compares[0].crc_actual == r.compares[0].crc_expected);
        // int16 leaves kernel slots 16..31 unused (fed with noise): they must output 0.
        if (!int8) {
          REQUIRE(r.compares.size() == 2);
          CHECK(r.compares[1].elements == 700u * 16u * 4u);
        }
        tiles += r.compares[0].elements / 4;
      }
    }
    INFO(prec);
    CHECK(tiles >= 100000);
  }
}

TEST_CASE("every bundled wino layer: RTL equals golden", "[rtl][wino]") {
  std::vector<fs::path> layers;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/wino")) {
    if (e.path().extension() == ".json") layers.push_back(e.path());
  }
  std::sort(layers.begin(), layers.end());
  REQUIRE(layers.size() >= 10);
  for (const auto& layer : layers) {
    const RunResult r = run_layer(layer, RunOptions{});
    INFO(format_run(r));
    CHECK(r.status == Status::Pass);
    CHECK(r.unit == "wino");
  }
}

TEST_CASE("PRA and POA take one beat per cycle", "[rtl][wino]") {
  // No stalls: one beat per cycle, plus 4 reset cycles, 1 register stage and the last edge.
  RunOptions o;
  o.stall = 0.0;
  const RunResult pra = run_text(
      "pra_tp", R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"int16","tiles":4000,"data":{"random":{}}})",
      o);
  INFO(format_run(pra));
  REQUIRE(pra.status == Status::Pass);
  CHECK(pra.cycles <= 1000 + 4 + 2);
  const RunResult poa = run_text(
      "poa_tp", R"({"unit":"wino","config":"nv_full","stage":"poa","precision":"int8","tiles":3200,"sums":{"random":{}}})",
      o);
  INFO(format_run(poa));
  REQUIRE(poa.status == Status::Pass);
  CHECK(poa.cycles <= 100 + 4 + 2);
}

TEST_CASE("wino layers: bad input names the place and the rule, a flipped bit is reported", "[rtl][wino]") {
  RunOptions o;
  RunResult r = run_text(
      "bad_cfg", R"({"unit":"wino","config":"nv_small","stage":"pra","precision":"int8","tiles":4,"data":{"random":{}}})", o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/config") && Catch::Contains("WINOGRAD_DISABLE"));
  r = run_text(
      "bad_tiles", R"({"unit":"wino","config":"nv_full","stage":"poa","precision":"int8","tiles":40,"sums":{"random":{}}})", o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/tiles") && Catch::Contains("multiple of 32"));
  r = run_text("bad_trunc",
               R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"int8","pra_truncate":4,"tiles":4,"data":{"random":{}}})",
               o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/pra_truncate"));
  r = run_text("bad_key",
               R"({"unit":"wino","config":"nv_full","stage":"poa","precision":"int8","pra_truncate":1,"tiles":32,"sums":{"random":{}}})",
               o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("pra_truncate"));
  r = run_text("bad_fp16_poa",
               R"({"unit":"wino","config":"nv_full","stage":"poa","precision":"fp16","tiles":16,"sums":{"random":{}}})", o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/precision") && Catch::Contains("MAC cell"));
  r = run_text("bad_fp16_trunc",
               R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"fp16","pra_truncate":1,"tiles":4,"data":{"random":{}}})",
               o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/pra_truncate") && Catch::Contains("fp16"));
  std::string values = "128";  // beyond int8
  for (int i = 1; i < 64; ++i) values += ",0";
  r = run_text("bad_value",
               R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"int8","tiles":4,"data":{"values":[)" +
                   values + "]}}",
               o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/data/values/0"));

  RunOptions f;
  f.flip = FlipBit{5, 3};
  r = run_text("flip", R"({"unit":"wino","config":"nv_full","stage":"pra","precision":"int8","tiles":4,"data":{"random":{}}})",
               f);
  CHECK(r.status == Status::Mismatch);
  REQUIRE(!r.compares.empty());
  CHECK(r.compares[0].mismatches == 1);
}
