// dlacosim and BDMA (docs/BDMA.md): bdma layers run on nv_full and are refused elsewhere naming
// the block; `random bdma` is nv_full only; the fixed-seed CI campaign (every layer judged by the
// memcpy reference; RTL against golden where the BDMA RTL is built, else golden alone) passes; a
// generated layer written with --all reproduces with `dlacosim run`.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const fs::path kTmp = fs::path(DLA_BINARY_DIR) / "test_tmp" / "bdma_cli";
const std::string kLayers = std::string(DLA_SOURCE_DIR) + "/testvectors/layers/bdma/";

}  // namespace

TEST_CASE("dlacosim bdma: nv_full only, refusals exit 2 naming the block", "[cli][bdma]") {
  const Cmd ok = dlacosim("run " + kLayers + "full_fifo_full_poll.json --mode golden");
  INFO(ok.out);
  CHECK(ok.exit == 0);
  for (const char* cfg : {"nv_small", "nv_large"}) {
    const Cmd r = dlacosim("run " + kLayers + "full_one_line_32b.json --mode golden --config " + cfg);
    INFO(r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains(std::string(cfg) + " has no BDMA"));
    const Cmd g = dlacosim(std::string("random bdma --count 1 --config ") + cfg);
    INFO(g.out);
    CHECK(g.exit == 2);
    CHECK_THAT(g.out, Catch::Contains("--config") && Catch::Contains("nv_full only"));
  }
}

TEST_CASE("dlacosim random: CI campaign bdma nv_full 50 layers", "[cli][random][campaign]") {
  const fs::path dir = kTmp / "ci_bdma";
  fs::remove_all(dir);
  const Cmd r = dlacosim("random bdma --count 50 --seed 2026 -j 1 --quiet --out " + dir.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("failing layers (index): none"));
  CHECK_THAT(r.out, Catch::Contains("50 layers in "));
}

TEST_CASE("dlacosim random bdma: a written layer reproduces with dlacosim run", "[cli][random][bdma]") {
  const fs::path dir = kTmp / "all_bdma";
  fs::remove_all(dir);
  const Cmd r = dlacosim("random bdma --count 3 --seed 7 --all --quiet --out " + dir.string());
  INFO(r.out);
  REQUIRE(r.exit == 0);
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json" || e.path().filename() == "summary.json") continue;
    const Cmd run = dlacosim("run " + e.path().string() + " --mode golden");
    INFO(run.out);
    CHECK(run.exit == 0);
    ++n;
  }
  CHECK(n == 3);
}
