// `dlacosim bench cdp`: the CDP RTL's rate from memory (rtl/top/nvdla_cdp_top), elements per
// cycle against NVDLA's rate min(CDP_THROUGHPUT, memory interface x elements / bytes moved)
// (docs/PERFORMANCE.md, docs/CDP_RTL.md). An element is one input element of one lane (all lanes
// of the last surface count: CDP processes and writes them).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>

#include "golden/config.hpp"
#include "engines/lut/golden/lut.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "harness/rng.hpp"
#include "harness/program_builder.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

namespace {

constexpr uint64_t kIn = 0x80000000ull, kOut = 0x81000000ull;

// An LRN layer of w x h x c from memory: the LUT (LE exponent, LO linear) loaded through
// S_LUT_ACCESS_*, window 5, both converters active (integer data), CDP then CDP_RDMA enabled.
// fmt is NVDLA's D_DATA_FORMAT code (0 int8, 1 int16, 2 fp16: fp32 ranges, fp16 entries).
Program bench_program(const golden::HwConfig& hw, int w, int h, int c, uint32_t fmt_v, uint64_t seed) {
  static constexpr std::array<const char*, 3> kSuffix{"", "_int16", "_fp16"};
  LayerHeader hd;
  hd.file = "bench-cdp";
  hd.name = fmt::format("bench_cdp_{}{}", hw.name, kSuffix.at(fmt_v));
  hd.config = &hw;
  hd.seed = seed;
  ProgramBuilder b(hd);
  const int atom = hw.atom_bytes, bpe = fmt_v != 0 ? 2 : 1, lanes = atom / bpe, surf = (c + lanes - 1) / lanes;
  Rng rng = Rng::derive(seed, "bench cdp");
  std::vector<uint8_t> in(static_cast<std::size_t>(surf * h * w * atom));
  for (auto& v : in) v = static_cast<uint8_t>(rng.next());
  b.load(kIn, std::move(in), "input");
  const auto cdp = [&](const char* r, uint32_t v) { b.write(b.reg("CDP", r), v); };
  const auto rdma = [&](const char* r, uint32_t v) { b.write(b.reg("CDP_RDMA", r), v); };
  cdp("S_POINTER", 0);
  rdma("S_POINTER", 0);
  golden::LutConfig lut;
  lut.precision = fmt_v == 0 ? golden::LutPrecision::Int8 : golden::LutPrecision::Int16;
  lut.le_index_offset = 0;
  lut.lo_index_select = static_cast<int8_t>(fmt_v == 1 ? 20 : fmt_v == 2 ? 0 : 8);
  golden::LutTables t;
  if (fmt_v == 2) {
    // fp32 range registers (LE 0 .. 2^64, LO 0 .. 256), fp16 entries (1.0 halving every 4, and
    // 1.0 down by 2^-9 a step)
    lut.le_end = std::bit_cast<uint32_t>(0x1p64f);
    lut.lo_end = std::bit_cast<uint32_t>(256.0f);
    for (std::size_t i = 0; i < t.le.size(); ++i) t.le[i] = static_cast<int16_t>(0x3c00 - 0x400 * (i / 4));
    for (std::size_t i = 0; i < t.lo.size(); ++i) t.lo[i] = static_cast<int16_t>(0x3c00 - i);
  } else {
    lut.le_end = int64_t{1} << 36;
    lut.lo_end = int64_t{256} << lut.lo_index_select;
    for (std::size_t i = 0; i < t.le.size(); ++i) t.le[i] = static_cast<int16_t>(16384 >> (i / 4));
    for (std::size_t i = 0; i < t.lo.size(); ++i) t.lo[i] = static_cast<int16_t>(16384 - 32 * i);
  }
  for (const auto& [off, v] : golden::lut_register_writes(golden::LutVariant::Cdp, lut, t)) {
    b.write(b.reg_at("CDP", off), v);
  }
  const auto u = [](int v) { return static_cast<uint32_t>(v); };
  cdp("D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(kOut));
  cdp("D_DST_LINE_STRIDE", u(w * atom));
  cdp("D_DST_SURFACE_STRIDE", u(w * h * atom));
  cdp("D_DATA_FORMAT", fmt_v);
  cdp("D_LRN_CFG", 1);
  cdp("D_DATIN_SCALE", 1);
  cdp("D_DATOUT_SCALE", 1);
  cdp("D_DATOUT_SHIFTER", 14);
  rdma("D_DATA_CUBE_WIDTH", u(w - 1));
  rdma("D_DATA_CUBE_HEIGHT", u(h - 1));
  rdma("D_DATA_CUBE_CHANNEL", u(c - 1));
  rdma("D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(kIn));
  rdma("D_SRC_LINE_STRIDE", u(w * atom));
  rdma("D_SRC_SURFACE_STRIDE", u(w * h * atom));
  rdma("D_DATA_FORMAT", fmt_v);
  cdp("D_OP_ENABLE", 1);
  rdma("D_OP_ENABLE", 1);
  b.wait_intr("CDP_0");
  return b.program();
}

}  // namespace

std::vector<BenchCase> bench_cdp(const BenchOptions& opt) {
  // 64 x 32 x 64 (`--ops N` scales H to about N input elements), int8; int16 and fp16 on nv_full.
  int h = 32;
  if (opt.ops != 0) h = static_cast<int>(std::clamp<uint64_t>(opt.ops / (64 * 64), 1, 8192));
  constexpr int kW = 64, kC = 64;
  struct Case {
    const golden::HwConfig* hw;
    uint32_t fmt;  // D_DATA_FORMAT
  };
  static constexpr std::array<const char*, 3> kName{"int8", "int16", "fp16"};
  std::vector<BenchCase> cases;
  std::vector<Case> runs;
  for (const auto* hw : bench_configs(opt, {&golden::nv_small(), &golden::nv_large(), &golden::nv_full()})) {
    runs.push_back({hw, 0});
    if (hw->supports(golden::Precision::Int16)) runs.push_back({hw, 1});
    if (hw->supports(golden::Precision::Fp16)) runs.push_back({hw, 2});
  }
  for (const Case& k : runs) {
    const golden::HwConfig& cfg = *k.hw;
    const Program prog = bench_program(cfg, kW, h, kC, k.fmt, opt.seed);
    const uint64_t bpe = k.fmt != 0 ? 2 : 1;
    const uint64_t lanes = static_cast<uint64_t>(cfg.atom_bytes) / bpe;
    const uint64_t elements = uint64_t{kW} * static_cast<uint64_t>(h) * ((kC + lanes - 1) / lanes * lanes);
    const uint64_t bytes = 2 * elements * bpe;  // every element read and written once
    double sec = 0;
    const RunResult rr = run_bench_rtl(prog, cfg, opt, sec);
    BenchCase b;
    b.unit = "cdp";
    b.config = cfg.name;
    b.name = fmt::format("memory lrn5 {}", kName.at(k.fmt));
    b.element = "element";
    b.cycles = rr.cycles;
    b.elements = elements;
    b.nvdla_elements_per_cycle = nvdla_rate(cfg.cdp_throughput, nvdla_interface_bytes(cfg, opt.mem), elements, bytes);
    b.wall_s = sec;
    b.mem = opt.mem;
    b.dma = rr.dma;
    b.status = std::string(status_name(rr.status));
    b.extra = {{"cube", fmt::format("{}x{}x{}", kW, h, kC)},
               {"layer_bytes", bytes},
               {"sim_elements_per_s", static_cast<double>(elements) / sec}};
    cases.push_back(std::move(b));
  }
  return cases;
}

std::string format_bench_cdp(const std::vector<BenchCase>& cases) {
  std::string out = format_rate_table(cases);
  out += "cycles include the LUT and register programming over the CSB (about 360 writes)\n";
  return out;
}

}  // namespace dla::harness::engines
