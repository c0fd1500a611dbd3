// A self-contained HTML report of run results (`regress --html`, `report --html`): one file with
// inline CSS, inline SVG and a few lines of inline script, nothing fetched from anywhere.
// It shows the summary, a sortable table of the runs, every failure (first mismatches with
// coordinates, a heatmap per channel of where the mismatches are, the command that reproduces
// it), the picture of every network run (docs/NETWORKS.md) and, per unit, charts of cycles and of
// work per cycle. docs/CLI.md "HTML reports".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report.hpp"

namespace dla::harness {

struct HtmlReportOptions {
  std::string title = "dlacosim results";
  std::string source;  // what produced the results, e.g. "regress testvectors/suites/smoke.json"
  ResultsInfo info;    // elapsed time, runs planned, an interruption (the tool line is always ours)
};

[[nodiscard]] std::string html_report(const std::vector<RunResult>& results, const HtmlReportOptions& opt);

// A self-contained HTML page of benchmark results: `cases` is the array `dlacosim bench UNIT --json`
// prints (unit, config, case, cycles, elements, elements_per_cycle, nvdla_elements_per_cycle,
// utilization, wall_s, status, ...). A sortable table of the cases and, per unit and
// configuration, a chart of elements/cycle with NVDLA's rate marked on each bar.
[[nodiscard]] std::string html_bench_report(const nlohmann::json& cases, const HtmlReportOptions& opt);

// A network run's picture (harness/src/html_network.cpp): the network file the run names as a
// graph of tensors and layers, each layer coloured by its status in the run (its compares).
// A note instead when the file cannot be read.
[[nodiscard]] std::string html_network_picture(const RunResult& r, std::size_t index);
// The same picture of a loadable run (unit "loadable", docs/LOADABLES.md): the ops the firmware ran,
// the dependency graph's edges and the output tensor.
[[nodiscard]] std::string html_loadable_picture(const RunResult& r, std::size_t index);

// `dlacosim run LAYER --config C --mode M --seed S --stall P --rand-reset R` (and the memory model
// when the run recorded one), the layer file quoted for a POSIX shell when it needs quoting.
[[nodiscard]] std::string reproduce_command(const RunResult& r);

// What a unit's `work` counts, per cycle: "ops/cycle" (cmac: MAC atomic operations, so it is the
// MAC array's utilization), "tiles/cycle" (wino), "elements/cycle" (lut inputs; sdp and conv
// output elements), "work/cycle" for anything else.
[[nodiscard]] std::string_view rate_unit(std::string_view unit);

}  // namespace dla::harness
