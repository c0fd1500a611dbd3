#include "harness/regress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "harness/interrupt.hpp"
#include "harness/json_reader.hpp"

namespace dla::harness {

namespace fs = std::filesystem;

std::string SuiteEntry::label() const {
  std::string s;
  if (seed) s += fmt::format(" seed={}", *seed);
  if (stall) s += fmt::format(" stall={}", *stall);
  if (rand_reset != 0) s += fmt::format(" rr={}", rand_reset);
  return s;
}

namespace {

// "dir/*.json" expands to the sorted matching files; anything else is one path.
std::vector<fs::path> expand(const JsonNode& node, const fs::path& base) {
  const std::string pattern = node.as_string();
  const fs::path p = base / pattern;
  std::vector<fs::path> out;
  const std::string fname = p.filename().string();
  const auto star = fname.find('*');
  if (star == std::string::npos) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) node.fail(fmt::format("layer file {} not found", p.string()));
    out.push_back(p);
    return out;
  }
  const std::string prefix = fname.substr(0, star), suffix = fname.substr(star + 1);
  // A bare pattern of a suite in the current directory ("*.json" in ./suite.json) has no parent path.
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) node.fail(fmt::format("directory {} not found", dir.string()));
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (e.is_regular_file() && n.size() >= prefix.size() + suffix.size() && n.starts_with(prefix) &&
        n.ends_with(suffix)) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) node.fail(fmt::format("pattern {} matches no file", p.string()));
  return out;
}

}  // namespace

Suite load_suite(const fs::path& file) {
  const auto doc = parse_json_file(file);
  const JsonNode root = JsonNode::root(doc);
  root.allow_keys({"name", "description", "layers"});
  Suite s;
  s.name = root.get("name") ? root.require("name").as_string() : file.stem().string();
  const JsonNode layers = root.require("layers");
  if (layers.size() == 0) layers.fail("a suite needs at least one layer");
  const fs::path base = file.parent_path();
  for (const auto& item : layers.items()) {
    if (item.is_string()) {
      for (auto& p : expand(item, base)) s.entries.push_back({p, {}, {}, 0});
      continue;
    }
    item.allow_keys({"layer", "seeds", "stall", "rand_reset"});
    const auto paths = expand(item.require("layer"), base);
    std::vector<std::optional<uint64_t>> seeds{std::nullopt};
    if (const auto sd = item.get("seeds")) {
      seeds.clear();
      if (sd->size() == 0) sd->fail("give at least one seed");
      for (const auto& v : sd->items()) seeds.emplace_back(v.as_u64());
    }
    std::vector<int> resets{0};
    if (const auto rr = item.get("rand_reset")) {
      resets.clear();
      if (rr->size() == 0) rr->fail("give at least one of 0, 1, 2");
      for (const auto& v : rr->items()) resets.push_back(static_cast<int>(v.as_int(0, 2)));
    }
    std::optional<double> stall;
    if (const auto st = item.get("stall")) stall = st->as_double(0.0, 0.95);
    for (const auto& p : paths) {
      for (const auto& sd : seeds) {
        for (const int rr : resets) s.entries.push_back({p, sd, stall, rr});
      }
    }
  }
  return s;
}

std::vector<RunResult> run_suite(const Suite& suite, const RunOptions& base, unsigned jobs, Shard shard,
                                 const RunDone& on_done) {
  std::vector<std::size_t> mine;  // suite indexes of this shard's entries
  for (std::size_t i = 0; i < suite.entries.size(); ++i) {
    if (i % shard.count == shard.index) mine.push_back(i);
  }
  std::vector<RunResult> results(mine.size());
  std::vector<char> finished(mine.size(), 0);
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  std::size_t done = 0;
  auto worker = [&] {
    // SIGINT / SIGTERM (interrupt.hpp): no new run starts, a run in flight is abandoned (its
    // simulation throws at the next cycle) and left out.
    for (std::size_t i = next++; i < mine.size() && !stop_requested(); i = next++) {
      const SuiteEntry& e = suite.entries[mine[i]];
      RunOptions o = base;
      if (e.seed) o.seed = e.seed;
      if (e.stall) o.stall = e.stall;
      o.sim.rand_reset = e.rand_reset;
      results[i] = run_layer(e.layer, o);
      if (results[i].abandoned) continue;
      finished[i] = 1;
      results[i].name += e.label();
      results[i].suite_index = mine[i];
      if (on_done) {
        const std::lock_guard lock(done_mutex);
        on_done(results[i], ++done, mine.size());
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  std::vector<RunResult> out;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (finished[i] != 0) out.push_back(std::move(results[i]));
  }
  return out;
}

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string clock_text(double s) {
  const auto t = static_cast<uint64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

Progress::Progress(std::FILE* out, bool terminal) : out_(out), terminal_(terminal), start_(now_seconds()) {}

void Progress::update(const RunResult& r, std::size_t done, std::size_t total) {
  (r.status == Status::Pass ? passed_ : failed_) += 1;
  const double elapsed = now_seconds() - start_;
  if (!terminal_) {
    fmt::print(out_, "[{}/{}] {} {} ({:.2f} s)\n", done, total, status_name(r.status), r.name, r.seconds);
    std::fflush(out_);
    return;
  }
  const double eta = done == 0 ? 0 : elapsed / static_cast<double>(done) * static_cast<double>(total - done);
  // \r and erase-to-end-of-line keep one status line.
  fmt::print(out_, "\r\x1b[K[{}/{}] pass {} fail {}  elapsed {}  ETA {}  {}", done, total, passed_, failed_,
             clock_text(elapsed), clock_text(eta), r.name.substr(0, 40));
  std::fflush(out_);
  drawn_ = true;
}

void Progress::finish() {
  if (terminal_ && drawn_) {
    fmt::print(out_, "\r\x1b[K");
    std::fflush(out_);
  }
}

}  // namespace dla::harness
