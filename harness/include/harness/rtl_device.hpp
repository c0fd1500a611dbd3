// A verilated register-level unit as a Device: CSB master, a DMA server on the unit's memory
// ports (seeded latency and back-pressure), and the GLB interrupt registers. Port names follow
// docs/RTL_CONVENTIONS.md (csb_*, dma_rd_*, dma_wr_*, intr_o).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/device.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"

namespace dla::harness {

struct RtlDeviceOptions {
  SimOptions sim;
  double stall = 0.0;      // back-pressure probability on every DMA handshake
  int latency_min = 4;     // DMA read latency range in cycles
  int latency_max = 32;
};

// Serves one unit's DMA read and write ports from a Memory, one atom (`bytes`) per beat.
template <class Model>
class DmaServer {
 public:
  DmaServer(Memory& mem, unsigned bytes, const RtlDeviceOptions& opt)
      : mem_(mem), bytes_(bytes), lat_(Rng::derive(opt.sim.seed, "dma.latency")),
        lat_min_(opt.latency_min), lat_max_(opt.latency_max),
        rd_req_(opt.sim.seed, "dma.rd_req", opt.stall), rd_rsp_(opt.sim.seed, "dma.rd_rsp", opt.stall),
        wr_req_(opt.sim.seed, "dma.wr_req", opt.stall) {}

  // Before the clock-low evaluation: this cycle's inputs to the unit.
  void drive(Model& m, uint64_t cycle) {
    m.dma_rd_req_ready_i = !rd_req_.stall();
    m.dma_wr_req_ready_i = !wr_req_.stall();
    if (!rsp_on_ && !pending_.empty() && pending_.front().ready <= cycle && !rd_rsp_.stall()) {
      rsp_on_ = true;
      for (unsigned i = 0; i < bytes_; i += 8) {
        uint64_t word = 0;
        for (unsigned b = 0; b < 8 && i + b < bytes_; ++b) word |= uint64_t{pending_.front().data[i + b]} << (8 * b);
        put_bits(m.dma_rd_rsp_data_i, 8 * i, std::min(64u, 8 * (bytes_ - i)), word);
      }
    }
    m.dma_rd_rsp_valid_i = rsp_on_;
  }

  // After the evaluation, before the edge: apply this cycle's handshakes. True if any moved.
  bool commit(Model& m, uint64_t cycle) {
    bool moved = false;
    if (m.dma_rd_req_valid_o && m.dma_rd_req_ready_i) {
      const uint64_t addr = m.dma_rd_req_addr_o;
      const uint64_t ready = std::max(last_ready_, cycle + static_cast<uint64_t>(lat_.range(lat_min_, lat_max_)));
      last_ready_ = ready;
      pending_.push_back({ready, mem_.read(addr, bytes_)});
      ++reads_;
      moved = true;
    }
    if (rsp_on_ && m.dma_rd_rsp_ready_o) {
      pending_.pop_front();
      rsp_on_ = false;
      moved = true;
    }
    if (m.dma_wr_req_valid_o && m.dma_wr_req_ready_i) {
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
      moved = true;
    }
    return moved;
  }
  [[nodiscard]] uint64_t reads() const { return reads_; }
  [[nodiscard]] uint64_t writes() const { return writes_; }

 private:
  struct Pending {
    uint64_t ready;
    std::vector<uint8_t> data;
  };
  Memory& mem_;
  unsigned bytes_;
  Rng lat_;
  int lat_min_, lat_max_;
  StallInjector rd_req_, rd_rsp_, wr_req_;
  std::deque<Pending> pending_;
  bool rsp_on_ = false;
  uint64_t last_ready_ = 0;
  uint64_t reads_ = 0, writes_ = 0;
};

// Which bit of the unit's intr_o raises which GLB interrupt ("SDP_0", "CACC_1", ...).
struct IntrBit {
  int bit = 0;
  std::string name;
};

// The two group bits of one source: intr_o[first_bit] -> <source>_0, [first_bit + 1] -> <source>_1.
inline std::vector<IntrBit> group_intrs(const std::string& source, int first_bit = 0) {
  return {{first_bit, source + "_0"}, {first_bit + 1, source + "_1"}};
}

template <class Model>
class RtlDevice : public Device {
 public:
  // `intrs` maps the unit's intr_o bits to GLB interrupts (e.g. group_intrs("SDP")).
  RtlDevice(const golden::HwConfig& cfg, std::string unit_name, std::vector<IntrBit> intrs, unsigned dma_bytes,
            const RtlDeviceOptions& opt)
      : cfg_(cfg), intrs_(std::move(intrs)), sim_(opt.sim, std::move(unit_name)), dma_(mem_, dma_bytes, opt) {
    Model& m = sim_.top();
    m.csb_req_valid_i = 0;
    if constexpr (requires { m.fly_valid_i; }) m.fly_valid_i = 0;  // a unit with a flying input
    sim_.reset();
    const RegDb& db = RegDb::nvdla();
    glb_status_ = *db.address(cfg_.name, *db.find("GLB.S_INTR_STATUS"));
    glb_mask_ = *db.address(cfg_.name, *db.find("GLB.S_INTR_MASK"));
    glb_set_ = *db.address(cfg_.name, *db.find("GLB.S_INTR_SET"));
  }
  ~RtlDevice() override = default;

  [[nodiscard]] std::string_view kind() const override { return "rtl"; }
  [[nodiscard]] const std::string& config() const override { return cfg_.name; }
  [[nodiscard]] Memory& memory() override { return mem_; }

  void reg_write(uint32_t addr, uint32_t value) override {
    if (glb_write(addr, value)) return;
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 1;
    m.csb_req_addr_i = addr;
    m.csb_req_wdata_i = value;
    for (;;) {
      const bool taken = cycle([&] { return m.csb_req_ready_o != 0; });
      if (taken) break;
    }
    m.csb_req_valid_i = 0;
  }

  [[nodiscard]] uint32_t reg_read(uint32_t addr) override {
    if (addr == glb_status_) return glb_status_bits_;
    if (addr == glb_mask_) return glb_mask_bits_;
    Model& m = sim_.top();
    m.csb_req_valid_i = 1;
    m.csb_req_write_i = 0;
    m.csb_req_addr_i = addr;
    for (;;) {
      const bool taken = cycle([&] { return m.csb_req_ready_o != 0; });
      if (taken) break;
    }
    m.csb_req_valid_i = 0;
    uint32_t data = 0;
    for (;;) {
      bool got = false;
      cycle([&] {
        got = m.csb_rsp_valid_o != 0;
        data = m.csb_rsp_rdata_o;
        return got;
      });
      if (got) break;
    }
    return data;
  }

  [[nodiscard]] bool interrupt_pending(std::string_view intr) override {
    const int bit = interrupt_bit(intr);
    return bit >= 0 && ((glb_status_bits_ >> bit) & 1u);
  }

  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) override {
    const int bit = interrupt_bit(intr);
    if (bit < 0) return {false, fmt::format("unknown interrupt {}", intr)};
    if (std::none_of(intrs_.begin(), intrs_.end(), [&](const IntrBit& i) { return i.name == intr; })) {
      return {false, fmt::format("{} comes from a unit this RTL build does not contain", intr)};
    }
    const uint64_t until = sim_.cycle() + timeout_cycles;
    while (((glb_status_bits_ >> bit) & 1u) == 0) {
      if (sim_.cycle() >= until) {
        return {false, fmt::format("{} not raised within {} cycles (cycle {})", intr, timeout_cycles, sim_.cycle())};
      }
      cycle([] { return false; });
    }
    return {true, ""};
  }

  [[nodiscard]] uint64_t cycles() const override { return sim_.cycle(); }
  void finish() override { sim_.finish(); }

 private:
  // One clock cycle with the DMA server running; `sample` reads outputs after the evaluation
  // and says whether the caller's handshake completed.
  template <class Sample>
  bool cycle(Sample&& sample) {
    Model& m = sim_.top();
    dma_.drive(m, sim_.cycle());
    sim_.settle();
    const bool done = sample();
    if (dma_.commit(m, sim_.cycle()) || done) sim_.progress();
    const uint64_t intr = m.intr_o;
    sim_.tick();
    for (const IntrBit& i : intrs_) {
      if ((intr >> i.bit) & 1u) {
        const int bit = interrupt_bit(i.name);
        if (bit >= 0) glb_status_bits_ |= 1u << bit;
        sim_.progress();
      }
    }
    return done;
  }

  // GLB interrupt registers are modelled here (the unit raises intr_o pulses).
  bool glb_write(uint32_t addr, uint32_t value) {
    if (addr == glb_status_) {
      glb_status_bits_ &= ~value;  // write 1 to clear
      return true;
    }
    if (addr == glb_mask_) {
      glb_mask_bits_ = value;
      return true;
    }
    if (addr == glb_set_) {
      glb_status_bits_ |= value;
      return true;
    }
    const RegBlock* glb = RegDb::nvdla().block("GLB");
    const uint32_t base = cfg_.name == "nv_full" ? glb->base_full.value_or(0) : glb->base_small;
    return addr >= base && addr < base + 0x1000;  // other GLB registers: ignored
  }

  const golden::HwConfig& cfg_;
  std::vector<IntrBit> intrs_;
  Memory mem_;
  Sim<Model> sim_;
  DmaServer<Model> dma_;
  uint32_t glb_status_ = 0, glb_mask_ = 0, glb_set_ = 0;
  uint32_t glb_status_bits_ = 0, glb_mask_bits_ = 0;
};

}  // namespace dla::harness
