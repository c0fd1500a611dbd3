// Runs the dlacosim binary of this build the way a user's shell would: exit code and output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace dla::test {

struct Cmd {
  int exit = -1;
  std::string out;  // stdout, and stderr unless it was dropped
};

inline Cmd dlacosim(const std::string& args, bool merge_stderr = true) {
  const std::string cmd =
      std::string(DLA_BINARY_DIR) + "/harness/dlacosim " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  Cmd r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (const std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace dla::test
