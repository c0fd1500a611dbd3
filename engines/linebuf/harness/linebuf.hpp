// The line-buffer 3x3 engine's driver (docs/LINEBUF.md, engines/linebuf/harness/linebuf.cpp): a
// `linebuf` layer parsed into a job, run on golden and on the RTL (Vlinebuf).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/linebuf/golden/linebuf.hpp"
#include "harness/layer.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

inline constexpr int kLinebufNumPe = 4;  // the verilated model's NumPe

struct LinebufJob {
  golden::Precision precision = golden::Precision::Int8;
  golden::LinebufMap input;
  std::vector<golden::LinebufLayer> layers;
};

// Where a stack's intermediate maps go (docs/LINEBUF.md §2, "Maps on chip"): on chip, each layer
// whose output fits the map store (and the next layer's input as the engine reads it) keeps it
// there for the next layer (in_chip / out_chip set); in memory, every map leaves through `out`
// and comes back through `px`. The layer parser places them on chip unless "maps": "memory".
void place_linebuf_maps(LinebufJob& job, bool on_chip);

struct LinebufOutcome {
  // Every layer's output; on the RTL, a map kept on chip has its shape and no data (nothing
  // outside the engine sees it).
  std::vector<golden::LinebufMap> maps;
  uint64_t cycles = 0;
  // The streams' traffic on the RTL (what a DMA would read and write): pixel, weight-group and
  // output bytes.
  uint64_t px_bytes = 0, wt_bytes = 0, out_bytes = 0;
};

// Parses and checks a `linebuf` layer (docs/LAYER_FORMAT.md); throws InputError.
[[nodiscard]] LinebufJob build_linebuf_job(const LayerHeader& h, const JsonNode& root);
[[nodiscard]] LinebufOutcome run_linebuf_golden(const LinebufJob& job);
// The stack on the RTL, layer after layer, each fed the RTL's previous output; back-pressure
// `stall` on every port (seeded by `seed`).
[[nodiscard]] LinebufOutcome run_linebuf_rtl(const LinebufJob& job, const SimOptions& sopt, double stall,
                                             uint64_t seed);
// The RTL's own check of a descriptor (docs/LINEBUF.md §2, cfg_err_o): the descriptor of `L` on a
// c x h x w input sent alone; 0 when the engine takes it, else the refusal code.
[[nodiscard]] int linebuf_rtl_descriptor_error(const golden::LinebufLayer& L, int c, int h, int w,
                                               golden::Precision p, const SimOptions& sopt);
// `linebuf` layers (docs/LAYER_FORMAT.md), registered in engines/linebuf/harness/linebuf_engine.cpp.
[[nodiscard]] UnitHandler linebuf_handler();
// `dlacosim bench linebuf` (engines/linebuf/harness/linebuf_bench.cpp).
[[nodiscard]] std::vector<BenchCase> bench_linebuf(const BenchOptions& opt);
[[nodiscard]] std::string format_bench_linebuf(const std::vector<BenchCase>& cases);

}  // namespace dla::harness::engines
