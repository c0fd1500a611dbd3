// Run results and their reports: console text, JSON and JUnit XML.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/mem_model.hpp"

namespace dla::harness {

enum class Status { Pass, Mismatch, BadInput, Timeout, Error };

[[nodiscard]] std::string_view status_name(Status s);
[[nodiscard]] int exit_code(Status s);

// NVIDIA's C model as a judge of a run (--judge cmod; docs/CMOD.md): agreed with the golden model
// (and the RTL) on every check; differed (the run fails); could not judge the program (a feature
// NVDLA lacks, a documented deviation of the model); refused it (an assertion of the model, a
// crash); or did not finish (a hang, its time limit).
struct CmodVerdict {
  enum class State { Agrees, Differs, NotJudged, Refused, Timeout };
  State state = State::Agrees;
  std::string detail;
};
[[nodiscard]] std::string_view verdict_name(CmodVerdict::State s);

struct RunResult {
  std::string layer_file;
  std::string name;
  std::string unit;
  std::string config;
  std::string mode;  // cross | golden | rtl
  uint64_t seed = 0;
  double stall = 0;
  int rand_reset = 0;
  Status status = Status::Pass;
  std::string message;  // why it did not pass, or a note
  uint64_t cycles = 0;  // RTL cycles simulated
  uint64_t work = 0;    // unit-specific amount of work (atomic ops, elements, ...)
  std::optional<DmaTraffic> dma;  // when an RTL device with a DMA server ran
  std::vector<CompareResult> compares;
  double seconds = 0;
  std::string wave;  // the FST waveform the run wrote (`run --wave`, absolute path); empty: none
  std::optional<std::size_t> suite_index;  // the entry's index in its suite (regress), for merging shards
  std::optional<CmodVerdict> cmod;  // when the C model judged (or was asked to judge) the run
};

// Exit code of a set of runs: the worst of them (bad input > timeout > mismatch > pass).
[[nodiscard]] int exit_code(const std::vector<RunResult>& results);

// One line (no newline) and a JSON object of a run's DMA traffic over `cycles`.
[[nodiscard]] std::string format_dma(const DmaTraffic& d, uint64_t cycles);
[[nodiscard]] nlohmann::json dma_json(const DmaTraffic& d, uint64_t cycles);
[[nodiscard]] std::string format_run(const RunResult& r);
[[nodiscard]] std::string format_table(const std::vector<RunResult>& results);
[[nodiscard]] nlohmann::json to_json(const RunResult& r);
[[nodiscard]] nlohmann::json to_json(const std::vector<RunResult>& results);
[[nodiscard]] std::string junit_xml(const std::string& suite, const std::vector<RunResult>& results);
// Text with & < > " ' escaped for XML and HTML (element content and quoted attribute values).
[[nodiscard]] std::string xml_escape(std::string_view in);

// The inverse of to_json: reads results written by `run --json` / `regress --json` (an object or
// an array of them); throws InputError naming the file, the JSON pointer and the rule.
[[nodiscard]] std::vector<RunResult> results_from_json(const JsonNode& node);

// Shards' results as one run in suite order: every result must carry its suite_index, and no
// index may appear twice (InputError otherwise, naming both files).
struct ShardResults {
  std::filesystem::path file;
  std::vector<RunResult> results;
};
[[nodiscard]] std::vector<RunResult> merge_shards(const std::vector<ShardResults>& shards);

}  // namespace dla::harness
