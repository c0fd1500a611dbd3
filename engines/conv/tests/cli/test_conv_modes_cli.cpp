// dlacosim with batched and compressed `conv` layers (testvectors/layers/batch/, sparse/,
// docs/CDMA_MODES.md): they pass with --mode golden; a batch layer passes in cross mode too (the
// RTL's batch mode), and a compressed one too (the RTL's decompression); a malformed one exits 2
// from `validate` naming file, JSON pointer and rule.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.hpp"

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;

}  // namespace

TEST_CASE("batch and sparse layers pass with --mode golden and a batch and a sparse layer pass in cross mode",
          "[cli][conv][batch][compress]") {
  int n = 0;
  for (const char* dir : {"/testvectors/layers/batch/", "/testvectors/layers/sparse/"}) {
    for (const auto& e : std::filesystem::directory_iterator(kSrc + dir)) {
      if (e.path().extension() != ".json") continue;
      ++n;
      const Cmd r = dlacosim("run " + e.path().string() + " --mode golden");
      INFO(r.out);
      CHECK(r.exit == 0);
      CHECK_THAT(r.out, Catch::StartsWith("PASS "));
    }
  }
  CHECK(n >= 16);
  const Cmd b = dlacosim("run " + kSrc + "/testvectors/layers/batch/fc_b2_nv_full.json");
  INFO(b.out);
  CHECK(b.exit == 0);
  CHECK_THAT(b.out, Catch::StartsWith("PASS "));
  const Cmd s = dlacosim("run " + kSrc + "/testvectors/layers/sparse/sparse50_3x3_nv_full.json");
  INFO(s.out);
  CHECK(s.exit == 0);
  CHECK_THAT(s.out, Catch::StartsWith("PASS "));
  // A bad batch stride: exit 2 from validate, naming the file, the pointer and the rule.
  const std::string bad =
      (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-dla_bad_batch_stride.json")).string();
  std::ofstream(bad) << R"({"unit":"conv","config":"nv_full","batch":{"n":2,"input_stride":40},
    "input":{"w":1,"h":1,"c":64,"data":{"random":{}}},"weights":{"k":8,"r":1,"s":1,"data":{"random":{}}}})";
  const Cmd v = dlacosim("validate " + bad);
  INFO(v.out);
  CHECK(v.exit == 2);
  CHECK_THAT(v.out, Catch::Contains("-dla_bad_batch_stride.json") && Catch::Contains("/batch/input_stride") &&
                        Catch::Contains("multiple of the 32-byte memory atom"));
  std::filesystem::remove(bad);
}

TEST_CASE("a batched conv program whose CACC and SDP decide the 64-byte pairs differently is refused by both devices",
          "[cli][conv][batch]") {
  // Compiled from a one-layer batched network, then CACC.D_DATAOUT_ADDR moved 32 bytes off SDP's
  // D_DST_BASE_ADDR (docs/CDMA_MODES.md "Pairs"): NVIDIA's C model would write the atoms out of place.
  const std::string f = kSrc + "/tests/data/conv_batch_pairs_cacc_program.json";
  const Cmd rtl = dlacosim("run " + f + " --mode rtl");
  INFO(rtl.out);
  CHECK(rtl.exit == 2);
  CHECK_THAT(rtl.out, Catch::Contains("CDMA.D_OP_ENABLE: group 0: this RTL refuses the layer: a batched output's "
                                      "64-byte pairs are decided twice") &&
                          Catch::Contains("at surface 0 line 0, CACC's D_DATAOUT_ADDR 268436000"));
  const Cmd golden = dlacosim("run " + f + " --mode golden");
  INFO(golden.out);
  CHECK(golden.exit != 0);
  CHECK_THAT(golden.out, Catch::Contains("CACC group 0 did not run: CACC / SDP: a batched output's 64-byte pairs"));
  CHECK_THAT(golden.out, Catch::Contains("SDP's address 268435968"));
}
