#include "harness/report.hpp"

#include <fmt/format.h>

#include <algorithm>

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

std::string format_run(const RunResult& r) {
  std::string s = fmt::format("{} {} [{} {} {}] seed={} stall={:.2f} rand-reset={} cycles={} ({:.2f}s)\n",
                              status_name(r.status), r.name, r.unit, r.config, r.mode, r.seed, r.stall,
                              r.rand_reset, r.cycles, r.seconds);
  if (r.dma) s += "  " + format_dma(*r.dma, r.cycles) + "\n";
  if (!r.message.empty()) s += "  " + r.message + "\n";
  for (const auto& c : r.compares) {
    s += fmt::format("  {}: {} elements, {} mismatches, crc32 actual {:08x} expected {:08x}{}\n", c.region,
                     c.elements, c.mismatches, c.crc_actual, c.crc_expected,
                     c.shape_ok ? "" : " (shape differs)");
    for (const auto& m : c.first) {
      s += fmt::format("    at {}: actual {} expected {}\n", format_coord(c, m.coord), m.actual, m.expected);
    }
    if (c.mismatches > c.first.size()) s += fmt::format("    ... {} more\n", c.mismatches - c.first.size());
  }
  return s;
}

std::string format_table(const std::vector<RunResult>& results) {
  std::size_t w = 5;
  for (const auto& r : results) w = std::max(w, r.name.size());
  std::string s = fmt::format("{:<{}}  {:<6} {:<8} {:<5} {:<9} {:>10} {:>12} {:>9} {:>8}\n", "layer", w, "unit",
                              "config", "mode", "result", "cycles", "elements", "mismatch", "time(s)");
  s += std::string(w + 78, '-') + "\n";
  std::size_t pass = 0;
  for (const auto& r : results) {
    std::size_t elements = 0, mism = 0;
    for (const auto& c : r.compares) {
      elements += c.elements;
      mism += c.mismatches;
    }
    pass += r.status == Status::Pass ? 1 : 0;
    s += fmt::format("{:<{}}  {:<6} {:<8} {:<5} {:<9} {:>10} {:>12} {:>9} {:>8.2f}\n", r.name, w, r.unit, r.config,
                     r.mode, status_name(r.status), r.cycles, elements, mism, r.seconds);
  }
  s += std::string(w + 78, '-') + "\n";
  s += fmt::format("{} passed, {} failed\n", pass, results.size() - pass);
  return s;
}

nlohmann::json to_json(const RunResult& r) {
  nlohmann::json j{{"layer_file", r.layer_file}, {"name", r.name},        {"unit", r.unit},
                   {"config", r.config},         {"mode", r.mode},        {"seed", r.seed},
                   {"stall", r.stall},           {"rand_reset", r.rand_reset},
                   {"status", status_name(r.status)}, {"message", r.message}, {"cycles", r.cycles},
                   {"work", r.work},             {"seconds", r.seconds}};
  if (r.dma) j["dma"] = dma_json(*r.dma, r.cycles);
  auto& cs = j["compares"] = nlohmann::json::array();
  for (const auto& c : r.compares) {
    nlohmann::json jc{{"region", c.region},
                      {"axes", c.axes},
                      {"shape", {c.shape.n, c.shape.c, c.shape.h, c.shape.w}},
                      {"elements", c.elements},
                      {"mismatches", c.mismatches},
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

std::string junit_xml(const std::string& suite, const std::vector<RunResult>& results) {
  std::size_t failures = 0, errors = 0;
  double total = 0;
  for (const auto& r : results) {
    failures += r.status == Status::Mismatch ? 1 : 0;
    errors += (r.status != Status::Mismatch && r.status != Status::Pass) ? 1 : 0;
    total += r.seconds;
  }
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += fmt::format("<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" time=\"{4:.3f}\">\n",
                   xml_escape(suite), results.size(), failures, errors, total);
  s += fmt::format("  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\" time=\"{4:.3f}\">\n",
                   xml_escape(suite), results.size(), failures, errors, total);
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

}  // namespace dla::harness
