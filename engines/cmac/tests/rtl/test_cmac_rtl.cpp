// CMAC RTL against the golden model: every bundled cmac layer (both configurations, both
// precisions) under three back-pressure seeds and each randomized-reset mode.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>

#include "harness/layer.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> cmac_layers() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/cmac")) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every bundled cmac layer: RTL equals golden under back-pressure and rand-reset", "[rtl][cmac]") {
  const auto layers = cmac_layers();
  REQUIRE(layers.size() >= 8);
  bool saw_small = false, saw_full_int8 = false, saw_full_int16 = false;
  for (const auto& layer : layers) {
    for (const uint64_t seed : {101u, 202u, 303u}) {
      for (const int rr : {0, 1, 2}) {
        RunOptions o;
        o.seed = seed;
        o.stall = 0.35;
        o.sim.rand_reset = rr;
        const RunResult r = run_layer(layer, o);
        INFO(format_run(r));
        REQUIRE(r.status == Status::Pass);
        REQUIRE(r.compares.size() == 2);
        CHECK(r.compares[0].elements > 0);
        CHECK(r.compares[0].crc_actual == r.compares[0].crc_expected);
        saw_small |= r.config == "nv_small";
        saw_full_int8 |= r.config == "nv_full" && layer.filename().string().find("int8") != std::string::npos;
        saw_full_int16 |= r.config == "nv_full" && layer.filename().string().find("int16") != std::string::npos;
      }
    }
  }
  CHECK(saw_small);
  CHECK(saw_full_int8);
  CHECK(saw_full_int16);
}

TEST_CASE("cmac layers retargeted: small layers run on nv_full too", "[rtl][cmac]") {
  RunOptions o;
  o.config = "nv_full";
  o.stall = 0.2;
  // nv_small's 8-channel operands do not fit nv_full's 64-channel atoms: bad input, not a crash.
  const RunResult r = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/cmac/small_int8_inline.json", o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("/data/values"));
  // Random operands adapt to the configuration.
  const RunResult r2 = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/cmac/small_int8_random.json", o);
  INFO(format_run(r2));
  CHECK(r2.status == Status::Pass);
  CHECK(r2.config == "nv_full");
}

TEST_CASE("cmac runs one atomic operation per cycle when stripes cover the weight load", "[rtl][cmac]") {
  // 20 stripes of 16 operations, all 8 kernels: the 8 weight beats of stripe s+1 load while the 16
  // operations of stripe s run, so the array never waits. Cycles = ops + reset + pipeline fill.
  const fs::path file = fs::temp_directory_path() / "dla_cmac_throughput.json";
  {
    std::ofstream f(file);
    f << R"({"unit":"cmac","config":"nv_small","precision":"int8","stall":0,
             "stripes":{"random":{"count":20,"ops":[16,16],"kernels":[8,8]}},
             "data":{"random":{}},"weights":{"random":{}}})";
  }
  const RunResult r = run_layer(file, RunOptions{});
  fs::remove(file);
  INFO(format_run(r));
  REQUIRE(r.status == Status::Pass);
  CHECK(r.work == 320);
  // 4 reset cycles, 8 cycles for the first weight set, 2 pipeline stages, 1 final edge.
  CHECK(r.cycles <= 320 + 4 + 8 + 3);
}

TEST_CASE("nv_full runs 16-operation stripes back to back (weight load hidden)", "[rtl][cmac]") {
  // 16 cells load in 16 cycles while a 16-operation stripe runs: one operation per cycle.
  for (const char* prec : {"int8", "int16"}) {
    const fs::path file = fs::temp_directory_path() / (std::string("dla_cmac_full_tp_") + prec + ".json");
    {
      std::ofstream f(file);
      f << R"({"unit":"cmac","config":"nv_full","precision":")" << prec << R"(","stall":0,
               "stripes":{"random":{"count":30,"ops":[16,16],"kernels":[16,16]}},
               "data":{"random":{}},"weights":{"random":{}}})";
    }
    const RunResult r = run_layer(file, RunOptions{});
    fs::remove(file);
    INFO(format_run(r));
    REQUIRE(r.status == Status::Pass);
    CHECK(r.work == 480);
    // int8 loads 16 kernels into 8 cells, int16 into 16: at most 16 cycles before the first stripe.
    CHECK(r.cycles <= 480 + 4 + 16 + 3);
  }
}
