// `conv` layers (docs/LAYER_FORMAT.md, "`conv` layers"): one convolution (direct, or Winograd on
// nv_full) described by what it computes, compiled into the register program NVDLA's driver would
// issue for CDMA, CSC, CMAC_A/B and CACC flying into SDP (with the `sdp` layers' post-ops).
// docs/CONV.md "Compiler", docs/WINOGRAD.md.
#pragma once

#include "harness/bench.hpp"

#include <cstdint>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "engines/conv/harness/conv_banks.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

// Register words of the D_ groups of CDMA, CSC, CMAC_A, CMAC_B and CACC (block -> offset -> word)
// for `c` on `hw`, the output (as SDP will write it, for CACC's copy of the address and strides)
// at `out`. Only the fields a direct convolution uses are set; the rest are 0.
[[nodiscard]] BlockWords conv_register_words(const golden::ConvConfig& c, const golden::HwConfig& hw,
                                             const ConvBanks& banks, const golden::FeatureLayout& out);

// Winograd mode: overwrites the fields golden::wino_compile lists (block, register, field, value
// as written) in `w`, creating the word of a block not yet in `w` (e.g. SDP's
// D_FEATURE_MODE_CFG.WINOGRAD) from 0. docs/WINOGRAD.md "conv layers in Winograd mode".
void apply_wino_regs(BlockWords& w, const std::vector<golden::WinoRegWrite>& regs);

// A compiled `conv` layer: the program and where its output lands.
struct CompiledConv {
  Program program;
  golden::ConvConfig conv;          // the convolution as compiled (mode Winograd for "mode": "winograd")
  golden::FeatureLayout out_layout;  // SDP's output (base, strides, atom, element size)
  golden::CubeShape out_shape;       // (1, K, H', W')
  uint64_t out_bytes = 0;            // the output region checked against golden
  int bands = 1;                     // hardware layers (Split-H bands), in alternate register groups
  bool bands_share_weights = false;  // the bands after the first reuse the weights in CBUF (WEIGHT_REUSE)
};

// Compiles a `conv` layer body (throws InputError naming file, JSON pointer and rule). With
// `expect_status`, the golden model runs the program once so the trailing reg_reads of CACC and
// SDP status / counters expect its values; without, they expect 0 (validation only).
[[nodiscard]] CompiledConv compile_conv_layer(const LayerHeader& h, const JsonNode& root, bool expect_status = true);

// A convolution compiled as one step of a larger program (a network's layer, a `deconv` layer's
// sub-kernel convolutions), as `at` places it (harness/placement.hpp): input, output (the pooled
// tensor with "pool") and SDP's EW operand at the placed tensors, weights and operand streams at
// the placed constants, each block's first hardware layer in its placed group; the status
// pre-run continues on the placement's device (a fresh device when null).
[[nodiscard]] CompiledConv compile_conv_layer(const LayerHeader& h, const JsonNode& root, const Placement& at);

// What the engine registers (its _engine.cpp).
// Convolution layers: compiled into register programs (docs/LAYER_FORMAT.md, "`conv` layers")
[[nodiscard]] UnitHandler conv_handler();

}  // namespace dla::harness::engines
