// The cmod device's side of the pipe (harness/src/cmod_device.cpp) against stand-in servers
// (tests/data/cmod/fake_*.sh), so that a C model which refuses, dies, hangs or speaks another
// protocol ends a run with a named failure in bounded time, never a crash or a hang of dlacosim.
// The real model's tests are in tests/cmod (built with -DDLA_NVDLA_HW).
#include <stdlib.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <chrono>
#include <filesystem>

#include "golden/config.hpp"
#include "harness/cmod_device.hpp"
#include "harness/errors.hpp"
#include "harness/program.hpp"
#include "harness/regdb.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

// DLACOSIM_CMOD_DIR pointing at a folder whose nv_full server is `script`.
struct FakeServer {
  fs::path dir;
  explicit FakeServer(const std::string& script) {
    dir = fs::temp_directory_path() / ("dla_fake_cmod_" + script + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::create_symlink(fs::path(DLA_SOURCE_DIR) / "tests/data/cmod" / script, dir / "dlacosim-cmod-nvdlav1");
    ::setenv("DLACOSIM_CMOD_DIR", dir.c_str(), 1);
  }
  ~FakeServer() {
    ::unsetenv("DLACOSIM_CMOD_DIR");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

CmodOptions short_limits() {
  CmodOptions o;
  o.wait_limit = std::chrono::seconds(2);
  o.quiet_limit = std::chrono::seconds(2);
  return o;
}

}  // namespace

TEST_CASE("cmod client: a model that asserts is a refusal naming the assertion", "[cmod]") {
  const FakeServer s("fake_assert.sh");
  auto dev = make_cmod_device(dla::golden::nv_full(), short_limits());
  try {
    dev->reg_write(0x6000, 1);
    dev->reg_write(0x6004, 1);  // the server is gone by now at the latest
    FAIL("the dead server went unnoticed");
  } catch (const CmodFailure& e) {
    CHECK(e.kind() == CmodFailure::Kind::Refused);
    const std::string w = e.what();
    CHECK_THAT(w, Catch::Contains("died of signal 6"));
    CHECK_THAT(w, Catch::Contains("NV_NVDLA_csc.cpp:2382"));
    CHECK_THAT(w, Catch::Contains("Assertion"));
  }
  // Every later access says the device stopped, instead of touching a dead pipe.
  CHECK_THROWS_AS(dev->reg_read(0x0), CmodFailure);
}

TEST_CASE("cmod client: a server that never answers times out in bounded time", "[cmod]") {
  const FakeServer s("fake_silent.sh");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)make_cmod_device(dla::golden::nv_full(), short_limits());
    FAIL("a silent server was accepted");
  } catch (const CmodFailure& e) {
    CHECK(e.kind() == CmodFailure::Kind::Timeout);
    CHECK_THAT(std::string(e.what()), Catch::Contains("start-up"));
  }
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

TEST_CASE("cmod client: a server that exits at once, or speaks another protocol, is named", "[cmod]") {
  {
    const FakeServer s("fake_exit.sh");
    try {
      (void)make_cmod_device(dla::golden::nv_full(), short_limits());
      FAIL("an exiting server was accepted");
    } catch (const CmodFailure& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains("exited with status 3"));
      CHECK_THAT(std::string(e.what()), Catch::Contains("cannot elaborate"));
    }
  }
  {
    const FakeServer s("fake_old.sh");
    try {
      (void)make_cmod_device(dla::golden::nv_full(), short_limits());
      FAIL("a server of another protocol version was accepted");
    } catch (const CmodFailure& e) {
      CHECK(e.kind() == CmodFailure::Kind::Broken);
      CHECK_THAT(std::string(e.what()), Catch::Contains("protocol"));
    }
  }
}

TEST_CASE("cmod client: no model in the build says how to get one", "[cmod]") {
  const fs::path empty = fs::temp_directory_path() / ("dla_no_cmod_" + std::to_string(::getpid()));
  fs::create_directories(empty);
  ::setenv("DLACOSIM_CMOD_DIR", empty.c_str(), 1);
  try {
    (void)make_cmod_device(dla::golden::nv_small(), CmodOptions{});
    FAIL("a missing server was accepted");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("-DDLA_NVDLA_HW"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("dlacosim-cmod-master-nv_small"));
  }
  ::unsetenv("DLACOSIM_CMOD_DIR");
  fs::remove_all(empty);
}

TEST_CASE("cmod rules: what the C model cannot judge is named", "[cmod]") {
  const RegDb& db = RegDb::nvdla();
  const auto write = [&](const char* reg, uint32_t v) {
    ProgramStep s;
    s.op = StepOp::RegWrite;
    s.reg = db.find(reg);
    REQUIRE(s.reg != nullptr);
    s.value = v;
    return s;
  };
  Program p;
  p.config = "nv_full";
  // An empty program, and a RUBIK contract at its packed contract stride: judged.
  CHECK(cmod_cannot_judge(p, dla::golden::nv_full()).empty());
  // 40 int8 channels out: 2 surfaces of 32; DAIN_SURF_STRIDE 0x400 -> packed CONTRACT_STRIDE_0 0x800.
  p.steps = {write("RBK.D_MISC_CFG", 0x0), write("RBK.D_DATAOUT_SIZE_1", 39), write("RBK.D_DAIN_SURF_STRIDE", 0x400),
             write("RBK.D_CONTRACT_STRIDE_0", 0x800), write("RBK.D_OP_ENABLE", 1)};
  CHECK(cmod_cannot_judge(p, dla::golden::nv_full()).empty());
  p.steps[3] = write("RBK.D_CONTRACT_STRIDE_0", 0xc00);
  CHECK_THAT(cmod_cannot_judge(p, dla::golden::nv_full()), Catch::Contains("D_CONTRACT_STRIDE_0"));
  // SPLIT does not read the contract stride.
  p.steps[0] = write("RBK.D_MISC_CFG", 0x1);
  CHECK(cmod_cannot_judge(p, dla::golden::nv_full()).empty());
  // W-fold: this project's register.
  p.steps = {write("CDMA.D_WFOLD", 0x21)};
  CHECK_THAT(cmod_cannot_judge(p, dla::golden::nv_full()), Catch::Contains("D_WFOLD"));
  p.steps = {write("CDMA.D_WFOLD", 0x0)};
  CHECK(cmod_cannot_judge(p, dla::golden::nv_full()).empty());
  // BDMA into CV-SRAM; both groups in flight.
  p.steps = {write("BDMA.CFG_CMD", 0x1)};  // DST_RAM_TYPE 0 = CVSRAM
  CHECK_THAT(cmod_cannot_judge(p, dla::golden::nv_full()), Catch::Contains("CV-SRAM"));
  p.steps = {write("BDMA.CFG_CMD", 0x3), write("BDMA.CFG_LAUNCH0", 1), write("BDMA.CFG_LAUNCH1", 1)};
  CHECK_THAT(cmod_cannot_judge(p, dla::golden::nv_full()), Catch::Contains("both BDMA groups"));
  ProgramStep wait;
  wait.op = StepOp::WaitIntr;
  wait.intr = "BDMA_0";
  p.steps = {write("BDMA.CFG_CMD", 0x3), write("BDMA.CFG_LAUNCH0", 1), wait, write("BDMA.CFG_LAUNCH1", 1)};
  CHECK(cmod_cannot_judge(p, dla::golden::nv_full()).empty());
  // Counters read back but not compared on the C model.
  CHECK_FALSE(cmod_uncompared_read(Program{}, *db.find("CDP.D_OUT_SATURATION"), 1, 0).empty());
  CHECK_FALSE(cmod_uncompared_read(Program{}, *db.find("SDP.D_PERF_LUT_HYBRID"), 1, 0).empty());
  CHECK(cmod_uncompared_read(Program{}, *db.find("CACC.D_OUT_SATURATION"), 1, 0).empty());
  CHECK(cmod_uncompared_read(Program{}, *db.find("SDP.D_PERF_OUT_SATURATION"), 1, 0).empty());
  // PDP's fp16 input counters: forgiven only when the C model counted fewer (its layer ends
  // before the last rows below the last window arrive), never when it counted more.
  CHECK_FALSE(cmod_uncompared_read(Program{}, *db.find("PDP.D_NAN_INPUT_NUM"), 3, 5).empty());
  CHECK(cmod_uncompared_read(Program{}, *db.find("PDP.D_NAN_INPUT_NUM"), 6, 5).empty());
  CHECK(cmod_uncompared_read(Program{}, *db.find("PDP.D_NAN_OUTPUT_NUM"), 3, 5).empty());
  // CDMA's fp16 data counters: forgiven only for image input (the C model counts uninitialised
  // words of its line buffer past the image) and only when the C model counted more.
  Program image;
  image.steps = {write("CDMA.D_DATAIN_FORMAT", 0x1)};  // DATAIN_FORMAT = PIXEL
  Program feature;
  feature.steps = {write("CDMA.D_DATAIN_FORMAT", 0x0)};
  for (const char* r : {"CDMA.D_NAN_INPUT_DATA_NUM", "CDMA.D_INF_INPUT_DATA_NUM"}) {
    INFO(r);
    CHECK_FALSE(cmod_uncompared_read(image, *db.find(r), 1, 0).empty());
    CHECK(cmod_uncompared_read(image, *db.find(r), 0, 1).empty());
    CHECK(cmod_uncompared_read(feature, *db.find(r), 1, 0).empty());
  }
  CHECK(cmod_uncompared_read(image, *db.find("CDMA.D_NAN_INPUT_WEIGHT_NUM"), 1, 0).empty());
}
