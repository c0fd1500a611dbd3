#include "harness/cmod_device.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/cmod_protocol.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"

extern char** environ;

namespace dla::harness {

namespace proto = cmod_protocol;

std::string cmod_tag(const golden::HwConfig& cfg) {
  std::string t = cfg.cmod;
  std::replace(t.begin(), t.end(), ':', '-');
  return t;
}

std::filesystem::path cmod_server(const golden::HwConfig& cfg, std::string& why) {
  const std::string tag = cmod_tag(cfg);
  if (tag.empty()) {
    why = fmt::format("{} has no NVIDIA C model (regs/hw_configs.json names none)", cfg.name);
    return {};
  }
  std::filesystem::path dir;
  if (const char* env = std::getenv("DLACOSIM_CMOD_DIR"); env != nullptr && *env != '\0') {
    dir = env;
  } else {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) dir = self.parent_path().parent_path() / "cmod";
  }
  // Absolute: the server starts in a folder of its own.
  const std::filesystem::path exe = std::filesystem::absolute(dir / ("dlacosim-cmod-" + tag));
  if (::access(exe.c_str(), X_OK) != 0) {
    why = fmt::format(
        "this build has no NVIDIA C model for {} ({} not found): configure with -DDLA_NVDLA_HW=PATH, PATH a folder "
        "holding checkouts of github.com/nvdla/hw as nvdlav1/ (nv_full) and master/ (nv_small, nv_large), and build "
        "(docs/CMOD.md); or set DLACOSIM_CMOD_DIR",
        cfg.name, exe.string());
    return {};
  }
  return exe;
}

namespace {

// What the log says about why the model stopped: its failed assertion with the file and line
// (SystemC's sc_assert prints "assertion failed: EXPR" then "In file: PATH:LINE"; a C assert one
// line), else its last error line, else its last line.
std::string log_reason(const std::filesystem::path& log) {
  std::ifstream f(log);
  std::vector<std::string> lines;
  std::string l;
  while (std::getline(f, l)) {
    if (!l.empty()) lines.push_back(l);
    if (lines.size() > 4000) lines.erase(lines.begin(), lines.begin() + 2000);
  }
  std::string found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& x = lines[i];
    if (const auto a = x.find("assertion failed"); a != std::string::npos) {
      found = x.substr(a);
      if (i + 1 < lines.size() && lines[i + 1].starts_with("In file: ")) {
        found += " (" + std::filesystem::path(lines[i + 1].substr(9)).filename().string() + ")";
      }
    } else if (x.find("Assertion") != std::string::npos || x.find("dlacosim-cmod:") != std::string::npos) {
      found = x;
    } else if (found.empty() && (x.find("Error:") != std::string::npos || x.find("Fatal:") != std::string::npos)) {
      found = x;
    }
  }
  if (found.empty() && !lines.empty()) found = lines.back();
  if (found.size() > 400) found = found.substr(0, 400) + " ...";
  return found;
}

class CmodDevice final : public Device {
 public:
  CmodDevice(const golden::HwConfig& cfg, std::filesystem::path exe, const CmodOptions& opt)
      : config_(cfg.name), opt_(opt) {
    memory_.track_writes(true);
    const RegDef* status = RegDb::nvdla().find("GLB.S_INTR_STATUS");
    const auto a = status != nullptr ? RegDb::nvdla().address(config_, *status) : std::nullopt;
    if (!a) throw std::logic_error("cmod device: no GLB.S_INTR_STATUS in " + config_);
    intr_status_addr_ = *a;
    start(exe);
  }

  ~CmodDevice() override {
    if (pid_ > 0) {
      const uint8_t q = proto::kQuit;
      (void)::send(fd_, &q, 1, MSG_NOSIGNAL);
      stop();
    }
    if (!opt_.log_file.empty() && log_path_ != opt_.log_file) {
      std::error_code ec;
      std::filesystem::copy_file(log_path_, opt_.log_file, std::filesystem::copy_options::overwrite_existing, ec);
    }
  }

  CmodDevice(const CmodDevice&) = delete;
  CmodDevice& operator=(const CmodDevice&) = delete;

  [[nodiscard]] std::string_view kind() const override { return "cmod"; }
  [[nodiscard]] const std::string& config() const override { return config_; }

  void reg_write(uint32_t byte_addr, uint32_t value) override {
    // This project's extension registers (W-fold) do not exist in NVDLA, whose model refuses a
    // write there: their reset value 0 is NVDLA's behaviour, so such a write goes nowhere (a
    // program that sets one is not judged, cmod_cannot_judge).
    if (is_extension(byte_addr)) return;
    flush_pages();
    Request r(proto::kRegWrite);
    r.put(byte_addr);
    r.put(value);
    exchange(r, short_limit(), fmt::format("register write {:#x} = {:#x}", byte_addr, value));
  }

  [[nodiscard]] uint32_t reg_read(uint32_t byte_addr) override {
    if (is_extension(byte_addr)) return 0;
    flush_pages();
    Request r(proto::kRegRead);
    r.put(byte_addr);
    exchange(r, short_limit(), fmt::format("register read {:#x}", byte_addr));
    return take<uint32_t>();
  }

  [[nodiscard]] bool interrupt_pending(std::string_view intr) override {
    const int bit = interrupt_bit(intr);
    return bit >= 0 && (reg_read(intr_status_addr_) >> bit & 1u) != 0;
  }

  [[nodiscard]] WaitResult wait_interrupt(std::string_view intr, uint64_t /*timeout_cycles*/) override {
    const int bit = interrupt_bit(intr);
    if (bit < 0) return {false, fmt::format("unknown interrupt {}", intr)};
    flush_pages();
    Request r(proto::kWaitStatus);
    r.put(intr_status_addr_);
    r.put(uint32_t{1} << bit);
    r.put(kSimLimitPs);
    return finish_wait(r, fmt::format("the wait for {}", intr));
  }

  [[nodiscard]] WaitResult wait_any_interrupt(uint64_t /*timeout_cycles*/) override {
    flush_pages();
    Request r(proto::kWaitLine);
    r.put(kSimLimitPs);
    return finish_wait(r, "the wait for the interrupt line");
  }

  [[nodiscard]] Memory& memory() override { return memory_; }

  // The model is loosely timed: its simulated time, in ns, stands for cycles (docs/CMOD.md).
  [[nodiscard]] uint64_t cycles() const override { return sim_ps_ / 1000; }

 private:
  // A request's bytes.
  struct Request {
    explicit Request(uint8_t op) { bytes.push_back(op); }
    template <typename T>
    void put(const T& v) {
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      bytes.insert(bytes.end(), p, p + sizeof v);
    }
    std::vector<uint8_t> bytes;
  };

  [[nodiscard]] bool is_extension(uint32_t byte_addr) const {
    const RegDef* r = RegDb::nvdla().at_address(config_, byte_addr);
    return r != nullptr && !r->extension.empty();
  }

  static constexpr std::chrono::seconds kShortLimit{120};
  static constexpr int kStuckStatus = 4;  // the server's exit status when it stopped the model as stuck
  // Register accesses, memory loads and the start-up: quick unless the server is broken.
  [[nodiscard]] std::chrono::seconds short_limit() const { return std::min(kShortLimit, opt_.wait_limit); }
  static constexpr uint64_t kSimLimitPs = uint64_t{1} << 60;  // the wall clock decides

  void start(const std::filesystem::path& exe) {
    // A scratch folder of its own: the model writes files into its working directory (the master
    // branch's CBUF opens cdma2cbuf_*_cmod.dat there), and the log goes there too; removed with the
    // device.
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = (tmpdir != nullptr && *tmpdir != '\0' ? std::string(tmpdir) : std::string("/tmp")) +
                          "/dlacosim-cmod-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) throw std::runtime_error("cmod device: cannot create a folder like " + pattern);
    work_dir_.path = buf.data();
    log_path_ = work_dir_.path / "cmod.log";
    const int log_fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd < 0) throw std::runtime_error("cmod device: cannot create " + log_path_.string());
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      ::close(log_fd);
      throw std::runtime_error(std::string("cmod device: socketpair: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_adddup2(&fa, log_fd, 2);
    posix_spawn_file_actions_addchdir_np(&fa, work_dir_.path.c_str());
    std::string exe_s = exe.string();
    std::vector<char*> argv{exe_s.data()};
    std::string verbose = "-v";
    std::string quiet_flag = "-q";
    std::string quiet = std::to_string(std::min(opt_.quiet_limit, opt_.wait_limit).count());
    if (!opt_.log_file.empty()) argv.push_back(verbose.data());
    argv.push_back(quiet_flag.data());
    argv.push_back(quiet.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, exe_s.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(sv[1]);
    ::close(log_fd);
    if (rc != 0) {
      ::close(sv[0]);
      throw std::runtime_error(fmt::format("cmod device: cannot start {}: {}", exe_s, std::strerror(rc)));
    }
    pid_ = pid;
    fd_ = sv[0];
    const auto deadline = std::chrono::steady_clock::now() + short_limit();
    uint32_t magic = 0;
    uint32_t version = 0;
    receive(&magic, sizeof magic, deadline, "start-up");
    receive(&version, sizeof version, deadline, "start-up");
    if (magic != proto::kMagic || version != proto::kVersion) {
      fail(CmodFailure::Kind::Broken,
           fmt::format("{} speaks another protocol (version {}, this dlacosim {}): rebuild it", exe_s, version,
                       proto::kVersion));
    }
  }

  // Stops the server (killed if it does not leave at once) and reaps it.
  void stop() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (pid_ <= 0) return;
    int st = 0;
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        exit_status_ = st;
        pid_ = -1;
        return;
      }
      ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    (void)::waitpid(pid_, &st, 0);
    exit_status_ = st;
    pid_ = -1;
  }

  [[noreturn]] void fail(CmodFailure::Kind kind, const std::string& what) {
    stop();
    broken_ = true;
    throw CmodFailure(kind, what);
  }

  // The server ended (EOF): why, from its exit status and its log.
  [[noreturn]] void server_ended(const std::string& during) {
    stop();
    std::string how;
    if (WIFSIGNALED(exit_status_)) {
      how = fmt::format("died of signal {} ({})", WTERMSIG(exit_status_), ::strsignal(WTERMSIG(exit_status_)));
    } else if (WIFEXITED(exit_status_)) {
      how = fmt::format("exited with status {}", WEXITSTATUS(exit_status_));
    } else {
      how = "ended";
    }
    const std::string reason = log_reason(log_path_);
    broken_ = true;
    if (WIFEXITED(exit_status_) && WEXITSTATUS(exit_status_) == kStuckStatus) {
      throw CmodFailure(CmodFailure::Kind::Timeout,
                        fmt::format("NVIDIA's C model hung during {}: it moved no memory for {} s of wall time "
                                    "(stopped; --cmod-quiet raises the limit)",
                                    during, std::min(opt_.quiet_limit, opt_.wait_limit).count()));
    }
    throw CmodFailure(CmodFailure::Kind::Refused,
                      fmt::format("NVIDIA's C model {} during {}{}", how, during,
                                  reason.empty() ? std::string() : ": " + reason));
  }

  void receive(void* dst, std::size_t n, std::chrono::steady_clock::time_point deadline, const std::string& during) {
    auto* p = static_cast<uint8_t*>(dst);
    while (n != 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        const auto limit = during.starts_with("the wait") ? opt_.wait_limit : short_limit();
        fail(CmodFailure::Kind::Timeout,
             fmt::format("NVIDIA's C model did not finish {} within {} s of wall time (stopped; --cmod-timeout raises "
                         "the limit)",
                         during, limit.count()));
      }
      pollfd pfd{fd_, POLLIN, 0};
      const int pr = ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
      if (pr < 0 && errno != EINTR) fail(CmodFailure::Kind::Broken, "cmod device: poll failed");
      if (pr <= 0) continue;
      const ssize_t r = ::recv(fd_, p, n, 0);
      if (r == 0) server_ended(during);
      if (r < 0) {
        if (errno == EINTR) continue;
        server_ended(during);
      }
      p += r;
      n -= static_cast<std::size_t>(r);
    }
  }

  void send_bytes(const std::vector<uint8_t>& b, const std::string& during) {
    std::size_t done = 0;
    while (done < b.size()) {
      const ssize_t w = ::send(fd_, b.data() + done, b.size() - done, MSG_NOSIGNAL);
      if (w < 0) {
        if (errno == EINTR) continue;
        server_ended(during);
      }
      done += static_cast<std::size_t>(w);
    }
  }

  // Sends a request and reads the common part of its reply (status, time, the model's pages);
  // the request's own fields are then read with take().
  void exchange(const Request& r, std::chrono::seconds limit, const std::string& during) {
    if (broken_) throw CmodFailure(CmodFailure::Kind::Broken, "the C model device stopped earlier in this run");
    deadline_ = std::chrono::steady_clock::now() + limit;
    during_ = during;
    send_bytes(r.bytes, during);
    const auto status = take<uint8_t>();
    sim_ps_ = take<uint64_t>();
    if (status != proto::kOk) {
      const auto n = take<uint32_t>();
      std::string msg(std::min<uint32_t>(n, 1u << 16), '\0');
      receive(msg.data(), msg.size(), deadline_, during);
      fail(CmodFailure::Kind::Refused, fmt::format("NVIDIA's C model stopped during {}: {}", during, msg));
    }
    const auto pages = take<uint32_t>();
    std::array<uint8_t, proto::kPageBytes> page{};
    for (uint32_t i = 0; i < pages; ++i) {
      const auto idx = take<uint64_t>();
      receive(page.data(), page.size(), deadline_, during);
      memory_.set_page(idx, page);
    }
  }

  template <typename T>
  T take() {
    T v{};
    receive(&v, sizeof v, deadline_, during_);
    return v;
  }

  WaitResult finish_wait(const Request& r, const std::string& during) {
    exchange(r, opt_.wait_limit, during);
    const auto raised = take<uint8_t>();
    const auto status = take<uint32_t>();
    const auto idle = take<uint8_t>();
    (void)status;
    if (raised != 0) return {true, {}};
    if (idle != 0) {
      fail(CmodFailure::Kind::Idle,
           fmt::format("NVIDIA's C model went idle at {} ns without {} being met: nothing left to happen in the model",
                       sim_ps_ / 1000, during.substr(std::string_view("the wait for ").size())));
    }
    fail(CmodFailure::Kind::Timeout, fmt::format("NVIDIA's C model did not finish {} within its simulated-time limit",
                                                 during));
  }

  // The pages written on this side since the last request go to the server first.
  void flush_pages() {
    const std::vector<uint64_t> pages = memory_.take_written_pages();
    if (pages.empty()) return;
    Request r(proto::kPages);
    r.put(static_cast<uint32_t>(pages.size()));
    for (const uint64_t idx : pages) {
      r.put(idx);
      const auto bytes = memory_.page(idx);
      r.bytes.insert(r.bytes.end(), bytes.begin(), bytes.end());
    }
    exchange(r, short_limit(), "a memory load");
  }

  std::string config_;
  CmodOptions opt_;
  Memory memory_;
  uint32_t intr_status_addr_ = 0;
  pid_t pid_ = -1;
  int fd_ = -1;
  int exit_status_ = 0;
  bool broken_ = false;
  uint64_t sim_ps_ = 0;
  // Removed when the device goes, also when its constructor throws (a member is destroyed then).
  struct ScratchDir {
    std::filesystem::path path;
    ScratchDir() = default;
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir() {
      std::error_code ec;
      if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
  };
  ScratchDir work_dir_;
  std::filesystem::path log_path_;
  std::chrono::steady_clock::time_point deadline_{};
  std::string during_;
};

}  // namespace

std::unique_ptr<Device> make_cmod_device(const golden::HwConfig& cfg, const CmodOptions& opt) {
  std::string why;
  const std::filesystem::path exe = cmod_server(cfg, why);
  if (exe.empty()) throw InputError("--judge cmod", "", why);
  return std::make_unique<CmodDevice>(cfg, exe, opt);
}

}  // namespace dla::harness
