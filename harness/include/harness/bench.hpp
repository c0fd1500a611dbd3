// Benchmarks (`dlacosim bench`): the options, the measured cases and the helpers every engine's
// bench uses; each engine registers its own (include/harness/engine.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/layer.hpp"
#include "harness/mem_model.hpp"
#include "harness/program.hpp"

namespace dla::harness::engines {

[[nodiscard]] std::vector<UnitHandler> all_handlers();

struct BenchOptions {
  uint64_t ops = 0;  // 0: the unit's default amount of work
  uint64_t seed = 1;
  MemOptions mem;          // the DMA memory model of units with a memory port (sdp, conv)
  bool mem_given = false;  // --mem-latency or --mem-bandwidth was given (refused by units without DMA)
  std::vector<std::string> files;  // `bench network NET.json...`: the networks (other units take none)
  std::vector<std::string> configs;  // --config: the configurations to measure (empty: the unit's own cases)
};

// One measured case of a bench: the figures the text tables and the JSON both print
// (docs/PERFORMANCE.md says what each unit's element and NVDLA rate are).
struct BenchCase {
  std::string unit, config, name;
  std::string element;  // what is counted: "MAC", "lookup", "element"
  uint64_t cycles = 0;
  uint64_t elements = 0;
  std::optional<double> nvdla_elements_per_cycle;  // NVDLA's rate on this case, null where not meaningful
  std::optional<double> utilization;               // MAC units: ideal cycles / cycles
  std::optional<double> winograd_speedup;          // Winograd comparison cases: direct / Winograd cycles
  double wall_s = 0;                               // wall time of the simulated part
  std::optional<MemOptions> mem;                   // units with a DMA port
  std::optional<DmaTraffic> dma;                   // where an RTL device with a DMA server ran
  std::string status = "PASS";                     // or what went wrong
  nlohmann::json extra = nlohmann::json::object();  // unit-specific figures (the text tables use them)
  [[nodiscard]] double elements_per_cycle() const {
    return cycles != 0 ? static_cast<double>(elements) / static_cast<double>(cycles) : 0.0;
  }
  [[nodiscard]] double num(const char* key) const { return extra.at(key).get<double>(); }
};

// Runs the unit's benchmark (also used for docs/PERFORMANCE.md). Throws InputError for an
// unknown unit, or memory options given to a unit without a memory port.
[[nodiscard]] std::vector<BenchCase> run_bench(const std::string& unit, const BenchOptions& opt);
// The unit's human-readable tables, and the JSON array (one object per case).
[[nodiscard]] std::string format_bench(const std::string& unit, const std::vector<BenchCase>& cases);
[[nodiscard]] nlohmann::json bench_json(const std::vector<BenchCase>& cases);
[[nodiscard]] std::vector<std::string> bench_units();
// The configurations a bench measures: --config's (opt.configs, "all" for every one), else the
// unit's own `defaults`. Throws InputError naming an unknown configuration.
[[nodiscard]] std::vector<const golden::HwConfig*> bench_configs(const BenchOptions& opt,
                                                                 std::vector<const golden::HwConfig*> defaults);
// NVDLA's memory interface in bytes per cycle (nv_small 64-bit, nv_full 512-bit), capped by a
// --mem-bandwidth limit; and the rate min(throughput, interface x elements / bytes) a case of
// `elements` moving `bytes` reaches on it.
[[nodiscard]] double nvdla_interface_bytes(const golden::HwConfig& hw, const MemOptions& mem);
[[nodiscard]] double nvdla_rate(double throughput, double interface_bytes, uint64_t elements, uint64_t bytes);
// The table of a from-memory rate bench (pdp, cdp): config, case, cube, elements, cycles,
// elements per cycle, NVDLA's rate, their ratio, simulated elements per second, status.
[[nodiscard]] std::string format_rate_table(const std::vector<BenchCase>& cases);

// A bench's register program on the RTL alone (`mode` "rtl"; "cross": with the golden device,
// whose checks then compare): no back-pressure, the bench's seed and memory model, a
// 200,000-cycle watchdog; `seconds` gets the run's wall time.
[[nodiscard]] RunResult run_bench_rtl(const Program& prog, const golden::HwConfig& cfg, const BenchOptions& opt,
                                      double& seconds, const char* mode = "rtl");
// The header of a layer a bench generates (file "bench-<unit>", the bench's seed).
[[nodiscard]] LayerHeader bench_layer_header(const std::string& unit, const std::string& name,
                                             const golden::HwConfig& cfg, uint64_t seed);
}  // namespace dla::harness::engines
