// The `deconv` random-layer generator (docs/RANDOM.md, "deconv"): random legal `deconv` layers,
// nv_full only -- int8 and int16; strides sx, sy 1-4 drawn independently (5-8 now and then);
// kernels smaller than, equal to and larger than the stride; C and K across the atomics; crops
// and output padding; CACC clip; per-channel SDP stages and output converters. Each draw is handed
// to the `deconv` layer compiler; one it refuses (a crop the decomposition cannot express) is drawn
// again, so every generated layer is legal. Run in cross mode on the RTL (nvdla_core and RUBIK over
// one memory, harness/tops/core_pairs_rtl.cpp) against golden, both judged by the scatter-add
// reference (harness/deconv_reference.hpp). --focus fp16: every layer fp16 (data in the fp16
// regimes of `random conv --focus fp16`, fp16 or int16 out, the fp16 BS / BN / EW stages), on
// golden judged by NVIDIA's C model alone (no fp16 conv RTL yet).
#include <fmt/format.h>

#include <stdexcept>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "engines/deconv/harness/deconv.hpp"
#include "engines/deconv/harness/deconv_random.hpp"
#include "engines/sdp/harness/sdp_random_stages.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

Program deconv_program(const LayerHeader& h, const JsonNode& root) { return engines::compile_deconv_layer(h, root).program; }

// The shape, strides and kernel of a layer (both precisions draw them alike).
struct Shape {
  int sx, sy, s, r, w, h, c, k;
};

Shape draw_shape(Rng& d) {
  Shape p{};
  p.sx = static_cast<int>(d.chance(0.1) ? d.range(5, 8) : d.range(1, 4));
  p.sy = static_cast<int>(d.chance(0.1) ? d.range(5, 8) : d.range(1, 4));
  p.s = static_cast<int>(d.range(1, 2 * p.sx + 1));
  p.r = static_cast<int>(d.range(1, 2 * p.sy + 1));
  p.w = static_cast<int>(d.range(1, 6));
  p.h = static_cast<int>(d.range(1, 6));
  p.c = static_cast<int>(d.chance(0.2) ? d.range(30, 80) : d.range(1, 8));
  p.k = static_cast<int>(d.chance(0.2) ? d.range(15, 40) : d.range(1, 8));
  return p;
}

// Crop (40 %) and output padding (20 %).
void draw_crop_and_padding(Rng& d, const Shape& p, ojson& doc, std::string& feat) {
  if (d.chance(0.4)) {
    const int mx = (p.s + p.sx - 1) / p.sx, my = (p.r + p.sy - 1) / p.sy;
    doc["crop"] = ojson{{"left", d.range(0, (mx - 1) * p.sx)},
                        {"right", d.range(0, p.s - 1)},
                        {"top", d.range(0, (my - 1) * p.sy)},
                        {"bottom", d.range(0, p.r - 1)}};
    feat += " crop";
  }
  if (d.chance(0.2)) {
    doc["output_padding"] = ojson{{"x", d.range(0, p.sx - 1)}, {"y", d.range(0, p.sy - 1)}};
    feat += " output-padding";
  }
}

ojson draw_layer(const RandomLayer& L, Rng& d, std::string& feat) {
  const bool int16 = d.chance(0.5);
  const Shape p = draw_shape(d);
  const auto [sx, sy, s, r, w, h, c, k] = p;
  ojson doc = random_layer_doc(L, 0, 0, 0);
  doc.erase("cube");
  doc["precision"] = int16 ? "int16" : "int8";
  doc["input"] = ojson{{"w", w}, {"h", h}, {"c", c}, {"data", {{"random", ojson::object()}}}};
  doc["weights"] = ojson{{"k", k}, {"r", r}, {"s", s}, {"data", {{"random", ojson::object()}}}};
  doc["stride"] = ojson{{"x", sx}, {"y", sy}};
  draw_crop_and_padding(d, p, doc, feat);
  if (d.chance(0.3)) {
    doc["clip"] = d.range(0, 8);
    feat += " clip";
  }
  if (d.chance(0.3)) {
    doc["bs"] = ojson{{"alu", {{"algo", "sum"}, {"operand", {{"random", {{"min", -100}, {"max", 100}}}}}}},
                      {"relu", d.chance(0.5)}};
    feat += " bs";
  }
  if (d.chance(0.3)) {
    // int16 stays int16: its convolutions fly into SDP, which converts int16 -> int8 only from
    // memory (docs/SDP.md); the draw is made either way (a stable stream).
    const bool out8 = d.chance(0.5) && !int16;
    doc["output"] = ojson{{"precision", out8 ? "int8" : "int16"},
                          {"converter", {{"offset", d.range(-50, 50)}, {"scale", d.range(1, 9)}, {"shift", d.range(0, 6)}}}};
    feat += " output-converter";
  }
  feat = fmt::format("{} s{}x{} k{}x{} {}x{}x{} K{}{}", int16 ? "int16" : "int8", sx, sy, s, r, w, h, c, k, feat);
  return doc;
}

// --focus fp16: the shapes, strides, crops and output padding as above; fp16 data and weights;
// no CACC clip (fp16 has none); fp16 BS / BN / EW stages (a deconv layer takes per-channel memory
// operands only: a draw with per-element ones is refused and drawn again); int16 out now and then.
ojson draw_layer_fp16(const RandomLayer& L, Rng& rng, std::string& feat) {
  Draw d{rng};
  const Shape p = draw_shape(rng);
  ojson doc = random_layer_doc(L, 0, 0, 0);
  doc.erase("cube");
  doc["precision"] = "fp16";
  doc["input"] = ojson{{"w", p.w}, {"h", p.h}, {"c", p.c}};
  engines::sdp_draw::draw_fp16_data(d, doc["input"]["data"]);
  doc["weights"] = ojson{{"k", p.k}, {"r", p.r}, {"s", p.s}};
  engines::sdp_draw::draw_fp16_data(d, doc["weights"]["data"]);
  doc["stride"] = ojson{{"x", p.sx}, {"y", p.sy}};
  draw_crop_and_padding(rng, p, doc, feat);
  if (d.chance(0.3)) engines::sdp_draw::draw_fp16_x_stage(d, "bs", doc, feat);
  if (d.chance(0.2)) engines::sdp_draw::draw_fp16_x_stage(d, "bn", doc, feat);
  engines::sdp_draw::draw_fp16_ew(static_cast<uint64_t>(rng.range(0, int64_t{1} << 62)), doc, feat, 0.2);
  if (d.chance(0.2)) {
    doc["output"] = ojson{{"precision", "int16"}};
    feat += " int16-out";
  }
  feat = fmt::format("fp16 s{}x{} k{}x{} {}x{}x{} K{}{}", p.sx, p.sy, p.s, p.r, p.w, p.h, p.c, p.k, feat);
  return doc;
}

// The bytes a layer's DMA moves, over-estimated from the draw: every sub-convolution reads the
// input cube, the weights once, then the channel-extended cube written by SDP, read by RUBIK and
// the output written (each at most the uncropped output in whole atoms).
double moved_bytes(const ojson& doc) {
  const auto atoms = [](int64_t bytes) { return (bytes + 31) / 32 * 32; };
  const int64_t bpe = doc["precision"] == "int8" ? 1 : 2;
  const int64_t obpe =
      doc.contains("output") && doc["output"].contains("precision") ? (doc["output"]["precision"] == "int8" ? 1 : 2) : bpe;
  const auto& in = doc["input"];
  const auto& wt = doc["weights"];
  const int64_t w = in["w"], h = in["h"], c = in["c"], k = wt["k"], r = wt["r"], s = wt["s"];
  const int64_t sx = doc["stride"]["x"], sy = doc["stride"]["y"];
  const int64_t ow = ((w - 1) * sx + s + 2 * sx - 1) / sx * sx;  // output padding < sx, whole phases
  const int64_t oh = ((h - 1) * sy + r + 2 * sy - 1) / sy * sy;
  return static_cast<double>(sx * sy * w * h * atoms(c * bpe) + k * r * s * c * bpe + 3 * ow * oh * atoms(k * obpe));
}

}  // namespace

RandomLayer generate_deconv_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  if (!RegDb::nvdla().address(hw.name, *RegDb::nvdla().find("RBK.D_OP_ENABLE"))) {
    throw InputError("--config", hw.name,
                     "deconv layers run on nv_full only (their CONTRACT needs RBK, which exists there only, as in NVDLA)");
  }
  const bool fp16 = L.focus == "fp16";
  for (int attempt = 0; attempt < 256; ++attempt) {
    std::string feat;
    ojson doc = fp16 ? draw_layer_fp16(L, rng, feat) : draw_layer(L, rng, feat);
    if (random_layer_compiles(L, doc, &deconv_program)) {
      // Cost cap under a bandwidth limit: the layer's bytes within about 40k cycles (a second of
      // the two RTL tops; 0.125 byte per cycle made single layers run 76 s). No draw: other
      // layers are unchanged.
      if (!L.mem.unlimited()) {
        while (moved_bytes(doc) / L.mem.bandwidth > 40000) L.mem.bandwidth *= 2;
      }
      L.doc = std::move(doc);
      L.features = feat;
      return L;
    }
  }
  throw std::logic_error("deconv generator: no legal layer in 256 draws");
}

}  // namespace dla::harness
