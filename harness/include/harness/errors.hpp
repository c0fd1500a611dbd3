// Error kinds and the CLI's exit codes (documented in docs/CLI.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace dla::harness {

enum class ExitCode : int { Pass = 0, Mismatch = 1, BadInput = 2, Timeout = 3, Internal = 3 };

// Bad user input: names the file, the place in it (JSON pointer or "line N") and the rule broken.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string where, std::string rule)
      : std::runtime_error(format(file, where, rule)),
        file_(std::move(file)), where_(std::move(where)), rule_(std::move(rule)) {}
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] const std::string& where() const { return where_; }
  [[nodiscard]] const std::string& rule() const { return rule_; }

 private:
  static std::string format(const std::string& file, const std::string& where, const std::string& rule) {
    std::string s = file;
    if (!where.empty()) s += ": " + where;
    return s + ": " + rule;
  }
  std::string file_, where_, rule_;
};

// A simulation that stopped making progress (watchdog) or ran past its cycle limit, at `cycle`
// (the simulated cycles so far: a TIMEOUT reports them, never 0).
class SimTimeout : public std::runtime_error {
 public:
  explicit SimTimeout(const std::string& what, uint64_t cycle = 0) : std::runtime_error(what), cycle_(cycle) {}
  [[nodiscard]] uint64_t cycle() const { return cycle_; }

 private:
  uint64_t cycle_;
};

}  // namespace dla::harness
