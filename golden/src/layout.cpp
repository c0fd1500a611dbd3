#include "golden/layout.hpp"

#include <algorithm>
#include <stdexcept>

#include "golden/arith.hpp"

namespace dla::golden {

namespace {

constexpr uint64_t kWeightBytesAlign = 128;

uint64_t u64(int v) { return static_cast<uint64_t>(v); }

std::string hex(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return "0x" + out;
}

// Low `bpe` bytes of the two's-complement value, little endian (the hardware truncates the same way).
void write_element(uint64_t addr, int64_t value, int bpe, const ByteWriter& write) {
  const auto raw = static_cast<uint64_t>(value);
  for (int i = 0; i < bpe; ++i) write(addr + u64(i), static_cast<uint8_t>(raw >> (8 * i)));
}

int64_t read_element(uint64_t addr, int bpe, const ByteReader& read) {
  uint64_t raw = 0;
  for (int i = 0; i < bpe; ++i) raw |= uint64_t{read(addr + u64(i))} << (8 * i);
  return sign_extend(raw, 8 * bpe);
}

}  // namespace

FeatureLayout FeatureLayout::packed(const CubeShape& shape, int atom_bytes, int bpe, uint64_t base) {
  FeatureLayout l;
  l.base = base;
  l.atom_bytes = atom_bytes;
  l.bpe = bpe;
  l.line_stride = u64(shape.w) * u64(atom_bytes);
  l.surface_stride = u64(shape.h) * l.line_stride;
  l.batch_stride = u64(l.surfaces(shape.c)) * l.surface_stride;
  return l;
}

FeatureLayout FeatureLayout::strided(uint64_t base, uint64_t line_stride, uint64_t surface_stride, int atom_bytes,
                                     int bpe, uint64_t batch_stride) {
  FeatureLayout l;
  l.base = base;
  l.line_stride = line_stride;
  l.surface_stride = surface_stride;
  l.batch_stride = batch_stride;
  l.atom_bytes = atom_bytes;
  l.bpe = bpe;
  return l;
}

int FeatureLayout::surfaces(int channels) const {
  const int ca = channels_per_atom();
  return (channels + ca - 1) / ca;
}

uint64_t FeatureLayout::address(int n, int c, int h, int w) const {
  const int ca = channels_per_atom();
  return base + u64(n) * batch_stride + u64(c / ca) * surface_stride + u64(h) * line_stride + u64(w) * u64(atom_bytes) +
         u64(c % ca) * u64(bpe);
}

uint64_t FeatureLayout::region_bytes(const CubeShape& shape) const {
  const uint64_t batch_extent = u64(surfaces(shape.c) - 1) * surface_stride + u64(shape.h - 1) * line_stride +
                                u64(shape.w) * u64(atom_bytes);
  return u64(shape.n - 1) * batch_stride + batch_extent;
}

std::string FeatureLayout::validate(const CubeShape& shape) const {
  if (shape.n < 1 || shape.c < 1 || shape.h < 1 || shape.w < 1) return "cube dimensions must be >= 1";
  if (bpe < 1 || bpe > 8) return "bpe must be 1..8, got " + std::to_string(bpe);
  if (atom_bytes < bpe || atom_bytes % bpe != 0)
    return "atom_bytes " + std::to_string(atom_bytes) + " is not a multiple of bpe " + std::to_string(bpe);
  const uint64_t atom = u64(atom_bytes);
  if (base % atom != 0) return "base " + hex(base) + " is not aligned to the " + std::to_string(atom_bytes) + "-byte atom";
  // A stride only matters when some index multiplies it, so unused strides (e.g. the surface
  // stride of a single-surface cube, which trace tests program with arbitrary values) are not checked.
  auto check = [&](const char* name, uint64_t stride, uint64_t min_stride, bool used) -> std::string {
    if (!used) return {};
    if (stride < min_stride) return std::string(name) + " " + hex(stride) + " < required " + hex(min_stride);
    if (stride % atom != 0) return std::string(name) + " " + hex(stride) + " is not a multiple of the atom";
    return {};
  };
  std::string err = check("line_stride", line_stride, u64(shape.w) * atom, shape.h > 1);
  if (err.empty()) err = check("surface_stride", surface_stride, u64(shape.h) * line_stride, surfaces(shape.c) > 1);
  // Batches must not overlap: the stride must cover one batch's extent (base to end of its last
  // atom), which uses only the strides that matter for this shape.
  if (err.empty()) err = check("batch_stride", batch_stride, region_bytes({1, shape.c, shape.h, shape.w}), shape.n > 1);
  return err;
}

void store_cube(const FeatureLayout& layout, const Cube<int64_t>& cube, const ByteWriter& write) {
  const CubeShape& sh = cube.shape();
  for (int n = 0; n < sh.n; ++n)
    for (int c = 0; c < sh.c; ++c)
      for (int h = 0; h < sh.h; ++h)
        for (int w = 0; w < sh.w; ++w) write_element(layout.address(n, c, h, w), cube.at(n, c, h, w), layout.bpe, write);
}

Cube<int64_t> load_cube(const FeatureLayout& layout, const CubeShape& shape, const ByteReader& read) {
  Cube<int64_t> cube(shape);
  for (int n = 0; n < shape.n; ++n)
    for (int c = 0; c < shape.c; ++c)
      for (int h = 0; h < shape.h; ++h)
        for (int w = 0; w < shape.w; ++w) cube.at(n, c, h, w) = read_element(layout.address(n, c, h, w), layout.bpe, read);
  return cube;
}

std::vector<uint8_t> store_cube_bytes(const FeatureLayout& layout, const Cube<int64_t>& cube, uint8_t fill) {
  std::vector<uint8_t> region(layout.region_bytes(cube.shape()), fill);
  store_cube(layout, cube, [&](uint64_t addr, uint8_t byte) { region.at(addr - layout.base) = byte; });
  return region;
}

Cube<int64_t> load_cube_bytes(const FeatureLayout& layout, const CubeShape& shape, std::span<const uint8_t> region) {
  const uint64_t need = layout.region_bytes(shape);
  if (region.size() < need)
    throw std::out_of_range("load_cube_bytes: region holds " + std::to_string(region.size()) + " bytes, cube needs " +
                            std::to_string(need));
  return load_cube(layout, shape, [&](uint64_t addr) { return region[addr - layout.base]; });
}

uint64_t WeightLayout::offset(int kernel, int channel, int row, int col) const {
  const int group = kernel / atomic_k;
  const int kernels_in_group = std::min(atomic_k, k - group * atomic_k);
  const int block = channel / atomic_c;
  const int channels_in_block = std::min(atomic_c, c - block * atomic_c);
  const uint64_t rs = u64(r) * u64(s);
  // Every earlier group is full (atomic_k kernels of all C channels); every earlier block in this
  // group is full (atomic_c channels); the current block is packed to its real size.
  const uint64_t elements = u64(group) * u64(atomic_k) * rs * u64(c) +
                            u64(block) * u64(atomic_c) * rs * u64(kernels_in_group) +
                            (u64(row) * u64(s) + u64(col)) * u64(channels_in_block) * u64(kernels_in_group) +
                            u64(kernel % atomic_k) * u64(channels_in_block) + u64(channel % atomic_c);
  return elements * u64(bpe);
}

uint64_t WeightLayout::total_bytes() const { return u64(r) * u64(s) * u64(c) * u64(k) * u64(bpe); }

uint64_t WeightLayout::padded_bytes() const {
  return (total_bytes() + kWeightBytesAlign - 1) / kWeightBytesAlign * kWeightBytesAlign;
}

std::string WeightLayout::validate() const {
  if (k < 1 || c < 1 || r < 1 || s < 1) return "weight dimensions must be >= 1";
  if (atomic_k < 1 || atomic_c < 1) return "atomic_k and atomic_c must be >= 1";
  if (bpe < 1 || bpe > 8) return "bpe must be 1..8, got " + std::to_string(bpe);
  return {};
}

void store_weights(const WeightLayout& layout, const Cube<int64_t>& weights, uint64_t base, const ByteWriter& write) {
  const CubeShape expect{layout.k, layout.c, layout.r, layout.s};
  if (!(weights.shape() == expect)) throw std::invalid_argument("store_weights: cube shape does not match the layout");
  for (int k = 0; k < layout.k; ++k)
    for (int c = 0; c < layout.c; ++c)
      for (int r = 0; r < layout.r; ++r)
        for (int s = 0; s < layout.s; ++s)
          write_element(base + layout.offset(k, c, r, s), weights.at(k, c, r, s), layout.bpe, write);
}

}  // namespace dla::golden
