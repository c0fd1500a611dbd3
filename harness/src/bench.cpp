#include "harness/bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "harness/errors.hpp"
#include "harness/program_runner.hpp"
#include "harness/engine.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines {

std::vector<UnitHandler> all_handlers() {
  std::vector<UnitHandler> v;
  for (const Engine& e : engines()) {
    if (e.handler != nullptr) v.push_back(e.handler());
  }
  return v;
}

std::vector<std::string> bench_units() {
  std::vector<std::string> v;
  for (const Engine* e : bench_engines()) v.emplace_back(e->name);
  return v;
}

namespace {

std::string unit_list() {
  std::string list;
  for (const auto& u : bench_units()) list += (list.empty() ? "" : ", ") + u;
  return list;
}

nlohmann::json opt_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

const BenchSupport& bench_of(const std::string& unit) {
  const Engine* e = find_engine(unit);
  if (e == nullptr || !e->bench) {
    throw InputError("bench", unit, fmt::format("no benchmark for unit \"{}\" (known: {})", unit, unit_list()));
  }
  return *e->bench;
}

}  // namespace

std::vector<const golden::HwConfig*> bench_configs(const BenchOptions& opt,
                                                   std::vector<const golden::HwConfig*> defaults) {
  if (opt.configs.empty()) return defaults;
  std::vector<const golden::HwConfig*> v;
  for (const std::string& name : opt.configs) {
    if (name == "all") {
      for (const std::string& n : golden::config_names()) v.push_back(golden::find_config(n));
      continue;
    }
    const golden::HwConfig* c = golden::find_config(name);
    if (c == nullptr) {
      throw InputError("--config", name, "unknown configuration (" + golden::config_names_text() + ", or all)");
    }
    v.push_back(c);
  }
  return v;
}

std::vector<BenchCase> run_bench(const std::string& unit, const BenchOptions& opt) {
  const BenchSupport& b = bench_of(unit);
  if (!b.per_config && !opt.configs.empty()) {
    std::vector<std::string> with;
    for (const Engine* e : bench_engines()) {
      if (e->bench->per_config) with.emplace_back(e->name);
    }
    throw InputError("--config", "",
                     fmt::format("bench {} measures fixed cases on fixed configurations; --config applies to {}", unit,
                                 join_and(with)));
  }
  if (!b.memory_port && opt.mem_given) {
    std::vector<std::string> with;
    for (const Engine* e : bench_engines()) {
      if (e->bench->memory_port) with.emplace_back(e->name);
    }
    throw InputError("--mem-latency/--mem-bandwidth", "",
                     fmt::format("bench {} streams data straight into the unit, which has no memory port; the memory "
                                 "options apply to {}",
                                 unit, join_and(with)));
  }
  return b.run(opt);
}

std::string format_bench(const std::string& unit, const std::vector<BenchCase>& cases) {
  // The figures are not a `dlacosim run`'s: said first, so they reconcile (docs/CLI.md "Cycles,
  // elements and work").
  return "bench " + unit +
         ": every case on the RTL without back-pressure (stall 0), on the bench's seed and memory model; a `dlacosim "
         "run` of a layer file with a stall, or another seed or memory model, takes more cycles\n" +
         bench_of(unit).format(cases);
}

nlohmann::json bench_json(const std::vector<BenchCase>& cases) {
  nlohmann::json a = nlohmann::json::array();
  for (const BenchCase& c : cases) {
    nlohmann::json j{{"unit", c.unit},
                     {"config", c.config},
                     {"case", c.name},
                     {"element", c.element},
                     {"cycles", c.cycles},
                     {"elements", c.elements},
                     {"elements_per_cycle", c.elements_per_cycle()},
                     {"nvdla_elements_per_cycle", opt_json(c.nvdla_elements_per_cycle)},
                     {"utilization", opt_json(c.utilization)},
                     {"wall_s", c.wall_s},
                     {"status", c.status}};
    if (c.winograd_speedup) j["winograd_speedup"] = *c.winograd_speedup;
    j["mem_latency"] = c.mem ? nlohmann::json{c.mem->latency_min, c.mem->latency_max} : nlohmann::json(nullptr);
    j["mem_bandwidth"] = c.mem && !c.mem->unlimited() ? nlohmann::json(c.mem->bandwidth) : nlohmann::json(nullptr);
    j["dma_bytes_read"] = c.dma ? nlohmann::json(c.dma->bytes_read) : nlohmann::json(nullptr);
    j["dma_bytes_written"] = c.dma ? nlohmann::json(c.dma->bytes_written) : nlohmann::json(nullptr);
    for (const auto& [k, v] : c.extra.items()) j[k] = v;
    a.push_back(std::move(j));
  }
  return a;
}

RunResult run_bench_rtl(const Program& prog, const golden::HwConfig& cfg, const BenchOptions& opt, double& seconds,
                        const char* mode) {
  RunOptions ro;
  ro.mode = mode;
  ro.seed = opt.seed;
  ro.stall = 0.0;
  ro.sim.seed = opt.seed;
  ro.sim.watchdog = 200000;
  ro.mem = opt.mem;
  const auto t0 = std::chrono::steady_clock::now();
  RunResult rr = run_program_in_mode(prog, cfg, ro);
  seconds = seconds_since(t0);
  return rr;
}

LayerHeader bench_layer_header(const std::string& unit, const std::string& name, const golden::HwConfig& cfg,
                               uint64_t seed) {
  LayerHeader hd;
  hd.file = "bench-" + unit;
  hd.unit = unit;
  hd.name = name;
  hd.config = &cfg;
  hd.seed = seed;
  return hd;
}

double nvdla_interface_bytes(const golden::HwConfig& hw, const MemOptions& mem) {
  const double design = hw.dma_bits / 8.0;  // the memory interface: 64-bit nv_small ... 512-bit nv_full
  return mem.unlimited() ? design : std::min(design, mem.bandwidth);
}

std::string format_rate_table(const std::vector<BenchCase>& cases) {
  std::string out = fmt::format("{:<9} {:<20} {:>9} {:>9} {:>9} {:>9} {:>14} {:>7} {:>11} {:>8}\n", "config", "case",
                                "cube", "elements", "cycles", "elem/cyc", "NVDLA elem/cyc", "ratio", "sim elem/s",
                                "status");
  for (const BenchCase& c : cases) {
    const double nv = c.nvdla_elements_per_cycle.value_or(0);
    out += fmt::format("{:<9} {:<20} {:>9} {:>9} {:>9} {:>9.3f} {:>14.3g} {:>7.3f} {:>11.3g} {:>8}\n", c.config, c.name,
                       c.extra.at("cube").get<std::string>(), c.elements, c.cycles, c.elements_per_cycle(), nv,
                       nv > 0 ? c.elements_per_cycle() / nv : 0.0, c.num("sim_elements_per_s"), c.status);
  }
  return out;
}

double nvdla_rate(double throughput, double interface_bytes, uint64_t elements, uint64_t bytes) {
  if (bytes == 0) return throughput;
  return std::min(throughput, interface_bytes * static_cast<double>(elements) / static_cast<double>(bytes));
}

}  // namespace dla::harness::engines
