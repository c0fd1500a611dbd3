// Shared by the unit layer tests (test_pdp_layers.cpp, test_cdp_layers.cpp): the bundled layer
// files of a unit, a compiled layer run on a golden device, and the refusal a layer body meets.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"

namespace dla::harness::testing {

// The .json files of `dir`, sorted.
inline std::vector<std::filesystem::path> layer_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Runs the layer's compiled program on a golden device and returns the device (its memory holds
// the output, its registers the statistics).
inline std::unique_ptr<GoldenDevice> run_golden(const Program& p, const LoadedLayer& l, RunResult& r) {
  auto dev = std::make_unique<GoldenDevice>(*l.header.config);
  ProgramRunOptions o;
  o.mode = "golden";
  r = run_program(p, dev.get(), nullptr, o);
  return dev;
}

// "WHERE | RULE" of the InputError loading `body` as a layer file raises, or "accepted". The file
// is the process's own (CTest runs test cases of one binary in parallel processes).
inline std::string refusal(const std::string& body, const std::string& file_name) {
  const std::filesystem::path f =
      std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + file_name);
  std::ofstream(f) << body;
  std::string out = "accepted";
  try {
    (void)load_layer(f);
  } catch (const InputError& e) {
    out = std::string(e.where()) + " | " + e.rule();
  }
  std::filesystem::remove(f);
  return out;
}

// Reference arithmetic of the layer tests, written out by hand (never the golden helpers).
// The low `bits` bits of v as a two's-complement number.
inline int64_t sext(uint64_t v, int bits) {
  const uint64_t m = uint64_t{1} << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<int64_t>(v ^ m) - static_cast<int64_t>(m);
}
// v saturated to a signed `bits`-bit range.
inline int64_t clamp_bits(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}
// Round half away from zero of v / 2^s.
inline int64_t rhaz(int64_t v, int s) {
  if (s == 0) return v;
  if (s >= 62) return 0;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t q = (mag + (int64_t{1} << (s - 1))) >> s;
  return v < 0 ? -q : q;
}

}  // namespace dla::harness::testing
