// `sdp` layers (docs/LAYER_FORMAT.md, "`sdp` layers"): the layer compiler's public face, for the
// tests and tools that want the register program itself rather than a run.
#pragma once

#include "harness/bench.hpp"

#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

// Compiles an `sdp` layer body into the register program a driver would issue (throws
// InputError naming file, JSON pointer and rule). With `expect_status`, the golden model runs the
// program once so the trailing reg_reads of D_STATUS and the D_PERF counters expect its values;
// without, they expect 0 (validation only).
[[nodiscard]] Program compile_sdp_layer(const LayerHeader& h, const JsonNode& root, bool expect_status = true);

// The layer as `at` places it (harness/placement.hpp): input, output and EW operand tensors at their
// bases (not loaded when placed), operand streams at the placed constants, SDP and SDP_RDMA in their
// groups; the status reads expect what the placement's device gives (it runs the layer).
[[nodiscard]] Program compile_sdp_layer(const LayerHeader& h, const JsonNode& root, const Placement& at);

// What the engine registers (its _engine.cpp).
// SDP layers: compiled into register programs (docs/LAYER_FORMAT.md, "`sdp` layers")
[[nodiscard]] UnitHandler sdp_handler();
[[nodiscard]] std::vector<BenchCase> bench_sdp(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_sdp(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
