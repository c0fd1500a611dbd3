#include "harness/interrupt.hpp"

#include <csignal>

namespace dla::harness {

namespace {

extern "C" void on_stop_signal(int sig) {
  int expected = 0;
  if (!interrupt_detail::g_signal.compare_exchange_strong(expected, sig)) {
    // The second signal: the default action (the process ends by the signal at once).
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

}  // namespace

void enable_graceful_stop() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

std::string stop_signal_name() {
  switch (stop_signal()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case 0: return "";
    default: return "signal " + std::to_string(stop_signal());
  }
}

}  // namespace dla::harness
