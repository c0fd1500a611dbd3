// `conv` layers with batches (`"batch": N`) or compressed weights (`"weights": {"compressed":
// true}`), nv_full only (docs/CDMA_MODES.md "Compiler", docs/LAYER_FORMAT.md): the batch
// registers of CDMA / CSC / CACC / SDP with the input and output batch strides, the compressor
// (golden::compress_weights: WMB, WGS and the packed stream from the uncompressed weight image),
// the bank split with the bank reserved for WMB. Refusals name the JSON pointer and the rule. The
// RTL refuses both: such layers run with --mode golden.
#pragma once

#include <cstdint>
#include <optional>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "harness/json_reader.hpp"
#include "engines/conv/harness/conv_banks.hpp"
#include "engines/sdp/harness/sdp_compiler.hpp"

namespace dla::harness::engines {

inline constexpr uint64_t kWmbBase = 0xd800'0000ull;  // weight mask bits (weights at 0xd000'0000)
inline constexpr uint64_t kWgsBase = 0xdc00'0000ull;  // weight group sizes

// "batch": N, or {"n": N, "input_stride": bytes, "output_stride": bytes}.
struct BatchLayer {
  int n = 1;
  std::optional<uint64_t> input_stride;   // CDMA D_BATCH_STRIDE (default: the packed cube's bytes)
  std::optional<uint64_t> output_stride;  // SDP D_DST_BATCH_STRIDE (default: the packed output's bytes)
};

// Parses root's "batch" (absent: one batch). Refuses configurations without batches, Winograd,
// image input, W-fold and a pool post-op.
[[nodiscard]] BatchLayer parse_batch(const JsonNode& root, const golden::HwConfig& hw, bool wino, bool image);

// Whether "weights" asks for compression ("compressed": true); refuses configurations without it,
// Winograd and W-fold.
[[nodiscard]] bool parse_compressed(const JsonNode& root, const JsonNode& weights, const golden::HwConfig& hw,
                                    bool wino);

// The input batch stride into c.in_layout (checked against the cube at /batch/input_stride), and
// the CBUF rule for batches and compressed weights (no Split-H): the data banks of every batch
// plus one weight bank, within the banks (the last one reserved for WMB when compressed).
void apply_batch_input(const JsonNode& root, const BatchLayer& b, golden::ConvConfig& c);
void check_modes_cbuf(const JsonNode& root, const golden::ConvConfig& c, const golden::HwConfig& hw, bool compressed);

// SDP's batches and output batch stride (checked at /batch/output_stride).
void apply_batch_output(const JsonNode& root, const BatchLayer& b, sdp::Layer& s);

// Compresses the uncompressed weight image `uncompressed` (its first total_bytes) of `c`;
// refuses all-zero weights (an empty stream, WEIGHT_BYTES 0) at /weights/data.
[[nodiscard]] golden::CompressedWeights compress_layer_weights(const JsonNode& root, const golden::ConvConfig& c,
                                                               const std::vector<uint8_t>& uncompressed);
// The compressed stream's registers into c (WEIGHT_BYTES, WMB / WGS bases, WMB_BYTES).
void apply_compression(golden::ConvConfig& c, const golden::CompressedWeights& cw);

// D_BANK for a batched or compressed layer (NVDLA's rules): the data banks of every batch, the
// weights (compressed: the largest group's WGS + 128 bytes at least, all if they fit) in the rest,
// the last bank left to WMB when compressed. Refused at /weights when they do not fit.
[[nodiscard]] ConvBanks modes_bank_split(const JsonNode& root, const golden::ConvConfig& c, const golden::HwConfig& hw,
                                         const golden::CompressedWeights* cw);

// The batch and compression fields over conv_register_words' words (batch 1 and uncompressed
// weights leave them unwritten).
void apply_modes_regs(BlockWords& w, const golden::ConvConfig& c);

}  // namespace dla::harness::engines
