// The simulation loop around one verilated model: a fresh VerilatedContext and model per run,
// randomized reset values, clocking, FST waves restricted to a cycle window, and a watchdog.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <algorithm>
#include <chrono>
#include <type_traits>

#include "harness/coverage.hpp"
#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/interrupt.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness {

struct SimOptions {
  uint64_t seed = 1;
  int rand_reset = 0;  // +verilator+rand+reset+N: 0 zeros, 1 ones, 2 random (seeded by `seed`)
  std::filesystem::path wave;  // FST output; empty: no waves
  uint64_t wave_from = 0;
  uint64_t wave_to = std::numeric_limits<uint64_t>::max();
  int wave_depth = 99;
  uint64_t watchdog = 20000;  // cycles without progress before the run is ended (--watchdog)
  // Quiet cycles the run's memory model and back-pressure may add to a legal wait (a read's
  // latency, a beat waiting for bandwidth tokens, a run of stalled cycles; RTL devices set it,
  // docs/CLI.md "Watchdog"), and what it covers, for the stop's message.
  uint64_t watchdog_allowance = 0;
  std::string watchdog_allowance_why;
  uint64_t max_cycles = std::numeric_limits<uint64_t>::max();
  // Called every 65536 cycles (`run` draws cycles and rate on a terminal with it).
  std::function<void(const std::string& unit, uint64_t cycle)> heartbeat;
};

template <class Model>
class Sim {
 public:
  Sim(const SimOptions& opt, std::string unit) : opt_(opt), unit_(std::move(unit)) {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->randReset(opt.rand_reset);
    ctx_->randSeed(static_cast<int>(opt.seed & 0x7fffffff));
    ctx_->fatalOnError(false);
    if (!opt.wave.empty()) ctx_->traceEverOn(true);
    // Verilator 5.006 registers a model's public scopes (nvdla_core's watched handshakes,
    // rtl/top/nvdla_core_watch.vlt) in the thread's current context, not the model's, and erases
    // them from the current one when the model is destroyed: with two models on a thread (nvdla_core
    // and RUBIK in a deconvolution) that was another context, already freed. So the model's own
    // context is made current around its construction and its destruction.
    Verilated::threadContextp(ctx_.get());
    model_ = std::make_unique<Model>(ctx_.get(), "top");
    if (!opt.wave.empty()) {
      pending_.emplace(opt.wave);
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), opt.wave_depth);
      fst_->open(pending_->temp().c_str());
    }
  }
  // A run that stops early (watchdog, mismatch, refusal) still publishes its waves, closed and
  // complete up to the cycle it stopped at: those are the runs a user opens a waveform for.
  ~Sim() {
    try {
      finish();
    } catch (...) {  // a destructor must not throw; the temporary file is then removed
    }
    fst_.reset();  // closed by finish() unless it failed
    if (model_) {
      model_->final();
      coverage_collect(*ctx_);
      Verilated::threadContextp(ctx_.get());  // see the constructor
      model_.reset();
    }
    ctx_.reset();
    Verilated::threadContextp(Verilated::defaultContextp());  // never a freed context
  }
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;

  Model& top() { return *model_; }
  [[nodiscard]] uint64_t cycle() const { return cycle_; }
  [[nodiscard]] const std::string& unit() const { return unit_; }

  // Holds rst_ni low for `cycles` clock cycles with the clock running.
  void reset(int cycles = 4) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
    for (int i = 0; i < cycles; ++i) tick();
    model_->rst_ni = 1;
    model_->eval();
  }

  // Settle combinational logic for the inputs driven this cycle (clock low), so the driver can
  // read ready/valid outputs before the edge. Inputs must not change between settle() and tick().
  void settle() {
    model_->clk_i = 0;
    model_->eval();
    settled_ = true;
  }

  // Rising edge: state advances; the cycle counter moves on.
  void tick() {
    if (!settled_) settle();
    settled_ = false;
    dump(2 * cycle_);
    model_->clk_i = 1;
    model_->eval();
    dump(2 * cycle_ + 1);
    ++cycle_;
    if ((cycle_ & 0xffff) == 0 && opt_.heartbeat) opt_.heartbeat(unit_, cycle_);
    if (stop_requested()) throw SimInterrupted{unit_, cycle_};  // SIGINT / SIGTERM (interrupt.hpp)
    if (cycle_ - last_progress_ > quiet_limit()) throw SimTimeout(watchdog_message(), cycle_);
    if (cycle_ >= opt_.max_cycles) {
      throw SimTimeout(unit_ + ": cycle limit " + std::to_string(opt_.max_cycles) + " reached", cycle_);
    }
  }

  // A handshake this cycle: the watchdog starts counting again. `what` (a string literal) names
  // it in a watchdog stop's message ("DMA write", "CSC->CMAC operand", ...).
  void progress(const char* what = "a handshake") {
    last_progress_ = cycle_;
    last_what_ = what;
  }
  // Cycles without progress after which the run is stopped: --watchdog plus the allowance.
  [[nodiscard]] uint64_t quiet_limit() const { return opt_.watchdog + opt_.watchdog_allowance; }

  // Closes the wave file and moves it into place (never a partly written file: the FST is closed
  // before the rename). A window that holds no cycle of the run (--wave-from past its end) writes
  // no file: the command says so instead of leaving an empty one.
  void finish() {
    if (fst_) {
      fst_->close();
      fst_.reset();
      if (dumped_) pending_->commit();
      pending_.reset();
    }
  }

 private:
  // One wording for every watchdog stop (docs/CLI.md "Watchdog"): the unit, the quiet cycles,
  // the cycle it stopped at, the last progress seen and how to raise the limit.
  [[nodiscard]] std::string watchdog_message() const {
    std::string s = unit_ + ": watchdog: no progress for " + std::to_string(quiet_limit()) +
                    " cycles, stopped at cycle " + std::to_string(cycle_) + "; last progress: ";
    s += last_progress_ == 0 && last_what_ == nullptr ? std::string("none since reset")
                                                      : std::string(last_what_ ? last_what_ : "a handshake") +
                                                            " at cycle " + std::to_string(last_progress_);
    s += "; limit --watchdog " + std::to_string(opt_.watchdog);
    if (opt_.watchdog_allowance != 0) {
      s += " + " + std::to_string(opt_.watchdog_allowance) + " (" + opt_.watchdog_allowance_why + ")";
    }
    s += ": if the design is working, not hung, rerun with a larger --watchdog";
    return s;
  }

  void dump(uint64_t t) {
    if (fst_ && cycle_ >= opt_.wave_from && cycle_ <= opt_.wave_to) {
      fst_->dump(t);
      dumped_ = true;
    }
  }

  SimOptions opt_;
  std::string unit_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::optional<PendingFile> pending_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycle_ = 0;
  bool settled_ = false;
  uint64_t last_progress_ = 0;
  const char* last_what_ = nullptr;
  bool dumped_ = false;  // a time step of the wave window was dumped
};

// Bit access to verilated ports of any width (CData/SData/IData/QData or VlWide<N>); wide
// ports are handled a 32-bit word at a time. width <= 64.
template <class Port>
void put_bits(Port& port, unsigned lsb, unsigned width, uint64_t value) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  value &= mask;
  if constexpr (std::is_integral_v<Port>) {
    port = static_cast<Port>((static_cast<uint64_t>(port) & ~(mask << lsb)) | (value << lsb));
  } else {
    unsigned done = 0;
    while (done < width) {
      const unsigned b = lsb + done;
      const unsigned off = b % 32;
      const unsigned n = std::min(32 - off, width - done);
      const uint32_t m = (n == 32 ? 0xffffffffu : ((1u << n) - 1u)) << off;
      const auto chunk = static_cast<uint32_t>(value >> done) << off;
      port[b / 32] = (port[b / 32] & ~m) | (chunk & m);
      done += n;
    }
  }
}

template <class Port>
uint64_t get_bits(const Port& port, unsigned lsb, unsigned width) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<Port>) {
    return (static_cast<uint64_t>(port) >> lsb) & mask;
  } else {
    uint64_t v = 0;
    unsigned done = 0;
    while (done < width) {
      const unsigned b = lsb + done;
      const unsigned off = b % 32;
      const unsigned n = std::min(32 - off, width - done);
      const uint64_t chunk = (port[b / 32] >> off) & (n == 32 ? 0xffffffffu : ((1u << n) - 1u));
      v |= chunk << done;
      done += n;
    }
    return v & mask;
  }
}

template <class Port>
void clear_bits(Port& port) {
  if constexpr (std::is_integral_v<Port>) {
    port = 0;
  } else {
    for (auto& w : port.m_storage) w = 0;
  }
}

// The model alone, clocked `cycles` times with no harness work between edges (its inputs held as
// `drive` set them after reset): cycles per second, the bound a bench compares its run against.
template <class Model, class Drive>
double bare_cycles_per_second(uint64_t cycles, Drive&& drive) {
  VerilatedContext ctx;
  Model m(&ctx, "top");
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();
  m.rst_ni = 1;
  drive(m);
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < cycles; ++i) {
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
  }
  const double s = seconds_since(t0);
  m.final();
  return static_cast<double>(cycles) / s;
}

}  // namespace dla::harness
