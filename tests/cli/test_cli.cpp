// The dlacosim command line as a user meets it: exit codes, error messages, waves, reports.
#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kBad = kSrc + "/tests/data/bad_layers/";
const std::string kCmac = kSrc + "/testvectors/layers/cmac/";

}  // namespace

TEST_CASE("malformed layer files exit 2 naming file, JSON pointer and rule", "[cli]") {
  const std::vector<dla::test::BadFile> cases = {
      {"01_syntax.json", "line 4, column 13", "malformed JSON"},  // column 13 ends the unexpected "precision"
      {"02_unknown_unit.json", "/unit", "unknown unit \"cmax\""},
      {"03_unknown_config.json", "/config", "unknown configuration \"nv_medium\""},
      {"04_missing_precision.json", "/", "missing required field \"precision\""},
      {"05_int16_on_small.json", "/precision", "nv_small does not support int16"},
      {"06_kernels_range.json", "/stripes/0/kernels", "9 is out of range [1, 8]"},
      {"07_values_count.json", "/data/values", "7 values given, the layer needs exactly 8"},
      {"08_value_range.json", "/weights/values/3", "128 is out of range [-128, 127]"},
      {"09_missing_file.json", "/data/file", "no_such_data.bin.gz: file not found"},
      {"10_unknown_field.json", "/stripes/0/opz", "unknown field \"opz\""},
      {"11_stall_range.json", "/stall", "1.5 is out of range [0, 0.95]"},
      {"12_random_min_max.json", "/stripes/random/ops", "min 5 is greater than max 2"},
      {"13_not_object.json", "/", "a layer file must hold a JSON object"},
      {"14_unknown_register.json", "/steps/1/reg", "unknown register \"SDP.D_OP_ENABLED\""},
      {"15_data_min_gt_max.json", "/data/random", "min 5 is greater than max -5"},
  };
  dla::test::check_bad_files(kBad, cases);
}

TEST_CASE("missing files and bad options exit 2", "[cli]") {
  Cmd r = dlacosim("run /nonexistent/layer.json");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("/nonexistent/layer.json: file not found"));
  r = dlacosim("run " + kCmac + "small_int8_inline.json --mode fast");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--mode") && Catch::Contains("not one of cross, golden, rtl"));
  r = dlacosim("run " + kCmac + "small_int8_inline.json --stall abc");
  CHECK(r.exit == 2);
  r = dlacosim("frobnicate");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("unknown command \"frobnicate\""));
  r = dlacosim("regress /nonexistent/suite.json");
  CHECK(r.exit == 2);
  r = dlacosim("bench nosuchunit");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("no benchmark for unit \"nosuchunit\""));
}

TEST_CASE("a flip-bit self-test on a layer judged on memory exits 2 instead of passing unflipped", "[cli][mutation]") {
  for (const char* layer : {"/testvectors/layers/sdp/", "/testvectors/layers/bdma/"}) {
    const auto dir = std::filesystem::path(std::string(DLA_SOURCE_DIR) + layer);
    const auto first = *std::filesystem::directory_iterator(dir);
    const Cmd r = dlacosim("run " + first.path().string() + " --mode golden --flip-bit 0:0");
    INFO(r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains("--flip-bit") && Catch::Contains("judged on memory"));
  }
}

TEST_CASE("a flipped output bit is reported as a mismatch with its coordinates", "[cli][mutation]") {
  // Element 37 of the psum cube (n, kernel, h, op) with 8 kernels and 24 ops... flat index
  // ((0*8 + k)*1 + 0)*ops + op: element 37 of small_int8_random is kernel 0, op 37.
  const Cmd r = dlacosim("run " + kCmac + "small_int8_random.json --flip-bit 37:5");
  INFO(r.out);
  CHECK(r.exit == 1);
  CHECK_THAT(r.out, Catch::Contains("MISMATCH"));
  CHECK_THAT(r.out, Catch::Contains("psum: ") && Catch::Contains(" 1 mismatch,"));
  CHECK_THAT(r.out, Catch::Contains("at (n=0, kernel=0, h=0, op=37): actual "));
  // The two values differ by exactly 2^5.
  const std::regex re(R"(op=37\): actual (-?\d+) expected (-?\d+))");
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, re));
  CHECK(std::llabs(std::stoll(m[1]) - std::stoll(m[2])) == 32);
  // Without the flip the same run passes.
  CHECK(dlacosim("run " + kCmac + "small_int8_random.json").exit == 0);
}

TEST_CASE("run with a wave file writes an FST holding only the cycle window", "[cli][wave]") {
  const fs::path fst = fs::temp_directory_path() / "dla_cli_wave.fst";
  const fs::path vcd = fs::temp_directory_path() / "dla_cli_wave.vcd";
  fs::remove(fst);
  const Cmd r = dlacosim("run " + kCmac + "full_int8_random.json --wave " + fst.string() +
                         " --wave-from 10 --wave-to 50");
  INFO(r.out);
  REQUIRE(r.exit == 0);
  REQUIRE(fs::exists(fst));
  const int rc = std::system(("fst2vcd " + fst.string() + " > " + vcd.string() + " 2>/dev/null").c_str());
  REQUIRE(rc == 0);
  std::ifstream in(vcd);
  std::string line;
  uint64_t lo = UINT64_MAX, hi = 0, stamps = 0;
  bool has_clk = false;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      const uint64_t t = std::stoull(line.substr(1));
      lo = std::min(lo, t);
      hi = std::max(hi, t);
      ++stamps;
    }
    has_clk |= line.find("clk_i") != std::string::npos;
  }
  CHECK(has_clk);
  // Two time steps per cycle: cycle 10 starts at t=20, cycle 50 ends at t=101.
  CHECK(lo == 20);
  CHECK(hi == 101);
  CHECK(stamps == 82);
  fs::remove(fst);
  fs::remove(vcd);
}

TEST_CASE("the watchdog ends a run that makes no progress, naming unit and cycle", "[cli]") {
  const Cmd r = dlacosim("run " + kCmac + "small_int8_random.json --stall 0.95 --watchdog 2");
  INFO(r.out);
  CHECK(r.exit == 3);
  CHECK_THAT(r.out, Catch::Contains("TIMEOUT") && Catch::Contains("cmac_array (nv_small): watchdog: no progress for 2 cycles, stopped at cycle"));
}

TEST_CASE("no half-written output: a run stopped by the watchdog leaves a complete wave file, no temporary", "[cli]") {
  const fs::path json = fs::temp_directory_path() / "dla_cli_bad.json.out";
  const fs::path fst = fs::temp_directory_path() / "dla_cli_bad.fst";
  fs::remove(json);
  fs::remove(fst);
  const Cmd r = dlacosim("run " + kCmac + "small_int8_random.json --stall 0.95 --watchdog 2 --wave " + fst.string());
  CHECK(r.exit == 3);
  // The failing run is the one a user wants to look at: its waves are published, closed.
  REQUIRE(fs::exists(fst));
  CHECK(fs::file_size(fst) > 0);
  if (std::system("command -v fst2vcd >/dev/null 2>&1") == 0) {
    CHECK(std::system(("fst2vcd " + fst.string() + " 2>/dev/null | grep -q '^\\$enddefinitions'").c_str()) == 0);
  }
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path())) {
    CHECK(e.path().filename().string().find("dla_cli_bad.fst.tmp") == std::string::npos);
  }
  fs::remove(fst);
  const Cmd ok = dlacosim("run " + kCmac + "small_int8_inline.json --json " + json.string());
  CHECK(ok.exit == 0);
  CHECK(fs::exists(json));
  fs::remove(json);
}

TEST_CASE("regress: table, JUnit, shards, exit code", "[cli][regress]") {
  const fs::path junit = fs::temp_directory_path() / "dla_cli_junit.xml";
  fs::remove(junit);
  Cmd r = dlacosim("regress " + kSrc + "/testvectors/suites/default.json -j 2 --junit " + junit.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains(" passed, 0 failed"));
  REQUIRE(fs::exists(junit));
  std::ifstream in(junit);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(xml, Catch::Contains("<testsuites") && Catch::Contains("failures=\"0\" errors=\"0\""));
  fs::remove(junit);
  // Two shards cover a suite exactly once between them (the smoke suite: sharding does not depend
  // on what the layers are, and the whole default suite ran above).
  const std::string smoke = kSrc + "/testvectors/suites/smoke.json";
  const Cmd all = dlacosim("regress " + smoke + " --no-progress");
  const Cmd s0 = dlacosim("regress " + smoke + " --shard 0/2");
  const Cmd s1 = dlacosim("regress " + smoke + " --shard 1/2");
  const std::regex count(R"((\d+) passed, (\d+) failed)");
  std::smatch m0, m1, mall;
  REQUIRE(std::regex_search(s0.out, m0, count));
  REQUIRE(std::regex_search(s1.out, m1, count));
  REQUIRE(std::regex_search(all.out, mall, count));
  CHECK(std::stoi(mall[1]) == 5);
  CHECK(std::stoi(m0[1]) + std::stoi(m1[1]) == std::stoi(mall[1]));
  CHECK(std::stoi(m0[1]) > 0);
  CHECK(dlacosim("regress " + smoke + " --shard 2/2").exit == 2);
  // Not on a terminal: one progress line per run on stderr, numbered 1..N.
  const std::regex line(R"(\[(\d+)/(\d+)\] PASS )");
  int lines = 0;
  for (auto it = std::sregex_iterator(s0.out.begin(), s0.out.end(), line); it != std::sregex_iterator(); ++it) {
    ++lines;
    CHECK((*it)[2] == m0[1].str());
  }
  CHECK(lines == std::stoi(m0[1]));
  CHECK_THAT(dlacosim("regress " + smoke + " --shard 0/2 --no-progress").out,
             !Catch::Contains("] PASS "));
}

TEST_CASE("regress shows a live status line on a terminal", "[cli][regress]") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) FAIL("script (util-linux) is needed to give regress a terminal");
  const fs::path out = fs::temp_directory_path() / "dla_cli_progress_tty.txt";
  const std::string cmd = "script -qec '" + std::string(DLA_BINARY_DIR) + "/harness/dlacosim regress " + kSrc +
                          "/testvectors/suites/smoke.json -j 2 >/dev/null' " + out.string() + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(out);
  const std::string tty((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(tty);
  // The line is rewritten in place (carriage return, erase line) with counts, elapsed time and ETA.
  CHECK_THAT(tty, Catch::Contains("\r\x1b[K[1/") && Catch::Contains(" pass ") && Catch::Contains(" fail 0") &&
                      Catch::Contains("ETA "));
  CHECK_THAT(tty, !Catch::Contains("] PASS "));
  fs::remove(out);
}

TEST_CASE("a long run shows its cycles and rate on a terminal, nothing when piped", "[cli][run]") {
  const std::string trace = std::string(DLA_SHARED_DIR) +
                            "/nvdla-traces/nv_small/dc_24x44x14_5x3x14x41_int8_0/dc_24x44x14_5x3x14x41_int8_0.cfg";
  const std::string run = std::string(DLA_BINARY_DIR) + "/harness/dlacosim run " + trace + " --config nv_small --mode rtl";
  const fs::path out = fs::temp_directory_path() / "dla_cli_run_tty.txt";
  REQUIRE(std::system(("script -qec '" + run + " >/dev/null' " + out.string() + " >/dev/null 2>&1").c_str()) == 0);
  std::ifstream in(out);
  const std::string tty((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(tty);
  // About 211000 cycles: the line is drawn at 65536, 131072 and 196608 cycles, then erased.
  CHECK_THAT(tty, Catch::Contains("\r\x1b[Knvdla_core (nv_small): cycle 65536, ") &&
                      Catch::Contains("cycle 196608, ") && Catch::Contains(" cycles/s"));
  fs::remove(out);
  const Cmd piped = dlacosim("run " + trace + " --config nv_small --mode rtl");
  CHECK(piped.exit == 0);
  CHECK_THAT(piped.out, !Catch::Contains("cycles/s"));
}

TEST_CASE("validate accepts every bundled layer and suite", "[cli]") {
  std::string files;
  for (const auto& dir : {"/testvectors/layers/cmac", "/testvectors/suites"}) {
    for (const auto& e : fs::directory_iterator(kSrc + dir)) {
      if (e.path().extension() == ".json") files += " " + e.path().string();
    }
  }
  const Cmd r = dlacosim("validate" + files);
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, !Catch::Contains("FAIL"));
}

TEST_CASE("help lists commands and exit codes", "[cli]") {
  const Cmd r = dlacosim("--help");
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("exit codes: 0 pass, 1 mismatch, 2 bad input, 3 timeout or internal error"));
  CHECK_THAT(dlacosim("help run").out, Catch::Contains("--wave-from"));
}
