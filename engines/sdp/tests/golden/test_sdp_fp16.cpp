// SDP's fp16 pipeline with every stage bypassed (docs/FP16.md "SDP"): hand-worked fp32 -> fp16
// (round to nearest even, saturation to 0x7bff instead of infinity, denormals, NaN payloads,
// NAN_TO_ZERO), fp16 -> int16 after the fp16 rounding, the fp16 saturation counter, a whole layer
// from fp16 memory, and the precision combinations NVDLA has not. NVIDIA's C model judges whole
// layers in tests/cmod.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>

#include "engines/lut/golden/lut.hpp"
#include "engines/sdp/golden/sdp.hpp"

using namespace dla::golden;

namespace {

SdpConfig fp16_layer(int channels) {
  SdpConfig c;
  c.atom_bytes = 32;  // nv_full
  c.shape = {1, channels, 1, 2};
  c.rdma_shape = c.shape;
  c.src_base = 0x1000;
  c.src_line_stride = 64;
  c.src_surface_stride = 64;
  c.dst_base = 0x2000;
  c.dst_line_stride = 64;
  c.dst_surface_stride = 64;
  c.cvt.scale = 1;
  c.in_precision = c.proc_precision = c.out_precision = c.rdma_proc_precision = SdpPrecision::Fp16;
  return c;
}

uint16_t out16(const SdpConfig& c, uint32_t x) { return static_cast<uint16_t>(sdp_fp16_out(c, x).value); }

}  // namespace

TEST_CASE("SDP fp16 output: fp32 rounded to fp16 as NVDLA does, hand-worked", "[sdp][fp16]") {
  SdpConfig c = fp16_layer(1);
  CHECK(out16(c, 0x3f800000u) == 0x3c00);  // 1.0
  CHECK(out16(c, 0xc0200000u) == 0xc100);  // -2.5
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even (1); a hair above goes up.
  CHECK(out16(c, 0x3f801000u) == 0x3c00);
  CHECK(out16(c, 0x3f801001u) == 0x3c01);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: to even (1 + 2^-9).
  CHECK(out16(c, 0x3f803000u) == 0x3c02);
  // No infinity: 65520 (rounds up past 65504), 2^16 and +inf saturate to 0x7bff.
  CHECK(out16(c, 0x477ff000u) == 0x7bff);
  CHECK(out16(c, 0x47800000u) == 0x7bff);
  CHECK(out16(c, 0x7f800000u) == 0x7bff);
  CHECK(out16(c, 0xff800000u) == 0xfbff);
  // Denormals: 2^-24 is 0x0001; 2^-25 ties to 0; just above it rounds up; 3 * 2^-25 ties to 2 * 2^-24.
  CHECK(out16(c, 0x33800000u) == 0x0001);
  CHECK(out16(c, 0x33000000u) == 0x0000);
  CHECK(out16(c, 0x33000001u) == 0x0001);
  CHECK(out16(c, 0x33c00000u) == 0x0002);
  CHECK(out16(c, 0x80000000u) == 0x8000);  // -0 keeps its sign
  // NaN: sign, exponent 31 and the low 10 bits of the fp32 mantissa.
  CHECK(out16(c, 0xffc00155u) == 0xfd55);
}

TEST_CASE("SDP fp16 BS / BN stage: ALU, MUL, PReLU and ReLU in fp32 with fp16 operands, hand-worked", "[sdp][fp16]") {
  SdpXCfg x;
  x.bypass = false;
  x.alu_bypass = false;
  x.alu_algo = SdpAluAlgo::Sum;
  // 1 + 2 = 3; the shift fields do not exist in fp16.
  x.alu_shift = 5;
  x.mul_shift = 3;
  CHECK(sdp_x_stage_fp16(x, 0x3f800000u, 0x4000, 0, false) == 0x40400000u);
  // MAX keeps a NaN operand (payload widened in place: 0x7e00 -> 0x7f800200), unless flushed to +0.
  x.alu_algo = SdpAluAlgo::Max;
  CHECK(sdp_x_stage_fp16(x, 0x3f800000u, 0x7e00, 0, false) == 0x7f800200u);
  CHECK(sdp_x_stage_fp16(x, 0x3f800000u, 0x7e00, 0, true) == 0x3f800000u);
  x.alu_algo = SdpAluAlgo::Min;
  CHECK(sdp_x_stage_fp16(x, 0x3f800000u, 0xbc00, 0, false) == 0xbf800000u);  // min(1, -1)
  // MUL: -2 * 0.5 = -1.
  x.alu_bypass = true;
  x.mul_bypass = false;
  CHECK(sdp_x_stage_fp16(x, 0xc0000000u, 0, 0x3800, false) == 0xbf800000u);
  // PReLU: 3 passes unmultiplied, -3 * 0.25 = -0.75.
  x.mul_prelu = true;
  CHECK(sdp_x_stage_fp16(x, 0x40400000u, 0, 0x3400, false) == 0x40400000u);
  CHECK(sdp_x_stage_fp16(x, 0xc0400000u, 0, 0x3400, false) == 0xbf400000u);
  // ReLU: -0.75 and -0 become +0, +NaN stays.
  x.mul_bypass = true;
  x.relu_bypass = false;
  CHECK(sdp_x_stage_fp16(x, 0xbf400000u, 0, 0, false) == 0u);
  CHECK(sdp_x_stage_fp16(x, 0x80000000u, 0, 0, false) == 0u);
  CHECK(sdp_x_stage_fp16(x, 0x7fc00001u, 0, 0, false) == 0x7fc00001u);
  x.bypass = true;
  CHECK(sdp_x_stage_fp16(x, 0xbf400000u, 0, 0, false) == 0xbf400000u);
}

TEST_CASE("SDP fp16 NAN_TO_ZERO flushes input NaNs to +0 before BS", "[sdp][fp16]") {
  std::map<uint64_t, uint8_t> mem;
  mem[0x1000] = 0x01;
  mem[0x1001] = 0xfe;  // 0xfe01: a NaN
  SdpConfig c = fp16_layer(1);
  c.shape = {1, 1, 1, 1};
  c.rdma_shape = c.shape;
  c.src_surface_stride = c.dst_surface_stride = 32;
  c.nan_to_zero = true;
  c.bs.bypass = false;
  c.bs.alu_bypass = false;
  c.bs.alu_algo = SdpAluAlgo::Sum;
  c.bs.alu_operand = 0x3c00;  // + 1
  REQUIRE(c.unsupported().empty());
  (void)run_sdp(c, LutTables{}, [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; },
                [&](uint64_t a, uint8_t v) { mem[a] = v; });
  CHECK(mem[0x2000] == 0x00);
  CHECK(mem[0x2001] == 0x3c);  // 0 + 1
}

TEST_CASE("SDP fp16 -> int16: the fp16 rounding first, then half away from zero", "[sdp][fp16]") {
  SdpConfig c = fp16_layer(1);
  c.out_precision = SdpPrecision::Int16;
  CHECK(sdp_fp16_out(c, 0x40200000u).value == 3);    // 2.5 -> 3
  CHECK(sdp_fp16_out(c, 0xc0200000u).value == -3);   // -2.5 -> -3
  CHECK(sdp_fp16_out(c, 0x401ff7cfu).value == 3);    // 2.4995 -> fp16 2.5 -> 3 (double rounding)
  CHECK(sdp_fp16_out(c, 0x401fc000u).value == 2);    // 2.49609375 is an fp16: 2
  CHECK(sdp_fp16_out(c, 0x471c4000u).value == 32767);  // 40000 saturates
  CHECK(sdp_fp16_out(c, 0xc71c4000u).value == -32768);
  CHECK(sdp_fp16_out(c, 0x7fc00001u).value == -32768);  // NaN (payload 1 survives to fp16)
  // An fp32 NaN whose low 10 mantissa bits are 0 becomes the fp16 pattern of +inf (NVDLA keeps
  // only those bits), which then saturates.
  CHECK(sdp_fp16_out(c, 0x7fc00000u).value == 32767);
  CHECK_FALSE(sdp_fp16_out(c, 0x471c4000u).saturated);  // the fp16 counter counts fp16 outputs only
}

TEST_CASE("SDP fp16 counts outputs of magnitude 0x7bff as saturated", "[sdp][fp16]") {
  const SdpConfig c = fp16_layer(1);
  CHECK(sdp_fp16_out(c, 0x477ff000u).saturated);   // 65520 -> 0x7bff
  CHECK(sdp_fp16_out(c, 0xc77fe000u).saturated);   // -65504 itself counts too
  CHECK_FALSE(sdp_fp16_out(c, 0x477fc000u).saturated);  // 65472
}

TEST_CASE("SDP fp16 layer from memory: finite values pass unchanged, infinities saturate", "[sdp][fp16]") {
  std::map<uint64_t, uint8_t> mem;
  // C = 2, W = 2 on nv_full: the atom of x = 0 holds lanes 0 and 1, the atom of x = 1 is 32 bytes on.
  const uint16_t in[4] = {0x3555, 0x0001, 0x7c00, 0xfe12};
  const auto put = [&](uint64_t a, uint16_t v) {
    mem[a] = static_cast<uint8_t>(v);
    mem[a + 1] = static_cast<uint8_t>(v >> 8);
  };
  put(0x1000, in[0]);
  put(0x1002, in[1]);
  put(0x1020, in[2]);
  put(0x1022, in[3]);
  SdpConfig c = fp16_layer(2);
  c.perf_sat_en = true;
  REQUIRE(c.unsupported().empty());
  const SdpRun r = run_sdp(
      c, LutTables{}, [&](uint64_t a) { return mem.count(a) ? mem[a] : uint8_t{0}; },
      [&](uint64_t a, uint8_t v) { mem[a] = v; });
  const auto got = [&](uint64_t a) { return static_cast<uint16_t>(mem[a] | (mem[a + 1] << 8)); };
  CHECK(got(0x2000) == 0x3555);
  CHECK(got(0x2002) == 0x0001);
  CHECK(got(0x2020) == 0x7bff);  // +inf -> max finite
  CHECK(got(0x2022) == 0xfe12);  // NaN with its payload
  CHECK(r.stats.out_saturation == 1);
}

TEST_CASE("SDP fp16 refuses what NVDLA has not, naming it", "[sdp][fp16]") {
  const auto first = [](const SdpConfig& c) {
    const auto u = c.unsupported();
    return u.empty() ? std::string() : u.front();
  };
  SdpConfig c = fp16_layer(2);
  c.out_precision = SdpPrecision::Int8;
  CHECK_THAT(first(c), Catch::Contains("OUT_PRECISION INT8"));
  c = fp16_layer(2);
  c.in_precision = SdpPrecision::Int16;
  CHECK_THAT(first(c), Catch::Contains("IN_PRECISION FP16"));
  c = fp16_layer(2);
  c.ew.bypass = false;
  c.ew.alu_bypass = false;
  c.ew.alu_algo = SdpAluAlgo::Eql;
  c.ew.lut_bypass = false;
  CHECK_THAT(first(c), Catch::Contains("EQL with the LUT"));
  c.ew.lut_bypass = true;
  CHECK(first(c).empty());
  c.out_precision = SdpPrecision::Int16;
  CHECK_THAT(first(c), Catch::Contains("EQL mode"));
  c = fp16_layer(2);
  c.ew.bypass = false;
  c.ew.mul_bypass = false;
  c.ew.mul_src_mem = true;
  c.erdma.enabled = true;
  c.erdma.data_bytes = 1;
  CHECK_THAT(first(c), Catch::Contains("ERDMA DATA_SIZE is ONE_BYTE"));
  c = fp16_layer(2);
  c.bn.bypass = false;
  c.bn.alu_bypass = false;
  c.bn.alu_algo = SdpAluAlgo::Eql;
  CHECK_THAT(first(c), Catch::Contains("EQL"));
  c = fp16_layer(2);
  c.proc_precision = c.rdma_proc_precision = SdpPrecision::Int16;
  CHECK_THAT(first(c), Catch::Contains("PROC_PRECISION FP16"));
}

// ---- EW and the float LUT (docs/FP16.md "SDP EW and LUT") ---------------------------------------
// Expected values are worked by hand: every operand and result below is exact in fp16 / fp17, so
// the value is the real-number result of the documented order of operations.

namespace {

constexpr uint32_t kF32One = 0x3f800000u;

uint32_t y_fp16(const SdpYCfg& y, uint32_t x, uint32_t alu, uint32_t mul) {
  return static_cast<uint32_t>(sdp_y_stage_fp16(y, LutConfig{}, LutTables{}, x, alu, mul).value);
}

}  // namespace

TEST_CASE("SDP fp16 EW stage: MUL first, then ALU, in fp32, EQL on the raw patterns", "[sdp][fp16]") {
  SdpYCfg y;
  y.bypass = false;
  y.mul_bypass = false;
  y.alu_bypass = false;
  y.alu_algo = SdpAluAlgo::Sum;
  // 3 * 2 + 1 = 7 (ALU first would give 8).
  CHECK(y_fp16(y, 0x40400000u, kF32One, 0x40000000u) == 0x40e00000u);
  // PReLU: -4 * 0.25 = -1, then + 1: NVDLA's exact zero takes the first operand's sign (the data
  // first), -0 (IEEE would give +0; docs/FP16.md).
  y.mul_prelu = true;
  CHECK(y_fp16(y, 0xc0800000u, kF32One, 0x3e800000u) == 0x80000000u);
  // PReLU passes +5 unmultiplied: 5 + 1 = 6.
  CHECK(y_fp16(y, 0x40a00000u, kF32One, 0x3e800000u) == 0x40c00000u);
  y.alu_algo = SdpAluAlgo::Max;
  y.mul_prelu = false;
  // max(-3 * 2, -12.375) = -6.
  CHECK(y_fp16(y, 0xc0400000u, 0xc1460000u, 0x40000000u) == 0xc0c00000u);
  y.alu_algo = SdpAluAlgo::Eql;
  y.mul_bypass = true;
  CHECK(y_fp16(y, 0x00000000u, 0x80000000u, 0) == 1u);  // +0 vs -0: different patterns
  CHECK(y_fp16(y, 0x7fc00001u, 0x7fc00001u, 0) == 0u);  // a NaN equals itself
  CHECK(y_fp16(y, 0x3fc00000u, 0x3fc00000u, 0) == 0u);
  // A memory operand: fp16, NaN flushed with NAN_TO_ZERO, widened exactly.
  CHECK(sdp_fp16_operand(0x3c00, false) == kF32One);
  CHECK(sdp_fp16_operand(0x7e01, true) == 0u);
  CHECK(sdp_fp16_operand(0x0001, false) == 0x33800000u);  // the denormal 2^-24
}

namespace {

// LO linear over [0, 256] with entry i = i (exact in fp16), LE parked above it (always underflow).
LutConfig lo_ramp(LutTables& t) {
  LutConfig c;
  c.le_start = 0x42c80000;  // 100.0: LE underflows below it
  c.le_end = 0x43480000;
  c.le_linear = true;
  c.lo_start = 0;           // 0.0
  c.lo_end = 0x43800000;    // 256.0
  c.lo_index_select = 0;    // entries 1 apart
  c.lo_oflow_scale = 0x3800;  // 0.5
  c.lo_uflow_scale = 0x4000;  // 2.0
  for (int i = 0; i < kLutLoEntries; ++i) {
    // i as fp16 (exact up to 2048): exponent and 10 mantissa bits.
    const int e = i == 0 ? 0 : 31 - __builtin_clz(static_cast<unsigned>(i));
    t.lo[static_cast<std::size_t>(i)] =
        static_cast<int16_t>(i == 0 ? 0 : ((e + 15) << 10) | ((i << (10 - e)) & 0x3ff));
  }
  return c;
}

}  // namespace

TEST_CASE("SDP fp16 LUT: linear index, fp17 interpolation and extrapolation, hand-worked", "[sdp][fp16][lut]") {
  LutTables t;
  const LutConfig c = lo_ramp(t);
  REQUIRE(t.lo[3] == 0x4200);   // 3.0
  REQUIRE(t.lo[256] == 0x5c00); // 256.0
  // 2.5: LO entry 2, fraction 1/2: 0.5 * 2 + 0.5 * 3 = 2.5. LE underflows, so LO is the one hit.
  LutResult r = lut_lookup_fp(LutVariant::Sdp, c, t, 0x40200000u);
  CHECK(r.lo_selected);
  CHECK(r.lo_hit);
  CHECK(!r.le_hit);
  CHECK(r.lo_index == 2);
  CHECK(r.lo_frac == (uint64_t{1} << 34));
  CHECK(r.value == 0x40200000);
  // 7.0 exactly: fraction 0, weight 1.0 on entry 7.
  r = lut_lookup_fp(LutVariant::Sdp, c, t, 0x40e00000u);
  CHECK(r.lo_index == 7);
  CHECK(r.lo_frac == 0);
  CHECK(r.value == 0x40e00000);
  // 300: past LO's last entry (index >= 256): overflow from END with the overflow slope:
  // 256 + (300 - 256) * 0.5 = 278. Both tables overflow? LE (linear, select 0 from 100) too, so
  // OFLOW_PRIORITY (LE by default) would pick LE: route it to LO.
  LutConfig o = c;
  o.oflow_prio_lo = true;
  r = lut_lookup_fp(LutVariant::Sdp, o, t, 0x43960000u);
  CHECK(r.oflow);
  CHECK(r.lo_selected);
  CHECK(r.lo_index == 256);
  CHECK(r.value == 0x438b0000);  // 278.0
  // -1: both tables underflow; UFLOW_PRIORITY LO: 0 + (-1 - 0) * 2 = -2.
  o.uflow_prio_lo = true;
  r = lut_lookup_fp(LutVariant::Sdp, o, t, 0xbf800000u);
  CHECK(r.uflow);
  CHECK(r.value == 0xc0000000);
  // X = START exactly: D = +0 is an underflow, not entry 0.
  r = lut_lookup_fp(LutVariant::Sdp, o, t, 0x00000000u);
  CHECK(r.uflow);
  // NaN input: D is NaN, an underflow of both tables.
  r = lut_lookup_fp(LutVariant::Sdp, o, t, 0x7fc00000u);
  CHECK(r.uflow);
}

TEST_CASE("SDP fp16 LUT: exponent index and its underflow anchor START + 2^offset, hand-worked", "[sdp][fp16][lut]") {
  LutTables t;
  LutConfig c;
  c.le_linear = false;
  c.le_start = 0;          // entries at 0 + 2^(i + offset)
  c.le_index_offset = 0;
  c.lo_start = 0x47000000; // 32768.0: LO underflows below it
  c.lo_index_select = 0;
  c.le_uflow_scale = 0x4000;  // 2.0
  for (int i = 0; i < kLutLeEntries; ++i) t.le[static_cast<std::size_t>(i)] = static_cast<int16_t>((std::min(i, 15) + 15) << 10);  // 2^i
  // 6 = 1.5 * 2^2: entry 2 (4.0), fraction 0.5 toward entry 3 (8.0): 6.0.
  LutResult r = lut_lookup_fp(LutVariant::Sdp, c, t, 0x40c00000u);
  CHECK(r.le_hit);
  CHECK(r.le_index == 2);
  CHECK(r.le_frac == (uint64_t{1} << 34));
  CHECK(r.value == 0x40c00000);
  // 0.5 = 2^-1 < 2^offset: underflow; both underflow, LE by priority. The anchor is
  // START + 2^0 = 1: y0 + (0.5 - 1) * 2 = 1 - 1 = +0.
  r = lut_lookup_fp(LutVariant::Sdp, c, t, 0x3f000000u);
  CHECK(r.uflow);
  CHECK(!r.lo_selected);
  CHECK(r.value == 0x00000000);
  // With offset -2 the anchor is 0.25 and 0.125 underflows: 2^? entry 0 holds 1.0:
  // 1 + (0.125 - 0.25) * 2 = 0.75.
  c.le_index_offset = -2;
  r = lut_lookup_fp(LutVariant::Sdp, c, t, 0x3e000000u);
  CHECK(r.uflow);
  CHECK(r.value == 0x3f400000);
}
