// The input parsers the fuzz targets (tests/fuzz/fuzz_*.cpp, docs/FUZZING.md) feed with bytes, and
// the replay of their regression inputs (tests/harness/test_fuzz_regressions.cpp): one definition
// of "parse these bytes as the tool would" shared by both.
//
// Every parser reads a file, so the bytes are written to a file in a private scratch directory.
// The directory also holds a few small fixture files an input may name (a layer for suites, .dat
// images for .cfg, .txn and program layers, a .bin for "file" value lists), so that inputs which
// reference them get past the file lookup into the code that uses them.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>

#include "harness/errors.hpp"
#include "harness/html_report.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program.hpp"
#include "harness/regress.hpp"
#include "harness/report.hpp"

namespace dla::fuzz {

enum class Input { Layer, Suite, Cfg, Txn, Dat, Results, Loadable };

// The input kind of a fuzz target's name (layer_conv, suite, cfg, txn, dat, results); the
// regression inputs live in tests/fuzz/regressions/<target>/.
inline Input input_of_target(std::string_view target) {
  if (target.starts_with("layer")) return Input::Layer;
  if (target == "suite") return Input::Suite;
  if (target == "cfg") return Input::Cfg;
  if (target == "txn") return Input::Txn;
  if (target == "dat") return Input::Dat;
  if (target == "results") return Input::Results;
  if (target == "loadable") return Input::Loadable;
  throw std::invalid_argument("unknown fuzz target " + std::string(target));
}

class Scratch {
 public:
  Scratch() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dla-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    write("layer.json",
          R"({"unit": "cmac", "config": "nv_small", "precision": "int8", "stripes": [{"ops": 1, "kernels": 1}],)"
          R"( "data": {"random": {}}, "weights": {"random": {}}})");
    write("good.dat", "{\n{offset:0x0, size:4, payload:0x01 0x02 0x03 0x04},\n}\n");
    write("player.dat", "Data_size = 0x4\n0x01 0x02 0x03 0x04\n");
    write("values.bin", std::string(16, '\x01'));
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  std::filesystem::path write(const std::string& name, std::string_view bytes) const {
    const auto path = dir_ / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
    return path;
  }

 private:
  std::filesystem::path dir_;
};

inline const Scratch& scratch() {
  static const Scratch s;
  return s;
}

// Parses `file` as the tool reads an input of this kind, including what the tool does with the
// parsed result before any simulation (a .cfg/.txn import is turned into JSON as `import` does, a
// results file is rendered as `report --html` does).
// A layer target of one unit (layer_conv: `unit` "conv") skips layers of other units, so that each
// unit's target spends its executions on that unit's validation.
inline void parse_file(Input kind, const std::filesystem::path& file, std::string_view unit = {}) {
  using namespace dla::harness;
  switch (kind) {
    case Input::Layer:
      if (!unit.empty()) {
        const auto doc = parse_json_file(file);
        const auto u = doc->root.is_object() ? doc->root.find("unit") : doc->root.end();
        if (u == doc->root.end() || !u->is_string() || u->get_ref<const std::string&>() != unit) return;
      }
      (void)load_layer(file);
      break;
    case Input::Suite: (void)load_suite(file); break;
    case Input::Cfg: (void)program_to_json(import_nvdla_cfg(file, "nv_small"), "fuzz"); break;
    case Input::Txn: (void)program_to_json(import_nvdla_txn(file, "nv_full"), "fuzz"); break;
    case Input::Dat: (void)read_dat_image(file); break;
    case Input::Results: (void)html_report(results_from_json(JsonNode::root(parse_json_file(file))), {}); break;
    case Input::Loadable: {
      // As `import` does: read, the firmware's programming on nv_full (every engine), one program.
      const auto l = loadable::read_loadable(file);
      (void)program_to_json(loadable::plan_program(l, loadable::plan_loadable(l, golden::nv_full(), {})), "fuzz");
      break;
    }
  }
}

// Parses the bytes as an input of this kind. Returns true when accepted, false when refused with
// the project's documented error (InputError); anything else (another exception, a crash, a
// sanitizer report, a hang) is a bug.
inline bool parse_bytes(Input kind, std::span<const uint8_t> bytes, std::string_view unit = {}) {
  static constexpr const char* kNames[] = {"input.json", "input.json", "input.cfg", "input.txn",
                                           "input.dat",  "input.json", "input_fbuf"};
  const auto path = scratch().write(kNames[static_cast<int>(kind)],
                                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  try {
    parse_file(kind, path, unit);
    return true;
  } catch (const dla::harness::InputError&) {
    return false;
  }
}

}  // namespace dla::fuzz

// The body of each fuzz target: tests/fuzz/fuzz_<target>.cpp is DLA_FUZZ_TARGET(kind, unit).
#define DLA_FUZZ_TARGET(kind, unit)                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {      \
    (void)dla::fuzz::parse_bytes(kind, std::span<const uint8_t>(data, size), unit);   \
    return 0;                                                                         \
  }
