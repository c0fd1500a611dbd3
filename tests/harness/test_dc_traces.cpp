// NVDLA's own direct-convolution trace tests (../shared/nvdla-traces dc_*), replayed on the golden
// device: CDMA -> CSC -> CMAC -> CACC -> SDP (flying) must reproduce NVIDIA's CRC. Each trace
// runs on its own configuration (nv_small; nv_large: 32-byte atom, ATOMIC_C 64, ATOMIC_K 32, 64-byte
// CBUF entries). Also: the golden device's convolution row (which groups it consumes, which interrupts it
// raises, what it says while a block is missing). Results: docs/CONV.md §5.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "engines/conv/harness/conv_device.hpp"
#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/golden_device.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kTraces = fs::path(DLA_SHARED_DIR) / "nvdla-traces";

std::vector<fs::path> dc_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kTraces / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("dc_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

RunResult run_golden(const fs::path& cfg, const dla::golden::HwConfig& hw) {
  const Program p = import_nvdla_cfg(cfg, hw.name);
  RunOptions o;
  o.mode = "golden";
  return run_program_in_mode(p, hw, o);
}

void check_trace(const fs::path& cfg, const dla::golden::HwConfig& hw) {
  const RunResult r = run_golden(cfg, hw);
  INFO(r.message);
  CHECK(r.status == Status::Pass);
  REQUIRE_FALSE(r.compares.empty());
  CHECK(r.compares.back().crc_actual == r.compares.back().crc_expected);
}

}  // namespace

TEST_CASE("nv_small dc traces reproduce NVDLA's CRCs on the golden model", "[traces][conv]") {
  const auto traces = dc_traces("nv_small");
  REQUIRE(traces.size() == 7);
  for (const auto& cfg : traces) {
    DYNAMIC_SECTION(cfg.stem().string()) { check_trace(cfg, dla::golden::nv_small()); }
  }
}

TEST_CASE("the nv_large dc trace reproduces NVDLA's CRC on the golden model", "[traces][conv]") {
  const auto traces = dc_traces("nv_large");
  REQUIRE(traces.size() == 1);
  check_trace(traces.front(), dla::golden::nv_large());
}

namespace {

// Replays a dc trace's memory set-up and register writes, leaving out the D_OP_ENABLE writes of
// the named blocks.
struct PartialReplay {
  GoldenDevice dev{dla::golden::nv_small()};
  Program program;
  explicit PartialReplay(const fs::path& cfg) : program(import_nvdla_cfg(cfg, "nv_small")) {}
  void replay(const std::vector<std::string>& skip_enable_of) {
    for (const auto& st : program.steps) {
      if (st.op == StepOp::MemLoad) {
        dev.memory().write(st.addr, st.bytes);
      } else if (st.op == StepOp::MemFill) {
        dev.memory().fill(st.addr, st.size, st.fill);
      } else if (st.op == StepOp::RegWrite) {
        const bool is_enable = st.reg->name == "D_OP_ENABLE";
        if (is_enable &&
            std::find(skip_enable_of.begin(), skip_enable_of.end(), st.reg->block) != skip_enable_of.end()) {
          continue;
        }
        dev.reg_write(*RegDb::nvdla().address("nv_small", *st.reg), st.value);
      }
    }
  }
  void enable(const char* block) {
    const RegDb& db = RegDb::nvdla();
    dev.reg_write(*db.address("nv_small", *db.find(std::string(block) + ".D_OP_ENABLE")), 1);
  }
};

const fs::path kDilation = kTraces / "nv_small/dc_8x8x36_4x4x36x16_dilation_int8_0/dc_8x8x36_4x4x36x16_dilation_int8_0.cfg";

}  // namespace

TEST_CASE("the convolution row waits for every pipeline block, then raises CACC, SDP, CDMA_DAT, CDMA_WT",
          "[golden_device][conv]") {
  PartialReplay t(kDilation);
  // CBUF's flush after reset: FLUSH_DONE reads 0 until the program lets time pass (the traces poll).
  const RegDb& db = RegDb::nvdla();
  const uint32_t flush_status = *db.address("nv_small", *db.find("CDMA.S_CBUF_FLUSH_STATUS"));
  CHECK(t.dev.reg_read(flush_status) == 0);
  t.dev.let_time_pass();
  CHECK(t.dev.reg_read(flush_status) == 1);

  t.replay({"CDMA", "CSC"});
  CHECK_FALSE(t.dev.interrupt_pending("SDP_0"));
  CHECK_THAT(t.dev.wait_interrupt("SDP_0", 1).detail, Catch::Contains("flying mode") && Catch::Contains("CSC group 0"));
  CHECK_THAT(t.dev.wait_interrupt("CACC_0", 1).detail, Catch::Contains("CSC group 0 to be armed"));
  CHECK_THAT(t.dev.wait_interrupt("CDMA_DAT_0", 1).detail, Catch::Contains("CDMA group 0 was never armed"));
  t.enable("CSC");
  CHECK_THAT(t.dev.wait_interrupt("SDP_0", 1).detail, Catch::Contains("CDMA group 0"));
  CHECK(t.dev.layers().empty());
  t.enable("CDMA");
  // The layer ran (memory is written) but its done events wait for the program: until then the
  // groups read armed and no done bit is set (docs/TRACES.md, "Time on the golden device").
  CHECK(t.dev.layers().size() == 2);
  CHECK_FALSE(t.dev.interrupt_pending("CDMA_DAT_0"));
  CHECK(t.dev.armed("CDMA", 0));
  // Waiting for CACC releases the events in pipeline order up to it: CDMA_DAT, CDMA_WT, CACC.
  CHECK(t.dev.wait_interrupt("CACC_0", 1).raised);
  CHECK(t.dev.interrupt_pending("CDMA_DAT_0"));
  CHECK(t.dev.interrupt_pending("CDMA_WT_0"));
  CHECK_FALSE(t.dev.interrupt_pending("SDP_0"));
  CHECK(t.dev.armed("SDP", 0));  // the groups go with the last event
  CHECK(t.dev.wait_interrupt("SDP_0", 1).raised);
  for (const char* intr : {"SDP_0", "CACC_0", "CDMA_DAT_0", "CDMA_WT_0"}) {
    INFO(intr);
    CHECK(t.dev.interrupt_pending(intr));
  }
  // Every pipeline group was consumed: OP_EN cleared, consumer pointers toggled.
  for (const char* blk : {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) {
    INFO(blk);
    CHECK_FALSE(t.dev.armed(blk, 0));
    CHECK(t.dev.consumer(blk) == 1);
  }
  CHECK(t.dev.consumer("SDP_RDMA") == 0);  // not used: every SDP stage is bypassed
  REQUIRE(t.dev.layers().size() == 2);
  CHECK(t.dev.layers()[0].unit == "CACC");
  CHECK_FALSE(t.dev.layers()[0].wrote_memory);
  CHECK(t.dev.layers()[0].out_shape == dla::golden::CubeShape{1, 16, 2, 2});
  CHECK(t.dev.layers()[1].unit == "SDP");
  CHECK(t.dev.layers()[1].wrote_memory);
  CHECK(t.dev.peek("CACC", dla::golden::regs::cacc::D_OUT_SATURATION::offset, 0) == 0);
}

TEST_CASE("a convolution whose blocks disagree is refused with the reason on SDP's interrupt",
          "[golden_device][conv]") {
  PartialReplay t(kDilation);
  t.replay({"CDMA"});
  // CDMA (not yet armed, so still writable) now disagrees with CSC about the input channels.
  const RegDb& db = RegDb::nvdla();
  CHECK(t.dev.armed("CSC", 0));
  t.dev.reg_write(*db.address("nv_small", *db.find("CDMA.D_DATAIN_SIZE_1")), 0x3f);  // C = 64, CSC says 36
  t.enable("CDMA");
  CHECK_FALSE(t.dev.interrupt_pending("SDP_0"));
  const WaitResult w = t.dev.wait_interrupt("SDP_0", 1);
  CHECK_FALSE(w.raised);
  CHECK_THAT(w.detail, Catch::Contains("CDMA and CSC input channels differ"));
  CHECK_FALSE(t.dev.armed("CDMA", 0));  // the groups are released either way
}

TEST_CASE("a wrong dc CRC is a mismatch that describes SDP's output cube after the convolution",
          "[traces][conv]") {
  Program p = import_nvdla_cfg(kDilation, "nv_small");
  REQUIRE(p.steps.back().op == StepOp::Check);
  p.steps.back().crc ^= 1u;
  GoldenDevice dev(dla::golden::nv_small());
  const RunResult r = run_program(p, &dev, nullptr, {});
  CHECK(r.status == Status::Mismatch);
  CHECK_THAT(r.message, Catch::Contains("the golden SDP group 0 layer wrote this region"));
  CHECK_THAT(r.message, Catch::Contains("golden CACC_0: direct conv int8, input 8x8x36"));
}

TEST_CASE("a convolution armed before CBUF's flush after reset is done starts when time passes",
          "[golden_device][conv]") {
  const RegDb& db = RegDb::nvdla();
  const uint32_t flush_status = *db.address("nv_small", *db.find("CDMA.S_CBUF_FLUSH_STATUS"));
  {
    PartialReplay t(kDilation);
    t.replay({});  // every block armed, no poll
    CHECK(dla::harness::engines::conv_state(t.dev).flushing);
    CHECK(t.dev.layers().empty());
    CHECK(t.dev.reg_read(flush_status) == 0);
    CHECK(t.dev.armed("CDMA", 0));
    t.dev.let_time_pass();  // a poll's second read
    CHECK_FALSE(dla::harness::engines::conv_state(t.dev).flushing);
    CHECK(t.dev.reg_read(flush_status) == 1);
    CHECK(t.dev.layers().size() == 2);
    CHECK(t.dev.wait_interrupt("SDP_0", 1).raised);
  }
  {
    PartialReplay t(kDilation);
    t.replay({});
    CHECK(t.dev.layers().empty());
    CHECK(t.dev.wait_interrupt("SDP_0", 1).raised);  // waiting lets time pass too
    CHECK(t.dev.reg_read(flush_status) == 1);
    CHECK(t.dev.layers().size() == 2);
  }
  {
    // The trace itself: its poll_reg_equal is a poll, so the program passes by its CRC.
    const Program p = import_nvdla_cfg(kDilation, "nv_small");
    const auto poll = std::find_if(p.steps.begin(), p.steps.end(), [](const ProgramStep& s) {
      return s.op == StepOp::RegRead && s.reg->name == "S_CBUF_FLUSH_STATUS";
    });
    REQUIRE(poll != p.steps.end());
    CHECK(poll->poll_reads > 1);
    CHECK(poll->value == 1);
  }
}
