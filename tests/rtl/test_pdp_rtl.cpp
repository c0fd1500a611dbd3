// The PDP RTL against NVDLA's own trace tests: every pdp_* trace (off-flying: PDP_RDMA reads the
// cube) replayed on the RTL (rtl/top/nvdla_pdp_top.sv) must reproduce NVIDIA's CRC, under three
// back-pressure seeds and each randomized-reset mode and a slow memory, each trace on its own
// configuration (nv_small, nv_large; docs/PDP_RTL.md). RTL-only mode: the CRC is the oracle.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

std::vector<fs::path> pdp_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("pdp_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// cross_stress's legs, on the RTL alone (the CRC checks of the trace judge it).
std::vector<RunOptions> rtl_stress() {
  std::vector<RunOptions> out = cross_stress::options();
  for (RunOptions& o : out) o.mode = "rtl";
  return out;
}

void run_all(const std::string& dir, const dla::golden::HwConfig& hw, std::size_t expected_traces) {
  std::size_t ran = 0;
  for (const auto& cfg : pdp_traces(dir)) {
    const Program p = import_nvdla_cfg(cfg, hw.name);
    for (const RunOptions& o : rtl_stress()) {
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

TEST_CASE("PDP RTL reproduces NVIDIA's CRC on every nv_small pdp trace", "[rtl][pdp][traces]") {
  run_all("nv_small", dla::golden::nv_small(), 9);
}
