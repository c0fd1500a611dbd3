// `rubik` layers (testvectors/layers/rubik/) judged by an independent re-layout reference
// (harness/rubik_reference.hpp: the layer read from its JSON and every byte of the output region
// computed element by element from what each mode means) on the golden device. Also: the layers
// cover the cases they are meant to, the compiled program is what the programming guide asks, both
// register groups and their GLB done bits, nv_full only, and malformed layers are refused naming
// the JSON pointer and the rule.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "engines/rubik/harness/rubik_reference.hpp"
#include "layer_helpers.hpp"
#include "engines/rubik/harness/rubik.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/rubik";

std::string refusal(const std::string& body) { return testing::refusal(body, "dla_rubik_bad_layer.json"); }

// A valid layer with fields substituted.
std::string layer_with(const std::string& mode, const std::string& extra, const std::string& input = "{}",
                       const std::string& output = "{}", const std::string& config = "nv_full",
                       const std::string& cube = R"({"w":3,"h":2,"c":5})") {
  std::string in = input;
  in.insert(1, std::string(R"("data":{"random":{}})") + (input == "{}" ? "" : ","));
  return R"({"unit":"rubik","config":")" + config + R"(","mode":")" + mode + R"(","precision":"int8","cube":)" + cube +
         extra + R"(,"input":)" + in + R"(,"output":)" + output + "}";
}

std::map<std::string, uint32_t> last_writes(const Program& p) {
  std::map<std::string, uint32_t> w;
  for (const ProgramStep& s : p.steps) {
    if (s.op == StepOp::RegWrite) w[s.reg->name] = s.value;
  }
  return w;
}

}  // namespace

TEST_CASE("every rubik layer equals the re-layout reference on the golden model", "[rubik][rubik_layers]") {
  const auto files = testing::layer_files(kLayers);
  REQUIRE(files.size() >= 15);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.stem().string()) {
      const LoadedLayer l = load_layer(f);
      RunResult r;
      const auto dev = testing::run_golden(engines::compile_rubik_layer(l.header, l.root()), l, r);
      INFO(r.message);
      REQUIRE(r.status == Status::Pass);
      const rubik_ref::Layer L = rubik_ref::read_layer(l.root(), l.header.seed);
      CHECK(rubik_ref::compare(L, dev->memory()) == "");
      // No back-pressure on the golden device: both stall counters read 0.
      const RegDb& db = RegDb::nvdla();
      CHECK(dev->reg_read(*db.address("nv_full", *db.find("RBK.D_PERF_READ_STALL"))) == 0);
      CHECK(dev->reg_read(*db.address("nv_full", *db.find("RBK.D_PERF_WRITE_STALL"))) == 0);
      // The comparison sees one flipped bit of the last byte of the output region.
      const uint64_t last = L.out_base + rubik_ref::expected_output(L).size() - 1;
      dev->memory().write(last, static_cast<uint8_t>(dev->memory().read(last) ^ 0x04));
      CHECK_THAT(rubik_ref::compare(L, dev->memory()), Catch::Contains("1 of"));
    }
  }
}

TEST_CASE("the rubik layers cover the intended cases", "[rubik][rubik_layers]") {
  std::set<std::string> seen;
  for (const auto& f : testing::layer_files(kLayers)) {
    const LoadedLayer l = load_layer(f);
    const rubik_ref::Layer L = rubik_ref::read_layer(l.root(), l.header.seed);
    INFO(f.stem().string());
    const std::string m = L.mode;
    seen.insert(m + (L.bpe == 2 ? " int16" : " int8"));
    if (L.W == 1) seen.insert(m + " W=1");
    if (L.H == 1) seen.insert(m + " H=1");
    if (L.C == 1) seen.insert(m + " C=1");
    if (L.C % (32 / L.bpe) != 0) seen.insert(m + " C not a multiple of the atom");
    if (L.C > 32 / L.bpe) seen.insert(m + " several surfaces");
    if (m == "contract") {
      seen.insert("sx " + std::to_string(L.sx));
      seen.insert("sy " + std::to_string(L.sy));
    }
    const JsonNode in = l.root().require("input");
    const JsonNode out = l.root().require("output");
    if (in.get("line_stride") || out.get("line_stride")) seen.insert(m + " explicit strides");
    // Strong: the output is not constant, nor only the fill and one value.
    const std::vector<uint8_t> want = rubik_ref::expected_output(L);
    CHECK(std::set<uint8_t>(want.begin(), want.end()).size() > (L.W * L.H * L.C == 1 ? 1u : 2u));
  }
  for (const std::string m : {"contract", "split", "merge"}) {
    for (const char* what : {" int8", " int16", " W=1", " H=1", " C=1", " C not a multiple of the atom",
                             " several surfaces", " explicit strides"}) {
      INFO(m + what);
      CHECK(seen.count(m + what) == 1);
    }
  }
  for (int s = 1; s <= 8; ++s) {
    INFO(s);
    CHECK(seen.count("sx " + std::to_string(s)) == 1);
    CHECK(seen.count("sy " + std::to_string(s)) == 1);
  }
}

TEST_CASE("the rubik compiler programs what the programming guide asks", "[rubik][rubik_layers]") {
  // contract_int16_s3x5_c17: W 2, H 3, Cout 17 int16 (34 bytes: 2 surfaces), sx 3, sy 5, packed.
  const LoadedLayer l = load_layer(kLayers / "contract_int16_s3x5_c17.json");
  const Program p = engines::compile_rubik_layer(l.header, l.root());
  const auto w = last_writes(p);
  CHECK(w.at("D_MISC_CFG") == 0x100);                 // CONTRACT, IN_PRECISION INT16
  CHECK(w.at("D_DATAIN_SIZE_0") == ((2u << 16) | 1u));  // H-1, W-1
  CHECK(w.at("D_DATAIN_SIZE_1") == 3 * 5 * 17 - 1);     // so that DATAOUT_CHANNEL = (DATAIN_CHANNEL+1)/(sx*sy) - 1
  CHECK(w.at("D_DATAOUT_SIZE_1") == 16);
  CHECK(w.at("D_DECONV_STRIDE") == ((4u << 16) | 2u));
  CHECK(w.at("D_DAIN_LINE_STRIDE") == 2 * 32);
  CHECK(w.at("D_DAIN_SURF_STRIDE") == 3 * 64);
  CHECK(w.at("D_CONTRACT_STRIDE_0") == 2 * 3 * 64);       // ceil(17 * 2 / 32) x DAIN_SURF_STRIDE
  CHECK(w.at("D_DAOUT_LINE_STRIDE") == 2 * 3 * 32);       // W x sx atoms
  CHECK(w.at("D_CONTRACT_STRIDE_1") == 5 * 2 * 3 * 32);   // (DECONV_Y_STRIDE + 1) x DAOUT_LINE_STRIDE
  CHECK(w.at("D_DAOUT_SURF_STRIDE") == 3 * 5 * 2 * 3 * 32);
  CHECK(w.at("D_DAIN_PLANAR_STRIDE") == 0);  // not used by CONTRACT: left 0
  CHECK(w.at("D_DAOUT_PLANAR_STRIDE") == 0);
  CHECK(w.at("D_OP_ENABLE") == 1);
  REQUIRE(!p.steps.empty());
  bool waits = false;
  for (const ProgramStep& s : p.steps) waits = waits || (s.op == StepOp::WaitIntr && s.intr == "RUBIK_0");
  CHECK(waits);
  // SPLIT: the plane count in DATAOUT_CHANNEL, 64-byte plane lines; no DECONV or CONTRACT strides.
  const LoadedLayer s = load_layer(kLayers / "split_int16_c17_w20.json");
  const auto ws = last_writes(engines::compile_rubik_layer(s.header, s.root()));
  CHECK(ws.at("D_MISC_CFG") == 0x101);
  CHECK(ws.at("D_DATAOUT_SIZE_1") == 16);
  CHECK(ws.at("D_DATAIN_SIZE_1") == 16);
  CHECK(ws.at("D_DAOUT_LINE_STRIDE") == 64);  // 40 bytes -> 64-byte aligned line
  CHECK(ws.at("D_DAOUT_PLANAR_STRIDE") == 2 * 64);
  CHECK(ws.at("D_CONTRACT_STRIDE_0") == 0);
  CHECK(ws.at("D_DECONV_STRIDE") == 0);
}

TEST_CASE("rubik runs both register groups and raises GLB bits 8 and 9", "[rubik][rubik_layers]") {
  const RegDb& db = RegDb::nvdla();
  GoldenDevice dev(dla::golden::nv_full());
  const auto addr = [&](const std::string& r) { return *db.address("nv_full", *db.find(r)); };
  const auto wr = [&](const std::string& r, uint32_t v) { dev.reg_write(addr(r), v); };
  // Group 0: SPLIT int8 of a 1x1x2 cube at 0x1000 into planes at 0x2000 (planar stride 0x40).
  // Group 1: MERGE int8 of those two planes into a cube at 0x3000.
  dev.memory().write(0x1000, 0x11);
  dev.memory().write(0x1001, 0x22);
  wr("RBK.S_POINTER", 0);
  wr("RBK.D_MISC_CFG", 0x001);
  wr("RBK.D_DATAIN_SIZE_1", 1);
  wr("RBK.D_DATAOUT_SIZE_1", 1);
  wr("RBK.D_DAIN_ADDR_LOW", 0x1000);
  wr("RBK.D_DAIN_LINE_STRIDE", 0x20);
  wr("RBK.D_DAIN_SURF_STRIDE", 0x20);
  wr("RBK.D_DAOUT_ADDR_LOW", 0x2000);
  wr("RBK.D_DAOUT_LINE_STRIDE", 0x40);
  wr("RBK.D_DAOUT_PLANAR_STRIDE", 0x40);
  wr("RBK.D_OP_ENABLE", 1);
  wr("RBK.S_POINTER", 1);
  wr("RBK.D_MISC_CFG", 0x002);
  wr("RBK.D_DATAIN_SIZE_1", 1);
  wr("RBK.D_DATAOUT_SIZE_1", 1);
  wr("RBK.D_DAIN_ADDR_LOW", 0x2000);
  wr("RBK.D_DAIN_LINE_STRIDE", 0x40);
  wr("RBK.D_DAIN_PLANAR_STRIDE", 0x40);
  wr("RBK.D_DAOUT_ADDR_LOW", 0x3000);
  wr("RBK.D_DAOUT_LINE_STRIDE", 0x20);
  wr("RBK.D_DAOUT_SURF_STRIDE", 0x20);
  wr("RBK.D_OP_ENABLE", 1);
  // Group 0 running (consumer), group 1 pending.
  CHECK(dev.reg_read(addr("RBK.S_STATUS")) == 0x20001);
  REQUIRE(dev.wait_interrupt("RUBIK_0", 1000).raised);
  CHECK((dev.reg_read(addr("GLB.S_INTR_STATUS")) & 0x300) == 0x100);
  REQUIRE(dev.wait_interrupt("RUBIK_1", 1000).raised);
  CHECK((dev.reg_read(addr("GLB.S_INTR_STATUS")) & 0x300) == 0x300);
  CHECK(dev.reg_read(addr("RBK.S_STATUS")) == 0);
  CHECK(dev.reg_read(addr("RBK.S_POINTER")) == 1);  // PRODUCER 1, CONSUMER back to 0
  // Split then merge gives the cube back: lanes 0 and 1, lane 2 written 0; the planes' line tails 0.
  CHECK(dev.memory().read(0x2000) == 0x11);
  CHECK(dev.memory().read(0x2040) == 0x22);
  CHECK(dev.memory().read(0x2001) == 0);
  CHECK(dev.memory().read(0x3000) == 0x11);
  CHECK(dev.memory().read(0x3001) == 0x22);
  CHECK(dev.memory().read(0x3002) == 0);
}

TEST_CASE("rubik is nv_full only: layers and programs touching RBK elsewhere exit 2 naming the block",
          "[rubik][rubik_layers]") {
  for (const char* cfg : {"nv_small", "nv_large"}) {
    INFO(cfg);
    CHECK_THAT(refusal(layer_with("split", "", "{}", "{}", cfg)), Catch::Contains("/config | " + std::string(cfg) +
                                                                                  " has no RUBIK"));
    CHECK(!RegDb::nvdla().address(cfg, *RegDb::nvdla().find("RBK.D_OP_ENABLE")));
    const std::string prog = R"({"unit":"program","config":")" + std::string(cfg) +
                             R"(","steps":[{"op":"reg_write","reg":"RBK.D_OP_ENABLE","value":1}]})";
    CHECK_THAT(refusal(prog), Catch::Contains("block RBK does not exist in " + std::string(cfg)));
    // A program that only waits for RUBIK_0 there: the wait says why it never comes.
    GoldenDevice dev(*dla::golden::find_config(cfg));
    CHECK_THAT(dev.wait_interrupt("RUBIK_0", 100).detail,
               Catch::Contains(std::string(cfg) + " has no RUBIK (RBK exists on nv_full only"));
  }
  CHECK(RegDb::nvdla().address("nv_full", *RegDb::nvdla().find("RBK.D_OP_ENABLE")) == 0x10008u);
}

TEST_CASE("malformed rubik layers are refused naming the JSON pointer and the rule", "[rubik][rubik_layers]") {
  CHECK(refusal(layer_with("contract", R"(,"stride":{"x":2,"y":3})")) == "accepted");
  CHECK(refusal(layer_with("split", "")) == "accepted");
  CHECK(refusal(layer_with("merge", "")) == "accepted");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {layer_with("rotate", ""), "/mode | "},
      {layer_with("split", R"(,"stride":{"x":2})"), "/stride | \"stride\" has no meaning in split mode"},
      {layer_with("contract", R"(,"stride":{"x":33})"), "/stride/x | "},
      {layer_with("contract", R"(,"stride":{"x":0})"), "/stride/x | "},
      {layer_with("contract", R"(,"stride":{"x":4})", "{}", "{}", "nv_full", R"({"w":2049,"h":1,"c":1})"),
       "/stride/x | the output width W x sx = 2049 x 4 exceeds 8192"},
      {layer_with("contract", R"(,"stride":{"x":8,"y":8})", "{}", "{}", "nv_full", R"({"w":1,"h":1,"c":200})"),
       "/cube/c | sx x sy x C = 8 x 8 x 200 exceeds 8192"},
      {layer_with("split", "", R"({"planar_stride":64})"), "/input/planar_stride | \"planar_stride\" has no meaning"},
      {layer_with("merge", "", R"({"surface_stride":64})"), "/input/surface_stride | \"surface_stride\" has no meaning"},
      {layer_with("split", "", "{}", R"({"surface_stride":64})"), "/output/surface_stride | \"surface_stride\" has no"},
      {layer_with("merge", "", "{}", R"({"contract_stride":64})"), "/output/contract_stride | "},
      {layer_with("contract", "", R"({"line_stride":100})"), "/input/line_stride | 100 is not a multiple of 32"},
      {layer_with("split", "", "{}", R"({"line_stride":96})"), "/output/line_stride | 96 is not a multiple of 64"},
      {layer_with("merge", "", R"({"base":4294967328})"), "/input/base | 4294967328 is not a multiple of 64"},
      {layer_with("split", "", "{}", R"({"line_stride":0})"), "/output/line_stride | line_stride 0 is less than 32"},
      {layer_with("split", "", "{}", R"({"planar_stride":64})"), "/output/planar_stride | planar_stride 64 is less than"},
      {layer_with("merge", "", R"({"planar_stride":0})"), "/input/planar_stride | "},
      {layer_with("contract", R"(,"stride":{"x":2})", R"({"contract_stride":32})"),
       "/input/contract_stride | contract_stride 32 is less than 192: the 2 sub-cubes"},
      {layer_with("contract", R"(,"stride":{"y":2})", "{}", R"({"contract_stride":96})"),
       "/output/contract_stride | contract_stride 96 is less than 192"},
      {layer_with("contract", "", "{}", R"({"line_stride":64})"), "/output/line_stride | line_stride 64 is less than 96"},
      {layer_with("contract", "", R"({"line_stride":32})"), "/input | the input sub-cube layout is invalid"},
      {layer_with("merge", "", "{}", R"({"line_stride":32})"), "/output | the output cube layout is invalid"},
      {layer_with("split", "", "{}", R"({"base":2147483648})"), "/output/base | the output region"},
      {R"({"unit":"rubik","config":"nv_full","mode":"split","precision":"fp32","cube":{"w":1,"h":1,"c":1},"input":{"data":{"random":{}}},"output":{}})",
       "/precision | "},
      {R"({"unit":"rubik","config":"nv_full","mode":"split","precision":"fp16","cube":{"w":1,"h":1,"c":1},"input":{"data":{"values":[0.1]}},"output":{}})",
       "/input/data/values/0 | "},
      {R"({"unit":"rubik","config":"nv_full","mode":"split","precision":"int8","cube":{"w":1,"h":1,"c":1},"input":{"data":{"random":{}}},"output":{},"bogus":1})",
       "/bogus | "},
  };
  for (const auto& [body, want] : cases) {
    INFO(body);
    CHECK_THAT(refusal(body), Catch::StartsWith(want));
  }
}

TEST_CASE("random rubik layers reach every mode, precision, stride and layout case", "[rubik][rubik_layers][random]") {
  // 300 generated layers (dlacosim random rubik, seed 1): their shapes and layouts, so a generator
  // change that stops reaching a case fails here.
  std::set<std::string> seen;
  for (uint64_t i = 0; i < 300; ++i) {
    const RandomLayer g = generate_random_layer("rubik", dla::golden::nv_full(), 1, i);
    const auto jd = parse_json_text(g.name + ".json", g.doc.dump());
    const rubik_ref::Layer L = rubik_ref::read_layer(JsonNode::root(jd), g.seed);
    seen.insert(L.mode + (L.bpe == 2 ? " int16" : " int8"));
    if (L.C % (32 / L.bpe) != 0) seen.insert(L.mode + " padded lanes");
    if (L.C % (32 / L.bpe) == 0) seen.insert(L.mode + " whole atoms");
    if (L.W == 1 || L.H == 1) seen.insert(L.mode + " W or H 1");
    if (L.W >= 64) seen.insert(L.mode + " wide");
    if (L.mode == "contract") {
      if (L.sx <= 8) seen.insert("sx " + std::to_string(L.sx));
      if (L.sy <= 8) seen.insert("sy " + std::to_string(L.sy));
      if (L.sx > 8 || L.sy > 8) seen.insert("stride above 8");
    }
    const JsonNode root = JsonNode::root(jd);
    if (root.require("output").get("line_stride")) seen.insert(L.mode + " gaps");
    if (L.in_base != rubik_ref::kInputBase) seen.insert(L.mode + " moved base");
    if (L.out_base >= (uint64_t{1} << 32) + rubik_ref::kOutputBase) seen.insert("base above 4 GiB");
  }
  for (const std::string m : {"contract", "split", "merge"}) {
    for (const char* what : {" int8", " int16", " padded lanes", " whole atoms", " W or H 1", " wide", " gaps",
                             " moved base"}) {
      INFO(m + what);
      CHECK(seen.count(m + what) == 1);
    }
  }
  for (int s = 1; s <= 8; ++s) {
    CHECK(seen.count("sx " + std::to_string(s)) == 1);
    CHECK(seen.count("sy " + std::to_string(s)) == 1);
  }
  CHECK(seen.count("stride above 8") == 1);
  CHECK(seen.count("base above 4 GiB") == 1);
}
