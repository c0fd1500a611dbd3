// Random-layer campaigns (`dlacosim random UNIT`, docs/RANDOM.md): the layer a generator draws
// (a complete JSON layer document that `dlacosim run` reproduces) and the campaign runner: every
// layer in cross mode (RTL against golden) with its own stall and randomized reset, judged also by
// the engine's independent references, in parallel threads, with a summary and the failing layers.
// Each engine's generator and references are its own (harness/engines/<name>/<name>_random.*),
// registered in its RandomSupport (include/harness/engine.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/mem_model.hpp"
#include "harness/memory.hpp"
#include "harness/program.hpp"
#include "harness/rng.hpp"
#include "harness/report.hpp"

namespace dla::harness {

// One generated layer: the document (ordered as a person writes it) and how it runs.
struct RandomLayer {
  std::string unit, name;
  const golden::HwConfig* config = nullptr;
  uint64_t index = 0;    // position in the campaign
  uint64_t seed = 0;     // the layer's "seed" (values, stalls, reset values)
  double stall = 0;      // the layer's "stall"
  int rand_reset = 0;    // --rand-reset of the run (not a layer field: part of the command line)
  MemOptions mem;        // --mem-latency / --mem-bandwidth of the run (command line too)
  uint64_t watchdog = 0; // the quiet cycles this layer may legitimately need (0: the default)
  int resized = 0;       // times the generator shrank the layer until CBUF held it
  std::string features;  // short description of what is special (shown for failures)
  std::string focus;     // --focus: the feature every layer of the campaign exercises ("": none)
  // Not empty: why the RTL does not run this layer (fp16 so far); it runs on the golden model and
  // only NVIDIA's C model judges it (the campaign needs --judge cmod).
  std::string golden_only;
  nlohmann::ordered_json doc;
};

// A generator's draws from its Rng.
struct Draw {
  Rng& rng;
  int64_t range(int64_t lo, int64_t hi) { return rng.range(lo, hi); }
  int i(int lo, int hi) { return static_cast<int>(rng.range(lo, hi)); }
  bool chance(double p) { return rng.chance(p); }
  int log_i(int lo, int hi) { return static_cast<int>(rng.log_range(lo, hi)); }
  template <class T>
  T pick(std::initializer_list<T> v) {
    return *(v.begin() + rng.range(0, static_cast<int64_t>(v.size()) - 1));
  }
};

// Helpers of the generators: the document's header (unit, config, name, seed, stall) and cube;
// whether the unit's layer compiler accepts a drawn document (an InputError means no).
[[nodiscard]] nlohmann::ordered_json random_layer_doc(const RandomLayer& L, int w, int h, int c);
[[nodiscard]] bool random_layer_compiles(const RandomLayer& L, const nlohmann::ordered_json& doc,
                                         Program (*compile)(const LayerHeader&, const JsonNode&));

// The header a generated layer's document gives its compiler (unit, name, config, seed, stall).
[[nodiscard]] LayerHeader layer_header(const RandomLayer& L, const std::filesystem::path& file);

// Units that have a generator (the registered engines with random support, harness/include/harness/engine.hpp).
[[nodiscard]] std::vector<std::string> random_units();

// Layer `index` of a campaign of `unit` with seed `seed` on `config`: a pure function of these
// four (and --focus), so a layer is the same whatever the count, the job count or the other
// configurations. Throws InputError for a unit without a generator or a focus it does not know.
[[nodiscard]] RandomLayer generate_random_layer(const std::string& unit, const golden::HwConfig& config,
                                                uint64_t seed, uint64_t index, const std::string& focus = {});

// What became of one layer.
enum class RandomStatus { Pass, Mismatch, Timeout, Error, Refused };
[[nodiscard]] std::string_view random_status_name(RandomStatus s);

struct RandomRun {
  RandomLayer layer;
  RandomStatus status = RandomStatus::Pass;
  RunResult cross;        // the cross-mode run (RTL against golden)
  std::string reference;  // int64 reference verdict: "" (not run), "agrees", "n/a: why", or who differs
  std::string message;    // why it did not pass
  std::filesystem::path file;  // where the failing layer was written (with --out)
  uint64_t watchdog = 20000;   // the run's watchdog: the campaign's, or the layer's when larger
  double seconds = 0;
  [[nodiscard]] std::string command() const;  // the `dlacosim run` line that reproduces it
};

struct RandomOptions {
  std::string unit;
  uint64_t count = 10;
  // --first F: the campaign's layers F .. F + count - 1 (layer i is the same whatever F, so a
  // campaign cut short goes on where it stopped and its parts together are the whole campaign).
  uint64_t first = 0;
  uint64_t seed = 1;
  unsigned jobs = 1;
  std::vector<const golden::HwConfig*> configs;  // layer i runs on configs[i % size]
  std::filesystem::path out_dir;                 // failing layers and summary.json; empty: none
  bool save_all = false;                         // write every layer to out_dir, not only failing ones
  uint64_t watchdog = 20000;
  std::string focus;  // --focus FEATURE: every layer exercises it (the unit's RandomSupport::focus)
  // --mem-latency / --mem-bandwidth: every layer's memory model (else each layer draws its own)
  std::optional<MemOptions> mem;
  // --judge cmod: NVIDIA's C model judges every layer it can run beside golden and the RTL
  // (its verdict in RandomRun::cross.cmod; a difference fails the layer). Empty: not asked.
  std::optional<CmodOptions> judge_cmod;
  std::function<void(const RandomRun&)> on_done;  // called (serialized) after each layer
};

// The configurations a campaign runs on (layer i on [i % size]): options.configs, else every
// configuration that has the unit. Throws InputError naming --config for one without it.
[[nodiscard]] std::vector<const golden::HwConfig*> campaign_configs(const RandomOptions& options);

// Runs one layer: compile, cross mode, the reference (conv); with `judge_cmod` NVIDIA's C model
// judges too. Never throws.
[[nodiscard]] RandomRun run_random_layer(const RandomLayer& layer, uint64_t watchdog,
                                         const std::optional<CmodOptions>& judge_cmod = std::nullopt);

struct RandomCampaign {
  RandomOptions options;
  std::vector<RandomRun> runs;  // in index order
  double seconds = 0;
};

// Generates and runs the campaign with options.jobs threads; writes each failing layer to
// out_dir (atomically, as it fails) and out_dir/summary.json at the end.
[[nodiscard]] RandomCampaign run_random_campaign(const RandomOptions& options);

[[nodiscard]] std::string format_random_summary(const RandomCampaign& c);
[[nodiscard]] nlohmann::json random_summary_json(const RandomCampaign& c);
// 0 all pass; 3 any timeout, internal error or refused layer (a generator bug); else 1 any mismatch.
[[nodiscard]] int random_exit_code(const RandomCampaign& c);

}  // namespace dla::harness
