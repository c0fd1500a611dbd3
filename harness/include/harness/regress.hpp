// Regression suites: a list of layers (with optional seed / rand-reset / stall matrices), run in
// parallel, sharded for CI or cluster array jobs.
#pragma once

#include <filesystem>
#include <functional>
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

// Called once per finished run, one call at a time (from the worker threads): the result, and how
// many of the shard's runs have finished out of how many.
using RunDone = std::function<void(const RunResult& r, std::size_t done, std::size_t total)>;

// Runs the suite's entries of this shard with `jobs` threads; results in suite order. After
// SIGINT / SIGTERM with graceful stopping on (interrupt.hpp) no run starts and runs in flight are
// abandoned: the results are exactly the runs that finished.
[[nodiscard]] std::vector<RunResult> run_suite(const Suite& suite, const RunOptions& base, unsigned jobs,
                                               Shard shard, const RunDone& on_done = {});

// Progress of a regression on a stream: on a terminal one line rewritten in place (done/total,
// pass/fail so far, elapsed, ETA), otherwise one plain line per finished run.
class Progress {
 public:
  Progress(std::FILE* out, bool terminal);
  void update(const RunResult& r, std::size_t done, std::size_t total);
  void finish();  // ends the rewritten line on a terminal

 private:
  std::FILE* out_;
  bool terminal_;
  std::size_t passed_ = 0, failed_ = 0;
  double start_;  // steady-clock seconds
  bool drawn_ = false;
};

}  // namespace dla::harness
