// NVIDIA's KMD regression (../shared/nvdla-sw, README there): the loadables and the md5 of the
// output image NVIDIA's runtime dumped for each. The expected values of the loadable tests.
#pragma once

#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

namespace dla::test {

// The 14 int8 / int16 loadables (NN_L0_0 is fp16).
inline const std::vector<std::string>& kmd_int_tests() {
  static const std::vector<std::string> kTests = {
      "BDMA_L0_0",        "CDP_L0_0",          "CDP_L0_0_large",    "CDP_L0_0_small", "CONV_D_L0_0",
      "CONV_D_L0_0_large", "CONV_D_L0_0_small", "PDP_L0_0",          "PDP_L0_0_large", "PDP_L0_0_small",
      "RBK_L0_0",         "SDP_X1_L0_0",       "SDP_X1_L0_0_large", "SDP_X1_L0_0_small"};
  return kTests;
}

inline std::filesystem::path kmd_dir() { return std::filesystem::path(DLA_SHARED_DIR) / "nvdla-sw"; }
inline std::filesystem::path kmd_loadable(const std::string& test) { return kmd_dir() / "loadables" / (test + "_fbuf"); }

// Whether NVIDIA's KMD regression is beside the checkout. A clone without ../shared builds and runs
// its tests; the ones that need these files then pass empty, with a warning naming the folder:
//   if (!dla::test::kmd_present()) return;
inline bool kmd_present() {
  if (std::filesystem::is_directory(kmd_dir() / "loadables") && std::filesystem::is_directory(kmd_dir() / "golden")) {
    return true;
  }
  WARN("skipped: " << kmd_dir().string() << " (NVIDIA's KMD loadables and md5s) is not there");
  return false;
}

// NVIDIA's lead.md5 of a test: golden/<TEST>_<6 hex digits>/lead.md5, first word.
inline std::string kmd_md5(const std::string& test) {
  const std::regex dir(test + "_[0-9a-f]{6}");
  for (const auto& e : std::filesystem::directory_iterator(kmd_dir() / "golden")) {
    if (!std::regex_match(e.path().filename().string(), dir)) continue;
    std::ifstream in(e.path() / "lead.md5");
    std::string md5;
    in >> md5;
    return md5;
  }
  FAIL("no golden folder for " << test);
  return {};
}

inline std::vector<uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace dla::test
