// W-fold `conv` layers (testvectors/layers/wfold/, docs/WFOLD.md) judged by the independent int64
// reference (conv_reference.hpp: the fold does not change what the layer computes, so the
// reference ignores "wfold"), on the golden device and on the RTL (cross mode under three of the
// stress legs each). Also: the layers cover what the fold must handle, the compiled programs
// program the fold registers of docs/WFOLD.md (values computed here from the doc, not by the
// compiler), the refusals name their rule, and the comparison catches a changed weight.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "conv_reference.hpp"
#include "golden/layout.hpp"

using namespace conv_ref;  // NOLINT(google-build-using-namespace)

namespace {

const fs::path kWfoldLayers = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "wfold";

int ceil_div(int a, int b) { return (a + b - 1) / b; }

std::vector<fs::path> wfold_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kWfoldLayers)) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The fold width docs/WFOLD.md gives the layer (0: unfolded), from its JSON: N, or the "auto"
// rule (fewest G * S' over the legal ws, ties to the larger pci, only when fewer than the
// unfolded ceil(C / 64) * S; legal: pci * bpe <= 32, S' <= 8). nv_full: ATOMIC_C 64.
int expected_ws(const fs::path& f, const Layer& L) {
  std::ifstream in(f);
  const json j = json::parse(in);
  if (!j.contains("wfold")) return 0;
  const json& v = j["wfold"];
  if (v.is_number_integer()) return v.get<int>();
  if (v.get<std::string>() == "off") return 0;
  const int bpe = L.int16 ? 2 : 1;
  int best = 0, best_cost = ceil_div(L.C, 64) * L.S;
  for (const int ws : {2, 4, 8, 16}) {
    const int pci = 64 / ws;
    if (pci * bpe > 32 || ceil_div(L.S, ws) > 8) continue;
    if (const int cost = ceil_div(L.C, pci) * ceil_div(L.S, ws); cost < best_cost) {
      best = ws;
      best_cost = cost;
    }
  }
  return best;
}

int log2i(int v) {
  int l = 0;
  while ((1 << l) < v) ++l;
  return l;
}

}  // namespace

TEST_CASE("every wfold layer equals the int64 reference on the golden model at its own seed", "[conv][wfold]") {
  const auto files = wfold_files();
  REQUIRE(files.size() >= 22);
  for (const auto& f : files) check_layer(f, load_layer(f).header.seed, nullptr);
}

TEST_CASE("every wfold layer equals the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][wfold]") {
  const auto files = wfold_files();
  REQUIRE(files.size() >= 22);
  run_rtl(files);
}

TEST_CASE("the wfold layers cover the fold's cases, program docs/WFOLD.md's registers and are strong tests",
          "[conv][wfold]") {
  namespace r = dla::golden::regs;
  std::set<std::string> seen;
  for (const auto& f : wfold_files()) {
    const LoadedLayer l = load_layer(f);
    const Layer L = read_layer(f, l.header.seed);
    INFO(L.name);
    CHECK(L.config == "nv_full");
    const engines::CompiledConv c = engines::compile_conv_layer(l.header, l.root(), false);
    const Program& p = c.program;
    const int ws = expected_ws(f, L);
    const std::vector<uint32_t> en = all_written(p, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::WFOLD_EN{});
    REQUIRE(en.size() == static_cast<std::size_t>(c.bands));
    for (const uint32_t e : en) CHECK(e == (ws != 0 ? 1u : 0u));
    std::ifstream in(f);
    const json j = json::parse(in);
    const bool automatic = j.value("wfold", json("off")) == json("auto");
    if (ws == 0) {
      if (automatic) seen.insert("auto that stays unfolded");
      check_strong(L, reference(L));
      continue;
    }
    seen.insert(automatic ? "auto" : "explicit N");
    seen.insert("ws " + std::to_string(ws));
    // docs/WFOLD.md "Registers": CDMA the layer, CSC the folded convolution.
    const int bpe = L.int16 ? 2 : 1, pci = 64 / ws, g = ceil_div(L.C, pci), sf = ceil_div(L.S, ws);
    const int ow = L.ow();
    CHECK(written(p, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::WS_LOG2{}) == uint32_t(log2i(ws)));
    CHECK(written(p, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::KERNEL_WIDTH{}) + 1 == uint32_t(L.S));
    CHECK(written(p, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::X_DILATION{}) + 1 == uint32_t(L.dx));
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_0", r::cdma::D_DATAIN_SIZE_0::DATAIN_WIDTH{}) + 1 == uint32_t(L.W));
    CHECK(written(p, "CDMA", "D_DATAIN_SIZE_1", r::cdma::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}) + 1 == uint32_t(L.C));
    CHECK(written(p, "CDMA", "D_CONV_STRIDE", r::cdma::D_CONV_STRIDE::CONV_X_STRIDE{}) + 1 == uint32_t(L.sx));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_LEFT{}) == uint32_t(L.pl));
    CHECK(written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_RIGHT{}) == uint32_t(L.pr));
    CHECK(written(p, "CDMA", "D_WEIGHT_SIZE_0", r::cdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1 ==
          uint32_t(L.R * sf * g * 64 * bpe));
    CHECK(written(p, "CSC", "D_DATAIN_SIZE_EXT_0", r::csc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1 ==
          uint32_t(ow * sf));
    CHECK(written(p, "CSC", "D_DATAIN_SIZE_EXT_1", r::csc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1 ==
          uint32_t(g * 64));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_0", r::csc::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) + 1 == uint32_t(sf));
    CHECK(written(p, "CSC", "D_WEIGHT_SIZE_EXT_1", r::csc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1 ==
          uint32_t(g * 64));
    CHECK(written(p, "CSC", "D_CONV_STRIDE_EXT", r::csc::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}) + 1 == uint32_t(sf));
    CHECK(written(p, "CSC", "D_CONV_STRIDE_EXT", r::csc::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}) + 1 == uint32_t(L.sy));
    CHECK(written(p, "CSC", "D_DILATION_EXT", r::csc::D_DILATION_EXT::X_DILATION_EXT{}) == 0u);
    CHECK(written(p, "CSC", "D_DILATION_EXT", r::csc::D_DILATION_EXT::Y_DILATION_EXT{}) + 1 == uint32_t(L.dy));
    CHECK(written(p, "CSC", "D_ZERO_PADDING", r::csc::D_ZERO_PADDING::PAD_LEFT{}) == 0u);
    CHECK(written(p, "CSC", "D_DATAOUT_SIZE_0", r::csc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) + 1 == uint32_t(ow));
    if (c.bands == 1) {
      CHECK(written(p, "CSC", "D_ZERO_PADDING", r::csc::D_ZERO_PADDING::PAD_TOP{}) == uint32_t(L.pt));
      CHECK(written(p, "CSC", "D_ATOMICS", r::csc::D_ATOMICS::ATOMICS{}) + 1 == uint32_t(ow * L.oh()));
    }
    // What the layers must cover (the issue's list).
    seen.insert("C " + std::to_string(L.C));
    if (L.C > pci) seen.insert("C > pci");
    seen.insert("X stride " + std::to_string(L.sx));
    if (L.W % ws != 0) seen.insert("W not a multiple of ws");
    if (L.dx > 1) seen.insert("X dilation");
    if (L.dy > 1) seen.insert("Y dilation");
    if (L.pl != L.pr || L.pt != L.pb) seen.insert("asymmetric pads");
    if (L.pad_value != 0 && (L.pl > 0 || L.pr > 0)) seen.insert("nonzero pad value in W");
    seen.insert(L.int16 ? "int16" : "int8");
    if (L.cvt) seen.insert("input converter");
    if (L.S > ws) seen.insert("S > ws");
    if (L.K > 32) seen.insert("two kernel groups");
    if (L.post_ops()) seen.insert("SDP post-ops");
    if (c.bands > 1) seen.insert("Split-H");
    check_strong(L, reference(L), c.bands > 1);
  }
  for (const char* want :
       {"C 1", "C 3", "C 4", "C 8", "C 16", "C 32", "C > pci", "X stride 1", "X stride 2", "X stride 3", "X stride 4",
        "X stride 5", "X stride 6", "X stride 7", "X stride 8", "W not a multiple of ws", "X dilation", "Y dilation",
        "asymmetric pads", "nonzero pad value in W", "int8", "int16", "input converter", "S > ws", "two kernel groups",
        "SDP post-ops", "Split-H", "auto", "explicit N", "auto that stays unfolded", "ws 2", "ws 4", "ws 8", "ws 16"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("the ResNet stem (224x224x3 -> 64, 7x7 stride 2 pad 3) compiles on nv_full with wfold auto as Split-H "
          "bands",
          "[conv][wfold]") {
  const fs::path f = fs::temp_directory_path() / "dlacosim_wfold_resnet_stem.json";
  {
    std::ofstream out(f);
    out << R"({"unit": "conv", "config": "nv_full", "seed": 1, "wfold": "auto",
      "input": {"w": 224, "h": 224, "c": 3, "data": {"random": {}}},
      "weights": {"k": 64, "r": 7, "s": 7, "data": {"random": {"min": -20, "max": 20}}},
      "padding": {"left": 3, "right": 2, "top": 3, "bottom": 2}, "stride": {"x": 2, "y": 2}, "clip": 8})";
  }
  const LoadedLayer l = load_layer(f);
  const engines::CompiledConv c = engines::compile_conv_layer(l.header, l.root(), false);
  fs::remove(f);
  namespace r = dla::golden::regs;
  CHECK(c.out_shape.w == 112);
  CHECK(c.out_shape.h == 112);
  CHECK(c.bands > 1);
  // ws 8 (pci 8, S' 1): one folded row per output column, 112 rows a line.
  for (const uint32_t e : all_written(c.program, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::WFOLD_EN{})) CHECK(e == 1u);
  for (const uint32_t v : all_written(c.program, "CDMA", "D_WFOLD", r::cdma::D_WFOLD::WS_LOG2{})) CHECK(v == 3u);
  for (const uint32_t v :
       all_written(c.program, "CSC", "D_DATAIN_SIZE_EXT_0", r::csc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}))
    CHECK(v + 1 == 112u);
}

TEST_CASE("malformed wfold layers are refused naming file, JSON pointer and rule", "[conv][wfold]") {
  const std::vector<Refusal> cases = {
      {"conv_wfold_small.json", "/wfold", "needs a configuration with the fold data path"},
      {"conv_wfold_small.json", "/wfold", "nv_small has none"},
      {"conv_wfold_ws32.json", "/wfold", "must be \"off\", \"auto\" or a power of two 2..16"},
      {"conv_wfold_ws3.json", "/wfold", "must be \"off\", \"auto\" or a power of two 2..16"},
      {"conv_wfold_on.json", "/wfold", "must be \"off\", \"auto\" or a power of two 2..16"},
      {"conv_wfold_sfold.json", "/wfold", "S' = ceil(S / ws) = ceil(17 / 2) = 9 folded kernel columns exceed 8"},
      {"conv_wfold_int16_ws2.json", "/wfold", "wider than the 32-byte memory atom"},
      {"conv_wfold_wino.json", "/wfold", "W-fold and \"mode\": \"winograd\" exclude each other"},
  };
  check_refusals(cases);
}

TEST_CASE("the reference comparison catches a one-byte change of a folded weight, not of a zero slot along W",
          "[conv][wfold]") {
  const fs::path f = kWfoldLayers / "c4_asym_pad_value.json";  // C 4, S 4, ws 8 (pci 8), K 8, R 3
  // Folded weight (kernel 0, channel 0, r 0, t 0) is W[0][0][0][0]: only kernel 0's outputs change.
  const std::string d = diff_after_weight_change(f, [](std::vector<uint8_t>& bytes, const Layer&) { bytes[0] += 1; });
  INFO(d);
  CHECK_THAT(d, Catch::Contains("outputs differ; first (k, h, w) = (0, "));
  dla::golden::WeightLayout wl;  // the folded weights: K 8 x C' 64 x R 3 x S' 1
  wl.k = 8;
  wl.c = 64;
  wl.r = 3;
  wl.s = 1;
  wl.atomic_k = 32;
  wl.atomic_c = 64;
  wl.bpe = 1;
  // Channel 3 of slot j = 1 (s 1 < S, c 3 < C) is a real weight (kernel 0, channel 3, r 0, s 1).
  const std::size_t real = wl.offset(0, 8 + 3, 0, 0);
  CHECK_THAT(diff_after_weight_change(f, [&](std::vector<uint8_t>& bytes, const Layer&) { bytes[real] += 1; }),
             Catch::Contains("outputs differ; first (k, h, w) = (0, "));
  // A layer padded along W only (value -40): the slots of s >= S (j 3..7 at ws 8) and of channels
  // c >= C (cc 5..7) hold 0 in every folded row, never the pad value, so their weights do not reach
  // the output. (In a line of H padding CSC substitutes the pad value for the whole row, zero slots
  // included; the folded weights there being 0 keeps the output right. c4_asym_pad_value has such
  // lines, so a zero-slot weight change does show there.)
  const fs::path g = kWfoldLayers / "c5_w_pad_value_only.json";  // C 5, S 3, ws 8, K 8, R 2
  wl.r = 2;
  for (const int ch : {5 * 8, 7 * 8 + 4, 8 + 6, 7}) {
    INFO("folded channel " << ch);
    const std::size_t off = wl.offset(0, ch, 1, 0);
    CHECK(diff_after_weight_change(g, [&](std::vector<uint8_t>& bytes, const Layer&) { bytes[off] += 77; }) == "");
  }
  const std::size_t real5 = wl.offset(0, 2 * 8 + 4, 1, 0);  // s 2, c 4: a real weight
  CHECK_THAT(diff_after_weight_change(g, [&](std::vector<uint8_t>& bytes, const Layer&) { bytes[real5] += 1; }),
             Catch::Contains("outputs differ; first (k, h, w) = (0, "));
}
