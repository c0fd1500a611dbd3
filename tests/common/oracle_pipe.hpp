// Runs one of the C-model oracles (cmod/server/*_oracle.cpp: NVIDIA's own code behind a pipe) on a
// block of binary records and returns its binary results, through files in a temporary folder.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace dla::test {

template <class Out, class In>
std::vector<Out> run_oracle(const std::filesystem::path& exe, const std::string& args, const std::vector<In>& input) {
  namespace fs = std::filesystem;
  REQUIRE(fs::exists(exe));
  const fs::path dir = fs::temp_directory_path() / ("dla-" + exe.filename().string() + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "in", std::ios::binary);
    f.write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size() * sizeof(In)));
  }
  // SystemC's banner is off; the oracles' own messages go to a file, shown on failure.
  const std::string cmd = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + exe.string() + (args.empty() ? "" : " " + args) +
                          " < " + (dir / "in").string() + " > " + (dir / "out").string() + " 2> " +
                          (dir / "err").string();
  const int status = std::system(cmd.c_str());
  std::vector<Out> out(fs::exists(dir / "out") ? fs::file_size(dir / "out") / sizeof(Out) : 0);
  {
    std::ifstream f(dir / "out", std::ios::binary);
    f.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size() * sizeof(Out)));
  }
  std::string err;
  {
    std::ifstream f(dir / "err");
    err.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  fs::remove_all(dir);
  INFO(exe.filename().string() << " " << args << ": " << err);
  REQUIRE(status == 0);
  return out;
}

}  // namespace dla::test
