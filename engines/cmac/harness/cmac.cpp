// CMAC unit: layer parsing, the RTL driver for cmac_array, golden run, compare, benchmark.
#include <fmt/format.h>

#include <chrono>
#include <deque>

#include "dla_rtl_models.hpp"
#include "golden/arith.hpp"
#include "engines/cmac/golden/cmac.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"
#include "harness/bench.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines {

using golden::CmacBeat;
using golden::CmacStripe;
using golden::HwConfig;
using golden::Precision;

namespace {

struct CmacJob {
  const HwConfig* cfg = nullptr;
  Precision precision = Precision::Int8;
  std::vector<CmacStripe> stripes;
  uint64_t ops = 0;
};

// ------------------------------------------------------------------ layer parsing

CmacJob build_job(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "precision", "stripes", "data",
                   "weights"});
  CmacJob job;
  job.cfg = h.config;
  const JsonNode prec = root.require("precision");
  job.precision = *golden::parse_precision(prec.as_choice({"int8", "int16"}));
  if (!job.cfg->supports(job.precision)) {
    prec.fail(fmt::format("{} does not support {}", job.cfg->name, golden::precision_name(job.precision)));
  }
  const int max_k = job.cfg->atomic_k(job.precision);
  const int c = job.cfg->atomic_c;

  struct StripeShape {
    int ops, kernels;
    bool channel_end;
  };
  std::vector<StripeShape> shapes;
  const JsonNode st = root.require("stripes");
  constexpr int kMaxOps = 1 << 16;
  if (st.is_array()) {
    if (st.size() == 0) st.fail("at least one stripe is needed");
    for (const auto& s : st.items()) {
      s.allow_keys({"ops", "kernels", "channel_end"});
      StripeShape sh{};
      sh.ops = static_cast<int>(s.require("ops").as_int(1, kMaxOps));
      sh.kernels = s.get("kernels") ? static_cast<int>(s.require("kernels").as_int(1, max_k)) : max_k;
      sh.channel_end = s.get("channel_end") ? s.require("channel_end").as_bool() : false;
      shapes.push_back(sh);
    }
  } else {
    st.allow_keys({"random"});
    const JsonNode rnd = st.require("random");
    rnd.allow_keys({"count", "ops", "kernels", "channel_end"});
    const auto count = rnd.require("count").as_int(1, 100000);
    auto pair = [&](const char* key, int64_t lo, int64_t hi) {
      const JsonNode p = rnd.require(key);
      if (!p.is_array() || p.size() != 2) p.fail(fmt::format("must be [min, max] with {} <= min <= max <= {}", lo, hi));
      const int64_t a = p[0].as_int(lo, hi), b = p[1].as_int(lo, hi);
      if (a > b) p.fail(fmt::format("min {} is greater than max {}", a, b));
      return std::pair<int64_t, int64_t>{a, b};
    };
    const auto ops = pair("ops", 1, kMaxOps);
    const auto kernels = rnd.get("kernels") ? pair("kernels", 1, max_k) : std::pair<int64_t, int64_t>{max_k, max_k};
    const double ce = rnd.get("channel_end") ? rnd.require("channel_end").as_double(0.0, 1.0) : 0.5;
    Rng rng = Rng::derive(h.seed, "cmac.stripes");
    for (int64_t i = 0; i < count; ++i) {
      StripeShape sh{};
      sh.ops = static_cast<int>(rng.range(ops.first, ops.second));
      sh.kernels = static_cast<int>(rng.range(kernels.first, kernels.second));
      sh.channel_end = rng.chance(ce);
      shapes.push_back(sh);
    }
  }
  uint64_t total_ops = 0, total_kernels = 0;
  for (const auto& s : shapes) {
    total_ops += static_cast<uint64_t>(s.ops);
    total_kernels += static_cast<uint64_t>(s.kernels);
  }
  if (total_ops > 4'000'000) st.fail(fmt::format("{} atomic operations exceed the limit of 4000000", total_ops));
  const int bits = golden::bits_per_element(job.precision);
  const auto lo = static_cast<int64_t>(golden::min_of_bits(bits));
  const auto hi = static_cast<int64_t>(golden::max_of_bits(bits));
  const int eb = golden::bytes_per_element(job.precision);
  const auto data = resolve_values(root.require("data"), total_ops * c, eb, lo, hi, h.seed);
  const auto weights = resolve_values(root.require("weights"), total_kernels * c, eb, lo, hi, h.seed);
  std::size_t di = 0, wi = 0;
  for (const auto& s : shapes) {
    CmacStripe stripe;
    stripe.channel_end = s.channel_end;
    for (int k = 0; k < s.kernels; ++k) {
      stripe.weights.emplace_back(weights.begin() + wi, weights.begin() + wi + c);
      wi += c;
    }
    for (int o = 0; o < s.ops; ++o) {
      stripe.ops.emplace_back(data.begin() + di, data.begin() + di + c);
      di += c;
    }
    job.stripes.push_back(std::move(stripe));
  }
  job.ops = total_ops;
  return job;
}

// ------------------------------------------------------------------ RTL driver

struct RtlRun {
  std::vector<CmacBeat> beats;
  uint64_t cycles = 0;
};

struct WtBeat {
  unsigned cell;
  std::vector<int32_t> lanes;  // int8: 2*AtomicC bytes on an int16 array (two kernels); int16: AtomicC
  bool last;
};

// Geometry of the verilated array (must match rtl/CMakeLists.txt).
struct ArrayGeometry {
  int atomic_c, cells, kern_per_cell, psum_bits, lane_bits, port_bits;
};

ArrayGeometry geometry(const HwConfig& cfg) {
  const int kpc = cfg.int16 ? 2 : 1;
  const int max_bits = cfg.int16 ? 16 : 8;
  // The port carries the widest partial sum the array makes (int16 if supported); an fp16 array
  // (SupportFp16, where int16 is) has 44-bit words, the integer sums sign-extended in them.
  const int psum = cfg.psum_bits(cfg.int16 ? Precision::Int16 : Precision::Int8);
  return {cfg.atomic_c, cfg.mac_cells, kpc, psum, max_bits, cfg.supports(Precision::Fp16) ? 44 : psum};
}

std::vector<WtBeat> weight_beats(const ArrayGeometry& g, Precision p, const CmacStripe& s) {
  std::vector<WtBeat> out;
  const int per_cell = p == Precision::Int16 ? 1 : g.kern_per_cell;
  const int kernels = static_cast<int>(s.weights.size());
  const int cells = (kernels + per_cell - 1) / per_cell;
  for (int cell = 0; cell < cells; ++cell) {
    WtBeat b{static_cast<unsigned>(cell), {}, cell == cells - 1};
    for (int kk = 0; kk < per_cell; ++kk) {
      const int k = cell * per_cell + kk;
      for (int ch = 0; ch < g.atomic_c; ++ch) b.lanes.push_back(k < kernels ? s.weights[k][ch] : 0);
    }
    out.push_back(std::move(b));
  }
  return out;
}

template <class Model>
RtlRun drive_cmac(const HwConfig& cfg, Precision p, const std::vector<CmacStripe>& stripes, const SimOptions& sopt,
                  double stall, uint64_t seed) {
  const ArrayGeometry g = geometry(cfg);
  const unsigned elem_bits = p == Precision::Int16 ? 16 : 8;
  Sim<Model> sim(sopt, fmt::format("cmac_array ({})", cfg.name));
  Model& t = sim.top();
  t.cfg_int16_i = p == Precision::Int16;
  t.cfg_fp16_i = 0;  // integer layers only; set explicitly, rand-reset would randomize it
  t.wt_valid_i = 0;
  t.dat_valid_i = 0;
  t.out_ready_i = 0;
  sim.reset();

  std::deque<WtBeat> wq;
  for (const auto& s : stripes) {
    for (auto& b : weight_beats(g, p, s)) wq.push_back(std::move(b));
  }
  struct DatRef {
    const std::vector<int32_t>* lanes;
    bool st, end, ce;
  };
  std::deque<DatRef> dq;
  for (const auto& s : stripes) {
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      dq.push_back({&s.ops[i], i == 0, i + 1 == s.ops.size(), s.channel_end});
    }
  }
  const std::size_t total = dq.size();
  StallInjector wt_stall(seed, "cmac.wt", stall), dat_stall(seed, "cmac.dat", stall),
      out_stall(seed, "cmac.out", stall);
  bool wt_on = false, dat_on = false;
  RtlRun run;
  run.beats.reserve(total);
  const int kernels = cfg.atomic_k(p);
  while (run.beats.size() < total) {
    if (!wt_on && !wq.empty() && !wt_stall.stall()) {
      const WtBeat& b = wq.front();
      t.wt_cell_i = static_cast<std::remove_reference_t<decltype(t.wt_cell_i)>>(b.cell);
      t.wt_last_i = b.last;
      clear_bits(t.wt_data_i);
      for (std::size_t i = 0; i < b.lanes.size(); ++i) {
        put_bits(t.wt_data_i, static_cast<unsigned>(i) * elem_bits, elem_bits, static_cast<uint64_t>(b.lanes[i]));
      }
      wt_on = true;
    }
    if (!dat_on && !dq.empty() && !dat_stall.stall()) {
      const DatRef& d = dq.front();
      clear_bits(t.dat_data_i);
      for (std::size_t i = 0; i < d.lanes->size(); ++i) {
        put_bits(t.dat_data_i, static_cast<unsigned>(i) * elem_bits, elem_bits, static_cast<uint64_t>((*d.lanes)[i]));
      }
      t.dat_stripe_st_i = d.st;
      t.dat_stripe_end_i = d.end;
      t.dat_channel_end_i = d.ce;
      dat_on = true;
    }
    t.wt_valid_i = wt_on;
    t.dat_valid_i = dat_on;
    t.out_ready_i = !out_stall.stall();
    sim.settle();
    const bool wt_fire = wt_on && t.wt_ready_o;
    const bool dat_fire = dat_on && t.dat_ready_o;
    if (t.out_valid_o && t.out_ready_i) {
      CmacBeat b;
      b.psum.resize(static_cast<std::size_t>(kernels));
      for (int k = 0; k < kernels; ++k) {
        b.psum[k] = golden::sign_extend(
            get_bits(t.out_psum_o, static_cast<unsigned>(k * g.port_bits), static_cast<unsigned>(g.psum_bits)),
            g.psum_bits);
      }
      b.stripe_end = t.out_stripe_end_o;
      b.channel_end = t.out_channel_end_o;
      run.beats.push_back(std::move(b));
      sim.progress();
    }
    sim.tick();
    if (wt_fire) {
      wq.pop_front();
      wt_on = false;
      sim.progress();
    }
    if (dat_fire) {
      dq.pop_front();
      dat_on = false;
      sim.progress();
    }
  }
  run.cycles = sim.cycle();
  sim.finish();
  return run;
}

RtlRun run_rtl(const HwConfig& cfg, Precision p, const std::vector<CmacStripe>& stripes, const SimOptions& sopt,
               double stall, uint64_t seed) {
#define DLA_PICK(C) \
  if (cfg.name == #C) return drive_cmac<rtl_models::C::cmac>(cfg, p, stripes, sopt, stall, seed);
  DLA_RTL_CONFIGS(DLA_PICK)
#undef DLA_PICK
  throw InputError("--config", "", fmt::format("no CMAC RTL build for configuration {}", cfg.name));
}

// ------------------------------------------------------------------ compare

struct Cubes {
  Cube<int64_t> psum, tags;
};

Cubes to_cubes(const std::vector<CmacBeat>& beats, int kernels) {
  Cubes c{Cube<int64_t>({1, kernels, 1, static_cast<int>(beats.size())}),
          Cube<int64_t>({1, 2, 1, static_cast<int>(beats.size())})};
  for (std::size_t op = 0; op < beats.size(); ++op) {
    for (int k = 0; k < kernels; ++k) c.psum.at(0, k, 0, static_cast<int>(op)) = beats[op].psum.at(k);
    c.tags.at(0, 0, 0, static_cast<int>(op)) = beats[op].stripe_end;
    c.tags.at(0, 1, 0, static_cast<int>(op)) = beats[op].channel_end;
  }
  return c;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)build_job(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const CmacJob job = build_job(h, root);
  RunResult r;
  r.work = job.ops;
  const int kernels = job.cfg->atomic_k(job.precision);
  std::vector<CmacBeat> expected, actual;
  if (opt.mode != "rtl") expected = golden::cmac_run(*job.cfg, job.precision, job.stripes);
  if (opt.mode != "golden") {
    SimOptions s = opt.sim;
    s.seed = h.seed;
    const RtlRun rr = run_rtl(*job.cfg, job.precision, job.stripes, s, h.stall, h.seed);
    actual = rr.beats;
    r.cycles = rr.cycles;
  }
  CompareOptions co;
  co.max_listed = opt.max_listed;
  co.dump_dir = opt.dump_dir;
  co.dump_stem = h.name;
  if (opt.mode == "cross") {
    Cubes a = to_cubes(actual, kernels);
    const Cubes e = to_cubes(expected, kernels);
    if (opt.flip) {
      if (opt.flip->element >= a.psum.size()) {
        throw InputError("--flip-bit", "", fmt::format("element {} is beyond the {} output elements",
                                                       opt.flip->element, a.psum.size()));
      }
      a.psum[opt.flip->element] ^= int64_t{1} << opt.flip->bit;
    }
    r.compares.push_back(compare_cubes("psum", a.psum, e.psum, co));
    r.compares.back().axes = "n,kernel,h,op";
    co.element_bytes = 1;
    r.compares.push_back(compare_cubes("tags", a.tags, e.tags, co));
    r.compares.back().axes = "n,tag(0=stripe_end 1=channel_end),h,op";
    std::size_t mism = 0;
    for (const auto& c : r.compares) mism += c.mismatches;
    r.status = mism == 0 ? Status::Pass : Status::Mismatch;
    if (mism != 0) r.message = fmt::format("{} element{} between RTL and golden", mism, mism == 1 ? " differs" : "s differ");
  } else {
    const Cubes only = to_cubes(opt.mode == "rtl" ? actual : expected, kernels);
    CompareResult c = compare_cubes("psum", only.psum, only.psum, co);
    c.axes = "n,kernel,h,op";
    r.compares.push_back(c);
    r.status = Status::Pass;
    r.message = fmt::format("{}-only run: nothing compared", opt.mode);
  }
  return r;
}

}  // namespace

UnitHandler cmac_handler() { return {"cmac", &validate, &run}; }

// ------------------------------------------------------------------ benchmark

namespace {

std::vector<CmacStripe> bench_stripes(const HwConfig& cfg, Precision p, uint64_t ops, uint64_t seed) {
  Rng rng = Rng::derive(seed, "bench.cmac");
  const int bits = golden::bits_per_element(p);
  const auto lo = static_cast<int64_t>(golden::min_of_bits(bits));
  const auto hi = static_cast<int64_t>(golden::max_of_bits(bits));
  std::vector<CmacStripe> stripes;
  constexpr uint64_t kStripe = 16;  // NVDLA's usual stripe length
  for (uint64_t done = 0; done < ops; done += kStripe) {
    CmacStripe s;
    s.channel_end = true;
    for (int k = 0; k < cfg.atomic_k(p); ++k) {
      std::vector<int32_t> w(static_cast<std::size_t>(cfg.atomic_c));
      for (auto& v : w) v = static_cast<int32_t>(rng.range(lo, hi));
      s.weights.push_back(std::move(w));
    }
    for (uint64_t i = 0; i < std::min(kStripe, ops - done); ++i) {
      std::vector<int32_t> d(static_cast<std::size_t>(cfg.atomic_c));
      for (auto& v : d) v = static_cast<int32_t>(rng.range(lo, hi));
      s.ops.push_back(std::move(d));
    }
    stripes.push_back(std::move(s));
  }
  return stripes;
}

// The same model clocked with no harness work at all: valid inputs held, ready held.
template <class Model>
double bare_cycles_per_second(uint64_t cycles) {
  return harness::bare_cycles_per_second<Model>(cycles, [](Model& m) {
    m.cfg_int16_i = 0;
    m.cfg_fp16_i = 0;
    m.wt_valid_i = 1;
    m.wt_last_i = 1;
    m.dat_valid_i = 1;
    m.dat_stripe_st_i = 1;
    m.out_ready_i = 1;
  });
}

}  // namespace

std::vector<BenchCase> bench_cmac(const BenchOptions& opt) {
  std::vector<BenchCase> cases;
  for (const auto* cfg : bench_configs(opt, {&golden::nv_small(), &golden::nv_full()})) {
    for (const Precision p : {Precision::Int8, Precision::Int16}) {
      if (!cfg->supports(p)) continue;
      // A small array (nv_small's 64 MACs) runs ten times the operations of a large one, so both
      // measurements last long enough.
      const uint64_t ops = opt.ops != 0 ? opt.ops : (cfg->atomic_c * cfg->mac_cells <= 64 ? 400'000 : 40'000);
      const auto stripes = bench_stripes(*cfg, p, ops, opt.seed);
      const uint64_t macs_per_op = static_cast<uint64_t>(cfg->atomic_c) * static_cast<uint64_t>(cfg->atomic_k(p));
      const double macs = static_cast<double>(ops * macs_per_op);

      auto t0 = std::chrono::steady_clock::now();
      SimOptions so;
      so.seed = opt.seed;
      const RtlRun rr = run_rtl(*cfg, p, stripes, so, 0.0, opt.seed);
      const double sim_s = seconds_since(t0);

      double bare = 0.0;
#define DLA_PICK(C) \
  if (cfg->name == #C) bare = bare_cycles_per_second<rtl_models::C::cmac>(rr.cycles);
      DLA_RTL_CONFIGS(DLA_PICK)
#undef DLA_PICK
      const double harness_cps = static_cast<double>(rr.cycles) / sim_s;

      t0 = std::chrono::steady_clock::now();
      const auto beats = golden::cmac_run(*cfg, p, stripes);
      const double gold_s = seconds_since(t0);
      if (beats.size() != rr.beats.size() || beats != rr.beats) {
        throw std::runtime_error(fmt::format("bench cmac {} {}: RTL and golden disagree", cfg->name,
                                             golden::precision_name(p)));
      }
      BenchCase c;
      c.unit = "cmac";
      c.config = cfg->name;
      c.name = std::string(golden::precision_name(p));
      c.element = "MAC";
      c.cycles = rr.cycles;
      c.elements = ops * macs_per_op;
      // The MAC array is fed from CBUF, not memory: its rate is ATOMIC_C x ATOMIC_K.
      c.nvdla_elements_per_cycle = static_cast<double>(macs_per_op);
      c.utilization = rr.cycles != 0 ? static_cast<double>(ops) / static_cast<double>(rr.cycles) : 0.0;
      c.wall_s = sim_s;
      c.extra = {{"ops", ops},
                 {"sim_ops_per_s", static_cast<double>(ops) / sim_s},
                 {"sim_macs_per_s", macs / sim_s},
                 {"bare_cycles_per_s", bare},
                 {"harness_overhead", bare / harness_cps - 1.0},
                 {"golden_macs_per_s", macs / gold_s}};
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::string format_bench_cmac(const std::vector<BenchCase>& cases) {
  std::string out = fmt::format("{:<9} {:<6} {:>9} {:>8} {:>12} {:>12} {:>12} {:>10} {:>12}\n", "config", "prec",
                                "ops", "cycles", "sim ops/s", "sim MAC/s", "bare cyc/s", "overhead", "golden MAC/s");
  for (const BenchCase& c : cases) {
    out += fmt::format("{:<9} {:<6} {:>9} {:>8} {:>12.4g} {:>12.4g} {:>12.4g} {:>9.1f}% {:>12.4g}\n", c.config, c.name,
                       c.extra.at("ops").get<uint64_t>(), c.cycles, c.num("sim_ops_per_s"), c.num("sim_macs_per_s"),
                       c.num("bare_cycles_per_s"), 100.0 * c.num("harness_overhead"), c.num("golden_macs_per_s"));
  }
  out += "sim ops/s: atomic operations per wall second through the harness (no stalls);\n"
         "bare cyc/s: the same model clocked in a plain eval loop in this process;\n"
         "overhead: extra wall time of the harness over the bare loop per cycle.\n";
  return out;
}

}  // namespace dla::harness::engines
