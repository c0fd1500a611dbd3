// NVDLA loadables on the RTL (docs/LOADABLES.md): every int8 / int16 loadable of NVIDIA's KMD
// regression in cross mode (golden and RTL, every op's output compared at its interrupt), its
// output image from the RTL equal to NVIDIA's md5, without stress and under every leg of the
// stress matrix (cross_stress.hpp): 14 x 11 runs, about 7 s alone on the 2-core VM, so the whole
// matrix runs in CI (no [.long] share).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "common/md5.hpp"
#include "common/nvdla_sw.hpp"
#include "cross_stress.hpp"
#include "harness/loadable_runner.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dla::harness;

void run_cross(const std::string& test, const RunOptions& o) {
  loadable::LoadableRunOptions lo;
  lo.dimg = fs::temp_directory_path() / ("dlacosim-loadables-rtl-" + std::to_string(::getpid()) + "-" + test + ".dimg");
  const RunResult r = loadable::run_loadable(dla::test::kmd_loadable(test), o, lo);
  INFO(test << " seed " << o.seed.value_or(1) << " stall " << o.stall.value_or(0) << " rand-reset " << o.sim.rand_reset
            << "\n" << r.message);
  REQUIRE(r.status == Status::Pass);
  CHECK(r.mode == "cross");
  CHECK(r.cycles > 0);
  // Every op writing memory was compared golden against RTL at its interrupt.
  int compared = 0;
  for (const auto& c : r.compares) {
    if (c.region.rfind("golden memory", 0) != 0) continue;
    ++compared;
    CHECK(c.elements > 0);
    CHECK(c.mismatches == 0);
  }
  CHECK(compared == 1);  // each KMD test has one op writing memory (CONV_D's conv flies into SDP)
  CHECK(dla::test::md5_hex(dla::test::file_bytes(*lo.dimg)) == dla::test::kmd_md5(test));
  fs::remove(*lo.dimg);
}

}  // namespace

TEST_CASE("every int8 / int16 KMD loadable reproduces NVIDIA's md5 on the RTL (cross mode), under every stress leg",
          "[rtl][loadable]") {
  if (!dla::test::kmd_present()) return;
  for (const auto& test : dla::test::kmd_int_tests()) {
    RunOptions plain;
    plain.mode = "cross";
    run_cross(test, plain);
    for (const auto& leg : cross_stress::options()) run_cross(test, leg);
  }
}
