// NVDLA v1's own nv_full trace-player tests (../shared/nvdla-traces/nvdlav1/*/input.txn) on the
// RTL: cross mode (golden beside it) under the stress matrix, each must reproduce NVIDIA's
// expected output image (docs/TRACES.md "NVDLA v1 trace-player tests").
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

TEST_CASE("RTL reproduces NVDLA v1's expected images on both nvdlav1 tests", "[rtl][traces][nvdlav1]") {
  for (const std::string test : {"sdp_relu_int16", "conv_8x8_fc_int16"}) {
    DYNAMIC_SECTION(test) {
      const fs::path txn = fs::path(DLA_SHARED_DIR) / "nvdla-traces" / "nvdlav1" / test / "input.txn";
      const Program p = import_nvdla_txn(txn, "nv_full");
      for (const RunOptions& o : cross_stress::options()) {
        const RunResult r = run_program_in_mode(p, dla::golden::nv_full(), o);
        INFO(test << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
        REQUIRE(r.status == Status::Pass);
        REQUIRE_FALSE(r.compares.empty());
        // The last compare is the dump_mem image: every byte equal to NVIDIA's.
        CHECK(r.compares.back().elements > 0);
        CHECK(r.compares.back().mismatches == 0);
        CHECK(r.compares.back().crc_actual == r.compares.back().crc_expected);
      }
    }
  }
}
