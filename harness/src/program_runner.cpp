#include "harness/program_runner.hpp"
#include "harness/rtl_factory.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "golden/layout.hpp"
#include "harness/cmod_device.hpp"
#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/stopwatch.hpp"

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
  Device* cmod;  // NVIDIA's C model: a judge beside the device under test, or that device itself
  const ProgramRunOptions& opt;
  RunResult result;
  std::vector<std::string> notes;
  bool cmod_differs = false;
  bool three_way = false;  // a judging C model beside the device under test (set by run())
  bool launched = false;   // result.launch_cycle taken

  [[nodiscard]] std::string device_tag(const Device* d) const {
    return three_way ? fmt::format("{}: ", d->kind()) : std::string();
  }

  [[nodiscard]] Device& dut() const {
    if (rtl != nullptr) return *rtl;
    if (golden != nullptr) return *golden;
    return *cmod;
  }
  // The C model beside the device under test (null when it is the device under test or gone).
  [[nodiscard]] Device* judge() const { return cmod != nullptr && cmod != &dut() ? cmod : nullptr; }
  [[nodiscard]] std::vector<Device*> devices() const {
    std::vector<Device*> d;
    if (golden != nullptr) d.push_back(golden);
    if (rtl != nullptr) d.push_back(rtl);
    if (cmod != nullptr) d.push_back(cmod);
    return d;
  }

  // The C model as a judge stopped (refused the program, hung): the run goes on without it.
  void judge_stopped(const CmodFailure& e) {
    const auto state = e.kind() == CmodFailure::Kind::Timeout || e.kind() == CmodFailure::Kind::Idle
                           ? CmodVerdict::State::Timeout
                           : CmodVerdict::State::Refused;
    result.cmod = CmodVerdict{state, e.what()};
    cmod = nullptr;
  }

  // `f(d)` on every device; a failure of the judging C model takes it out of the run.
  template <typename F>
  void each(F&& f) {
    for (auto* d : devices()) {
      if (d == judge()) {
        try {
          f(d);
        } catch (const CmodFailure& e) {
          judge_stopped(e);
        }
      } else {
        f(d);
      }
    }
  }

  void judge_differs(const std::string& msg) {
    cmod_differs = true;
    fail(Status::Mismatch, msg);
  }

  void fail(Status s, const std::string& msg) {
    if (result.status == Status::Pass || s == Status::BadInput || s == Status::Timeout) result.status = s;
    notes.push_back(msg);
  }

  // Element-level diagnosis of a failed check over [addr, addr + size).
  void diagnose(uint64_t addr, uint64_t size, const std::string& where, Device* device = nullptr) {
    if (golden == nullptr) return;
    Device* other = device != nullptr ? device : (&dut() != golden ? &dut() : nullptr);
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
    if (other != nullptr) {
      Memory& m = other->memory();
      const auto actual = golden::load_cube(l->out_layout, l->out_shape, [&](uint64_t a) { return m.read(a); });
      CompareOptions co;
      co.max_listed = opt.max_listed;
      co.element_bytes = l->out_layout.bpe;
      CompareResult c = compare_cubes(fmt::format("{}{}_{} output cube (n,c,h,w incl. padded lanes) at {:#x}",
                                                  device_tag(other), l->unit, l->group, lb),
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
          if (!launched && st.reg->name == "D_OP_ENABLE" && (st.value & 1u) != 0) {
            launched = true;
            result.launch_cycle = dut().cycles();
          }
          each([&](Device* d) {
            const auto a = d == judge() ? opt.cmod_adaptation.writes.find(i) : opt.cmod_adaptation.writes.end();
            d->reg_write(*addr, a != opt.cmod_adaptation.writes.end() ? a->second : st.value);
          });
          return true;
        }
        if (st.poll_reads != 0) return poll(st, *addr);
        uint32_t v = 0;
        std::optional<uint32_t> judged;
        each([&](Device* d) {
          const uint32_t r = d->reg_read(*addr);
          if (d == &dut()) v = r;
          if (d == judge()) judged = r;
        });
        if ((v & st.mask) != (st.value & st.mask)) {
          CompareResult c;
          c.region = fmt::format("{}reg_read {}.{} ({})", device_tag(&dut()), st.reg->block, st.reg->name, st.where);
          c.axes = "-,-,-,-";
          c.elements = 1;
          c.mismatches = 1;
          c.first.push_back({{}, static_cast<int64_t>(v & st.mask), static_cast<int64_t>(st.value & st.mask)});
          result.compares.push_back(std::move(c));
          fail(Status::Mismatch, fmt::format("{}: {}{}.{} read {:#010x}, expected {:#010x} (mask {:#010x})", st.where,
                                             device_tag(&dut()), st.reg->block, st.reg->name, v, st.value, st.mask));
        }
        if (judged && (*judged & st.mask) != (st.value & st.mask)) {
          if (const std::string why = cmod_uncompared_read(program, *st.reg, *judged & st.mask, st.value & st.mask); !why.empty()) {
            notes.push_back(fmt::format("{}: cmod: {}.{} read {:#010x}, expected {:#010x}: not compared, {}", st.where,
                                        st.reg->block, st.reg->name, *judged, st.value, why));
          } else {
            CompareResult c;
            c.region = fmt::format("cmod: reg_read {}.{} ({})", st.reg->block, st.reg->name, st.where);
            c.axes = "-,-,-,-";
            c.elements = 1;
            c.mismatches = 1;
            c.first.push_back(
                {{}, static_cast<int64_t>(*judged & st.mask), static_cast<int64_t>(st.value & st.mask)});
            result.compares.push_back(std::move(c));
            judge_differs(fmt::format("{}: cmod: {}.{} read {:#010x}, expected {:#010x} (mask {:#010x})", st.where,
                                      st.reg->block, st.reg->name, *judged, st.value, st.mask));
          }
        }
        return true;
      }
      case StepOp::WaitIntr: {
        const int bit = interrupt_bit(st.intr);
        const RegDef* status = db.find("GLB.S_INTR_STATUS");
        bool ok = true;
        each([&](Device* d) {
          if (!ok) return;
          const WaitResult w = d->wait_interrupt(st.intr, opt.wait_timeout);
          if (!w.raised) {
            fail(Status::Timeout, fmt::format("{}: wait_intr {} (step {}): the {} device never raised it: {}", st.where,
                                              st.intr, i, d->kind(), w.detail));
            ok = false;
            return;
          }
          // Acknowledge as the trace player does: write the bit back to S_INTR_STATUS (W1C).
          if (bit >= 0 && status != nullptr) {
            if (const auto a = db.address(program.config, *status)) d->reg_write(*a, 1u << bit);
          }
        });
        return ok;
      }
      case StepOp::WaitAny: {
        // NVDLA v1's trace player `wait`: the line, no acknowledge (the program clears the status).
        bool ok = true;
        each([&](Device* d) {
          if (!ok) return;
          const WaitResult w = d->wait_any_interrupt(opt.wait_timeout);
          if (!w.raised) {
            fail(Status::Timeout, fmt::format("{}: wait (step {}): the {} device raised no interrupt: {}", st.where, i,
                                              d->kind(), w.detail));
            ok = false;
          }
        });
        return ok;
      }
      case StepOp::Check:
        return check(st);
    }
    return true;
  }

  // A poll: each device reads until the condition holds (its own number of reads).
  bool poll(const ProgramStep& st, uint32_t addr) {
    bool all = true;
    each([&](Device* d) {
      if (!all) return;
      const PollResult p = poll_register(*d, addr, st.mask, st.value, st.poll_reads, st.poll_not_equal);
      if (p.held) return;
      const uint32_t v = p.value;
      const std::string msg = fmt::format("{}: poll {}.{}: the {} device read {:#010x} (mask {:#010x}) {} times, "
                                          "never {} {:#010x}",
                                          st.where, st.reg->block, st.reg->name, d->kind(), v, st.mask, st.poll_reads,
                                          st.poll_not_equal ? "different from" : "equal to", st.value & st.mask);
      if (d == judge()) {
        result.cmod = CmodVerdict{CmodVerdict::State::Timeout, msg};
        cmod = nullptr;
        return;
      }
      fail(Status::Timeout, msg);
      all = false;
    });
    return all;
  }

  bool check(const ProgramStep& st) {
    const bool dut_ok = check_on(st, dut());
    if (Device* j = judge(); j != nullptr) {
      const bool judge_ok = check_on(st, *j);
      // Both differ from golden: say whether they agree with each other (then golden is the odd one).
      if (!dut_ok && !judge_ok && st.check == CheckKind::Golden && golden != nullptr && &dut() != golden) {
        const uint64_t size = st.size;
        const bool same = dut().memory().read(st.addr, size) == j->memory().read(st.addr, size);
        notes.push_back(fmt::format("{}: {} and cmod {} ({:#x}+{:#x})", st.where, dut().kind(),
                                    same ? "agree with each other: the golden model is the one that differs"
                                         : "differ from golden and from each other",
                                    st.addr, size));
      }
    }
    return true;
  }

  // One device's check; false when it failed (the run's status says so).
  bool check_on(const ProgramStep& st, Device& d) {
    Memory& m = d.memory();
    const bool is_judge = &d == judge();
    const std::string tag = device_tag(&d);
    const auto failed = [&](const std::string& msg) {
      if (is_judge) {
        judge_differs(tag + msg);
      } else {
        fail(Status::Mismatch, tag + msg);
      }
    };
    switch (st.check) {
      case CheckKind::Crc32: {
        CompareResult c;
        c.region = fmt::format("{}crc32 {:#x}+{:#x} ({})", tag, st.addr, st.size, st.where);
        c.axes = "-,-,-,byte";
        c.shape = {1, 1, 1, static_cast<int>(std::min<uint64_t>(st.size, 0x7fffffff))};
        c.elements = st.size;
        c.crc_actual = m.crc32(st.addr, st.size);
        c.crc_expected = st.crc;
        c.mismatches = c.crc_actual == c.crc_expected ? 0 : 1;
        const bool ok = c.mismatches == 0;
        result.compares.push_back(std::move(c));
        if (!ok) {
          failed(fmt::format("{}: crc32 of {:#x}+{:#x} is {:08x}, expected {:08x}", st.where, st.addr, st.size,
                             m.crc32(st.addr, st.size), st.crc));
          diagnose(st.addr, st.size, st.where, &d == golden ? nullptr : &d);
        }
        return ok;
      }
      case CheckKind::Golden: {
        if (golden == nullptr || &d == golden) {
          notes.push_back(fmt::format("{}: check golden compares the device with the golden model; in {} mode there "
                                      "is only one of them, nothing compared",
                                      st.where, opt.mode));
          return true;
        }
        CompareResult c = compare_bytes(fmt::format("{}golden memory {:#x}+{:#x} ({})", tag, st.addr, st.size, st.where),
                                        m.read(st.addr, st.size), golden->memory().read(st.addr, st.size),
                                        opt.max_listed);
        c.crc_actual = m.crc32(st.addr, st.size);
        c.crc_expected = golden->memory().crc32(st.addr, st.size);
        const bool ok = c.pass();
        result.compares.push_back(std::move(c));
        if (!ok) {
          failed(fmt::format("{}: memory differs from the golden model", st.where));
          diagnose(st.addr, st.size, st.where, &d);
        }
        return ok;
      }
      case CheckKind::File: {
        CompareResult c = compare_bytes(fmt::format("{}file {} at {:#x} ({})", tag, st.file.string(), st.addr, st.where),
                                        m.read(st.addr, st.bytes.size()), st.bytes, opt.max_listed);
        c.crc_actual = m.crc32(st.addr, st.bytes.size());
        const bool ok = c.pass();
        result.compares.push_back(std::move(c));
        if (!ok) {
          failed(fmt::format("{}: memory differs from {}", st.where, st.file.string()));
          diagnose(st.addr, st.bytes.size(), st.where, &d == golden ? nullptr : &d);
        }
        return ok;
      }
    }
    return true;
  }

  void run() {
    three_way = judge() != nullptr;
    std::size_t i = 0;
    for (; i < program.steps.size(); ++i) {
      try {
        if (!step(i, program.steps[i])) break;
      } catch (const InputError& e) {
        // A device refused the program (e.g. an RTL that cannot hold the layer): bad input for it.
        fail(Status::BadInput, fmt::format("{}: {}", program.steps[i].where, e.what()));
        break;
      } catch (const SimTimeout& e) {
        // The RTL's watchdog (or cycle limit): a TIMEOUT like an interrupt never raised.
        fail(Status::Timeout, fmt::format("{}: {}", program.steps[i].where, e.what()));
        break;
      } catch (const CmodFailure& e) {
        // The C model is the device under test (--mode cmod): its refusal or hang is the run's.
        const bool hang = e.kind() == CmodFailure::Kind::Timeout || e.kind() == CmodFailure::Kind::Idle;
        fail(hang ? Status::Timeout : e.kind() == CmodFailure::Kind::Refused ? Status::BadInput : Status::Error,
             fmt::format("{}: {}", program.steps[i].where, e.what()));
        result.cmod = CmodVerdict{hang ? CmodVerdict::State::Timeout : CmodVerdict::State::Refused, e.what()};
        break;
      }
    }
    // The judge's verdict, unless it stopped on the way; a run that ended early (golden or the RTL
    // failed a step) did not let it finish the program.
    if (three_way && !result.cmod && i < program.steps.size() && !cmod_differs) {
      result.cmod = CmodVerdict{CmodVerdict::State::NotJudged,
                                fmt::format("the run stopped at {} before the C model finished the program",
                                            program.steps[i].where)};
    }
    if (three_way && !result.cmod) {
      result.cmod = CmodVerdict{cmod_differs ? CmodVerdict::State::Differs : CmodVerdict::State::Agrees,
                                cmod_differs ? "it differs from the golden model (see the compares marked cmod)"
                                             : "it agrees with the golden model on every check"};
      if (!opt.cmod_adaptation.empty()) {
        result.cmod->adapted = opt.cmod_adaptation.why;
        result.cmod->detail += ", " + opt.cmod_adaptation.why;
      }
    }
    // A judge that refused the program or hung did not judge it: never a pass (a refusal is a
    // rule of NVDLA's the program breaks, or a deviation of the model to document; docs/CMOD.md).
    if (three_way && result.cmod) {
      if (result.cmod->state == CmodVerdict::State::Refused) {
        fail(Status::BadInput, "NVIDIA's C model refused the program: " + result.cmod->detail);
      } else if (result.cmod->state == CmodVerdict::State::Timeout) {
        fail(Status::Timeout, "NVIDIA's C model did not finish the program: " + result.cmod->detail);
      }
    }
    if (golden != nullptr) {
      for (const auto& l : golden->layers()) {
        // Work: the output elements written to memory (CACC's output flies into SDP and is SDP's
        // input, not a second output: a fused conv -> SDP counts once; docs/CLI.md "Cycles,
        // elements and work").
        if (l.wrote_memory) result.work += l.output.size();
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

RunResult run_program(const Program& program, GoldenDevice* golden, Device* rtl, const ProgramRunOptions& opt,
                      Device* cmod) {
  const auto t0 = std::chrono::steady_clock::now();
  Runner r{program, golden, rtl, cmod, opt, {}, {}};
  r.result.name = program.name;
  r.result.unit = "program";
  r.result.config = program.config;
  r.result.mode = opt.mode;
  if (golden == nullptr && rtl == nullptr && cmod == nullptr) {
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
  r.result.seconds = seconds_since(t0);
  return r.result;
}

RunResult run_program_in_mode(const Program& program, const golden::HwConfig& config, const RunOptions& opt) {
  ProgramRunOptions po;
  po.mode = opt.mode;
  po.max_listed = opt.max_listed;
  if (opt.mode == "cmod") {
    if (const std::string why = cmod_cannot_judge(program, config); !why.empty()) {
      throw InputError("--mode", "cmod", "NVIDIA's C model cannot run this program: " + why);
    }
    const std::unique_ptr<Device> dev = make_cmod_device(config, opt.cmod);
    RunResult r = run_program(program, nullptr, nullptr, po, dev.get());
    r.cycles = dev->cycles();
    return r;
  }
  // NVIDIA's C model as the third judge, where it can judge the program.
  std::unique_ptr<Device> cmod;
  std::optional<CmodVerdict> not_judged;
  if (opt.judge_cmod) {
    if (CmodJudgePlan plan = cmod_judge_plan(program, config); !plan.cannot.empty()) {
      not_judged = CmodVerdict{CmodVerdict::State::NotJudged, std::move(plan.cannot)};
    } else {
      po.cmod_adaptation = std::move(plan.adaptation);
      cmod = make_cmod_device(config, opt.cmod);
    }
  }
  if (opt.mode == "golden") {
    GoldenDevice dev(config);
    RunResult r = run_program(program, &dev, nullptr, po, cmod.get());
    if (not_judged) r.cmod = not_judged;
    return r;
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
  RunResult r = run_program(program, golden ? &*golden : nullptr, rtl.get(), po, cmod.get());
  if (not_judged) r.cmod = not_judged;
  r.cycles = rtl->cycles();
  r.dma = rtl->dma_traffic();
  r.seed = opt.seed.value_or(1);
  r.stall = opt.stall.value_or(0.0);
  r.rand_reset = opt.sim.rand_reset;
  if (r.status == Status::Pass) rtl->finish();
  return r;
}

}  // namespace dla::harness
