// A verilated register-level unit as a Device: CSB master and a DMA server on the unit's memory
// ports (seeded latency, optional bandwidth limit, back-pressure); interrupts come from the GLB in
// the unit's top. Port names follow docs/RTL_CONVENTIONS.md (csb_*, dma_rd_*, dma_wr_*, intr_o).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/mem_model.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

namespace dla::harness {

struct RtlDeviceOptions {
  SimOptions sim;
  double stall = 0.0;      // back-pressure probability on every DMA handshake
  MemOptions mem;          // read latency range and bandwidth
};

// Serves one unit's DMA read and write ports from a Memory, one beat per cycle each way. A write
// beat is one atom (`bytes`). A read request is one atom, or, on a port with a request length
// (`dma_rd_req_len_o`: atoms - 1; nvdla_core where the configuration's dma_bits holds more than
// one atom, docs/DMA.md "The port"), len + 1 consecutive atoms from its address, answered in one
// response beat in the low lanes of `dma_rd_rsp_data_i`; the lanes above carry the poison byte
// kPoison (a unit that used them would fail bit-exactness). Reads are answered in order, each
// `latency` cycles (uniform in [latency_min, latency_max], seeded) after its request at the
// earliest. With a bandwidth of B bytes/cycle, a token bucket gains B each cycle (capacity
// max(B, the widest beat), empty at reset); a read response is presented, and a write request
// accepted (ready), only while the bucket holds the beat's bytes, which the beat then takes.
// Read responses are served first. So the bytes moved never exceed B x cycles. Tokens are kept
// in 1/65536 byte: B is rounded down to that grain.
template <class Model>
class DmaServer {
 public:
  DmaServer(Memory& mem, unsigned bytes, const RtlDeviceOptions& opt)
      : mem_(mem), bytes_(bytes), lat_(Rng::derive(opt.sim.seed, "dma.latency")), mem_opt_(opt.mem),
        rate_(opt.mem.unlimited() ? 0 : static_cast<uint64_t>(opt.mem.bandwidth * kTokenOne)),
        beat_(uint64_t{bytes} * kTokenOne), cap_(std::max(rate_, uint64_t{kRspBytes} * kTokenOne)),
        rd_req_(opt.sim.seed, "dma.rd_req", opt.stall), rd_rsp_(opt.sim.seed, "dma.rd_rsp", opt.stall),
        wr_req_(opt.sim.seed, "dma.wr_req", opt.stall) {}

  // Before the clock-low evaluation: this cycle's inputs to the unit.
  void drive(Model& m, uint64_t cycle) {
    if (rate_ != 0) tokens_ = std::min(cap_, tokens_ + rate_);
    m.dma_rd_req_ready_i = !rd_req_.stall();
    if (!rsp_on_ && !pending_.empty() && pending_.front().ready <= cycle && !rd_rsp_.stall()) {
      const std::vector<uint8_t>& data = pending_.front().data;
      const uint64_t cost = uint64_t{data.size()} * kTokenOne;
      if (has_tokens(cost)) {
        rsp_on_ = true;
        take_tokens(cost);
        for (unsigned i = 0; i < kRspBytes; i += 8) {
          uint64_t word = 0;
          for (unsigned b = 0; b < 8 && i + b < kRspBytes; ++b) {
            word |= uint64_t{i + b < data.size() ? data[i + b] : kPoison} << (8 * b);
          }
          put_bits(m.dma_rd_rsp_data_i, 8 * i, std::min(64u, 8 * (kRspBytes - i)), word);
        }
      }
    }
    m.dma_rd_rsp_valid_i = rsp_on_;
    wr_ok_ = !wr_req_.stall() && has_tokens(beat_);
    m.dma_wr_req_ready_i = wr_ok_;
  }

  // After the evaluation, before the edge: apply this cycle's handshakes. The last one that moved
  // (a name for the watchdog's message), or nullptr if none did.
  const char* commit(Model& m, uint64_t cycle) {
    const char* moved = nullptr;
    if (m.dma_rd_req_valid_o && m.dma_rd_req_ready_i) {
      const uint64_t addr = m.dma_rd_req_addr_o;
      const uint64_t ready =
          std::max(last_ready_, cycle + static_cast<uint64_t>(lat_.range(mem_opt_.latency_min, mem_opt_.latency_max)));
      last_ready_ = ready;
      unsigned atoms = 1;
      if constexpr (requires { m.dma_rd_req_len_o; }) atoms += static_cast<unsigned>(m.dma_rd_req_len_o);
      if (atoms * bytes_ > kRspBytes) {
        throw std::logic_error(fmt::format("DMA read of {} atoms of {} bytes wider than the {}-byte response port",
                                           atoms, bytes_, kRspBytes));
      }
      pending_.push_back({ready, mem_.read(addr, atoms * bytes_)});
      ++reads_;
      moved = "DMA read request";
    }
    if (rsp_on_ && m.dma_rd_rsp_ready_o) {
      bytes_read_ += pending_.front().data.size();
      pending_.pop_front();
      rsp_on_ = false;
      ++responses_;
      moved = "DMA read response";
    }
    if (m.dma_wr_req_valid_o && wr_ok_) {
      take_tokens(beat_);
      const uint64_t addr = m.dma_wr_req_addr_o;
      for (unsigned i = 0; i < bytes_; i += 8) {
        const unsigned n = std::min(8u, bytes_ - i);
        const uint64_t word = get_bits(m.dma_wr_req_data_o, 8 * i, 8 * n);
        const uint64_t mask = get_bits(m.dma_wr_req_mask_o, i, n);
        for (unsigned b = 0; b < n; ++b) {
          if ((mask >> b) & 1u) mem_.write(addr + i + b, static_cast<uint8_t>(word >> (8 * b)));
        }
      }
      ++writes_;
      moved = "DMA write";
    }
    return moved;
  }
  [[nodiscard]] uint64_t reads() const { return reads_; }
  [[nodiscard]] uint64_t writes() const { return writes_; }
  [[nodiscard]] DmaTraffic traffic() const { return {mem_opt_, bytes_read_, writes_ * bytes_}; }
  // the read response port's width in bytes (a verilated port of N bits is N / 8 bytes of storage)
  static constexpr unsigned kRspBytes = sizeof(std::declval<Model&>().dma_rd_rsp_data_i);

 private:
  static constexpr uint64_t kTokenOne = 65536;  // tokens per byte
  static constexpr uint8_t kPoison = 0xe5;      // response lanes above the request's atoms
  [[nodiscard]] bool has_tokens(uint64_t cost) const { return rate_ == 0 || tokens_ >= cost; }
  void take_tokens(uint64_t cost) {
    if (rate_ != 0) tokens_ -= cost;
  }

  struct Pending {
    uint64_t ready;
    std::vector<uint8_t> data;
  };
  Memory& mem_;
  unsigned bytes_;
  Rng lat_;
  MemOptions mem_opt_;
  uint64_t rate_, beat_, cap_;  // in tokens; rate_ 0: unlimited
  uint64_t tokens_ = 0;
  bool wr_ok_ = false;          // write ready driven this cycle
  StallInjector rd_req_, rd_rsp_, wr_req_;
  std::deque<Pending> pending_;
  bool rsp_on_ = false;
  uint64_t last_ready_ = 0;
  uint64_t reads_ = 0, writes_ = 0, responses_ = 0, bytes_read_ = 0;
};

// Internal handshakes of a top that the watchdog counts as progress besides its CSB and DMA ports
// (docs/CLI.md "Watchdog"): none by default. A top whose units legitimately work for long with
// no port moving (nvdla_core: a convolution computing a stripe out of CBUF) specializes it
// (harness/tops/nvdla_core_watch.hpp) and names what moved.
template <class Model>
struct WatchProbe {
  static const char* moved(const Model& /*m*/) { return nullptr; }
};

// The quiet cycles a legal run may add to --watchdog through its memory model and back-pressure:
// a read answered after up to MAX latency cycles, a beat of the widest port waiting for its
// bandwidth tokens, and a run of stalled cycles on a port (a stall is a coin of probability P
// each cycle: a run of k has probability P^k; k is taken where that falls below 1e-12, twice for
// a request and its response in turn). `why` gets the terms.
inline uint64_t quiet_allowance(const MemOptions& mem, double stall, unsigned widest_beat_bytes, std::string& why) {
  uint64_t a = static_cast<uint64_t>(mem.latency_max);
  why = fmt::format("memory latency up to {}", mem.latency_max);
  if (!mem.unlimited()) {
    const auto b = static_cast<uint64_t>(std::ceil(widest_beat_bytes / mem.bandwidth)) + 1;
    a += b;
    why += fmt::format(", {} cycles for a {}-byte beat at {:g} B/cycle", b, widest_beat_bytes, mem.bandwidth);
  }
  if (stall > 0) {
    const auto k = stall >= 1 ? uint64_t{1000000} : static_cast<uint64_t>(std::ceil(std::log(1e-12) / std::log(stall)));
    a += 2 * k;
    why += fmt::format(", 2 x {} stalled cycles at --stall {:g}", k, stall);
  }
  return a;
}

// A device's simulation options with the allowance of its memory model and stalls added.
inline SimOptions watched(const RtlDeviceOptions& opt, unsigned widest_beat_bytes) {
  SimOptions s = opt.sim;
  s.watchdog_allowance = quiet_allowance(opt.mem, opt.stall, widest_beat_bytes, s.watchdog_allowance_why);
  return s;
}

// The device. The GLB (S_INTR_MASK, S_INTR_SET, S_INTR_STATUS) is RTL inside the unit's top: every
// GLB access goes over the CSB, and interrupts are observed on the level interrupt `intr_o` and
// in S_INTR_STATUS.
template <class Model>
class RtlDevice : public Device {
 public:
  // `intr_units`: the units whose done pulses reach this top's GLB ("SDP", "CACC", ...); an
  // interrupt of any other unit can only be set by software (S_INTR_SET).
  RtlDevice(const golden::HwConfig& cfg, std::string unit_name, std::vector<std::string> intr_units,
            unsigned dma_bytes, const RtlDeviceOptions& opt)
      : cfg_(cfg), intr_units_(std::move(intr_units)),
        sim_(watched(opt, std::max(dma_bytes, DmaServer<Model>::kRspBytes)), std::move(unit_name)),
        dma_(mem_, dma_bytes, opt) {
    Model& m = sim_.top();
    m.csb_req_valid_i = 0;
    if constexpr (requires { m.fly_valid_i; }) m.fly_valid_i = 0;  // a unit with a flying input
    sim_.reset();
    const RegDb& db = RegDb::nvdla();
    glb_status_ = *db.address(cfg_.name, *db.find("GLB.S_INTR_STATUS"));
    glb_mask_ = *db.address(cfg_.name, *db.find("GLB.S_INTR_MASK"));
  }
  ~RtlDevice() override = default;

  [[nodiscard]] std::string_view kind() const override { return "rtl"; }
  [[nodiscard]] const std::string& config() const override { return cfg_.name; }
  [[nodiscard]] Memory& memory() override { return mem_; }

  // Sees every CSB write before the RTL does and may refuse it (InputError): what this RTL
  // instance cannot hold or do is refused with a reason instead of computed wrong.
  using WriteGuard = std::function<void(uint32_t addr, uint32_t value)>;
  void set_write_guard(WriteGuard guard) { guard_ = std::move(guard); }

  void reg_write(uint32_t addr, uint32_t value) override {
    if (guard_) guard_(addr, value);
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 1;
    m.csb_req_addr_i = addr;
    m.csb_req_wdata_i = value;
    for (;;) {
      const bool taken = cycle([&] { return m.csb_req_ready_o != 0; }, "CSB write");
      if (taken) break;
    }
    m.csb_req_valid_i = 0;
  }

  [[nodiscard]] uint32_t reg_read(uint32_t addr) override { return csb_read(addr, true); }

  [[nodiscard]] bool interrupt_pending(std::string_view intr) override {
    const int bit = interrupt_bit(intr);
    return bit >= 0 && ((csb_read(glb_status_, false) >> bit) & 1u) != 0;
  }

  // Done when the RTL's S_INTR_STATUS has the bit (set by the unit, or by S_INTR_SET). An unmasked
  // source raises intr_o: wait for the line, then read the status; a masked one, or a line already
  // held high by another source, is polled through S_INTR_STATUS (the polls are not progress for
  // the watchdog).
  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) override {
    const int bit = interrupt_bit(intr);
    if (bit < 0) return {false, fmt::format("unknown interrupt {}", intr)};
    const uint32_t want = 1u << bit;
    const uint64_t until = sim_.cycle() + timeout_cycles;
    // Only the harness writes the CSB, so the mask cannot change while we wait.
    const bool masked = (csb_read(glb_mask_, false) & want) != 0;
    for (bool first = true;; first = false) {
      if ((csb_read(glb_status_, false) & want) != 0) return {true, ""};
      if (first && !from_unit_in_build(intr)) {
        return {false, fmt::format("{} comes from a unit this RTL build does not contain", intr)};
      }
      if (sim_.cycle() >= until) {
        return {false, fmt::format("{} not raised within {} cycles (cycle {})", intr, timeout_cycles, sim_.cycle())};
      }
      if (masked) continue;
      while (sim_.cycle() < until) {
        bool high = false;
        cycle([&] {
          high = sim_.top().intr_o != 0;
          return false;
        });
        if (high) break;
      }
    }
  }

  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t timeout_cycles) override {
    const uint64_t until = sim_.cycle() + timeout_cycles;
    for (;;) {
      bool high = false;
      cycle([&] {
        high = sim_.top().intr_o != 0;
        return false;
      });
      if (high) return {true, ""};
      if (sim_.cycle() >= until) {
        return {false, fmt::format("the interrupt line stayed low for {} cycles (cycle {})", timeout_cycles,
                                   sim_.cycle())};
      }
    }
  }

  [[nodiscard]] uint64_t cycles() const override { return sim_.cycle(); }
  [[nodiscard]] std::optional<DmaTraffic> dma_traffic() const override { return dma_.traffic(); }
  void finish() override { sim_.finish(); }

 private:
  // One clock cycle with the DMA server running; `sample` reads outputs after the evaluation
  // and says whether the caller's handshake completed (which counts as progress, named `what`).
  template <class Sample>
  bool cycle(Sample&& sample, const char* what = "CSB") {
    Model& m = sim_.top();
    dma_.drive(m, sim_.cycle());
    sim_.settle();
    const bool done = sample();
    if (const char* moved = dma_.commit(m, sim_.cycle())) {
      sim_.progress(moved);
    } else if (done) {
      sim_.progress(what);
    } else if (const char* inside = WatchProbe<Model>::moved(m)) {
      sim_.progress(inside);
    }
    sim_.tick();
    return done;
  }

  // A CSB read; `progress`: whether its handshakes count as progress for the watchdog.
  uint32_t csb_read(uint32_t addr, bool progress) {
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 0;
    m.csb_req_addr_i = addr;
    for (;;) {
      bool taken = false;
      cycle([&] {
        taken = m.csb_req_ready_o != 0;
        return taken && progress;
      }, "CSB read request");
      if (taken) break;
    }
    m.csb_req_valid_i = 0;
    uint32_t data = 0;
    for (;;) {
      bool got = false;
      cycle([&] {
        got = m.csb_rsp_valid_o != 0;
        data = m.csb_rsp_rdata_o;
        return got && progress;
      }, "CSB read response");
      if (got) break;
    }
    return data;
  }

  // "CDMA_DAT_0" -> is CDMA_DAT among the units wired to the GLB?
  [[nodiscard]] bool from_unit_in_build(std::string_view intr) const {
    const std::string_view unit = intr.substr(0, intr.rfind('_'));
    return std::find(intr_units_.begin(), intr_units_.end(), unit) != intr_units_.end();
  }

  const golden::HwConfig& cfg_;
  std::vector<std::string> intr_units_;
  Memory mem_;
  Sim<Model> sim_;
  DmaServer<Model> dma_;
  uint32_t glb_status_ = 0, glb_mask_ = 0;
  WriteGuard guard_;
};

}  // namespace dla::harness
