// Where a unit layer goes in a larger register program (a network's, docs/NETWORKS.md "The
// compiler"): the base of each tensor it reads or writes, where its constants go, the register
// group each of its blocks is at, and the golden device that ran the program so far. The unit
// compilers (conv, deconv, sdp, pdp, cdp, rubik) take it and emit the final program: every
// address register (both words) and memory step at the placed bases, every S_POINTER, status
// read and interrupt wait in the placed group. The default placement is a layer of its own: the
// fixed regions (input 0x8000_0000, SDP operands 0x9/0xA/0xB000_0000, output 0xC000_0000, weights
// 0xD000_0000), group 0, every input loaded from the layer.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "harness/golden_device.hpp"
#include "harness/program.hpp"
#include "harness/program_runner.hpp"

namespace dla::harness::engines {

struct Placement {
  // Tensors already in memory (loaded once, or written by their producers): the compiler points
  // its registers there and loads nothing. Unset: the unit's fixed region, loaded from the layer.
  std::optional<uint64_t> input;
  std::optional<uint64_t> operand;  // SDP's EW per-element operand stream (a residual add's tensor)
  // Where the layer writes (its pre-fill and check cover what it writes there). Unset: fixed.
  std::optional<uint64_t> output;
  // Constants the layer loads (weights, SDP operand streams, compressed weights' side data, a
  // deconvolution's channel-extended cube): `constant(what, bytes)` returns their base. Unset:
  // the unit's fixed region.
  std::function<uint64_t(std::string_view what, uint64_t bytes)> constant;
  std::map<std::string, int> group;  // block -> the group its first hardware layer uses (0 if absent)
  // CBUF across convolution layers (a network's conv layers in a row that read one tensor,
  // docs/NETWORKS.md "CBUF reuse"): keep the input in CBUF for the next convolution
  // (SKIP_DATA_RLS on the last hardware layer), take the input the previous one kept (DATA_REUSE
  // on the first; dropped where golden::cbuf_reuse_problems refuses it on the device's CBUF).
  bool keep_data = false;
  bool reuse_data = false;
  // The program so far ran there: the compiler runs the layer on it (its status reads expect what
  // that gives). Null: a fresh device (a layer of its own).
  GoldenDevice* device = nullptr;

  [[nodiscard]] int group_of(std::string_view block) const {
    const auto it = group.find(std::string(block));
    return it == group.end() ? 0 : it->second & 1;
  }
  [[nodiscard]] uint64_t place_constant(std::string_view what, uint64_t bytes, uint64_t fixed) const {
    return constant ? constant(what, bytes) : fixed;
  }
};

// A one-input one-output layer's layouts and its engine's src / dst bases at the placed tensors.
template <class Layout, class Config>
void place_tensors(const Placement& at, Layout& in, Layout& out, Config& c) {
  if (at.input) in.base = c.src_base = *at.input;
  if (at.output) out.base = c.dst_base = *at.output;
}

// Each block's group after `p` ran from `group`: a block's consumer pointer flips once per
// hardware layer it ran (each D_OP_ENABLE write of 1). BDMA has launch groups instead: after a
// CFG_LAUNCH<g> the next copy goes to the other group, as the firmware alternates them.
inline void advance_groups(std::map<std::string, int>& group, const Program& p) {
  for (const ProgramStep& s : p.steps) {
    if (s.op != StepOp::RegWrite || s.reg == nullptr || (s.value & 1u) == 0) continue;
    if (s.reg->name == "D_OP_ENABLE") group[s.reg->block] ^= 1;
    if (s.reg->block == "BDMA" && (s.reg->name == "CFG_LAUNCH0" || s.reg->name == "CFG_LAUNCH1")) {
      group[s.reg->block] = s.reg->name == "CFG_LAUNCH0" ? 1 : 0;
    }
  }
}

// Runs `p` on the placement's device (when it has one), which then holds the layer's results.
inline void run_on_placed_device(const Placement& at, const Program& p, std::string_view unit) {
  if (at.device == nullptr) return;
  ProgramRunOptions po;
  po.mode = "golden";
  const RunResult r = run_program(p, at.device, nullptr, po);
  if (r.status != Status::Pass) {
    throw std::runtime_error(fmt::format("{} compiler: the golden model did not run the placed layer: {}", unit,
                                         r.message));
  }
}

// Runs `p` on the placement's device, or on a golden device of `cfg` made in `own` when the
// placement has none, and returns the device that ran it: for compilers whose expected status
// reads are what the golden model counted (fp16 NaN / Inf and LUT counters).
inline GoldenDevice& run_on_placed_or_own_device(const Placement& at, const Program& p, std::string_view unit,
                                                 std::optional<GoldenDevice>& own, const golden::HwConfig& cfg) {
  Placement on = at;
  on.device = at.device != nullptr ? at.device : &own.emplace(cfg);
  run_on_placed_device(on, p, unit);
  return *on.device;
}

}  // namespace dla::harness::engines
