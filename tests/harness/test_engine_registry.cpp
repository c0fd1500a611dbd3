// The engine registry (harness/include/harness/engine.hpp): what the central code reads from it equals the
// lists and choices the harness made by hand before the registry (the CLI tests check the output
// they lead to), and the editors' layer schema names every registered layer unit.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/golden_device.hpp"
#include "harness/random_layers.hpp"
#include "tops/rtl_devices.hpp"
#include "harness/engine.hpp"

using namespace dla::harness;

namespace {

std::vector<std::string> names(const std::vector<const engines::Engine*>& v) {
  std::vector<std::string> out;
  for (const auto* e : v) out.emplace_back(e->name);
  return out;
}

// `want` appears in `got` in this order (other engines may stand between: a new one registers
// without editing this test).
bool in_order(const std::vector<std::string>& got, const std::vector<std::string>& want) {
  auto it = got.begin();
  for (const auto& w : want) {
    it = std::find(it, got.end(), w);
    if (it == got.end()) return false;
  }
  return true;
}

std::string top_name(const std::vector<std::string>& blocks) {
  const engines::RtlTop* t = engines::rtl_top_for(blocks);
  return t == nullptr ? "(none)" : std::string(t->name);
}

}  // namespace

TEST_CASE("engine registry: unit lists in the order the CLI prints them", "[registry]") {
  std::vector<std::string> layer_units;
  for (const UnitHandler& h : unit_handlers()) layer_units.emplace_back(h.unit);
  CHECK(in_order(layer_units, {"cmac", "lut", "wino", "sdp", "conv", "pdp", "cdp", "bdma", "rubik", "deconv"}));
  CHECK(layer_units.back() == "program");
  CHECK(in_order(names(engines::bench_engines()), {"cmac", "lut", "sdp", "conv", "pdp", "cdp", "bdma", "rubik", "deconv"}));
  CHECK(in_order(random_units(), {"conv", "sdp", "pdp", "cdp", "bdma", "rubik", "deconv"}));
  // The golden device's unit table, in the order its launches are tried.
  std::vector<std::string> golden;
  for (const auto& u : GoldenDevice::units()) golden.push_back(u.intr_unit + "/" + u.core_block);
  CHECK(in_order(golden, {"SDP/SDP", "CACC/CACC", "PDP/PDP", "CDP/CDP", "RUBIK/RBK"}));
}

TEST_CASE("engine registry: the RTL top a program runs on follows the blocks it enables", "[registry]") {
  CHECK(top_name({}) == "nvdla_core");
  CHECK(top_name({"SDP", "SDP_RDMA"}) == "nvdla_core");
  CHECK(top_name({"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "PDP"}) == "nvdla_core");
  CHECK(top_name({"CDP", "CDP_RDMA"}) == "nvdla_cdp_top");
  CHECK(top_name({"BDMA"}) == "nvdla_bdma_top");
  CHECK(top_name({"RBK"}) == "nvdla_rubik_top");
  CHECK(top_name({"CDMA", "CACC", "SDP", "RBK"}) == "nvdla_core+nvdla_rubik_top");
  CHECK(top_name({"CDP", "SDP"}) == "nvdla_core+nvdla_cdp_top");  // networks with LRN
  CHECK(top_name({"CDP", "CDP_RDMA", "CDMA", "CACC", "SDP", "PDP"}) == "nvdla_core+nvdla_cdp_top");
  CHECK(top_name({"CDP", "RBK"}) == "(none)");
  CHECK(top_name({"BDMA", "RBK"}) == "(none)");
  CHECK(top_name({"BDMA", "CDP"}) == "(none)");
  CHECK(top_name({"CDMA", "CACC", "SDP", "BDMA"}) == "nvdla_core+nvdla_bdma_top");  // networks with copies
  CHECK(nvdla_core_blocks() == std::vector<std::string>{"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "SDP_RDMA",
                                                        "PDP", "PDP_RDMA"});
  const std::set<std::string> intr(nvdla_core_intr_units().begin(), nvdla_core_intr_units().end());
  CHECK(intr == std::set<std::string>{"SDP", "PDP", "CACC", "CDMA_DAT", "CDMA_WT"});
  // A program the RTL has no top for names its blocks and every top with its blocks.
  std::string why;
  RunOptions o;
  CHECK(make_rtl_device({"BDMA", "CDP"}, dla::golden::nv_small(), o, why) == nullptr);
  INFO(why);
  CHECK_THAT(why, Catch::StartsWith("the program enables BDMA and CDP, and no RTL top of this build has them all; "
                                    "the tops are nvdla_core (CDMA, CSC, CMAC_A, CMAC_B, CACC, SDP, SDP_RDMA, PDP and "
                                    "PDP_RDMA); "));
  CHECK_THAT(why, Catch::Contains("nvdla_bdma_top (BDMA)") && Catch::Contains("nvdla_cdp_top (CDP and CDP_RDMA)"));
}

TEST_CASE("engine registry: configurations an engine exists on", "[registry]") {
  for (const char* unit : {"bdma", "rubik", "deconv"}) {
    const engines::Engine* e = engines::find_engine(unit);
    REQUIRE(e != nullptr);
    CHECK_FALSE(engines::engine_exists_on(*e, dla::golden::nv_small()));
    CHECK_FALSE(engines::engine_exists_on(*e, dla::golden::nv_large()));
    CHECK(engines::engine_exists_on(*e, dla::golden::nv_full()));
  }
  for (const char* unit : {"conv", "sdp", "pdp", "cdp"}) {
    CHECK(engines::engine_exists_on(*engines::find_engine(unit), dla::golden::nv_small()));
  }
}

TEST_CASE("engine registry: the layer schema names every registered layer unit, and no other", "[registry]") {
  std::ifstream in(std::string(DLA_SOURCE_DIR) + "/testvectors/schema/layer.schema.json");
  REQUIRE(in);
  const nlohmann::json schema = nlohmann::json::parse(in);
  std::set<std::string> in_enum, in_one_of, registered;
  for (const auto& u : schema.at("properties").at("unit").at("enum")) in_enum.insert(u.get<std::string>());
  for (const auto& r : schema.at("oneOf")) {
    const std::string ref = r.at("$ref").get<std::string>();
    in_one_of.insert(ref.substr(ref.rfind('/') + 1));
  }
  for (const engines::Engine& e : engines::engines()) {
    if (e.handler != nullptr) registered.emplace(e.name);
  }
  INFO("a registered layer unit goes into testvectors/schema/layer.schema.json: the unit enum, oneOf and $defs "
       "(docs/ARCHITECTURE.md \"Adding an engine\")");
  CHECK(in_enum == registered);
  CHECK(in_one_of == registered);
  for (const std::string& u : registered) CHECK(schema.at("$defs").contains(u));
}
