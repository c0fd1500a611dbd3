// W-fold (golden/conv_wfold.hpp, docs/WFOLD.md): the folded cube and the folded weights of tiny
// layers against rows worked out by hand here, the "auto" rule and the refusals on hand cases, and
// a folded run against the same layer run unfolded (the direct path does not use the fold code).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wfold.hpp"
#include "golden/layout.hpp"

using namespace dla::golden;

namespace {

const HwConfig& full() { return *find_config("nv_full"); }

// W 5, C 3, S 3, X stride 2, pad left 1 right 1, ws 4 on nv_full (ATOMIC_C 64: pci 16, G 1, S' 1):
// OW = (5 + 2 - 3) / 2 + 1 = 3, Wf = 3, C' = 64. Input X[c][h][x] = 40c + 10h + x, pad value -5.
ConvParams tiny() {
  ConvParams p;
  p.w = 5;
  p.h = 2;
  p.c = 3;
  p.k = 2;
  p.r = 1;
  p.s = 3;
  p.stride_x = 2;
  p.pad_left = 1;
  p.pad_right = 1;
  p.pad_value = -5;
  p.wfold_ws = 4;
  return p;
}

}  // namespace

TEST_CASE("the fold of a tiny layer gives the rows worked out by hand", "[golden][conv][wfold]") {
  const ConvParams p = tiny();
  const ConvConfig cfg = conv_config_from(p, full(), 0, 0);
  REQUIRE(cfg.unsupported().empty());
  const WfoldGeometry g = wfold_geometry(cfg);
  CHECK(g.pci == 16);
  CHECK(g.groups == 1);
  CHECK(g.s_fold == 1);
  CHECK(g.w_fold == 3);
  CHECK(g.c_fold == 64);
  Cube<int64_t> in(CubeShape{1, 3, 2, 5});
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 2; ++h)
      for (int x = 0; x < 5; ++x) in.at(0, c, h, x) = 40 * c + 10 * h + x;
  const Cube<int64_t> f = wfold_fold(cfg, in);
  REQUIRE(f.shape() == CubeShape{1, 64, 2, 3});
  // Row (h, wf = ow): slot j holds kernel column s = j, input column x = 2 ow - 1 + j; slots
  // j = 3 (s >= S) and channels cc >= 3 are 0; x = -1 and x = 5 are the pad value -5.
  const int64_t P = -5;
  const std::vector<std::vector<int64_t>> want_h1 = {
      // ow 0: x = -1, 0, 1           ow 1: x = 1, 2, 3             ow 2: x = 3, 4, 5
      {P, P, P, 10, 50, 90, 11, 51, 91}, {11, 51, 91, 12, 52, 92, 13, 53, 93}, {13, 53, 93, 14, 54, 94, P, P, P}};
  for (int ow = 0; ow < 3; ++ow) {
    for (int ch = 0; ch < 64; ++ch) {
      const int j = ch / 16, cc = ch % 16;
      const int64_t want = j < 3 && cc < 3 ? want_h1[ow][j * 3 + cc] : 0;
      INFO("ow " << ow << " channel " << ch);
      CHECK(f.at(0, ch, 1, ow) == want);
      // Line 0 is line 1 minus 10 except for the pad value and the zeros.
      CHECK(f.at(0, ch, 0, ow) == (want == P || want == 0 ? want : want - 10));
    }
  }
}

TEST_CASE("the folded weights of a tiny layer are the ones worked out by hand", "[golden][conv][wfold]") {
  // S 5 at ws 4 (S' 2), C 3, R 1, K 1: W'[t][j * 16 + cc] = W[t * 4 + j][cc] for t * 4 + j < 5, cc < 3.
  ConvParams p = tiny();
  p.s = 5;
  p.w = 9;
  p.k = 1;
  const ConvConfig cfg = conv_config_from(p, full(), 0, 0);
  Cube<int64_t> w(CubeShape{1, 3, 1, 5});
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < 5; ++s) w.at(0, c, 0, s) = 10 * s + c + 1;
  const Cube<int64_t> f = wfold_weights(cfg, w);
  REQUIRE(f.shape() == CubeShape{1, 64, 1, 2});
  for (int t = 0; t < 2; ++t) {
    for (int ch = 0; ch < 64; ++ch) {
      const int j = ch / 16, cc = ch % 16, s = t * 4 + j;
      INFO("t " << t << " channel " << ch);
      CHECK(f.at(0, ch, 0, t) == (s < 5 && cc < 3 ? 10 * s + cc + 1 : 0));
    }
  }
  CHECK(f.at(0, 16 * 1 + 2, 0, 0) == 13);  // s 1, c 2
  CHECK(f.at(0, 0, 0, 1) == 41);           // t 1, j 0: s 4, c 0
  CHECK(f.at(0, 16, 0, 1) == 0);           // s 5 >= S
  // The folded weights are stored as K x R x S' x C' (BYTE_PER_KERNEL R * S' * C' * bpe).
  CHECK(cfg.weight_layout().s == 2);
  CHECK(cfg.weight_layout().c == 64);
  CHECK(conv_derived(cfg, full()).byte_per_kernel == 1u * 2u * 64u);
}

TEST_CASE("wfold auto and the refusals on hand cases", "[golden][conv][wfold]") {
  ConvParams p;
  auto ws_for = [&](int c, int s, Precision prec = Precision::Int8) {
    p.c = c;
    p.s = s;
    p.precision = prec;
    return wfold_auto_ws(p, full());
  };
  CHECK(ws_for(3, 7) == 8);    // ws 8: G 1 x S' 1 = 1 (ws 4: 1 x 2; unfolded 7)
  CHECK(ws_for(1, 3) == 4);    // ws 4, 8, 16 all cost 1: the larger pci (ws 4)
  CHECK(ws_for(40, 3) == 0);   // ws 4: 3 x 1 = 3, not fewer than unfolded 1 x 3
  CHECK(ws_for(64, 1) == 0);   // unfolded 1
  CHECK(ws_for(20, 3) == 2);   // ws 2: 1 x 2 = 2 ties ws 4's 2 x 1: the larger pci (ws 2)
  CHECK(ws_for(3, 3, Precision::Int16) == 4);  // int16: ws 2 (32 x 2 bytes) is refused
  CHECK(ws_for(3, 40) == 16);  // ws 16: 1 x 3 against ws 8's 1 x 5 (ws 2 and 4: S' > 8, refused)
  CHECK(wfold_auto_ws(p, *find_config("nv_small")) == 0);
  p.c = 3;
  p.s = 17;
  p.precision = Precision::Int8;
  CHECK_THAT(wfold_ws_refusal(p, full(), 2), Catch::Contains("= 9 folded kernel columns exceed 8"));
  CHECK(wfold_ws_refusal(p, full(), 4).empty());
  CHECK_THAT(wfold_ws_refusal(p, full(), 32), Catch::Contains("power of two 2..16"));
  p.precision = Precision::Int16;
  CHECK_THAT(wfold_ws_refusal(p, full(), 2), Catch::Contains("wider than the 32-byte memory atom"));
  // A config in fold mode: Winograd refused, the configuration rule from run_conv.
  ConvConfig cfg = conv_config_from(tiny(), full(), 0, 0);
  cfg.mode = ConvMode::Winograd;
  CHECK_FALSE(wfold_unsupported(cfg).empty());
  CHECK_THAT(wfold_hw_refusal(*find_config("nv_small")), Catch::Contains("nv_small has none"));
}

TEST_CASE("a folded run equals the same layer run unfolded", "[golden][conv][wfold]") {
  std::mt19937 rng(5);
  struct Case {
    int w, c, s, sx, dx, pl, pr, ws;
    Precision prec;
  };
  const Case cases[] = {{11, 3, 3, 2, 1, 1, 1, 4, Precision::Int8},  {17, 5, 7, 3, 1, 3, 2, 8, Precision::Int8},
                        {13, 20, 3, 1, 2, 2, 0, 8, Precision::Int8}, {9, 2, 9, 1, 1, 0, 0, 2, Precision::Int8},
                        {14, 7, 4, 4, 1, 2, 1, 16, Precision::Int16}, {12, 9, 3, 1, 3, 3, 1, 4, Precision::Int16}};
  for (const Case& k : cases) {
    ConvParams p;
    p.w = k.w;
    p.h = 4;
    p.c = k.c;
    p.k = 5;
    p.r = 2;
    p.s = k.s;
    p.stride_x = k.sx;
    p.dilation_x = k.dx;
    p.pad_left = k.pl;
    p.pad_right = k.pr;
    p.pad_top = 1;
    p.pad_value = -3;
    p.precision = k.prec;
    p.cvt = {true, 3, 5, 2};
    INFO("w " << k.w << " c " << k.c << " s " << k.s << " sx " << k.sx << " ws " << k.ws);
    const HwConfig& hw = full();
    const ConvConfig direct = conv_config_from(p, hw, 0x1000, 0x100000);
    p.wfold_ws = k.ws;
    const ConvConfig folded = conv_config_from(p, hw, 0x1000, 0x200000);
    REQUIRE(folded.unsupported().empty());
    std::unordered_map<uint64_t, uint8_t> mem;
    auto wr = [&](uint64_t a, uint8_t v) { mem[a] = v; };
    const int lim = k.prec == Precision::Int16 ? 3000 : 100;
    std::uniform_int_distribution<int> d(-lim, lim);
    Cube<int64_t> in(direct.input);
    for (auto& v : in.data()) v = d(rng);
    const std::vector<uint8_t> img = store_cube_bytes(direct.in_layout, in, 0);
    for (std::size_t i = 0; i < img.size(); ++i) mem[direct.in_layout.base + i] = img[i];
    Cube<int64_t> w(CubeShape{p.k, p.c, p.r, p.s});
    for (auto& v : w.data()) v = d(rng);
    store_weights(direct.weight_layout(), w, direct.weight_base, wr);
    store_weights(folded.weight_layout(), wfold_weights(folded, w), folded.weight_base, wr);
    const ByteReader rd = [&](uint64_t a) -> uint8_t {
      const auto it = mem.find(a);
      return it == mem.end() ? uint8_t{0} : it->second;
    };
    const ConvRun a = run_conv(direct, hw, rd);
    const ConvRun b = run_conv(folded, hw, rd);
    CHECK(a.cacc.data() == b.cacc.data());
    CHECK(a.stats.out_saturation == b.stats.out_saturation);
  }
}
