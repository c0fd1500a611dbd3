// Regression suites: a list of layers (with optional seed / rand-reset / stall matrices), run in
// parallel, sharded for CI or cluster array jobs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/layer.hpp"
#include "harness/report.hpp"

namespace dla::harness {

struct SuiteEntry {
  std::filesystem::path layer;
  std::optional<uint64_t> seed;
  std::optional<double> stall;
  int rand_reset = 0;
  [[nodiscard]] std::string label() const;
};

struct Suite {
  std::string name;
  std::vector<SuiteEntry> entries;
};

// Reads a suite file (docs/LAYER_FORMAT.md, "Suites"); throws InputError.
[[nodiscard]] Suite load_suite(const std::filesystem::path& file);

struct Shard {
  std::size_t index = 0;  // 0-based
  std::size_t count = 1;
};

// Runs the suite's entries of this shard with `jobs` threads; results in suite order.
[[nodiscard]] std::vector<RunResult> run_suite(const Suite& suite, const RunOptions& base, unsigned jobs,
                                               Shard shard);

}  // namespace dla::harness
