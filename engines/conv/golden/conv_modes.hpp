// nv_full's CDMA input modes for feature input: multi-batch (D_BATCH_NUMBER up to 32 in CDMA, CSC
// and CACC, D_BATCH_STRIDE) and compressed weights (D_WEIGHT_FORMAT = COMPRESSED: the weight
// mask bits WMB, the weight group sizes WGS and the packed non-zero weights).
//
// Spec: ../shared/reference/cdma-input-modes.md §4 (batch) and §5 (compression), §7
// (uncertainties). Written from the spec text, never from RTL. Decisions where it leaves a choice,
// and what is not done: docs/CDMA_MODES.md.
//
// A ConvConfig with batches has input.n = output.n = N and the input's D_BATCH_STRIDE in
// in_layout.batch_stride; each image is convolved on its own (the arithmetic is per image; the
// batch changes CBUF layout, CSC's order and the CACC -> SDP delivery order only). Compressed
// weights (ConvConfig::compression) are decompressed from the memory images the registers
// describe into the uncompressed weight stream, which CSC then uses as ever.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/layout.hpp"

namespace dla::golden {

inline constexpr int kMaxConvBatches = 32;  // D_BATCH_NUMBER.BATCHES: 5 bits (value - 1)

// Whether `hw` has multi-batch and weight compression (nv_full; BATCH_DISABLE and no
// compression on the master configurations), and the sentence that refuses them elsewhere.
[[nodiscard]] bool has_batch_and_compression(const HwConfig& hw);

// ---- multi-batch (§4) -------------------------------------------------------------------------

// CSC's stripe lengths of one kernel group with N > 1 batches (§4.3, nvdlav1): the normal length
// 16 / 8 / 4 / 2 / 1 for N = 1 / 2-3 / 4-7 / 8-15 / 16-32; a stripe of the normal length starts
// while more than twice the normal length of positions remain, the rest forms the last stripe
// (at most twice the normal length; always 1 for N >= 16).
[[nodiscard]] int batch_stripe_normal(int batches);
[[nodiscard]] std::vector<int> batch_stripes(int positions, int batches);

// One SDP write of a batched convolution's output (§4.4): `bytes` (32 or 64) at `addr`, of
// batch `batch`, surface, line and first position `w`.
struct BatchWrite {
  uint64_t addr = 0;
  int bytes = 0;
  int batch = 0, surface = 0, line = 0, w = 0;
};
// The CACC -> SDP delivery order and SDP's write requests (§4.4): per surface, line and group
// (position w paired with w + 1 when its address without the batch term is 64-byte aligned and w
// is not the line's last; 1x1 outputs never pair), every batch in turn. N = 1: raster order of
// single atoms.
[[nodiscard]] std::vector<BatchWrite> batch_write_order(const FeatureLayout& out, const CubeShape& shape);
// Who decides the pairs (NVIDIA's C model, docs/CDMA_MODES.md "Pairs"): CACC, at each line start,
// from its own D_DATAOUT_ADDR + D_LINE_STRIDE x g, g counting lines over all surfaces (surface x H'
// + line); SDP writes each group at its own address out.address(b, s, h, w). Where the two decide
// differently at some line, SDP writes the atoms CACC delivers to the wrong places (NVDLA assumes
// 64-byte-aligned addresses and strides in batch mode). Returns "" where they agree at every line
// (always for one batch or a width of 1), else the rule and the first line where they differ.
[[nodiscard]] std::string batch_pairing_problem(uint64_t cacc_base, uint64_t cacc_line_stride,
                                                const FeatureLayout& out, const CubeShape& shape);

// ---- weight compression (§5) ------------------------------------------------------------------

// The three memory images of a compressed weight stream (§5.2).
struct CompressedWeights {
  std::vector<uint8_t> data;     // the non-zero elements in stream order, zero-padded to WEIGHT_BYTES
  std::vector<uint8_t> wmb;      // mask bit n = element n != 0, LSB first, zero-padded to WMB_BYTES
  std::vector<uint32_t> wgs;     // per kernel group: bytes of its non-zero elements (nnz * bpe)
  uint64_t nonzero = 0;          // non-zero elements
  [[nodiscard]] std::vector<uint8_t> wgs_bytes() const;  // WGS as little-endian uint32 words
};
// Compresses the uncompressed weight stream `stream` (elements of `bpe` bytes, little endian, in
// the order they are stored uncompressed) whose kernel groups hold `group_elements` elements each
// (the last may be short). WEIGHT_BYTES = data.size(), WMB_BYTES = wmb.size().
[[nodiscard]] CompressedWeights compress_weights(const std::vector<uint8_t>& stream, int bpe,
                                                 uint64_t group_elements);

// Elements of the uncompressed weight stream of `c` (K * BYTE_PER_KERNEL / bpe) and of one full
// kernel group (ATOMIC_K * BYTE_PER_KERNEL / bpe).
[[nodiscard]] uint64_t weight_stream_elements(const ConvConfig& c);
[[nodiscard]] uint64_t weight_group_elements(const ConvConfig& c);
// WMB_BYTES for `c`: roundup(ceil(elements / 8), 128) (§5.1).
[[nodiscard]] uint64_t wmb_bytes_for(const ConvConfig& c);

// The decompressed weights (§5.3): CSC's view of the stream, i.e. the uncompressed weight image
// (weight_layout().total_bytes() bytes from weight_base), rebuilt from WMB, the data stream and
// checked against WGS, WEIGHT_BYTES, WMB_BYTES and the weight banks.
struct DecompressedWeights {
  std::vector<uint8_t> bytes;            // element n at n * bpe
  std::vector<uint64_t> group_nonzero;   // non-zero elements per kernel group
  std::vector<std::string> problems;     // what the hardware would reject or hang on, one sentence each
};
[[nodiscard]] DecompressedWeights decompress_weights(const ConvConfig& c, const HwConfig& hw, const ByteReader& read);

// ---- rules -----------------------------------------------------------------------------------

// Why the model cannot run the batch / compression part of `c` (register-only rules), one
// sentence each naming the rule; modes_hw_problems adds the configuration's.
[[nodiscard]] std::vector<std::string> modes_unsupported(const ConvConfig& c);
// One kernel group's mask bits in bank 15 (WMB entries + 1 <= 256, §5.3): "" when they fit, else
// the rule broken (modes_unsupported's sentence; the layer compiler refuses with it too).
[[nodiscard]] std::string wmb_bank_problem(const ConvConfig& c);
[[nodiscard]] std::vector<std::string> modes_hw_problems(const ConvConfig& c, const HwConfig& hw);

// Register decoding (called by decode_conv): CDMA / CSC / CACC D_BATCH_NUMBER (equal), CDMA
// D_BATCH_STRIDE, CDMA / CSC D_WEIGHT_FORMAT (equal), D_WMB_ADDR / D_WMB_BYTES (CDMA = CSC),
// D_WGS_ADDR, the bank reserved for WMB, CSC D_POST_Y_EXTENSION outside image mode.
void decode_conv_modes(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c);

}  // namespace dla::golden
