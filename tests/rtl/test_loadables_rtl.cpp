// NVDLA loadables on the RTL (docs/LOADABLES.md): every int8 / int16 loadable of NVIDIA's KMD
// regression in cross mode (golden and RTL, every op's output compared at its interrupt), its
// output image from the RTL equal to NVIDIA's md5, without stress and under every leg of the
// stress matrix (cross_stress.hpp): 14 x 11 runs, about 7 s alone on the 2-core VM, so the whole
// matrix runs in CI (no [.long] share).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>
#include <unistd.h>

#include "common/md5.hpp"
#include "common/nvdla_sw.hpp"
#include "cross_stress.hpp"
#include "harness/loadable_runner.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dla::harness;

// The run's golden-against-RTL compares of memory at each op's interrupt: each checks elements and
// finds no mismatch; returns how many there were.
int check_op_compares(const RunResult& r) {
  int compared = 0;
  for (const auto& c : r.compares) {
    if (c.region.rfind("golden memory", 0) != 0) continue;
    ++compared;
    CHECK(c.elements > 0);
    CHECK(c.mismatches == 0);
  }
  return compared;
}

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
  CHECK(check_op_compares(r) == 1);  // each KMD test has one op writing memory (CONV_D's conv flies into SDP)
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

// NVIDIA's fp16 LeNet (NN_L0_0) on the RTL, since CBUF packs entries as NVDLA does: its first
// convolution's 28 x 28 x 1 fp16 input packs four positions per 128-byte entry into the one data
// bank NVIDIA's compiler gave it (196 entries). Cross mode compares every op's output golden
// against RTL at its interrupt. The zero input (NVIDIA's own run) gives NVIDIA's md5; each of
// NVIDIA's digits is classified as the double-precision LeNet of tests/harness/test_loadables.cpp
// classifies it (NVIDIA's network takes two for 7, six for 5, eight and nine for 3:
// docs/LOADABLES.md). About 10 s a run: CI runs the zero input plain and under one stress leg and
// one digit; "[.long]" the slow-memory leg and the other eight digits.
namespace {

std::vector<uint8_t> run_nn(const RunOptions& o, const std::string& tag, const std::string& digit) {
  loadable::LoadableRunOptions lo;
  if (!digit.empty()) lo.inputs.push_back({"data", dla::test::kmd_dir() / "images" / (digit + ".pgm")});
  lo.dimg = fs::temp_directory_path() / ("dlacosim-nn-rtl-" + std::to_string(::getpid()) + "-" + tag + ".dimg");
  const RunResult r = loadable::run_loadable(dla::test::kmd_loadable("NN_L0_0"), o, lo);
  INFO(tag << " seed " << o.seed.value_or(1) << " stall " << o.stall.value_or(0) << "\n" << r.message);
  REQUIRE(r.status == Status::Pass);
  CHECK(r.mode == "cross");
  CHECK(check_op_compares(r) == 7);  // conv1's SDP, pool1, conv2's SDP, pool2, fc1's SDP, its ReLU SDP, fc2's SDP
  auto img = dla::test::file_bytes(*lo.dimg);
  fs::remove(*lo.dimg);
  return img;
}

// The class NN_L0_0 gives the digit on the RTL: the largest of the ten fp16 probabilities.
int nn_class(const std::string& digit) {
  RunOptions plain;
  plain.mode = "cross";
  const auto img = run_nn(plain, digit, digit);
  REQUIRE(img.size() == 36u + 20u);  // the header and ten fp16 probabilities
  int best = 0;
  uint16_t best_h = 0;
  for (int i = 0; i < 10; ++i) {
    // positive fp16 values (a softmax's) order as their bit patterns
    const auto h = static_cast<uint16_t>(img[36 + 2 * i] | img[37 + 2 * i] << 8);
    if (h > best_h) best = i, best_h = h;
  }
  return best;
}

}  // namespace

TEST_CASE("NN_L0_0 (LeNet fp16) on the RTL: NVIDIA's md5 with every op golden = RTL and a digit",
          "[rtl][loadable][fp16]") {
  if (!dla::test::kmd_present()) return;
  RunOptions plain;
  plain.mode = "cross";
  CHECK(dla::test::md5_hex(run_nn(plain, "zero", "")) == dla::test::kmd_md5("NN_L0_0"));
  // seed 22 with stalls and rand-reset 1
  CHECK(dla::test::md5_hex(run_nn(cross_stress::options()[4], "zero-leg4", "")) == dla::test::kmd_md5("NN_L0_0"));
  CHECK(nn_class("seven") == 7);
}

TEST_CASE("NN_L0_0 on the RTL: slow memory and the other eight digits", "[.long][rtl][loadable][fp16]") {
  if (!dla::test::kmd_present()) return;
  // slow memory (latency 64-256, 4 B / cycle) with rand-reset 2
  CHECK(dla::test::md5_hex(run_nn(cross_stress::options()[9], "zero-leg9", "")) == dla::test::kmd_md5("NN_L0_0"));
  const std::map<std::string, int> expected = {{"one", 1}, {"two", 7}, {"three", 3}, {"four", 4},
                                               {"five", 5}, {"six", 5}, {"eight", 3}, {"nine", 3}};
  for (const auto& [digit, cls] : expected) {
    INFO(digit);
    CHECK(nn_class(digit) == cls);
  }
}
