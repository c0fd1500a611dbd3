#include "harness/program_runner.hpp"
#include "harness/rtl_devices.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "golden/layout.hpp"
#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

namespace {

// A bytes-as-cube view for byte-level compares: w = byte offset from the region start.
CompareResult compare_bytes(std::string region, const std::vector<uint8_t>& actual,
                            const std::vector<uint8_t>& expected, std::size_t max_listed) {
  CompareResult c;
  c.region = std::move(region);
  c.axes = "-,-,-,byte";
  c.shape = {1, 1, 1, static_cast<int>(std::min<std::size_t>(actual.size(), 0x7fffffff))};
  c.elements = actual.size();
  c.shape_ok = actual.size() == expected.size();
  c.crc_actual = static_cast<uint32_t>(::crc32(0L, actual.data(), static_cast<uInt>(actual.size())));
  c.crc_expected = static_cast<uint32_t>(::crc32(0L, expected.data(), static_cast<uInt>(expected.size())));
  for (std::size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
    if (actual[i] == expected[i]) continue;
    ++c.mismatches;
    if (c.first.size() < max_listed) {
      c.first.push_back({{0, 0, 0, static_cast<int>(i)}, actual[i], expected[i]});
    }
  }
  return c;
}

// The most recent golden layer whose written region overlaps [addr, addr + size).
const GoldenLayer* layer_covering(const GoldenDevice& g, uint64_t addr, uint64_t size) {
  const auto& ls = g.layers();
  for (auto it = ls.rbegin(); it != ls.rend(); ++it) {
    if (!it->wrote_memory) continue;
    const uint64_t b = it->out_layout.base;
    const uint64_t e = b + it->out_bytes();
    if (b < addr + size && addr < e) return &*it;
  }
  return nullptr;
}

std::string value_preview(const golden::Cube<int64_t>& cube, std::size_t count) {
  std::string s;
  for (std::size_t i = 0; i < std::min(count, cube.size()); ++i) {
    if (i != 0) s += ' ';
    s += std::to_string(cube[i]);
  }
  if (cube.size() > count) s += " ...";
  return s;
}

struct Runner {
  const Program& program;
  GoldenDevice* golden;
  Device* rtl;
  const ProgramRunOptions& opt;
  RunResult result;
  std::vector<std::string> notes;

  [[nodiscard]] Device& dut() const { return rtl != nullptr ? *rtl : static_cast<Device&>(*golden); }
  [[nodiscard]] std::vector<Device*> devices() const {
    std::vector<Device*> d;
    if (golden != nullptr) d.push_back(golden);
    if (rtl != nullptr) d.push_back(rtl);
    return d;
  }

  void fail(Status s, const std::string& msg) {
    if (result.status == Status::Pass || s == Status::BadInput || s == Status::Timeout) result.status = s;
    notes.push_back(msg);
  }

  // Element-level diagnosis of a failed check over [addr, addr + size).
  void diagnose(uint64_t addr, uint64_t size, const std::string& where) {
    if (golden == nullptr) return;
    const GoldenLayer* l = layer_covering(*golden, addr, size);
    if (l == nullptr) {
      notes.push_back(fmt::format("{}: no golden layer wrote into {:#x}+{:#x}, so the region cannot be decoded as a "
                                  "cube",
                                  where, addr, size));
      return;
    }
    const uint64_t lb = l->out_layout.base;
    const uint64_t le = lb + l->out_bytes();
    std::string extent;
    if (addr < lb || addr + size > le) {
      extent = fmt::format("; the check region {:#x}..{:#x} is not exactly the output region {:#x}..{:#x}", addr,
                           addr + size, lb, le);
    }
    if (rtl != nullptr) {
      Memory& m = rtl->memory();
      const auto actual = golden::load_cube(l->out_layout, l->out_shape, [&](uint64_t a) { return m.read(a); });
      CompareOptions co;
      co.max_listed = opt.max_listed;
      co.element_bytes = l->out_layout.bpe;
      CompareResult c = compare_cubes(fmt::format("{}_{} output cube (n,c,h,w incl. padded lanes) at {:#x}", l->unit,
                                                  l->group, lb),
                                      actual, l->output, co);
      result.compares.push_back(std::move(c));
      if (!extent.empty()) notes.push_back(where + extent);
      return;
    }
    // Golden mode: there is no second model; describe what the golden model wrote there.
    const auto& s = l->out_shape;
    notes.push_back(fmt::format(
        "{}: the golden {} group {} layer wrote this region: {}; output cube n={} c={} (incl. padded lanes) h={} w={}, "
        "{} byte(s) per element, atom {} B, line stride {:#x}, surface stride {:#x}; first values: {}{}",
        where, l->unit, l->group, l->summary, s.n, s.c, s.h, s.w, l->out_layout.bpe, l->out_layout.atom_bytes,
        l->out_layout.line_stride, l->out_layout.surface_stride, value_preview(l->output, 16), extent));
  }

  bool step(std::size_t i, const ProgramStep& st) {
    const RegDb& db = RegDb::nvdla();
    switch (st.op) {
      case StepOp::MemLoad:
        for (auto* d : devices()) d->memory().write(st.addr, st.bytes);
        return true;
      case StepOp::MemFill:
        for (auto* d : devices()) d->memory().fill(st.addr, st.size, st.fill);
        return true;
      case StepOp::RegWrite:
      case StepOp::RegRead: {
        const auto addr = db.address(program.config, *st.reg);
        if (!addr) {
          fail(Status::BadInput, fmt::format("{}: block {} does not exist in {}", st.where, st.reg->block, program.config));
          return false;
        }
        if (st.op == StepOp::RegWrite) {
          for (auto* d : devices()) d->reg_write(*addr, st.value);
          return true;
        }
        if (st.poll_reads != 0) return poll(st, *addr);
        uint32_t v = 0;
        for (auto* d : devices()) {
          const uint32_t r = d->reg_read(*addr);
          if (d == &dut()) v = r;
        }
        if ((v & st.mask) != (st.value & st.mask)) {
          CompareResult c;
          c.region = fmt::format("reg_read {}.{} ({})", st.reg->block, st.reg->name, st.where);
          c.axes = "-,-,-,-";
          c.elements = 1;
          c.mismatches = 1;
          c.first.push_back({{}, static_cast<int64_t>(v & st.mask), static_cast<int64_t>(st.value & st.mask)});
          result.compares.push_back(std::move(c));
          fail(Status::Mismatch, fmt::format("{}: {}.{} read {:#010x}, expected {:#010x} (mask {:#010x})", st.where,
                                             st.reg->block, st.reg->name, v, st.value, st.mask));
        }
        return true;
      }
      case StepOp::WaitIntr: {
        const int bit = interrupt_bit(st.intr);
        const RegDef* status = db.find("GLB.S_INTR_STATUS");
        for (auto* d : devices()) {
          const WaitResult w = d->wait_interrupt(st.intr, opt.wait_timeout);
          if (!w.raised) {
            fail(Status::Timeout, fmt::format("{}: wait_intr {} (step {}): the {} device never raised it: {}", st.where,
                                              st.intr, i, d->kind(), w.detail));
            return false;
          }
          // Acknowledge as the trace player does: write the bit back to S_INTR_STATUS (W1C).
          if (bit >= 0 && status != nullptr) {
            if (const auto a = db.address(program.config, *status)) d->reg_write(*a, 1u << bit);
          }
        }
        return true;
      }
      case StepOp::WaitAny:
        // NVDLA v1's trace player `wait`: the line, no acknowledge (the program clears the status).
        for (auto* d : devices()) {
          const WaitResult w = d->wait_any_interrupt(opt.wait_timeout);
          if (!w.raised) {
            fail(Status::Timeout, fmt::format("{}: wait (step {}): the {} device raised no interrupt: {}", st.where, i,
                                              d->kind(), w.detail));
            return false;
          }
        }
        return true;
      case StepOp::Check:
        return check(st);
    }
    return true;
  }

  // A poll: each device reads until the condition holds (its own number of reads).
  bool poll(const ProgramStep& st, uint32_t addr) {
    for (auto* d : devices()) {
      uint32_t v = 0;
      bool ok = false;
      for (uint32_t n = 0; n < st.poll_reads && !ok; ++n) {
        v = d->reg_read(addr) & st.mask;
        ok = (v == (st.value & st.mask)) != st.poll_not_equal;
      }
      if (!ok) {
        fail(Status::Timeout, fmt::format("{}: poll {}.{}: the {} device read {:#010x} (mask {:#010x}) {} times, "
                                          "never {} {:#010x}",
                                          st.where, st.reg->block, st.reg->name, d->kind(), v, st.mask, st.poll_reads,
                                          st.poll_not_equal ? "different from" : "equal to", st.value & st.mask));
        return false;
      }
    }
    return true;
  }

  bool check(const ProgramStep& st) {
    Memory& m = dut().memory();
    switch (st.check) {
      case CheckKind::Crc32: {
        CompareResult c;
        c.region = fmt::format("crc32 {:#x}+{:#x} ({})", st.addr, st.size, st.where);
        c.axes = "-,-,-,byte";
        c.shape = {1, 1, 1, static_cast<int>(std::min<uint64_t>(st.size, 0x7fffffff))};
        c.elements = st.size;
        c.crc_actual = m.crc32(st.addr, st.size);
        c.crc_expected = st.crc;
        c.mismatches = c.crc_actual == c.crc_expected ? 0 : 1;
        const bool ok = c.mismatches == 0;
        result.compares.push_back(std::move(c));
        if (!ok) {
          fail(Status::Mismatch, fmt::format("{}: crc32 of {:#x}+{:#x} is {:08x}, expected {:08x}", st.where, st.addr,
                                             st.size, m.crc32(st.addr, st.size), st.crc));
          diagnose(st.addr, st.size, st.where);
        }
        return true;
      }
      case CheckKind::Golden: {
        if (rtl == nullptr || golden == nullptr) {
          notes.push_back(fmt::format("{}: check golden compares the device with the golden model; in {} mode there "
                                      "is only one of them, nothing compared",
                                      st.where, opt.mode));
          return true;
        }
        CompareResult c = compare_bytes(fmt::format("golden memory {:#x}+{:#x} ({})", st.addr, st.size, st.where),
                                        m.read(st.addr, st.size), golden->memory().read(st.addr, st.size),
                                        opt.max_listed);
        c.crc_actual = m.crc32(st.addr, st.size);
        c.crc_expected = golden->memory().crc32(st.addr, st.size);
        const bool ok = c.pass();
        result.compares.push_back(std::move(c));
        if (!ok) {
          fail(Status::Mismatch, fmt::format("{}: memory differs from the golden model", st.where));
          diagnose(st.addr, st.size, st.where);
        }
        return true;
      }
      case CheckKind::File: {
        CompareResult c = compare_bytes(fmt::format("file {} at {:#x} ({})", st.file.string(), st.addr, st.where),
                                        m.read(st.addr, st.bytes.size()), st.bytes, opt.max_listed);
        c.crc_actual = m.crc32(st.addr, st.bytes.size());
        const bool ok = c.pass();
        result.compares.push_back(std::move(c));
        if (!ok) {
          fail(Status::Mismatch, fmt::format("{}: memory differs from {}", st.where, st.file.string()));
          diagnose(st.addr, st.bytes.size(), st.where);
        }
        return true;
      }
    }
    return true;
  }

  void run() {
    for (std::size_t i = 0; i < program.steps.size(); ++i) {
      try {
        if (!step(i, program.steps[i])) break;
      } catch (const InputError& e) {
        // A device refused the program (e.g. an RTL that cannot hold the layer): bad input for it.
        fail(Status::BadInput, fmt::format("{}: {}", program.steps[i].where, e.what()));
        break;
      }
    }
    if (golden != nullptr) {
      for (const auto& l : golden->layers()) {
        result.work += l.output.size();
        notes.push_back(fmt::format("golden {}_{}: {}", l.unit, l.group, l.summary));
      }
    }
  }
};

}  // namespace

std::vector<std::string> enabled_blocks(const Program& program) {
  std::vector<std::string> out;
  for (const auto& st : program.steps) {
    if (st.op != StepOp::RegWrite || st.reg == nullptr || (st.value & 1u) == 0) continue;
    // BDMA has no D_OP_ENABLE: a CFG_LAUNCH<g> starts it.
    if (st.reg->name != "D_OP_ENABLE" && st.reg->name != "CFG_LAUNCH0" && st.reg->name != "CFG_LAUNCH1") continue;
    if (std::find(out.begin(), out.end(), st.reg->block) == out.end()) out.push_back(st.reg->block);
  }
  return out;
}

RunResult run_program(const Program& program, GoldenDevice* golden, Device* rtl, const ProgramRunOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Runner r{program, golden, rtl, opt, {}, {}};
  r.result.name = program.name;
  r.result.unit = "program";
  r.result.config = program.config;
  r.result.mode = opt.mode;
  if (golden == nullptr && rtl == nullptr) {
    r.result.status = Status::Error;
    r.result.message = "run_program: no device";
    return r.result;
  }
  try {
    r.run();
  } catch (const std::exception& e) {
    r.fail(Status::Error, std::string("internal error: ") + e.what());
  }
  for (const auto& n : r.notes) {
    if (!r.result.message.empty()) r.result.message += "\n  ";
    r.result.message += n;
  }
  r.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r.result;
}

RunResult run_program_in_mode(const Program& program, const golden::HwConfig& config, const RunOptions& opt) {
  ProgramRunOptions po;
  po.mode = opt.mode;
  po.max_listed = opt.max_listed;
  if (opt.mode == "golden") {
    GoldenDevice dev(config);
    return run_program(program, &dev, nullptr, po);
  }
  std::string why;
  std::unique_ptr<Device> rtl = make_rtl_device(enabled_blocks(program), config, opt, why);
  if (rtl == nullptr) {
    throw InputError("--mode", opt.mode,
                     fmt::format("{} mode replays the program on the RTL, but {}; run it with --mode golden",
                                 opt.mode, why));
  }
  std::optional<GoldenDevice> golden;
  if (opt.mode == "cross") golden.emplace(config);
  RunResult r = run_program(program, golden ? &*golden : nullptr, rtl.get(), po);
  r.cycles = rtl->cycles();
  r.dma = rtl->dma_traffic();
  r.seed = opt.seed.value_or(1);
  r.stall = opt.stall.value_or(0.0);
  r.rand_reset = opt.sim.rand_reset;
  if (r.status == Status::Pass) rtl->finish();
  return r;
}

}  // namespace dla::harness
