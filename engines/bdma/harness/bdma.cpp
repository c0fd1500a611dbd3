// `bdma` layers: launches of copy commands (docs/LAYER_FORMAT.md, "`bdma` layers", docs/BDMA.md)
// compiled into the register program a driver issues: the destination regions pre-filled, the
// source extents loaded with seeded bytes, the CFG_* registers and CFG_OP per command (with the
// firmware's FREE_SLOT poll when asked), CFG_LAUNCH<g> per launch, the done interrupts, STATUS
// read back idle, a golden check of every destination region. It runs through the
// register-program path (run_program_in_mode: golden / cross / rtl).
#include "engines/bdma/harness/bdma.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

using golden::BdmaCommand;
using golden::kBdmaUnit;

namespace {

constexpr uint64_t kMaxAddr = uint64_t{1} << 40;   // 40-bit addresses (ADDR_HIGH[7:0])
constexpr uint64_t kMaxStride = uint64_t{1} << 32;  // STRIDE[31:5]

// A multiple of 32 in [lo, hi), or the rule.
uint64_t aligned(const JsonNode& n, uint64_t lo, uint64_t hi, const char* what) {
  const uint64_t v = n.as_u64();
  if (v % kBdmaUnit != 0) {
    n.fail(fmt::format("{} {:#x} is not a multiple of 32: BDMA's registers have no bits below bit 5 ({} are 32-byte "
                       "aligned)",
                       what, v, what));
  }
  if (v < lo || v >= hi) n.fail(fmt::format("{} {:#x} is out of range [{:#x}, {:#x})", what, v, lo, hi));
  return v;
}

struct Footprint {
  uint64_t begin, end;
  std::size_t launch, command;
  bool written;
};

void add_lines(std::vector<Footprint>& out, uint64_t base, uint64_t line, uint64_t surf, const BdmaCommand& c,
               std::size_t li, std::size_t ci, bool written) {
  for (int s = 0; s < c.surfaces; ++s) {
    for (int l = 0; l < c.lines; ++l) {
      const uint64_t b = base + static_cast<uint64_t>(s) * surf + static_cast<uint64_t>(l) * line;
      out.push_back({b, b + c.line_bytes, li, ci, written});
    }
  }
}

// No written line may overlap any other line of the layer (a source of any command, a destination
// of another): on NVDLA the commands of a batch overlap in time, so the result would depend on it.
void check_overlaps(const BdmaLayer& L, const JsonNode& launches) {
  std::vector<Footprint> f;
  for (std::size_t li = 0; li < L.launches.size(); ++li) {
    for (std::size_t ci = 0; ci < L.launches[li].commands.size(); ++ci) {
      const BdmaCommand& c = L.launches[li].commands[ci];
      add_lines(f, c.src, c.src_line, c.src_surf, c, li, ci, false);
      add_lines(f, c.dst, c.dst_line, c.dst_surf, c, li, ci, true);
    }
  }
  std::sort(f.begin(), f.end(), [](const Footprint& a, const Footprint& b) { return a.begin < b.begin; });
  // Sweep: the open line reaching furthest, and the furthest open written line.
  const Footprint* far = nullptr;
  const Footprint* far_w = nullptr;
  for (const Footprint& x : f) {
    const Footprint* hit = nullptr;
    if (x.written && far != nullptr && far->end > x.begin) hit = far;
    if (!x.written && far_w != nullptr && far_w->end > x.begin) hit = far_w;
    if (hit != nullptr) {
      const Footprint& w = x.written ? x : *hit;
      const Footprint& o = x.written ? *hit : x;
      const JsonNode at = launches[w.launch].require("commands")[w.command];
      at.fail(fmt::format("the destination line [{:#x}, {:#x}) of launch {} command {} overlaps the {} line [{:#x}, "
                          "{:#x}) of launch {} command {}: no written region may overlap another region of the layer "
                          "(BDMA's commands overlap in time, so the result would depend on it)",
                          w.begin, w.end, w.launch, w.command, o.written ? "destination" : "source", o.begin, o.end,
                          o.launch, o.command));
    }
    if (far == nullptr || x.end > far->end) far = &x;
    if (x.written && (far_w == nullptr || x.end > far_w->end)) far_w = &x;
  }
}

BdmaCommand parse_command(const JsonNode& n) {
  n.allow_keys({"src", "dst", "line_bytes", "lines", "surfaces", "src_line_stride", "dst_line_stride",
                "src_surface_stride", "dst_surface_stride", "src_ram", "dst_ram"});
  BdmaCommand c;
  c.src = aligned(n.require("src"), 0, kMaxAddr, "src");
  c.dst = aligned(n.require("dst"), 0, kMaxAddr, "dst");
  c.line_bytes = aligned(n.require("line_bytes"), kBdmaUnit,
                         kBdmaUnit * static_cast<uint64_t>(golden::kBdmaMaxLineUnits) + 1, "line_bytes");
  c.lines = n.get("lines") ? static_cast<int>(n.require("lines").as_int(1, golden::kBdmaMaxRepeat)) : 1;
  c.surfaces = n.get("surfaces") ? static_cast<int>(n.require("surfaces").as_int(1, golden::kBdmaMaxRepeat)) : 1;
  const auto stride = [&](const char* key, uint64_t dflt, uint64_t min, const char* rule) {
    const auto v = n.get(key);
    if (!v) return dflt;
    const uint64_t s = aligned(*v, 0, kMaxStride, key);
    if (s < min) v->fail(fmt::format("{} {:#x} is below {:#x}: {}", key, s, min, rule));
    return s;
  };
  c.src_line = stride("src_line_stride", c.line_bytes, c.line_bytes, "a line stride is at least the line size");
  c.dst_line = stride("dst_line_stride", c.line_bytes, c.line_bytes, "a line stride is at least the line size");
  const uint64_t src_min = c.src_line * static_cast<uint64_t>(c.lines);
  const uint64_t dst_min = c.dst_line * static_cast<uint64_t>(c.lines);
  c.src_surf = stride("src_surface_stride", src_min, src_min, "a surface stride is at least line stride x lines");
  c.dst_surf = stride("dst_surface_stride", dst_min, dst_min, "a surface stride is at least line stride x lines");
  if (src_min > kMaxStride - kBdmaUnit && !n.get("src_surface_stride")) {
    n.fail(fmt::format("line stride x lines = {:#x} does not fit CFG_SRC_SURF (32 bits)", src_min));
  }
  if (dst_min > kMaxStride - kBdmaUnit && !n.get("dst_surface_stride")) {
    n.fail(fmt::format("line stride x lines = {:#x} does not fit CFG_DST_SURF (32 bits)", dst_min));
  }
  const auto ram = [&](const char* key) { return !n.get(key) || n.require(key).as_choice({"mc", "cvsram"}) == "mc"; };
  c.src_mc = ram("src_ram");
  c.dst_mc = ram("dst_ram");
  if (bdma_src_end(c) > kMaxAddr) n.fail(fmt::format("the source region ends at {:#x}, past 40 bits", bdma_src_end(c)));
  if (bdma_dst_end(c) > kMaxAddr) {
    n.fail(fmt::format("the destination region ends at {:#x}, past 40 bits", bdma_dst_end(c)));
  }
  return c;
}

uint64_t extent_end(uint64_t base, uint64_t line, uint64_t surf, const BdmaCommand& c) {
  return base + static_cast<uint64_t>(c.surfaces - 1) * surf + static_cast<uint64_t>(c.lines - 1) * line + c.line_bytes;
}

}  // namespace

uint64_t bdma_src_end(const BdmaCommand& c) { return extent_end(c.src, c.src_line, c.src_surf, c); }
uint64_t bdma_dst_end(const BdmaCommand& c) { return extent_end(c.dst, c.dst_line, c.dst_surf, c); }

BdmaLayer bdma_layer(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "launches", "poll_free_slot",
                   "stall_count"});
  if (const RegDb& db = RegDb::nvdla(); !db.block_base(h.config->name, *db.block("BDMA"))) {
    root.require("config").fail(fmt::format("{} has no BDMA: NVDLA has the BDMA engine on nv_full only (its master "
                                            "configurations compile it out)",
                                            h.config->name));
  }
  BdmaLayer L;
  if (const auto v = root.get("poll_free_slot")) L.poll_free_slot = v->as_bool();
  if (const auto v = root.get("stall_count")) L.stall_count = v->as_bool();
  const JsonNode launches = root.require("launches");
  if (launches.size() == 0) launches.fail("a bdma layer needs at least one launch");
  uint64_t bytes = 0, lines = 0, extent = 0;
  for (const JsonNode& ln : launches.items()) {
    ln.allow_keys({"group", "commands"});
    BdmaLaunch launch;
    launch.group = static_cast<int>(ln.require("group").as_int(0, 1));
    const JsonNode cmds = ln.require("commands");
    if (cmds.size() == 0 || cmds.size() > static_cast<std::size_t>(golden::kBdmaFifoDepth)) {
      cmds.fail(fmt::format("{} commands: a launch holds 1 to {} (the command FIFO's slots; the launch closes the "
                            "group)",
                            cmds.size(), golden::kBdmaFifoDepth));
    }
    for (const JsonNode& cn : cmds.items()) {
      launch.commands.push_back(parse_command(cn));
      const BdmaCommand& c = launch.commands.back();
      if (c.dst_mc != launch.commands.front().dst_mc) {
        cn.fail("dst_ram differs from the launch's first command: all operations of one BDMA group have the same "
                "destination RAM type (programming guide)");
      }
      bytes += c.bytes();
      lines += static_cast<uint64_t>(c.lines) * static_cast<uint64_t>(c.surfaces);
      extent += (bdma_src_end(c) - c.src) + (bdma_dst_end(c) - c.dst);
      if (bytes > kBdmaMaxLayerBytes || lines > kBdmaMaxLayerLines || extent > kBdmaMaxLayerExtent) {
        cn.fail(fmt::format("the layer copies more than {} bytes or {} lines, or its source and destination extents "
                            "(stride gaps included) exceed {} bytes (limits of these layers, not of BDMA)",
                            kBdmaMaxLayerBytes, kBdmaMaxLayerLines, kBdmaMaxLayerExtent));
      }
    }
    L.launches.push_back(std::move(launch));
  }
  check_overlaps(L, launches);
  return L;
}

namespace {

struct Compiled {
  Program program;
  uint64_t bytes = 0;
};

// `placed`: a layer placed by `at` (a network's copy, docs/NETWORKS.md): its commands already name
// the tensors' addresses and, with `at.input`, its sources are in memory, so nothing is loaded;
// its launches use the placement's BDMA group; it runs on the placement's golden device.
Compiled compile(const LayerHeader& h, const JsonNode& root, const Placement& at = {}, bool placed = false) {
  BdmaLayer L = bdma_layer(h, root);
  // Placed: the launches alternate from the group the placement gives BDMA.
  for (std::size_t k = 0; placed && k < L.launches.size(); ++k) {
    L.launches[k].group = (at.group_of("BDMA") + static_cast<int>(k)) & 1;
  }
  ProgramBuilder pb(h);
  Compiled out;
  // Memory: destination extents first (0x5a), then the source extents (seeded bytes): a source
  // line inside a destination's stride gap keeps its data.
  for (const BdmaLaunch& ln : L.launches) {
    for (const BdmaCommand& c : ln.commands) pb.fill(c.dst, bdma_dst_end(c) - c.dst, kBdmaDstFill, "destination region");
  }
  Rng rng = Rng::derive(h.seed, "bdma/source");
  for (const BdmaLaunch& ln : L.launches) {
    for (const BdmaCommand& c : ln.commands) {
      out.bytes += c.bytes();
      if (at.input) continue;
      std::vector<uint8_t> b(bdma_src_end(c) - c.src);
      for (std::size_t i = 0; i < b.size(); i += 8) {
        const uint64_t v = rng.next();
        for (std::size_t k = 0; k < 8 && i + k < b.size(); ++k) b[i + k] = static_cast<uint8_t>(v >> (8 * k));
      }
      pb.load(c.src, std::move(b), "source region");
    }
  }
  const auto& status = pb.reg("BDMA", "STATUS");
  if (L.stall_count) pb.write(pb.reg("BDMA", "CFG_STATUS"), 1);
  std::deque<int> outstanding;  // groups launched and not yet waited for, oldest first
  const auto wait_oldest = [&] {
    pb.wait_intr(fmt::format("BDMA_{}", outstanding.front()));
    outstanding.pop_front();
  };
  constexpr const char* kStaging[] = {"CFG_SRC_ADDR_LOW", "CFG_SRC_ADDR_HIGH", "CFG_DST_ADDR_LOW", "CFG_DST_ADDR_HIGH",
                                      "CFG_LINE",         "CFG_CMD",           "CFG_LINE_REPEAT",  "CFG_SRC_LINE",
                                      "CFG_DST_LINE",     "CFG_SURF_REPEAT",   "CFG_SRC_SURF",     "CFG_DST_SURF"};
  for (const BdmaLaunch& ln : L.launches) {
    // At most one outstanding launch per group; no command while both groups are busy.
    while (std::find(outstanding.begin(), outstanding.end(), ln.group) != outstanding.end() ||
           outstanding.size() == 2) {
      wait_oldest();
    }
    for (const BdmaCommand& c : ln.commands) {
      if (L.poll_free_slot) {
        ProgramStep& s = pb.add(StepOp::RegRead, "poll BDMA.STATUS.FREE_SLOT != 0");
        s.reg = &status;
        s.mask = 0xff;
        s.value = 0;
        s.poll_not_equal = true;
        s.poll_reads = kPollReads;
      }
      const auto regs = c.registers();
      for (std::size_t i = 0; i < regs.size(); ++i) pb.write(pb.reg("BDMA", kStaging[i]), regs[i]);
      pb.write(pb.reg("BDMA", "CFG_OP"), 1);
    }
    pb.write(pb.reg("BDMA", ln.group == 0 ? "CFG_LAUNCH0" : "CFG_LAUNCH1"), 1);
    outstanding.push_back(ln.group);
  }
  while (!outstanding.empty()) wait_oldest();
  // Everything done: FREE_SLOT 20, IDLE, no group busy.
  pb.read(status, 0x114);
  for (const BdmaLaunch& ln : L.launches) {
    for (const BdmaCommand& c : ln.commands) pb.check_golden(c.dst, bdma_dst_end(c) - c.dst);
  }
  run_on_placed_device(at, pb.program(), "bdma");
  out.program = std::move(pb.program());
  return out;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)compile(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  return run_layer_program(compile(h, root).program, h, opt, "bdma");
}

}  // namespace

Program compile_bdma_layer(const LayerHeader& h, const JsonNode& root) { return compile(h, root).program; }

Program compile_bdma_layer_placed(const LayerHeader& h, const JsonNode& root, const Placement& at) {
  return compile(h, root, at, true).program;
}

UnitHandler bdma_handler() { return {"bdma", &validate, &run}; }

}  // namespace dla::harness::engines
