// Issue 41, "what a new user hits in the first hour": false watchdog stops, silent configuration
// defaults, unvalidated suites, lost work on Ctrl-C (tests/checks: cli:interrupts), numbers that
// do not reconcile, wave options that fail late, wording. Each test case fails on the binary before
// the fix and passes after.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
const std::string kShared = DLA_SHARED_DIR;
const std::string kWatch = kSrc + "/tests/data/watchdog/";

// A fresh folder of this test process.
fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("dla_first_hour_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& s) { std::ofstream(p) << s; }

}  // namespace

// ---------------------------------------------------------------- watchdog

TEST_CASE("watchdog: the 24x27 nv_full convolution of issue 41 passes with the default options", "[cli][watchdog]") {
  const Cmd r = dlacosim("run " + kWatch + "full_conv_24x27.json");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::StartsWith("PASS"));
  // And under slow memory: latency 64..256 and 2 bytes per cycle.
  const Cmd slow = dlacosim("run " + kWatch + "full_conv_24x27.json --mem-latency 64:256 --mem-bandwidth 2 --stall 0.3");
  INFO(slow.out);
  CHECK(slow.exit == 0);
}

TEST_CASE("watchdog: a sweep of random large kernels, strides and slow memory on every configuration never stops",
          "[cli][watchdog]") {
  // Random legal layers where a stripe computes longest without a port moving: kernels of 12..32
  // rows and columns, many channel blocks (nv_small: 16 positions x R x S x C/8 cycles), strides
  // 1..4, slow and narrow memory. Seeded: the same layers every time.
  const fs::path dir = scratch("sweep");
  uint64_t x = 41;
  const auto next = [&](int lo, int hi) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int>((x >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  const char* configs[] = {"nv_small", "nv_large", "nv_full"};
  int n = 0;
  for (const char* cfg : configs) {
    // Two legal layers per configuration; a draw that does not fit CBUF (`validate` refuses it) is
    // drawn again.
    int legal = 0;
    for (int i = 0, tries = 0; i < 2 && tries < 40; ++tries) {
      const int r = next(12, 24), s = next(12, 28);
      const int sx = next(1, 4), sy = next(1, 3);
      const int w = s + sx * next(0, 6), h = r + sy * next(0, 3);
      const int c = std::string(cfg) == "nv_small" ? next(24, 48) : next(40, 96);
      nlohmann::json L = {{"unit", "conv"},
                          {"config", cfg},
                          {"seed", n + 1},
                          {"precision", "int8"},
                          {"input", {{"w", w}, {"h", h}, {"c", c}, {"data", {{"random", {{"min", -8}, {"max", 8}}}}}}},
                          {"weights", {{"k", next(1, 12)}, {"r", r}, {"s", s}, {"data", {{"random", {{"min", -8}, {"max", 8}}}}}}},
                          {"stride", {{"x", sx}, {"y", sy}}},
                          {"clip", 8}};
      const fs::path f = dir / ("sweep_" + std::to_string(n++) + ".json");
      write_text(f, L.dump());
      if (dlacosim("validate " + f.string()).exit != 0) continue;
      ++legal;
      const std::string mem = i == 0 ? " --mem-latency 64:256 --mem-bandwidth 4" : " --mem-latency 128:256 --mem-bandwidth 1 --stall 0.5";
      const Cmd run = dlacosim("run " + f.string() + mem);
      INFO(f.string() << mem << "\n" << L.dump() << "\n" << run.out);
      CHECK(run.exit == 0);
      CHECK(run.out.find("watchdog") == std::string::npos);
      ++i;
    }
    CHECK(legal == 2);
  }
}

TEST_CASE("watchdog: a real hang stops as TIMEOUT with the real cycle, the last progress and how to raise the limit",
          "[cli][watchdog]") {
  const fs::path dir = scratch("hang");
  const fs::path json = dir / "r.json", html = dir / "r.html";
  const Cmd r = dlacosim("run " + kWatch + "cacc_alone_hangs.json --mode rtl --json " + json.string());
  INFO(r.out);
  CHECK(r.exit == 3);
  CHECK_THAT(r.out, Catch::StartsWith("TIMEOUT"));
  CHECK(r.out.find("internal error") == std::string::npos);
  CHECK(r.out.find("cycles=0 ") == std::string::npos);
  CHECK_THAT(r.out, Catch::Contains("nvdla_core (nv_small): watchdog: no progress for ") &&
                        Catch::Contains("last progress: CSB write at cycle") &&
                        Catch::Contains("rerun with a larger --watchdog"));
  const nlohmann::json j = read_json(json);
  REQUIRE(j.at("results").size() == 1);
  CHECK(j["results"][0]["status"] == "TIMEOUT");
  CHECK(j["results"][0]["cycles"].get<uint64_t>() > 20000);
  // The HTML report counts it as a TIMEOUT, not an ERROR.
  REQUIRE(dlacosim("report " + json.string() + " --html " + html.string()).exit == 0);
  const std::string h = read_text(html);
  CHECK_THAT(h, Catch::Contains("<tr><th><span class=\"TIMEOUT\">TIMEOUT</span></th><td class=\"num\">1</td></tr>"));
  CHECK(h.find("<span class=\"ERROR\">") == std::string::npos);
  // A datapath unit driven directly reports its TIMEOUT with the cycles it ran, too.
  const Cmd c = dlacosim("run " + kSrc + "/testvectors/layers/cmac/small_int8_random.json --stall 0.95 --watchdog 2");
  CHECK(c.exit == 3);
  CHECK_THAT(c.out, Catch::StartsWith("TIMEOUT"));
  CHECK(c.out.find("cycles=0 ") == std::string::npos);
}

// ---------------------------------------------------------------- trace configuration

TEST_CASE("traces: the configuration comes from the trace's build folder, never a silent nv_small", "[cli][traces]") {
  const std::string large = kShared + "/nvdla-traces/nv_large/sdp_13x4x29_ew_lut_int8/sdp_13x4x29_ew_lut_int8.cfg";
  Cmd r = dlacosim("run " + large + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("[program nv_large golden]") &&
                        Catch::Contains("configuration nv_large: its folder names NVDLA build nv_large"));
  // NVDLA v1's trace-player tests are nv_full.
  r = dlacosim("run " + kShared + "/nvdla-traces/nvdlav1/conv_8x8_fc_int16/input.txn --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("[program nv_full golden]"));
  // import too.
  r = dlacosim("import " + large, false);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("\"config\": \"nv_large\""));
  // A build this project does not model is refused, naming the ones it does.
  // (every build of NVDLA's spec/defs is modeled now: a folder named like one that is not, a
  // made-up nv_medium_2048, stands for a build NVIDIA may add.)
  {
    const fs::path fake = scratch("unmodeled") / "nv_medium_2048" / "cdp_8x8x64_lrn9_int8_0";
    fs::create_directories(fake);
    const fs::path src = fs::path(kShared) / "nvdla-traces/nv_medium_512/cdp_8x8x64_lrn9_int8_0";
    for (const auto& e : fs::directory_iterator(src)) fs::copy_file(e.path(), fake / e.path().filename());
    r = dlacosim("run " + (fake / "cdp_8x8x64_lrn9_int8_0.cfg").string() + " --mode golden");
  }
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("NVDLA build nv_medium_2048") &&
                        Catch::Contains("nv_small, nv_small_256, nv_small_256_full, nv_medium_512, "
                                        "nv_medium_1024_full, nv_large, nv_full"));
  // Outside a build folder, with a register map several configurations have: exit 2 listing them.
  const fs::path dir = scratch("trace");
  const fs::path src = fs::path(large).parent_path();
  for (const auto& e : fs::directory_iterator(src)) fs::copy_file(e.path(), dir / e.path().filename());
  const std::string copy = (dir / "sdp_13x4x29_ew_lut_int8.cfg").string();
  r = dlacosim("run " + copy + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("cannot tell which configuration") && Catch::Contains("nv_small, nv_large") &&
                        Catch::Contains("give --config"));
  CHECK(dlacosim("run " + copy + " --mode golden --config nv_large").exit == 0);
  // --config against the folder's build: it runs as asked, with a warning.
  r = dlacosim("run " + large + " --mode golden --config nv_full");
  CHECK_THAT(r.out, Catch::Contains("warning") && Catch::Contains("NVDLA build nv_large"));
}

// ---------------------------------------------------------------- suites validated up front

TEST_CASE("suites: validate checks every layer of a suite, regress refuses a bad one before running anything",
          "[cli][regress]") {
  const fs::path dir = scratch("suite");
  write_text(dir / "broken.json", "{ \"unit\": \"cmac\", \"config\": \"nv_small\", ");
  fs::copy_file(kSrc + "/testvectors/layers/cmac/small_int8_inline.json", dir / "good.json");
  write_text(dir / "only_bad.json", R"({ "name": "only_bad", "layers": ["broken.json"] })");
  write_text(dir / "good_then_bad.json", R"({ "name": "gtb", "layers": ["good.json", "broken.json"] })");
  Cmd r = dlacosim("validate " + (dir / "only_bad.json").string());
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("broken.json") && Catch::Contains("malformed JSON"));
  r = dlacosim("validate " + (dir / "good_then_bad.json").string());
  CHECK(r.exit == 2);
  r = dlacosim("regress " + (dir / "good_then_bad.json").string() + " -j 1");
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("broken.json") && Catch::Contains("nothing ran"));
  CHECK(r.out.find("PASS good") == std::string::npos);  // the good layer did not run first
  r = dlacosim("validate " + kSrc + "/testvectors/suites/smoke.json");
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("every layer valid"));
}

// ---------------------------------------------------------------- run --wave

TEST_CASE("run --wave: a missing folder and a .vcd name exit 2 before simulating, the summary says where waves went",
          "[cli][wave]") {
  const std::string layer = kSrc + "/testvectors/layers/cmac/small_int8_random.json";
  Cmd r = dlacosim("run " + layer + " --wave /nonexistent-dir/w.fst");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("--wave") && Catch::Contains("does not exist"));
  CHECK(r.out.find("PASS") == std::string::npos);  // refused before the run
  const fs::path dir = scratch("wave");
  r = dlacosim("run " + layer + " --wave " + (dir / "w.vcd").string());
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("FST"));
  CHECK_FALSE(fs::exists(dir / "w.vcd"));
  const fs::path fst = dir / "w.fst";
  r = dlacosim("run " + layer + " --wave " + fst.string() + " --wave-from 5 --wave-to 9");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("waves: " + fs::absolute(fst).string() + " (cycles 5..9)"));
  // A window after the run's end: no empty file, and the summary says why.
  fs::remove(fst);
  r = dlacosim("run " + layer + " --wave " + fst.string() + " --wave-from 100000000");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("waves: none written: the window starts at cycle 100000000, after the run's last cycle"));
  CHECK_FALSE(fs::exists(fst));
}

// ---------------------------------------------------------------- random

TEST_CASE("random: without --out the reproduce line names no file that was never written", "[cli][random]") {
  // The line-buffer driver has no memory model: a 1-cycle watchdog stops its layers.
  const Cmd r = dlacosim("random linebuf --count 2 --seed 3 -j 1 --watchdog 1");
  INFO(r.out);
  CHECK(r.exit == 3);
  CHECK_THAT(r.out, Catch::Contains("reproduce: the layer file was not written (no --out)"));
  CHECK_FALSE(std::regex_search(r.out, std::regex("dlacosim run random_linebuf")));
}

TEST_CASE("random: --mem-latency and --mem-bandwidth set every layer's memory and its reproduce command", "[cli][random]") {
  const fs::path dir = scratch("random_mem");
  const Cmd r = dlacosim("random conv --count 2 --seed 5 --config nv_small -j 1 --mem-latency 64:256 --mem-bandwidth 4 "
                         "--out " + dir.string() + " --all");
  INFO(r.out);
  CHECK(r.exit == 0);
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename() == "summary.json") continue;
    ++files;
    CHECK_THAT(read_json(e.path())["description"].get<std::string>(),
               Catch::Contains("--mem-latency 64:256 --mem-bandwidth 4"));
  }
  CHECK(files == 2);
  CHECK(dlacosim("random conv --count 1 --mem-latency 9:3").exit == 2);
  // A unit without a memory model refuses the options rather than ignoring them.
  for (const char* opt : {"--mem-latency 64:256", "--mem-bandwidth 4"}) {
    const Cmd lb = dlacosim(std::string("random linebuf --count 1 ") + opt);
    INFO(lb.out);
    CHECK(lb.exit == 2);
    CHECK_THAT(lb.out, Catch::Contains("no DMA memory model"));
  }
  CHECK(dlacosim("random linebuf --count 1").exit == 0);
}

// ---------------------------------------------------------------- help and version

TEST_CASE("help and --version: every --focus feature, validate and compile explained, version and commit",
          "[cli][help]") {
  Cmd r = dlacosim("help random");
  CHECK_THAT(r.out, Catch::Contains("wfold") && Catch::Contains("image") && Catch::Contains("sparse") &&
                        Catch::Contains("batch") && Catch::Contains("splith") &&
                        Catch::Contains("winograd"));
  CHECK_THAT(r.out, Catch::Contains("--mem-latency"));
  r = dlacosim("help validate");
  CHECK_THAT(r.out, Catch::Contains("every layer file it names") && Catch::Contains("--config"));
  r = dlacosim("help compile");
  CHECK_THAT(r.out, Catch::Contains("register program"));
  r = dlacosim("--version");
  CHECK(r.exit == 0);
  CHECK(std::regex_search(r.out, std::regex(R"(^dlacosim \d+\.\d+\.\d+ \(commit ([0-9a-f]{40}|unknown)(\+local-changes)?\))")));
}

TEST_CASE("results files carry the tool version and commit, the command, the elapsed time", "[cli][regress]") {
  const fs::path dir = scratch("results");
  const fs::path json = dir / "r.json", junit = dir / "r.xml", html = dir / "r.html";
  const Cmd r = dlacosim("regress " + kSrc + "/testvectors/suites/smoke.json -j 2 --no-progress --json " + json.string() +
                         " --junit " + junit.string() + " --html " + html.string());
  INFO(r.out);
  REQUIRE(r.exit == 0);
  const std::string version = dlacosim("--version", false).out;
  const std::string commit = version.substr(version.find("commit ") + 7, version.find(')') - version.find("commit ") - 7);
  const nlohmann::json j = read_json(json);
  CHECK(j["tool"]["name"] == "dlacosim");
  CHECK(j["tool"]["commit"] == commit);
  CHECK_THAT(j["command"].get<std::string>(), Catch::Contains("regress") && Catch::Contains("smoke.json"));
  CHECK(j["interrupted"] == false);
  CHECK(j["runs_planned"] == j["results"].size());
  const double elapsed = j["elapsed_seconds"].get<double>();
  double sum = 0;
  for (const auto& x : j["results"]) sum += x["seconds"].get<double>();
  const std::string xml = read_text(junit);
  CHECK_THAT(xml, Catch::Contains("<property name=\"dlacosim.commit\" value=\"" + commit + "\"/>"));
  // JUnit's time is the elapsed time of the regression, not the sum of its parallel runs.
  std::smatch m;
  REQUIRE(std::regex_search(xml, m, std::regex("<testsuites [^>]*time=\"([0-9.]+)\"")));
  CHECK(std::abs(std::stod(m[1]) - elapsed) < 0.01);
  CHECK_THAT(xml, Catch::Contains("sum_of_run_seconds"));
  CHECK(sum > 0);
  const std::string h = read_text(html);
  CHECK_THAT(h, Catch::Contains(commit) && Catch::Contains("elapsed (s)"));
  // The console says both times, named.
  CHECK_THAT(r.out, Catch::Contains("elapsed ") && Catch::Contains("the runs' own times add up to"));
}

// ---------------------------------------------------------------- files of the wrong kind, several files

TEST_CASE("files of the wrong kind name the command that takes them, run and regress take several files",
          "[cli][files]") {
  const std::string suite = kSrc + "/testvectors/suites/smoke.json";
  const std::string a = kSrc + "/testvectors/layers/cmac/small_int8_inline.json";
  const std::string b = kSrc + "/testvectors/layers/sdp/small_relu.json";
  Cmd r = dlacosim("run " + suite);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("this is a suite") && Catch::Contains("dlacosim regress"));
  r = dlacosim("regress " + kShared + "/nvdla-traces/nv_small/sdp_1x1x1_pass_through_int8/sdp_1x1x1_pass_through_int8.cfg");
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("replay a trace with `dlacosim run"));
  // regress LAYER.json: a one-layer regression; several layers without a suite.
  r = dlacosim("regress " + a + " " + b + " -j 1 --no-progress");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("2 passed, 0 failed"));
  const fs::path dir = scratch("several");
  r = dlacosim("run " + a + " " + b + " --json " + (dir / "r.json").string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("2 passed, 0 failed"));
  CHECK(read_json(dir / "r.json")["results"].size() == 2);
  r = dlacosim("run " + a + " " + b + " --wave " + (dir / "w.fst").string());
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::Contains("applies to one run"));
}

TEST_CASE("folders: a trace folder runs its trace, any other folder is refused naming what to give", "[cli][files]") {
  const std::string folder = kShared + "/nvdla-traces/nv_small/sdp_1x1x1_pass_through_int8";
  Cmd r = dlacosim("run " + folder + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("sdp_1x1x1_pass_through_int8.cfg"));
  r = dlacosim("run " + folder + "/ --mode golden");  // a trailing slash names the same folder
  CHECK(r.exit == 0);
  r = dlacosim("run " + kShared + "/nvdla-traces/nvdlav1/sdp_relu_int16 --mode golden");  // NVDLA v1: input.txn
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("input.txn"));
  r = dlacosim("import " + folder, false);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("\"config\": \"nv_small\""));
  for (const std::string cmd : {"run ", "validate ", "regress ", "import "}) {
    r = dlacosim(cmd + kSrc + "/testvectors/layers");
    INFO(cmd << r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains("is a folder") && Catch::Contains("a trace's .cfg") &&
                          !Catch::Contains("file not found"));
  }
}

// ---------------------------------------------------------------- wording

TEST_CASE("wording: a BAD-INPUT header shows the layer's own seed, kernels name their axes, one element differs",
          "[cli][wording]") {
  const fs::path dir = scratch("wording");
  // Valid JSON, a valid seed, an invalid field: the header still names seed 11.
  write_text(dir / "bad.json", R"({ "unit": "cmac", "config": "nv_small", "seed": 11, "precision": "int8",
    "stripes": [ { "kernels": 99, "ops": 1 } ], "data": { "random": {} }, "weights": { "random": {} } })");
  Cmd r = dlacosim("run " + (dir / "bad.json").string());
  INFO(r.out);
  CHECK(r.exit == 2);
  CHECK_THAT(r.out, Catch::StartsWith("BAD-INPUT bad [cmac nv_small cross] seed=11 "));
  // r = 5 rows, s = 3 columns, C 21, K 9: "kernel KxCxRxS 9x21x5x3".
  write_text(dir / "k.json", R"({ "unit": "conv", "config": "nv_small", "precision": "int8",
    "input": { "w": 8, "h": 9, "c": 21, "data": { "random": {} } },
    "weights": { "k": 9, "r": 5, "s": 3, "data": { "random": { "min": -3, "max": 3 } } } })");
  r = dlacosim("run " + (dir / "k.json").string() + " --mode golden");
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("kernel KxCxRxS 9x21x5x3"));
  // One flipped bit: "1 element differs", "1 mismatch".
  r = dlacosim("run " + kSrc + "/testvectors/layers/cmac/small_int8_random.json --flip-bit 3:2");
  INFO(r.out);
  CHECK(r.exit == 1);
  CHECK_THAT(r.out, Catch::Contains("1 element differs between RTL and golden") && Catch::Contains(", 1 mismatch,"));
  CHECK(r.out.find("1 elements") == std::string::npos);
}

// ---------------------------------------------------------------- numbers that reconcile

TEST_CASE("numbers: a conv layer's work is its compared elements, bench says it runs without back-pressure",
          "[cli][numbers]") {
  const fs::path dir = scratch("numbers");
  const fs::path json = dir / "r.json";
  Cmd r = dlacosim("run " + kSrc + "/testvectors/layers/conv/small_3x3_pad1.json --json " + json.string());
  INFO(r.out);
  REQUIRE(r.exit == 0);
  const nlohmann::json j = read_json(json)["results"][0];
  uint64_t compared = 0;
  for (const auto& c : j["compares"]) compared += c["elements"].get<uint64_t>();
  CHECK(compared > 0);
  CHECK(j["work"].get<uint64_t>() == compared);  // was twice: CACC's flying output counted as well
  // The table names its column for what it is.
  r = dlacosim("regress " + kSrc + "/testvectors/layers/conv/small_3x3_pad1.json --no-progress");
  CHECK_THAT(r.out, Catch::Contains("compared") && Catch::Contains(" " + std::to_string(compared) + " "));
  r = dlacosim("bench cmac --ops 2000");
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::StartsWith("bench cmac: every case on the RTL without back-pressure (stall 0)"));
}
