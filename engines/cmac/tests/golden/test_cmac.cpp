// CMAC atomic-operation model against hand-worked dot products.
#include <catch2/catch.hpp>

#include "engines/cmac/golden/cmac.hpp"

using namespace dla::golden;

TEST_CASE("configuration geometry", "[cmac]") {
  CHECK(nv_small().atomic_k(Precision::Int8) == 8);
  CHECK(nv_full().atomic_k(Precision::Int8) == 32);   // two int8 kernels per int16 MAC cell
  CHECK(nv_full().atomic_k(Precision::Int16) == 16);
  CHECK(nv_small().psum_bits(Precision::Int8) == 19);  // 2*8 + log2(8)
  CHECK(nv_full().psum_bits(Precision::Int8) == 22);   // 2*8 + log2(64)
  CHECK(nv_full().psum_bits(Precision::Int16) == 38);  // 2*16 + log2(64)
  CHECK_FALSE(nv_small().supports(Precision::Int16));
}

TEST_CASE("nv_small int8 atomic operations, hand-worked", "[cmac]") {
  const CmacWeights w = {{1, 1, 1, 1, 1, 1, 1, 1}, {-1, 2, -3, 4, -5, 6, -7, 8}};
  // 1+2+...+8 = 36; -1+4-9+16-25+36-49+64 = 36
  auto p = cmac_atomic_op(nv_small(), Precision::Int8, w, {1, 2, 3, 4, 5, 6, 7, 8});
  REQUIRE(p.size() == 8);
  CHECK(p[0] == 36);
  CHECK(p[1] == 36);
  for (int k = 2; k < 8; ++k) CHECK(p[k] == 0);  // kernels without weights give 0
  // all -128: 8 * -128 = -1024; -128 * (-1+2-3+4-5+6-7+8 = 4) = -512
  p = cmac_atomic_op(nv_small(), Precision::Int8, w, std::vector<int32_t>(8, -128));
  CHECK(p[0] == -1024);
  CHECK(p[1] == -512);
  // -128*127 + -128*2 = -16256 - 256 = -16512
  p = cmac_atomic_op(nv_small(), Precision::Int8, {{-128, 0, 0, 0, 0, 0, 0, -128}}, {127, -1, 0, 0, 0, 0, 0, 2});
  CHECK(p[0] == -16512);
  // The widest int8 sum: 8 * (-128 * -128) = 131072 < 2^18, inside the 19-bit width.
  p = cmac_atomic_op(nv_small(), Precision::Int8, CmacWeights(8, std::vector<int32_t>(8, -128)),
                     std::vector<int32_t>(8, -128));
  for (int k = 0; k < 8; ++k) CHECK(p[k] == 131072);
}

TEST_CASE("nv_full extremes", "[cmac]") {
  // int16: 64 * (-32768)^2 = 64 * 2^30 = 2^36 = 68719476736
  auto p = cmac_atomic_op(nv_full(), Precision::Int16, CmacWeights(16, std::vector<int32_t>(64, -32768)),
                          std::vector<int32_t>(64, -32768));
  REQUIRE(p.size() == 16);
  CHECK(p[15] == 68719476736LL);
  // int8: 64 * (127 * -128) = -1040384
  p = cmac_atomic_op(nv_full(), Precision::Int8, CmacWeights(32, std::vector<int32_t>(64, 127)),
                     std::vector<int32_t>(64, -128));
  REQUIRE(p.size() == 32);
  CHECK(p[31] == -1040384);
}

TEST_CASE("stream model tags and shape errors", "[cmac]") {
  CmacStripe a{{{1, 0, 0, 0, 0, 0, 0, 0}}, {{3, 0, 0, 0, 0, 0, 0, 0}, {-4, 0, 0, 0, 0, 0, 0, 0}}, true};
  CmacStripe b{{{0, 2, 0, 0, 0, 0, 0, 0}}, {{0, 5, 0, 0, 0, 0, 0, 0}}, false};
  const auto beats = cmac_run(nv_small(), Precision::Int8, {a, b});
  REQUIRE(beats.size() == 3);
  CHECK(beats[0].psum[0] == 3);
  CHECK_FALSE(beats[0].stripe_end);
  CHECK(beats[0].channel_end);
  CHECK(beats[1].psum[0] == -4);
  CHECK(beats[1].stripe_end);
  CHECK(beats[2].psum[0] == 10);
  CHECK(beats[2].stripe_end);
  CHECK_FALSE(beats[2].channel_end);
  CHECK_THROWS_AS(cmac_atomic_op(nv_small(), Precision::Int8, {}, {1, 2, 3}), std::invalid_argument);
  CHECK_THROWS_AS(cmac_atomic_op(nv_small(), Precision::Int8, CmacWeights(9, std::vector<int32_t>(8, 0)),
                                 std::vector<int32_t>(8, 0)),
                  std::invalid_argument);
}
