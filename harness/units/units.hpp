// The units the harness can run, and their benchmarks.
#pragma once

#include <string>
#include <vector>

#include "harness/layer.hpp"

namespace dla::harness::units {

[[nodiscard]] std::vector<UnitHandler> all_handlers();

struct BenchOptions {
  uint64_t ops = 0;  // 0: the unit's default amount of work
  uint64_t seed = 1;
};

// Runs the unit's benchmark and returns a human-readable report (also used for
// docs/PERFORMANCE.md). Throws InputError for an unknown unit.
[[nodiscard]] std::string run_bench(const std::string& unit, const BenchOptions& opt);
[[nodiscard]] std::vector<std::string> bench_units();

// CMAC
[[nodiscard]] UnitHandler cmac_handler();
[[nodiscard]] std::string bench_cmac(const BenchOptions& opt);
// LUT engine (SDP and CDP variants; harness/units/lut.hpp has the job API)
[[nodiscard]] UnitHandler lut_handler();
[[nodiscard]] std::string bench_lut(const BenchOptions& opt);
// Winograd PRA and POA (docs/WINOGRAD.md)
[[nodiscard]] UnitHandler wino_handler();
// SDP layers: compiled into register programs (docs/LAYER_FORMAT.md, "`sdp` layers")
[[nodiscard]] UnitHandler sdp_handler();
[[nodiscard]] std::string bench_sdp(const BenchOptions& opt);
// Convolution layers: compiled into register programs (docs/LAYER_FORMAT.md, "`conv` layers")
[[nodiscard]] UnitHandler conv_handler();
// Direct convolution on the NVDLA core RTL: utilization (harness/units/conv_bench.hpp)
[[nodiscard]] std::string bench_conv(const BenchOptions& opt);
// Register programs (validated here; executed by units with a CSB port).
[[nodiscard]] UnitHandler program_handler();

}  // namespace dla::harness::units
