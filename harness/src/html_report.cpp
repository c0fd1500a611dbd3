#include "harness/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>

#include "harness/version.hpp"
#include "harness/engine.hpp"

namespace dla::harness {

namespace {

// Sorting by a click on a column head; numeric cells carry their value in data-v.
constexpr const char* kScript = R"(
document.querySelectorAll('table.sortable th').forEach((th, i) => th.addEventListener('click', () => {
  const table = th.closest('table'), body = table.tBodies[0];
  const dir = th.dataset.dir === 'asc' ? 'desc' : 'asc';
  table.querySelectorAll('th').forEach(h => delete h.dataset.dir);
  th.dataset.dir = dir;
  const key = row => { const c = row.cells[i]; return c.dataset.v !== undefined ? parseFloat(c.dataset.v) : c.textContent; };
  const rows = Array.from(body.rows).sort((x, y) => {
    const a = key(x), b = key(y);
    const d = typeof a === 'number' ? a - b : String(a).localeCompare(String(b));
    return dir === 'asc' ? d : -d;
  });
  rows.forEach(r => body.appendChild(r));
}));
// report.html#sort=COLUMN or #sort=COLUMN:desc opens the runs table sorted.
const wanted = location.hash.match(/^#sort=([a-z-]+)(:desc)?$/);
const head = wanted && document.querySelector('table.runs th[data-col="' + wanted[1] + '"]');
if (head) { head.click(); if (wanted[2]) head.click(); }
)";

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.6em; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; background: #f0f0f0; }
table.sortable th[data-dir=asc]::after { content: " \25B2"; }
table.sortable th[data-dir=desc]::after { content: " \25BC"; }
.PASS { color: #1a7f37; font-weight: bold; }
.MISMATCH, .TIMEOUT, .ERROR, .BAD-INPUT { color: #cf222e; font-weight: bold; }
tr.failed { background: #fff0f0; }
pre { background: #f6f8fa; padding: 6px; overflow-x: auto; }
section.failure { border-left: 4px solid #cf222e; padding-left: 1em; margin: 1.5em 0; }
.maps { display: flex; flex-wrap: wrap; gap: 12px; }
.note { color: #555; font-size: 0.9em; }
)";

std::string esc(std::string_view s) { return xml_escape(s); }

std::string status_cell(Status s) {
  const std::string_view n = status_name(s);
  return fmt::format("<span class=\"{0}\">{0}</span>", n);
}

// work / cycles, or nothing when the run simulated no cycles (golden mode).
std::optional<double> rate(const RunResult& r) {
  if (r.cycles == 0) return std::nullopt;
  return static_cast<double>(r.work) / static_cast<double>(r.cycles);
}

std::size_t mismatches(const RunResult& r) {
  std::size_t n = 0;
  for (const auto& c : r.compares) n += c.mismatches;
  return n;
}

std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || std::string_view("_./-+,:=@%").find(ch) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::vector<std::string> axis_names(const std::string& axes) {
  std::vector<std::string> names;
  std::stringstream ss(axes);
  for (std::string item; std::getline(ss, item, ',');) names.push_back(item);
  while (names.size() < 4) names.push_back("?");
  return names;
}

// A cell's colour: from pale yellow (one mismatch) to dark red (the most in this compare).
std::string heat_colour(uint64_t count, uint64_t max) {
  const double t = max <= 1 ? 1.0 : static_cast<double>(count - 1) / static_cast<double>(max - 1);
  const auto mix = [t](int a, int b) { return static_cast<int>(a + (b - a) * t + 0.5); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(255, 165), mix(220, 0), mix(120, 38));
}

constexpr std::size_t kMaxHeatmaps = 16;

// The runs table's columns (the data-col names of `#sort=`).
constexpr const char* kRunColumns[] = {"#",      "layer",  "unit",   "config", "mode",      "seed",       "stall",
                                       "rand-reset", "status", "cycles", "work", "rate", "rate unit", "mismatches",
                                       "wall (s)"};

// One SVG per channel that has mismatches (the kMaxHeatmaps channels with the most), cells of
// the compare's mismatch map, coloured on one scale for the whole compare.
std::string heatmaps(const CompareResult& c, std::size_t run_index, std::size_t compare_index) {
  const MismatchMap& m = c.map;
  if (m.cells.empty()) return {};
  const auto names = axis_names(c.axes);
  std::map<int, uint64_t> per_channel;
  uint64_t max = 0;
  for (const auto& k : m.cells) {
    per_channel[k.c] += k.count;
    max = std::max(max, k.count);
  }
  std::vector<std::pair<int, uint64_t>> shown(per_channel.begin(), per_channel.end());
  std::stable_sort(shown.begin(), shown.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const std::size_t omitted = shown.size() > kMaxHeatmaps ? shown.size() - kMaxHeatmaps : 0;
  shown.resize(std::min(shown.size(), kMaxHeatmaps));
  std::sort(shown.begin(), shown.end());

  const int px_w = std::clamp(256 / m.cols, 6, 24), px_h = std::clamp(256 / m.rows, 6, 24);  // pixels per cell
  const int left = 34, top = 30;
  const int width = std::max(200, left + m.cols * px_w + 8), height = top + std::max(m.rows * px_h, 24) + 6;
  std::string s = fmt::format(
      "<p>Where the mismatches are: {} of {} channels ({}) with mismatches drawn; each square is {}x{} elements "
      "({} x {}), summed over {}; darker is more (most in one square: {}).</p>\n<div class=\"maps\">\n",
      shown.size(), per_channel.size(), esc(names[1]), m.cell_h, m.cell_w, esc(names[2]), esc(names[3]),
      esc(names[0]), max);
  for (const auto& [ch, total] : shown) {
    s += fmt::format(
        "<svg class=\"heatmap\" id=\"map-{}-{}-c{}\" data-region=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
        "<title>{} {}={}: {} mismatches</title>\n",
        run_index, compare_index, ch, esc(c.region), width, height, width, height, esc(c.region), esc(names[1]), ch, total);
    s += fmt::format("<text x=\"0\" y=\"14\" font-size=\"12\">{}={}: {} mismatches</text>\n", esc(names[1]), ch,
                     total);
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eef2f5\" stroke=\"#999\"/>\n", left,
                     top, m.cols * px_w, m.rows * px_h);
    for (const auto& k : m.cells) {
      if (k.c != ch) continue;
      const int h0 = k.row * m.cell_h, w0 = k.col * m.cell_w;
      const int h1 = std::min(h0 + m.cell_h, c.shape.h) - 1, w1 = std::min(w0 + m.cell_w, c.shape.w) - 1;
      const auto range = [](int a, int b) { return a == b ? fmt::format("{}", a) : fmt::format("{}..{}", a, b); };
      s += fmt::format(
          "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}={} {}={} {}={}: {} "
          "mismatch{}</title></rect>\n",
          left + k.col * px_w, top + k.row * px_h, px_w, px_h, heat_colour(k.count, max), esc(names[1]), ch, esc(names[2]),
          range(h0, h1), esc(names[3]), range(w0, w1), k.count, k.count == 1 ? "" : "es");
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\">{} 0..{}</text>\n", left, top - 3, esc(names[3]),
                     c.shape.w - 1);
    s += fmt::format("<text x=\"0\" y=\"{}\" font-size=\"10\">{}</text>", top + 10, esc(names[2]));
    s += fmt::format("<text x=\"0\" y=\"{}\" font-size=\"10\">0..{}</text>\n</svg>\n", top + 22, c.shape.h - 1);
  }
  s += "</div>\n";
  if (omitted != 0) {
    s += fmt::format("<p class=\"note\">{} more channels with mismatches are not drawn.</p>\n", omitted);
  }
  if (m.cells_dropped != 0) {
    s += fmt::format("<p class=\"note\">{} more non-empty squares (of the highest channels) were not recorded: a "
                     "result keeps at most {}.</p>\n", m.cells_dropped, MismatchMap::kMaxCells);
  }
  return s;
}

std::string failure_section(const RunResult& r, std::size_t i) {
  std::string s = fmt::format("<section class=\"failure\" id=\"fail-{}\">\n<h3>{} {} <span class=\"note\">[{} {} {}] "
                              "seed {} stall {} rand-reset {}</span></h3>\n",
                              i, status_cell(r.status), esc(r.name), esc(r.unit), esc(r.config), esc(r.mode), r.seed,
                              r.stall, r.rand_reset);
  if (!r.message.empty()) s += fmt::format("<pre class=\"message\">{}</pre>\n", esc(r.message));
  s += fmt::format("<p>Reproduce (from the directory the results were produced in):</p>\n<pre class=\"repro\">{}</pre>\n",
                   esc(reproduce_command(r)));
  if (!r.wave.empty()) {
    s += fmt::format("<p>Waveform: <a class=\"wave\" href=\"file://{0}\">{0}</a> (<code>gtkwave {1}</code>)</p>\n",
                     esc(r.wave), esc(shell_quote(r.wave)));
  }
  if (r.dma) s += fmt::format("<p class=\"note\">{}</p>\n", esc(format_dma(*r.dma, r.cycles_since_launch())));
  for (std::size_t ci = 0; ci < r.compares.size(); ++ci) {
    const CompareResult& c = r.compares[ci];
    if (c.pass()) continue;
    s += fmt::format("<h4>{}: {} element{} of {} {}{}</h4>\n<p class=\"note\">shape {} ({}), crc32 actual "
                     "{:08x}, expected {:08x}</p>\n",
                     esc(c.region), c.mismatches, c.mismatches == 1 ? "" : "s", c.elements,
                     c.mismatches == 1 ? "differs" : "differ", c.shape_ok ? "" : " (the shapes differ)",
                     fmt::format("{}x{}x{}x{}", c.shape.n, c.shape.c, c.shape.h, c.shape.w), esc(c.axes),
                     c.crc_actual, c.crc_expected);
    if (!c.first.empty()) {
      s += "<table class=\"mismatches\"><thead><tr><th>at</th><th>actual</th><th>expected</th><th>actual xor "
           "expected</th></tr></thead><tbody>\n";
      for (const auto& m : c.first) {
        s += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:#x}"
                         "</td></tr>\n",
                         esc(format_coord(c, m.coord)), m.actual, m.expected,
                         static_cast<uint64_t>(m.actual) ^ static_cast<uint64_t>(m.expected));
      }
      s += "</tbody></table>\n";
      if (c.mismatches > c.first.size()) {
        s += fmt::format("<p class=\"note\">... and {} more (the results list the first {}).</p>\n",
                         c.mismatches - c.first.size(), c.first.size());
      }
    }
    s += heatmaps(c, i, ci);
  }
  s += "</section>\n";
  return s;
}

// Horizontal bars, one per run of the unit, labelled with the run's name and seed.
std::string bar_chart(const std::string& cls, const std::string& caption,
                      const std::vector<std::pair<std::string, double>>& bars, const std::string& value_format) {
  double max = 0;
  for (const auto& b : bars) max = std::max(max, b.second);
  const int label_w = 300, bar_w = 360, row = 18, top = 20;
  const int width = label_w + bar_w + 110, height = top + row * static_cast<int>(bars.size()) + 4;
  std::string s = fmt::format("<svg class=\"chart {}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                              "<title>{}</title>\n<text x=\"0\" y=\"13\" font-size=\"12\" font-weight=\"bold\">{}"
                              "</text>\n",
                              cls, width, height, width, height, esc(caption), esc(caption));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const int y = top + row * static_cast<int>(i);
    const int w = max > 0 ? static_cast<int>(bars[i].second / max * bar_w + 0.5) : 0;
    const std::string value = fmt::format(fmt::runtime(value_format), bars[i].second);
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>"
                     "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#4a7ab5\"><title>{}: {}</title></rect>"
                     "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n",
                     label_w - 6, y + 12, esc(bars[i].first), label_w, y + 2, w, row - 4, esc(bars[i].first), value,
                     label_w + w + 4, y + 12, value);
  }
  s += "</svg>\n";
  return s;
}

std::string unit_charts(const std::vector<RunResult>& results) {
  std::map<std::string, std::vector<const RunResult*>> by_unit;
  for (const auto& r : results) by_unit[r.unit].push_back(&r);
  std::string s = "<h2 id=\"units\">Per unit</h2>\n<p class=\"note\">Cycles are RTL clock cycles of the run; the rate "
                  "is the unit's work divided by them (see the rate column). Runs without RTL cycles (golden mode) "
                  "are left out. NVDLA's own rates are not part of run results: compare with "
                  "<code>dlacosim bench UNIT</code>.</p>\n";
  for (const auto& [unit, runs] : by_unit) {
    std::vector<std::pair<std::string, double>> cycles, rates;
    uint64_t total_cycles = 0, total_work = 0;
    for (const RunResult* r : runs) {
      if (r->cycles == 0) continue;
      const std::string label = fmt::format("{} seed {}", r->name, r->seed);
      cycles.emplace_back(label, static_cast<double>(r->cycles));
      rates.emplace_back(label, *rate(*r));
      total_cycles += r->cycles;
      total_work += r->work;
    }
    s += fmt::format("<h3 id=\"unit-{0}\">{0}</h3>\n", esc(unit));
    if (cycles.empty()) {
      s += "<p class=\"note\">No run of this unit simulated RTL cycles.</p>\n";
      continue;
    }
    s += fmt::format("<p>{} runs with RTL cycles: {} cycles, {} work, {:.4f} {} overall.</p>\n", cycles.size(),
                     total_cycles, total_work, static_cast<double>(total_work) / static_cast<double>(total_cycles),
                     rate_unit(unit));
    s += bar_chart("cycles", fmt::format("{}: cycles per run", unit), cycles, "{:.0f}");
    s += bar_chart("rate", fmt::format("{}: {} per run", unit, rate_unit(unit)), rates, "{:.4f}");
  }
  return s;
}

// Measured rate per case as a bar, NVDLA's rate as a red tick on the same scale.
std::string rate_chart(const std::string& caption, const std::vector<std::pair<std::string, double>>& measured,
                       const std::vector<std::optional<double>>& nvdla) {
  double max = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) max = std::max({max, measured[i].second, nvdla[i].value_or(0)});
  const int label_w = 300, bar_w = 360, row = 18, top = 20;
  const int width = label_w + bar_w + 180, height = top + row * static_cast<int>(measured.size()) + 18;
  std::string s = fmt::format("<svg class=\"chart rate\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                              "<title>{}</title>\n<text x=\"0\" y=\"13\" font-size=\"12\" font-weight=\"bold\">{}"
                              "</text>\n",
                              width, height, width, height, esc(caption), esc(caption));
  const auto x_of = [&](double v) { return max > 0 ? static_cast<int>(v / max * bar_w + 0.5) : 0; };
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const int y = top + row * static_cast<int>(i);
    const int w = x_of(measured[i].second);
    std::string value = fmt::format("{:.4g}", measured[i].second);
    if (nvdla[i]) value += fmt::format(" of {:.4g} ({:.0f} %)", *nvdla[i], measured[i].second / *nvdla[i] * 100);
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>"
                     "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#4a7ab5\"><title>{}: {}</title></rect>",
                     label_w - 6, y + 12, esc(measured[i].first), label_w, y + 2, w, row - 4, esc(measured[i].first),
                     value);
    if (nvdla[i]) {
      s += fmt::format("<rect class=\"nvdla\" x=\"{}\" y=\"{}\" width=\"3\" height=\"{}\" fill=\"#cf222e\">"
                       "<title>NVDLA: {:.4g}</title></rect>",
                       label_w + x_of(*nvdla[i]) - 1, y, row, *nvdla[i]);
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", label_w + bar_w + 6, y + 12, value);
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#cf222e\">red tick: NVDLA's rate on the case"
                   "</text>\n</svg>\n",
                   label_w, height - 4);
  return s;
}

std::string num_cell(const nlohmann::json& v, const char* format) {
  if (!v.is_number()) return "<td class=\"num\" data-v=\"-1\">-</td>";
  const double d = v.get<double>();
  return fmt::format("<td class=\"num\" data-v=\"{}\">{}</td>", d, fmt::format(fmt::runtime(format), d));
}

}  // namespace

std::string html_bench_report(const nlohmann::json& cases, const HtmlReportOptions& opt) {
  std::string s = fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
                              "<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
                              esc(opt.title), kStyle, esc(opt.title));
  if (!opt.source.empty()) s += fmt::format("<p class=\"note\">Results of <code>{}</code>.</p>\n", esc(opt.source));
  s += "<p class=\"note\">Cycles are simulated RTL clock cycles. NVDLA's rate is the smaller of the engine's throughput "
       "and what the memory interface allows for the bytes the case moves per element (docs/PERFORMANCE.md); "
       "utilization is MACs / (cycles x MACs per cycle). Click a column head to sort.</p>\n";
  s += "<h2 id=\"cases\">Cases</h2>\n<table class=\"sortable cases\"><thead><tr>";
  for (const char* col : {"unit", "config", "case", "status", "cycles", "elements", "elements/cycle", "NVDLA",
                          "of NVDLA", "utilization", "Winograd speed-up", "wall s"}) {
    s += fmt::format("<th>{}</th>", col);
  }
  s += "</tr></thead>\n<tbody>\n";
  std::map<std::pair<std::string, std::string>, std::vector<const nlohmann::json*>> groups;
  for (const auto& c : cases) {
    const auto str = [&](const char* k) { return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : ""; };
    groups[{str("unit"), str("config")}].push_back(&c);
    const nlohmann::json nvdla = c.value("nvdla_elements_per_cycle", nlohmann::json());
    const nlohmann::json epc = c.value("elements_per_cycle", nlohmann::json());
    const nlohmann::json share = nvdla.is_number() && epc.is_number() && nvdla.get<double>() > 0
                                     ? nlohmann::json(epc.get<double>() / nvdla.get<double>() * 100)
                                     : nlohmann::json();
    const std::string status = str("status");
    s += fmt::format("<tr class=\"case{}\"><td>{}</td><td>{}</td><td>{}</td><td><span class=\"{}\">{}</span></td>",
                     status == "PASS" ? "" : " failed", esc(str("unit")), esc(str("config")), esc(str("case")),
                     status == "PASS" ? "PASS" : "MISMATCH", esc(status));
    s += num_cell(c.value("cycles", nlohmann::json()), "{:.0f}") + num_cell(c.value("elements", nlohmann::json()), "{:.0f}") +
         num_cell(epc, "{:.4f}") + num_cell(nvdla, "{:.4g}") + num_cell(share, "{:.1f} %") +
         num_cell(c.value("utilization", nlohmann::json()), "{:.4f}") +
         num_cell(c.value("winograd_speedup", nlohmann::json()), "{:.3f}") +
         num_cell(c.value("wall_s", nlohmann::json()), "{:.2f}") + "</tr>\n";
  }
  s += "</tbody></table>\n<h2 id=\"charts\">Rate against NVDLA's</h2>\n";
  for (const auto& [key, group] : groups) {
    std::vector<std::pair<std::string, double>> measured;
    std::vector<std::optional<double>> nvdla;
    for (const nlohmann::json* c : group) {
      measured.emplace_back(c->value("case", std::string()), c->value("elements_per_cycle", 0.0));
      const auto n = c->value("nvdla_elements_per_cycle", nlohmann::json());
      nvdla.push_back(n.is_number() ? std::optional<double>(n.get<double>()) : std::nullopt);
    }
    s += fmt::format("<h3>{} {}</h3>\n", esc(key.first), esc(key.second));
    s += rate_chart(fmt::format("{} {}: elements per cycle", key.first, key.second), measured, nvdla);
  }
  s += fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript);
  return s;
}

std::string_view rate_unit(std::string_view unit) {
  const engines::Engine* e = engines::find_engine(unit);
  return e != nullptr ? e->rate_unit : "work/cycle";
}

std::string reproduce_command(const RunResult& r) {
  std::string s = fmt::format("dlacosim run {} --config {} --mode {} --seed {} --stall {} --rand-reset {}",
                              shell_quote(r.layer_file), shell_quote(r.config), shell_quote(r.mode), r.seed, r.stall,
                              r.rand_reset);
  if (r.dma) {
    s += fmt::format(" --mem-latency {}:{}", r.dma->mem.latency_min, r.dma->mem.latency_max);
    if (!r.dma->mem.unlimited()) s += fmt::format(" --mem-bandwidth {}", r.dma->mem.bandwidth);
  }
  return s;
}

std::string html_report(const std::vector<RunResult>& results, const HtmlReportOptions& opt) {
  std::map<Status, std::size_t> by_status;
  double seconds = 0;
  uint64_t cycles = 0;
  for (const auto& r : results) {
    ++by_status[r.status];
    seconds += r.seconds;
    cycles += r.cycles;
  }
  const std::size_t passed = by_status[Status::Pass];
  std::string s = fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
                              "<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
                              esc(opt.title), kStyle, esc(opt.title));
  if (!opt.source.empty()) s += fmt::format("<p class=\"note\">Results of <code>{}</code>.</p>\n", esc(opt.source));
  s += fmt::format("<p class=\"note tool\">Report by {}{}.</p>\n", esc(tool_line()),
                   opt.info.tool.is_object() && opt.info.tool.value("commit", "") != tool_commit()
                       ? fmt::format("; the results were written by dlacosim {} (commit {})",
                                     esc(opt.info.tool.value("version", "?")), esc(opt.info.tool.value("commit", "?")))
                       : std::string());
  if (!opt.info.interrupted.empty()) {
    s += fmt::format("<p class=\"MISMATCH interrupted\">Interrupted by {}: {} of {} runs finished; only those are "
                     "shown.</p>\n",
                     esc(opt.info.interrupted), results.size(), std::max(opt.info.planned, results.size()));
  }

  s += "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\"><tbody>\n";
  s += fmt::format("<tr><th>runs</th><td class=\"num\">{}</td></tr>\n", results.size());
  s += fmt::format("<tr><th>passed</th><td class=\"num\">{}</td></tr>\n", passed);
  s += fmt::format("<tr><th>failed</th><td class=\"num\">{}</td></tr>\n", results.size() - passed);
  for (const Status st : {Status::Mismatch, Status::Timeout, Status::BadInput, Status::Error}) {
    if (by_status[st] != 0) {
      s += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td></tr>\n", status_cell(st), by_status[st]);
    }
  }
  s += fmt::format("<tr><th>RTL cycles</th><td class=\"num\">{}</td></tr>\n", cycles);
  if (opt.info.elapsed) {
    s += fmt::format("<tr><th>elapsed (s)</th><td class=\"num\">{:.2f}</td></tr>\n", *opt.info.elapsed);
  }
  s += fmt::format("<tr><th>wall time (s, sum of runs)</th><td class=\"num\">{:.2f}</td></tr>\n</tbody></table>\n",
                   seconds);
  s += fmt::format("<p class=\"{}\">{}</p>\n", passed == results.size() ? "PASS" : "MISMATCH",
                   passed == results.size() ? "All runs passed." : fmt::format("{} of {} runs failed: see "
                                                                              "<a href=\"#failures\">Failures</a>.",
                                                                              results.size() - passed, results.size()));

  s += "<h2 id=\"runs\">Runs</h2>\n<p class=\"note\">Click a column head to sort.</p>\n"
       "<table class=\"sortable runs\"><thead><tr>";
  for (const char* col : kRunColumns) s += fmt::format("<th data-col=\"{0}\">{0}</th>", col);
  s += "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const RunResult& r = results[i];
    const bool failed = r.status != Status::Pass;
    const auto rt = rate(r);
    s += fmt::format(
        "<tr class=\"run{}\" id=\"run-{}\"><td class=\"num\" data-v=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td>"
        "<td class=\"num\" data-v=\"{}\">{}</td><td>{}</td><td class=\"num cycles\" data-v=\"{}\">{}</td>"
        "<td class=\"num\" data-v=\"{}\">{}</td><td class=\"num rate\" data-v=\"{}\">{}</td><td>{}</td>"
        "<td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{:.2f}</td></tr>\n",
        failed ? " failed" : "", i, i, i,
        failed ? fmt::format("<a href=\"#fail-{}\">{}</a>", i, esc(r.name)) : esc(r.name), esc(r.unit), esc(r.config),
        esc(r.mode), r.seed, r.seed, r.stall, r.stall, r.rand_reset, r.rand_reset, status_cell(r.status), r.cycles,
        r.cycles, r.work, r.work, rt.value_or(-1), rt ? fmt::format("{:.4f}", *rt) : "-", rate_unit(r.unit),
        mismatches(r), mismatches(r), r.seconds, r.seconds);
  }
  s += "</tbody></table>\n";

  if (std::any_of(results.begin(), results.end(), [](const RunResult& r) { return r.unit == "network"; })) {
    s += "<h2 id=\"networks\">Networks</h2>\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].unit == "network") s += html_network_picture(results[i], i);
    }
  }
  if (std::any_of(results.begin(), results.end(), [](const RunResult& r) { return r.unit == "loadable"; })) {
    s += "<h2 id=\"loadables\">Loadables</h2>\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (results[i].unit == "loadable") s += html_loadable_picture(results[i], i);
    }
  }

  s += "<h2 id=\"failures\">Failures</h2>\n";
  if (passed == results.size()) s += "<p>None.</p>\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].status != Status::Pass) s += failure_section(results[i], i);
  }
  s += unit_charts(results);
  s += fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript);
  return s;
}

}  // namespace dla::harness
