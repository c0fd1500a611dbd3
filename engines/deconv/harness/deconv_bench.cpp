// `dlacosim bench deconv`: a deconvolution's cycles on the RTL (nvdla_core and the RUBIK top over
// one memory, docs/DECONV.md §4) against the same work run as its parts: each sub-kernel
// stride-1 convolution alone and the RUBIK CONTRACT alone, one program each (docs/DECONV.md
// "Bench", docs/PERFORMANCE.md). Every program runs in cross mode, so a case passes only when the
// RTL's output equals the golden device's.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

struct Layer {
  int w, h, c, k, r, s, sx, sy;
  const char* precision;
};

// The layers: kernel larger than the stride (3 over 2), equal to it (3 over 3), a larger 4 over 2
// layer, and int16 with sx != sy.
constexpr Layer kLayers[] = {{16, 16, 32, 32, 3, 3, 2, 2, "int8"},
                             {16, 16, 32, 32, 3, 3, 3, 3, "int8"},
                             {28, 28, 64, 32, 4, 4, 2, 2, "int8"},
                             {16, 8, 32, 16, 4, 3, 3, 2, "int16"}};

std::string layer_name(const Layer& l) {
  return fmt::format("{}x{}x{} -> {} k{}x{} s{}x{} {}", l.w, l.h, l.c, l.k, l.s, l.r, l.sx, l.sy, l.precision);
}

RunResult run_cross(const Program& prog, const golden::HwConfig& cfg, const BenchOptions& opt, double& seconds) {
  return run_bench_rtl(prog, cfg, opt, seconds, "cross");
}

std::string status_of(const RunResult& rr) {
  return rr.status == Status::Pass ? "PASS" : fmt::format("{}: {}", status_name(rr.status), rr.message);
}

BenchCase base_case(const golden::HwConfig& cfg, const BenchOptions& opt, std::string name, const RunResult& rr,
                    double sec) {
  BenchCase b;
  b.unit = "deconv";
  b.config = cfg.name;
  b.name = std::move(name);
  b.cycles = rr.cycles;
  b.wall_s = sec;
  b.mem = opt.mem;
  b.dma = rr.dma;
  b.status = status_of(rr);
  return b;
}

}  // namespace

std::vector<BenchCase> bench_deconv(const BenchOptions& opt) {
  if (opt.ops != 0) {
    throw InputError("--ops", std::to_string(opt.ops),
                     "bench deconv runs fixed layers (docs/PERFORMANCE.md); it takes no --ops");
  }
  const golden::HwConfig& cfg = golden::nv_full();
  const double interface = nvdla_interface_bytes(cfg, opt.mem);
  std::vector<BenchCase> cases;
  for (const Layer& l : kLayers) {
    const std::string lname = layer_name(l);
    const nlohmann::ordered_json random{{"random", nlohmann::ordered_json::object()}};
    nlohmann::ordered_json doc{{"unit", "deconv"},
                               {"config", cfg.name},
                               {"seed", opt.seed},
                               {"precision", l.precision},
                               {"input", {{"w", l.w}, {"h", l.h}, {"c", l.c}, {"data", random}}},
                               {"weights", {{"k", l.k}, {"r", l.r}, {"s", l.s}, {"data", random}}},
                               {"stride", {{"x", l.sx}, {"y", l.sy}}}};
    const auto jd = parse_json_text("bench-deconv.json", doc.dump(1));
    const LayerHeader hd = bench_layer_header("deconv", lname, cfg, opt.seed);
    const CompiledDeconv whole = compile_deconv_layer(hd, JsonNode::root(jd));
    const DeconvParts parts = compile_deconv_parts(hd, JsonNode::root(jd));
    const golden::Precision prec = *golden::parse_precision(l.precision);
    const int mac_units = cfg.atomic_c * cfg.atomic_k(prec);

    // The parts, one program each: the sub-kernel convolutions, then the CONTRACT.
    std::vector<BenchCase> part_cases;
    uint64_t macs = 0, parts_cycles = 0, max_part = 0;
    double nvdla_cycles = 0;  // NVDLA's rate on each part, the parts one after the other
    for (const DeconvPhase& ph : parts.convolutions) {
      const golden::ConvConfig& c = ph.conv.conv;
      const uint64_t m = static_cast<uint64_t>(c.output.w) * static_cast<uint64_t>(c.output.h) *
                         static_cast<uint64_t>(c.kernels) * static_cast<uint64_t>(c.input.c) *
                         static_cast<uint64_t>(c.kernel_h) * static_cast<uint64_t>(c.kernel_w);
      const uint64_t bytes =
          c.in_layout.region_bytes(c.input) + golden::conv_derived(c, cfg).weight_bytes + ph.conv.out_bytes;
      double sec = 0;
      const RunResult rr = run_cross(ph.conv.program, cfg, opt, sec);
      BenchCase b = base_case(cfg, opt, fmt::format("{} / conv phase x{} y{}", lname, ph.px, ph.py), rr, sec);
      b.element = "MAC";
      b.elements = m;
      b.nvdla_elements_per_cycle = nvdla_rate(mac_units, interface, m, bytes);
      b.utilization = rr.cycles != 0 ? static_cast<double>(m) / (static_cast<double>(rr.cycles) * mac_units) : 0.0;
      b.extra = {{"layer", lname},
                 {"part", "conv"},
                 {"cube", fmt::format("{}x{}x{} -> {}x{}x{}, {}x{} kernel", c.input.w, c.input.h, c.input.c, c.output.w,
                                      c.output.h, c.kernels, c.kernel_w, c.kernel_h)},
                 {"layer_bytes", bytes}};
      macs += m;
      parts_cycles += rr.cycles;
      max_part = std::max(max_part, rr.cycles);
      nvdla_cycles += static_cast<double>(m) / *b.nvdla_elements_per_cycle;
      part_cases.push_back(std::move(b));
    }
    {
      const golden::RubikConfig& rc = parts.contract_config;
      const int bpe = rc.precision == golden::RubikPrecision::Int16 ? 2 : 1;
      const uint64_t surfaces = (static_cast<uint64_t>(rc.out_channels) * bpe + 31) / 32;
      const uint64_t atoms = static_cast<uint64_t>(rc.width) * static_cast<uint64_t>(rc.height) *
                             static_cast<uint64_t>(rc.sx) * static_cast<uint64_t>(rc.sy) * surfaces;
      double sec = 0;
      const RunResult rr = run_cross(parts.contract, cfg, opt, sec);
      BenchCase b = base_case(cfg, opt, lname + " / contract", rr, sec);
      b.element = "atom";
      b.elements = atoms;
      // RUBIK: each atom read and written (docs/PERFORMANCE.md, RUBIK)
      b.nvdla_elements_per_cycle = nvdla_rate(std::numeric_limits<double>::infinity(), interface, atoms, 64 * atoms);
      b.extra = {{"layer", lname},
                 {"part", "contract"},
                 {"cube", fmt::format("{} sub-cubes of {}x{}x{}", rc.sx * rc.sy, rc.width, rc.height, rc.out_channels)},
                 {"layer_bytes", 64 * atoms}};
      parts_cycles += rr.cycles;
      max_part = std::max(max_part, rr.cycles);
      nvdla_cycles += static_cast<double>(atoms) / *b.nvdla_elements_per_cycle;
      part_cases.push_back(std::move(b));
    }

    double sec = 0;
    const RunResult rr = run_cross(whole.program, cfg, opt, sec);
    BenchCase b = base_case(cfg, opt, lname, rr, sec);
    b.element = "MAC";
    b.elements = macs;
    b.nvdla_elements_per_cycle = static_cast<double>(macs) / nvdla_cycles;
    b.utilization = rr.cycles != 0 ? static_cast<double>(macs) / (static_cast<double>(rr.cycles) * mac_units) : 0.0;
    b.extra = {{"layer", lname},
               {"part", "whole"},
               {"cube", fmt::format("{}x{}x{} -> {}x{}x{}", l.w, l.h, l.c, whole.out_w, whole.out_h, whole.k)},
               {"convolutions", parts.convolutions.size()},
               {"parts_cycles", parts_cycles},
               {"largest_part_cycles", max_part},
               {"whole_over_parts",
                parts_cycles != 0 ? static_cast<double>(rr.cycles) / static_cast<double>(parts_cycles) : 0.0},
               {"nvdla_cycles", nvdla_cycles},
               {"deconv_macs", static_cast<uint64_t>(l.w) * l.h * l.c * l.k * l.r * l.s}};
    cases.push_back(std::move(b));
    for (BenchCase& p : part_cases) cases.push_back(std::move(p));
  }
  return cases;
}

std::string format_bench_deconv(const std::vector<BenchCase>& cases) {
  std::string out;
  for (const BenchCase& c : cases) {
    if (c.extra.at("part") == "whole") {
      out += fmt::format(
          "deconv {} {} ({}): {} cycles, parts {} cycles one after the other, whole / parts {:.3f}; "
          "{} MACs ({} sub-kernel convolutions), utilization {:.1f}%, NVDLA's rate {:.0f} MAC/cycle ({:.0f} "
          "cycles); {}\n",
          c.config, c.name, c.extra.at("cube").get<std::string>(), c.cycles, c.extra.at("parts_cycles").get<uint64_t>(),
          c.num("whole_over_parts"), c.elements, c.extra.at("convolutions").get<uint64_t>(),
          100.0 * c.utilization.value_or(0), c.nvdla_elements_per_cycle.value_or(0), c.num("nvdla_cycles"), c.status);
      continue;
    }
    const std::string part = c.name.substr(c.name.rfind(" / ") + 3);
    out += fmt::format("  {:<18} {:<40} {:>8} cycles {:>10} {}s {:>9.2f}/cycle{} {}\n", part,
                       c.extra.at("cube").get<std::string>(), c.cycles, c.elements, c.element,
                       c.elements_per_cycle(),
                       c.utilization ? fmt::format(" (utilization {:.1f}%)", 100.0 * *c.utilization) : "", c.status);
  }
  out += "cycles: from reset to the last step of each program (CSB programming, waits and status reads included); "
         "every program in cross mode (PASS: the RTL's output equals the golden device's)\n";
  return out;
}

}  // namespace dla::harness::engines
