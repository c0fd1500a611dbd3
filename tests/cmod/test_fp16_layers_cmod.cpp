// fp16 layers (docs/FP16.md) judged by NVIDIA's C model: every bundled layer of
// testvectors/layers/fp16 on the golden model equals the C model on every check (outputs and the
// status registers the layer reads). The RTL refuses them: tests/rtl/test_fp16_refusals_rtl.cpp.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/layer.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> fp16_layers() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/fp16")) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("fp16 layers: golden = NVIDIA's C model on every bundled fp16 layer", "[cmod][fp16]") {
  const std::vector<fs::path> files = fp16_layers();
  REQUIRE(files.size() >= 28);
  for (const fs::path& f : files) {
    INFO(f.filename().string());
    RunOptions o;
    o.mode = "golden";
    o.judge_cmod = true;
    o.cmod.wait_limit = std::chrono::seconds(300);
    o.cmod.quiet_limit = std::chrono::seconds(30);
    const RunResult r = run_layer(f, o);
    INFO(r.message);
    CHECK(r.status == Status::Pass);
    REQUIRE(r.cmod.has_value());
    CHECK(r.cmod->state == CmodVerdict::State::Agrees);
    int judged = 0;
    for (const auto& c : r.compares) judged += c.region.starts_with("cmod: ") ? 1 : 0;
    CHECK(judged >= 1);
  }
}
