// `pdp` layers (testvectors/layers/pdp/) judged by an independent int64 pooling reference
// (harness/pdp_reference.hpp: the layer read from its JSON, the expected output from plain loops)
// on the golden device, every lane of every output atom. Also: the layers cover the cases they are
// meant to, the compiled program is a driver's (split widths as NVDLA's compiler computes them),
// and malformed layers are refused naming the JSON pointer and the rule. The RTL runs the same
// layers through testvectors/suites/pdp.json.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "engines/pdp/harness/pdp_reference.hpp"
#include "harness/program_runner.hpp"
#include "layer_helpers.hpp"
#include "engines/pdp/harness/pdp.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/pdp";

// The value of register `name` written by `p` (last write).
uint32_t written(const Program& p, const std::string& block, const std::string& name) {
  uint32_t v = 0;
  bool found = false;
  for (const ProgramStep& s : p.steps) {
    if (s.op == StepOp::RegWrite && s.reg->block == block && s.reg->name == name) {
      v = s.value;
      found = true;
    }
  }
  REQUIRE(found);
  return v;
}

std::string refusal(const std::string& body) { return testing::refusal(body, "dla_pdp_bad_layer.json"); }

// A valid layer with `pool` and extra top-level fields substituted.
std::string layer_with(const std::string& pool, const std::string& extra = "", const std::string& output = "{}") {
  return R"({"unit":"pdp","config":"nv_small","cube":{"w":8,"h":8,"c":8},
             "input":{"precision":"int8","data":{"random":{}}},"pool":)" +
         pool + extra + R"(,"output":)" + output + "}";
}

}  // namespace

TEST_CASE("every pdp layer equals the int64 pooling reference on the golden model", "[pdp][pdp_layers]") {
  const auto files = testing::layer_files(kLayers);
  REQUIRE(files.size() >= 24);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.stem().string()) {
      const LoadedLayer l = load_layer(f);
      RunResult r;
      const auto dev = testing::run_golden(engines::compile_pdp_layer(l.header, l.root()), l, r);
      INFO(r.message);
      REQUIRE(r.status == Status::Pass);
      const pdp_ref::Layer L = pdp_ref::read_layer(l.root(), f.stem().string(), l.header.seed);
      CHECK(pdp_ref::compare(L, pdp_ref::read_output(L, dev->memory())) == "");
      // The comparison sees a single flipped bit of the last output lane.
      const uint64_t last = L.out_address(L.lanes() - 1, L.oh() - 1, L.ow() - 1);
      dev->memory().write(last, static_cast<uint8_t>(dev->memory().read(last) ^ 0x04));
      CHECK_THAT(pdp_ref::compare(L, pdp_ref::read_output(L, dev->memory())), Catch::Contains("1 of"));
    }
  }
}

TEST_CASE("the pdp layers cover the intended cases and are strong tests", "[pdp][pdp_layers]") {
  std::set<std::string> seen;
  for (const auto& f : testing::layer_files(kLayers)) {
    const LoadedLayer l = load_layer(f);
    const pdp_ref::Layer L = pdp_ref::read_layer(l.root(), f.stem().string(), l.header.seed);
    INFO(L.name);
    seen.insert(L.method);
    seen.insert(L.config);
    if (L.kw == 1 && L.kh == 1) seen.insert("kernel 1");
    if (L.kw == 8 && L.kh == 8) seen.insert("kernel 8");
    if (L.sw > L.kw || L.sh > L.kh) seen.insert("stride > kernel");
    if (L.kw > L.W || L.kh > L.H) seen.insert("kernel > input");
    const int pad_max = std::max({L.pl, L.pr, L.pt, L.pb});
    if (L.method == "average" && L.pad_value != 0 && pad_max == std::min(L.kw, L.kh) - 1 && pad_max > 0) {
      seen.insert("pads at the limit with a pad value");
    }
    if (L.W == 1 && L.H == 1) seen.insert("1x1 input");
    if (L.W == 8192) seen.insert("W = 8192");
    if (L.int16) seen.insert("int16");
    if (L.C % (L.atom / L.bpe()) != 0) seen.insert("padded lanes");
    // Splits as compiled.
    const Program p = engines::compile_pdp_layer(l.header, l.root());
    const uint32_t split = (written(p, "PDP", "D_OPERATION_MODE_CFG") >> 8) & 0xffu;
    if (split == 1) seen.insert("2 splits");
    if (split >= 4) seen.insert("many splits");
    // Strong: the output is not constant.
    const std::vector<int64_t> ref = pdp_ref::reference(L);
    CHECK(std::set<int64_t>(ref.begin(), ref.end()).size() > 1);
  }
  for (const char* want : {"average", "max", "min", "nv_small", "nv_large", "nv_full", "kernel 1", "kernel 8",
                           "stride > kernel", "kernel > input", "pads at the limit with a pad value", "1x1 input",
                           "W = 8192", "int16", "padded lanes", "2 splits", "many splits"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("the pdp compiler splits wide lines as NVDLA's compiler does", "[pdp][pdp_layers]") {
  // small_max_w8192: kernel 2 stride 2, W = 8192 -> W' = 4096. At most 512 output columns fit
  // nv_small's line buffer and (1024 - 2) / 2 = 511 keep IN <= 1024 columns: 9 pieces, OUT 511 / 511
  // / 4096 - 8 x 511 = 8, IN (511-1) x 2 + 2 = 1022 / 1022 / (8-1) x 2 + 2 = 16.
  const LoadedLayer l = load_layer(kLayers / "small_max_w8192.json");
  const Program p = engines::compile_pdp_layer(l.header, l.root());
  CHECK(((written(p, "PDP", "D_OPERATION_MODE_CFG") >> 8) & 0xffu) == 8u);  // SPLIT_NUM = pieces - 1
  const uint32_t in = written(p, "PDP", "D_PARTIAL_WIDTH_IN");
  const uint32_t out = written(p, "PDP", "D_PARTIAL_WIDTH_OUT");
  CHECK((in & 0x3ffu) == 1021u);           // FIRST - 1
  CHECK(((in >> 20) & 0x3ffu) == 1021u);   // MID - 1
  CHECK(((in >> 10) & 0x3ffu) == 15u);     // LAST - 1
  CHECK((out & 0x3ffu) == 510u);
  CHECK(((out >> 20) & 0x3ffu) == 510u);
  CHECK(((out >> 10) & 0x3ffu) == 7u);
  CHECK(written(p, "PDP_RDMA", "D_PARTIAL_WIDTH_IN") == in);
  // Firmware values: RECIP = floor(2^16 / 2) = 0x8000.
  CHECK(written(p, "PDP", "D_RECIP_KERNEL_WIDTH") == 0x8000u);
}

TEST_CASE("malformed pdp layers are refused naming the JSON pointer and the rule", "[pdp][pdp_layers]") {
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":9,"h":2}})")),
             Catch::Contains("/pool/kernel/w | NVDLA's PDP kernel is at most 8"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":3,"h":3},"pad":{"left":3}})")),
             Catch::Contains("/pool/pad/left | padding must be less than the kernel width 3"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":2,"h":2},"pad":{"top":8}})")),
             Catch::Contains("/pool/pad/top | 8 is out of range [0, 7]"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":3,"h":3},"stride":{"w":2,"h":2}})")),
             Catch::Contains("/pool | W + pad left + pad right - kernel width = 5 must be a multiple of the stride 2"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":2,"h":2}})", R"(,"split":{"num":3,"out_widths":[2,2,2]})")),
             Catch::Contains("/split | PDP D_PARTIAL_WIDTH_IN: FIRST + MID x 1 + LAST = 7 must equal the input width 8"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":2,"h":2}})", R"(,"split":{"max_width":600})")),
             Catch::Contains("/split/max_width | 600 is out of range [1, 512]"));
  CHECK_THAT(refusal(R"({"unit":"pdp","config":"nv_small","cube":{"w":600,"h":1,"c":8},
             "input":{"precision":"int8","data":{"random":{}}},"pool":{"method":"max","kernel":{"w":1,"h":1}},
             "split":{"max_width":2},"output":{}})"),
             Catch::Contains("/split | the split needs 300 pieces; SPLIT_NUM (8 bits) holds at most 256"));
  CHECK_THAT(refusal(layer_with(R"({"method":"average","kernel":{"w":2,"h":2},"pad":{"left":1,"value":128}})")),
             Catch::Contains("/pool/pad/value | 128 is out of range [-128, 127]"));
  CHECK_THAT(refusal(layer_with(R"({"method":"mean","kernel":{"w":2,"h":2}})")), Catch::Contains("/pool/method"));
  CHECK_THAT(refusal(layer_with(R"({"method":"max","kernel":{"w":2,"h":2}})", "", R"({"base":2147483712})")),
             Catch::Contains("/output/base | the output region [0x80000040, 0x800001c8) overlaps the input region "
                             "[0x80000000, 0x80000200)"));
  CHECK_THAT(refusal(R"({"unit":"pdp","config":"nv_small","cube":{"w":8,"h":8,"c":8},
             "input":{"precision":"int16","data":{"random":{}}},"pool":{"method":"max","kernel":{"w":1,"h":1}},"output":{}})"),
             Catch::Contains("/input/precision | nv_small has no int16"));
}
