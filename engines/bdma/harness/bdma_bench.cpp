// `dlacosim bench bdma`: the BDMA RTL's copy rate from memory to memory (rtl/top/nvdla_bdma_top),
// bytes copied per cycle on long lines against NVDLA's rate: every byte crosses the memory
// interface twice (read, then written), so at most half the interface's bytes per cycle
// (docs/PERFORMANCE.md, docs/BDMA.md).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "golden/config.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "harness/rng.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

constexpr uint64_t kSrc = 0x80000000ull, kDst = 0x90000000ull;

// One command of `lines` lines of `line_bytes`, packed, group 0, and the wait for its interrupt.
Program bench_program(const golden::HwConfig& hw, uint64_t line_bytes, uint64_t lines, uint64_t seed) {
  LayerHeader hd;
  hd.file = "bench-bdma";
  hd.name = fmt::format("bench_bdma_{}", line_bytes);
  hd.config = &hw;
  hd.seed = seed;
  ProgramBuilder b(hd);
  Rng rng = Rng::derive(seed, "bench bdma");
  std::vector<uint8_t> src(line_bytes * lines);
  for (auto& v : src) v = static_cast<uint8_t>(rng.next());
  b.load(kSrc, std::move(src), "source");
  const auto w = [&](const char* r, uint64_t v) { b.write(b.reg("BDMA", r), static_cast<uint32_t>(v)); };
  w("CFG_SRC_ADDR_LOW", kSrc);
  w("CFG_SRC_ADDR_HIGH", kSrc >> 32);
  w("CFG_DST_ADDR_LOW", kDst);
  w("CFG_DST_ADDR_HIGH", kDst >> 32);
  w("CFG_LINE", line_bytes / 32 - 1);
  w("CFG_CMD", 3);
  w("CFG_LINE_REPEAT", lines - 1);
  w("CFG_SRC_LINE", line_bytes);
  w("CFG_DST_LINE", line_bytes);
  w("CFG_SURF_REPEAT", 0);
  w("CFG_SRC_SURF", line_bytes * lines);
  w("CFG_DST_SURF", line_bytes * lines);
  w("CFG_OP", 1);
  w("CFG_LAUNCH0", 1);
  b.wait_intr("BDMA_0");
  return b.program();
}

}  // namespace

std::vector<BenchCase> bench_bdma(const BenchOptions& opt) {
  // 256 KiB lines (the longest) and 8 KiB lines, 1 MiB each (`--ops N`: about N bytes per case).
  const uint64_t total = opt.ops != 0 ? std::clamp<uint64_t>(opt.ops, uint64_t{256} << 10, uint64_t{64} << 20)
                                      : uint64_t{1} << 20;
  const golden::HwConfig& cfg = golden::nv_full();
  std::vector<BenchCase> cases;
  for (const uint64_t line : {uint64_t{256} << 10, uint64_t{8} << 10}) {
    const uint64_t lines = std::max<uint64_t>(1, total / line);
    const uint64_t bytes = line * lines;
    const Program prog = bench_program(cfg, line, lines, opt.seed);
    double sec = 0;
    const RunResult rr = run_bench_rtl(prog, cfg, opt, sec);
    BenchCase b;
    b.unit = "bdma";
    b.config = cfg.name;
    b.name = fmt::format("copy {} KiB lines", line >> 10);
    b.element = "byte";
    b.cycles = rr.cycles;
    b.elements = bytes;
    // No unit limit but the interface: each byte is read and written (2 bytes moved per byte).
    b.nvdla_elements_per_cycle = nvdla_rate(std::numeric_limits<double>::infinity(),
                                            nvdla_interface_bytes(cfg, opt.mem), bytes, 2 * bytes);
    b.wall_s = sec;
    b.mem = opt.mem;
    b.dma = rr.dma;
    b.status = std::string(status_name(rr.status));
    b.extra = {{"cube", fmt::format("{} x {} B", lines, line)},
               {"layer_bytes", 2 * bytes},
               {"sim_elements_per_s", static_cast<double>(bytes) / sec}};
    cases.push_back(std::move(b));
  }
  return cases;
}

std::string format_bench_bdma(const std::vector<BenchCase>& cases) {
  std::string out = format_rate_table(cases);
  out += "one command per case, read through 32-byte DMA atoms and written whole; NVDLA's rate is half its memory "
         "interface (each byte read and written)\n";
  return out;
}

}  // namespace dla::harness::engines
