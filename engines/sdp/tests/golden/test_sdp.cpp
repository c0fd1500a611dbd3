// Golden SDP, stage by stage. Every expected value is worked by hand from
// ../shared/reference/nvdla-arithmetic.md §2 (the working is in the comments), never taken from
// the code under test.
#include <catch2/catch.hpp>
#include <algorithm>
#include <map>
#include <string>

#include "golden/nvdla_regs.hpp"
#include "engines/sdp/golden/sdp.hpp"

using namespace dla::golden;

namespace {

constexpr int64_t kMax32 = 2147483647;
constexpr int64_t kMin32 = -2147483648LL;

SdpXCfg x_active() {
  SdpXCfg c;
  c.bypass = false;
  c.alu_bypass = true;
  c.mul_bypass = true;
  c.relu_bypass = true;
  return c;
}

SdpYCfg y_active() {
  SdpYCfg c;
  c.bypass = false;
  c.alu_bypass = true;
  c.mul_bypass = true;
  c.lut_bypass = true;
  return c;
}

}  // namespace

TEST_CASE("SDP X stage: ALU shift saturates the operand, the 33-bit sum does not saturate", "[sdp]") {
  SdpXCfg c = x_active();
  c.alu_bypass = false;
  c.alu_algo = SdpAluAlgo::Sum;
  c.alu_shift = 20;
  // op32 = sat32(16384 * 2^20 = 2^34) = 2^31-1; sum = 2^31-1 + 100 = 2147483747 (33 bits, kept).
  // MUL bypassed, truncation shift 0: sat32(2147483747) = 2^31-1.
  CHECK(sdp_x_stage(c, 100, 0x4000, 0) == kMax32);
  // Truncation by 1: 2147483747 / 2 = 1073741873.5 -> rhaz 1073741874 (saturating the sum first
  // would give 1073741824).
  c.mul_shift = 1;
  CHECK(sdp_x_stage(c, 100, 0x4000, 0) == 1073741874);
  // Negative operand shifted: -1 * 2^5 = -32; 10 + (-32) = -22.
  c.alu_shift = 5;
  c.mul_shift = 0;
  CHECK(sdp_x_stage(c, 10, -1, 0) == -22);
  // Left shift saturating negative: -2 * 2^31 -> -2^31; -2^31 + -2^31 = -2^32 (33 bits) -> sat32 -2^31.
  c.alu_shift = 31;
  CHECK(sdp_x_stage(c, kMin32, -2, 0) == kMin32);
}

TEST_CASE("SDP X stage: ALU MAX and MIN", "[sdp]") {
  SdpXCfg c = x_active();
  c.alu_bypass = false;
  c.alu_algo = SdpAluAlgo::Max;
  CHECK(sdp_x_stage(c, -5, 3, 0) == 3);
  c.alu_algo = SdpAluAlgo::Min;
  CHECK(sdp_x_stage(c, -5, 3, 0) == -5);
  // MAX with a shifted operand: 3 << 4 = 48 > 40.
  c.alu_algo = SdpAluAlgo::Max;
  c.alu_shift = 4;
  CHECK(sdp_x_stage(c, 40, 3, 0) == 48);
}

TEST_CASE("SDP X stage: MUL and truncation round half away from zero and saturate", "[sdp]") {
  SdpXCfg c = x_active();
  c.mul_bypass = false;
  c.mul_shift = 2;
  CHECK(sdp_x_stage(c, 7, 0, 3) == 5);     // 21 / 4 = 5.25 -> 5
  CHECK(sdp_x_stage(c, 10, 0, 3) == 8);    // 30 / 4 = 7.5 -> 8
  CHECK(sdp_x_stage(c, -10, 0, 3) == -8);  // -30 / 4 = -7.5 -> -8 (away from zero)
  CHECK(sdp_x_stage(c, -29, 0, 1) == -7);  // -29 / 4 = -7.25 -> -7
  c.mul_shift = 0;
  CHECK(sdp_x_stage(c, kMax32, 0, 0x7fff) == kMax32);  // 2^31-1 * 32767 -> sat32
  CHECK(sdp_x_stage(c, kMin32, 0, 0x7fff) == kMin32);
  CHECK(sdp_x_stage(c, kMin32, 0, -1) == kMax32);      // 2^31 -> sat32
  // Only the low 6 bits of MUL_SHIFT_VALUE exist in the datapath; a 63-bit shift of a 49-bit
  // product gives 0.
  c.mul_shift = 63;
  CHECK(sdp_x_stage(c, kMax32, 0, 0x7fff) == 0);
}

TEST_CASE("SDP X stage: the truncation still runs when MUL is bypassed", "[sdp]") {
  SdpXCfg c = x_active();
  c.mul_bypass = true;
  c.mul_operand = 100;  // ignored
  c.mul_shift = 1;
  CHECK(sdp_x_stage(c, 5, 0, 100) == 3);    // 5 / 2 = 2.5 -> 3
  CHECK(sdp_x_stage(c, -5, 0, 100) == -3);  // -2.5 -> -3
  CHECK(sdp_x_stage(c, 4, 0, 100) == 2);
  // PReLU set but MUL bypassed: still truncated.
  c.mul_prelu = true;
  CHECK(sdp_x_stage(c, 5, 0, 100) == 3);
}

TEST_CASE("SDP X stage: PReLU passes non-negative values unmultiplied, untruncated, low 32 bits", "[sdp]") {
  SdpXCfg c = x_active();
  c.mul_bypass = false;
  c.mul_prelu = true;
  c.mul_shift = 4;
  CHECK(sdp_x_stage(c, 100, 0, 3) == 100);   // no x3, no >>4
  CHECK(sdp_x_stage(c, 0, 0, 3) == 0);
  c.mul_shift = 1;
  CHECK(sdp_x_stage(c, -100, 0, 3) == -150);  // negative: -300 / 2
  // ALU SUM 2^31-1 + 1 = 2^31 (33 bits, non-negative): passes as its low 32 bits 0x80000000 = -2^31,
  // wrapped, not saturated.
  c.alu_bypass = false;
  c.alu_algo = SdpAluAlgo::Sum;
  CHECK(sdp_x_stage(c, kMax32, 1, 3) == kMin32);
  // Without PReLU the same 2^31 is multiplied by 1 and truncated by 0: sat32 -> 2^31-1.
  c.mul_prelu = false;
  c.mul_shift = 0;
  CHECK(sdp_x_stage(c, kMax32, 1, 1) == kMax32);
}

TEST_CASE("SDP X stage: ReLU and stage bypass", "[sdp]") {
  SdpXCfg c = x_active();
  c.relu_bypass = false;
  CHECK(sdp_x_stage(c, -7, 0, 0) == 0);
  CHECK(sdp_x_stage(c, 7, 0, 0) == 7);
  c.bypass = true;  // the whole stage: ReLU and everything else ignored
  c.alu_bypass = false;
  c.alu_algo = SdpAluAlgo::Sum;
  CHECK(sdp_x_stage(c, -7, 100, 100) == -7);
}

TEST_CASE("SDP EW operand converter", "[sdp]") {
  SdpCvtCfg c;
  c.bypass = false;
  c.offset = 4;
  c.scale = 3;
  c.truncate = 1;
  CHECK(sdp_ew_cvt(c, 10) == 9);  // (10 - 4) * 3 = 18, / 2 = 9
  c.offset = 2;
  c.scale = 5;
  c.truncate = 2;
  CHECK(sdp_ew_cvt(c, -3) == -6);  // (-3 - 2) * 5 = -25, / 4 = -6.25 -> -6
  c.offset = 0;
  c.scale = 3;
  c.truncate = 1;
  CHECK(sdp_ew_cvt(c, -1) == -2);  // -3 / 2 = -1.5 -> -2
  c.offset = static_cast<int32_t>(kMin32);
  c.scale = 32767;
  c.truncate = 0;
  CHECK(sdp_ew_cvt(c, 32767) == kMax32);  // (32767 + 2^31) * 32767 -> sat32
  c.bypass = true;
  CHECK(sdp_ew_cvt(c, -3) == -3);
}

TEST_CASE("SDP Y stage: MUL, then ALU (incl. EQL), then LUT", "[sdp]") {
  const LutConfig no_lut{};
  const LutTables tables{};
  SdpYCfg c = y_active();
  c.mul_bypass = false;
  c.truncate = 10;
  CHECK(sdp_y_stage(c, no_lut, tables, 1000, 0, 3000).value == 2930);    // 3e6 / 1024 = 2929.69
  CHECK(sdp_y_stage(c, no_lut, tables, -1000, 0, 3000).value == -2930);
  c.mul_prelu = true;
  CHECK(sdp_y_stage(c, no_lut, tables, 1000, 0, 3000).value == 1000);    // PReLU: non-negative passes
  CHECK(sdp_y_stage(c, no_lut, tables, -1000, 0, 3000).value == -2930);
  c.mul_prelu = false;
  c.truncate = 64;  // the RTL gives 0 for a truncation of 64 or more
  CHECK(sdp_y_stage(c, no_lut, tables, kMax32, 0, kMax32).value == 0);

  // MUL first, then ALU: 10 * 3 = 30, + 5 = 35 (ALU first would give 45).
  c.truncate = 0;
  c.alu_bypass = false;
  c.alu_algo = SdpAluAlgo::Sum;
  CHECK(sdp_y_stage(c, no_lut, tables, 10, 5, 3).value == 35);

  SdpYCfg a = y_active();
  a.alu_bypass = false;
  a.alu_algo = SdpAluAlgo::Sum;
  CHECK(sdp_y_stage(a, no_lut, tables, kMax32, 10, 0).value == kMax32);  // sum saturates to 32 bits
  a.alu_algo = SdpAluAlgo::Min;
  CHECK(sdp_y_stage(a, no_lut, tables, 5, -2, 0).value == -2);
  a.alu_algo = SdpAluAlgo::Eql;
  CHECK(sdp_y_stage(a, no_lut, tables, 5, 5, 0).value == 0);
  CHECK(sdp_y_stage(a, no_lut, tables, 5, 6, 0).value == 1);

  // LUT: both tables linear from 0 with select 0, so X = 5 hits entry 5 of each, fraction 0.
  LutConfig lut;
  lut.le_linear = true;
  lut.le_start = 0;
  lut.lo_start = 0;
  LutTables t;
  t.le[5] = 1234;
  t.lo[5] = -1;
  SdpYCfg l = y_active();
  l.lut_bypass = false;
  const SdpYResult r = sdp_y_stage(l, lut, t, 5, 0, 0);
  CHECK(r.value == 1234);  // both hit, hybrid priority LE
  REQUIRE(r.lut.has_value());
  lut.hybrid_prio_lo = true;
  CHECK(sdp_y_stage(l, lut, t, 5, 0, 0).value == -1);
  // EW bypassed: LUT not run.
  l.bypass = true;
  CHECK_FALSE(sdp_y_stage(l, lut, t, 5, 0, 0).lut.has_value());
}

TEST_CASE("SDP output converter: 17-bit saturation flag vs the final clamp", "[sdp]") {
  SdpOutCvtCfg c;
  c.scale = 1;
  auto o = sdp_out_cvt(c, 100, 8);
  CHECK(o.value == 100);
  CHECK_FALSE(o.saturated);
  o = sdp_out_cvt(c, 1000, 8);  // 17-bit stage keeps 1000; the int8 clamp gives 127, no flag
  CHECK(o.value == 127);
  CHECK_FALSE(o.saturated);
  o = sdp_out_cvt(c, 70000, 8);  // 17-bit clamp to 65535: flagged
  CHECK(o.value == 127);
  CHECK(o.saturated);
  o = sdp_out_cvt(c, 70000, 16);
  CHECK(o.value == 32767);
  o = sdp_out_cvt(c, -70000, 16);
  CHECK(o.value == -32768);
  CHECK(o.saturated);
  o = sdp_out_cvt(c, 40000, 16);  // fits 17 bits, clamped to int16 without the flag
  CHECK(o.value == 32767);
  CHECK_FALSE(o.saturated);
}

TEST_CASE("SDP output converter: one past the 17-bit range is clamped, not flagged", "[sdp]") {
  // NVIDIA's IntShiftRightSat flags only a floor shift more than 1 from the clamped result
  // (session 40: random deconv --seed 3843 layer 170, the C model counted one fewer).
  SdpOutCvtCfg c;
  c.scale = 1;
  const struct {
    int64_t in;
    int shift;
    int64_t value;
    bool flagged;
  } cases[] = {
      {65535, 0, 65535, false},    {65536, 0, 65535, false},     {65537, 0, 65535, true},
      {-65536, 0, -65536, false},  {-65537, 0, -65536, false},   {-65538, 0, -65536, true},
      {131071, 1, 65535, false},   // 65535.5: rounds to 65536, clamped; floor 65535
      {131073, 1, 65535, false},   // 65536.5: floor 65536, one past
      {131074, 1, 65535, true},    // 65537
      {-131074, 1, -65536, false}, // -65537: floor one past
      {-131075, 1, -65536, true},  // -65537.5: floor -65538
      {8 * 8192, 0, 65535, false}, // e.g. (8242 - 50) x 8 at offset 50, scale 8
  };
  for (const auto& k : cases) {
    INFO(k.in << " >> " << k.shift);
    c.shift = k.shift;
    const auto o = sdp_out_cvt(c, k.in, 17);
    CHECK(o.value == k.value);
    CHECK(o.saturated == k.flagged);
  }
  c.scale = 3;
  c.shift = 1;
  CHECK(sdp_out_cvt(c, 5, 8).value == 8);    // 15 / 2 = 7.5 -> 8
  CHECK(sdp_out_cvt(c, -5, 8).value == -8);  // -7.5 -> -8
  // sdp_1x1x1_pass_through_int8's converter on a zero lane: (0 - 1435482990) * 5836 / 2^10 is far
  // below -2^16: 17-bit clamp (flag), then int8 -128 = 0x80.
  c.offset = 0x558fbb6e;
  c.scale = 0x16cc;
  c.shift = 10;
  const auto o = sdp_out_cvt(c, 0, 8);
  CHECK(o.value == -128);
  CHECK(o.saturated);
}

namespace {

// A 1x1xC int8 layer from memory at 0x1000, output at 0x2000, everything bypassed but what the
// test enables; nv_small atom (8 bytes).
SdpConfig small_layer(int channels) {
  SdpConfig c;
  c.atom_bytes = 8;
  c.shape = {1, channels, 1, 1};
  c.rdma_shape = c.shape;
  c.src_base = 0x1000;
  c.src_line_stride = 8;
  c.src_surface_stride = 8;
  c.dst_base = 0x2000;
  c.dst_line_stride = 8;
  c.dst_surface_stride = 8;
  c.cvt.scale = 1;
  return c;
}

}  // namespace

TEST_CASE("SDP layer: padded channel lanes are computed from what the datapath sees", "[sdp]") {
  std::map<uint64_t, uint8_t> mem;
  // C = 3: lanes 0..2 hold 1, 2, 3; padded lanes 3..7 hold 5 in memory.
  const uint8_t in[8] = {1, 2, 3, 5, 5, 5, 5, 5};
  for (int i = 0; i < 8; ++i) mem[0x1000 + static_cast<uint64_t>(i)] = in[i];
  SdpConfig c = small_layer(3);
  c.bs = x_active();
  c.bs.alu_bypass = false;
  c.bs.alu_algo = SdpAluAlgo::Sum;
  c.bs.alu_operand = 10;  // register operand applies to every lane
  const SdpRun r = run_sdp(
      c, LutTables{}, [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; },
      [&](uint64_t a, uint8_t v) { mem[a] = v; });
  CHECK(r.wrote_memory);
  CHECK(r.stats.elements == 8);
  const uint8_t want[8] = {11, 12, 13, 15, 15, 15, 15, 15};
  for (int i = 0; i < 8; ++i) CHECK(mem[0x2000 + static_cast<uint64_t>(i)] == want[i]);
}

TEST_CASE("SDP layer: EQL mode writes nothing and reports STATUS_UNEQUAL", "[sdp]") {
  std::map<uint64_t, uint8_t> mem;
  for (int i = 0; i < 8; ++i) mem[0x1000 + static_cast<uint64_t>(i)] = 3;
  SdpConfig c = small_layer(8);
  c.ew = y_active();
  c.ew.alu_bypass = false;
  c.ew.alu_algo = SdpAluAlgo::Eql;
  c.ew.alu_operand = 3;
  REQUIRE(c.eql_mode());
  int writes = 0;
  auto rd = [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; };
  auto wr = [&](uint64_t, uint8_t) { ++writes; };
  SdpRun r = run_sdp(c, LutTables{}, rd, wr);
  CHECK_FALSE(r.wrote_memory);
  CHECK_FALSE(r.stats.unequal);  // every lane equals 3
  mem[0x1005] = 4;
  r = run_sdp(c, LutTables{}, rd, wr);
  CHECK(r.stats.unequal);
  CHECK(r.output.at(0, 5, 0, 0) == 1);
  CHECK(writes == 0);
}

TEST_CASE("SDP layer: output saturation counter counts only 17-bit clamps, when enabled", "[sdp]") {
  std::map<uint64_t, uint8_t> mem;
  // Inputs 0, 1, 2, 3, -1, -2, 100, -100 with scale 30000: |x| * 30000 > 65535 for |x| >= 3.
  const int8_t in[8] = {0, 1, 2, 3, -1, -2, 100, -100};
  for (int i = 0; i < 8; ++i) mem[0x1000 + static_cast<uint64_t>(i)] = static_cast<uint8_t>(in[i]);
  SdpConfig c = small_layer(8);
  c.cvt.scale = 30000;
  c.perf_sat_en = true;
  auto rd = [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; };
  auto wr = [&](uint64_t a, uint8_t v) { mem[a] = v; };
  SdpRun r = run_sdp(c, LutTables{}, rd, wr);
  CHECK(r.stats.out_saturation == 3);  // 3, 100, -100 (1, 2 give 30000, 60000: int8-clamped, not flagged)
  CHECK(mem[0x2001] == 0x7f);
  c.perf_sat_en = false;
  r = run_sdp(c, LutTables{}, rd, wr);
  CHECK(r.stats.out_saturation == 0);
}

TEST_CASE("SDP layer: per-element operands from memory, per-kernel operands, BOTH interleave", "[sdp]") {
  std::map<uint64_t, uint8_t> mem;
  for (int i = 0; i < 8; ++i) mem[0x1000 + static_cast<uint64_t>(i)] = 10;
  // BRDMA per element, ALU+MUL interleaved, one byte each: lane i -> ALU i, MUL 2.
  for (int i = 0; i < 8; ++i) {
    mem[0x3000 + 2 * static_cast<uint64_t>(i)] = static_cast<uint8_t>(i);
    mem[0x3000 + 2 * static_cast<uint64_t>(i) + 1] = 2;
  }
  SdpConfig c = small_layer(8);
  c.brdma.enabled = true;
  c.brdma.use = SdpDmaUse::Both;
  c.brdma.per_element = true;
  c.brdma.base = 0x3000;
  c.brdma.line_stride = 16;
  c.brdma.surface_stride = 16;
  c.bs = x_active();
  c.bs.alu_bypass = false;
  c.bs.alu_algo = SdpAluAlgo::Sum;
  c.bs.alu_src_mem = true;
  c.bs.mul_bypass = false;
  c.bs.mul_src_mem = true;
  auto rd = [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; };
  auto wr = [&](uint64_t a, uint8_t v) { mem[a] = v; };
  (void)run_sdp(c, LutTables{}, rd, wr);
  for (int i = 0; i < 8; ++i) CHECK(mem[0x2000 + static_cast<uint64_t>(i)] == (10 + i) * 2);

  // NRDMA per kernel, MUL only, two bytes: lane i -> 0x0100 + i... use -3 for lane 7.
  for (int i = 0; i < 8; ++i) {
    const int16_t v = i == 7 ? int16_t{-3} : static_cast<int16_t>(i);
    mem[0x4000 + 2 * static_cast<uint64_t>(i)] = static_cast<uint8_t>(v & 0xff);
    mem[0x4000 + 2 * static_cast<uint64_t>(i) + 1] = static_cast<uint8_t>((v >> 8) & 0xff);
  }
  SdpConfig k = small_layer(8);
  k.nrdma.enabled = true;
  k.nrdma.use = SdpDmaUse::Mul;
  k.nrdma.data_bytes = 2;
  k.nrdma.base = 0x4000;
  // A 1x1 cube: every enabled stream surface-packed (8 lanes x 2 bytes), as NVDLA requires.
  k.nrdma.line_stride = 16;
  k.nrdma.surface_stride = 16;
  k.bn = x_active();
  k.bn.mul_bypass = false;
  k.bn.mul_src_mem = true;
  (void)run_sdp(k, LutTables{}, rd, wr);
  for (int i = 0; i < 7; ++i) CHECK(mem[0x2000 + static_cast<uint64_t>(i)] == 10 * i);
  CHECK(mem[0x2007] == static_cast<uint8_t>(-30));

  // A stage that reads memory while its DMA is disabled is refused.
  k.nrdma.enabled = false;
  CHECK_THROWS_WITH(run_sdp(k, LutTables{}, rd, wr), Catch::Contains("NRDMA is disabled"));
}

TEST_CASE("SDP layer: WINOGRAD (flying) writes the same cube, and its refusals", "[sdp][wino]") {
  // A flying 2x2x8 int8 cube (nv_small atom): input value 10*c + 2*h + w, BS adds 1 per lane.
  SdpConfig c = small_layer(8);
  c.shape = {1, 8, 2, 2};
  c.flying = true;
  c.dst_line_stride = 16;
  c.dst_surface_stride = 32;
  c.bs = x_active();
  c.bs.alu_bypass = false;
  c.bs.alu_algo = SdpAluAlgo::Sum;
  c.bs.alu_operand = 1;
  Cube<int64_t> cacc(CubeShape{1, 8, 2, 2});
  for (int ch = 0; ch < 8; ++ch)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 2; ++w) cacc.at(0, ch, h, w) = 10 * ch + 2 * h + w;
  auto run = [&](const SdpConfig& cfg) {
    std::map<uint64_t, uint8_t> mem;
    (void)run_sdp(cfg, LutTables{}, [](uint64_t) { return uint8_t{0}; }, [&](uint64_t a, uint8_t v) { mem[a] = v; },
                  &cacc);
    return mem;
  };
  const auto plain = run(c);
  // Element (c, h, w) at 0x2000 + h * 16 + w * 8 + c: value 10c + 2h + w + 1.
  CHECK(plain.at(0x2000 + 16 + 8 + 5) == 54);
  c.winograd = true;
  CHECK(c.unsupported().empty());
  CHECK(run(c) == plain);

  auto refused = [](SdpConfig cfg) {
    std::string all;
    for (const auto& e : cfg.unsupported()) all += e + "\n";
    return all;
  };
  SdpConfig m = c;
  m.flying = false;
  CHECK_THAT(refused(m), Catch::Contains("WINOGRAD needs FLYING_MODE on"));
  m = c;
  m.shape.w = 3;
  CHECK_THAT(refused(m), Catch::Contains("WINOGRAD needs an even cube width and height (2x2 output tiles); got 3x2"));
  m = c;
  m.ew = y_active();
  m.ew.alu_bypass = false;
  m.ew.alu_algo = SdpAluAlgo::Eql;
  CHECK_THAT(refused(m), Catch::Contains("EQL is not available with D_FEATURE_MODE_CFG.WINOGRAD"));
  m = c;
  m.out_precision = SdpPrecision::Int16;
  CHECK_THAT(refused(m), Catch::Contains("int8 input -> int16 output is not available"));
  m.in_precision = m.proc_precision = SdpPrecision::Int16;
  CHECK(refused(m).empty());  // int16 -> int16 is fine

  // SDP_RDMA's own WINOGRAD bit is ignored: decoding it changes nothing.
  namespace rs = regs::sdp;
  namespace rr = regs::sdp_rdma;
  const std::map<uint32_t, uint32_t> sdp{{rs::D_FEATURE_MODE_CFG::offset, 0x5},  // flying, WINOGRAD
                                         {rs::D_DATA_CUBE_WIDTH::offset, 1},
                                         {rs::D_DATA_CUBE_HEIGHT::offset, 1}};
  for (const uint32_t rdma_mode : {0u, 2u}) {
    const std::map<uint32_t, uint32_t> rdma{{rr::D_FEATURE_MODE_CFG::offset, rdma_mode}};
    const SdpConfig d = decode_sdp([&](uint32_t o) { return sdp.count(o) ? sdp.at(o) : 0u; },
                                   [&](uint32_t o) { return rdma.count(o) ? rdma.at(o) : 0u; }, 8);
    CHECK(d.winograd);
    CHECK(d.flying);
    CHECK(d.unsupported().empty());
  }
}

namespace {

// A W x H x C layer on nv_full's 32-byte atom from memory, packed, the given precisions.
SdpConfig full_layer(int w, int h, int c, SdpPrecision in, SdpPrecision proc, SdpPrecision out) {
  SdpConfig k;
  k.atom_bytes = 32;
  k.shape = {1, c, h, w};
  k.rdma_shape = k.shape;
  k.in_precision = in;
  k.proc_precision = proc;
  k.rdma_proc_precision = proc;
  k.out_precision = out;
  k.rdma_active = true;
  const uint64_t in_line = 32u * static_cast<uint64_t>(w), out_line = 32u * static_cast<uint64_t>(w);
  k.src_base = 0x10000;
  k.src_line_stride = in_line;
  k.src_surface_stride = in_line * static_cast<uint64_t>(h);
  k.dst_base = 0x80000;
  k.dst_line_stride = out_line;
  k.dst_surface_stride = out_line * static_cast<uint64_t>(h);
  k.cvt.scale = 1;
  return k;
}

std::string all_refusals(const SdpConfig& c) {
  std::string s;
  for (const auto& e : c.unsupported()) s += e + "\n";
  return s;
}

}  // namespace

TEST_CASE("SDP precisions as NVDLA programs them, and the rules its C model asserts", "[sdp]") {
  using P = SdpPrecision;
  // Legal: (8,8,8), (16,16,16), (8,8,16), (16,8,8) from memory.
  CHECK(all_refusals(full_layer(2, 2, 40, P::Int8, P::Int8, P::Int8)).empty());
  CHECK(all_refusals(full_layer(2, 2, 40, P::Int16, P::Int16, P::Int16)).empty());
  CHECK(all_refusals(full_layer(2, 2, 40, P::Int8, P::Int8, P::Int16)).empty());
  CHECK(all_refusals(full_layer(2, 2, 40, P::Int16, P::Int8, P::Int8)).empty());
  // This project's former int16 -> int8 programming, and the other non-modes.
  CHECK_THAT(all_refusals(full_layer(2, 2, 40, P::Int16, P::Int16, P::Int8)),
             Catch::Contains("PROC_PRECISION INT16 with OUT_PRECISION INT8 is not an NVDLA mode"));
  CHECK_THAT(all_refusals(full_layer(2, 2, 40, P::Int8, P::Int16, P::Int16)),
             Catch::Contains("IN_PRECISION INT8 needs PROC_PRECISION INT8"));
  CHECK_THAT(all_refusals(full_layer(2, 2, 40, P::Int16, P::Int8, P::Int16)),
             Catch::Contains("OUT_PRECISION must be INT8"));
  SdpConfig c = full_layer(2, 2, 40, P::Int16, P::Int8, P::Int8);
  c.rdma_proc_precision = P::Int16;
  CHECK_THAT(all_refusals(c), Catch::Contains("SDP D_DATA_FORMAT and SDP_RDMA D_FEATURE_MODE_CFG PROC_PRECISION differ"));
  c = full_layer(2, 2, 40, P::Int8, P::Int8, P::Int16);
  c.output_to_pdp = true;
  CHECK_THAT(all_refusals(c), Catch::Contains("precision conversion with OUTPUT_DST = PDP"));
  c = full_layer(2, 2, 40, P::Int8, P::Int8, P::Int16);
  c.flying = true;
  c.shape.n = 2;
  CHECK_THAT(all_refusals(c), Catch::Contains("precision conversion with batches"));
  // Two-byte operands with an int16 datapath; one byte is legal at PROC INT8 (int16 -> int8).
  c = full_layer(2, 2, 40, P::Int16, P::Int16, P::Int16);
  c.erdma.enabled = true;
  c.erdma.data_bytes = 1;
  CHECK_THAT(all_refusals(c), Catch::Contains("SDP_RDMA D_ERDMA_CFG DATA_SIZE is ONE_BYTE with PROC_PRECISION INT16"));
  c.erdma.data_bytes = 2;
  CHECK(all_refusals(c).empty());
  c = full_layer(2, 2, 40, P::Int16, P::Int8, P::Int8);
  c.nrdma.enabled = true;
  c.nrdma.data_bytes = 1;
  CHECK(all_refusals(c).empty());
  // 1x1 cubes surface-packed: input (one atom), operands (a group of PROC lanes x element bytes),
  // output; line strides free.
  c = full_layer(1, 1, 40, P::Int8, P::Int8, P::Int8);
  CHECK(all_refusals(c).empty());
  c.src_line_stride = 96;  // free
  CHECK(all_refusals(c).empty());
  c.src_surface_stride = 64;
  CHECK_THAT(all_refusals(c), Catch::Contains("ignore SDP_RDMA D_SRC_SURFACE_STRIDE (64, packed 32)"));
  c = full_layer(1, 1, 40, P::Int8, P::Int8, P::Int8);
  c.brdma.enabled = true;
  c.brdma.use = SdpDmaUse::Both;
  c.brdma.data_bytes = 2;
  c.brdma.surface_stride = 0;  // per channel: NVDLA's C model still asserts it packed
  CHECK_THAT(all_refusals(c), Catch::Contains("ignore SDP_RDMA D_BS_SURFACE_STRIDE (0, packed 128)"));
  c.brdma.surface_stride = 128;  // 32 lanes x 2 bytes x 2 (ALU and MUL)
  CHECK(all_refusals(c).empty());
  c.dst_surface_stride = 96;
  CHECK_THAT(all_refusals(c), Catch::Contains("ignore SDP D_DST_SURFACE_STRIDE (96, packed 32)"));
  // EQL passes the comparison through the output converter unchanged.
  c = full_layer(2, 2, 8, P::Int8, P::Int8, P::Int8);
  c.ew.bypass = false;
  c.ew.alu_bypass = false;
  c.ew.alu_algo = SdpAluAlgo::Eql;
  c.erdma.enabled = true;
  c.ew.alu_src_mem = true;
  CHECK(all_refusals(c).empty());
  c.cvt.shift = 1;
  CHECK_THAT(all_refusals(c), Catch::Contains("EQL mode needs the output converter at offset 0, scale 1, shift 0"));
}

TEST_CASE("SDP int16 -> int8 and int8 -> int16: whole 32-lane groups in and out", "[sdp]") {
  using P = SdpPrecision;
  // int16 -> int8, C = 20: the int16 surfaces are read in pairs, so lanes 20..31 of the one output
  // atom come from the second int16 surface (channels 16..31) in memory, here 7; BS adds an
  // operand per element in 32-lane groups of one byte (PROC INT8).
  std::map<uint64_t, uint8_t> mem;
  const auto put16 = [&](uint64_t a, int16_t v) {
    mem[a] = static_cast<uint8_t>(v & 0xff);
    mem[a + 1] = static_cast<uint8_t>((v >> 8) & 0xff);
  };
  for (int c = 0; c < 32; ++c) put16(0x10000 + (c / 16) * 32 + (c % 16) * 2, static_cast<int16_t>(c < 20 ? 100 * c : 7));
  SdpConfig k = full_layer(1, 1, 20, P::Int16, P::Int8, P::Int8);
  k.src_surface_stride = 32;  // one int16 atom: packed
  k.brdma.enabled = true;
  k.brdma.use = SdpDmaUse::Alu;
  k.brdma.per_element = true;
  k.brdma.data_bytes = 1;
  k.brdma.base = 0x30000;
  k.brdma.line_stride = 32;     // 32 lanes x 1 byte: a PROC INT8 group
  k.brdma.surface_stride = 32;
  for (int c = 0; c < 32; ++c) mem[0x30000 + static_cast<uint64_t>(c)] = static_cast<uint8_t>(c);
  k.bs = x_active();
  k.bs.alu_bypass = false;
  k.bs.alu_algo = SdpAluAlgo::Sum;
  k.bs.alu_src_mem = true;
  auto rd = [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; };
  auto wr = [&](uint64_t a, uint8_t v) { mem[a] = v; };
  REQUIRE(all_refusals(k).empty());
  const SdpRun r = run_sdp(k, LutTables{}, rd, wr);
  CHECK(r.output.shape().c == 32);
  for (int c = 0; c < 32; ++c) {
    const int want = std::clamp((c < 20 ? 100 * c : 7) + c, -128, 127);  // int16 values, int8 out
    INFO("channel " << c);
    CHECK(static_cast<int8_t>(mem[0x80000 + static_cast<uint64_t>(c)]) == want);
  }
  // int8 -> int16, C = 20: NVDLA writes two int16 surfaces per 32-lane group, 32 channels.
  SdpConfig w = full_layer(2, 1, 20, P::Int8, P::Int8, P::Int16);
  CHECK(sdp_output_shape(w).c == 32);
  CHECK(sdp_output_shape(full_layer(2, 1, 40, P::Int16, P::Int16, P::Int16)).c == 48);
}

TEST_CASE("SDP register decode uses the defined fields only", "[sdp]") {
  namespace rs = regs::sdp;
  namespace rr = regs::sdp_rdma;
  std::map<uint32_t, uint32_t> sdp{
      {rs::D_DP_BS_CFG::offset, 0xffffff27},  // bypass 1, ALU bypass 1, MIN, MUL on, PReLU, ReLU on
      {rs::D_DP_BS_MUL_CFG::offset, 0xffff},  // SRC mem, shift field 0xff -> low 6 bits 63
      {rs::D_DP_BS_ALU_SRC_VALUE::offset, 0x12348000},  // operand -32768
      {rs::D_CVT_SCALE::offset, 0xffff8001},  // -32767
      {rs::D_CVT_SHIFT::offset, 0xff},        // 6 bits: 63
      {rs::D_DATA_CUBE_CHANNEL::offset, 0xffff0020},  // 13 bits: 32 -> 33 channels
      {rs::D_DP_EW_TRUNCATE_VALUE::offset, 0xfffff7ff},  // 10 bits: 0x3ff
      {rs::D_FEATURE_MODE_CFG::offset, 0x1f09},  // flying, batch number 31 -> 32 batches
  };
  std::map<uint32_t, uint32_t> rdma{{rr::D_BRDMA_CFG::offset, 0x3c},     // enabled, BOTH, 2 bytes, per element, MC
                                    {rr::D_NRDMA_CFG::offset, 0xffffffc1}};  // DISABLE (undefined bits set)
  const SdpConfig c = decode_sdp([&](uint32_t o) { return sdp.count(o) ? sdp[o] : 0u; },
                                 [&](uint32_t o) { return rdma.count(o) ? rdma[o] : 0u; }, 8);
  CHECK(c.bs.bypass);
  CHECK(c.bs.alu_bypass);
  CHECK(c.bs.alu_algo == SdpAluAlgo::Min);
  CHECK_FALSE(c.bs.mul_bypass);
  CHECK(c.bs.mul_prelu);
  CHECK_FALSE(c.bs.relu_bypass);
  CHECK(c.bs.mul_src_mem);
  CHECK(c.bs.mul_shift == 63);
  CHECK(c.bs.alu_operand == -32768);
  CHECK(c.cvt.scale == -32767);
  CHECK(c.cvt.shift == 63);
  CHECK(c.shape.c == 33);
  CHECK(c.ew.truncate == 0x3ff);
  CHECK(c.flying);
  CHECK(c.shape.n == 32);
  CHECK(c.brdma.enabled);
  CHECK(c.brdma.use == SdpDmaUse::Both);
  CHECK(c.brdma.data_bytes == 2);
  CHECK(c.brdma.per_element);
  CHECK(c.brdma.element_bytes() == 4);
  CHECK_FALSE(c.nrdma.enabled);
  CHECK(c.nrdma.use == SdpDmaUse::Mul);
  CHECK(c.nrdma.data_bytes == 1);
  CHECK(c.erdma.enabled);  // DISABLE = 0 in an all-zero register
}

TEST_CASE("generated register header matches the register reference", "[sdp][regs]") {
  // Values from ../shared/reference/nvdla-arithmetic.md §1.2 / §2.6 and nvdla-block-bases.md.
  STATIC_REQUIRE(regs::sdp::D_OP_ENABLE::offset == 0x38);
  STATIC_REQUIRE(regs::sdp::D_DP_EW_CFG::offset == 0x80);
  STATIC_REQUIRE(regs::sdp::D_DP_BS_CFG::BS_RELU_BYPASS::lsb == 6);
  STATIC_REQUIRE(regs::sdp::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE::lsb == 8);
  STATIC_REQUIRE(regs::sdp::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE::width == 8);
  STATIC_REQUIRE(regs::sdp::S_LUT_ACCESS_CFG::LUT_ACCESS_TYPE::lsb == 17);
  STATIC_REQUIRE(regs::sdp_rdma::D_FEATURE_MODE_CFG::IN_PRECISION::lsb == 2);
  STATIC_REQUIRE(regs::sdp::base_small == 0x9000);
  STATIC_REQUIRE(regs::sdp::base_full == 0xb000);
  STATIC_REQUIRE(regs::cdp::dual_group_start == 0x48);
  STATIC_REQUIRE(regs::field(0x3a00, regs::sdp::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE{}) == 0x3a);
  STATIC_REQUIRE(regs::sdp::D_DP_BS_CFG::reset == 0x73);
}
