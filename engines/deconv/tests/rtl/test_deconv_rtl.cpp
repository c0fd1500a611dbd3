// Deconvolution on the RTL (harness/tops/core_pairs_rtl.cpp: nvdla_core and nvdla_rubik_top over
// one memory; docs/DECONV.md §4): every bundled deconv layer in cross mode (RTL against the
// golden model) under stress legs, each also judged on the RTL's memory by the independent
// scatter-add reference (harness/deconv_reference.hpp); the device selection; the combined GLB;
// the stop when both ports together exceed --mem-bandwidth.
// The default case gives each layer two of the ten stress legs (all ten covered); the whole
// matrix (26 layers x 10 legs) is the hidden "[.long]" case.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "engines/deconv/harness/deconv_reference.hpp"
#include "harness/errors.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/sdp/harness/sdp.hpp"

using namespace dla::harness;
namespace golden = dla::golden;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kDeconvBlocks{"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "RBK"};

void cross_with_reference(const RandomLayer& L, const RunOptions& o) {
  cross_stress::cross_with_reference(
      L, o, [](const LayerHeader& h, const JsonNode& root) { return engines::compile_deconv_layer(h, root).program; },
      [](const golden::HwConfig& cfg, const RunOptions& opt) { return make_core_rubik_rtl_device(kDeconvBlocks, cfg, opt); },
      [](const RandomLayer& layer, const JsonNode& root, const Memory& mem) {
        return deconv_ref::compare(deconv_ref::read_layer(root, layer.seed), mem);
      });
}

uint32_t addr(const std::string& reg) {
  const RegDb& db = RegDb::nvdla();
  return *db.address("nv_full", *db.find(reg));
}

}  // namespace

TEST_CASE("every bundled deconv layer passes on the RTL against golden and the scatter-add reference",
          "[rtl][deconv]") {
  const std::vector<RunOptions> legs = cross_stress::options();  // 9 stall / rand-reset legs, then the slow one
  const auto layers = cross_stress::bundled_as_random<RandomLayer>("deconv", golden::nv_full(), 26);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    cross_with_reference(layers[i], legs[i % (legs.size() - 1)]);
    // The slow-memory leg on every third layer, another stall leg on the others.
    cross_with_reference(layers[i], i % 3 == 0 ? legs.back() : legs[(i + 4) % (legs.size() - 1)]);
  }
}

TEST_CASE("every bundled deconv layer passes on the RTL under all ten stress legs", "[rtl][deconv][.long]") {
  for (const RandomLayer& L : cross_stress::bundled_as_random<RandomLayer>("deconv", golden::nv_full(), 26)) {
    for (const RunOptions& o : cross_stress::options()) cross_with_reference(L, o);
  }
}

TEST_CASE("a program with RBK and nvdla_core blocks gets the two-top device, other selections are unchanged",
          "[rtl][deconv]") {
  RunOptions o = cross_stress::options().front();
  std::string why;
  const std::unique_ptr<Device> d = make_rtl_device(kDeconvBlocks, golden::nv_full(), o, why);
  REQUIRE(d != nullptr);
  CHECK(why.empty());
  CHECK(d->kind() == "rtl");
  // RBK with a block neither of its tops has: no device, the reason names the blocks and the tops.
  CHECK(make_rtl_device({"SDP", "RBK", "CDP"}, golden::nv_full(), o, why) == nullptr);
  CHECK_THAT(why, Catch::Contains("enables SDP, RBK and CDP, and no RTL top of this build has them all") &&
                      Catch::Contains("nvdla_core+nvdla_rubik_top ("));
  // RUBIK exists on nv_full only.
  CHECK_THROWS_AS(make_rtl_device({"SDP", "RBK"}, golden::nv_large(), o, why), InputError);
}

// The GLB bits of both tops as one GLB: hand-written values. Software sets SDP_0 (nvdla_core's)
// and RUBIK_1 (RUBIK's); the status reads both once, the line is high, a mask on both leaves it
// low, a W1C of one bit clears it everywhere.
TEST_CASE("the two-top device shows one GLB: S_INTR_SET, S_INTR_STATUS, S_INTR_MASK, the line", "[rtl][deconv]") {
  for (const double stall : {0.0, 0.3}) {
    RunOptions o = cross_stress::options().front();
    o.stall = stall;
    const std::unique_ptr<Device> d = make_core_rubik_rtl_device(kDeconvBlocks, golden::nv_full(), o);
    const uint32_t sdp0 = 1u << interrupt_bit("SDP_0"), rbk1 = 1u << interrupt_bit("RUBIK_1");
    REQUIRE(d->reg_read(addr("GLB.S_INTR_STATUS")) == 0);
    d->reg_write(addr("GLB.S_INTR_MASK"), sdp0 | rbk1);
    CHECK(d->reg_read(addr("GLB.S_INTR_MASK")) == (sdp0 | rbk1));
    d->reg_write(addr("GLB.S_INTR_SET"), sdp0 | rbk1);
    CHECK(d->reg_read(addr("GLB.S_INTR_STATUS")) == (sdp0 | rbk1));
    CHECK(d->interrupt_pending("SDP_0"));
    CHECK(d->interrupt_pending("RUBIK_1"));
    CHECK_FALSE(d->interrupt_pending("RUBIK_0"));
    CHECK_FALSE(d->wait_any_interrupt(50).raised);  // both masked
    d->reg_write(addr("GLB.S_INTR_MASK"), sdp0);
    CHECK(d->wait_any_interrupt(50).raised);  // RUBIK_1 unmasked
    CHECK(d->wait_interrupt("RUBIK_1", 50).raised);
    d->reg_write(addr("GLB.S_INTR_STATUS"), rbk1);  // W1C
    CHECK(d->reg_read(addr("GLB.S_INTR_STATUS")) == sdp0);
    CHECK_FALSE(d->wait_any_interrupt(50).raised);  // SDP_0 still masked
    d->reg_write(addr("GLB.S_INTR_MASK"), 0);
    CHECK(d->wait_any_interrupt(50).raised);
    d->reg_write(addr("GLB.S_INTR_STATUS"), sdp0);
    CHECK(d->reg_read(addr("GLB.S_INTR_STATUS")) == 0);
    CHECK_FALSE(d->wait_any_interrupt(50).raised);
    CHECK_FALSE(d->wait_interrupt("BDMA_0", 50).raised);  // a unit neither top has
  }
}

// The per-port bandwidth: an SDP layer (nv_full, 300 int16 channels with operands) and a RUBIK
// layer run one after the other pass at 1 byte per cycle; started together, both ports move data
// and the device stops the run naming --mem-bandwidth instead of exceeding the limit.
TEST_CASE("the two-top device stops a program whose two units together exceed --mem-bandwidth", "[rtl][deconv]") {
  const fs::path dir = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers";
  const LoadedLayer sdp = load_layer(dir / "sdp" / "full_int16_c300_operands.json");
  const LoadedLayer rbk = load_layer(dir / "rubik" / "split_int16_w70_c3.json");
  const Program sdp_prog = engines::compile_sdp_layer(sdp.header, sdp.root());
  const Program rbk_prog = engines::compile_rubik_layer(rbk.header, rbk.root());
  // The layers' memory, registers and waits; their checks need golden and are left out.
  const auto part = [](const Program& p, bool waits) {
    std::vector<ProgramStep> out;
    for (const ProgramStep& s : p.steps) {
      const bool wait = s.op == StepOp::WaitIntr || s.op == StepOp::WaitAny;
      if (s.op == StepOp::Check || s.op == StepOp::RegRead || wait != waits) continue;
      out.push_back(s);
    }
    return out;
  };
  for (const bool together : {false, true}) {
    Program prog = sdp_prog;
    prog.steps.clear();
    const auto add = [&prog](const std::vector<ProgramStep>& s) { prog.steps.insert(prog.steps.end(), s.begin(), s.end()); };
    add(part(sdp_prog, false));
    if (!together) add(part(sdp_prog, true));
    add(part(rbk_prog, false));
    if (together) add(part(sdp_prog, true));
    add(part(rbk_prog, true));
    RunOptions o = cross_stress::options().front();
    o.stall = 0.0;
    o.mem.bandwidth = 1;
    const std::unique_ptr<Device> d = make_core_rubik_rtl_device({"SDP", "SDP_RDMA", "RBK"}, golden::nv_full(), o);
    ProgramRunOptions po;
    po.mode = "rtl";
    const RunResult r = run_program(prog, nullptr, d.get(), po);
    INFO((together ? "together\n" : "one after the other\n") << format_run(r));
    if (together) {
      CHECK(r.status == Status::BadInput);
      CHECK_THAT(r.message, Catch::Contains("--mem-bandwidth") && Catch::Contains("moved data together"));
    } else {
      CHECK(r.status == Status::Pass);
      const DmaTraffic t = *d->dma_traffic();
      CHECK(static_cast<double>(t.bytes_read + t.bytes_written) <= static_cast<double>(d->cycles()) + 32.0);
    }
  }
}
