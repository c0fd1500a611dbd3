// The line-buffer engine's golden model (docs/LINEBUF.md §1, §3) against hand-worked values.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "engines/linebuf/golden/linebuf.hpp"

using namespace dla::golden;

namespace {

LinebufLayer conv(int k, int pad, bool pool, std::vector<int64_t> w, std::vector<int64_t> bias,
                  LinebufOutStage out = {}) {
  LinebufLayer L;
  L.kind = LinebufKind::Conv;
  L.outputs = k;
  L.pad = pad;
  L.pool = pool;
  L.out = out;
  L.weights = std::move(w);
  L.bias = std::move(bias);
  return L;
}

}  // namespace

TEST_CASE("linebuf conv 3x3 pad 0 on a 3x3 and a 4x3 map, by hand", "[linebuf]") {
  // in = 1..9 row-major, w = 1 everywhere but w[1][1] = 2: 45 + 5 + bias 3 = 53.
  const LinebufMap in{1, 3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  const LinebufMap o = linebuf_layer(in, conv(1, 0, false, {1, 1, 1, 1, 2, 1, 1, 1, 1}, {3}), Precision::Int8);
  REQUIRE(o.c == 1);
  REQUIRE(o.h == 1);
  REQUIRE(o.w == 1);
  CHECK(o.data[0] == 53);
  // H = 4, W = 3, w = only the top-left tap = 1: out[y] = in[y][0] = 1, 4 (two outputs).
  const LinebufMap in4{1, 4, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
  const LinebufMap o4 = linebuf_layer(in4, conv(1, 0, false, {1, 0, 0, 0, 0, 0, 0, 0, 0}, {0}), Precision::Int8);
  REQUIRE(o4.data == std::vector<int64_t>{1, 4});
}

TEST_CASE("linebuf pad 1: a 1x1 and a 2x2 map, two channels and two kernels", "[linebuf]") {
  // 1x1 with pad 1: only the centre tap sees data. in = (5, -3), kernel 0 centre (2, 1), bias 1:
  // 10 - 3 + 1 = 8; kernel 1 centre (-1, 4), bias 0: -5 - 12 = -17.
  std::vector<int64_t> w(2 * 2 * 9, 0);
  w[0 * 9 + 4] = 2;
  w[1 * 9 + 4] = 1;
  w[2 * 9 + 4] = -1;
  w[3 * 9 + 4] = 4;
  const LinebufMap in{2, 1, 1, {5, -3}};
  const LinebufMap o = linebuf_layer(in, conv(2, 1, false, w, {1, 0}), Precision::Int8);
  REQUIRE(o.data == std::vector<int64_t>{8, -17});
  // 2x2 of ones, all-ones kernel, pad 1: every output sees the 4 pixels.
  const LinebufMap ones{1, 2, 2, {1, 1, 1, 1}};
  const LinebufMap o2 = linebuf_layer(ones, conv(1, 1, false, std::vector<int64_t>(9, 1), {0}), Precision::Int8);
  REQUIRE(o2.data == std::vector<int64_t>{4, 4, 4, 4});
}

TEST_CASE("linebuf output stage: relu, leaky rounding, requantize rounding and saturation", "[linebuf]") {
  LinebufOutStage s;
  s.act = LinebufAct::None;
  CHECK(linebuf_output_stage(-7, s, Precision::Int8) == -7);
  CHECK(linebuf_output_stage(300, s, Precision::Int8) == 127);
  CHECK(linebuf_output_stage(-300, s, Precision::Int8) == -128);
  CHECK(linebuf_output_stage(-300, s, Precision::Int16) == -300);
  CHECK(linebuf_output_stage(40000, s, Precision::Int16) == 32767);
  s.out_shift = 1;
  CHECK(linebuf_output_stage(5, s, Precision::Int8) == 3);    // 2.5 -> 3
  CHECK(linebuf_output_stage(-5, s, Precision::Int8) == -3);  // -2.5 -> -3
  CHECK(linebuf_output_stage(-4, s, Precision::Int8) == -2);
  s.out_shift = 2;
  CHECK(linebuf_output_stage(-9, s, Precision::Int8) == -2);  // -2.25 -> -2
  CHECK(linebuf_output_stage(1000, s, Precision::Int8) == 127);  // 250 saturates
  s.act = LinebufAct::Relu;
  s.out_shift = 0;
  CHECK(linebuf_output_stage(-9, s, Precision::Int8) == 0);
  CHECK(linebuf_output_stage(9, s, Precision::Int8) == 9);
  // Leaky 0.1 ~ 13 / 128: -100 * 13 / 128 = -10.156 -> -10; -5 * 13 / 128 = -0.508 -> -1;
  // exact halves: slope 1/2, -5 -> -2.5 -> -3 (away from zero), then shift 1: -1.5 -> -2.
  s.act = LinebufAct::Leaky;
  s.leaky_slope = 13;
  s.leaky_shift = 7;
  CHECK(linebuf_output_stage(-100, s, Precision::Int8) == -10);
  CHECK(linebuf_output_stage(-5, s, Precision::Int8) == -1);
  CHECK(linebuf_output_stage(100, s, Precision::Int8) == 100);
  s.leaky_slope = 1;
  s.leaky_shift = 1;
  CHECK(linebuf_output_stage(-5, s, Precision::Int8) == -3);
  s.out_shift = 1;
  CHECK(linebuf_output_stage(-5, s, Precision::Int8) == -2);
  // Slope 1 exactly (65536 / 2^16 is above the 16-bit field; 1 / 2^0 is 1): negatives unchanged.
  s.leaky_slope = 1;
  s.leaky_shift = 0;
  s.out_shift = 0;
  CHECK(linebuf_output_stage(-128, s, Precision::Int8) == -128);
  CHECK(linebuf_output_stage(-129, s, Precision::Int8) == -128);
}

TEST_CASE("linebuf fused 2x2 max pool, odd sizes drop the last row and column", "[linebuf]") {
  // 7x7 input, pad 0 -> 5x5 conv output = the top-left tap: out[y][x] = in[y][x]; pool -> 2x2.
  LinebufMap in{1, 7, 7, {}};
  for (int i = 0; i < 49; ++i) in.data.push_back(i % 2 == 0 ? i : -i);
  const LinebufMap o = linebuf_layer(in, conv(1, 0, true, {1, 0, 0, 0, 0, 0, 0, 0, 0}, {0}), Precision::Int8);
  REQUIRE(o.h == 2);
  REQUIRE(o.w == 2);
  // Window (0,0): in[0][0], in[0][1], in[1][0], in[1][1] = 0, -1, -7, 8 -> 8.
  // (0,1): in[0][2..3], in[1][2..3] = 2, -3, -9, 10 -> 10; (1,0): in[2][0..1], in[3][0..1] =
  // 14, -15, -21, 22 -> 22; (1,1): 16, -17, -23, 24 -> 24. Row 4 / column 4 never count.
  CHECK(o.data == std::vector<int64_t>{8, 10, 22, 24});
  // Pool after requantize: max of saturated values.
  LinebufMap big{1, 4, 4, std::vector<int64_t>(16, 100)};
  big.data[0] = 120;
  const LinebufMap ob =
      linebuf_layer(big, conv(1, 1, true, {0, 0, 0, 0, 2, 0, 0, 0, 0}, {0}), Precision::Int8);
  CHECK(ob.data == std::vector<int64_t>{127, 127, 127, 127});
}

TEST_CASE("linebuf fully connected, and its 3x3 conv mapping", "[linebuf]") {
  // N = 11 inputs (C 1, H 1, W 11), M = 2: acc0 = sum in = 66 + bias -6 = 60; acc1 = in[10]*3 - in[0] = 32.
  LinebufMap in{1, 1, 11, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};
  LinebufLayer fc;
  fc.kind = LinebufKind::Fc;
  fc.outputs = 2;
  fc.weights.assign(22, 0);
  for (int i = 0; i < 11; ++i) fc.weights[static_cast<std::size_t>(i)] = 1;
  fc.weights[11] = -1;
  fc.weights[21] = 3;
  fc.bias = {-6, 0};
  const LinebufMap o = linebuf_layer(in, fc, Precision::Int8);
  REQUIRE(o.c == 2);
  REQUIRE(o.data == std::vector<int64_t>{60, 32});
  const LinebufMap m = linebuf_fc_input_as_map(in);
  REQUIRE(m.c == 2);
  CHECK(m.at(1, 0, 1) == 11);  // n = 10: channel 1, row 0, column 1
  CHECK(m.at(1, 2, 2) == 0);
  const LinebufMap oc = linebuf_layer(m, linebuf_fc_as_conv(fc, 11), Precision::Int8);
  CHECK(oc.data == o.data);
  CHECK(oc.h == 1);
}

TEST_CASE("linebuf refusals name the rule", "[linebuf]") {
  const LinebufLimits lim;
  const LinebufLayer c3 = conv(1, 0, false, std::vector<int64_t>(9, 0), {0});
  CHECK(linebuf_refusal(c3, 1, 2, 5, lim)->find("smaller than the 3x3 kernel") != std::string::npos);
  CHECK(!linebuf_refusal(c3, 1, 3, 64, lim));
  CHECK(linebuf_refusal(c3, 1, 3, 65, lim)->find("LineDepth") != std::string::npos);
  CHECK(linebuf_refusal(c3, 65, 3, 3, lim)->find("MaxC") != std::string::npos);
  LinebufLayer pooled = conv(1, 1, true, {}, {});
  CHECK(linebuf_refusal(pooled, 1, 1, 8, lim)->find("no complete window") != std::string::npos);
  CHECK(!linebuf_refusal(pooled, 1, 2, 2, lim));
  LinebufLayer leaky = c3;
  leaky.out.act = LinebufAct::Leaky;
  leaky.out.leaky_slope = 3;
  leaky.out.leaky_shift = 1;
  CHECK(linebuf_refusal(leaky, 1, 3, 3, lim)->find("above 2^leaky_shift") != std::string::npos);
  LinebufLayer once = conv(1, 1, false, {}, {});
  once.weights_once = true;
  CHECK(!linebuf_refusal(once, 1, 14, 14, lim));  // 16 x 16 padded
  CHECK(linebuf_refusal(once, 1, 15, 14, lim)->find("MapRows") != std::string::npos);
  CHECK(linebuf_refusal(once, 1, 14, 15, lim)->find("MapRows") != std::string::npos);
  LinebufLayer fc;
  fc.kind = LinebufKind::Fc;
  fc.outputs = 2;
  CHECK(!linebuf_refusal(fc, 64, 3, 3, lim));
  CHECK(linebuf_refusal(fc, 577, 1, 1, lim)->find("MaxC") != std::string::npos);
  const LinebufMap in{1, 3, 3, std::vector<int64_t>(9, 200)};
  CHECK_THROWS_WITH(linebuf_layer(in, c3, Precision::Int8), Catch::Contains("outside the 8-bit range"));
  CHECK_NOTHROW(linebuf_layer(in, c3, Precision::Int16));
}
