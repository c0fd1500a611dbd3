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
// CBUF's flush after reset is the same kind of event: CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE reads 0
// until the program lets time pass (a poll's second read, any wait), and the convolution pipeline
// does not start before it (docs/CONV.md "CBUF flush").
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engines/bdma/golden/bdma.hpp"
#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/cube.hpp"
#include "golden/layout.hpp"
#include "engines/lut/golden/lut.hpp"
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
  void let_time_pass() override { finish_cbuf_flush(); }
  [[nodiscard]] Memory& memory() override { return memory_; }
  // CBUF is still being cleared after reset (FLUSH_DONE = 0): the convolution pipeline waits.
  [[nodiscard]] bool cbuf_flushing() const { return cbuf_flushing_; }

  [[nodiscard]] const golden::HwConfig& hw() const { return *config_; }
  // Register value without side effects: D_ registers of `group`, S_ registers (group ignored).
  // Block-relative byte offset. Throws std::out_of_range for an unknown block.
  [[nodiscard]] uint32_t peek(std::string_view block, uint32_t offset, int group) const;
  // Sets a register the hardware updates (status, counters), read-only ones included.
  void set_hw_register(std::string_view block, uint32_t offset, int group, uint32_t value);
  [[nodiscard]] int consumer(std::string_view block) const;
  [[nodiscard]] bool armed(std::string_view block, int group) const;
  [[nodiscard]] golden::LutRam& lut_ram(std::string_view block);

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

  // BDMA (nv_full): no register groups, no OP_EN; its register block and command FIFO
  // (golden/bdma.hpp). A CFG_LAUNCH<g> runs the batch's copies at once and queues its done event;
  // GRP<g>_BUSY clears when that event is released. Null where the configuration has no BDMA.
  [[nodiscard]] const golden::BdmaEngine* bdma() const { return bdma_.get(); }

  // What CBUF holds between convolution layers (D_MISC_CFG reuse / skip-release flags): the
  // convolution unit takes and leaves it (golden::run_conv).
  [[nodiscard]] golden::ConvCbufState& conv_cbuf() { return conv_cbuf_; }

 private:
  struct BlockRegs;
  BlockRegs* block_at(uint32_t byte_addr, uint32_t& offset);
  BlockRegs& block_named(std::string_view name);
  [[nodiscard]] const BlockRegs& block_named(std::string_view name) const;
  void try_launch();
  // Time has passed: CBUF's flush after reset is done (FLUSH_DONE = 1), a held convolution starts.
  void finish_cbuf_flush();
  // Releases the oldest queued done event; false when none is queued.
  bool release_next_done();

  struct DoneEvent {
    int bit = -1;                             // GLB S_INTR_STATUS bit set by the event
    std::vector<std::string> release_blocks;  // blocks whose consumer group the event releases
    int bdma_group = -1;                      // BDMA group whose batch the event completes
  };
  void bdma_write(uint32_t offset, uint32_t value);
  std::deque<DoneEvent> done_queue_;

  const golden::HwConfig* config_;
  Memory memory_;
  std::map<std::string, std::unique_ptr<BlockRegs>, std::less<>> blocks_;
  std::map<uint32_t, BlockRegs*> by_base_;
  uint32_t intr_status_ = 0;
  uint32_t intr_mask_ = 0;
  std::map<std::string, std::string, std::less<>> unit_errors_;  // intr unit -> why its layer failed
  std::vector<GoldenLayer> layers_;
  std::unique_ptr<golden::BdmaEngine> bdma_;
  golden::ConvCbufState conv_cbuf_;
  bool cbuf_flushing_ = false;
};

// The record of a layer that wrote `output` (every lane, including padded ones) to memory: for the
// engines' units (Unit::run).
void record_memory_layer(GoldenDevice& d, const char* unit, int g, std::string summary,
                         const golden::FeatureLayout& layout, const golden::Cube<int64_t>& output);

}  // namespace dla::harness
