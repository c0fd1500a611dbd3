// The RTL of the convolution pipeline has no fp16 yet (docs/FP16.md): such an fp16 layer is
// refused before it runs, naming the register field, never computed as an integer one. (SDP, PDP,
// CDP and RUBIK run fp16: engines/{sdp,pdp,cdp,rubik}/tests/rtl.)
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>

#include "harness/layer.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

TEST_CASE("fp16 layers: the RTL refuses them, naming the precision field", "[rtl][fp16]") {
  for (const char* name : {"conv_batch3.json", "conv_bias_relu.json", "conv_pool_avg_fused.json"}) {
    INFO(name);
    RunOptions o;
    o.mode = "cross";
    const RunResult r = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/fp16" / name, o);
    CHECK(r.status == Status::BadInput);
    CHECK_THAT(r.message, Catch::Contains("refuses the layer") && Catch::Contains("FP16", Catch::CaseSensitive::No));
  }
}

TEST_CASE("fp16 networks: the RTL refuses them at their first fp16 layer, naming the precision field", "[rtl][fp16]") {
  RunOptions o;
  o.mode = "cross";
  const RunResult r = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/networks/fp16/lenet_lrn_fp16.json", o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("refuses the layer") && Catch::Contains("FP16", Catch::CaseSensitive::No));
}
