// dlacosim with `sdp` layers: malformed layers exit 2 naming file, JSON pointer and rule; the
// bundled layers validate and run in every mode; `bench sdp` runs, at NVDLA's rate.
#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";
const std::string kSdp = kSrc + "/testvectors/layers/sdp/";

}  // namespace

TEST_CASE("malformed sdp layers exit 2 naming file, JSON pointer and rule", "[cli][sdp]") {
  const std::vector<dla::test::BadFile> cases = {
      {"30_sdp_c_range.json", "/cube/c", "9000 is out of range [1, 8192]"},
      {"30_sdp_int16_small.json", "/input/precision", "nv_small does not support int16 input (int16 and fp16 only on nv_full)"},
      {"30_sdp_int16_out_small.json", "/output/precision", "nv_small does not support int16 output"},
      {"30_sdp_bias_length.json", "/bs/alu/operand/values", "5 values given, the layer needs exactly 19"},
      {"30_sdp_line_stride.json", "/input/line_stride", "the input layout is invalid: line_stride 0x18 < required 0x20"},
      {"30_sdp_eql_in_bs.json", "/bs/alu/algo", "\"eql\" is not one of: max, min, sum"},
      {"30_sdp_cvt_on_reg.json", "/ew/alu/converter", "the input converter applies to memory operands only"},
      {"30_sdp_lut_le_length.json", "/ew/lut/le", "the LE table needs exactly 65 entries, 3 given"},
      {"30_sdp_operands_unused.json", "/bn/operands", "bn takes no operand from memory"},
      {"30_sdp_unknown_field.json", "/ew/alu/operandz", "unknown field \"operandz\""},
      {"30_sdp_operand_range.json", "/bs/mul/operand", "40000 is out of range [-32768, 32767]"},
      {"30_sdp_missing_operand.json", "/bs/alu", "missing required field \"operand\""},
      {"30_sdp_too_many_elements.json", "/cube", "8192x8192x1 = 67108864 elements exceed the limit of 4000000"},
      {"30_sdp_channel_strides.json", "/bs/operands/line_stride", "strides apply to per-element operands only"},
      {"30_sdp_lut_function.json", "/ew/lut/function", "\"relu\" is not one of: sigmoid, tanh, exp, lrn"},
  };
  dla::test::check_bad_files(kBad, cases);
}

TEST_CASE("every bundled sdp layer validates and runs on the golden model", "[cli][sdp]") {
  std::string files;
  std::vector<std::string> each;
  for (const auto& e : fs::directory_iterator(kSdp)) {
    if (e.path().extension() == ".json") {
      files += ' ';
      files += e.path().string();
      each.push_back(e.path().string());
    }
  }
  REQUIRE(each.size() >= 15);
  const Cmd v = dlacosim("validate" + files);
  INFO(v.out);
  CHECK(v.exit == 0);
  for (const auto& f : each) {
    const Cmd r = dlacosim("run --mode golden " + f);
    INFO(r.out);
    CHECK(r.exit == 0);
  }
}

TEST_CASE("an sdp layer runs in cross and rtl modes from the command line", "[cli][sdp]") {
  for (const char* mode : {"cross", "rtl"}) {
    const Cmd r = dlacosim(std::string("run --mode ") + mode + " " + kSdp + "small_ew_sum.json");
    INFO(r.out);
    CHECK(r.exit == 0);
  }
}

TEST_CASE("bench sdp reports both configurations", "[cli][sdp][bench]") {
  const Cmd r = dlacosim("bench sdp --ops 4096");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("nv_small") && Catch::Contains("nv_full") && Catch::Contains("PASS") &&
                        Catch::Contains("elem/cyc"));
}

// Simulated cycles, so exact on any machine: SDP_RDMA keeps enough reads in flight to reach NVDLA's
// rate from memory and from registers on both configurations (it fell to 0.25 of it on nv_small
// when SDP moved into nvdla_core with sdp_core's 8 reads per stream, unnoticed until a bench run).
TEST_CASE("bench sdp --json: every case at 0.9 of NVDLA's rate or more, fp16 too", "[cli][sdp][bench]") {
  const Cmd r = dlacosim("bench sdp --json", false);
  REQUIRE(r.exit == 0);
  const auto cases = nlohmann::json::parse(r.out);
  REQUIRE(cases.size() == 6);  // nv_small, nv_full, nv_full fp16; memory and register operands
  CHECK(cases.at(4).at("case") == "memory operands fp16");
  for (const auto& c : cases) {
    INFO(c.dump());
    REQUIRE(c["nvdla_elements_per_cycle"].is_number());
    const double elements = c["elements"].get<double>();
    const double cycles = c["cycles"].get<double>();
    // fp16 with memory operands moves 12 bytes an element: at NVDLA's rate only since SDP_RDMA
    // reads a whole 64-byte beat a request on nv_full (2026-11-30; 0.66 with 32-byte reads).
    CHECK(elements / cycles >= 0.9 * c["nvdla_elements_per_cycle"].get<double>());
  }
}
