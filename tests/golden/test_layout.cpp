// layout.hpp against hand-worked addresses (the arithmetic is in the comments) plus round trips.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "golden/layout.hpp"

using namespace dla::golden;

TEST_CASE("nv_small 8x8x32 int8 packed feature layout", "[layout]") {
  const CubeShape shape{1, 32, 8, 8};
  const FeatureLayout l = FeatureLayout::packed(shape, 8, 1, 0x1000);
  CHECK(l.channels_per_atom() == 8);
  CHECK(l.surfaces(32) == 4);
  CHECK(l.line_stride == 0x40);      // 8 w x 8 B
  CHECK(l.surface_stride == 0x200);  // 8 lines x 0x40
  CHECK(l.batch_stride == 0x800);    // 4 surfaces x 0x200
  CHECK(l.region_bytes(shape) == 0x800);
  CHECK(l.validate(shape).empty());

  CHECK(l.address(0, 0, 0, 0) == 0x1000);
  CHECK(l.address(0, 1, 0, 1) == 0x1009);  // w 1 -> 8, c 1 -> 1
  CHECK(l.address(0, 8, 0, 0) == 0x1200);  // surface 1
  // (c 19, h 5, w 3): surface 2 -> 0x400, h 5 -> 0x140, w 3 -> 0x18, lane 3 -> 3: 0x155B
  CHECK(l.address(0, 19, 5, 3) == 0x155B);
  // last element (31, 7, 7): 0x600 + 0x1C0 + 0x38 + 7 = 0x7FF
  CHECK(l.address(0, 31, 7, 7) == 0x17FF);
}

TEST_CASE("surface counts round channels up to whole atoms", "[layout]") {
  const FeatureLayout small{0, 0, 0, 0, 8, 1};
  CHECK(small.surfaces(1) == 1);
  CHECK(small.surfaces(8) == 1);
  CHECK(small.surfaces(9) == 2);
  CHECK(small.surfaces(8192) == 1024);
  const FeatureLayout full8{0, 0, 0, 0, 32, 1};
  CHECK(full8.channels_per_atom() == 32);
  CHECK(full8.surfaces(33) == 2);
  const FeatureLayout full16{0, 0, 0, 0, 32, 2};
  CHECK(full16.channels_per_atom() == 16);
  CHECK(full16.surfaces(16) == 1);
  CHECK(full16.surfaces(17) == 2);
}

TEST_CASE("nv_full 32-byte atom int16: 16 channels per atom", "[layout]") {
  // W 5, H 3, C 20 -> 2 surfaces; line 5 x 32 = 0xA0, surface 3 x 0xA0 = 0x1E0, batch 2 x 0x1E0 = 0x3C0
  const CubeShape shape{1, 20, 3, 5};
  const FeatureLayout l = FeatureLayout::packed(shape, 32, 2);
  CHECK(l.channels_per_atom() == 16);
  CHECK(l.line_stride == 0xA0);
  CHECK(l.surface_stride == 0x1E0);
  CHECK(l.batch_stride == 0x3C0);
  CHECK(l.region_bytes(shape) == 0x3C0);  // last atom (lanes 16..31, 4 used) ends at 0x3C0
  CHECK(l.validate(shape).empty());
  CHECK(l.address(0, 15, 0, 0) == 0x1E);   // lane 15 x 2 B
  CHECK(l.address(0, 16, 0, 0) == 0x1E0);  // next surface
  // (c 17, h 2, w 4): 0x1E0 + 2 x 0xA0 + 4 x 0x20 + 1 x 2 = 0x1E0 + 0x140 + 0x80 + 2 = 0x3A2
  CHECK(l.address(0, 17, 2, 4) == 0x3A2);
  CHECK(l.address(0, 19, 2, 4) == 0x3A6);  // last element; its bytes are 0x3A6..0x3A7
}

TEST_CASE("gapped (strided) layout with two batches", "[layout]") {
  // nv_small int8, N 2, C 12 (2 surfaces), H 2, W 3 (a line is 0x18 B of atoms).
  const CubeShape shape{2, 12, 2, 3};
  const FeatureLayout l{0x2000, 0x20, 0x80, 0x200, 8, 1};
  CHECK(l.validate(shape).empty());
  CHECK(l.address(0, 0, 0, 0) == 0x2000);
  CHECK(l.address(0, 5, 1, 0) == 0x2025);  // h 1 -> 0x20, lane 5
  CHECK(l.address(0, 8, 0, 2) == 0x2090);  // surface 1 -> 0x80, w 2 -> 0x10
  CHECK(l.address(1, 0, 0, 0) == 0x2200);
  // (1, 11, 1, 2): 0x200 + 0x80 + 0x20 + 0x10 + 3 = 0x2B3
  CHECK(l.address(1, 11, 1, 2) == 0x22B3);
  // batch extent: 1 x 0x80 + 1 x 0x20 + 3 x 8 = 0xB8; region = 0x200 + 0xB8 (ends with lanes 12..15 padding)
  CHECK(l.region_bytes(shape) == 0x2B8);
  CHECK(l.region_bytes({1, 12, 2, 3}) == 0xB8);
  CHECK(l.region_bytes({1, 8, 1, 3}) == 0x18);  // one line of one surface: strides unused
}

TEST_CASE("validate reports bad strides and alignment", "[layout]") {
  const CubeShape shape{2, 12, 2, 3};
  const FeatureLayout good{0x2000, 0x20, 0x80, 0x200, 8, 1};
  REQUIRE(good.validate(shape).empty());

  auto with = [&](auto change) {
    FeatureLayout l = good;
    change(l);
    return l.validate(shape);
  };
  CHECK_THAT(with([](FeatureLayout& l) { l.line_stride = 0x10; }), Catch::Contains("line_stride"));  // < 3 x 8
  CHECK(with([](FeatureLayout& l) { l.line_stride = 0x18; l.surface_stride = 0x30; }).empty());  // packed lines
  CHECK_THAT(with([](FeatureLayout& l) { l.line_stride = 0x1C; }), Catch::Contains("line_stride"));  // unaligned
  CHECK_THAT(with([](FeatureLayout& l) { l.surface_stride = 0x38; }), Catch::Contains("surface_stride"));  // < 2 x 0x20
  CHECK_THAT(with([](FeatureLayout& l) { l.surface_stride = 0x44; }), Catch::Contains("surface_stride"));  // unaligned
  CHECK_THAT(with([](FeatureLayout& l) { l.batch_stride = 0xB0; }), Catch::Contains("batch_stride"));  // < extent 0xB8
  CHECK(with([](FeatureLayout& l) { l.batch_stride = 0xB8; }).empty());  // batches abut exactly
  CHECK_THAT(with([](FeatureLayout& l) { l.base = 0x2004; }), Catch::Contains("base"));
  CHECK_FALSE(with([](FeatureLayout& l) { l.bpe = 3; }).empty());
  CHECK_FALSE(with([](FeatureLayout& l) { l.bpe = 0; }).empty());
  CHECK_FALSE(good.validate({1, 0, 2, 3}).empty());

  // Strides that no index multiplies are not checked (trace tests program arbitrary values there).
  const FeatureLayout unused{0x100, 0, 0, 0, 8, 1};
  CHECK(unused.validate({1, 8, 1, 4}).empty());
  CHECK_FALSE(unused.validate({1, 8, 2, 4}).empty());  // now the line stride matters

  // Packed layouts are always valid.
  for (const CubeShape& s : {CubeShape{1, 1, 1, 1}, CubeShape{3, 17, 5, 7}, CubeShape{2, 64, 1, 1}})
    for (int bpe : {1, 2}) {
      INFO("n=" << s.n << " c=" << s.c << " h=" << s.h << " w=" << s.w << " bpe=" << bpe);
      CHECK(FeatureLayout::packed(s, 8, bpe, 0x40).validate(s).empty());
      CHECK(FeatureLayout::packed(s, 32, bpe, 0x40).validate(s).empty());
    }
}

TEST_CASE("1x1xC cube: surface stride is one atom", "[layout]") {
  const CubeShape shape{1, 20, 1, 1};
  const FeatureLayout l = FeatureLayout::packed(shape, 8, 1);
  CHECK(l.surface_stride == 8);
  CHECK(l.region_bytes(shape) == 24);  // 3 atoms, last one with lanes 20..23 padding
  CHECK(l.address(0, 19, 0, 0) == 19);
}

TEST_CASE("store_cube writes little-endian truncated bytes, no padding lanes", "[layout]") {
  SECTION("int8, hand-placed bytes") {
    const CubeShape shape{1, 12, 1, 2};  // 2 surfaces, line 0x10, surface 0x10
    const FeatureLayout l = FeatureLayout::packed(shape, 8, 1, 0x100);
    Cube<int64_t> cube(shape, 0);
    cube.at(0, 0, 0, 0) = -2;     // -> 0xFE at 0x100
    cube.at(0, 9, 0, 1) = 0x1FF;  // truncated to 0xFF at 0x100 + 0x10 + 8 + 1 = 0x119
    cube.at(0, 3, 0, 1) = 127;    // 0x7F at 0x10B
    std::map<uint64_t, uint8_t> mem;
    store_cube(l, cube, [&](uint64_t a, uint8_t b) {
      CHECK(mem.count(a) == 0);  // every byte written once
      mem[a] = b;
    });
    CHECK(mem.size() == 24);
    CHECK(mem.at(0x100) == 0xFE);
    CHECK(mem.at(0x119) == 0xFF);
    CHECK(mem.at(0x10B) == 0x7F);
    // lanes 12..15 of surface 1 (0x114..0x117 and 0x11C..0x11F) are padding
    for (uint64_t a : {0x114, 0x117, 0x11C, 0x11F}) CHECK(mem.count(a) == 0);

    const std::vector<uint8_t> bytes = store_cube_bytes(l, cube, 0xAA);
    REQUIRE(bytes.size() == 0x20);
    CHECK(bytes[0x00] == 0xFE);
    CHECK(bytes[0x19] == 0xFF);
    CHECK(bytes[0x14] == 0xAA);
    CHECK(bytes[0x1F] == 0xAA);
    CHECK(bytes[0x01] == 0x00);

    const Cube<int64_t> back = load_cube_bytes(l, shape, bytes);
    CHECK(back.at(0, 0, 0, 0) == -2);
    CHECK(back.at(0, 9, 0, 1) == -1);  // 0xFF sign-extends
    CHECK(back.at(0, 3, 0, 1) == 127);
  }
  SECTION("int16, little endian") {
    const CubeShape shape{1, 3, 1, 1};
    const FeatureLayout l = FeatureLayout::packed(shape, 32, 2);
    Cube<int64_t> cube(shape, 0);
    cube.at(0, 0, 0, 0) = 0x1234;   // 34 12 at 0, 1
    cube.at(0, 1, 0, 0) = -1;       // FF FF at 2, 3
    cube.at(0, 2, 0, 0) = 0x18000;  // truncated: 00 80 at 4, 5 -> reads back as -32768
    const std::vector<uint8_t> bytes = store_cube_bytes(l, cube);
    REQUIRE(bytes.size() == 32);
    CHECK(bytes[0] == 0x34);
    CHECK(bytes[1] == 0x12);
    CHECK(bytes[2] == 0xFF);
    CHECK(bytes[3] == 0xFF);
    CHECK(bytes[4] == 0x00);
    CHECK(bytes[5] == 0x80);
    const Cube<int64_t> back = load_cube_bytes(l, shape, bytes);
    CHECK(back.at(0, 0, 0, 0) == 0x1234);
    CHECK(back.at(0, 1, 0, 0) == -1);
    CHECK(back.at(0, 2, 0, 0) == -32768);
  }
}

TEST_CASE("store/load round trip through a gapped layout", "[layout]") {
  for (int bpe : {1, 2}) {
    const CubeShape shape{2, 21, 3, 4};
    const FeatureLayout l{0x8000, 0x40, 0x100, 0x600, 8, bpe};  // int16 extent 5 x 0x100 + 2 x 0x40 + 0x20 = 0x5A0
    REQUIRE(l.validate(shape).empty());
    Cube<int64_t> cube(shape);
    const int64_t lo = bpe == 1 ? -128 : -32768;
    const int64_t span = bpe == 1 ? 256 : 65536;
    for (std::size_t i = 0; i < cube.size(); ++i)
      cube[i] = lo + static_cast<int64_t>((i * 2654435761u) % static_cast<std::size_t>(span));
    cube[0] = lo;  // include both extremes
    cube[1] = lo + span - 1;

    std::map<uint64_t, uint8_t> mem;
    store_cube(l, cube, [&](uint64_t a, uint8_t b) { mem[a] = b; });
    CHECK(mem.size() == cube.size() * static_cast<std::size_t>(bpe));  // distinct addresses
    CHECK(mem.begin()->first == 0x8000);
    CHECK(mem.rbegin()->first < 0x8000 + l.region_bytes(shape));
    const Cube<int64_t> via_reader = load_cube(l, shape, [&](uint64_t a) { return mem.at(a); });
    CHECK(via_reader.data() == cube.data());

    const std::vector<uint8_t> bytes = store_cube_bytes(l, cube);
    CHECK(load_cube_bytes(l, shape, bytes).data() == cube.data());
    const std::vector<uint8_t> short_region(bytes.begin(), bytes.end() - 1);
    CHECK_THROWS_AS(load_cube_bytes(l, shape, short_region), std::out_of_range);
  }
}

TEST_CASE("direct-conv weight offsets, K10 C12 R2 S3, atomic 8/8", "[layout]") {
  // Groups: g0 = kernels 0..7 (kpg 8), g1 = kernels 8..9 (kpg 2).
  // Blocks: b0 = channels 0..7 (cpb 8), b1 = channels 8..11 (cpb 4).
  // Group stride 8 x 6 x 12 = 576. In g0: b0 = 8 x 6 x 8 = 384 B, b1 = 4 x 6 x 8 = 192 B.
  // In g1: b0 = 8 x 6 x 2 = 96 B, b1 = 4 x 6 x 2 = 48 B. Total 576 + 144 = 720.
  const WeightLayout w{10, 12, 2, 3, 8, 8, 1};
  CHECK(w.validate().empty());
  CHECK(w.total_bytes() == 720);
  CHECK(w.padded_bytes() == 768);  // 6 x 128

  // g0 b0: offset = (r x 3 + s) x 64 + k x 8 + c
  CHECK(w.offset(0, 0, 0, 0) == 0);
  CHECK(w.offset(0, 1, 0, 0) == 1);
  CHECK(w.offset(1, 0, 0, 0) == 8);
  CHECK(w.offset(0, 0, 0, 1) == 64);
  CHECK(w.offset(0, 0, 1, 0) == 192);
  CHECK(w.offset(7, 7, 1, 2) == 383);  // 5 x 64 + 56 + 7, last byte of b0
  // g0 b1 (partial, packed): 384 + (r x 3 + s) x 32 + k x 4 + (c - 8)
  CHECK(w.offset(0, 8, 0, 0) == 384);
  CHECK(w.offset(0, 9, 0, 0) == 385);
  CHECK(w.offset(1, 8, 0, 0) == 388);
  CHECK(w.offset(0, 8, 0, 1) == 416);
  CHECK(w.offset(7, 11, 1, 2) == 575);  // 384 + 160 + 28 + 3, last byte of g0
  // g1 b0 (partial group): 576 + (r x 3 + s) x 16 + (k - 8) x 8 + c
  CHECK(w.offset(8, 0, 0, 0) == 576);
  CHECK(w.offset(9, 0, 0, 0) == 584);
  CHECK(w.offset(8, 0, 0, 1) == 592);
  CHECK(w.offset(9, 5, 1, 1) == 653);  // 576 + 4 x 16 + 8 + 5
  // g1 b1 (partial group, partial block): 672 + (r x 3 + s) x 8 + (k - 8) x 4 + (c - 8)
  CHECK(w.offset(8, 8, 0, 0) == 672);
  CHECK(w.offset(9, 10, 0, 2) == 694);  // 672 + 16 + 4 + 2
  CHECK(w.offset(9, 11, 1, 2) == 719);  // 672 + 40 + 4 + 3, last byte

  // int16: every offset doubles; 1440 B -> 1536 (12 x 128).
  const WeightLayout w16{10, 12, 2, 3, 8, 8, 2};
  CHECK(w16.total_bytes() == 1440);
  CHECK(w16.padded_bytes() == 0x600);
  CHECK(w16.offset(9, 5, 1, 1) == 1306);
  CHECK(w16.offset(9, 11, 1, 2) == 1438);
}

TEST_CASE("weight offsets cover 0 up to total exactly once", "[layout]") {
  for (const WeightLayout& w : {WeightLayout{10, 12, 2, 3, 8, 8, 1}, WeightLayout{41, 14, 3, 5, 8, 8, 1},
                                WeightLayout{5, 70, 1, 2, 16, 64, 2}, WeightLayout{1, 1, 1, 1, 8, 8, 1}}) {
    INFO("K=" << w.k << " C=" << w.c << " R=" << w.r << " S=" << w.s << " bpe=" << w.bpe);
    std::set<uint64_t> seen;
    for (int k = 0; k < w.k; ++k)
      for (int c = 0; c < w.c; ++c)
        for (int r = 0; r < w.r; ++r)
          for (int s = 0; s < w.s; ++s) {
            const uint64_t off = w.offset(k, c, r, s);
            CHECK(off % static_cast<uint64_t>(w.bpe) == 0);
            seen.insert(off);
          }
    CHECK(seen.size() * static_cast<uint64_t>(w.bpe) == w.total_bytes());
    CHECK(*seen.rbegin() + static_cast<uint64_t>(w.bpe) == w.total_bytes());
  }
}

TEST_CASE("WEIGHT_BYTES rounds up to 128", "[layout]") {
  CHECK(WeightLayout{1, 8, 1, 1, 8, 8, 1}.padded_bytes() == 0x80);          // 8 -> 0x80
  CHECK(WeightLayout{25, 55, 5, 5, 8, 8, 1}.total_bytes() == 34375);        // 5 x 5 x 55 x 25
  CHECK(WeightLayout{25, 55, 5, 5, 8, 8, 1}.padded_bytes() == 0x8680);      // 269 x 128 = 34432
  CHECK(WeightLayout{32, 192, 3, 3, 8, 8, 1}.padded_bytes() == 0xD800);     // 55296, already aligned
  CHECK(WeightLayout{1, 128, 1, 1, 8, 8, 1}.padded_bytes() == 128);
  CHECK(WeightLayout{1, 129, 1, 1, 8, 8, 1}.padded_bytes() == 256);
  CHECK_FALSE(WeightLayout{0, 8, 1, 1, 8, 8, 1}.validate().empty());
  CHECK_FALSE(WeightLayout{1, 8, 1, 1, 0, 8, 1}.validate().empty());
}

TEST_CASE("store_weights places each weight at base + offset", "[layout]") {
  const WeightLayout w{10, 12, 2, 3, 8, 8, 1};
  Cube<int64_t> weights({10, 12, 2, 3});
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<int64_t>(i % 251) - 125;
  weights.at(9, 5, 1, 1) = -7;  // -> 0xF9 at base + 653
  weights.at(0, 8, 0, 1) = 99;  // -> 0x63 at base + 416
  std::map<uint64_t, uint8_t> mem;
  store_weights(w, weights, 0x4000, [&](uint64_t a, uint8_t b) { mem[a] = b; });
  CHECK(mem.size() == 720);
  CHECK(mem.begin()->first == 0x4000);
  CHECK(mem.rbegin()->first == 0x4000 + 719);
  CHECK(mem.at(0x4000 + 653) == 0xF9);
  CHECK(mem.at(0x4000 + 416) == 0x63);
  CHECK_THROWS_AS(store_weights(w, Cube<int64_t>({10, 12, 3, 2}), 0, [](uint64_t, uint8_t) {}), std::invalid_argument);
}
