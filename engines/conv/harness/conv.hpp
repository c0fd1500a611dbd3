// `conv` layers (docs/LAYER_FORMAT.md, "`conv` layers"): one convolution (direct, or Winograd on
// nv_full) described by what it computes, compiled into the register program NVDLA's driver would
// issue for CDMA, CSC, CMAC_A/B and CACC flying into SDP (with the `sdp` layers' post-ops).
// docs/CONV.md "Compiler", docs/WINOGRAD.md.
#pragma once

#include "harness/bench.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/placement.hpp"

namespace dla::harness::engines {

// D_BANK: CBUF banks for the input (DATA_BANK + 1) and the weights (WEIGHT_BANK + 1).
struct ConvBanks {
  int data = 0;
  int weight = 0;
};

// This RTL's CBUF (engines/conv/rtl/conv_cbuf.sv, docs/CONV_RTL.md "CDMA and CBUF"): NVDLA's banks x
// entries, a row = one entry = one channel block (ATOMIC_C elements at the widest precision),
// split by D_BANK as NVDLA splits it (data banks 0..DATA_BANK, then the weight banks, a ring
// over the weight stream like NVDLA's). The data part holds one row per channel block of one
// (h, w) position (Winograd: of 2x2 extended positions) and never packs several positions into
// one entry, so where NVDLA packs (nv_large / nv_full entries wider than C x bpe of a position)
// the input needs more of its rows than NVDLA's ENTRY_PER_SLICE x H entries.
[[nodiscard]] int64_t rtl_data_rows(const golden::ConvConfig& c, const golden::HwConfig& hw);
// Banks the input needs on this RTL: NVDLA's (ceil(EPS x H / entries)) or, when more, this
// RTL's (ceil(rtl_data_rows / entries)).
[[nodiscard]] int rtl_data_banks(const golden::ConvConfig& c, const golden::HwConfig& hw);

// Why this RTL cannot run the convolution `c` with D_BANK `banks` (empty reason: it can): banks
// beyond CBUF, data banks that hold less than the input (NVDLA's rule, or this RTL's unpacked
// layout), weight banks that hold less than one kernel group (NVDLA's rule). The RTL device
// refuses register programs by it; the `conv` compiler's bank split never breaks it.
struct RtlCbufProblem {
  bool weights = false;  // about the weights (else the input or the banks)
  std::string reason;
};
[[nodiscard]] RtlCbufProblem rtl_cbuf_problem(const golden::ConvConfig& c, const golden::HwConfig& hw,
                                              const ConvBanks& banks);

// The driver's bank split: the whole input (ceil(EPS * H / entries per bank), or this RTL's
// need when larger, rtl_data_banks), and all weights when they fit in the rest, else the rest
// (at least one kernel group must fit; the caller checks).
[[nodiscard]] ConvBanks conv_bank_split(const golden::ConvConfig& c, const golden::HwConfig& hw);

// Register words of the D_ groups of CDMA, CSC, CMAC_A, CMAC_B and CACC (block -> offset -> word)
// for `c` on `hw`, the output (as SDP will write it, for CACC's copy of the address and strides)
// at `out`. Only the fields a direct convolution uses are set; the rest are 0.
using BlockWords = std::map<std::string, std::map<uint32_t, uint32_t>>;
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
