// dlacosim run / import on NVDLA v1 trace-player tests (input.txn): NVIDIA's two nv_full tests
// pass on the golden model through the CLI and from their imported JSON; malformed input exits 2
// naming the file, the line and the reason. Lower-case interrupt names in .cfg files.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kBad = std::string(DLA_SOURCE_DIR) + "/tests/data/bad_txn/";
const std::string kV1 = std::string(DLA_SHARED_DIR) + "/nvdla-traces/nvdlav1/";

}  // namespace

TEST_CASE("malformed .txn files exit 2 naming file, line and reason", "[cli][txn]") {
  struct Case {
    const char* file;
    const char* line;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"01_unknown_command.txn", "line 2", "unknown command \"frob\""},
      {"02_not_word_address.txn", "line 1", "is not of the form 0xffffWWWW"},
      {"03_no_register.txn", "line 1", "no register at word 0x7fff (byte 0x1fffc) in the nv_full register map"},
      {"04_arity.txn", "line 1", "read_reg takes 3 arguments, 2 given"},
      {"05_missing_dat.txn", "line 1", "absent.dat: file not found"},
      {"06_bad_dat.txn", "line 1", "bad_byte.dat: line 1: \"0x2zz\" is not a byte value"},
      {"07_dump_size.txn", "line 2", "holds 4 bytes, not the 32 bytes dumped"},
      {"08_bad_number.txn", "line 1", "value \"zz\" is not a number"},
  };
  for (const auto& c : cases) {
    for (const std::string cmd : {"import", "run"}) {
      const Cmd r = dlacosim(cmd + " " + kBad + c.file + " --config nv_full" + (cmd == "run" ? " --mode golden" : ""));
      INFO(cmd << " " << c.file << "\n" << r.out);
      CHECK(r.exit == 2);
      CHECK_THAT(r.out, Catch::Contains(kBad + c.file + ": " + c.line + ": ") && Catch::Contains(c.reason));
    }
  }
}

TEST_CASE("NVDLA v1's trace-player tests pass on the golden model, also from their imported JSON", "[cli][txn]") {
  const fs::path dir = fs::temp_directory_path() / "dlacosim_txn_test";
  fs::create_directories(dir);
  for (const std::string test : {"sdp_relu_int16", "conv_8x8_fc_int16"}) {
    const std::string txn = kV1 + test + "/input.txn";
    Cmd r = dlacosim("run " + txn + " --config nv_full --mode golden");
    INFO(r.out);
    CHECK(r.exit == 0);
    CHECK_THAT(r.out, Catch::Contains("PASS " + test) && Catch::Contains("0 mismatches"));
    r = dlacosim("import " + txn + " --config nv_full", false);
    REQUIRE(r.exit == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("config") == "nv_full");
    std::size_t waits = 0;
    for (const auto& st : j.at("steps")) waits += st.at("op") == "wait_any" ? 1 : 0;
    CHECK(waits == (test == "sdp_relu_int16" ? 1u : 4u));
    const fs::path json = dir / (test + ".json");
    std::ofstream(json) << r.out;
    r = dlacosim("run " + json.string() + " --mode golden");
    INFO(r.out);
    CHECK(r.exit == 0);
  }
}

TEST_CASE("a changed expected image fails with the first differing byte", "[cli][txn]") {
  // The conv test's expected output with one byte changed: the check must fail (exit 1) at it.
  const fs::path dir = fs::temp_directory_path() / "dlacosim_txn_mutated";
  fs::remove_all(dir);
  fs::copy(kV1 + "conv_8x8_fc_int16", dir);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add);
  const fs::path out = dir / "output_feature_map.dat";
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  std::string text;
  {
    std::ifstream in(out);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The first data line starts " 0x00 0x00 ...": make byte 0 0x01.
  const auto pos = text.find(" 0x00 0x00 0x00 0x00 0x00 0x00 0xff 0x7f");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 5, " 0x01");
  std::ofstream(out, std::ios::trunc) << text;
  const Cmd r = dlacosim("run " + (dir / "input.txn").string() + " --config nv_full --mode golden");
  INFO(r.out);
  CHECK(r.exit == 1);
  CHECK_THAT(r.out, Catch::Contains("1 mismatch,") && Catch::Contains("actual 0 expected 1"));
}

TEST_CASE("lower-case interrupt names in a .cfg wait for the same interrupt", "[cli][cfg]") {
  const fs::path dir = fs::temp_directory_path() / "dlacosim_lower_intr";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string src = std::string(DLA_SOURCE_DIR) + "/tests/data/bad_cfg/";
  fs::copy_file(src + "good.dat", dir / "good.dat");
  std::ifstream in(src + "good.cfg");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string lowered = std::regex_replace(text, std::regex("intr_notify\\(SDP_0"), "intr_notify(sdp_0");
  REQUIRE(lowered != text);
  std::ofstream(dir / "lower.cfg") << lowered;
  const Cmd r = dlacosim("run " + (dir / "lower.cfg").string() + " --config nv_small --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
}
