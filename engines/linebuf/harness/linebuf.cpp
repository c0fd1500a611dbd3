// The line-buffer 3x3 engine (docs/LINEBUF.md): `linebuf` layers (a "stack" of conv / fc layers
// on one input map) run on the golden model (golden/linebuf.hpp) and on the RTL (Vlinebuf,
// engines/linebuf/rtl/linebuf_core.sv) driven through its descriptor, pixel, weight and output streams
// with back-pressure on every port; every layer's output map is compared.
#include "engines/linebuf/harness/linebuf.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "Vlinebuf.h"
#include "golden/arith.hpp"
#include "harness/errors.hpp"
#include "harness/rng.hpp"
#include "harness/sim.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

using golden::LinebufAct;
using golden::LinebufKind;
using golden::LinebufLayer;
using golden::LinebufMap;
using golden::Precision;

namespace {

// The verilated model's parameters (rtl/CMakeLists.txt, "Line-buffer"); golden's defaults.
constexpr int kDataW = 16;
constexpr unsigned kWtBits = 9 * kLinebufNumPe * kDataW + 32;
static_assert(golden::LinebufLimits{}.num_pe == kLinebufNumPe);

[[nodiscard]] int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

LinebufJob build_linebuf_job(const LayerHeader& h, const JsonNode& root) {
  root.allow_keys({"unit", "name", "description", "config", "seed", "stall", "precision", "input", "stack", "maps"});
  LinebufJob job;
  const JsonNode prec = root.require("precision");
  job.precision = *golden::parse_precision(prec.as_choice({"int8", "int16"}));
  const int bits = golden::bits_per_element(job.precision);
  const int bytes = golden::bytes_per_element(job.precision);
  const auto vmin = static_cast<int64_t>(golden::min_of_bits(bits));
  const auto vmax = static_cast<int64_t>(golden::max_of_bits(bits));
  const golden::LinebufLimits lim;

  const JsonNode in = root.require("input");
  in.allow_keys({"channels", "height", "width", "data"});
  job.input.c = static_cast<int>(in.require("channels").as_int(1, lim.max_channels * 9));
  job.input.h = static_cast<int>(in.require("height").as_int(1, 4096));
  job.input.w = static_cast<int>(in.require("width").as_int(1, 4096));
  job.input.data = resolve_values(in.require("data"),
                                  static_cast<std::size_t>(job.input.c) * job.input.h * job.input.w, bytes, vmin,
                                  vmax, h.seed);

  const JsonNode layers = root.require("stack");
  if (!layers.is_array() || layers.size() == 0) layers.fail("must be a non-empty array of layers");
  int c = job.input.c, hh = job.input.h, ww = job.input.w;
  for (const JsonNode& ln : layers.items()) {
    ln.allow_keys({"kind", "outputs", "pad", "pool", "dataflow", "act", "leaky_slope", "leaky_shift", "out_shift",
                   "weights", "bias"});
    LinebufLayer L;
    L.kind = ln.require("kind").as_choice({"conv", "fc"}) == "conv" ? LinebufKind::Conv : LinebufKind::Fc;
    const JsonNode outs = ln.require("outputs");
    L.outputs = static_cast<int>(outs.as_int(1, 1 << 16));
    if (L.kind == LinebufKind::Conv) {
      L.pad = ln.get("pad") ? static_cast<int>(ln.require("pad").as_int(0, 1)) : 0;
      L.pool = ln.get("pool") ? ln.require("pool").as_bool() : false;
      L.weights_once = ln.get("dataflow") &&
                       ln.require("dataflow").as_choice({"pixels_once", "weights_once"}) == "weights_once";
    } else {
      for (const char* key : {"pad", "pool", "dataflow"}) {
        if (ln.get(key)) ln.require(key).fail("a fully connected layer has no pad, no pool and no dataflow choice");
      }
    }
    const std::string act = ln.get("act") ? ln.require("act").as_choice({"none", "relu", "leaky"}) : "none";
    L.out.act = act == "relu" ? LinebufAct::Relu : act == "leaky" ? LinebufAct::Leaky : LinebufAct::None;
    if (L.out.act == LinebufAct::Leaky) {
      L.out.leaky_shift = static_cast<int>(ln.require("leaky_shift").as_int(0, 31));
      const JsonNode slope = ln.require("leaky_slope");
      L.out.leaky_slope = static_cast<int>(slope.as_int(0, 65535));
      if (int64_t{L.out.leaky_slope} > (int64_t{1} << L.out.leaky_shift)) {
        slope.fail(fmt::format("leaky_slope {} is above 2^leaky_shift = {}: the slope must be at most 1",
                               L.out.leaky_slope, int64_t{1} << L.out.leaky_shift));
      }
    } else if (ln.get("leaky_slope") || ln.get("leaky_shift")) {
      (ln.get("leaky_slope") ? ln.require("leaky_slope") : ln.require("leaky_shift"))
          .fail("leaky_slope and leaky_shift belong to \"act\": \"leaky\"");
    }
    L.out.out_shift = ln.get("out_shift") ? static_cast<int>(ln.require("out_shift").as_int(0, 63)) : 0;
    if (auto why = golden::linebuf_refusal(L, c, hh, ww, lim)) {
      ln.fail(fmt::format("the engine refuses this layer on its {}x{}x{} (CxHxW) input: {}", c, hh, ww, *why));
    }
    const std::size_t per_out =
        L.kind == LinebufKind::Fc ? static_cast<std::size_t>(c) * hh * ww : static_cast<std::size_t>(c) * 9;
    const uint64_t seed = h.seed;
    L.weights = resolve_values(ln.require("weights"), per_out * static_cast<std::size_t>(L.outputs), bytes, vmin, vmax,
                               seed);
    L.bias = resolve_values(ln.require("bias"), static_cast<std::size_t>(L.outputs), 4,
                            static_cast<int64_t>(golden::min_of_bits(32)), static_cast<int64_t>(golden::max_of_bits(32)),
                            seed);
    const golden::LinebufShape s = golden::linebuf_out_shape(L, c, hh, ww);
    c = s.c;
    hh = s.h;
    ww = s.w;
    job.layers.push_back(std::move(L));
  }
  place_linebuf_maps(job, !root.get("maps") || root.require("maps").as_choice({"on_chip", "memory"}) == "on_chip");
  return job;
}

void place_linebuf_maps(LinebufJob& job, bool on_chip) {
  const golden::LinebufLimits lim;
  int c = job.input.c, h = job.input.h, w = job.input.w;
  for (LinebufLayer& L : job.layers) L.in_chip = L.out_chip = false;
  for (std::size_t i = 0; i + 1 < job.layers.size() && on_chip; ++i) {
    LinebufLayer& L = job.layers[i];
    const golden::LinebufShape s = golden::linebuf_out_shape(L, c, h, w);
    LinebufLayer& next = job.layers[i + 1];
    L.out_chip = true;
    next.in_chip = true;
    // Kept on chip where both ends fit the map store (the engine's refusal rules).
    if (golden::linebuf_refusal(L, c, h, w, lim) || golden::linebuf_refusal(next, s.c, s.h, s.w, lim)) {
      next.in_chip = false;
      L.out_chip = false;
    }
    c = s.c;
    h = s.h;
    w = s.w;
  }
}

// ------------------------------------------------------------------ RTL

namespace {

// One conv layer (an FC layer mapped to one, docs/LINEBUF.md §1) on the running model.
class LinebufRtl {
 public:
  LinebufRtl(const SimOptions& sopt, double stall, uint64_t seed)
      : sim_(sopt, "linebuf"),
        cfg_stall_(seed, "linebuf.cfg", stall),
        px_stall_(seed, "linebuf.px", stall),
        wt_stall_(seed, "linebuf.wt", stall),
        out_stall_(seed, "linebuf.out", stall) {
    Vlinebuf& t = sim_.top();
    t.cfg_valid_i = 0;
    t.px_valid_i = 0;
    t.wt_valid_i = 0;
    t.out_ready_i = 0;
    sim_.reset();
  }

  // `in`: the input map; for an on-chip input only its shape is used.
  LinebufMap run(const LinebufMap& in, const LinebufLayer& L, Precision p) {
    if (L.kind == LinebufKind::Fc) {
      const int n = in.c * in.h * in.w;
      const LinebufMap as_map = L.in_chip ? LinebufMap{ceil_div(n, 9), 3, 3, {}} : golden::linebuf_fc_input_as_map(in);
      return run(as_map, golden::linebuf_fc_as_conv(L, n), p);
    }
    Vlinebuf& t = sim_.top();
    const int pad = L.pad;
    const int ho = in.h + 2 * pad - 2;
    const int groups = ceil_div(in.c, kLinebufNumPe);
    const golden::LinebufShape shape = golden::linebuf_out_shape(L, in.c, in.h, in.w);
    LinebufMap out{shape.c, shape.h, shape.w, {}};
    if (!L.out_chip) out.data.resize(static_cast<std::size_t>(shape.c) * shape.h * shape.w);
    const std::size_t n_px = L.in_chip ? 0 : in.data.size();
    // Weight groups: per output row, kernel, group (pixels once) or per kernel, group (weights once).
    const std::size_t n_wt = static_cast<std::size_t>(L.weights_once ? 1 : ho) * L.outputs * groups;
    const std::size_t n_out = out.data.size();

    put_descriptor(t, L, in.c, in.h, in.w, p);

    bool cfg_on = false, cfg_done = false, px_on = false, wt_on = false;
    std::size_t px_sent = 0, wt_sent = 0, got = 0;
    while (got < n_out || !cfg_done || px_sent < n_px || wt_sent < n_wt) {
      if (!cfg_done && !cfg_on && !cfg_stall_.stall()) cfg_on = true;
      if (cfg_done && !px_on && px_sent < n_px && !px_stall_.stall()) {
        // Order: row y, channel c, column x.
        const std::size_t x = px_sent % static_cast<std::size_t>(in.w);
        const std::size_t c = (px_sent / static_cast<std::size_t>(in.w)) % static_cast<std::size_t>(in.c);
        const std::size_t y = px_sent / (static_cast<std::size_t>(in.w) * in.c);
        t.px_data_i = static_cast<SData>(in.at(static_cast<int>(c), static_cast<int>(y), static_cast<int>(x)));
        px_on = true;
      }
      if (cfg_done && !wt_on && wt_sent < n_wt && !wt_stall_.stall()) {
        fill_weights(t, L, in.c, wt_sent, groups);
        wt_on = true;
      }
      t.cfg_valid_i = cfg_on;
      t.px_valid_i = px_on;
      t.wt_valid_i = wt_on;
      t.out_ready_i = !out_stall_.stall();
      sim_.settle();
      const bool cfg_fire = cfg_on && t.cfg_ready_o;
      const bool px_fire = px_on && t.px_ready_o;
      const bool wt_fire = wt_on && t.wt_ready_o;
      if (t.out_valid_o && t.out_ready_i) {
        if (got >= n_out) throw std::runtime_error("linebuf RTL: more outputs than the layer has");
        // Order: output row, kernel, column (pixels once); kernel, row, column (weights once).
        const std::size_t x = got % static_cast<std::size_t>(out.w);
        const std::size_t k = L.weights_once ? got / (static_cast<std::size_t>(out.w) * out.h)
                                             : (got / static_cast<std::size_t>(out.w)) % static_cast<std::size_t>(out.c);
        const std::size_t y = L.weights_once ? (got / static_cast<std::size_t>(out.w)) % static_cast<std::size_t>(out.h)
                                             : got / (static_cast<std::size_t>(out.w) * out.c);
        out.data[(k * out.h + y) * out.w + x] =
            golden::sign_extend(t.out_data_o, golden::bits_per_element(p));
        ++got;
        sim_.progress();
      }
      sim_.tick();
      if (cfg_fire) {
        cfg_on = false;
        cfg_done = true;
        sim_.progress();
        if (t.cfg_err_o != 0) {
          throw std::runtime_error(fmt::format("linebuf RTL refused the descriptor (cfg_err_o {})", t.cfg_err_o));
        }
      }
      if (px_fire) {
        px_on = false;
        ++px_sent;
        sim_.progress();
      }
      if (wt_fire) {
        wt_on = false;
        ++wt_sent;
        sim_.progress();
      }
    }
    // The engine returns to idle: the next descriptor is taken only then.
    while (t.busy_o) {
      sim_.settle();
      sim_.tick();
    }
    const auto bytes = static_cast<uint64_t>(golden::bytes_per_element(p));
    px_bytes_ += n_px * bytes;
    wt_bytes_ += n_wt * (static_cast<uint64_t>(kLinebufNumPe) * 9 * bytes + 4);  // NumPe filters and a bias
    out_bytes_ += n_out * bytes;
    return out;
  }

  // Sends only the descriptor of `L` on a c x h x w input; returns cfg_err_o once it is taken.
  int descriptor_error(const LinebufLayer& L, int c, int h, int w, Precision p) {
    Vlinebuf& t = sim_.top();
    put_descriptor(t, L, c, h, w, p);
    t.cfg_valid_i = 1;
    sim_.settle();
    while (!t.cfg_ready_o) {
      sim_.tick();
      sim_.settle();
    }
    sim_.tick();
    t.cfg_valid_i = 0;
    sim_.settle();
    return t.cfg_err_o;
  }

  [[nodiscard]] uint64_t cycles() const { return sim_.cycle(); }
  [[nodiscard]] uint64_t px_bytes() const { return px_bytes_; }
  [[nodiscard]] uint64_t wt_bytes() const { return wt_bytes_; }
  [[nodiscard]] uint64_t out_bytes() const { return out_bytes_; }
  void finish() { sim_.finish(); }

 private:
  // The descriptor (docs/LINEBUF.md §2).
  static void put_descriptor(Vlinebuf& t, const LinebufLayer& L, int c, int h, int w, Precision p) {
    clear_bits(t.cfg_i);
    put_bits(t.cfg_i, 0, 16, static_cast<uint64_t>(w));
    put_bits(t.cfg_i, 16, 16, static_cast<uint64_t>(h));
    put_bits(t.cfg_i, 32, 16, static_cast<uint64_t>(c));
    put_bits(t.cfg_i, 48, 16, static_cast<uint64_t>(L.outputs));
    put_bits(t.cfg_i, 64, 1, static_cast<uint64_t>(L.pad));
    put_bits(t.cfg_i, 65, 1, p == Precision::Int16 ? 1 : 0);
    put_bits(t.cfg_i, 66, 2, L.out.act == LinebufAct::Relu ? 1 : L.out.act == LinebufAct::Leaky ? 2 : 0);
    put_bits(t.cfg_i, 68, 1, L.pool ? 1 : 0);
    put_bits(t.cfg_i, 69, 6, static_cast<uint64_t>(L.out.out_shift));
    put_bits(t.cfg_i, 75, 16, static_cast<uint64_t>(L.out.leaky_slope));
    put_bits(t.cfg_i, 91, 5, static_cast<uint64_t>(L.out.leaky_shift));
    put_bits(t.cfg_i, 96, 1, L.weights_once ? 1 : 0);
    put_bits(t.cfg_i, 97, 1, L.in_chip ? 1 : 0);
    put_bits(t.cfg_i, 98, 1, L.out_chip ? 1 : 0);
  }

  // Weight beat `beat` of the layer: per output row, kernel k, channel group g: NumPe filters
  // (channels at or beyond C zero) and the kernel's bias in the top 32 bits.
  static void fill_weights(Vlinebuf& t, const LinebufLayer& L, int channels, std::size_t beat, int groups) {
    const auto g = static_cast<int>(beat % static_cast<std::size_t>(groups));
    const auto k = static_cast<int>((beat / static_cast<std::size_t>(groups)) % static_cast<std::size_t>(L.outputs));
    clear_bits(t.wt_data_i);
    for (int pe = 0; pe < kLinebufNumPe; ++pe) {
      const int ch = g * kLinebufNumPe + pe;
      if (ch >= channels) continue;
      for (int tap = 0; tap < 9; ++tap) {
        const int64_t w = L.weights[(static_cast<std::size_t>(k) * channels + ch) * 9 + tap];
        put_bits(t.wt_data_i, static_cast<unsigned>((9 * pe + tap) * kDataW), kDataW, static_cast<uint64_t>(w));
      }
    }
    put_bits(t.wt_data_i, kWtBits - 32, 32, static_cast<uint64_t>(L.bias[static_cast<std::size_t>(k)]));
  }

  Sim<Vlinebuf> sim_;
  StallInjector cfg_stall_, px_stall_, wt_stall_, out_stall_;
  uint64_t px_bytes_ = 0, wt_bytes_ = 0, out_bytes_ = 0;
};

}  // namespace

LinebufOutcome run_linebuf_rtl(const LinebufJob& job, const SimOptions& sopt, double stall, uint64_t seed) {
  LinebufRtl rtl(sopt, stall, seed);
  LinebufOutcome o;
  const LinebufMap* cur = &job.input;
  for (const LinebufLayer& L : job.layers) {
    o.maps.push_back(rtl.run(*cur, L, job.precision));
    cur = &o.maps.back();
  }
  o.cycles = rtl.cycles();
  o.px_bytes = rtl.px_bytes();
  o.wt_bytes = rtl.wt_bytes();
  o.out_bytes = rtl.out_bytes();
  rtl.finish();
  return o;
}

int linebuf_rtl_descriptor_error(const LinebufLayer& L, int c, int h, int w, Precision p, const SimOptions& sopt) {
  LinebufRtl rtl(sopt, 0.0, sopt.seed);
  const int err = rtl.descriptor_error(L, c, h, w, p);
  rtl.finish();
  return err;
}

LinebufOutcome run_linebuf_golden(const LinebufJob& job) {
  LinebufOutcome o;
  o.maps = golden::linebuf_stack(job.input, job.layers, job.precision);
  return o;
}

namespace {

Cube<int64_t> map_cube(const LinebufMap& m) {
  Cube<int64_t> c({1, m.c, m.h, m.w});
  for (std::size_t i = 0; i < m.data.size(); ++i) c[i] = m.data[i];
  return c;
}

void validate(const LayerHeader& h, const JsonNode& root) { (void)build_linebuf_job(h, root); }

RunResult run(const LayerHeader& h, const JsonNode& root, const RunOptions& opt) {
  const LinebufJob job = build_linebuf_job(h, root);
  RunResult r;
  LinebufOutcome expected, actual;
  if (opt.mode != "rtl") expected = run_linebuf_golden(job);
  if (opt.mode != "golden") {
    SimOptions s = opt.sim;
    s.seed = h.seed;
    actual = run_linebuf_rtl(job, s, h.stall, h.seed);
    r.cycles = actual.cycles;
    // The streams as memory traffic: pixels and weight groups read, outputs written.
    DmaTraffic d;
    d.bytes_read = actual.px_bytes + actual.wt_bytes;
    d.bytes_written = actual.out_bytes;
    r.dma = d;
  }
  CompareOptions co;
  co.max_listed = opt.max_listed;
  co.dump_dir = opt.dump_dir;
  co.dump_stem = h.name;
  co.element_bytes = golden::bytes_per_element(job.precision);
  const LinebufOutcome& only = opt.mode == "rtl" ? actual : expected;
  for (const LinebufMap& m : only.maps) r.work += m.data.size();  // output elements of every layer
  std::size_t mism = 0;
  std::vector<std::size_t> on_chip;
  for (std::size_t i = 0; i < job.layers.size(); ++i) {
    const std::string region = fmt::format("layer {}", i);
    if (job.layers[i].out_chip && opt.mode != "golden") {
      on_chip.push_back(i);  // never left the engine: nothing to compare (the next layers depend on it)
      continue;
    }
    if (opt.mode == "cross") {
      Cube<int64_t> a = map_cube(actual.maps[i]);
      if (opt.flip && i + 1 == job.layers.size()) {
        if (opt.flip->element >= a.size()) {
          throw InputError("--flip-bit", "", fmt::format("element {} is beyond the {} output elements",
                                                         opt.flip->element, a.size()));
        }
        a[opt.flip->element] ^= int64_t{1} << opt.flip->bit;
      }
      r.compares.push_back(compare_cubes(region, a, map_cube(expected.maps[i]), co));
    } else {
      const Cube<int64_t> c = map_cube(only.maps[i]);
      r.compares.push_back(compare_cubes(region, c, c, co));
    }
    r.compares.back().axes = "n,c,h,w";
    mism += r.compares.back().mismatches + (r.compares.back().shape_ok ? 0 : 1);
  }
  const std::string kept =
      on_chip.empty() ? "" : fmt::format("the maps of layers {} stayed on chip (not compared)", fmt::join(on_chip, ", "));
  if (opt.mode == "cross") {
    r.status = mism == 0 ? Status::Pass : Status::Mismatch;
    if (mism != 0) r.message = fmt::format("{} element{} between RTL and golden", mism, mism == 1 ? " differs" : "s differ");
    r.message += (r.message.empty() || kept.empty() ? "" : "; ") + kept;
  } else {
    r.status = Status::Pass;
    r.message = fmt::format("{}-only run: nothing compared", opt.mode) + (kept.empty() ? "" : "; " + kept);
  }
  return r;
}

}  // namespace

UnitHandler linebuf_handler() { return {"linebuf", &validate, &run}; }

}  // namespace dla::harness::engines
