// `network` layers (docs/NETWORKS.md): a layer graph of `conv`, `deconv`, `sdp`, `pdp`, `cdp` and
// `rubik` layers over named tensors (and `concat` by placement: branch outputs written as channel
// slices of one cube), compiled into ONE register program: every tensor allocated in the
// network's memory (golden/layout.hpp packed feature layouts), each layer compiled by its unit's
// compiler (engines/conv/harness/conv.cpp, deconv.cpp, sdp.cpp, pdp.cpp, cdp.cpp, rubik.cpp) placed
// (harness/placement.hpp) on the tensors and constants allocated for it and on the register group
// each of its blocks is at, and scheduled as NVDLA's firmware does: layer N+1 programmed into the other group
// while layer N runs, launched after N's done interrupts, and every layer's output compared golden
// against RTL as soon as its interrupts arrived.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/layout.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/program.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

struct NetTensor {
  std::string name;
  int w = 1, h = 1, c = 1;
  // Batches ("n"): N cubes, batch-major, each packed, batch stride one packed cube. Only direct
  // conv layers (nv_full) read or write a tensor of n > 1 (CDMA / SDP batch mode).
  int n = 1;
  golden::Precision prec = golden::Precision::Int8;
  int producer = -1;                // index into CompiledNetwork::layers, -1 for a network input
  // Concat by placement: a branch tensor is channels [c_offset, c_offset + c) of tensor `parent`
  // (a concat layer's output), at the parent's strides: no memory of its own, no copy.
  int parent = -1;
  int c_offset = 0;
  // An image (a network input read by one conv layer in image input mode, docs/IMAGE_INPUT.md):
  // its pixel format ("T_R8", ...); empty for a feature cube. It has no feature layout: its planes
  // are loaded with its reader's constants, as the conv compiler lays them out.
  std::string format;
  // Automatic fusion: a conv output only a fused pdp read; it goes to PDP on the fly and never
  // reaches memory (no layout, no values).
  bool elided = false;
  golden::FeatureLayout layout{};   // where it lives (packed, the network's allocation)
  uint64_t bytes = 0;               // region_bytes of the layout
  // Network inputs: the resolved data. Produced tensors: what the golden model computed (the
  // compiler runs the program on the golden model as it builds it).
  std::vector<int64_t> values;      // N x C x H x W, batch-major then c-major
};

struct NetLayer {
  std::string name, op;
  std::string pointer;  // "/layers/3"
  int input = -1, operand = -1, output = -1;  // tensor indices (operand: sdp's EW second tensor)
  std::vector<int> inputs;  // concat: the branch tensors, in channel order (input stays -1)
  // conv: K x C x R x S weights as the compiler resolved them (for references).
  std::vector<int64_t> weights;
  int k = 0, r = 0, s = 0;
  // Automatic fusion ("fusion": "auto"): a conv carries the pdp `pool_from` on the fly; that pdp
  // has `fused_into` (the conv) and runs no hardware layer of its own.
  int pool_from = -1, fused_into = -1;
  bool overlapped = false;  // programmed while the previous layer ran (ping-pong)
  std::size_t end_step = 0;  // the program's steps up to here end with this layer's check
  uint64_t macs = 0;         // conv: K x C x R x S x W' x H' x N (real channels and kernels, every batch)
  std::vector<ProgramStep> steps;  // its unit compiler's program as placed (the loadable export reads it)
};

struct CompiledNetwork {
  Program program;
  std::vector<NetTensor> tensors;
  std::vector<NetLayer> layers;  // in file order
  std::vector<int> order;        // layer indices in execution order (the hardware layers: no concat)
  bool pingpong = true;          // "schedule": "pingpong" (default) or "sequential"
  uint64_t memory_base = 0, memory_bytes = 0, memory_used = 0;
};

// Parses, validates and compiles a network file body (throws InputError naming the file, the JSON
// pointer and the rule).
// `pingpong` overrides the file's "schedule" (bench network compares both).
[[nodiscard]] CompiledNetwork compile_network(const LayerHeader& h, const JsonNode& root,
                                              std::optional<bool> pingpong = std::nullopt);

// The compiled network as an NVDLA loadable (network_loadable.cpp, docs/LOADABLES.md "Export"):
// its layers' registers read back into the firmware's descriptors; InputError naming the layer and
// the rule for what a loadable cannot express or the export does not write yet.
[[nodiscard]] loadable::Loadable export_loadable(const CompiledNetwork& cn, const LayerHeader& h);
// The network's input tensors as the loadable's bound inputs take them (raw bytes at the
// tensor's strides), by tensor name: `dlacosim run OUT.nvdla --input NAME=FILE` then computes
// what the network file computes.
[[nodiscard]] std::vector<std::pair<std::string, std::vector<uint8_t>>> loadable_inputs(const CompiledNetwork& cn);

// Its run applies RunOptions::stop_after (the program up to that layer's check) and wave_layer
// (waves of that layer's window only: from the cycle the previous layer's check was reached to the
// cycle its own was, found by running the program up to those points on the RTL first).
[[nodiscard]] UnitHandler network_handler();


// `dlacosim bench network NET.json...` (engines/network/harness/network_bench.cpp).
[[nodiscard]] std::vector<BenchCase> bench_network(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_network(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
