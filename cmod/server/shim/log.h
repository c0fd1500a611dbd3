// Found before NVIDIA's include/log.h (an -I path ahead of the model's -isystem ones): takes their
// macros, then makes the two debug ones test the verbosity first. SystemC 2.3.4's
// SC_REPORT_INFO_VERB calls sc_report_handler::report unconditionally, which looks the message
// type up by string compares before it drops a message above the verbosity; with the model's
// cslDebug in every MAC channel step that lookup (and the two snprintf and strrchr before it) was
// most of a convolution's time on the model. Messages the verbosity lets through are the same.
#ifndef DLA_CMOD_LOG_SHIM_H
#define DLA_CMOD_LOG_SHIM_H
#include_next <log.h>

#undef cslDebugInternal
#define cslDebugInternal(lvl, ...)                                                    \
  do {                                                                                \
    if (::sc_core::sc_report_handler::get_verbosity_level() >= ::sc_core::SC_DEBUG) { \
      char dla_msg[MSG_BUF_SIZE];                                                     \
      const int dla_at = snprintf(dla_msg, MSG_BUF_SIZE, "%d:", __LINE__);            \
      snprintf(dla_msg + dla_at, MSG_BUF_SIZE - dla_at, __VA_ARGS__);                 \
      SC_REPORT_INFO_VERB(__FILENAME__, dla_msg, ::sc_core::SC_DEBUG);                \
    }                                                                                 \
  } while (0)

#undef cslInfoInternal
#define cslInfoInternal(...)                                                         \
  do {                                                                               \
    if (::sc_core::sc_report_handler::get_verbosity_level() >= ::sc_core::SC_FULL) { \
      char dla_msg[MSG_BUF_SIZE];                                                    \
      const int dla_at = snprintf(dla_msg, MSG_BUF_SIZE, "%d:", __LINE__);           \
      snprintf(dla_msg + dla_at, MSG_BUF_SIZE - dla_at, __VA_ARGS__);                \
      SC_REPORT_INFO_VERB(__FILENAME__, dla_msg, ::sc_core::SC_FULL);                \
    }                                                                                \
  } while (0)
#endif
