// Golden RUBIK. Every expected address and byte is worked by hand from
// ../shared/reference/pdp-cdp-bdma-rubik.md §6 and the programming guide seed 000_* (the working is
// in the comments), never taken from the code under test.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/rubik/golden/rubik.hpp"

using namespace dla::golden;

namespace {

// A sparse byte memory: unwritten bytes read as `fill`.
struct Mem {
  std::map<uint64_t, uint8_t> bytes;
  uint8_t fill = 0xee;
  [[nodiscard]] uint8_t at(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? fill : it->second;
  }
  RubikRun run(const RubikConfig& c, const HwConfig& hw = nv_full()) {
    return run_rubik(
        c, hw, [this](uint64_t a) { return at(a); }, [this](uint64_t a, uint8_t v) { bytes[a] = v; });
  }
  // Atom at `a` whose byte i is tag + i.
  void tag_atom(uint64_t a, uint8_t tag) {
    for (int i = 0; i < 32; ++i) bytes[a + static_cast<uint64_t>(i)] = static_cast<uint8_t>(tag + i);
  }
  [[nodiscard]] bool atom_is(uint64_t a, uint8_t tag) const {
    for (int i = 0; i < 32; ++i) {
      if (at(a + static_cast<uint64_t>(i)) != static_cast<uint8_t>(tag + i)) return false;
    }
    return true;
  }
};

RubikConfig base_cfg(RubikMode m, RubikPrecision p) {
  RubikConfig c;
  c.mode = m;
  c.precision = p;
  return c;
}

std::string refusal(const RubikConfig& c, const HwConfig& hw = nv_full()) {
  Mem m;
  try {
    (void)m.run(c, hw);
  } catch (const std::invalid_argument& e) {
    if (!m.bytes.empty()) return "wrote before refusing";
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("rubik contract sx=2: sub-cube j goes to columns w*2+j", "[rubik]") {
  // int8, W=2, H=1, Cout=2 (one 32-byte surface per sub-cube), sx=2, sy=1.
  // Input: sub-cube j at 0x1000 + j*CONTRACT_STRIDE_0 (0x200), atom w at +32w.
  // Output line 0 at 0x8000: column x = w*2 + j at 0x8000 + 32x.
  RubikConfig c = base_cfg(RubikMode::Contract, RubikPrecision::Int8);
  c.width = 2;
  c.out_channels = 2;
  c.sx = 2;
  c.dain_base = 0x1000;
  c.dain_line_stride = 0x40;
  c.dain_surf_stride = 0x40;
  c.contract_stride_0 = 0x200;
  c.daout_base = 0x8000;
  c.daout_line_stride = 0x80;
  c.daout_surf_stride = 0x80;
  c.contract_stride_1 = 0x80;
  Mem m;
  m.tag_atom(0x1000, 0x10);  // j0 w0
  m.tag_atom(0x1020, 0x40);  // j0 w1
  m.tag_atom(0x1200, 0x70);  // j1 w0
  m.tag_atom(0x1220, 0xa0);  // j1 w1
  const RubikRun r = m.run(c);
  CHECK(r.atoms_read == 4);
  CHECK(r.atoms_written == 4);
  CHECK(m.atom_is(0x8000, 0x10));  // x0 = j0 w0
  CHECK(m.atom_is(0x8020, 0x70));  // x1 = j1 w0
  CHECK(m.atom_is(0x8040, 0x40));  // x2 = j0 w1
  CHECK(m.atom_is(0x8060, 0xa0));  // x3 = j1 w1
  CHECK(m.at(0x8080) == 0xee);     // nothing past the 4 output atoms
}

TEST_CASE("rubik contract sy=2: sub-cube j goes to output line h*2+j through CONTRACT_STRIDE_1", "[rubik]") {
  // int16, W=1, H=2, Cout=16 (16 x 2 bytes = one surface), sx=1, sy=2.
  // Input sub-cube j at 0x0 + j*0x100; line h at +0x40h.
  // Output line y = 2h + j at 0x4000 + h*CONTRACT_STRIDE_1 (0x100) + j*DAOUT_LINE_STRIDE (0x60).
  RubikConfig c = base_cfg(RubikMode::Contract, RubikPrecision::Int16);
  c.height = 2;
  c.out_channels = 16;
  c.sy = 2;
  c.dain_line_stride = 0x40;
  c.dain_surf_stride = 0x80;
  c.contract_stride_0 = 0x100;
  c.daout_base = 0x4000;
  c.daout_line_stride = 0x60;
  c.daout_surf_stride = 0x400;
  c.contract_stride_1 = 0x100;
  Mem m;
  m.tag_atom(0x000, 0x01);  // j0 h0
  m.tag_atom(0x040, 0x02);  // j0 h1
  m.tag_atom(0x100, 0x03);  // j1 h0
  m.tag_atom(0x140, 0x04);  // j1 h1
  (void)m.run(c);
  CHECK(m.atom_is(0x4000, 0x01));  // y0: h0 j0
  CHECK(m.atom_is(0x4060, 0x03));  // y1: h0 j1 (+ line stride)
  CHECK(m.atom_is(0x4100, 0x02));  // y2: h1 j0 (+ CONTRACT_STRIDE_1)
  CHECK(m.atom_is(0x4160, 0x04));  // y3: h1 j1
}

TEST_CASE("rubik contract int16 Cout=20 moves two surfaces per sub-cube, padded lanes included", "[rubik]") {
  // Cout = 20 int16 = 40 bytes -> ceil(40/32) = 2 surfaces. W=H=1, sx=sy=1: a plain copy of two
  // atoms, input surface s at 0x0 + 0x20*... here DAIN_SURF_STRIDE 0x100, output DAOUT_SURF_STRIDE 0x40.
  RubikConfig c = base_cfg(RubikMode::Contract, RubikPrecision::Int16);
  c.out_channels = 20;
  c.in_channels = 7;  // CONTRACT does not use DATAIN_CHANNEL (docs/RUBIK.md)
  c.dain_line_stride = 0x20;
  c.dain_surf_stride = 0x100;
  c.contract_stride_0 = 0x200;
  c.daout_base = 0x1000;
  c.daout_line_stride = 0x20;
  c.daout_surf_stride = 0x40;
  c.contract_stride_1 = 0x20;
  c.dain_planar_stride = 0x20;  // unused by CONTRACT
  c.daout_planar_stride = 0x20;
  Mem m;
  m.tag_atom(0x000, 0x11);
  m.tag_atom(0x100, 0x22);  // surface 1: lanes 4..15 are padding, moved all the same
  const RubikRun r = m.run(c);
  CHECK(r.atoms_written == 2);
  CHECK(m.atom_is(0x1000, 0x11));
  CHECK(m.atom_is(0x1040, 0x22));
}

TEST_CASE("rubik split int8: each channel becomes a plane of packed lines, line tails 0", "[rubik]") {
  // W=3, H=2, C=3, input cube at 0x0: line stride 0x60, atom (h, w) at 0x60h + 0x20w, lane c = byte c.
  // Byte c of atom (h, w) = 10*c + 3*h + w + 1 (c < 3); lanes 3..31 = 0x99 (ignored).
  // Plane c at 0x10000 + c*0x100, line h at +0x40h: bytes w = 0..2 the elements, bytes 3..31 = 0.
  RubikConfig c = base_cfg(RubikMode::Split, RubikPrecision::Int8);
  c.width = 3;
  c.height = 2;
  c.in_channels = c.out_channels = 3;
  c.dain_line_stride = 0x60;
  c.dain_surf_stride = 0xc0;
  c.daout_base = 0x10000;
  c.daout_line_stride = 0x40;
  c.daout_planar_stride = 0x100;
  c.daout_surf_stride = 0x20;  // unused by SPLIT
  c.contract_stride_0 = c.contract_stride_1 = 0x20;
  c.sx = 3;
  Mem m;
  for (int h = 0; h < 2; ++h) {
    for (int w = 0; w < 3; ++w) {
      const uint64_t a = 0x60u * static_cast<uint64_t>(h) + 0x20u * static_cast<uint64_t>(w);
      for (int b = 0; b < 32; ++b) m.bytes[a + static_cast<uint64_t>(b)] = b < 3 ? static_cast<uint8_t>(10 * b + 3 * h + w + 1) : 0x99;
    }
  }
  const RubikRun r = m.run(c);
  CHECK(r.atoms_read == 6);
  CHECK(r.atoms_written == 6);  // 3 planes x 2 lines x 1 atom
  // Plane 1, line 1: 10 + 3 + {1, 2, 3} = 14, 15, 16.
  CHECK(m.at(0x10140) == 14);
  CHECK(m.at(0x10141) == 15);
  CHECK(m.at(0x10142) == 16);
  CHECK(m.at(0x10143) == 0);
  CHECK(m.at(0x1015f) == 0);
  CHECK(m.at(0x10160) == 0xee);  // the line stride's gap is not written
  // Plane 0, line 0: 1, 2, 3; plane 2, line 0: 21, 22, 23.
  CHECK(m.at(0x10000) == 1);
  CHECK(m.at(0x10002) == 3);
  CHECK(m.at(0x10200) == 21);
  CHECK(m.at(0x10202) == 23);
}

TEST_CASE("rubik split int16 C=17 reads two surfaces", "[rubik]") {
  // int16: 16 channels per atom; C=17 -> surfaces 0 (channels 0..15) and 1 (channel 16 in lane 0).
  // W=1, H=1. Input surface s at 0x20*... DAIN_SURF_STRIDE 0x400. Element c of surface s: lane c-16s,
  // bytes 2*lane, 2*lane+1 = (c, 0x80 + c). Plane c at 0x2000 + c*0x40: bytes 0, 1.
  RubikConfig c = base_cfg(RubikMode::Split, RubikPrecision::Int16);
  c.in_channels = c.out_channels = 17;
  c.dain_line_stride = 0x20;
  c.dain_surf_stride = 0x400;
  c.daout_base = 0x2000;
  c.daout_line_stride = 0x40;
  c.daout_planar_stride = 0x40;
  Mem m;
  for (int ch = 0; ch < 17; ++ch) {
    const uint64_t a = 0x400u * static_cast<uint64_t>(ch / 16) + 2u * static_cast<uint64_t>(ch % 16);
    m.bytes[a] = static_cast<uint8_t>(ch);
    m.bytes[a + 1] = static_cast<uint8_t>(0x80 + ch);
  }
  (void)m.run(c);
  CHECK(m.at(0x2000 + 0x40 * 16) == 16);
  CHECK(m.at(0x2000 + 0x40 * 16 + 1) == 0x90);
  CHECK(m.at(0x2000 + 0x40 * 5 + 1) == 0x85);
  CHECK(m.at(0x2000 + 0x40 * 5 + 2) == 0);
}

TEST_CASE("rubik split fp16 moves 16-bit patterns as int16: NaN payloads, -inf, -0 unchanged", "[rubik][fp16]") {
  // NVIDIA's C model: FP16 has 16 elements per atom, as INT16 (NV_NVDLA_rbk.cpp). C=3, W=2, H=1:
  // cube atom w at 0x20w holds lanes c = 0..2 at bytes 2c, 2c+1. Plane c at 0x2000 + 0x40c, element
  // w at byte 2w: the pattern of lane c of atom w, whatever it means as a float.
  RubikConfig c = base_cfg(RubikMode::Split, RubikPrecision::Fp16);
  c.width = 2;
  c.in_channels = c.out_channels = 3;
  c.dain_line_stride = 0x40;
  c.dain_surf_stride = 0x40;
  c.daout_base = 0x2000;
  c.daout_line_stride = 0x40;
  c.daout_planar_stride = 0x40;
  const uint16_t patterns[2][3] = {{0x7c01, 0xfc00, 0x8000}, {0xfe5a, 0x0001, 0x7bff}};  // sNaN, -inf, -0; qNaN, denormal, max
  Mem m;
  for (int w = 0; w < 2; ++w) {
    for (int ch = 0; ch < 3; ++ch) {
      const uint64_t a = 0x20u * static_cast<uint64_t>(w) + 2u * static_cast<uint64_t>(ch);
      m.bytes[a] = static_cast<uint8_t>(patterns[w][ch] & 0xff);
      m.bytes[a + 1] = static_cast<uint8_t>(patterns[w][ch] >> 8);
    }
  }
  (void)m.run(c);
  for (int w = 0; w < 2; ++w) {
    for (int ch = 0; ch < 3; ++ch) {
      const uint64_t a = 0x2000u + 0x40u * static_cast<uint64_t>(ch) + 2u * static_cast<uint64_t>(w);
      INFO("plane " << ch << " element " << w);
      CHECK((m.at(a) | (m.at(a + 1) << 8)) == patterns[w][ch]);
    }
  }
  CHECK(m.at(0x2000 + 4) == 0);  // the line's tail past W elements
}

TEST_CASE("rubik merge int8: planes become a cube, lanes past C 0", "[rubik]") {
  // C=2 planes of W=2, H=1 at 0x0 + c*0x40 (bytes w). Output cube at 0x1000, line stride 0x40:
  // atom w at 0x1000 + 0x20w, lane c = plane c byte w, lanes 2..31 = 0.
  RubikConfig c = base_cfg(RubikMode::Merge, RubikPrecision::Int8);
  c.width = 2;
  c.in_channels = c.out_channels = 2;
  c.dain_line_stride = 0x40;
  c.dain_planar_stride = 0x40;
  c.dain_surf_stride = 0x20;  // unused by MERGE
  c.daout_base = 0x1000;
  c.daout_line_stride = 0x40;
  c.daout_surf_stride = 0x40;
  Mem m;
  m.bytes[0x00] = 0xa0;
  m.bytes[0x01] = 0xa1;
  m.bytes[0x40] = 0xb0;
  m.bytes[0x41] = 0xb1;
  const RubikRun r = m.run(c);
  CHECK(r.atoms_read == 2);  // one atom per plane line
  CHECK(r.atoms_written == 2);
  CHECK(m.at(0x1000) == 0xa0);
  CHECK(m.at(0x1001) == 0xb0);
  CHECK(m.at(0x1002) == 0);
  CHECK(m.at(0x101f) == 0);
  CHECK(m.at(0x1020) == 0xa1);
  CHECK(m.at(0x1021) == 0xb1);
  CHECK(m.at(0x1040) == 0xee);
}

TEST_CASE("rubik merge int16 W=17 reads two atoms per plane line", "[rubik]") {
  // W=17 int16 = 34 bytes -> 64 bytes read per plane line. C=1: output atom w lane 0 = plane byte 2w, 2w+1.
  RubikConfig c = base_cfg(RubikMode::Merge, RubikPrecision::Int16);
  c.width = 17;
  c.dain_line_stride = 0x40;
  c.dain_planar_stride = 0x40;
  c.daout_base = 0x1000;
  c.daout_line_stride = 17 * 0x20;
  c.daout_surf_stride = 17 * 0x20;
  Mem m;
  m.bytes[32] = 0x12;  // w = 16
  m.bytes[33] = 0x34;
  const RubikRun r = m.run(c);
  CHECK(r.atoms_read == 2);
  CHECK(m.at(0x1000 + 16 * 0x20) == 0x12);
  CHECK(m.at(0x1000 + 16 * 0x20 + 1) == 0x34);
  CHECK(m.at(0x1000 + 16 * 0x20 + 2) == 0);
}

TEST_CASE("rubik decode: -1 sizes, 32-byte address fields, mode and precision", "[rubik]") {
  namespace rb = regs::rbk;
  std::map<uint32_t, uint32_t> r;
  r[rb::D_MISC_CFG::offset] = 0x0002 | (0u << 8);        // MERGE, INT8
  r[rb::D_DATAIN_SIZE_0::offset] = (4u << 16) | 6u;       // W 7, H 5
  r[rb::D_DATAIN_SIZE_1::offset] = 0xffffffffu;           // 13 bits: 8192 channels
  r[rb::D_DATAOUT_SIZE_1::offset] = 2;                    // 3
  r[rb::D_DAIN_ADDR_HIGH::offset] = 0x1;
  r[rb::D_DAIN_ADDR_LOW::offset] = 0x1234567f;            // bits [31:5]: 0x12345660
  r[rb::D_DAIN_LINE_STRIDE::offset] = 0x7f;               // 0x60
  r[rb::D_DAOUT_PLANAR_STRIDE::offset] = 0x41;            // 0x40
  r[rb::D_DECONV_STRIDE::offset] = (7u << 16) | 0x3fu;    // sy 8, sx: 5 bits of 0x3f = 31 -> 32
  r[rb::D_PERF_ENABLE::offset] = 1;
  const RubikConfig c = decode_rubik([&](uint32_t off) { return r.count(off) != 0 ? r.at(off) : 0u; });
  CHECK(c.mode == RubikMode::Merge);
  CHECK(c.precision == RubikPrecision::Int8);
  CHECK(c.width == 7);
  CHECK(c.height == 5);
  CHECK(c.in_channels == 8192);
  CHECK(c.out_channels == 3);
  CHECK(c.dain_base == 0x112345660ull);
  CHECK(c.dain_line_stride == 0x60);
  CHECK(c.daout_planar_stride == 0x40);
  CHECK(c.sx == 32);
  CHECK(c.sy == 8);
  CHECK(c.perf_en);
}

TEST_CASE("rubik refuses what it cannot do, writing nothing", "[rubik]") {
  RubikConfig ok = base_cfg(RubikMode::Split, RubikPrecision::Int8);
  ok.dain_line_stride = 0x20;
  ok.daout_base = 0x1000;
  ok.daout_line_stride = 0x40;
  ok.daout_planar_stride = 0x40;
  CHECK(refusal(ok) == "accepted");

  RubikConfig c = ok;
  c.precision = RubikPrecision::Fp16;
  CHECK(refusal(c) == "accepted");
  c = ok;
  c.precision = RubikPrecision::Reserved;
  CHECK_THAT(refusal(c), Catch::Contains("IN_PRECISION 3 is reserved"));
  c = ok;
  c.mode = RubikMode::Reserved;
  CHECK_THAT(refusal(c), Catch::Contains("RUBIK_MODE 3 is reserved"));
  c = ok;
  c.out_channels = 2;
  CHECK_THAT(refusal(c), Catch::Contains("DATAIN_CHANNEL+1 (1) and DATAOUT_CHANNEL+1 (2) differ"));
  c = ok;
  c.daout_line_stride = 0x60;
  CHECK_THAT(refusal(c), Catch::Contains("64-byte aligned"));
  c = ok;
  c.daout_base = 0x1020;
  CHECK_THAT(refusal(c), Catch::Contains("64-byte aligned"));
  CHECK_THAT(refusal(ok, nv_small()), Catch::Contains("nv_full only"));
  // The output plane line is the input atom itself.
  c = ok;
  c.daout_base = 0;
  CHECK_THAT(refusal(c), Catch::Contains("overlaps the input"));
  // Two channels' planes on the same address (planar stride 0).
  c = ok;
  c.in_channels = c.out_channels = 2;
  c.daout_planar_stride = 0;
  CHECK_THAT(refusal(c), Catch::Contains("two output atoms land on address 0x1000"));
  // CONTRACT: W * sx > 8192.
  RubikConfig k = base_cfg(RubikMode::Contract, RubikPrecision::Int8);
  k.width = 4097;
  k.sx = 2;
  CHECK_THAT(refusal(k), Catch::Contains("= 8194 exceeds 8192"));
}
