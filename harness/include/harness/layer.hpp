// Layer files: the common header every layer JSON carries, and the dispatch to the unit that
// understands the rest (docs/LAYER_FORMAT.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/cmod_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/mem_model.hpp"
#include "harness/report.hpp"
#include "harness/sim.hpp"

namespace dla::harness {

struct LayerHeader {
  std::filesystem::path file;
  std::string unit;
  std::string name;
  const golden::HwConfig* config = nullptr;
  uint64_t seed = 1;
  double stall = 0.0;
};

// A corruption deliberately applied to the RTL's captured output: the self-test that proves the
// compare engine reports a flipped bit (dlacosim run --flip-bit ELEMENT:BIT).
struct FlipBit {
  std::size_t element = 0;
  int bit = 0;
};

struct RunOptions {
  std::string mode = "cross";  // cross | golden | rtl | cmod
  std::optional<uint64_t> seed;
  std::optional<double> stall;
  std::optional<std::string> config;  // overrides the layer's configuration
  SimOptions sim;                     // seed and rand_reset are filled in per run
  MemOptions mem;                     // DMA read latency and bandwidth of RTL devices
  std::filesystem::path dump_dir;
  std::size_t max_listed = 10;
  std::optional<FlipBit> flip;
  // Network files only (docs/NETWORKS.md): run up to this layer's check; dump --wave for this
  // layer's window only. Empty: not given.
  std::string stop_after, wave_layer;
  // NVIDIA's C model (docs/CMOD.md): --judge cmod adds it beside golden / the RTL; its limits and
  // log (--cmod-timeout, --cmod-quiet, --cmod-log).
  bool judge_cmod = false;
  CmodOptions cmod;
};

struct LoadedLayer {
  LayerHeader header;
  std::shared_ptr<const JsonDoc> doc;
  [[nodiscard]] JsonNode root() const { return JsonNode::root(doc); }
};

// Parses the header and fully validates the unit-specific body; throws InputError.
[[nodiscard]] LoadedLayer load_layer(const std::filesystem::path& file);

// Runs a layer in the chosen mode; never throws (errors become the result's status).
[[nodiscard]] RunResult run_layer(const std::filesystem::path& file, const RunOptions& opt);

// Unit registry: each unit validates its own body and runs it.
struct UnitHandler {
  std::string_view unit;
  void (*validate)(const LayerHeader&, const JsonNode& root);
  RunResult (*run)(const LayerHeader&, const JsonNode& root, const RunOptions& opt);
};
[[nodiscard]] const std::vector<UnitHandler>& unit_handlers();

// A layer value list: "random" with a range, inline "values", or a "file" (.bin or .bin.gz,
// little-endian signed elements of `element_bytes`). Resolved to `count` numbers.
[[nodiscard]] std::vector<int64_t> resolve_values(const JsonNode& node, std::size_t count, int element_bytes,
                                                  int64_t min, int64_t max, uint64_t seed);

// fp16 data (docs/FP16.md "Layer JSON"). One value: a JSON number that fp16 holds exactly (no
// hidden rounding), or a string "0xHHHH" (any bit pattern: -0, NaN payloads), "inf", "-inf",
// "nan". Returns the bit pattern.
[[nodiscard]] uint16_t parse_fp16(const JsonNode& node);
// One fp32 value (SDP's fp16-mode EW register operands and LUT range registers): a JSON number
// fp32 holds exactly, or "0xHHHHHHHH", "inf", "-inf", "nan". Returns the bit pattern.
[[nodiscard]] uint32_t parse_fp32(const JsonNode& node);
// An fp16 value list: "random" {"min", "max"} (fp16 values, default -2 .. 2) draws uniformly
// among the bit patterns of the finite values in [min, max] (every binade equally often, denormals
// included), with "specials" (0..1, default 0) that fraction replaced by NaNs (random sign and
// payload), +-0, +-inf, +-max and denormal edges; "values" as parse_fp16, or a "file" of 16-bit
// patterns. Sign-extended 16-bit patterns.
[[nodiscard]] std::vector<int64_t> resolve_fp16_values(const JsonNode& node, std::size_t count, uint64_t seed);
// The other way, for the layers a compiler generates: {"values": [...]} holding integers, or fp16
// bit patterns ("0x3c00") when `p` is fp16.
[[nodiscard]] nlohmann::json values_json(const std::vector<int64_t>& v, golden::Precision p);

}  // namespace dla::harness
