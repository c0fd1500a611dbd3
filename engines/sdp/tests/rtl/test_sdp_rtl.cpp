// The SDP RTL against NVDLA's own trace tests: every sdp_* trace replayed in cross mode (the RTL
// is the device under test, the golden model runs beside it) must reproduce NVIDIA's CRC, under
// three back-pressure seeds and each randomized-reset mode. Each trace on its own configuration
// (nv_small, nv_large; docs/TRACES.md).
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

std::vector<fs::path> sdp_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("sdp_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// SDP output goes to PDP on the fly: tested with PDP in engines/pdp/tests/rtl/test_pdp_rtl.cpp ("SDP -> PDP on the fly").
bool needs_pdp(const fs::path& p) { return p.filename().string().rfind("sdp_pdp_", 0) == 0; }

// Each trace under 3 of the 10 stress legs, rotating so that every four traces meet all ten
// (cross_stress::legs_for, as the conv layer tests); `all_legs`: every trace under every leg.
void run_all(const std::string& dir, const dla::golden::HwConfig& hw, std::size_t expected_traces,
             bool all_legs = false) {
  std::size_t ran = 0;
  for (const auto& cfg : sdp_traces(dir)) {
    if (needs_pdp(cfg)) continue;
    const Program p = import_nvdla_cfg(cfg, hw.name);
    for (const RunOptions& o : all_legs ? cross_stress::options() : cross_stress::legs_for(ran)) {
      const RunResult r = run_program_in_mode(p, hw, o);
      INFO(cfg.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE_FALSE(r.compares.empty());
      CHECK(r.cycles > 0);
    }
    ++ran;
  }
  CHECK(ran == expected_traces);
}

}  // namespace

TEST_CASE("SDP RTL reproduces NVIDIA's CRC on every nv_small sdp trace", "[rtl][sdp][traces]") {
  run_all("nv_small", dla::golden::nv_small(), 13);
}

TEST_CASE("SDP RTL reproduces NVIDIA's CRC on the nv_large sdp traces", "[rtl][sdp][traces]") {
  run_all("nv_large", dla::golden::nv_large(), 2);
}

TEST_CASE("SDP RTL reproduces NVIDIA's CRC on every sdp trace under every stress leg", "[rtl][sdp][traces][.long]") {
  run_all("nv_small", dla::golden::nv_small(), 13, true);
  run_all("nv_large", dla::golden::nv_large(), 2, true);
}
