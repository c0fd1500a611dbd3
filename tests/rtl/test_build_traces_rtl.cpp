// NVIDIA's trace tests of the NVDLA builds modeled beyond the three the engines' own trace tests
// cover (docs/TRACES.md "Builds"): every trace of the build's folder replayed in cross mode (RTL
// under test, golden model beside it) reproduces NVIDIA's CRC, each under 3 of the 10 stress legs
// (back-pressure seeds x randomized reset; rotating so that every four traces meet all ten), on
// the configuration its folder names. One test per kind of trace, so CTest runs them side by side.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

std::vector<fs::path> traces_of(const std::string& build, const std::string& kind) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / build)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind(kind + "_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_kind(const std::string& build, const std::string& kind, std::size_t expected) {
  const auto* hw = dla::golden::find_config(build);
  REQUIRE(hw != nullptr);
  const auto traces = traces_of(build, kind);
  REQUIRE(traces.size() == expected);
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const TraceConfig tc = trace_config(traces[i], std::nullopt);
    REQUIRE(tc.config == build);  // the folder decides the build, not --config
    const Program p = import_nvdla_cfg(traces[i], build);
    for (const RunOptions& o : cross_stress::legs_for(i)) {
      const RunResult r = run_program_in_mode(p, *hw, o);
      INFO(traces[i].filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n"
                                         << format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE_FALSE(r.compares.empty());
      CHECK(r.compares.back().crc_actual == r.compares.back().crc_expected);
      CHECK(r.cycles > 0);
    }
  }
}

}  // namespace

// nv_small_256: nv_small with MAC atomic C 32 and 32-byte CBUF entries of four 8-byte atoms.
TEST_CASE("nv_small_256 RTL reproduces NVIDIA's CRC on every dc trace", "[rtl][traces][builds]") {
  run_kind("nv_small_256", "dc", 12);
}
TEST_CASE("nv_small_256 RTL reproduces NVIDIA's CRC on every img trace", "[rtl][traces][builds]") {
  run_kind("nv_small_256", "img", 10);
}
TEST_CASE("nv_small_256 RTL reproduces NVIDIA's CRC on every sdp trace", "[rtl][traces][builds]") {
  run_kind("nv_small_256", "sdp", 24);
}
TEST_CASE("nv_small_256 RTL reproduces NVIDIA's CRC on every pdp trace", "[rtl][traces][builds]") {
  run_kind("nv_small_256", "pdp", 15);
}
TEST_CASE("nv_small_256 RTL reproduces NVIDIA's CRC on every cdp trace", "[rtl][traces][builds]") {
  run_kind("nv_small_256", "cdp", 23);
}

// nv_medium_512: MAC atomic C 32 x K 16, 16-byte atoms on a 128-bit port, SDP 4 and PDP / CDP 2
// elements per cycle (NVIDIA bundles four traces of it).
TEST_CASE("nv_medium_512 RTL reproduces NVIDIA's CRC on every trace", "[rtl][traces][builds]") {
  run_kind("nv_medium_512", "dc", 1);
  run_kind("nv_medium_512", "img", 1);
  run_kind("nv_medium_512", "pdp", 1);
  run_kind("nv_medium_512", "cdp", 1);
}
