// LUT engine RTL (Vlut_sdp, Vlut_cdp) against the golden model (golden/lut.hpp): at least a
// million random and edge inputs per variant and mode under back-pressure, lane holes and
// randomized reset values; the float lanes (NVDLA v1's fp16 LUT, golden lut_lookup_fp) likewise,
// a million per variant; every bundled lut layer; the busy refusal of table writes and the
// table read-back, driven by hand with hand-written expectations.
// Expected values always come from the golden model or are written here -- never from the RTL.
#include <fmt/format.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>

#include "common/test_paths.hpp"
#include <filesystem>
#include <fstream>

#include "Vlut_cdp.h"
#include "Vlut_sdp.h"
#include "golden/arith.hpp"
#include "harness/layer.hpp"
#include "harness/rng.hpp"
#include "engines/lut/harness/lut.hpp"

using namespace dla::harness;
using namespace dla::harness::engines;
using dla::golden::LutConfig;
using dla::golden::LutPrecision;
using dla::golden::LutVariant;
namespace fs = std::filesystem;

namespace {

struct Mode {
  const char* name;
  LutVariant variant;
  LutPrecision precision;
  bool le_linear;
};

int in_bits(LutVariant v) { return v == LutVariant::Sdp ? 32 : 38; }

// A random but plausible engine setup for one run: tables (ramps or noise), starts, selects or
// offsets, ends, slopes, priorities. Select fields of CDP carry random bits above the narrowed
// width (the engine must ignore them).
LutJob random_job(const Mode& m, uint64_t seed, std::size_t random_count) {
  Rng rng = Rng::derive(seed, std::string("lut.test.") + m.name);
  LutJob job;
  job.variant = m.variant;
  job.precision = m.precision;
  job.holes = 0.1;
  const int ib = in_bits(m.variant);
  const int64_t xmin = -(int64_t{1} << (ib - 1)), xmax = (int64_t{1} << (ib - 1)) - 1;
  auto clamp = [&](__int128 v) {
    return static_cast<int64_t>(v < xmin ? xmin : (v > xmax ? xmax : v));
  };
  for (auto* tab : {&job.tables.le[0], &job.tables.lo[0]}) {
    const int n = tab == &job.tables.le[0] ? 65 : 257;
    const bool noise = rng.chance(0.3);
    const int64_t base = rng.range(-20000, 20000), step = rng.range(-250, 250);
    for (int i = 0; i < n; ++i) {
      const int64_t v = noise ? rng.range(-32768, 32767) : base + step * i + rng.range(-64, 64);
      tab[i] = static_cast<int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
    }
  }
  LutConfig c;
  c.precision = m.precision;
  c.le_linear = m.le_linear;
  c.uflow_prio_lo = rng.chance(0.5);
  c.oflow_prio_lo = rng.chance(0.5);
  c.hybrid_prio_lo = rng.chance(0.5);
  const int sel_bits = m.variant == LutVariant::Sdp ? 8 : (m.precision == LutPrecision::Int8 ? 6 : 7);
  auto select = [&]() -> int8_t {
    int64_t s = rng.chance(0.1) ? rng.range(-(int64_t{1} << (sel_bits - 1)), (int64_t{1} << (sel_bits - 1)) - 1)
                                : rng.range(-3, 22);
    if (m.variant == LutVariant::Cdp) s = (s & ((1 << sel_bits) - 1)) | (rng.range(0, 255) << sel_bits);
    return static_cast<int8_t>(static_cast<uint8_t>(s & 0xff));
  };
  c.le_index_select = select();
  c.lo_index_select = select();
  c.le_index_offset = static_cast<int8_t>(rng.chance(0.1) ? rng.range(-128, 127) : rng.range(-40, 24));
  // The span each table covers (narrowed selects, as the engine reads them).
  auto narrow = [&](int8_t sel) {
    return static_cast<int>(dla::golden::sign_extend(static_cast<uint8_t>(sel), m.variant == LutVariant::Sdp ? 8 : sel_bits));
  };
  auto linear_span = [](int sel, int entries) -> __int128 {
    return sel >= 0 ? __int128{entries} << std::min(sel, 60) : std::max<__int128>(1, entries >> std::min(-sel, 16));
  };
  const __int128 le_span = m.le_linear ? linear_span(narrow(c.le_index_select), 64)
                                       : __int128{1} << std::clamp(64 + c.le_index_offset, 0, 60);
  const __int128 lo_span = linear_span(narrow(c.lo_index_select), 256);
  c.le_start = rng.chance(0.1) ? rng.range(xmin, xmax) : rng.range(-(int64_t{1} << 20), int64_t{1} << 20);
  if (rng.chance(0.6)) {
    // LO overlapping or next to LE: the hybrid cases (both hit, one uflow and the other oflow).
    const auto s = static_cast<int64_t>(std::min<__int128>(le_span, int64_t{1} << 40));
    c.lo_start = clamp(__int128{c.le_start} + rng.range(-s / 2, s));
  } else {
    c.lo_start = rng.chance(0.1) ? rng.range(xmin, xmax) : rng.range(-(int64_t{1} << 20), int64_t{1} << 20);
  }
  c.le_end = rng.chance(0.2) ? rng.range(xmin, xmax) : clamp(__int128{c.le_start} + rng.range(0, int64_t{1} << 24));
  c.lo_end = rng.chance(0.2) ? rng.range(xmin, xmax) : clamp(__int128{c.lo_start} + rng.range(0, int64_t{1} << 24));
  for (auto* s : {&c.le_uflow_scale, &c.le_oflow_scale, &c.lo_uflow_scale, &c.lo_oflow_scale}) {
    *s = static_cast<int16_t>(rng.chance(0.3) ? rng.range(-32768, 32767) : rng.range(-300, 300));
  }
  for (auto* s : {&c.le_uflow_shift, &c.le_oflow_shift, &c.lo_uflow_shift, &c.lo_oflow_shift}) {
    *s = static_cast<int>(rng.range(-16, 15));
  }
  job.regs = dla::golden::encode_lut_config(m.variant, c);
  job.perf_en = true;

  job.inputs = lut_edge_inputs(m.variant, dla::golden::decode_lut_config(m.variant, job.regs, m.precision));
  // Random inputs: a fifth uniform over the input width, the rest near START/END of either table
  // at a random magnitude (2^0 .. 2^40) or inside either table's span, so every index, fraction
  // and flow case is hit.
  const std::array<int64_t, 4> anchors{c.le_start, c.lo_start, c.le_end, c.lo_end};
  auto inside = [&](int64_t start, __int128 span) {
    const auto s = static_cast<int64_t>(std::min<__int128>(span, int64_t{1} << 40));
    return clamp(__int128{start} + rng.range(0, s));
  };
  for (std::size_t i = 0; i < random_count; ++i) {
    const int64_t kind = rng.range(0, 19);
    if (kind < 4) {
      job.inputs.push_back(rng.range(xmin, xmax));
    } else if (kind < 10) {
      const int64_t a = anchors[static_cast<std::size_t>(rng.range(0, 3))];
      const int64_t mag = int64_t{1} << rng.range(0, 40);
      job.inputs.push_back(clamp(__int128{a} + rng.range(-mag, mag)));
    } else if (kind < 15) {
      job.inputs.push_back(inside(c.le_start, le_span));
    } else {
      job.inputs.push_back(inside(c.lo_start, lo_span));
    }
  }
  return job;
}

// Float lookups: fp32 patterns of host floats.
uint32_t f32(double v) { return std::bit_cast<uint32_t>(static_cast<float>(v)); }
double uni(Rng& r) { return static_cast<double>(r.next() >> 11) * 0x1.0p-53; }  // [0, 1)

// A random fp16 pattern: a finite value of magnitude 2^-e_span .. 2^e_span (exponent field
// 15 +- e_span), either sign, or (p_special) one of NaN, +-inf, +-0, a denormal, +-65504.
uint16_t fp16_pattern(Rng& rng, int e_span, double p_special) {
  if (rng.chance(p_special)) {
    static constexpr std::array<uint16_t, 10> kSpecial{0x7e00, 0xfd01, 0x7c00, 0xfc00, 0x0000,
                                                       0x8000, 0x0001, 0x83ff, 0x7bff, 0xfbff};
    return kSpecial[static_cast<std::size_t>(rng.range(0, 9))];
  }
  const auto e = static_cast<uint16_t>(rng.range(15 - e_span, 15 + e_span));
  return static_cast<uint16_t>((rng.chance(0.5) ? 0x8000 : 0) | e << 10 | rng.range(0, 1023));
}

// A random float-LUT setup (docs/FP16.md "SDP EW and LUT", "CDP in fp16"): tables of fp16 ramps,
// smooth curves or noise with specials, fp32 starts in [-16, 16] (5 % any pattern), selects and
// offsets mostly in the useful range and 15 % over all 8 bits, ends at the table's span or
// anywhere, fp16 slopes with specials. Inputs: 5 % any 32-bit pattern, 5 % one of the specials (+-0, +-inf, NaNs, denormal and range edges, +-1), 40 %
// near a START or END (exactly, a few ulps off, or at a random power-of-two distance), 50 % inside
// either table's span. Starts are +-0 or a denormal in 10 % of the setups, entries 0 and last
// (the extrapolations' y0) specials in 30 %, the LE offset at -128 .. -126 in 10 %.
LutJob random_job_fp(const Mode& m, uint64_t seed, std::size_t random_count) {
  Rng rng = Rng::derive(seed, std::string("lut.test.fp.") + m.name);
  LutJob job;
  job.variant = m.variant;
  job.precision = LutPrecision::Int16;
  job.fp = true;
  job.holes = 0.1;
  for (auto* tab : {&job.tables.le[0], &job.tables.lo[0]}) {
    const int n = tab == &job.tables.le[0] ? 65 : 257;
    const int kind = static_cast<int>(rng.range(0, 2));
    const double base = uni(rng) * 16 - 8, step = (uni(rng) - 0.5) / 8;
    for (int i = 0; i < n; ++i) {
      uint16_t v = 0;
      if (kind == 0) {
        v = fp16_pattern(rng, 14, 0.05);
      } else {
        const double y = kind == 1 ? base + step * i : std::exp(-0.05 * i) * base;
        // fp16 of y by rounding through float's pattern (truncating the mantissa is enough here)
        const uint32_t b = f32(y);
        const int e = static_cast<int>((b >> 23) & 0xff) - 127;
        v = e < -14 ? static_cast<uint16_t>((b >> 16) & 0x8000)
                    : static_cast<uint16_t>(((b >> 16) & 0x8000) | ((e + 15) << 10) | ((b >> 13) & 0x3ff));
        if (rng.chance(0.02)) v = fp16_pattern(rng, 14, 1.0);
      }
      tab[i] = static_cast<int16_t>(v);
    }
    // the extrapolations' y0 (entry 0 and the last): often a special (NaN, +-0, +-inf)
    for (const int i : {0, n - 1}) {
      if (rng.chance(0.3)) tab[i] = static_cast<int16_t>(fp16_pattern(rng, 14, 1.0));
    }
  }
  LutConfig c;
  c.precision = LutPrecision::Int16;
  c.le_linear = m.le_linear;
  c.uflow_prio_lo = rng.chance(0.5);
  c.oflow_prio_lo = rng.chance(0.5);
  c.hybrid_prio_lo = rng.chance(0.5);
  const auto wide = [&](int lo, int hi) { return static_cast<int8_t>(rng.chance(0.15) ? rng.range(-128, 127) : rng.range(lo, hi)); };
  c.le_index_select = wide(-10, 8);
  c.lo_index_select = wide(-12, 6);
  c.le_index_offset = wide(-24, 6);
  // the exponent anchor's 2^offset at the float boundaries (normal, the two denormals)
  if (rng.chance(0.1)) c.le_index_offset = static_cast<int8_t>(rng.range(-128, -126));
  const auto start = [&] {
    const int64_t k = rng.range(0, 19);
    if (k == 0) return static_cast<uint32_t>(rng.next());
    if (k == 1) return rng.chance(0.5) ? 0u : 0x80000000u;                   // +-0
    if (k == 2) return static_cast<uint32_t>(rng.range(1, 0x007fffff));  // a denormal
    return f32(uni(rng) * 32 - 16);
  };
  const uint32_t le_start = start();
  const uint32_t lo_start = rng.chance(0.5) ? f32(std::bit_cast<float>(le_start) + (uni(rng) - 0.3) * 16) : start();
  const auto real = [](uint32_t b) { return static_cast<double>(std::bit_cast<float>(b)); };
  const double le_span = c.le_linear ? 64 * std::ldexp(1.0, c.le_index_select) : std::ldexp(1.0, 64 + c.le_index_offset);
  const double lo_span = 256 * std::ldexp(1.0, c.lo_index_select);
  c.le_start = le_start;
  c.lo_start = lo_start;
  c.le_end = rng.chance(0.2) ? static_cast<uint32_t>(rng.next()) : f32(real(le_start) + le_span * uni(rng) * 1.2);
  c.lo_end = rng.chance(0.2) ? static_cast<uint32_t>(rng.next()) : f32(real(lo_start) + lo_span * uni(rng) * 1.2);
  for (auto* sc : {&c.le_uflow_scale, &c.le_oflow_scale, &c.lo_uflow_scale, &c.lo_oflow_scale}) {
    *sc = static_cast<int16_t>(fp16_pattern(rng, 8, 0.1));
  }
  job.regs = dla::golden::encode_lut_config(m.variant, c);
  job.perf_en = true;

  const std::array<uint32_t, 4> anchors{le_start, lo_start, static_cast<uint32_t>(c.le_end),
                                        static_cast<uint32_t>(c.lo_end)};
  const auto inside = [&](uint32_t s, double span) {
    return f32(real(s) + std::min(span, 1e30) * (uni(rng) * 1.1 - 0.05));
  };
  static constexpr std::array<uint32_t, 14> kSpecialX{
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x00000001,
      0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
  for (std::size_t i = 0; i < random_count; ++i) {
    const int64_t kind = rng.range(0, 19);
    uint32_t x = 0;
    if (kind < 1) {
      x = static_cast<uint32_t>(rng.next());
    } else if (kind < 2) {
      x = kSpecialX[static_cast<std::size_t>(rng.range(0, kSpecialX.size() - 1))];
    } else if (kind < 10) {
      const uint32_t a = anchors[static_cast<std::size_t>(rng.range(0, 3))];
      const int64_t how = rng.range(0, 3);
      if (how == 0) x = a;
      else if (how == 1) x = a + static_cast<uint32_t>(rng.range(-2, 2));  // a few ulps off
      else x = f32(real(a) + (uni(rng) * 2 - 1) * std::ldexp(1.0, static_cast<int>(rng.range(-30, 12))));
    } else if (kind < 15) {
      x = inside(le_start, le_span);
    } else {
      x = inside(lo_start, lo_span);
    }
    job.inputs.push_back(static_cast<int64_t>(x));
  }
  return job;
}

// First difference between an RTL outcome and the golden one, or "" when they agree.
std::string first_difference(const LutOutcome& a, const LutOutcome& e, const LutJob& job) {
  if (a.elements.size() != e.elements.size()) return "element counts differ";
  for (std::size_t i = 0; i < e.elements.size(); ++i) {
    const LutElement& x = a.elements[i];
    const LutElement& y = e.elements[i];
    if (!(x == y)) {
      return fmt::format("element {} (X = {}): RTL value {} u{} o{} le{} lo{} sel{}, golden {} u{} o{} le{} lo{} sel{}", i,
                         job.inputs[i], x.value, x.uflow, x.oflow, x.le_hit, x.lo_hit, x.lo_sel, y.value, y.uflow,
                         y.oflow, y.le_hit, y.lo_hit, y.lo_sel);
    }
  }
  if (!(a.stats == e.stats)) {
    return fmt::format("statistics: RTL {}/{}/{}/{}/{}, golden {}/{}/{}/{}/{}", a.stats.uflow, a.stats.oflow,
                       a.stats.hybrid, a.stats.le_hit, a.stats.lo_hit, e.stats.uflow, e.stats.oflow, e.stats.hybrid,
                       e.stats.le_hit, e.stats.lo_hit);
  }
  if (a.rsp_rdata != e.rsp_rdata || a.rsp_err != e.rsp_err) return "programming responses differ";
  if (a.sticky_err != e.sticky_err) return "sticky prog_err_o differs";
  return "";
}

std::vector<fs::path> lut_layers() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/lut")) {
    if (e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("lut RTL equals golden on over a million random and edge inputs per variant and mode", "[rtl][lut]") {
  const std::vector<Mode> modes = {
      {"sdp exponent", LutVariant::Sdp, LutPrecision::Int16, false},
      {"sdp linear", LutVariant::Sdp, LutPrecision::Int16, true},
      {"cdp int8 exponent", LutVariant::Cdp, LutPrecision::Int8, false},
      {"cdp int8 linear", LutVariant::Cdp, LutPrecision::Int8, true},
      {"cdp int16 exponent", LutVariant::Cdp, LutPrecision::Int16, false},
      {"cdp int16 linear", LutVariant::Cdp, LutPrecision::Int16, true},
  };
  constexpr std::size_t kRandomPerRun = 112'000;
  for (const Mode& m : modes) {
    uint64_t total = 0, runs = 0, uflow = 0, oflow = 0, both_hit = 0, le_only = 0, lo_only = 0, lo_sel = 0;
    for (const uint64_t seed : {101u, 202u, 303u}) {
      for (const int rr : {0, 1, 2}) {
        const LutJob job = random_job(m, seed * 10 + static_cast<uint64_t>(rr), kRandomPerRun);
        SimOptions so;
        so.seed = seed;
        so.rand_reset = rr;
        const LutOutcome expected = lut_run_golden(job);
        const LutOutcome actual = lut_run_rtl(job, so, 0.35, seed);
        INFO(m.name << ", seed " << seed << ", rand-reset " << rr);
        REQUIRE(first_difference(actual, expected, job).empty());
        // The golden statistics are consistent with the per-element flags (independent count).
        uint64_t flows = 0;
        for (const LutElement& e : expected.elements) {
          uflow += e.uflow;
          oflow += e.oflow;
          both_hit += e.le_hit && e.lo_hit;
          le_only += e.le_hit && !e.lo_hit;
          lo_only += e.lo_hit && !e.le_hit;
          lo_sel += e.lo_sel;
          flows += e.uflow || e.oflow;
        }
        if (m.variant == LutVariant::Sdp) CHECK(expected.stats.hybrid == job.inputs.size() - flows);
        total += job.inputs.size();
        ++runs;
      }
    }
    INFO(m.name << ": " << total << " inputs in " << runs << " runs; uflow " << uflow << ", oflow " << oflow
                << ", both hit " << both_hit << ", LE only " << le_only << ", LO only " << lo_only << ", LO selected "
                << lo_sel);
    CHECK(runs == 9);
    CHECK(total >= 1'000'000);
    // The stimulus reaches every case in quantity.
    CHECK(uflow > 10'000);
    CHECK(oflow > 10'000);
    CHECK(both_hit > 10'000);
    CHECK(le_only > 10'000);
    CHECK(lo_only > 10'000);
    CHECK(lo_sel > 10'000);
    CHECK(total - lo_sel > 10'000);
  }
}

TEST_CASE("lut float RTL equals golden on over a million random and edge inputs per variant", "[rtl][lut][fp16]") {
  const std::vector<Mode> modes = {
      {"sdp exponent", LutVariant::Sdp, LutPrecision::Int16, false},
      {"sdp linear", LutVariant::Sdp, LutPrecision::Int16, true},
      {"cdp exponent", LutVariant::Cdp, LutPrecision::Int16, false},
      {"cdp linear", LutVariant::Cdp, LutPrecision::Int16, true},
  };
  constexpr std::size_t kRandomPerRun = 56'000;
  std::array<uint64_t, 2> per_variant{};
  for (const Mode& m : modes) {
    uint64_t total = 0, uflow = 0, oflow = 0, both_hit = 0, le_only = 0, lo_only = 0, lo_sel = 0, nan_out = 0;
    for (const uint64_t seed : {11u, 22u, 33u}) {
      for (const int rr : {0, 1, 2}) {
        const LutJob job = random_job_fp(m, seed * 10 + static_cast<uint64_t>(rr), kRandomPerRun);
        SimOptions so;
        so.seed = seed;
        so.rand_reset = rr;
        const LutOutcome expected = lut_run_golden(job);
        const LutOutcome actual = lut_run_rtl(job, so, 0.35, seed);
        INFO(m.name << ", seed " << seed << ", rand-reset " << rr);
        REQUIRE(first_difference(actual, expected, job).empty());
        for (const LutElement& e : expected.elements) {
          uflow += e.uflow;
          oflow += e.oflow;
          both_hit += e.le_hit && e.lo_hit;
          le_only += e.le_hit && !e.lo_hit;
          lo_only += e.lo_hit && !e.le_hit;
          lo_sel += e.lo_sel;
          const auto v = static_cast<uint32_t>(e.value);
          nan_out += m.variant == LutVariant::Sdp ? (v & 0x7fffffffu) > 0x7f800000u : (v & 0xffffu) > 0xfc00u;
        }
        total += job.inputs.size();
      }
    }
    per_variant[m.variant == LutVariant::Sdp ? 0 : 1] += total;
    INFO(m.name << ": " << total << " inputs; uflow " << uflow << ", oflow " << oflow << ", both hit " << both_hit
                << ", LE only " << le_only << ", LO only " << lo_only << ", LO selected " << lo_sel << ", NaN out "
                << nan_out);
    // The stimulus reaches every case in quantity.
    CHECK(uflow > 5'000);
    CHECK(oflow > 5'000);
    CHECK(both_hit > 5'000);
    CHECK(le_only > 5'000);
    CHECK(lo_only > 5'000);
    CHECK(lo_sel > 5'000);
    CHECK(total - lo_sel > 5'000);
    CHECK(nan_out > 100);
  }
  CHECK(per_variant[0] >= 1'000'000);
  CHECK(per_variant[1] >= 1'000'000);
}

TEST_CASE("every bundled lut layer: RTL equals golden under back-pressure and rand-reset", "[rtl][lut]") {
  const auto layers = lut_layers();
  REQUIRE(layers.size() >= 20);
  bool saw_sdp = false, saw_cdp8 = false, saw_cdp16 = false;
  for (const auto& layer : layers) {
    for (const uint64_t seed : {101u, 202u, 303u}) {
      for (const int rr : {0, 1, 2}) {
        RunOptions o;
        o.seed = seed;
        o.stall = 0.35;
        o.sim.rand_reset = rr;
        const RunResult r = run_layer(layer, o);
        INFO(format_run(r));
        REQUIRE(r.status == Status::Pass);
        REQUIRE(r.compares.size() == 6);
        CHECK(r.compares[0].region == "value");
        CHECK(r.compares[0].elements > 0);
        CHECK(r.compares[2].region == "stats");
        CHECK(r.compares[3].region == "tables");
      }
    }
    const std::string n = layer.filename().string();
    saw_sdp |= n.starts_with("sdp_");
    saw_cdp8 |= n.starts_with("cdp_int8");
    saw_cdp16 |= n.starts_with("cdp_int16");
  }
  CHECK(saw_sdp);
  CHECK(saw_cdp8);
  CHECK(saw_cdp16);
}

TEST_CASE("lut layer compare catches a flipped output bit and names the element", "[rtl][lut]") {
  RunOptions o;
  o.flip = FlipBit{17, 3};
  const RunResult r = run_layer(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/lut/sdp_sigmoid_linear.json", o);
  INFO(format_run(r));
  CHECK(r.status == Status::Mismatch);
  REQUIRE(!r.compares.empty());
  CHECK(r.compares[0].mismatches == 1);
  REQUIRE(r.compares[0].first.size() == 1);
  CHECK(r.compares[0].first[0].coord.w == 17);
  CHECK((r.compares[0].first[0].actual ^ r.compares[0].first[0].expected) == 8);
}

TEST_CASE("lut busy_check layers: the golden side predicts two refused writes", "[rtl][lut]") {
  // The layer option's expectations come from golden::LutRam; check what they are, so the layer
  // cannot pass with a model that accepts (or refuses) everything.
  for (const auto v : {LutVariant::Sdp, LutVariant::Cdp}) {
    LutJob job;
    job.variant = v;
    job.regs.assign(static_cast<std::size_t>(dla::golden::lut_reg_count(v)), 0);
    for (int i = 0; i < 65; ++i) job.tables.le[static_cast<std::size_t>(i)] = static_cast<int16_t>(i - 30);
    for (int i = 0; i < 257; ++i) job.tables.lo[static_cast<std::size_t>(i)] = static_cast<int16_t>(1000 - 7 * i);
    job.inputs = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    job.busy_check = true;
    const LutProgPlan plan = lut_prog_plan(job);
    const LutOutcome g = lut_run_golden(job);
    const std::size_t busy0 = plan.setup.size();
    REQUIRE(g.rsp_err.size() == plan.setup.size() + plan.busy.size() + plan.after.size());
    for (std::size_t i = 0; i < busy0; ++i) CHECK(g.rsp_err[i] == 0);
    CHECK(g.rsp_err[busy0] == 1);
    CHECK(g.rsp_err[busy0 + 1] == 1);
    CHECK((g.sticky_err == std::array<bool, 3>{false, true, false}));
    // ACCESS_CFG read after the layer: LE, write, address 0 (as armed before the layer).
    CHECK(g.rsp_rdata[busy0 + 2] == dla::golden::lut_access_cfg(false, true, 0));
    // Both read-backs return the programmed tables, zero-extended.
    REQUIRE(plan.readback_first.size() == 2);
    for (const std::size_t first : plan.readback_first) {
      CHECK(g.rsp_rdata[first] == static_cast<uint16_t>(-30));
      CHECK(g.rsp_rdata[first + 64] == 34u);
      CHECK(g.rsp_rdata[first + 66] == 1000u);
      CHECK(g.rsp_rdata[first + 66 + 256] == static_cast<uint16_t>(1000 - 7 * 256));
    }
    // And the RTL agrees, under back-pressure.
    SimOptions so;
    so.seed = 5;
    const LutOutcome a = lut_run_rtl(job, so, 0.4, 5);
    CHECK(first_difference(a, g, job).empty());
  }
}

// ------------------------------------------------------------------ hand-driven port tests

namespace {

// A minimal hand driver: one programming request per call, waits for its response.
template <class Model>
struct Port {
  Sim<Model>& sim;
  struct Rsp {
    uint32_t rdata;
    bool err;
  };
  Rsp request(bool data, bool write, uint32_t wdata) {
    Model& t = sim.top();
    t.prog_valid_i = 1;
    t.prog_addr_i = data;
    t.prog_write_i = write;
    t.prog_wdata_i = wdata;
    sim.settle();
    REQUIRE(t.prog_ready_o);
    sim.tick();
    t.prog_valid_i = 0;
    sim.settle();
    REQUIRE(t.prog_rsp_valid_o);
    sim.progress();
    return {t.prog_rsp_rdata_o, t.prog_rsp_err_o != 0};
  }
};

template <class Model>
void busy_refusal_and_readback(const char* name) {
  INFO(name);
  SimOptions so;
  so.rand_reset = 2;
  so.seed = 77;
  Sim<Model> sim(so, name);
  Model& t = sim.top();
  clear_bits(t.lut_regs_i);
  t.in_int8_i = 0;
  t.layer_active_i = 0;
  t.in_valid_i = 0;
  t.in_mask_i = 0;
  t.out_ready_i = 1;
  t.stat_en_i = 0;
  t.stat_clr_i = 0;
  t.prog_valid_i = 0;
  t.prog_err_clr_i = 0;
  sim.reset();
  Port<Model> p{sim};
  const uint32_t cfg_le_w = (1u << 17), cfg_lo_w = (1u << 17) | (1u << 16);
  const uint32_t cfg_le_r = 0, cfg_lo_r = (1u << 16);

  // Program LE[i] = 0x8000 + 3i and LO[i] = 11i - 1000 (as 16-bit words) the NVDLA way.
  auto le_val = [](uint32_t i) { return (0x8000u + 3u * i) & 0xffffu; };
  auto lo_val = [](uint32_t i) { return (11u * i - 1000u) & 0xffffu; };
  CHECK_FALSE(p.request(false, true, cfg_le_w).err);
  for (uint32_t i = 0; i < 65; ++i) CHECK_FALSE(p.request(true, true, 0xabcd0000u | le_val(i)).err);
  CHECK_FALSE(p.request(false, true, cfg_lo_w).err);
  for (uint32_t i = 0; i < 257; ++i) CHECK_FALSE(p.request(true, true, lo_val(i)).err);
  // Auto-increment saturates at the last entry: one more write lands on LO[256] again.
  CHECK_FALSE(p.request(true, true, 0x1234).err);
  sim.settle();
  CHECK_FALSE(t.prog_err_o);
  // ACCESS_CFG read: LO, write, address 256.
  CHECK(p.request(false, false, 0).rdata == (cfg_lo_w | 256u));

  // Arm LE entry 5 for writing, then start a layer: from here every write must be refused.
  CHECK_FALSE(p.request(false, true, cfg_le_w | 5u).err);
  t.layer_active_i = 1;
  t.in_valid_i = 1;
  t.in_mask_i = 0xf;
  sim.settle();
  CHECK(t.busy_o);
  auto r = p.request(false, true, cfg_lo_w | 9u);  // ACCESS_CFG write
  CHECK(r.err);
  sim.settle();
  CHECK(t.prog_err_o);
  r = p.request(true, true, 0x7777);  // ACCESS_DATA write
  CHECK(r.err);
  // Reads are served while busy, and change nothing visible: the pointer is still LE/write/5.
  r = p.request(false, false, 0);
  CHECK_FALSE(r.err);
  CHECK(r.rdata == (cfg_le_w | 5u));
  // The layer ends: drop valid and layer_active, let the pipeline drain.
  t.in_valid_i = 0;
  t.layer_active_i = 0;
  for (int i = 0; i < 8; ++i) sim.tick();
  sim.settle();
  CHECK_FALSE(t.busy_o);
  CHECK(t.prog_err_o);  // sticky

  // Read both tables back: unchanged by the refused writes (LE[5] is still 0x800f).
  CHECK_FALSE(p.request(false, true, cfg_le_r).err);
  for (uint32_t i = 0; i < 65; ++i) {
    r = p.request(true, false, 0);
    CHECK_FALSE(r.err);
    CHECK(r.rdata == le_val(i));
  }
  CHECK_FALSE(p.request(false, true, cfg_lo_r | 250u).err);
  for (uint32_t i = 250; i < 257; ++i) CHECK(p.request(true, false, 0).rdata == (i == 256 ? 0x1234u : lo_val(i)));
  CHECK(p.request(true, false, 0).rdata == 0x1234u);  // read pointer saturates at 256
  // Out-of-range ACCESS_CFG address is clamped to the last entry.
  CHECK_FALSE(p.request(false, true, cfg_le_r | 1000u).err);
  CHECK(p.request(false, false, 0).rdata == (cfg_le_r | 64u));
  CHECK(p.request(true, false, 0).rdata == le_val(64));

  // Clear the sticky flag; a refusal in the same cycle as the clear wins.
  t.prog_err_clr_i = 1;
  sim.tick();
  t.prog_err_clr_i = 0;
  sim.settle();
  CHECK_FALSE(t.prog_err_o);
  t.layer_active_i = 1;
  t.prog_err_clr_i = 1;
  r = p.request(false, true, cfg_le_w);
  t.prog_err_clr_i = 0;
  CHECK(r.err);
  sim.settle();
  CHECK(t.prog_err_o);
  t.layer_active_i = 0;
  sim.tick();
  // Idle again: writes are accepted.
  CHECK_FALSE(p.request(false, true, cfg_le_w | 5u).err);
  CHECK_FALSE(p.request(true, true, 0x0042).err);
  CHECK_FALSE(p.request(false, true, cfg_le_r | 5u).err);
  CHECK(p.request(true, false, 0).rdata == 0x0042u);
  sim.finish();
}

}  // namespace

TEST_CASE("lut engine refuses table writes while busy, tables read back unchanged (SDP)", "[rtl][lut]") {
  busy_refusal_and_readback<Vlut_sdp>("lut_engine (sdp)");
}

TEST_CASE("lut engine refuses table writes while busy, tables read back unchanged (CDP)", "[rtl][lut]") {
  busy_refusal_and_readback<Vlut_cdp>("lut_engine (cdp)");
}

TEST_CASE("lut layers: programming read-back mismatch would fail the compare", "[rtl][lut]") {
  // Golden read-back equals the programmed tables entry for entry (so a read-back that differs
  // from them is a compare failure of region "tables").
  const fs::path file = fs::temp_directory_path() / "dla_lut_readback.json";
  {
    std::ofstream f(file);
    f << R"({"unit":"lut","config":"nv_small","variant":"cdp","precision":"int16","stall":0.3,
             "tables":{"function":"sigmoid","in_scale":0.00390625,"raw":[-16,16],"density":[-4,4]},
             "input":{"edges":true}})";
  }
  LoadedLayer l = load_layer(file);
  const LutJob job = parse_lut_layer(l.header, l.root());
  const LutProgPlan plan = lut_prog_plan(job);
  const LutOutcome g = lut_run_golden(job);
  REQUIRE(plan.readback_first.size() == 1);
  for (std::size_t i = 0; i < 65; ++i) {
    CHECK(g.rsp_rdata[plan.readback_first[0] + i] == static_cast<uint16_t>(job.tables.le[i]));
  }
  for (std::size_t i = 0; i < 257; ++i) {
    CHECK(g.rsp_rdata[plan.readback_first[0] + 66 + i] == static_cast<uint16_t>(job.tables.lo[i]));
  }
  const RunResult r = run_layer(file, RunOptions{});
  fs::remove(file);
  INFO(format_run(r));
  REQUIRE(r.status == Status::Pass);
  REQUIRE(r.compares.size() == 6);
  CHECK(r.compares[3].region == "tables");
  CHECK(r.compares[3].elements == 322);
  // Edge inputs: table points +-1 of both tables, START/END +-1, 0, the 38-bit extremes.
  // (sigmoid Q.8 over [-16, 16]: LE entry i at -4096 + 128 i; over [-4, 4]: LO entry i at -1024 + 8 i.)
  auto has = [&](int64_t x) { return std::find(job.inputs.begin(), job.inputs.end(), x) != job.inputs.end(); };
  for (int64_t i = 0; i < 65; ++i) {
    CHECK(has(-4096 + 128 * i - 1));
    CHECK(has(-4096 + 128 * i));
    CHECK(has(-4096 + 128 * i + 1));
  }
  for (int64_t i = 0; i < 257; ++i) {
    CHECK(has(-1024 + 8 * i - 1));
    CHECK(has(-1024 + 8 * i));
    CHECK(has(-1024 + 8 * i + 1));
  }
  for (const int64_t x : {int64_t{-1}, int64_t{0}, int64_t{1}, -(int64_t{1} << 37), -(int64_t{1} << 37) + 1,
                          (int64_t{1} << 37) - 2, (int64_t{1} << 37) - 1}) {
    CHECK(has(x));
  }
  CHECK(std::is_sorted(job.inputs.begin(), job.inputs.end()));
  CHECK(std::adjacent_find(job.inputs.begin(), job.inputs.end()) == job.inputs.end());
  CHECK(r.work == job.inputs.size());
}
