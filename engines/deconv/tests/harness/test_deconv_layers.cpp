// `deconv` layers (testvectors/layers/deconv/) judged on the golden device by an independent int64
// transposed-convolution reference in scatter-add form (harness/deconv_reference.hpp: every input
// pixel times every kernel tap added into the output at (h * sy + r - crop.top, w * sx + s -
// crop.left), then the conv reference's CACC clip and SDP conversion). Also: a 1-D case worked by
// hand, the layers cover what they are meant to, the compiled program is sx * sy stride-1
// convolutions then one RUBIK CONTRACT, and malformed layers are refused naming the JSON pointer
// and the rule.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "engines/deconv/harness/deconv_reference.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/regdb.hpp"
#include "layer_helpers.hpp"
#include "engines/deconv/harness/deconv.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/deconv";

std::string refusal(const std::string& body) { return testing::refusal(body, "dla_deconv_bad_layer.json"); }

// A valid layer (3 x 2 x 3 input, 2 kernels 3 x 3, stride 2) with `extra` keys added.
std::string layer_with(const std::string& extra, const std::string& config = "nv_full") {
  return R"({"unit":"deconv","config":")" + config +
         R"(","input":{"w":3,"h":2,"c":3,"data":{"random":{}}},"weights":{"k":2,"r":3,"s":3,"data":{"random":{}}},)"
         R"("stride":{"x":2,"y":2})" +
         extra + "}";
}

fs::path write_temp(const std::string& name, const std::string& body) {
  const fs::path f = fs::temp_directory_path() / name;
  std::ofstream(f) << body;
  return f;
}

}  // namespace

TEST_CASE("every deconv layer equals the scatter-add reference on the golden model", "[deconv][deconv_layers]") {
  const auto files = testing::layer_files(kLayers);
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.stem().string()) {
      const LoadedLayer l = load_layer(f);
      const engines::CompiledDeconv c = engines::compile_deconv_layer(l.header, l.root());
      RunResult r;
      const auto dev = testing::run_golden(c.program, l, r);
      INFO(r.message);
      REQUIRE(r.status == Status::Pass);
      const deconv_ref::Layer L = deconv_ref::read_layer(l.root(), l.header.seed);
      const conv_ref::Expected e = deconv_ref::reference(L);
      REQUIRE(deconv_ref::not_applicable(L, e) == "");
      // The compiler's output layout is the one the reference reads (docs/DECONV.md).
      CHECK(c.out_w == L.out_w());
      CHECK(c.out_h == L.out_h());
      CHECK(c.out_line_stride == L.line_stride());
      CHECK(c.out_surface_stride == L.surface_stride());
      CHECK(deconv_ref::compare(L, dev->memory()) == "");
      // The comparison sees one flipped bit of the last output element.
      const int bpe = L.conv.out16 ? 2 : 1;
      const int ca = 32 / bpe;
      const int k = L.conv.K - 1;
      const uint64_t last = c.out_base + static_cast<uint64_t>(k / ca) * c.out_surface_stride +
                            static_cast<uint64_t>(L.out_h() - 1) * c.out_line_stride +
                            static_cast<uint64_t>(L.out_w() - 1) * 32 + static_cast<uint64_t>(k % ca * bpe);
      dev->memory().write(last, static_cast<uint8_t>(dev->memory().read(last) ^ 0x01));
      CHECK_THAT(deconv_ref::compare(L, dev->memory()), Catch::Contains("1 of"));
    }
  }
}

TEST_CASE("a 1-D deconvolution worked by hand", "[deconv][deconv_layers]") {
  // Input [1, 2, 3], kernel [1, 2, 4], stride 2: out[2w + s] += x[w] * k[s] gives
  // [1, 2, 4 + 2, 4, 8 + 3, 6, 12]; with crop left 1, right 1: [2, 6, 4, 11, 6].
  for (const bool crop : {false, true}) {
    const std::string body =
        std::string(R"({"unit":"deconv","config":"nv_full","input":{"w":3,"h":1,"c":1,"data":{"values":[1,2,3]}},)") +
        R"("weights":{"k":1,"r":1,"s":3,"data":{"values":[1,2,4]}},"stride":{"x":2,"y":1})" +
        (crop ? R"(,"crop":{"left":1,"right":1})" : "") + "}";
    const fs::path f = write_temp("dla_deconv_hand.json", body);
    const LoadedLayer l = load_layer(f);
    const engines::CompiledDeconv c = engines::compile_deconv_layer(l.header, l.root());
    CHECK(c.convolutions == 2);
    RunResult r;
    const auto dev = testing::run_golden(c.program, l, r);
    REQUIRE(r.status == Status::Pass);
    const std::vector<int64_t> want =
        crop ? std::vector<int64_t>{2, 6, 4, 11, 6} : std::vector<int64_t>{1, 2, 6, 4, 11, 6, 12};
    REQUIRE(c.out_w == static_cast<int>(want.size()));
    for (std::size_t x = 0; x < want.size(); ++x) {
      INFO("x " << x);
      CHECK(static_cast<int8_t>(dev->memory().read(c.out_base + 32 * x)) == want[x]);
    }
  }
}

TEST_CASE("the deconv layers cover the intended cases", "[deconv][deconv_layers]") {
  std::set<int> sx, sy;
  std::set<std::string> seen;
  for (const auto& f : testing::layer_files(kLayers)) {
    const LoadedLayer l = load_layer(f);
    const deconv_ref::Layer L = deconv_ref::read_layer(l.root(), l.header.seed);
    const conv_ref::Layer& c = L.conv;
    sx.insert(c.sx);
    sy.insert(c.sy);
    for (const auto& [taps, stride] : {std::pair{c.S, c.sx}, std::pair{c.R, c.sy}}) {
      seen.insert(taps < stride ? "kernel < stride" : taps == stride ? "kernel = stride" : "kernel > stride");
    }
    if (c.sx != c.sy) seen.insert("sx != sy");
    seen.insert(c.int16 ? "int16" : "int8");
    // ATOMIC_C 64 / ATOMIC_K 32 (int8 nv_full), 32 / 16 int16: not multiples, beyond one atomic.
    const int ac = c.int16 ? 32 : 64, ak = c.int16 ? 16 : 32;
    if (c.C > ac && c.C % ac != 0 && c.K > ak && c.K % ak != 0) seen.insert(c.int16 ? "C, K odd int16" : "C, K odd int8");
    if (L.crop_l + L.crop_r + L.crop_t + L.crop_b > 0) seen.insert("crop");
    if (L.pad_x + L.pad_y > 0) seen.insert("output padding");
    if (c.post_ops()) seen.insert("post-ops");
    if (c.out16 != c.int16) seen.insert("output precision");
  }
  CHECK(sx == std::set<int>{1, 2, 3, 4});
  CHECK(sy == std::set<int>{1, 2, 3, 4});
  for (const char* want : {"kernel < stride", "kernel = stride", "kernel > stride", "sx != sy", "int8", "int16",
                           "C, K odd int8", "C, K odd int16", "crop", "output padding", "post-ops",
                           "output precision"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("a deconv layer compiles to sx * sy stride-1 convolutions and one RUBIK CONTRACT", "[deconv][deconv_layers]") {
  const LoadedLayer l = load_layer(kLayers / "s3x2_k2_int16.json");
  const engines::CompiledDeconv c = engines::compile_deconv_layer(l.header, l.root());
  CHECK(c.convolutions == 6);
  int cdma_enables = 0, rbk_enables = 0;
  uint32_t deconv_stride = 0, misc = 0, stride_cdma = 1;
  bool rubik_last = false;
  for (const ProgramStep& s : c.program.steps) {
    if (s.op != StepOp::RegWrite) continue;
    const std::string name = s.reg->block + "." + s.reg->name;
    if (name == "CDMA.D_OP_ENABLE") {
      ++cdma_enables;
      CHECK(rbk_enables == 0);  // every convolution before the contract
    }
    if (name == "CDMA.D_CONV_STRIDE") stride_cdma |= s.value;
    if (name == "RBK.D_OP_ENABLE") ++rbk_enables;
    if (name == "RBK.D_DECONV_STRIDE") deconv_stride = s.value;
    if (name == "RBK.D_MISC_CFG") misc = s.value;
    rubik_last = s.reg->block == "RBK";
  }
  CHECK(cdma_enables == 6);
  CHECK(rbk_enables == 1);
  CHECK(rubik_last);
  CHECK(stride_cdma == 1);  // CONV_X/Y_STRIDE 0: stride 1
  CHECK(deconv_stride == ((1u << 16) | 2u));  // DECONV_X_STRIDE 2 (bits 4:0), DECONV_Y_STRIDE 1 (bits 20:16)
  CHECK((misc & 0x3u) == 0);                   // RUBIK_MODE CONTRACT
  CHECK(((misc >> 8) & 0x3u) == 1);            // IN_PRECISION INT16
}

TEST_CASE("a 1-D deconvolution in fp16 worked by hand", "[deconv][deconv_layers][fp16]") {
  // The case above in fp16: every product and sum is a small integer, exact in fp16 (CMAC's
  // alignment drops no bits of them), so out = [1, 2, 6, 4, 11, 6, 12] as fp16 patterns
  // (1 = 0x3c00, 2 = 0x4000, 4 = 0x4400, 6 = 0x4600, 11 = 0x4980, 12 = 0x4a00), moved by RUBIK's
  // CONTRACT in fp16. NVIDIA's C model judges the bundled fp16 deconv layer and random ones.
  const std::string body =
      R"({"unit":"deconv","config":"nv_full","precision":"fp16","input":{"w":3,"h":1,"c":1,"data":{"values":[1,2,3]}},)"
      R"("weights":{"k":1,"r":1,"s":3,"data":{"values":[1,2,4]}},"stride":{"x":2,"y":1}})";
  const fs::path f = write_temp("dla_deconv_hand_fp16.json", body);
  const LoadedLayer l = load_layer(f);
  const engines::CompiledDeconv c = engines::compile_deconv_layer(l.header, l.root());
  CHECK(c.convolutions == 2);
  CHECK(c.out_bpe == 2);
  RunResult r;
  const auto dev = testing::run_golden(c.program, l, r);
  REQUIRE(r.status == Status::Pass);
  const std::vector<uint16_t> want = {0x3c00, 0x4000, 0x4600, 0x4400, 0x4980, 0x4600, 0x4a00};
  REQUIRE(c.out_w == static_cast<int>(want.size()));
  for (std::size_t x = 0; x < want.size(); ++x) {
    INFO("x " << x);
    const uint64_t a = c.out_base + 32 * x;
    CHECK((dev->memory().read(a) | (dev->memory().read(a + 1) << 8)) == want[x]);
  }
  // fp16 has no CACC clip: the phase convolutions refuse it, naming the phase and the field
  std::string clip = body;
  clip.insert(clip.size() - 1, R"(,"clip":3)");
  CHECK_THAT(refusal(clip), Catch::Contains("clip"));
}

TEST_CASE("malformed deconv layers are refused naming the pointer and the rule", "[deconv][deconv_layers]") {
  CHECK_THAT(refusal(layer_with("", "nv_small")), Catch::Contains("/config | nv_small has no RUBIK"));
  CHECK_THAT(refusal(layer_with(R"(,"stride":{"x":9})")), Catch::Contains("/stride/x"));
  CHECK_THAT(refusal(layer_with(R"(,"crop":{"left":3})")), Catch::Contains("/crop/left | crop.left 3 exceeds"));
  CHECK_THAT(refusal(layer_with(R"(,"crop":{"left":2,"right":5})")), Catch::Contains("/crop"));
  CHECK_THAT(refusal(layer_with(R"(,"output_padding":{"x":2})")), Catch::Contains("/output_padding/x"));
  // S 2 = sx: the padded column 6 has no tap (PAD_RIGHT 1 would reach the 1-tap kernel's extent).
  std::string s2 = layer_with(R"(,"output_padding":{"x":1})");
  s2.replace(s2.find(R"("s":3)"), 5, R"("s":2)");
  CHECK_THAT(refusal(s2), Catch::Contains("/output_padding/x | the output's last columns lie beyond every kernel tap"));
  // S 3 > sx: the padded column 7 is computed (its only tap w[3] is past the kernel: 0 + post-ops).
  CHECK(refusal(layer_with(R"(,"output_padding":{"x":1})")) == "accepted");
  CHECK_THAT(refusal(layer_with(R"(,"output":{"line_stride":4096})")), Catch::Contains("/output"));
  CHECK_THAT(refusal(layer_with(R"(,"padding":{"left":1})")), Catch::Contains("padding"));
  CHECK_THAT(refusal(layer_with(R"(,"ew":{"alu":{"operand":{"random":{}}}})")),
             Catch::Contains("/ew | ew's memory operands are per element"));
  CHECK_THAT(refusal(layer_with(R"(,"bs":{"alu":{"operand":{"random":{}}},"operands":{"per":"element"}})")),
             Catch::Contains("/bs/operands/per"));
  CHECK_THAT(refusal(layer_with(R"(,"ew":{"alu":{"algo":"eql","operand":3}})")), Catch::Contains("/ew/alu/algo"));
  CHECK_THAT(refusal(layer_with(R"(,"weights":{"k":2,"r":33,"s":3,"data":{"random":{}}})")),
             Catch::Contains("/weights/r"));
  CHECK(refusal(layer_with(R"(,"bs":{"alu":{"operand":{"random":{}}}})")) == "accepted");
}
