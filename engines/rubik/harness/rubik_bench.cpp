// `dlacosim bench rubik`: the RUBIK RTL's rate (rtl/top/nvdla_rubik_top), 32-byte atoms written
// per cycle for each mode and precision, against NVDLA's rate: every atom written is read once, so
// at most half the memory interface (docs/PERFORMANCE.md, docs/RUBIK.md "RTL").
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

struct Case {
  const char* mode;
  const char* precision;
  int w, h, c, sx, sy;
};

}  // namespace

std::vector<BenchCase> bench_rubik(const BenchOptions& opt) {
  // 256 KiB moved each way per case by default; `--ops N` scales the height (about N atoms).
  const int atoms = opt.ops != 0 ? static_cast<int>(std::clamp<uint64_t>(opt.ops, 2048, 262144)) : 8192;
  const int h = std::max(1, atoms / 512);  // 512 atoms per line of every case below
  const Case cases_in[] = {{"contract", "int8", 128, h, 64, 2, 2}, {"split", "int8", 256, h, 64, 1, 1},
                           {"merge", "int8", 256, h, 64, 1, 1},    {"split", "int16", 256, h, 32, 1, 1},
                           {"merge", "int16", 256, h, 32, 1, 1}};
  const golden::HwConfig& cfg = golden::nv_full();
  std::vector<BenchCase> cases;
  for (const Case& k : cases_in) {
    // CONTRACT: sx*sy sub-cubes of W x H x C/(sx*sy); SPLIT / MERGE: one W x H x C cube.
    const int cube_c = std::string_view(k.mode) == "contract" ? k.c / (k.sx * k.sy) : k.c;
    nlohmann::ordered_json doc{{"unit", "rubik"},        {"config", cfg.name},
                               {"seed", opt.seed},       {"mode", k.mode},
                               {"precision", k.precision}, {"cube", {{"w", k.w}, {"h", k.h}, {"c", cube_c}}}};
    if (k.sx > 1 || k.sy > 1) doc["stride"] = {{"x", k.sx}, {"y", k.sy}};
    doc["input"] = {{"data", {{"random", nlohmann::ordered_json::object()}}}};
    doc["output"] = nlohmann::ordered_json::object();
    const std::string cube = fmt::format("{}x{}x{}", k.w, k.h, cube_c);
    const std::string name = k.sx > 1 || k.sy > 1 ? fmt::format("{} {} {}x{}", k.mode, k.precision, k.sx, k.sy)
                                                  : fmt::format("{} {}", k.mode, k.precision);
    const auto jd = parse_json_text("bench-rubik.json", doc.dump(1));
    const LayerHeader hd = bench_layer_header("rubik", name, cfg, opt.seed);
    const Program prog = compile_rubik_layer(hd, JsonNode::root(jd));
    double sec = 0;
    const RunResult rr = run_bench_rtl(prog, cfg, opt, sec);
    const uint64_t written = rr.dma ? rr.dma->bytes_written / 32 : 0;
    const uint64_t moved = rr.dma ? rr.dma->bytes_read + rr.dma->bytes_written : 0;
    BenchCase b;
    b.unit = "rubik";
    b.config = cfg.name;
    b.name = name;
    b.element = "atom";
    b.cycles = rr.cycles;
    b.elements = written;
    // No unit limit but the interface: each atom written was read once.
    b.nvdla_elements_per_cycle =
        nvdla_rate(std::numeric_limits<double>::infinity(), nvdla_interface_bytes(cfg, opt.mem), written, moved);
    b.wall_s = sec;
    b.mem = opt.mem;
    b.dma = rr.dma;
    b.status = std::string(status_name(rr.status));
    b.extra = {{"cube", cube},
               {"layer_bytes", moved},
               {"sim_elements_per_s", static_cast<double>(written) / sec}};
    cases.push_back(std::move(b));
  }
  return cases;
}

std::string format_bench_rubik(const std::vector<BenchCase>& cases) {
  std::string out = format_rate_table(cases);
  out += "one layer per case; an element is a 32-byte atom written (CONTRACT 2x2 output, SPLIT plane atoms, MERGE "
         "cube atoms); NVDLA's rate is half its memory interface (each atom read and written)\n";
  return out;
}

}  // namespace dla::harness::engines
