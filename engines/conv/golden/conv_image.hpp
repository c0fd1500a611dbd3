// Image input (CDMA D_DATAIN_FORMAT.DATAIN_FORMAT = PIXEL), integer pixel formats: CDMA reads the
// image pitch-linear from one or two planes, unpacks every pixel into CBUF channels in NVDLA's
// order (R,G,B,A / Y,U,V,A / Y,U,V), converts it (mean or CVT_OFFSET, scale, truncate), writes
// the left / right pad pixels, and stores each padded image line as one slice of
// ENTRY_PER_SLICE entries; CSC reads every kernel row as C' = S*C consecutive elements of a line
// ("pre-extended" channels, S' = 1) and CMAC / CACC run an ordinary direct convolution on that.
//
// Spec: ../shared/reference/cdma-input-modes.md §1 (registers, table 1.2, §1.3-§1.7) and §2
// (converter, mean -> channel mapping, pad values). Written from the spec text, never from RTL.
// Decisions where it leaves a choice, and what is not done: docs/IMAGE_INPUT.md.
//
// A ConvConfig in image mode (image.enabled) describes the layer: input = the image W x H x C,
// kernel_w = the network kernel's S, pads as CDMA (left / right) and CSC (top) use them;
// image_view() gives the direct convolution CSC runs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"

namespace dla::golden {

// Where one CBUF channel of a pixel comes from: `width` bits at `lsb` of the little-endian pixel
// word of plane `plane`, shifted left by `shift` (the packed 10-bit formats are left-justified
// into 16 bits: colour << 6, alpha << 14).
struct PixelField {
  int plane = 0;
  int lsb = 0;
  int width = 8;
  int shift = 0;
};

// One PIXEL_FORMAT of table 1.2.
struct PixelFormat {
  int code = 0;
  const char* name = "";
  int in_precision = 0;  // D_MISC_CFG.IN_PRECISION the format needs: 0 INT8, 1 INT16, 2 FP16
  int planes = 1;        // 2 for the semi-planar formats 28..35
  int bpp0 = 1;          // bytes per pixel of plane 0
  int bpp1 = 0;          // bytes per pixel of plane 1 (semi-planar), else 0
  int channels = 1;      // C in CBUF: 1, 3 or 4
  std::array<PixelField, 4> field{};  // CBUF channel c <- field[c], c < channels

  // Bits of one component's container: 8 (INT8 formats) or 16.
  [[nodiscard]] int container_bits() const { return in_precision == 0 ? 8 : 16; }
};

// The format with PIXEL_FORMAT `code`; nullptr for codes outside 0..35.
[[nodiscard]] const PixelFormat* pixel_format(int code);

// Byte address of pixel (x, y) in plane `plane` (§1.3): plane 0 base + y * LINE_STRIDE +
// (PIXEL_X_OFFSET + x) * bpp0; plane 1 base + y * LINE_UV_STRIDE + ((o mod (atom / bpp1)) + x) * bpp1.
[[nodiscard]] uint64_t image_pixel_address(const ConvConfig& c, int plane, int x, int y);

// The pixel's CBUF channels before the converter: each component's container value (unsigned,
// 8 or 16 bits), in CBUF order; channels >= C are 0.
[[nodiscard]] std::array<uint32_t, 4> image_pixel(const ConvConfig& c, const ByteReader& read, int x, int y);

// One CBUF channel value as CDMA stores it (§1.4, §2.2): with CVT_EN, the container extended
// (zero or sign per PIXEL_SIGN_OVERRIDE) and converted with the channel's mean (MEAN_FORMAT) or
// CVT_OFFSET; without, the raw bits as a signed PROC element.
[[nodiscard]] int64_t image_convert(const ConvConfig& c, uint32_t raw, int channel);

// ENTRY_PER_SLICE of an image line (§1.5): ceil((PAD_LEFT + W + PAD_RIGHT) * C * bpe / entry bytes).
[[nodiscard]] int image_entries_per_slice(const ConvConfig& c, const HwConfig& hw);

// CSC's stripes in image mode (§1.6): every output line on its own, cut into stripes of
// 2 * ATOMIC_K output pixels (4 * ATOMIC_K when ATOMIC_C = 4 * ATOMIC_K; 64 on nv_full and
// nv_large, 16 on nv_small), the last of a line the remainder. Concatenated over the lines.
[[nodiscard]] std::vector<int> image_stripes(const ConvConfig& c);

// The image lines as CBUF holds them: line y at byte y * EPS * entry_bytes (the data banks from
// entry 0, no wrap), padded pixel p's channel ch at (p * C + ch) * bpe, little endian; bytes after
// the last padded pixel are 0 (NVDLA v1's C model).
struct ImageCbuf {
  int entries_per_slice = 0;
  int entry_bytes = 0;
  int bpe = 1;
  int line_elements = 0;  // (PAD_LEFT + W + PAD_RIGHT) * C
  std::vector<uint8_t> bytes{};
  // Element e (0 <= e < line_elements) of line y, sign-extended from bpe bytes.
  [[nodiscard]] int64_t element(int y, int e) const;
};
[[nodiscard]] ImageCbuf image_cbuf(const ConvConfig& c, const HwConfig& hw, const ByteReader& read);

// The direct convolution CSC runs (§1.6): input C' x H x W' (C' = S * C, one column per output
// pixel), kernel K x C' x R x 1, X stride 1, no X dilation, no left / right pad (CDMA wrote them);
// H, Y stride, PAD_TOP, CSC's pad value for the top / bottom rows, output, weights (base, bytes),
// clip as the layer's. image.enabled false, no converter.
[[nodiscard]] ConvConfig image_view(const ConvConfig& c);
// Its input cube: (1, C', H, W') with element (c', y, xo) = CBUF line y element xo * sx * C + c'.
[[nodiscard]] Cube<int64_t> image_view_cube(const ConvConfig& c, const ImageCbuf& cbuf);

// The pre-extended weights the layer compiler stores (§1.6, sw preChnlExtWtsForIMG): network
// weights `w` (n = kernel, c <= C channels, h = r, w = s) -> K x C' x R x 1 with c' = s * C + c;
// channels the network kernel lacks are 0.
[[nodiscard]] Cube<int64_t> image_pre_extend_weights(const ConvConfig& c, const Cube<int64_t>& w);

// Channel post-extension (CSC D_POST_Y_EXTENSION, §3): with E = image.post_extension > 1 the
// pre-extended weights are stored per kernel group, row group q (rows q*E .. min(R, q*E+E) - 1),
// kernel, row, channel c' (a kernel's rows of one group contiguous). Byte offset of pre-extended
// weight (k, c', r) from the weight base, for any E (E = 1: the direct layout of image_view).
[[nodiscard]] uint64_t image_weight_offset(const ConvConfig& c, int k, int cx, int r);
// The pre-extended weights in the direct layout of image_view (weight_layout().total_bytes()
// bytes), read from `read` at image_weight_offset: what CSC's lanes meet with post-extension.
[[nodiscard]] std::vector<uint8_t> image_weights_direct(const ConvConfig& c, const ByteReader& read);

// Values the bookkeeping registers must hold in image mode (conv_derived dispatches here).
[[nodiscard]] ConvDerived conv_derived_image(const ConvConfig& c, const HwConfig& hw);

// Why the image model cannot run `c` (§1.7 and the integer-only scope), one sentence each naming
// the rule; image_hw_problems adds the configuration's (16-bit formats need int16 support).
[[nodiscard]] std::vector<std::string> image_unsupported(const ConvConfig& c);
[[nodiscard]] std::vector<std::string> image_hw_problems(const ConvConfig& c, const HwConfig& hw);

// Register decoding in image mode (CDMA and CSC DATAIN_FORMAT = PIXEL), called by decode_conv
// after the direct fields: the pixel, plane-1, mean and pad registers, CDMA's left / right pads,
// S = C' / C from CSC, and the image-mode relations (ENTRY_PER_SLICE with its rule,
// BYTE_PER_KERNEL, WIDTH_EXT, ATOMICS, IN_PRECISION, mapping, Y offset, post-extension).
void decode_conv_image(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c);

}  // namespace dla::golden
