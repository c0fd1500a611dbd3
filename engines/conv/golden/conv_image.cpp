// Image input (docs/IMAGE_INPUT.md): pixel formats, pitch-linear addressing, unpacking, the
// converter with means, the image-mode CBUF lines, CSC's pre-extended view, the refusals and the
// image-mode register relations. Written from ../shared/reference/cdma-input-modes.md §1-§2.
#include "engines/conv/golden/conv_image.hpp"

#include <algorithm>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_regs.hpp"

namespace dla::golden {

namespace {

namespace rcdma = regs::cdma;
namespace rcsc = regs::csc;
using regs::field;

int ceil_div(int a, int b) { return (a + b - 1) / b; }
std::string str(int64_t v) { return std::to_string(v); }

// Table 1.2, field builders: byte b / halfword h of plane p, or `width` bits at `lsb` shifted.
constexpr PixelField b8(int b, int p = 0) { return {p, 8 * b, 8, 0}; }
constexpr PixelField h16(int h, int p = 0) { return {p, 16 * h, 16, 0}; }
constexpr PixelField c10(int lsb) { return {0, lsb, 10, 6}; }  // colour: 10 bits << 6
constexpr PixelField a2(int lsb) { return {0, lsb, 2, 14}; }   // alpha: 2 bits << 14
constexpr PixelField none{};

// IN_PRECISION codes.
constexpr int kI8 = 0, kI16 = 1, kF16 = 2;

// cdma-input-modes.md table 1.2; fields in CBUF order (R,G,B,A / Y,U,V,A / Y,U,V).
const PixelFormat kFormats[] = {
    {0, "T_R8", kI8, 1, 1, 0, 1, {b8(0), none, none, none}},
    {1, "T_R10", kI16, 1, 2, 0, 1, {h16(0), none, none, none}},
    {2, "T_R12", kI16, 1, 2, 0, 1, {h16(0), none, none, none}},
    {3, "T_R16", kI16, 1, 2, 0, 1, {h16(0), none, none, none}},
    {4, "T_R16_I", kI16, 1, 2, 0, 1, {h16(0), none, none, none}},
    {5, "T_R16_F", kF16, 1, 2, 0, 1, {h16(0), none, none, none}},
    {6, "T_A16B16G16R16", kI16, 1, 8, 0, 4, {h16(0), h16(1), h16(2), h16(3)}},
    {7, "T_X16B16G16R16", kI16, 1, 8, 0, 4, {h16(0), h16(1), h16(2), h16(3)}},
    {8, "T_A16B16G16R16_F", kF16, 1, 8, 0, 4, {h16(0), h16(1), h16(2), h16(3)}},
    {9, "T_A16Y16U16V16", kI16, 1, 8, 0, 4, {h16(2), h16(1), h16(0), h16(3)}},
    {10, "T_V16U16Y16A16", kI16, 1, 8, 0, 4, {h16(1), h16(2), h16(3), h16(0)}},
    {11, "T_A16Y16U16V16_F", kF16, 1, 8, 0, 4, {h16(2), h16(1), h16(0), h16(3)}},
    {12, "T_A8B8G8R8", kI8, 1, 4, 0, 4, {b8(0), b8(1), b8(2), b8(3)}},
    {13, "T_A8R8G8B8", kI8, 1, 4, 0, 4, {b8(2), b8(1), b8(0), b8(3)}},
    {14, "T_B8G8R8A8", kI8, 1, 4, 0, 4, {b8(1), b8(2), b8(3), b8(0)}},
    {15, "T_R8G8B8A8", kI8, 1, 4, 0, 4, {b8(3), b8(2), b8(1), b8(0)}},
    {16, "T_X8B8G8R8", kI8, 1, 4, 0, 4, {b8(0), b8(1), b8(2), b8(3)}},
    {17, "T_X8R8G8B8", kI8, 1, 4, 0, 4, {b8(2), b8(1), b8(0), b8(3)}},
    {18, "T_B8G8R8X8", kI8, 1, 4, 0, 4, {b8(1), b8(2), b8(3), b8(0)}},
    {19, "T_R8G8B8X8", kI8, 1, 4, 0, 4, {b8(3), b8(2), b8(1), b8(0)}},
    {20, "T_A2B10G10R10", kI16, 1, 4, 0, 4, {c10(0), c10(10), c10(20), a2(30)}},
    {21, "T_A2R10G10B10", kI16, 1, 4, 0, 4, {c10(20), c10(10), c10(0), a2(30)}},
    {22, "T_B10G10R10A2", kI16, 1, 4, 0, 4, {c10(2), c10(12), c10(22), a2(0)}},
    {23, "T_R10G10B10A2", kI16, 1, 4, 0, 4, {c10(22), c10(12), c10(2), a2(0)}},
    {24, "T_A2Y10U10V10", kI16, 1, 4, 0, 4, {c10(20), c10(10), c10(0), a2(30)}},
    {25, "T_V10U10Y10A2", kI16, 1, 4, 0, 4, {c10(2), c10(12), c10(22), a2(0)}},
    {26, "T_A8Y8U8V8", kI8, 1, 4, 0, 4, {b8(2), b8(1), b8(0), b8(3)}},
    {27, "T_V8U8Y8A8", kI8, 1, 4, 0, 4, {b8(1), b8(2), b8(3), b8(0)}},
    {28, "T_Y8___U8V8_N444", kI8, 2, 1, 2, 3, {b8(0), b8(1, 1), b8(0, 1), none}},
    {29, "T_Y8___V8U8_N444", kI8, 2, 1, 2, 3, {b8(0), b8(0, 1), b8(1, 1), none}},
    {30, "T_Y10___U10V10_N444", kI16, 2, 2, 4, 3, {h16(0), h16(1, 1), h16(0, 1), none}},
    {31, "T_Y10___V10U10_N444", kI16, 2, 2, 4, 3, {h16(0), h16(0, 1), h16(1, 1), none}},
    {32, "T_Y12___U12V12_N444", kI16, 2, 2, 4, 3, {h16(0), h16(1, 1), h16(0, 1), none}},
    {33, "T_Y12___V12U12_N444", kI16, 2, 2, 4, 3, {h16(0), h16(0, 1), h16(1, 1), none}},
    {34, "T_Y16___U16V16_N444", kI16, 2, 2, 4, 3, {h16(0), h16(1, 1), h16(0, 1), none}},
    {35, "T_Y16___V16U16_N444", kI16, 2, 2, 4, 3, {h16(0), h16(0, 1), h16(1, 1), none}},
};

const PixelFormat& format_of(const ConvConfig& c) {
  const PixelFormat* f = pixel_format(c.image.pixel_format);
  return f != nullptr ? *f : kFormats[0];  // refused by image_unsupported
}

std::string format_name(int code) {
  const PixelFormat* f = pixel_format(code);
  return str(code) + (f != nullptr ? " (" + std::string(f->name) + ")" : std::string(" (reserved)"));
}

std::string precision_code(int code) { return code == kI8 ? "INT8" : (code == kI16 ? "INT16" : "FP16"); }

int padded_width(const ConvConfig& c) { return c.pad_left + c.input.w + c.pad_right; }

// C' = S * C: the pre-extended channels of one kernel row.
int extended_channels(const ConvConfig& c) { return c.kernel_w * c.input.c; }

}  // namespace

const PixelFormat* pixel_format(int code) {
  if (code < 0 || code >= static_cast<int>(std::size(kFormats))) return nullptr;
  return &kFormats[code];
}

uint64_t image_pixel_address(const ConvConfig& c, int plane, int x, int y) {
  const PixelFormat& f = format_of(c);
  const auto o = static_cast<uint64_t>(c.image.x_offset);
  if (plane == 0)
    return c.in_layout.base + static_cast<uint64_t>(y) * c.in_layout.line_stride +
           (o + static_cast<uint64_t>(x)) * static_cast<uint64_t>(f.bpp0);
  const auto per_atom = static_cast<uint64_t>(c.atom_bytes / f.bpp1);
  return c.image.base_uv + static_cast<uint64_t>(y) * c.image.line_stride_uv +
         (o % per_atom + static_cast<uint64_t>(x)) * static_cast<uint64_t>(f.bpp1);
}

std::array<uint32_t, 4> image_pixel(const ConvConfig& c, const ByteReader& read, int x, int y) {
  const PixelFormat& f = format_of(c);
  uint64_t word[2] = {0, 0};
  for (int p = 0; p < f.planes; ++p) {
    const uint64_t a = image_pixel_address(c, p, x, y);
    const int bytes = p == 0 ? f.bpp0 : f.bpp1;
    for (int i = 0; i < bytes; ++i) word[p] |= uint64_t{read(a + static_cast<uint64_t>(i))} << (8 * i);
  }
  std::array<uint32_t, 4> ch{};
  const uint64_t container = (uint64_t{1} << f.container_bits()) - 1;
  for (int i = 0; i < f.channels; ++i) {
    const PixelField& fd = f.field[static_cast<std::size_t>(i)];
    const uint64_t v = (word[fd.plane] >> fd.lsb) & ((uint64_t{1} << fd.width) - 1);
    ch[static_cast<std::size_t>(i)] = static_cast<uint32_t>((v << fd.shift) & container);
  }
  return ch;
}

int64_t image_convert(const ConvConfig& c, uint32_t raw, int channel) {
  const int out_bits = 8 * c.bpe();
  // An fp16 format passes the converter unchanged, CVT_EN or not (NVIDIA's CDMA_CVT cell: IN
  // precision FP16 -> out = in; IN fp16 needs PROC fp16, image_unsupported).
  if (format_of(c).in_precision == kF16) return sign_extend(raw, 16);
  if (!c.cvt.enabled) return sign_extend(raw, out_bits);  // raw bits, IN = PROC (image_unsupported)
  const int bits = format_of(c).container_bits();
  const int64_t x = c.image.sign_override ? sign_extend(raw, bits) : static_cast<int64_t>(raw);
  const int32_t operand = c.image.mean ? c.image.means[static_cast<std::size_t>(channel)] : c.cvt.offset;
  // PROC fp16: the converter's 17-bit integer (rounded, saturated) to fp16 (FpIntToFloat<17>).
  if (c.precision == Precision::Fp16)
    return sign_extend(fp::from_int(fp::kFp16, static_cast<uint64_t>(cdma_convert(x, operand, c.cvt, 17)), 17), 16);
  return cdma_convert(x, operand, c.cvt, out_bits);
}

int image_entries_per_slice(const ConvConfig& c, const HwConfig& hw) {
  return ceil_div(padded_width(c) * c.input.c * c.bpe(), cbuf_geometry(hw).entry_bytes);
}

std::vector<int> image_stripes(const ConvConfig& c) {
  const int len = (c.atomic_c == 4 * c.atomic_k ? 4 : 2) * c.atomic_k;
  std::vector<int> out;
  for (int y = 0; y < c.output.h; ++y)
    for (int left = c.output.w; left > 0; left -= len) out.push_back(std::min(len, left));
  return out;
}

int64_t ImageCbuf::element(int y, int e) const {
  const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(entries_per_slice * entry_bytes) +
                         static_cast<std::size_t>(e * bpe);
  uint64_t raw = 0;
  for (int i = 0; i < bpe; ++i) raw |= uint64_t{bytes[at + static_cast<std::size_t>(i)]} << (8 * i);
  return sign_extend(raw, 8 * bpe);
}

ImageCbuf image_cbuf(const ConvConfig& c, const HwConfig& hw, const ByteReader& read) {
  ImageCbuf cb;
  cb.entries_per_slice = image_entries_per_slice(c, hw);
  cb.entry_bytes = cbuf_geometry(hw).entry_bytes;
  cb.bpe = c.bpe();
  const int C = c.input.c;
  cb.line_elements = padded_width(c) * C;
  const std::size_t line_bytes = static_cast<std::size_t>(cb.entries_per_slice * cb.entry_bytes);
  cb.bytes.assign(line_bytes * static_cast<std::size_t>(c.input.h), 0);
  const bool flush = c.nan_to_zero && format_of(c).in_precision == kF16;
  auto store = [&](int y, int e, int64_t v) {
    const std::size_t at = static_cast<std::size_t>(y) * line_bytes + static_cast<std::size_t>(e * cb.bpe);
    for (int i = 0; i < cb.bpe; ++i)
      cb.bytes[at + static_cast<std::size_t>(i)] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
  };
  for (int y = 0; y < c.input.h; ++y) {
    for (int p = 0; p < padded_width(c); ++p) {
      const int x = p - c.pad_left;
      if (x < 0 || x >= c.input.w) {
        // Left / right pad pixels: CDMA's PAD_VALUE, raw, in every channel (§2.4).
        for (int ch = 0; ch < C; ++ch) store(y, p * C + ch, c.image.pad_value_lr);
        continue;
      }
      std::array<uint32_t, 4> raw = image_pixel(c, read, x, y);
      // fp16 formats: NAN_TO_ZERO flushes a NaN component to +0 as the line is fetched (C model)
      if (flush)
        for (uint32_t& v : raw) v = fp::is_nan(fp::kFp16, v) ? 0 : v;
      for (int ch = 0; ch < C; ++ch) store(y, p * C + ch, image_convert(c, raw[static_cast<std::size_t>(ch)], ch));
    }
  }
  return cb;
}

ConvConfig image_view(const ConvConfig& c) {
  ConvConfig v = c;
  v.image = ConvImage{};
  v.input = CubeShape{1, extended_channels(c), c.input.h, c.output.w};
  v.kernel_w = 1;
  v.stride_x = 1;
  v.dilation_x = 1;
  v.pad_left = 0;
  v.pad_right = 0;
  v.cvt = ConvInputCvt{};  // CDMA converted while writing CBUF
  v.in_layout = FeatureLayout::packed(v.input, c.atom_bytes, c.bpe(), c.in_layout.base);  // not read
  return v;
}

Cube<int64_t> image_view_cube(const ConvConfig& c, const ImageCbuf& cbuf) {
  const int cx = extended_channels(c);
  Cube<int64_t> v(CubeShape{1, cx, c.input.h, c.output.w}, 0);
  for (int y = 0; y < c.input.h; ++y)
    for (int xo = 0; xo < c.output.w; ++xo)
      for (int e = 0; e < cx; ++e) v.at(0, e, y, xo) = cbuf.element(y, xo * c.stride_x * c.input.c + e);
  return v;
}

Cube<int64_t> image_pre_extend_weights(const ConvConfig& c, const Cube<int64_t>& w) {
  const int K = w.shape().n, CW = w.shape().c, R = w.shape().h, S = w.shape().w, C = c.input.c;
  Cube<int64_t> out(CubeShape{K, S * C, R, 1}, 0);
  for (int k = 0; k < K; ++k)
    for (int r = 0; r < R; ++r)
      for (int s = 0; s < S; ++s)
        for (int ch = 0; ch < std::min(CW, C); ++ch) out.at(k, s * C + ch, r, 0) = w.at(k, ch, r, s);
  return out;
}

uint64_t image_weight_offset(const ConvConfig& c, int k, int cx, int r) {
  const int e = c.image.post_extension;
  const WeightLayout wl = c.weight_layout();  // K x C' x R x 1
  if (e <= 1) return wl.offset(k, cx, r, 0);
  // §3: one channel block (C' <= 64 / E); group g -> row group q -> kernel -> row i -> c'.
  const auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  const int ck = extended_channels(c), R = c.kernel_h, kk = c.atomic_k, bpe = c.bpe();
  const int g = k / kk, kpg = std::min(kk, c.kernels - g * kk);
  const int q = r / e, i = r % e, nq = std::min(R, q * e + e) - q * e;
  return u(g) * u(kk) * u(R) * u(ck) * u(bpe) + u(kpg) * u(q * e) * u(ck) * u(bpe) + u(k % kk) * u(nq) * u(ck) * u(bpe) +
         u(i) * u(ck) * u(bpe) + u(cx) * u(bpe);
}

std::vector<uint8_t> image_weights_direct(const ConvConfig& c, const ByteReader& read) {
  const WeightLayout wl = c.weight_layout();
  std::vector<uint8_t> out(static_cast<std::size_t>(wl.total_bytes()), 0);
  const int bpe = c.bpe();
  for (int k = 0; k < c.kernels; ++k)
    for (int cx = 0; cx < extended_channels(c); ++cx)
      for (int r = 0; r < c.kernel_h; ++r) {
        const uint64_t from = c.weight_base + image_weight_offset(c, k, cx, r);
        const uint64_t to = wl.offset(k, cx, r, 0);
        for (int b = 0; b < bpe; ++b)
          out[static_cast<std::size_t>(to) + static_cast<std::size_t>(b)] = read(from + static_cast<uint64_t>(b));
      }
  return out;
}

ConvDerived conv_derived_image(const ConvConfig& c, const HwConfig& hw) {
  const CbufGeometry cb = cbuf_geometry(hw);
  ConvDerived d;
  d.entries_per_slice = image_entries_per_slice(c, hw);
  d.data_banks_min = ceil_div(d.entries_per_slice * c.input.h, cb.entries_per_bank);
  d.byte_per_kernel = static_cast<uint32_t>(c.kernel_h * extended_channels(c) * c.bpe());
  const uint64_t bank_bytes = static_cast<uint64_t>(cb.entries_per_bank) * static_cast<uint64_t>(cb.entry_bytes);
  const uint64_t group_bytes = static_cast<uint64_t>(std::min(c.kernels, c.atomic_k)) * d.byte_per_kernel;
  d.weight_banks_min = static_cast<int>((group_bytes + bank_bytes - 1) / bank_bytes);
  d.weight_bytes = c.weight_layout().padded_bytes();
  d.weight_banks_all = static_cast<int>((d.weight_bytes + bank_bytes - 1) / bank_bytes);
  d.atomics = c.output.w * c.output.h;
  d.kernel_groups = ceil_div(c.kernels, c.atomic_k);
  d.channel_blocks = ceil_div(extended_channels(c), c.atomic_c);
  d.stripes = image_stripes(c);
  return d;
}

std::vector<std::string> image_unsupported(const ConvConfig& c) {
  std::vector<std::string> u;
  if (!c.image.enabled) return u;
  const PixelFormat* f = pixel_format(c.image.pixel_format);
  if (f == nullptr) {
    u.push_back("PIXEL_FORMAT " + str(c.image.pixel_format) + " is reserved (formats 0..35 are defined)");
    return u;
  }
  if (f->in_precision == kF16 && c.precision != Precision::Fp16)
    u.push_back("PIXEL_FORMAT " + format_name(f->code) + " is an fp16 format, which needs PROC_PRECISION FP16 (got " +
                std::string(precision_name(c.precision)) + "; the converter passes fp16 through unchanged)");
  if (c.mode == ConvMode::Winograd)
    u.push_back("image input (DATAIN_FORMAT PIXEL) needs CONV_MODE DIRECT; Winograd with image input is not allowed");
  if (c.wfold_ws != 0) u.push_back("image input (DATAIN_FORMAT PIXEL) and W-fold (D_WFOLD) exclude each other");
  if (c.input.n != 1) u.push_back("image input allows no batches (D_BATCH_NUMBER must be 0; CSC assertion)");
  if (c.input.c != f->channels)
    u.push_back("DATAIN_CHANNEL+1 is " + str(c.input.c) + " but PIXEL_FORMAT " + format_name(f->code) + " has " +
                str(f->channels) + " channels");
  const int in_bytes = f->in_precision == kI8 ? 1 : 2;
  if (f->in_precision != kF16 && in_bytes != c.bpe() && !c.cvt.enabled)
    u.push_back("IN_PRECISION " + precision_code(f->in_precision) + " (the pixel format's) differs from PROC_PRECISION " +
                std::string(precision_name(c.precision)) + ", which needs the input converter (CVT_EN = 1)");
  if (c.dilation_x != 1 || c.dilation_y != 1) u.push_back("image input allows no dilation (CSC D_DILATION_EXT must be 0)");
  const int cx = extended_channels(c);
  if (cx > 128)
    u.push_back("the pre-extended channels C' = S * C = " + str(c.kernel_w) + " * " + str(c.input.c) + " = " + str(cx) +
                " exceed 128 (CSC)");
  // Channel post-extension (§3): E = 1, 2, 4; one block of 64 / E lanes per line.
  if (const int e = c.image.post_extension; e != 1) {
    if (e != 2 && e != 4) {
      u.push_back("CSC D_POST_Y_EXTENSION.Y_EXTENSION 3 is reserved (0, 1, 2: 1, 2 or 4 kernel rows per atom, §3)");
    } else if (cx > 64 / e || c.stride_x * c.input.c > 64 / e) {
      u.push_back("channel post-extension by " + str(e) + " rows needs C' = S * C <= " + str(64 / e) +
                  " and X stride * C <= " + str(64 / e) + " (got C' = " + str(cx) + ", X stride * C = " +
                  str(c.stride_x * c.input.c) + "; CSC, §3)");
    }
  }
  if (c.pad_left >= c.kernel_w || c.pad_right >= c.kernel_w)
    u.push_back("PAD_LEFT " + str(c.pad_left) + " and PAD_RIGHT " + str(c.pad_right) +
                " must be smaller than the kernel width S = " + str(c.kernel_w) + " (image input)");
  if (c.pad_top >= c.kernel_h || c.pad_bottom >= c.kernel_h)
    u.push_back("PAD_TOP " + str(c.pad_top) + " and PAD_BOTTOM " + str(c.pad_bottom) +
                " must be smaller than the kernel height R = " + str(c.kernel_h) + " (image input)");
  if (c.output.w >= 1 && (c.output.w - 1) * c.stride_x + c.kernel_w > padded_width(c))
    u.push_back("output width " + str(c.output.w) + " reads padded pixels up to " +
                str((c.output.w - 1) * c.stride_x + c.kernel_w) + " but an image line holds PAD_LEFT + W + PAD_RIGHT = " +
                str(padded_width(c)) + " ((W'-1)*sx + S <= PAD_LEFT + W + PAD_RIGHT)");
  const int atom = c.atom_bytes;
  const int max_off = atom / f->bpp0 - 1;
  if (c.image.x_offset > max_off)
    u.push_back("PIXEL_X_OFFSET " + str(c.image.x_offset) + " exceeds " + str(max_off) + " (atom / bytes per pixel - 1 for " +
                f->name + ")");
  if (c.in_layout.base % static_cast<uint64_t>(atom) != 0 || c.in_layout.line_stride % static_cast<uint64_t>(atom) != 0)
    u.push_back("D_DAIN_ADDR_*_0 and D_LINE_STRIDE must be multiples of the " + str(atom) + "-byte atom");
  const uint64_t ls_min = static_cast<uint64_t>(c.image.x_offset + c.input.w) * static_cast<uint64_t>(f->bpp0);
  if (c.in_layout.line_stride < ls_min)
    u.push_back("D_LINE_STRIDE " + str(static_cast<int64_t>(c.in_layout.line_stride)) +
                " is smaller than (PIXEL_X_OFFSET + W) * bytes per pixel = " + str(static_cast<int64_t>(ls_min)));
  if (f->planes == 2) {
    if (c.image.base_uv % static_cast<uint64_t>(atom) != 0 || c.image.line_stride_uv % static_cast<uint64_t>(atom) != 0)
      u.push_back("D_DAIN_ADDR_*_1 and D_LINE_UV_STRIDE must be multiples of the " + str(atom) + "-byte atom");
    const uint64_t uv_min = static_cast<uint64_t>((c.image.x_offset * f->bpp1) % atom) +
                            static_cast<uint64_t>(c.input.w) * static_cast<uint64_t>(f->bpp1);
    if (c.image.line_stride_uv < uv_min)
      u.push_back("D_LINE_UV_STRIDE " + str(static_cast<int64_t>(c.image.line_stride_uv)) +
                  " is smaller than ((PIXEL_X_OFFSET * bpp1) mod atom) + W * bpp1 = " + str(static_cast<int64_t>(uv_min)));
  }
  return u;
}

std::vector<std::string> image_hw_problems(const ConvConfig& c, const HwConfig& hw) {
  std::vector<std::string> u;
  const PixelFormat* f = pixel_format(c.image.pixel_format);
  if (c.image.enabled && f != nullptr && f->in_precision == kI16 && !hw.int16)
    u.push_back("PIXEL_FORMAT " + format_name(f->code) + " needs 16-bit input, which " + hw.name +
                " lacks (image input there takes the 8-bit formats only)");
  if (c.image.enabled && c.image.post_extension != 1 && !hw.nvdlav1_map)
    u.push_back("channel post-extension (CSC D_POST_Y_EXTENSION) exists on nv_full only, not on " + hw.name + " (§0)");
  return u;
}

void decode_conv_image(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c) {
  std::vector<std::string>& bad = c.decode_problems;
  auto expect = [&](const std::string& what, uint32_t got, uint32_t want) {
    if (got != want) bad.push_back(what + " is " + std::to_string(got) + ", image input needs " + std::to_string(want));
  };
  ConvImage& im = c.image;
  im.enabled = true;
  const uint32_t fmt = regs.cdma(rcdma::D_DATAIN_FORMAT::offset);
  im.pixel_format = static_cast<int>(field(fmt, rcdma::D_DATAIN_FORMAT::PIXEL_FORMAT{}));
  im.sign_override = field(fmt, rcdma::D_DATAIN_FORMAT::PIXEL_SIGN_OVERRIDE{}) != 0;
  if (field(fmt, rcdma::D_DATAIN_FORMAT::PIXEL_MAPPING{}) != 0)
    bad.push_back("PIXEL_MAPPING is RESERVED_LINEAR; only PITCH_LINEAR (0) is allowed");
  const uint32_t off = regs.cdma(rcdma::D_PIXEL_OFFSET::offset);
  im.x_offset = static_cast<int>(field(off, rcdma::D_PIXEL_OFFSET::PIXEL_X_OFFSET{}));
  expect("D_PIXEL_OFFSET.PIXEL_Y_OFFSET", field(off, rcdma::D_PIXEL_OFFSET::PIXEL_Y_OFFSET{}), 0);
  im.base_uv =
      (uint64_t{field(regs.cdma(rcdma::D_DAIN_ADDR_HIGH_1::offset), rcdma::D_DAIN_ADDR_HIGH_1::DATAIN_ADDR_HIGH_1{})} << 32) |
      field(regs.cdma(rcdma::D_DAIN_ADDR_LOW_1::offset), rcdma::D_DAIN_ADDR_LOW_1::DATAIN_ADDR_LOW_1{});
  im.line_stride_uv = field(regs.cdma(rcdma::D_LINE_UV_STRIDE::offset), rcdma::D_LINE_UV_STRIDE::UV_LINE_STRIDE{});
  im.mean = field(regs.cdma(rcdma::D_MEAN_FORMAT::offset), rcdma::D_MEAN_FORMAT::MEAN_FORMAT{}) != 0;
  const uint32_t m0 = regs.cdma(rcdma::D_MEAN_GLOBAL_0::offset);
  const uint32_t m1 = regs.cdma(rcdma::D_MEAN_GLOBAL_1::offset);
  const uint32_t means[] = {field(m0, rcdma::D_MEAN_GLOBAL_0::MEAN_RY{}), field(m0, rcdma::D_MEAN_GLOBAL_0::MEAN_GU{}),
                            field(m1, rcdma::D_MEAN_GLOBAL_1::MEAN_BV{}), field(m1, rcdma::D_MEAN_GLOBAL_1::MEAN_AX{})};
  for (std::size_t i = 0; i < 4; ++i) im.means[i] = static_cast<int32_t>(sign_extend(means[i], 16));

  // Pads: CDMA writes the left / right pad pixels with its PAD_VALUE; CSC's PAD_LEFT is not used,
  // its PAD_TOP and PAD_VALUE give the top / bottom rows (§1.1, §2.4).
  const uint32_t cdma_pad = regs.cdma(rcdma::D_ZERO_PADDING::offset);
  c.pad_left = static_cast<int>(field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_LEFT{}));
  expect("CDMA PAD_TOP (CSC's)", field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_TOP{}), static_cast<uint32_t>(c.pad_top));
  im.pad_value_lr = static_cast<int32_t>(sign_extend(
      field(regs.cdma(rcdma::D_ZERO_PADDING_VALUE::offset), rcdma::D_ZERO_PADDING_VALUE::PAD_VALUE{}), 8 * c.bpe()));
  const uint32_t cdma_stride = regs.cdma(rcdma::D_CONV_STRIDE::offset);
  expect("CDMA CONV_X_STRIDE+1 (CSC's)", field(cdma_stride, rcdma::D_CONV_STRIDE::CONV_X_STRIDE{}) + 1,
         static_cast<uint32_t>(c.stride_x));
  expect("CDMA CONV_Y_STRIDE+1 (CSC's)", field(cdma_stride, rcdma::D_CONV_STRIDE::CONV_Y_STRIDE{}) + 1,
         static_cast<uint32_t>(c.stride_y));

  const uint32_t in0 = regs.csc(rcsc::D_DATAIN_SIZE_EXT_0::offset);
  expect("CSC DATAIN_WIDTH_EXT+1 (W)", field(in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1,
         static_cast<uint32_t>(c.input.w));
  expect("CSC DATAIN_HEIGHT_EXT+1 (H)", field(in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1,
         static_cast<uint32_t>(c.input.h));
  expect("CSC DATAIN_CHANNEL_EXT+1 (C)",
         field(regs.csc(rcsc::D_DATAIN_SIZE_EXT_1::offset), rcsc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1,
         static_cast<uint32_t>(c.input.c));

  // Precisions: CDMA's IN_PRECISION is the format's (PROC may differ with the converter).
  const PixelFormat* f = pixel_format(im.pixel_format);
  const uint32_t in_prec = field(regs.cdma(rcdma::D_MISC_CFG::offset), rcdma::D_MISC_CFG::IN_PRECISION{});
  if (f != nullptr && in_prec != static_cast<uint32_t>(f->in_precision))
    bad.push_back("CDMA IN_PRECISION is " + precision_code(static_cast<int>(in_prec)) + " but PIXEL_FORMAT " +
                  format_name(f->code) + " is " + precision_code(f->in_precision));

  // Kernel: CSC sees S' = 1 and C' = S * C pre-extended channels (§1.6).
  const uint32_t wext0 = regs.csc(rcsc::D_WEIGHT_SIZE_EXT_0::offset);
  expect("CSC WEIGHT_WIDTH_EXT (S' - 1)", field(wext0, rcsc::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}), 0);
  const int cx =
      static_cast<int>(field(regs.csc(rcsc::D_WEIGHT_SIZE_EXT_1::offset), rcsc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{})) + 1;
  if (cx % c.input.c != 0)
    bad.push_back("CSC WEIGHT_CHANNEL_EXT+1 = C' = " + str(cx) + " is not a multiple of the image's C = " + str(c.input.c) +
                  " (C' = S * C)");
  c.kernel_w = std::max(1, cx / c.input.c);
  // Channel post-extension (§3): E = 2^Y_EXTENSION kernel rows per atom; 3 is refused as reserved.
  im.post_extension =
      1 << field(regs.csc(rcsc::D_POST_Y_EXTENSION::offset), rcsc::D_POST_Y_EXTENSION::Y_EXTENSION{});
  const uint32_t batches = field(regs.cdma(rcdma::D_BATCH_NUMBER::offset), rcdma::D_BATCH_NUMBER::BATCHES{}) |
                           field(regs.csc(rcsc::D_BATCH_NUMBER::offset), rcsc::D_BATCH_NUMBER::BATCHES{});
  if (batches != 0) bad.push_back("image input allows no batches (D_BATCH_NUMBER must be 0; CSC assertion)");

  const ConvDerived d = conv_derived_image(c, hw);
  expect("CDMA BYTE_PER_KERNEL+1 (R * C' * bpe)",
         field(regs.cdma(rcdma::D_WEIGHT_SIZE_0::offset), rcdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1, d.byte_per_kernel);
  expect("CSC D_ATOMICS+1 (W' * H')", field(regs.csc(rcsc::D_ATOMICS::offset), rcsc::D_ATOMICS::ATOMICS{}) + 1,
         static_cast<uint32_t>(d.atomics));
  const uint32_t eps = field(regs.cdma(rcdma::D_ENTRY_PER_SLICE::offset), rcdma::D_ENTRY_PER_SLICE::ENTRIES{}) + 1;
  if (eps != static_cast<uint32_t>(d.entries_per_slice))
    bad.push_back("D_ENTRY_PER_SLICE+1 is " + std::to_string(eps) +
                  " but an image line needs ceil((PAD_LEFT + W + PAD_RIGHT) * C * bpe / entry bytes) = ceil((" +
                  str(c.pad_left) + " + " + str(c.input.w) + " + " + str(c.pad_right) + ") * " + str(c.input.c) + " * " +
                  str(c.bpe()) + " / " + str(cbuf_geometry(hw).entry_bytes) + ") = " + str(d.entries_per_slice) +
                  " (the line pitch in CBUF)");
}

}  // namespace dla::golden
