// NVIDIA's KMD loadables (docs/LOADABLES.md) judged by NVIDIA's C model: the register programs
// the harness's firmware makes run on golden and on the model, every op's output compared, and
// the output image still NVIDIA's md5 (nv_full and nv_small; the four nv_large ones where the
// nv_large model is built, which CI does not ask for: DLA_CMOD_CONFIGS, docs/CMOD.md).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "common/md5.hpp"
#include "common/nvdla_sw.hpp"
#include "golden/config.hpp"
#include "harness/cmod_device.hpp"
#include "harness/loadable_runner.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

RunResult judged(const std::string& test, const std::vector<loadable::InputBinding>& inputs, const fs::path& dimg) {
  RunOptions o;
  o.mode = "golden";
  o.judge_cmod = true;
  o.cmod.wait_limit = std::chrono::seconds(300);
  o.cmod.quiet_limit = std::chrono::seconds(30);
  loadable::LoadableRunOptions lo;
  lo.inputs = inputs;
  lo.dimg = dimg;
  return loadable::run_loadable(dla::test::kmd_loadable(test), o, lo);
}

fs::path temp_dimg(const std::string& name) {
  return fs::temp_directory_path() / ("dlacosim-loadables-cmod-" + std::to_string(::getpid()) + "-" + name + ".dimg");
}

}  // namespace

TEST_CASE("NVIDIA's KMD loadables: golden = C model on every op, and NVIDIA's md5", "[cmod][loadable]") {
  if (!dla::test::kmd_present()) return;
  // NN_L0_0 runs below on a digit (NVIDIA's md5 of it is the golden model's test).
  std::string why;
  const bool large_model = !cmod_server(*dla::golden::find_config("nv_large"), why).empty();
  std::vector<std::string> tests;
  for (const auto& t : dla::test::kmd_int_tests()) {
    if (large_model || !t.ends_with("_large")) tests.push_back(t);
  }
  for (const auto& test : tests) {
    INFO(test);
    const fs::path dimg = temp_dimg(test);
    const RunResult r = judged(test, {}, dimg);
    INFO(r.message);
    CHECK(r.status == Status::Pass);
    REQUIRE(r.cmod.has_value());
    CHECK(r.cmod->state == CmodVerdict::State::Agrees);
    CHECK(dla::test::md5_hex(dla::test::file_bytes(dimg)) == dla::test::kmd_md5(test));
    fs::remove(dimg);
  }
}

TEST_CASE("NN_L0_0 (LeNet, fp16) on a digit: golden = C model on every layer and on the softmax's output",
          "[cmod][loadable][fp16]") {
  if (!dla::test::kmd_present()) return;
  // A real image exercises every spatial path the zero input of NVIDIA's md5 leaves constant.
  const fs::path dimg = temp_dimg("NN_L0_0-seven");
  const RunResult r = judged("NN_L0_0", {{"data", dla::test::kmd_dir() / "images" / "seven.pgm"}}, dimg);
  INFO(r.message);
  CHECK(r.status == Status::Pass);
  REQUIRE(r.cmod.has_value());
  CHECK(r.cmod->state == CmodVerdict::State::Agrees);
  // One op-output check per DLA op that writes memory, each also made on the model.
  int cmod_checks = 0;
  for (const auto& c : r.compares) cmod_checks += c.region.starts_with("cmod: ") ? 1 : 0;
  CHECK(cmod_checks >= 7);
  fs::remove(dimg);
}

TEST_CASE("a loadable on NVIDIA's C model alone (--mode cmod) writes NVIDIA's output image", "[cmod][loadable]") {
  if (!dla::test::kmd_present()) return;
  for (const std::string test : {"SDP_X1_L0_0", "CDP_L0_0_small", "RBK_L0_0"}) {
    INFO(test);
    RunOptions o;
    o.mode = "cmod";
    o.cmod.wait_limit = std::chrono::seconds(300);
    o.cmod.quiet_limit = std::chrono::seconds(30);
    loadable::LoadableRunOptions lo;
    lo.dimg = temp_dimg(test + "-alone");
    const RunResult r = loadable::run_loadable(dla::test::kmd_loadable(test), o, lo);
    INFO(r.message);
    CHECK(r.status == Status::Pass);
    CHECK(dla::test::md5_hex(dla::test::file_bytes(*lo.dimg)) == dla::test::kmd_md5(test));
    fs::remove(*lo.dimg);
  }
}
