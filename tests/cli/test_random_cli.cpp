// dlacosim random (docs/RANDOM.md): bad options exit 2 naming the option; a small fixed-seed
// campaign per unit runs, prints its summary, writes every layer (--all) as a JSON layer that
// validates and that `dlacosim run` reproduces with the same verdict; the same seed gives the same
// layers whatever -j, and --list lists them; a fixed-seed CI campaign of each unit and configuration passes.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const fs::path kTmp = fs::path(DLA_BINARY_DIR) / "test_tmp" / "random_cli";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> layers_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json" && e.path().filename() != "summary.json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("dlacosim random: bad options exit 2 naming the option", "[cli][random]") {
  struct Case {
    const char* args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"random", "expected exactly one unit (conv, sdp, pdp, cdp, bdma"},
      {"random conv sdp", "expected exactly one unit"},
      {"random cmac", "random: cmac: no random-layer generator for this unit (conv, sdp, pdp, cdp, bdma"},
      {"random conv --count 0", "--count: must be in [1, 1000000]"},
      {"random conv --jobs 0", "--jobs: must be at least 1"},
      {"random conv -j 0", "--jobs: must be at least 1"},
      {"random conv --config nv_tiny", "--config: unknown configuration \"nv_tiny\""},
      {"random conv --watchdog 0", "--watchdog: must be at least 1 cycle"},
      {"random conv --all", "--all: needs --out DIR"},
      {"random conv --count x", "random"},
      {"random conv --bogus 1", "bogus"},
      {"random conv --focus wfold --config nv_small", "--focus: wfold: configuration nv_small has no wfold"},
      {"random conv --focus nope", "--focus: nope: random conv knows no such feature (wfold ("},
      {"random bdma --focus wfold", "--focus: wfold: random bdma knows no such feature (it has none)"},
      {"random rubik --focus wfold", "--focus: wfold: random rubik knows no such feature (fp16 ("},
      {"random sdp --focus wfold", "--focus: wfold: random sdp knows no such feature (fp16 ("},
      {"random sdp --focus fp16 --config nv_small", "--focus: fp16: configuration nv_small has no fp16"},
  };
  for (const auto& c : cases) {
    const Cmd r = dlacosim(c.args);
    INFO(c.args << "\n" << r.out);
    CHECK(r.exit == 2);
    CHECK_THAT(r.out, Catch::Contains(c.says));
  }
  const Cmd h = dlacosim("help random");
  CHECK(h.exit == 0);
  CHECK_THAT(h.out, Catch::Contains("--count") && Catch::Contains("--seed") && Catch::Contains("--out"));
  CHECK_THAT(h.out, Catch::Contains("(units: conv, sdp, pdp, cdp, bdma"));
}

TEST_CASE("dlacosim random: a small campaign writes layers that dlacosim run reproduces", "[cli][random]") {
  for (const char* unit : {"conv", "sdp"}) {
    const fs::path dir = kTmp / unit;
    fs::remove_all(dir);
    const Cmd r = dlacosim(std::string("random ") + unit + " --count 5 --seed 2 --config nv_small -j 2 --all --out " +
                           dir.string());
    INFO(unit << "\n" << r.out);
    REQUIRE(r.exit == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("random ") + unit + " --seed 2 --count 5 -j 2: 5 layers"));
    CHECK_THAT(r.out, Catch::Matches(R"([\s\S]*\nnv_small +5 +0 +0 +0 +0\n[\s\S]*)"));
    CHECK_THAT(r.out, Catch::Contains("failing layers (index): none"));
    if (std::string(unit) == "conv") CHECK_THAT(r.out, Catch::Contains("int64 reference: agrees on"));

    const nlohmann::json summary = nlohmann::json::parse(slurp(dir / "summary.json"));
    CHECK(summary["unit"] == unit);
    CHECK(summary["count"] == 5);
    CHECK(summary["counts"]["PASS"] == 5);
    CHECK(summary["failures"].empty());

    const auto files = layers_in(dir);
    REQUIRE(files.size() == 5);
    std::string all;
    for (const auto& f : files) {
      all += ' ';
      all += f.string();
    }
    const Cmd v = dlacosim("validate" + all);
    INFO(v.out);
    CHECK(v.exit == 0);
    // Each layer carries its seed and stall; the command in its description adds --rand-reset.
    for (const auto& f : {files.front(), files.back()}) {
      const nlohmann::json doc = nlohmann::json::parse(slurp(f));
      CHECK(doc["unit"] == unit);
      CHECK(doc.contains("seed"));
      CHECK(doc.contains("stall"));
      const std::string desc = doc["description"];
      const auto at = desc.find("Reproduce: dlacosim run ");
      REQUIRE(at != std::string::npos);
      const Cmd run = dlacosim(desc.substr(at + std::string("Reproduce: dlacosim ").size()));
      INFO(run.out);
      CHECK(run.exit == 0);
    }
  }
}

TEST_CASE("dlacosim random: the same seed gives the same layers whatever -j", "[cli][random]") {
  const fs::path a = kTmp / "same_a", b = kTmp / "same_b";
  fs::remove_all(a);
  fs::remove_all(b);
  const Cmd ra = dlacosim("random conv --count 4 --seed 11 -j 1 --all --quiet --out " + a.string());
  const Cmd rb = dlacosim("random conv --count 4 --seed 11 -j 2 --all --quiet --out " + b.string());
  INFO(ra.out << rb.out);
  const auto fa = layers_in(a), fb = layers_in(b);
  REQUIRE(fa.size() == 4);
  REQUIRE(fb.size() == 4);
  std::vector<std::string> configs;
  for (std::size_t i = 0; i < fa.size(); ++i) {
    CHECK(fa[i].filename() == fb[i].filename());
    nlohmann::json da = nlohmann::json::parse(slurp(fa[i])), db = nlohmann::json::parse(slurp(fb[i]));
    configs.push_back(da["config"]);
    da.erase("description");  // holds the output directory
    db.erase("description");
    CHECK(da == db);
  }
  // Without --config the layers alternate over the configurations.
  CHECK(configs[0] != configs[1]);
  // --list generates the same layers and prints each one's name and the features its description
  // carries, running nothing.
  const Cmd list = dlacosim("random conv --count 4 --seed 11 --list");
  INFO(list.out);
  CHECK(list.exit == 0);
  std::istringstream lines(list.out);
  std::map<std::string, std::string> listed;  // name -> line
  for (std::string line; std::getline(lines, line);) listed[line.substr(0, line.find(' '))] = line;
  CHECK(listed.size() == fa.size());
  for (const auto& f : fa) {
    const nlohmann::json doc = nlohmann::json::parse(slurp(f));
    const std::string desc = doc["description"], name = doc["name"];
    const auto open = desc.find(" ("), close = desc.find("): ");
    REQUIRE(open != std::string::npos);
    REQUIRE(close != std::string::npos);
    CHECK(listed[name].rfind(name + " " + desc.substr(open + 2, close - open - 2), 0) == 0);
  }
  CHECK_THAT(list.out, !Catch::Contains("PASS"));
  // Another seed gives other layers.
  const fs::path c = kTmp / "other";
  fs::remove_all(c);
  (void)dlacosim("random conv --count 1 --seed 12 --all --quiet --out " + c.string());
  const auto fc = layers_in(c);
  REQUIRE(fc.size() == 1);
  nlohmann::json d0 = nlohmann::json::parse(slurp(fa[0])), d1 = nlohmann::json::parse(slurp(fc[0]));
  CHECK(d0["seed"] != d1["seed"]);
}

TEST_CASE("dlacosim random: --focus wfold draws its own layers, every one direct with a fold draw", "[cli][random]") {
  // Without --config the campaign keeps to the configurations with the fold (nv_full).
  const Cmd r = dlacosim("random conv --focus wfold --count 40 --seed 5 --list");
  INFO(r.out);
  REQUIRE(r.exit == 0);
  std::istringstream lines(r.out);
  int n = 0, folded = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    ++n;
    CHECK_THAT(line, Catch::StartsWith("random_conv_nv_full_s5_"));
    CHECK_THAT(line, Catch::Contains(" direct "));
    CHECK_THAT(line, Catch::Contains(" wfold "));
    if (line.find("wfold auto(unfolded)") == std::string::npos) ++folded;
  }
  CHECK(n == 40);
  CHECK(folded > 20);  // "auto" may keep a layer unfolded; most fold
  // Its layers are not the unfocused campaign's layers of the same indices.
  const Cmd u = dlacosim("random conv --config nv_full --count 40 --seed 5 --list");
  REQUIRE(u.exit == 0);
  CHECK(u.out != r.out);
}

// The fixed-seed CI campaign: a reduced count per unit and configuration (docs/RANDOM.md,
// "Campaigns", for its size and time). It fails while an RTL bug the campaigns found is open.
// The fixed-seed CI campaign: 300 conv and 300 sdp layers over the three configurations (most on
// nv_small, where a layer is cheapest), one CTest test per (unit, configuration) so CTest spreads
// them over the cores. About 60 s of CPU in all on the 2-core VM.
namespace {
void ci_campaign(const std::string& unit, const std::string& config, int count) {
  const fs::path dir = kTmp / ("ci_" + unit + "_" + config);
  fs::remove_all(dir);
  const Cmd r = dlacosim("random " + unit + " --count " + std::to_string(count) + " --seed 2026 -j 1 --quiet --config " +
                         config + " --out " + dir.string());
  INFO(r.out);
  CHECK(r.exit == 0);
  CHECK_THAT(r.out, Catch::Contains("failing layers (index): none"));
  CHECK_THAT(r.out, Catch::Contains(std::to_string(count) + " layers in "));
}
}  // namespace

TEST_CASE("dlacosim random: CI campaign conv nv_small 90 layers", "[cli][random][campaign]") {
  ci_campaign("conv", "nv_small", 90);
}
TEST_CASE("dlacosim random: CI campaign conv nv_large 30 layers", "[cli][random][campaign]") {
  ci_campaign("conv", "nv_large", 30);
}
TEST_CASE("dlacosim random: CI campaign conv nv_full 30 layers", "[cli][random][campaign]") {
  ci_campaign("conv", "nv_full", 30);
}
TEST_CASE("dlacosim random: CI campaign sdp nv_small 180 layers", "[cli][random][campaign]") {
  ci_campaign("sdp", "nv_small", 180);
}
TEST_CASE("dlacosim random: CI campaign sdp nv_large 60 layers", "[cli][random][campaign]") {
  ci_campaign("sdp", "nv_large", 60);
}
TEST_CASE("dlacosim random: CI campaign sdp nv_full 30 layers", "[cli][random][campaign]") {
  ci_campaign("sdp", "nv_full", 30);
}
// pdp: 300 layers (RTL against golden where the PDP RTL is built, else golden alone; both judged
// by the int64 pooling reference). About 12 s on the 2-core VM.
TEST_CASE("dlacosim random: CI campaign pdp nv_small 90 layers", "[cli][random][campaign]") {
  ci_campaign("pdp", "nv_small", 90);
}
TEST_CASE("dlacosim random: CI campaign pdp nv_large 30 layers", "[cli][random][campaign]") {
  ci_campaign("pdp", "nv_large", 30);
}
TEST_CASE("dlacosim random: CI campaign pdp nv_full 30 layers", "[cli][random][campaign]") {
  ci_campaign("pdp", "nv_full", 30);
}
// cdp: 300 layers (RTL against golden where the CDP RTL is built, else golden alone; both judged
// by the int64 reference, statistics registers included). About 5 s on the 2-core VM.
TEST_CASE("dlacosim random: CI campaign cdp nv_small 180 layers", "[cli][random][campaign]") {
  ci_campaign("cdp", "nv_small", 180);
}
TEST_CASE("dlacosim random: CI campaign cdp nv_large 60 layers", "[cli][random][campaign]") {
  ci_campaign("cdp", "nv_large", 60);
}
TEST_CASE("dlacosim random: CI campaign cdp nv_full 60 layers", "[cli][random][campaign]") {
  ci_campaign("cdp", "nv_full", 60);
}
// rubik: 120 layers on nv_full, the only configuration with RUBIK (the RUBIK RTL against golden,
// both judged by the re-layout reference harness/rubik_reference.hpp). About 1 s on the 2-core VM.
TEST_CASE("dlacosim random: CI campaign rubik nv_full 120 layers", "[cli][random][campaign]") {
  ci_campaign("rubik", "nv_full", 120);
}
// deconv: 100 layers on nv_full (RUBIK's CONTRACT exists there only; the RTL -- nvdla_core and
// RUBIK over one memory -- against golden, both judged by the scatter-add reference
// harness/deconv_reference.hpp). About 12 s on the 2-core VM (120 layers: 14.5 s; 1.2 s while it
// ran golden alone): the issue's 100, for CI time.
TEST_CASE("dlacosim random: CI campaign deconv nv_full 50 layers", "[cli][random][campaign]") {
  ci_campaign("deconv", "nv_full", 50);
}
// loadable: networks of `random network` exported as NVDLA loadables and run back through the
// firmware model, RTL against golden, every output tensor judged by the int64 conv reference
// where the loadable put it.
TEST_CASE("dlacosim random: CI campaign loadable nv_small 40 layers", "[cli][random][campaign]") {
  ci_campaign("loadable", "nv_small", 40);
}
TEST_CASE("dlacosim random: CI campaign loadable nv_full 10 layers", "[cli][random][campaign]") {
  ci_campaign("loadable", "nv_full", 10);
}

TEST_CASE("dlacosim random loadable: a layer's reproduce line writes the loadable and runs it back", "[cli][random]") {
  const fs::path dir = kTmp / "loadable_repro";
  fs::remove_all(dir);
  const Cmd r = dlacosim("random loadable --count 2 --seed 3 --config nv_small -j 1 --all --out " + dir.string());
  INFO(r.out);
  REQUIRE(r.exit == 0);
  const auto files = layers_in(dir);
  REQUIRE(files.size() == 2);
  const nlohmann::json doc = nlohmann::json::parse(slurp(files.front()));
  CHECK(doc["unit"] == "network");  // the layer file is the network; the campaign runs its loadable
  const std::string desc = doc["description"];
  const auto at = desc.find("Reproduce: dlacosim compile ");
  REQUIRE(at != std::string::npos);
  const std::string cmd = desc.substr(at + std::string("Reproduce: dlacosim ").size());
  const std::string sep = " && dlacosim ";
  const auto amp = cmd.find(sep);
  REQUIRE(amp != std::string::npos);
  const Cmd compile = dlacosim(cmd.substr(0, amp));
  INFO(compile.out);
  REQUIRE(compile.exit == 0);
  CHECK(fs::exists(fs::path(files.front()).replace_extension(".nvdla")));
  const std::string run_args = cmd.substr(amp + sep.size());
  CHECK_THAT(run_args, Catch::Contains("--mode cross") && Catch::Contains("--input x="));
  const Cmd run = dlacosim(run_args);
  INFO(run_args << "\n" << run.out);
  CHECK(run.exit == 0);
}

TEST_CASE("dlacosim random --first: a campaign's later layers are those of the whole campaign", "[cli][random]") {
  // Layers 3..6 of seed 5 listed alone equal lines 3..6 of the list of layers 0..6, and a run of
  // them names the same layers.
  const Cmd all = dlacosim("random conv --count 7 --seed 5 --list");
  const Cmd part = dlacosim("random conv --count 4 --first 3 --seed 5 --list");
  REQUIRE(all.exit == 0);
  REQUIRE(part.exit == 0);
  std::vector<std::string> lines;
  std::istringstream in(all.out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 7);
  CHECK(part.out == lines[3] + "\n" + lines[4] + "\n" + lines[5] + "\n" + lines[6] + "\n");
  CHECK_THAT(lines[3], Catch::Contains("_00003 "));
  const Cmd run = dlacosim("random sdp --count 2 --first 40 --seed 5 --config nv_small -j 1");
  INFO(run.out);
  CHECK(run.exit == 0);
  CHECK_THAT(run.out, Catch::Contains("random sdp --seed 5 --count 2 --first 40 -j 1: 2 layers"));
  CHECK_THAT(run.out, Catch::Contains("random_sdp_nv_small_s5_00040") && Catch::Contains("random_sdp_nv_small_s5_00041"));
  CHECK(dlacosim("random conv --first 2000000000").exit == 2);
}
