// NVDLA v1's own nv_full trace-player tests (../shared/nvdla-traces/nvdlav1/*/input.txn) on the
// RTL: cross mode (golden beside it) under the stress matrix, each must reproduce NVIDIA's
// expected output image (docs/TRACES.md "NVDLA v1 trace-player tests").
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <vector>

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

// NVDLA v1's raw traces (e.g. googlenet_conv2_3x3_int16, not bundled) begin by writing
// CDMA.S_CBUF_FLUSH_STATUS and reading it back expecting 0: CBUF's flush after reset is not done
// yet. The same two steps in front of conv_8x8_fc_int16 (which then waits, never polls): the read
// sees 0 on golden and on the RTL, and the layer still reproduces NVIDIA's image.
TEST_CASE("CBUF's flush after reset reads 0 at once as NVDLA v1's raw traces expect on golden and RTL",
          "[rtl][traces][nvdlav1]") {
  const fs::path txn = fs::path(DLA_SHARED_DIR) / "nvdla-traces" / "nvdlav1" / "conv_8x8_fc_int16" / "input.txn";
  Program p = import_nvdla_txn(txn, "nv_full");
  const RegDef* flush = RegDb::nvdla().find("CDMA.S_CBUF_FLUSH_STATUS");
  REQUIRE(flush != nullptr);
  ProgramStep w;
  w.op = StepOp::RegWrite;
  w.where = "raw-trace prologue: write_reg";
  w.reg = flush;
  w.value = 0;
  ProgramStep r = w;
  r.op = StepOp::RegRead;
  r.where = "raw-trace prologue: read_reg, mask 0x1, expected 0";
  r.mask = 1;
  p.steps.insert(p.steps.begin(), {w, r});
  // A read is compared on the device under test: the golden device alone, then the RTL beside it.
  RunOptions golden_only;
  golden_only.mode = "golden";
  std::vector<RunOptions> runs{golden_only};
  for (const RunOptions& o : cross_stress::options()) runs.push_back(o);
  for (const RunOptions& o : runs) {
    const RunResult res = run_program_in_mode(p, dla::golden::nv_full(), o);
    INFO(o.mode << " seed " << o.seed.value_or(0) << " rand-reset " << o.sim.rand_reset << "\n" << format_run(res));
    REQUIRE(res.status == Status::Pass);
    CHECK(res.compares.back().mismatches == 0);
  }
  // The same read expecting 1 fails on both: the check can fail.
  p.steps[1].value = 1;
  for (const RunOptions& o : {golden_only, cross_stress::options().front()}) {
    INFO(o.mode);
    CHECK(run_program_in_mode(p, dla::golden::nv_full(), o).status == Status::Mismatch);
  }
}
