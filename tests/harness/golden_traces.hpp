// Shared by the unit trace tests (test_pdp_traces.cpp, test_cdp_traces.cpp): NVDLA's trace tests
// of one unit replayed on the golden device, each checked against NVIDIA's CRC, and register
// access by name on a golden device.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "golden/config.hpp"
#include "harness/golden_device.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"

namespace dla::harness::testing {

inline const std::filesystem::path kTraces = std::filesystem::path(DLA_SHARED_DIR) / "nvdla-traces";

// The .cfg of every trace directory in `dir` whose name starts with one of `prefixes`, sorted.
inline std::vector<std::filesystem::path> traces_named(const std::string& dir,
                                                       std::initializer_list<std::string_view> prefixes) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(kTraces / dir)) {
    const std::string name = e.path().filename().string();
    const bool match = std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return name.rfind(p, 0) == 0; });
    if (e.is_directory() && match) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every trace of `dir` named by `prefixes` (there must be `expected` of them) passes on the
// golden model of `hw` with NVIDIA's CRC.
inline void check_golden_traces(const std::string& dir, const golden::HwConfig& hw,
                                std::initializer_list<std::string_view> prefixes, std::size_t expected) {
  const auto traces = traces_named(dir, prefixes);
  REQUIRE(traces.size() == expected);
  for (const auto& cfg : traces) {
    DYNAMIC_SECTION(cfg.stem().string()) {
      const Program p = import_nvdla_cfg(cfg, hw.name);
      RunOptions o;
      o.mode = "golden";
      const RunResult r = run_program_in_mode(p, hw, o);
      INFO(r.message);
      CHECK(r.status == Status::Pass);
      REQUIRE_FALSE(r.compares.empty());
      CHECK(r.compares.back().crc_actual == r.compares.back().crc_expected);
    }
  }
}

// Register access by name ("BLOCK.REG") on a golden device of configuration `cfg`.
struct Regs {
  GoldenDevice& dev;
  std::string cfg;
  [[nodiscard]] uint32_t addr(const std::string& name) const {
    return *RegDb::nvdla().address(cfg, *RegDb::nvdla().find(name));
  }
  void w(const std::string& name, uint32_t v) const { dev.reg_write(addr(name), v); }
  [[nodiscard]] uint32_t r(const std::string& name) const { return dev.reg_read(addr(name)); }
};

}  // namespace dla::harness::testing
