// `pdp` layers (docs/LAYER_FORMAT.md, "`pdp` layers"): the layer compiler's public face, for the
// tests and tools that want the register program itself rather than a run.
#pragma once

#include <cstdint>

#include "harness/layer.hpp"
#include "harness/program.hpp"

namespace dla::harness::units {

// Fixed, aligned bases the compiler uses unless the layer names others ("input"/"output" "base").
inline constexpr uint64_t kPdpInputBase = 0x8000'0000ull;
inline constexpr uint64_t kPdpOutputBase = 0xc000'0000ull;

// Compiles a `pdp` layer body into the register program a driver would issue (throws InputError
// naming file, JSON pointer and rule): the input image, every writable D_ register of PDP_RDMA and
// PDP (split widths as NVDLA's compiler computes them, or as the layer gives them), D_OP_ENABLE of
// PDP then PDP_RDMA, wait_intr PDP_0, reads of the NaN/Inf counters (0) and a golden check of the
// output region.
[[nodiscard]] Program compile_pdp_layer(const LayerHeader& h, const JsonNode& root);

}  // namespace dla::harness::units
