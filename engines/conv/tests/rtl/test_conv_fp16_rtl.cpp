// The convolution pipeline's fp16 on the RTL (nv_full's nvdla_core; docs/FP16.md "Convolution",
// "CMAC", "CACC"): CDMA's NaN flush and counters, the MAC cells' block-floating-point dot
// products, CACC's 48-bit accumulator and its fp32 into SDP.
//   * every bundled fp16 conv and deconv layer in cross mode (three stress legs each, rotating)
//     and the bundled fp16 network, the CDMA counters read back in each program;
//   * 40 generated fp16 conv layers (`random conv --focus fp16`), each under one stress leg;
//   * the device's refusals: fp16 where the build has none, the reserved precision, copies of
//     PROC_PRECISION that differ, and what no fp16 path has (golden::conv_fp16_unsupported).
// Golden is the judge here; NVIDIA's C model judges the same layers (tests/cmod/
// test_fp16_layers_cmod.cpp) and the generator three ways (tests/cmod/test_cmod_campaigns.cpp).
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <string_view>

#include "cross_stress.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/conv/harness/conv_random.hpp"
#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/layer.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;
namespace golden = dla::golden;

TEST_CASE("every bundled fp16 conv layer passes on the RTL against golden under the stress legs", "[rtl][conv][fp16]") {
  cross_stress::run_bundled_layers("fp16", 13, true, "conv_");
}

TEST_CASE("the bundled fp16 deconvolution and network pass on the RTL against golden", "[rtl][conv][fp16]") {
  cross_stress::run_bundled_layers("fp16", 1, true, "deconv_");
  const std::vector<RunOptions> legs = cross_stress::options();
  const RunResult r = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/networks/fp16/lenet_lrn_fp16.json", legs[4]);
  INFO(format_run(r));
  CHECK(r.status == Status::Pass);
}

TEST_CASE("conv RTL equals golden on 40 generated fp16 layers under the stress legs", "[rtl][conv][fp16]") {
  cross_stress::cross_generated<RandomLayer>(
      "conv", "fp16", golden::nv_full(), 40, 29, "conv_rtl_fp16", &generate_conv_layer,
      [](const LayerHeader& h, const JsonNode& root) { return engines::compile_conv_layer(h, root).program; },
      {"CACC", "SDP", "SDP_RDMA", "PDP", "PDP_RDMA"});
}

namespace {

// Replays the register writes of a bundled fp16 conv layer's program (compiled for nv_full) on
// the nvdla_core RTL device of `hw`, each value through `edit`; the guard's refusal, or "" when
// the layer launches.
template <class Edit>
std::string refusal(const std::string& layer, const golden::HwConfig& hw, Edit edit) {
  const LoadedLayer L = load_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/fp16" / layer);
  return cross_stress::replay_refusal(engines::compile_conv_layer(L.header, L.root()).program,
                                      {"CACC", "SDP", "SDP_RDMA"}, hw, edit);
}

}  // namespace

TEST_CASE("conv RTL device: fp16 launches on nv_full, refused where absent or undefined, naming the register",
          "[rtl][conv][fp16]") {
  namespace cd = golden::regs::cdma;
  namespace cs = golden::regs::csc;
  const auto same = [](std::string_view, uint32_t v) { return v; };
  CHECK(refusal("conv_bias_relu.json", golden::nv_full(), same).empty());
  // nv_large has no fp16 (SDP's precision made int8, so that SDP's guard, enabled first, lets it through)
  const auto sdp_int8 = [](std::string_view r, uint32_t v) {
    namespace rr = golden::regs::sdp_rdma::D_FEATURE_MODE_CFG;
    const uint32_t precisions = golden::regs::place(3u, rr::IN_PRECISION{}) | golden::regs::place(3u, rr::PROC_PRECISION{}) |
                                golden::regs::place(3u, rr::OUT_PRECISION{});
    return r == "SDP.D_DATA_FORMAT" ? 0u : r == "SDP_RDMA.D_FEATURE_MODE_CFG" ? v & ~precisions : v;
  };
  const std::string r_large = refusal("conv_bias_relu.json", golden::nv_large(), sdp_int8);
  INFO(r_large);
  CHECK(r_large.find("CDMA.D_OP_ENABLE") != std::string::npos);
  CHECK(r_large.find("FP16, and nv_large has no fp16") != std::string::npos);
  // PROC_PRECISION 3 is reserved
  const auto reserved = [](std::string_view r, uint32_t v) {
    return r == "CSC.D_MISC_CFG" ? v | golden::regs::place(3u, cs::D_MISC_CFG::PROC_PRECISION{}) : v;
  };
  const std::string r_res = refusal("conv_bias_relu.json", golden::nv_full(), reserved);
  CHECK(r_res.find("PROC_PRECISION is 2 in CDMA, 3 in CSC; 3 is reserved") != std::string::npos);
  // FP16 in CDMA's copy only: the RTL reads both (CDMA's flush and counters, CSC's MAC)
  const auto int16_csc = [](std::string_view r, uint32_t v) {
    return r == "CSC.D_MISC_CFG" ? (v & ~golden::regs::place(3u, cs::D_MISC_CFG::PROC_PRECISION{})) |
                                       golden::regs::place(1u, cs::D_MISC_CFG::PROC_PRECISION{})
                                 : v;
  };
  const std::string r_copy = refusal("conv_bias_relu.json", golden::nv_full(), int16_csc);
  CHECK(r_copy.find("FP16 in one copy only") != std::string::npos);
  // fp16 with CDMA's input converter: no fp16 path has it (golden::conv_fp16_unsupported)
  const auto cvt = [](std::string_view r, uint32_t v) {
    return r == "CDMA.D_CVT_CFG" ? v | golden::regs::place(1u, cd::D_CVT_CFG::CVT_EN{}) : v;
  };
  const std::string r_cvt = refusal("conv_bias_relu.json", golden::nv_full(), cvt);
  CHECK(r_cvt.find("CVT_EN") != std::string::npos);
  CHECK(r_cvt.find("fp16 convolution") != std::string::npos);
}
