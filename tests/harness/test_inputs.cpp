// Parsers of user input: JSON reader, register database, .dat images, register programs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/program.hpp"
#include "harness/regdb.hpp"

using namespace dla::harness;
namespace fs = std::filesystem;

namespace {

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("JSON reader names file, pointer and rule", "[json]") {
  const auto doc = parse_json_text("f.json", R"({"a": {"b": [1, "0x10", -3, "zz", 1.5]}, "s": "q"})");
  const JsonNode root = JsonNode::root(doc);
  const JsonNode b = root.require("a").require("b");
  CHECK(b[0].as_int(0, 5) == 1);
  CHECK(b[1].as_u64() == 16);
  CHECK(error_of([&] { (void)b[2].as_u64(); }) == "f.json: /a/b/2: -3 is negative; must be in [0, 18446744073709551615]");
  CHECK(error_of([&] { (void)b[3].as_int(0, 9); }) == "f.json: /a/b/3: \"zz\" is not an integer");
  CHECK(error_of([&] { (void)b[4].as_int(0, 9); }) == "f.json: /a/b/4: must be an integer, found number");
  CHECK(error_of([&] { (void)b[0].as_int(2, 9); }) == "f.json: /a/b/0: 1 is out of range [2, 9]");
  CHECK(error_of([&] { (void)root.require("zz"); }) == "f.json: /: missing required field \"zz\"");
  CHECK(error_of([&] { root.allow_keys({"a"}); }) == "f.json: /s: unknown field \"s\" (allowed here: a)");
  CHECK(error_of([&] { (void)root.require("s").as_choice({"x", "y"}); }) == "f.json: /s: \"q\" is not one of: x, y");
  CHECK(error_of([] { (void)parse_json_text("g.json", "{\n  \"a\": 1\n  \"b\": 2\n}"); })
            .starts_with("g.json: line 3, column 5: malformed JSON"));
  CHECK(error_of([] { (void)parse_json_file("/nonexistent/x.json"); }) == "/nonexistent/x.json: file not found");
  CHECK(parse_int_text("-0x10") == -16);
  CHECK(parse_int_text("0b101") == 5);
  CHECK_FALSE(parse_int_text("12a").has_value());
}

TEST_CASE("register database resolves names and addresses per configuration", "[regdb]") {
  const RegDb& db = RegDb::nvdla();
  const RegDef* r = db.find("SDP.D_OP_ENABLE");
  REQUIRE(r != nullptr);
  CHECK(r->offset == 0x38);
  CHECK(r->dual);
  CHECK(db.address("nv_small", *r) == 0x9038u);  // master SDP base 0x9000
  CHECK(db.address("nv_full", *r) == 0xb038u);   // nvdlav1 SDP base 0xb000
  CHECK(db.find("NVDLA_SDP.D_OP_ENABLE_0") == r);  // trace-file spelling
  CHECK(db.find("sdp.d_op_enable") == r);
  const RegDef* cfg = db.find("SDP.S_LUT_ACCESS_CFG");
  REQUIRE(cfg != nullptr);
  REQUIRE(cfg->field("LUT_TABLE_ID") != nullptr);
  CHECK(cfg->field("LUT_TABLE_ID")->lsb == 16);
  CHECK(cfg->field("LUT_ADDR")->mask() == 0x3ffu);
  CHECK_FALSE(cfg->dual);
  const RegDef* size0 = db.find("NVDLA_CDMA.D_DATAIN_SIZE_0_0");  // the register name itself ends in _0
  REQUIRE(size0 != nullptr);
  CHECK(size0->name == "D_DATAIN_SIZE_0");
  CHECK(db.find("SDP.NO_SUCH_REG") == nullptr);
  CHECK(db.find("NOPE.D_OP_ENABLE") == nullptr);
  CHECK(db.at_address("nv_small", 0x9038) == r);
  CHECK(db.at_address("nv_full", 0xb038) == r);
  CHECK(db.at_address("nv_small", 0x9ffc) == nullptr);
}

TEST_CASE(".dat memory images", "[dat]") {
  const auto good = write_temp("dla_good.dat", "{\n{offset:0x10, size:3, payload:0x01 0x02 0xff},\n{offset:0x0, size:1, payload:0x7f},\n}\n");
  const auto chunks = read_dat_file(good);
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].offset == 0x10);
  CHECK(chunks[0].bytes == std::vector<uint8_t>{1, 2, 0xff});
  CHECK(chunks[1].bytes == std::vector<uint8_t>{0x7f});
  const auto bad_size = write_temp("dla_bad1.dat", "{\n{offset:0x10, size:4, payload:0x01 0x02 0xff},\n}\n");
  CHECK_THAT(error_of([&] { (void)read_dat_file(bad_size); }), Catch::Contains("line 2: size says 4 bytes, payload has 3"));
  const auto bad_byte = write_temp("dla_bad2.dat", "{\n{offset:0x10, size:1, payload:0x100},\n}\n");
  CHECK_THAT(error_of([&] { (void)read_dat_file(bad_byte); }), Catch::Contains("line 2: \"0x100\" is not a byte value"));
  const auto truncated = write_temp("dla_bad3.dat", "{\n{offset:0x10, size:1, payload:0x10},\n");
  CHECK_THAT(error_of([&] { (void)read_dat_file(truncated); }), Catch::Contains("missing the closing }"));
  CHECK_THAT(error_of([&] { (void)read_dat_file("/nonexistent.dat"); }), Catch::Contains("file not found"));
}

TEST_CASE("register programs parse and reject bad steps", "[program]") {
  const auto dat = write_temp("dla_prog_in.dat", "{\n{offset:0x0, size:2, payload:0x05 0x06},\n}\n");
  const std::string steps = R"({"steps": [
    {"op": "mem_fill", "addr": "0x80000000", "size": 2048},
    {"op": "mem_load", "addr": "0x80000000", "file": "dla_prog_in.dat"},
    {"op": "reg_write", "reg": "SDP.S_POINTER", "value": 0},
    {"op": "reg_read", "reg": "SDP.S_STATUS", "expect": 0, "mask": "0x3"},
    {"op": "wait_intr", "intr": "SDP_0", "id": 1},
    {"op": "check", "kind": "crc32", "addr": "0x80000000", "size": "0x800", "crc": "0xf1e8ba9e"},
    {"op": "check", "kind": "golden", "addr": "0x80000000", "size": 64}
  ]})";
  const auto p = write_temp("dla_prog.json", steps);
  const auto doc = parse_json_file(p);
  const Program prog = parse_program(JsonNode::root(doc), "p", "nv_small");
  REQUIRE(prog.steps.size() == 7);
  CHECK(prog.steps[1].bytes == std::vector<uint8_t>{5, 6});
  CHECK(prog.steps[2].reg->name == "S_POINTER");
  CHECK(prog.steps[3].mask == 3u);
  CHECK(prog.steps[5].crc == 0xf1e8ba9eu);
  CHECK(prog.steps[5].size == 0x800);

  auto fails = [](const std::string& step) {
    const auto d = parse_json_text("bad.json", R"({"steps": [)" + step + "]}");
    return error_of([&] { (void)parse_program(JsonNode::root(d), "p", "nv_small"); });
  };
  CHECK(fails(R"({"op": "reg_write", "reg": "SDP.NOPE", "value": 1})") ==
        "bad.json: /steps/0/reg: unknown register \"SDP.NOPE\" (write BLOCK.REGISTER, e.g. SDP.D_OP_ENABLE)");
  CHECK(fails(R"({"op": "reg_write", "reg": "SDP.S_POINTER", "value": "0x100000000"})") ==
        "bad.json: /steps/0/value: 4294967296 is out of range [0, 4294967295]");
  CHECK(fails(R"({"op": "poke"})") ==
        "bad.json: /steps/0/op: \"poke\" is not one of: mem_load, mem_fill, reg_write, reg_read, poll, wait_intr, wait_any, check");
  CHECK(fails(R"({"op": "wait_intr", "intr": "SDP_2"})") ==
        "bad.json: /steps/0/intr: \"SDP_2\" is not an interrupt name (UNIT_GROUP, e.g. SDP_0, CDP_1, CACC_0)");
  CHECK_THAT(fails(R"({"op": "mem_load", "addr": 0, "file": "missing.dat"})"),
             Catch::Contains("/steps/0/file: missing.dat: file not found"));
  CHECK(fails(R"({"op": "check", "kind": "crc32", "addr": 0, "size": 0, "crc": 0})") ==
        "bad.json: /steps/0: a check must cover at least one byte");
  // GLB exists in nv_full; CFGROM does not.
  const auto d = parse_json_text("cfg.json", R"({"steps": [{"op": "reg_read", "reg": "CFGROM.CFGROM_HW_VERSION", "expect": 0}]})");
  if (RegDb::nvdla().find("CFGROM.CFGROM_HW_VERSION") != nullptr) {
    CHECK_THAT(error_of([&] { (void)parse_program(JsonNode::root(d), "p", "nv_full"); }),
               Catch::Contains("block CFGROM does not exist in nv_full"));
  }
}
