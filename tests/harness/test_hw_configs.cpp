// regs/hw_configs.json, the one description of each configuration: golden::HwConfig holds its
// values (generated into golden/src/hw_configs.inc; CTest hw_configs:generated-up-to-date keeps it
// current) and its block bases are the register database's (regs/nvdla-registers.json, an
// independent transcription of NVDLA's address maps), so the RTL's -G bases built from it agree.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "golden/config.hpp"
#include "harness/regdb.hpp"

using dla::harness::RegDb;

namespace {

nlohmann::json hw_configs() {
  std::ifstream in(std::string(DLA_SOURCE_DIR) + "/regs/hw_configs.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("hw_configs.json: every configuration is golden's, with the same values", "[hw_configs]") {
  const nlohmann::json j = hw_configs();
  std::vector<std::string> names;
  for (const auto& c : j.at("configs")) {
    const std::string name = c.at("name");
    names.push_back(name);
    const dla::golden::HwConfig* hw = dla::golden::find_config(name);
    REQUIRE(hw != nullptr);
    INFO(name);
    CHECK(hw->atomic_c == c.at("atomic_c"));
    CHECK(hw->mac_cells == c.at("mac_cells"));
    CHECK(hw->int16 == c.at("int16"));
    CHECK(hw->atom_bytes == c.at("atom_bytes"));
    CHECK(hw->dma_bits == c.at("dma_bits"));
    CHECK(hw->cbuf_banks == c.at("cbuf_banks"));
    CHECK(hw->cbuf_entries == c.at("cbuf_entries"));
    CHECK(hw->cbuf_entry_bytes == c.at("cbuf_entry_bytes"));
    CHECK(hw->winograd == c.at("winograd"));
    CHECK(hw->nvdlav1_map == c.at("nvdlav1_map"));
    CHECK(hw->sdp_lanes == c.at("sdp_lanes"));
    CHECK(hw->pdp_throughput == c.at("pdp_throughput"));
    CHECK(hw->cdp_throughput == c.at("cdp_throughput"));
  }
  CHECK(names == dla::golden::config_names());
}

TEST_CASE("hw_configs.json: block bases are the register database's", "[hw_configs]") {
  const RegDb& db = RegDb::nvdla();
  for (const auto& c : hw_configs().at("configs")) {
    const std::string name = c.at("name");
    const auto& bases = c.at("bases");
    for (const auto& [block, base] : bases.items()) {
      INFO(name << " " << block);
      const dla::harness::RegBlock* b = db.block(block);
      REQUIRE(b != nullptr);
      const auto want = db.block_base(name, *b);
      REQUIRE(want.has_value());
      CHECK(base.get<std::string>() == fmt::format("0x{:x}", *want));
    }
    // The optional blocks are described where, and only where, the configuration's map has them.
    for (const char* block : {"BDMA", "RBK"}) {
      INFO(name << " " << block);
      CHECK(bases.contains(block) == db.block_base(name, *db.block(block)).has_value());
    }
  }
}
