// SDP's fp16 processing on the RTL (nv_full's nvdla_core, docs/FP16.md "SDP", docs/SDP_RTL.md):
//   * every bundled fp16 sdp layer (testvectors/layers/fp16/sdp_*: BS / BN with register and
//     memory operands, EW MUL / PReLU / ALU / EQL, the float LUT in exponent and linear modes,
//     specials and NAN_TO_ZERO, fp16 and int16 out) in cross mode under the stress legs;
//   * 60 generated ones (`random sdp --focus fp16`), each under one stress leg;
//   * the device's refusals: fp16 where the build has none, the reserved precision, and a
//     combination NVDLA leaves undefined (the golden model's rule), each naming the register.
// Golden is the judge here, the NaN / Inf counters read back in each program; NVIDIA's C model
// judges the same generator three ways (tests/cmod/test_cmod_campaigns.cpp) and the bundled
// layers (tests/cmod/test_fp16_layers_cmod.cpp).
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>
#include <string_view>

#include "cross_stress.hpp"
#include "engines/sdp/harness/sdp.hpp"
#include "engines/sdp/harness/sdp_random.hpp"
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

TEST_CASE("every bundled fp16 sdp layer passes on the RTL against golden under the stress legs", "[rtl][sdp][fp16]") {
  cross_stress::run_bundled_layers("fp16", 10, false, "sdp_");
}

TEST_CASE("SDP RTL equals golden on 60 generated fp16 layers under the stress legs", "[rtl][sdp][fp16]") {
  cross_stress::cross_generated<RandomLayer>(
      "sdp", "fp16", golden::nv_full(), 60, 23, "sdp_rtl_fp16", &generate_sdp_layer,
      [](const LayerHeader& h, const JsonNode& root) { return engines::compile_sdp_layer(h, root); },
      {"SDP", "SDP_RDMA"});
}

namespace {

// Replays the register writes of a bundled fp16 layer's program (compiled for nv_full) on the
// nvdla_core RTL device of `hw`, each value through `edit`; the guard's refusal, or "" when the
// layer launches.
template <class Edit>
std::string refusal(const std::string& layer, const golden::HwConfig& hw, Edit edit) {
  const LoadedLayer L = load_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/fp16" / layer);
  return cross_stress::replay_refusal(engines::compile_sdp_layer(L.header, L.root()), {"SDP", "SDP_RDMA"}, hw, edit);
}

}  // namespace

TEST_CASE("SDP RTL device: fp16 launches on nv_full, refused where undefined or absent, naming the register",
          "[rtl][sdp][fp16]") {
  const auto same = [](std::string_view, uint32_t v) { return v; };
  CHECK(refusal("sdp_ew_eql.json", golden::nv_full(), same).empty());
  CHECK(refusal("sdp_ew_lut_sigmoid.json", golden::nv_full(), same).empty());
  // nv_large has no fp16
  const std::string r_large = refusal("sdp_memory_bs_bn.json", golden::nv_large(), same);
  CHECK(r_large.find("D_OP_ENABLE") != std::string::npos);
  CHECK(r_large.find("FP16: nv_large has no fp16") != std::string::npos);
  // PROC_PRECISION 3 is reserved
  namespace rs = golden::regs::sdp;
  const auto reserved = [](std::string_view r, uint32_t v) {
    return r == "SDP.D_DATA_FORMAT" ? v | golden::regs::place(3u, rs::D_DATA_FORMAT::PROC_PRECISION{}) : v;
  };
  const std::string r_res = refusal("sdp_memory_bs_bn.json", golden::nv_full(), reserved);
  CHECK(r_res.find("SDP D_DATA_FORMAT is reserved (3)") != std::string::npos);
  // EQL with the LUT in use: NVDLA leaves it undefined in fp16 (the golden model's rule)
  const auto lut_on = [](std::string_view r, uint32_t v) {
    return r == "SDP.D_DP_EW_CFG" ? v & ~golden::regs::place(1u, rs::D_DP_EW_CFG::EW_LUT_BYPASS{}) : v;
  };
  const std::string r_eql = refusal("sdp_ew_eql.json", golden::nv_full(), lut_on);
  CHECK(r_eql.find("D_OP_ENABLE") != std::string::npos);
  CHECK(r_eql.find("EQL with the LUT in use is undefined in fp16") != std::string::npos);
}
