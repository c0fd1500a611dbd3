// LUT engine unit: `lut` layer parsing, the RTL driver for lut_engine (Vlut_sdp / Vlut_cdp),
// golden run, compare, benchmark. Layer format: docs/LAYER_FORMAT.md ("`lut` layers"); the
// engine: docs/LUT.md.
#include "engines/lut/harness/lut.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "Vlut_cdp.h"
#include "Vlut_sdp.h"
#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "engines/lut/golden/lut_builders.hpp"
#include "harness/rng.hpp"
#include "harness/bench.hpp"
#include "harness/layer_rules.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines {

using golden::LutConfig;
using golden::LutPrecision;
using golden::LutResult;
using golden::LutStats;
using golden::LutTables;
using golden::LutVariant;

namespace {

int in_bits_of(LutVariant v) { return v == LutVariant::Sdp ? 32 : 38; }
int out_bits_of(LutVariant v) { return v == LutVariant::Sdp ? 32 : 16; }
// The signed width of a linear index select as the engine reads it (docs/LUT.md, "CDP select
// narrowing").
int select_bits_of(LutVariant v, LutPrecision p) {
  if (v == LutVariant::Sdp) return 8;
  return p == LutPrecision::Int8 ? 6 : 7;
}
int64_t in_min(LutVariant v) { return static_cast<int64_t>(golden::min_of_bits(in_bits_of(v))); }
int64_t in_max(LutVariant v) { return static_cast<int64_t>(golden::max_of_bits(in_bits_of(v))); }
const char* variant_name(LutVariant v) { return v == LutVariant::Sdp ? "sdp" : "cdp"; }

}  // namespace

// ------------------------------------------------------------------ edge inputs

std::vector<int64_t> lut_edge_inputs(LutVariant v, const LutConfig& c) {
  using golden::Wide;
  const Wide lo = in_min(v), hi = in_max(v);
  std::vector<int64_t> out;
  auto add = [&](Wide x) {
    if (x >= lo && x <= hi) out.push_back(static_cast<int64_t>(x));
  };
  auto around = [&](Wide x) {
    add(x - 1);
    add(x);
    add(x + 1);
  };
  const int sb = select_bits_of(v, c.precision);
  auto narrow = [&](int8_t sel) {
    return static_cast<int>(golden::sign_extend(static_cast<uint8_t>(sel), sb));
  };
  auto sx = [&](int64_t r) { return static_cast<Wide>(golden::sign_extend(static_cast<uint64_t>(r), in_bits_of(v))); };
  // Linear table: entry i at START + i * 2^sel (integer positions only for negative selects).
  auto linear_points = [&](Wide start, int sel, int entries) {
    for (int i = 0; i < entries; ++i) {
      if (sel >= 0) {
        if (sel > 60 && i > 0) break;  // past every input width
        around(start + (static_cast<Wide>(i) << sel));
      } else if (-sel >= 16) {
        if (i == 0) around(start);
      } else if (i % (1 << -sel) == 0) {
        around(start + (i >> -sel));
      }
    }
  };
  const Wide le_start = sx(c.le_start), lo_start = sx(c.lo_start);
  if (c.le_linear) {
    linear_points(le_start, narrow(c.le_index_select), golden::kLutLeEntries);
  } else {
    for (int i = 0; i < golden::kLutLeEntries; ++i) {
      const int e = i + c.le_index_offset;
      if (e >= 0 && e <= 62) around(le_start + (Wide{1} << e));
    }
  }
  linear_points(lo_start, narrow(c.lo_index_select), golden::kLutLoEntries);
  for (const Wide r : {le_start, sx(c.le_end), lo_start, sx(c.lo_end), Wide{0}}) around(r);
  around(lo);
  around(hi);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ------------------------------------------------------------------ programming plan

LutProgPlan lut_prog_plan(const LutJob& job) {
  LutProgPlan p;
  // The table writes exactly as a driver issues them (one ACCESS_CFG, then auto-increment DATA).
  for (const auto& [off, val] : golden::lut_register_writes(job.variant, LutConfig{}, job.tables)) {
    if (off == golden::kLutAccessCfgOffset) p.setup.push_back({false, true, val});
    if (off == golden::kLutAccessDataOffset) p.setup.push_back({true, true, val});
  }
  auto readback = [](std::vector<LutProgOp>& ops, std::size_t base, std::vector<std::size_t>& firsts) {
    ops.push_back({false, true, golden::lut_access_cfg(false, false, 0)});
    firsts.push_back(base + ops.size());
    for (int i = 0; i < golden::kLutLeEntries; ++i) ops.push_back({true, false, 0});
    ops.push_back({false, true, golden::lut_access_cfg(true, false, 0)});
    for (int i = 0; i < golden::kLutLoEntries; ++i) ops.push_back({true, false, 0});
  };
  readback(p.setup, 0, p.readback_first);
  if (job.busy_check) {
    // Arm a write pointer so that an accepted DATA write would change LE[0].
    p.setup.push_back({false, true, golden::lut_access_cfg(false, true, 0)});
    p.busy.push_back({false, true, golden::lut_access_cfg(true, true, 3)});
    p.busy.push_back({true, true, 0x7fff});
    p.after.push_back({false, false, 0});  // ACCESS_CFG read: pointer unchanged
    readback(p.after, p.setup.size() + p.busy.size(), p.readback_first);
  }
  return p;
}

// ------------------------------------------------------------------ golden run

LutOutcome lut_run_golden(const LutJob& job) {
  const LutProgPlan plan = lut_prog_plan(job);
  LutOutcome out;
  golden::LutRam ram;
  auto apply = [&](const LutProgOp& op) {
    uint32_t rdata = 0;
    bool ok = true;
    if (op.data) {
      if (op.write) {
        ok = ram.data_write(op.wdata);
      } else {
        rdata = ram.data_read();
      }
    } else if (op.write) {
      ok = ram.cfg_write(op.wdata);
    } else {
      rdata = ram.cfg_read();
    }
    out.rsp_rdata.push_back(rdata);
    out.rsp_err.push_back(static_cast<uint8_t>(ok ? 0 : 1));
  };
  for (const auto& op : plan.setup) apply(op);
  out.sticky_err[0] = ram.error();
  const LutConfig cfg = golden::decode_lut_config(job.variant, job.regs, job.precision);
  out.elements.reserve(job.inputs.size());
  for (const int64_t x : job.inputs) {
    const LutResult r = job.fp ? golden::lut_lookup_fp(job.variant, cfg, ram.tables(), static_cast<uint32_t>(x))
                               : golden::lut_lookup(job.variant, cfg, ram.tables(), x);
    out.elements.push_back({r.value, r.uflow, r.oflow, r.le_hit, r.lo_hit, r.lo_selected});
    if (job.perf_en) golden::accumulate(job.variant, out.stats, r);
  }
  ram.set_busy(true);
  for (const auto& op : plan.busy) apply(op);
  ram.set_busy(false);
  out.sticky_err[1] = ram.error();
  for (const auto& op : plan.after) apply(op);
  ram.clear_error();
  out.sticky_err[2] = ram.error();
  return out;
}

// ------------------------------------------------------------------ RTL driver

namespace {

struct Beat {
  std::array<int64_t, kLutLanes> x{};
  std::array<int64_t, kLutLanes> element{};  // -1: lane masked off
  uint8_t mask = 0;
};

std::vector<Beat> make_beats(const LutJob& job, uint64_t seed) {
  Rng rng = Rng::derive(seed, "lut.holes");
  const int64_t lo = in_min(job.variant), hi = in_max(job.variant);
  std::vector<Beat> beats;
  beats.reserve(job.inputs.size() / kLutLanes + 1);
  std::size_t next = 0;
  while (next < job.inputs.size()) {
    Beat b;
    for (int l = 0; l < kLutLanes; ++l) {
      if (next < job.inputs.size() && !rng.chance(job.holes)) {
        b.x[l] = job.inputs[next];
        b.element[l] = static_cast<int64_t>(next++);
        b.mask |= static_cast<uint8_t>(1u << l);
      } else {
        b.x[l] = rng.range(lo, hi);  // a masked-off lane carries garbage
        b.element[l] = -1;
      }
    }
    beats.push_back(b);
  }
  return beats;
}

template <class Model>
LutOutcome drive_lut(const LutJob& job, const SimOptions& sopt, double stall, uint64_t seed) {
  const auto in_w = static_cast<unsigned>(in_bits_of(job.variant));
  const auto out_w = static_cast<unsigned>(out_bits_of(job.variant));
  const LutProgPlan plan = lut_prog_plan(job);
  const std::vector<Beat> beats = make_beats(job, seed);

  Sim<Model> sim(sopt, fmt::format("lut_engine ({})", variant_name(job.variant)));
  Model& t = sim.top();
  clear_bits(t.lut_regs_i);
  for (std::size_t k = 0; k < job.regs.size(); ++k) put_bits(t.lut_regs_i, static_cast<unsigned>(32 * k), 32, job.regs[k]);
  t.in_int8_i = job.variant == LutVariant::Cdp && job.precision == LutPrecision::Int8;
  t.in_fp_i = job.fp;
  t.layer_active_i = 0;
  t.in_valid_i = 0;
  clear_bits(t.in_data_i);
  t.in_mask_i = 0;
  t.out_ready_i = 0;
  t.stat_en_i = 0;
  t.stat_clr_i = 0;
  t.prog_valid_i = 0;
  t.prog_addr_i = 0;
  t.prog_write_i = 0;
  t.prog_wdata_i = 0;
  t.prog_err_clr_i = 0;
  sim.reset();

  StallInjector in_stall(seed, "lut.in", stall), out_stall(seed, "lut.out", stall),
      prog_stall(seed, "lut.prog", stall);
  LutOutcome out;
  out.elements.resize(job.inputs.size());

  auto capture_rsp = [&] {
    if (t.prog_rsp_valid_o) {
      out.rsp_rdata.push_back(t.prog_rsp_rdata_o);
      out.rsp_err.push_back(static_cast<uint8_t>(t.prog_rsp_err_o ? 1 : 0));
      sim.progress();
    }
  };
  auto present = [&](const LutProgOp* op) {
    t.prog_valid_i = op != nullptr;
    t.prog_addr_i = op != nullptr && op->data;
    t.prog_write_i = op != nullptr && op->write;
    t.prog_wdata_i = op != nullptr ? op->wdata : 0;
  };
  // Issues `ops` on the programming port (valid held back at random) and waits for every response.
  auto run_ops = [&](const std::vector<LutProgOp>& ops) {
    const std::size_t want = out.rsp_err.size() + ops.size();
    std::size_t i = 0;
    bool on = false;
    while (out.rsp_err.size() < want) {
      if (!on && i < ops.size() && !prog_stall.stall()) on = true;
      present(on ? &ops[i] : nullptr);
      sim.settle();
      capture_rsp();
      const bool fire = on && t.prog_ready_o;
      sim.tick();
      if (fire) {
        ++i;
        on = false;
        sim.progress();
      }
    }
    present(nullptr);
  };

  // Phase 0: program the tables, read them back (idle engine: every write is accepted).
  run_ops(plan.setup);
  sim.settle();
  out.sticky_err[0] = t.prog_err_o;

  // Phase 1: the layer. Statistics cleared at its start, busy held by layer_active_i throughout.
  t.layer_active_i = 1;
  t.stat_en_i = job.perf_en;
  t.stat_clr_i = 1;
  sim.tick();
  t.stat_clr_i = 0;
  const std::size_t busy_want = out.rsp_err.size() + plan.busy.size();
  const std::size_t busy_at = beats.size() / 2;  // the refused writes go in mid-stream
  std::size_t next_in = 0, beats_out = 0, busy_i = 0;
  bool in_on = false, busy_on = false;
  while (beats_out < beats.size() || out.rsp_err.size() < busy_want) {
    if (!in_on && next_in < beats.size() && !in_stall.stall()) {
      const Beat& b = beats[next_in];
      for (int l = 0; l < kLutLanes; ++l) {
        put_bits(t.in_data_i, static_cast<unsigned>(l) * in_w, in_w, static_cast<uint64_t>(b.x[l]));
      }
      t.in_mask_i = b.mask;
      in_on = true;
    }
    t.in_valid_i = in_on;
    t.out_ready_i = !out_stall.stall();
    if (!busy_on && busy_i < plan.busy.size() && next_in >= busy_at && !prog_stall.stall()) busy_on = true;
    present(busy_on ? &plan.busy[busy_i] : nullptr);
    sim.settle();
    capture_rsp();
    if (t.out_valid_o && t.out_ready_i) {
      const Beat& b = beats.at(beats_out++);
      for (int l = 0; l < kLutLanes; ++l) {
        if (b.element[l] < 0) continue;
        const auto bit = static_cast<unsigned>(l);
        LutElement& e = out.elements[static_cast<std::size_t>(b.element[l])];
        e.value = job.fp ? static_cast<int64_t>(get_bits(t.out_fp_value_o, bit * 32, 32))
                         : golden::sign_extend(get_bits(t.out_value_o, bit * out_w, out_w), static_cast<int>(out_w));
        e.uflow = ((t.out_uflow_o >> bit) & 1u) != 0;
        e.oflow = ((t.out_oflow_o >> bit) & 1u) != 0;
        e.le_hit = ((t.out_le_hit_o >> bit) & 1u) != 0;
        e.lo_hit = ((t.out_lo_hit_o >> bit) & 1u) != 0;
        e.lo_sel = ((t.out_lo_sel_o >> bit) & 1u) != 0;
      }
      sim.progress();
    }
    const bool in_fire = in_on && t.in_ready_o;
    const bool prog_fire = busy_on && t.prog_ready_o;
    sim.tick();
    if (in_fire) {
      ++next_in;
      in_on = false;
      sim.progress();
    }
    if (prog_fire) {
      ++busy_i;
      busy_on = false;
      sim.progress();
    }
  }
  t.in_valid_i = 0;
  present(nullptr);
  sim.settle();
  out.stats = {t.stat_uflow_o, t.stat_oflow_o, t.stat_hybrid_o, t.stat_le_hit_o, t.stat_lo_hit_o};
  t.layer_active_i = 0;
  t.stat_en_i = 0;
  sim.tick();
  sim.settle();
  out.sticky_err[1] = t.prog_err_o;

  // Phase 2: pointer state and tables after the refused writes; then clear the sticky error.
  run_ops(plan.after);
  t.prog_err_clr_i = 1;
  sim.tick();
  t.prog_err_clr_i = 0;
  sim.settle();
  out.sticky_err[2] = t.prog_err_o;
  out.cycles = sim.cycle();
  sim.finish();
  return out;
}

}  // namespace

LutOutcome lut_run_rtl(const LutJob& job, const SimOptions& sopt, double stall, uint64_t seed) {
  if (job.regs.size() != static_cast<std::size_t>(golden::lut_reg_count(job.variant))) {
    throw std::invalid_argument("lut_run_rtl: wrong number of register words");
  }
  if (job.variant == LutVariant::Sdp) return drive_lut<Vlut_sdp>(job, sopt, stall, seed);
  return drive_lut<Vlut_cdp>(job, sopt, stall, seed);
}

// ------------------------------------------------------------------ layer parsing

namespace {

int64_t read_int(const JsonNode& n, int64_t lo, int64_t hi) { return n.as_int(lo, hi); }

template <std::size_t N>
void read_table(const JsonNode& n, const char* name, std::array<int16_t, N>& out) {
  if (!n.is_array() || n.size() != N) {
    n.fail(fmt::format("the {} table needs exactly {} entries, {} given", name, N, n.is_array() ? n.size() : 0));
  }
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<int16_t>(n[i].as_int(-32768, 32767));
}

bool read_prio(const JsonNode& n) { return n.as_choice({"le", "lo"}) == "lo"; }

}  // namespace

golden::LutProgram lut_program_from_function(LutVariant variant, LutPrecision precision, const JsonNode& tn) {
  golden::LutFunctionSpec fn;
  const std::string f = tn.require("function").as_choice({"sigmoid", "tanh", "exp", "lrn"});
  fn.function = f == "sigmoid" ? golden::LutFunction::Sigmoid
                : f == "tanh"  ? golden::LutFunction::Tanh
                : f == "exp"   ? golden::LutFunction::Exp
                               : golden::LutFunction::Lrn;
  if (const auto n = tn.get("in_scale")) fn.in_scale = n->as_double(1e-12, 1e12);
  if (const auto n = tn.get("out_scale")) fn.out_scale = n->as_double(1e-6, 1e9);
  for (const char* key : {"lrn_k", "lrn_alpha", "lrn_beta"}) {
    const auto n = tn.get(key);
    if (!n) continue;
    if (fn.function != golden::LutFunction::Lrn) n->fail("only the lrn function takes this parameter");
    const double v = n->as_double(-1e9, 1e9);
    (std::string_view(key) == "lrn_k" ? fn.lrn_k : std::string_view(key) == "lrn_alpha" ? fn.lrn_alpha : fn.lrn_beta) = v;
  }
  const bool le_exponent =
      tn.get("le_function") ? tn.require("le_function").as_choice({"exponent", "linear"}) == "exponent" : false;
  const bool planned = tn.get("raw") || tn.get("density");
  const bool placed = tn.get("le_start") || tn.get("le_index_offset") || tn.get("le_index_select") ||
                      tn.get("lo_start") || tn.get("lo_index_select");
  if (planned && placed) {
    tn.fail("give either \"raw\" and \"density\" ranges or an explicit placement (le_start, le_index_offset, "
            "le_index_select, lo_start, lo_index_select), not both");
  }
  golden::LutBuildSpec spec;
  if (planned) {
    auto range = [&](const char* key) {
      const JsonNode r = tn.require(key);
      if (!r.is_array() || r.size() != 2) r.fail("must be [lo, hi] in real input units (x = X * in_scale)");
      const double a = r[0].as_double(-1e15, 1e15), b = r[1].as_double(-1e15, 1e15);
      if (!(a < b)) r.fail(fmt::format("lo {} must be less than hi {}", a, b));
      return std::pair<double, double>{a, b};
    };
    const auto raw = range("raw");
    const auto dense = range("density");
    spec = golden::plan_lut(variant, fn, raw.first, raw.second, le_exponent, dense.first, dense.second);
  } else {
    spec.fn = fn;
    spec.le_linear = !le_exponent;
    const int sb = select_bits_of(variant, precision);
    const int64_t smin = -(int64_t{1} << (sb - 1)), smax = (int64_t{1} << (sb - 1)) - 1;
    if (const auto n = tn.get("le_start")) spec.le_start = read_int(*n, in_min(variant), in_max(variant));
    if (const auto n = tn.get("lo_start")) spec.lo_start = read_int(*n, in_min(variant), in_max(variant));
    if (const auto n = tn.get("le_index_offset")) spec.le_index_offset = static_cast<int>(read_int(*n, -128, 127));
    if (const auto n = tn.get("le_index_select")) spec.le_index_select = static_cast<int>(read_int(*n, smin, smax));
    if (const auto n = tn.get("lo_index_select")) spec.lo_index_select = static_cast<int>(read_int(*n, smin, smax));
  }
  spec.variant = variant;
  spec.precision = precision;
  if (const auto n = tn.get("slopes")) {
    const std::string s = n->as_choice({"auto", "flat", "tangent"});
    spec.slopes = s == "flat" ? golden::LutSlopeMode::Flat
                  : s == "tangent" ? golden::LutSlopeMode::Tangent
                                   : golden::LutSlopeMode::Auto;
  }
  try {
    return golden::build_lut(spec);
  } catch (const std::invalid_argument& e) {
    tn.fail(fmt::format("the table builder refused this placement ({})", e.what()));
  }
}

void apply_lut_register_fields(LutVariant variant, LutPrecision precision, const JsonNode& rn, LutConfig& c,
                               bool fp16) {
  // fp16 reads all 8 bits of the selects (CDP's integer data 6 or 7, docs/FP16.md "CDP in fp16").
  const int sb = fp16 ? 8 : select_bits_of(variant, precision);
  const int64_t smin = -(int64_t{1} << (sb - 1)), smax = (int64_t{1} << (sb - 1)) - 1;
  const int64_t xmin = in_min(variant), xmax = in_max(variant);
  if (const auto n = rn.get("le_function")) c.le_linear = n->as_choice({"exponent", "linear"}) == "linear";
  if (const auto n = rn.get("uflow_priority")) c.uflow_prio_lo = read_prio(*n);
  if (const auto n = rn.get("oflow_priority")) c.oflow_prio_lo = read_prio(*n);
  if (const auto n = rn.get("hybrid_priority")) c.hybrid_prio_lo = read_prio(*n);
  if (const auto n = rn.get("le_index_offset")) c.le_index_offset = static_cast<int8_t>(read_int(*n, -128, 127));
  if (const auto n = rn.get("le_index_select")) c.le_index_select = static_cast<int8_t>(read_int(*n, smin, smax));
  if (const auto n = rn.get("lo_index_select")) c.lo_index_select = static_cast<int8_t>(read_int(*n, smin, smax));
  // fp16 (docs/FP16.md "SDP EW and LUT"): the ranges are fp32 patterns, the slope scales fp16, the
  // slope shifts not read.
  auto range = [&](const char* key, int64_t& r) {
    if (const auto n = rn.get(key)) r = fp16 ? int64_t{parse_fp32(*n)} : read_int(*n, xmin, xmax);
  };
  range("le_start", c.le_start);
  range("le_end", c.le_end);
  range("lo_start", c.lo_start);
  range("lo_end", c.lo_end);
  auto scale = [&](const char* key, int16_t& s) {
    if (const auto n = rn.get(key)) s = static_cast<int16_t>(fp16 ? parse_fp16(*n) : read_int(*n, -32768, 32767));
  };
  auto shift = [&](const char* key, int& s) {
    const auto n = rn.get(key);
    if (n && fp16) n->fail("the slope shifts are not read in fp16 (NVDLA scales by an fp16 slope)");
    if (n) s = static_cast<int>(read_int(*n, -16, 15));
  };
  scale("le_uflow_scale", c.le_uflow_scale);
  scale("le_oflow_scale", c.le_oflow_scale);
  scale("lo_uflow_scale", c.lo_uflow_scale);
  scale("lo_oflow_scale", c.lo_oflow_scale);
  shift("le_uflow_shift", c.le_uflow_shift);
  shift("le_oflow_shift", c.le_oflow_shift);
  shift("lo_uflow_shift", c.lo_uflow_shift);
  shift("lo_oflow_shift", c.lo_oflow_shift);
}

namespace {

// fp32 / fp16 patterns of host values: rounded to float, then to fp16 by NVDLA's saturating rule.
uint32_t fp32_of(double v) { return std::bit_cast<uint32_t>(static_cast<float>(v)); }
int16_t fp16_of(double v) {
  return static_cast<int16_t>(golden::fp::convert(golden::fp::kFp32, golden::fp::kFp16, fp32_of(v)));
}

// Tables of f at the positions the float LUT gives its entries (LE exponent: START + 2^(i + off),
// linear: START + i * 2^sel), END at the last entry, slopes f' at the ends. LRN (CDP) is
// (k + alpha x)^-beta of the square sum x, by default on an exponent LE from 2^-10 and a linear LO
// over 0 .. 256.
golden::LutProgram lut_fp16_from_function(const JsonNode& tn) {
  const std::string f = tn.require("function").as_choice({"sigmoid", "tanh", "exp", "lrn"});
  const bool lrn = f == "lrn";
  double lrn_k = 1.0, lrn_alpha = 1e-4, lrn_beta = 0.75;
  for (const auto& [key, dst] : {std::pair{"lrn_k", &lrn_k}, std::pair{"lrn_alpha", &lrn_alpha}, std::pair{"lrn_beta", &lrn_beta}}) {
    const auto n = tn.get(key);
    if (n && !lrn) n->fail("only the lrn function takes this parameter");
    if (n) *dst = n->as_double(-1e9, 1e9);
  }
  const auto fp_function_value = [&](const std::string& fn, double x) {
    if (fn == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
    if (fn == "tanh") return std::tanh(x);
    if (fn == "lrn") return std::pow(lrn_k + lrn_alpha * x, -lrn_beta);
    return std::exp(x);
  };
  golden::LutProgram p;
  LutConfig& c = p.config;
  c.le_linear = tn.get("le_function") ? tn.require("le_function").as_choice({"exponent", "linear"}) == "linear" : !lrn;
  c.hybrid_prio_lo = true;
  const auto real = [&](const char* key, double dflt) {
    return tn.get(key) ? static_cast<double>(std::bit_cast<float>(parse_fp32(tn.require(key)))) : dflt;
  };
  const auto small = [&](const char* key, int dflt) {
    return tn.get(key) ? static_cast<int8_t>(tn.require(key).as_int(-100, 100)) : static_cast<int8_t>(dflt);
  };
  const double le_start = real("le_start", c.le_linear && !lrn ? -8.0 : 0.0), lo_start = real("lo_start", lrn ? 0.0 : -8.0);
  c.le_index_offset = small("le_index_offset", lrn ? -10 : -8);
  c.le_index_select = small("le_index_select", -3);
  c.lo_index_select = small("lo_index_select", lrn ? 0 : -4);
  const auto le_x = [&](int i) {
    return c.le_linear ? le_start + i * std::ldexp(1.0, c.le_index_select) : le_start + std::ldexp(1.0, i + c.le_index_offset);
  };
  const auto lo_x = [&](int i) { return lo_start + i * std::ldexp(1.0, c.lo_index_select); };
  for (int i = 0; i < golden::kLutLeEntries; ++i) p.tables.le[i] = fp16_of(fp_function_value(f, le_x(i)));
  for (int i = 0; i < golden::kLutLoEntries; ++i) p.tables.lo[i] = fp16_of(fp_function_value(f, lo_x(i)));
  const double le_first = c.le_linear ? le_start : le_x(0), le_last = le_x(golden::kLutLeEntries - 1);
  const double lo_last = lo_x(golden::kLutLoEntries - 1);
  c.le_start = fp32_of(le_start);
  c.le_end = fp32_of(le_last);
  c.lo_start = fp32_of(lo_start);
  c.lo_end = fp32_of(lo_last);
  const auto slope = [&](double x) {
    const double h = std::max(std::fabs(x), 1.0) * 1e-6;
    return fp16_of((fp_function_value(f, x + h) - fp_function_value(f, x - h)) / (2 * h));
  };
  c.le_uflow_scale = slope(le_first);
  c.le_oflow_scale = slope(le_last);
  c.lo_uflow_scale = slope(lo_start);
  c.lo_oflow_scale = slope(lo_last);
  return p;
}

template <std::size_t N>
void read_fp16_table(const JsonNode& n, const char* name, std::array<int16_t, N>& out) {
  if (!n.is_array() || n.size() != N) {
    n.fail(fmt::format("the {} table needs exactly {} fp16 entries, {} given", name, N, n.is_array() ? n.size() : 0));
  }
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<int16_t>(parse_fp16(n[i]));
}

}  // namespace

golden::LutProgram parse_lut_object(LutVariant variant, LutPrecision precision, const JsonNode& tn, bool fp16) {
  if (!tn.is_object()) tn.fail("must be an object: {\"function\": ...} or {\"le\": [65], \"lo\": [257]}");
  golden::LutProgram p;
  if (tn.get("function") && fp16) {
    tn.allow_keys({"function", "lrn_k", "lrn_alpha", "lrn_beta", "le_function", "le_start", "le_index_offset",
                   "le_index_select", "lo_start", "lo_index_select", "registers"});
    p = lut_fp16_from_function(tn);
  } else if (tn.get("function")) {
    tn.allow_keys({"function", "in_scale", "out_scale", "lrn_k", "lrn_alpha", "lrn_beta", "slopes", "raw", "density",
                   "le_function", "le_start", "le_index_offset", "le_index_select", "lo_start", "lo_index_select",
                   "registers"});
    p = lut_program_from_function(variant, precision, tn);
  } else {
    tn.allow_keys({"le", "lo", "registers"});
    if (fp16) {
      read_fp16_table(tn.require("le"), "LE", p.tables.le);
      read_fp16_table(tn.require("lo"), "LO", p.tables.lo);
    } else {
      read_table(tn.require("le"), "LE", p.tables.le);
      read_table(tn.require("lo"), "LO", p.tables.lo);
    }
  }
  if (const auto rn = tn.get("registers")) {
    rn->allow_keys({"le_function", "uflow_priority", "oflow_priority", "hybrid_priority", "le_index_offset",
                    "le_index_select", "lo_index_select", "le_start", "le_end", "lo_start", "lo_end", "le_uflow_scale",
                    "le_oflow_scale", "lo_uflow_scale", "lo_oflow_scale", "le_uflow_shift", "le_oflow_shift",
                    "lo_uflow_shift", "lo_oflow_shift"});
    apply_lut_register_fields(variant, precision, *rn, p.config, fp16);
  }
  p.config.precision = precision;
  return p;
}


namespace {

LutJob build_job(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "variant", "precision", "tables",
                   "registers", "perf_lut_en", "busy_check", "input"});
  LutJob job;
  job.variant = root.require("variant").as_choice({"sdp", "cdp"}) == "sdp" ? LutVariant::Sdp : LutVariant::Cdp;
  if (const auto p = root.get("precision")) {
    // SDP's integer LUT has one form; its precision field is accepted and has no effect.
    const bool int8 = p->as_choice({"int8", "int16"}) == "int8";
    if (job.variant == LutVariant::Cdp && int8) job.precision = LutPrecision::Int8;
  }

  // Tables, and the configuration they come with (builders) or an all-zero one (inline tables).
  LutConfig cfg;
  const JsonNode tn = root.require("tables");
  if (!tn.is_object()) tn.fail("must be an object: {\"le\": [65], \"lo\": [257]} or {\"function\": ...}");
  if (tn.get("function")) {
    tn.allow_keys({"function", "in_scale", "out_scale", "lrn_k", "lrn_alpha", "lrn_beta", "slopes", "raw", "density",
                   "le_function", "le_start", "le_index_offset", "le_index_select", "lo_start", "lo_index_select"});
    const golden::LutProgram p = lut_program_from_function(job.variant, job.precision, tn);
    job.tables = p.tables;
    cfg = p.config;
  } else {
    tn.allow_keys({"le", "lo"});
    read_table(tn.require("le"), "LE", job.tables.le);
    read_table(tn.require("lo"), "LO", job.tables.lo);
  }
  cfg.precision = job.precision;

  // Register words: raw, or the configuration above with named fields overriding it.
  const auto rn = root.get("registers");
  if (rn && rn->get("raw")) {
    if (rn->raw().size() != 1) rn->fail("give either \"raw\" register words or named fields, not both");
    const JsonNode raw = rn->require("raw");
    const auto need = static_cast<std::size_t>(golden::lut_reg_count(job.variant));
    if (raw.size() != need) {
      raw.fail(fmt::format("{} takes exactly {} register words (S_LUT_CFG .. S_LUT_LO_SLOPE_SHIFT), {} given",
                           job.variant == LutVariant::Sdp ? "SDP" : "CDP", need, raw.size()));
    }
    for (const auto& w : raw.items()) job.regs.push_back(static_cast<uint32_t>(w.as_u64(0xffffffffu)));
  } else {
    if (rn) {
      rn->allow_keys({"raw", "le_function", "uflow_priority", "oflow_priority", "hybrid_priority", "le_index_offset",
                      "le_index_select", "lo_index_select", "le_start", "le_end", "lo_start", "lo_end",
                      "le_uflow_scale", "le_oflow_scale", "lo_uflow_scale", "lo_oflow_scale", "le_uflow_shift",
                      "le_oflow_shift", "lo_uflow_shift", "lo_oflow_shift"});
      apply_lut_register_fields(job.variant, job.precision, *rn, cfg);
    }
    job.regs = golden::encode_lut_config(job.variant, cfg);
  }
  if (const auto n = root.get("perf_lut_en")) job.perf_en = n->as_bool();
  if (const auto n = root.get("busy_check")) job.busy_check = n->as_bool();

  // The input stream: edges, then values, then random.
  const JsonNode in = root.require("input");
  in.allow_keys({"random", "values", "edges", "holes"});
  const int64_t xmin = in_min(job.variant), xmax = in_max(job.variant);
  if (const auto n = in.get("edges"); n && n->as_bool()) {
    job.inputs = lut_edge_inputs(job.variant, golden::decode_lut_config(job.variant, job.regs, job.precision));
  }
  if (const auto n = in.get("values")) {
    if (n->size() == 0) n->fail("must not be empty");
    for (const auto& v : n->items()) job.inputs.push_back(v.as_int(xmin, xmax));
  }
  if (const auto rnd = in.get("random")) {
    rnd->allow_keys({"count", "min", "max"});
    const int64_t count = rnd->require("count").as_int(1, kMaxLayerElements);
    const int64_t lo = rnd->get("min") ? rnd->require("min").as_int(xmin, xmax) : xmin;
    const int64_t hi = rnd->get("max") ? rnd->require("max").as_int(xmin, xmax) : xmax;
    if (lo > hi) rnd->fail(fmt::format("min {} is greater than max {}", lo, hi));
    Rng rng = Rng::derive(h.seed, "lut.input");
    for (int64_t i = 0; i < count; ++i) job.inputs.push_back(rng.range(lo, hi));
  }
  if (job.inputs.empty()) in.fail("the input stream is empty: give \"random\", \"values\" or \"edges\": true");
  if (static_cast<int64_t>(job.inputs.size()) > kMaxLayerElements) {
    in.fail(fmt::format("{} inputs exceed the limit of {}", job.inputs.size(), kMaxLayerElements));
  }
  if (const auto n = in.get("holes")) job.holes = n->as_double(0.0, 0.9);
  return job;
}

// ------------------------------------------------------------------ compare

struct Cubes {
  Cube<int64_t> value, flags, stats, tables, prog, prog_err;
};

Cubes to_cubes(const LutOutcome& o, const LutProgPlan& plan) {
  const int n = static_cast<int>(o.elements.size());
  Cubes c{Cube<int64_t>({1, 1, 1, n}),
          Cube<int64_t>({1, 5, 1, n}),
          Cube<int64_t>({1, 5, 1, 1}),
          Cube<int64_t>({1, static_cast<int>(plan.readback_first.size()), 1, golden::kLutLeEntries + golden::kLutLoEntries}),
          Cube<int64_t>({1, 2, 1, static_cast<int>(o.rsp_err.size())}),
          Cube<int64_t>({1, 1, 1, 3})};
  for (int i = 0; i < n; ++i) {
    const LutElement& e = o.elements[static_cast<std::size_t>(i)];
    c.value.at(0, 0, 0, i) = e.value;
    c.flags.at(0, 0, 0, i) = e.uflow;
    c.flags.at(0, 1, 0, i) = e.oflow;
    c.flags.at(0, 2, 0, i) = e.le_hit;
    c.flags.at(0, 3, 0, i) = e.lo_hit;
    c.flags.at(0, 4, 0, i) = e.lo_sel;
  }
  const std::array<uint32_t, 5> st{o.stats.uflow, o.stats.oflow, o.stats.hybrid, o.stats.le_hit, o.stats.lo_hit};
  for (int k = 0; k < 5; ++k) c.stats.at(0, k, 0, 0) = st[static_cast<std::size_t>(k)];
  for (std::size_t r = 0; r < plan.readback_first.size(); ++r) {
    const std::size_t first = plan.readback_first[r];
    for (int i = 0; i < golden::kLutLeEntries; ++i) {
      c.tables.at(0, static_cast<int>(r), 0, i) = o.rsp_rdata.at(first + static_cast<std::size_t>(i));
    }
    // LO's entries follow its ACCESS_CFG write, one request after LE's last entry.
    const std::size_t lo_first = first + golden::kLutLeEntries + 1;
    for (int i = 0; i < golden::kLutLoEntries; ++i) {
      c.tables.at(0, static_cast<int>(r), 0, golden::kLutLeEntries + i) = o.rsp_rdata.at(lo_first + static_cast<std::size_t>(i));
    }
  }
  for (std::size_t i = 0; i < o.rsp_err.size(); ++i) {
    c.prog.at(0, 0, 0, static_cast<int>(i)) = o.rsp_err[i];
    c.prog.at(0, 1, 0, static_cast<int>(i)) = o.rsp_rdata[i];
  }
  for (int k = 0; k < 3; ++k) c.prog_err.at(0, 0, 0, k) = o.sticky_err[static_cast<std::size_t>(k)];
  return c;
}

struct Region {
  const char* name;
  Cube<int64_t> Cubes::*cube;
  const char* axes;
  int bytes;
};

const std::array<Region, 6> kRegions{{
    {"value", &Cubes::value, "n,c,h,element", 4},
    {"flags", &Cubes::flags, "n,flag(0=uflow 1=oflow 2=le_hit 3=lo_hit 4=lo_sel),h,element", 1},
    {"stats", &Cubes::stats, "n,counter(0=uflow 1=oflow 2=hybrid 3=le_hit 4=lo_hit),h,w", 4},
    {"tables", &Cubes::tables, "n,readback,h,entry(LE 0..64, LO 65..321)", 4},
    {"prog", &Cubes::prog, "n,field(0=rsp_err 1=rsp_rdata),h,request", 4},
    {"prog_err", &Cubes::prog_err, "n,c,h,when(0=programmed 1=after layer 2=after clear)", 1},
}};

}  // namespace

LutJob parse_lut_layer(const LayerHeader& h, const JsonNode& root) { return build_job(h, root); }

namespace {

void validate(const LayerHeader& h, const JsonNode& root) { (void)build_job(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const LutJob job = build_job(h, root);
  const LutProgPlan plan = lut_prog_plan(job);
  RunResult r;
  r.work = job.inputs.size();
  LutOutcome expected, actual;
  if (opt.mode != "rtl") expected = lut_run_golden(job);
  if (opt.mode != "golden") {
    SimOptions s = opt.sim;
    s.seed = h.seed;
    actual = lut_run_rtl(job, s, h.stall, h.seed);
    r.cycles = actual.cycles;
  }
  CompareOptions co;
  co.max_listed = opt.max_listed;
  co.dump_dir = opt.dump_dir;
  co.dump_stem = h.name;
  if (opt.mode == "cross") {
    Cubes a = to_cubes(actual, plan);
    const Cubes e = to_cubes(expected, plan);
    if (opt.flip) {
      if (opt.flip->element >= a.value.size()) {
        throw InputError("--flip-bit", "", fmt::format("element {} is beyond the {} output elements",
                                                       opt.flip->element, a.value.size()));
      }
      a.value[opt.flip->element] ^= int64_t{1} << opt.flip->bit;
    }
    std::size_t mism = 0;
    for (const Region& g : kRegions) {
      co.element_bytes = g.bytes;
      r.compares.push_back(compare_cubes(g.name, a.*g.cube, e.*g.cube, co));
      r.compares.back().axes = g.axes;
      mism += r.compares.back().mismatches;
    }
    r.status = mism == 0 ? Status::Pass : Status::Mismatch;
    if (mism != 0) r.message = fmt::format("{} element{} between RTL and golden", mism, mism == 1 ? " differs" : "s differ");
  } else {
    const Cubes only = to_cubes(opt.mode == "rtl" ? actual : expected, plan);
    co.element_bytes = 4;
    CompareResult c = compare_cubes("value", only.value, only.value, co);
    c.axes = kRegions[0].axes;
    r.compares.push_back(c);
    r.status = Status::Pass;
    r.message = fmt::format("{}-only run: nothing compared", opt.mode);
  }
  return r;
}

}  // namespace

UnitHandler lut_handler() { return {"lut", &validate, &run}; }

// ------------------------------------------------------------------ benchmark

namespace {

LutJob bench_job(LutVariant v, uint64_t count, uint64_t seed) {
  golden::LutFunctionSpec fn;
  golden::LutBuildSpec spec;
  if (v == LutVariant::Sdp) {
    fn.function = golden::LutFunction::Sigmoid;
    fn.in_scale = 1.0 / 4096;
    spec = golden::plan_lut(v, fn, -16, 16, false, -4, 4);
  } else {
    fn.function = golden::LutFunction::Lrn;
    spec = golden::plan_lut(v, fn, 0, 1073741824.0, true, 0, 65536);
  }
  const golden::LutProgram p = golden::build_lut(spec);
  LutJob job;
  job.variant = v;
  job.tables = p.tables;
  job.regs = golden::encode_lut_config(v, p.config);
  Rng rng = Rng::derive(seed, "bench.lut");
  const int64_t lo = v == LutVariant::Sdp ? -20 * 4096 : 0;
  const int64_t hi = v == LutVariant::Sdp ? 20 * 4096 : int64_t{1} << 31;
  job.inputs.reserve(count);
  for (uint64_t i = 0; i < count; ++i) job.inputs.push_back(rng.range(lo, hi));
  return job;
}

// The same model clocked with no harness work: a full beat held on the input, ready held.
template <class Model>
double bare_cycles_per_second(const LutJob& job, uint64_t cycles) {
  return harness::bare_cycles_per_second<Model>(cycles, [&job](Model& m) {
    for (std::size_t k = 0; k < job.regs.size(); ++k) put_bits(m.lut_regs_i, static_cast<unsigned>(32 * k), 32, job.regs[k]);
    const auto in_w = static_cast<unsigned>(in_bits_of(job.variant));
    for (unsigned l = 0; l < kLutLanes; ++l) put_bits(m.in_data_i, l * in_w, in_w, static_cast<uint64_t>(job.inputs[l]));
    m.layer_active_i = 1;
    m.in_valid_i = 1;
    m.in_mask_i = 0xf;
    m.out_ready_i = 1;
    m.stat_en_i = 1;
  });
}

}  // namespace

std::vector<BenchCase> bench_lut(const BenchOptions& opt) {
  std::vector<BenchCase> cases;
  for (const LutVariant v : {LutVariant::Sdp, LutVariant::Cdp}) {
    const uint64_t n = opt.ops != 0 ? opt.ops : 1'000'000;
    const LutJob job = bench_job(v, n, opt.seed);

    auto t0 = std::chrono::steady_clock::now();
    SimOptions so;
    so.seed = opt.seed;
    const LutOutcome rr = lut_run_rtl(job, so, 0.0, opt.seed);
    const double sim_s = seconds_since(t0);
    const double bare = v == LutVariant::Sdp ? bare_cycles_per_second<Vlut_sdp>(job, rr.cycles)
                                             : bare_cycles_per_second<Vlut_cdp>(job, rr.cycles);
    const double harness_cps = static_cast<double>(rr.cycles) / sim_s;

    // Golden: the bare lookup loop (decode once, lookup + statistics per element).
    const LutConfig cfg = golden::decode_lut_config(v, job.regs, job.precision);
    LutStats st;
    int64_t sink = 0;
    t0 = std::chrono::steady_clock::now();
    for (const int64_t x : job.inputs) {
      const LutResult r = golden::lut_lookup(v, cfg, job.tables, x);
      golden::accumulate(v, st, r);
      sink += r.value;
    }
    const double gold_s = seconds_since(t0);
    const LutOutcome g = lut_run_golden(job);
    if (g.elements != rr.elements || !(g.stats == rr.stats) || !(st == g.stats) || sink == 0x5a5a5a5a5a5a) {
      throw std::runtime_error(fmt::format("bench lut {}: RTL and golden disagree", variant_name(v)));
    }
    BenchCase c;
    c.unit = "lut";
    c.config = "-";  // the LUT engine is built once per variant, not per configuration
    c.name = std::string(variant_name(v));
    c.element = "lookup";
    c.cycles = rr.cycles;
    c.elements = n;
    c.wall_s = sim_s;
    c.extra = {{"sim_lookups_per_s", static_cast<double>(n) / sim_s},
               {"bare_cycles_per_s", bare},
               {"bare_lookups_per_s", bare * kLutLanes},
               {"harness_overhead", bare / harness_cps - 1.0},
               {"golden_lookups_per_s", static_cast<double>(n) / gold_s}};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string format_bench_lut(const std::vector<BenchCase>& cases) {
  std::string out = fmt::format("{:<8} {:>9} {:>9} {:>13} {:>12} {:>15} {:>9} {:>15}\n", "variant", "lookups",
                                "cycles", "sim lookup/s", "bare cyc/s", "bare lookup/s", "overhead",
                                "golden lookup/s");
  for (const BenchCase& c : cases) {
    out += fmt::format("{:<8} {:>9} {:>9} {:>13.4g} {:>12.4g} {:>15.4g} {:>8.1f}% {:>15.4g}\n", c.name, c.elements,
                       c.cycles, c.num("sim_lookups_per_s"), c.num("bare_cycles_per_s"), c.num("bare_lookups_per_s"),
                       100.0 * c.num("harness_overhead"), c.num("golden_lookups_per_s"));
  }
  out += fmt::format(
      "sim lookup/s: lookups per wall second through the harness ({} lanes per beat, no stalls; includes\n"
      "  programming and reading back the tables); bare cyc/s: the same model clocked in a plain eval loop;\n"
      "  bare lookup/s = bare cyc/s x {}; overhead: extra wall time of the harness over the bare loop per\n"
      "  cycle; golden lookup/s: lut_lookup + accumulate in a loop.\n",
      kLutLanes, kLutLanes);
  return out;
}

}  // namespace dla::harness::engines
