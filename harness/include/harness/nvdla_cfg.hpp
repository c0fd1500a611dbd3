// NVDLA trace-test .cfg files (nvdla/hw verif/tests/trace_tests, ../shared/nvdla-traces) turned
// into register programs. Command coverage and decisions: docs/TRACES.md.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "harness/program.hpp"

namespace dla::harness {

// Imports a .cfg for configuration `config` (nv_small or nv_full): register names resolve through
// RegDb (so the program holds registers, and their addresses follow the configuration's block
// bases); .dat files are read relative to the .cfg. Malformed input (unknown command or register,
// bad number, truncated line, missing or malformed .dat, ...) throws
// InputError(cfg file, "line N", reason).
[[nodiscard]] Program import_nvdla_cfg(const std::filesystem::path& cfg, const std::string& config);

// Imports an NVDLA v1 trace-player test (input.txn: load_mem, write_reg 0xffffWWWW, read_reg with
// mask, wait, dump_mem; ../shared/nvdla-traces/README.md) for `config`. Registers resolve by
// address in the configuration's map; `wait` becomes a wait_any step (the interrupt line), and
// dump_mem a file check. Malformed input throws InputError(txn file, "line N", reason).
[[nodiscard]] Program import_nvdla_txn(const std::filesystem::path& txn, const std::string& config);

// An NVDLA trace: a trace test (.cfg) or an NVDLA v1 trace-player test (.txn), and its import.
[[nodiscard]] bool is_trace_file(const std::filesystem::path& path);
[[nodiscard]] Program import_trace(const std::filesystem::path& path, const std::string& config);

// The configuration a trace runs on (docs/TRACES.md "Configuration"). `given` (--config) decides;
// a trace lying in the folder of another NVDLA build then gets a `warning`. Else: the NVDLA build
// folder nearest the file (a configuration's name, or nvdlav1 = nv_full; a name of NVDLA's pattern
// that is no configuration, nv_medium_2048, is refused, naming the configurations modeled), checked against the register map;
// without one, the configurations whose register map holds every register the trace writes (a
// .txn: NVDLA v1's map) must be exactly one. Ambiguity throws InputError listing the candidates:
// never a silent default.
struct TraceConfig {
  std::string config;
  std::string how;      // "--config", or why the trace's configuration is this one
  std::string warning;  // not empty: --config contradicts the trace's folder
};
[[nodiscard]] TraceConfig trace_config(const std::filesystem::path& path, const std::optional<std::string>& given);

// The program as a program-layer JSON document ("unit": "program"), the format parse_program
// reads. .dat loads are referenced by absolute path; other images are written inline as bytes.
[[nodiscard]] nlohmann::json program_to_json(const Program& program, const std::string& description);

}  // namespace dla::harness
