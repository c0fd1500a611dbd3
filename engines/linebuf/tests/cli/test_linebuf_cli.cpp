// `dlacosim bench linebuf --json` (engines/linebuf/harness/linebuf_bench.cpp; docs/PERFORMANCE.md "Line-buffer"):
// the figures agree with the layers, the large maps reach >= 90 % of the PE array's peak, and the
// NVDLA comparison ran; run / validate of `linebuf` layers through the CLI.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dla::test::Cmd;
using dla::test::dlacosim;

TEST_CASE("bench linebuf --json: pixels, peak, utilization >= 90 % on large maps, NVDLA cycles", "[cli][bench][linebuf]") {
  const Cmd c = dlacosim("bench linebuf --json", false);
  INFO(c.out);
  REQUIRE(c.exit == 0);
  const auto a = nlohmann::json::parse(c.out);
  REQUIRE(a.is_array());
  REQUIRE(a.size() == 9);
  int large = 0, nvdla = 0;
  for (const auto& o : a) {
    INFO(o.dump());
    CHECK(o.at("unit") == "linebuf");
    CHECK(o.at("status") == "PASS");
    CHECK(o.at("element") == "pixel");
    const auto cycles = o.at("cycles").get<uint64_t>();
    const auto pixels = o.at("elements").get<uint64_t>();
    const double peak = o.at("peak_pixels_per_cycle").get<double>();
    REQUIRE(cycles > 0);
    // Nothing beats the PE array's peak.
    CHECK(static_cast<double>(pixels) / static_cast<double>(cycles) <= peak);
    CHECK(o.at("utilization").get<double>() ==
          Approx(static_cast<double>(pixels) / peak / static_cast<double>(cycles)).epsilon(1e-12));
    const std::string name = o.at("case");
    if (name.rfind("conv", 0) == 0) {
      // pad 1: the output map is the input map, K channels.
      const int k = o.at("kernels").get<int>();
      int w = 0, h = 0, ch = 0;
      REQUIRE(std::sscanf(o.at("cube").get<std::string>().c_str(), "%dx%dx%d", &w, &h, &ch) == 3);
      CHECK(pixels == static_cast<uint64_t>(w) * h * k);
      CHECK(peak == Approx(1.0 / ((ch + 3) / 4)));
      if (w * h >= 28 * 28) {
        CHECK(o.at("utilization").get<double>() >= 0.90);
        ++large;
      }
    }
    if (!o.at("nvdla_cycles").is_null()) {
      CHECK(o.at("nvdla_detail") == "");
      CHECK(o.at("nvdla_cycles").get<uint64_t>() > 0);
      ++nvdla;
    }
  }
  CHECK(large == 4);
  // The weights-once dataflow streams each weight group once instead of once per output row.
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].at("dataflow") != "weights_once") continue;
    const auto& pix = a[i - (a[i].at("case") == "conv 7x7 c64 k64 wonce" ? 2 : 1)];
    INFO(a[i].dump() << "\n" << pix.dump());
    REQUIRE(pix.at("dataflow") == "pixels_once");
    CHECK(pix.at("cube") == a[i].at("cube"));
    CHECK(pix.at("weight_beats").get<uint64_t>() ==
          a[i].at("weight_beats").get<uint64_t>() * std::stoull(a[i].at("cube").get<std::string>()));
  }
  CHECK(nvdla == 5);
  const Cmd ops = dlacosim("bench linebuf --ops 5");
  CHECK(ops.exit == 2);
  CHECK_THAT(ops.out, Catch::Contains("--ops") && Catch::Contains("fixed layers"));
}

TEST_CASE("linebuf layers through the CLI: run under back-pressure passes, validate takes a 7-layer stack", "[cli][linebuf]") {
  const std::string dir = std::string(DLA_SOURCE_DIR) + "/testvectors/layers/linebuf/";
  const Cmd r = dlacosim("run --stall 0.3 --rand-reset 2 " + dir + "19_stack_conv_pool_fc.json");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS 19_stack_conv_pool_fc"));
  const Cmd v = dlacosim("validate " + dir + "20_stack_seed_56.json");
  CHECK(v.exit == 0);
  CHECK_THAT(v.out, Catch::Contains("ok ") && Catch::Contains("linebuf"));
}

// `dlacosim random linebuf` (engines/linebuf/harness/linebuf_random.cpp; docs/RANDOM.md "linebuf"): a 20-layer
// campaign passes in cross mode and reports 20 layers; a written layer validates, `dlacosim run`
// reproduces it, and the same layer with one output bit flipped on the RTL side is a mismatch (the
// campaign's comparison can fail).
TEST_CASE("dlacosim random linebuf: 20 layers pass, a written layer reproduces, a flipped bit fails",
          "[cli][random][linebuf]") {
  const std::string out = std::string(DLA_BINARY_DIR) + "/test_tmp/random_linebuf_cli";
  const Cmd r = dlacosim("random linebuf --count 20 --seed 2026 -j 1 --quiet --config nv_small --all --out " + out);
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("random linebuf --seed 2026 --count 20 -j 1: 20 layers in "));
  CHECK_THAT(r.out, Catch::Contains("failing layers (index): none"));
  const std::string layer = out + "/random_linebuf_nv_small_s2026_00003.json";
  const Cmd v = dlacosim("validate " + layer);
  CHECK(v.exit == 0);
  const Cmd run = dlacosim("run " + layer);
  CHECK(run.exit == 0);
  CHECK_THAT(run.out, Catch::Contains("PASS random_linebuf_nv_small_s2026_00003"));
  const Cmd flip = dlacosim("run " + layer + " --flip-bit 0:0");
  CHECK(flip.exit == 1);
  CHECK_THAT(flip.out, Catch::Contains("MISMATCH"));
}
