// The HTML report's picture of a network run (html_report.hpp, docs/NETWORKS.md "HTML report"):
// the network file the run names, drawn as a graph -- tensors and layers, rank by rank from the
// inputs down, each edge a tensor read or written -- with every layer coloured by its status in
// the run: pass (its output compared, golden against RTL, equal), mismatch, golden (ran on the
// golden model alone: nothing compared), timeout (the run stopped at this layer: the watchdog or
// an interrupt never raised) or not run (the run stopped before it, e.g. --stop-after). A concat
// runs nothing: its status is its branches' producers'. An edge that skips ranks runs in a lane
// right of every box it passes, never behind one; the legend wraps to the picture's width.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/dla_descriptors.hpp"
#include "harness/html_report.hpp"
#include "harness/loadable_runner.hpp"

namespace dla::harness {

namespace {

struct Node {
  bool layer = false;
  std::string name, label;  // label: the op, or W x H x C
  std::string status;       // layers: pass | mismatch | golden | timeout | not-run
  std::string detail;       // the tooltip
  int rank = 0, col = 0;
};

struct Edge {
  std::size_t from = 0, to = 0;
  bool operand = false;  // an SDP layer's EW operand (drawn dashed)
};

const char* fill_of(const std::string& status) {
  if (status == "pass") return "#d8f3dc";
  if (status == "mismatch") return "#ffd7d5";
  if (status == "golden") return "#dde7f5";
  if (status == "timeout") return "#ffb86b";
  return "#eeeeee";
}

// Draws a graph of tensors and layers (or ops), rank by rank from the inputs down, as an inline SVG
// section of the report: `what` names the boxes in the legend, `extra` ends it.
std::string draw_graph(std::vector<Node>& nodes, const std::vector<Edge>& edges, const RunResult& r, std::size_t index,
                       const char* what, const char* extra) {
  // Ranks: longest path from the inputs (at most one pass per node: the file is a DAG when it
  // compiled; a cycle just stops the relaxation).
  for (std::size_t pass = 0; pass <= nodes.size(); ++pass) {
    bool changed = false;
    for (const Edge& e : edges) {
      if (nodes[e.to].rank < nodes[e.from].rank + 1) {
        nodes[e.to].rank = nodes[e.from].rank + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  int rows = 0, cols = 0;
  std::map<int, int> in_row;
  for (Node& n : nodes) {
    n.col = in_row[n.rank]++;
    rows = std::max(rows, n.rank + 1);
    cols = std::max(cols, in_row[n.rank]);
  }
  constexpr int kColW = 170, kRowH = 62, kBoxW = 150, kBoxH = 36, kTop = 8, kLegendH = 30;
  const auto x_of = [&](const Node& n) { return 10 + (cols - in_row[n.rank]) * kColW / 2 + n.col * kColW + kColW / 2; };
  const auto y_of = [&](const Node& n) { return kTop + n.rank * kRowH; };
  // An edge past other ranks runs down a lane of its own right of every box of the ranks between.
  std::vector<int> lane(edges.size(), 0);
  int right = 0;  // the rightmost lane
  {
    int lanes = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const Node& a = nodes[edges[i].from];
      const Node& b = nodes[edges[i].to];
      if (b.rank - a.rank <= 1) continue;
      int edge_x = 0;
      for (const Node& n : nodes) {
        if (n.rank > a.rank && n.rank < b.rank) edge_x = std::max(edge_x, x_of(n) + kBoxW / 2);
      }
      lane[i] = edge_x + 14 + 8 * lanes++;
      right = std::max(right, lane[i]);
    }
  }
  const int width = std::max({std::max(cols, 1) * kColW + 20, right + 16, 640});
  const int height = rows * kRowH + kTop + kLegendH;
  std::string s = fmt::format(
      "<section class=\"network\" id=\"net-{}\">\n<h3>{} <span class=\"note\">[{} {}] {}</span></h3>\n"
      "<svg class=\"network\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\"><title>network {}</title>\n",
      index, xml_escape(r.name), xml_escape(r.config), xml_escape(r.mode), xml_escape(std::string(status_name(r.status))),
      width, height, width, height, xml_escape(r.name));
  for (const Edge& e : edges) {
    const Node& a = nodes[e.from];
    const Node& b = nodes[e.to];
    const int x1 = x_of(a), y1 = y_of(a) + kBoxH, x2 = x_of(b), y2 = y_of(b);
    const char* dash = e.operand ? " stroke-dasharray=\"4 3\"" : "";
    if (b.rank - a.rank <= 1) {
      s += fmt::format("<line class=\"net-edge\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"{}/>\n", x1, y1,
                       x2, y2, dash);
    } else {  // past other ranks: down its lane, right of every box in between, into the target's top
      const int lx = lane[static_cast<std::size_t>(&e - edges.data())];
      const int ya = y1 + (kRowH - kBoxH) / 2, yb = y2 - (kRowH - kBoxH) / 2;
      s += fmt::format("<path class=\"net-edge net-skip\" d=\"M {} {} L {} {} L {} {} L {} {} L {} {} L {} {}\" "
                       "fill=\"none\" stroke=\"#888\"{}/>\n",
                       x1, y1, x1, ya, lx, ya, lx, yb, x2, yb, x2, y2, dash);
    }
  }
  for (const Node& n : nodes) {
    const int x = x_of(n) - kBoxW / 2, y = y_of(n);
    if (n.layer) {
      s += fmt::format("<g class=\"net-layer {}\" data-layer=\"{}\"><title>layer {} ({}): {}</title>"
                       "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"#333\"/>",
                       n.status, xml_escape(n.name), xml_escape(n.name), xml_escape(n.label), xml_escape(n.detail), x,
                       y, kBoxW, kBoxH, fill_of(n.status));
    } else {
      s += fmt::format("<g class=\"net-tensor\" data-tensor=\"{}\"><title>{}</title>"
                       "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"16\" fill=\"#fff\" stroke=\"#4a7ab5\"/>",
                       xml_escape(n.name), xml_escape(n.detail), x, y, kBoxW, kBoxH);
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" font-weight=\"{}\">{}</text>"
                     "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">{}</text></g>\n",
                     x + kBoxW / 2, y + 15, n.layer ? "bold" : "normal", xml_escape(n.name), x + kBoxW / 2, y + 29,
                     xml_escape(n.layer ? n.label + (n.status == "not-run" ? "" : ": " + n.status) : n.label));
  }
  // The legend: two short lines that fit the narrowest picture (640 px).
  s += fmt::format("<g class=\"net-legend\"><text x=\"10\" y=\"{}\" font-size=\"10\" fill=\"#555\">rounded: tensors "
                   "(W x H x C); boxes: {}; {}</text>\n",
                   height - kLegendH + 12, what, extra);
  int lx = 10;
  for (const char* st : {"pass", "mismatch", "timeout", "golden", "not-run"}) {
    const std::string label = std::string(st) == "golden" ? "golden only" : std::string(st) == "not-run" ? "not run" : st;
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"{}\" stroke=\"#333\"/>"
                     "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#555\">{}</text>\n",
                     lx, height - 12, fill_of(st), lx + 16, height - 3, label);
    lx += 16 + 7 * static_cast<int>(label.size()) + 14;
  }
  s += "</g>\n";
  s += "</svg>\n</section>\n";
  return s;
}

}  // namespace

std::string html_network_picture(const RunResult& r, std::size_t index) {
  nlohmann::json net;
  try {
    std::ifstream in(r.layer_file);
    net = nlohmann::json::parse(in);
    (void)net.at("tensors").size();
    (void)net.at("layers").size();
  } catch (const std::exception&) {
    return fmt::format("<p class=\"note\">{}: the network file is not readable here; no picture.</p>\n",
                       xml_escape(r.layer_file));
  }
  std::vector<Node> nodes;
  std::map<std::string, std::size_t> tensor_at;
  for (const auto& t : net["tensors"]) {
    Node n;
    n.name = t.value("name", "?");
    n.label = fmt::format("{} x {} x {}", t.value("w", 0), t.value("h", 0), t.value("c", 0));
    if (t.value("n", 1) > 1) n.label += fmt::format(" x n {}", t.value("n", 1));  // batches
    n.detail = fmt::format("tensor {}: {} {}", n.name, n.label, t.value("precision", "int8"));
    tensor_at[n.name] = nodes.size();
    nodes.push_back(std::move(n));
  }
  // Each layer's status from the run's compares ("... layer NAME (op): ...").
  const auto status_of = [&](const std::string& name, std::string& detail) {
    std::size_t compares = 0, mismatches = 0;
    for (const auto& c : r.compares) {
      if (c.region.find(": layer " + name + " (") == std::string::npos) continue;
      ++compares;
      mismatches += c.mismatches + (c.shape_ok ? 0 : 1);
    }
    if (compares == 0) {
      // The step the run stopped at names its layer ("FILE: layer NAME (op): ...").
      if (r.status == Status::Timeout && r.message.find(": layer " + name + " (") != std::string::npos) {
        detail = "the run timed out here: " + r.message.substr(0, r.message.find('\n'));
        return std::string("timeout");
      }
      detail = r.mode == "golden" ? "ran on the golden model alone: nothing compared" : "not run";
      return std::string(r.mode == "golden" ? "golden" : "not-run");
    }
    detail = fmt::format("{} compare(s), {} mismatching element(s)", compares, mismatches);
    return std::string(mismatches == 0 ? "pass" : "mismatch");
  };
  std::vector<Edge> edges;
  std::map<std::string, std::size_t> producer;  // tensor -> layer node
  std::vector<std::pair<std::size_t, std::vector<std::string>>> concats;
  for (const auto& l : net["layers"]) {
    Node n;
    n.layer = true;
    n.name = l.value("name", "?");
    n.label = l.value("op", "?");
    const std::size_t me = nodes.size();
    std::vector<std::string> reads;
    if (l.contains("inputs") && l["inputs"].is_array()) {
      for (const auto& i : l["inputs"]) reads.push_back(i.is_string() ? i.get<std::string>() : "");
    }
    if (l.contains("input") && l["input"].is_string()) reads.push_back(l["input"].get<std::string>());
    for (const auto& t : reads) {
      if (tensor_at.contains(t)) edges.push_back({tensor_at[t], me, false});
    }
    if (l.contains("operand") && l["operand"].is_string() && tensor_at.contains(l["operand"].get<std::string>())) {
      edges.push_back({tensor_at[l["operand"].get<std::string>()], me, true});
    }
    if (l.contains("output") && l["output"].is_string() && tensor_at.contains(l["output"].get<std::string>())) {
      edges.push_back({me, tensor_at[l["output"].get<std::string>()], false});
      producer[l["output"].get<std::string>()] = me;
    }
    if (n.label == "concat") {
      concats.emplace_back(me, reads);
    } else {
      n.status = status_of(n.name, n.detail);
    }
    nodes.push_back(std::move(n));
  }
  for (const auto& [me, reads] : concats) {  // placement: its branches' producers' worst status
    std::string st = "pass";
    for (const auto& t : reads) {
      const auto p = producer.find(t);
      const std::string s = p == producer.end() ? "pass" : nodes[p->second].status;
      if (s == "mismatch" || (s == "timeout" && st != "mismatch") ||
          (s == "not-run" && st != "mismatch" && st != "timeout") || (s == "golden" && st == "pass")) {
        st = s;
      }
    }
    nodes[me].status = st;
    nodes[me].detail = "placement: the branches' producers wrote its channel slices (" + st + ")";
  }
  return draw_graph(nodes, edges, r, index, "layers", "dashed: an EW operand");
}

std::string html_loadable_picture(const RunResult& r, std::size_t index) {
  loadable::Plan plan;
  loadable::Loadable l;
  try {
    l = loadable::read_loadable(r.layer_file);
    const auto* hw = golden::find_config(r.config);
    if (hw == nullptr) throw std::runtime_error("configuration");
    plan = loadable::plan_loadable(l, *hw, {});
  } catch (const std::exception&) {
    return fmt::format("<p class=\"note\">{}: the loadable is not readable here; no picture.</p>\n",
                       xml_escape(r.layer_file));
  }
  // One box per op the firmware ran (its status from the check at its interrupt), the edges of the
  // dependency graph, and the output tensor.
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::map<std::pair<std::size_t, int>, std::size_t> at;
  for (const auto& op : plan.ops) {
    Node n;
    n.layer = true;
    n.name = fmt::format("task {} op {}", op.task, op.index);
    n.label = fw::op_type_name(op.type);
    n.detail = fmt::format("{}, group {}", op.summary, op.group);
    std::size_t compares = 0, mismatches = 0;
    for (const auto& c : r.compares) {
      if (c.region.find(fmt::format("check golden of task {} op {} (", op.task, op.index)) == std::string::npos) continue;
      ++compares;
      mismatches += c.mismatches + (c.shape_ok ? 0 : 1);
    }
    if (op.out_size == 0) {
      n.status = "flies";  // decided by its consumers below
    } else if (compares == 0) {
      n.status = r.mode == "golden" ? "golden" : "not-run";
    } else {
      n.status = mismatches == 0 ? "pass" : "mismatch";
    }
    at[{op.task, op.index}] = nodes.size();
    nodes.push_back(std::move(n));
  }
  for (const auto& op : plan.ops) {
    for (const int p : op.producers) {
      const auto it = at.find({op.task, p});
      if (it != at.end()) edges.push_back({it->second, at[{op.task, op.index}], false});
    }
  }
  for (auto& n : nodes) {  // an op flying into the next one: that one's status
    if (n.status != "flies") continue;
    n.status = r.mode == "golden" ? "golden" : "not-run";
    for (const Edge& e : edges) {
      if (&nodes[e.from] == &n && nodes[e.to].status != "flies") n.status = nodes[e.to].status;
    }
    n.detail += " (flies into the next op: its check covers both)";
  }
  if (plan.output_tensor) {
    const auto& t = l.tensors[*plan.output_tensor];
    Node n;
    n.name = t.name;
    n.label = fmt::format("{} x {} x {}", t.w, t.h, t.c);
    n.detail = fmt::format("output tensor {}: {} at {:#x}", t.name, n.label, plan.output_addr);
    const std::size_t me = nodes.size();
    for (std::size_t i = 0; i < plan.ops.size(); ++i) {
      const auto& op = plan.ops[i];
      if (op.out_size != 0 && plan.output_addr >= op.out_addr && plan.output_addr < op.out_addr + op.out_size) {
        edges.push_back({i, me, false});
      }
    }
    nodes.push_back(std::move(n));
  }
  return draw_graph(nodes, edges, r, index, "the firmware's ops", "edges: the dependency graph");
}

}  // namespace dla::harness
