// The `pdp` random-layer generator (docs/RANDOM.md, "pdp"): random legal pooling layers over
// NVDLA's whole space -- every method, kernels 1..8, strides 1..16, pads up to the kernel's limit
// with pad values over the element range, widths up to 8192 with automatic and explicit splits,
// int16 where the configuration has it, fp16 with --focus fp16 (judged by NVIDIA's C model),
// strided layouts. Each layer is built output-first so
// W + pads - kernel is a multiple of the stride, then handed to the `pdp` layer compiler; a draw the
// compiler refuses (a split NVDLA's rules forbid) is drawn again, so every generated layer is legal.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/pdp/harness/pdp_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

int draw(Rng& r, int lo, int hi) { return static_cast<int>(r.range(lo, hi)); }
bool chance(Rng& r, double p) { return r.chance(p); }
// Log-uniform in [lo, hi].
int log_draw(Rng& r, int lo, int hi) { return static_cast<int>(r.log_range(lo, hi)); }


// fp16 data (--focus fp16): one of four regimes (small, around 1, the whole finite range,
// denormals), with NaNs, infinities and signed zeros sprinkled in.
ojson fp16_data(Rng& r) {
  switch (draw(r, 0, 3)) {
    case 0: return ojson{{"random", {{"min", -8}, {"max", 8}, {"specials", 0.05}}}};
    case 1: return ojson{{"random", {{"min", -2}, {"max", 2}}}};
    case 2: return ojson{{"random", {{"min", -65504}, {"max", 65504}, {"specials", 0.02}}}};
    default: return ojson{{"random", {{"min", "0x8400"}, {"max", "0x0400"}, {"specials", 0.1}}}};
  }
}

ojson draw_layer(const golden::HwConfig& hw, const RandomLayer& L, Rng& r, std::string& feat) {
  const bool fp16 = L.focus == "fp16";
  const bool int16 = !fp16 && hw.int16 && chance(r, 0.3);
  const int bpe = int16 || fp16 ? 2 : 1;
  const int atom = hw.atom_bytes;
  const int64_t vmax = int16 ? 32767 : 127, vmin = -vmax - 1;
  const char* method = chance(r, 0.4) ? "average" : chance(r, 0.5) ? "max" : "min";
  const int kw = chance(r, 0.15) ? 1 : draw(r, 1, 8), kh = chance(r, 0.15) ? 1 : draw(r, 1, 8);
  const int sw = chance(r, 0.7) ? draw(r, 1, std::max(1, kw)) : log_draw(r, 1, 16);
  const int sh = chance(r, 0.7) ? draw(r, 1, std::max(1, kh)) : log_draw(r, 1, 16);
  const auto pad = [&](int k) { return chance(r, 0.4) ? 0 : draw(r, 0, std::min(7, k - 1)); };
  const int pl = pad(kw), pr = pad(kw), pt = pad(kh), pb = pad(kh);
  // Output first, then the input that gives it (every input column used).
  const int size = draw(r, 0, 99);
  int ow = size < 90 ? log_draw(r, 1, 24) : log_draw(r, 24, std::min(4096, 8192 / sw));
  int oh = size < 90 ? log_draw(r, 1, 16) : draw(r, 1, 3);
  int w = (ow - 1) * sw + kw - pl - pr;
  while (w < 1) w += sw, ++ow;
  w = std::min(w, 8192);
  int h = (oh - 1) * sh + kh - pt - pb + draw(r, 0, sh - 1);
  while (h < 1) h += sh;
  h = std::min(h, 8192);
  int c = chance(r, 0.8) ? draw(r, 1, 3 * atom / bpe) : log_draw(r, 1, std::max(1, 65536 / (w * h)));
  // Cost cap: at most 256 KiB of input (about 2M cycles at the slowest --mem-bandwidth a campaign
  // draws, 1/8 byte per cycle), well within the runner's 10M-cycle wait: fewer lines, then fewer
  // surfaces (H has no divisibility rule; W keeps its own).
  const auto in_bytes = [&] { return int64_t{(c + atom / bpe - 1) / (atom / bpe)} * h * w * atom; };
  while (in_bytes() > (int64_t{1} << 18) && h > 1) h = std::max(1, h / 2);
  while (in_bytes() > (int64_t{1} << 18) && c > atom / bpe) c = std::max(1, c / 2);
  feat = fmt::format("{} k{}x{} s{}x{} pad L{}R{}T{}B{}", method, kw, kh, sw, sh, pl, pr, pt, pb);

  ojson doc = random_layer_doc(L, w, h, c);
  ojson in = ojson::object();
  in["precision"] = fp16 ? "fp16" : int16 ? "int16" : "int8";
  if (fp16) {
    in["data"] = fp16_data(r);
    if (chance(r, 0.3)) {
      in["nan_to_zero"] = true;
      feat += " nan-to-zero";
    }
  } else {
    ojson rnd = ojson::object();
    if (chance(r, 0.3)) {
      const int64_t a = int64_t{1} << draw(r, 1, 8 * bpe - 1);
      rnd["min"] = -a;
      rnd["max"] = a - 1;
    }
    in["data"] = ojson{{"random", rnd}};
  }
  const int ca = atom / bpe;
  const int surfaces = (c + ca - 1) / ca;
  if (chance(r, 0.15)) {
    const int64_t line = int64_t{atom} * (w + draw(r, 0, 3));
    in["line_stride"] = line;
    in["surface_stride"] = line * h + int64_t{atom} * draw(r, 0, 4);
    feat += " in-strided";
  }
  doc["input"] = in;
  ojson pool = ojson{{"method", method}, {"kernel", ojson{{"w", kw}, {"h", kh}}}};
  if (sw != 1 || sh != 1) pool["stride"] = ojson{{"w", sw}, {"h", sh}};
  ojson p = ojson::object();
  if (pl != 0) p["left"] = pl;
  if (pr != 0) p["right"] = pr;
  if (pt != 0) p["top"] = pt;
  if (pb != 0) p["bottom"] = pb;
  if (fp16) {
    // Any fp16 pad value (NVIDIA's driver programs 0 only; the hardware takes any), except where
    // NVIDIA's C model leaves the result undefined (average, kernel width 8: PdpConfig::unsupported).
    static constexpr const char* kPads[] = {"0x8000", "0.5", "-1.25", "0x7bff", "0x0001", "nan", "inf", "3"};
    const bool undefined = std::string(method) == "average" && kw == 8 && pt + pb > 0;
    if (!undefined && chance(r, 0.5)) {
      const std::string v = kPads[draw(r, 0, 7)];
      if (v == "0.5" || v == "-1.25" || v == "3") {
        p["value"] = std::stod(v);
      } else {
        p["value"] = v;
      }
    }
  } else if (chance(r, 0.8)) {
    p["value"] = chance(r, 0.2) ? (chance(r, 0.5) ? vmin : vmax) : r.range(vmin, vmax);
  }
  if (!p.empty()) pool["pad"] = p;
  doc["pool"] = pool;
  if (chance(r, 0.25) && ow > 1) {
    doc["split"] = ojson{{"max_width", draw(r, 1, std::min(ow, hw.atom_bytes == 8 ? 512 : 128))}};
    feat += " split";
  }
  ojson out = ojson::object();
  if (chance(r, 0.15)) {
    const int64_t line = int64_t{atom} * (ow + draw(r, 0, 3));
    out["line_stride"] = line;
    out["surface_stride"] = line * oh + int64_t{atom} * draw(r, 0, 4);
    feat += " out-strided";
  }
  doc["output"] = out;
  feat += fmt::format(" {}x{}x{} ({} surface(s)) {}", w, h, c, surfaces, fp16 ? "fp16" : int16 ? "int16" : "int8");
  return doc;
}

}  // namespace

RandomLayer generate_pdp_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string feat;
    ojson doc = draw_layer(hw, L, rng, feat);
    if (!random_layer_compiles(L, doc, &engines::compile_pdp_layer) && doc.contains("split")) {
      doc.erase("split");  // NVDLA's split rules forbid this piece width: let the compiler split
      feat += " (split dropped)";
    }
    if (random_layer_compiles(L, doc, &engines::compile_pdp_layer)) {
      L.doc = std::move(doc);
      L.features = feat;
      return L;
    }
  }
  throw std::logic_error("pdp generator: no legal layer in 64 draws");
}

}  // namespace dla::harness
