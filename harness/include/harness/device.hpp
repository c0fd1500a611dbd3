// A device the register program runs on: a CSB register space, the GLB interrupts and a memory.
// The golden model (GoldenDevice), the verilated RTL tops (RtlDevice, rtl_device.hpp) and NVIDIA's
// C model (CmodDevice, cmod_device.hpp) implement it; the program runner (program_runner.hpp) only
// ever talks to this interface, so a program replays identically on each.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/mem_model.hpp"
#include "harness/memory.hpp"

namespace dla::harness {

struct WaitResult {
  bool raised = false;
  std::string detail;  // when not raised: why (nothing armed, unit without a model, timeout, ...)
};

class Device {
 public:
  virtual ~Device() = default;

  // "golden" or "rtl"; shown in reports.
  [[nodiscard]] virtual std::string_view kind() const = 0;
  // Configuration name (nv_small, nv_full): decides the CSB block bases and the memory atom.
  [[nodiscard]] virtual const std::string& config() const = 0;

  // CSB access by byte address in this configuration's register space.
  virtual void reg_write(uint32_t byte_addr, uint32_t value) = 0;
  [[nodiscard]] virtual uint32_t reg_read(uint32_t byte_addr) = 0;

  // Interrupts by name, "<UNIT>_<GROUP>" as in GLB S_INTR_STATUS (SDP_0, CDP_1, CACC_0, ...).
  // pending: the status bit is set now (masked sources set their status bit too).
  [[nodiscard]] virtual bool interrupt_pending(std::string_view intr) = 0;
  // Runs the device until the status bit is set or `timeout_cycles` pass without it (the golden
  // device is synchronous: everything that can happen has happened, so it answers at once).
  // Does not clear the bit; the caller does that by writing it to GLB S_INTR_STATUS (W1C).
  [[nodiscard]] virtual WaitResult wait_interrupt(std::string_view intr, uint64_t timeout_cycles) = 0;
  // Runs the device until the interrupt line is high (some status bit not masked), as NVDLA v1's
  // trace player's `wait` does; clears nothing.
  [[nodiscard]] virtual WaitResult wait_any_interrupt(uint64_t timeout_cycles) = 0;

  // Between two reads of a poll: time passes. The RTL and the C model run while a CSB read
  // travels; the golden device, which has no clock, finishes what only time finishes (CBUF's flush
  // after reset, docs/CONV.md "CBUF flush").
  virtual void let_time_pass() {}

  [[nodiscard]] virtual Memory& memory() = 0;

  // Clock cycles simulated so far (0 for the golden model).
  [[nodiscard]] virtual uint64_t cycles() const { return 0; }
  // What the DMA ports moved so far, for a device with a DMA server (none for the golden model).
  [[nodiscard]] virtual std::optional<DmaTraffic> dma_traffic() const { return std::nullopt; }
  // End of the run: publish waveforms and the like.
  virtual void finish() {}
};

// A poll: reads `addr` until its bits under `mask` equal `want` (differ from it with
// `until_differs`), letting time pass between reads, at most `reads` reads. `value` is the last
// masked read.
struct PollResult {
  bool held = false;
  uint32_t value = 0;
};
inline PollResult poll_register(Device& d, uint32_t addr, uint32_t mask, uint32_t want, uint32_t reads,
                                bool until_differs = false) {
  PollResult r;
  for (uint32_t n = 0; n < reads && !r.held; ++n) {
    if (n != 0) d.let_time_pass();
    r.value = d.reg_read(addr) & mask;
    r.held = (r.value == (want & mask)) != until_differs;
  }
  return r;
}

// GLB S_INTR_STATUS bit of an interrupt name, or -1 for an unknown name.
[[nodiscard]] int interrupt_bit(std::string_view intr);

}  // namespace dla::harness
