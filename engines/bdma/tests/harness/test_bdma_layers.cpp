// `bdma` layers (testvectors/layers/bdma/) on the golden device, each judged by a memcpy loop
// written here from ../shared/reference/pdp-cdp-bdma-rubik.md §5 (the layer's commands read from
// its JSON by this file, not by the layer compiler or the golden model; the initial memory is the
// program's own mem_fill / mem_load steps). Also: the BDMA register block through the golden
// device (STATUS, groups, interrupts, refusals), the FREE_SLOT poll, nv_small / nv_large without
// BDMA, and malformed layers refused naming the JSON pointer and the rule.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "layer_helpers.hpp"
#include "engines/bdma/harness/bdma.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors/layers/bdma";

uint64_t num(const nlohmann::json& j) {
  return j.is_string() ? std::stoull(j.get<std::string>(), nullptr, 0) : j.get<uint64_t>();
}

// The reference: the memory after the layer, as a byte map over every byte the program
// initialized or a command wrote.
std::unordered_map<uint64_t, uint8_t> reference(const fs::path& file, const Program& p, std::set<std::string>& seen) {
  std::unordered_map<uint64_t, uint8_t> mem;
  for (const ProgramStep& st : p.steps) {
    if (st.op == StepOp::MemFill) {
      for (uint64_t i = 0; i < st.size; ++i) mem[st.addr + i] = st.fill;
    } else if (st.op == StepOp::MemLoad) {
      for (uint64_t i = 0; i < st.bytes.size(); ++i) mem[st.addr + i] = st.bytes[i];
    }
  }
  const auto j = nlohmann::json::parse(std::ifstream(file));
  if (j.value("poll_free_slot", false)) seen.insert("FREE_SLOT poll");
  std::set<int> groups;
  for (const auto& launch : j.at("launches")) {
    groups.insert(launch.at("group").get<int>());
    if (launch.at("commands").size() == 20) seen.insert("20 commands in one launch");
    if (launch.at("commands").size() > 1) seen.insert("several commands per launch");
    for (const auto& c : launch.at("commands")) {
      const uint64_t lb = num(c.at("line_bytes"));
      const uint64_t lines = c.value("lines", 1), surfs = c.value("surfaces", 1);
      const uint64_t sl = c.contains("src_line_stride") ? num(c["src_line_stride"]) : lb;
      const uint64_t dl = c.contains("dst_line_stride") ? num(c["dst_line_stride"]) : lb;
      const uint64_t ss = c.contains("src_surface_stride") ? num(c["src_surface_stride"]) : sl * lines;
      const uint64_t ds = c.contains("dst_surface_stride") ? num(c["dst_surface_stride"]) : dl * lines;
      const uint64_t src = num(c.at("src")), dst = num(c.at("dst"));
      if (lines > 1) seen.insert("line repeat");
      if (surfs > 1) seen.insert("surface repeat");
      if (sl > lb || dl > lb) seen.insert("line stride gaps");
      if (src >> 32 != 0 || dst >> 32 != 0) seen.insert("addresses above 4 GiB");
      if (lb == 262144) seen.insert("the longest line");
      for (uint64_t s = 0; s < surfs; ++s) {
        for (uint64_t l = 0; l < lines; ++l) {
          for (uint64_t i = 0; i < lb; ++i) mem[dst + s * ds + l * dl + i] = mem.at(src + s * ss + l * sl + i);
        }
      }
    }
  }
  if (groups.size() == 2) seen.insert("both groups");
  if (j.at("launches").size() > 2) seen.insert("back-to-back launches");
  return mem;
}

std::string refusal(const std::string& body) { return testing::refusal(body, "dla_bdma_bad_layer.json"); }

std::string layer_with(const std::string& commands, const std::string& config = "nv_full") {
  return R"({"unit":"bdma","config":")" + config + R"(","launches":[{"group":0,"commands":[)" + commands + "]}]}";
}

uint32_t addr(const std::string& cfg, const std::string& reg) {
  return *RegDb::nvdla().address(cfg, *RegDb::nvdla().find(reg));
}

}  // namespace

TEST_CASE("bdma layers: every bundled layer equals a memcpy loop on the golden device", "[harness][bdma]") {
  const auto files = testing::layer_files(kLayers);
  REQUIRE(files.size() >= 12);
  std::set<std::string> seen;
  for (const auto& f : files) {
    INFO(f.filename().string());
    const LoadedLayer l = load_layer(f);
    const Program p = engines::compile_bdma_layer(l.header, l.root());
    RunResult r;
    const auto dev = testing::run_golden(p, l, r);
    REQUIRE(r.status == Status::Pass);
    const auto expect = reference(f, p, seen);
    uint64_t bad = 0;
    for (const auto& [a, v] : expect) bad += dev->memory().read(a) != v ? 1 : 0;
    CHECK(bad == 0);
  }
  for (const char* want : {"FREE_SLOT poll", "20 commands in one launch", "several commands per launch", "line repeat",
                           "surface repeat", "line stride gaps", "addresses above 4 GiB", "the longest line",
                           "both groups", "back-to-back launches"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("bdma layers: the compiled program is a driver's", "[harness][bdma]") {
  const LoadedLayer l = load_layer(kLayers / "full_fifo_full_poll.json");
  const Program p = engines::compile_bdma_layer(l.header, l.root());
  int ops = 0, polls = 0, launches = 0, waits = 0;
  for (const ProgramStep& st : p.steps) {
    if (st.op == StepOp::RegWrite && st.reg->name == "CFG_OP") ++ops;
    if (st.op == StepOp::RegRead && st.poll_reads != 0) {
      ++polls;
      CHECK(st.reg->name == "STATUS");
      CHECK(st.mask == 0xffu);
      CHECK(st.poll_not_equal);
    }
    if (st.op == StepOp::RegWrite && (st.reg->name == "CFG_LAUNCH0" || st.reg->name == "CFG_LAUNCH1")) ++launches;
    if (st.op == StepOp::WaitIntr) ++waits;
  }
  CHECK(ops == 40);
  CHECK(polls == 40);
  CHECK(launches == 2);
  CHECK(waits == 2);
}

TEST_CASE("bdma: the golden device's register block, interrupts and refusals", "[harness][bdma]") {
  GoldenDevice dev(dla::golden::nv_full());
  const std::string cfg = "nv_full";
  CHECK(addr(cfg, "BDMA.STATUS") == 0x4040u);  // nvdlav1 base 0x4000
  CHECK(dev.reg_read(addr(cfg, "BDMA.STATUS")) == 0x114u);
  for (int i = 0; i < 32; ++i) dev.memory().write(0x1000 + i, static_cast<uint8_t>(i + 1));
  dev.reg_write(addr(cfg, "BDMA.CFG_SRC_ADDR_LOW"), 0x1000);
  dev.reg_write(addr(cfg, "BDMA.CFG_DST_ADDR_LOW"), 0x2000);
  dev.reg_write(addr(cfg, "BDMA.CFG_CMD"), 3);
  dev.reg_write(addr(cfg, "BDMA.CFG_OP"), 1);
  CHECK(dev.reg_read(addr(cfg, "BDMA.STATUS")) == 0x13u);  // 19 free, not idle
  CHECK_FALSE(dev.interrupt_pending("BDMA_1"));
  dev.reg_write(addr(cfg, "BDMA.CFG_LAUNCH1"), 1);
  CHECK(dev.memory().read(0x2000) == 1);
  CHECK(dev.memory().read(0x201f) == 32);
  CHECK(dev.reg_read(addr(cfg, "BDMA.STATUS")) == 0x414u);  // group 1 busy until its interrupt
  // A second launch of the busy group is refused (NVDLA's C model fails).
  dev.reg_write(addr(cfg, "BDMA.CFG_OP"), 1);
  CHECK_THROWS_AS(dev.reg_write(addr(cfg, "BDMA.CFG_LAUNCH1"), 1), InputError);
  const WaitResult w = dev.wait_interrupt("BDMA_1", 1000);
  CHECK(w.raised);
  CHECK(dev.reg_read(addr(cfg, "GLB.S_INTR_STATUS")) == 0x80u);  // bit 7: BDMA group 1
  CHECK(dev.reg_read(addr(cfg, "BDMA.STATUS")) == 0x13u);        // the pending command; group 1 free
  dev.reg_write(addr(cfg, "BDMA.CFG_LAUNCH0"), 1);
  CHECK(dev.wait_interrupt("BDMA_0", 1000).raised);
  CHECK(dev.reg_read(addr(cfg, "GLB.S_INTR_STATUS")) == 0xc0u);
  dev.reg_write(addr(cfg, "GLB.S_INTR_STATUS"), 0xc0u);
  CHECK(dev.reg_read(addr(cfg, "BDMA.STATUS")) == 0x114u);
  const WaitResult none = dev.wait_interrupt("BDMA_0", 1000);
  CHECK_FALSE(none.raised);
  CHECK_THAT(none.detail, Catch::Contains("no outstanding launch"));
}

TEST_CASE("bdma: nv_small and nv_large have no BDMA", "[harness][bdma]") {
  for (const char* c : {"nv_small", "nv_large"}) {
    INFO(c);
    CHECK_FALSE(RegDb::nvdla().address(c, *RegDb::nvdla().find("BDMA.CFG_OP")).has_value());
    CHECK(RegDb::nvdla().at_address(c, 0x10030) == nullptr);  // master's BDMA base 0x10000
    const std::string body = std::string(R"({"unit":"program","config":")") + c +
                             R"(","steps":[{"op":"reg_write","reg":"BDMA.CFG_OP","value":1}]})";
    CHECK_THAT(refusal(body), Catch::Contains("block BDMA does not exist in") && Catch::Contains(c));
    CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x2000","line_bytes":32})", c)),
               Catch::Contains("/config | ") && Catch::Contains("has no BDMA"));
  }
}

TEST_CASE("bdma: register programs refused by the device name the rule", "[harness][bdma]") {
  // 21 CFG_OPs without a launch: the 21st finds the FIFO full.
  std::string steps;
  for (int i = 0; i < 21; ++i) steps += std::string(i ? "," : "") + R"({"op":"reg_write","reg":"BDMA.CFG_OP","value":1})";
  const fs::path f = fs::temp_directory_path() / "dla_bdma_fifo_full.json";
  std::ofstream(f) << R"({"unit":"program","config":"nv_full","steps":[)" + steps + "]}";
  RunOptions o;
  o.mode = "golden";
  RunResult r = run_layer(f, o);
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(r.message, Catch::Contains("FIFO full") && Catch::Contains("/steps/20"));
  // A poll that can never pass (FREE_SLOT stays 20, never 0) times out naming the register.
  std::ofstream(f) << R"({"unit":"program","config":"nv_full","steps":[
      {"op":"poll","reg":"BDMA.STATUS","mask":"0xff","value":0,"until":"equal","max_reads":50}]})";
  r = run_layer(f, o);
  CHECK(r.status == Status::Timeout);
  CHECK_THAT(r.message, Catch::Contains("poll BDMA.STATUS") && Catch::Contains("50 times"));
  std::ofstream(f) << R"({"unit":"program","config":"nv_full","steps":[
      {"op":"poll","reg":"BDMA.STATUS","mask":"0xff","value":0,"until":"not_equal"},
      {"op":"reg_read","reg":"BDMA.STATUS","expect":"0x114"}]})";
  r = run_layer(f, o);
  CHECK(r.status == Status::Pass);
}

TEST_CASE("bdma layers: malformed layers are refused naming the pointer and the rule", "[harness][bdma]") {
  const std::string ok = R"({"src":"0x1000","dst":"0x8000","line_bytes":64,"lines":2})";
  CHECK(refusal(layer_with(ok)) == "accepted");
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":48})")),
             Catch::Contains("/launches/0/commands/0/line_bytes | ") && Catch::Contains("multiple of 32"));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1010","dst":"0x8000","line_bytes":32})")),
             Catch::Contains("/launches/0/commands/0/src | ") && Catch::Contains("multiple of 32"));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":64,"lines":2,"src_line_stride":32})")),
             Catch::Contains("/src_line_stride | ") && Catch::Contains("at least the line size"));
  CHECK_THAT(refusal(layer_with(
                 R"({"src":"0x1000","dst":"0x8000","line_bytes":64,"lines":2,"surfaces":2,"dst_surface_stride":96})")),
             Catch::Contains("/dst_surface_stride | ") && Catch::Contains("line stride x lines"));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":262176})")),
             Catch::Contains("/line_bytes | ") && Catch::Contains("out of range"));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":32,"lines":8193})")),
             Catch::Contains("/lines | "));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":32,"surfaces":0})")),
             Catch::Contains("/surfaces | "));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x10000000000","dst":"0x8000","line_bytes":32})")),
             Catch::Contains("/src | ") && Catch::Contains("out of range"));
  // Overlaps: a command's own source and destination; a destination over another's source.
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x1020","line_bytes":64})")),
             Catch::Contains("/launches/0/commands/0 | ") && Catch::Contains("overlaps the source line"));
  CHECK_THAT(refusal(layer_with(ok + R"(,{"src":"0x3000","dst":"0x1040","line_bytes":32})")),
             Catch::Contains("/launches/0/commands/1 | ") && Catch::Contains("launch 0 command 0"));
  CHECK_THAT(refusal(layer_with(ok + R"(,{"src":"0x3000","dst":"0x8040","line_bytes":32})")),
             Catch::Contains("overlaps the destination line"));
  // Interleaved lines that do not overlap are fine; so are two reads of one source.
  CHECK(refusal(layer_with(R"({"src":"0x1000","dst":"0x1040","line_bytes":64,"lines":4,"src_line_stride":128,
                               "dst_line_stride":128})")) == "accepted");
  CHECK(refusal(layer_with(ok + R"(,{"src":"0x1000","dst":"0x9000","line_bytes":64})")) == "accepted");
  std::string many;
  for (int i = 0; i < 21; ++i) many += fmt::format("{}{{\"src\":{},\"dst\":{},\"line_bytes\":32}}", i ? "," : "", 0x1000 + 64 * i, 0x9000 + 64 * i);
  CHECK_THAT(refusal(layer_with(many)), Catch::Contains("/launches/0/commands | ") && Catch::Contains("1 to 20"));
  CHECK_THAT(refusal(layer_with(ok + R"(,{"src":"0x3000","dst":"0x9000","line_bytes":32,"dst_ram":"cvsram"})")),
             Catch::Contains("/launches/0/commands/1 | ") && Catch::Contains("destination RAM type"));
  CHECK_THAT(refusal(R"({"unit":"bdma","config":"nv_full","launches":[]})"),
             Catch::Contains("/launches | ") && Catch::Contains("at least one launch"));
  CHECK_THAT(refusal(R"({"unit":"bdma","config":"nv_full","launches":[{"group":2,"commands":[)" + ok + "]}]}"),
             Catch::Contains("/launches/0/group | "));
  CHECK_THAT(refusal(layer_with(R"({"src":"0x1000","dst":"0x8000","line_bytes":32,"bogus":1})")),
             Catch::Contains("bogus"));
}
