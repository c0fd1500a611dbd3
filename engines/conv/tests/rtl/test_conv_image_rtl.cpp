// Image input on the RTL (docs/IMAGE_INPUT.md "RTL"): every bundled image layer of
// testvectors/layers/image/ in cross mode -- the RTL's output equal to the golden model's byte for
// byte, the golden model itself judged by the int64 image reference of
// engines/conv/tests/harness/test_conv_image_layers.cpp -- under three of the ten stress legs each, rotating
// (every leg for every layer in the "[.long]" case), the three post-extended ones (E = 2, 4)
// included.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "cross_stress.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dla::harness;  // NOLINT(google-build-using-namespace)

std::vector<fs::path> image_layers() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "image")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void run_image_layers(bool all_legs) {
  const std::vector<fs::path> files = image_layers();
  REQUIRE(files.size() >= 20);
  std::size_t post = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& f = files[i];
    if (f.filename().string().find("_postext") != std::string::npos) ++post;
    for (const RunOptions& o : all_legs ? cross_stress::options() : cross_stress::legs_for(i)) {
      const RunResult r = run_layer(f, o);
      INFO(f.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << " latency "
                                 << o.mem.latency_min << ":" << o.mem.latency_max << "\n"
                                 << format_run(r));
      REQUIRE(r.status == Status::Pass);
      const auto mem = std::find_if(r.compares.begin(), r.compares.end(),
                                    [](const CompareResult& c) { return c.region.rfind("golden memory", 0) == 0; });
      REQUIRE(mem != r.compares.end());
      CHECK(mem->elements > 0);
      CHECK(mem->mismatches == 0);
    }
  }
  CHECK(post == 3);  // post-extension E = 2 and 4 (nv_full)
}

}  // namespace

TEST_CASE("every bundled image layer runs on the RTL equal to golden under stress", "[rtl][conv][image]") {
  run_image_layers(false);
}

TEST_CASE("every bundled image layer runs on the RTL equal to golden under every stress leg",
          "[rtl][conv][image][.long]") {
  run_image_layers(true);
}
