#include "harness/coverage.hpp"

#if DLA_COVERAGE
#include <unistd.h>
#include <verilated_cov.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include <fmt/format.h>
#endif

namespace dla::harness {

#if DLA_COVERAGE
namespace {

namespace fs = std::filesystem;

// The counts of every run of this process, by Verilator's coverage key; written at exit.
class CoverageTotal {
 public:
  static CoverageTotal& instance() {
    static CoverageTotal total;
    return total;
  }
  CoverageTotal(const CoverageTotal&) = delete;
  CoverageTotal& operator=(const CoverageTotal&) = delete;
  ~CoverageTotal() { write(); }

  [[nodiscard]] bool enabled() const { return !dir_.empty(); }

  // Verilator writes a context's items only to a file: write it, read it back into the total.
  void add(VerilatedContext& ctx) {
    const fs::path tmp = dir_ / fmt::format(".run-{}-{}.tmp", ::getpid(), runs_.fetch_add(1));
    ctx.coveragep()->write(tmp.c_str());
    std::ifstream in(tmp);
    std::string line;
    const std::lock_guard lock(mutex_);
    while (std::getline(in, line)) {
      // C '<key>' <count>; the key holds no quote (Verilator removes them).
      const auto end = line.rfind("' ");
      if (line.rfind("C '", 0) != 0 || end == std::string::npos || end < 3) continue;
      counts_[line.substr(3, end - 3)] += std::strtoull(line.c_str() + end + 2, nullptr, 10);
    }
    in.close();
    std::error_code ec;
    fs::remove(tmp, ec);
  }

 private:
  CoverageTotal() {
    const char* dir = std::getenv("DLA_COVERAGE_DIR");
    if (dir == nullptr || *dir == '\0') return;
    dir_ = dir;
    std::error_code ec;
    fs::create_directories(dir_, ec);
  }

  void write() {
    const std::lock_guard lock(mutex_);
    if (counts_.empty()) return;
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const fs::path out = dir_ / fmt::format("dlacosim-{}-{}.dat", ::getpid(), stamp);
    std::ofstream os(out);
    os << "# SystemC::Coverage-3\n";
    for (const auto& [key, count] : counts_) os << "C '" << key << "' " << count << '\n';
    if (!os) std::fprintf(stderr, "dlacosim: cannot write coverage data %s\n", out.c_str());
    counts_.clear();
  }

  fs::path dir_;
  std::atomic<uint64_t> runs_{0};
  std::mutex mutex_;
  std::map<std::string, uint64_t> counts_;
};

}  // namespace

void coverage_collect(VerilatedContext& ctx) noexcept {
  try {
    CoverageTotal& total = CoverageTotal::instance();
    if (total.enabled()) total.add(ctx);
  } catch (...) {  // coverage must never end a run; a lost run shows as lower coverage
  }
}
#else
void coverage_collect(VerilatedContext& /*ctx*/) noexcept {}
#endif

}  // namespace dla::harness
