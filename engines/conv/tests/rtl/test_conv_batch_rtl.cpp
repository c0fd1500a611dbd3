// Multi-batch convolution on the RTL (nv_full, docs/CDMA_MODES.md §1, docs/CONV_RTL.md "Batches"):
// every bundled layer of testvectors/layers/batch/ in cross mode -- the RTL's output equal to the
// golden model's byte for byte, the golden model itself judged by the int64 per-image reference of
// engines/conv/tests/harness/test_conv_modes_layers.cpp -- under three of the ten stress legs each, rotating
// (every leg for every layer in the "[.long]" case); and the point of batch mode: a fully
// connected layer fetches its weights once for all N images.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "engines/conv/harness/conv.hpp"

namespace {

using namespace dla::harness;  // NOLINT(google-build-using-namespace)
namespace golden = dla::golden;

// An int8 fully connected layer 1x1xC -> K with `n` batches, compiled by the conv compiler and run
// in cross mode; the bytes the RTL's DMA port read.
struct FcRun {
  RunResult r;
  uint64_t bytes_read = 0;
};
FcRun run_fc(int n, int c, int k) {
  const std::string text = fmt::format(
      R"({{"unit":"conv","config":"nv_full","seed":3,"batch":{},"input":{{"w":1,"h":1,"c":{},"data":{{"random":{{}}}}}},
          "weights":{{"k":{},"r":1,"s":1,"data":{{"random":{{"min":-50,"max":50}}}}}},"clip":10}})",
      n, c, k);
  const auto doc = parse_json_text("fc_batch.json", text);
  LayerHeader h;
  h.file = doc->file;
  h.unit = "conv";
  h.name = fmt::format("fc batch {}", n);
  h.config = &golden::nv_full();
  const engines::CompiledConv cc = engines::compile_conv_layer(h, JsonNode::root(doc));
  RunOptions o;
  o.mode = "cross";
  FcRun out;
  out.r = run_program_in_mode(cc.program, golden::nv_full(), o);
  if (out.r.dma) out.bytes_read = out.r.dma->bytes_read;
  return out;
}

}  // namespace

TEST_CASE("every bundled batch layer runs on the RTL equal to golden under stress", "[rtl][conv][batch]") {
  cross_stress::run_bundled_layers("batch", 9, true);
}

TEST_CASE("every bundled batch layer runs on the RTL equal to golden under every stress leg",
          "[rtl][conv][batch][.long]") {
  cross_stress::run_bundled_layers("batch", 9);
}

TEST_CASE("a batch-32 fully connected layer fetches the weight bytes of one image", "[rtl][conv][batch]") {
  // int8 on nv_full, 1x1x512 -> 64: the weight stream is K x C x R x S = 64 x 512 bytes (a multiple
  // of 128: D_WEIGHT_BYTES is exactly that); an image is 512 / 32 = 16 memory atoms of 32 bytes.
  // Nothing else is read (SDP flies without operands), so weight bytes = DMA bytes read - input.
  constexpr int kC = 512, kK = 64;
  constexpr uint64_t kWeightBytes = uint64_t{kK} * kC;
  constexpr uint64_t kImageBytes = (kC / 32) * 32;
  const FcRun one = run_fc(1, kC, kK);
  const FcRun many = run_fc(32, kC, kK);
  INFO(format_run(one.r) << "\n" << format_run(many.r));
  REQUIRE(one.r.status == Status::Pass);
  REQUIRE(many.r.status == Status::Pass);
  REQUIRE(one.r.dma.has_value());
  REQUIRE(many.r.dma.has_value());
  CHECK(one.bytes_read == kWeightBytes + kImageBytes);
  CHECK(many.bytes_read == kWeightBytes + 32 * kImageBytes);
  // the weights are fetched once per layer, not per image: per image 32x fewer weight bytes
  CHECK(many.bytes_read - 32 * kImageBytes == one.bytes_read - kImageBytes);
}
