// dlacosim's memory model options (--mem-latency, --mem-bandwidth on run, regress and bench), the
// DMA traffic line of the run report, and `bench UNIT --json`.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include <unistd.h>

#include "cli_run.hpp"

namespace fs = std::filesystem;

namespace {

using dla::test::Cmd;
using dla::test::dlacosim;

const std::string kSrc = DLA_SOURCE_DIR;
// nv_small, 6x6x10 int8, EW per-element sum from a second cube: output 6 x 6 positions x 2
// channel surfaces x 8-byte atoms = 576 bytes; reads at least the input and the EW cube (576 each).
const std::string kLayer = kSrc + "/testvectors/layers/sdp/small_ew_sum.json";
constexpr uint64_t kOutBytes = 6 * 6 * 2 * 8;

struct Traffic {
  uint64_t read = 0, written = 0, cycles = 0;
  double per_cycle = 0;
};

// The report's one DMA line: "dma: R B read, W B written, X B/cycle over N cycles (...)".
Traffic dma_line(const std::string& out) {
  static const std::regex re(R"(dma: (\d+) B read, (\d+) B written, ([0-9.]+) B/cycle over (\d+) cycles)");
  std::smatch m;
  REQUIRE(std::regex_search(out, m, re));
  return {std::stoull(m[1]), std::stoull(m[2]), std::stoull(m[4]), std::stod(m[3])};
}

std::string unique_name() {
  static int n = 0;
  return "dlacosim-mem-" + std::to_string(getpid()) + "-" + std::to_string(n++) + ".json";
}

// Runs the layer in cross mode with `extra` options; the JSON report and the text line must agree.
Traffic run_layer(const std::string& extra) {
  const fs::path json = fs::temp_directory_path() / unique_name();
  const Cmd c = dlacosim("run " + kLayer + " " + extra + " --json " + json.string());
  INFO(c.out);
  REQUIRE(c.exit == 0);
  const Traffic t = dma_line(c.out);
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in).at("results").at(0);  // a results file (docs/CLI.md)
  fs::remove(json);
  REQUIRE(j.at("dma").at("bytes_read").get<uint64_t>() == t.read);
  REQUIRE(j.at("dma").at("bytes_written").get<uint64_t>() == t.written);
  // The DMA line's cycles run from the first launch (RunResult::launch_cycle; before it, setup).
  REQUIRE(j.at("cycles").get<uint64_t>() - j.value("launch_cycle", uint64_t{0}) == t.cycles);
  // Whole beats of the 8-byte nv_small atom; exactly the output region written.
  CHECK(t.read % 8 == 0);
  CHECK(t.read >= 2 * kOutBytes);
  CHECK(t.written == kOutBytes);
  CHECK(t.per_cycle == Approx(double(t.read + t.written) / double(t.cycles)).epsilon(1e-3));
  return t;
}

}  // namespace

TEST_CASE("mem bandwidth caps the DMA bytes per cycle, costs cycles and keeps results bit-exact", "[cli][mem]") {
  const Traffic free = run_layer("");
  // Unlimited, the layer moves more than 0.25 B/cycle over its run, so a 0.25 limit must bind.
  REQUIRE(double(free.read + free.written) > 0.25 * double(free.cycles));
  for (const double b : {2.5, 0.25}) {
    const Traffic lim = run_layer("--mem-bandwidth " + std::to_string(b));
    INFO("bandwidth " << b);
    // Against the bytes and cycles the report prints, not the ratio it computed.
    CHECK(double(lim.read + lim.written) <= b * double(lim.cycles));
    CHECK(lim.cycles >= free.cycles);
    if (b < 1) CHECK(lim.cycles > free.cycles);
  }
  // nv_full (32-byte beats, so B < one beat): a conv layer on the NVDLA core, cross mode.
  const std::string conv = kSrc + "/testvectors/layers/conv/full_int16_1x1_odd.json";
  Traffic full[2];
  for (int i = 0; i < 2; ++i) {
    const Cmd c = dlacosim("run " + conv + (i == 0 ? "" : " --mem-bandwidth 4"));
    INFO(c.out);
    REQUIRE(c.exit == 0);
    full[i] = dma_line(c.out);
    CHECK(full[i].read % 32 == 0);
    CHECK(full[i].written % 32 == 0);
  }
  CHECK(double(full[1].read + full[1].written) <= 4.0 * double(full[1].cycles));
  CHECK(double(full[0].read + full[0].written) > 4.0 * double(full[0].cycles));
  CHECK(full[1].cycles > full[0].cycles);
}

TEST_CASE("a long memory latency still passes bit-exact and takes more cycles", "[cli][mem]") {
  const Traffic base = run_layer("");
  const Traffic slow = run_layer("--mem-latency 64:256");
  CHECK(slow.cycles > base.cycles);
  const Cmd c = dlacosim("run " + kLayer + " --mem-latency 64:256 --mem-bandwidth 1");
  INFO(c.out);
  CHECK(c.exit == 0);
  CHECK(c.out.find("(latency 64:256, bandwidth 1 B/cycle)") != std::string::npos);
}

TEST_CASE("malformed memory options exit 2 naming the option and the rule", "[cli][mem]") {
  const std::string suite = kSrc + "/testvectors/suites/default.json";
  struct Case {
    std::string args;
    const char* option;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"run " + kLayer + " --mem-latency 5", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"run " + kLayer + " --mem-latency 9:3", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"run " + kLayer + " --mem-latency 0:3", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"run " + kLayer + " --mem-latency 4:5000", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"run " + kLayer + " --mem-bandwidth 0", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"run " + kLayer + " --mem-bandwidth x", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"run " + kLayer + " --mem-bandwidth 2.5x", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"run " + kLayer + " --mem-bandwidth -1", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"regress " + suite + " --mem-latency 9:3", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"regress " + suite + " --mem-bandwidth 0", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"bench sdp --mem-latency 5", "--mem-latency", "1 <= MIN <= MAX <= 4096"},
      {"bench conv --mem-bandwidth x", "--mem-bandwidth", "a number in [0.001, 65536]"},
      {"bench cmac --mem-latency 8:8", "--mem-latency", "no memory port"},
  };
  for (const Case& k : cases) {
    const Cmd c = dlacosim(k.args);
    INFO(k.args << "\n" << c.out);
    CHECK(c.exit == 2);
    CHECK(c.out.find(k.option) != std::string::npos);
    CHECK(c.out.find(k.rule) != std::string::npos);
  }
}

TEST_CASE("bench --json prints one JSON array whose figures agree", "[cli][bench]") {
  struct Case {
    std::string args;
    std::size_t count;
  };
  for (const Case& k : std::vector<Case>{{"bench cmac --ops 2000 --json", 3},
                                         {"bench lut --ops 4000 --json", 2},
                                         {"bench sdp --ops 2048 --json", 6},
                                         {"bench sdp --ops 2048 --json --mem-latency 64:256 --mem-bandwidth 1", 6}}) {
    const Cmd c = dlacosim(k.args, false);  // stdout only: nothing but the array
    INFO(k.args << "\n" << c.out);
    REQUIRE(c.exit == 0);
    const auto a = nlohmann::json::parse(c.out);
    REQUIRE(a.is_array());
    REQUIRE(a.size() == k.count);
    const bool limited = k.args.find("--mem-bandwidth") != std::string::npos;
    for (const auto& o : a) {
      INFO(o.dump());
      for (const char* f : {"unit", "config", "case", "cycles", "elements", "elements_per_cycle",
                            "nvdla_elements_per_cycle", "utilization", "wall_s", "mem_latency", "mem_bandwidth",
                            "dma_bytes_read", "dma_bytes_written"}) {
        CHECK(o.contains(f));
      }
      const std::string unit = o.at("unit");
      const auto cycles = o.at("cycles").get<uint64_t>();
      const auto elements = o.at("elements").get<uint64_t>();
      REQUIRE(cycles > 0);
      CHECK(o.at("elements_per_cycle").get<double>() == Approx(double(elements) / double(cycles)).epsilon(1e-12));
      CHECK(o.at("wall_s").get<double>() > 0);
      CHECK_FALSE(o.contains("winograd_speedup"));
      if (unit == "cmac") {
        // MACs: ops x ATOMIC_C x ATOMIC_K; NVDLA does ATOMIC_C x ATOMIC_K per cycle.
        const double macs_per_op = o.at("config") == "nv_small" ? 8.0 * 8 : (o.at("case") == "int8" ? 64.0 * 32 : 64.0 * 16);
        CHECK(elements == uint64_t(2000 * macs_per_op));
        CHECK(o.at("nvdla_elements_per_cycle").get<double>() == macs_per_op);
        const double u = o.at("utilization").get<double>();
        CHECK(u > 0);
        CHECK(u <= 1);
        CHECK(u == Approx(2000.0 / double(cycles)));
      } else {
        CHECK(o.at("utilization").is_null());
      }
      if (unit == "lut") {
        CHECK(elements == 4000);
        CHECK(o.at("nvdla_elements_per_cycle").is_null());
      }
      if (unit == "cmac" || unit == "lut") {
        CHECK(o.at("mem_latency").is_null());
        CHECK(o.at("dma_bytes_read").is_null());
        continue;
      }
      // sdp: 1x32x64 = 2048 elements (int8, or fp16 on nv_full), DMA traffic reported, the memory
      // options echoed.
      const bool fp16 = o.at("case").get<std::string>().ends_with(" fp16");
      CHECK(elements == 2048);
      CHECK(o.at("status") == "PASS");
      CHECK(o.at("mem_latency") == (limited ? nlohmann::json{64, 256} : nlohmann::json{4, 32}));
      CHECK(o.at("mem_bandwidth") == (limited ? nlohmann::json(1.0) : nlohmann::json(nullptr)));
      const auto rd = o.at("dma_bytes_read").get<uint64_t>(), wr = o.at("dma_bytes_written").get<uint64_t>();
      CHECK(wr == (fp16 ? 4096u : 2048u));  // the int8 / fp16 output cube, packed
      CHECK(rd >= wr);
      if (limited) CHECK(double(rd + wr) <= 1.0 * double(cycles));
      // Register operands move the input and the output, 2 bytes per element: NVDLA's rate is
      // min(throughput, interface / 2) = nv_small min(1, 8/2), nv_full min(4, 64/2); with 1 B/cycle 0.5.
      if (o.at("case") == "register operands") {
        const double want = limited ? 0.5 : (o.at("config") == "nv_small" ? 1.0 : 4.0);
        CHECK(o.at("nvdla_elements_per_cycle").get<double>() == Approx(want));
      }
    }
  }
}
