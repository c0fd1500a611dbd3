// Runs the dlacosim binary of this build the way a user's shell would: exit code and output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace dla::test {

struct Cmd {
  int exit = -1;
  std::string out;  // stdout, and stderr unless it was dropped
};

// DLA_TEST_DLACOSIM=PATH runs the tests against another binary (to show a test fails on an older
// one); by default the binary of this build.
inline Cmd dlacosim(const std::string& args, bool merge_stderr = true) {
  const char* other = std::getenv("DLA_TEST_DLACOSIM");
  const std::string bin = other != nullptr && *other != 0 ? std::string(other) : std::string(DLA_BINARY_DIR) + "/harness/dlacosim";
  const std::string cmd = bin + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  Cmd r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (const std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A malformed file of `dir` and what dlacosim must say about it: "FILE: WHERE: ..." and RULE.
struct BadFile {
  const char* file;
  const char* where;
  const char* rule;
};

// Each file exits 2 from `run` and from `validate`, naming the file, the JSON pointer and the rule.
inline void check_bad_files(const std::string& dir, const std::vector<BadFile>& cases) {
  for (const auto& c : cases) {
    for (const std::string cmd : {"run", "validate"}) {
      const Cmd r = dlacosim(cmd + " " + dir + c.file);
      INFO(cmd << " " << c.file << "\n" << r.out);
      CHECK(r.exit == 2);
      CHECK_THAT(r.out, Catch::Contains(dir + c.file + ": " + c.where + ": ") && Catch::Contains(c.rule));
    }
  }
}

}  // namespace dla::test
