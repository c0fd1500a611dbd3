// NVDLA memory layouts: where each element of a feature cube or a direct-convolution weight set
// lives in memory (../shared/reference/nvdla-arithmetic.md §8, conv-pipeline.md §2). This is the
// only place that address math lives; units, harness and tests all go through it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "golden/cube.hpp"

namespace dla::golden {

// Byte sinks/sources by absolute address, so the layout code stays independent of any memory model.
using ByteWriter = std::function<void(uint64_t addr, uint8_t byte)>;
using ByteReader = std::function<uint8_t(uint64_t addr)>;

// Feature data in the "NC/xHWx atom" format: channels split into surfaces of Ca = atom_bytes/bpe
// channels; inside a surface, atoms are laid out w-fastest then h, each atom holding Ca channels.
struct FeatureLayout {
  uint64_t base = 0;
  uint64_t line_stride = 0;
  uint64_t surface_stride = 0;
  uint64_t batch_stride = 0;
  int atom_bytes = 8;  // nv_small 8, nv_medium_512 16, nv_full 32
  int bpe = 1;         // bytes per element: 1 (int8) or 2 (int16/fp16)

  // Layout with no gaps: line = W atoms, surface = H lines, batch = all surfaces.
  static FeatureLayout packed(const CubeShape& shape, int atom_bytes, int bpe, uint64_t base = 0);
  // Layout at the strides a unit's registers give (line, surface and batch strides in bytes).
  static FeatureLayout strided(uint64_t base, uint64_t line_stride, uint64_t surface_stride, int atom_bytes, int bpe,
                               uint64_t batch_stride = 0);

  // Ca, channels held by one atom.
  [[nodiscard]] int channels_per_atom() const { return atom_bytes / bpe; }
  // Number of surfaces for `channels` channels (the last one may be partly padding).
  [[nodiscard]] int surfaces(int channels) const;
  // Byte address of element (n, c, h, w).
  [[nodiscard]] uint64_t address(int n, int c, int h, int w) const;
  // Bytes from base to the end of the last atom of the last batch: every surface including the
  // padded lanes of the last atom and all line/surface gaps, (N-1) batch strides plus the extent
  // of the last batch. [base, base + region_bytes) is the range a unit writing `shape` touches.
  [[nodiscard]] uint64_t region_bytes(const CubeShape& shape) const;
  // Empty when the layout can hold `shape` as the hardware requires, else a description of the
  // first problem found (bad atom/bpe, unaligned base or stride, overlapping lines/surfaces/batches).
  [[nodiscard]] std::string validate(const CubeShape& shape) const;
};

// Writes every element of `cube` (truncated to bpe bytes, little endian) through `write`.
// Padded lanes of the last atom and stride gaps are not written; the caller decides their content.
void store_cube(const FeatureLayout& layout, const Cube<int64_t>& cube, const ByteWriter& write);

// Reads a cube of `shape` through `read`, sign-extending each bpe-byte element.
[[nodiscard]] Cube<int64_t> load_cube(const FeatureLayout& layout, const CubeShape& shape, const ByteReader& read);

// The region [base, base + region_bytes(shape)) as a byte vector (index 0 = layout.base) holding
// `cube`; padded lanes and gaps are `fill`.
[[nodiscard]] std::vector<uint8_t> store_cube_bytes(const FeatureLayout& layout, const Cube<int64_t>& cube,
                                                    uint8_t fill = 0);

// Reads a cube back from a region whose byte 0 is at layout.base. Throws std::out_of_range when
// the region is shorter than region_bytes(shape).
[[nodiscard]] Cube<int64_t> load_cube_bytes(const FeatureLayout& layout, const CubeShape& shape,
                                            std::span<const uint8_t> region);

// Uncompressed direct-convolution weights (K kernels of C x R x S). Byte order, outermost first:
// kernel group of atomic_k kernels (last may be partial) -> channel block of atomic_c channels
// (last holds C mod atomic_c, packed, not padded) -> r -> s -> kernel in group -> channel in block.
struct WeightLayout {
  int k = 1;
  int c = 1;
  int r = 1;  // kernel height
  int s = 1;  // kernel width
  int atomic_k = 8;  // nv_small 8; nv_full 32 (int8) / 16 (int16, fp16)
  int atomic_c = 8;  // nv_small 8; nv_full 64
  int bpe = 1;

  // Byte offset (from the weight base address) of weight (kernel, channel, row, col).
  [[nodiscard]] uint64_t offset(int kernel, int channel, int row, int col) const;
  // R*S*C*K*bpe: the bytes that carry weights.
  [[nodiscard]] uint64_t total_bytes() const;
  // total_bytes rounded up to 128, as programmed in CDMA/CSC D_WEIGHT_BYTES.
  [[nodiscard]] uint64_t padded_bytes() const;
  // Empty when all sizes are positive, else a description of the problem.
  [[nodiscard]] std::string validate() const;
};

// Writes weights given as a cube with n = kernel, c = channel, h = row (r), w = col (s), each
// truncated to bpe bytes little endian, at `base` + offset(). The 128-byte tail padding is not written.
void store_weights(const WeightLayout& layout, const Cube<int64_t>& weights, uint64_t base, const ByteWriter& write);

}  // namespace dla::golden
