// The HTML report's network picture (harness/src/html_network.cpp), issue 41: an edge that skips
// ranks never runs behind a box, the legend fits the narrowest picture, and a layer the run timed
// out at is drawn as a timeout, not grey like a layer never run.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <regex>
#include <string>
#include <vector>

#include "harness/html_report.hpp"

using namespace dla::harness;

namespace {

const std::string kSrc = DLA_SOURCE_DIR;

struct Box {
  int x, y, w, h;
};

std::vector<Box> boxes(const std::string& svg) {
  std::vector<Box> out;
  const std::regex re(R"re(<rect x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)" rx=)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3]), std::stoi((*it)[4])});
  }
  return out;
}

RunResult inception_run() {
  RunResult r;
  r.layer_file = kSrc + "/testvectors/networks/inception.json";
  r.name = "inception";
  r.unit = "network";
  r.config = "nv_small";
  r.mode = "cross";
  return r;
}

}  // namespace

TEST_CASE("network picture: edges past other ranks run in lanes right of every box they pass", "[html]") {
  const std::string svg = html_network_picture(inception_run(), 0);
  const std::vector<Box> bs = boxes(svg);
  REQUIRE(bs.size() == 19);  // 10 tensors, 9 layers
  const std::regex skip(R"re(class="net-edge net-skip" d="M (\d+) (\d+) L \d+ (\d+) L (\d+) \d+ L \d+ (\d+))re");
  int skips = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), skip); it != std::sregex_iterator(); ++it) {
    ++skips;
    const int lane = std::stoi((*it)[4]), ya = std::stoi((*it)[3]), yb = std::stoi((*it)[5]);
    for (const Box& b : bs) {
      if (b.y + b.h < ya || b.y > yb) continue;  // not beside the lane's vertical run
      INFO("lane x " << lane << " from y " << ya << " to " << yb << ", box at " << b.x << "," << b.y);
      CHECK(lane > b.x + b.w);
    }
  }
  CHECK(skips >= 1);  // b1 (1x1 branch) skips the other branches' ranks to the concat
  // The picture is wide enough for its lanes.
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex(R"re(<svg class="network" width="(\d+)")re")));
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), skip); it != std::sregex_iterator(); ++it) {
    CHECK(std::stoi((*it)[4]) < std::stoi(m[1]));
  }
}

TEST_CASE("network picture: the legend fits the narrowest picture, every status in it", "[html]") {
  RunResult r = inception_run();
  r.layer_file = kSrc + "/testvectors/networks/lrn_pair.json";  // a narrow graph
  const std::string svg = html_network_picture(r, 0);
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex(R"re(<svg class="network" width="(\d+)")re")));
  const int width = std::stoi(m[1]);
  const auto legend = svg.substr(svg.find("<g class=\"net-legend\">"));
  // Each text line at 10 px is at most 6 px a character (the estimate the layout uses is 7).
  const std::regex text(R"re(<text x="(\d+)" y="\d+" font-size="10" fill="#555">([^<]*)</text>)re");
  int texts = 0;
  for (auto it = std::sregex_iterator(legend.begin(), legend.end(), text); it != std::sregex_iterator(); ++it) {
    ++texts;
    INFO((*it)[2]);
    CHECK(std::stoi((*it)[1]) + 6 * static_cast<int>((*it)[2].length()) <= width);
  }
  CHECK(texts == 6);  // the line about shapes and five statuses
  for (const char* st : {">pass<", ">mismatch<", ">timeout<", ">golden only<", ">not run<"}) {
    CHECK(legend.find(st) != std::string::npos);
  }
}

TEST_CASE("network picture: the layer a run timed out at is drawn as a timeout", "[html]") {
  RunResult r = inception_run();
  r.status = Status::Timeout;
  r.message = r.layer_file + ": layer b3_5x5 (conv): wait_intr SDP_0 (step 40): nvdla_core (nv_small): watchdog: ...";
  const std::string svg = html_network_picture(r, 0);
  CHECK(svg.find("<g class=\"net-layer timeout\" data-layer=\"b3_5x5\">") != std::string::npos);
  CHECK(svg.find("fill=\"#ffb86b\"") != std::string::npos);
  CHECK(svg.find("<g class=\"net-layer not-run\" data-layer=\"mix\">") != std::string::npos);
}
