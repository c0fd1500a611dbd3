// The CMAC engine: what it registers (its _engine.cpp).
#pragma once

#include "harness/bench.hpp"
#include "harness/layer.hpp"

namespace dla::harness::engines {

// CMAC
[[nodiscard]] UnitHandler cmac_handler();
[[nodiscard]] std::vector<BenchCase> bench_cmac(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_cmac(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
