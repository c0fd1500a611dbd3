// The CDP RTL (rtl/top/nvdla_engine_top.sv (Engine "cdp"); docs/CDP_RTL.md):
//   * NVDLA's cdp_* traces (13 nv_small, 1 nv_large) in cross mode (RTL beside the golden model)
//     under cross_stress's legs: NVIDIA's CRC judges;
//   * generated register programs (random cube sizes with partial W chunks and partial last
//     surfaces, NORMALZ_LEN 3/5/7/9, both bypasses, random converters that saturate, random LUT
//     tables and configurations, int8 and int16, either enable order, a gap in the input strides)
//     whose output must equal an int64 reference written here from the spec
//     (pdp-cdp-bdma-rubik.md §3.2, nvdla-arithmetic.md §5; the LUT lookup itself is the separately
//     verified dla::golden::lut_lookup), D_OUT_SATURATION and the D_PERF_LUT_* counters its counts,
//     and the golden model (cross mode), under the stress legs;
//   * every bundled `cdp` JSON layer (testvectors/layers/cdp) in cross mode under the stress legs;
//   * fp16 (nv_full): the bundled fp16 cdp layers and 60 generated ones (`random cdp --focus
//     fp16`) against golden under the stress legs, the NaN / Inf counters read back;
//   * two layers queued in both register groups;
//   * refusals of what this RTL does not compute (exit 2 naming the register and the rule).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <string>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "engines/cdp/harness/cdp_random.hpp"
#include "engines/lut/golden/lut.hpp"
#include "harness/errors.hpp"
#include "harness/layer.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "harness/program_builder.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;
namespace golden = dla::golden;

namespace {

std::vector<fs::path> cdp_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("cdp_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- generated layers

struct Lrn {
  int w = 1, h = 1, c = 1;
  bool int16 = false;
  int len = 0;  // NORMALZ_LEN field: window 3 + 2 len
  bool sq_bypass = false, mul_bypass = false;
  int in_off = 0, in_scale = 1, in_shift = 0;
  int64_t out_off = 0;
  int out_scale = 1, out_shift = 0;
  int line_gap = 0;  // extra atoms per input line
  bool rdma_first = false;
  bool lut_en = true;  // D_PERF_ENABLE.LUT_EN: the LUT counters count
  golden::LutConfig lut;
  golden::LutTables tables;
  [[nodiscard]] std::string str() const {
    return fmt::format("{}x{}x{} {} window {}{}{} in ({} {} {}) out ({} {} {}) le {} sel {}/{} off {} gap {} {}", w, h, c,
                       int16 ? "int16" : "int8", 3 + 2 * len, sq_bypass ? " sqsum-bypass" : "",
                       mul_bypass ? " mul-bypass" : "", in_off, in_scale, in_shift, out_off, out_scale, out_shift,
                       lut.le_linear ? "linear" : "exponent", lut.le_index_select, lut.lo_index_select,
                       lut.le_index_offset, line_gap, rdma_first ? "rdma-first" : "cdp-first") +
           (lut_en ? "" : " LUT_EN 0");
  }
};

__int128 rhaz(__int128 v, int s) {
  if (s == 0) return v;
  const __int128 half = __int128{1} << (s - 1);
  return v >= 0 ? (v + half) >> s : -((-v + half) >> s);
}

int64_t clamp(__int128 v, int bits, bool& sat) {
  const __int128 hi = (__int128{1} << (bits - 1)) - 1, lo = -(__int128{1} << (bits - 1));
  sat = v > hi || v < lo;
  return static_cast<int64_t>(std::clamp(v, lo, hi));
}

struct Expected {
  std::vector<uint8_t> out;
  uint32_t saturated = 0;
  golden::LutStats stats;
};

// int64 reference of every lane of every surface (whole atoms are written).
Expected reference(const Lrn& p, const std::vector<uint8_t>& in, int atom) {
  const int bpe = p.int16 ? 2 : 1, lanes = atom / bpe, surf = (p.c + lanes - 1) / lanes;
  const int line = (p.w + p.line_gap) * atom;
  Expected e;
  e.out.assign(static_cast<std::size_t>(surf * p.h * p.w * atom), 0);
  const int half = 1 + p.len;
  std::vector<int64_t> x(static_cast<std::size_t>(surf * lanes));
  for (int y = 0; y < p.h; ++y) {
    for (int col = 0; col < p.w; ++col) {
      for (int c = 0; c < surf * lanes; ++c) {
        const std::size_t a = static_cast<std::size_t>((c / lanes) * p.h * line + y * line + col * atom + (c % lanes) * bpe);
        const int64_t raw = p.int16 ? static_cast<int16_t>(in[a] | (in[a + 1] << 8)) : static_cast<int8_t>(in[a]);
        const int64_t off = p.int16 ? static_cast<int16_t>(p.in_off) : static_cast<int8_t>(p.in_off);
        bool unused = false;
        // channels >= C are filled with DATIN_OFFSET: 0 after the converter
        x[static_cast<std::size_t>(c)] =
            c < p.c ? clamp(rhaz(__int128{raw - off} * p.in_scale, p.in_shift), p.int16 ? 17 : 9, unused) : 0;
      }
      for (int c = 0; c < surf * lanes; ++c) {
        int64_t q = 0;
        for (int j = c - half; j <= c + half; ++j) {
          if (j >= 0 && j < p.c) q += x[static_cast<std::size_t>(j)] * x[static_cast<std::size_t>(j)];
        }
        const int64_t xc = x[static_cast<std::size_t>(c)];
        const golden::LutResult r = golden::lut_lookup(golden::LutVariant::Cdp, p.lut, p.tables, p.sq_bypass ? xc : q);
        if (p.lut_en) golden::accumulate(golden::LutVariant::Cdp, e.stats, r);
        const int64_t prod = p.mul_bypass ? r.value : r.value * xc;
        const int64_t ooff = p.int16 ? p.out_off : (p.out_off << 39) >> 39;  // int8: 25-bit offset
        bool sat = false;
        const __int128 v = __int128{prod - ooff} * p.out_scale;
        const int64_t o = clamp(rhaz(v, p.out_shift), p.int16 ? 16 : 8, sat);
        // NVDLA's flag (IntShiftRightSat): the floor shift more than 1 from the output.
        const __int128 gap = (v >> p.out_shift) - o;
        if (sat && (gap > 1 || gap < -1)) ++e.saturated;
        const std::size_t a = static_cast<std::size_t>(((c / lanes) * p.h * p.w + y * p.w + col) * atom + (c % lanes) * bpe);
        e.out[a] = static_cast<uint8_t>(o);
        if (p.int16) e.out[a + 1] = static_cast<uint8_t>(o >> 8);
      }
    }
  }
  return e;
}

constexpr uint64_t kIn = 0x80000000ull, kOut = 0x80800000ull;

// Appends layer `p` in register group `group` (input at `in`, output at `out`; the LUT, a single
// register set, only when `load_lut`): memory, registers, enables in p's order. Returns the
// reference result.
Expected add_layer(engines::ProgramBuilder& b, const Lrn& p, const golden::HwConfig& hw, Rng& rng, int group,
                   uint64_t in_addr, uint64_t out_addr, bool load_lut) {
  const int atom = hw.atom_bytes, bpe = p.int16 ? 2 : 1, lanes = atom / bpe, surf = (p.c + lanes - 1) / lanes;
  const int line = (p.w + p.line_gap) * atom;
  std::vector<uint8_t> in(static_cast<std::size_t>(surf * p.h * line));
  for (auto& v : in) v = static_cast<uint8_t>(rng.next());
  b.load(in_addr, in, "input");
  const auto wr = [&](const std::string& reg, uint32_t v) {
    const auto dot = reg.find('.');
    b.write(b.reg(reg.substr(0, dot), reg.substr(dot + 1)), v);
  };
  const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  wr("CDP.S_POINTER", u(group));
  wr("CDP_RDMA.S_POINTER", u(group));
  if (load_lut) {
    // configuration words, then the tables through S_LUT_ACCESS_CFG / DATA (LO first, as the
    // traces do)
    const auto words = golden::encode_lut_config(golden::LutVariant::Cdp, p.lut);
    const char* names[] = {"S_LUT_CFG",           "S_LUT_INFO",          "S_LUT_LE_START_LOW",   "S_LUT_LE_START_HIGH",
                           "S_LUT_LE_END_LOW",    "S_LUT_LE_END_HIGH",   "S_LUT_LO_START_LOW",   "S_LUT_LO_START_HIGH",
                           "S_LUT_LO_END_LOW",    "S_LUT_LO_END_HIGH",   "S_LUT_LE_SLOPE_SCALE", "S_LUT_LE_SLOPE_SHIFT",
                           "S_LUT_LO_SLOPE_SCALE", "S_LUT_LO_SLOPE_SHIFT"};
    REQUIRE(words.size() == 14);
    for (std::size_t k = 0; k < words.size(); ++k) wr(std::string("CDP.") + names[k], words[k]);
    wr("CDP.S_LUT_ACCESS_CFG", golden::lut_access_cfg(true, true, 0));
    for (const int16_t v : p.tables.lo) wr("CDP.S_LUT_ACCESS_DATA", static_cast<uint16_t>(v));
    wr("CDP.S_LUT_ACCESS_CFG", golden::lut_access_cfg(false, true, 0));
    for (const int16_t v : p.tables.le) wr("CDP.S_LUT_ACCESS_DATA", static_cast<uint16_t>(v));
  }
  const uint32_t fmt_v = p.int16 ? 1u : 0u;
  wr("CDP.D_FUNC_BYPASS", (p.sq_bypass ? 1u : 0u) | (p.mul_bypass ? 2u : 0u));
  wr("CDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(out_addr));
  wr("CDP.D_DST_BASE_ADDR_HIGH", 0);
  wr("CDP.D_DST_LINE_STRIDE", u(p.w * atom));
  wr("CDP.D_DST_SURFACE_STRIDE", u(p.w * p.h * atom));
  wr("CDP.D_DST_DMA_CFG", 1);  // MC: nv_small has no CV-SRAM (the reset value 0 selects it)
  wr("CDP.D_DATA_FORMAT", fmt_v);
  wr("CDP.D_LRN_CFG", u(p.len));
  wr("CDP.D_DATIN_OFFSET", u(p.in_off) & 0xffffu);
  wr("CDP.D_DATIN_SCALE", u(p.in_scale) & 0xffffu);
  wr("CDP.D_DATIN_SHIFTER", u(p.in_shift));
  wr("CDP.D_DATOUT_OFFSET", u(p.out_off));
  wr("CDP.D_DATOUT_SCALE", u(p.out_scale) & 0xffffu);
  wr("CDP.D_DATOUT_SHIFTER", u(p.out_shift));
  wr("CDP.D_PERF_ENABLE", p.lut_en ? 3u : 1u);
  wr("CDP_RDMA.D_DATA_CUBE_WIDTH", u(p.w - 1));
  wr("CDP_RDMA.D_DATA_CUBE_HEIGHT", u(p.h - 1));
  wr("CDP_RDMA.D_DATA_CUBE_CHANNEL", u(p.c - 1));
  wr("CDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(in_addr));
  wr("CDP_RDMA.D_SRC_BASE_ADDR_HIGH", 0);
  wr("CDP_RDMA.D_SRC_LINE_STRIDE", u(line));
  wr("CDP_RDMA.D_SRC_SURFACE_STRIDE", u(line * p.h));
  wr("CDP_RDMA.D_SRC_DMA_CFG", 1);
  wr("CDP_RDMA.D_DATA_FORMAT", fmt_v);
  if (p.rdma_first) wr("CDP_RDMA.D_OP_ENABLE", 1);
  wr("CDP.D_OP_ENABLE", 1);
  if (!p.rdma_first) wr("CDP_RDMA.D_OP_ENABLE", 1);
  return reference(p, in, atom);
}

// Waits for group `group`, then checks its output against the reference and the golden model
// and its statistics registers (S_POINTER selects the group read).
void check_layer(engines::ProgramBuilder& b, const Expected& e, int group, uint64_t out_addr) {
  b.wait_intr(fmt::format("CDP_{}", group));
  ProgramStep& ref = b.add(StepOp::Check, fmt::format("int64 reference, group {}", group));
  ref.check = CheckKind::File;
  ref.addr = out_addr;
  ref.file = "int64 reference";
  ref.bytes = e.out;
  b.check_golden(out_addr, e.out.size());
  // statistics of the finished group (S_POINTER selects it), counted by the reference over every lane
  b.write(b.reg("CDP", "S_POINTER"), static_cast<uint32_t>(group));
  b.read(b.reg("CDP", "D_OUT_SATURATION"), e.saturated);
  b.read(b.reg("CDP", "D_PERF_LUT_UFLOW"), e.stats.uflow);
  b.read(b.reg("CDP", "D_PERF_LUT_OFLOW"), e.stats.oflow);
  b.read(b.reg("CDP", "D_PERF_LUT_HYBRID"), e.stats.hybrid);
  b.read(b.reg("CDP", "D_PERF_LUT_LE_HIT"), e.stats.le_hit);
  b.read(b.reg("CDP", "D_PERF_LUT_LO_HIT"), e.stats.lo_hit);
}

engines::ProgramBuilder builder(const golden::HwConfig& hw, const std::string& name) {
  LayerHeader h;
  h.file = "generated";
  h.name = name;
  h.config = &hw;
  return engines::ProgramBuilder(h);
}

Program program_of(const Lrn& p, const golden::HwConfig& hw, Rng& rng) {
  engines::ProgramBuilder b = builder(hw, "cdp " + p.str());
  const Expected e = add_layer(b, p, hw, rng, 0, kIn, kOut, true);
  check_layer(b, e, 0, kOut);
  return b.program();
}

// Random layer; the LUT ranges are placed over the square sums the layer produces (int8: up to
// 9 x 2^16, int16: 9 x 2^32), so every table status occurs.
Lrn random_lrn(Rng& rng, const golden::HwConfig& hw) {
  Lrn p;
  p.int16 = hw.int16 && rng.chance(0.5);
  p.w = static_cast<int>(rng.range(1, rng.chance(0.3) ? 40 : 12));
  p.h = static_cast<int>(rng.range(1, 4));
  p.c = static_cast<int>(rng.range(1, rng.chance(0.3) ? 100 : 3 * hw.atom_bytes));
  p.len = static_cast<int>(rng.range(0, 3));
  p.sq_bypass = rng.chance(0.2);
  p.mul_bypass = rng.chance(0.3);
  const int ebits = p.int16 ? 16 : 8;
  p.in_off = static_cast<int>(rng.range(-(1 << (ebits - 2)), (1 << (ebits - 2)) - 1));
  p.in_scale = static_cast<int>(rng.range(-3, 3) * (rng.chance(0.3) ? rng.range(1, 300) : 1));
  if (p.in_scale == 0) p.in_scale = 1;
  p.in_shift = static_cast<int>(rng.range(0, rng.chance(0.2) ? 31 : 4));
  p.out_off = rng.range(-2000, 2000);
  p.out_scale = static_cast<int>(rng.range(-5, 5) * rng.range(1, 1000));
  if (p.out_scale == 0) p.out_scale = 1;
  p.out_shift = static_cast<int>(rng.range(0, rng.chance(0.1) ? 63 : (p.int16 ? 30 : 20)));
  p.line_gap = rng.chance(0.3) ? static_cast<int>(rng.range(1, 3)) : 0;
  p.rdma_first = rng.chance(0.5);
  p.lut_en = rng.chance(0.8);
  golden::LutConfig& l = p.lut;
  l.precision = p.int16 ? golden::LutPrecision::Int16 : golden::LutPrecision::Int8;
  l.le_linear = rng.chance(0.5);
  l.uflow_prio_lo = rng.chance(0.5);
  l.oflow_prio_lo = rng.chance(0.5);
  l.hybrid_prio_lo = rng.chance(0.5);
  const int qbits = p.sq_bypass ? (p.int16 ? 17 : 9) : (p.int16 ? 35 : 19);  // typical |Q|
  // selects: 6-bit (int8) / 7-bit (int16) signed in the hardware
  // a third of the layers get narrow tables, which both overflow (an exponent LE cannot)
  const int narrow = rng.chance(0.35) ? 5 : 0;
  const int lo_sel = std::max(0, static_cast<int>(rng.range(std::max(0, qbits - 12), qbits - 6)) - narrow);
  const int le_sel = std::max(0, static_cast<int>(rng.range(std::max(0, qbits - 8), qbits - 4)) - narrow);
  l.lo_index_select = static_cast<int8_t>(lo_sel);
  l.le_index_select = static_cast<int8_t>(le_sel);
  l.le_index_offset = static_cast<int8_t>(rng.range(-2, 6));
  const int64_t span = int64_t{1} << qbits;
  l.le_start = rng.range(-span / 8, span / 8);
  l.lo_start = rng.range(-span / 8, span / 4);
  l.le_end = l.le_start + (l.le_linear ? (int64_t{64} << le_sel) : (int64_t{1} << std::min(37, 64 + l.le_index_offset)));
  l.lo_end = l.lo_start + (int64_t{256} << lo_sel);
  l.le_end = std::min<int64_t>(l.le_end, (int64_t{1} << 37) - 1);
  l.lo_end = std::min<int64_t>(l.lo_end, (int64_t{1} << 37) - 1);
  l.le_uflow_scale = static_cast<int16_t>(rng.range(-32768, 32767));
  l.le_oflow_scale = static_cast<int16_t>(rng.range(-32768, 32767));
  l.lo_uflow_scale = static_cast<int16_t>(rng.range(-32768, 32767));
  l.lo_oflow_scale = static_cast<int16_t>(rng.range(-32768, 32767));
  l.le_uflow_shift = static_cast<int>(rng.range(-16, 15));
  l.le_oflow_shift = static_cast<int>(rng.range(-16, 15));
  l.lo_uflow_shift = static_cast<int>(rng.range(-16, 15));
  l.lo_oflow_shift = static_cast<int>(rng.range(-16, 15));
  for (auto& v : p.tables.le) v = static_cast<int16_t>(rng.range(-32768, 32767));
  for (auto& v : p.tables.lo) v = static_cast<int16_t>(rng.range(-32768, 32767));
  return p;
}

void run_generated(const golden::HwConfig& hw, int count, uint64_t seed = 14) {
  Rng rng = Rng::derive(seed, hw.name);
  const std::vector<RunOptions> legs = cross_stress::options();
  golden::LutStats seen;
  uint32_t saturated = 0;
  for (int i = 0; i < count; ++i) {
    const Lrn p = random_lrn(rng, hw);
    const Program prog = program_of(p, hw, rng);
    const RunOptions& o = legs[static_cast<std::size_t>(i) % legs.size()];
    const RunResult r = run_program_in_mode(prog, hw, o);
    INFO(hw.name << " layer " << i << ": " << p.str() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset
                 << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
    REQUIRE(r.compares.size() == 2);
    for (const ProgramStep& st : prog.steps) {
      if (st.op != StepOp::RegRead) continue;
      if (st.reg->name == "D_OUT_SATURATION") saturated += st.value;
      if (st.reg->name == "D_PERF_LUT_UFLOW") seen.uflow += st.value;
      if (st.reg->name == "D_PERF_LUT_OFLOW") seen.oflow += st.value;
      if (st.reg->name == "D_PERF_LUT_HYBRID") seen.hybrid += st.value;
      if (st.reg->name == "D_PERF_LUT_LE_HIT") seen.le_hit += st.value;
      if (st.reg->name == "D_PERF_LUT_LO_HIT") seen.lo_hit += st.value;
    }
  }
  // The generator reaches every LUT status and the output clamp.
  INFO(hw.name << ": uflow " << seen.uflow << " oflow " << seen.oflow << " hybrid " << seen.hybrid << " le " << seen.le_hit
               << " lo " << seen.lo_hit << " saturated " << saturated);
  CHECK(seen.uflow > 0);
  CHECK(seen.oflow > 0);
  CHECK(seen.hybrid > 0);
  CHECK(seen.le_hit > 0);
  CHECK(seen.lo_hit > 0);
  CHECK(saturated > 0);
}

}  // namespace

TEST_CASE("CDP RTL reproduces NVIDIA's CRC on every cdp trace under the stress legs", "[rtl][cdp][traces]") {
  struct Dir {
    const char* dir;
    const golden::HwConfig& hw;
    std::size_t expected;
  };
  for (const Dir& d : {Dir{"nv_small", golden::nv_small(), 13}, Dir{"nv_large", golden::nv_large(), 1}}) {
    std::size_t ran = 0;
    for (const auto& cfg : cdp_traces(d.dir)) {
      const Program p = import_nvdla_cfg(cfg, d.hw.name);
      for (const RunOptions& o : cross_stress::options()) {
        const RunResult r = run_program_in_mode(p, d.hw, o);
        INFO(cfg.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n"
                                     << format_run(r));
        REQUIRE(r.status == Status::Pass);
        REQUIRE_FALSE(r.compares.empty());
        CHECK(r.cycles > 0);
      }
      ++ran;
    }
    CHECK(ran == d.expected);
  }
}

TEST_CASE("CDP RTL equals an int64 LRN reference and the golden model on generated layers", "[rtl][cdp]") {
  run_generated(golden::nv_small(), 80);
  run_generated(golden::nv_large(), 60);
  run_generated(golden::nv_full(), 60);  // int8 and int16
}

TEST_CASE("CDP RTL on 1000 generated layers per configuration (long)", "[rtl][cdp][.long]") {
  run_generated(golden::nv_small(), 1000, 1014);
  run_generated(golden::nv_large(), 1000, 1014);
  run_generated(golden::nv_full(), 1000, 1014);
}

TEST_CASE("every bundled cdp layer passes on the RTL against golden under the stress legs", "[rtl][cdp][cdp_layers]") {
  cross_stress::run_bundled_layers("cdp", 25);
}

// fp16 (nv_full): golden is the judge here; NVIDIA's C model judges the same generator three ways
// (tests/cmod/test_cmod_campaigns.cpp) and the bundled layers (tests/cmod/test_fp16_layers_cmod.cpp).
TEST_CASE("every bundled fp16 cdp layer passes on the RTL against golden under the stress legs", "[rtl][cdp][fp16]") {
  cross_stress::run_bundled_layers("fp16", 5, false, "cdp_");
}

TEST_CASE("CDP RTL equals golden on 60 generated fp16 layers under the stress legs", "[rtl][cdp][fp16]") {
  cross_stress::cross_generated<RandomLayer>("cdp", "fp16", golden::nv_full(), 60, 19, "cdp_rtl_fp16",
                                             &generate_cdp_layer, &engines::compile_cdp_layer, {"CDP", "CDP_RDMA"});
}

TEST_CASE("CDP RTL runs two layers queued in both register groups, each with its own settings", "[rtl][cdp]") {
  // Group 0 and group 1 are programmed back to back (the second while the first runs; the LUT is
  // single and loaded once), then both interrupts are awaited and both outputs checked.
  for (const auto* hw : {&golden::nv_small(), &golden::nv_large(), &golden::nv_full()}) {
    Rng rng = Rng::derive(15, hw->name);
    const std::vector<RunOptions> legs = cross_stress::options();
    for (std::size_t i = 0; i < legs.size(); ++i) {
      Lrn a = random_lrn(rng, *hw);
      Lrn b = random_lrn(rng, *hw);
      b.lut = a.lut;  // one LUT for both layers; the configuration words follow the precision
      b.tables = a.tables;
      b.int16 = a.int16;
      b.rdma_first = !a.rdma_first;
      engines::ProgramBuilder pb = builder(*hw, "cdp two groups");
      const uint64_t in_b = kIn + 0x400000, out_b = kOut + 0x400000;
      const Expected ea = add_layer(pb, a, *hw, rng, 0, kIn, kOut, true);
      const Expected eb = add_layer(pb, b, *hw, rng, 1, in_b, out_b, false);
      check_layer(pb, ea, 0, kOut);
      check_layer(pb, eb, 1, out_b);
      const RunResult r = run_program_in_mode(pb.program(), *hw, legs[i]);
      INFO(hw->name << " pair " << i << ": " << a.str() << " / " << b.str() << "\n" << format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE(r.compares.size() == 4);
    }
  }
}

namespace {

// Replays a generated program's register writes on the CDP RTL device, with `edit` applied to
// each (block.register, value); the guard's refusal at D_OP_ENABLE, or "" when the layer launches.
template <class Edit>
std::string refusal(const golden::HwConfig& hw, bool int16, Edit edit) {
  Rng rng(3);
  Lrn p;
  p.w = 4;
  p.h = 2;
  p.c = 16;
  p.int16 = int16;
  const Program prog = program_of(p, hw, rng);
  RunOptions o;
  std::string why;
  auto dev = make_rtl_device({"CDP", "CDP_RDMA"}, hw, o, why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  try {
    for (const ProgramStep& st : prog.steps) {
      if (st.op != StepOp::RegWrite) continue;
      dev->reg_write(*db.address(hw.name, *st.reg), edit(st.reg->block + "." + st.reg->name, st.value));
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("CDP RTL device refuses what the RTL does not compute, naming the register and the rule", "[rtl][cdp]") {
  const auto same = [](const std::string&, uint32_t v) { return v; };
  CHECK(refusal(golden::nv_small(), false, same).empty());
  CHECK(refusal(golden::nv_full(), true, same).empty());
  // fp16 launches where the build has it (nv_full), is refused where not; format 3 is reserved
  const auto fmt = [](uint32_t f) {
    return [f](const std::string& r, uint32_t v) { return r.find("D_DATA_FORMAT") != std::string::npos ? f : v; };
  };
  CHECK(refusal(golden::nv_full(), false, fmt(2)).empty());
  const std::string r_fp16 = refusal(golden::nv_large(), false, fmt(2));
  CHECK(r_fp16.find("CDP.D_DATA_FORMAT") != std::string::npos);
  CHECK(r_fp16.find("FP16: nv_large has no fp16") != std::string::npos);
  const std::string r_reserved = refusal(golden::nv_full(), false, fmt(3));
  CHECK(r_reserved.find("D_DATA_FORMAT") != std::string::npos);
  CHECK(r_reserved.find("3 is reserved") != std::string::npos);
  CHECK(refusal(golden::nv_small(), true, same).find("nv_small has no int16") != std::string::npos);
  const auto mixed = [](const std::string& r, uint32_t v) { return r == "CDP_RDMA.D_DATA_FORMAT" ? 1u : v; };
  const std::string r_mixed = refusal(golden::nv_full(), false, mixed);
  CHECK(r_mixed.find("CDP.D_DATA_FORMAT") != std::string::npos);
  CHECK(r_mixed.find("differs from CDP_RDMA's") != std::string::npos);
  const auto odd = [](const std::string& r, uint32_t v) { return r == "CDP.D_DST_LINE_STRIDE" ? v + 4 : v; };
  const std::string r_odd = refusal(golden::nv_small(), false, odd);
  CHECK(r_odd.find("CDP.D_DST_LINE_STRIDE") != std::string::npos);
  CHECK(r_odd.find("memory atom") != std::string::npos);
  // CDP with a unit no top pairs it with (RUBIK) is refused, naming both; CDP with the
  // nvdla_core blocks runs on nvdla_core + nvdla_cdp_top (networks with LRN).
  std::string why;
  RunOptions o;
  CHECK(make_rtl_device({"CDP", "CDP_RDMA", "RBK"}, golden::nv_full(), o, why) == nullptr);
  CHECK(why.find("enables CDP, CDP_RDMA and RBK") != std::string::npos);
  CHECK(make_rtl_device({"CDP", "CDP_RDMA", "SDP"}, golden::nv_small(), o, why) != nullptr);
}

namespace {

// Drives the CDP RTL device directly: replays the register writes and memory of a generated
// program (CDP_RDMA's D_PERF_ENABLE set to `rdma_perf`, CDP's DMA_EN to `cdp_dma_en`), waits for
// CDP_0 and returns the device for read-back. `poke_lut`: write the LE table while the layer runs.
std::unique_ptr<Device> replay(const golden::HwConfig& hw, const Program& prog, double stall, uint32_t rdma_perf,
                               bool cdp_dma_en, bool poke_lut = false) {
  RunOptions o;
  o.seed = 5;
  o.stall = stall;
  std::string why;
  auto dev = make_rtl_device({"CDP", "CDP_RDMA"}, hw, o, why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  for (const ProgramStep& st : prog.steps) {
    if (st.op == StepOp::MemLoad) dev->memory().write(st.addr, st.bytes);
    if (st.op != StepOp::RegWrite) continue;
    uint32_t v = st.value;
    if (st.reg->block == "CDP" && st.reg->name == "D_PERF_ENABLE") v = (v & ~1u) | (cdp_dma_en ? 1u : 0u);
    if (st.reg->block == "CDP_RDMA" && st.reg->name == "D_OP_ENABLE") {
      dev->reg_write(*db.address(hw.name, *db.find("CDP_RDMA.D_PERF_ENABLE")), rdma_perf);
    }
    dev->reg_write(*db.address(hw.name, *st.reg), v);
  }
  if (poke_lut) {
    REQUIRE_FALSE(dev->interrupt_pending("CDP_0"));
    dev->reg_write(*db.address(hw.name, *db.find("CDP.S_LUT_ACCESS_CFG")), golden::lut_access_cfg(false, true, 0));
    dev->reg_write(*db.address(hw.name, *db.find("CDP.S_LUT_ACCESS_DATA")), 0x7777);
    dev->reg_write(*db.address(hw.name, *db.find("CDP.S_LUT_ACCESS_DATA")), 0x7777);
    REQUIRE_FALSE(dev->interrupt_pending("CDP_0"));  // still running: the writes came while busy
  }
  REQUIRE(dev->wait_interrupt("CDP_0", 200000).raised);
  return dev;
}

}  // namespace

TEST_CASE("CDP RTL over the CSB: LUT read-back, S_LUT_* writable bits, stall counters under DMA_EN", "[rtl][cdp]") {
  const golden::HwConfig& hw = golden::nv_small();
  const RegDb& db = RegDb::nvdla();
  const auto addr = [&](const char* reg) { return *db.address(hw.name, *db.find(reg)); };
  Rng rng(21);
  Lrn p;
  p.w = 20;
  p.h = 3;
  p.c = 20;
  p.rdma_first = true;
  for (std::size_t i = 0; i < p.tables.le.size(); ++i) p.tables.le[i] = static_cast<int16_t>(1000 - 37 * static_cast<int>(i));
  for (std::size_t i = 0; i < p.tables.lo.size(); ++i) p.tables.lo[i] = static_cast<int16_t>(-30000 + 229 * static_cast<int>(i));
  const Program prog = program_of(p, hw, rng);
  {
    // no back-pressure: no request waits, whatever DMA_EN says
    auto dev = replay(hw, prog, 0.0, 1, true);
    CHECK(dev->reg_read(addr("CDP.D_PERF_WRITE_STALL")) == 0);
    CHECK(dev->reg_read(addr("CDP_RDMA.D_PERF_READ_STALL")) == 0);
    // the tables read back through S_LUT_ACCESS_CFG (read, LE/LO, address) and S_LUT_ACCESS_DATA
    // (auto-increment), entries zero-extended
    dev->reg_write(addr("CDP.S_LUT_ACCESS_CFG"), golden::lut_access_cfg(false, false, 0));
    CHECK(dev->reg_read(addr("CDP.S_LUT_ACCESS_CFG")) == golden::lut_access_cfg(false, false, 0));
    for (const int16_t v : p.tables.le) CHECK(dev->reg_read(addr("CDP.S_LUT_ACCESS_DATA")) == static_cast<uint16_t>(v));
    dev->reg_write(addr("CDP.S_LUT_ACCESS_CFG"), golden::lut_access_cfg(true, false, 200));
    for (std::size_t i = 200; i < p.tables.lo.size(); ++i) {
      CHECK(dev->reg_read(addr("CDP.S_LUT_ACCESS_DATA")) == static_cast<uint16_t>(p.tables.lo[i]));
    }
    // single registers keep their writable bits only: LUT_CFG 0x71, LE_START_HIGH 6 bits,
    // LE_SLOPE_SHIFT 10 bits
    dev->reg_write(addr("CDP.S_LUT_CFG"), 0xffffffffu);
    CHECK(dev->reg_read(addr("CDP.S_LUT_CFG")) == 0x71u);
    dev->reg_write(addr("CDP.S_LUT_LE_START_HIGH"), 0xffffffffu);
    CHECK(dev->reg_read(addr("CDP.S_LUT_LE_START_HIGH")) == 0x3fu);
    dev->reg_write(addr("CDP.S_LUT_LE_SLOPE_SHIFT"), 0xffffffffu);
    CHECK(dev->reg_read(addr("CDP.S_LUT_LE_SLOPE_SHIFT")) == 0x3ffu);
    dev->reg_write(addr("CDP.S_LUT_LO_END_LOW"), 0x12345678u);
    CHECK(dev->reg_read(addr("CDP.S_LUT_LO_END_LOW")) == 0x12345678u);
  }
  {
    // table writes while the layer runs are refused: the tables and the output are unchanged
    auto dev = replay(hw, prog, 0.0, 0, false, true);
    dev->reg_write(addr("CDP.S_LUT_ACCESS_CFG"), golden::lut_access_cfg(false, false, 0));
    for (const int16_t v : p.tables.le) CHECK(dev->reg_read(addr("CDP.S_LUT_ACCESS_DATA")) == static_cast<uint16_t>(v));
    const auto ref = std::find_if(prog.steps.begin(), prog.steps.end(),
                                  [](const ProgramStep& st) { return st.check == CheckKind::File && st.op == StepOp::Check; });
    REQUIRE(ref != prog.steps.end());
    CHECK(dev->memory().read(ref->addr, ref->bytes.size()) == ref->bytes);
  }
  {
    // back-pressure on every DMA handshake: requests wait, counted while DMA_EN
    auto dev = replay(hw, prog, 0.3, 1, true);
    const uint32_t wr = dev->reg_read(addr("CDP.D_PERF_WRITE_STALL"));
    const uint32_t rd = dev->reg_read(addr("CDP_RDMA.D_PERF_READ_STALL"));
    INFO("write stall " << wr << " read stall " << rd << " cycles " << dev->cycles());
    CHECK(wr > 0);
    CHECK(rd > 0);
    CHECK(wr < dev->cycles());
    CHECK(rd < dev->cycles());
  }
  {
    auto dev = replay(hw, prog, 0.3, 0, false);
    CHECK(dev->reg_read(addr("CDP.D_PERF_WRITE_STALL")) == 0);
    CHECK(dev->reg_read(addr("CDP_RDMA.D_PERF_READ_STALL")) == 0);
  }
}
