// RTL coverage of a -DDLA_COVERAGE=ON build (scripts/coverage.sh, docs/COVERAGE.md). Sim hands
// every finished run's VerilatedContext to coverage_collect(); when the environment variable
// DLA_COVERAGE_DIR names a directory, the run's line, toggle and cover-point counts are added to
// one total per process, written at process exit to DLA_COVERAGE_DIR/dlacosim-<pid>-<n>.dat in
// Verilator's coverage format (merged by verilator_coverage). Without the variable, or in a build
// without coverage, nothing is collected or written.
#pragma once

#include <verilated.h>

namespace dla::harness {

// Call once per context, after the model's final() and before the model is destroyed (the
// context's coverage items point into the model).
void coverage_collect(VerilatedContext& ctx) noexcept;

}  // namespace dla::harness
