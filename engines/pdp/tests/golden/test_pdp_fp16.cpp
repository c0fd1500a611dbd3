// Golden PDP in fp16 (docs/FP16.md "PDP"). Expected values are worked by hand from NVIDIA's C
// model's order of operations (fp17 sums, the running row sum first, the new row first across
// rows, two reciprocal multiplies) with exact arithmetic rounded to 11 significant bits; the
// working is in the comments. NVIDIA's C model judges whole layers in tests/cmod.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "engines/pdp/golden/pdp.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

// One channel (16 lanes, the others zero), kernel = the whole cube, stride 1, no padding.
PdpConfig window(PdpMethod m, int w, int h, uint32_t recip_w, uint32_t recip_h) {
  PdpConfig c;
  c.atom_bytes = 32;
  c.precision = c.rdma_precision = PdpPrecision::Fp16;
  c.in = {1, 1, h, w};
  c.out = {1, 1, 1, 1};
  c.method = m;
  c.kernel_w = w;
  c.kernel_h = h;
  c.recip_w = recip_w;
  c.recip_h = recip_h;
  return c;
}

// Rows top to bottom of fp16 patterns, lane 0.
Cube<int64_t> rows(const std::vector<std::vector<uint16_t>>& v) {
  Cube<int64_t> c(CubeShape{1, 16, static_cast<int>(v.size()), static_cast<int>(v[0].size())});
  for (std::size_t h = 0; h < v.size(); ++h) {
    for (std::size_t w = 0; w < v[h].size(); ++w) c.at(0, 0, static_cast<int>(h), static_cast<int>(w)) = static_cast<int16_t>(v[h][w]);
  }
  return c;
}

uint16_t pool1(const PdpConfig& c, const std::vector<std::vector<uint16_t>>& v) {
  return static_cast<uint16_t>(pdp_pool(c, rows(v)).at(0, 0, 0, 0));
}

// fp17 reciprocals NVIDIA's driver programs (kmd pdp.c): 1 -> 0x7c00, 1/2 -> 0x7800, 1/3 -> 0x7555.
constexpr uint32_t kOne = 0x7c00, kHalf = 0x7800, kThird = 0x7555;

}  // namespace

TEST_CASE("PDP fp16 average: fp17 sums and two reciprocal multiplies, hand-worked", "[pdp][fp16]") {
  // {1, 2; 3, 4}: rows 3 and 7, down 10, x 1/2 = 5, x 1/2 = 2.5 (0x4100).
  CHECK(pool1(window(PdpMethod::Average, 2, 2, kHalf, kHalf), {{0x3c00, 0x4000}, {0x4200, 0x4400}}) == 0x4100);
  // Four 65504: the sum 262016 fits fp17 (IEEE fp16 would overflow), / 4 = 65504 (0x7bff).
  CHECK(pool1(window(PdpMethod::Average, 2, 2, kHalf, kHalf), {{0x7bff, 0x7bff}, {0x7bff, 0x7bff}}) == 0x7bff);
  // {65504, 65504} x 1 x 1 = 131008: past fp16, saturated to 0x7bff (no infinity).
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kOne, kOne), {{0x7bff, 0x7bff}}) == 0x7bff);
  // {1, 1, 1} x fp17(1/3): 3 x 0x7555 = 4095/4096 exactly, a tie between 0x7bff and 1.0: to even, 1.0.
  CHECK(pool1(window(PdpMethod::Average, 3, 1, kThird, kOne), {{0x3c00, 0x3c00, 0x3c00}}) == 0x3c00);
  // {2048, 1; 1, -2048}: row 0 = 2049 rounds (tie, to even) to 2048; row 1 = -2047; down 1;
  // / 4 = 0.25 (0x3400), where the exact mean is 0.5.
  CHECK(pool1(window(PdpMethod::Average, 2, 2, kHalf, kHalf), {{0x6800, 0x3c00}, {0x3c00, 0xe800}}) == 0x3400);
  // Exact cancellations take the first operand's sign: across rows the new row is first
  // ({+1}, {-1} -> -0), along a row the running sum is first ({+1, -1} -> +0, {-1, +1} -> -0).
  CHECK(pool1(window(PdpMethod::Average, 1, 2, kOne, kHalf), {{0x3c00}, {0xbc00}}) == 0x8000);
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0x3c00, 0xbc00}}) == 0x0000);
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0xbc00, 0x3c00}}) == 0x8000);
  // +inf reads as the largest fp17 (~4.29e9): {inf, 1} / 2 saturates to 0x7bff; {+inf, -inf} -> +0.
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0x7c00, 0x3c00}}) == 0x7bff);
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0x7c00, 0xfc00}}) == 0x0000);
  // Denormals are exact in fp17: (3 x 2^-24 + 0) / 2 = 1.5 x 2^-24 rounds to even, 2 x 2^-24;
  // 2^-24 / 2 ties to 0.
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0x0003, 0x0000}}) == 0x0002);
  CHECK(pool1(window(PdpMethod::Average, 2, 1, kHalf, kOne), {{0x0001, 0x0000}}) == 0x0000);
}

TEST_CASE("PDP fp16 average with padding: PAD_VALUE_nX per row, x kernel width below, hand-worked", "[pdp][fp16]") {
  // Input {2.0}, kernel 2x2, PAD_LEFT = PAD_TOP = 1, PAD_VALUE_1X = fp17 0.5: row 2 + 0.5 = 2.5,
  // the padded row adds 0.5 x 2 (kernel width) = 1, 3.5 / 4 = 0.875 (0x3b00).
  PdpConfig c = window(PdpMethod::Average, 2, 2, kHalf, kHalf);
  c.in = {1, 1, 1, 1};
  c.pad_left = c.pad_top = 1;
  c.pad_value[0] = 0x7800;
  CHECK(pool1(c, {{0x4000}}) == 0x3b00);
  // A zero pad value: padding counts in the divisor only, 2 / 4 = 0.5.
  c.pad_value[0] = 0;
  CHECK(pool1(c, {{0x4000}}) == 0x3800);
}

TEST_CASE("PDP fp16 max / min: the fp16 patterns, NaN precedence, +0 above -0, hand-worked", "[pdp][fp16]") {
  const PdpConfig mx = window(PdpMethod::Max, 2, 2, 0, 0);
  // Row 0 keeps its NaN 0x7e01, row 1 its NaN 0xfe05; across rows the new (bottom) row is first:
  // 0xfe05.
  CHECK(pool1(mx, {{0x3c00, 0x7e01}, {0xfe05, 0x4000}}) == 0xfe05);
  // Infinities pass unchanged; +0 ranks above -0 in either order.
  CHECK(pool1(window(PdpMethod::Max, 2, 1, 0, 0), {{0x7c00, 0x7bff}}) == 0x7c00);
  CHECK(pool1(window(PdpMethod::Max, 2, 1, 0, 0), {{0x8000, 0x0000}}) == 0x0000);
  CHECK(pool1(window(PdpMethod::Max, 2, 1, 0, 0), {{0x0000, 0x8000}}) == 0x0000);
  CHECK(pool1(window(PdpMethod::Min, 2, 1, 0, 0), {{0x8000, 0x0000}}) == 0x8000);
  CHECK(pool1(window(PdpMethod::Min, 2, 1, 0, 0), {{0x0001, 0x8001}}) == 0x8001);
}

TEST_CASE("PDP fp16 layer: NaN / Inf counters and NAN_TO_ZERO from memory", "[pdp][fp16]") {
  // One surface (16 lanes), 2x1, max over the row; lane 0 = {NaN, 2}, lane 1 = {+inf, -1}.
  PdpConfig c = window(PdpMethod::Max, 2, 1, 0, 0);
  c.off_flying = true;
  c.rdma_in = c.in;
  c.rdma_kernel_w = c.kernel_w;
  c.src_base = 0x100;
  c.src_line_stride = 64;
  c.src_surface_stride = 64;
  c.dst_base = 0x1000;
  c.dst_line_stride = 32;
  c.dst_surface_stride = 32;
  std::vector<uint8_t> mem(0x2000, 0);
  const auto put = [&](int lane, int w, uint16_t v) {
    const std::size_t a = 0x100 + static_cast<std::size_t>(w) * 32 + static_cast<std::size_t>(lane) * 2;
    mem[a] = static_cast<uint8_t>(v);
    mem[a + 1] = static_cast<uint8_t>(v >> 8);
  };
  put(0, 0, 0xfe00);
  put(0, 1, 0x4000);
  put(1, 0, 0x7c00);
  put(1, 1, 0xbc00);
  const auto read = [&](uint64_t a) { return mem[a]; };
  const auto write = [&](uint64_t a, uint8_t v) { mem[a] = v; };
  const auto out = [&](int lane) {
    return static_cast<uint16_t>(mem[0x1000 + 2 * lane] | mem[0x1000 + 2 * lane + 1] << 8);
  };
  const HwConfig& hw = nv_full();
  PdpRun r = run_pdp(c, hw, read, write);
  CHECK(out(0) == 0xfe00);  // max(NaN, 2) = the NaN
  CHECK(out(1) == 0x7c00);
  CHECK(r.nan_input == 1);
  CHECK(r.inf_input == 1);
  CHECK(r.nan_output == 1);
  c.nan_to_zero = true;
  r = run_pdp(c, hw, read, write);
  CHECK(out(0) == 0x4000);  // max(+0, 2)
  CHECK(r.nan_input == 1);  // counted before the flush
  CHECK(r.nan_output == 0);
}

TEST_CASE("PDP fp16 refusals: builds without fp16, 8-wide average with a vertical pad value", "[pdp][fp16]") {
  PdpConfig c = window(PdpMethod::Average, 8, 2, 0x7000, kHalf);
  c.in = {1, 1, 1, 8};
  c.pad_top = 1;
  c.rdma_in = c.in;
  c.off_flying = false;
  const auto first = [&](const HwConfig& hw) {
    const auto u = c.unsupported(hw);
    return u.empty() ? std::string() : u.front();
  };
  CHECK(first(nv_full()).empty());
  c.pad_value[0] = 0x7c00;
  CHECK_THAT(first(nv_full()), Catch::Contains("KERNEL_WIDTH 8"));
  c.pad_value[0] = 0;
  CHECK_THAT(first(nv_small()), Catch::Contains("has no fp16"));
}
