// nvdla_core (Vnvdla_core_*: the convolution pipeline, SDP, PDP, GLB) and a second top as one RTL
// device over ONE memory, for register programs that enable blocks of both: nvdla_rubik_top
// (Vrubik_nv_full: RUBIK, GLB) for deconvolution (docs/DECONV.md "RTL"), nvdla_cdp_top (Vcdp_*:
// CDP, CDP_RDMA, GLB) for networks mixing convolutions and LRN, nvdla_bdma_top (Vbdma_nv_full:
// BDMA, GLB) for networks with copies (docs/NETWORKS.md). No RTL of its own. "The second top"
// below is RUBIK's, CDP's or BDMA's.
//   * Both models are clocked every cycle, each with its DMA server on the shared memory (latency,
//     back-pressure and rand-reset from the run's options and seed, as every RTL device).
//   * CSB by block address: the second top's blocks to it, GLB to both, everything else to
//     nvdla_core.
//   * One GLB as NVDLA has it: both tops hold a full nvdla_glb, each setting only its own units'
//     done bits. A GLB write reaches both in the same cycle (the mask stays equal; an S_INTR_SET
//     or W1C S_INTR_STATUS write acts on both), a GLB read reads both in the same cycle and
//     returns the OR, and the interrupt line is the OR of the two intr_o. Since each
//     intr_o = |(status & ~mask) with the same mask, that is exactly |((status_a | status_b) & ~mask)
//     of a single GLB holding both units' done bits.
//   * --mem-bandwidth B: each port has its own token bucket of B bytes per cycle (DmaServer), so
//     the total stays within B x cycles + one bucket while the two units move data at different
//     times, as a deconvolution does (RUBIK starts after the convolutions' interrupts). A program
//     whose units move data together past that bound is stopped with an error naming the option,
//     never reported with a rate the memory could not give.
//   * The watchdog counts progress of either model; waves (--wave F) go to F for nvdla_core and to
//     F with ".rubik" / ".cdp" before its extension for the second top.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vbdma_nv_full.h"
#include "Vrubik_nv_full.h"
#include "dla_rtl_models.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_device.hpp"
#include "tops/rtl_devices.hpp"
#include "tops/nvdla_core_watch.hpp"

namespace dla::harness {

namespace {

// One verilated top with its DMA server on the shared memory.
template <class Model>
struct Lane {
  Lane(Memory& mem, const RtlDeviceOptions& o, std::string name, unsigned atom)
      : sim(watched(o, std::max(atom, DmaServer<Model>::kRspBytes)), std::move(name)), dma(mem, atom, o) {
    Model& m = sim.top();
    m.csb_req_valid_i = 0;
    if constexpr (requires { m.fly_valid_i; }) m.fly_valid_i = 0;
    sim.reset();
  }
  Sim<Model> sim;
  DmaServer<Model> dma;
  bool req = false;  // CSB request driven this transaction, not yet taken
  bool wait = false;  // read taken, response not yet seen
};

// What differs between the second tops.
struct SecondTop {
  std::string name;                  // "nvdla_rubik_top"
  std::string wave_suffix;           // ".rubik"
  std::vector<std::string> blocks;   // its register blocks besides GLB
  std::string intr_unit;             // its done interrupts' unit
  std::function<void(uint32_t, uint32_t)> guard;
  // Told of every wait that returned raised (BDMA's guard keeps the golden device's busy groups).
  std::function<void(std::string_view)> waited = [](std::string_view) {};
  std::function<void()> waited_any = [] {};
};

template <class Core, class Second>
class CoreWithDevice : public Device {
 public:
  CoreWithDevice(const golden::HwConfig& cfg, const RtlDeviceOptions& o, bool runs_sdp, SecondTop second)
      : cfg_(cfg), atom_(static_cast<unsigned>(cfg.atom_bytes)), mem_opt_(o.mem),
        core_(mem_, o, fmt::format("nvdla_core ({})", cfg.name), atom_),
        rbk_(mem_, rubik_options(o, second.wave_suffix), fmt::format("{} ({})", second.name, cfg.name), atom_),
        core_guard_(make_nvdla_core_guard(cfg, runs_sdp)), rbk_guard_(std::move(second.guard)),
        waited_(std::move(second.waited)), waited_any_(std::move(second.waited_any)) {
    const RegDb& db = RegDb::nvdla();
    glb_status_ = *db.address(cfg.name, *db.find("GLB.S_INTR_STATUS"));
    glb_mask_ = *db.address(cfg.name, *db.find("GLB.S_INTR_MASK"));
    glb_base_ = glb_status_ & ~0xfffu;
    for (const auto& b : second.blocks) {
      rbk_bases_.push_back(*db.block_base(cfg.name, *db.block(b)) & ~0xfffu);
    }
    second_name_ = second.name;
    intr_units_ = nvdla_core_intr_units();
    intr_units_.push_back(second.intr_unit);
  }

  [[nodiscard]] std::string_view kind() const override { return "rtl"; }
  [[nodiscard]] const std::string& config() const override { return cfg_.name; }
  [[nodiscard]] Memory& memory() override { return mem_; }

  void reg_write(uint32_t addr, uint32_t value) override {
    core_guard_(addr, value);
    rbk_guard_(addr, value);
    (void)csb(addr, true, value, true);
  }
  [[nodiscard]] uint32_t reg_read(uint32_t addr) override { return csb(addr, false, 0, true); }

  [[nodiscard]] bool interrupt_pending(std::string_view intr) override {
    const int bit = interrupt_bit(intr);
    return bit >= 0 && ((csb(glb_status_, false, 0, false) >> bit) & 1u) != 0;
  }

  // As RtlDevice::wait_interrupt, on the combined GLB: wait for the ORed line when the source is
  // not masked, poll the ORed S_INTR_STATUS otherwise (polls are not progress).
  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) override {
    WaitResult w = wait_for(intr, timeout_cycles);
    if (w.raised) waited_(intr);
    return w;
  }

  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t timeout_cycles) override {
    const uint64_t until = cycles() + timeout_cycles;
    if (wait_line(until)) {
      waited_any_();
      return {true, ""};
    }
    return {false, fmt::format("the interrupt line stayed low for {} cycles (cycle {})", timeout_cycles, cycles())};
  }

  [[nodiscard]] uint64_t cycles() const override { return core_.sim.cycle(); }
  [[nodiscard]] std::optional<DmaTraffic> dma_traffic() const override { return total(); }
  void finish() override {
    core_.sim.finish();
    rbk_.sim.finish();
  }

 private:
  WaitResult wait_for(std::string_view intr, uint64_t timeout_cycles) {
    const int bit = interrupt_bit(intr);
    if (bit < 0) return {false, fmt::format("unknown interrupt {}", intr)};
    const uint32_t want = 1u << bit;
    const uint64_t until = cycles() + timeout_cycles;
    const bool masked = (csb(glb_mask_, false, 0, false) & want) != 0;
    for (bool first = true;; first = false) {
      if ((csb(glb_status_, false, 0, false) & want) != 0) return {true, ""};
      const std::string_view unit = intr.substr(0, intr.rfind('_'));
      if (first && std::find(intr_units_.begin(), intr_units_.end(), unit) == intr_units_.end()) {
        return {false, fmt::format("{} comes from a unit this RTL build does not contain", intr)};
      }
      if (cycles() >= until) {
        return {false, fmt::format("{} not raised within {} cycles (cycle {})", intr, timeout_cycles, cycles())};
      }
      if (!masked) (void)wait_line(until);
    }
  }

  static RtlDeviceOptions rubik_options(RtlDeviceOptions o, const std::string& suffix) {
    o.sim.heartbeat = nullptr;  // one heartbeat per run: nvdla_core's
    if (!o.sim.wave.empty()) {
      const std::filesystem::path w = o.sim.wave;
      o.sim.wave = w.parent_path() / (w.stem().string() + suffix + w.extension().string());
    }
    return o;
  }

  [[nodiscard]] DmaTraffic total() const {
    const DmaTraffic a = core_.dma.traffic();
    const DmaTraffic b = rbk_.dma.traffic();
    return {mem_opt_, a.bytes_read + b.bytes_read, a.bytes_written + b.bytes_written};
  }

  // One clock of both models; `sample` reads outputs after the evaluation and says whether the
  // caller's handshake completed (progress).
  template <class Sample>
  bool cycle(Sample&& sample) {
    auto& cm = core_.sim.top();
    auto& rm = rbk_.sim.top();
    const uint64_t c = cycles();
    core_.dma.drive(cm, c);
    rbk_.dma.drive(rm, c);
    core_.sim.settle();
    rbk_.sim.settle();
    const bool done = sample();
    const char* moved_core = core_.dma.commit(cm, c);
    const char* moved_rbk = rbk_.dma.commit(rm, c);
    const char* what = moved_core != nullptr ? moved_core
                       : moved_rbk != nullptr ? moved_rbk
                       : done                 ? "CSB"
                       : WatchProbe<Core>::moved(cm);
    if (what == nullptr) what = WatchProbe<Second>::moved(rm);
    if (what != nullptr) {
      core_.sim.progress(what);
      rbk_.sim.progress(what);
    }
    if (!mem_opt_.unlimited()) check_bandwidth(c + 1);
    core_.sim.tick();
    rbk_.sim.tick();
    return done;
  }

  void check_bandwidth(uint64_t cycles_run) const {
    const DmaTraffic t = total();
    const double bytes = static_cast<double>(t.bytes_read + t.bytes_written);
    const double bound = mem_opt_.bandwidth * static_cast<double>(cycles_run) + std::max(mem_opt_.bandwidth, 32.0);
    if (bytes > bound) {
      throw InputError("--mem-bandwidth", fmt::format("{:g}", mem_opt_.bandwidth),
                       fmt::format("nvdla_core and {} moved data together: {} bytes in {} cycles exceed the limit "
                                   "(this device gives each port its own bandwidth; docs/DECONV.md \"RTL\")",
                                   second_name_, t.bytes_read + t.bytes_written, cycles_run));
    }
  }

  // A CSB access routed by block: the second top's blocks to it, GLB to both (same cycle; read
  // data ORed), the rest to nvdla_core. `progress`: whether its handshakes count as progress.
  uint32_t csb(uint32_t addr, bool write, uint32_t value, bool progress) {
    const uint32_t block = addr & ~0xfffu;
    const bool second = std::find(rbk_bases_.begin(), rbk_bases_.end(), block) != rbk_bases_.end();
    const bool to_rbk = second || block == glb_base_;
    const bool to_core = !second;
    auto& cm = core_.sim.top();
    auto& rm = rbk_.sim.top();
    auto drive = [&](auto& m, bool on) {
      m.csb_req_valid_i = on ? 1 : 0;
      m.csb_req_write_i = write ? 1 : 0;
      m.csb_req_addr_i = addr;
      m.csb_req_wdata_i = value;
    };
    core_.req = to_core;
    rbk_.req = to_rbk;
    core_.wait = rbk_.wait = false;
    drive(cm, core_.req);
    drive(rm, rbk_.req);
    uint32_t data = 0;
    while (core_.req || rbk_.req || core_.wait || rbk_.wait) {
      bool took_core = false, took_rbk = false;
      cycle([&] {
        bool any = false;
        auto step = [&](auto& lane, auto& m, bool& took) {
          if (lane.wait && m.csb_rsp_valid_o != 0) {
            data |= m.csb_rsp_rdata_o;
            lane.wait = false;
            any = true;
          }
          if (lane.req && m.csb_req_ready_o != 0) {
            took = true;
            any = true;
          }
        };
        step(core_, cm, took_core);
        step(rbk_, rm, took_rbk);
        return any && progress;
      });
      // A request taken this cycle is dropped before the next; a read's response comes later.
      if (took_core) {
        core_.req = false;
        core_.wait = !write;
        cm.csb_req_valid_i = 0;
      }
      if (took_rbk) {
        rbk_.req = false;
        rbk_.wait = !write;
        rm.csb_req_valid_i = 0;
      }
    }
    return data;
  }

  // Runs until the ORed interrupt line is high or `until`; true if it went high.
  bool wait_line(uint64_t until) {
    while (cycles() < until) {
      bool high = false;
      cycle([&] {
        high = core_.sim.top().intr_o != 0 || rbk_.sim.top().intr_o != 0;
        return false;
      });
      if (high) return true;
    }
    return false;
  }

  const golden::HwConfig& cfg_;
  const unsigned atom_;
  MemOptions mem_opt_;
  Memory mem_;  // before the lanes: their DMA servers hold a reference
  Lane<Core> core_;
  Lane<Second> rbk_;  // the second top (RUBIK's or CDP's)
  std::function<void(uint32_t, uint32_t)> core_guard_, rbk_guard_;
  std::function<void(std::string_view)> waited_;
  std::function<void()> waited_any_;
  std::vector<std::string> intr_units_;
  std::string second_name_;
  uint32_t glb_status_ = 0, glb_mask_ = 0, glb_base_ = 0;
  std::vector<uint32_t> rbk_bases_;
};

RtlDeviceOptions device_options(const RunOptions& opt) {
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  return o;
}

bool runs_sdp(const std::vector<std::string>& blocks) {
  return std::any_of(blocks.begin(), blocks.end(), [](const std::string& b) { return b == "SDP" || b == "SDP_RDMA"; });
}

}  // namespace

std::unique_ptr<Device> make_core_rubik_rtl_device(const std::vector<std::string>& blocks,
                                                   const golden::HwConfig& cfg, const RunOptions& opt) {
  if (cfg.name != "nv_full") {
    throw InputError("--config", "", fmt::format("{} has no RUBIK (nv_full only, as in NVDLA)", cfg.name));
  }
  if (cfg.atom_bytes != 32) {
    throw InputError("--config", "", fmt::format("{}: the RUBIK RTL moves 32-byte atoms, this configuration {}",
                                                 cfg.name, cfg.atom_bytes));
  }
  return std::make_unique<CoreWithDevice<rtl_models::nv_full::nvdla_core, Vrubik_nv_full>>(
      cfg, device_options(opt), runs_sdp(blocks),
      SecondTop{"nvdla_rubik_top", ".rubik", {"RBK"}, "RUBIK", make_rubik_guard(cfg)});
}

std::unique_ptr<Device> make_core_bdma_rtl_device(const std::vector<std::string>& blocks,
                                                  const golden::HwConfig& cfg, const RunOptions& opt) {
  if (cfg.name != "nv_full") {
    throw InputError("--config", "", fmt::format("{} has no BDMA (nv_full only, as in NVDLA)", cfg.name));
  }
  BdmaGuardHooks g = make_bdma_guard(cfg);
  SecondTop bdma{"nvdla_bdma_top", ".bdma", {"BDMA"}, "BDMA", std::move(g.write), std::move(g.waited),
                 std::move(g.waited_any)};
  return std::make_unique<CoreWithDevice<rtl_models::nv_full::nvdla_core, Vbdma_nv_full>>(cfg, device_options(opt),
                                                                             runs_sdp(blocks), std::move(bdma));
}

std::unique_ptr<Device> make_core_cdp_rtl_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                                 const RunOptions& opt) {
  SecondTop cdp{"nvdla_cdp_top", ".cdp", {"CDP", "CDP_RDMA"}, "CDP", make_cdp_guard(cfg)};
#define DLA_PICK(C)                                                                                      \
  if (cfg.name == #C) {                                                                                  \
    return std::make_unique<CoreWithDevice<rtl_models::C::nvdla_core, rtl_models::C::cdp>>(             \
        cfg, device_options(opt), runs_sdp(blocks), std::move(cdp));                                     \
  }
  DLA_RTL_CONFIGS(DLA_PICK)
#undef DLA_PICK
  throw InputError("--config", "", fmt::format("no nvdla_core + nvdla_cdp_top build for {}", cfg.name));
}

}  // namespace dla::harness
