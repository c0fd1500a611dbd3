// dlacosim with `deconv` layers: a bundled layer validates and runs on golden, cross and rtl modes
// (the RTL is nvdla_core and RUBIK over one memory), under stalls, rand-reset and memory limits
// too; --config nv_large exits 2 (no RUBIK); a malformed layer exits 2 naming file, JSON pointer
// and rule; `bench deconv --json` (the deconvolution against its parts run alone).
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;

}  // namespace

TEST_CASE("a bundled deconv layer runs on golden, cross and rtl modes", "[cli][deconv]") {
  const std::string layer = kSrc + "/testvectors/layers/deconv/s2x2_k4_crop1_int8.json";
  Cmd r = dlacosim("validate " + layer);
  INFO(r.out);
  CHECK(r.exit == 0);
  r = dlacosim("run " + layer + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS s2x2_k4_crop1_int8 [deconv nv_full golden]"));
  for (const char* mode : {"cross", "rtl"}) {
    r = dlacosim("run " + layer + " --mode " + mode);
    INFO(r.out);
    CHECK(r.exit == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("PASS s2x2_k4_crop1_int8 [deconv nv_full ") + mode + "]"));
  }
  r = dlacosim("run " + layer +
               " --mode cross --seed 5 --stall 0.3 --rand-reset 2 --mem-latency 64:256 --mem-bandwidth 4");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS s2x2_k4_crop1_int8 [deconv nv_full cross] seed=5 stall=0.30 rand-reset=2") &&
                        Catch::Contains("latency 64:256, bandwidth 4 B/cycle"));
}

TEST_CASE("a malformed deconv layer exits 2 naming file, JSON pointer and rule", "[cli][deconv]") {
  const std::string f = "/tmp/dla_deconv_cli_bad.json";
  std::ofstream(f) << R"({"unit":"deconv","config":"nv_full","input":{"w":3,"h":2,"c":3,"data":{"random":{}}},)"
                      R"("weights":{"k":2,"r":3,"s":3,"data":{"random":{}}},"stride":{"x":2,"y":2},"crop":{"left":3}})";
  for (const char* cmd : {"validate ", "run "}) {
    const Cmd r = dlacosim(std::string(cmd) + f);
    INFO(r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains("dla_deconv_cli_bad.json") && Catch::Contains("/crop/left") &&
                          Catch::Contains("crop.left 3 exceeds"));
  }
}

TEST_CASE("an int16 deconvolution with an int8 output is refused by NVDLA's rule", "[cli][deconv]") {
  // A bundled layer until 2026-11-29 (issue 42): its convolutions fly into SDP, which converts
  // int16 -> int8 only from memory.
  const std::string f = std::string(DLA_SOURCE_DIR) + "/tests/data/bad_layers/deconv_int16_to_int8.json";
  for (const char* cmd : {"validate ", "run "}) {
    const Cmd r = dlacosim(std::string(cmd) + f);
    INFO(r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains("deconv_int16_to_int8.json: /output/precision: an int16 deconvolution cannot "
                                      "write int8"));
  }
}

TEST_CASE("bench deconv --json: each deconvolution against its sub-convolutions and CONTRACT run alone",
          "[cli][bench][deconv]") {
  const Cmd c = dlacosim("bench deconv --json", false);
  INFO(c.out);
  REQUIRE(c.exit == 0);
  const auto a = nlohmann::json::parse(c.out);
  REQUIRE(a.is_array());
  struct Layer {
    const nlohmann::json* whole = nullptr;
    std::vector<const nlohmann::json*> convs, contracts;
  };
  std::map<std::string, Layer> layers;
  std::vector<std::string> order;
  for (const auto& o : a) {
    INFO(o.dump());
    CHECK(o.at("unit") == "deconv");
    CHECK(o.at("config") == "nv_full");
    CHECK(o.at("status") == "PASS");
    for (const char* k : {"case", "cycles", "elements", "elements_per_cycle", "nvdla_elements_per_cycle",
                          "utilization", "wall_s", "dma_bytes_read", "dma_bytes_written"}) {
      CHECK(o.contains(k));
    }
    CHECK(o.at("cycles").get<uint64_t>() > 0);
    const std::string name = o.at("layer").get<std::string>();
    if (layers.count(name) == 0) order.push_back(name);
    Layer& l = layers[name];
    const std::string part = o.at("part").get<std::string>();
    if (part == "whole") {
      CHECK(l.whole == nullptr);
      l.whole = &o;
    } else if (part == "conv") {
      l.convs.push_back(&o);
    } else {
      CHECK(part == "contract");
      l.contracts.push_back(&o);
    }
  }
  // 16x16x32 -> 32 k3 s2x2, k3 s3x3, 28x28x64 -> 32 k4 s2x2, 16x8x32 -> 16 S 3 x R 4 s3x2 int16: one
  // sub-kernel convolution per output phase, sx x sy.
  REQUIRE(order.size() == 4);
  const std::size_t phases[] = {4, 9, 4, 6};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Layer& l = layers[order[i]];
    INFO(order[i]);
    REQUIRE(l.whole != nullptr);
    CHECK(l.convs.size() == phases[i]);
    REQUIRE(l.contracts.size() == 1);
    const auto& w = *l.whole;
    uint64_t sum = 0, largest = 0, macs = 0;
    for (const auto* p : l.convs) {
      const auto cyc = p->at("cycles").get<uint64_t>();
      sum += cyc;
      largest = std::max(largest, cyc);
      macs += p->at("elements").get<uint64_t>();
      CHECK(p->at("element") == "MAC");
      CHECK(p->at("utilization").get<double>() > 0);
      CHECK(p->at("utilization").get<double>() <= 1.0);
    }
    const auto& k = *l.contracts[0];
    CHECK(k.at("element") == "atom");
    CHECK(k.at("utilization").is_null());
    CHECK(k.at("nvdla_elements_per_cycle").get<double>() == 1.0);  // half of nv_full's 64-byte interface
    sum += k.at("cycles").get<uint64_t>();
    largest = std::max(largest, k.at("cycles").get<uint64_t>());
    CHECK(w.at("parts_cycles").get<uint64_t>() == sum);
    CHECK(w.at("largest_part_cycles").get<uint64_t>() == largest);
    // the whole runs every part, one after the other: never faster than its largest part
    CHECK(w.at("cycles").get<uint64_t>() >= largest);
    CHECK(w.at("whole_over_parts").get<double>() ==
          Approx(double(w.at("cycles").get<uint64_t>()) / double(sum)).epsilon(1e-12));
    CHECK(w.at("elements").get<uint64_t>() == macs);
    CHECK(w.at("utilization").get<double>() ==
          Approx(double(macs) / (double(w.at("cycles").get<uint64_t>()) * (i == 3 ? 1024.0 : 2048.0))));
    CHECK(w.at("convolutions").get<std::size_t>() == phases[i]);
  }
  // By hand, the first layer: output 33 x 33 (15 x 2 + 3); phase 0 computes ceil(33 / 2) = 17 lines,
  // phase 1 16, each with a 2 x 2 sub-kernel over C 32 and K 32: (17 + 16)^2 x 32 x 32 x 4 MACs; the
  // CONTRACT moves 17 x 17 x 4 sub-cube atoms of one surface.
  const Layer& first = layers[order[0]];
  CHECK(first.whole->at("elements").get<uint64_t>() == uint64_t{33 * 33} * 32 * 32 * 4);
  CHECK(first.contracts[0]->at("elements").get<uint64_t>() == 17 * 17 * 4);
  CHECK(first.whole->at("deconv_macs").get<uint64_t>() == uint64_t{16 * 16} * 32 * 32 * 9);

  const Cmd bad = dlacosim("bench deconv --ops 5");
  CHECK(bad.exit == 2);
  CHECK_THAT(bad.out, Catch::Contains("--ops"));
}
