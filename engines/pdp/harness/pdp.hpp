// `pdp` layers (docs/LAYER_FORMAT.md, "`pdp` layers"): the layer compiler's public face, for the
// tests and tools that want the register program itself rather than a run.
#pragma once

#include "harness/bench.hpp"

#include <cstdint>

#include "engines/pdp/golden/pdp.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

// Fixed, aligned bases the compiler uses unless the layer names others ("input"/"output" "base").
inline constexpr uint64_t kPdpInputBase = 0x8000'0000ull;
inline constexpr uint64_t kPdpOutputBase = 0xc000'0000ull;

// Compiles a `pdp` layer body into the register program a driver would issue (throws InputError
// naming file, JSON pointer and rule): the input image, every writable D_ register of PDP_RDMA and
// PDP (split widths as NVDLA's compiler computes them, or as the layer gives them), D_OP_ENABLE of
// PDP then PDP_RDMA, wait_intr PDP_0, reads of the NaN/Inf counters (0) and a golden check of the
// output region.
[[nodiscard]] Program compile_pdp_layer(const LayerHeader& h, const JsonNode& root);
// The layer as `at` places it (harness/placement.hpp): input and output at the placed tensors (the
// input not loaded), PDP and PDP_RDMA in their groups, run on the placement's device.
[[nodiscard]] Program compile_pdp_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at);

// A packed layout of `shape` (atom and element size given) with the optional "line_stride",
// "surface_stride" and "base" of `node` (the "input" / "output" objects of pdp and cdp layers),
// checked against NVDLA's layout rules and the compiler's region limit; `what` names it in errors.
[[nodiscard]] golden::FeatureLayout feature_layout_of(const JsonNode& node, const golden::CubeShape& shape, int atom,
                                                      int bpe, uint64_t default_base, const char* what);

class ProgramBuilder;

// The "pool" object of a `pdp` layer or of a `conv` layer's pool post-op (method, kernel, stride,
// pad; docs/LAYER_FORMAT.md) onto `c`, whose input cube `in` and precision are set: the method,
// kernel, strides, pads, PAD_VALUE_{n}X (n x the pad value, as NVDLA's firmware programs them),
// RECIP_KERNEL_* (floor(2^16 / k)) and the output cube. Returns the pad value. Throws InputError
// naming the JSON pointer and the rule.
int64_t parse_pool(const JsonNode& pool, golden::PdpConfig& c);

// S_POINTER of PDP_RDMA and PDP, then every writable D_ register of PDP and, off-flying, of
// PDP_RDMA (on the fly from SDP, PDP_RDMA is not programmed: FLYING_MODE = ON_FLYING).
void emit_pdp_registers(ProgramBuilder& pb, const golden::PdpConfig& c, int group = 0, int rdma_group = 0);

// What the engine registers (its _engine.cpp).
// Pooling layers: compiled into register programs (docs/LAYER_FORMAT.md, "`pdp` layers")
[[nodiscard]] UnitHandler pdp_handler();
// PDP from memory on the PDP RTL: elements per cycle against NVDLA's rate (engines/pdp/harness/pdp_bench.cpp)
[[nodiscard]] std::vector<BenchCase> bench_pdp(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_pdp(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
