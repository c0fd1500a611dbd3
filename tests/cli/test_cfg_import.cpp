// dlacosim import / run on NVDLA trace .cfg files: malformed input exits 2 naming the file, the
// line and the reason; a good .cfg imports to a program layer that runs like the .cfg itself.
#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kBad = std::string(DLA_SOURCE_DIR) + "/tests/data/bad_cfg/";

}  // namespace

TEST_CASE("malformed .cfg files exit 2 naming file, line and reason", "[cli][cfg]") {
  struct Case {
    const char* file;
    const char* line;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"01_unknown_register.cfg", "line 3", "unknown register \"NVDLA_SDP.D_OP_ENABLED_0\""},
      {"02_bad_number.cfg", "line 2", "value \"0x1g\" is not a number"},
      {"03_missing_dat.cfg", "line 3", "no_such_input.dat: file not found"},
      {"04_truncated_line.cfg", "line 3", "truncated command: missing ')' and ';'"},
      {"05_unknown_command.cfg", "line 2", "unknown command \"reg_poke\""},
      {"06_check_before_notify.cfg", "line 2", "check_crc waits for event \"sync_id_0\", which no earlier intr_notify"},
      {"07_bad_dat.cfg", "line 1", "bad_payload.dat: line 2: \"0x2zz\" is not a byte value"},
      {"08_value_too_wide.cfg", "line 1", "value 0x100000000 is out of range"},
  };
  for (const auto& c : cases) {
    for (const std::string cmd : {"import", "run"}) {
      const Cmd r = dlacosim(cmd + " " + kBad + c.file + " --config nv_small" + (cmd == "run" ? " --mode golden" : ""));
      INFO(cmd << " " << c.file << "\n" << r.out);
      CHECK(r.exit == 2);
      CHECK_THAT(r.out, Catch::Contains(kBad + c.file + ": " + c.line + ": ") && Catch::Contains(c.reason));
    }
  }
}

TEST_CASE("a .cfg runs on the golden model, and its imported JSON runs the same", "[cli][cfg]") {
  Cmd r = dlacosim("run " + kBad + "good.cfg --config nv_small --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("PASS good") && Catch::Contains("crc32 actual 356154db expected 356154db"));

  r = dlacosim("import " + kBad + "good.cfg --config nv_small", false);
  REQUIRE(r.exit == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("unit") == "program");
  CHECK(j.at("config") == "nv_small");
  CHECK(j.at("steps").at(3) == nlohmann::json{{"op", "reg_write"}, {"reg", "SDP.S_POINTER"}, {"value", "0x0"}});
  const fs::path json = fs::temp_directory_path() / "dla_cfg_import_good.json";
  std::ofstream(json) << r.out;
  r = dlacosim("run " + json.string() + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK(dlacosim("validate " + json.string()).exit == 0);
  fs::remove(json);
}

TEST_CASE("a .cfg runs on the RTL in cross and rtl modes, and one the RTL cannot run is refused", "[cli][cfg]") {
  // good.cfg leaves most SDP registers at their reset values: the RTL must reset them as NVDLA does.
  for (const std::string mode : {"cross", "rtl"}) {
    const Cmd r = dlacosim("run " + kBad + "good.cfg --config nv_small --mode " + mode);
    INFO(r.out);
    CHECK(r.exit == 0);
    CHECK_THAT(r.out, Catch::Contains("PASS good") && Catch::Contains("crc32 actual 356154db expected 356154db"));
  }
  // SDP and CDP in one program run on nvdla_core + nvdla_cdp_top over one memory.
  const Cmd c = dlacosim("run " + kBad + "sdp_with_cdp.cfg --config nv_small --mode cross");
  INFO(c.out);
  CHECK(c.exit == 0);
  CHECK_THAT(c.out, Catch::Contains("PASS sdp_with_cdp") && Catch::Contains("crc32 actual 356154db expected 356154db"));
  // CDP and RUBIK in one program: no RTL top holds both.
  const Cmd r = dlacosim("run " + kBad + "cdp_with_rbk.cfg --config nv_full --mode cross");
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("enables CDP") && Catch::Contains("RBK") && Catch::Contains("--mode golden"));
  const Cmd t = dlacosim("import " + kBad + "good.cfg --config nv_tiny");
  CHECK(t.exit == 2);
  CHECK_THAT(t.out, Catch::Contains("nv_tiny: unknown configuration (known: nv_small, nv_small_256, nv_small_256_full, nv_medium_512, nv_medium_1024_full, nv_large, nv_full)"));
}
