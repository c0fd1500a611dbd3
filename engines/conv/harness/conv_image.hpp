// `conv` layers with image input (docs/LAYER_FORMAT.md "Image input", docs/IMAGE_INPUT.md
// "Compiler"): "input": {"format": <NVDLA pixel format name>, ...} compiles into a program with CDMA
// D_DATAIN_FORMAT = PIXEL: the image laid out pitch linear in one or two planes (§1.3 of
// ../shared/reference/cdma-input-modes.md), the pixel / plane-1 / mean registers, ENTRY_PER_SLICE
// by §1.5, WEIGHT_SIZE with C' = S * C and S' = 1, and the weights pre-extended
// (golden::image_pre_extend_weights). §1.7's forbidden combinations are refused with the JSON
// pointer and the rule. The RTL has no image path: such layers run with --mode golden.
#pragma once

#include <cstdint>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_image.hpp"
#include "golden/cube.hpp"
#include "harness/json_reader.hpp"
#include "engines/conv/harness/conv_banks.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

// The image part of a `conv` layer.
struct ImageLayer {
  const golden::PixelFormat* format = nullptr;
  golden::ConvImage image{};  // enabled, format, sign, x offset, plane 1, means, CDMA's pad value
  uint64_t line_stride = 0;   // plane 0's D_LINE_STRIDE
  std::vector<int64_t> components{};  // C x H x W component values ((c, h, w), CBUF channel order)
};

// Whether "input" describes an image (it has "format").
[[nodiscard]] bool is_image_input(const JsonNode& in);

// The image's "input" keys except "data" ("format", "sign", "x_offset", "line_stride",
// "uv_line_stride", "mean", "converter", "w", "h", "c") into `p` (W, H, C, the converter) and the
// result. Without "precision" in the layer, PROC precision is the format's. Refuses formats the
// model or `hw` lacks, C other than the format's, and the strides' rules.
[[nodiscard]] ImageLayer parse_image_input(const JsonNode& root, const JsonNode& in, const golden::HwConfig& hw,
                                           golden::ConvParams& p);

// The layer's ConvConfig in image mode (input plane 0 at `in_base`, plane 1 after it).
[[nodiscard]] golden::ConvConfig image_conv_config(const golden::ConvParams& p, const ImageLayer& im,
                                                   const golden::HwConfig& hw, uint64_t in_base, uint64_t weight_base);

// §1.7 and the model's rules on the compiled layer, each refused at its JSON pointer (Winograd,
// W-fold, dilation, pads >= kernel, C' > 128, precision without the converter, CBUF).
void check_image_layer(const JsonNode& root, const golden::ConvConfig& c, const golden::HwConfig& hw);

// "input"."data": C x H x W component values, each within its field (unsigned 0 .. 2^w - 1, or
// signed -2^(w-1) .. 2^(w-1) - 1 with "sign": "signed"; w = 8 or 16, 10 / 2 for the packed 10-bit
// formats' colour / alpha); "random" draws in the container's range keep the field's low w bits;
// a "file" holds 1- or 2-byte elements, taken as unsigned with "sign": "unsigned".
void resolve_image_data(const JsonNode& in, const golden::ConvParams& p, ImageLayer& im, uint64_t seed);

// Plane `plane`'s memory image (H lines of its line stride; bytes no pixel owns kGapFill).
[[nodiscard]] std::vector<uint8_t> image_plane_bytes(const ImageLayer& im, const golden::ConvConfig& c, int plane);

// The pre-extended weights (K x C' x R x 1, golden::image_pre_extend_weights) as memory.
[[nodiscard]] std::vector<uint8_t> image_weight_bytes(const golden::ConvConfig& c, const golden::Cube<int64_t>& w);

// D_BANK: the whole image (H x ENTRY_PER_SLICE entries), the weights in the rest.
[[nodiscard]] ConvBanks image_bank_split(const golden::ConvConfig& c, const golden::HwConfig& hw);

// Overwrites conv_register_words' direct-mode words with the image-mode fields.
void apply_image_regs(BlockWords& w, const golden::ConvConfig& c);

}  // namespace dla::harness::engines
