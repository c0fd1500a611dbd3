// `cdp` layers (docs/LAYER_FORMAT.md, "`cdp` layers"): the layer compiler's public face, for the
// tests and tools that want the register program itself rather than a run.
#pragma once

#include "harness/bench.hpp"
#include "harness/golden_device.hpp"

#include "engines/cdp/golden/cdp.hpp"
#include "engines/cdp/harness/cdp_reference.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

// Fixed, aligned bases the compiler uses unless the layer names others ("input"/"output" "base").
inline constexpr uint64_t kCdpInputBase = cdp_ref::kInputBase;
inline constexpr uint64_t kCdpOutputBase = cdp_ref::kOutputBase;

// Compiles a `cdp` layer body into the register program a driver would issue (throws InputError
// naming file, JSON pointer and rule): the input image, S_POINTER, the S_LUT_* words and both
// tables through S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA, every writable D_ register of CDP_RDMA and
// CDP, D_OP_ENABLE of CDP then CDP_RDMA, wait_intr CDP_0, reads of the statistics registers
// (the LUT counters and D_OUT_SATURATION expected from the int64 reference, harness/cdp_reference.hpp;
// NaN/Inf counters 0) and a golden check of the output region.
[[nodiscard]] Program compile_cdp_layer(const LayerHeader& h, const JsonNode& root);
// The layer as `at` places it (harness/placement.hpp): input and output at the placed tensors (the
// input not loaded), CDP and CDP_RDMA in their groups, run on the placement's device.
[[nodiscard]] Program compile_cdp_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at);

// The decoded configuration the compiler programs (tests; the random generator).
[[nodiscard]] golden::CdpConfig cdp_layer_config(const LayerHeader& h, const JsonNode& root);

// What the engine registers (its _engine.cpp).
// CDP (LRN) through CDP_RDMA: `cdp` layers compiled to register programs (engines/cdp/harness/cdp.cpp)
[[nodiscard]] UnitHandler cdp_handler();
// CDP (LRN) from memory on the CDP RTL: elements per cycle against NVDLA's rate (engines/cdp/harness/cdp_bench.cpp)
[[nodiscard]] std::vector<BenchCase> bench_cdp(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_cdp(const std::vector<BenchCase>& cases);

// The golden device's unit of the engine (engines/cdp/harness/cdp_golden.cpp).
[[nodiscard]] GoldenDevice::Unit cdp_golden_unit();

}  // namespace dla::harness::engines
