// dlacosim-cmod-<build>: NVIDIA's NVDLA C model (SystemC, built from an nvdla/hw checkout by
// cmod/CMakeLists.txt) behind dlacosim's pipe protocol (harness/include/harness/cmod_protocol.hpp).
//
// One process is one device: dlacosim (harness/src/cmod_device.cpp) starts it, sends requests on
// stdin and reads replies on stdout. The model's CSB port takes register accesses; one sparse
// memory serves both of its memory ports (DBB and CV-SRAM: dlacosim has one address space); the
// pages the model writes go back with every reply. A process of its own because SystemC elaborates
// once per process, and because the model ends the process on a failed assertion: dlacosim then
// reports the assertion instead of dying with it (docs/CMOD.md).
#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "NV_nvdla.h"
#include "harness/cmod_protocol.hpp"

namespace proto = dla::cmod_protocol;

namespace {

// The protocol's descriptors: fd 0 for requests; for replies a copy of fd 1 taken before fd 1 is
// pointed at stderr, so that whatever the model prints never reaches the pipe.
int g_in = 0;
int g_out = 1;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "dlacosim-cmod: %s\n", why.c_str());
  std::_Exit(3);
}

void read_exact(void* dst, size_t n) {
  auto* p = static_cast<uint8_t*>(dst);
  while (n != 0) {
    const ssize_t r = ::read(g_in, p, n);
    if (r == 0) std::_Exit(0);  // dlacosim closed the pipe: the device is gone
    if (r < 0) {
      if (errno == EINTR) continue;
      die("read from dlacosim failed");
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
}

template <typename T>
T read_value() {
  T v{};
  read_exact(&v, sizeof v);
  return v;
}

class Reply {
 public:
  template <typename T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof v);
  }
  void put_bytes(const uint8_t* p, size_t n) { bytes_.insert(bytes_.end(), p, p + n); }
  void send() {
    const uint8_t* p = bytes_.data();
    size_t n = bytes_.size();
    while (n != 0) {
      const ssize_t w = ::write(g_out, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        std::_Exit(0);  // dlacosim is gone
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    bytes_.clear();
  }

 private:
  std::vector<uint8_t> bytes_;
};

// Byte-addressed sparse memory; never-written bytes read 0. Remembers the pages the model wrote.
class SparseMemory {
 public:
  using Page = std::array<uint8_t, proto::kPageBytes>;

  uint8_t read(uint64_t a) const {
    const auto it = pages_.find(a / proto::kPageBytes);
    return it == pages_.end() ? 0 : (*it->second)[a % proto::kPageBytes];
  }
  void write(uint64_t a, uint8_t v, bool by_model) {
    const uint64_t idx = a / proto::kPageBytes;
    auto& p = pages_[idx];
    if (!p) p = std::make_unique<Page>(Page{});
    (*p)[a % proto::kPageBytes] = v;
    if (by_model) dirty_.insert(idx);
  }
  Page& page(uint64_t idx) {
    auto& p = pages_[idx];
    if (!p) p = std::make_unique<Page>(Page{});
    return *p;
  }
  // The pages the model wrote since the last call, with their contents.
  void take_dirty(Reply& r) {
    r.put(static_cast<uint32_t>(dirty_.size()));
    for (const uint64_t idx : dirty_) {
      r.put(idx);
      r.put_bytes(page(idx).data(), proto::kPageBytes);
    }
    dirty_.clear();
  }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  std::set<uint64_t> dirty_;
};

SparseMemory g_memory;

// Progress of the model while the host waits: its memory transactions. The model is mostly
// untimed, and where it hangs it spins through delta cycles at one instant, so neither simulated
// time nor an empty event queue tells a hang; a model that moves no byte for `g_quiet_limit`
// seconds of wall time during a wait is stopped (exit status kStuck; docs/CMOD.md).
std::atomic<uint64_t> g_traffic{0};
std::atomic<bool> g_waiting{false};
int g_quiet_limit = 60;
constexpr int kStuck = 4;

void watch_progress() {
  uint64_t seen = g_traffic.load();
  int quiet = 0;
  while (true) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const uint64_t now = g_traffic.load();
    if (!g_waiting.load() || now != seen) {
      seen = now;
      quiet = 0;
      continue;
    }
    if (++quiet >= g_quiet_limit) {
      std::fprintf(stderr,
                   "dlacosim-cmod: stuck: no memory traffic for %d s of wall time while waiting for an interrupt "
                   "(the model spins without progress)\n",
                   quiet);
      std::fflush(stderr);
      std::_Exit(kStuck);
    }
  }
}

struct MemoryPort : sc_module {
  tlm_utils::simple_target_socket<MemoryPort> socket;

  explicit MemoryPort(const sc_module_name& n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &MemoryPort::b_transport);
  }

  void b_transport(tlm::tlm_generic_payload& gp, sc_time& /*delay*/) {
    g_traffic.fetch_add(1, std::memory_order_relaxed);
    const uint64_t a = gp.get_address();
    uint8_t* d = gp.get_data_ptr();
    const unsigned len = gp.get_data_length();
    const uint8_t* be = gp.get_byte_enable_ptr();
    const unsigned be_len = be != nullptr ? gp.get_byte_enable_length() : 0;
    if (gp.is_write()) {
      for (unsigned i = 0; i < len; ++i) {
        if (be_len == 0 || be[i % be_len] != 0) g_memory.write(a + i, d[i], true);
      }
    } else if (gp.is_read()) {
      for (unsigned i = 0; i < len; ++i) d[i] = g_memory.read(a + i);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// The host side: takes dlacosim's requests one at a time and answers each.
struct Host : sc_module {
  tlm_utils::simple_initiator_socket<Host> csb;
  sc_signal<bool> intr;

  SC_HAS_PROCESS(Host);
  explicit Host(const sc_module_name& n) : sc_module(n), csb("csb"), intr("intr") { SC_THREAD(serve); }

  uint32_t csb_access(bool write, uint32_t addr, uint32_t value) {
    tlm::tlm_generic_payload gp;
    uint32_t data = value;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = SC_ZERO_TIME;
    csb->b_transport(gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
    return data;
  }

  void start_reply(Reply& r) {
    r.put(static_cast<uint8_t>(proto::kOk));
    r.put(static_cast<uint64_t>(sc_time_stamp().value()));
    g_memory.take_dirty(r);
  }

  // Runs the model until `done()` holds, the limit of simulated time passes, or nothing is left to
  // happen (no event pending anywhere: the model is idle and the condition can never come true).
  template <typename Done>
  void run_until(Done done, uint64_t limit_ps, uint8_t& raised, uint32_t& status, uint8_t& idle) {
    const sc_time t0 = sc_time_stamp();
    const sc_time limit(static_cast<double>(limit_ps), SC_PS);
    const sc_time poll(1, SC_US);  // masked interrupts set status without the line: poll as well
    raised = 0;
    idle = 0;
    g_waiting = true;
    struct WaitingFlag {
      ~WaitingFlag() { g_waiting = false; }
    } waiting_flag;
    while (true) {
      if (done(status)) {
        raised = 1;
        return;
      }
      if (sc_time_stamp() - t0 >= limit) return;
      if (!sc_pending_activity()) {
        idle = 1;
        return;
      }
      wait(poll, intr.posedge_event());
    }
  }

  void serve() {
    wait(SC_ZERO_TIME);
    Reply r;
    r.put(proto::kMagic);
    r.put(proto::kVersion);
    r.send();
    while (true) {
      const auto op = read_value<uint8_t>();
      switch (op) {
        case proto::kRegWrite: {
          const auto addr = read_value<uint32_t>();
          const auto value = read_value<uint32_t>();
          csb_access(true, addr, value);
          start_reply(r);
          break;
        }
        case proto::kRegRead: {
          const auto addr = read_value<uint32_t>();
          const uint32_t v = csb_access(false, addr, 0);
          start_reply(r);
          r.put(v);
          break;
        }
        case proto::kPages: {
          const auto n = read_value<uint32_t>();
          for (uint32_t i = 0; i < n; ++i) {
            const auto idx = read_value<uint64_t>();
            read_exact(g_memory.page(idx).data(), proto::kPageBytes);
          }
          start_reply(r);
          break;
        }
        case proto::kWaitStatus: {
          const auto addr = read_value<uint32_t>();
          const auto mask = read_value<uint32_t>();
          const auto limit = read_value<uint64_t>();
          uint8_t raised = 0;
          uint8_t idle = 0;
          uint32_t status = 0;
          run_until(
              [&](uint32_t& s) {
                s = csb_access(false, addr, 0);
                return (s & mask) != 0;
              },
              limit, raised, status, idle);
          start_reply(r);
          r.put(raised);
          r.put(status);
          r.put(idle);
          break;
        }
        case proto::kWaitLine: {
          const auto limit = read_value<uint64_t>();
          uint8_t raised = 0;
          uint8_t idle = 0;
          uint32_t status = 0;
          run_until([&](uint32_t&) { return intr.read(); }, limit, raised, status, idle);
          start_reply(r);
          r.put(raised);
          r.put(status);
          r.put(idle);
          break;
        }
        case proto::kQuit:
          std::_Exit(0);
        default:
          die("unknown request " + std::to_string(op));
      }
      r.send();
    }
  }
};

void send_error(const std::string& what) {
  Reply r;
  r.put(static_cast<uint8_t>(proto::kError));
  r.put(static_cast<uint64_t>(sc_time_stamp().value()));
  r.put(static_cast<uint32_t>(what.size()));
  r.put_bytes(reinterpret_cast<const uint8_t*>(what.data()), what.size());
  r.send();
}

}  // namespace

int sc_main(int argc, char** argv) {
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-v") == 0) verbose = true;
    if (std::strcmp(argv[i], "-q") == 0 && i + 1 < argc) g_quiet_limit = std::max(1, std::atoi(argv[++i]));
  }
  std::thread(watch_progress).detach();
  g_out = ::dup(1);
  if (g_out < 0 || ::dup2(2, 1) < 0) die("cannot set up the reply pipe");
  // The model reports its progress at SC_INFO; keep that off the log unless asked.
  sc_report_handler::set_verbosity_level(verbose ? SC_DEBUG : SC_LOW);
  if (!verbose) sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  sc_report_handler::set_actions(SC_ID_MORE_THAN_ONE_SIGNAL_DRIVER_, SC_DO_NOTHING);
  try {
    auto* dla = new scsim::cmod::NV_nvdla("nvdla", 0);  // lives as long as the process
    MemoryPort dbb("dbb");
    MemoryPort cvsram("cvsram");
    Host host("host");
    host.csb.bind(dla->nvdla_host_master_if);
    dla->nvdla_core2dbb_axi4.bind(dbb.socket);
    dla->nvdla_core2cvsram_axi4.bind(cvsram.socket);
    dla->nvdla_intr(host.intr);
    sc_start();
  } catch (const std::exception& e) {
    send_error(e.what());
    return 3;
  }
  return 0;
}
