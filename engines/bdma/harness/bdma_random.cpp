// The `bdma` random-layer generator (docs/RANDOM.md, "bdma"): random legal launch sequences over
// BDMA's whole space -- 1 to 6 launches in either group (back to back, both outstanding, the same
// group twice), 1 to 20 commands per launch (20: the FIFO full, with the firmware's FREE_SLOT poll),
// lines from 32 bytes to the longest CFG_LINE.SIZE (256 KiB), 1 to 8192 lines and surfaces, packed
// or strided on either side, addresses anywhere below 2^40, destinations in a source's stride gaps,
// sources read twice, both RAM types, the stall counters on or off. Each layer stays within a cost
// cap (bytes moved, extents). Also the memcpy reference the campaign judges every layer by: the
// layer's commands read from its JSON document, copied by a plain loop over a byte map starting
// from the program's own memory steps (not golden/bdma.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "engines/bdma/harness/bdma.hpp"
#include "engines/bdma/harness/bdma_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

constexpr uint64_t kUnit = 32;
constexpr uint64_t kMaxBytes = uint64_t{384} << 10;  // bytes copied per layer (the RTL's run time)
constexpr uint64_t kMaxExtent = uint64_t{3} << 20;   // source + destination extents per layer

struct Pick {
  Rng& r;
  int64_t i(int64_t lo, int64_t hi) { return r.range(lo, hi); }
  bool chance(double p) { return r.chance(p); }
  int64_t log_i(int64_t lo, int64_t hi) { return r.log_range(lo, hi); }
};

struct Cmd {
  uint64_t src = 0, dst = 0, lb = 32, lines = 1, surfs = 1, sl = 32, dl = 32, ss = 32, ds = 32;
  [[nodiscard]] uint64_t bytes() const { return lb * lines * surfs; }
  [[nodiscard]] uint64_t src_extent() const { return (surfs - 1) * ss + (lines - 1) * sl + lb; }
  [[nodiscard]] uint64_t dst_extent() const { return (surfs - 1) * ds + (lines - 1) * dl + lb; }
};

// A command shape within `budget` bytes: line size, repeats, strides (gaps of whole 32-byte units).
Cmd draw_shape(Pick& d, uint64_t budget) {
  Cmd c;
  const int kind = static_cast<int>(d.i(0, 99));
  const uint64_t max_units = std::min<uint64_t>(8192, budget / kUnit);
  c.lb = kUnit * static_cast<uint64_t>(kind < 8 ? static_cast<int64_t>(max_units) : d.log_i(1, static_cast<int64_t>(max_units)));
  const uint64_t lines_max = std::min<uint64_t>(8192, std::max<uint64_t>(1, budget / c.lb));
  c.lines = static_cast<uint64_t>(d.chance(0.3) ? 1 : d.log_i(1, static_cast<int64_t>(lines_max)));
  const uint64_t surfs_max = std::min<uint64_t>(8192, std::max<uint64_t>(1, budget / (c.lb * c.lines)));
  c.surfs = static_cast<uint64_t>(d.chance(0.5) ? 1 : d.log_i(1, static_cast<int64_t>(surfs_max)));
  const auto gap = [&](uint64_t line) { return d.chance(0.5) ? 0 : kUnit * static_cast<uint64_t>(d.log_i(1, std::max<int64_t>(1, static_cast<int64_t>(line / kUnit) + 4))); };
  c.sl = c.lb + gap(c.lb);
  c.dl = c.lb + gap(c.lb);
  c.ss = c.sl * c.lines + (d.chance(0.6) ? 0 : kUnit * static_cast<uint64_t>(d.i(1, 64)));
  c.ds = c.dl * c.lines + (d.chance(0.6) ? 0 : kUnit * static_cast<uint64_t>(d.i(1, 64)));
  return c;
}

ojson command_json(const Cmd& c, Pick& d, bool dst_mc) {
  ojson j = ojson::object();
  j["src"] = fmt::format("{:#x}", c.src);
  j["dst"] = fmt::format("{:#x}", c.dst);
  j["line_bytes"] = c.lb;
  // Defaults left out now and then: the compiler's defaults are part of the space.
  if (c.lines != 1 || d.chance(0.5)) j["lines"] = c.lines;
  if (c.surfs != 1 || d.chance(0.5)) j["surfaces"] = c.surfs;
  if (c.sl != c.lb || d.chance(0.5)) j["src_line_stride"] = c.sl;
  if (c.dl != c.lb || d.chance(0.5)) j["dst_line_stride"] = c.dl;
  if (c.ss != c.sl * c.lines || d.chance(0.5)) j["src_surface_stride"] = c.ss;
  if (c.ds != c.dl * c.lines || d.chance(0.5)) j["dst_surface_stride"] = c.ds;
  if (d.chance(0.3)) j["src_ram"] = d.chance(0.5) ? "mc" : "cvsram";
  if (!dst_mc || d.chance(0.3)) j["dst_ram"] = dst_mc ? "mc" : "cvsram";
  return j;
}

ojson draw_layer(const RandomLayer& L, Pick& d, std::string& feat) {
  ojson doc = random_layer_doc(L, 1, 1, 1);
  doc.erase("cube");  // a bdma layer has commands, not a cube
  const bool poll = d.chance(0.3);
  if (poll) doc["poll_free_slot"] = true;
  if (d.chance(0.2)) doc["stall_count"] = true;
  const int n_launch = static_cast<int>(d.chance(0.5) ? 1 : d.i(2, 6));
  // Addresses: a bump allocator from a random base (sometimes above 4 GiB), random gaps.
  uint64_t next = kUnit * static_cast<uint64_t>(d.chance(0.15) ? d.i(1 << 27, (int64_t{1} << 35) - (1 << 20)) : d.i(0, 1 << 20));
  const auto alloc = [&](uint64_t extent) {
    const uint64_t at = next;
    next += extent + kUnit * static_cast<uint64_t>(d.chance(0.5) ? 0 : d.i(1, 4096));
    return at;
  };
  uint64_t budget = kMaxBytes, extent_left = kMaxExtent;
  std::vector<Cmd> all;
  int cmds = 0, max_in_launch = 0;
  bool interleaved = false, reread = false;
  ojson launches = ojson::array();
  for (int li = 0; li < n_launch && budget >= kUnit; ++li) {
    const int group = static_cast<int>(d.i(0, 1));
    const int n = static_cast<int>(d.chance(0.15) ? 20 : d.chance(0.6) ? 1 : d.i(2, 8));
    const bool dst_mc = d.chance(0.8);
    ojson cl = ojson::array();
    for (int ci = 0; ci < n && budget >= kUnit; ++ci) {
      // The commands share what is left of the budget, the later ones more thinly.
      const uint64_t share = std::max<uint64_t>(kUnit, budget / static_cast<uint64_t>(std::max(1, n - ci)) *
                                                             static_cast<uint64_t>(d.i(1, 2)));
      Cmd c = draw_shape(d, std::min(share, budget));
      while ((c.src_extent() + c.dst_extent() > extent_left || c.bytes() > budget) && (c.surfs > 1 || c.lines > 1)) {
        if (c.surfs > 1) {
          c.surfs = (c.surfs + 1) / 2;
        } else {
          c.lines = (c.lines + 1) / 2;
          c.ss = c.sl * c.lines;
          c.ds = c.dl * c.lines;
        }
      }
      if (c.src_extent() + c.dst_extent() > extent_left || c.bytes() > budget) break;
      if (!all.empty() && d.chance(0.1)) {
        // Read an earlier command's source again (reads may overlap).
        const Cmd& o = all[static_cast<std::size_t>(d.i(0, static_cast<int64_t>(all.size()) - 1))];
        c.src = o.src;
        c.lb = std::min(c.lb, o.lb);
        c.lines = std::min(c.lines, o.lines);
        c.surfs = std::min(c.surfs, o.surfs);
        c.sl = o.sl;
        c.ss = o.ss;
        c.dl = std::max(c.dl, c.lb);
        c.ds = std::max(c.ds, c.dl * c.lines);
        c.dst = alloc(c.dst_extent());
        reread = true;
      } else if (c.sl >= 2 * c.lb && d.chance(0.25)) {
        // The destination lines in the source's stride gaps, shifted by one line.
        c.dl = c.sl;
        c.ds = c.ss;
        c.src = alloc(c.src_extent() + c.lb);
        c.dst = c.src + c.lb;
        interleaved = true;
      } else {
        c.src = alloc(c.src_extent());
        c.dst = alloc(c.dst_extent());
      }
      budget -= c.bytes();
      extent_left -= std::min(extent_left, c.src_extent() + c.dst_extent());
      cl.push_back(command_json(c, d, dst_mc));
      all.push_back(c);
    }
    if (cl.empty()) break;
    cmds += static_cast<int>(cl.size());
    max_in_launch = std::max(max_in_launch, static_cast<int>(cl.size()));
    launches.push_back(ojson{{"group", group}, {"commands", cl}});
  }
  doc["launches"] = launches;
  uint64_t bytes = 0;
  for (const Cmd& c : all) bytes += c.bytes();
  feat = fmt::format("{} launch(es), {} command(s) (max {} per launch), {} B{}{}{}{}", launches.size(), cmds,
                     max_in_launch, bytes, poll ? " poll" : "", interleaved ? " interleaved" : "",
                     reread ? " reread" : "", next >> 32 != 0 ? " high-address" : "");
  return doc;
}

uint64_t num(const ojson& j) {
  return j.is_string() ? std::stoull(j.get<std::string>(), nullptr, 0) : j.get<uint64_t>();
}

}  // namespace

RandomLayer generate_bdma_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  if (const RegDb& db = RegDb::nvdla(); !db.block_base(hw.name, *db.block("BDMA"))) {
    throw InputError("--config", hw.name, "bdma layers run on nv_full only (the BDMA block exists there only, as in NVDLA)");
  }
  Pick d{rng};
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string feat;
    ojson doc = draw_layer(L, d, feat);
    if (!doc["launches"].empty() && random_layer_compiles(L, doc, &engines::compile_bdma_layer)) {
      L.doc = std::move(doc);
      L.features = feat;
      return L;
    }
  }
  throw std::logic_error("bdma generator: no legal layer in 64 draws");
}

std::string bdma_reference_diff(const RandomLayer& L, const JsonNode& root, const Memory& mem) {
  LayerHeader h;
  h.file = root.file();
  h.unit = L.unit;
  h.name = L.name;
  h.config = L.config;
  h.seed = L.seed;
  h.stall = L.stall;
  const Program program = engines::compile_bdma_layer(h, root);
  std::unordered_map<uint64_t, uint8_t> ref;
  for (const ProgramStep& st : program.steps) {
    if (st.op == StepOp::MemFill) {
      for (uint64_t i = 0; i < st.size; ++i) ref[st.addr + i] = st.fill;
    } else if (st.op == StepOp::MemLoad) {
      for (uint64_t i = 0; i < st.bytes.size(); ++i) ref[st.addr + i] = st.bytes[i];
    }
  }
  for (const auto& launch : L.doc.at("launches")) {
    for (const auto& c : launch.at("commands")) {
      const uint64_t lb = num(c.at("line_bytes"));
      const uint64_t lines = c.contains("lines") ? num(c["lines"]) : 1;
      const uint64_t surfs = c.contains("surfaces") ? num(c["surfaces"]) : 1;
      const uint64_t sl = c.contains("src_line_stride") ? num(c["src_line_stride"]) : lb;
      const uint64_t dl = c.contains("dst_line_stride") ? num(c["dst_line_stride"]) : lb;
      const uint64_t ss = c.contains("src_surface_stride") ? num(c["src_surface_stride"]) : sl * lines;
      const uint64_t ds = c.contains("dst_surface_stride") ? num(c["dst_surface_stride"]) : dl * lines;
      const uint64_t src = num(c.at("src")), dst = num(c.at("dst"));
      for (uint64_t s = 0; s < surfs; ++s) {
        for (uint64_t l = 0; l < lines; ++l) {
          for (uint64_t i = 0; i < lb; ++i) ref[dst + s * ds + l * dl + i] = ref.at(src + s * ss + l * sl + i);
        }
      }
    }
  }
  uint64_t bad = 0, first = 0;
  for (const auto& [a, v] : ref) {
    if (mem.read(a) == v) continue;
    if (bad == 0 || a < first) first = a;
    ++bad;
  }
  if (bad == 0) return "";
  return fmt::format("{} byte(s) differ from the memcpy reference, the lowest at {:#x} ({:#04x}, expected {:#04x})", bad,
                     first, mem.read(first), ref.at(first));
}

}  // namespace dla::harness
