#include "harness/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "harness/version.hpp"

namespace dla::harness {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Pass: return "PASS";
    case Status::Mismatch: return "MISMATCH";
    case Status::BadInput: return "BAD-INPUT";
    case Status::Timeout: return "TIMEOUT";
    case Status::Error: return "ERROR";
  }
  return "?";
}

int exit_code(Status s) {
  switch (s) {
    case Status::Pass: return static_cast<int>(ExitCode::Pass);
    case Status::Mismatch: return static_cast<int>(ExitCode::Mismatch);
    case Status::BadInput: return static_cast<int>(ExitCode::BadInput);
    case Status::Timeout: return static_cast<int>(ExitCode::Timeout);
    case Status::Error: return static_cast<int>(ExitCode::Internal);
  }
  return static_cast<int>(ExitCode::Internal);
}

int exit_code(const std::vector<RunResult>& results) {
  auto rank = [](Status s) {
    switch (s) {
      case Status::Pass: return 0;
      case Status::Mismatch: return 1;
      case Status::Timeout: return 2;
      case Status::Error: return 3;
      case Status::BadInput: return 4;
    }
    return 4;
  };
  Status worst = Status::Pass;
  for (const auto& r : results) {
    if (rank(r.status) > rank(worst)) worst = r.status;
  }
  return exit_code(worst);
}

std::string format_dma(const DmaTraffic& d, uint64_t cycles) {
  return fmt::format("dma: {} B read, {} B written, {:.4f} B/cycle over {} cycles (latency {}:{}, bandwidth {})",
                     d.bytes_read, d.bytes_written, d.bytes_per_cycle(cycles), cycles, d.mem.latency_min,
                     d.mem.latency_max, d.mem.unlimited() ? "unlimited" : fmt::format("{:g} B/cycle", d.mem.bandwidth));
}

nlohmann::json dma_json(const DmaTraffic& d, uint64_t cycles) {
  return {{"bytes_read", d.bytes_read},
          {"bytes_written", d.bytes_written},
          {"bytes_per_cycle", d.bytes_per_cycle(cycles)},
          {"mem_latency", {d.mem.latency_min, d.mem.latency_max}},
          {"mem_bandwidth", d.mem.unlimited() ? nlohmann::json(nullptr) : nlohmann::json(d.mem.bandwidth)}};
}

std::string_view verdict_name(CmodVerdict::State s) {
  switch (s) {
    case CmodVerdict::State::Agrees: return "agrees";
    case CmodVerdict::State::Differs: return "differs";
    case CmodVerdict::State::NotJudged: return "not judged";
    case CmodVerdict::State::Refused: return "refused";
    case CmodVerdict::State::Timeout: return "timeout";
  }
  return "?";
}

namespace {

CmodVerdict::State verdict_from_name(const JsonNode& n) {
  const std::string v = n.as_choice({"agrees", "differs", "not judged", "refused", "timeout"});
  for (auto s : {CmodVerdict::State::Agrees, CmodVerdict::State::Differs, CmodVerdict::State::NotJudged,
                 CmodVerdict::State::Refused, CmodVerdict::State::Timeout}) {
    if (verdict_name(s) == v) return s;
  }
  n.fail("unknown verdict");
}

}  // namespace

std::string format_run(const RunResult& r) {
  // An input refused before it ran (not a valid layer, a trace of no known configuration): no seed,
  // stall or cycles to report.
  std::string s = r.status == Status::BadInput && (r.unit.empty() || r.config.empty())
                      ? fmt::format("{} {} [not run] ({:.2f}s)\n", status_name(r.status), r.name, r.seconds)
                      : fmt::format("{} {} [{} {} {}] seed={} stall={:.2f} rand-reset={} cycles={} ({:.2f}s)\n",
                                    status_name(r.status), r.name, r.unit, r.config, r.mode, r.seed, r.stall,
                                    r.rand_reset, r.cycles, r.seconds);
  if (r.dma) s += "  " + format_dma(*r.dma, r.cycles_since_launch()) + "\n";
  if (r.cmod) {
    s += fmt::format("  NVIDIA C model: {}{}\n", verdict_name(r.cmod->state),
                     r.cmod->detail.empty() ? "" : ": " + r.cmod->detail);
  }
  if (!r.message.empty()) s += "  " + r.message + "\n";
  for (const auto& c : r.compares) {
    s += fmt::format("  {}: {} element{}, {} mismatch{}, crc32 actual {:08x} expected {:08x}{}\n", c.region,
                     c.elements, c.elements == 1 ? "" : "s", c.mismatches, c.mismatches == 1 ? "" : "es",
                     c.crc_actual, c.crc_expected, c.shape_ok ? "" : " (shape differs)");
    for (const auto& m : c.first) {
      s += fmt::format("    at {}: actual {} expected {}\n", format_coord(c, m.coord), m.actual, m.expected);
    }
    if (c.mismatches > c.first.size()) s += fmt::format("    ... {} more\n", c.mismatches - c.first.size());
  }
  return s;
}

std::string format_table(const std::vector<RunResult>& results) {
  std::size_t w = 5;
  bool judged = false;
  for (const auto& r : results) {
    w = std::max(w, r.name.size());
    judged = judged || r.cmod.has_value();
  }
  const std::string cmod_head = judged ? fmt::format(" {:<10}", "cmod") : "";
  std::string s = fmt::format("{:<{}}  {:<6} {:<8} {:<5} {:<9} {:>10} {:>12} {:>9} {:>8}{}\n", "layer", w, "unit",
                              "config", "mode", "result", "cycles", "compared", "mismatch", "time(s)", cmod_head);
  s += std::string(w + 78 + cmod_head.size(), '-') + "\n";
  std::size_t pass = 0;
  std::map<CmodVerdict::State, std::size_t> verdicts;
  for (const auto& r : results) {
    std::size_t elements = 0, mism = 0;
    for (const auto& c : r.compares) {
      elements += c.elements;
      mism += c.mismatches;
    }
    pass += r.status == Status::Pass ? 1 : 0;
    std::string cmod;
    if (judged) cmod = fmt::format(" {:<10}", r.cmod ? verdict_name(r.cmod->state) : "-");
    if (r.cmod) ++verdicts[r.cmod->state];
    s += fmt::format("{:<{}}  {:<6} {:<8} {:<5} {:<9} {:>10} {:>12} {:>9} {:>8.2f}{}\n", r.name, w, r.unit, r.config,
                     r.mode, status_name(r.status), r.cycles, elements, mism, r.seconds, cmod);
  }
  s += std::string(w + 78 + cmod_head.size(), '-') + "\n";
  s += fmt::format("{} passed, {} failed\n", pass, results.size() - pass);
  if (judged) {
    std::string v;
    for (const auto& [state, n] : verdicts) v += fmt::format("{}{} {}", v.empty() ? "" : ", ", n, verdict_name(state));
    s += fmt::format("NVIDIA C model: {}\n", v);
  }
  return s;
}

nlohmann::json to_json(const RunResult& r) {
  nlohmann::json j{{"layer_file", r.layer_file}, {"name", r.name},        {"unit", r.unit},
                   {"config", r.config},         {"mode", r.mode},        {"seed", r.seed},
                   {"stall", r.stall},           {"rand_reset", r.rand_reset},
                   {"status", status_name(r.status)}, {"message", r.message}, {"cycles", r.cycles},
                   {"work", r.work},             {"seconds", r.seconds}};
  if (r.suite_index) j["suite_index"] = *r.suite_index;
  if (!r.wave.empty()) j["wave"] = r.wave;
  if (r.launch_cycle != 0) j["launch_cycle"] = r.launch_cycle;
  if (r.dma) j["dma"] = dma_json(*r.dma, r.cycles_since_launch());
  if (r.cmod) {
    j["cmod"] = {{"verdict", verdict_name(r.cmod->state)}, {"detail", r.cmod->detail}};
    if (!r.cmod->adapted.empty()) j["cmod"]["adapted"] = r.cmod->adapted;
  }
  auto& cs = j["compares"] = nlohmann::json::array();
  for (const auto& c : r.compares) {
    nlohmann::json jc{{"region", c.region},
                      {"axes", c.axes},
                      {"shape", {c.shape.n, c.shape.c, c.shape.h, c.shape.w}},
                      {"elements", c.elements},
                      {"mismatches", c.mismatches},
                      {"shape_ok", c.shape_ok},
                      {"crc32_actual", fmt::format("{:08x}", c.crc_actual)},
                      {"crc32_expected", fmt::format("{:08x}", c.crc_expected)}};
    auto& first = jc["first_mismatches"] = nlohmann::json::array();
    for (const auto& m : c.first) {
      first.push_back({{"coord", {m.coord.n, m.coord.c, m.coord.h, m.coord.w}},
                       {"actual", m.actual},
                       {"expected", m.expected}});
    }
    if (!c.map.empty()) {
      nlohmann::json cells = nlohmann::json::array();
      for (const auto& k : c.map.cells) cells.push_back({k.c, k.row, k.col, k.count});
      jc["mismatch_map"] = {{"cell", {c.map.cell_h, c.map.cell_w}},
                            {"grid", {c.map.rows, c.map.cols}},
                            {"cells", std::move(cells)},
                            {"cells_dropped", c.map.cells_dropped}};
    }
    cs.push_back(std::move(jc));
  }
  return j;
}

nlohmann::json to_json(const std::vector<RunResult>& results) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& r : results) j.push_back(to_json(r));
  return j;
}

std::string xml_escape(std::string_view in) {
  std::string out;
  for (const char c : in) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

nlohmann::json results_json(const std::vector<RunResult>& results, const ResultsInfo& info) {
  nlohmann::json j{{"tool", tool_json()},
                   {"command", info.command},
                   {"suite", info.suite},
                   {"runs_planned", std::max(info.planned, results.size())},
                   {"runs_finished", results.size()},
                   {"interrupted", !info.interrupted.empty()},
                   {"elapsed_seconds", info.elapsed ? nlohmann::json(*info.elapsed) : nlohmann::json(nullptr)}};
  if (!info.interrupted.empty()) j["signal"] = info.interrupted;
  j["results"] = to_json(results);
  return j;
}

std::string junit_xml(const std::string& suite, const std::vector<RunResult>& results, const ResultsInfo& info) {
  std::size_t failures = 0, errors = 0;
  double sum = 0;
  for (const auto& r : results) {
    failures += r.status == Status::Mismatch ? 1 : 0;
    errors += (r.status != Status::Mismatch && r.status != Status::Pass) ? 1 : 0;
    sum += r.seconds;
  }
  // The suite's time is the elapsed wall time (parallel runs overlap): what CI shows as its length.
  const double total = info.elapsed.value_or(sum);
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += fmt::format("<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" time=\"{4:.3f}\">\n",
                   xml_escape(suite), results.size(), failures, errors, total);
  s += fmt::format("  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" time=\"{4:.3f}\">\n",
                   xml_escape(suite), results.size(), failures, errors, total);
  s += "    <properties>\n";
  const auto prop = [&](const std::string& name, const std::string& value) {
    s += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
  };
  prop("dlacosim.version", std::string(tool_version()));
  prop("dlacosim.commit", std::string(tool_commit()));
  if (!info.command.empty()) prop("command", info.command);
  prop("runs_planned", std::to_string(std::max(info.planned, results.size())));
  prop("runs_finished", std::to_string(results.size()));
  prop("sum_of_run_seconds", fmt::format("{:.3f}", sum));
  if (info.elapsed) prop("elapsed_seconds", fmt::format("{:.3f}", *info.elapsed));
  prop("interrupted", info.interrupted.empty() ? "false" : "true");
  if (!info.interrupted.empty()) prop("signal", info.interrupted);
  s += "    </properties>\n";
  for (const auto& r : results) {
    s += fmt::format("    <testcase classname=\"{}.{}.{}\" name=\"{}\" time=\"{:.3f}\">\n", xml_escape(r.unit),
                     xml_escape(r.config), xml_escape(r.mode), xml_escape(r.name), r.seconds);
    if (r.status == Status::Mismatch) {
      s += fmt::format("      <failure message=\"{}\">{}</failure>\n", xml_escape(r.message),
                       xml_escape(format_run(r)));
    } else if (r.status != Status::Pass) {
      s += fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n", status_name(r.status),
                       xml_escape(r.message), xml_escape(format_run(r)));
    }
    s += fmt::format("      <system-out>seed={} stall={} rand_reset={} cycles={}</system-out>\n", r.seed, r.stall,
                     r.rand_reset, r.cycles);
    s += "    </testcase>\n";
  }
  s += "  </testsuite>\n</testsuites>\n";
  return s;
}

namespace {

Status status_from_name(const JsonNode& n) {
  const std::string s = n.as_choice({"PASS", "MISMATCH", "BAD-INPUT", "TIMEOUT", "ERROR"});
  for (const Status st : {Status::Pass, Status::Mismatch, Status::BadInput, Status::Timeout, Status::Error}) {
    if (status_name(st) == s) return st;
  }
  n.fail("unknown status");
}

uint32_t crc_from_hex(const JsonNode& n) {
  const std::string s = n.as_string();
  const auto v = parse_u64_text("0x" + s);
  if (s.size() != 8 || !v) n.fail("expected 8 hexadecimal digits");
  return static_cast<uint32_t>(*v);
}

std::array<int64_t, 4> four(const JsonNode& n) {
  if (!n.is_array() || n.size() != 4) n.fail("expected an array of 4 integers");
  return {n[0].as_int(INT64_MIN, INT64_MAX), n[1].as_int(INT64_MIN, INT64_MAX), n[2].as_int(INT64_MIN, INT64_MAX),
          n[3].as_int(INT64_MIN, INT64_MAX)};
}

// compare.hpp's MismatchMap: the grid must be the one mismatch_grid gives the shape, the cells
// non-empty, inside it and in strictly ascending (c, row, col) order.
MismatchMap mismatch_map_from_json(const JsonNode& n, const CubeShape& shape) {
  n.allow_keys({"cell", "grid", "cells", "cells_dropped"});
  MismatchMap m = mismatch_grid(shape);
  const JsonNode cell = n.require("cell"), grid = n.require("grid");
  if (!cell.is_array() || cell.size() != 2 || cell[0].as_int(1, INT32_MAX) != m.cell_h ||
      cell[1].as_int(1, INT32_MAX) != m.cell_w) {
    cell.fail(fmt::format("expected [{}, {}]: the cell size of shape {}x{} (h x w)", m.cell_h, m.cell_w, shape.h,
                          shape.w));
  }
  if (!grid.is_array() || grid.size() != 2 || grid[0].as_int(0, INT32_MAX) != m.rows ||
      grid[1].as_int(0, INT32_MAX) != m.cols) {
    grid.fail(fmt::format("expected [{}, {}]: the grid of shape {}x{} (h x w)", m.rows, m.cols, shape.h, shape.w));
  }
  const JsonNode cells = n.require("cells");
  if (!cells.is_array() || cells.size() > MismatchMap::kMaxCells) {
    cells.fail(fmt::format("expected an array of at most {} cells", MismatchMap::kMaxCells));
  }
  for (const auto& jk : cells.items()) {
    if (!jk.is_array() || jk.size() != 4) jk.fail("expected [c, row, col, count]");
    MismatchCell k{static_cast<int>(jk[0].as_int(0, shape.c - 1)), static_cast<int>(jk[1].as_int(0, m.rows - 1)),
                   static_cast<int>(jk[2].as_int(0, m.cols - 1)), jk[3].as_u64()};
    if (k.count == 0) jk[3].fail("a listed cell has at least one mismatch");
    if (!m.cells.empty() && std::tie(m.cells.back().c, m.cells.back().row, m.cells.back().col) >=
                                std::tie(k.c, k.row, k.col)) {
      jk.fail("cells must be in strictly ascending (c, row, col) order");
    }
    m.cells.push_back(k);
  }
  m.cells_dropped = static_cast<std::size_t>(n.require("cells_dropped").as_u64());
  return m;
}

RunResult run_result_from_json(const JsonNode& n) {
  if (!n.is_object()) n.fail("expected a run result object");
  n.allow_keys({"layer_file", "name", "unit", "config", "mode", "seed", "stall", "rand_reset", "status", "message",
                "cycles", "launch_cycle", "work", "seconds", "dma", "compares", "suite_index", "wave", "cmod"});
  RunResult r;
  r.layer_file = n.require("layer_file").as_string();
  r.name = n.require("name").as_string();
  r.unit = n.require("unit").as_string();
  r.config = n.require("config").as_string();
  r.mode = n.require("mode").as_choice({"cross", "golden", "rtl", "cmod"});
  r.seed = n.require("seed").as_u64();
  r.stall = n.require("stall").as_double(0.0, 0.95);
  r.rand_reset = static_cast<int>(n.require("rand_reset").as_int(0, 2));
  r.status = status_from_name(n.require("status"));
  r.message = n.require("message").as_string();
  r.cycles = n.require("cycles").as_u64();
  if (const auto lc = n.get("launch_cycle")) r.launch_cycle = lc->as_u64(r.cycles);
  r.work = n.require("work").as_u64();
  r.seconds = n.require("seconds").as_double(0.0, 1e12);
  if (const auto si = n.get("suite_index")) r.suite_index = static_cast<std::size_t>(si->as_u64());
  if (const auto w = n.get("wave")) r.wave = w->as_string();
  if (const auto v = n.get("cmod")) {
    v->allow_keys({"verdict", "detail", "adapted"});
    r.cmod = CmodVerdict{verdict_from_name(v->require("verdict")), v->require("detail").as_string()};
    if (const auto a = v->get("adapted")) r.cmod->adapted = a->as_string();
  }
  if (const auto d = n.get("dma")) {
    d->allow_keys({"bytes_read", "bytes_written", "bytes_per_cycle", "mem_latency", "mem_bandwidth"});
    DmaTraffic t;
    t.bytes_read = d->require("bytes_read").as_u64();
    t.bytes_written = d->require("bytes_written").as_u64();
    const JsonNode lat = d->require("mem_latency");
    if (!lat.is_array() || lat.size() != 2) lat.fail("expected [min, max]");
    t.mem.latency_min = static_cast<int>(lat[0].as_int(1, MemOptions::kLatencyLimit));
    t.mem.latency_max = static_cast<int>(lat[1].as_int(t.mem.latency_min, MemOptions::kLatencyLimit));
    const JsonNode bw = d->require("mem_bandwidth");
    t.mem.bandwidth = bw.raw().is_null() ? 0.0 : bw.as_double(MemOptions::kBandwidthMin, MemOptions::kBandwidthMax);
    r.dma = t;
  }
  for (const auto& jc : n.require("compares").items()) {
    jc.allow_keys({"region", "axes", "shape", "shape_ok", "elements", "mismatches", "crc32_actual",
                   "crc32_expected", "first_mismatches", "mismatch_map"});
    CompareResult c;
    c.region = jc.require("region").as_string();
    c.axes = jc.require("axes").as_string();
    const auto sh = four(jc.require("shape"));
    c.shape = {static_cast<int>(sh[0]), static_cast<int>(sh[1]), static_cast<int>(sh[2]), static_cast<int>(sh[3])};
    c.elements = static_cast<std::size_t>(jc.require("elements").as_u64());
    c.mismatches = static_cast<std::size_t>(jc.require("mismatches").as_u64());
    if (const auto ok = jc.get("shape_ok")) c.shape_ok = ok->as_bool();
    c.crc_actual = crc_from_hex(jc.require("crc32_actual"));
    c.crc_expected = crc_from_hex(jc.require("crc32_expected"));
    for (const auto& jm : jc.require("first_mismatches").items()) {
      jm.allow_keys({"coord", "actual", "expected"});
      Mismatch m;
      const auto co = four(jm.require("coord"));
      m.coord = {static_cast<int>(co[0]), static_cast<int>(co[1]), static_cast<int>(co[2]), static_cast<int>(co[3])};
      m.actual = jm.require("actual").as_int(INT64_MIN, INT64_MAX);
      m.expected = jm.require("expected").as_int(INT64_MIN, INT64_MAX);
      c.first.push_back(m);
    }
    if (const auto jm = jc.get("mismatch_map")) c.map = mismatch_map_from_json(*jm, c.shape);
    r.compares.push_back(std::move(c));
  }
  return r;
}

}  // namespace

std::vector<RunResult> results_from_json(const JsonNode& node) {
  ResultsInfo info;
  return results_from_json(node, info);
}

std::vector<RunResult> results_from_json(const JsonNode& node, ResultsInfo& info) {
  std::vector<RunResult> out;
  if (node.is_object() && node.get("results")) {  // a results file (docs/CLI.md "Results files")
    node.allow_keys({"tool", "command", "suite", "runs_planned", "runs_finished", "interrupted", "signal",
                     "elapsed_seconds", "results"});
    if (const auto t = node.get("tool")) {
      t->allow_keys({"name", "version", "commit"});
      for (const char* k : {"name", "version", "commit"}) (void)t->require(k).as_string();
      info.tool = t->raw();
    }
    if (const auto c = node.get("command")) info.command = c->as_string();
    if (const auto c = node.get("suite")) info.suite = c->as_string();
    if (const auto c = node.get("runs_planned")) info.planned = static_cast<std::size_t>(c->as_u64());
    if (const auto c = node.get("elapsed_seconds"); c && !c->raw().is_null()) info.elapsed = c->as_double(0.0, 1e12);
    if (const auto c = node.get("interrupted"); c && c->as_bool()) {
      info.interrupted = node.get("signal") ? node.require("signal").as_string() : std::string("a signal");
    }
    const JsonNode rs = node.require("results");
    if (!rs.is_array()) rs.fail("expected an array of run results");
    for (const auto& item : rs.items()) out.push_back(run_result_from_json(item));
    if (const auto c = node.get("runs_finished"); c && c->as_u64() != out.size()) {
      c->fail(fmt::format("says {} runs finished, the file holds {}", c->as_u64(), out.size()));
    }
    return out;
  }
  if (node.is_array()) {
    for (const auto& item : node.items()) out.push_back(run_result_from_json(item));
  } else {
    out.push_back(run_result_from_json(node));
  }
  return out;
}

std::vector<RunResult> merge_shards(const std::vector<ShardResults>& shards) {
  std::map<std::size_t, std::pair<RunResult, const std::filesystem::path*>> by_index;
  for (const auto& sh : shards) {
    for (const auto& r : sh.results) {
      if (!r.suite_index) {
        throw InputError(sh.file.string(), "", fmt::format("result \"{}\" has no suite_index (write shards with "
                                                           "`dlacosim regress --json`)", r.name));
      }
      const auto [it, fresh] = by_index.try_emplace(*r.suite_index, r, &sh.file);
      if (!fresh) {
        throw InputError(sh.file.string(), "", fmt::format("suite entry {} (\"{}\") is also in {}: shards overlap",
                                                           *r.suite_index, r.name, it->second.second->string()));
      }
    }
  }
  std::vector<RunResult> out;
  for (auto& [i, v] : by_index) out.push_back(std::move(v.first));
  return out;
}

}  // namespace dla::harness
