// HTML reports (`regress --html`, `report --html`) and the compare engine's mismatch map they draw.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "cli_run.hpp"
#include "harness/compare.hpp"
#include "harness/html_report.hpp"
#include "harness/report.hpp"

namespace fs = std::filesystem;
using dla::test::dlacosim;
using namespace dla::harness;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Self-contained: nothing fetched (no src attribute at all), every link an anchor in the page or
// a local file (a run's waveform).
void check_self_contained(const std::string& html) {
  CHECK_FALSE(has(html, "http://"));
  CHECK_FALSE(has(html, "https://"));
  CHECK_FALSE(std::regex_search(html, std::regex(R"(\ssrc\s*=)", std::regex::icase)));
  CHECK_FALSE(has(html, "<link"));
  CHECK_FALSE(has(html, "@import"));
  CHECK_FALSE(has(html, "url("));
  const std::regex href(R"(href\s*=\s*"([^"]*)\")");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it) {
    INFO((*it)[1].str());
    CHECK(((*it)[1].str().rfind('#', 0) == 0 || (*it)[1].str().rfind("file:///", 0) == 0));
  }
}

// `dlacosim report JSON --html HTML EXTRA`, required to exit 0; the HTML it wrote.
std::string report_html(const fs::path& json, const fs::path& html, const std::string& extra,
                        const std::string& summary) {
  const auto rep = dlacosim("report " + json.string() + " --html " + html.string() + extra);
  INFO(rep.out);
  REQUIRE(rep.exit == 0);
  CHECK(has(rep.out, summary));
  return read_text(html);
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("mismatch map: a grid of at most 32x32 cells per channel, counts by hand", "[compare][html]") {
  // h = 40 -> cells of ceil(40/32) = 2 rows, 20 of them; w = 70 -> ceil(70/32) = 3 columns, 24 of them.
  Cube<int64_t> e({2, 2, 40, 70});
  Cube<int64_t> a = e;
  a.at(0, 1, 5, 69) = 1;  // cell (c=1, row 5/2=2, col 69/3=23)
  a.at(0, 0, 0, 0) = 1;   // cell (0, 0, 0)
  a.at(0, 0, 1, 2) = 1;   // cell (0, 1/2=0, 2/3=0): the same cell
  a.at(1, 0, 1, 1) = 1;   // n=1, cell (0, 0, 0) again: counts are summed over n
  const auto r = compare_cubes("out", a, e, CompareOptions{});
  CHECK(r.mismatches == 4);
  CHECK(r.map.cell_h == 2);
  CHECK(r.map.cell_w == 3);
  CHECK(r.map.rows == 20);
  CHECK(r.map.cols == 24);
  CHECK(r.map.cells == std::vector<MismatchCell>{{0, 0, 0, 3}, {1, 2, 23, 1}});
  CHECK(r.map.cells_dropped == 0);

  // Small planes are mapped element by element.
  const MismatchMap small = mismatch_grid({1, 1, 3, 32});
  CHECK(small.cell_h == 1);
  CHECK(small.cell_w == 1);
  CHECK(small.rows == 3);
  CHECK(small.cols == 32);
  const MismatchMap wide = mismatch_grid({1, 1, 1, 462});  // ceil(462/32) = 15; ceil(462/15) = 31
  CHECK(wide.cell_w == 15);
  CHECK(wide.cols == 31);

  // A pass has an empty map; so has a shape difference (nothing compared element by element).
  CHECK(compare_cubes("out", e, e, CompareOptions{}).map.empty());
  CHECK(compare_cubes("out", Cube<int64_t>({1, 1, 1, 1}), e, CompareOptions{}).map.empty());
}

TEST_CASE("mismatch map: at most kMaxCells cells, the rest counted as dropped", "[compare][html]") {
  // 3 channels of 32x32 all wrong: 3072 non-empty cells; channels 0 and 1 fill the 2048 kept.
  const Cube<int64_t> e({1, 3, 32, 32}, 0);
  const Cube<int64_t> a({1, 3, 32, 32}, 7);
  const auto r = compare_cubes("out", a, e, CompareOptions{});
  REQUIRE(r.map.cells.size() == 2048);
  CHECK(r.map.cells.front() == MismatchCell{0, 0, 0, 1});
  CHECK(r.map.cells.back() == MismatchCell{1, 31, 31, 1});
  CHECK(r.map.cells_dropped == 1024);
}

TEST_CASE("regress --html: one row per smoke suite run, no failures, self-contained", "[cli][html]") {
  const fs::path dir = fresh_dir("dlacosim_html_smoke");
  const std::string suite = std::string(DLA_SOURCE_DIR) + "/testvectors/suites/smoke.json";
  const auto run = dlacosim("regress " + suite + " -j 2 --json " + (dir / "smoke.json").string() + " --html " +
                            (dir / "smoke.html").string());
  INFO(run.out);
  REQUIRE(run.exit == 0);
  const std::string html = read_text(dir / "smoke.html");
  // The suite lists 5 layers, one per unit.
  CHECK(count(html, "<tr class=\"run") == 5);
  CHECK(count(html, "<tr class=\"run failed") == 0);
  for (const char* name : {"small_int8_random", "sdp_sigmoid_linear", "pra_int8_t0", "small_relu", "small_1x1"}) {
    INFO(name);
    CHECK(std::regex_search(html, std::regex(std::string("<tr class=\"run\" id=\"run-\\d\">.*<td>") + name + "</td>")));
  }
  CHECK(has(html, "<tr><th>runs</th><td class=\"num\">5</td></tr>"));
  CHECK(has(html, "<tr><th>passed</th><td class=\"num\">5</td></tr>"));
  CHECK(has(html, "All runs passed."));
  CHECK_FALSE(has(html, "class=\"heatmap\""));
  // Per unit: a cycles chart and a rate chart for each of the 5 units.
  CHECK(count(html, "<svg class=\"chart cycles\"") == 5);
  CHECK(count(html, "<svg class=\"chart rate\"") == 5);
  CHECK(has(html, "cmac: ops/cycle per run"));
  check_self_contained(html);

  // `report` of the regress JSON shows the same rows.
  const std::string again =
      report_html(dir / "smoke.json", dir / "again.html", " --title smoke-again", "5 runs, 5 passed, 0 failed");
  CHECK(count(again, "<tr class=\"run") == 5);
  CHECK(has(again, "<title>smoke-again</title>"));
  check_self_contained(again);
}

TEST_CASE("report --html of a run forced to fail: coordinates, heatmap, reproduce command", "[cli][html]") {
  const fs::path dir = fresh_dir("dlacosim_html_flip");
  const std::string layer = std::string(DLA_SOURCE_DIR) + "/testvectors/layers/cmac/small_int8_random.json";
  // With its own seed (11) the layer's psum cube is (n=1, kernel=8, h=1, op=462) on nv_small (3696
  // elements; another seed draws other stripes): element
  // 3*462 + 100 = 1486 is kernel 3, op 100. Flipping bit 5 makes actual xor expected 0x20. The
  // map's cells are ceil(462/32) = 15 ops wide, so op 100 is in the square of ops 90..104.
  const auto run = dlacosim("run " + layer + " --stall 0.25 --rand-reset 2 --flip-bit 1486:5 --wave " +
                            (dir / "flip.fst").string() + " --json " + (dir / "flip.json").string());
  INFO(run.out);
  REQUIRE(run.exit == 1);
  const std::string html = report_html(dir / "flip.json", dir / "flip.html", "", "1 runs, 0 passed, 1 failed");
  CHECK(count(html, "<tr class=\"run failed\" id=\"run-0\">") == 1);
  CHECK(has(html, "<a href=\"#fail-0\">small_int8_random</a>"));
  CHECK(has(html, "<section class=\"failure\" id=\"fail-0\">"));
  CHECK(has(html, "psum: 1 element of 3696 differs"));
  CHECK(has(html, "<td>(n=0, kernel=3, h=0, op=100)</td>"));
  CHECK(has(html, "<td class=\"num\">0x20</td>"));
  CHECK(count(html, "<svg class=\"heatmap\"") == 1);
  CHECK(has(html, "<svg class=\"heatmap\" id=\"map-0-0-c3\" data-region=\"psum\""));
  CHECK(count(html, "<rect class=\"cell\"") == 1);
  CHECK(has(html, "<title>kernel=3 h=0 op=90..104: 1 mismatch</title>"));
  // The exact command, with what the run used (the layer's seed, the stall and rand-reset given above).
  CHECK(has(html, "<pre class=\"repro\">dlacosim run " + layer +
                      " --config nv_small --mode cross --seed 11 --stall 0.25 --rand-reset 2</pre>"));
  // The waveform the run wrote, linked.
  REQUIRE(fs::exists(dir / "flip.fst"));
  CHECK(has(html, "<a class=\"wave\" href=\"file://" + (dir / "flip.fst").string() + "\">"));
  check_self_contained(html);

  // The command in the report runs as written (without the self-test flip it passes).
  const auto again = dlacosim("run " + layer + " --config nv_small --mode cross --seed 11 --stall 0.25 --rand-reset 2");
  INFO(again.out);
  CHECK(again.exit == 0);
  CHECK(has(again.out, "seed=11 stall=0.25 rand-reset=2"));
}

TEST_CASE("report: missing --html, missing files and malformed mismatch maps are bad input", "[cli][html]") {
  const fs::path dir = fresh_dir("dlacosim_html_bad");
  const std::string layer = std::string(DLA_SOURCE_DIR) + "/testvectors/layers/cmac/small_int8_random.json";
  const std::string flip = (dir / "flip.json").string();
  REQUIRE(dlacosim("run " + layer + " --flip-bit 1486:5 --json " + flip).exit == 1);

  const auto no_html = dlacosim("report " + flip);
  CHECK(no_html.exit == 2);
  CHECK(has(no_html.out, "--html"));
  const auto no_files = dlacosim("report --html " + (dir / "x.html").string());
  CHECK(no_files.exit == 2);
  const auto absent = dlacosim("report " + (dir / "absent.json").string() + " --html " + (dir / "x.html").string());
  CHECK(absent.exit == 2);
  CHECK(has(absent.out, "absent.json"));

  // A cell outside the grid (31 columns of 15 ops), then cells out of order.
  auto j = nlohmann::json::parse(read_text(flip)).at("results").at(0);
  REQUIRE(j.at("compares").at(0).at("mismatch_map").at("cells") == nlohmann::json::parse("[[3, 0, 6, 1]]"));
  // `report` of the result with other cells: exit 2 naming the file and the JSON pointer.
  const auto with_cells = [&](const std::string& name, const char* cells) {
    j["compares"][0]["mismatch_map"]["cells"] = nlohmann::json::parse(cells);
    std::ofstream(dir / name) << j.dump();
    const auto r = dlacosim("report " + (dir / name).string() + " --html " + (dir / "x.html").string());
    CHECK(r.exit == 2);
    CHECK(has(r.out, name));
    return r.out;
  };
  CHECK(has(with_cells("outside.json", "[[3, 0, 31, 1]]"), "/compares/0/mismatch_map/cells/0/2"));
  const std::string order = with_cells("order.json", "[[3, 0, 6, 1], [3, 0, 5, 1]]");
  CHECK(has(order, "/compares/0/mismatch_map/cells/1"));
  CHECK(has(order, "ascending"));
  CHECK_FALSE(fs::exists(dir / "x.html"));
}

TEST_CASE("reproduce command quotes the layer file for the shell and names the memory model", "[html]") {
  RunResult r;
  r.layer_file = "dir with space/it's.json";
  r.config = "nv_full";
  r.mode = "rtl";
  r.seed = 9;
  r.stall = 0.5;
  r.rand_reset = 1;
  CHECK(reproduce_command(r) ==
        "dlacosim run 'dir with space/it'\\''s.json' --config nv_full --mode rtl --seed 9 --stall 0.5 --rand-reset 1");
  DmaTraffic d;
  d.mem.latency_min = 2;
  d.mem.latency_max = 7;
  d.mem.bandwidth = 1.5;
  r.dma = d;
  r.layer_file = "a.json";
  CHECK(reproduce_command(r) == "dlacosim run a.json --config nv_full --mode rtl --seed 9 --stall 0.5 --rand-reset 1 "
                                "--mem-latency 2:7 --mem-bandwidth 1.5");
}

TEST_CASE("bench --html and report of bench --json: one row and one bar per case, NVDLA's rate marked",
          "[cli][html][bench]") {
  const fs::path dir = fs::temp_directory_path() / "dlacosim_html_bench";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto run = dlacosim("bench sdp --json --html " + (dir / "bench.html").string(), false);
  REQUIRE(run.exit == 0);
  const auto cases = nlohmann::json::parse(run.out);
  REQUIRE(cases.is_array());
  REQUIRE(cases.size() >= 2);
  std::size_t with_nvdla = 0;
  for (const auto& c : cases) with_nvdla += c["nvdla_elements_per_cycle"].is_number() ? 1 : 0;
  REQUIRE(with_nvdla >= 1);  // sdp's cases have NVDLA's rate
  const std::string html = read_text(dir / "bench.html");
  check_self_contained(html);
  CHECK(count(html, "<tr class=\"case") == cases.size());
  CHECK(count(html, "<rect x=") == cases.size());                // one bar per case
  CHECK(count(html, "<rect class=\"nvdla\"") == with_nvdla);     // a tick where NVDLA's rate is known
  for (const auto& c : cases) CHECK(has(html, "<td>" + c["case"].get<std::string>() + "</td>"));
  // The same page from the JSON afterwards.
  {
    std::ofstream(dir / "bench.json") << run.out;
  }
  const auto rep = dlacosim("report " + (dir / "bench.json").string() + " --html " + (dir / "again.html").string());
  INFO(rep.out);
  REQUIRE(rep.exit == 0);
  CHECK(has(rep.out, std::to_string(cases.size()) + " benchmark cases"));
  CHECK(count(read_text(dir / "again.html"), "<tr class=\"case") == cases.size());
  // A case without its cycles is bad input naming the JSON pointer.
  auto broken = cases;
  broken[1].erase("cycles");
  {
    std::ofstream(dir / "broken.json") << broken.dump();
  }
  const auto bad = dlacosim("report " + (dir / "broken.json").string() + " --html " + (dir / "bad.html").string());
  CHECK(bad.exit == 2);
  CHECK(has(bad.out, "/1"));
  CHECK(has(bad.out, "cycles"));
  CHECK_FALSE(fs::exists(dir / "bad.html"));
  fs::remove_all(dir);
}
