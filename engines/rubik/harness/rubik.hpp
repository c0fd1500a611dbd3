// `rubik` layers (docs/LAYER_FORMAT.md, "`rubik` layers"): the layer compiler's public face, for
// the tests and tools that want the register program itself rather than a run.
#pragma once

#include "harness/bench.hpp"
#include "harness/golden_device.hpp"

#include <cstdint>

#include "engines/rubik/golden/rubik.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

// Fixed, aligned bases the compiler uses unless the layer names others ("input"/"output" "base").
inline constexpr uint64_t kRubikInputBase = 0x8000'0000ull;
inline constexpr uint64_t kRubikOutputBase = 0xc000'0000ull;

// Compiles a `rubik` layer body into the register program a driver would issue (throws InputError
// naming file, JSON pointer and rule): the input image, the output region pre-filled, S_POINTER,
// every writable D_ register of RBK, D_OP_ENABLE, wait_intr RUBIK_0 and a golden check of the
// output region.
[[nodiscard]] Program compile_rubik_layer(const LayerHeader& h, const JsonNode& root);
// The layer as `at` places it (harness/placement.hpp): input and output at the placed tensors (the
// input not loaded), RBK in its group, run on the placement's device.
[[nodiscard]] Program compile_rubik_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at);

class ProgramBuilder;
// S_POINTER (group 0) and every writable D_ register of RBK for `c`, as compile_rubik_layer writes
// them (the `deconv` compiler's CONTRACT layer).
void emit_rubik_registers(ProgramBuilder& pb, const golden::RubikConfig& c, int group = 0);

// The decoded configuration the compiler programs (tests; the random generator).
[[nodiscard]] golden::RubikConfig rubik_layer_config(const LayerHeader& h, const JsonNode& root);

// What the engine registers (its _engine.cpp).
// RUBIK RTL rate per mode and precision (engines/rubik/harness/rubik_bench.cpp)
[[nodiscard]] std::vector<BenchCase> bench_rubik(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_rubik(const std::vector<BenchCase>& cases);
// RUBIK (RBK) layout transforms, nv_full only: `rubik` layers compiled to register programs (engines/rubik/harness/rubik.cpp)
[[nodiscard]] UnitHandler rubik_handler();

// The golden device's unit of the engine (engines/rubik/harness/rubik_golden.cpp).
[[nodiscard]] GoldenDevice::Unit rubik_golden_unit();

}  // namespace dla::harness::engines
