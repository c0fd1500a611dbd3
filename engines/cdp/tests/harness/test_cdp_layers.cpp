// `cdp` layers (testvectors/layers/cdp/) judged by an independent int64 reference
// (harness/cdp_reference.hpp: the layer read from its JSON, the expected output and statistics from
// plain loops around the verified LUT lookup) on the golden device, every lane of every output atom
// and every statistics register. Also: the layers cover the cases they are meant to, the compiled
// program is a driver's, and malformed layers are refused naming the JSON pointer and the rule. The
// RTL runs the same layers through testvectors/suites/cdp.json.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/cdp/harness/cdp_reference.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"
#include "layer_helpers.hpp"
#include "engines/cdp/harness/cdp.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/cdp";

uint32_t reg(GoldenDevice& dev, const std::string& cfg, const std::string& name) {
  return dev.reg_read(*RegDb::nvdla().address(cfg, *RegDb::nvdla().find(name)));
}

std::string refusal(const std::string& body) { return testing::refusal(body, "dla_cdp_bad_layer.json"); }

const std::string kLrnLut = R"({"function":"lrn","le_function":"exponent","raw":[0,65536],"density":[0,4096]})";

// A valid nv_small layer with fields substituted.
std::string layer_with(const std::string& lrn, const std::string& extra = "", const std::string& lut = kLrnLut,
                       const std::string& precision = "int8", const std::string& output = "{}") {
  return R"({"unit":"cdp","config":"nv_small","cube":{"w":4,"h":3,"c":10},
             "input":{"precision":")" +
         precision + R"(","data":{"random":{}}},"lrn":)" + lrn + extra + R"(,"lut":)" + lut + R"(,"output":)" + output +
         "}";
}

// The LUT cases a layer reaches (which table a priority picks where, each counter, saturation).
void note_lut_cases(const cdp_ref::Layer& L, const cdp_ref::Stats& s, std::set<std::string>& seen) {
  if (s.uflow > 0) seen.insert(L.lut.uflow_prio_lo ? "both uflow -> LO" : "both uflow -> LE");
  if (s.oflow > 0) seen.insert(L.lut.oflow_prio_lo ? "both oflow -> LO" : "both oflow -> LE");
  if (s.hybrid > s.mixed) seen.insert(L.lut.hybrid_prio_lo ? "both hit -> LO" : "both hit -> LE");
  if (s.mixed > 0) seen.insert(L.lut.hybrid_prio_lo ? "uflow + oflow -> LO" : "uflow + oflow -> LE");
  if (s.le_hit > 0) seen.insert("LE hit only");
  if (s.lo_hit > 0) seen.insert("LO hit only");
  if (s.saturation > 0) seen.insert("output saturation");
}

}  // namespace

TEST_CASE("every cdp layer equals the int64 reference on the golden model", "[cdp][cdp_layers]") {
  const auto files = testing::layer_files(kLayers);
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.stem().string()) {
      const LoadedLayer l = load_layer(f);
      RunResult r;
      const auto dev = testing::run_golden(engines::compile_cdp_layer(l.header, l.root()), l, r);
      INFO(r.message);
      REQUIRE(r.status == Status::Pass);  // includes the statistics reads the compiler expects
      const cdp_ref::Layer L = cdp_ref::read_layer(l.root(), f.stem().string(), l.header.seed);
      CHECK(cdp_ref::compare(L, cdp_ref::read_output(L, dev->memory())) == "");
      const cdp_ref::Stats s = cdp_ref::reference(L).stats;
      const std::string& cfg = l.header.config->name;
      CHECK(reg(*dev, cfg, "CDP.D_PERF_LUT_UFLOW") == s.uflow);
      CHECK(reg(*dev, cfg, "CDP.D_PERF_LUT_OFLOW") == s.oflow);
      CHECK(reg(*dev, cfg, "CDP.D_PERF_LUT_HYBRID") == s.hybrid);
      CHECK(reg(*dev, cfg, "CDP.D_PERF_LUT_LE_HIT") == s.le_hit);
      CHECK(reg(*dev, cfg, "CDP.D_PERF_LUT_LO_HIT") == s.lo_hit);
      CHECK(reg(*dev, cfg, "CDP.D_OUT_SATURATION") == s.saturation);
      // The comparison sees a single flipped bit of the last output lane.
      const uint64_t last = L.out_address(L.lanes() - 1, L.H - 1, L.W - 1);
      dev->memory().write(last, static_cast<uint8_t>(dev->memory().read(last) ^ 0x10));
      CHECK_THAT(cdp_ref::compare(L, cdp_ref::read_output(L, dev->memory())), Catch::Contains("1 of"));
    }
  }
}

TEST_CASE("the cdp layers cover the intended cases and are strong tests", "[cdp][cdp_layers]") {
  std::set<std::string> seen;
  for (const auto& f : testing::layer_files(kLayers)) {
    const LoadedLayer l = load_layer(f);
    const cdp_ref::Layer L = cdp_ref::read_layer(l.root(), f.stem().string(), l.header.seed);
    INFO(L.name);
    seen.insert(L.config);
    seen.insert("window " + std::to_string(L.window));
    if (L.int16) seen.insert("int16");
    if (L.C % (L.atom / L.bpe()) != 0) seen.insert("padded lanes");
    if (L.C < L.window) seen.insert("C < window");
    if (L.C > L.atom / L.bpe()) seen.insert("several atoms");
    if (L.sqsum_bypass) seen.insert("sqsum bypass");
    if (L.mul_bypass) seen.insert("mul bypass");
    if (L.lut.le_linear) seen.insert("LE linear");
    if (!L.lut.le_linear) seen.insert("LE exponent");
    const cdp_ref::Result r = cdp_ref::reference(L);
    note_lut_cases(L, r.stats, seen);
    // Strong: the output is not constant.
    CHECK(std::set<int64_t>(r.out.begin(), r.out.end()).size() > 1);
  }
  for (const char* want :
       {"nv_small", "nv_large", "nv_full", "window 3", "window 5", "window 7", "window 9", "int16", "padded lanes",
        "C < window", "several atoms", "sqsum bypass", "mul bypass", "LE linear", "LE exponent", "both uflow -> LO",
        "both uflow -> LE", "both oflow -> LO", "both oflow -> LE", "both hit -> LO", "both hit -> LE",
        "uflow + oflow -> LO", "LE hit only", "LO hit only", "output saturation"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("the cdp compiler programs what a driver would", "[cdp][cdp_layers]") {
  const LoadedLayer l = load_layer(kLayers / "small_both_bypass_sigmoid.json");
  const Program p = engines::compile_cdp_layer(l.header, l.root());
  std::vector<std::pair<std::string, uint32_t>> writes;
  for (const ProgramStep& s : p.steps) {
    if (s.op == StepOp::RegWrite) writes.emplace_back(s.reg->block + "." + s.reg->name, s.value);
  }
  const auto last = [&](const std::string& name) {
    uint32_t v = 0;
    bool found = false;
    for (const auto& [n, val] : writes) {
      if (n == name) {
        v = val;
        found = true;
      }
    }
    REQUIRE(found);
    return v;
  };
  // 8x3x11 int8, window 3 (NORMALZ_LEN 0), both bypasses, in (x + 20) x 3 >> 1, out >> 7.
  CHECK(last("CDP_RDMA.D_DATA_CUBE_WIDTH") == 7u);
  CHECK(last("CDP_RDMA.D_DATA_CUBE_HEIGHT") == 2u);
  CHECK(last("CDP_RDMA.D_DATA_CUBE_CHANNEL") == 10u);
  CHECK(last("CDP.D_LRN_CFG") == 0u);
  CHECK(last("CDP.D_FUNC_BYPASS") == 3u);
  CHECK(last("CDP.D_DATIN_OFFSET") == 0xffecu);  // -20, 16 bits
  CHECK(last("CDP.D_DATIN_SCALE") == 3u);
  CHECK(last("CDP.D_DATIN_SHIFTER") == 1u);
  CHECK(last("CDP.D_DATOUT_SHIFTER") == 7u);
  CHECK(last("CDP.D_DATA_FORMAT") == 0u);
  CHECK(last("CDP.D_PERF_ENABLE") == 2u);  // LUT_EN
  // 8 x 8-byte atoms per line, 3 lines per surface, 2 surfaces.
  CHECK(last("CDP_RDMA.D_SRC_LINE_STRIDE") == 64u);
  CHECK(last("CDP_RDMA.D_SRC_SURFACE_STRIDE") == 192u);
  // Both tables through the access port: ACCESS_CFG (LE, write, 0) + 65 DATA, (LO, write, 0) + 257.
  std::size_t data = 0;
  std::vector<uint32_t> cfgs;
  for (const auto& [n, v] : writes) {
    if (n == "CDP.S_LUT_ACCESS_DATA") ++data;
    if (n == "CDP.S_LUT_ACCESS_CFG") cfgs.push_back(v);
  }
  CHECK(data == 65u + 257u);
  CHECK(cfgs == std::vector<uint32_t>{0x20000u, 0x30000u});
  // OP_EN last: CDP, then CDP_RDMA.
  REQUIRE(writes.size() >= 2);
  CHECK(writes[writes.size() - 2].first == "CDP.D_OP_ENABLE");
  CHECK(writes.back().first == "CDP_RDMA.D_OP_ENABLE");
}

TEST_CASE("malformed cdp layers are refused naming the JSON pointer and the rule", "[cdp][cdp_layers]") {
  CHECK_THAT(refusal(layer_with(R"({"window":4})")),
             Catch::Contains("/lrn/window | 4 is not a window NVDLA's CDP has: D_LRN_CFG.NORMALZ_LEN sums 3, 5, 7 or 9"));
  CHECK_THAT(refusal(layer_with(R"({"window":11})")), Catch::Contains("/lrn/window | 11 is not a window"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", R"(,"in_cvt":{"offset":200})")),
             Catch::Contains("/in_cvt/offset | 200 is out of range [-128, 127]: int8 subtracts DATIN_OFFSET's low 8 bits"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", R"(,"in_cvt":{"shift":25})")),
             Catch::Contains("/in_cvt/shift | a shift of 25 or more in the input converter gives 0 for every element"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", R"(,"out_cvt":{"offset":16777216})")),
             Catch::Contains("/out_cvt/offset | 16777216 is out of range [-16777216, 16777215]: int8 keeps DATOUT_OFFSET's "
                             "low 25 bits"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", R"(,"out_cvt":{"shift":42})")),
             Catch::Contains("/out_cvt/shift | a shift of 42 or more in the output converter gives 0"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", R"(,"out_cvt":{"scale":40000})")),
             Catch::Contains("/out_cvt/scale | 40000 is out of range [-32768, 32767]"));
  // Tables that do not fit: a linear LO whose END is not START + 256 x 2^select.
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "",
                                R"({"function":"lrn","le_function":"exponent","raw":[0,65536],"density":[0,4096],
                                    "registers":{"lo_end":5000}})")),
             Catch::Contains("/lut/registers/lo_end | the linear LO table ends at START + 256 x 2^4 = 4096, but its END is "
                             "5000"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "",
                                R"({"function":"lrn","le_function":"linear","raw":[0,65536],"density":[0,4096],
                                    "registers":{"lo_index_select":-9}})")),
             Catch::Contains("/lut | the linear LO table with index select -9 spans 256 / 2^9 input steps"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "",
                                R"({"function":"lrn","le_function":"exponent","raw":[0,65536],"density":[0,4096],
                                    "registers":{"lo_index_select":40}})")),
             Catch::Contains("/lut/registers/lo_index_select | 40 is out of range [-32, 31]"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "", R"({"le":[1,2,3],"lo":[]})")),
             Catch::Contains("/lut/le | the LE table needs exactly 65 entries, 3 given"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "", R"({"function":"relu"})")), Catch::Contains("/lut/function"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "", kLrnLut, "int16")),
             Catch::Contains("/input/precision | nv_small has no int16"));
  CHECK_THAT(refusal(layer_with(R"({"window":3})", "", kLrnLut, "int8", R"({"base":2147483712})")),
             Catch::Contains("/output/base | the output region [0x80000040, 0x80000100) overlaps the input region"));
  CHECK_THAT(refusal(layer_with(R"({"window":3,"sum":true})")), Catch::Contains("/lrn"));
}

TEST_CASE("random cdp layers reach every flag, priority and corner", "[cdp][cdp_layers][random]") {
  // 200 generated layers per configuration (dlacosim random cdp, seed 1): their reference statistics
  // and shapes, so a generator change that stops reaching a case fails here.
  std::set<std::string> seen;
  for (const std::string cfg : {"nv_small", "nv_large", "nv_full"}) {
    for (uint64_t i = 0; i < 200; ++i) {
      const RandomLayer g = generate_random_layer("cdp", *dla::golden::find_config(cfg), 1, i);
      const auto jd = parse_json_text(g.name + ".json", g.doc.dump());
      const cdp_ref::Layer L = cdp_ref::read_layer(JsonNode::root(jd), g.name, g.seed);
      const cdp_ref::Stats s = cdp_ref::reference(L).stats;
      seen.insert("window " + std::to_string(L.window));
      if (L.int16) seen.insert("int16");
      if (L.C < L.window) seen.insert("C < window");
      if (L.C % (L.atom / L.bpe()) != 0) seen.insert("padded lanes");
      if (L.sqsum_bypass) seen.insert("sqsum bypass");
      if (L.mul_bypass) seen.insert("mul bypass");
      note_lut_cases(L, s, seen);
      if (!L.perf_lut) seen.insert("LUT counters off");
    }
  }
  for (const char* want :
       {"window 3", "window 5", "window 7", "window 9", "int16", "C < window", "padded lanes", "sqsum bypass", "mul bypass",
        "both uflow -> LO", "both uflow -> LE", "both oflow -> LO", "both oflow -> LE", "both hit -> LO", "both hit -> LE",
        "uflow + oflow -> LO", "uflow + oflow -> LE", "LE hit only", "LO hit only", "output saturation",
        "LUT counters off"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}
