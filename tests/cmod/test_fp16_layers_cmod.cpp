// fp16 layers and networks (docs/FP16.md) judged by NVIDIA's C model: every bundled layer of
// testvectors/layers/fp16 and network of testvectors/networks/fp16 on the golden model equals the
// C model on every check (outputs and the status registers the layer reads). The RTL of conv, SDP
// and CDP refuses them (tests/rtl/test_fp16_refusals_rtl.cpp); PDP's runs them
// (engines/pdp/tests/rtl/test_pdp_rtl.cpp).
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

std::vector<fs::path> fp16_files(const char* folder) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / folder)) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every file in `folder` on golden with the C model judging: each passes, the model agrees, and
// at least `min_judged` of its checks (`prefix`) were made on the model too.
void judged_by_cmod(const char* folder, std::size_t min_files, const char* prefix, int min_judged) {
  const std::vector<fs::path> files = fp16_files(folder);
  REQUIRE(files.size() >= min_files);
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
    for (const auto& c : r.compares) judged += c.region.starts_with(prefix) ? 1 : 0;
    CHECK(judged >= min_judged);
  }
}

}  // namespace

TEST_CASE("fp16 layers: golden = NVIDIA's C model on every bundled fp16 layer", "[cmod][fp16]") {
  judged_by_cmod("testvectors/layers/fp16", 30, "cmod: ", 1);
}

// Every layer's output (or its fused pool's) is a check the model makes too.
TEST_CASE("fp16 networks: golden = NVIDIA's C model on every layer of every bundled fp16 network", "[cmod][fp16]") {
  judged_by_cmod("testvectors/networks/fp16", 1, "cmod: golden memory", 6);
}
