// dlacosim with `rubik` layers: malformed layers exit 2 naming file, JSON pointer and rule (planar
// data not 64-byte aligned, a stride the mode gives no meaning, a configuration without RUBIK); a
// bundled layer validates and runs on golden, on the RTL and in cross mode; `bench rubik --json`.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";

}  // namespace

TEST_CASE("malformed rubik layers exit 2 naming file, JSON pointer and rule", "[cli][rubik]") {
  dla::test::check_bad_files(
      kBad, {{"41_rubik_planar_align.json", "/output/line_stride",
              "96 is not a multiple of 64: planar data's address and line stride must be 64-byte aligned"},
             {"41_rubik_stride_mode.json", "/input/surface_stride",
              "\"surface_stride\" has no meaning in merge mode: MERGE reads planes"},
             {"41_rubik_nv_small.json", "/config",
              "nv_small has no RUBIK (the RBK block exists on nv_full only, as in NVDLA)"}});
}

TEST_CASE("a bundled rubik layer validates and runs on golden, on the RTL and in cross mode", "[cli][rubik]") {
  const std::string layer = kSrc + "/testvectors/layers/rubik/contract_int8_s2x2.json";
  Cmd r = dlacosim("validate " + layer);
  INFO(r.out);
  CHECK(r.exit == 0);
  r = dlacosim("run " + layer + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full golden]"));
  r = dlacosim("run " + layer + " --mode cross");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full cross]"));
  r = dlacosim("run " + layer + " --mode rtl");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS contract_int8_s2x2 [rubik nv_full rtl]"));
}

TEST_CASE("bench rubik --json: five cases whose figures agree with the layers and NVDLA's rate", "[cli][bench][rubik]") {
  // --ops 2048: every case writes 2048 atoms and reads as many (CONTRACT 2x2 of four 128 x 4 x 16
  // int8 sub-cubes; SPLIT / MERGE of 256 x 4 cubes of 64 int8 or 32 int16 channels: 2 surfaces x
  // 4 lines x 256 positions one way, 64 or 32 planes x 4 lines x 8 or 16 atoms the other).
  const Cmd c = dlacosim("bench rubik --ops 2048 --json", false);
  INFO(c.out);
  REQUIRE(c.exit == 0);
  const auto a = nlohmann::json::parse(c.out);
  REQUIRE(a.is_array());
  REQUIRE(a.size() == 5);
  for (const auto& o : a) {
    INFO(o.dump());
    CHECK(o.at("unit") == "rubik");
    CHECK(o.at("config") == "nv_full");
    CHECK(o.at("status") == "PASS");
    const auto cycles = o.at("cycles").get<uint64_t>();
    CHECK(o.at("elements").get<uint64_t>() == 2048);
    CHECK(o.at("dma_bytes_read").get<uint64_t>() == 2048 * 32);
    CHECK(o.at("dma_bytes_written").get<uint64_t>() == 2048 * 32);
    // a 64-byte interface over 64 bytes moved per atom
    CHECK(o.at("nvdla_elements_per_cycle").get<double>() == 1.0);
    // one atom each way per cycle once running: at most the programming (about 25 CSB writes) and
    // the first reads' latency above 2048 cycles
    CHECK(cycles >= 2048);
    CHECK(cycles <= 2048 + 300);
  }
}
