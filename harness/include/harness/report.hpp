// Run results and their reports: console text, JSON and JUnit XML.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
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
  CmodVerdict() = default;
  CmodVerdict(State s, std::string d) : state(s), detail(std::move(d)) {}
  State state = State::Agrees;
  std::string detail;
  // How the model's copy of the program differed from it (CmodAdaptation::why); "" when the model
  // ran the program as written.
  std::string adapted;
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
  // RTL cycle of the program's first launch (a D_OP_ENABLE write with OP_EN = 1): the cycles before
  // it are setup (register writes, CBUF's flush after reset), not the layer's. The DMA line's
  // bytes per cycle are over cycles - launch_cycle, the time the DMAs can run.
  uint64_t launch_cycle = 0;
  [[nodiscard]] uint64_t cycles_since_launch() const { return cycles - launch_cycle; }
  uint64_t work = 0;    // unit-specific amount of work (atomic ops, elements, ...)
  std::optional<DmaTraffic> dma;  // when an RTL device with a DMA server ran
  std::vector<CompareResult> compares;
  double seconds = 0;
  std::string wave;  // the FST waveform the run wrote (`run --wave`, absolute path); empty: none
  std::optional<std::size_t> suite_index;  // the entry's index in its suite (regress), for merging shards
  std::optional<CmodVerdict> cmod;  // when the C model judged (or was asked to judge) the run
  // Not in the results files: SIGINT / SIGTERM abandoned the run before it finished (interrupt.hpp);
  // commands leave such a run out of what they report.
  bool abandoned = false;
};

// What a results file says about the command that produced it (docs/CLI.md "Results files"):
// JSON, JUnit and HTML all carry it, with the tool's version and commit (version.hpp).
struct ResultsInfo {
  std::string command;              // the command line as given
  std::string suite;                // the suite's name (regress, merge), else ""
  std::size_t planned = 0;          // the runs the command set out to do
  std::optional<double> elapsed;    // wall seconds of the whole command (not the sum of the runs)
  std::string interrupted;          // "SIGINT" / "SIGTERM": stopped before every run finished; "" if not
  nlohmann::json tool;              // read from a file: its "tool" object (null: older file); writers use ours
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
// A results file: {"tool", "command", "suite", "runs_planned", "runs_finished", "interrupted",
// "signal", "elapsed_seconds", "results": [...]} (docs/CLI.md "Results files").
[[nodiscard]] nlohmann::json results_json(const std::vector<RunResult>& results, const ResultsInfo& info);
// JUnit XML: the testsuite's time is the command's elapsed time when known (else the sum of the
// runs'); properties name the tool, commit, command, and an interruption.
[[nodiscard]] std::string junit_xml(const std::string& suite, const std::vector<RunResult>& results,
                                    const ResultsInfo& info = {});
// Text with & < > " ' escaped for XML and HTML (element content and quoted attribute values).
[[nodiscard]] std::string xml_escape(std::string_view in);

// The inverse of to_json: reads results written by `run --json` / `regress --json` (an object or
// an array of them); throws InputError naming the file, the JSON pointer and the rule.
[[nodiscard]] std::vector<RunResult> results_from_json(const JsonNode& node);
// The same, with what the file says about its command (a results file object; an array or a
// single result, as older versions wrote, has an empty ResultsInfo).
[[nodiscard]] std::vector<RunResult> results_from_json(const JsonNode& node, ResultsInfo& info);

// Shards' results as one run in suite order: every result must carry its suite_index, and no
// index may appear twice (InputError otherwise, naming both files).
struct ShardResults {
  std::filesystem::path file;
  std::vector<RunResult> results;
  ResultsInfo info;
};
[[nodiscard]] std::vector<RunResult> merge_shards(const std::vector<ShardResults>& shards);

}  // namespace dla::harness
