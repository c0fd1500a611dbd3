// Golden CDP. Every expected value is worked by hand from ../shared/reference/pdp-cdp-bdma-rubik.md
// §3 and nvdla-arithmetic.md §1.5 / §5 (the working is in the comments), never taken from the code
// under test.
#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>
#include <vector>

#include "engines/cdp/golden/cdp.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

CdpConfig int8_cfg(int channels, int atom_bytes = 8) {
  CdpConfig c;
  c.atom_bytes = atom_bytes;
  c.shape = {1, channels, 1, 1};
  c.precision = c.rdma_precision = CdpPrecision::Int8;
  c.lut.precision = LutPrecision::Int8;
  return c;
}

CdpConfig int16_cfg(int channels, int atom_bytes = 32) {
  CdpConfig c = int8_cfg(channels, atom_bytes);
  c.precision = c.rdma_precision = CdpPrecision::Int16;
  c.lut.precision = LutPrecision::Int16;
  return c;
}

// LE exponent from START 0, offset 0: entry i at Q = 2^i, LE[i] = 100 i. LO linear from 1000
// (select 0): every Q <= 1000 underflows it. Both-underflow picks LE (priority 0) whose
// underflow slope is 7 (shift 0).
void le_exponent_lut(CdpConfig& c, LutTables& t) {
  c.lut.le_linear = false;
  c.lut.le_start = 0;
  c.lut.le_index_offset = 0;
  c.lut.le_end = (int64_t{1} << 37) - 1;  // exponent mode cannot overflow within 38 bits
  c.lut.le_uflow_scale = 7;
  c.lut.lo_start = 1000;
  c.lut.lo_end = 1256;
  for (int i = 0; i < kLutLeEntries; ++i) t.le[static_cast<std::size_t>(i)] = static_cast<int16_t>(100 * i);
}

Cube<int64_t> column(const std::vector<int64_t>& v, int lanes) {
  Cube<int64_t> cube(CubeShape{1, lanes, 1, 1});
  for (std::size_t i = 0; i < v.size(); ++i) cube.at(0, static_cast<int>(i), 0, 0) = v[i];
  return cube;
}

std::vector<int64_t> values(const Cube<int64_t>& c) { return c.data(); }

}  // namespace

TEST_CASE("CDP input converter: offset, scale, rounding shift, 9/17-bit saturation", "[golden][cdp]") {
  CdpConfig c = int8_cfg(8);
  // int8 subtracts DATIN_OFFSET's low byte as a signed value: 0x0180 -> 0x80 = -128; 0 + 128 = 128.
  c.datin_offset = 0x0180;
  CHECK(cdp_convert_in(c, 0) == 128);
  // (127 + 128) * 2 = 510 -> sat_9 = 255; (-128 - 127) * 2 = -510 -> -256.
  c.datin_offset = -128;
  c.datin_scale = 2;
  CHECK(cdp_convert_in(c, 127) == 255);
  c.datin_offset = 127;
  CHECK(cdp_convert_in(c, -128) == -256);
  // Round half away from zero: 5 * 3 / 4 = 3.75 -> 4; -3.75 -> -4; 1 * 3 / 2 = 1.5 -> 2; -1.5 -> -2.
  c.datin_offset = 0;
  c.datin_scale = 3;
  c.datin_shift = 2;
  CHECK(cdp_convert_in(c, 5) == 4);
  CHECK(cdp_convert_in(c, -5) == -4);
  c.datin_shift = 1;
  CHECK(cdp_convert_in(c, 1) == 2);
  CHECK(cdp_convert_in(c, -1) == -2);

  CdpConfig w = int16_cfg(16);
  // int16 uses all 16 offset bits: (32767 + 32768) * 2 = 131070 -> sat_17 = 65535, and the
  // negative end -131070 -> -65536; scale -1: 1000 -> -1000.
  w.datin_offset = -32768;
  w.datin_scale = 2;
  CHECK(cdp_convert_in(w, 32767) == 65535);
  w.datin_offset = 32767;
  CHECK(cdp_convert_in(w, -32768) == -65536);
  w.datin_offset = 0;
  w.datin_scale = -1;
  CHECK(cdp_convert_in(w, 1000) == -1000);
}

TEST_CASE("CDP square sum: centred window clipped at channel 0 and C, across atoms", "[golden][cdp]") {
  // C = 10 on nv_small: channels 0..7 in the first atom, 8..9 in the second, lanes 10..15 padding.
  CdpConfig c = int8_cfg(10);
  const std::vector<int64_t> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0};
  c.normalz_len = 5;
  CHECK(cdp_lut_input(c, x, 7) == 36 + 49 + 64 + 81 + 100);  // channels 5..9, across the atom edge
  CHECK(cdp_lut_input(c, x, 9) == 64 + 81 + 100);            // channels 7..9 (10, 11 are past C)
  c.normalz_len = 9;
  CHECK(cdp_lut_input(c, x, 0) == 1 + 4 + 9 + 16 + 25);  // channels 0..4
  c.normalz_len = 3;
  CHECK(cdp_lut_input(c, x, 10) == 100);  // a padded lane: only channel 9 is inside
  CHECK(cdp_lut_input(c, x, 11) == 0);
  c.normalz_len = 7;
  CHECK(cdp_lut_input(c, x, 2) == 1 + 4 + 9 + 16 + 25 + 36);  // channels 0..5
  // SQSUM_BYPASS: the converted value itself, sign kept.
  c.sqsum_bypass = true;
  const std::vector<int64_t> neg{-7, 3};
  CHECK(cdp_lut_input(c, neg, 0) == -7);
  // int16 extreme: 9 x (-65536)^2 = 9 x 2^32 = 38654705664 (36 bits, inside the 37-bit sum).
  CdpConfig w = int16_cfg(16);
  w.normalz_len = 9;
  const std::vector<int64_t> big(16, -65536);
  CHECK(cdp_lut_input(w, big, 8) == 38654705664);
}

TEST_CASE("CDP output converter: offset widths, rounding, saturation flag", "[golden][cdp]") {
  CdpConfig c = int8_cfg(8);
  bool sat = false;
  // The flag is NVDLA's IntShiftRightSat one: set where floor(v / 2^shift) lies more than 1 from
  // the output. (300 - 44) / 2 = 128 -> 127, one past: clamped, not flagged; (302 - 44) / 2 = 129
  // -> 127, flagged; (-300 + 44) / 2 = -128 exactly, not saturated; -301 / 2 = -150.5 -> -151 ->
  // -128, flagged; (-258 + 0) / 2 = -129 -> -128, one past: not flagged.
  c.datout_offset = 44;
  c.datout_shift = 1;
  CHECK(cdp_convert_out(c, 300, sat) == 127);
  CHECK_FALSE(sat);
  CHECK(cdp_convert_out(c, 302, sat) == 127);
  CHECK(sat);
  c.datout_offset = -44;
  CHECK(cdp_convert_out(c, -300, sat) == -128);
  CHECK_FALSE(sat);
  c.datout_offset = 0;
  CHECK(cdp_convert_out(c, -301, sat) == -128);
  CHECK(sat);
  CHECK(cdp_convert_out(c, -258, sat) == -128);
  CHECK_FALSE(sat);
  // -259 / 2 = -129.5: rounds to -130 (ties away from zero), floor -130: two past, flagged.
  CHECK(cdp_convert_out(c, -259, sat) == -128);
  CHECK(sat);
  // int8 keeps DATOUT_OFFSET's low 25 bits: 2^24 reads as -2^24, so (0 + 2^24) >> 24 = 1; int16
  // keeps all 32 bits: (0 - 2^24) >> 24 = -1.
  c.datout_offset = int64_t{1} << 24;
  c.datout_shift = 24;
  CHECK(cdp_convert_out(c, 0, sat) == 1);
  CdpConfig w = int16_cfg(16);
  w.datout_offset = int64_t{1} << 24;
  w.datout_shift = 24;
  CHECK(cdp_convert_out(w, 0, sat) == -1);
  // int16: (95300 - 300) * 3 / 16 = 17812.5 -> 17813; / 4 = 71250 -> 32767 saturated.
  w.datout_offset = 300;
  w.datout_scale = 3;
  w.datout_shift = 4;
  CHECK(cdp_convert_out(w, 95300, sat) == 17813);
  CHECK_FALSE(sat);
  w.datout_shift = 2;
  CHECK(cdp_convert_out(w, 95300, sat) == 32767);
  CHECK(sat);
  // int16, offset 0, scale 1, shift 1: 65536 / 2 = 32768 -> 32767, one past, not flagged; 65538 / 2
  // = 32769, flagged; -65538 / 2 = -32769 -> -32768, one past, not flagged.
  w.datout_offset = 0;
  w.datout_scale = 1;
  w.datout_shift = 1;
  CHECK(cdp_convert_out(w, 65536, sat) == 32767);
  CHECK_FALSE(sat);
  CHECK(cdp_convert_out(w, 65538, sat) == 32767);
  CHECK(sat);
  CHECK(cdp_convert_out(w, -65538, sat) == -32768);
  CHECK_FALSE(sat);
}

TEST_CASE("CDP int8 layer: exponent LE, underflow bias, padded lanes, statistics", "[golden][cdp]") {
  // C = 3 on nv_small (lanes 3..7 padding), x = in = (2, -3, 1), LRN 3.
  CdpConfig c = int8_cfg(3);
  LutTables t;
  le_exponent_lut(c, t);
  c.datout_shift = 4;
  c.perf_lut_en = true;
  // Q: ch0 = 4 + 9 = 13, ch1 = 4 + 9 + 1 = 14, ch2 = 9 + 1 = 10, ch3 = 1 (channel 2 only),
  // ch4..7 = 0.
  // LE (entry i at 2^i): 13 -> e = 3, f = 5/8 = 40960/65536 -> 300 + rhaz(62.5) = 363;
  // 14 -> f = 6/8 -> 300 + 75 = 375; 10 -> f = 2/8 -> 300 + 25 = 325; 1 -> e = 0, f = 0 -> LE[0] = 0;
  // 0 -> both tables underflow, LE by priority: 0 + (0 - (0 + B)) * 7 with B = 2^0 = 1 -> -7.
  // p = r * x: 726, -1125, 325, 0 (x = 0 on padded lanes).
  // out = rhaz(p / 16): 45.375 -> 45, -70.3125 -> -70, 20.3125 -> 20, 0.
  const CdpRun r = cdp_normalize(c, t, column({2, -3, 1}, 8));
  CHECK(values(r.output) == std::vector<int64_t>{45, -70, 20, 0, 0, 0, 0, 0});
  CHECK(r.elements == 8u);
  // Statistics (one counter per lookup, padded lanes included): ch0..3 hit LE only (LO
  // underflows) -> LE_HIT 4; ch4..7 both underflow -> UFLOW 4.
  CHECK(r.stats.lut.le_hit == 4u);
  CHECK(r.stats.lut.uflow == 4u);
  CHECK(r.stats.lut.lo_hit == 0u);
  CHECK(r.stats.lut.oflow == 0u);
  CHECK(r.stats.lut.hybrid == 0u);
  CHECK(r.stats.out_saturation == 0u);

  // MUL_BYPASS: out = rhaz(r / 16): 22.69 -> 23, 23.44 -> 23, 20.31 -> 20, 0, and -7/16 = -0.44 -> 0.
  c.mul_bypass = true;
  c.perf_lut_en = false;
  const CdpRun b = cdp_normalize(c, t, column({2, -3, 1}, 8));
  CHECK(values(b.output) == std::vector<int64_t>{23, 23, 20, 0, 0, 0, 0, 0});
  CHECK(b.stats.lut == LutStats{});  // LUT_EN off: nothing counted
  // Output offset 8 (shift 4): (-7 - 8) / 16 = -0.94 -> -1 on the underflowing lanes.
  c.datout_offset = 8;
  const CdpRun o = cdp_normalize(c, t, column({2, -3, 1}, 8));
  CHECK(values(o.output) == std::vector<int64_t>{22, 23, 20, -1, -1, -1, -1, -1});
}

TEST_CASE("CDP int16 layer: LO interpolation wins by hybrid priority, padded lanes", "[golden][cdp]") {
  // nv_full int16: 16 lanes per 32-byte atom; C = 2, x = (100, -50), LRN 3.
  CdpConfig c = int16_cfg(2);
  LutTables t;
  le_exponent_lut(c, t);
  // LO linear from 0, select 6 (entry i at Q = 64 i), LO[i] = 10 i - 1000, hybrid priority LO.
  c.lut.lo_start = 0;
  c.lut.lo_end = 256 * 64;
  c.lut.lo_index_select = 6;
  c.lut.hybrid_prio_lo = true;
  for (int i = 0; i < kLutLoEntries; ++i) t.lo[static_cast<std::size_t>(i)] = static_cast<int16_t>(10 * i - 1000);
  c.datout_offset = 300;
  c.datout_scale = 3;
  c.datout_shift = 4;
  c.perf_lut_en = true;
  // Q0 = Q1 = 10000 + 2500 = 12500: LO 12500 / 64 = 195.3125 -> LO[195] = 950, f = 20480 ->
  // 950 + rhaz(10 * 20480 / 65536 = 3.125) = 953; LE hits too (e = 13) -> hybrid -> LO.
  // p = 95300, -47650; out = (p - 300) * 3 / 16: 17812.5 -> 17813, -8990.625 -> -8991.
  // ch2 (padding): Q = 2500 -> LO[39] = -610, f = 4096 -> -610 + rhaz(0.625) = -609, p = 0;
  // ch3..15: Q = 0, both underflow; p = 0. Padded lanes: (0 - 300) * 3 / 16 = -56.25 -> -56.
  const CdpRun r = cdp_normalize(c, t, column({100, -50}, 16));
  std::vector<int64_t> want(16, -56);
  want[0] = 17813;
  want[1] = -8991;
  CHECK(values(r.output) == want);
  CHECK(r.stats.lut.hybrid == 3u);  // ch0..2 hit both tables
  CHECK(r.stats.lut.uflow == 13u);
  CHECK(r.stats.lut.le_hit == 0u);
  CHECK(r.stats.lut.lo_hit == 0u);
}

TEST_CASE("CDP decodes its registers and refuses what it cannot run", "[golden][cdp]") {
  namespace rc = regs::cdp;
  namespace rr = regs::cdp_rdma;
  std::map<uint32_t, uint32_t> cdp{{rc::D_DATA_FORMAT::offset, 0},         {rc::D_FUNC_BYPASS::offset, 2},
                                   {rc::D_LRN_CFG::offset, 3},             {rc::D_DATIN_OFFSET::offset, 0xff80},
                                   {rc::D_DATIN_SCALE::offset, 0xfffe},    {rc::D_DATIN_SHIFTER::offset, 0x3f},
                                   {rc::D_DATOUT_OFFSET::offset, 0xff03ca09}, {rc::D_DATOUT_SCALE::offset, 0x2cba},
                                   {rc::D_DATOUT_SHIFTER::offset, 0x24},   {rc::D_PERF_ENABLE::offset, 2},
                                   {rc::S_LUT_INFO::offset, 0x3f00},       {rc::S_LUT_LE_START_LOW::offset, 0xfffffff2},
                                   {rc::S_LUT_LE_START_HIGH::offset, 0x3f}, {rc::D_DST_BASE_ADDR_LOW::offset, 0x2000},
                                   {rc::D_DST_DMA_CFG::offset, 1}};  // MC (reset 0 is CV-SRAM)
  std::map<uint32_t, uint32_t> rdma{{rr::D_DATA_CUBE_WIDTH::offset, 7},   {rr::D_DATA_CUBE_HEIGHT::offset, 3},
                                    {rr::D_DATA_CUBE_CHANNEL::offset, 30}, {rr::D_DATA_FORMAT::offset, 0},
                                    {rr::D_SRC_LINE_STRIDE::offset, 64},   {rr::D_SRC_SURFACE_STRIDE::offset, 256},
                                    {rr::D_SRC_DMA_CFG::offset, 1}};
  auto reader = [](const std::map<uint32_t, uint32_t>& m) {
    return [&m](uint32_t off) { const auto it = m.find(off); return it == m.end() ? 0u : it->second; };
  };
  const CdpConfig c = decode_cdp(reader(cdp), reader(rdma), 8);
  CHECK(c.shape == CubeShape{1, 31, 4, 8});
  CHECK(c.lanes() == 32);
  CHECK(c.normalz_len == 9);
  CHECK_FALSE(c.sqsum_bypass);
  CHECK(c.mul_bypass);
  CHECK(c.datin_offset == -128);
  CHECK(c.datin_scale == -2);
  CHECK(c.datin_shift == 31);  // 5-bit field
  CHECK(c.datout_offset == -16528887);  // 0xff03ca09 as int32
  CHECK(c.datout_scale == 0x2cba);
  CHECK(c.datout_shift == 36);
  CHECK(c.perf_lut_en);
  CHECK(c.lut.le_start == -14);                 // {0x3f, 0xfffffff2} as signed 38 bits
  CHECK(c.lut.le_index_select == 0x3f);         // raw 8-bit field; the LUT narrows it
  CHECK(c.lut.precision == LutPrecision::Int8);  // int8: 6-bit selects (0x3f = -1)
  CHECK(c.dst_base == 0x2000);

  // Refusals name the field and the rule.
  CdpConfig f = c;
  f.dst_line_stride = 64;
  f.dst_surface_stride = 256;
  f.dst_base = 0x8000;
  CHECK(f.unsupported(nv_small()).empty());
  f.precision = f.rdma_precision = CdpPrecision::Fp16;
  REQUIRE_FALSE(f.unsupported(nv_small()).empty());
  CHECK_THAT(f.unsupported(nv_small()).front(), Catch::Contains("INPUT_DATA_TYPE=FP16: nv_small has no fp16"));
  f.precision = f.rdma_precision = CdpPrecision::Int16;
  CHECK_THAT(f.unsupported(nv_small()).front(), Catch::Contains("nv_small has no int16"));
  f.rdma_precision = CdpPrecision::Int8;
  CHECK_THAT(f.unsupported(nv_full()).front(), Catch::Contains("CDP_RDMA D_DATA_FORMAT.INPUT_DATA (int8) differs"));
  const auto read = [](uint64_t) -> uint8_t { return 0; };
  const auto write = [](uint64_t, uint8_t) {};
  CHECK_THROWS_WITH(run_cdp(f, nv_full(), LutTables{}, read, write), Catch::Contains("differs"));
}

TEST_CASE("CDP layer through memory: packed nv_small cube, one atom per pixel", "[golden][cdp]") {
  // 2x1x8 int8 at 0x100, pixel w holds channel c = (w + 1) * (c - 3); LRN 3 on nv_small,
  // SQSUM_BYPASS and MUL_BYPASS with an identity LO (LO[i] = i over [-128, 128]): out = x.
  CdpConfig c = int8_cfg(8);
  c.shape = {1, 8, 1, 2};
  c.src_base = 0x100;
  c.src_line_stride = c.dst_line_stride = 16;
  c.src_surface_stride = c.dst_surface_stride = 16;
  c.dst_base = 0x200;
  c.sqsum_bypass = c.mul_bypass = true;
  c.lut.le_linear = true;
  c.lut.le_start = c.lut.lo_start = -128;
  c.lut.le_end = c.lut.lo_end = 128;
  c.lut.le_index_select = 2;
  c.lut.hybrid_prio_lo = true;
  c.lut.uflow_prio_lo = true;
  LutTables t;
  for (int i = 0; i < kLutLoEntries; ++i) t.lo[static_cast<std::size_t>(i)] = static_cast<int16_t>(i - 128);
  // Q = x in [-15, 8]: LO index Q + 128, fraction 0 -> LO = Q; the output converter is identity.
  std::map<uint64_t, uint8_t> mem;
  for (int w = 0; w < 2; ++w) {
    for (int ch = 0; ch < 8; ++ch) mem[0x100 + 8 * w + ch] = static_cast<uint8_t>((w + 1) * (ch - 3));
  }
  const CdpRun r = run_cdp(
      c, nv_small(), t, [&](uint64_t a) { return mem.count(a) != 0 ? mem[a] : uint8_t{0}; },
      [&](uint64_t a, uint8_t v) { mem[a] = v; });
  for (int w = 0; w < 2; ++w) {
    for (int ch = 0; ch < 8; ++ch) {
      INFO("w " << w << " c " << ch);
      CHECK(mem[0x200 + 8 * w + ch] == static_cast<uint8_t>((w + 1) * (ch - 3)));
    }
  }
  CHECK(r.elements == 16u);
}
