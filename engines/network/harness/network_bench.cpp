// `dlacosim bench network NET.json...` (docs/NETWORKS.md "Figures"): each network's program on the
// RTL alone (no back-pressure, the bench's memory model) in both schedules: total cycles of the
// ping-pong program and of the sequential one (the cycles ping-pong saves, measured), each layer's
// cycles (the ping-pong program run up to the layer's check, minus the run up to the previous
// layer's: a layer's share includes the next layer's programming that overlaps it), MAC utilization
// of the convolutions (K x C x R x S x W' x H' / (ATOMIC_C x ATOMIC_K) over the layer's cycles),
// frames per second at 1 GHz, and the simulation's wall time.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "harness/errors.hpp"
#include "harness/layer.hpp"
#include "engines/network/harness/network.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

constexpr double kClockHz = 1e9;  // the clock frames per second are stated at

}  // namespace

std::vector<BenchCase> bench_network(const BenchOptions& opt) {
  if (opt.files.empty()) {
    throw InputError("bench network", "", "give one or more network files, e.g. testvectors/networks/lenet5.json");
  }
  std::vector<BenchCase> cases;
  for (const std::string& f : opt.files) {
    const LoadedLayer l = load_layer(f);
    if (l.header.unit != "network") throw InputError(f, "/unit", "bench network takes network files");
    const golden::HwConfig& cfg = *l.header.config;
    const CompiledNetwork pp = compile_network(l.header, l.root(), true);
    const CompiledNetwork seq = compile_network(l.header, l.root(), false);
    double wall = 0, wall_seq = 0;
    const RunResult a = run_bench_rtl(pp.program, cfg, opt, wall);
    const RunResult b = run_bench_rtl(seq.program, cfg, opt, wall_seq);
    BenchCase c;
    c.unit = "network";
    c.config = cfg.name;
    c.name = l.header.name;
    c.element = "MAC";
    // From the first launch: CBUF's flush after reset is not the network's time.
    c.cycles = a.cycles_since_launch();
    c.wall_s = wall;
    c.mem = opt.mem;
    c.dma = a.dma;
    c.status = a.status != Status::Pass ? fmt::format("ping-pong: {}", status_name(a.status))
               : b.status != Status::Pass ? fmt::format("sequential: {}", status_name(b.status))
                                          : "PASS";
    const auto mac_rate = [&](golden::Precision p) {
      return static_cast<double>(cfg.atomic_c) * static_cast<double>(cfg.atomic_k(p));
    };
    nlohmann::json layers = nlohmann::json::array();
    uint64_t before = a.launch_cycle;
    double ideal = 0;
    for (const int li : pp.order) {
      const NetLayer& L = pp.layers[static_cast<std::size_t>(li)];
      Program prefix = pp.program;
      prefix.steps.resize(L.end_step);
      double s = 0;
      const RunResult r = run_bench_rtl(prefix, cfg, opt, s);
      const uint64_t cyc = r.cycles - std::min(r.cycles, before);
      before = r.cycles;
      nlohmann::json j{{"name", L.name}, {"op", L.op}, {"cycles", cyc}, {"overlapped", L.overlapped}};
      if (L.macs != 0) {
        const golden::Precision p = pp.tensors[static_cast<std::size_t>(L.input)].prec;
        const double lideal = static_cast<double>(L.macs) / mac_rate(p);
        ideal += lideal;
        c.elements += L.macs;
        j["macs"] = L.macs;
        j["mac_utilization"] = cyc != 0 ? lideal / static_cast<double>(cyc) : 0.0;
      }
      layers.push_back(std::move(j));
    }
    if (ideal > 0 && c.cycles != 0) c.utilization = ideal / static_cast<double>(c.cycles);
    const uint64_t seq_cycles = b.cycles_since_launch();
    c.extra = {{"sequential_cycles", seq_cycles},
               {"pingpong_saved_cycles", static_cast<int64_t>(seq_cycles) - static_cast<int64_t>(c.cycles)},
               {"clock_hz", kClockHz},
               {"frames_per_s", c.cycles != 0 ? kClockHz / static_cast<double>(c.cycles) : 0.0},
               {"sequential_wall_s", wall_seq},
               {"layers", std::move(layers)}};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string format_bench_network(const std::vector<BenchCase>& cases) {
  std::string out;
  for (const BenchCase& c : cases) {
    out += fmt::format("network {} ({}): {} cycles ping-pong, {} sequential (saved {}), {:.0f} frames/s at 1 GHz, "
                       "MAC utilization {}, {:.2f} s wall, {}\n",
                       c.name, c.config, c.cycles, c.extra["sequential_cycles"].get<uint64_t>(),
                       c.extra["pingpong_saved_cycles"].get<int64_t>(), c.num("frames_per_s"),
                       c.utilization ? fmt::format("{:.3f}", *c.utilization) : std::string("-"), c.wall_s, c.status);
    out += fmt::format("  {:<12} {:<5} {:>10} {:>12} {:>8} {}\n", "layer", "op", "cycles", "MACs", "util", "overlapped");
    for (const auto& L : c.extra["layers"]) {
      out += fmt::format("  {:<12} {:<5} {:>10} {:>12} {:>8} {}\n", L["name"].get<std::string>(),
                         L["op"].get<std::string>(), L["cycles"].get<uint64_t>(),
                         L.contains("macs") ? std::to_string(L["macs"].get<uint64_t>()) : "-",
                         L.contains("mac_utilization") ? fmt::format("{:.3f}", L["mac_utilization"].get<double>()) : "-",
                         L["overlapped"].get<bool>() ? "yes" : "no");
    }
  }
  out += "a layer's cycles: the ping-pong program up to its check minus up to the previous layer's check; no "
         "back-pressure\n";
  return out;
}

}  // namespace dla::harness::engines
