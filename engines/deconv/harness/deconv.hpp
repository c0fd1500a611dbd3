// `deconv` layers (docs/LAYER_FORMAT.md, "`deconv` layers"; docs/DECONV.md): a transposed
// convolution compiled as NVDLA's compiler issues it -- the kernel split into sx x sy sub-kernels,
// one stride-1 direct convolution per sub-kernel writing its part of a channel-extended cube
// (sx*sy*K channels), then one RUBIK CONTRACT layer that interleaves them into the output cube.
// nv_full only (RUBIK exists there only).
#pragma once

#include "harness/bench.hpp"

#include <cstdint>
#include <vector>

#include "engines/rubik/golden/rubik.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "engines/conv/harness/conv.hpp"

namespace dla::harness::engines {

// The channel-extended cube (the sub-convolutions' outputs, RUBIK's input) starts here; the final
// output is at sdp::kOutputBase.
inline constexpr uint64_t kDeconvExtBase = 0xe000'0000ull;

struct CompiledDeconv {
  Program program;
  int out_w = 0, out_h = 0, k = 0;  // the output cube W' x H' x K
  uint64_t out_base = 0, out_line_stride = 0, out_surface_stride = 0;  // its feature layout (atom 32)
  int out_bpe = 1;
  int convolutions = 0;  // sub-kernel convolutions (sx * sy, less phases without a kept output line)
};

// Compiles a `deconv` layer body (throws InputError naming file, JSON pointer and rule).
[[nodiscard]] CompiledDeconv compile_deconv_layer(const LayerHeader& h, const JsonNode& root);
// The layer as `at` places it (harness/placement.hpp): the sub-convolutions read the placed input,
// the channel-extended cube and their weights are placed constants, RUBIK writes the placed
// output, every block in its placed group; run on the placement's device.
[[nodiscard]] CompiledDeconv compile_deconv_layer(const LayerHeader& h, const JsonNode& root, const Placement& at);

// The same layer's parts as separate programs (`bench deconv`, docs/DECONV.md "Bench"): each
// sub-kernel convolution as the layer's program issues it but alone (register group 0, its own
// golden device for the status reads), and the RUBIK CONTRACT alone over the channel-extended
// cube (pre-filled as in the layer's program; RUBIK's time does not depend on the bytes).
struct DeconvPhase {
  int px = 0, py = 0;  // output phase
  CompiledConv conv;
};
struct DeconvParts {
  std::vector<DeconvPhase> convolutions;
  Program contract;
  golden::RubikConfig contract_config;
};
[[nodiscard]] DeconvParts compile_deconv_parts(const LayerHeader& h, const JsonNode& root);

// What the engine registers (its _engine.cpp).
// Deconvolution, nv_full only: `deconv` layers compiled to sub-kernel convolutions and a RUBIK CONTRACT (engines/deconv/harness/deconv.cpp)
[[nodiscard]] UnitHandler deconv_handler();
// Deconvolution on the RTL against its parts run alone (engines/deconv/harness/deconv_bench.cpp)
[[nodiscard]] std::vector<BenchCase> bench_deconv(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_deconv(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
