// dlacosim with NVDLA loadables (docs/LOADABLES.md): `run FILE_fbuf --dimg` writes NVIDIA's output
// image (its md5 NVIDIA's), `import` prints the firmware's register program, which `run` replays;
// bad loadables and misused options exit 2 naming the file, the place and the rule.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "common/md5.hpp"
#include "common/nvdla_sw.hpp"
#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using dla::test::Cmd;
using dla::test::dlacosim;

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("dlacosim-loadable-cli-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace

TEST_CASE("run a loadable in cross mode and write its output image", "[cli][loadable]") {
  if (!dla::test::kmd_present()) return;
  const fs::path dimg = temp_path("pdp_small.dimg");
  const fs::path json = temp_path("pdp_small.json");
  const Cmd r = dlacosim("run " + dla::test::kmd_loadable("PDP_L0_0_small").string() + " --dimg " + dimg.string() +
                         " --json " + json.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS PDP_L0_0_small_fbuf [loadable nv_small cross]"));
  CHECK_THAT(r.out, Catch::Contains("task 0 op 0 group 0: pdp max 1x1 stride 1x1, 8x8x32 -> 8x8x32"));
  CHECK(dla::test::md5_hex(dla::test::file_bytes(dimg)) == dla::test::kmd_md5("PDP_L0_0_small"));
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  REQUIRE(j["results"].size() == 1);
  CHECK(j["results"][0]["unit"] == "loadable");
  CHECK(j["results"][0]["status"] == "PASS");
  // The HTML report draws the op graph: the PDP op, checked at its interrupt (pass), and the output
  // tensor it wrote (8 x 8 x 32), joined by an edge.
  const fs::path html = temp_path("pdp_small.html");
  const Cmd rep = dlacosim("report " + json.string() + " --html " + html.string());
  INFO(rep.out);
  REQUIRE(rep.exit == 0);
  std::ifstream hin(html);
  const std::string page((std::istreambuf_iterator<char>(hin)), std::istreambuf_iterator<char>());
  CHECK_THAT(page, Catch::Contains("<h2 id=\"loadables\">Loadables</h2>"));
  CHECK_THAT(page, Catch::Contains("<g class=\"net-layer pass\" data-layer=\"task 0 op 0\">"));
  CHECK_THAT(page, Catch::Contains(">8 x 8 x 32</text>"));
  CHECK_THAT(page, Catch::Contains("class=\"net-edge\""));
  for (const auto& p : {dimg, json, html}) fs::remove(p);
}

TEST_CASE("import prints the firmware's register program, which run replays", "[cli][loadable]") {
  if (!dla::test::kmd_present()) return;
  const Cmd c = dlacosim("import " + dla::test::kmd_loadable("CONV_D_L0_0_large").string(), false);
  REQUIRE(c.exit == 0);
  const auto prog = nlohmann::json::parse(c.out);
  CHECK(prog["unit"] == "program");
  CHECK(prog["config"] == "nv_large");
  int enables = 0, waits = 0, checks = 0;
  for (const auto& s : prog["steps"]) {
    if (s["op"] == "reg_write" && s["reg"].get<std::string>().ends_with("D_OP_ENABLE")) ++enables;
    if (s["op"] == "wait_intr") ++waits;
    if (s["op"] == "check") ++checks;
  }
  CHECK(enables == 6);  // SDP, then CACC, CMAC_A, CMAC_B, CSC, CDMA
  CHECK(waits == 4);    // SDP_0, CDMA_DAT_0, CDMA_WT_0, CACC_0
  CHECK(checks == 1);
  const fs::path f = temp_path("conv_large_program.json");
  std::ofstream(f) << c.out;
  const Cmd r = dlacosim("run " + f.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS CONV_D_L0_0_large_fbuf [program nv_large cross]"));
  fs::remove(f);
}

TEST_CASE("bad loadables and misused options exit 2 naming the file, the place and the rule", "[cli][loadable]") {
  if (!dla::test::kmd_present()) return;
  const auto bytes = dla::test::file_bytes(dla::test::kmd_loadable("SDP_X1_L0_0_small"));
  const fs::path cut = temp_path("cut_fbuf");
  std::ofstream(cut, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 1000);
  Cmd r = dlacosim("run " + cut.string());
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains(cut.string() + ": the FlatBuffers verifier rejects it"));
  r = dlacosim("import " + cut.string());
  CHECK(r.exit == 2);
  fs::remove(cut);

  r = dlacosim("run " + dla::test::kmd_loadable("NN_L0_0").string() + " --config nv_small");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("op 0 (conv): in_precision is fp16, which nv_small does not have"));
  r = dlacosim("run " + dla::test::kmd_loadable("NN_L0_0").string() + " --mode golden --normalize 0");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--normalize: 0: expected a finite non-zero number"));
  r = dlacosim("run " + dla::test::kmd_loadable("PDP_L0_0").string() + " --mode golden --mean x");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--mean: x: expected a finite number"));
  r = dlacosim("run " + std::string(DLA_SOURCE_DIR) + "/testvectors/layers/sdp/small_relu.json --mean 1");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--mean: applies to loadables"));
  r = dlacosim("run " + dla::test::kmd_loadable("BDMA_L0_0").string() + " --config nv_small");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("BDMA is not supported for this configuration (nv_small has no BDMA block)"));
  r = dlacosim("run " + dla::test::kmd_loadable("PDP_L0_0").string() + " --input data=/nonexistent.pgm --mode golden");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--input: data: the loadable has no input tensor of that name (inputs: none)"));
  r = dlacosim("run " + dla::test::kmd_loadable("PDP_L0_0").string() + " --input nofile --mode golden");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("expected TENSOR=FILE"));
  r = dlacosim("run " + std::string(DLA_SOURCE_DIR) + "/testvectors/layers/sdp/small_relu.json --dimg /tmp/x.dimg");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--dimg: applies to loadables"));
}
