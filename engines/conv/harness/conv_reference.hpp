// An int64 reference for `conv` layers, independent of the golden model: the layer read from its
// JSON (docs/LAYER_FORMAT.md, "`conv` layers"), its expected output computed with plain integer
// loops -- the convolution (padding, pad value, stride, dilation, CDMA input converter), CACC's
// clip (round half away from zero, 32-bit saturation) and the SDP post-ops (X stages BS / BN, the
// EW stage without LUT or EQL, the output converter) as ../shared/reference/nvdla-arithmetic.md
// §2-3 state them. Nothing from golden/ and nothing of the layer compiler is used for expected
// values; input, weight and operand values are the JSON's "values", or the harness's value
// generator (resolve_values) for "random" / "file", so they are the values the layer runs with.
// A Winograd layer ("mode": "winograd") computes the same convolution and is judged the same way;
// so does an image-input layer (the pixel formats' channels and widths from
// ../shared/reference/cdma-input-modes.md table 1.2, written here).
// A "pool" post-op pools SDP's output with the independent pooling reference (pdp_reference.hpp).
// Used by `dlacosim random` (docs/RANDOM.md) and by the RTL tests (tests/rtl/conv_reference.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/json_reader.hpp"
#include "harness/memory.hpp"
#include "harness/reference_facts.hpp"

namespace dla::harness::conv_ref {

// Saturates v to a signed `bits`-bit integer.
[[nodiscard]] int64_t clamp_bits(int64_t v, int bits);
// v / 2^s rounded half away from zero (s >= 0; v / 2^s for s >= 63 is 0). Throws std::range_error
// for |v| >= 2^62, which no legal layer reaches.
[[nodiscard]] int64_t rhaz(int64_t v, int s);

// One SDP operand: a register value, or values per kernel / per element from memory.
struct Operand {
  bool used = false, mem = false, per_element = false;
  int64_t reg = 0;
  std::vector<int64_t> mem_values;
  bool cvt = false;  // EW input converter
  int64_t cvt_offset = 0, cvt_scale = 1;
  int cvt_truncate = 0;
  [[nodiscard]] int64_t at(int k, int y, int x, int oh, int ow) const {
    if (!mem) return reg;
    return mem_values[static_cast<std::size_t>(per_element ? (int64_t{k} * oh + y) * ow + x : k)];
  }
};

struct Stage {
  bool on = false;
  std::string alu_algo = "sum";
  int alu_shift = 0, truncate = 0;
  Operand alu, mul;
  bool prelu = false, relu = false;
};

struct Layer {
  std::string name, config;
  bool wino = false;  // "mode": "winograd" (the same convolution)
  std::string wino_scheme = "exact";
  int pra_truncate = 0;
  int W = 0, H = 0, C = 0, K = 0, R = 0, S = 0;
  int pl = 0, pr = 0, pt = 0, pb = 0, sx = 1, sy = 1, dx = 1, dy = 1, clip = 0;
  int64_t pad_value = 0;
  // Image input ("input": {"format": ...}, docs/IMAGE_INPUT.md): C is the format's channels (CBUF
  // order); in holds the components as stored; each element is a component (10-bit packed formats:
  // left-justified, colour << 6, alpha << 14) zero- or sign-extended by `pixel_signed`, converted
  // with the mean of its channel in place of the offset when `mean` is set, else taken as the raw
  // PROC element; left / right pad pixels take pad_value, top / bottom rows pad_value_tb.
  bool image = false, pixel_signed = false, packed10 = false, has_mean = false;
  int container_bits = 8;
  int64_t mean[4] = {0, 0, 0, 0};
  int64_t pad_value_tb = 0;
  bool int16 = false;
  bool cvt = false;
  int64_t cvt_offset = 0, cvt_scale = 1;
  int cvt_truncate = 0;
  std::vector<int64_t> in, wt;  // (c, h, w) and (k, c, r, s)
  bool out16 = false;
  int64_t out_offset = 0, out_scale = 1;
  int out_shift = 0;
  uint64_t out_line = 0, out_surf = 0;  // 0: packed
  // Batches ("batch": N or {"n", "output_stride"}, docs/CDMA_MODES.md): `in` holds N images, image
  // after image; the reference convolves one image (batch_image); image b's output is at
  // base + b * out_batch_stride() (the packed cube unless "output_stride" is given).
  int N = 1;
  uint64_t out_batch = 0;  // 0: packed
  Stage bs, bn, ew;
  bool ew_lut = false, ew_eql = false;  // what this reference does not compute (see applicable())
  struct Pool {
    bool on = false;
    std::string method;  // "average", "max", "min"
    int kw = 1, kh = 1, sw = 1, sh = 1, pl = 0, pr = 0, pt = 0, pb = 0;
    int64_t pad_value = 0;
  } pool;  // "pool" post-op: SDP's output pooled on the fly
  [[nodiscard]] int ow() const { return (W + pl + pr - ((S - 1) * dx + 1)) / sx + 1; }
  [[nodiscard]] int oh() const { return (H + pt + pb - ((R - 1) * dy + 1)) / sy + 1; }
  // The layer's output cube: the convolution's, or the pooled one with a pool post-op.
  [[nodiscard]] int out_w() const { return pool.on ? (ow() + pool.pl + pool.pr - pool.kw) / pool.sw + 1 : ow(); }
  [[nodiscard]] int out_h() const { return pool.on ? (oh() + pool.pt + pool.pb - pool.kh) / pool.sh + 1 : oh(); }
  // Memory atom in bytes: NVDLA's table (harness/reference_facts.hpp), not golden's description.
  [[nodiscard]] int atom() const { return reference_atom_bytes(config); }
  [[nodiscard]] bool post_ops() const { return bs.on || bn.on || ew.on; }
  // The bytes of one output cube as read_output addresses it, and the distance between batches.
  [[nodiscard]] uint64_t out_line_stride() const {
    return out_line != 0 ? out_line : static_cast<uint64_t>(out_w()) * static_cast<uint64_t>(atom());
  }
  [[nodiscard]] uint64_t out_surf_stride() const {
    return out_surf != 0 ? out_surf : out_line_stride() * static_cast<uint64_t>(out_h());
  }
  [[nodiscard]] uint64_t out_batch_stride() const {
    const int ca = atom() / (out16 ? 2 : 1);
    return out_batch != 0 ? out_batch : out_surf_stride() * static_cast<uint64_t>((K + ca - 1) / ca);
  }
};

// Reads a `conv` layer document (already accepted by the layer compiler) at run seed `seed`.
// `config` overrides the document's configuration when not empty.
[[nodiscard]] Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed,
                               const std::string& config = "");
[[nodiscard]] Layer read_layer(const std::filesystem::path& file, uint64_t seed);

struct Expected {
  std::vector<int64_t> cacc;  // K x H' x W', the 32-bit values CACC hands to SDP
  std::vector<int64_t> out;   // K x H' x W', SDP's output elements (pooled with a pool post-op: K x out_h x out_w)
  uint32_t cacc_saturated = 0;
  int64_t abs_sum_max = 0;   // largest sum of |products| of one output (bounds every partial sum)
  int64_t relu_clamped = 0;  // values a ReLU turned into 0
};

// The expected CACC and SDP outputs (an EW LUT or EQL is ignored: see not_applicable).
[[nodiscard]] Expected reference(const Layer& L);

// CACC's clip (appended to e.cacc, saturations counted) and the SDP post-ops and output converter
// for the sum `acc` of kernel k at output (oy, ox) of an oh x ow output: what reference() applies
// to each convolution sum (the `deconv` reference applies it to its scatter-add sums).
[[nodiscard]] int64_t convert_output(const Layer& L, int64_t acc, int k, int oy, int ox, int oh, int ow, Expected& e);

// Why the reference cannot judge the layer ("" when it can): an EW LUT or EQL (not modelled
// here), or a partial sum that may reach CACC's saturating width (34 bits int8, 48 int16), where
// the result depends on the accumulation order. `e` is reference(L).
[[nodiscard]] std::string not_applicable(const Layer& L, const Expected& e);

// The output elements (real kernels only, K x out_h x out_w) read from a memory holding the output at
// `base`, with the feature layout of nvdla-arithmetic.md §8:
// base + (k / Ca) * surface + y * line + x * atom + (k mod Ca) * bpe.
[[nodiscard]] std::vector<int64_t> read_output(const Memory& m, uint64_t base, const Layer& L);

// Image b of a batched layer as a one-image layer (its input values; everything else the same).
[[nodiscard]] Layer batch_image(const Layer& L, int b);

// "" when equal; else "N of M outputs differ; first (k, h, w) = (k, y, x): got G, expected E".
[[nodiscard]] std::string diff(const std::vector<int64_t>& got, const std::vector<int64_t>& want, const Layer& L);

}  // namespace dla::harness::conv_ref
