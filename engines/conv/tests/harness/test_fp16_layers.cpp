// fp16 layer JSON (docs/FP16.md "Layer JSON"): values are exact fp16 or bit patterns, random draws
// are bit patterns in range, and what NVDLA or this model does not have in fp16 is refused with
// the JSON pointer and the rule.
#include <catch2/catch.hpp>

#include <string>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "layer_helpers.hpp"

using namespace dla::harness;
using dla::harness::testing::refusal;

namespace {

const std::string kConv = R"({"unit":"conv","config":"nv_full","precision":"fp16",
  "input":{"w":4,"h":3,"c":5,"data":{"random":{}}},"weights":{"k":3,"r":2,"s":2,"data":{"random":{}}}})";

// kConv with `key` set to `value` at the top level.
std::string conv_with(const std::string& key, const std::string& value) {
  return kConv.substr(0, kConv.size() - 1) + ",\"" + key + "\":" + value + "}";
}

std::vector<int64_t> values_of(const std::string& json, std::size_t count) {
  const auto doc = parse_json_text("values.json", json);
  return resolve_fp16_values(JsonNode::root(doc), count, 7);
}

}  // namespace

TEST_CASE("fp16 values: exact numbers, bit patterns and names, anything inexact refused", "[fp16][layer]") {
  const std::vector<int64_t> v =
      values_of(R"({"values":[1, -2.5, 65504, 0.000000059604644775390625, "0x7e01", "-inf", "nan", -0.0]})", 8);
  const std::vector<int64_t> want = {0x3c00, static_cast<int16_t>(0xc100), 0x7bff, 0x0001, 0x7e01,
                                     static_cast<int16_t>(0xfc00), 0x7e00, static_cast<int16_t>(0x8000)};
  CHECK(v == want);
  CHECK_THROWS_WITH(values_of(R"({"values":[0.1]})", 1), Catch::Contains("/values/0") && Catch::Contains("not an fp16"));
  CHECK_THROWS_WITH(values_of(R"({"values":[65520]})", 1), Catch::Contains("not an fp16"));
  CHECK_THROWS_WITH(values_of(R"({"values":["0x7e0"]})", 1), Catch::Contains("0xHHHH"));
  CHECK_THROWS_WITH(values_of(R"({"random":{"min":"inf"}})", 1), Catch::Contains("finite"));
  CHECK_THROWS_WITH(values_of(R"({"random":{"min":1,"max":-1}})", 1), Catch::Contains("greater"));
}

TEST_CASE("fp16 random values: bit patterns inside min..max, every binade, specials on request", "[fp16][layer]") {
  const std::vector<int64_t> v = values_of(R"({"random":{"min":-2,"max":2}})", 20000);
  int denormals = 0, below_one = 0;
  for (const int64_t x : v) {
    const auto h = static_cast<uint16_t>(x);
    const int e = (h >> 10) & 0x1f;
    REQUIRE(e != 0x1f);  // finite
    // |x| <= 2: exponent field <= 16, and exactly 2.0 at 16.
    REQUIRE((e < 16 || (e == 16 && (h & 0x3ff) == 0)));
    denormals += e == 0 ? 1 : 0;
    below_one += e < 15 ? 1 : 0;
  }
  // Uniform over the 2 * 0x4000 patterns: denormals are 1/16 of them, values below 1 15/16.
  CHECK(denormals > 20000 / 16 * 8 / 10);
  CHECK(below_one > 20000 * 15 / 16 * 9 / 10);
  const std::vector<int64_t> s = values_of(R"({"random":{"min":-1,"max":1,"specials":0.5}})", 4000);
  int nans = 0, infs = 0;
  for (const int64_t x : s) {
    const auto h = static_cast<uint16_t>(x);
    nans += (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0 ? 1 : 0;
    infs += (h & 0x7fff) == 0x7c00 ? 1 : 0;
  }
  CHECK(nans > 4000 / 2 / 3 * 8 / 10);
  CHECK(infs > 0);
}

TEST_CASE("fp16 conv layers: NVDLA's rules and what is not modelled yet, by pointer", "[fp16][layer]") {
  CHECK(refusal(kConv, "fp16_ok.json") == "accepted");
  std::string on_small = kConv;
  on_small.replace(on_small.find("nv_full"), 7, "nv_small");
  CHECK_THAT(refusal(on_small, "fp16_small.json"), Catch::Contains("/precision") && Catch::Contains("nv_full"));
  CHECK_THAT(refusal(conv_with("clip", "3"), "fp16_clip.json"), Catch::Contains("/clip") && Catch::Contains("no clip"));
  // Winograd in fp16: 8x8 output of a 3x3 kernel; no weight scheme, no PRA truncation, and a
  // finite kernel whose transform U leaves fp16's range is refused with its place.
  const std::string wino = R"({"unit":"conv","config":"nv_full","precision":"fp16","mode":"winograd",
  "input":{"w":10,"h":10,"c":5,"data":{"random":{}}},"weights":{"k":3,"r":3,"s":3,"data":{"random":{}}}})";
  const auto wino_with = [&](const std::string& key, const std::string& value) {
    return wino.substr(0, wino.size() - 1) + ",\"" + key + "\":" + value + "}";
  };
  CHECK(refusal(wino, "fp16_wino.json") == "accepted");
  CHECK_THAT(refusal(wino_with("pra_truncate", "1"), "fp16_wino_pra.json"),
             Catch::Contains("/pra_truncate") && Catch::Contains("fp16"));
  CHECK_THAT(refusal(wino_with("wino_scheme", "\"nvdla\""), "fp16_wino_scheme.json"),
             Catch::Contains("/wino_scheme") && Catch::Contains("U = G g G^T"));
  std::string big = wino;
  big.replace(big.rfind(R"("data":{"random":{}})"), 20, R"("data":{"random":{"min":60000,"max":65504}})");
  CHECK_THAT(refusal(big, "fp16_wino_big.json"),
             Catch::Contains("/weights/data") && Catch::Contains("beyond fp16's range"));
  CHECK(refusal(conv_with("bs", R"({"alu":{"operand":1.5},"mul":{"operand":{"random":{}},"prelu":true},"relu":true})"),
                "fp16_bs.json") == "accepted");
  CHECK_THAT(refusal(conv_with("bs", R"({"alu":{"operand":0.1}})"), "fp16_bs_inexact.json"),
             Catch::Contains("/bs/alu/operand") && Catch::Contains("not an fp16"));
  CHECK_THAT(refusal(conv_with("bn", R"({"alu":{"operand":1,"shift":2}})"), "fp16_bn_shift.json"),
             Catch::Contains("/bn/alu/shift") && Catch::Contains("no shifter"));
  // EW in fp16: fp32 register operands, no operand converters (docs/FP16.md "SDP EW and LUT").
  CHECK(refusal(conv_with("ew", R"({"alu":{"operand":1.5},"lut":{"function":"tanh"}})"), "fp16_ew.json") == "accepted");
  CHECK_THAT(refusal(conv_with("ew", R"({"alu":{"operand":0.1}})"), "fp16_ew_inexact.json"),
             Catch::Contains("/ew/alu/operand") && Catch::Contains("not an fp32"));
  CHECK_THAT(refusal(conv_with("ew", R"({"mul":{"operand":{"random":{}},"converter":{"scale":2}}})"), "fp16_ew_cvt.json"),
             Catch::Contains("/ew/mul/converter") && Catch::Contains("not read in fp16"));
  CHECK_THAT(refusal(conv_with("output", R"({"precision":"int8"})"), "fp16_int8.json"),
             Catch::Contains("/output/precision") && Catch::Contains("int8"));
  CHECK_THAT(refusal(conv_with("output", R"({"precision":"fp16","converter":{"shift":1}})"), "fp16_cvt.json"),
             Catch::Contains("/output/converter"));
  CHECK_THAT(refusal(conv_with("padding", R"({"left":1,"value":0.3})"), "fp16_pad.json"),
             Catch::Contains("/padding/value") && Catch::Contains("not an fp16"));
  CHECK(refusal(conv_with("padding", R"({"left":1,"value":"nan"})"), "fp16_pad_nan.json") == "accepted");
  // An integer layer cannot write fp16.
  std::string int8 = kConv;
  int8.replace(int8.find("\"fp16\""), 6, "\"int8\"");
  CHECK_THAT(refusal(int8.substr(0, int8.size() - 1) + R"(,"output":{"precision":"fp16"}})", "int8_fp16.json"),
             Catch::Contains("/output/precision"));
}

TEST_CASE("fp16 sdp layers: fp16 in, fp16 or int16 out, BS, BN and EW with the float LUT", "[fp16][layer]") {
  const std::string base = R"({"unit":"sdp","config":"nv_full","cube":{"w":2,"h":2,"c":3},
    "input":{"precision":"fp16","data":{"random":{}}},"output":{"precision":)";
  CHECK(refusal(base + R"("fp16"}})", "sdp_f16.json") == "accepted");
  CHECK(refusal(base + R"("int16"}})", "sdp_f16_i16.json") == "accepted");
  CHECK_THAT(refusal(base + R"("int8"}})", "sdp_f16_i8.json"), Catch::Contains("/output/precision"));
  CHECK(refusal(base + R"("fp16"},"bs":{"alu":{"operand":"0x3c00"}}})", "sdp_f16_bs.json") == "accepted");
  CHECK_THAT(refusal(base + R"("fp16"},"bn":{"mul":{"operand":{"random":{}}},"operands":{"precision":"int16"}}})",
                     "sdp_f16_bn_int16.json"),
             Catch::Contains("/bn/operands/precision"));
  CHECK(refusal(base + R"("fp16"},"ew":{"alu":{"algo":"eql","operand":"0x3f800000"}}})", "sdp_f16_ew.json") == "accepted");
  CHECK_THAT(refusal(base + R"("fp16"},"ew":{"mul":{"operand":2},"truncate":3}})", "sdp_f16_ew_trunc.json"),
             Catch::Contains("/ew/truncate") && Catch::Contains("not read in fp16"));
  CHECK_THAT(refusal(base + R"("fp16"},"ew":{"lut":{"function":"sigmoid","registers":{"le_uflow_shift":1}}}})",
                     "sdp_f16_lut_shift.json"),
             Catch::Contains("/ew/lut/registers/le_uflow_shift") && Catch::Contains("not read in fp16"));
  CHECK_THAT(refusal(base + R"("fp16"},"ew":{"lut":{"le":[1],"lo":[1]}}})", "sdp_f16_lut_short.json"),
             Catch::Contains("/ew/lut/le") && Catch::Contains("65 fp16 entries"));
  CHECK_THAT(refusal(base + R"("fp16"},"ew":{"alu":{"algo":"eql","operand":1},"lut":{"function":"exp"}}})",
                     "sdp_f16_eql_lut.json"),
             Catch::Contains("EQL with the LUT"));
}
