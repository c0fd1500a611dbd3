// SDP's fp16 pipeline with every stage bypassed (docs/FP16.md "SDP"): hand-worked fp32 -> fp16
// (round to nearest even, saturation to 0x7bff instead of infinity, denormals, NaN payloads,
// NAN_TO_ZERO), fp16 -> int16 after the fp16 rounding, the fp16 saturation counter, a whole layer
// from fp16 memory, and the precision combinations NVDLA has not. NVIDIA's C model judges whole
// layers in tests/cmod.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>

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

TEST_CASE("SDP fp16 refuses what NVDLA has not and what is not modelled yet, naming it", "[sdp][fp16]") {
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
  CHECK_THAT(first(c), Catch::Contains("not modelled yet"));
  c = fp16_layer(2);
  c.bn.bypass = false;
  c.bn.alu_bypass = false;
  c.bn.alu_algo = SdpAluAlgo::Eql;
  CHECK_THAT(first(c), Catch::Contains("EQL"));
  c = fp16_layer(2);
  c.proc_precision = c.rdma_proc_precision = SdpPrecision::Int16;
  CHECK_THAT(first(c), Catch::Contains("PROC_PRECISION FP16"));
}
