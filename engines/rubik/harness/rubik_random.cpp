// The `rubik` random-layer generator (docs/RANDOM.md, "rubik"): random legal RUBIK layers over the
// whole space the `rubik` layer format expresses, nv_full only -- CONTRACT, SPLIT and MERGE; int8
// and int16 (fp16 with --focus fp16: any 16-bit pattern, NaN payloads included); cubes from 1x1x1 to wide lines and many surfaces (C not a multiple of the atom, C of
// one atom exactly); CONTRACT strides sx, sy from 1 to 8 (and up to 32 now and then); packed
// layouts or every stride the mode uses with a gap; bases anywhere in the 48-bit space, 32- or
// 64-byte aligned as the mode needs. Each draw is handed to the `rubik` layer compiler; one it
// refuses is drawn again, so every generated layer is legal.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "harness/regdb.hpp"
#include "engines/rubik/harness/rubik.hpp"
#include "engines/rubik/harness/rubik_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

int64_t up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

constexpr int64_t kMaxAtoms = 4096;  // atoms moved per layer (128 KiB): a few ms on the golden device

// A base near `dflt`: packed (as the compiler places it), moved by aligned steps, or above 4 GiB.
int64_t draw_base(Rng& d, int64_t dflt, int64_t align) {
  int64_t b = dflt;
  if (d.chance(0.3)) b += align * d.range(1, 4000);
  if (d.chance(0.1)) b += int64_t{1} << 32 << d.range(0, 14);
  return b;
}

ojson draw_layer(const RandomLayer& L, Rng& d, std::string& feat) {
  const int mode = static_cast<int>(d.range(0, 2));
  const bool fp16 = L.focus == "fp16";
  const bool int16 = d.chance(0.5) && !fp16;
  const int bpe = int16 || fp16 ? 2 : 1;
  const int ca = 32 / bpe;
  int sx = 1, sy = 1;
  if (mode == 0) {
    sx = static_cast<int>(d.chance(0.9) ? d.range(1, 8) : d.range(1, 32));
    sy = static_cast<int>(d.chance(0.9) ? d.range(1, 8) : d.range(1, 32));
  }
  const bool big = d.chance(0.15);
  int w = static_cast<int>(big ? d.log_range(16, mode == 0 ? 256 : 2048) : d.log_range(1, 24));
  int h = static_cast<int>(big ? d.range(1, 3) : d.log_range(1, 12));
  int c = static_cast<int>(d.chance(0.1) ? ca * d.range(1, 3) : d.chance(0.75) ? d.range(1, 3 * ca) : d.log_range(1, 256));
  const auto atoms = [&] { return int64_t{sx} * sy * up(int64_t{c} * bpe, 32) / 32 * h * w; };
  while (atoms() > kMaxAtoms && h > 1) h = std::max(1, h / 2);
  while (atoms() > kMaxAtoms && w > 1) w = std::max(1, w / 2);
  while (atoms() > kMaxAtoms && c > 1) c = std::max(1, c / 2);
  while (int64_t{sx} * sy * c > 8192) c = std::max(1, c / 2);
  w = std::min(w, 8192 / sx);

  ojson doc = random_layer_doc(L, w, h, c);
  const char* names[] = {"contract", "split", "merge"};
  doc["mode"] = names[mode];
  const char* precision = fp16 ? "fp16" : int16 ? "int16" : "int8";
  doc["precision"] = precision;
  if (mode == 0 && (sx > 1 || sy > 1 || d.chance(0.5))) doc["stride"] = ojson{{"x", sx}, {"y", sy}};

  ojson in = ojson::object();
  ojson rnd = ojson::object();
  if (fp16) {
    // any pattern must arrive unchanged: every finite value, and NaNs with their payloads, +-0, +-inf
    rnd["min"] = -65504;
    rnd["max"] = 65504;
    rnd["specials"] = 0.2;
  } else if (d.chance(0.2)) {
    const int64_t m = (int64_t{1} << d.range(1, 8 * bpe - 1)) - 1;
    rnd["min"] = -m - 1;
    rnd["max"] = m;
  }
  in["data"] = ojson{{"random", rnd}};
  ojson out = ojson::object();

  // Strides: the smallest legal ones plus a gap (in 32-byte, or for planar data 64-byte, steps).
  const bool gaps = d.chance(0.3);
  const auto gap = [&](int64_t step) { return gaps ? step * d.range(0, 3) : 0; };
  const int64_t surfaces = up(int64_t{c} * bpe, 32) / 32;
  const int64_t plane_line = up(int64_t{w} * bpe, 32);
  int64_t in_align = 32, out_align = 32;
  if (gaps) {
    if (mode == 2) {
      const int64_t line = up(plane_line, 64) + gap(64);
      in["line_stride"] = line;
      in["planar_stride"] = up((h - 1) * line + plane_line, 64) + gap(64);
    } else {
      const int64_t line = int64_t{w} * 32 + gap(32);
      const int64_t surf = h * line + gap(32);
      in["line_stride"] = line;
      in["surface_stride"] = surf;
      if (mode == 0) in["contract_stride"] = (surfaces - 1) * surf + (h - 1) * line + w * 32 + gap(32);
    }
    if (mode == 0) {
      const int64_t line = int64_t{w} * sx * 32 + gap(32);
      const int64_t cs1 = sy * line + gap(32);
      out["line_stride"] = line;
      out["contract_stride"] = cs1;
      out["surface_stride"] = (h - 1) * cs1 + (sy - 1) * line + int64_t{w} * sx * 32 + gap(32);
    } else if (mode == 1) {
      const int64_t line = up(plane_line, 64) + gap(64);
      out["line_stride"] = line;
      out["planar_stride"] = up((h - 1) * line + plane_line, 64) + gap(64);
    } else {
      const int64_t line = int64_t{w} * 32 + gap(32);
      out["line_stride"] = line;
      out["surface_stride"] = h * line + gap(32);
    }
    feat += " strides-with-gaps";
  }
  if (mode == 2) in_align = 64;
  if (mode == 1) out_align = 64;
  if (d.chance(0.4)) {
    in["base"] = draw_base(d, static_cast<int64_t>(engines::kRubikInputBase), in_align);
    out["base"] = draw_base(d, static_cast<int64_t>(engines::kRubikOutputBase), out_align);
    feat += " bases";
  }
  doc["input"] = in;
  doc["output"] = out;
  feat = fmt::format("{} {}{} {}x{}x{} ({} surface(s)){}", names[mode], precision,
                     mode == 0 ? fmt::format(" sx{} sy{}", sx, sy) : "", w, h, c, surfaces, feat);
  return doc;
}

}  // namespace

RandomLayer generate_rubik_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  if (!RegDb::nvdla().address(hw.name, *RegDb::nvdla().find("RBK.D_OP_ENABLE"))) {
    throw InputError("--config", hw.name, "rubik layers run on nv_full only (the RBK block exists there only, as in NVDLA)");
  }
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string feat;
    ojson doc = draw_layer(L, rng, feat);
    if (random_layer_compiles(L, doc, &engines::compile_rubik_layer)) {
      L.doc = std::move(doc);
      L.features = feat;
      return L;
    }
  }
  throw std::logic_error("rubik generator: no legal layer in 64 draws");
}

}  // namespace dla::harness
