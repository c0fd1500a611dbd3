// `conv` layers with image input: parsing, the §1.7 refusals, the memory images (planes, the
// pre-extended weights) and the image-mode registers. docs/IMAGE_INPUT.md "Compiler",
// ../shared/reference/cdma-input-modes.md §1-§2.
#include "engines/conv/harness/conv_image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "golden/arith.hpp"
#include "golden/layout.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/layer.hpp"
#include "engines/sdp/harness/sdp_compiler.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines {

namespace {

namespace cd = golden::regs::cdma;
namespace cs = golden::regs::csc;
using golden::ConvConfig;
using golden::ConvImage;
using golden::HwConfig;
using golden::PixelFormat;
using golden::Precision;
using golden::regs::place;

constexpr int kFormats = 36;         // PIXEL_FORMAT 0..35 (table 1.2)
constexpr int kMaxChannelsExt = 128;  // C' = S * C (CSC)
constexpr uint64_t kPlaneAlign = 4096;  // plane 1 starts at the next 4 KiB after plane 0

uint32_t u(int64_t v) { return static_cast<uint32_t>(v); }
uint64_t roundup(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

const PixelFormat& find_format(const JsonNode& n) {
  const std::string name = n.as_string();
  std::string names;
  for (int code = 0; code < kFormats; ++code) {
    const PixelFormat* f = golden::pixel_format(code);
    if (name == f->name) return *f;
    names += (names.empty() ? "" : ", ") + std::string(f->name);
  }
  n.fail(fmt::format("\"{}\" is not one of NVDLA's pixel formats (cdma-input-modes.md table 1.2): {}", name, names));
}

// Bytes of plane 1 before pixel 0 of a line: (PIXEL_X_OFFSET mod (atom / bpp1)) * bpp1 (§1.3).
uint64_t uv_lead(int x_offset, const PixelFormat& f, int atom) {
  return static_cast<uint64_t>(x_offset % (atom / f.bpp1)) * static_cast<uint64_t>(f.bpp1);
}

// A line stride: "key" of `in` (a multiple of the atom, at least `min`), else roundup(min, atom).
uint64_t line_stride(const JsonNode& in, const char* key, uint64_t min, int atom, const std::string& rule) {
  const auto n = in.get(key);
  if (!n) return roundup(min, static_cast<uint64_t>(atom));
  const auto v = static_cast<uint64_t>(n->as_int(1, 0xffffffe0));
  if (v % static_cast<uint64_t>(atom) != 0)
    n->fail(fmt::format("{} must be a multiple of the {}-byte memory atom (§1.3)", v, atom));
  if (v < min) n->fail(fmt::format("{} is smaller than {} = {} bytes (§1.3)", v, rule, min));
  return v;
}

}  // namespace

bool is_image_input(const JsonNode& in) { return in.get("format").has_value(); }

ImageLayer parse_image_input(const JsonNode& root, const JsonNode& in, const HwConfig& hw, golden::ConvParams& p) {
  in.allow_keys({"w", "h", "c", "format", "sign", "x_offset", "line_stride", "uv_line_stride", "mean", "converter",
                 "data"});
  ImageLayer im;
  const JsonNode fn = in.require("format");
  const PixelFormat& f = find_format(fn);
  im.format = &f;
  if (f.in_precision == 2) {
    // fp16 formats: PROC fp16 (nv_full), the converter passes them unchanged (NVIDIA's CDMA_CVT cell)
    if (!hw.supports(Precision::Fp16))
      fn.fail(fmt::format("{} is an fp16 format and {} has no fp16 (nv_full only)", f.name, hw.name));
    if (const auto pr = root.get("precision"); pr && p.precision != Precision::Fp16)
      pr->fail(fmt::format("{} is an fp16 format: the precision must be fp16 (the converter does not change fp16 "
                           "input, docs/FP16.md)",
                           f.name));
    if (const auto cv = in.get("converter"))
      cv->fail(fmt::format("{} is an fp16 format, which the input converter passes unchanged: give no converter",
                           f.name));
    p.precision = Precision::Fp16;
  }
  if (f.in_precision == 1 && !hw.int16)
    fn.fail(fmt::format("{} is a 16-bit format and {} has no 16-bit input (image input there takes the 8-bit formats "
                        "only)",
                        f.name, hw.name));
  // §1.7: image input is DIRECT only, never folded.
  if (const auto m = root.get("mode"); m && m->as_choice({"direct", "winograd"}) == "winograd")
    m->fail("image input needs CONV_MODE DIRECT: Winograd with image input is not allowed (cdma-input-modes.md §1.1)");
  if (const auto w = root.get("wfold"); w && !(w->is_string() && w->as_string() == "off"))
    w->fail("image input and W-fold (D_WFOLD) exclude each other: an image line is already read as S x C "
            "pre-extended channels (docs/IMAGE_INPUT.md)");
  if (!root.get("precision") && f.in_precision != 2) p.precision = f.in_precision == 1 ? Precision::Int16 : Precision::Int8;
  // Channel post-extension (§3): 1, 2 or 4 kernel rows per MAC atom, nv_full only; the limits
  // are checked with the kernel (check_image_layer).
  if (const auto pe = root.get("post_extension")) {
    const auto e = pe->as_int(1, 4);
    if (e == 3) pe->fail("must be 1, 2 or 4 (kernel rows per MAC atom, CSC D_POST_Y_EXTENSION 0, 1, 2; §3)");
    if (e != 1 && !hw.nvdlav1_map)
      pe->fail(fmt::format("channel post-extension exists on nv_full only, not on {} (cdma-input-modes.md §0)", hw.name));
    im.image.post_extension = static_cast<int>(e);
  }

  p.w = static_cast<int>(in.require("w").as_int(1, kMaxCubeDim));
  p.h = static_cast<int>(in.require("h").as_int(1, kMaxCubeDim));
  p.c = f.channels;
  if (const auto c = in.get("c"); c && c->as_int(1, kMaxCubeDim) != f.channels)
    c->fail(fmt::format("{} has {} channel(s) in CBUF; C (DATAIN_CHANNEL + 1) must be the format's", f.name,
                        f.channels));
  im.image.enabled = true;
  im.image.pixel_format = f.code;
  if (const auto s = in.get("sign")) im.image.sign_override = s->as_choice({"unsigned", "signed"}) == "signed";

  const int atom = hw.atom_bytes;
  if (const auto o = in.get("x_offset")) {
    const int max = atom / f.bpp0 - 1;
    const auto v = o->as_int(0, 31);
    if (v > max)
      o->fail(fmt::format("PIXEL_X_OFFSET {} exceeds atom / bytes per pixel - 1 = {} / {} - 1 = {} for {} on {} (§1.3)",
                          v, atom, f.bpp0, max, f.name, hw.name));
    im.image.x_offset = static_cast<int>(v);
  }
  const int o = im.image.x_offset;
  im.line_stride = line_stride(in, "line_stride", static_cast<uint64_t>(o + p.w) * static_cast<uint64_t>(f.bpp0), atom,
                               "(PIXEL_X_OFFSET + W) * bytes per pixel");
  if (f.planes == 2) {
    im.image.line_stride_uv =
        line_stride(in, "uv_line_stride", uv_lead(o, f, atom) + static_cast<uint64_t>(p.w) * static_cast<uint64_t>(f.bpp1),
                    atom, "((PIXEL_X_OFFSET * bpp1) mod atom) + W * bpp1 of plane 1");
  } else if (const auto n = in.get("uv_line_stride")) {
    n->fail(fmt::format("only the semi-planar formats (T_Y8___U8V8_N444 .. T_Y16___V16U16_N444) have plane 1; {} "
                        "has one plane",
                        f.name));
  }

  if (const auto m = in.get("mean")) {
    if (!m->raw().is_array() || m->size() != 4)
      m->fail("must be an array of the four means [ry, gu, bv, ax] (D_MEAN_GLOBAL_0/1, signed 16 bits)");
    const auto cv = in.get("converter");
    if (!cv)
      m->fail("the means replace CVT_OFFSET inside the input converter: give \"converter\" (scale, truncate) too "
              "(MEAN_FORMAT takes effect only with CVT_EN = 1, §2.2)");
    if (const auto off = cv->get("offset"))
      off->fail("with \"mean\" the channel's mean replaces CVT_OFFSET (§2.2); give one or the other");
    im.image.mean = true;
    const std::vector<JsonNode> items = m->items();
    for (std::size_t i = 0; i < 4; ++i) im.image.means[i] = static_cast<int32_t>(items[i].as_int(-32768, 32767));
  }
  return im;
}

ConvConfig image_conv_config(const golden::ConvParams& p, const ImageLayer& im, const HwConfig& hw, uint64_t in_base,
                             uint64_t weight_base) {
  ConvConfig c = golden::conv_config_from(p, hw, in_base, weight_base);
  c.image = im.image;
  c.in_layout.base = in_base;
  c.in_layout.line_stride = im.line_stride;
  c.in_layout.surface_stride = 0;  // not read in image mode
  if (im.format->planes == 2) c.image.base_uv = in_base + roundup(im.line_stride * static_cast<uint64_t>(p.h), kPlaneAlign);
  c.weight_bytes = c.weight_layout().padded_bytes();  // the pre-extended weights'
  return c;
}

void check_image_layer(const JsonNode& root, const ConvConfig& c, const HwConfig& hw) {
  if (c.dilation_x != 1 || c.dilation_y != 1)
    root.require("dilation").fail("image input allows no dilation (CSC D_DILATION_EXT must be 0, §1.1)");
  const auto pad = [&](const char* key) { return root.require("padding").require(key); };
  if (c.pad_left >= c.kernel_w)
    pad("left").fail(fmt::format("PAD_LEFT {} must be smaller than the kernel width S = {} with image input (§1.7)",
                                 c.pad_left, c.kernel_w));
  if (c.pad_right >= c.kernel_w)
    pad("right").fail(fmt::format("PAD_RIGHT {} must be smaller than the kernel width S = {} with image input (§1.7)",
                                  c.pad_right, c.kernel_w));
  if (c.pad_top >= c.kernel_h)
    pad("top").fail(fmt::format("PAD_TOP {} must be smaller than the kernel height R = {} with image input (§1.7)",
                                c.pad_top, c.kernel_h));
  if (c.pad_bottom >= c.kernel_h)
    pad("bottom").fail(fmt::format(
        "PAD_BOTTOM {} must be smaller than the kernel height R = {} with image input (§1.7)", c.pad_bottom, c.kernel_h));
  if (const int e = c.image.post_extension; e > 1) {
    const int cx = c.kernel_w * c.input.c;
    if (cx > 64 / e)
      root.require("post_extension").fail(fmt::format(
          "post-extension by {} rows packs {} lines into the 64 MAC lanes: C' = S x C = {} x {} = {} must be <= {} (§3)",
          e, e, c.kernel_w, c.input.c, cx, 64 / e));
    if (c.stride_x * c.input.c > 64 / e)
      root.require("post_extension").fail(fmt::format(
          "post-extension by {} rows needs X stride x C = {} x {} <= {} (CSC's window pointer, §3)", e, c.stride_x,
          c.input.c, 64 / e));
  }
  if (const int cx = c.kernel_w * c.input.c; cx > kMaxChannelsExt)
    root.require("weights").require("s").fail(
        fmt::format("the pre-extended channels C' = S x C = {} x {} = {} exceed CSC's {} (§1.6)", c.kernel_w, c.input.c,
                    cx, kMaxChannelsExt));
  const PixelFormat& f = *golden::pixel_format(c.image.pixel_format);
  // An integer format into another precision (fp16 included: the converter's 17-bit result to
  // fp16) only through the input converter; NVDLA would store the raw bits.
  if (f.in_precision != 2 && static_cast<uint32_t>(f.in_precision) != golden::precision_code(c.precision) &&
      !c.cvt.enabled)
    root.require("precision").fail(fmt::format(
        "PROC precision {} differs from {}'s {}-bit input: only the input converter (\"converter\", CVT_EN = 1) "
        "changes the precision (§1.1)",
        golden::precision_name(c.precision), f.name, f.container_bits()));
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  if (d.data_banks_min + d.weight_banks_min > cb.banks)
    root.require("input").fail(fmt::format(
        "the image does not fit in CBUF: its H x ENTRY_PER_SLICE = {} x {} entries need {} banks of {} entries and "
        "one kernel group of pre-extended weights {} banks, more than {}'s {} banks; image input is not split (CSC "
        "starts when the whole image is in CBUF, §1.5)",
        c.input.h, d.entries_per_slice, d.data_banks_min, cb.entries_per_bank, d.weight_banks_min, hw.name, cb.banks));
  // Whatever else the model refuses (its rule text names the register).
  std::vector<std::string> why = c.unsupported();
  const std::vector<std::string> hwp = golden::image_hw_problems(c, hw);
  why.insert(why.end(), hwp.begin(), hwp.end());
  if (!why.empty()) root.require("input").fail(why.front());
}

void resolve_image_data(const JsonNode& in, const golden::ConvParams& p, ImageLayer& im, uint64_t seed) {
  const PixelFormat& f = *im.format;
  if (f.in_precision == 2) {
    // fp16 formats: fp16 values (docs/FP16.md "Layer JSON"), each component its 16-bit pattern
    im.components = resolve_fp16_values(in.require("data"),
                                        static_cast<std::size_t>(p.h) * static_cast<std::size_t>(p.w) *
                                            static_cast<std::size_t>(p.c),
                                        seed);
    for (int64_t& v : im.components) v &= 0xffff;
    return;
  }
  const int cb = f.container_bits();
  const bool sgn = im.image.sign_override;
  const int64_t lo = sgn ? static_cast<int64_t>(golden::min_of_bits(cb)) : 0;
  const int64_t hi = sgn ? static_cast<int64_t>(golden::max_of_bits(cb)) : (int64_t{1} << cb) - 1;
  const JsonNode data = in.require("data");
  const auto plane = static_cast<std::size_t>(p.h) * static_cast<std::size_t>(p.w);
  // A file holds signed little-endian elements: an unsigned image's components are their low n bits.
  const bool file = data.get("file").has_value() && !sgn;
  im.components = resolve_values(data, plane * static_cast<std::size_t>(p.c), cb / 8,
                                 file ? static_cast<int64_t>(golden::min_of_bits(cb)) : lo,
                                 file ? static_cast<int64_t>(golden::max_of_bits(cb)) : hi, seed);
  if (file) {
    for (int64_t& v : im.components) v &= (int64_t{1} << cb) - 1;
  }
  const bool random = data.get("random").has_value();
  for (int ch = 0; ch < p.c; ++ch) {
    const int w = f.field[static_cast<std::size_t>(ch)].width;
    if (w >= cb) continue;
    // The packed 10-bit formats' fields: 10-bit colour, 2-bit alpha.
    const int64_t flo = sgn ? static_cast<int64_t>(golden::min_of_bits(w)) : 0;
    const int64_t fhi = sgn ? static_cast<int64_t>(golden::max_of_bits(w)) : (int64_t{1} << w) - 1;
    for (std::size_t i = plane * static_cast<std::size_t>(ch); i < plane * static_cast<std::size_t>(ch + 1); ++i) {
      int64_t& v = im.components[i];
      if (random) {
        const uint64_t bits = static_cast<uint64_t>(v) & ((uint64_t{1} << w) - 1);
        v = sgn ? golden::sign_extend(bits, w) : static_cast<int64_t>(bits);
      } else if (v < flo || v > fhi) {
        data.fail(fmt::format("value {} at index {} (channel {}) is outside {}'s {}-bit {} field [{}, {}]", v, i, ch,
                              f.name, w, sgn ? "signed" : "unsigned", flo, fhi));
      }
    }
  }
}

std::vector<uint8_t> image_plane_bytes(const ImageLayer& im, const ConvConfig& c, int plane) {
  const PixelFormat& f = *im.format;
  const uint64_t stride = plane == 0 ? c.in_layout.line_stride : c.image.line_stride_uv;
  const uint64_t base = plane == 0 ? c.in_layout.base : c.image.base_uv;
  const int bpp = plane == 0 ? f.bpp0 : f.bpp1;
  std::vector<uint8_t> bytes(static_cast<std::size_t>(stride * static_cast<uint64_t>(c.input.h)), kGapFill);
  const auto hw_plane = static_cast<std::size_t>(c.input.h) * static_cast<std::size_t>(c.input.w);
  for (int y = 0; y < c.input.h; ++y) {
    for (int x = 0; x < c.input.w; ++x) {
      uint64_t word = 0;
      for (int ch = 0; ch < f.channels; ++ch) {
        const golden::PixelField& fd = f.field[static_cast<std::size_t>(ch)];
        if (fd.plane != plane) continue;
        const int64_t v = im.components[static_cast<std::size_t>(ch) * hw_plane +
                                        static_cast<std::size_t>(y) * static_cast<std::size_t>(c.input.w) +
                                        static_cast<std::size_t>(x)];
        word |= (static_cast<uint64_t>(v) & ((uint64_t{1} << fd.width) - 1)) << fd.lsb;
      }
      const uint64_t at = golden::image_pixel_address(c, plane, x, y) - base;  // §1.3
      for (int i = 0; i < bpp; ++i) bytes[static_cast<std::size_t>(at) + static_cast<std::size_t>(i)] = static_cast<uint8_t>(word >> (8 * i));
    }
  }
  return bytes;
}

std::vector<uint8_t> image_weight_bytes(const ConvConfig& c, const golden::Cube<int64_t>& w) {
  const golden::WeightLayout wl = c.weight_layout();  // K x C' x R x 1
  std::vector<uint8_t> bytes(wl.padded_bytes(), kGapFill);
  const golden::Cube<int64_t> pre = golden::image_pre_extend_weights(c, w);
  // Post-extension (§3): each weight at its row-group position (golden::image_weight_offset).
  for (int k = 0; k < pre.shape().n; ++k)
    for (int cx = 0; cx < pre.shape().c; ++cx)
      for (int r = 0; r < pre.shape().h; ++r) {
        const uint64_t at = golden::image_weight_offset(c, k, cx, r);
        for (int b = 0; b < c.bpe(); ++b)
          bytes[static_cast<std::size_t>(at) + static_cast<std::size_t>(b)] =
              static_cast<uint8_t>(static_cast<uint64_t>(pre.at(k, cx, r, 0)) >> (8 * b));
      }
  return bytes;
}

ConvBanks image_bank_split(const ConvConfig& c, const HwConfig& hw) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const int banks = golden::cbuf_geometry(hw).banks;
  return {d.data_banks_min, std::max(d.weight_banks_min, std::min(d.weight_banks_all, banks - d.data_banks_min))};
}

void apply_image_regs(BlockWords& w, const ConvConfig& c) {
  const PixelFormat& f = *golden::pixel_format(c.image.pixel_format);
  const uint32_t in = u(f.in_precision);
  const uint32_t prec = golden::precision_code(c.precision);
  const ConvImage& im = c.image;
  auto& cdma = w["CDMA"];
  cdma[cd::D_MISC_CFG::offset] = place(in, cd::D_MISC_CFG::IN_PRECISION{}) | place(prec, cd::D_MISC_CFG::PROC_PRECISION{});
  cdma[cd::D_DATAIN_FORMAT::offset] = place(1u, cd::D_DATAIN_FORMAT::DATAIN_FORMAT{}) |
                                      place(u(f.code), cd::D_DATAIN_FORMAT::PIXEL_FORMAT{}) |
                                      place(im.sign_override ? 1u : 0u, cd::D_DATAIN_FORMAT::PIXEL_SIGN_OVERRIDE{});
  cdma[cd::D_PIXEL_OFFSET::offset] = place(u(im.x_offset), cd::D_PIXEL_OFFSET::PIXEL_X_OFFSET{});
  cdma[cd::D_DAIN_ADDR_HIGH_1::offset] = place(static_cast<uint32_t>(im.base_uv >> 32), cd::D_DAIN_ADDR_HIGH_1::DATAIN_ADDR_HIGH_1{});
  cdma[cd::D_DAIN_ADDR_LOW_1::offset] = place(static_cast<uint32_t>(im.base_uv), cd::D_DAIN_ADDR_LOW_1::DATAIN_ADDR_LOW_1{});
  cdma[cd::D_LINE_UV_STRIDE::offset] = place(static_cast<uint32_t>(im.line_stride_uv), cd::D_LINE_UV_STRIDE::UV_LINE_STRIDE{});
  cdma[cd::D_SURF_STRIDE::offset] = 0;
  cdma[cd::D_DAIN_MAP::offset] = 0;
  cdma[cd::D_MEAN_FORMAT::offset] = place(im.mean ? 1u : 0u, cd::D_MEAN_FORMAT::MEAN_FORMAT{});
  cdma[cd::D_MEAN_GLOBAL_0::offset] =
      place(u(im.means[0]), cd::D_MEAN_GLOBAL_0::MEAN_RY{}) | place(u(im.means[1]), cd::D_MEAN_GLOBAL_0::MEAN_GU{});
  cdma[cd::D_MEAN_GLOBAL_1::offset] =
      place(u(im.means[2]), cd::D_MEAN_GLOBAL_1::MEAN_BV{}) | place(u(im.means[3]), cd::D_MEAN_GLOBAL_1::MEAN_AX{});
  // Left / right pad pixels: CDMA's value; CSC's (conv_register_words: c.pad_value) pads top / bottom.
  cdma[cd::D_ZERO_PADDING_VALUE::offset] = place(u(im.pad_value_lr), cd::D_ZERO_PADDING_VALUE::PAD_VALUE{});

  // CSC: the same input precision, PIXEL, the pre-extended kernel (S' = 1, C' = S * C).
  auto& csc = w["CSC"];
  csc[cs::D_MISC_CFG::offset] = place(in, cs::D_MISC_CFG::IN_PRECISION{}) | place(prec, cs::D_MISC_CFG::PROC_PRECISION{});
  csc[cs::D_DATAIN_FORMAT::offset] = place(1u, cs::D_DATAIN_FORMAT::DATAIN_FORMAT{});
  csc[cs::D_POST_Y_EXTENSION::offset] =
      place(im.post_extension == 4 ? 2u : u(im.post_extension - 1), cs::D_POST_Y_EXTENSION::Y_EXTENSION{});
  csc[cs::D_WEIGHT_SIZE_EXT_0::offset] = place(0u, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) |
                                         place(u(c.kernel_h - 1), cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{});
  csc[cs::D_WEIGHT_SIZE_EXT_1::offset] =
      place(u(c.kernel_w * c.input.c - 1), cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) |
      place(u(c.kernels - 1), cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{});
}

}  // namespace dla::harness::engines
