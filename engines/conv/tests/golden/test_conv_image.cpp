// Image input (golden/conv_image.hpp, docs/IMAGE_INPUT.md) on the register level: the test writes
// the five blocks' register words and the image's bytes itself, decode_conv + run_conv compute the
// CACC cube, and an int64 reference written here from ../shared/reference/cdma-input-modes.md
// (pixel addressing §1.3, unpacking by byte / bit positions of table 1.2, converter and means §2,
// pad values §2.4, the network convolution over the padded image) must equal it. Plus the
// reference document's worked examples (CBUF bytes, the converter, EPS, example 1b's outputs) as
// literal values, and the refusals of §1.7.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_image.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

// ---- the layer, as the test describes it ------------------------------------------------------

struct Img {
  const HwConfig* hw = &nv_full();
  int format = 12;
  int c = 4;            // channels of the format (table 1.2)
  int in_bits = 8;      // container bits of the format: 8 (INT8) or 16 (INT16)
  int bpp0 = 4, bpp1 = 0;
  int w = 3, h = 2;
  int x_offset = 0;
  bool sign = false;    // PIXEL_SIGN_OVERRIDE
  uint64_t base0 = 0x10000000, base1 = 0x18000000;
  uint64_t ls = 0, luvs = 0;  // 0: roundup((o + W) * bpp, atom) (+ extra_stride)
  uint64_t extra_stride = 0;
  int k = 1, r = 1, s = 1;
  int pl = 0, pr = 0, pt = 0, pb = 0;
  uint32_t pad_lr = 0, pad_tb = 0;  // raw 16-bit PAD_VALUE fields of CDMA and CSC
  int sx = 1, sy = 1;
  bool proc16 = false;
  bool cvt = false;
  int32_t offset = 0, scale = 1;
  int truncate = 0;
  bool mean = false;
  int32_t means[4] = {0, 0, 0, 0};
  int clip = 0;
  int ext = 1;              // channel post-extension E (CSC D_POST_Y_EXTENSION = log2 E)
  std::vector<int64_t> wt;  // network weights [k][c][r][s]

  int bpe() const { return proc16 ? 2 : 1; }
  int atom() const { return hw->atom_bytes; }
  int ow() const { return (pl + w + pr - s) / sx + 1; }
  int oh() const { return (pt + h + pb - r) / sy + 1; }
  int cx() const { return s * c; }
  int64_t weight(int kk, int cc, int rr, int ss) const {
    return wt[static_cast<std::size_t>(((kk * c + cc) * r + rr) * s + ss)];
  }
  uint64_t line_stride() const {
    if (ls != 0) return ls;
    const uint64_t a = static_cast<uint64_t>(atom());
    return (static_cast<uint64_t>((x_offset + w) * bpp0) + a - 1) / a * a + extra_stride;
  }
  uint64_t uv_stride() const {
    if (luvs != 0) return luvs;
    const uint64_t a = static_cast<uint64_t>(atom());
    return (static_cast<uint64_t>((x_offset * bpp1) % atom() + w * bpp1) + a - 1) / a * a + 2 * extra_stride;
  }
};

struct Mem {
  std::unordered_map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? 0 : it->second;
  }
  ByteReader reader() const {
    return [this](uint64_t a) { return read(a); };
  }
};

constexpr uint64_t kWtBase = 0x20000000;

int64_t sext(uint64_t v, int bits) {
  v &= (uint64_t{1} << bits) - 1;
  return v >= (uint64_t{1} << (bits - 1)) ? static_cast<int64_t>(v) - (int64_t{1} << bits) : static_cast<int64_t>(v);
}

// ---- the reference: unpacking by table 1.2, written out per format ---------------------------

uint64_t le(const Mem& m, uint64_t a, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{m.read(a + static_cast<uint64_t>(i))} << (8 * i);
  return v;
}

// CBUF channels (R,G,B,A / Y,U,V,A / Y,U,V) of the pixel whose plane-0 bytes start at a0 and
// plane-1 bytes at a1, as stored in memory (table 1.2).
std::vector<uint32_t> ref_unpack(int format, const Mem& m, uint64_t a0, uint64_t a1) {
  auto b = [&](int i) { return static_cast<uint32_t>(m.read(a0 + static_cast<uint64_t>(i))); };
  auto hw16 = [&](uint64_t a, int i) { return static_cast<uint32_t>(le(m, a + 2 * static_cast<uint64_t>(i), 2)); };
  auto uvb = [&](int i) { return static_cast<uint32_t>(m.read(a1 + static_cast<uint64_t>(i))); };
  const auto word = static_cast<uint32_t>(le(m, a0, 4));
  auto ten = [&](int lsb) { return ((word >> lsb) & 0x3ffu) << 6; };
  auto two = [&](int lsb) { return ((word >> lsb) & 0x3u) << 14; };
  switch (format) {
    case 0: return {b(0)};
    case 1: case 2: case 3: case 4: return {hw16(a0, 0)};
    case 6: case 7: return {hw16(a0, 0), hw16(a0, 1), hw16(a0, 2), hw16(a0, 3)};            // h0=R h1=G h2=B h3=A
    case 9: return {hw16(a0, 2), hw16(a0, 1), hw16(a0, 0), hw16(a0, 3)};                    // h0=V h1=U h2=Y h3=A
    case 10: return {hw16(a0, 1), hw16(a0, 2), hw16(a0, 3), hw16(a0, 0)};                   // h0=A h1=Y h2=U h3=V
    case 12: case 16: return {b(0), b(1), b(2), b(3)};                                      // b0=R b1=G b2=B b3=A
    case 13: case 17: return {b(2), b(1), b(0), b(3)};                                      // b0=B b1=G b2=R b3=A
    case 14: case 18: return {b(1), b(2), b(3), b(0)};                                      // b0=A b1=R b2=G b3=B
    case 15: case 19: return {b(3), b(2), b(1), b(0)};                                      // b0=A b1=B b2=G b3=R
    case 20: return {ten(0), ten(10), ten(20), two(30)};                                    // R[9:0] G B A[31:30]
    case 21: return {ten(20), ten(10), ten(0), two(30)};                                    // B[9:0] G R[29:20]
    case 22: return {ten(2), ten(12), ten(22), two(0)};                                     // A[1:0] R[11:2] G B
    case 23: return {ten(22), ten(12), ten(2), two(0)};                                     // A B[11:2] G R[31:22]
    case 24: return {ten(20), ten(10), ten(0), two(30)};                                    // V[9:0] U Y[29:20] A
    case 25: return {ten(2), ten(12), ten(22), two(0)};                                     // A Y[11:2] U V[31:22]
    case 26: return {b(2), b(1), b(0), b(3)};                                               // b0=V b1=U b2=Y b3=A
    case 27: return {b(1), b(2), b(3), b(0)};                                               // b0=A b1=Y b2=U b3=V
    case 28: return {b(0), uvb(1), uvb(0)};                                                 // plane1 b0=V b1=U
    case 29: return {b(0), uvb(0), uvb(1)};                                                 // plane1 b0=U b1=V
    case 30: case 32: case 34: return {hw16(a0, 0), hw16(a1, 1), hw16(a1, 0)};              // plane1 h0=V h1=U
    case 31: case 33: case 35: return {hw16(a0, 0), hw16(a1, 0), hw16(a1, 1)};              // plane1 h0=U h1=V
    default: FAIL("format " << format << " has no reference"); return {};
  }
}

// §2.2 by hand: extend, subtract the mean or offset, scale, round half away from zero, saturate.
int64_t ref_convert(const Img& L, uint32_t raw, int ch) {
  const int out = 8 * L.bpe();
  if (!L.cvt) return sext(raw, out);
  const int64_t x = L.sign ? sext(raw, L.in_bits) : static_cast<int64_t>(raw);
  const int64_t op = L.mean ? L.means[ch] : L.offset;
  const int64_t m = (x - op) * L.scale;
  int64_t q = m;
  if (L.truncate > 0) {
    const int64_t mag = m < 0 ? -m : m;
    const int64_t qm = (mag + (int64_t{1} << (L.truncate - 1))) >> L.truncate;
    q = m < 0 ? -qm : qm;
  }
  const int64_t hi = (int64_t{1} << (out - 1)) - 1;
  return q > hi ? hi : (q < -hi - 1 ? -hi - 1 : q);
}

// The value the network convolution sees at padded column p (0 = first left pad) of image line
// `line`, channel ch.
int64_t ref_value(const Img& L, const Mem& m, int p, int line, int ch) {
  const int out = 8 * L.bpe();
  if (line < 0 || line >= L.h) return sext(L.pad_tb, out);  // CSC's top / bottom rows
  const int x = p - L.pl;
  if (x < 0 || x >= L.w) return sext(L.pad_lr, out);        // CDMA's left / right pixels
  const uint64_t a0 = L.base0 + static_cast<uint64_t>(line) * L.line_stride() +
                      static_cast<uint64_t>((L.x_offset + x) * L.bpp0);
  uint64_t a1 = 0;
  if (L.bpp1 != 0) {
    const int per_atom = L.atom() / L.bpp1;
    a1 = L.base1 + static_cast<uint64_t>(line) * L.uv_stride() +
         static_cast<uint64_t>((L.x_offset % per_atom + x) * L.bpp1);
  }
  const std::vector<uint32_t> raw = ref_unpack(L.format, m, a0, a1);
  return ref_convert(L, raw[static_cast<std::size_t>(ch)], ch);
}

int64_t ref_clip(int64_t v, int s) {
  int64_t q = v;
  if (s > 0) {
    const int64_t mag = v < 0 ? -v : v;
    const int64_t qm = (mag + (int64_t{1} << (s - 1))) >> s;
    q = v < 0 ? -qm : qm;
  }
  return q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : q);
}

// out[k][yo][xo] = clip(sum over r, s, c of w[k][c][r][s] * value(xo*sx + s, yo*sy + r - pt, c)).
int64_t ref_out(const Img& L, const Mem& m, int k, int yo, int xo) {
  int64_t acc = 0;
  for (int r = 0; r < L.r; ++r)
    for (int s = 0; s < L.s; ++s)
      for (int c = 0; c < L.c; ++c) acc += L.weight(k, c, r, s) * ref_value(L, m, xo * L.sx + s, yo * L.sy + r - L.pt, c);
  return ref_clip(acc, L.clip);
}

// ---- registers and memory, written by the test -------------------------------------------------

struct Words {
  std::map<uint32_t, uint32_t> cdma, csc, cmac, cacc;
};

void put(std::map<uint32_t, uint32_t>& m, uint32_t off, regs::Field f, int64_t v) {
  m[off] = (m[off] & ~f.mask()) | regs::place(static_cast<uint32_t>(v), f);
}

int cdiv(int64_t a, int64_t b) { return static_cast<int>((a + b - 1) / b); }

// The words of §1.1 for L, every bookkeeping value from the reference document's formulas.
Words encode(const Img& L) {
  namespace cd = regs::cdma;
  namespace cs = regs::csc;
  namespace cm = regs::cmac_a;
  namespace ca = regs::cacc;
  const HwConfig& hw = *L.hw;
  const int in_prec = L.in_bits == 8 ? 0 : 1, prec = L.proc16 ? 1 : 0;
  const int eps = cdiv((L.pl + L.w + L.pr) * L.c * L.bpe(), hw.cbuf_entry_bytes);
  const int bpk = L.r * L.cx() * L.bpe();
  const int64_t wbytes = (int64_t{L.k} * L.r * L.cx() * L.bpe() + 127) / 128 * 128;
  const int ak = hw.atomic_k(L.proc16 ? Precision::Int16 : Precision::Int8);
  const int64_t bank_bytes = int64_t{hw.cbuf_entries} * hw.cbuf_entry_bytes;
  const int data_banks = cdiv(int64_t{eps} * L.h, hw.cbuf_entries);
  const int weight_banks = cdiv(int64_t{std::min(L.k, ak)} * bpk, bank_bytes);
  Words w;
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::IN_PRECISION{}, in_prec);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cdma, cd::D_DATAIN_FORMAT::offset, cd::D_DATAIN_FORMAT::DATAIN_FORMAT{}, 1);
  // MC: the reset value 0 selects CV-SRAM, which nv_small lacks
  put(w.cdma, cd::D_DAIN_RAM_TYPE::offset, cd::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{}, 1);
  put(w.cdma, cd::D_WEIGHT_RAM_TYPE::offset, cd::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE{}, 1);
  put(w.cdma, cd::D_DATAIN_FORMAT::offset, cd::D_DATAIN_FORMAT::PIXEL_FORMAT{}, L.format);
  put(w.cdma, cd::D_DATAIN_FORMAT::offset, cd::D_DATAIN_FORMAT::PIXEL_SIGN_OVERRIDE{}, L.sign ? 1 : 0);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}, L.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}, L.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, L.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, L.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_1::offset, cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}, L.c - 1);
  put(w.cdma, cd::D_PIXEL_OFFSET::offset, cd::D_PIXEL_OFFSET::PIXEL_X_OFFSET{}, L.x_offset);
  put(w.cdma, cd::D_DAIN_ADDR_HIGH_0::offset, cd::D_DAIN_ADDR_HIGH_0::DATAIN_ADDR_HIGH_0{}, static_cast<int64_t>(L.base0 >> 32));
  put(w.cdma, cd::D_DAIN_ADDR_LOW_0::offset, cd::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{},
      static_cast<int64_t>(L.base0 & 0xffffffffu));
  put(w.cdma, cd::D_DAIN_ADDR_HIGH_1::offset, cd::D_DAIN_ADDR_HIGH_1::DATAIN_ADDR_HIGH_1{}, static_cast<int64_t>(L.base1 >> 32));
  put(w.cdma, cd::D_DAIN_ADDR_LOW_1::offset, cd::D_DAIN_ADDR_LOW_1::DATAIN_ADDR_LOW_1{},
      static_cast<int64_t>(L.base1 & 0xffffffffu));
  put(w.cdma, cd::D_LINE_STRIDE::offset, cd::D_LINE_STRIDE::LINE_STRIDE{}, static_cast<int64_t>(L.line_stride()));
  if (L.bpp1 != 0)
    put(w.cdma, cd::D_LINE_UV_STRIDE::offset, cd::D_LINE_UV_STRIDE::UV_LINE_STRIDE{}, static_cast<int64_t>(L.uv_stride()));
  put(w.cdma, cd::D_ENTRY_PER_SLICE::offset, cd::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_0::offset, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}, bpk - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_1::offset, cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}, L.k - 1);
  put(w.cdma, cd::D_WEIGHT_ADDR_LOW::offset, cd::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{}, static_cast<int64_t>(kWtBase));
  put(w.cdma, cd::D_WEIGHT_BYTES::offset, cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}, wbytes);
  put(w.cdma, cd::D_MEAN_FORMAT::offset, cd::D_MEAN_FORMAT::MEAN_FORMAT{}, L.mean ? 1 : 0);
  put(w.cdma, cd::D_MEAN_GLOBAL_0::offset, cd::D_MEAN_GLOBAL_0::MEAN_RY{}, L.means[0]);
  put(w.cdma, cd::D_MEAN_GLOBAL_0::offset, cd::D_MEAN_GLOBAL_0::MEAN_GU{}, L.means[1]);
  put(w.cdma, cd::D_MEAN_GLOBAL_1::offset, cd::D_MEAN_GLOBAL_1::MEAN_BV{}, L.means[2]);
  put(w.cdma, cd::D_MEAN_GLOBAL_1::offset, cd::D_MEAN_GLOBAL_1::MEAN_AX{}, L.means[3]);
  put(w.cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_EN{}, L.cvt ? 1 : 0);
  put(w.cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_TRUNCATE{}, L.truncate);
  put(w.cdma, cd::D_CVT_OFFSET::offset, cd::D_CVT_OFFSET::CVT_OFFSET{}, L.offset);
  put(w.cdma, cd::D_CVT_SCALE::offset, cd::D_CVT_SCALE::CVT_SCALE{}, L.scale);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_X_STRIDE{}, L.sx - 1);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_Y_STRIDE{}, L.sy - 1);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_LEFT{}, L.pl);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_RIGHT{}, L.pr);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_TOP{}, L.pt);
  put(w.cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_BOTTOM{}, L.pb);
  put(w.cdma, cd::D_ZERO_PADDING_VALUE::offset, cd::D_ZERO_PADDING_VALUE::PAD_VALUE{}, L.pad_lr);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::IN_PRECISION{}, in_prec);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.csc, cs::D_DATAIN_FORMAT::offset, cs::D_DATAIN_FORMAT::DATAIN_FORMAT{}, 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, L.w - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, L.h - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_1::offset, cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}, L.c - 1);
  put(w.csc, cs::D_ENTRY_PER_SLICE::offset, cs::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}, 0);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}, L.r - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}, L.cx() - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}, L.k - 1);
  put(w.csc, cs::D_POST_Y_EXTENSION::offset, cs::D_POST_Y_EXTENSION::Y_EXTENSION{}, L.ext == 4 ? 2 : L.ext - 1);
  put(w.csc, cs::D_WEIGHT_BYTES::offset, cs::D_WEIGHT_BYTES::WEIGHT_BYTES{}, wbytes);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, L.ow() - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, L.oh() - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_1::offset, cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, L.k - 1);
  put(w.csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, L.ow() * L.oh() - 1);
  put(w.csc, cs::D_RELEASE::offset, cs::D_RELEASE::RLS_SLICES{}, L.h - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}, L.sx - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}, L.sy - 1);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_LEFT{}, L.pl);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_TOP{}, L.pt);
  put(w.csc, cs::D_ZERO_PADDING_VALUE::offset, cs::D_ZERO_PADDING_VALUE::PAD_VALUE{}, L.pad_tb);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.csc, cs::D_BANK::offset, cs::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  put(w.cmac, cm::D_MISC_CFG::offset, cm::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, L.ow() - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, L.oh() - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_1::offset, ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, L.k - 1);
  put(w.cacc, ca::D_CLIP_CFG::offset, ca::D_CLIP_CFG::CLIP_TRUNCATE{}, L.clip);
  return w;
}

ConvConfig decode(const Words& w, const HwConfig& hw) {
  auto reader = [](const std::map<uint32_t, uint32_t>& m) {
    return [&m](uint32_t off) {
      const auto it = m.find(off);
      return it == m.end() ? 0u : it->second;
    };
  };
  return decode_conv({reader(w.cdma), reader(w.csc), reader(w.cmac), reader(w.cmac), reader(w.cacc)}, hw);
}

// Pre-extended weights K x C' x R x 1 (c' = s*C + c) at kWtBase in the direct-convolution order
// (conv-pipeline.md §2.2, cdma-input-modes.md §1.6): kernel group -> channel block -> r -> kernel
// -> channel of the block; the tail to WEIGHT_BYTES gets garbage. With post-extension E > 1
// (§3, one block): kernel group -> row group q (rows qE .. min(R, qE + E) - 1, n rows) -> kernel
// -> row of the group -> channel, i.e. a kernel's n rows contiguous.
void store_weights_ref(const Img& L, Mem& m, std::mt19937& rng) {
  const HwConfig& hw = *L.hw;
  const int ak = hw.atomic_k(L.proc16 ? Precision::Int16 : Precision::Int8), ac = hw.atomic_c;
  const int cx = L.cx(), bpe = L.bpe();
  const int64_t total = int64_t{L.k} * L.r * cx * bpe;
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t a = 0; a < (total + 127) / 128 * 128; ++a)
    m.bytes[kWtBase + static_cast<uint64_t>(a)] = static_cast<uint8_t>(byte(rng));
  for (int k = 0; k < L.k; ++k) {
    const int g = k / ak, kpg = std::min(ak, L.k - g * ak);
    for (int e = 0; e < cx; ++e) {
      const int b = e / ac, cpb = std::min(ac, cx - b * ac);
      const int s = e / L.c, c = e % L.c;
      for (int r = 0; r < L.r; ++r) {
        int64_t off = int64_t{g} * ak * L.r * cx * bpe + int64_t{b} * ac * L.r * kpg * bpe +
                      int64_t{r} * kpg * cpb * bpe + int64_t{k % ak} * cpb * bpe + int64_t{e % ac} * bpe;
        if (L.ext > 1) {
          const int q = r / L.ext, n = std::min(L.r, q * L.ext + L.ext) - q * L.ext;
          off = int64_t{g} * ak * L.r * cx * bpe + int64_t{kpg} * q * L.ext * cx * bpe + int64_t{k % ak} * n * cx * bpe +
                int64_t{r % L.ext} * cx * bpe + int64_t{e} * bpe;
        }
        const int64_t v = L.weight(k, c, r, s);
        for (int i = 0; i < bpe; ++i)
          m.bytes[kWtBase + static_cast<uint64_t>(off + i)] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
      }
    }
  }
}

// Random image bytes over every line of both planes (line gaps and bytes before the x offset
// included), random weights in the precision's range.
void fill_random(Img& L, Mem& m, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint64_t a = 0; a < L.line_stride() * static_cast<uint64_t>(L.h); ++a)
    m.bytes[L.base0 + a] = static_cast<uint8_t>(byte(rng));
  if (L.bpp1 != 0)
    for (uint64_t a = 0; a < L.uv_stride() * static_cast<uint64_t>(L.h); ++a)
      m.bytes[L.base1 + a] = static_cast<uint8_t>(byte(rng));
  const int64_t lim = L.proc16 ? 32767 : 127;
  std::uniform_int_distribution<int64_t> wv(-lim - 1, lim);
  L.wt.resize(static_cast<std::size_t>(L.k * L.c * L.r * L.s));
  for (auto& v : L.wt) v = wv(rng);
}

ConvRun run_image(const Img& L, const Mem& m) {
  const ConvConfig cfg = decode(encode(L), *L.hw);
  std::string all;
  for (const auto& e : cfg.unsupported()) all += e + "\n";
  INFO(all);
  REQUIRE(all.empty());
  return run_conv(cfg, *L.hw, m.reader());
}

void check_against_reference(const Img& L, const Mem& m) {
  INFO("format " << L.format << " on " << L.hw->name << " W" << L.w << " H" << L.h << " S" << L.s << " R" << L.r
                 << " K" << L.k << " pads " << L.pl << "/" << L.pr << "/" << L.pt << "/" << L.pb << " stride " << L.sx
                 << "x" << L.sy << " offset " << L.x_offset << (L.sign ? " signed" : " unsigned") << (L.cvt ? " cvt" : "")
                 << (L.mean ? " mean" : "") << (L.proc16 ? " proc int16" : " proc int8"));
  const ConvRun run = run_image(L, m);
  REQUIRE(run.cacc.shape().h == L.oh());
  REQUIRE(run.cacc.shape().w == L.ow());
  int bad = 0;
  for (int k = 0; k < run.cacc.shape().c; ++k)
    for (int y = 0; y < L.oh(); ++y)
      for (int x = 0; x < L.ow(); ++x) {
        const int64_t want = k < L.k ? ref_out(L, m, k, y, x) : 0;
        const int64_t got = run.cacc.at(0, k, y, x);
        if (got != want && ++bad <= 5) FAIL_CHECK("k=" << k << " y=" << y << " x=" << x << ": got " << got << " want " << want);
      }
  CHECK(bad == 0);
}

void random_case(Img L, uint32_t seed) {
  std::mt19937 rng(seed);
  Mem m;
  fill_random(L, m, rng);
  store_weights_ref(L, m, rng);
  check_against_reference(L, m);
}

// The format's shape from table 1.2, for the test's Img.
Img format_layer(int format, const HwConfig& hw) {
  Img L;
  L.hw = &hw;
  L.format = format;
  if (format == 0) {
    L.c = 1, L.in_bits = 8, L.bpp0 = 1;
  } else if (format <= 4) {
    L.c = 1, L.in_bits = 16, L.bpp0 = 2;
  } else if (format <= 10) {
    L.c = 4, L.in_bits = 16, L.bpp0 = 8;
  } else if (format <= 19 || format == 26 || format == 27) {
    L.c = 4, L.in_bits = 8, L.bpp0 = 4;
  } else if (format <= 25) {
    L.c = 4, L.in_bits = 16, L.bpp0 = 4;
  } else if (format <= 29) {
    L.c = 3, L.in_bits = 8, L.bpp0 = 1, L.bpp1 = 2;
  } else {
    L.c = 3, L.in_bits = 16, L.bpp0 = 2, L.bpp1 = 4;
  }
  L.proc16 = L.in_bits == 16;
  return L;
}

std::string problems(const Words& w, const HwConfig& hw) {
  std::string all;
  for (const auto& e : decode(w, hw).unsupported()) all += e + "\n";
  return all;
}

}  // namespace

// ---- worked examples of the reference document ---------------------------------------------------

TEST_CASE("image input reproduces the reference document's example 1b (CBUF line and outputs)", "[conv][image]") {
  for (const HwConfig* hw : {&nv_full(), &nv_small()}) {
    INFO(hw->name);
    Img L = format_layer(12, *hw);  // A8B8G8R8: b0 = R
    L.w = 3, L.h = 2, L.sign = true, L.cvt = true, L.scale = 1;
    L.pl = 1, L.pt = 1, L.pad_lr = 5, L.pad_tb = 5;
    L.r = 2, L.s = 2, L.k = 1;
    Mem m;
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) {
        const int v = 10 * y + x + 1;
        const uint64_t a = L.base0 + static_cast<uint64_t>(y) * L.line_stride() + static_cast<uint64_t>(4 * x);
        m.bytes[a] = static_cast<uint8_t>(v);
        m.bytes[a + 1] = static_cast<uint8_t>(-v);
        m.bytes[a + 2] = 2;
        m.bytes[a + 3] = 0;
      }
    // Pre-extended stream (r-major, c' = 4s + c) as the document prints it.
    const int8_t stream[16] = {1, 2, -1, 0, 2, 4, -2, 0, 3, 6, -3, 0, 4, 8, -4, 0};
    for (int i = 0; i < 16; ++i) m.bytes[kWtBase + static_cast<uint64_t>(i)] = static_cast<uint8_t>(stream[i]);

    const ConvConfig cfg = decode(encode(L), *hw);
    REQUIRE(cfg.unsupported().empty());
    CHECK(conv_derived(cfg, *hw).entries_per_slice == (hw == &nv_full() ? 1 : 2));
    const ImageCbuf cb = image_cbuf(cfg, *hw, m.reader());
    const uint8_t line0[16] = {0x05, 0x05, 0x05, 0x05, 0x01, 0xFF, 0x02, 0x00,
                               0x02, 0xFE, 0x02, 0x00, 0x03, 0xFD, 0x02, 0x00};
    for (int i = 0; i < 16; ++i) CHECK(cb.bytes[static_cast<std::size_t>(i)] == line0[i]);
    const ConvRun run = run_conv(cfg, *hw, m.reader());
    const int64_t want[2][3] = {{48, 5, -2}, {-18, -106, -116}};
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) CHECK(run.cacc.at(0, 0, y, x) == want[y][x]);
    // The same weights through the compiler's helper: network w[c][r][s] = (1,2,-1,0)[c] * (1+2r+s).
    Cube<int64_t> net(CubeShape{1, 4, 2, 2});
    const int cw[4] = {1, 2, -1, 0};
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 2; ++r)
        for (int s = 0; s < 2; ++s) net.at(0, c, r, s) = cw[c] * (1 + 2 * r + s);
    const Cube<int64_t> ext = image_pre_extend_weights(cfg, net);
    REQUIRE(ext.shape() == CubeShape{1, 8, 2, 1});
    for (int r = 0; r < 2; ++r)
      for (int e = 0; e < 8; ++e) CHECK(ext.at(0, e, r, 0) == stream[8 * r + e]);
  }
}

TEST_CASE("image converter follows the reference document's example 1 (mean, offset, sign, saturation)", "[conv][image]") {
  // A8R8G8B8, pixel bytes 19 80 C8 FF: (R,G,B,A) = (200, 128, 25, 255) unsigned.
  Img L = format_layer(13, nv_full());
  L.w = 1, L.h = 1, L.cvt = true, L.truncate = 1, L.scale = 1, L.offset = 5;
  L.mean = true, L.means[0] = 10, L.means[1] = 20, L.means[2] = 30, L.means[3] = 0;
  Mem m;
  const uint8_t px[4] = {0x19, 0x80, 0xC8, 0xFF};
  for (int i = 0; i < 4; ++i) m.bytes[L.base0 + static_cast<uint64_t>(i)] = px[i];
  auto cbuf4 = [&](const Img& l) {
    const ConvConfig cfg = decode(encode(l), nv_full());
    REQUIRE(cfg.unsupported().empty());
    const ImageCbuf cb = image_cbuf(cfg, nv_full(), m.reader());
    return std::vector<uint8_t>(cb.bytes.begin(), cb.bytes.begin() + 4);
  };
  CHECK(cbuf4(L) == std::vector<uint8_t>{0x5F, 0x36, 0xFD, 0x7F});  // 95, 54, -2.5 -> -3, 127.5 -> 128 -> 127
  L.sign = true;
  CHECK(cbuf4(L) == std::vector<uint8_t>{0xDF, 0xB6, 0xFD, 0xFF});  // (-56, -128, 25, -1) -> (-33, -74, -3, -1)
  L.sign = false, L.mean = false;
  CHECK(cbuf4(L) == std::vector<uint8_t>{98, 62, 10, 125});         // offset 5 replaces nothing: (x - 5) / 2
}

TEST_CASE("image 10-bit packed components are left-justified (A2B10G10R10 word of the document)", "[conv][image]") {
  Img L = format_layer(20, nv_full());
  L.w = 1, L.h = 1;
  Mem m;
  for (int i = 0; i < 4; ++i) m.bytes[L.base0 + static_cast<uint64_t>(i)] = static_cast<uint8_t>(0xA0030003u >> (8 * i));
  const ConvConfig cfg = decode(encode(L), nv_full());
  REQUIRE(cfg.unsupported().empty());
  const ImageCbuf cb = image_cbuf(cfg, nv_full(), m.reader());
  CHECK(cb.element(0, 0) == 0x00C0);
  CHECK(cb.element(0, 1) == 0x3000);
  CHECK(cb.element(0, 2) == -0x8000);  // 0x8000 as a signed int16 element (CVT off: raw bits)
  CHECK(cb.element(0, 3) == -0x8000);
}

TEST_CASE("image ENTRY_PER_SLICE and stripes follow the reference document's numbers", "[conv][image]") {
  auto eps = [](const HwConfig& hw, int format, int w, int pad, bool proc16) {
    Img L = format_layer(format, hw);
    L.w = w, L.pl = L.pr = pad, L.s = pad + 1, L.proc16 = proc16;
    return conv_derived(decode(encode(L), hw), hw).entries_per_slice;
  };
  CHECK(eps(nv_full(), 12, 100, 1, false) == 4);
  CHECK(eps(nv_small(), 12, 100, 1, false) == 51);
  CHECK(eps(nv_full(), 28, 640, 3, false) == 16);
  CHECK(eps(nv_full(), 6, 224, 0, true) == 14);
  Img L = format_layer(12, nv_full());
  L.w = 100, L.h = 2;
  CHECK(image_stripes(decode(encode(L), nv_full())) == std::vector<int>{64, 36, 64, 36});
  L.proc16 = true, L.cvt = true;
  CHECK(image_stripes(decode(encode(L), nv_full())) == std::vector<int>{64, 36, 64, 36});
  {  // CSC issues them: 4 stripes per kernel group; 200 positions x 1 block x R 2 x 2 groups atomic ops
    Img l = format_layer(12, nv_full());
    l.w = 100, l.h = 3, l.r = 2, l.k = 33;
    Mem m;
    const ConvRun run = run_image(l, m);
    CHECK(run.stats.stripes_per_group == 4);
    CHECK(run.stats.atomic_ops == 200 * 2 * 2);
  }
  L = format_layer(12, nv_small());
  L.w = 20, L.h = 1;
  CHECK(image_stripes(decode(encode(L), nv_small())) == std::vector<int>{16, 4});
}

// ---- every integer format family against the int64 reference ------------------------------------

TEST_CASE("image 8-bit packed formats (RGBA orders, YUV, R8) equal the int64 reference", "[conv][image]") {
  uint32_t seed = 100;
  for (const HwConfig* hw : {&nv_full(), &nv_small()}) {
    for (const int f : {0, 12, 13, 14, 15, 16, 17, 18, 19, 26, 27}) {
      Img L = format_layer(f, *hw);
      L.w = 5, L.h = 4, L.r = 2, L.s = 3, L.k = 2, L.pl = 1, L.pr = 2, L.pt = 1, L.pb = 1;
      L.pad_lr = 0x1F3, L.pad_tb = 0xFFF9;  // low 8 bits: -13 and -7
      L.clip = 2;
      random_case(L, seed++);  // raw bits: uint8 200 becomes -56
      L.sign = true, L.cvt = true, L.offset = -9, L.scale = 3, L.truncate = 2;
      random_case(L, seed++);
      L.sign = false, L.mean = true, L.means[0] = 100, L.means[1] = -20, L.means[2] = 300, L.means[3] = 7;
      random_case(L, seed++);
    }
  }
}

TEST_CASE("image 16-bit formats (R10/R12/R16, RGBA16, YUVA16) equal the int64 reference", "[conv][image]") {
  uint32_t seed = 200;
  for (const int f : {1, 2, 3, 4, 6, 7, 9, 10}) {
    Img L = format_layer(f, nv_full());
    L.w = 4, L.h = 3, L.r = 2, L.s = 2, L.k = 2, L.pl = 1, L.pt = 1, L.pb = 1;
    L.pad_lr = 0x8001, L.pad_tb = 0x1234;
    L.clip = 9;
    random_case(L, seed++);
    L.sign = true, L.cvt = true, L.offset = 1000, L.scale = -2, L.truncate = 1;
    random_case(L, seed++);
    // 16-bit input into int8 processing (IN != PROC needs the converter): saturation to int8.
    L.proc16 = false, L.sign = false, L.truncate = 7, L.scale = 5, L.pad_lr = 0x80, L.pad_tb = 0x7f;
    L.mean = true, L.means[0] = 30000, L.means[1] = -300, L.means[2] = 1, L.means[3] = -32768;
    random_case(L, seed++);
  }
}

TEST_CASE("image 10-bit packed formats equal the int64 reference", "[conv][image]") {
  uint32_t seed = 300;
  for (const int f : {20, 21, 22, 23, 24, 25}) {
    Img L = format_layer(f, nv_full());
    L.w = 4, L.h = 2, L.r = 1, L.s = 2, L.k = 3, L.pr = 1;
    L.pad_lr = 0x4321;
    random_case(L, seed++);
    L.cvt = true, L.mean = true, L.means[0] = 512, L.means[1] = -64, L.means[2] = 0, L.means[3] = 16384;
    L.scale = 3, L.truncate = 3;
    random_case(L, seed++);
    L.sign = true;
    random_case(L, seed++);
  }
}

TEST_CASE("image semi-planar YUV formats read the second plane with LINE_UV_STRIDE", "[conv][image]") {
  uint32_t seed = 400;
  for (const int f : {28, 29, 30, 31, 32, 33, 34, 35}) {
    Img L = format_layer(f, nv_full());
    L.w = 6, L.h = 3, L.r = 3, L.s = 2, L.k = 2, L.pl = 1, L.pt = 2, L.pb = 1, L.sy = 2;
    L.extra_stride = 64;  // line gaps in both planes, different pitches
    L.base1 = 0x18000040;
    L.pad_lr = 3, L.pad_tb = 0xFFFE;
    random_case(L, seed++);
    L.cvt = true, L.sign = true, L.mean = true, L.means[0] = -5, L.means[1] = 17, L.means[2] = -128, L.scale = 7;
    L.truncate = 4;
    random_case(L, seed++);
  }
  // 8-bit semi-planar on nv_small (8-byte atoms)
  Img L = format_layer(28, nv_small());
  L.w = 9, L.h = 2, L.r = 2, L.s = 3, L.k = 9, L.pr = 2;
  L.cvt = true, L.offset = 128, L.scale = 1;
  random_case(L, seed++);
}

TEST_CASE("image PIXEL_X_OFFSET shifts both planes (plane 1 modulo its pixels per atom)", "[conv][image]") {
  uint32_t seed = 500;
  struct Case { const HwConfig* hw; int format; int offset; };
  for (const Case& c : {Case{&nv_full(), 12, 7}, Case{&nv_full(), 0, 31}, Case{&nv_full(), 3, 15},
                        Case{&nv_full(), 28, 13}, Case{&nv_full(), 34, 11}, Case{&nv_full(), 6, 3},
                        Case{&nv_small(), 12, 1}, Case{&nv_small(), 29, 5}}) {
    Img L = format_layer(c.format, *c.hw);
    L.x_offset = c.offset;
    L.w = 7, L.h = 2, L.r = 2, L.s = 2, L.k = 1, L.pl = 1;
    random_case(L, seed++);
  }
}

TEST_CASE("image strides, several channel blocks and kernel groups equal the int64 reference", "[conv][image]") {
  uint32_t seed = 600;
  {  // nv_full: C' = 20 * 4 = 80 (blocks 64 + 16), stride 3 x 2, K = 40 (two groups)
    Img L = format_layer(15, nv_full());
    L.w = 40, L.h = 6, L.s = 20, L.r = 3, L.k = 40, L.sx = 3, L.sy = 2, L.pl = 5, L.pr = 7, L.pt = 2, L.pb = 2;
    L.pad_lr = 0x11, L.pad_tb = 0x22, L.clip = 4;
    L.cvt = true, L.mean = true, L.means[0] = 120, L.means[1] = 110, L.means[2] = 100, L.means[3] = 255, L.scale = 1;
    random_case(L, seed++);
  }
  {  // nv_small: C' = 5 * 3 = 15 (two 8-channel blocks), K = 10 (two groups), stride 2
    Img L = format_layer(29, nv_small());
    L.w = 11, L.h = 5, L.s = 5, L.r = 2, L.k = 10, L.sx = 2, L.sy = 1, L.pl = 2, L.pr = 2, L.pt = 1;
    L.pad_lr = 0x80, L.pad_tb = 0x7f;
    random_case(L, seed++);
  }
  {  // nv_full int8 input into int16 processing, a line of more than one stripe (W' = 70)
    Img L = format_layer(16, nv_full());
    L.w = 72, L.h = 2, L.s = 3, L.r = 1, L.k = 2, L.proc16 = true;
    L.cvt = true, L.scale = -300, L.offset = 77, L.truncate = 0, L.pad_lr = 0x8000;
    random_case(L, seed++);
  }
}

// ---- refusals -------------------------------------------------------------------------------------

TEST_CASE("image input refuses what NVDLA does not allow or the model does not run, naming the rule", "[conv][image]") {
  namespace cd = regs::cdma;
  namespace cs = regs::csc;
  Img L = format_layer(12, nv_full());
  L.w = 5, L.h = 3, L.r = 2, L.s = 2, L.k = 2, L.pl = 1;
  CHECK(problems(encode(L), nv_full()).empty());
  auto with = [&](auto mutate, const HwConfig& hw = nv_full()) {
    Words w = encode(L);
    mutate(w);
    return problems(w, hw);
  };
  using Catch::Contains;
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_ENTRY_PER_SLICE::offset] += 1; }),
             Contains("D_ENTRY_PER_SLICE+1 is 2 but an image line needs ceil((PAD_LEFT + W + PAD_RIGHT) * C * bpe / entry "
                      "bytes) = ceil((1 + 5 + 0) * 4 * 1 / 128) = 1"));
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_DATAIN_FORMAT::offset] = 0; }), Contains("DATAIN_FORMAT differ"));
  CHECK_THAT(with([](Words& w) {
               w.cdma[cd::D_MISC_CFG::offset] |= 1;
               w.csc[cs::D_MISC_CFG::offset] |= 1;
               w.cmac[regs::cmac_a::D_MISC_CFG::offset] |= 1;
               w.cacc[regs::cacc::D_MISC_CFG::offset] |= 1;
             }),
             Contains("Winograd with image input is not allowed"));
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_BATCH_NUMBER::offset] = 1; }), Contains("image input allows no batches"));
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_DILATION_EXT::offset] = 1; }), Contains("image input allows no dilation"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_DATAIN_FORMAT::offset] |= 1u << 16; }), Contains("PIXEL_MAPPING"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_PIXEL_OFFSET::offset] = 1u << 16; }), Contains("PIXEL_Y_OFFSET"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_PIXEL_OFFSET::offset] = 8; }), Contains("PIXEL_X_OFFSET 8 exceeds 7"));
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_POST_Y_EXTENSION::offset] = 3; }),
             Contains("D_POST_Y_EXTENSION.Y_EXTENSION 3 is reserved"));
  CHECK(with([](Words& w) { w.csc[cs::D_POST_Y_EXTENSION::offset] = 2; }).empty());  // E = 4: C' = 8, sx * C = 4
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_WEIGHT_SIZE_EXT_0::offset] |= 1; }), Contains("WEIGHT_WIDTH_EXT"));
  CHECK_THAT(with([](Words& w) { w.csc[cs::D_WEIGHT_SIZE_EXT_1::offset] += 1; }), Contains("not a multiple of the image's C"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_WEIGHT_SIZE_0::offset] += 1; }), Contains("BYTE_PER_KERNEL"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_MISC_CFG::offset] |= 1u << 8; w.csc[cs::D_MISC_CFG::offset] |= 1u << 8; }),
             Contains("CDMA IN_PRECISION is INT16 but PIXEL_FORMAT 12 (T_A8B8G8R8) is INT8"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_DATAIN_FORMAT::offset] = 1 | (5u << 8); }),
             Contains("PIXEL_FORMAT 5 (T_R16_F) is an fp16 format, which needs PROC_PRECISION FP16"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_DATAIN_FORMAT::offset] = 1 | (36u << 8); }), Contains("PIXEL_FORMAT 36 is reserved"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_DATAIN_FORMAT::offset] = 1 | (28u << 8); }),
             Contains("DATAIN_CHANNEL+1 is 4 but PIXEL_FORMAT 28 (T_Y8___U8V8_N444) has 3 channels"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_LINE_STRIDE::offset] = 0; }), Contains("D_LINE_STRIDE 0 is smaller"));
  CHECK_THAT(with([](Words& w) { w.cdma[cd::D_ZERO_PADDING::offset] = regs::place(2, cd::D_ZERO_PADDING::PAD_LEFT{}); }),
             Contains("must be smaller than the kernel width"));
  // IN != PROC without the converter; a 16-bit format on a configuration without int16.
  {
    Img l = format_layer(3, nv_full());
    l.proc16 = false;
    CHECK_THAT(problems(encode(l), nv_full()), Contains("which needs the input converter (CVT_EN = 1)"));
    Img s = format_layer(3, nv_small());
    s.proc16 = false, s.cvt = true;
    const ConvConfig cfg = decode(encode(s), nv_small());
    CHECK_THROWS_WITH(run_conv(cfg, nv_small(), [](uint64_t) { return uint8_t{0}; }),
                      Contains("needs 16-bit input, which nv_small lacks"));
  }
  // The whole image must be in the data banks (nv_small: EPS 51 x H 200 = 10200 entries, 20 banks).
  {
    Img b = format_layer(12, nv_small());
    b.w = 100, b.h = 200, b.s = 2, b.pl = 1;
    CHECK(problems(encode(b), nv_small()).empty());
    Words w = encode(b);
    w.cdma[cd::D_BANK::offset] = w.csc[cs::D_BANK::offset] = 0;
    CHECK_THAT(problems(w, nv_small()), Contains("DATA_BANK holds 1 banks but the whole input (EPS*H entries) needs 20"));
  }
  // Semi-planar plane-1 stride too small; a window past the padded line.
  {
    Img l = format_layer(30, nv_full());
    l.w = 20, l.luvs = 64;
    CHECK_THAT(problems(encode(l), nv_full()), Contains("D_LINE_UV_STRIDE 64 is smaller than"));
    Img o = format_layer(12, nv_full());
    o.w = 6, o.s = 2;
    Words w = encode(o);
    put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, 5);  // W' 6 instead of 5
    put(w.cacc, regs::cacc::D_DATAOUT_SIZE_0::offset, regs::cacc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, 5);
    put(w.csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, 6 * o.oh() - 1);
    CHECK_THAT(problems(w, nv_full()), Contains("reads padded pixels up to 7 but an image line holds"));
  }
}

// ---- hand-worked cases (expected values worked out in the comments) ------------------------------

TEST_CASE("image semi-planar Y8 V8U8 by hand: second plane, x offset modulo its pixels per atom, means", "[conv][image]") {
  // T_Y8___V8U8_N444 (29): plane 0 Y, plane 1 b0 = U, b1 = V. W = 2, H = 1, 1x1 kernel (1, 10, 100).
  // PIXEL_X_OFFSET 5: plane 0 pixel x at base0 + 5 + x; plane 1 at base1 + 2 * ((5 mod (atom / 2)) + x):
  // nv_full (32-byte atom, 16 UV pixels) base1 + 10 + 2x, nv_small (8-byte atom, 4 UV pixels) base1 + 2 + 2x.
  for (const HwConfig* hw : {&nv_full(), &nv_small()}) {
    INFO(hw->name);
    Img L = format_layer(29, *hw);
    L.w = 2, L.h = 1, L.x_offset = 5;
    Mem m;
    m.bytes[L.base0 + 5] = 10, m.bytes[L.base0 + 6] = 20;  // Y
    const uint64_t uv = L.base1 + (hw == &nv_full() ? 10 : 2);
    m.bytes[uv] = 3, m.bytes[uv + 1] = 4;      // pixel 0: U 3, V 4
    m.bytes[uv + 2] = 5, m.bytes[uv + 3] = 6;  // pixel 1: U 5, V 6
    m.bytes[kWtBase] = 1, m.bytes[kWtBase + 1] = 10, m.bytes[kWtBase + 2] = 100;
    ConvRun run = run_image(L, m);
    CHECK(run.cacc.at(0, 0, 0, 0) == 10 + 30 + 400);  // (Y, U, V) = (10, 3, 4)
    CHECK(run.cacc.at(0, 0, 0, 1) == 20 + 50 + 600);  // (20, 5, 6)
    // MEAN_FORMAT: Y - 10, U - 1, V - 2 (scale 1, truncate 0): (0, 2, 2) and (10, 4, 4).
    L.cvt = true, L.mean = true, L.means[0] = 10, L.means[1] = 1, L.means[2] = 2, L.offset = 99;
    run = run_image(L, m);
    CHECK(run.cacc.at(0, 0, 0, 0) == 0 + 20 + 200);
    CHECK(run.cacc.at(0, 0, 0, 1) == 10 + 40 + 400);
  }
}

TEST_CASE("image A16Y16U16V16 by hand: halfword order, sign override and int16 saturation", "[conv][image]") {
  // T_A16Y16U16V16 (9): h0 = V, h1 = U, h2 = Y, h3 = A -> CBUF (Y, U, V, A). One pixel, kernel
  // (1000, 100, 10, 1) as int16.
  Img L = format_layer(9, nv_full());
  L.w = 1, L.h = 1;
  Mem m;
  const uint16_t h[4] = {4, 3, 2, 0xFFFF};  // V 4, U 3, Y 2, A 0xFFFF
  for (int i = 0; i < 4; ++i) {
    m.bytes[L.base0 + static_cast<uint64_t>(2 * i)] = static_cast<uint8_t>(h[i]);
    m.bytes[L.base0 + static_cast<uint64_t>(2 * i + 1)] = static_cast<uint8_t>(h[i] >> 8);
  }
  const int16_t wts[4] = {1000, 100, 10, 1};
  for (int i = 0; i < 4; ++i) {
    m.bytes[kWtBase + static_cast<uint64_t>(2 * i)] = static_cast<uint8_t>(wts[i]);
    m.bytes[kWtBase + static_cast<uint64_t>(2 * i + 1)] = static_cast<uint8_t>(static_cast<uint16_t>(wts[i]) >> 8);
  }
  CHECK(run_image(L, m).cacc.at(0, 0, 0, 0) == 2000 + 300 + 40 - 1);  // raw bits: A = -1
  L.cvt = true, L.scale = 1;
  CHECK(run_image(L, m).cacc.at(0, 0, 0, 0) == 2000 + 300 + 40 + 32767);  // unsigned 65535 -> sat16 32767
  L.sign = true;
  CHECK(run_image(L, m).cacc.at(0, 0, 0, 0) == 2000 + 300 + 40 - 1);  // signed -1
}

TEST_CASE("image random layers on nv_small, nv_large and nv_full equal the int64 reference", "[conv][image]") {
  std::mt19937 rng(20261124);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::vector<int> int8_formats = {0, 12, 13, 14, 15, 16, 17, 18, 19, 26, 27, 28, 29};
  const std::vector<int> all_formats = {0,  1,  2,  3,  4,  6,  7,  9,  10, 12, 13, 14, 15, 16, 17, 18, 19,
                                        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
  for (int i = 0; i < 60; ++i) {
    const HwConfig& hw = i % 3 == 0 ? nv_small() : (i % 3 == 1 ? nv_large() : nv_full());
    const std::vector<int>& formats = hw.int16 ? all_formats : int8_formats;
    Img L = format_layer(formats[static_cast<std::size_t>(pick(0, static_cast<int>(formats.size()) - 1))], hw);
    L.cvt = pick(0, 2) != 0;
    if (hw.int16 && L.cvt) L.proc16 = pick(0, 1) != 0;  // IN != PROC only through the converter
    L.sign = pick(0, 1) != 0;
    L.mean = pick(0, 1) != 0;
    for (auto& m : L.means) m = pick(-32768, 32767) >> pick(0, 15);
    L.offset = pick(-32768, 32767) >> pick(0, 15);
    L.scale = pick(-32768, 32767) >> pick(0, 15);
    L.truncate = pick(0, 20);
    L.s = pick(1, std::min(8, 128 / L.c));
    L.r = pick(1, 4);
    L.pl = pick(0, L.s - 1), L.pr = pick(0, L.s - 1), L.pt = pick(0, L.r - 1), L.pb = pick(0, L.r - 1);
    L.sx = pick(1, 3), L.sy = pick(1, 3);
    L.w = pick(std::max(1, L.s - L.pl - L.pr), 14);
    L.h = pick(std::max(1, L.r - L.pt - L.pb), 5);
    L.k = pick(1, 40);
    L.x_offset = pick(0, L.atom() / L.bpp0 - 1);
    L.extra_stride = static_cast<uint64_t>(pick(0, 2) * L.atom());
    L.base1 = 0x18000000 + static_cast<uint64_t>(pick(0, 7) * L.atom());
    L.pad_lr = static_cast<uint32_t>(pick(0, 0xffff)), L.pad_tb = static_cast<uint32_t>(pick(0, 0xffff));
    L.clip = pick(0, 12);
    random_case(L, static_cast<uint32_t>(1000 + i));
  }
}

// ---- channel post-extension (§3) -----------------------------------------------------------------

TEST_CASE("channel post-extension by 2 and 4 rows equals the int64 reference, its limits are refused", "[conv][image]") {
  uint32_t seed = 900;
  struct Case {
    int format, s, r, sx, sy, k, ext;
  };
  // C' = S * C within 64 / E and sx * C within 64 / E; R not a multiple of E (a short last row
  // group), several kernel groups, int16 processing.
  for (const Case c : {Case{12, 3, 3, 1, 1, 2, 4}, Case{12, 3, 3, 1, 1, 2, 2}, Case{13, 4, 5, 2, 1, 40, 4},
                       Case{28, 5, 7, 2, 2, 33, 2}, Case{0, 7, 7, 2, 2, 8, 2}, Case{0, 16, 3, 3, 1, 20, 4},
                       Case{26, 8, 2, 1, 1, 5, 2}, Case{6, 3, 4, 1, 1, 17, 4}}) {
    Img L = format_layer(c.format, nv_full());
    L.w = 13, L.h = 9, L.s = c.s, L.r = c.r, L.sx = c.sx, L.sy = c.sy, L.k = c.k, L.ext = c.ext;
    L.pl = c.s - 1, L.pr = 1, L.pt = c.r - 1, L.pb = 1;
    L.pad_lr = 0x05, L.pad_tb = 0xfb;
    L.cvt = true, L.sign = true, L.scale = 1;
    L.clip = 6;
    if (c.format == 6) L.proc16 = true, L.clip = 14;
    random_case(L, seed++);
  }
}

TEST_CASE("worked example 3: the post-extended weight offsets", "[conv][image]") {
  // S = 3, C = 4 (C' = 12), R = 3, K = 2, int8: E = 4 one row group; E = 2 groups {0, 1} and {2}.
  ConvConfig c;
  c.image.enabled = true;
  c.image.pixel_format = 12;
  c.input = CubeShape{1, 4, 5, 5};
  c.kernel_w = 3, c.kernel_h = 3, c.kernels = 2;
  c.atomic_c = 64, c.atomic_k = 32;
  c.image.post_extension = 4;
  CHECK(image_weight_offset(c, 0, 0, 0) == 0);
  CHECK(image_weight_offset(c, 0, 0, 1) == 12);
  CHECK(image_weight_offset(c, 0, 0, 2) == 24);
  CHECK(image_weight_offset(c, 1, 0, 0) == 36);
  CHECK(image_weight_offset(c, 1, 0, 1) == 48);
  CHECK(image_weight_offset(c, 1, 0, 2) == 60);
  c.image.post_extension = 2;
  CHECK(image_weight_offset(c, 0, 0, 0) == 0);
  CHECK(image_weight_offset(c, 0, 11, 1) == 23);
  CHECK(image_weight_offset(c, 1, 0, 0) == 24);
  CHECK(image_weight_offset(c, 1, 11, 1) == 47);
  CHECK(image_weight_offset(c, 0, 0, 2) == 48);
  CHECK(image_weight_offset(c, 1, 0, 2) == 60);
  c.image.post_extension = 1;  // E = 1: r0 k0 0, r0 k1 12, r1 k0 24, r2 k0 48
  CHECK(image_weight_offset(c, 1, 0, 0) == 12);
  CHECK(image_weight_offset(c, 0, 0, 1) == 24);
  CHECK(image_weight_offset(c, 0, 0, 2) == 48);
  // The limits: E = 2 needs C' <= 32 and sx * C <= 32, E = 4 C' <= 16 and sx * C <= 16.
  auto refused = [&](int ext, int s, int sx) {
    c.image.post_extension = ext;
    c.kernel_w = s;
    c.stride_x = sx;
    std::string all;
    for (const auto& e : image_unsupported(c)) all += e;
    return all.find("channel post-extension") != std::string::npos;
  };
  CHECK_FALSE(refused(4, 4, 1));  // C' 16
  CHECK(refused(4, 5, 1));        // C' 20
  CHECK_FALSE(refused(2, 8, 1));  // C' 32
  CHECK(refused(2, 9, 1));        // C' 36
  CHECK(refused(4, 4, 5));        // sx * C = 20
  CHECK_FALSE(refused(4, 4, 4));  // sx * C = 16
  // nv_full only.
  c.image.post_extension = 2;
  REQUIRE(image_hw_problems(c, nv_small()).size() == 1);
  CHECK(image_hw_problems(c, nv_small()).front().find("exists on nv_full only") != std::string::npos);
  CHECK(image_hw_problems(c, nv_full()).empty());
}

// fp16 image input (docs/FP16.md "Convolution: fp16 image input"): CDMA's converter into fp16 and
// the fp16 formats, hand-worked values.
TEST_CASE("fp16 image input: integer pixels convert through 17 bits into fp16 and fp16 pixels pass",
          "[conv][image][fp16]") {
  ConvConfig c;
  c.precision = Precision::Fp16;
  c.image.enabled = true;
  c.image.pixel_format = 0;  // T_R8, unsigned
  c.cvt.enabled = true;
  c.cvt.offset = 128;
  c.cvt.scale = 3;
  c.cvt.truncate = 1;
  // (200 - 128) x 3 >> 1 = 108 = 1.6875 x 2^6: exponent 21, mantissa 704
  CHECK(image_convert(c, 200, 0) == 0x56c0);
  // (0 - 128) x 3 >> 1 = -192 = -1.5 x 2^7
  CHECK((image_convert(c, 0, 0) & 0xffff) == 0xda00);
  // 17-bit saturation before the conversion: signed -128 - 100 = -228, x 700 = -159600 ->
  // -65536, which fp16 holds only as its largest finite -65504 (NVIDIA's FpIntToFloat, never -Inf)
  c.image.sign_override = true;
  c.cvt.offset = 100;
  c.cvt.scale = 700;
  c.cvt.truncate = 0;
  CHECK((image_convert(c, 0x80, 0) & 0xffff) == 0xfbff);
  // and +65535 -> 65504 (0x7bff)
  c.cvt.offset = -100;
  CHECK((image_convert(c, 0x7f, 0) & 0xffff) == 0x7bff);
  // round to nearest even past 2048: 2049 -> 2048 (0x6800), 2051 -> 2052 (0x6802)
  c.image.sign_override = false;
  c.cvt.offset = 0;
  c.cvt.scale = 2049;
  CHECK((image_convert(c, 1, 0) & 0xffff) == 0x6800);
  c.cvt.scale = 2051;
  CHECK((image_convert(c, 1, 0) & 0xffff) == 0x6802);
  // the rounding shift before: (3 x 1) >> 1 = 1.5 -> 2 (half away from zero) = 0x4000
  c.cvt.scale = 3;
  c.cvt.truncate = 1;
  CHECK((image_convert(c, 1, 0) & 0xffff) == 0x4000);
  // fp16 formats pass unchanged, whatever the converter says: a NaN payload, -0, a denormal
  c.image.pixel_format = 5;  // T_R16_F
  for (const uint32_t v : {0x7e01u, 0x8000u, 0x0001u, 0x3c00u}) CHECK((image_convert(c, v, 0) & 0xffff) == v);
  c.cvt.enabled = false;
  CHECK((image_convert(c, 0xfc00u, 0) & 0xffff) == 0xfc00);
  // an fp16 format needs PROC_PRECISION FP16
  c.precision = Precision::Int16;
  bool refused = false;
  for (const auto& u : image_unsupported(c)) refused = refused || u.find("needs PROC_PRECISION FP16") != std::string::npos;
  CHECK(refused);
}
