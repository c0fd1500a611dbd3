// The hybrid LUT golden model (golden/lut.hpp) against HAND-WORKED cases. Every expected value is
// a literal; the arithmetic that gives it is written in the comment next to it. Nothing here is
// computed with the code under test.
//
// Fixture tables used throughout (unless a case overrides entries):
//   LE[i] = 1000 + 10*i   -> LE[0]=1000 LE[1]=1010 LE[2]=1020 LE[3]=1030 LE[20]=1200 LE[63]=1630
//                            LE[64]=1640
//   LO[j] = -2000 + 4*j   -> LO[0]=-2000 LO[20]=-1920 LO[44]=-1824 LO[48]=-1808 LO[256]=-976
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "engines/lut/golden/lut.hpp"
#include "engines/lut/golden/lut_builders.hpp"

namespace {

using namespace dla::golden;
using S = LutTableStatus;

LutTables ramp_tables() {
  LutTables t;
  for (int i = 0; i < kLutLeEntries; ++i) t.le[i] = static_cast<int16_t>(1000 + 10 * i);
  for (int j = 0; j < kLutLoEntries; ++j) t.lo[j] = static_cast<int16_t>(-2000 + 4 * j);
  return t;
}

// LE linear, entries every 16 from 0 (END = 64*16 = 1024); LO linear, every 1 from 256
// (END = 256 + 256 = 512). Slopes 0. Priorities all LE.
LutConfig base_linear() {
  LutConfig c;
  c.le_linear = true;
  c.le_start = 0;
  c.le_index_select = 4;
  c.le_end = 1024;
  c.lo_start = 256;
  c.lo_index_select = 0;
  c.lo_end = 512;
  return c;
}

// LE exponent from START 0 with offset 0 (entry i at 2^i); LO far away (always underflows for the
// small x used, LO_START = 100000).
LutConfig base_exponent() {
  LutConfig c;
  c.le_linear = false;
  c.le_start = 0;
  c.le_index_offset = 0;
  c.le_end = 0x7fffffff;
  c.lo_start = 100000;
  c.lo_index_select = 0;
  c.lo_end = 100256;
  return c;
}

constexpr auto Sdp = LutVariant::Sdp;
constexpr auto Cdp = LutVariant::Cdp;

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("lut: SDP linear LE hit, LO underflow (rule 5)", "[lut]") {
  const auto t = ramp_tables();
  const auto c = base_linear();
  // x = 40: LE D = 40 = 2*16 + 8 -> I = 2, F = 8 * 2^(35-4) = 2^34 = 17179869184 (one half).
  // out = rhaz((1020 * 2^34 + 1030 * 2^34) / 2^35) = (1020 + 1030) / 2 = 1025.
  // LO: 40 <= 256 -> underflow.
  const auto r = lut_lookup(Sdp, c, t, 40);
  CHECK(r.value == 1025);
  CHECK(r.le_index == 2);
  CHECK(r.le_frac == 17179869184ull);
  CHECK(r.le_hit);
  CHECK_FALSE(r.lo_hit);
  CHECK(r.lo_status == S::Uflow);
  CHECK_FALSE(r.lo_selected);
  CHECK_FALSE(r.uflow);
  CHECK_FALSE(r.oflow);

  // x = 1023: D = 63*16 + 15 -> I = 63, F = 15 * 2^31 = 32212254720 (15/16).
  // out = rhaz(1630 * 1/16 + 1640 * 15/16) = rhaz(101.875 + 1537.5) = rhaz(1639.375) = 1639.
  const auto r2 = lut_lookup(Sdp, c, t, 1023);
  CHECK(r2.le_index == 63);
  CHECK(r2.le_frac == 32212254720ull);
  CHECK(r2.value == 1639);
}

TEST_CASE("lut: SDP LO hit, both hit with hybrid priority (rule 3)", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_linear();
  // x = 300: LE D = 300 = 18*16 + 12 -> I = 18, F = 12 * 2^31 = 25769803776 (3/4):
  //   1180 * 1/4 + 1190 * 3/4 = 295 + 892.5 = 1187.5 -> rhaz -> 1188.
  // LO D = 44, sel 0 -> I = 44, F = 0: LO[44] = -2000 + 176 = -1824.
  c.hybrid_prio_lo = false;
  auto r = lut_lookup(Sdp, c, t, 300);
  CHECK(r.le_hit);
  CHECK(r.lo_hit);
  CHECK(r.le_frac == 25769803776ull);
  CHECK(r.lo_index == 44);
  CHECK(r.lo_frac == 0);
  CHECK(r.value == 1188);
  CHECK_FALSE(r.lo_selected);
  c.hybrid_prio_lo = true;
  r = lut_lookup(Sdp, c, t, 300);
  CHECK(r.value == -1824);
  CHECK(r.lo_selected);
  CHECK_FALSE(r.uflow);
  CHECK_FALSE(r.oflow);
}

TEST_CASE("lut: SDP weighted interpolation rounding ties", "[lut]") {
  auto t = ramp_tables();
  const auto c = base_linear();
  // x = 40 -> LE I = 2, F = 1/2; x = 36 -> D = 2*16 + 4, F = 4 * 2^31 = 2^33 (1/4).
  t.le[2] = 1020;
  t.le[3] = 1031;
  CHECK(lut_lookup(Sdp, c, t, 40).value == 1026);  // (1020 + 1031) / 2 = 1025.5 -> 1026
  CHECK(lut_lookup(Sdp, c, t, 36).value == 1023);  // 1020*3/4 + 1031/4 = 765 + 257.75 = 1022.75
  t.le[2] = -1020;
  t.le[3] = -1031;
  CHECK(lut_lookup(Sdp, c, t, 40).value == -1026);  // -1025.5 -> away from zero -> -1026
  t.le[2] = -3;
  t.le[3] = -4;
  CHECK(lut_lookup(Sdp, c, t, 40).value == -4);  // -3.5 -> -4
  t.le[2] = 2;
  t.le[3] = 4;
  CHECK(lut_lookup(Sdp, c, t, 36).value == 3);  // 2*3/4 + 4/4 = 1.5 + 1 = 2.5 -> 3
  t.le[2] = -2;
  t.le[3] = -4;
  CHECK(lut_lookup(Sdp, c, t, 36).value == -3);  // -2.5 -> -3
  // SDP vs CDP where y0 + dy*f changes sign at a tie: y0 = 2, y1 = -1, F = 1/2.
  //   SDP: (2 + -1) / 2 = 0.5 -> 1.   CDP: 2 + rhaz(-3 * 1/2) = 2 + rhaz(-1.5) = 2 - 2 = 0.
  t.le[2] = 2;
  t.le[3] = -1;
  CHECK(lut_lookup(Sdp, c, t, 40).value == 1);
  CHECK(lut_lookup(Cdp, c, t, 40).value == 0);
}

TEST_CASE("lut: SDP LE exponent mode hits and fractions", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_exponent();
  // x = 12: D = 12, e = 3, I = 3 - 0 = 3, R = 12 - 8 = 4, F = 4 * 2^(35-3) = 2^34 (1/2).
  //   (1030 + 1040) / 2 = 1035.
  auto r = lut_lookup(Sdp, c, t, 12);
  CHECK(r.le_index == 3);
  CHECK(r.le_frac == 17179869184ull);
  CHECK(r.value == 1035);
  CHECK(r.lo_status == S::Uflow);
  // x = 13: R = 5, F = 5 * 2^32 = 21474836480 (5/8): 1030*3/8 + 1040*5/8 = 386.25 + 650 = 1036.25.
  r = lut_lookup(Sdp, c, t, 13);
  CHECK(r.le_frac == 21474836480ull);
  CHECK(r.value == 1036);
  // x = 1: D = 1, e = 0, I = 0, F = 0 -> LE[0] = 1000.
  CHECK(lut_lookup(Sdp, c, t, 1).value == 1000);
  // offset -2: x = 12 -> I = 3 + 2 = 5: (LE[5] + LE[6]) / 2 = (1050 + 1060) / 2 = 1055.
  c.le_index_offset = -2;
  CHECK(lut_lookup(Sdp, c, t, 12).value == 1055);
  // offset 2: x = 12 -> I = 3 - 2 = 1: (1010 + 1020) / 2 = 1015.
  c.le_index_offset = 2;
  CHECK(lut_lookup(Sdp, c, t, 12).value == 1015);
  // offset 2: x = 3 -> e = 1 < 2 -> LE underflow (LO underflows too: both underflow).
  r = lut_lookup(Sdp, c, t, 3);
  CHECK(r.le_status == S::Uflow);
  CHECK(r.uflow);
  // offset -32, x = 2^31 - 1: D = 2^31 - 1, e = 30, I = 62, R = 2^30 - 1,
  //   F = (2^30 - 1) * 2^5 = 2^35 - 32 = 34359738336.
  //   out = rhaz((1620 * 32 + 1630 * (2^35 - 32)) / 2^35) = rhaz(1630 - 320/2^35) = 1630.
  c.le_index_offset = -32;
  r = lut_lookup(Sdp, c, t, 2147483647);
  CHECK(r.le_index == 62);
  CHECK(r.le_frac == 34359738336ull);
  CHECK(r.value == 1630);
  // offset -33, START -1, x = 2^31 - 1: D = 2^31, e = 31, I = 64 -> overflow (index 64).
  //   END = -1 + 2^(64-33) = 2^31 - 1. LO (START 100000, sel 0) overflows too -> rule 2, prio LE:
  //   LE[64] + (x - END) * 0 = 1640, flagged oflow.
  c.le_index_offset = -33;
  c.le_start = -1;
  c.le_end = 2147483647;
  r = lut_lookup(Sdp, c, t, 2147483647);
  CHECK(r.le_status == S::Oflow);
  CHECK(r.le_index == 64);
  CHECK(r.oflow);
  CHECK(r.value == 1640);
}

TEST_CASE("lut: SDP linear index select edge cases and fractions", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_linear();
  c.lo_start = 1 << 30;  // keep LO out of the way (underflow)
  // sel = 35: D = 7 -> I = 0, F = 7 * 2^0 = 7.
  c.le_index_select = 35;
  CHECK(lut_lookup(Sdp, c, t, 7).le_frac == 7);
  // sel = 36: F = D >> 1 (one low bit truncated): D = 5 -> F = 2.
  //   out = rhaz((1000 * (2^35 - 2) + 1010 * 2) / 2^35) = rhaz(1000 + 20/2^35) = 1000.
  c.le_index_select = 36;
  auto r = lut_lookup(Sdp, c, t, 5);
  CHECK(r.le_frac == 2);
  CHECK(r.value == 1000);
  // sel = 40: F = D >> 5: D = 74565 (0x12345) -> 74565 / 32 = 2330.15 -> 2330.
  c.le_index_select = 40;
  CHECK(lut_lookup(Sdp, c, t, 74565).le_frac == 2330);
  // sel = 127: I = 0, F = D >> 92 = 0 -> LE[0] = 1000.
  c.le_index_select = 127;
  r = lut_lookup(Sdp, c, t, 1000000);
  CHECK(r.le_index == 0);
  CHECK(r.le_frac == 0);
  CHECK(r.value == 1000);
  // sel = -2: D = 5 -> I = 5 * 4 = 20, F = 0 -> LE[20] = 1200.
  c.le_index_select = -2;
  r = lut_lookup(Sdp, c, t, 5);
  CHECK(r.le_index == 20);
  CHECK(r.le_frac == 0);
  CHECK(r.value == 1200);
  // sel = -3: D = 8 -> I = 64 >= 64 -> overflow.
  c.le_index_select = -3;
  CHECK(lut_lookup(Sdp, c, t, 8).le_status == S::Oflow);
  // sel = -128: D = 1 -> I = 2^128 -> overflow.
  c.le_index_select = -128;
  CHECK(lut_lookup(Sdp, c, t, 1).le_status == S::Oflow);
  // sel = 31, START = -2^31, x = 2^31 - 1: D = 2^32 - 1 -> I = 1, remainder 2^31 - 1,
  //   F = (2^31 - 1) * 2^4 = 34359738352; out = rhaz(1010 + 10 * (2^35 - 16)/2^35) = 1020.
  c.le_index_select = 31;
  c.le_start = -2147483647 - 1;
  r = lut_lookup(Sdp, c, t, 2147483647);
  CHECK(r.le_index == 1);
  CHECK(r.le_frac == 34359738352ull);
  CHECK(r.value == 1020);
}

TEST_CASE("lut: X == START is underflow and X == END of a linear table is overflow", "[lut]") {
  const auto t = ramp_tables();
  const auto c = base_linear();
  // x = 0 = LE_START: LE underflow; LO (256) underflow -> rule 1 prio LE: LE[0] + 0 = 1000.
  auto r = lut_lookup(Sdp, c, t, 0);
  CHECK(r.le_status == S::Uflow);
  CHECK(r.uflow);
  CHECK(r.value == 1000);
  // x = 256 = LO_START: LO underflow, LE D = 256 -> I = 16, F = 0 -> hit LE[16] = 1160.
  r = lut_lookup(Sdp, c, t, 256);
  CHECK(r.lo_status == S::Uflow);
  CHECK(r.le_hit);
  CHECK(r.value == 1160);
  // x = 1024: LE D = 1024 -> I = 64 -> overflow (never a hit with index 64).
  r = lut_lookup(Sdp, c, t, 1024);
  CHECK(r.le_status == S::Oflow);
  CHECK(r.le_index == 64);
  // x = 512: LO D = 256 -> I = 256 -> LO overflow; LE I = 32 hit.
  r = lut_lookup(Cdp, c, t, 512);
  CHECK(r.lo_status == S::Oflow);
  CHECK(r.lo_index == 256);
  CHECK(r.le_hit);
  CHECK(r.value == 1320);  // LE[32] = 1000 + 320
}

TEST_CASE("lut: SDP under/overflow slopes, right (rounding) and left shifts", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_linear();
  // x = -5: both underflow (rule 1).
  c.le_uflow_scale = 3;
  c.le_uflow_shift = 1;  // 1000 + rhaz((-5 - 0) * 3 / 2) = 1000 + rhaz(-7.5) = 1000 - 8 = 992
  CHECK(lut_lookup(Sdp, c, t, -5).value == 992);
  c.le_uflow_shift = 0;  // 1000 - 15 = 985
  CHECK(lut_lookup(Sdp, c, t, -5).value == 985);
  c.le_uflow_shift = -2;  // 1000 + (-15) * 4 = 940
  CHECK(lut_lookup(Sdp, c, t, -5).value == 940);
  c.le_uflow_scale = 1;
  c.le_uflow_shift = 15;  // 1000 + rhaz(-5 / 32768) = 1000 + 0 = 1000
  CHECK(lut_lookup(Sdp, c, t, -5).value == 1000);
  c.le_uflow_scale = 3;
  c.le_uflow_shift = 0x10;  // signed 5-bit 0x10 = -16: 1000 + (-15) * 65536 = -982040
  CHECK(lut_lookup(Sdp, c, t, -5).value == -982040);
  // uflow priority LO: LO[0] + rhaz((-5 - 256) * (-5) / 4) = -2000 + rhaz(1305 / 4 = 326.25)
  //   = -2000 + 326 = -1674.
  c.uflow_prio_lo = true;
  c.lo_uflow_scale = -5;
  c.lo_uflow_shift = 2;
  auto r = lut_lookup(Sdp, c, t, -5);
  CHECK(r.lo_selected);
  CHECK(r.uflow);
  CHECK(r.value == -1674);
  // x = 1030: both overflow (rule 2). prio LE: LE[64] + rhaz((1030 - 1024) * (-7) / 4)
  //   = 1640 + rhaz(-10.5) = 1640 - 11 = 1629.
  c.le_oflow_scale = -7;
  c.le_oflow_shift = 2;
  r = lut_lookup(Sdp, c, t, 1030);
  CHECK(r.oflow);
  CHECK_FALSE(r.lo_selected);
  CHECK(r.value == 1629);
  // prio LO: LO[256] + rhaz((1030 - 512) * 9 / 8) = -976 + rhaz(4662 / 8 = 582.75) = -976 + 583
  //   = -393.
  c.oflow_prio_lo = true;
  c.lo_oflow_scale = 9;
  c.lo_oflow_shift = 3;
  r = lut_lookup(Sdp, c, t, 1030);
  CHECK(r.lo_selected);
  CHECK(r.value == -393);
}

TEST_CASE("lut: SDP 32-bit saturation of the flow path", "[lut]") {
  auto t = ramp_tables();
  auto c = base_linear();
  c.le_oflow_scale = 32767;
  c.le_oflow_shift = -16;
  // x = 1025: (1025 - 1024) * 32767 * 65536 = 2147418112 (< 2^31 - 1): 1640 + 2147418112 = 2147419752.
  CHECK(lut_lookup(Sdp, c, t, 1025).value == 2147419752);
  // x = 1026: 2 * 32767 * 65536 = 4294836224 -> sat_32 = 2147483647; + 1640 -> sat_32 = 2147483647.
  CHECK(lut_lookup(Sdp, c, t, 1026).value == 2147483647);
  // With LE[64] = -1000 the shifted product is clamped BEFORE y0 is added:
  //   sat_32(-1000 + sat_32(4294836224)) = sat_32(-1000 + 2147483647) = 2147482647.
  t.le[64] = -1000;
  CHECK(lut_lookup(Sdp, c, t, 1026).value == 2147482647);
  // Negative: x = -2^31, both underflow, LE: (-2^31 - 0) * 32767 * 65536 -> sat_32 = -2147483648;
  //   + LE[0] = 1000 -> -2147482648.
  c.le_uflow_scale = 32767;
  c.le_uflow_shift = -16;
  CHECK(lut_lookup(Sdp, c, t, -2147483647 - 1).value == -2147482648);
  // SDP takes the low 32 bits of x as int32: 0x80000000 = -2^31 -> same result.
  CHECK(lut_lookup(Sdp, c, t, 0x80000000LL).value == -2147482648);
}

TEST_CASE("lut: LE exponent underflow bias (B = 1 at offset 0, RTL rule)", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_exponent();
  c.le_start = 100;
  c.le_uflow_scale = 1;
  c.le_uflow_shift = 0;
  c.lo_uflow_scale = 1;
  for (auto v : {Sdp, Cdp}) {
    c.le_linear = false;
    c.uflow_prio_lo = false;
    c.le_index_offset = 0;
    // off 0: B = 1 (RTL; the SDP C model would use 0 and give 990).
    //   x = 90: 1000 + (90 - (100 + 1)) = 989.
    CHECK(lut_lookup(v, c, t, 90).value == 989);
    //   x = 100 (X == START: underflow): 1000 + (100 - 101) = 999.
    CHECK(lut_lookup(v, c, t, 100).value == 999);
    // off 3: x = 105 -> D = 5, e = 2 < 3 -> underflow. B = 8: 1000 + (105 - 108) = 997.
    c.le_index_offset = 3;
    auto r = lut_lookup(v, c, t, 105);
    CHECK(r.le_status == S::Uflow);
    CHECK(r.value == 997);
    //   x = 108 -> D = 8, e = 3, I = 0, F = 0: hit LE[0] = 1000 (continuous with the slope).
    CHECK(lut_lookup(v, c, t, 108).value == 1000);
    // off -2: B = 0: x = 90 -> 1000 + (90 - 100) = 990.
    c.le_index_offset = -2;
    CHECK(lut_lookup(v, c, t, 90).value == 990);
    // Linear LE: no bias even with offset 3: 1000 + (90 - 100) = 990.
    c.le_index_offset = 3;
    c.le_linear = true;
    CHECK(lut_lookup(v, c, t, 90).value == 990);
    // LO chosen (uflow priority LO): no bias. LO[0] + (90 - 100000) = -2000 - 99910 = -101910
    //   (CDP saturates to -32768).
    c.le_linear = false;
    c.uflow_prio_lo = true;
    CHECK(lut_lookup(v, c, t, 90).value == (v == Sdp ? -101910 : -32768));
  }
  // Offsets past the data width: bias 0 (SDP off >= 32: RTL 32-bit `1 << off`; CDP off >= 38:
  // our decision, docs/LUT.md). Everything underflows: x = 105 -> 1000 + (105 - 100) = 1005.
  c.uflow_prio_lo = false;
  c.le_index_offset = 40;
  CHECK(lut_lookup(Sdp, c, t, 105).value == 1005);
  CHECK(lut_lookup(Cdp, c, t, 105).value == 1005);
  c.le_index_offset = 31;  // SDP: B = 2^31: 1000 + (105 - 100 - 2147483648) = -2147482643
  CHECK(lut_lookup(Sdp, c, t, 105).value == -2147482643);
}

TEST_CASE("lut: rule 4, one table underflows and the other overflows", "[lut]") {
  const auto t = ramp_tables();
  LutConfig c;
  c.le_linear = true;
  c.le_start = 0;
  c.le_index_select = 0;
  c.le_end = 64;
  c.lo_start = 1000;
  c.lo_index_select = 0;
  c.lo_end = 1256;
  c.le_oflow_scale = 1;
  c.lo_uflow_scale = 1;
  // uflow/oflow priorities point the other way on purpose: rule 4 uses the HYBRID priority.
  c.uflow_prio_lo = false;
  c.oflow_prio_lo = true;
  for (auto v : {Sdp, Cdp}) {
    // x = 100: LE D = 100 >= 64 -> oflow; LO 100 <= 1000 -> uflow.
    c.hybrid_prio_lo = false;  // LE: LE[64] + (100 - 64) * 1 = 1676, flagged oflow
    auto r = lut_lookup(v, c, t, 100);
    CHECK(r.le_status == S::Oflow);
    CHECK(r.lo_status == S::Uflow);
    CHECK(r.oflow);
    CHECK_FALSE(r.uflow);
    CHECK(r.value == 1676);
    c.hybrid_prio_lo = true;  // LO: LO[0] + (100 - 1000) * 1 = -2900, flagged uflow
    r = lut_lookup(v, c, t, 100);
    CHECK(r.uflow);
    CHECK_FALSE(r.oflow);
    CHECK(r.lo_selected);
    CHECK(r.value == -2900);
  }
}

// The six raw/density arrangements (seed 002: LE or LO as the raw wide table, the other as the
// density table; density inside raw = case 1, adjacent below raw = case 2, below raw with a gap =
// case 3), each sampled in every region, under every priority setting. Slopes are 0 so a flow
// result is the end entry: LE uflow 1000, LE oflow 1640, LO uflow -2000, LO oflow -976. x values
// are on grid points (F = 0).
namespace {
enum class Bit { Uflow, Oflow, Hybrid, None };
struct Point {
  int64_t x;
  Bit bit;         // which priority bit decides (None: rule 5, exactly one hit)
  int64_t if_le;   // expected value when that bit selects LE
  int64_t if_lo;   // ... selects LO
  bool uf_le, of_le, uf_lo, of_lo;  // expected final flags when LE resp. LO is selected
};
struct Arrangement {
  const char* name;
  int64_t le_start, le_sel, lo_start, lo_sel;
  std::vector<Point> points;
};
}  // namespace

TEST_CASE("lut: six raw/density arrangements under every priority", "[lut]") {
  const auto t = ramp_tables();
  const std::vector<Arrangement> arrangements = {
      // Raw = LE [0, 1024] (16 per entry), density = LO.
      {"raw LE, density LO inside (case 1)", 0, 4, 256, 0,
       {
           {-10, Bit::Uflow, 1000, -2000, true, false, true, false},  // both uflow
           {96, Bit::None, 1060, 1060, false, false, false, false},   // LE I=6 hit, LO uflow
           {304, Bit::Hybrid, 1190, -1808, false, false, false, false},  // LE I=19, LO I=48
           {608, Bit::None, 1380, 1380, false, false, false, false},  // LE I=38, LO oflow (D=352)
           {2000, Bit::Oflow, 1640, -976, false, true, false, true},  // both oflow
       }},
      {"raw LE, density LO adjacent below (case 2)", 0, 4, -256, 0,
       {
           {-300, Bit::Uflow, 1000, -2000, true, false, true, false},
           {-100, Bit::None, -1376, -1376, false, false, false, false},  // LO I=156: -2000+624
           {0, Bit::Hybrid, 1000, -976, true, false, false, true},  // LE uflow (X==START), LO D=256 oflow
           {96, Bit::None, 1060, 1060, false, false, false, false},  // LE hit, LO oflow
           {2000, Bit::Oflow, 1640, -976, false, true, false, true},
       }},
      {"raw LE, density LO below with a gap (case 3)", 0, 4, -512, 0,
       {
           {-600, Bit::Uflow, 1000, -2000, true, false, true, false},
           {-400, Bit::None, -1552, -1552, false, false, false, false},  // LO I=112: -2000+448
           {-100, Bit::Hybrid, 1000, -976, true, false, false, true},  // LE uflow, LO oflow
           {96, Bit::None, 1060, 1060, false, false, false, false},
           {2000, Bit::Oflow, 1640, -976, false, true, false, true},
       }},
      // Raw = LO [0, 4096] (16 per entry), density = LE (1 per entry, 64 wide).
      {"raw LO, density LE inside (case 1)", 1000, 0, 0, 4,
       {
           {-10, Bit::Uflow, 1000, -2000, true, false, true, false},
           {96, Bit::None, -1976, -1976, false, false, false, false},  // LO I=6: -2000+24
           {1020, Bit::Hybrid, 1200, -1745, false, false, false, false},  // LE I=20, LO F=3/4 (below)
           {2000, Bit::None, -1500, -1500, false, false, false, false},  // LO I=125: -2000+500
           {5000, Bit::Oflow, 1640, -976, false, true, false, true},
       }},
      {"raw LO, density LE adjacent below (case 2)", -64, 0, 0, 4,
       {
           {-100, Bit::Uflow, 1000, -2000, true, false, true, false},
           {-44, Bit::None, 1200, 1200, false, false, false, false},  // LE I=20
           {0, Bit::Hybrid, 1640, -2000, false, true, true, false},  // LE D=64 oflow, LO uflow
           {96, Bit::None, -1976, -1976, false, false, false, false},
           {5000, Bit::Oflow, 1640, -976, false, true, false, true},
       }},
      {"raw LO, density LE below with a gap (case 3)", -200, 0, 0, 4,
       {
           {-300, Bit::Uflow, 1000, -2000, true, false, true, false},
           {-180, Bit::None, 1200, 1200, false, false, false, false},  // LE I=20
           {-100, Bit::Hybrid, 1640, -2000, false, true, true, false},  // LE oflow, LO uflow
           {96, Bit::None, -1976, -1976, false, false, false, false},
           {5000, Bit::Oflow, 1640, -976, false, true, false, true},
       }},
  };
  // (x = 1020 in "raw LO, density LE inside" is the one off-grid point: LO D = 1020 = 63*16 + 12,
  //  I = 63, F = 3/4, LO[63] = -1748, LO[64] = -1744: SDP -1748/4 + -1744*3/4 = -437 - 1308 =
  //  -1745; CDP -1748 + rhaz(4 * 3/4) = -1748 + 3 = -1745.)
  for (const auto& a : arrangements) {
    for (auto v : {Sdp, Cdp}) {
      for (int prio = 0; prio < 8; ++prio) {
        LutConfig c;
        c.le_linear = true;
        c.le_start = a.le_start;
        c.le_index_select = static_cast<int8_t>(a.le_sel);
        c.le_end = a.le_start + (int64_t{64} << a.le_sel);
        c.lo_start = a.lo_start;
        c.lo_index_select = static_cast<int8_t>(a.lo_sel);
        c.lo_end = a.lo_start + (int64_t{256} << a.lo_sel);
        c.uflow_prio_lo = (prio & 1) != 0;
        c.oflow_prio_lo = (prio & 2) != 0;
        c.hybrid_prio_lo = (prio & 4) != 0;
        for (const auto& p : a.points) {
          bool lo = false;
          switch (p.bit) {
            case Bit::Uflow: lo = c.uflow_prio_lo; break;
            case Bit::Oflow: lo = c.oflow_prio_lo; break;
            case Bit::Hybrid: lo = c.hybrid_prio_lo; break;
            case Bit::None: break;
          }
          const int64_t expect = lo ? p.if_lo : p.if_le;
          INFO(a.name << " variant " << (v == Sdp ? "SDP" : "CDP") << " prio " << prio << " x "
                      << p.x);
          const auto r = lut_lookup(v, c, t, p.x);
          CHECK(r.value == expect);
          CHECK(r.uflow == (lo ? p.uf_lo : p.uf_le));
          CHECK(r.oflow == (lo ? p.of_lo : p.of_le));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("lut: CDP y0 + (y1 - y0) * f interpolation and ties", "[lut]") {
  auto t = ramp_tables();
  const auto c = base_linear();
  // x = 40: I = 2, f16 = 8 * 2^(16-4) = 32768: 1020 + rhaz(10 * 32768 / 65536) = 1020 + 5 = 1025.
  auto r = lut_lookup(Cdp, c, t, 40);
  CHECK(r.le_frac == 32768);
  CHECK(r.value == 1025);
  t.le[3] = 1031;  // 1020 + rhaz(11 / 2 = 5.5) = 1026
  CHECK(lut_lookup(Cdp, c, t, 40).value == 1026);
  // x = 36: f16 = 4 * 2^12 = 16384: 1020 + rhaz(11 / 4 = 2.75) = 1023.
  CHECK(lut_lookup(Cdp, c, t, 36).value == 1023);
  // Falling segment: y0 = 1031, y1 = 1020: CDP 1031 + rhaz(-5.5) = 1031 - 6 = 1025;
  //   SDP (1031 + 1020) / 2 = 1025.5 -> 1026.
  t.le[2] = 1031;
  t.le[3] = 1020;
  CHECK(lut_lookup(Cdp, c, t, 40).value == 1025);
  CHECK(lut_lookup(Sdp, c, t, 40).value == 1026);
}

TEST_CASE("lut: CDP fractions (16-bit), exponent and linear, 38-bit range", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_exponent();
  // x = 13: e = 3, R = 5, f16 = 5 * 2^16 / 8 = 40960: 1030 + rhaz(10 * 40960 / 65536 = 6.25) = 1036.
  auto r = lut_lookup(Cdp, c, t, 13);
  CHECK(r.le_frac == 40960);
  CHECK(r.value == 1036);
  // x = 2^20 + 3: e = 20, I = 20, f16 = floor(3 * 2^16 / 2^20) = floor(0.1875) = 0 -> LE[20] = 1200.
  r = lut_lookup(Cdp, c, t, 1048579);
  CHECK(r.le_index == 20);
  CHECK(r.le_frac == 0);
  CHECK(r.value == 1200);
  // x = 2^20 + 32: f16 = 32 * 2^16 / 2^20 = 2: 1200 + rhaz(10 * 2 / 65536) = 1200.
  r = lut_lookup(Cdp, c, t, 1048608);
  CHECK(r.le_frac == 2);
  CHECK(r.value == 1200);
  // Linear sel 20: x = 3*2^20 + 2^19 + 5 = 3670021: I = 3, f16 = floor((2^19 + 5) / 16) = 32768.
  //   1030 + rhaz(10 / 2) = 1035.
  c.le_linear = true;
  c.le_index_select = 20;
  r = lut_lookup(Cdp, c, t, 3670021);
  CHECK(r.le_index == 3);
  CHECK(r.le_frac == 32768);
  CHECK(r.value == 1035);
  // Linear sel 3: x = 5: I = 0, f16 = 5 * 2^13 = 40960: 1000 + rhaz(6.25) = 1006.
  c.le_index_select = 3;
  r = lut_lookup(Cdp, c, t, 5);
  CHECK(r.le_frac == 40960);
  CHECK(r.value == 1006);
  // 38-bit: START = -2^37, exponent offset -26, x = 2^37 - 1: D = 2^38 - 1, e = 37, I = 63,
  //   f16 = floor((2^37 - 1) / 2^21) = 65535: 1630 + rhaz(10 * 65535 / 65536 = 9.99985) = 1640.
  c.le_linear = false;
  c.le_index_offset = -26;
  c.le_start = -137438953472;
  c.lo_start = 137438953471;  // LO: x <= START -> underflow
  r = lut_lookup(Cdp, c, t, 137438953471);
  CHECK(r.le_index == 63);
  CHECK(r.le_frac == 65535);
  CHECK(r.value == 1640);
  // CDP takes the low 38 bits of x as signed: 2^38 - 5 -> -5 (<= START 0 below -> underflow).
  c.le_start = 0;
  c.le_uflow_scale = 1;
  c.le_index_offset = -2;  // exponent, negative offset -> B = 0: 1000 + (-5 - 0) = 995
  CHECK(lut_lookup(Cdp, c, t, 274877906939).value == 995);
}

TEST_CASE("lut: CDP signed 6/7-bit index select", "[lut]") {
  const auto t = ramp_tables();
  LutConfig c;
  c.le_linear = true;
  c.le_start = 1000000;  // LE underflows for the x used
  c.lo_start = 0;
  c.lo_end = 256;
  c.hybrid_prio_lo = true;
  // LO_INDEX_SELECT field 0x3e: int16 (7-bit) = +62; int8 (6-bit, sign bit 5) = -2.
  c.lo_index_select = 0x3e;
  c.precision = LutPrecision::Int16;
  // sel 62, x = 5: I = 0, f16 = 5 * 2^16 / 2^62 -> 0: LO[0] = -2000.
  CHECK(lut_lookup(Cdp, c, t, 5).value == -2000);
  c.precision = LutPrecision::Int8;
  // sel -2, x = 5: I = 20: LO[20] = -1920.
  CHECK(lut_lookup(Cdp, c, t, 5).value == -1920);
  // SDP ignores the precision: sel = 62 -> -2000.
  CHECK(lut_lookup(Sdp, c, t, 5).value == -2000);
  // Field 0x7e (8-bit -2): int16 -> 7 bits 0x7e = -2; int8 -> 6 bits 0x3e = -2. Both LO[20].
  c.lo_index_select = 0x7e;
  CHECK(lut_lookup(Cdp, c, t, 5).value == -1920);
  c.precision = LutPrecision::Int16;
  CHECK(lut_lookup(Cdp, c, t, 5).value == -1920);
  // Field 0x40: int16 -> -64 (x = 5: I = 5 * 2^64 -> overflow, LO[256] = -976 with slope 0);
  //   int8 -> 6 bits 0x00 = 0: I = 5 -> LO[5] = -1980.
  c.lo_index_select = 0x40;
  CHECK(lut_lookup(Cdp, c, t, 5).value == -976);
  c.precision = LutPrecision::Int8;
  CHECK(lut_lookup(Cdp, c, t, 5).value == -1980);
  // Same narrowing for the LE select: LE_START 0, field 0x3e, int8 -> -2: x = 5 -> LE[20] = 1200.
  c.le_start = 0;
  c.le_index_select = 0x3e;
  c.hybrid_prio_lo = false;
  CHECK(lut_lookup(Cdp, c, t, 5).value == 1200);
}

TEST_CASE("lut: CDP flow path, rounding and 16-bit saturation", "[lut]") {
  const auto t = ramp_tables();
  auto c = base_linear();
  c.le_oflow_scale = 100;
  // x = 2000: both overflow, LE: 1640 + (2000 - 1024) * 100 = 1640 + 97600 = 99240 -> 32767.
  CHECK(lut_lookup(Cdp, c, t, 2000).value == 32767);
  // SDP, same: no 16-bit clamp -> 99240.
  CHECK(lut_lookup(Sdp, c, t, 2000).value == 99240);
  // x = -1000: both underflow: 1000 + (-1000) * 100 = -99000 -> -32768.
  c.le_uflow_scale = 100;
  CHECK(lut_lookup(Cdp, c, t, -1000).value == -32768);
  // Big left shift, 38-bit x: (2^37 - 1 - 1024) * 32767 * 2^16 ~ 2^84 -> 32767.
  c.le_oflow_scale = 32767;
  c.le_oflow_shift = -16;
  CHECK(lut_lookup(Cdp, c, t, 137438953471).value == 32767);
  // Right shift with rounding, LO: x = -5, uflow prio LO, scale 3, shift 1:
  //   -2000 + rhaz((-5 - 256) * 3 / 2 = -783 / 2 = -391.5) = -2000 - 392 = -2392.
  c.uflow_prio_lo = true;
  c.lo_uflow_scale = 3;
  c.lo_uflow_shift = 1;
  CHECK(lut_lookup(Cdp, c, t, -5).value == -2392);
  // Overflow, x = 1030 (both overflow), prio LO, scale -7, shift 2:
  //   -976 + rhaz((1030 - 512) * -7 / 4 = -3626 / 4 = -906.5) = -976 - 907 = -1883.
  c.oflow_prio_lo = true;
  c.lo_oflow_scale = -7;
  c.lo_oflow_shift = 2;
  CHECK(lut_lookup(Cdp, c, t, 1030).value == -1883);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("lut: statistics, SDP (independent hits) and CDP (exclusive)", "[lut]") {
  auto res = [](S le, S lo, bool lo_sel) {
    LutResult r;
    r.le_status = le;
    r.lo_status = lo;
    r.le_hit = le == S::Hit;
    r.lo_hit = lo == S::Hit;
    r.lo_selected = lo_sel;
    const S chosen = lo_sel ? lo : le;
    r.uflow = chosen == S::Uflow;
    r.oflow = chosen == S::Oflow;
    return r;
  };
  const std::vector<LutResult> rs = {
      res(S::Hit, S::Hit, true),      // SDP: hybrid, le, lo      CDP: hybrid
      res(S::Hit, S::Uflow, false),   // SDP: hybrid, le          CDP: le_hit
      res(S::Uflow, S::Hit, true),    // SDP: hybrid, lo          CDP: lo_hit
      res(S::Uflow, S::Uflow, false), // SDP: uflow               CDP: uflow
      res(S::Oflow, S::Oflow, true),  // SDP: oflow               CDP: oflow
      res(S::Oflow, S::Uflow, false), // SDP: oflow (LE chosen)   CDP: hybrid
      res(S::Oflow, S::Hit, true),    // SDP: hybrid, lo          CDP: lo_hit
  };
  LutStats sdp, cdp;
  for (const auto& r : rs) {
    accumulate(Sdp, sdp, r);
    accumulate(Cdp, cdp, r);
  }
  // SDP: uflow 1; oflow 2; hybrid 4 (rows 1,2,3,7); le_hit 2 (rows 1,2); lo_hit 3 (rows 1,3,7).
  CHECK(sdp == LutStats{1, 2, 4, 2, 3});
  // CDP: uflow 1; oflow 1; hybrid 2 (rows 1,6); le_hit 1 (row 2); lo_hit 2 (rows 3,7).
  CHECK(cdp == LutStats{1, 1, 2, 1, 2});
  // 32-bit saturation.
  LutStats s{0xfffffffeu, 0, 0, 0, 0};
  accumulate(Sdp, s, rs[3]);
  accumulate(Sdp, s, rs[3]);
  accumulate(Cdp, s, rs[3]);
  CHECK(s.uflow == 0xffffffffu);
  // End to end with lookups, base linear config, SDP: x = -10 (both uflow), 40 (LE only),
  // 300 (both hit), 2000 (both oflow): uflow 1, oflow 1, hybrid 2, le_hit 2, lo_hit 1.
  const auto t = ramp_tables();
  const auto c = base_linear();
  LutStats e, ec;
  for (int64_t x : {-10, 40, 300, 2000}) {
    accumulate(Sdp, e, lut_lookup(Sdp, c, t, x));
    accumulate(Cdp, ec, lut_lookup(Cdp, c, t, x));
  }
  CHECK(e == LutStats{1, 1, 2, 2, 1});
  // CDP: uflow 1, oflow 1, hybrid 1 (x=300), le_hit 1 (x=40), lo_hit 0.
  CHECK(ec == LutStats{1, 1, 1, 1, 0});
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("lut: register decode and encode, SDP and CDP", "[lut]") {
  // SDP words (offsets 0x10..0x34).
  const std::vector<uint32_t> sdp = {
      0xffffff51u,  // LUT_CFG 0x51: LE linear (bit 0), uflow prio LO (4), oflow LE (5), hybrid LO (6)
      0xabfe04f3u,  // LUT_INFO: offset 0xf3 = -13, LE select 0x04 = 4, LO select 0xfe = -2
      0xffffff00u,  // LE_START -256
      0x00000400u,  // LE_END 1024
      0x80000000u,  // LO_START -2^31
      0x7fffffffu,  // LO_END 2^31 - 1
      0x80017fffu,  // LE scales: uflow 0x7fff = 32767, oflow 0x8001 = -32767
      0xfffffdf0u,  // LE shifts: uflow [4:0] 0x10 = -16, oflow [9:5] 0x0f = 15 (bits 10+ junk)
      0x0003fffdu,  // LO scales: uflow -3, oflow 3
      0x000003e1u,  // LO shifts: uflow 1, oflow 0x1f = -1
  };
  const LutConfig c = decode_lut_config(Sdp, sdp);
  CHECK(c.le_linear);
  CHECK(c.uflow_prio_lo);
  CHECK_FALSE(c.oflow_prio_lo);
  CHECK(c.hybrid_prio_lo);
  CHECK(c.le_index_offset == -13);
  CHECK(c.le_index_select == 4);
  CHECK(c.lo_index_select == -2);
  CHECK(c.le_start == -256);
  CHECK(c.le_end == 1024);
  CHECK(c.lo_start == -2147483648LL);
  CHECK(c.lo_end == 2147483647LL);
  CHECK(c.le_uflow_scale == 32767);
  CHECK(c.le_oflow_scale == -32767);
  CHECK(c.le_uflow_shift == -16);
  CHECK(c.le_oflow_shift == 15);
  CHECK(c.lo_uflow_scale == -3);
  CHECK(c.lo_oflow_scale == 3);
  CHECK(c.lo_uflow_shift == 1);
  CHECK(c.lo_oflow_shift == -1);
  // Encode gives the defined bits back.
  const std::vector<uint32_t> sdp_clean = {0x51u,        0x00fe04f3u, 0xffffff00u, 0x400u,
                                           0x80000000u,  0x7fffffffu, 0x80017fffu, 0x1f0u,
                                           0x0003fffdu,  0x3e1u};
  CHECK(encode_lut_config(Sdp, c) == sdp_clean);

  // CDP words (offsets 0x10..0x44): 38-bit {HIGH[5:0], LOW}.
  const std::vector<uint32_t> cdp = {
      0x00000000u,  // LUT_CFG: LE exponent, all priorities LE
      0x00000000u,  // LUT_INFO
      0x00000000u, 0x00000020u,  // LE_START = 0x20_00000000 -> bit 37 set -> -2^37 = -137438953472
      0xffffffffu, 0x0000001fu,  // LE_END = 2^37 - 1 = 137438953471
      0xfffffffbu, 0x0000003fu,  // LO_START = 0x3f_fffffffb -> -5
      0x00000005u, 0x000000c0u,  // LO_END = 5 (HIGH bits above [5:0] ignored)
      0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
  };
  const LutConfig d = decode_lut_config(Cdp, cdp, LutPrecision::Int8);
  CHECK(d.le_start == -137438953472LL);
  CHECK(d.le_end == 137438953471LL);
  CHECK(d.lo_start == -5);
  CHECK(d.lo_end == 5);
  CHECK(d.precision == LutPrecision::Int8);
  auto cdp_clean = cdp;
  cdp_clean[9] = 0;
  CHECK(encode_lut_config(Cdp, d) == cdp_clean);
  CHECK_THROWS(decode_lut_config(Cdp, sdp));  // 10 words are too few for CDP

  // The programming sequence: 10 config words, ACCESS_CFG(LE, write, 0) = 0x20000, 65 DATA
  // writes, ACCESS_CFG(LO, write, 0) = 0x30000, 257 DATA writes: 10 + 1 + 65 + 1 + 257 = 334.
  const auto t = ramp_tables();
  const auto w = lut_register_writes(Sdp, c, t);
  REQUIRE(w.size() == 334);
  CHECK(w[0] == std::pair<uint32_t, uint32_t>{0x10, 0x51});
  CHECK(w[9] == std::pair<uint32_t, uint32_t>{0x34, 0x3e1});
  CHECK(w[10] == std::pair<uint32_t, uint32_t>{0x08, 0x20000});
  CHECK(w[11] == std::pair<uint32_t, uint32_t>{0x0c, 1000});
  CHECK(w[76] == std::pair<uint32_t, uint32_t>{0x08, 0x30000});
  CHECK(w[77] == std::pair<uint32_t, uint32_t>{0x0c, 0xf830});  // -2000 as 16 bits = 0xf830
  CHECK(lut_register_writes(Cdp, d, t).size() == 338);          // 14 + 324
}

TEST_CASE("lut: LutRam programming, auto-increment, read-back, busy refusal", "[lut]") {
  LutRam ram;
  REQUIRE(ram.cfg_write(0x20000));  // LE, write, addr 0
  for (uint32_t i = 0; i < 65; ++i) REQUIRE(ram.data_write(0xffff0000u | i));  // upper bits ignored
  CHECK(ram.addr() == 64);  // saturated at the last entry
  REQUIRE(ram.data_write(7));  // writes entry 64 again
  REQUIRE(ram.data_write(0x8000));  // entry 64 = -32768
  CHECK(ram.tables().le[0] == 0);
  CHECK(ram.tables().le[63] == 63);
  CHECK(ram.tables().le[64] == -32768);
  CHECK(ram.cfg_read() == 0x20040u);  // write type, LE, addr 64

  // Read back from 62 with access type READ: 62, 63, 0x8000, then stays at 64.
  REQUIRE(ram.cfg_write(62));
  CHECK(ram.data_read() == 62);
  CHECK(ram.data_read() == 63);
  CHECK(ram.data_read() == 0x8000u);
  CHECK(ram.data_read() == 0x8000u);
  CHECK(ram.addr() == 64);
  // A DATA write while the access type is READ is ignored.
  REQUIRE(ram.data_write(5));
  CHECK(ram.tables().le[64] == -32768);

  // LO: address 300 clamps to 256; two writes both land on 256.
  REQUIRE(ram.cfg_write(0x30000u | 300u));
  CHECK(ram.addr() == 256);
  REQUIRE(ram.data_write(11));
  REQUIRE(ram.data_write(12));
  CHECK(ram.tables().lo[256] == 12);
  REQUIRE(ram.cfg_write(0x30000u | 254u));
  REQUIRE(ram.data_write(1));
  REQUIRE(ram.data_write(2));
  REQUIRE(ram.data_write(3));  // 254, 255, 256
  CHECK(ram.tables().lo[254] == 1);
  CHECK(ram.tables().lo[255] == 2);
  CHECK(ram.tables().lo[256] == 3);
  // Reading with access type WRITE returns the current entry without incrementing.
  CHECK(ram.data_read() == 3);
  CHECK(ram.addr() == 256);

  // Busy: writes refused, sticky error, nothing changes; reads still served.
  REQUIRE(ram.cfg_write(0x30000u | 10u));
  ram.set_busy(true);
  CHECK_FALSE(ram.data_write(99));
  CHECK_FALSE(ram.cfg_write(0x20000));
  CHECK(ram.error());
  CHECK(ram.tables().lo[10] == 0);
  CHECK(ram.addr() == 10);
  CHECK(ram.table_lo());
  CHECK(ram.data_read() == 0);
  ram.set_busy(false);
  CHECK(ram.error());  // sticky until cleared
  ram.clear_error();
  CHECK_FALSE(ram.error());
  REQUIRE(ram.data_write(99));
  CHECK(ram.tables().lo[10] == 99);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("lut: builders, slope encoding and hand-checked entries", "[lut]") {
  int16_t scale = 0;
  int shift = 0;
  // 0.75: log2(32767 / 0.75) = 15.4 -> shift 15, scale = 0.75 * 32768 = 24576.
  lut_slope_to_scale_shift(0.75, scale, shift);
  CHECK(scale == 24576);
  CHECK(shift == 15);
  // 3 * 2^20: log2(32767 / 3145728) = -6.58 -> shift -7, scale = 3 * 2^13 = 24576.
  lut_slope_to_scale_shift(3145728.0, scale, shift);
  CHECK(scale == 24576);
  CHECK(shift == -7);
  // -1e9: log2(32767 / 1e9) = -14.9 -> -15, scale = -1e9 / 32768 = -30517.58 -> -30518.
  lut_slope_to_scale_shift(-1e9, scale, shift);
  CHECK(scale == -30518);
  CHECK(shift == -15);
  // 1e12 needs more than 2^-16: clamp to shift -16, scale 1e12 / 65536 -> saturates to 32767.
  lut_slope_to_scale_shift(1e12, scale, shift);
  CHECK(scale == 32767);
  CHECK(shift == -16);
  lut_slope_to_scale_shift(0.0, scale, shift);
  CHECK(scale == 0);
  CHECK(shift == 0);

  // exp, linear LE from 0 step 1 (in_scale 1/16), out_scale 256:
  //   LE[0] = round(256 * e^0) = 256; LE[16] = round(256 * e) = round(695.89) = 696;
  //   LE_END = 0 + 64 * 1 = 64. LO from -256 step 1: LO[0] = round(256 * e^-16) = 0,
  //   LO[256] = LO at x = 0 -> 256. Tangent slopes: LE oflow = f'(4) * 256 / 16 = 16 e^4 = 873.6
  //   -> shift floor(log2(32767 / 873.6)) = 5, scale round(873.6 * 32) = 27954.
  LutBuildSpec s;
  s.variant = Sdp;
  s.fn.function = LutFunction::Exp;
  s.fn.in_scale = 1.0 / 16.0;
  s.fn.out_scale = 256.0;
  s.le_linear = true;
  s.le_start = 0;
  s.le_index_select = 0;
  s.lo_start = -256;
  s.lo_index_select = 0;
  const LutProgram p = build_lut(s);
  CHECK(p.tables.le[0] == 256);
  CHECK(p.tables.le[16] == 696);
  CHECK(p.config.le_end == 64);
  CHECK(p.config.lo_end == 0);
  CHECK(p.tables.lo[0] == 0);
  CHECK(p.tables.lo[256] == 256);
  CHECK(p.config.le_oflow_shift == 5);
  CHECK(p.config.le_oflow_scale == 27954);
  CHECK(p.config.hybrid_prio_lo);
  // Field checks.
  s.lo_index_select = 200;
  CHECK_THROWS(build_lut(s));
}

TEST_CASE("lut: builders reach a useful accuracy (sigmoid, tanh, exp, LRN)", "[lut]") {
  // Sigmoid, SDP, X in Q.12 (in_scale 2^-12), out Q.14: raw LE linear over [-16, 16], density LO
  // over [-4, 4]. Quantization alone is 2^-15 = 3e-5; LO step 1/32 gives interpolation error
  // < h^2/8 * max|f''| ~ 1e-4 there.
  LutFunctionSpec fn;
  fn.function = LutFunction::Sigmoid;
  fn.in_scale = 1.0 / 4096.0;
  fn.out_scale = 16384.0;
  auto spec = plan_lut(Sdp, fn, -16.0, 16.0, false, -4.0, 4.0);
  // [-16, 16] in Q.12 is 131072 wide / 64 entries = 2048 = 2^11 -> LE select 11, START -65536;
  // [-4, 4] is 32768 wide / 256 = 128 = 2^7 -> LO select 7, START -16384.
  CHECK(spec.le_linear);
  CHECK(spec.le_index_select == 11);
  CHECK(spec.le_start == -65536);
  CHECK(spec.lo_index_select == 7);
  CHECK(spec.lo_start == -16384);
  auto p = build_lut(spec);
  auto dense = lut_accuracy(p, Sdp, fn, -4 * 4096, 4 * 4096);
  CHECK(dense.max_abs_err < 2e-4);
  auto wide = lut_accuracy(p, Sdp, fn, -40 * 4096, 40 * 4096);
  CHECK(wide.max_abs_err < 2e-3);
  CHECK(wide.samples == 4097);

  // CSV output has a header and one row per sample.
  std::ostringstream os;
  write_lut_csv(os, p, Sdp, fn, -10, 10, 100);
  const std::string csv = os.str();
  CHECK(csv.rfind("x_int,x,f,lut,err,table,flag\n", 0) == 0);
  int lines = 0;
  for (char ch : csv) lines += ch == '\n';
  CHECK(lines == 22);  // header + 21 integers

  // LRN on CDP: f(Q) = (1 + 1e-4 * Q)^-0.75, Q = square sum up to 2^30 (int16), LE exponent.
  fn.function = LutFunction::Lrn;
  fn.in_scale = 1.0;
  fn.out_scale = 16384.0;
  auto lrn = plan_lut(Cdp, fn, 0.0, 1073741824.0, true, 0.0, 65536.0);
  auto pl = build_lut(lrn);
  // One LE entry per octave: the worst octave, [2^16, 2^17], has linear-interpolation error
  // ~ h^2/8 * f'' = 2^32/8 * 5e-11 ~ 0.027 at most (measured 0.011); LO makes [0, 65536] fine.
  CHECK(lrn.le_index_offset == -33);  // ceil(log2(2^30 + 1)) - 64 = 31 - 64
  CHECK(lrn.le_start == -1);
  CHECK(lrn.lo_index_select == 8);    // 65536 / 256 = 2^8
  auto acc = lut_accuracy(pl, Cdp, fn, 0, 1073741824, 100000);
  CHECK(acc.max_abs_err < 0.02);
  CHECK(lut_accuracy(pl, Cdp, fn, 0, 65536).max_abs_err < 1e-3);
}
