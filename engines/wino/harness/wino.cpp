// Winograd unit (docs/WINOGRAD.md): `wino` layers drive the PRA (engines/wino/rtl/wino_pra.sv, Vwino_pra)
// or the POA (engines/wino/rtl/wino_poa.sv, Vwino_poa) with streams of tiles, run the golden model
// (golden/wino.hpp) and compare every output element.
#include <fmt/format.h>

#include <optional>

#include "Vwino_poa.h"
#include "Vwino_pra.h"
#include "golden/arith.hpp"
#include "engines/wino/golden/wino.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

using golden::HwConfig;
using golden::Precision;
using golden::WinoTile;

namespace {

// Geometry of the verilated models (rtl/CMakeLists.txt, "---- Winograd": AtomicC 64,
// NumCells 16, SupportInt16).
constexpr int kPraChannels = 4;    // 4x4 tiles per PRA beat (64 lanes)
constexpr int kPraLaneBits = 16;   // int16 lane width of the PRA word (int8 lanes are bytes)
constexpr int kPoaCells = 16;
constexpr int kPoaSlots = 32;      // kernel slots: two int8 kernels per cell
constexpr int kPoaSumBits = 34;    // port width of a MAC result (int16: 2*16 + 2)
constexpr int kPoaOutBits = 38;    // port width of an output (+4)

enum class Stage { Pra, Poa };

struct WinoJob {
  const HwConfig* cfg = nullptr;
  Stage stage = Stage::Pra;
  Precision precision = Precision::Int8;
  int truncate = 0;              // PRA only
  std::vector<WinoTile> tiles;   // PRA: data tiles d; POA: MAC results M
};

[[nodiscard]] int tiles_per_beat(const WinoJob& j) {
  return j.stage == Stage::Pra ? kPraChannels : j.cfg->atomic_k(j.precision);
}

// ------------------------------------------------------------------ layer parsing

WinoJob build_job(const LayerHeader& h, const JsonNode& root) {
  const JsonNode stage = root.require("stage");
  const std::string st = stage.as_choice({"pra", "poa"});
  WinoJob job;
  job.stage = st == "pra" ? Stage::Pra : Stage::Poa;
  if (job.stage == Stage::Pra) {
    root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "stage", "precision", "pra_truncate",
                     "tiles", "data"});
  } else {
    root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "stage", "precision", "tiles",
                     "sums"});
  }
  job.cfg = h.config;
  if (!job.cfg->winograd) {
    root.require("config").fail(fmt::format(
        "the Winograd units exist only in nv_full ({} is built with WINOGRAD_DISABLE, as every master "
        "configuration)",
        job.cfg->name));
  }
  const JsonNode prec = root.require("precision");
  job.precision = *golden::parse_precision(prec.as_choice({"int8", "int16", "fp16"}));
  const bool f16 = job.precision == Precision::Fp16;
  if (f16 && job.stage == Stage::Poa) {
    prec.fail("the fp16 POA is formed inside the MAC cell (block-floating-point words, `cmac` layers and the "
              "convolution pipeline); this integer POA unit has no fp16");
  }
  if (const auto t = root.get("pra_truncate"); t && f16) {
    t->fail("the PRA does not truncate fp16 data (NVDLA ignores D_PRA_CFG.PRA_TRUNCATE in fp16)");
  }
  if (job.stage == Stage::Pra && root.get("pra_truncate")) {
    job.truncate = static_cast<int>(root.require("pra_truncate").as_int(0, golden::kWinoMaxPraTruncate));
  }
  const int per_beat = tiles_per_beat(job);
  const JsonNode tn = root.require("tiles");
  constexpr int64_t kMaxTiles = 4'000'000;
  const int64_t tiles = tn.as_int(1, kMaxTiles);
  if (tiles % per_beat != 0) {
    tn.fail(fmt::format("{} tiles are not a multiple of {}, the {} tiles of one {} beat ({})", tiles, per_beat,
                        per_beat, st, job.stage == Stage::Pra ? "channels" : "kernels"));
  }
  const auto count = static_cast<std::size_t>(tiles) * golden::kWinoPositions;
  std::vector<int64_t> values;
  if (f16) {
    values = resolve_fp16_values(root.require("data"), count, h.seed);  // any 16-bit pattern
  } else if (job.stage == Stage::Pra) {
    const int bits = golden::bits_per_element(job.precision);
    values = resolve_values(root.require("data"), count, golden::bytes_per_element(job.precision),
                            static_cast<int64_t>(golden::min_of_bits(bits)),
                            static_cast<int64_t>(golden::max_of_bits(bits)), h.seed);
  } else {
    // Any value of the port's width is legal; random sums default to what a MAC result can
    // actually be: 4 products, [4 * min * max, 4 * min * min].
    const int sum_bits = golden::wino_sum_bits(job.precision);
    const int bits = golden::bits_per_element(job.precision);
    const auto lo = static_cast<int64_t>(golden::min_of_bits(sum_bits));
    const auto hi = static_cast<int64_t>(golden::max_of_bits(sum_bits));
    const JsonNode sums = root.require("sums");
    const auto emin = static_cast<int64_t>(golden::min_of_bits(bits));
    const auto emax = static_cast<int64_t>(golden::max_of_bits(bits));
    if (const auto rnd = sums.get("random"); rnd && !rnd->get("min") && !rnd->get("max")) {
      sums.allow_keys({"random", "values", "file"});  // as resolve_values: an unknown field is refused
      if (sums.get("values") || sums.get("file")) sums.fail("give exactly one of \"random\", \"values\" or \"file\"");
      rnd->allow_keys({});
      Rng rng = Rng::derive(h.seed, sums.pointer());
      values.reserve(count);
      for (std::size_t i = 0; i < count; ++i) values.push_back(rng.range(4 * emin * emax, 4 * emin * emin));
    } else {
      values = resolve_values(sums, count, job.precision == Precision::Int8 ? 4 : 8, lo, hi, h.seed);
    }
  }
  job.tiles.resize(static_cast<std::size_t>(tiles));
  for (std::size_t i = 0; i < values.size(); ++i) job.tiles[i / 16][i % 16] = values[i];
  return job;
}

// ------------------------------------------------------------------ golden

struct Outcome {
  std::vector<int64_t> out;  // per tile: PRA 16 values, POA 4 (tile-major)
  std::vector<int64_t> pad;  // per beat: the port parts this precision leaves unused (must be 0)
  uint64_t cycles = 0;
};

[[nodiscard]] std::size_t outs_per_tile(Stage s) { return s == Stage::Pra ? 16 : 4; }
// PRA int8: the upper 512 bits of the 1024-bit word as 16 words of 32 bits; POA int16: the 16
// int8-only kernel slots x 4 outputs. Otherwise nothing.
[[nodiscard]] std::size_t pad_per_beat(const WinoJob& j) {
  if (j.precision == Precision::Int16) return j.stage == Stage::Poa ? std::size_t{(kPoaSlots - kPoaCells) * 4} : 0;
  return j.stage == Stage::Pra ? 16 : 0;
}

Outcome run_golden(const WinoJob& job) {
  Outcome o;
  o.out.reserve(job.tiles.size() * outs_per_tile(job.stage));
  for (const auto& t : job.tiles) {
    if (job.stage == Stage::Pra && job.precision == Precision::Fp16) {
      for (const int64_t v : golden::wino_pra_fp16(t)) o.out.push_back(v & 0xffff);
    } else if (job.stage == Stage::Pra) {
      for (const int64_t v : golden::wino_pra(t, job.precision, job.truncate)) o.out.push_back(v);
    } else {
      for (const int64_t v : golden::wino_poa(t)) o.out.push_back(v);
    }
  }
  const std::size_t beats = job.tiles.size() / static_cast<std::size_t>(tiles_per_beat(job));
  o.pad.assign(beats * pad_per_beat(job), 0);
  return o;
}

// ------------------------------------------------------------------ RTL drivers

// Streams `beats` input beats through a one-in, one-out valid/ready unit with back-pressure on
// both ports. fill(model, beat) drives the payload, capture(model) reads an output beat.
template <class Model, class Fill, class Capture>
uint64_t stream(Sim<Model>& sim, std::size_t beats, double stall, uint64_t seed, const char* name, Fill fill,
                Capture capture) {
  Model& t = sim.top();
  StallInjector in_stall(seed, fmt::format("wino.{}.in", name), stall);
  StallInjector out_stall(seed, fmt::format("wino.{}.out", name), stall);
  bool in_on = false;
  std::size_t sent = 0, got = 0;
  while (got < beats) {
    if (!in_on && sent < beats && !in_stall.stall()) {
      fill(t, sent);
      in_on = true;
    }
    t.in_valid_i = in_on;
    t.out_ready_i = !out_stall.stall();
    sim.settle();
    const bool in_fire = in_on && t.in_ready_o;
    if (t.out_valid_o && t.out_ready_i) {
      capture(t);
      ++got;
      sim.progress();
    }
    sim.tick();
    if (in_fire) {
      ++sent;
      in_on = false;
      sim.progress();
    }
  }
  return sim.cycle();
}

Outcome run_pra_rtl(const WinoJob& job, const SimOptions& sopt, double stall, uint64_t seed) {
  Sim<Vwino_pra> sim(sopt, "wino_pra (nv_full)");
  Vwino_pra& t = sim.top();
  const bool fp16 = job.precision == Precision::Fp16;
  const bool int16 = fp16 || job.precision == Precision::Int16;  // fp16 runs in 16-bit lanes
  const unsigned eb = int16 ? 16 : 8;
  t.cfg_int16_i = int16;
  t.cfg_fp16_i = fp16;
  t.cfg_truncate_i = static_cast<CData>(job.truncate);
  t.in_valid_i = 0;
  t.out_ready_i = 0;
  sim.reset();
  Rng junk = Rng::derive(seed, "wino.pra.unused");
  Outcome o;
  o.out.resize(job.tiles.size() * 16);
  std::size_t beat_out = 0;
  const std::size_t beats = job.tiles.size() / kPraChannels;
  auto fill = [&](Vwino_pra& m, std::size_t beat) {
    clear_bits(m.in_data_i);
    if (!int16) {
      // The int8 word's upper half is not read: put noise there.
      for (unsigned w = 0; w < 16; ++w) put_bits(m.in_data_i, 512 + 32 * w, 32, junk.next());
    }
    for (unsigned ch = 0; ch < kPraChannels; ++ch) {
      const WinoTile& tile = job.tiles[beat * kPraChannels + ch];
      for (unsigned p = 0; p < 16; ++p) {
        put_bits(m.in_data_i, (4 * p + ch) * eb, eb, static_cast<uint64_t>(tile[p]));
      }
    }
  };
  auto capture = [&](const Vwino_pra& m) {
    for (unsigned ch = 0; ch < kPraChannels; ++ch) {
      const std::size_t tile = beat_out * kPraChannels + ch;
      for (unsigned p = 0; p < 16; ++p) {
        const uint64_t raw = get_bits(m.out_data_o, (4 * p + ch) * eb, eb);
        o.out[tile * 16 + p] = fp16 ? static_cast<int64_t>(raw) : golden::sign_extend(raw, static_cast<int>(eb));
      }
    }
    if (!int16) {
      for (unsigned w = 0; w < 16; ++w) {
        o.pad.push_back(static_cast<int64_t>(get_bits(m.out_data_o, 512 + 32 * w, 32)));
      }
    }
    ++beat_out;
  };
  static_assert(kPraChannels * 16 * kPraLaneBits == 1024, "PRA word");
  o.cycles = stream(sim, beats, stall, seed, "pra", fill, capture);
  sim.finish();
  return o;
}

Outcome run_poa_rtl(const WinoJob& job, const SimOptions& sopt, double stall, uint64_t seed) {
  Sim<Vwino_poa> sim(sopt, "wino_poa (nv_full)");
  Vwino_poa& t = sim.top();
  const bool int16 = job.precision == Precision::Int16;
  const auto kernels = static_cast<std::size_t>(tiles_per_beat(job));
  t.cfg_int16_i = int16;
  t.in_valid_i = 0;
  t.out_ready_i = 0;
  sim.reset();
  Rng junk = Rng::derive(seed, "wino.poa.unused");
  Outcome o;
  o.out.resize(job.tiles.size() * 4);
  std::size_t beat_out = 0;
  const std::size_t beats = job.tiles.size() / kernels;
  auto fill = [&](Vwino_poa& m, std::size_t beat) {
    // int16 leaves slots 16..31 unused: put noise there.
    for (unsigned k = static_cast<unsigned>(kernels); k < kPoaSlots; ++k) {
      for (unsigned p = 0; p < 16; ++p) put_bits(m.in_sum_i, (k * 16 + p) * kPoaSumBits, kPoaSumBits, junk.next());
    }
    for (unsigned k = 0; k < kernels; ++k) {
      const WinoTile& tile = job.tiles[beat * kernels + k];
      for (unsigned p = 0; p < 16; ++p) {
        put_bits(m.in_sum_i, (k * 16 + p) * kPoaSumBits, kPoaSumBits, static_cast<uint64_t>(tile[p]));
      }
    }
  };
  auto capture = [&](const Vwino_poa& m) {
    for (unsigned k = 0; k < kPoaSlots; ++k) {
      for (unsigned e = 0; e < 4; ++e) {
        const int64_t v = golden::sign_extend(get_bits(m.out_data_o, (k * 4 + e) * kPoaOutBits, kPoaOutBits),
                                              kPoaOutBits);
        if (k < kernels) {
          o.out[(beat_out * kernels + k) * 4 + e] = v;
        } else {
          o.pad.push_back(v);
        }
      }
    }
    ++beat_out;
  };
  o.cycles = stream(sim, beats, stall, seed, "poa", fill, capture);
  sim.finish();
  return o;
}

// ------------------------------------------------------------------ compare

Cube<int64_t> out_cube(const WinoJob& job, const std::vector<int64_t>& out) {
  const int side = job.stage == Stage::Pra ? 4 : 2;
  Cube<int64_t> c({1, static_cast<int>(job.tiles.size()), side, side});
  for (std::size_t i = 0; i < out.size(); ++i) c[i] = out[i];
  return c;
}

Cube<int64_t> pad_cube(const WinoJob& job, const std::vector<int64_t>& pad) {
  const int per = static_cast<int>(pad_per_beat(job));
  const int beats = static_cast<int>(job.tiles.size()) / tiles_per_beat(job);
  Cube<int64_t> c({1, beats, 1, per});
  for (std::size_t i = 0; i < pad.size() && i < c.size(); ++i) c[i] = pad[i];
  return c;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)build_job(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const WinoJob job = build_job(h, root);
  RunResult r;
  r.work = job.tiles.size();
  Outcome expected, actual;
  if (opt.mode != "rtl") expected = run_golden(job);
  if (opt.mode != "golden") {
    SimOptions s = opt.sim;
    s.seed = h.seed;
    actual = job.stage == Stage::Pra ? run_pra_rtl(job, s, h.stall, h.seed) : run_poa_rtl(job, s, h.stall, h.seed);
    r.cycles = actual.cycles;
  }
  const std::string axes = job.stage == Stage::Pra ? "n,tile,r,c" : "n,tile,i,j";
  const int out_bytes = job.stage == Stage::Pra ? golden::bytes_per_element(job.precision)
                                                : (job.precision == Precision::Int8 ? 4 : 8);
  CompareOptions co;
  co.max_listed = opt.max_listed;
  co.dump_dir = opt.dump_dir;
  co.dump_stem = h.name;
  co.element_bytes = out_bytes;
  if (opt.mode == "cross") {
    Cube<int64_t> a = out_cube(job, actual.out);
    const Cube<int64_t> e = out_cube(job, expected.out);
    if (opt.flip) {
      if (opt.flip->element >= a.size()) {
        throw InputError("--flip-bit", "", fmt::format("element {} is beyond the {} output elements",
                                                       opt.flip->element, a.size()));
      }
      a[opt.flip->element] ^= int64_t{1} << opt.flip->bit;
    }
    r.compares.push_back(compare_cubes("out", a, e, co));
    r.compares.back().axes = axes;
    if (pad_per_beat(job) != 0) {
      co.element_bytes = job.stage == Stage::Pra ? 4 : 8;
      r.compares.push_back(compare_cubes("unused", pad_cube(job, actual.pad), pad_cube(job, expected.pad), co));
      r.compares.back().axes = job.stage == Stage::Pra ? "n,beat,-,upper word (32-bit)" : "n,beat,-,slot*4+out";
    }
    std::size_t mism = 0;
    for (const auto& c : r.compares) mism += c.mismatches + (c.shape_ok ? 0 : 1);
    r.status = mism == 0 ? Status::Pass : Status::Mismatch;
    if (mism != 0) r.message = fmt::format("{} element{} between RTL and golden", mism, mism == 1 ? " differs" : "s differ");
  } else {
    const Cube<int64_t> only = out_cube(job, opt.mode == "rtl" ? actual.out : expected.out);
    CompareResult c = compare_cubes("out", only, only, co);
    c.axes = axes;
    r.compares.push_back(c);
    r.status = Status::Pass;
    r.message = fmt::format("{}-only run: nothing compared", opt.mode);
  }
  return r;
}

}  // namespace

UnitHandler wino_handler() { return {"wino", &validate, &run}; }

}  // namespace dla::harness::engines
