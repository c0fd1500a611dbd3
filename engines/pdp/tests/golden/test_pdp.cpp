// Golden PDP. Every expected value is worked by hand from ../shared/reference/pdp-cdp-bdma-rubik.md
// §2 and nvdla-arithmetic.md §4 (the working is in the comments), never taken from the code under
// test.
#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>

#include "golden/nvdla_regs.hpp"
#include "engines/pdp/golden/pdp.hpp"

using namespace dla::golden;

namespace {

// 3x3 single-channel cube
//   1 2 3
//   4 5 6
//   7 8 9
// (sign = -1 negates every element).
Cube<int64_t> cube_1to9(int sign = 1) {
  Cube<int64_t> c(CubeShape{1, 1, 3, 3});
  for (int h = 0; h < 3; ++h) {
    for (int w = 0; w < 3; ++w) c.at(0, 0, h, w) = sign * (3 * h + w + 1);
  }
  return c;
}

// Kernel 2x2, stride 2x2, PAD_LEFT 1, PAD_TOP 1 on the 3x3 cube: W' = (3+1+0-2)/2+1 = 2, H' = 2.
PdpConfig cfg_2x2_pad(PdpMethod m, int pad_value) {
  PdpConfig c;
  c.in = {1, 1, 3, 3};
  c.out = {1, 1, 2, 2};
  c.method = m;
  c.kernel_w = c.kernel_h = 2;
  c.stride_w = c.stride_h = 2;
  c.pad_left = c.pad_top = 1;
  for (int n = 1; n <= 7; ++n) c.pad_value[static_cast<std::size_t>(n - 1)] = n * pad_value;  // N x pad, as software programs
  c.recip_w = c.recip_h = 0x8000;  // 1/2
  return c;
}

std::vector<int64_t> values(const Cube<int64_t>& c) { return c.data(); }

}  // namespace

TEST_CASE("pdp_average: two rhaz roundings, width first", "[golden][pdp]") {
  // 5 * 0x8000 / 2^16 = 2.5 -> 3 (half away from zero); * 1.0 -> 3.
  CHECK(pdp_average(5, 0x8000, 0x10000, 8) == 3);
  CHECK(pdp_average(-5, 0x8000, 0x10000, 8) == -3);
  // 3x3 window summing 7: 7 * 0x5555 = 152915, / 65536 = 2.33 -> 2; 2 * 0x5555 = 43690, / 65536
  // = 0.667 -> 1 (7/9 = 0.78 computed in one step would also give 1, but:)
  CHECK(pdp_average(7, 0x5555, 0x5555, 8) == 1);
  // sum 13: 13 * 21845 = 283985 / 65536 = 4.333 -> 4; 4 * 21845 = 87380 / 65536 = 1.333 -> 1,
  // where 13/9 = 1.44 -> 1 too; sum 14: 4.667 -> 5; 5 * 21845 / 65536 = 1.667 -> 2 (14/9 = 1.56 -> 2).
  CHECK(pdp_average(13, 0x5555, 0x5555, 8) == 1);
  CHECK(pdp_average(14, 0x5555, 0x5555, 8) == 2);
  // Two roundings differ from one: sum 3, recip 1/2 each: 1.5 -> 2, 2 / 2 = 1 -> 1 (3/4 = 0.75 -> 1);
  // sum 1: 0.5 -> 1, 0.5 -> 1 (1/4 = 0.25 would round to 0).
  CHECK(pdp_average(1, 0x8000, 0x8000, 8) == 1);
  CHECK(pdp_average(-1, 0x8000, 0x8000, 8) == -1);
  // Widths for int8: sum 14 bits, first quotient 11 bits, result 8 bits.
  CHECK(pdp_average(127, 0x10000, 0x10000, 8) == 127);
  CHECK_THROWS_AS(pdp_average(128, 0x10000, 0x10000, 8), std::domain_error);
  CHECK_THROWS_AS(pdp_average(1024, 0x10000, 0x8000, 8), std::domain_error);  // 1024 needs 12 bits
  CHECK_THROWS_AS(pdp_average(8192, 0x2000, 0x2000, 8), std::domain_error);   // 8192 needs 15 bits
  // int16: 60001 / 2 = 30000.5 -> 30001.
  CHECK(pdp_average(60001, 0x8000, 0x10000, 16) == 30001);
  CHECK(pdp_average(-60001, 0x8000, 0x10000, 16) == -30001);
}

TEST_CASE("pdp_pool max / min / average with padding and pad values", "[golden][pdp]") {
  // Windows (rows x cols, -1 = padding):
  //   (0,0): rows -1..0, cols -1..0 -> valid {1}; 1 padded column, 1 padded row
  //   (0,1): rows -1..0, cols  1..2 -> valid {2, 3}; 1 padded row
  //   (1,0): rows  1..2, cols -1..0 -> valid {4, 7}; 1 padded column per row
  //   (1,1): rows  1..2, cols  1..2 -> valid {5, 6, 8, 9}
  CHECK(values(pdp_pool(cfg_2x2_pad(PdpMethod::Max, 3), cube_1to9())) == std::vector<int64_t>{1, 3, 7, 9});
  CHECK(values(pdp_pool(cfg_2x2_pad(PdpMethod::Min, 3), cube_1to9())) == std::vector<int64_t>{1, 2, 4, 5});
  // Padding never takes part in max/min, whatever the pad value.
  CHECK(values(pdp_pool(cfg_2x2_pad(PdpMethod::Max, 100), cube_1to9(-1))) == std::vector<int64_t>{-1, -2, -4, -5});
  // Average, pad value 3 (PAD_VALUE_1X = 3):
  //   (0,0): valid row 0: 1 + PAD_VALUE_1X = 4; padded row: KW x PAD_VALUE_1X = 6 -> 10; /2 = 5; /2 = 2.5 -> 3
  //   (0,1): 2 + 3 + 2 x 3 = 11; 5.5 -> 6; 3
  //   (1,0): (4 + 3) + (7 + 3) = 17; 8.5 -> 9; 4.5 -> 5
  //   (1,1): 28; 14; 7
  CHECK(values(pdp_pool(cfg_2x2_pad(PdpMethod::Average, 3), cube_1to9())) == std::vector<int64_t>{3, 3, 5, 7});
  // Negated input and pad value: every sum negates and rhaz is symmetric: -3, -3, -5, -7.
  CHECK(values(pdp_pool(cfg_2x2_pad(PdpMethod::Average, -3), cube_1to9(-1))) == std::vector<int64_t>{-3, -3, -5, -7});
}

TEST_CASE("pdp_pool: 1x1 input under a 3x3 kernel with two padded rows and columns", "[golden][pdp]") {
  // As the pdp_1x1x1_3x3 trace: W = H = 1, kernel 3x3, stride 2, PAD_LEFT = PAD_TOP = 2:
  // W' = (1 + 2 - 3)/2 + 1 = 1. Window rows/cols -2..0: one valid element x, 2 padded columns,
  // 2 padded rows. Sum = x + PAD_VALUE_2X + 3 x PAD_VALUE_2X; pad 5 -> PAD_VALUE_2X = 10;
  // x = 20: 60. 60 x 0x5555 = 1310700, / 65536 = 19.9997 -> 20; 20 x 0x5555 = 436900 / 65536 = 6.67 -> 7.
  PdpConfig c;
  c.in = c.out = {1, 1, 1, 1};
  c.kernel_w = c.kernel_h = 3;
  c.stride_w = c.stride_h = 2;
  c.pad_left = c.pad_top = 2;
  c.pad_value = {5, 10, 15, 20, 25, 30, 35};
  c.recip_w = c.recip_h = 0x5555;
  c.rdma_kernel_w = 3;  // PDP_RDMA agrees on the kernel width and stride
  c.rdma_stride_w = 2;
  Cube<int64_t> in(CubeShape{1, 1, 1, 1}, 20);
  CHECK(values(pdp_pool(c, in)) == std::vector<int64_t>{7});
  c.method = PdpMethod::Max;
  CHECK(values(pdp_pool(c, in)) == std::vector<int64_t>{20});
  CHECK(c.unsupported(nv_small()).empty());
}

TEST_CASE("pdp_pool: pad values must fit NVDLA's widths when used", "[golden][pdp]") {
  // int8 PAD_VALUE_1X keeps 8 bits: 127 fits, 128 does not (window (0,0) uses it).
  PdpConfig c = cfg_2x2_pad(PdpMethod::Average, 0);
  c.pad_value[0] = 127;
  c.recip_w = c.recip_h = 0x4000;  // 1/4: keeps the average in range
  // (0,0): 1 + 127 + 2 x 127 = 382; x 1/4 = 95.5 -> 96; / 4 = 24.
  CHECK(pdp_pool(c, cube_1to9()).at(0, 0, 0, 0) == 24);
  c.pad_value[0] = 128;
  CHECK_THROWS_WITH(pdp_pool(c, cube_1to9()), Catch::Contains("D_POOLING_PADDING_VALUE_1_CFG = 128"));
  // Max ignores them.
  c.method = PdpMethod::Max;
  CHECK_NOTHROW(pdp_pool(c, cube_1to9()));
  CHECK(pdp_pad_value_bits(1, 1) == 8);
  CHECK(pdp_pad_value_bits(2, 1) == 9);
  CHECK(pdp_pad_value_bits(4, 1) == 10);
  CHECK(pdp_pad_value_bits(7, 1) == 11);
  CHECK(pdp_pad_value_bits(7, 2) == 19);
}

TEST_CASE("pdp_pool int16: sums beyond int8", "[golden][pdp]") {
  // 2x1 window over (30000, 30001), stride 2, recip_w 1/2, recip_h 1: 60001 / 2 = 30000.5 -> 30001.
  PdpConfig c;
  c.precision = PdpPrecision::Int16;
  c.in = {1, 1, 1, 2};
  c.out = {1, 1, 1, 1};
  c.kernel_w = 2;
  c.stride_w = 2;
  c.recip_w = 0x8000;
  c.recip_h = 0x10000;
  c.off_flying = false;  // on the fly from SDP: no PDP_RDMA registers to agree with
  Cube<int64_t> in(CubeShape{1, 1, 1, 2});
  in.at(0, 0, 0, 0) = 30000;
  in.at(0, 0, 0, 1) = 30001;
  CHECK(values(pdp_pool(c, in)) == std::vector<int64_t>{30001});
  in.at(0, 0, 0, 0) = -32768;
  c.method = PdpMethod::Min;
  CHECK(values(pdp_pool(c, in)) == std::vector<int64_t>{-32768});
  CHECK(c.unsupported(nv_full()).empty());
  CHECK_THAT(c.unsupported(nv_small()).front(), Catch::Contains("nv_small has no int16"));
}

TEST_CASE("PDP limits: kernel, pads, output size, split widths, line buffer", "[golden][pdp]") {
  // The split trace pdp_16x6x16_4x2_split_max: W 16, kernel 4 stride 2, pads L2 R2 -> W' = 9;
  // IN 2/12/2 (2 + 2 = (1-1)x2 + 4; 12 + 2 = (6-1)x2 + 4; 2 + 2 + 2 = (2-1)x2 + 4), OUT 1/6/2.
  PdpConfig c;
  c.method = PdpMethod::Max;
  c.in = {1, 16, 6, 16};
  c.out = {1, 16, 4, 9};
  c.kernel_w = 4;
  c.kernel_h = 2;
  c.stride_w = c.stride_h = 2;
  c.pad_left = c.pad_right = 2;
  c.pad_top = c.pad_bottom = 1;
  c.splits = c.rdma_splits = 3;
  c.in_widths = c.rdma_in_widths = {2, 12, 2};
  c.out_widths = {1, 6, 2};
  c.rdma_in = c.in;
  c.rdma_kernel_w = 4;
  c.rdma_stride_w = 2;
  c.src_line_stride = 16 * 8;
  c.src_surface_stride = 6 * 16 * 8;
  c.dst_line_stride = 9 * 8;
  c.dst_surface_stride = 4 * 9 * 8;
  CHECK(pdp_out_size(16, 2, 2, 4, 2) == 9);
  CHECK(pdp_out_size(6, 1, 1, 2, 2) == 4);
  CHECK(c.unsupported(nv_small()).empty());
  CHECK(c.lanes() == 16);

  auto first_problem = [](const PdpConfig& k) {
    const auto u = k.unsupported(nv_small());
    return u.empty() ? std::string() : u.front();
  };
  PdpConfig k = c;
  k.in_widths.first = 3;
  k.rdma_in_widths.first = 3;
  CHECK_THAT(first_problem(k), Catch::Contains("FIRST + MID x 1 + LAST = 17 must equal the input width 16"));
  k = c;
  k.out_widths = {2, 5, 2};
  CHECK_THAT(first_problem(k), Catch::Contains("D_PARTIAL_WIDTH_IN.FIRST (2) + PAD_LEFT (2) must equal"));
  k = c;
  k.rdma_splits = 1;
  CHECK_THAT(first_problem(k), Catch::Contains("PDP_RDMA SPLIT_NUM (0) differs"));
  k = c;
  k.off_flying = false;
  CHECK_THAT(first_problem(k), Catch::Contains("needs FLYING_MODE=OFF_FLYING"));
  k = c;
  k.kernel_h = 9;
  CHECK_THAT(first_problem(k), Catch::Contains("KERNEL_HEIGHT 9 exceeds"));
  k = c;
  k.pad_top = 2;  // kernel height 2
  k.out.h = 5;
  CHECK_THAT(first_problem(k), Catch::Contains("PAD_TOP (2) and PAD_BOTTOM (1) must be less than the kernel height 2"));
  k = c;
  k.out.c = 8;
  CHECK_THAT(first_problem(k), Catch::Contains("D_DATA_CUBE_OUT_CHANNEL (8) must equal"));
  k = c;
  k.pad_right = 1;  // 16 + 2 + 1 - 4 = 15, not a multiple of 2 (W' would still be 8)
  k.out.w = 8;
  k.in_widths.last = k.rdma_in_widths.last = 2;
  CHECK_THAT(first_problem(k), Catch::Contains("must be a multiple of the stride 2"));
  k = c;
  k.precision = k.rdma_precision = PdpPrecision::Fp16;
  CHECK_THAT(first_problem(k), Catch::Contains("has no fp16"));

  // Line buffer: 4096 int8 partial sums; nv_small's 8-channel atom -> 512 output columns, nv_large's
  // 32-channel atom -> 128. A 1x1 kernel keeps W' = W.
  CHECK(nv_small().pdp_max_out_width(Precision::Int8) == 512);
  CHECK(nv_large().pdp_max_out_width(Precision::Int8) == 128);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16) == 128);
  // Overlapping windows: the largest widths NVIDIA's C model ran without stopping for good, found
  // on the model by running W' and W' + 1 (session 23; nv_full holds 256 output atoms): kernel
  // rows / stride 4/1 -> 85, 8/1 -> 36, 6/2 -> 85, 7/2 -> 85, 3/1 -> 127, 5/2 -> 127; 5/3 and
  // 6/4 ran 128 (the partial-sum limit).
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 4, 1) == 85);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 8, 1) == 36);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 6, 2) == 85);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 7, 2) == 85);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 3, 1) == 127);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 5, 2) == 127);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 5, 3) == 128);
  CHECK(nv_full().pdp_max_out_width(Precision::Int16, 6, 4) == 128);
  CHECK(nv_full().pdp_max_out_width(Precision::Int8, 2, 1) == 128);
  CHECK(nv_small().pdp_max_out_width(Precision::Int8, 3, 1) == 511);  // 1024 atoms of 16 bytes: 1024 / 2 - 1
  PdpConfig wide;
  wide.in = wide.out = wide.rdma_in = {1, 8, 1, 513};
  wide.src_line_stride = wide.dst_line_stride = 513 * 8;
  CHECK_THAT(wide.unsupported(nv_small()).front(), Catch::Contains("exceeds the 512 columns"));
  wide.in = wide.out = wide.rdma_in = {1, 8, 1, 512};
  CHECK(wide.unsupported(nv_small()).empty());
}

TEST_CASE("decode_pdp reads every field of PDP and PDP_RDMA", "[golden][pdp]") {
  // Register values of the pdp_16x6x16_4x2_split_max trace.
  namespace rp = regs::pdp;
  namespace rr = regs::pdp_rdma;
  const std::map<uint32_t, uint32_t> pdp = {
      {rp::D_DATA_CUBE_IN_WIDTH::offset, 0xf},      {rp::D_DATA_CUBE_IN_HEIGHT::offset, 0x5},
      {rp::D_DATA_CUBE_IN_CHANNEL::offset, 0xf},    {rp::D_DATA_CUBE_OUT_WIDTH::offset, 0x8},
      {rp::D_DATA_CUBE_OUT_HEIGHT::offset, 0x3},    {rp::D_DATA_CUBE_OUT_CHANNEL::offset, 0xf},
      {rp::D_OPERATION_MODE_CFG::offset, 0x211},    {rp::D_PARTIAL_WIDTH_IN::offset, 0xb00401},
      {rp::D_PARTIAL_WIDTH_OUT::offset, 0x500400},  {rp::D_POOLING_KERNEL_CFG::offset, 0x110103},
      {rp::D_RECIP_KERNEL_WIDTH::offset, 0xf307},   {rp::D_RECIP_KERNEL_HEIGHT::offset, 0x4971},
      {rp::D_POOLING_PADDING_CFG::offset, 0x1212},  {rp::D_POOLING_PADDING_VALUE_1_CFG::offset, 0x52098},
      {rp::D_POOLING_PADDING_VALUE_7_CFG::offset, 0x72af9},
      {rp::D_DST_BASE_ADDR_LOW::offset, 0x80000080}, {rp::D_DST_LINE_STRIDE::offset, 0x2100},
      {rp::D_DST_SURFACE_STRIDE::offset, 0x8a60},   {rp::D_DST_RAM_CFG::offset, 1}};
  const std::map<uint32_t, uint32_t> rdma = {
      {rr::D_DATA_CUBE_IN_WIDTH::offset, 0xf},       {rr::D_DATA_CUBE_IN_HEIGHT::offset, 0x5},
      {rr::D_DATA_CUBE_IN_CHANNEL::offset, 0xf},     {rr::D_SRC_BASE_ADDR_LOW::offset, 0x80808e00},
      {rr::D_SRC_LINE_STRIDE::offset, 0x340},        {rr::D_SRC_SURFACE_STRIDE::offset, 0x2060},
      {rr::D_OPERATION_MODE_CFG::offset, 0x2},       {rr::D_POOLING_KERNEL_CFG::offset, 0x13},
      {rr::D_POOLING_PADDING_CFG::offset, 0x6},      {rr::D_PARTIAL_WIDTH_IN::offset, 0xb00401},
      {rr::D_SRC_RAM_CFG::offset, 1}};  // MC (reset 0 is CV-SRAM, which nv_small lacks)
  auto reader = [](const std::map<uint32_t, uint32_t>& m) {
    return [&m](uint32_t off) {
      const auto it = m.find(off);
      return it == m.end() ? 0u : it->second;
    };
  };
  const PdpConfig c = decode_pdp(reader(pdp), reader(rdma), 8);
  CHECK(c.in == CubeShape{1, 16, 6, 16});
  CHECK(c.out == CubeShape{1, 16, 4, 9});
  CHECK(c.method == PdpMethod::Max);  // 0x211: method 1, FLYING_MODE bit 4, SPLIT_NUM 2
  CHECK(c.off_flying);
  CHECK(c.splits == 3);
  CHECK(c.in_widths == PdpPartialWidths{2, 12, 2});  // 0xb00401: FIRST 1, LAST 1, MID 0xb (each -1)
  CHECK(c.out_widths == PdpPartialWidths{1, 6, 2});  // 0x500400: FIRST 0, LAST 1, MID 5
  CHECK(c.kernel_w == 4);
  CHECK(c.kernel_h == 2);
  CHECK(c.stride_w == 2);
  CHECK(c.stride_h == 2);
  CHECK(c.recip_w == 0xf307);
  CHECK(c.recip_h == 0x4971);
  CHECK(c.pad_left == 2);
  CHECK(c.pad_top == 1);
  CHECK(c.pad_right == 2);
  CHECK(c.pad_bottom == 1);
  // 0x52098 and 0x72af9 have bit 18 set: 0x52098 - 2^19 = 336024 - 524288 = -188264;
  // 0x72af9 = 469753 - 524288 = -54535.
  CHECK(c.pad_value[0] == -188264);
  CHECK(c.pad_value[6] == -54535);
  CHECK(c.dst_base == 0x80000080);
  CHECK(c.dst_line_stride == 0x2100);
  CHECK(c.dst_surface_stride == 0x8a60);
  CHECK(c.dst_ram_mc);
  CHECK(c.rdma_in == c.in);
  CHECK(c.src_base == 0x80808e00);
  CHECK(c.src_line_stride == 0x340);
  CHECK(c.src_surface_stride == 0x2060);
  CHECK(c.rdma_splits == 3);
  CHECK(c.rdma_kernel_w == 4);  // 0x13: width 3+1, stride 1+1
  CHECK(c.rdma_stride_w == 2);
  CHECK(c.rdma_pad_width == 6);
  CHECK(c.rdma_in_widths == c.in_widths);
  CHECK(c.unsupported(nv_small()).empty());
}
