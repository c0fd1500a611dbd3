// The golden model as a Device: NVDLA register files with group (ping-pong) semantics, the GLB
// interrupt registers, a sparse memory, and a table of golden units that run when their
// register groups are armed (docs/SDP.md, "What triggers execution").
//
// Register semantics (../shared/reference/conv-pipeline.md §1):
//   * every block of the configuration's register map has a register file; registers start at
//     their reset values; only defined, writable field bits are stored; writes to read-only
//     registers, to undefined offsets and to unknown blocks are ignored (reads give 0 there);
//   * D_ registers exist once per group; CSB accesses go to the group S_POINTER.PRODUCER selects;
//     writes to a group whose OP_EN is set are dropped (the RTL does this);
//   * S_POINTER.CONSUMER is the group the unit executes next; S_STATUS is computed (0 idle,
//     1 running = armed and consumer, 2 pending = armed, not consumer);
//   * GLB S_INTR_STATUS is write-1-to-clear, S_INTR_SET sets bits, S_INTR_MASK only gates the
//     interrupt line (status bits are set regardless);
//   * S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA of SDP and CDP program the LUT tables (golden::LutRam).
// When a unit's layer completes, OP_EN of the groups it consumed clears, their CONSUMER pointers
// toggle and the unit's GLB done bit for the core block's group is set (plus the unit's
// also_raises bits).
// Time: the golden device computes a layer when it is launched (memory is written at once), but
// what software can observe of its progress — done bits in S_INTR_STATUS, OP_EN clearing,
// CONSUMER toggling, S_STATUS — happens only when the program waits for an interrupt: each
// launch queues its done events in pipeline order (CDMA_DAT, CDMA_WT, CACC, SDP, others), the
// last one releasing the consumed groups, and a wait releases events up to the one it waits for
// (wait_any: up to the first unmasked one). So a read right after D_OP_ENABLE sees the layer
// running, and a clear of every status bit after the first of a conv layer's four interrupts
// leaves the next three to come, as on the hardware (docs/TRACES.md, "Time on the golden device").
// What is an engine's own stays in its folder (harness/engine.hpp `golden_hooks`): registers that
// are more than storage (BDMA's command FIFO, SDP's and CDP's LUT access), state kept across
// layers (CBUF's contents, the LUT RAMs: `state<T>(key)`), and what passing time does (CBUF's flush
// after reset: CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE reads 0 until the program lets time pass, a
// poll's second read or any wait; docs/CONV.md "CBUF flush"). This file names no engine.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "harness/device.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

// One layer a golden unit ran: what it wrote, for reports and for element-level compares.
struct GoldenLayer {
  std::string unit;        // interrupt unit name, e.g. "SDP"
  int group = 0;           // core block group that ran
  std::string summary;     // one line: shape, precisions, active stages
  bool wrote_memory = false;
  golden::FeatureLayout out_layout{};
  golden::CubeShape out_shape{};      // including padded lanes of the last atom
  golden::Cube<int64_t> output{};     // the values written (element order of out_shape)
  [[nodiscard]] uint64_t out_bytes() const { return out_layout.region_bytes(out_shape); }
};

class GoldenDevice : public Device {
 public:
  explicit GoldenDevice(const golden::HwConfig& config);
  ~GoldenDevice() override;

  [[nodiscard]] std::string_view kind() const override { return "golden"; }
  [[nodiscard]] const std::string& config() const override { return config_->name; }
  void reg_write(uint32_t byte_addr, uint32_t value) override;
  [[nodiscard]] uint32_t reg_read(uint32_t byte_addr) override;
  [[nodiscard]] bool interrupt_pending(std::string_view intr) override;
  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) override;
  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t timeout_cycles) override;
  void let_time_pass() override { pass_time(); }
  [[nodiscard]] Memory& memory() override { return memory_; }

  [[nodiscard]] const golden::HwConfig& hw() const { return *config_; }
  // Register value without side effects: D_ registers of `group`, S_ registers (group ignored).
  // Block-relative byte offset. Throws std::out_of_range for an unknown block.
  [[nodiscard]] uint32_t peek(std::string_view block, uint32_t offset, int group) const;
  // Sets a register the hardware updates (status, counters), read-only ones included.
  void set_hw_register(std::string_view block, uint32_t offset, int group, uint32_t value);
  [[nodiscard]] int consumer(std::string_view block) const;
  [[nodiscard]] bool armed(std::string_view block, int group) const;
  // Whether this configuration's register map has the block.
  [[nodiscard]] bool has_block(std::string_view block) const { return blocks_.find(block) != blocks_.end(); }

  // State an engine keeps in the device between layers: one T per key, value-initialized on first
  // use (find_state: null until then).
  template <class T>
  T& state(std::string_view key = {}) {
    auto& slot = states_[{std::type_index(typeid(T)), std::string(key)}];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }
  template <class T>
  [[nodiscard]] const T* find_state(std::string_view key = {}) const {
    const auto it = states_.find({std::type_index(typeid(T)), std::string(key)});
    return it == states_.end() ? nullptr : static_cast<const T*>(it->second.get());
  }

  // Queues a done event of an engine without register groups (BDMA): a wait releases it in order,
  // setting the interrupt `intr`'s status bit and then calling `on_release`.
  void queue_done(std::string_view intr, std::function<void(GoldenDevice&)> on_release);

  // Every layer run so far, oldest first.
  [[nodiscard]] const std::vector<GoldenLayer>& layers() const { return layers_; }
  void record_layer(GoldenLayer layer) { layers_.push_back(std::move(layer)); }

  // The dispatch table: one entry per golden unit. New units (CDP, PDP, conv) add an entry.
  struct Unit {
    std::string intr_unit;   // GLB interrupt unit name ("SDP")
    std::string core_block;  // block whose armed group the layer is ("SDP")
    // Empty when the layer armed in core group `g` can run now, else why it cannot (yet).
    std::function<std::string(const GoldenDevice&, int g)> blocked;
    // Other blocks whose consumer group the layer consumes (OP_EN cleared, pointer toggled).
    std::function<std::vector<std::string>(const GoldenDevice&, int g)> partners;
    // Runs the layer (memory, hardware registers, record_layer). Throws on a configuration the
    // model cannot run; the device then reports the message instead of raising the interrupt.
    std::function<void(GoldenDevice&, int g)> run;
    // Further done interrupts the layer raises, as {interrupt unit, block}: the interrupt's group
    // is the block's consumer group when the layer starts (the convolution pipeline raises SDP,
    // CDMA_DAT and CDMA_WT besides CACC). A refused layer reports its reason on these too.
    std::vector<std::pair<std::string, std::string>> also_raises{};
    // Done interrupts that depend on the layer's registers, same form as also_raises (SDP and the
    // convolution pipeline raise PDP's when SDP's output goes on the fly to PDP). May be empty.
    std::function<std::vector<std::pair<std::string, std::string>>(const GoldenDevice&, int g)> raises_if{};
  };
  [[nodiscard]] static const std::vector<Unit>& units();

  // An engine's device behaviour beyond its units (harness/engine.hpp `golden_hooks`).
  struct Hooks {
    // Blocks whose defined registers `write` and `read` see before the register file does.
    std::vector<std::string> blocks{};
    // A write to register `r` of `block`: true when the hook took it (the register file stores
    // nothing then).
    std::function<bool(GoldenDevice&, std::string_view block, const RegDef& r, uint32_t value)> write{};
    // A read of register `r` of `block`: its value, or nullopt for the register file's.
    std::function<std::optional<uint32_t>(GoldenDevice&, std::string_view block, const RegDef& r)> read{};
    // At construction (the device's reset).
    std::function<void(GoldenDevice&)> reset{};
    // Time passes (a poll's next read, any wait): true when that may let an armed layer start.
    std::function<bool(GoldenDevice&)> time_passes{};
    // Why `intr` (an interrupt of the engine, e.g. BDMA_1) does not come; nullopt: not the
    // engine's interrupt, the device says why.
    std::function<std::optional<std::string>(const GoldenDevice&, std::string_view intr)> never_comes{};
  };
  [[nodiscard]] static const std::vector<Hooks>& hooks();

 private:
  struct BlockRegs;
  BlockRegs* block_at(uint32_t byte_addr, uint32_t& offset);
  BlockRegs& block_named(std::string_view name);
  [[nodiscard]] const BlockRegs& block_named(std::string_view name) const;
  void try_launch();
  // Time has passed: the engines' hooks run (CBUF's flush ends), a held layer may start.
  void pass_time();
  // Releases the oldest queued done event; false when none is queued.
  bool release_next_done();

  struct DoneEvent {
    int bit = -1;                             // GLB S_INTR_STATUS bit set by the event
    std::vector<std::string> release_blocks;  // blocks whose consumer group the event releases
    std::function<void(GoldenDevice&)> on_release{};  // an engine's own completion (queue_done)
  };
  std::deque<DoneEvent> done_queue_;

  const golden::HwConfig* config_;
  Memory memory_;
  std::map<std::string, std::unique_ptr<BlockRegs>, std::less<>> blocks_;
  std::map<uint32_t, BlockRegs*> by_base_;
  uint32_t intr_status_ = 0;
  uint32_t intr_mask_ = 0;
  std::map<std::string, std::string, std::less<>> unit_errors_;  // intr unit -> why its layer failed
  std::vector<GoldenLayer> layers_;
  std::map<std::pair<std::type_index, std::string>, std::shared_ptr<void>> states_;
};

// The record of a layer that wrote `output` (every lane, including padded ones) to memory: for the
// engines' units (Unit::run).
void record_memory_layer(GoldenDevice& d, const char* unit, int g, std::string summary,
                         const golden::FeatureLayout& layout, const golden::Cube<int64_t>& output);

}  // namespace dla::harness
