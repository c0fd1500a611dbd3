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
#include <type_traits>

#include "harness/coverage.hpp"
#include "harness/errors.hpp"
#include "harness/files.hpp"

namespace dla::harness {

struct SimOptions {
  uint64_t seed = 1;
  int rand_reset = 0;  // +verilator+rand+reset+N: 0 zeros, 1 ones, 2 random (seeded by `seed`)
  std::filesystem::path wave;  // FST output; empty: no waves
  uint64_t wave_from = 0;
  uint64_t wave_to = std::numeric_limits<uint64_t>::max();
  int wave_depth = 99;
  uint64_t watchdog = 20000;  // cycles without progress before the run is ended
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
    if (model_) {
      model_->final();
      coverage_collect(*ctx_);
    }
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
    if (cycle_ - last_progress_ > opt_.watchdog) {
      throw SimTimeout(unit_ + ": watchdog: no progress for " + std::to_string(opt_.watchdog) +
                       " cycles, stopped at cycle " + std::to_string(cycle_));
    }
    if (cycle_ >= opt_.max_cycles) {
      throw SimTimeout(unit_ + ": cycle limit " + std::to_string(opt_.max_cycles) + " reached");
    }
  }

  void progress() { last_progress_ = cycle_; }

  // Closes the wave file and moves it into place (never a partly written file: the FST is closed
  // before the rename).
  void finish() {
    if (fst_) {
      fst_->close();
      fst_.reset();
      pending_->commit();
    }
  }

 private:
  void dump(uint64_t t) {
    if (fst_ && cycle_ >= opt_.wave_from && cycle_ <= opt_.wave_to) fst_->dump(t);
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

}  // namespace dla::harness
