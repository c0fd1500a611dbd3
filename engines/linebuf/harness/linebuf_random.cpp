// The `linebuf` random-layer generator (docs/RANDOM.md, "linebuf"): random legal `linebuf` layers
// (docs/LAYER_FORMAT.md) over the line-buffer engine's parameter space (docs/LINEBUF.md §3, the
// verilated model's limits: LineDepth 64, MaxC 64, MaxK 64, MapRows 16) -- int8 and int16; stacks
// of 1 to 6 layers; conv with pad 0 / 1, the fused 2x2 pool, both dataflows; FC layers up to
// ceil(N/9) = MaxC; activations none / ReLU / leaky with every slope and shift; out_shift near the
// accumulator's width (sometimes anywhere in [0, 63]); maps from 1x1 up to W 64 and H 256; a stack's
// intermediate maps on chip where they fit or (half the stacks) all in memory. Each draw
// is checked by the layer parser (build_linebuf_job, which applies the engine's refusals) and drawn
// again if refused, so every generated layer is legal. The engine has no memory port: the campaign's
// memory draw is dropped. Run in cross mode (the RTL, Vlinebuf, against the golden model, every
// map that leaves the engine compared) through the `linebuf` layer handler; the golden model's every map is
// also judged by the int64 reference (harness/linebuf_reference.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "engines/linebuf/harness/linebuf_reference.hpp"
#include "harness/random_layers.hpp"
#include "engines/linebuf/harness/linebuf.hpp"
#include "engines/linebuf/harness/linebuf_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

constexpr int kMaxFcInputs = 9 * 64;  // ceil(N / 9) <= MaxC
// Cost cap: the stack's estimated cycles without back-pressure (a Vlinebuf run is a few million
// cycles per second; the heaviest legal layer, 64x64x64 -> 64, is 4.3M cycles).
constexpr double kMaxCycles = 1.5e6;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

struct Shape {
  int c, h, w;
};

// A value range of `bits`-bit numbers: the whole range (50 %), a symmetric sub-range around 0, or a
// one-sided one (10 %). Returns the largest magnitude too.
ojson value_range(Rng& d, int bits, int64_t& mag) {
  const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
  if (d.chance(0.5)) {
    mag = -lo;
    return ojson{{"random", ojson::object()}};
  }
  const int64_t m = d.log_range(1, hi);
  mag = m;
  if (d.chance(0.1)) return ojson{{"random", {{"min", d.chance(0.5) ? 0 : -m}, {"max", d.chance(0.5) ? m : 0}}}};
  return ojson{{"random", {{"min", -m}, {"max", m}}}};
}

struct Drawn {
  ojson doc;
  std::string feat;
  double cycles = 0;
};

Drawn draw_layer(const RandomLayer& L, Rng& d) {
  Drawn out;
  const bool int16 = d.chance(0.4);
  const int bits = int16 ? 16 : 8;
  // The input map: small 55 %, medium 30 %, one of the limits 15 %.
  Shape s{};
  std::string cls;
  bool want_wonce = false, want_fc = false;
  const double u = static_cast<double>(d.range(0, 999)) / 1000.0;
  if (u < 0.55) {
    s = {static_cast<int>(d.log_range(1, 16)), static_cast<int>(d.log_range(1, 16)), static_cast<int>(d.log_range(1, 16))};
    cls = "small";
  } else if (u < 0.85) {
    s = {static_cast<int>(d.log_range(1, 64)), static_cast<int>(d.log_range(1, 64)), static_cast<int>(d.log_range(1, 64))};
    cls = "medium";
  } else {
    switch (d.range(0, 5)) {
      case 0:
        s = {static_cast<int>(d.log_range(1, 8)), static_cast<int>(d.log_range(1, 16)), 64};
        cls = "line-depth";
        break;
      case 1:
        s = {static_cast<int>(d.range(57, 64)), static_cast<int>(d.log_range(1, 8)), static_cast<int>(d.log_range(1, 8))};
        cls = "max-channels";
        break;
      case 2:
        s = {static_cast<int>(d.log_range(1, 4)), static_cast<int>(d.range(65, 256)), static_cast<int>(d.log_range(3, 32))};
        cls = "tall";
        break;
      case 3: {
        const int side = d.chance(0.5) ? 14 : 16;  // padded 16 x 16 either way with the right pad
        s = {static_cast<int>(d.log_range(1, 16)), side, side};
        want_wonce = true;
        cls = "map-rows";
        break;
      }
      case 4:
        s = d.chance(0.5) ? Shape{64, 3, 3} : Shape{1, 24, 24};  // N = 576 = 9 MaxC
        want_fc = true;
        cls = "fc-max";
        break;
      default:
        s = {static_cast<int>(d.log_range(1, 16)), static_cast<int>(d.range(1, 2)), static_cast<int>(d.range(1, 2))};
        cls = "tiny";
        break;
    }
  }
  ojson doc = random_layer_doc(L, 0, 0, 0);
  doc.erase("cube");
  doc["precision"] = int16 ? "int16" : "int8";
  int64_t data_mag = 0;
  doc["input"] = ojson{{"channels", s.c}, {"height", s.h}, {"width", s.w}, {"data", value_range(d, bits, data_mag)}};
  const double pick = static_cast<double>(d.range(0, 99)) / 100.0;
  const int n_layers = want_fc ? 1 : pick < 0.45 ? 1 : pick < 0.8 ? static_cast<int>(d.range(2, 3)) : static_cast<int>(d.range(4, 6));
  out.feat = fmt::format("{} {} {}x{}x{}:", int16 ? "int16" : "int8", cls, s.c, s.h, s.w);
  ojson stack = ojson::array();
  for (int i = 0; i < n_layers; ++i) {
    ojson ln = ojson::object();
    const int n_in = s.c * s.h * s.w;
    const bool last = i + 1 == n_layers;
    const bool fc = n_in <= kMaxFcInputs && (want_fc || d.chance(last && n_layers > 1 ? 0.4 : 0.12));
    const int k = d.chance(0.1) ? 64 : d.chance(0.6) ? static_cast<int>(d.log_range(1, 16)) : static_cast<int>(d.log_range(1, 64));
    ln["kind"] = fc ? "fc" : "conv";
    ln["outputs"] = k;
    std::string lf;
    Shape next{};
    const int taps = fc ? n_in : s.c * 9;
    if (fc) {
      lf = fmt::format("fc {}->{}", n_in, k);
      next = {k, 1, 1};
      const int g = ceil_div(ceil_div(n_in, 9), engines::kLinebufNumPe);
      out.cycles += static_cast<double>(k) * g * 3 + n_in + k;
    } else {
      // pad 1 where a 3x3 window needs it; the map-rows class pads 14x14 and not 16x16 (16 x 16 padded).
      int pad = static_cast<int>(d.range(0, 1));
      if (want_wonce) pad = s.h == 14 ? 1 : 0;
      if (s.h < 3 || s.w < 3) pad = 1;
      const int ho = s.h + 2 * pad - 2, wo = s.w + 2 * pad - 2;
      const bool pool = ho >= 2 && wo >= 2 && d.chance(0.35);
      const bool wonce = s.h + 2 * pad <= 16 && s.w + 2 * pad <= 16 && (want_wonce || d.chance(0.4));
      if (pad != 0 || d.chance(0.3)) ln["pad"] = pad;
      if (pool || d.chance(0.1)) ln["pool"] = pool;
      if (wonce) {
        ln["dataflow"] = "weights_once";
      } else if (d.chance(0.1)) {
        ln["dataflow"] = "pixels_once";
      }
      lf = fmt::format("conv k{}{}{}{}", k, pad ? " p1" : " p0", pool ? " pool" : "", wonce ? " wonce" : "");
      next = {k, pool ? ho / 2 : ho, pool ? wo / 2 : wo};
      const int g = ceil_div(s.c, engines::kLinebufNumPe);
      out.cycles += static_cast<double>(ho) * k * g * (s.w + 2 * pad) + static_cast<double>(s.c) * s.h * s.w +
                    static_cast<double>(k) * ho * wo;
    }
    // The activation.
    const int64_t act = d.range(0, 2);
    if (act == 1) {
      ln["act"] = "relu";
      lf += " relu";
    } else if (act == 2) {
      const int shift = static_cast<int>(d.range(0, 31));
      const int64_t max_slope = std::min<int64_t>(65535, int64_t{1} << shift);
      const int64_t slope = d.chance(0.15) ? max_slope : d.chance(0.1) ? 0 : d.range(0, max_slope);
      ln["act"] = "leaky";
      ln["leaky_slope"] = slope;
      ln["leaky_shift"] = shift;
      lf += fmt::format(" leaky {}/2^{}", slope, shift);
    } else if (d.chance(0.2)) {
      ln["act"] = "none";
    }
    // Weights and bias; out_shift near the accumulator's width (10 %: anywhere).
    int64_t w_mag = 0;
    ojson wr = value_range(d, bits, w_mag);
    // The accumulator's spread for values uniform over the ranges (each product's RMS is about a
    // third of the magnitudes' product): the shift brings it near a quarter of the output range, so
    // outputs cover the range with some saturation; any shift on the last layer 10 % of the time
    // (earlier, a far-off shift would leave the rest of the stack nothing but zeros).
    const double est = std::sqrt(static_cast<double>(taps)) * static_cast<double>(data_mag) * static_cast<double>(w_mag) / 3;
    const double bias_mag = std::clamp(est, 1.0, 2147483647.0);
    int shift = static_cast<int>(std::lround(std::log2(std::max(1.0, est)))) - (bits - 3) + static_cast<int>(d.range(-2, 1));
    if (last && d.chance(0.1)) shift = static_cast<int>(d.range(0, 63));
    shift = std::clamp(shift, 0, 63);
    if (shift != 0 || d.chance(0.3)) ln["out_shift"] = shift;
    lf += fmt::format(" >>{}", shift);
    ln["weights"] = wr;
    const double b = static_cast<double>(d.range(0, 99)) / 100.0;
    if (b < 0.15) {
      ln["bias"] = ojson{{"random", {{"min", 0}, {"max", 0}}}};
    } else if (b < 0.2) {  // the whole 32-bit range: mostly saturated outputs
      ln["bias"] = ojson{{"random", ojson::object()}};
      lf += " bias32";
    } else {
      const auto m = static_cast<int64_t>(bias_mag);
      ln["bias"] = ojson{{"random", {{"min", -m}, {"max", m}}}};
    }
    stack.push_back(std::move(ln));
    out.feat += (i == 0 ? " " : "; ") + lf;
    s = next;
    // Later layers read requantized maps spread over about half the precision's range.
    data_mag = int64_t{1} << (bits - 2);
    want_wonce = false;
  }
  // Intermediate maps on chip where they fit (the parser's default) or all through the streams
  // (then every layer's map is compared).
  if (n_layers > 1 && d.chance(0.5)) {
    doc["maps"] = "memory";
    out.feat += " (maps in memory)";
  } else if (n_layers > 1 && d.chance(0.2)) {
    doc["maps"] = "on_chip";
  }
  doc["stack"] = std::move(stack);
  out.doc = std::move(doc);
  return out;
}

// The layer parser's checks (the engine's refusals) as a "compiler": a linebuf layer has no program.
Program linebuf_checked(const LayerHeader& h, const JsonNode& root) {
  (void)engines::build_linebuf_job(h, root);
  return {};
}

}  // namespace

std::string linebuf_golden_reference_diff(const LayerHeader& h, const JsonNode& root) {
  const engines::LinebufJob job = engines::build_linebuf_job(h, root);
  return linebuf_ref::first_difference(
      engines::run_linebuf_golden(job).maps,
      linebuf_ref::stack(job.input, job.layers, golden::bits_per_element(job.precision)));
}

RandomLayer generate_linebuf_layer(const golden::HwConfig& /*hw*/, RandomLayer L, Rng& rng) {
  L.mem = MemOptions{};  // no memory port: the runs' memory model does not apply
  for (int attempt = 0; attempt < 256; ++attempt) {
    Drawn dr = draw_layer(L, rng);
    if (dr.cycles > kMaxCycles || !random_layer_compiles(L, dr.doc, &linebuf_checked)) continue;
    L.doc = std::move(dr.doc);
    L.features = std::move(dr.feat);
    return L;
  }
  throw std::logic_error("linebuf generator: no legal layer in 256 draws");
}

}  // namespace dla::harness
