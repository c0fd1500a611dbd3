// Building a register program step by step, as the layer compilers (`sdp`, `conv`) do: memory
// images, register writes by name (resolved through the register database), whole D_ groups,
// reads with expected values, interrupt waits. Each step records which compiled step of which
// file it is, for run-time messages.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/layer.hpp"
#include "harness/program.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"

namespace dla::harness::engines {

class ProgramBuilder {
 public:
  explicit ProgramBuilder(const LayerHeader& h) : file_(h.file.string()), db_(RegDb::nvdla()) {
    prog_.name = h.name;
    prog_.config = h.config->name;
  }

  [[nodiscard]] const RegDef& reg(std::string_view block, std::string_view name) const {
    const RegDef* r = db_.find(fmt::format("{}.{}", block, name));
    if (r == nullptr) throw std::logic_error(fmt::format("layer compiler: no register {}.{}", block, name));
    return *r;
  }
  [[nodiscard]] const RegDef& reg_at(std::string_view block, uint32_t offset) const {
    const RegBlock* b = db_.block(block);
    for (const auto& [n, r] : b->regs) {
      if (r.offset == offset) return r;
    }
    throw std::logic_error(fmt::format("layer compiler: no register at {}+{:#x}", block, offset));
  }
  ProgramStep& add(StepOp op, const std::string& what) {
    ProgramStep s;
    s.op = op;
    s.where = fmt::format("{}: compiled step {} ({})", file_, prog_.steps.size(), what);
    prog_.steps.push_back(std::move(s));
    return prog_.steps.back();
  }
  void write(const RegDef& r, uint32_t v) {
    ProgramStep& s = add(StepOp::RegWrite, fmt::format("reg_write {}.{}", r.block, r.name));
    s.reg = &r;
    s.value = v;
  }
  void read(const RegDef& r, uint32_t expect) {
    ProgramStep& s = add(StepOp::RegRead, fmt::format("reg_read {}.{}", r.block, r.name));
    s.reg = &r;
    s.value = expect;
  }
  void load(uint64_t addr, std::vector<uint8_t> bytes, const char* what) {
    ProgramStep& s = add(StepOp::MemLoad, fmt::format("mem_load {}", what));
    s.addr = addr;
    s.bytes = std::move(bytes);
  }
  void fill(uint64_t addr, uint64_t size, uint8_t v, const char* what) {
    ProgramStep& s = add(StepOp::MemFill, fmt::format("mem_fill {}", what));
    s.addr = addr;
    s.size = size;
    s.fill = v;
  }
  void wait_intr(const std::string& intr) {
    ProgramStep& s = add(StepOp::WaitIntr, fmt::format("wait_intr {}", intr));
    s.intr = intr;
  }
  // Every writable D_ register of `block` in offset order (D_OP_ENABLE excepted), value from `vals`
  // (0 where absent).
  void write_group(std::string_view block, const std::map<uint32_t, uint32_t>& vals) {
    std::vector<const RegDef*> regs;
    for (const auto& [n, r] : db_.block(block)->regs) {
      if (r.dual && r.writable_mask() != 0 && r.name != "D_OP_ENABLE") regs.push_back(&r);
    }
    std::sort(regs.begin(), regs.end(), [](const RegDef* a, const RegDef* b) { return a->offset < b->offset; });
    for (const RegDef* r : regs) {
      const auto it = vals.find(r->offset);
      write(*r, it == vals.end() ? 0u : it->second);
    }
  }
  // The memory image of an input cube: `values` (channels x H x W, c-major) in the lanes of
  // `layout` for `lanes_shape` (n = 1, c = channels rounded up to whole atoms; padded lanes 0, stride
  // gaps `gap_fill`), loaded at the layout's base.
  void load_cube_values(const golden::FeatureLayout& layout, const golden::CubeShape& lanes_shape, int channels,
                        const std::vector<int64_t>& values, uint8_t gap_fill) {
    golden::Cube<int64_t> cube(lanes_shape);
    std::size_t i = 0;
    for (int ch = 0; ch < channels; ++ch) {
      for (int y = 0; y < lanes_shape.h; ++y) {
        for (int x = 0; x < lanes_shape.w; ++x) cube.at(0, ch, y, x) = values.at(i++);
      }
    }
    load(layout.base, golden::store_cube_bytes(layout, cube, gap_fill), "input cube");
  }
  // The closing `check golden` over an output region.
  void check_golden(uint64_t addr, uint64_t size) {
    ProgramStep& chk = add(StepOp::Check, "check golden over the output region");
    chk.check = CheckKind::Golden;
    chk.addr = addr;
    chk.size = size;
  }
  Program& program() { return prog_; }

 private:
  std::string file_;
  const RegDb& db_;
  Program prog_;
};

// Runs a compiled layer program with the layer's seed and stall (run_layer already applied
// --seed / --stall to the header) and names the unit in the result.
inline RunResult run_layer_program(const Program& p, const LayerHeader& h, const RunOptions& opt, const char* unit) {
  RunOptions o = opt;
  o.seed = h.seed;
  o.stall = h.stall;
  o.sim.seed = h.seed;
  RunResult r = run_program_in_mode(p, *h.config, o);
  r.unit = unit;
  return r;
}

}  // namespace dla::harness::engines
