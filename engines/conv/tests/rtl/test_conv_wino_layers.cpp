// Winograd `conv` layers ("mode": "winograd", nv_full) judged by the same independent reference as
// the direct ones (conv_reference.hpp: plain int64 loops of the direct convolution, CACC's clip and
// the SDP post-ops; a Winograd layer computes the same convolution): every bundled full_wino_ layer
// and >= 24 random layers built here as JSON text, compiled by the `conv` layer compiler, on the
// golden device ([conv][wino]) and on the RTL in cross mode under three of the ten stress legs
// each, rotating ([rtl][conv][wino]; every leg for every layer in the "[.long]" case). Also: the Winograd register program by hand-derived
// values, the bundled layers' coverage and strength, a changed weight byte is caught, malformed
// Winograd layers are refused naming file, JSON pointer and rule, and the bench's direct /
// Winograd comparison (golden side; cycles on the RTL).
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "conv_reference.hpp"
#include "engines/conv/harness/conv_bench.hpp"

using namespace conv_ref;  // NOLINT(google-build-using-namespace)

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// ---- random layers, as JSON text -------------------------------------------------------------------

struct RandomLayer {
  std::string name, text;
  bool stride2 = false, int8 = false, int8_values = false;
  int c = 0, k = 0;
};

// Spread of a uniform integer range [-a, a] (its standard deviation).
double spread(int a) { return a / std::sqrt(3.0); }

// >= 24 random Winograd layers as NVDLA runs them (docs/WINOGRAD.md): 3x3 at stride 1, 5x5 or 6x6 at
// stride 2 (strides 1x1, 2x2, 2x1, 1x2); W', H' multiples of 4 in 8..16; C 1..80 (non-multiples of
// 4, above 64); K 1..40 (above one kernel group); random pads within the kernel; random pad value;
// clip; exact scheme at PRA_TRUNCATE 0; int16 with values small enough for the exact scheme
// (|d| <= 8191, |g| <= 3640), int16 with int8-range values, and int8 (|d| <= 31, |g| <= 14: the
// int8 PRA never clamps and 4U fits int8).
std::vector<RandomLayer> random_layers() {
  std::mt19937 rng(20240604);
  auto u = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  const int strides[4][2] = {{1, 1}, {2, 2}, {2, 1}, {1, 2}};
  std::vector<RandomLayer> out;
  for (int i = 0; i < 28; ++i) {
    RandomLayer L;
    const int sx = strides[i % 4][0], sy = strides[i % 4][1];
    const int ow = 4 * u(2, 4), oh = 4 * u(2, 4);
    const int ks = sx == 1 ? 3 : u(5, 6), kr = sy == 1 ? 3 : u(5, 6);
    const int pl = u(0, (ks - 1) / 2), pr = u(0, (ks - 1) / 2), pt = u(0, (kr - 1) / 2), pb = u(0, (kr - 1) / 2);
    // The smallest input giving that output, plus (at stride 2) maybe one column / row no output uses.
    const int w = (ow - 1) * sx + ks - pl - pr + (sx == 2 ? u(0, 1) : 0);
    const int h = (oh - 1) * sy + kr - pt - pb + (sy == 2 ? u(0, 1) : 0);
    L.c = i % 6 == 0 ? u(65, 80) : i % 6 == 1 ? u(1, 3) : u(1, 64);
    L.k = i % 5 == 0 ? u(33, 40) : i % 5 == 1 ? u(17, 32) : u(1, 16);
    int dmax = 8191, wmax = 3640;
    std::string prec = "int16";
    switch (i % 7) {
      case 2: case 5: dmax = 127; wmax = 127; L.int8_values = true; break;  // int8 values at int16
      case 3: prec = "int8"; dmax = 31; wmax = 14; L.int8 = true; break;
      default: break;
    }
    const int target = L.int8 ? 40 : 4000;  // output spread after the clip
    const double taps = double(kr) * ks * L.c / (sx * sy) * 0.8;
    const double sd = std::sqrt(taps) * spread(dmax) * spread(wmax);
    const int clip = std::clamp(static_cast<int>(std::lround(std::log2(std::max(1.0, sd / target)))), 0, 14);
    const int pad_value = u(-dmax, dmax);
    L.stride2 = sx == 2 || sy == 2;
    L.name = "wino_random_" + std::to_string(i);
    L.text = "{\"unit\":\"conv\",\"config\":\"nv_full\",\"mode\":\"winograd\",\"seed\":" + std::to_string(1000 + i) +
             ",\"precision\":\"" + prec + "\",\"input\":{\"w\":" + std::to_string(w) + ",\"h\":" + std::to_string(h) +
             ",\"c\":" + std::to_string(L.c) + ",\"data\":{\"random\":{\"min\":" + std::to_string(-dmax) +
             ",\"max\":" + std::to_string(dmax) + "}}},\"weights\":{\"k\":" + std::to_string(L.k) +
             ",\"r\":" + std::to_string(kr) + ",\"s\":" + std::to_string(ks) +
             ",\"data\":{\"random\":{\"min\":" + std::to_string(-wmax) + ",\"max\":" +
             std::to_string(wmax) + "}}},\"padding\":{\"left\":" + std::to_string(pl) + ",\"right\":" +
             std::to_string(pr) + ",\"top\":" + std::to_string(pt) + ",\"bottom\":" + std::to_string(pb) +
             ",\"value\":" + std::to_string(pad_value) + "},\"stride\":{\"x\":" + std::to_string(sx) +
             ",\"y\":" + std::to_string(sy) + "},\"clip\":" + std::to_string(clip) + "}";
    out.push_back(std::move(L));
  }
  return out;
}

// Writes the layers as files (one folder per test case, so parallel cases never share a file) and
// returns their paths: the layer compiler and the reference both read them like bundled layers.
std::vector<fs::path> write_layers(const std::vector<RandomLayer>& layers, const std::string& folder) {
  const fs::path dir = fs::path(DLA_BINARY_DIR) / "test_tmp" / "conv_wino" / folder;
  fs::create_directories(dir);
  std::vector<fs::path> files;
  for (const RandomLayer& L : layers) {
    files.push_back(dir / (L.name + ".json"));
    std::ofstream(files.back()) << L.text << "\n";
  }
  return files;
}

std::vector<fs::path> random_files(const std::string& folder, std::size_t first = 0, std::size_t count = SIZE_MAX) {
  const std::vector<RandomLayer> all = random_layers();
  const auto b = all.begin() + static_cast<std::ptrdiff_t>(std::min(first, all.size()));
  const auto e = all.begin() + static_cast<std::ptrdiff_t>(std::min(first + std::min(count, all.size()), all.size()));
  return write_layers(std::vector<RandomLayer>(b, e), folder);
}

}  // namespace

TEST_CASE("every bundled winograd conv layer equals the int64 reference on the golden model", "[conv][wino]") {
  const auto files = layer_files("", Mode::Winograd);
  REQUIRE(files.size() >= 7);
  for (const auto& f : files) {
    INFO(f.filename().string());
    CHECK(f.filename().string().rfind("full_wino_", 0) == 0);
    const LoadedLayer l = load_layer(f);
    check_layer(f, l.header.seed, nullptr);
  }
}

TEST_CASE("random winograd layers equal the int64 reference on the golden model", "[conv][wino]") {
  const std::vector<RandomLayer> layers = random_layers();
  REQUIRE(layers.size() >= 24);
  int stride2 = 0, int8 = 0, int8_values = 0, c_big = 0, c_odd = 0, k_big = 0;
  for (const RandomLayer& L : layers) {
    stride2 += L.stride2;
    int8 += L.int8;
    int8_values += L.int8_values;
    c_big += L.c > 64;
    c_odd += L.c % 4 != 0;
    k_big += L.k > 16;
  }
  CHECK(stride2 >= 12);
  CHECK(int8 >= 3);
  CHECK(int8_values >= 6);
  CHECK(c_big >= 3);
  CHECK(c_odd >= 8);
  CHECK(k_big >= 8);
  const auto files = random_files("golden");
  for (std::size_t i = 0; i < files.size(); ++i) {
    INFO(layers[i].text);
    check_layer(files[i], 1000 + i, nullptr);
  }
}

TEST_CASE("every bundled winograd conv layer equals the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wino]") {
  const auto files = layer_files("", Mode::Winograd);
  REQUIRE(files.size() >= 7);
  run_rtl(files);
}

TEST_CASE("random winograd layers 0-6 equal the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wino]") {
  run_rtl(random_files("rtl_0", 0, 7));
}

TEST_CASE("random winograd layers 7-13 equal the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wino]") {
  run_rtl(random_files("rtl_1", 7, 7));
}

TEST_CASE("random winograd layers 14-20 equal the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wino]") {
  run_rtl(random_files("rtl_2", 14, 7));
}

TEST_CASE("random winograd layers 21-27 equal the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wino]") {
  run_rtl(random_files("rtl_3", 21, 7));
}

TEST_CASE("every winograd conv layer, bundled and random, equals the int64 reference on golden and RTL under all ten stress legs",
          "[rtl][conv][wino][.long]") {
  run_rtl(layer_files("", Mode::Winograd), true);
  run_rtl(random_files("rtl_0", 0, 7), true);
  run_rtl(random_files("rtl_1", 7, 7), true);
  run_rtl(random_files("rtl_2", 14, 7), true);
  run_rtl(random_files("rtl_3", 21, 7), true);
}

TEST_CASE("the bundled winograd layers cover the intended cases and are strong tests", "[conv][wino]") {
  std::set<std::string> seen;
  for (const auto& f : layer_files("", Mode::Winograd)) {
    const LoadedLayer l = load_layer(f);
    const Layer L = read_layer(f, l.header.seed);
    INFO(L.name);
    CHECK(L.config == "nv_full");
    // NVDLA's rule: 3x3 after channel extension.
    CHECK((L.R + L.sy - 1) / L.sy == 3);
    CHECK((L.S + L.sx - 1) / L.sx == 3);
    const bool pad1 = L.pl == 1 && L.pr == 1 && L.pt == 1 && L.pb == 1;
    if (L.sx == 1 && L.sy == 1 && L.int16 && L.wino_scheme == "exact" && pad1) seen.insert("stride 1 int16 exact pad 1");
    if (L.sx == 1 && L.sy == 1 && L.pl + L.pr + L.pt + L.pb == 0) seen.insert("no padding");
    if (L.sx == 2 && L.sy == 2) seen.insert("stride 2x2");
    if (L.sx == 2 && L.sy == 1) seen.insert("stride 2x1");
    if (!L.int16 && L.wino_scheme == "nvdla") seen.insert("int8 nvdla scheme");
    if (L.wino_scheme == "exact" && L.pra_truncate == 2) seen.insert("exact at PRA_TRUNCATE 2");
    if (L.post_ops()) seen.insert("post-ops");
    if (L.bs.relu || L.bn.relu) seen.insert("relu");
    if (L.C > 64) seen.insert("C above 64");
    if (L.K > (L.int16 ? 16 : 32)) seen.insert("two kernel groups");

    check_strong(L, reference(L));
  }
  for (const char* want : {"stride 1 int16 exact pad 1", "no padding", "stride 2x2", "stride 2x1", "int8 nvdla scheme",
                           "exact at PRA_TRUNCATE 2", "post-ops", "relu", "C above 64", "two kernel groups"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("winograd conv layers compile to the winograd register program", "[conv][wino]") {
  namespace r = dla::golden::regs;
  std::vector<fs::path> files = layer_files("", Mode::Winograd);
  const auto rnd = random_files("program");
  files.insert(files.end(), rnd.begin(), rnd.end());
  for (const auto& f : files) {
    const LoadedLayer l = load_layer(f);
    const Layer L = read_layer(f, l.header.seed);
    INFO(L.name);
    const Program p = engines::compile_conv_layer(l.header, l.root(), false).program;
    const int bpe = L.int16 ? 2 : 1;
    // docs/WINOGRAD.md, as NVDLA programs Winograd: every stride phase holds C' channels (C on whole
    // 32-byte atoms), C_ext = C' x sx x sy; the extended cube is the output + 4, the right / bottom
    // pads grown to make it so.
    const int c_pad = ceil_div(L.C * bpe, 32) * 32 / bpe;
    const int c_ext = c_pad * L.sx * L.sy;
    const int pr = L.sx * (L.ow() + 4) - L.W - L.pl, pb = L.sy * (L.oh() + 4) - L.H - L.pt;
    const int w_ext = L.ow() + 4, h_ext = L.oh() + 4;
    CHECK((L.W + L.pl + pr) / L.sx == w_ext);
    for (const char* block : {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"}) {
      INFO(block);
      CHECK(written(p, block, "D_MISC_CFG", r::csc::D_MISC_CFG::CONV_MODE{}) == 1);
      static_assert(r::csc::D_MISC_CFG::CONV_MODE::lsb == r::cdma::D_MISC_CFG::CONV_MODE::lsb &&
                    r::csc::D_MISC_CFG::CONV_MODE::lsb == r::cmac_a::D_MISC_CFG::CONV_MODE::lsb &&
                    r::csc::D_MISC_CFG::CONV_MODE::lsb == r::cacc::D_MISC_CFG::CONV_MODE::lsb);
    }
    CHECK(written(p, "SDP", "D_FEATURE_MODE_CFG", r::sdp::D_FEATURE_MODE_CFG::WINOGRAD{}) == 1);
    CHECK(written(p, "SDP", "D_FEATURE_MODE_CFG", r::sdp::D_FEATURE_MODE_CFG::FLYING_MODE{}) == 1);
    CHECK(written(p, "SDP_RDMA", "D_FEATURE_MODE_CFG", r::sdp_rdma::D_FEATURE_MODE_CFG::WINOGRAD{}) == 1);
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_0", r::cdma::D_DATAIN_SIZE_0::DATAIN_WIDTH{}) + 1 == uint32_t(L.W));
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_1", r::cdma::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}) + 1 == uint32_t(L.C));
    CHECK(written(p, "CDMA", "D_CONV_STRIDE", r::cdma::D_CONV_STRIDE::CONV_X_STRIDE{}) + 1 == uint32_t(L.sx));
    CHECK(written(p, "CDMA", "D_CONV_STRIDE", r::cdma::D_CONV_STRIDE::CONV_Y_STRIDE{}) + 1 == uint32_t(L.sy));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_LEFT{}) == uint32_t(L.pl));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_RIGHT{}) == uint32_t(pr));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_BOTTOM{}) == uint32_t(pb));
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_EXT_0", r::cdma::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1 ==
          uint32_t(w_ext));
    CHECK(written(p, "CSC", "D_DATAIN_SIZE_EXT_0", r::csc::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1 ==
          uint32_t(h_ext));
    CHECK(written(p, "CSC", "D_DATAIN_SIZE_EXT_1", r::csc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1 ==
          uint32_t(c_ext));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_1", r::csc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1 ==
          uint32_t(c_ext));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_1", r::csc::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}) + 1 == uint32_t(L.K));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_0", r::csc::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) == 3);  // 4x4
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_0", r::csc::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}) == 3);
    const int bpk = 16 * c_ext * bpe;
    CHECK(written(p, "CDMA", "D_WEIGHT_SIZE_0", r::cdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1 == uint32_t(bpk));
    CHECK(written(p, "CDMA", "D_WEIGHT_BYTES", r::cdma::D_WEIGHT_BYTES::WEIGHT_BYTES{}) ==
          uint32_t(ceil_div(bpk * L.K, 128) * 128));
    CHECK(written(p, "CSC", "D_WEIGHT_BYTES", r::csc::D_WEIGHT_BYTES::WEIGHT_BYTES{}) ==
          uint32_t(ceil_div(bpk * L.K, 128) * 128));
    CHECK(written(p, "CSC", "D_ATOMICS", r::csc::D_ATOMICS::ATOMICS{}) + 1 == uint32_t(L.ow() * L.oh()));
    CHECK(written(p, "CSC", "D_RELEASE", r::csc::D_RELEASE::RLS_SLICES{}) + 1 == uint32_t(h_ext));
    CHECK(written(p, "CSC", "D_CONV_STRIDE_EXT", r::csc::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}) == 0);
    CHECK(written(p, "CSC", "D_CONV_STRIDE_EXT", r::csc::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}) == 0);
    CHECK(written(p, "CSC", "D_ZERO_PADDING", r::csc::D_ZERO_PADDING::PAD_LEFT{}) == 0);
    CHECK(written(p, "CSC", "D_ZERO_PADDING", r::csc::D_ZERO_PADDING::PAD_TOP{}) == 0);
    CHECK(written(p, "CSC", "D_PRA_CFG", r::csc::D_PRA_CFG::PRA_TRUNCATE{}) == uint32_t(L.pra_truncate));
    CHECK(written(p, "CSC", "D_DATAOUT_SIZE_0", r::csc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) + 1 == uint32_t(L.ow()));
    CHECK(written(p, "CACC", "D_DATAOUT_SIZE_0", r::cacc::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}) + 1 == uint32_t(L.oh()));
    const int clip = L.wino_scheme == "exact" ? L.clip + 2 - L.pra_truncate : L.clip - L.pra_truncate;
    CHECK(written(p, "CACC", "D_CLIP_CFG", r::cacc::D_CLIP_CFG::CLIP_TRUNCATE{}) == uint32_t(clip));
    // EPS: one extended row, W_ext x C_ext elements in 128-byte entries.
    const int eps = w_ext * c_ext * bpe / 128;
    CHECK(written(p, "CSC", "D_ENTRY_PER_SLICE", r::csc::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    CHECK(written(p, "CDMA", "D_ENTRY_PER_SLICE", r::cdma::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    // nv_full's CBUF: 16 banks of 256 entries of 128 bytes; the data banks hold the whole extended cube.
    const uint32_t data_banks = written(p, "CDMA", "D_BANK", r::cdma::D_BANK::DATA_BANK{}) + 1;
    const uint32_t weight_banks = written(p, "CDMA", "D_BANK", r::cdma::D_BANK::WEIGHT_BANK{}) + 1;
    CHECK(data_banks * 256 >= uint32_t(eps * h_ext));
    CHECK(int64_t{weight_banks} * 256 * 128 >= int64_t{std::min(L.K, L.int16 ? 16 : 32)} * bpk);
    CHECK(data_banks + weight_banks <= 16u);
  }
}

TEST_CASE("the reference comparison catches a one-byte change of a winograd weight", "[conv][wino]") {
  // Pre-transformed layout (docs/WINOGRAD.md): kernel group 0 (16 int16 kernels) -> channel group
  // 0 -> kernel 5 -> position 5 (U[1][1], which every 2x2 output uses) -> channel 0: element
  // 5 * 64 + 5 * 4 = 340, bytes 680..681. Its high byte gains 1 (U' + 256): only kernel 5 changes.
  const std::string d = diff_after_weight_change(kLayers / "full_wino_int16_pad1.json",
                                                 [](std::vector<uint8_t>& bytes, const Layer& L) {
                                                   REQUIRE(L.int16);
                                                   REQUIRE(L.K >= 16);
                                                   bytes[681] += 1;
                                                 });
  INFO(d);
  CHECK_THAT(d, Catch::Contains("outputs differ; first (k, h, w) = (5, "));
}

TEST_CASE("malformed winograd conv layers are refused naming file, JSON pointer and rule", "[conv][wino]") {
  const std::vector<Refusal> cases = {
      {"conv_wino_small.json", "/mode",
       "Winograd (D_MISC_CFG.CONV_MODE = WINOGRAD) needs nv_full; nv_small is built with WINOGRAD_DISABLE"},
      {"conv_wino_5x5.json", "/weights",
       "Winograd runs a kernel that is 3x3 after channel extension: ceil(R / stride_y) and ceil(S / stride_x) must be 3 "
       "(3x3 at stride 1, 5x5 or 6x6 at stride 2); got 5x5 at stride 1x1"},
      {"conv_wino_output.json", "/input",
       "Winograd needs output width and height multiples of 4 and at least 8 (NVDLA's hardware limitations); got 5x4"},
      {"conv_wino_dilation.json", "/dilation", "Winograd has no dilation (got 2x1)"},
      {"conv_wino_pra_truncate.json", "/pra_truncate", "4 is out of range [0, 3]"},
      {"conv_wino_scheme.json", "/wino_scheme", "\"fast\" is not one of: exact, nvdla"},
      {"conv_wino_mode.json", "/mode", "\"winogard\" is not one of: direct, winograd"},
      {"conv_wino_pra_direct.json", "/pra_truncate", "only with \"mode\": \"winograd\""},
      {"conv_wino_exact_weights.json", "/weights/data", "the exact weights 4U do not fit int8"},
      {"conv_wino_int8_to_int16.json", "/output/precision", "int8 input -> int16 output is not available"},
      {"conv_wino_cbuf.json", "/input",
       "the layer does not fit in CBUF: the channel-extended input needs 67 banks (ENTRY_PER_SLICE 92 x H_ext 184"},
      {"conv_wino_weights_cbuf.json", "/weights",
       "one kernel group of weights 16 (16 kernels x 32256 bytes, 32768 per bank), more than nv_full's 16 banks"},
  };
  check_refusals(cases);
}

TEST_CASE("the bench's winograd comparison: same values, the same golden output in both modes", "[conv][wino][bench]") {
  const engines::ConvWinoComparison c = engines::measure_conv_wino(5, false);
  INFO(c.direct.detail << c.wino.detail);
  CHECK(c.direct.detail.empty());
  CHECK(c.wino.detail.empty());
  CHECK(c.direct.mode == dla::golden::ConvMode::Direct);
  CHECK(c.wino.mode == dla::golden::ConvMode::Winograd);
  // 32x32x64 -> 32x32x128, int16, 3x3: direct W'H'KCRS / (64 x 16) = 1024 * 128 * 64 * 9 / 1024;
  // Winograd 8 kernel groups x 256 tiles x ceil(64 / 4) channel groups.
  CHECK(c.direct.ideal_cycles == 73728);
  CHECK(c.wino.ideal_cycles == 32768);
  CHECK(c.wino.atomic_ops == 32768);
  REQUIRE(c.direct.golden_output.size() == 32u * 32u * 128u * 2u);
  CHECK(c.direct.golden_output == c.wino.golden_output);
  const std::set<uint8_t> distinct(c.wino.golden_output.begin(), c.wino.golden_output.end());
  CHECK(distinct.size() > 200);
}

TEST_CASE("the bench's winograd comparison runs on the RTL and equals golden", "[rtl][conv][wino][bench]") {
  const engines::ConvWinoComparison c = engines::measure_conv_wino(5, true);
  INFO(c.direct.detail << "\n" << c.wino.detail);
  CHECK(c.direct.outputs_equal);
  CHECK(c.wino.outputs_equal);
  CHECK(c.wino.cycles_layer > 0);
  // Simulated cycles (deterministic): the bar, 2.0x fewer cycles than direct (ideal 2.25x).
  CHECK(c.speedup() >= 2.0);
}
