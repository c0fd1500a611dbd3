// CBUF reuse across convolution layers (CDMA / CSC D_MISC_CFG DATA_REUSE, WEIGHT_REUSE,
// SKIP_DATA_RLS, SKIP_WEIGHT_RLS; docs/CONV.md "CBUF reuse"): two layers in one program, the first
// keeping its input and / or weights in CBUF, the program then loading the second layer's own
// input and weights into memory, the second reusing what CBUF holds. So reuse is observable: the
// second layer's output must be the int64 reference of the first layer's input and / or weights
// with the second's other operand, and it differs from what fetching would give. Golden and RTL
// (cross mode, stress legs) both; and the reuses the previous layer did not leave are refused by
// both devices, naming the rule.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "conv_reference.hpp"
#include "cross_stress.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/conv/harness/conv.hpp"
#include "harness/placement.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;            // NOLINT(google-build-using-namespace): test helpers
using namespace dla::harness::conv_ref;  // NOLINT(google-build-using-namespace): Layer, reference
using nlohmann::json;
namespace r = dla::golden::regs;

namespace {

// A conv layer of `config`: W x H x C input, K kernels R x S, pad `pad` on every side, seeded.
json conv_layer(const std::string& config, int w, int h, int c, int k, int rs, int pad, uint64_t seed,
                bool cvt = false) {
  json j = {{"unit", "conv"},
            {"config", config},
            {"seed", seed},
            {"input", {{"w", w}, {"h", h}, {"c", c}, {"data", {{"random", {{"min", -40}, {"max", 40}}}}}}},
            {"weights", {{"k", k}, {"r", rs}, {"s", rs}, {"data", {{"random", {{"min", -40}, {"max", 40}}}}}}},
            {"padding", {{"left", pad}, {"right", pad}, {"top", pad}, {"bottom", pad}}},
            {"clip", 7}};
  if (cvt) j["input"]["converter"] = {{"offset", 10}, {"scale", 3}, {"truncate", 2}};
  return j;
}

fs::path write_layer(const json& j, const std::string& name) {
  const fs::path f = fs::temp_directory_path() / (std::to_string(::getpid()) + "-dla_reuse_" + name + ".json");
  std::ofstream(f) << j.dump();
  return f;
}

// Sets (or clears) the four CBUF bits in every CDMA and CSC D_MISC_CFG write of `p`.
void set_cbuf_bits(Program& p, bool data_reuse, bool weight_reuse, bool skip_data, bool skip_weight) {
  int patched = 0;
  for (ProgramStep& s : p.steps) {
    if (s.op != StepOp::RegWrite || s.reg->name != "D_MISC_CFG" || (s.reg->block != "CDMA" && s.reg->block != "CSC")) {
      continue;
    }
    const auto bit = [&](bool on, uint32_t mask) { s.value = on ? (s.value | mask) : (s.value & ~mask); };
    bit(data_reuse, r::cdma::D_MISC_CFG::DATA_REUSE::mask);
    bit(weight_reuse, r::cdma::D_MISC_CFG::WEIGHT_REUSE::mask);
    bit(skip_data, r::cdma::D_MISC_CFG::SKIP_DATA_RLS::mask);
    bit(skip_weight, r::cdma::D_MISC_CFG::SKIP_WEIGHT_RLS::mask);
    ++patched;
  }
  REQUIRE(patched == 2);
}

struct Pair {
  Program program;       // the first layer, then the second (its loads overwrite the first's operands)
  uint64_t out_base = 0;  // the second layer's output
};

// The two layers as one program: `a` with the skip bits, then `b` (placed in the groups `a` left)
// with the reuse bits. The second layer's status reads are dropped: they expect its values without
// reuse.
Pair make_pair(const fs::path& a, const fs::path& b, bool reuse_data, bool reuse_weights, bool skip_data,
               bool skip_weights) {
  const LoadedLayer la = load_layer(a);
  const LoadedLayer lb = load_layer(b);
  engines::CompiledConv ca = engines::compile_conv_layer(la.header, la.root(), false);
  REQUIRE(ca.bands == 1);
  GoldenDevice scratch(*la.header.config);  // where the second layer's compiler runs it after the first
  REQUIRE(run_program(ca.program, &scratch, nullptr, {}).status == Status::Pass);
  engines::Placement at;
  at.device = &scratch;
  engines::advance_groups(at.group, ca.program);
  engines::CompiledConv cb = engines::compile_conv_layer(lb.header, lb.root(), at);
  REQUIRE(cb.bands == 1);
  set_cbuf_bits(ca.program, false, false, skip_data, skip_weights);
  set_cbuf_bits(cb.program, reuse_data, reuse_weights, false, false);
  std::erase_if(cb.program.steps, [](const ProgramStep& s) { return s.op == StepOp::RegRead; });
  Pair p;
  p.program = ca.program;
  p.program.steps.insert(p.program.steps.end(), cb.program.steps.begin(), cb.program.steps.end());
  p.out_base = cb.out_layout.base;
  return p;
}

// The second layer's expected output: its reference with the first layer's input and / or weights.
Expected mixed_reference(const fs::path& a, const fs::path& b, bool reuse_data, bool reuse_weights) {
  const Layer la = read_layer(a, load_layer(a).header.seed);
  Layer lb = read_layer(b, load_layer(b).header.seed);
  if (reuse_data) lb.in = la.in;
  if (reuse_weights) lb.wt = la.wt;
  return reference(lb);
}

void check_reuse(const fs::path& a, const fs::path& b, bool reuse_data, bool reuse_weights,
                 const std::vector<RunOptions>& legs) {
  const Pair p = make_pair(a, b, reuse_data, reuse_weights, reuse_data, reuse_weights);
  const Layer lb = read_layer(b, load_layer(b).header.seed);
  const Expected want = mixed_reference(a, b, reuse_data, reuse_weights);
  REQUIRE(not_applicable(lb, want) == "");
  // The reuse is observable: fetching the second layer's own operands gives other values.
  REQUIRE(diff(want.out, reference(lb).out, lb) != "");
  const dla::golden::HwConfig& hw = *dla::golden::find_config(lb.config);
  for (const RunOptions& o : legs) {
    INFO(b.filename() << " data " << reuse_data << " weights " << reuse_weights << " seed " << *o.seed
                      << " rand-reset " << o.sim.rand_reset);
    GoldenDevice gold(hw);
    std::string why;
    std::unique_ptr<Device> rtl = make_rtl_device(enabled_blocks(p.program), hw, o, why);
    INFO(why);
    REQUIRE(rtl != nullptr);
    ProgramRunOptions po;
    po.mode = "cross";
    const RunResult res = run_program(p.program, &gold, rtl.get(), po);
    INFO(format_run(res));
    REQUIRE(res.status == Status::Pass);
    CHECK(diff(read_output(gold.memory(), p.out_base, lb), want.out, lb) == "");
    CHECK(diff(read_output(rtl->memory(), p.out_base, lb), want.out, lb) == "");
    rtl->finish();
  }
}

}  // namespace

TEST_CASE("a layer reusing CBUF's weights and / or input computes with the previous layer's, on golden and RTL",
          "[rtl][conv][cbuf]") {
  struct Case {
    const char* name;
    json a, b;
    bool data, weights;
  };
  const std::vector<Case> cases = {
      // Split-H's case: the weights stay, the input changes.
      {"small_weights", conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 101), conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 102),
       false, true},
      // Inception's case: one input, another kernel (1x1 after 3x3); CBUF holds the converted input.
      {"small_data", conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 103, true),
       conv_layer("nv_small", 8, 6, 16, 16, 1, 0, 104, true), true, false},
      {"small_both", conv_layer("nv_small", 7, 5, 12, 8, 3, 1, 105), conv_layer("nv_small", 7, 5, 12, 8, 3, 1, 106),
       true, true},
      {"full_weights", conv_layer("nv_full", 6, 5, 70, 40, 3, 1, 107), conv_layer("nv_full", 6, 5, 70, 40, 3, 1, 108),
       false, true},
      {"full_data", conv_layer("nv_full", 6, 5, 70, 40, 3, 1, 109), conv_layer("nv_full", 6, 5, 70, 24, 1, 0, 110),
       true, false},
      {"large_both", conv_layer("nv_large", 9, 7, 80, 40, 3, 1, 111), conv_layer("nv_large", 9, 7, 80, 40, 3, 1, 112),
       true, true},
  };
  std::size_t item = 0;
  for (const Case& c : cases) {
    const fs::path a = write_layer(c.a, std::string(c.name) + "_a");
    const fs::path b = write_layer(c.b, std::string(c.name) + "_b");
    check_reuse(a, b, c.data, c.weights, cross_stress::legs_for(item++));
    fs::remove(a);
    fs::remove(b);
  }
}

TEST_CASE("CBUF reuse under every stress leg", "[rtl][conv][cbuf][.long]") {
  const fs::path a = write_layer(conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 121), "long_a");
  const fs::path b = write_layer(conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 122), "long_b");
  check_reuse(a, b, true, true, cross_stress::options());
  fs::remove(a);
  fs::remove(b);
}

TEST_CASE("a reuse the previous layer did not leave in CBUF is refused by golden and by the RTL device",
          "[rtl][conv][cbuf]") {
  const json small = conv_layer("nv_small", 8, 6, 16, 8, 3, 1, 131);
  struct Case {
    const char* name;
    json b;
    bool data, weights, skip_data, skip_weights;
    const char* rule;
  };
  json wide = small;
  wide["input"]["w"] = 9;
  const std::vector<Case> cases = {
      {"weights_released", small, false, true, true, false, "released its weights (its SKIP_WEIGHT_RLS is 0)"},
      {"data_released", small, true, false, false, true, "released its input lines (its SKIP_DATA_RLS is 0"},
      {"other_input", wide, true, false, true, true, "DATA_REUSE needs the held input cube 8x6x16"},
  };
  const fs::path a = write_layer(small, "refuse_a");
  const dla::golden::HwConfig& hw = *dla::golden::find_config("nv_small");
  for (const Case& c : cases) {
    INFO(c.name);
    const fs::path b = write_layer(c.b, std::string("refuse_") + c.name);
    const Pair p = make_pair(a, b, c.data, c.weights, c.skip_data, c.skip_weights);
    GoldenDevice gold(hw);
    const RunResult g = run_program(p.program, &gold, nullptr, {});
    CHECK(g.status != Status::Pass);
    CHECK_THAT(g.message, Catch::Contains(c.rule));
    RunOptions o;
    std::string why;
    std::unique_ptr<Device> rtl = make_rtl_device(enabled_blocks(p.program), hw, o, why);
    REQUIRE(rtl != nullptr);
    ProgramRunOptions po;
    po.mode = "rtl";
    const RunResult rr = run_program(p.program, nullptr, rtl.get(), po);
    CHECK(rr.status != Status::Pass);
    CHECK_THAT(rr.message, Catch::Contains(c.rule));
    CHECK_THAT(rr.message, Catch::Contains("this RTL refuses the layer"));
    fs::remove(b);
  }
  fs::remove(a);
}
