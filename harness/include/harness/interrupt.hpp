// SIGINT / SIGTERM as a request to stop (docs/CLI.md "Interrupting a run"): commands that can
// stop cleanly (`run`, `regress`, `random`) turn it on; the simulation loop (Sim::tick) then throws
// SimInterrupted at its next cycle, so a run in flight is abandoned with its waves closed and
// committed, and the command writes what finished. A second signal ends the process at once (the
// default action). Without graceful stopping turned on, a signal acts as it always does.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace dla::harness {

// Thrown by Sim::tick when a stop was requested. Deliberately not a std::exception: the
// `catch (const std::exception&)` of devices and runners (which turn failures into statuses) must
// let it through to the command, which leaves the abandoned run out of its results.
struct SimInterrupted {
  std::string unit;
  uint64_t cycle = 0;
};

namespace interrupt_detail {
inline std::atomic<int> g_signal{0};  // the signal that requested the stop, 0: none
}

// Installs the SIGINT / SIGTERM handlers for graceful stopping (harness/src/interrupt.cpp).
void enable_graceful_stop();
// The signal that requested a stop (SIGINT, SIGTERM), 0 if none.
[[nodiscard]] inline int stop_signal() { return interrupt_detail::g_signal.load(std::memory_order_relaxed); }
[[nodiscard]] inline bool stop_requested() { return stop_signal() != 0; }
// "SIGINT" / "SIGTERM"
[[nodiscard]] std::string stop_signal_name();

}  // namespace dla::harness
