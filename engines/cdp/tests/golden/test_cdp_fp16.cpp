// Golden CDP in fp16 (docs/FP16.md "CDP in fp16"). Every expected value was worked by hand,
// step by step through NVIDIA's C model's order of operations and float rules, in
// docs/FP16_READING.md Part 4 §9 (its Examples 1-7); none comes from the code under test.
// NVIDIA's C model judges whole layers in tests/cmod.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "engines/cdp/golden/cdp.hpp"

using namespace dla::golden;

namespace {

// W = H = 1, window 3, LE exponent from 0 with offset -8, LO linear from 0, slopes 0.
CdpConfig fp16_cdp(int channels) {
  CdpConfig c;
  c.atom_bytes = 32;
  c.precision = c.rdma_precision = CdpPrecision::Fp16;
  c.shape = {1, channels, 1, 1};
  c.normalz_len = 3;
  c.perf_lut_en = true;
  c.lut.le_linear = false;
  c.lut.le_index_offset = -8;
  return c;
}

std::vector<uint16_t> run(const CdpConfig& c, const LutTables& t, const std::vector<uint16_t>& in, CdpStats* stats = nullptr) {
  Cube<int64_t> cube(CubeShape{1, 16, 1, 1});
  for (std::size_t i = 0; i < in.size(); ++i) cube.at(0, static_cast<int>(i), 0, 0) = static_cast<int16_t>(in[i]);
  const CdpRun r = cdp_normalize(c, t, cube);
  if (stats != nullptr) *stats = r.stats;
  std::vector<uint16_t> out;
  for (int i = 0; i < 16; ++i) out.push_back(static_cast<uint16_t>(r.output.at(0, i, 0, 0)));
  return out;
}

LutTables all(int16_t v) {
  LutTables t;
  t.le.fill(v);
  t.lo.fill(v);
  return t;
}

}  // namespace

TEST_CASE("CDP fp16: one channel through tables of 1.0 (Example 1)", "[cdp][fp16]") {
  CdpStats st;
  const auto out = run(fp16_cdp(1), all(0x3c00), {0x4000}, &st);
  CHECK(out[0] == 0x4000);  // 2.0 x LUT(4.0) = 2.0 x 1.0
  CHECK(out[1] == 0x0000);  // a lane past C: +0 x 1.0
  CHECK(st.lut.hybrid == 2);  // lanes 0 and 1 hit both tables
  CHECK(st.lut.uflow == 14);  // lanes 2..15: a square sum of +0 underflows both
  CHECK(st.out_saturation == 0);
}

TEST_CASE("CDP fp16: the square-sum tree and the LO interpolation (Examples 2, 3)", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(3);
  c.lut.lo_index_select = 2;  // LO entries every 4.0
  c.lut.hybrid_prio_lo = true;
  LutTables t = all(0x3c00);
  t.lo[1] = 0x3c01;
  t.lo[2] = 0x3555;
  t.lo[3] = 0x3400;
  t.lo[4] = 0x3266;
  CdpStats st;
  const auto out = run(c, t, {0x3c00, 0x4000, 0x4200}, &st);
  // Lane 0: sum 5, LO entry 1 + 1/4: (LO[2] - LO[1]) rounds at a tie in fp17 -> 0.833984375.
  CHECK(out[0] == 0x3aac);
  CHECK(out[1] == 0x3733);  // sum 14: LO entry 3 + 1/2, x 2.0
  CHECK(out[2] == 0x39b4);  // sum 13: LO entry 3 + 1/4, x 3.0
  CHECK(out[3] == 0x0000);  // past C
  CHECK(st.lut.hybrid == 4);
  CHECK(st.lut.uflow == 12);
  // With MUL_BYPASS the output is the LUT value itself: lane 0 times 1.0 was already it.
  c.mul_bypass = true;
  CHECK(run(c, t, {0x3c00, 0x4000, 0x4200})[0] == 0x3aac);
}

TEST_CASE("CDP fp16: overflow of both tables saturates to 65504, uncounted (Example 4)", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(1);
  c.lut.le_index_offset = -40;
  c.lut.le_end = 0x4b800000;  // 2^24
  c.lut.le_oflow_scale = 0x3c00;
  c.lut.lo_index_select = 16;
  c.lut.lo_end = 0x4b800000;
  c.lut.lo_oflow_scale = 0x3c00;
  LutTables t = all(0x3c00);
  t.lo[256] = 0x4000;
  CdpStats st;
  const auto out = run(c, t, {0x7000}, &st);
  CHECK(out[0] == 0x7bff);
  CHECK(st.out_saturation == 0);
  CHECK(st.lut.oflow >= 1);
}

TEST_CASE("CDP fp16: exponent-mode underflow from START + 2^offset (Example 5)", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(1);
  c.lut.le_uflow_scale = 0x3c00;
  c.lut.lo_start = 0x3f800000;  // 1.0: LO underflows too
  const auto out = run(c, all(0x3c00), {0x1400});
  CHECK(out[0] == 0x13f8);  // 2^-10 x (1 + (2^-20 - 2^-8) x 1), each step rounded
}

TEST_CASE("CDP fp16: NaNs travel through the sum and the multiply, NAN_TO_ZERO (Example 6)", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(3);
  CdpStats st;
  auto out = run(c, all(0x3c00), {0x7e01, 0x3c00, 0xfd55}, &st);
  CHECK(out[0] == 0x7e01);
  CHECK(out[1] == 0x7e01);  // channel 0's NaN is the first operand of lane 1's sum
  CHECK(out[2] == 0xfd55);  // its own NaN, sign kept
  CHECK(out[3] == 0xfd55);  // a lane past C: +0 x NaN
  CHECK(st.nan_input == 2);
  CHECK(st.nan_output == 4);
  CHECK(st.lut.uflow >= 4);
  c.nan_to_zero = true;
  out = run(c, all(0x3c00), {0x7e01, 0x3c00, 0xfd55}, &st);
  CHECK(out[0] == 0x0000);  // +0 x 1.0
  CHECK(out[1] == 0x3c00);  // 1.0 x LUT(1.0) = 1.0
  CHECK(st.nan_input == 2);  // counted before the flush
  CHECK(st.nan_output == 0);
}

TEST_CASE("CDP fp16: a denormal output rounded twice (Example 7)", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(1);
  LutTables t = all(0x3c00);
  t.lo.fill(0x3a15);
  CdpStats st;
  const auto out = run(c, t, {0x0401}, &st);
  CHECK(out[0] == 0x030c);  // IEEE's single rounding would give 0x030b
  CHECK(st.lut.lo_hit >= 1);
}

TEST_CASE("CDP fp16 is refused on builds without it", "[cdp][fp16]") {
  CdpConfig c = fp16_cdp(1);
  c.src_line_stride = c.dst_line_stride = 32;
  c.src_surface_stride = c.dst_surface_stride = 32;
  c.dst_base = 0x1000;
  CHECK(c.unsupported(nv_full()).empty());
  const auto u = c.unsupported(nv_small());
  REQUIRE_FALSE(u.empty());
  CHECK_THAT(u.front(), Catch::Contains("has no fp16"));
}
