// Winograd F(2x2,3x3) golden model against hand-worked tiles (docs/WINOGRAD.md).
// Tiles are written row by row: element 4*r + c of a 4x4 tile, 3*r + s of a 3x3 kernel,
// 2*i + j of a 2x2 output.
#include <catch2/catch.hpp>

#include <random>
#include <stdexcept>

#include "golden/arith.hpp"
#include "engines/wino/golden/wino.hpp"

using namespace dla::golden;

namespace {

// d with only d[1][1] = x: T = B^T d has column 1 = (0, x, -x, x), so
//   V = B^T d B = [ 0  0  0  0 ;  0  x -x  x ;  0 -x  x -x ;  0  x -x  x ].
WinoTile single_11(int64_t x) {
  WinoTile d{};
  d[5] = x;
  return d;
}

}  // namespace

TEST_CASE("wino widths", "[wino]") {
  CHECK(wino_sum_bits(Precision::Int8) == 18);   // 2*8 + 2: 4 channels of int8 products
  CHECK(wino_out_bits(Precision::Int8) == 22);   // + 4: a sum of 9
  CHECK(wino_sum_bits(Precision::Int16) == 34);
  CHECK(wino_out_bits(Precision::Int16) == 38);  // NVDLA's CACC input width for int16
}

TEST_CASE("PRA exact transform, hand-worked", "[wino][pra]") {
  // d = [1 2 3 4; 5 6 7 8; 9 10 11 12; 13 14 15 16]
  // T = B^T d:  row0 = d0-d2 = (-8 -8 -8 -8)   row1 = d1+d2 = (14 16 18 20)
  //             row2 = d2-d1 = ( 4  4  4  4)   row3 = d1-d3 = (-8 -8 -8 -8)
  // V = T B, per row (t0-t2, t1+t2, t2-t1, t1-t3):
  //   row0 (0, -16, 0, 0)  row1 (14-18, 16+18, 18-16, 16-20) = (-4, 34, 2, -4)
  //   row2 (0, 8, 0, 0)    row3 (0, -16, 0, 0)
  const WinoTile d = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const WinoTile v = {0, -16, 0, 0, -4, 34, 2, -4, 0, 8, 0, 0, 0, -16, 0, 0};
  CHECK(wino_pra_exact(d) == v);
  CHECK(wino_pra(d, Precision::Int8, 0) == v);
  CHECK(wino_pra(d, Precision::Int16, 0) == v);
  // PRA_TRUNCATE 1: -16/2 = -8, -4/2 = -2, 34/2 = 17, 2/2 = 1, 8/2 = 4
  CHECK(wino_pra(d, Precision::Int8, 1) == WinoTile{0, -8, 0, 0, -2, 17, 1, -2, 0, 4, 0, 0, 0, -8, 0, 0});
  // PRA_TRUNCATE 2: -16/4 = -4, -4/4 = -1, 34/4 = 8.5 -> 9 (tie away from zero), 2/4 = 0.5 -> 1,
  // 8/4 = 2
  CHECK(wino_pra(d, Precision::Int16, 2) == WinoTile{0, -4, 0, 0, -1, 9, 1, -1, 0, 2, 0, 0, 0, -4, 0, 0});

  // The single-entry tile: d[1][1] = 3 gives +-3 as the comment on single_11 shows.
  CHECK(wino_pra_exact(single_11(3)) == WinoTile{0, 0, 0, 0, 0, 3, -3, 3, 0, -3, 3, -3, 0, 3, -3, 3});

  // d[2][2] = y alone: T column 2 = (d0-d2, d1+d2, d2-d1, d1-d3) = (-y, y, y, 0), so each row of
  // T is (0, 0, a, 0) and V row = (-a, a, a, 0):
  //   V = [ y -y -y 0 ; -y y y 0 ; -y y y 0 ; 0 0 0 0 ]   (y = -5 here)
  WinoTile d22{};
  d22[10] = -5;
  CHECK(wino_pra_exact(d22) == WinoTile{-5, 5, 5, 0, 5, -5, -5, 0, 5, -5, -5, 0, 0, 0, 0, 0});
}

TEST_CASE("PRA rounding: half away from zero at every PRA_TRUNCATE", "[wino][pra]") {
  // single_11(x): V[1][1] = x, V[1][2] = -x.
  struct Row {
    int64_t x;
    int t;
    int64_t pos, neg;  // rhaz(x / 2^t), rhaz(-x / 2^t)
  };
  const Row rows[] = {
      {3, 0, 3, -3},    // no shift
      {1, 1, 1, -1},    // 0.5 -> 1, -0.5 -> -1
      {3, 1, 2, -2},    // 1.5 -> 2, -1.5 -> -2
      {5, 1, 3, -3},    // 2.5 -> 3, -2.5 -> -3
      {4, 1, 2, -2},    // exact
      {2, 2, 1, -1},    // 0.5 -> 1, -0.5 -> -1
      {5, 2, 1, -1},    // 1.25 -> 1, -1.25 -> -1
      {6, 2, 2, -2},    // 1.5 -> 2, -1.5 -> -2
      {7, 2, 2, -2},    // 1.75 -> 2, -1.75 -> -2
      {10, 2, 3, -3},   // 2.5 -> 3, -2.5 -> -3
      {1, 2, 0, 0},     // 0.25 -> 0, -0.25 -> 0
      {4, 3, 1, -1},    // 0.5 -> 1 (3: outside NVDLA's documented 0..2, the same rule)
      {12, 3, 2, -2},   // 1.5 -> 2
  };
  for (const auto& row : rows) {
    for (const Precision p : {Precision::Int8, Precision::Int16}) {
      INFO("x " << row.x << " truncate " << row.t << " int16 " << (p == Precision::Int16));
      const WinoTile v = wino_pra(single_11(row.x), p, row.t);
      CHECK(v[5] == row.pos);
      CHECK(v[6] == row.neg);
      CHECK(v[0] == 0);
    }
  }
}

TEST_CASE("PRA saturation, int8 and int16", "[wino][pra]") {
  // d00 = M, d02 = m, d20 = m, d22 = M (M = max, m = min), every other element 0:
  //   T column 0 = (d00-d20, d20, d20, 0) = (M-m, m, m, 0); column 2 = (d02-d22, d22, d22, 0)
  //   = (m-M, M, M, 0); T row0 = (M-m, 0, m-M, 0), rows 1, 2 = (m, 0, M, 0), row3 = 0.
  //   V row0 = (2(M-m), m-M, m-M, 0), rows 1, 2 = (m-M, M, M, 0), row3 = 0.
  // int8 (M = 127, m = -128): V row0 = (510, -255, -255, 0), rows 1, 2 = (-255, 127, 127, 0).
  WinoTile d{};
  d[0] = 127;
  d[2] = -128;
  d[8] = -128;
  d[10] = 127;
  CHECK(wino_pra_exact(d) == WinoTile{510, -255, -255, 0, -255, 127, 127, 0, -255, 127, 127, 0, 0, 0, 0, 0});
  // t 0: 510 -> sat 127, -255 -> sat -128
  CHECK(wino_pra(d, Precision::Int8, 0) ==
        WinoTile{127, -128, -128, 0, -128, 127, 127, 0, -128, 127, 127, 0, 0, 0, 0, 0});
  // t 1: 255 -> sat 127, -127.5 -> -128, 63.5 -> 64
  CHECK(wino_pra(d, Precision::Int8, 1) ==
        WinoTile{127, -128, -128, 0, -128, 64, 64, 0, -128, 64, 64, 0, 0, 0, 0, 0});
  // t 2: 127.5 -> 128 (rounding first) -> sat 127, -63.75 -> -64, 31.75 -> 32
  CHECK(wino_pra(d, Precision::Int8, 2) == WinoTile{127, -64, -64, 0, -64, 32, 32, 0, -64, 32, 32, 0, 0, 0, 0, 0});
  // The same tile is not saturated in int16.
  CHECK(wino_pra(d, Precision::Int16, 0) == wino_pra_exact(d));

  // int16 (M = 32767, m = -32768): V row0 = (131070, -65535, -65535, 0), rows 1, 2 =
  // (-65535, 32767, 32767, 0). 131070 is the largest 18-bit second-pass value.
  d[0] = 32767;
  d[2] = -32768;
  d[8] = -32768;
  d[10] = 32767;
  CHECK(wino_pra_exact(d) ==
        WinoTile{131070, -65535, -65535, 0, -65535, 32767, 32767, 0, -65535, 32767, 32767, 0, 0, 0, 0, 0});
  // t 0: sat 32767 / -32768
  CHECK(wino_pra(d, Precision::Int16, 0) ==
        WinoTile{32767, -32768, -32768, 0, -32768, 32767, 32767, 0, -32768, 32767, 32767, 0, 0, 0, 0, 0});
  // t 1: 65535 -> sat 32767, -32767.5 -> -32768, 16383.5 -> 16384
  CHECK(wino_pra(d, Precision::Int16, 1) ==
        WinoTile{32767, -32768, -32768, 0, -32768, 16384, 16384, 0, -32768, 16384, 16384, 0, 0, 0, 0, 0});
  // t 2: 32767.5 -> 32768 -> sat 32767, -16383.75 -> -16384, 8191.75 -> 8192
  CHECK(wino_pra(d, Precision::Int16, 2) ==
        WinoTile{32767, -16384, -16384, 0, -16384, 8192, 8192, 0, -16384, 8192, 8192, 0, 0, 0, 0, 0});

  // The most negative 18-bit value: d11 = d12 = d21 = d22 = -32768 gives V[1][1] = -131072
  // (B^T row 1 = (0,1,1,0): V[1][1] = d11 + d12 + d21 + d22). /4 = -32768 exactly: no clamp at t 2.
  WinoTile n{};
  n[5] = n[6] = n[9] = n[10] = -32768;
  CHECK(wino_pra_exact(n)[5] == -131072);
  CHECK(wino_pra(n, Precision::Int16, 2)[5] == -32768);
  CHECK(wino_pra(n, Precision::Int16, 1)[5] == -32768);  // -65536 -> sat
  // int8: -128 * 4 = -512; /4 = -128 exactly; 127 * 4 = 508 -> /4 = 127.
  n[5] = n[6] = n[9] = n[10] = -128;
  CHECK(wino_pra(n, Precision::Int8, 2)[5] == -128);
  CHECK(wino_pra(n, Precision::Int8, 1)[5] == -128);  // -256 -> sat
  n[5] = n[6] = n[9] = n[10] = 127;
  CHECK(wino_pra(n, Precision::Int8, 2)[5] == 127);
  CHECK(wino_pra(n, Precision::Int8, 0)[5] == 127);   // 508 -> sat

  // Inputs outside the precision and truncates outside the field are refused.
  CHECK_THROWS_AS(wino_pra(single_11(128), Precision::Int8, 0), std::invalid_argument);
  CHECK_THROWS_AS(wino_pra(single_11(1), Precision::Int8, 4), std::invalid_argument);
  CHECK_THROWS_AS(wino_pra(single_11(1), Precision::Int8, -1), std::invalid_argument);
}

TEST_CASE("POA, hand-worked", "[wino][poa]") {
  // M = [1 2 3 4; 5 6 7 8; 9 10 11 12; 13 14 15 16]
  // T = A^T M: row0 = M0+M1+M2 = (15 18 21 24); row1 = M1-M2-M3 = (-17 -18 -19 -20)
  // Y = T A, per row (t0+t1+t2, t1-t2-t3):
  //   Y00 = 15+18+21 = 54, Y01 = 18-21-24 = -27, Y10 = -17-18-19 = -54, Y11 = -18+19+20 = 21
  const WinoTile m = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  CHECK(wino_poa(m) == WinoOut{54, -27, -54, 21});

  // All a = -2^33 (the 34-bit minimum): T row0 = 3a each, row1 = a-a-a = -a each;
  // Y00 = 9a, Y01 = 3a-3a-3a = -3a, Y10 = -a-a-a = -3a, Y11 = -a+a+a = a.
  const int64_t a = -(int64_t{1} << 33);
  WinoTile all{};
  all.fill(a);
  CHECK(wino_poa(all) == WinoOut{9 * a, -3 * a, -3 * a, a});
  CHECK(9 * a == -77309411328);  // needs 38 bits (2^37 = 137438953472)

  // Y11 = T1[1] - T1[2] - T1[3] with T1[c] = m[4+c] - m[8+c] - m[12+c]: the largest Y11 takes
  // m5 = M, m9 = m13 = m; m6 = m7 = m, m10 = m11 = m14 = m15 = M (M = 2^33-1, m = -2^33):
  //   T1[1] = M - 2m = 3*2^33 - 1; T1[2] = T1[3] = m - 2M = -3*2^33 + 2
  //   Y11 = 3*2^33 - 1 + 2*(3*2^33 - 2) = 9*2^33 - 5 = 77309411323
  const int64_t mx = (int64_t{1} << 33) - 1, mn = -(int64_t{1} << 33);
  WinoTile e{};
  e[5] = mx;
  e[9] = e[13] = mn;
  e[6] = e[7] = mn;
  e[10] = e[11] = e[14] = e[15] = mx;
  CHECK(wino_poa(e)[3] == 77309411323);
  CHECK_FALSE(saturates(77309411323, 38));
}

TEST_CASE("Winograd atomic operation: per-position dot products over 4 channels, then POA", "[wino][poa]") {
  // Two channels' lanes interleaved (lane 4p + ch with 4 channels; here channels 0, 1 carry data,
  // 2, 3 are zero). Channel 0: data 1 at every position, weight p+1; channel 1: data 2 at
  // position 5 only, weight 10 there. M[p] = p+1, plus 2*10 = 20 at p = 5 -> M5 = 26.
  std::vector<WinoTile> data(4), wts(4);
  for (int p = 0; p < 16; ++p) {
    data[0][p] = 1;
    wts[0][p] = p + 1;
  }
  data[1][5] = 2;
  wts[1][5] = 10;
  const auto dl = wino_pack_lanes(data), wl = wino_pack_lanes(wts);
  REQUIRE(dl.size() == 64);
  CHECK(dl[4 * 5 + 1] == 2);  // position 5, channel 1
  CHECK(wino_unpack_lanes(dl) == data);
  WinoTile m = wino_mac(dl, wl);
  CHECK(m[5] == 26);
  CHECK(m[15] == 16);
  // POA of 1..16 is (54, -27, -54, 21) (above); M5 enters Y00 (+), Y01 (+), Y10 (+), Y11 (+):
  // T0[1] and T1[1] each gain 20, Y00 = t0+t1+t2, Y01 = t1-t2-t3, Y10 likewise, Y11 likewise.
  CHECK(wino_atomic_op(dl, wl) == WinoOut{74, -7, -34, 41});
}

TEST_CASE("weight pre-transform, both schemes, hand-worked", "[wino][weights]") {
  // g = [1 2 3; 4 5 6; 7 8 9]. 2G rows (2,0,0), (1,1,1), (1,-1,1), (0,0,2):
  //   (2G) g = [2 4 6; 12 15 18; 4 5 6; 14 16 18]
  //   U' = ((2G) g)(2G)^T, per row (a,b,c) -> (2a, a+b+c, a-b+c, 2c):
  //   [4 12 4 12; 24 45 15 36; 8 15 5 12; 28 48 16 36]
  const WinoKernel g = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const WinoTile u4 = {4, 12, 4, 12, 24, 45, 15, 36, 8, 15, 5, 12, 28, 48, 16, 36};
  CHECK(wino_weights_exact(g) == u4);
  // U = U'/4 = [1 3 1 3; 6 11.25 3.75 9; 2 3.75 1.25 3; 7 12 4 9]; the cast truncates.
  CHECK(wino_weights_nvdla(g, Precision::Int8) == WinoTile{1, 3, 1, 3, 6, 11, 3, 9, 2, 3, 1, 3, 7, 12, 4, 9});
  // Negated: toward zero, not down (-11.25 -> -11, -3.75 -> -3, -1.25 -> -1).
  const WinoKernel ng = {-1, -2, -3, -4, -5, -6, -7, -8, -9};
  CHECK(wino_weights_nvdla(ng, Precision::Int16) ==
        WinoTile{-1, -3, -1, -3, -6, -11, -3, -9, -2, -3, -1, -3, -7, -12, -4, -9});
  WinoTile nu4 = u4;
  for (auto& v : nu4) v = -v;
  CHECK(wino_weights_exact(ng) == nu4);

  // All weights a: (2G) g rows = (2a, 3a, a, 2a) repeated; U' rows (4a 6a 2a 4a; 6a 9a 3a 6a;
  // 2a 3a a 2a; 4a 6a 2a 4a). a = 127: U = [127 190.5 63.5 127; 190.5 285.75 95.25 190.5;
  // 63.5 95.25 31.75 63.5; 127 190.5 63.5 127] -> int8: truncate, then clamp at 127.
  WinoKernel g127{};
  g127.fill(127);
  CHECK(wino_weights_nvdla(g127, Precision::Int8) ==
        WinoTile{127, 127, 63, 127, 127, 127, 95, 127, 63, 95, 31, 63, 127, 127, 63, 127});
  CHECK(wino_weights_nvdla(g127, Precision::Int16) ==
        WinoTile{127, 190, 63, 127, 190, 285, 95, 190, 63, 95, 31, 63, 127, 190, 63, 127});
  // The exact scheme: U' center 9*127 = 1143 -- int8 weights need int16 U'.
  const WinoTile e127 = wino_weights_exact(g127);
  CHECK(e127[5] == 1143);
  CHECK_FALSE(wino_weights_fit(e127, 8));
  CHECK(wino_weights_fit(e127, 16));
  // The int8 extreme: all -128 -> center -1152 = 9 * -128, still 12 bits.
  WinoKernel gm{};
  gm.fill(-128);
  CHECK(wino_weights_exact(gm)[5] == -1152);
  CHECK(wino_weights_fit(wino_weights_exact(gm), 12));
  // int16 weights fit int16 U' up to |g| = 3640 (9 * 3640 = 32760); 3641 overflows (32769).
  WinoKernel g16{};
  g16.fill(3640);
  CHECK(wino_weights_fit(wino_weights_exact(g16), 16));
  g16.fill(3641);
  CHECK_FALSE(wino_weights_fit(wino_weights_exact(g16), 16));
  g16.fill(-3641);  // -32769
  CHECK_FALSE(wino_weights_fit(wino_weights_exact(g16), 16));

  // Scheme (a) on the kernel that scheme (b) maps to 4U: when 4 divides every weight, U is an
  // integer and both schemes agree up to the factor 4.
  WinoKernel g4 = g;
  for (auto& v : g4) v *= 4;
  const WinoTile ua = wino_weights_nvdla(g4, Precision::Int16);
  CHECK(ua == u4);
}

namespace {

// The 2x2 direct convolution (correlation, as CNN layers compute it) of 4x4 tiles by 3x3
// kernels summed over the channels, with plain int64 loops.
WinoOut direct(const std::vector<WinoTile>& d, const std::vector<WinoKernel>& g) {
  WinoOut y{};
  for (std::size_t ch = 0; ch < d.size(); ++ch) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        int64_t acc = 0;
        for (int r = 0; r < 3; ++r) {
          for (int s = 0; s < 3; ++s) acc += d[ch][(i + r) * 4 + (j + s)] * g[ch][r * 3 + s];
        }
        y[i * 2 + j] += acc;
      }
    }
  }
  return y;
}

// The hardware path for one output tile: PRA every channel, MAC with the pre-transformed
// weights, POA; then CACC's clip-truncate (rhaz) by `clip`.
WinoOut winograd(const std::vector<WinoTile>& d, const std::vector<WinoTile>& u, Precision p, int pra_truncate,
                 int clip) {
  std::vector<WinoTile> v;
  for (const auto& t : d) v.push_back(wino_pra(t, p, pra_truncate));
  WinoOut y = wino_atomic_op(wino_pack_lanes(v), wino_pack_lanes(u));
  for (auto& e : y) e = static_cast<int64_t>(rhaz_shift(e, clip));
  return y;
}

}  // namespace

TEST_CASE("exact integer scheme equals the direct convolution", "[wino][equivalence]") {
  std::mt19937_64 rng(20240611);
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };

  // Hand-worked first: one channel, d = 1..16, g = [1 2 3; 4 5 6; 7 8 9].
  //   Y00 = 1*1+2*2+3*3 + 5*4+6*5+7*6 + 9*7+10*8+11*9 = 14 + 92 + 242 = 348
  //   Each step right adds sum(g) = 45, each step down adds 4 * 45 = 180:
  //   Y01 = 393, Y10 = 528, Y11 = 573.
  {
    const std::vector<WinoTile> d = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    const std::vector<WinoKernel> g = {{1, 2, 3, 4, 5, 6, 7, 8, 9}};
    CHECK(direct(d, g) == WinoOut{348, 393, 528, 573});
    const std::vector<WinoTile> u = {wino_weights_exact(g[0])};
    // 4 channels per atomic operation: pad with zero channels.
    std::vector<WinoTile> d4 = d, u4 = u;
    d4.resize(4);
    u4.resize(4);
    CHECK(winograd(d4, u4, Precision::Int16, 0, wino_exact_clip_adjust(0)) == WinoOut{348, 393, 528, 573});
    // Without the clip-truncate the MAC result is 4Y.
    CHECK(winograd(d4, u4, Precision::Int16, 0, 0) == WinoOut{4 * 348, 4 * 393, 4 * 528, 4 * 573});
  }

  // int8 data and weights: U' in int16 (|U'| <= 1152), the MAC in int16; PRA in int16 with
  // PRA_TRUNCATE 0 never clamps (|V| <= 4 * 128 = 512). CACC clip-truncate 2 restores Y.
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<WinoTile> d(4);
    std::vector<WinoKernel> g(4);
    std::vector<WinoTile> u(4);
    const bool extreme = trial % 10 == 0;  // every tenth: only the range's ends
    for (int ch = 0; ch < 4; ++ch) {
      for (auto& x : d[ch]) x = extreme ? (uni(0, 1) ? 127 : -128) : uni(-128, 127);
      for (auto& x : g[ch]) x = extreme ? (uni(0, 1) ? 127 : -128) : uni(-128, 127);
      u[ch] = wino_weights_exact(g[ch]);
      REQUIRE(wino_weights_fit(u[ch], 16));
    }
    const WinoOut want = direct(d, g);
    REQUIRE(winograd(d, u, Precision::Int16, 0, wino_exact_clip_adjust(0)) == want);
  }

  // int16 data in [-8192, 8191] (|V| <= 32768: no PRA clamp), weights in [-3640, 3640].
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<WinoTile> d(4);
    std::vector<WinoKernel> g(4);
    std::vector<WinoTile> u(4);
    for (int ch = 0; ch < 4; ++ch) {
      for (auto& x : d[ch]) x = uni(-8192, 8191);
      for (auto& x : g[ch]) x = uni(-3640, 3640);
      u[ch] = wino_weights_exact(g[ch]);
      REQUIRE(wino_weights_fit(u[ch], 16));
    }
    REQUIRE(winograd(d, u, Precision::Int16, 0, wino_exact_clip_adjust(0)) == direct(d, g));
  }

  // PRA_TRUNCATE 2 with data that are multiples of 4 (V too: the PRA rounds nothing): the MAC
  // result is 4Y / 4 = Y, clip adjust 0. PRA_TRUNCATE 1 with even data: 4Y / 2 = 2Y, adjust 1.
  for (int t = 1; t <= 2; ++t) {
    for (int trial = 0; trial < 2000; ++trial) {
      std::vector<WinoTile> d(4);
      std::vector<WinoKernel> g(4);
      std::vector<WinoTile> u(4);
      for (int ch = 0; ch < 4; ++ch) {
        for (auto& x : d[ch]) x = uni(-32, 31) * (int64_t{1} << t);
        for (auto& x : g[ch]) x = uni(-128, 127);
        u[ch] = wino_weights_exact(g[ch]);
      }
      REQUIRE(winograd(d, u, Precision::Int16, t, wino_exact_clip_adjust(t)) == direct(d, g));
    }
  }
}

// ---- fp16 (NVDLA v1's PRA in fp17; NVIDIA's own PRA judges it bit for bit in
// tests/cmod/test_wino_pra_oracle.cpp) ------------------------------------------------------------

namespace {

uint16_t h16(int64_t v) { return static_cast<uint16_t>(v); }

// Hand-worked tiles: V = B^T d B computed by hand in reals, then what NVDLA's float rules make of it.
WinoTile pra16(std::initializer_list<std::pair<int, uint16_t>> nonzero) {
  WinoTile d{};
  for (const auto& [i, v] : nonzero) d[static_cast<std::size_t>(i)] = v;
  return wino_pra_fp16(d);
}

}  // namespace

TEST_CASE("wino fp16 PRA: hand-worked tiles", "[wino][fp16]") {
  // d = 1.0 everywhere: B^T 1 = (0, 2, 0, 0), so V is 4.0 at (1, 1) and zero elsewhere.
  WinoTile ones{};
  ones.fill(0x3c00);
  const WinoTile v1 = wino_pra_fp16(ones);
  for (std::size_t i = 0; i < 16; ++i) {
    INFO("element " << i);
    if (i == 5) CHECK(h16(v1[i]) == 0x4400);
    else CHECK((h16(v1[i]) & 0x7fff) == 0);
  }
  // d[1][0] = d[2][0] = 65504 (fp16's largest): column 0 of T = (-65504, 131008, 0, 65504), which
  // the second pass keeps in column 0. fp17 holds 131008; narrowed to fp16 it saturates to 65504
  // (0x7bff) where IEEE gives Inf.
  const WinoTile v2 = pra16({{4, 0x7bff}, {8, 0x7bff}});
  CHECK(h16(v2[0]) == 0xfbff);
  CHECK(h16(v2[4]) == 0x7bff);
  CHECK((h16(v2[8]) & 0x7fff) == 0);
  CHECK(h16(v2[12]) == 0x7bff);
  for (const std::size_t i : {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15}) CHECK((h16(v2[i]) & 0x7fff) == 0);
  // The smallest denormal 2^-24 at d[1][1]: V[r][c] = +-2^-24 at r, c in 1..3 with sign
  // (+,-,+ / -,+,- / +,-,+), exact through fp17 and back to the fp16 denormal.
  const WinoTile v3 = pra16({{5, 0x0001}});
  const uint16_t want3[3][3] = {{0x0001, 0x8001, 0x0001}, {0x8001, 0x0001, 0x8001}, {0x0001, 0x8001, 0x0001}};
  for (int r = 1; r < 4; ++r)
    for (int c = 1; c < 4; ++c) CHECK(h16(v3[static_cast<std::size_t>(4 * r + c)]) == want3[r - 1][c - 1]);
  for (const std::size_t i : {0, 1, 2, 3, 4, 8, 12}) CHECK((h16(v3[i]) & 0x7fff) == 0);
  // A NaN passes through the adds unchanged (first operand first): d[0][0] = 0x7e01 reaches
  // V[0][0] = d00 - d20 - (d02 - d22) as the same pattern, and V[0][1] (no d00 term) is a number.
  const WinoTile v4 = pra16({{0, 0x7e01}, {2, 0x3c00}});
  CHECK(h16(v4[0]) == 0x7e01);
  CHECK(h16(v4[1]) == 0x3c00);  // t[0][1] + t[0][2] = 0 + 1
}

TEST_CASE("wino fp16 weights: U = G g G^T rounded to nearest even", "[wino][fp16]") {
  // g = 1.0 everywhere: G 1 = (1, 1.5, 0.5, 1), U = its outer product.
  WinoKernel ones{};
  ones.fill(0x3c00);
  const uint16_t want[4][4] = {{0x3c00, 0x3e00, 0x3800, 0x3c00},
                               {0x3e00, 0x4080, 0x3a00, 0x3e00},   // 1.5, 2.25, 0.75, 1.5
                               {0x3800, 0x3a00, 0x3400, 0x3800},   // 0.5, 0.75, 0.25, 0.5
                               {0x3c00, 0x3e00, 0x3800, 0x3c00}};
  bool over = true;
  const WinoTile u = wino_weights_fp16(ones, &over);
  CHECK_FALSE(over);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(h16(u[static_cast<std::size_t>(4 * i + j)]) == want[i][j]);
  // U[1][1] is a quarter of the sum of the nine weights. 1 + 2^-11 gives 0.25 + 2^-13, half an
  // ulp of 0.25: the tie goes to the even 0x3400 (ties away from zero would give 0x3401);
  // 1 + 3 x 2^-12 gives 0.25 + 0.75 ulp: 0x3401.
  WinoKernel g{};
  g[0] = 0x3c00;
  g[1] = 0x1000;  // 2^-11
  CHECK(h16(wino_weights_fp16(g)[5]) == 0x3400);
  g[1] = 0x1200;  // 1.5 x 2^-11 = 3 x 2^-12
  CHECK(h16(wino_weights_fp16(g)[5]) == 0x3401);
  // Nine times fp16's largest: U[1][1] = 147384 overflows fp16 (flagged; the converter saturates).
  WinoKernel big{};
  big.fill(0x7bff);
  const WinoTile ub = wino_weights_fp16(big, &over);
  CHECK(over);
  CHECK(h16(ub[5]) == 0x7bff);
  CHECK(h16(ub[0]) == 0x7bff);  // U[0][0] = g[0][0] itself
}
