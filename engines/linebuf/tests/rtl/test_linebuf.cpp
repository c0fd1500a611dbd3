// The line-buffer 3x3 engine (docs/LINEBUF.md): every bundled `linebuf` layer (and the seed-style
// stack 3x56x56 -> 7x7 -> FC) equal to an int64 reference written here, on golden and on the RTL
// under the stress legs (tests/rtl/cross_stress.hpp: 3 of the 10 per layer in CI, all 10 in
// [.long]); bad layers; a flipped bit; a 416x416 stack on golden alone against the reference
// ([.long]: the verilated model's LineDepth is 64).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cross_stress.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "engines/linebuf/harness/linebuf_reference.hpp"
#include "harness/rng.hpp"
#include "engines/linebuf/harness/linebuf.hpp"

using namespace dla::harness;
using dla::golden::LinebufAct;
using dla::golden::LinebufKind;
using dla::golden::LinebufLayer;
using dla::golden::LinebufMap;
using dla::golden::Precision;
namespace fs = std::filesystem;

namespace {

// The int64 reference: harness/linebuf_reference.hpp (plain loops, nothing from golden/'s arithmetic).

// The reference on the job's own values: every layer fed the reference's previous output.
std::vector<LinebufMap> ref_stack(const engines::LinebufJob& job) {
  return linebuf_ref::stack(job.input, job.layers, job.precision == Precision::Int16 ? 16 : 8);
}

void require_equal(const std::vector<LinebufMap>& got, const std::vector<LinebufMap>& ref, const std::string& what) {
  REQUIRE(got.size() == ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    INFO(what << ", layer " << i);
    REQUIRE(got[i].c == ref[i].c);
    REQUIRE(got[i].h == ref[i].h);
    REQUIRE(got[i].w == ref[i].w);
    REQUIRE(got[i].data == ref[i].data);
  }
}

struct Loaded {
  std::string name;
  engines::LinebufJob job;
  uint64_t seed = 1;
};

std::vector<Loaded> bundled() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "linebuf")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Loaded> out;
  for (const auto& f : files) {
    const LoadedLayer l = load_layer(f);
    out.push_back({f.stem().string(), engines::build_linebuf_job(l.header, l.root()), l.header.seed});
  }
  return out;
}

// The RTL's maps against the reference: a map kept on chip (out_chip) has the shape and no data;
// every other map equals the reference.
void require_equal_rtl(const std::vector<LinebufMap>& got, const std::vector<LinebufMap>& ref,
                       const engines::LinebufJob& job, const std::string& what) {
  REQUIRE(got.size() == ref.size());
  std::vector<LinebufMap> seen = ref;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (job.layers[i].out_chip) {
      INFO(what << ", layer " << i << " on chip");
      REQUIRE(got[i].data.empty());
      seen[i].data.clear();
    }
  }
  require_equal(got, seen, what);
}

// Layer `L` on the RTL under each leg of `legs`, its maps in memory (every layer's map compared)
// and on chip where they fit (the maps that leave compared): equal to the reference.
void rtl_under(const Loaded& L, const std::vector<LinebufMap>& ref, const std::vector<RunOptions>& legs) {
  for (const bool on_chip : {false, true}) {
    engines::LinebufJob job = L.job;
    engines::place_linebuf_maps(job, on_chip);
    for (const RunOptions& o : legs) {
      SimOptions s = o.sim;
      s.seed = *o.seed;
      const engines::LinebufOutcome rtl = engines::run_linebuf_rtl(job, s, *o.stall, *o.seed);
      require_equal_rtl(rtl.maps, ref, job,
                        L.name + (on_chip ? " maps on chip" : " maps in memory") + " RTL seed " +
                            std::to_string(*o.seed) + " rand-reset " + std::to_string(o.sim.rand_reset));
    }
  }
}

// Statistics that show a layer is not degenerate: distinct output values of the last layer.
std::size_t distinct(const LinebufMap& m) {
  std::vector<int64_t> v = m.data;
  std::sort(v.begin(), v.end());
  return static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
}

RunResult run_text(const std::string& tag, const std::string& json, const RunOptions& o) {
  const fs::path file = fs::temp_directory_path() / ("dla_linebuf_" + tag + "_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(file);
    f << json;
  }
  RunResult r = run_layer(file, o);
  fs::remove(file);
  return r;
}

}  // namespace

TEST_CASE("linebuf: >= 20 bundled layers equal the int64 reference on golden and on the RTL under 3 stress legs each",
          "[rtl][linebuf]") {
  const std::vector<Loaded> layers = bundled();
  REQUIRE(layers.size() >= 20);
  bool stack6 = false;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Loaded& L = layers[i];
    const std::vector<LinebufMap> ref = ref_stack(L.job);
    INFO(L.name);
    if (L.name == "13_saturate_int8") {
      // Full-range weights and bias, out_shift 0: every output saturates.
      for (const int64_t v : ref.back().data) CHECK((v == 127 || v == -128));
    } else if (L.name == "22_out_shift_40") {
      // |acc| < 2^40 / 2 everywhere: every output rounds to 0.
      for (const int64_t v : ref.back().data) CHECK(v == 0);
    } else {
      // Not degenerate: at least three distinct values at the end (as many as there are, below 3).
      CHECK(distinct(ref.back()) >= std::min<std::size_t>(3, ref.back().data.size()));
    }
    require_equal(engines::run_linebuf_golden(L.job).maps, ref, L.name + " golden");
    rtl_under(L, ref, cross_stress::legs_for(i));
    if (L.job.layers.size() >= 6 && L.job.input.w <= 56 && ref[ref.size() - 3].h == 7) stack6 = true;
  }
  CHECK(stack6);  // the seed-style stack: >= 6 layers down to a 7x7 map, then FC
}

TEST_CASE("linebuf: every bundled layer under all 10 stress legs", "[rtl][linebuf][.long]") {
  for (const Loaded& L : bundled()) rtl_under(L, ref_stack(L.job), cross_stress::options());
}

TEST_CASE("linebuf: the cross run passes and compares every layer, and a flipped bit is a mismatch", "[rtl][linebuf]") {
  RunOptions o;
  o.stall = 0.3;
  o.sim.rand_reset = 2;
  // Maps in memory: every layer's map leaves the engine and is compared.
  const fs::path f = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/linebuf/19_stack_conv_pool_fc.json";
  std::ifstream in(f);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("\"stack\"");
  REQUIRE(at != std::string::npos);
  const std::string mem = text.substr(0, at) + "\"maps\": \"memory\", " + text.substr(at);
  RunResult r = run_text("19_memory", mem, o);
  INFO(format_run(r));
  REQUIRE(r.status == Status::Pass);
  REQUIRE(r.compares.size() == 3);
  CHECK(r.compares[0].elements == 8u * 8u * 8u);
  CHECK(r.compares[2].elements == 10u);
  o.flip = FlipBit{4, 2};
  r = run_text("19_memory_flip", mem, o);
  CHECK(r.status == Status::Mismatch);
  CHECK(r.compares[2].mismatches == 1);
  // As bundled (maps on chip where they fit: layers 0 and 1 keep theirs): the final map compared.
  o.flip.reset();
  r = run_layer(f, o);
  INFO(format_run(r));
  REQUIRE(r.status == Status::Pass);
  REQUIRE(r.compares.size() == 1);
  CHECK(r.compares[0].elements == 10u);
  CHECK_THAT(r.message, Catch::Contains("layers 0, 1 stayed on chip"));
  o.flip = FlipBit{4, 2};
  r = run_layer(f, o);
  CHECK(r.status == Status::Mismatch);
  CHECK(r.compares[0].mismatches == 1);
}

TEST_CASE("linebuf: the seed stack keeps maps 1-5 on chip: equal to the reference, and they never cross the streams",
          "[rtl][linebuf]") {
  // 3x56x56 -> conv+pool 8x28x28 (6272 values: above the 4096-value map store, through memory)
  // -> 16x14x14 (3136) -> 16x7x7 (784) -> 16x7x7 -> 8x7x7 (392) -> FC 16 -> FC 10: the outputs of
  // layers 1-5 fit and stay on chip. int8, so a value is a byte. Pixels read: the input (3·56·56 =
  // 9408) and layer 1's (6272) only; in memory also 3136 + 784 + 784, and the FC layers' inputs as
  // 3x3 maps (44·9 = 396 for N = 392, 2·9 = 18 for N = 16): 20798. Outputs written: layer 0's 6272
  // and the 10 results; in memory also 3136 + 784 + 784 + 392 + 16: 11394. Weights: the same.
  const Loaded L = [] {
    for (const Loaded& x : bundled()) {
      if (x.name == "20_stack_seed_56") return x;
    }
    FAIL("20_stack_seed_56 missing");
    return Loaded{};
  }();
  const std::vector<LinebufMap> ref = ref_stack(L.job);
  for (std::size_t i = 0; i < L.job.layers.size(); ++i) {
    INFO("layer " << i);
    CHECK(L.job.layers[i].out_chip == (i >= 1 && i <= 5));
    CHECK(L.job.layers[i].in_chip == (i >= 2));
  }
  engines::LinebufJob mem = L.job;
  engines::place_linebuf_maps(mem, false);
  uint64_t wt_bytes = 0;
  for (const RunOptions& o : cross_stress::legs_for(3)) {
    SimOptions s = o.sim;
    s.seed = *o.seed;
    const engines::LinebufOutcome chip = engines::run_linebuf_rtl(L.job, s, *o.stall, *o.seed);
    require_equal_rtl(chip.maps, ref, L.job, "seed stack on chip");
    CHECK(chip.px_bytes == 9408u + 6272u);
    CHECK(chip.out_bytes == 6272u + 10u);
    const engines::LinebufOutcome through = engines::run_linebuf_rtl(mem, s, *o.stall, *o.seed);
    require_equal(through.maps, ref, "seed stack in memory");
    CHECK(through.px_bytes == 20798u);
    CHECK(through.out_bytes == 11394u);
    CHECK(chip.wt_bytes == through.wt_bytes);
    wt_bytes = chip.wt_bytes;
  }
  CHECK(wt_bytes > 0);
  // Golden with the same placement: the same values.
  require_equal(engines::run_linebuf_golden(L.job).maps, ref, "seed stack golden, maps on chip");
}

TEST_CASE("linebuf layers: bad input names the JSON pointer and the rule", "[rtl][linebuf]") {
  const std::string head = R"({"unit":"linebuf","config":"nv_small","precision":"int8",)";
  const std::string in8 = R"("input":{"channels":2,"height":4,"width":4,"data":{"random":{}}},)";
  const std::string wb = R"("weights":{"random":{}},"bias":{"random":{}})";
  RunOptions o;
  struct Bad {
    std::string tag, json, pointer, rule;
  };
  const std::vector<Bad> bad = {
      {"wide", head + R"("input":{"channels":1,"height":4,"width":65,"data":{"random":{}}},"stack":[{"kind":"conv","outputs":1,)" + wb + "}]}",
       "/stack/0", "LineDepth"},
      {"small", head + R"("input":{"channels":1,"height":2,"width":5,"data":{"random":{}}},"stack":[{"kind":"conv","outputs":1,)" + wb + "}]}",
       "/stack/0", "smaller than the 3x3 kernel"},
      {"pool", head + R"("input":{"channels":1,"height":1,"width":5,"data":{"random":{}}},"stack":[{"kind":"conv","outputs":1,"pad":1,"pool":true,)" + wb + "}]}",
       "/stack/0", "no complete window"},
      {"slope", head + in8 + R"("stack":[{"kind":"conv","outputs":1,"act":"leaky","leaky_slope":5,"leaky_shift":2,)" + wb + "}]}",
       "/stack/0/leaky_slope", "at most 1"},
      {"kernels", head + in8 + R"("stack":[{"kind":"conv","outputs":65,)" + wb + "}]}", "/stack/0", "MaxK"},
      {"fcpad", head + in8 + R"("stack":[{"kind":"fc","outputs":2,"pad":1,)" + wb + "}]}", "/stack/0/pad",
       "no pad, no pool"},
      {"count", head + in8 + R"("stack":[{"kind":"conv","outputs":1,"weights":{"values":[1,2]},"bias":{"random":{}}}]})",
       "/stack/0/weights", "18"},
      {"range", head + R"("input":{"channels":1,"height":3,"width":3,"data":{"values":[1,2,3,4,200,6,7,8,9]}},"stack":[{"kind":"conv","outputs":1,)" + wb + "}]}",
       "/input/data/values/4", ""},
      {"key", head + in8 + R"("stack":[{"kind":"conv","outputs":1,"stride":2,)" + wb + "}]}", "/stack/0", "stride"},
      {"empty", head + in8 + R"("stack":[]})", "/stack", "non-empty"},
  };
  for (const Bad& b : bad) {
    const RunResult r = run_text(b.tag, b.json, o);
    INFO(b.tag << ": " << r.message);
    CHECK(r.status == Status::BadInput);
    CHECK_THAT(r.message, Catch::Contains(b.pointer) && Catch::Contains(b.rule));
  }
}

TEST_CASE("linebuf: a 416x416 seed-style stack on golden equals the int64 reference", "[golden][linebuf][.long]") {
  // YOLO-tiny-like: five conv 3x3 + pool layers 416 -> 208 -> 104 -> 52 -> 26 -> 13, a pad-1 conv at
  // 13x13, three pad-0 convs 13 -> 11 -> 9 -> 7, then FC 392 -> 10. Golden runs with its line
  // depth widened to 416 (the verilated model's LineDepth is 64).
  using dla::golden::LinebufLimits;
  LinebufLimits lim;
  lim.line_depth = 416;
  dla::harness::Rng rng(416);
  LinebufMap in{3, 416, 416, {}};
  for (int i = 0; i < 3 * 416 * 416; ++i) in.data.push_back(rng.range(-128, 127));
  auto conv = [&](int c, int k, int pad, bool pool, int shift) {
    LinebufLayer L;
    L.outputs = k;
    L.pad = pad;
    L.pool = pool;
    L.out.act = LinebufAct::Leaky;
    L.out.leaky_slope = 13;
    L.out.leaky_shift = 7;
    L.out.out_shift = shift;
    for (int i = 0; i < k * c * 9; ++i) L.weights.push_back(rng.range(-8, 8));
    for (int i = 0; i < k; ++i) L.bias.push_back(rng.range(-200, 200));
    return L;
  };
  std::vector<LinebufLayer> layers = {conv(3, 4, 1, true, 4),  conv(4, 4, 1, true, 5),  conv(4, 8, 1, true, 5),
                                      conv(8, 8, 1, true, 6),  conv(8, 8, 1, true, 6),  conv(8, 8, 1, false, 6),
                                      conv(8, 8, 0, false, 6), conv(8, 8, 0, false, 6), conv(8, 8, 0, false, 6)};
  LinebufLayer fc;
  fc.kind = LinebufKind::Fc;
  fc.outputs = 10;
  fc.out.out_shift = 5;
  for (int i = 0; i < 10 * 8 * 7 * 7; ++i) fc.weights.push_back(rng.range(-8, 8));
  for (int i = 0; i < 10; ++i) fc.bias.push_back(rng.range(-200, 200));
  layers.push_back(fc);
  engines::LinebufJob job;
  job.input = in;
  job.layers = layers;
  const std::vector<LinebufMap> ref = ref_stack(job);
  REQUIRE(ref[ref.size() - 2].h == 7);
  require_equal(dla::golden::linebuf_stack(in, layers, Precision::Int8, lim), ref, "416 stack golden");
}

TEST_CASE("linebuf RTL refuses a descriptor outside its limits with a code, as golden refuses it",
          "[rtl][linebuf]") {
  using dla::golden::linebuf_refusal;
  const dla::golden::LinebufLimits lim;
  auto conv = [](int k, int pad, bool pool) {
    LinebufLayer L;
    L.outputs = k;
    L.pad = pad;
    L.pool = pool;
    return L;
  };
  LinebufLayer leaky = conv(1, 1, false);
  leaky.out.act = LinebufAct::Leaky;
  leaky.out.leaky_slope = 3;
  leaky.out.leaky_shift = 1;
  auto once = [&](int k, int, int) {
    LinebufLayer L = conv(k, 1, false);
    L.weights_once = true;
    return L;
  };
  auto chip = [&](int k, bool in, bool out) {
    LinebufLayer L = conv(k, 1, false);
    L.in_chip = in;
    L.out_chip = out;
    return L;
  };
  LinebufLayer leaky_one = leaky;
  leaky_one.out.leaky_slope = 2;  // exactly 1: taken
  struct Case {
    const char* what;
    LinebufLayer L;
    int c, h, w, code;
  };
  const std::vector<Case> cases = {
      {"taken", conv(4, 1, true), 3, 8, 8, 0},      {"W above LineDepth", conv(1, 0, false), 1, 3, 65, 1},
      {"H 0", conv(1, 1, false), 1, 0, 4, 2},       {"C above MaxC", conv(1, 0, false), 65, 3, 3, 3},
      {"K above MaxK", conv(65, 1, false), 1, 3, 3, 4}, {"pad 0 under 3x3", conv(1, 0, false), 1, 2, 5, 5},
      {"pool, no window", conv(1, 1, true), 1, 1, 8, 6}, {"slope above 1", leaky, 1, 3, 3, 7},
      {"slope 1", leaky_one, 1, 3, 3, 0},           {"W = LineDepth", conv(64, 0, false), 64, 3, 64, 0},
      {"weights once, 16x16 padded", once(1, 14, 14), 1, 14, 14, 0},
      {"weights once, 17 padded rows", once(1, 15, 14), 1, 15, 14, 9},
      {"weights once, 17 padded columns", once(1, 14, 15), 1, 14, 15, 9},
      {"on-chip output of 64x8x8 = 4096 values", chip(64, false, true), 1, 8, 8, 0},
      {"on-chip output of 64x9x8 = 4608 values", chip(64, false, true), 1, 9, 8, 10},
      {"on-chip input of 64x8x9 = 4608 values", chip(1, true, false), 64, 8, 9, 10},
  };
  SimOptions s;
  for (const Case& k : cases) {
    INFO(k.what);
    CHECK(engines::linebuf_rtl_descriptor_error(k.L, k.c, k.h, k.w, Precision::Int8, s) == k.code);
    CHECK(linebuf_refusal(k.L, k.c, k.h, k.w, lim).has_value() == (k.code != 0));
  }
  // An on-chip input before any layer wrote the map store: the RTL refuses it (11), golden refuses
  // it as a stack's first layer.
  CHECK(engines::linebuf_rtl_descriptor_error(chip(1, true, false), 1, 3, 3, Precision::Int8, s) == 11);
  LinebufLayer first = chip(1, true, false);
  first.weights.assign(9, 1);
  first.bias.assign(1, 0);
  const LinebufMap in{1, 3, 3, std::vector<int64_t>(9, 1)};
  CHECK_THROWS_WITH(dla::golden::linebuf_stack(in, {first}, Precision::Int8),
                    Catch::Contains("an on-chip input needs the previous layer's output on chip"));
  LinebufLayer last = first;
  last.in_chip = false;
  last.out_chip = true;
  CHECK_THROWS_WITH(dla::golden::linebuf_stack(in, {last}, Precision::Int8),
                    Catch::Contains("must be the next layer's on-chip input"));
}
