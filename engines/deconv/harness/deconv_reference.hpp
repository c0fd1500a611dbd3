// An int64 reference for `deconv` layers, independent of the golden model and of the layer
// compiler: the transposed convolution in scatter-add form (every input pixel (c, h, w) times every
// kernel tap (r, s) added into output (h * sy + r - crop.top, w * sx + s - crop.left) of kernel k,
// what falls outside the cropped / padded output dropped), then CACC's clip and the SDP post-ops
// and output converter of the conv reference (conv_ref::convert_output). Used by
// engines/deconv/tests/harness/test_deconv_layers.cpp and `dlacosim random deconv` (docs/DECONV.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/conv/harness/conv_reference.hpp"
#include "harness/json_reader.hpp"
#include "harness/memory.hpp"

namespace dla::harness::deconv_ref {

struct Layer {
  conv_ref::Layer conv;  // sizes, strides (sx, sy), values, clip, SDP stages and output converter
  int crop_l = 0, crop_r = 0, crop_t = 0, crop_b = 0, pad_x = 0, pad_y = 0;  // crop, output_padding
  [[nodiscard]] int out_w() const { return (conv.W - 1) * conv.sx + conv.S - crop_l - crop_r + pad_x; }
  [[nodiscard]] int out_h() const { return (conv.H - 1) * conv.sy + conv.R - crop_t - crop_b + pad_y; }
  // The output's feature layout (docs/DECONV.md): RUBIK writes ceil(W' / sx) * sx columns and
  // ceil(H' / sy) * sy rows of 32-byte atoms at 0xc000_0000; the layer's W' x H' are the first.
  [[nodiscard]] uint64_t line_stride() const;
  [[nodiscard]] uint64_t surface_stride() const;
};

// Reads a `deconv` layer document (already accepted by the layer compiler) at run seed `seed`.
[[nodiscard]] Layer read_layer(const JsonNode& root, uint64_t seed);

// The expected output (K x H' x W') and CACC values; e.abs_sum_max bounds every partial sum.
[[nodiscard]] conv_ref::Expected reference(const Layer& L);

// Why the reference cannot judge the layer ("" when it can): conv_ref::not_applicable's reasons.
[[nodiscard]] std::string not_applicable(const Layer& L, const conv_ref::Expected& e);

// The K x H' x W' output elements read from memory (base 0xc000_0000, the layout above).
[[nodiscard]] std::vector<int64_t> read_output(const Memory& m, const Layer& L);

// "" when the memory holds the expected output; else what differs (conv_ref::diff's message).
[[nodiscard]] std::string compare(const Layer& L, const Memory& m);

}  // namespace dla::harness::deconv_ref
