// The `network` compiler's parts shared by its files (network_graph.cpp: the graph;
// network_compile.cpp: the layers and the schedule). Internal: the unit's interface is network.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/network/harness/network.hpp"
#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/layer_rules.hpp"

namespace dla::harness::engines::network_detail {

inline constexpr uint64_t kMemoryBase = 0x1000'0000ull;   // the network's memory window starts here
inline constexpr uint64_t kMemoryMax = 0x6000'0000ull;    // and ends below the unit compilers' fixed regions

// Keys of a network layer per op, besides name / op / input / output / description.
[[nodiscard]] std::vector<std::string_view> op_keys(std::string_view op);
[[nodiscard]] const char* prec_name(golden::Precision p);

// The network being compiled: the result so far, the file's nodes, the memory allocated.
struct Net {
  const LayerHeader* h = nullptr;
  const golden::HwConfig* hw = nullptr;
  CompiledNetwork out;
  std::vector<JsonNode> layer_nodes, tensor_nodes;
  uint64_t next_free = kMemoryBase;
  std::optional<JsonNode> memory_node;

  [[noreturn]] void fail_at(const std::string& pointer, const std::string& rule) const;
  // Allocates `bytes` in the network's memory window or fails at `at`.
  uint64_t allocate(uint64_t bytes, const JsonNode& at, const std::string& what);
};

// The graph (network_graph.cpp), in the order compile_network runs it: tensors and layers parsed
// and checked, concat branches placed, the execution order, network inputs' data, the memory.
void parse_tensors(Net& n, const JsonNode& root);
void parse_layers(Net& n, const JsonNode& root);
void place_concats(Net& n);
void check_images(const Net& n);
void check_batches(const Net& n);
void order_layers(Net& n);
void resolve_inputs(Net& n);
void allocate_tensors(Net& n);
// The tensors a layer reads: what it waits for.
[[nodiscard]] std::vector<int> reads(const NetLayer& L);

}  // namespace dla::harness::engines::network_detail
