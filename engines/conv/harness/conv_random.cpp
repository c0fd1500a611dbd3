// `random conv` (docs/RANDOM.md): direct, Winograd, image, W-fold, sparse, Split-H and batch
// layers drawn from the whole legal parameter space, shrunk where CBUF cannot hold them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "engines/sdp/harness/sdp_random_stages.hpp"
#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/random_layers.hpp"
#include "harness/rng.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_image.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "engines/conv/golden/conv_wfold.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/conv/harness/conv_random.hpp"

namespace dla::harness {

namespace {

using golden::HwConfig;
using namespace engines::sdp_draw;


struct ConvShape {
  bool wino = false, int16 = false;
  int w = 1, h = 1, c = 1, k = 1, r = 1, s = 1;
  int pl = 0, pr = 0, pt = 0, pb = 0, sx = 1, sy = 1, dx = 1, dy = 1;
  int ow4 = 0, oh4 = 0;  // Winograd: the output size (multiples of 4) the input is derived from
  int wfold = 0;         // "wfold": 0 off, -1 "auto", else the fold width asked for (docs/WFOLD.md)
  [[nodiscard]] int ext_x() const { return (s - 1) * dx + 1; }
  [[nodiscard]] int ext_y() const { return (r - 1) * dy + 1; }
  [[nodiscard]] int min_w() const { return std::max(1, ext_x() - pl - pr); }
  [[nodiscard]] int min_h() const { return std::max(1, ext_y() - pt - pb); }
  void wino_input(int extra_x, int extra_y) {
    w = (ow4 - 1) * sx + this->s - pl - pr + extra_x;
    h = (oh4 - 1) * sy + r - pt - pb + extra_y;
  }
};

// A pad for one side: 0, within the kernel's extent, or (rarely) up to the register's limit.
// Right / bottom stay below the extent (NVDLA's rule).
int draw_pad(Draw& d, int extent, bool hi_side) {
  const int lim = hi_side ? std::min(63, extent - 1) : 31;
  if (lim <= 0 || d.chance(0.4)) return 0;
  if (d.chance(0.15)) return d.i(0, lim);
  return d.i(0, std::min(lim, std::max(1, extent - 1)));
}

int draw_kernel(Draw& d) {
  const int r = d.i(0, 99);
  if (r < 30) return 1;
  if (r < 40) return 2;
  if (r < 70) return 3;
  if (r < 85) return d.i(4, 5);
  if (r < 96) return d.i(6, 11);
  return d.i(12, 32);
}

int draw_stride(Draw& d) {
  const int r = d.i(0, 99);
  return r < 55 ? 1 : r < 80 ? 2 : d.i(3, 8);
}

int draw_dilation(Draw& d) {
  const int r = d.i(0, 99);
  return r < 80 ? 1 : r < 95 ? d.i(2, 3) : d.i(4, 32);
}

// `splith` (--focus splith): always the input 1.2-4x beyond the data half of CBUF (Split-H bands).
ConvShape draw_direct_shape(Draw& d, const HwConfig& hw, bool int16, std::string& feat, bool splith = false) {
  ConvShape s;
  s.int16 = int16;
  const golden::Precision p = int16 ? golden::Precision::Int16 : golden::Precision::Int8;
  const int ac = hw.atomic_c, ak = hw.atomic_k(p);
  // This RTL's CBUF halves (docs/CONV_RTL.md): rows of one channel block (ATOMIC_C elements of
  // the widest precision), half of NVDLA's CBUF each for data and weights. Only for aiming the
  // sizes: the layer compiler decides what fits.
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  const int64_t half_bytes = int64_t{cb.banks} * cb.entries_per_bank * cb.entry_bytes / 2;
  const int data_rows = static_cast<int>(half_bytes / (int64_t{hw.atomic_c} * (hw.int16 ? 2 : 1)));
  const int size = splith ? 99 : d.i(0, 99);
  s.r = draw_kernel(d);
  s.s = d.chance(0.6) ? s.r : draw_kernel(d);
  s.sx = draw_stride(d);
  s.sy = d.chance(0.6) ? s.sx : draw_stride(d);
  s.dx = draw_dilation(d);
  s.dy = d.chance(0.6) ? s.dx : draw_dilation(d);
  int w = 1, h = 1;
  if (size < 55) {  // small
    w = d.log_i(1, 14);
    h = d.log_i(1, 14);
    s.c = d.chance(0.7) ? d.i(1, 2 * ac + 3) : d.log_i(1, 4 * ac);
    s.k = d.chance(0.7) ? d.i(1, 2 * ak + 3) : d.log_i(1, 4 * ak);
    feat += " small";
  } else if (size < 82) {  // medium
    w = d.log_i(1, 64);
    h = d.log_i(1, 64);
    s.c = d.log_i(1, 4 * ac);
    s.k = d.log_i(1, 4 * ak);
    feat += " medium";
  } else {  // large: one of the limits
    s.c = d.i(1, ac);
    s.k = d.i(1, ak + 3);
    switch (splith ? 2 : d.i(0, 7)) {
      case 6: {  // more weights than the weight half holds: the ring wraps (one group still fits)
        s.r = s.s = d.pick<int>({1, 3, 3, 5});
        s.dx = s.dy = 1;
        s.c = d.log_i(ac, 8 * ac);
        const int bpe = int16 ? 2 : 1;
        const int64_t bpk = int64_t{s.r} * s.s * s.c * bpe;
        s.k = static_cast<int>(std::clamp<int64_t>(half_bytes / bpk * d.i(12, 40) / 10, 1, 4000));
        w = d.i(s.s, s.s + 6);
        h = d.i(s.r, s.r + 6);
        feat += " weight-ring";
        break;
      }
      case 7:  // many kernel groups and channel blocks
        s.c = d.log_i(2 * ac, 8 * ac);
        s.k = d.log_i(2 * ak, 8 * ak);
        w = d.i(3, 16);
        h = d.i(3, 16);
        feat += " groups-blocks";
        break;
      case 0:  // a long line
        w = d.log_i(200, 8192);
        h = d.i(1, 3);
        s.dy = 1;
        feat += " large-W";
        break;
      case 1:  // a tall column
        h = d.log_i(200, 8192);
        w = d.i(1, 3);
        s.dx = 1;
        feat += " large-H";
        break;
      case 2: {  // the data half of CBUF nearly full, or (half of them) 1.2-4x over: Split-H bands
        s.c = d.log_i(1, 3 * ac);
        const bool over = splith || d.chance(0.5);
        const int rows = data_rows / ((s.c + ac - 1) / ac) * (over ? d.i(12, 40) : 10) / 10;
        w = d.log_i(4, std::min(512, rows));
        h = std::max(1, rows / w);
        feat += over ? " cbuf-over" : " cbuf-data";
        break;
      }
      case 3:  // many channels (the weight half)
        s.c = d.log_i(4 * ac, 8192);
        s.r = d.i(1, 3);
        s.s = d.i(1, 3);
        s.dx = s.dy = 1;
        w = d.i(1, 6);
        h = d.i(1, 6);
        s.k = d.i(1, 2 * ak);
        feat += " large-C";
        break;
      case 4:  // a big kernel
        s.r = d.i(8, 32);
        s.s = d.i(8, 32);
        s.dx = s.dy = 1;
        w = d.i(s.s, s.s + 20);
        h = d.i(s.r, s.r + 20);
        feat += " large-kernel";
        break;
      default:  // many kernels
        s.k = d.log_i(4 * ak, 600);
        w = d.i(1, 12);
        h = d.i(1, 12);
        feat += " large-K";
        break;
    }
  }
  // The padded input must hold the dilated kernel, and the whole input must fit CBUF's data half:
  // keep the extents' product within half the data rows (dilation first, then the kernel).
  while (s.ext_x() * s.ext_y() > data_rows / 2) {
    if (s.dx > 1 || s.dy > 1) {
      (s.ext_x() >= s.ext_y() && s.dx > 1 ? s.dx : s.dy > 1 ? s.dy : s.dx)--;
    } else {
      (s.s >= s.r ? s.s : s.r)--;
    }
  }
  s.pl = draw_pad(d, s.ext_x(), false);
  s.pr = draw_pad(d, s.ext_x(), true);
  s.pt = draw_pad(d, s.ext_y(), false);
  s.pb = draw_pad(d, s.ext_y(), true);
  s.w = std::max(w, s.min_w());
  s.h = std::max(h, s.min_h());
  if (s.w > 8192 || s.h > 8192) {  // a huge dilated kernel: give it up
    s.dx = s.dy = 1;
    s.w = std::clamp(s.w, s.min_w(), 8192);
    s.h = std::clamp(s.h, s.min_h(), 8192);
  }
  // NVDLA's output limit, W' and H' at most 8192: a long line or column with padding and a small
  // kernel would pass it (8190 wide, 1x1, 12 columns of padding: 8202).
  s.w = std::min(s.w, (8192 - 1) * s.sx + s.ext_x() - s.pl - s.pr);
  s.h = std::min(s.h, (8192 - 1) * s.sy + s.ext_y() - s.pt - s.pb);
  return s;
}

// NVDLA's Winograd (docs/WINOGRAD.md): a kernel that is 3x3 after channel extension (3x3 at
// stride 1, 5x5 or 6x6 at stride 2), an output of multiples of 4 and at least 8.
ConvShape draw_wino_shape(Draw& d, bool int16, std::string& feat) {
  ConvShape s;
  s.wino = true;
  s.int16 = int16;
  s.sx = d.chance(0.5) ? 1 : 2;
  s.sy = d.chance(0.6) ? s.sx : 3 - s.sx;
  s.s = s.sx == 1 ? 3 : d.i(5, 6);
  s.r = s.sy == 1 ? 3 : d.i(5, 6);
  s.pl = d.i(0, (s.s - 1) / 2);
  s.pr = d.i(0, (s.s - 1) / 2);
  s.pt = d.i(0, (s.r - 1) / 2);
  s.pb = d.i(0, (s.r - 1) / 2);
  const int size = d.i(0, 99);
  if (size < 75) {
    s.ow4 = 4 * d.i(2, 5);
    s.oh4 = 4 * d.i(2, 5);
    s.c = d.chance(0.7) ? d.i(1, 70) : d.log_i(1, 200);
    s.k = d.chance(0.7) ? d.i(1, 40) : d.log_i(1, 100);
  } else {
    s.ow4 = 4 * d.log_i(2, 16);
    s.oh4 = 4 * d.log_i(2, 16);
    s.c = d.log_i(1, 128);
    s.k = d.log_i(1, 64);
    feat += " medium";
  }
  if (s.r != 3 || s.s != 3) feat += fmt::format(" {}x{}", s.s, s.r);
  s.wino_input(s.sx == 2 ? d.i(0, 1) : 0, s.sy == 2 ? d.i(0, 1) : 0);
  return s;
}

ojson render_conv(const ConvShape& s, const ojson& rest) {
  ojson doc = ojson::object();
  for (const char* key : {"unit", "config", "name", "description", "seed", "stall"}) {
    if (rest.contains(key)) doc[key] = rest[key];
  }
  if (s.wino) doc["mode"] = "winograd";
  for (const char* key : {"wino_scheme", "pra_truncate"}) {
    if (rest.contains(key)) doc[key] = rest[key];
  }
  if (s.int16) doc["precision"] = "int16";
  ojson in = rest["input"];
  in["w"] = s.w;
  in["h"] = s.h;
  in["c"] = s.c;
  ojson in_ordered{{"w", s.w}, {"h", s.h}, {"c", s.c}};
  for (const auto& [k, v] : in.items()) {
    if (k != "w" && k != "h" && k != "c") in_ordered[k] = v;
  }
  doc["input"] = in_ordered;
  ojson wt{{"k", s.k}, {"r", s.r}, {"s", s.s}};
  wt["data"] = rest["weights"]["data"];
  doc["weights"] = wt;
  ojson pad = rest.contains("padding") ? rest["padding"] : ojson::object();
  if (s.pl != 0) pad["left"] = s.pl;
  if (s.pr != 0) pad["right"] = s.pr;
  if (s.pt != 0) pad["top"] = s.pt;
  if (s.pb != 0) pad["bottom"] = s.pb;
  if (!pad.empty()) doc["padding"] = pad;
  if (s.sx != 1 || s.sy != 1) doc["stride"] = ojson{{"x", s.sx}, {"y", s.sy}};
  if (s.dx != 1 || s.dy != 1) doc["dilation"] = ojson{{"x", s.dx}, {"y", s.dy}};
  if (s.wfold != 0) doc["wfold"] = s.wfold < 0 ? ojson("auto") : ojson(s.wfold);
  for (const char* key : {"clip", "output", "bs", "bn", "ew", "perf"}) {
    if (rest.contains(key)) doc[key] = rest[key];
  }
  return doc;
}

golden::ConvParams fold_params(const ConvShape& s) {
  golden::ConvParams p;
  p.c = s.c;
  p.s = s.s;
  p.precision = s.int16 ? golden::Precision::Int16 : golden::Precision::Int8;
  return p;
}

// The fold width the layer runs with (0: unfolded): "auto"'s choice, or the asked ws.
int effective_ws(const ConvShape& s, const HwConfig& hw) {
  return s.wfold < 0 ? golden::wfold_auto_ws(fold_params(s), hw) : s.wfold;
}

// W-fold (docs/WFOLD.md) for 1 in 5 direct layers (every one with `always`: --focus wfold) on a
// configuration with the fold, drawn from a
// stream of the layer's seed of its own (the layer's other draws stay as they were): C above 32
// becomes 1..32 three times in four (where folding pays), then half "auto", half a legal ws no
// costlier than the unfolded layer (G x S' <= ceil(C / ATOMIC_C) x S atomic operations per output
// and kernel row), else "auto".
void draw_wfold(const HwConfig& hw, ConvShape& s, uint64_t seed, bool always) {
  if (!hw.wfold || s.wino) return;
  Rng rng = Rng::derive(seed, "wfold");
  Draw d{rng};
  if (!d.chance(0.2) && !always) return;
  if (s.c > 32 && d.chance(0.75)) s.c = d.i(1, 32);
  const int unfolded = (s.c + hw.atomic_c - 1) / hw.atomic_c * s.s;
  std::vector<int> legal;
  for (const int ws : {2, 4, 8, 16}) {
    const int pci = hw.atomic_c / ws;
    const int cost = (s.c + pci - 1) / pci * ((s.s + ws - 1) / ws);
    if (golden::wfold_ws_refusal(fold_params(s), hw, ws).empty() && cost <= unfolded) legal.push_back(ws);
  }
  const bool automatic = legal.empty() || d.chance(0.5);
  s.wfold = automatic ? -1 : legal[static_cast<std::size_t>(d.i(0, static_cast<int>(legal.size()) - 1))];
}

// Tries the layer compiler on `doc` (no golden run): "" when accepted, else the error; `cbuf`
// tells whether the refusal is about CBUF capacity (which the generator answers by shrinking).
std::string try_compile_conv(const RandomLayer& L, const ojson& doc, bool& cbuf, std::string& where,
                             int* bands = nullptr, golden::ConvConfig* conv = nullptr, bool* shares_weights = nullptr) {
  cbuf = false;
  try {
    const auto jd = parse_json_text(L.name + ".json", doc.dump());
    LayerHeader h;
    h.file = jd->file;
    h.unit = "conv";
    h.name = L.name;
    h.config = L.config;
    h.seed = L.seed;
    h.stall = L.stall;
    const engines::CompiledConv cc = engines::compile_conv_layer(h, JsonNode::root(jd), false);
    if (bands != nullptr) *bands = cc.bands;
    if (conv != nullptr) *conv = cc.conv;
    if (shares_weights != nullptr) *shares_weights = cc.bands_share_weights;
    return "";
  } catch (const InputError& e) {
    cbuf = e.rule().find("CBUF") != std::string::npos;
    where = e.where();
    return e.what();
  }
}

// The compiler's limits that are not about CBUF (docs/LAYER_FORMAT.md): BYTE_PER_KERNEL
// (R x S x C x bytes <= 2^18), K x C x R x S <= 4000000, W' x H' x K <= 4000000.
void legalize(ConvShape& s, const HwConfig& hw) {
  (void)hw;
  const int bpe = s.int16 ? 2 : 1;
  if (!s.wino) s.c = std::max(1, std::min<int>(s.c, (1 << 18) / (s.r * s.s * bpe)));
  s.k = std::max(1, static_cast<int>(std::min<int64_t>(s.k, 4'000'000 / (int64_t{s.c} * s.r * s.s))));
  const int64_t ow = (s.w + s.pl + s.pr - s.ext_x()) / s.sx + 1, oh = (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1;
  s.k = std::max(1, static_cast<int>(std::min<int64_t>(s.k, 4'000'000 / (ow * oh))));
}

// Atomic operations of a direct layer: W' x H' x R x S x channel blocks x kernel groups
// (Winograd: a quarter of the positions, 4 operations per tile position, the extended channels).
constexpr int64_t kMaxAtomicOps = 3'000'000;
int64_t conv_atomic_ops(const ConvShape& s, const HwConfig& hw) {
  const golden::Precision p = s.int16 ? golden::Precision::Int16 : golden::Precision::Int8;
  const int64_t ow = (s.w + s.pl + s.pr - s.ext_x()) / s.sx + 1, oh = (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1;
  const int64_t groups = (s.k + hw.atomic_k(p) - 1) / hw.atomic_k(p);
  const int64_t c = int64_t{s.c} * (s.wino ? s.sx * s.sy : 1);
  const int64_t blocks = (c + hw.atomic_c - 1) / hw.atomic_c;
  if (const int ws = s.wino ? 0 : effective_ws(s, hw); ws != 0) {  // W-fold: G channel blocks x S' columns
    const int pci = hw.atomic_c / ws;
    return ow * oh * s.r * ((s.c + pci - 1) / pci) * ((s.s + ws - 1) / ws) * groups;
  }
  return s.wino ? ow * oh / 4 * 4 * blocks * groups : ow * oh * s.r * s.s * blocks * groups;
}

void shrink_conv(ConvShape& s, const std::string& where, Draw& d) {
  if (where.rfind("/weights", 0) == 0) {
    if (s.c > 1) {
      s.c = std::max(1, s.c * 3 / 4);
    } else if (s.k > 1) {
      s.k = std::max(1, s.k * 3 / 4);
    }
    return;
  }
  if (s.wino) {
    if (s.ow4 == 8 && s.oh4 == 8) {
      s.c = std::max(1, s.c * 3 / 4);
    } else if (s.ow4 >= s.oh4) {
      s.ow4 -= 4;
    } else {
      s.oh4 -= 4;
    }
    s.wino_input(0, 0);
    return;
  }
  const bool can_w = s.w > s.min_w(), can_h = s.h > s.min_h();
  if (!can_w && !can_h) {
    if (s.c > 1) {
      s.c = std::max(1, s.c * 3 / 4);
    } else if (s.dx > 1 || s.dy > 1) {
      (s.dx >= s.dy ? s.dx : s.dy)--;
    } else {
      (s.s >= s.r ? s.s : s.r) = std::max(1, (s.s >= s.r ? s.s : s.r) - 1);
    }
    return;
  }
  const bool take_w = can_w && (!can_h || s.w * (d.chance(0.5) ? 1 : 2) >= s.h);
  if (take_w) {
    s.w = std::max(s.min_w(), s.w - std::max(1, s.w / 8));
  } else {
    s.h = std::max(s.min_h(), s.h - std::max(1, s.h / 8));
  }
}

// A conv layer document's header: unit, configuration, name, seed, stall.
ojson conv_header(const HwConfig& hw, const RandomLayer& L) {
  ojson doc = ojson::object();
  doc["unit"] = "conv";
  doc["config"] = hw.name;
  doc["name"] = L.name;
  doc["seed"] = L.seed;
  doc["stall"] = L.stall;
  return doc;
}

// Compressed weights (docs/CDMA_MODES.md §2, nv_full): 1 in 10 direct or image layers (every
// one with --focus sparse), neither Winograd nor W-fold, a stream of its own (the other draws stay
// as they were): the weights become explicit values in [wmin, wmax], each zero with a drawn
// probability (0..100 %, the ends 1 in 8 each), at least one non-zero (the compiler refuses an
// all-zero stream), and are compressed. Dropped when the compiler refuses the layer compressed
// (e.g. the largest packed group beyond the banks beside bank 15) or above 200,000 weights.
void draw_sparse(const HwConfig& hw, RandomLayer& L, int64_t wmin, int64_t wmax, int channels, std::string& feat) {
  if (!golden::has_batch_and_compression(hw) || L.doc.value("mode", "") == "winograd" || L.doc.contains("wfold")) return;
  Rng rng = Rng::derive(L.seed, "sparse");
  Draw d{rng};
  if (L.focus == "splith" || (L.focus != "sparse" && !d.chance(0.1))) return;  // compressed: one band
  const ojson& wt = L.doc["weights"];
  const int64_t n = wt["k"].get<int64_t>() * wt["r"].get<int64_t>() * wt["s"].get<int64_t>() * channels;
  if (n > 200000) return;  // the values go into the layer's JSON: larger kernels stay uncompressed
  const int pick = d.i(0, 7);
  const double zero = pick == 0 ? 0.0 : pick == 1 ? 1.0 : d.i(0, 100) / 100.0;
  ojson values = ojson::array();
  int64_t nonzero = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = 0;
    if (!d.chance(zero)) {
      v = d.range(wmin, wmax);
      if (v == 0) v = wmax != 0 ? wmax : wmin;
    }
    nonzero += v != 0;
    values.push_back(v);
  }
  if (nonzero == 0) values[static_cast<std::size_t>(d.i(0, static_cast<int>(n - 1)))] = wmax != 0 ? wmax : wmin;
  ojson with = L.doc;
  with["weights"]["compressed"] = true;
  with["weights"]["data"] = ojson{{"values", values}};
  bool cbuf = false;
  std::string where;
  int bands = 1;
  golden::ConvConfig c;
  if (!try_compile_conv(L, with, cbuf, where, &bands, &c).empty() || bands != 1) return;
  // The RTL's input rows beside the largest kernel group's banks (at most its
  // uncompressed bytes + 128) and bank 15, else the RTL device would refuse it (no Split-H for
  // compressed layers, docs/CDMA_MODES.md §4); the mask bits of a group within bank 15.
  {
    const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
    const int64_t bank_bytes = int64_t{cb.entries_per_bank} * cb.entry_bytes;
    const int64_t group = int64_t{std::min(c.kernels, c.atomic_k)} * golden::conv_derived(c, hw).byte_per_kernel;
    if (engines::rtl_data_banks(c, hw) + (group + 128 + bank_bytes - 1) / bank_bytes > cb.banks - 1) return;
    // a whole kernel group's mask bits (ATOMIC_K kernels, also where K is smaller: the golden
    // model's rule) and one entry within bank 15 (§5.3; the compiler does not check it)
    const int64_t bpe = c.bpe();
    const int64_t full = int64_t{c.atomic_k} * golden::conv_derived(c, hw).byte_per_kernel / bpe;
    if ((full + 7) / 8 + cb.entry_bytes > bank_bytes) return;
  }
  L.doc = with;
  feat += fmt::format(" compressed {}%", static_cast<int>(100.0 * static_cast<double>(std::max<int64_t>(nonzero, 1)) / static_cast<double>(n) + 0.5));
}

// An image layer's kernel and pads (fit_image's shrink limits).
struct ImageKernel {
  int r, s, pl, pr, pt, pb;
};

// An image layer's geometry: kernels up to 7x7 (mostly up to 4x4), pads below the kernel, W up to
// `wmax` (mostly up to 48), H up to 24, strides up to 4, up to 48 kernels.
struct ImageShape {
  ImageKernel k;
  int w, h, sx, sy, kernels;
};
ImageShape draw_image_shape(Draw& d, int wmax) {
  ImageShape g{};
  g.k.s = d.chance(0.8) ? d.i(1, 4) : d.i(5, 7);
  g.k.r = d.chance(0.8) ? d.i(1, 4) : d.i(5, 7);
  const auto pad = [&](int k) { return d.chance(0.5) ? 0 : d.i(0, k - 1); };
  g.k.pl = pad(g.k.s);
  g.k.pr = pad(g.k.s);
  g.k.pt = pad(g.k.r);
  g.k.pb = pad(g.k.r);
  g.w = std::max(d.chance(0.85) ? d.log_i(1, 48) : d.log_i(49, wmax), g.k.s - g.k.pl - g.k.pr);
  g.h = std::max(d.log_i(1, 24), g.k.r - g.k.pt - g.k.pb);
  g.sx = d.chance(0.6) ? 1 : d.i(2, 4);
  g.sy = d.chance(0.6) ? 1 : d.i(2, 4);
  g.kernels = d.chance(0.7) ? d.log_i(1, 16) : d.i(17, 48);
  return g;
}

// Puts the layer `make(in)` builds into L.doc, the image W x H shrunk (fewer lines, then
// narrower, never below the kernel's extent) until the conv compiler takes it; at most 20 tries.
template <class Make>
void fit_image(RandomLayer& L, ojson& in, int& W, int& H, const ImageKernel& k, Make make) {
  for (int attempt = 0;; ++attempt) {
    L.doc = make(in);
    bool cbuf = false;
    std::string where;
    if (try_compile_conv(L, L.doc, cbuf, where).empty() || attempt >= 20) return;
    if (H > k.r) {
      H = std::max(k.r - k.pt - k.pb, std::max(1, H / 2));
    } else {
      W = std::max(k.s - k.pl - k.pr, std::max(1, W / 2));
    }
    in["w"] = W;
    in["h"] = H;
    ++L.resized;
  }
}

// Channel post-extension (nv_full, docs/IMAGE_INPUT.md §7), integer and fp16 image layers alike:
// E kernel rows per atom where C' = S x C and the X stride x C stay within 64 / E.
void draw_post_extension(const HwConfig& hw, Draw& d, int S, int C, int sx, ojson& doc, std::string& feat) {
  int post = 1;
  if (hw.winograd && d.chance(0.4)) {
    for (const int e : {4, 2}) {
      if (post == 1 && S * C <= 64 / e && sx * C <= 64 / e && d.chance(0.6)) post = e;
    }
  }
  if (post != 1) {
    doc["post_extension"] = post;
    feat += fmt::format(" post-extension {}", post);
  }
}

// An image-input layer (docs/IMAGE_INPUT.md): any integer pixel format the configuration has
// (the 16-bit ones on nv_full only), signed or unsigned components, the converter with an offset
// or per-channel means (or raw), 8-bit input into int16 processing and back, PIXEL_X_OFFSET,
// line strides with gaps, left / right and top / bottom pad values, kernels up to 7x7 (C' up to
// 28), strides up to 4, up to 48 kernels; channel post-extension 2 / 4 on nv_full.
RandomLayer gen_image(const HwConfig& hw, RandomLayer L, Draw& d) {
  std::vector<int> codes = {0, 12, 13, 14, 15, 16, 17, 18, 19, 26, 27, 28, 29};
  if (hw.int16) codes.insert(codes.end(), {1, 2, 3, 4, 6, 7, 9, 10, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35});
  const golden::PixelFormat& f = *golden::pixel_format(codes[static_cast<std::size_t>(d.i(0, static_cast<int>(codes.size()) - 1))]);
  const bool in16 = f.container_bits() == 16;
  bool int16 = in16, cvt = d.chance(0.6);
  if (hw.int16 && d.chance(0.25)) {
    int16 = !in16;
    cvt = true;
  }
  const int atom = hw.atom_bytes, C = f.channels;
  ImageShape g = draw_image_shape(d, 300);
  const int S = g.k.s, R = g.k.r, pl = g.k.pl, pr = g.k.pr, pt = g.k.pt, pb = g.k.pb, sx = g.sx, sy = g.sy, K = g.kernels;
  int &W = g.w, &H = g.h;
  const bool sgn = d.chance(0.5);
  const int o = d.chance(0.3) ? d.i(0, atom / f.bpp0 - 1) : 0;
  const int gap0 = d.chance(0.25) ? d.i(1, 3) : 0, gap1 = d.chance(0.25) ? d.i(1, 3) : 0;
  const int64_t vmax = int16 ? 32767 : 127, vmin = -vmax - 1;
  std::string feat = fmt::format("image {} {}{}{}", f.name, sgn ? "signed" : "unsigned", int16 ? " int16" : " int8",
                                 int16 != in16 ? " (converted precision)" : "");
  ojson in = ojson::object();
  in["format"] = f.name;
  in["w"] = W;
  in["h"] = H;
  in["data"] = ojson{{"random", ojson::object()}};
  if (sgn) in["sign"] = "signed";
  if (o != 0) {
    in["x_offset"] = o;
    feat += fmt::format(" x-offset {}", o);
  }
  double lg_d = f.container_bits() - 1.0;
  if (cvt) {
    const int scale = d.chance(0.2) ? d.i(-64, 64) : d.i(1, 64);
    const int sc = scale == 0 ? 1 : scale;
    // aim the converted values at the PROC range, sometimes beyond it (saturation)
    const int trunc = std::clamp(iround(f.container_bits() + std::log2(std::abs(sc)) - (int16 ? 15 : 7)) + d.i(-2, 2), 0, 40);
    ojson cv{{"scale", sc}, {"truncate", trunc}};
    if (d.chance(0.4)) {
      const int64_t mmax = int64_t{1} << (f.container_bits() - 1);
      ojson mean = ojson::array();
      for (int c = 0; c < 4; ++c) mean.push_back(d.range(-mmax, std::min<int64_t>(32767, mmax - 1 + (sgn ? 0 : mmax))));
      in["mean"] = mean;
      feat += " mean";
    } else {
      const int64_t omax = int64_t{1} << (f.container_bits() - 1);
      cv["offset"] = d.range(-omax, omax - 1);
      feat += " cvt";
    }
    in["converter"] = cv;
    lg_d = std::min(lg_d + std::log2(std::abs(sc)) - trunc, int16 ? 14.0 : 6.0);
  } else {
    feat += " raw";
  }
  ojson doc = conv_header(hw, L);
  if (int16 != in16) doc["precision"] = int16 ? "int16" : "int8";
  const auto wr = value_range(d, vmin, vmax);
  ojson padding = ojson::object();
  if (pl != 0) padding["left"] = pl;
  if (pr != 0) padding["right"] = pr;
  if (pt != 0) padding["top"] = pt;
  if (pb != 0) padding["bottom"] = pb;
  if (d.chance(0.5)) padding["value"] = d.range(vmin, vmax);
  if (d.chance(0.3)) padding["top_bottom_value"] = d.range(vmin, vmax);
  const double taps = static_cast<double>(C) * R * S;
  const int clip = std::clamp(iround(0.5 * std::log2(taps) + lg_d + lg_sd(wr.first, wr.second) - d.i(4, 14)), 0, 16);
  draw_post_extension(hw, d, S, C, sx, doc, feat);
  fit_image(L, in, W, H, g.k, [&](ojson& im) {
    if (gap0 != 0) {
      im["line_stride"] = ((int64_t{o} + W) * f.bpp0 + atom - 1) / atom * atom + int64_t{gap0} * atom;
    }
    if (gap1 != 0 && f.planes == 2) {
      im["uv_line_stride"] = ((int64_t{o} * f.bpp1) % atom + int64_t{W} * f.bpp1 + atom - 1) / atom * atom + int64_t{gap1} * atom;
    }
    ojson body = doc;
    body["input"] = im;
    body["weights"] = ojson{{"k", K}, {"r", R}, {"s", S}, {"data", random_values(wr.first, wr.second, vmin, vmax)}};
    if (!padding.empty()) body["padding"] = padding;
    if (sx != 1 || sy != 1) body["stride"] = ojson{{"x", sx}, {"y", sy}};
    if (clip != 0) body["clip"] = clip;
    return body;
  });
  if (sx != 1 || sy != 1) feat += fmt::format(" stride {}x{}", sx, sy);
  if (gap0 + gap1 != 0) feat += " line-gaps";
  draw_sparse(hw, L, wr.first, wr.second, C, feat);
  L.features = fmt::format("{} {}x{}x{} k{} {}x{}", feat, W, H, C, K, R, S);
  return L;
}

// `doc` compiled by the conv compiler in one band (no Split-H): its configuration, else none.
std::optional<golden::ConvConfig> one_band_config(const RandomLayer& L, const ojson& doc) {
  bool cbuf = false;
  std::string where;
  int bands = 1;
  if (!try_compile_conv(L, doc, cbuf, where, &bands).empty() || bands != 1) return std::nullopt;
  const auto jd = parse_json_text(L.name + ".json", doc.dump());
  LayerHeader h;
  h.file = jd->file;
  h.unit = "conv";
  h.name = L.name;
  h.config = L.config;
  return engines::compile_conv_layer(h, JsonNode::root(jd), false).conv;
}

// Under a bandwidth limit the bytes moved can outlast the runner's 10M-cycle wait for an
// interrupt, and on nv_full's model a few million cycles are minutes of wall time: the drawn
// bandwidth doubles until the layer's bytes pass in 4M cycles. Only the bandwidth changes, so
// no other draw moves.
constexpr double kMaxMemoryCycles = 4e6;
void widen_bandwidth(RandomLayer& L, double bytes) {
  if (L.mem.unlimited()) return;
  while (bytes / L.mem.bandwidth > kMaxMemoryCycles) L.mem.bandwidth *= 2;
}

// The bytes an integer conv layer of shape `s` moves: N input and output cubes in whole atoms and
// its weights, `weight_cols` elements per kernel row (S x C; W-fold's folded row), for
// widen_bandwidth.
double conv_shape_bytes(const HwConfig& hw, const ConvShape& s, bool out16, double n, double weight_cols) {
  const double bpe = s.int16 ? 2.0 : 1.0, obpe = out16 ? 2.0 : 1.0, atom = hw.atom_bytes;
  const double ow = (s.w + s.pl + s.pr - s.ext_x()) / s.sx + 1, oh = (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1;
  return n * (double(s.w) * s.h * std::ceil(s.c * bpe / atom) * atom + ow * oh * std::ceil(s.k * obpe / atom) * atom) +
         double(s.k) * s.r * weight_cols * bpe;
}

// An upper bound of the bytes an fp16 layer document moves (2-byte elements; an image's pixels
// at most 8 bytes; each output dimension at most the padded input's; an EW operand read as
// large as the output), for widen_bandwidth.
double fp16_layer_bytes_bound(const HwConfig& hw, const ojson& doc) {
  const auto get = [](const ojson& node, const char* key, int def) {
    return node.contains(key) && node[key].is_number_integer() ? node[key].get<int>() : def;
  };
  const ojson& in = doc["input"];
  const ojson& wt = doc["weights"];
  const ojson pad = doc.contains("padding") ? doc["padding"] : ojson::object();
  const double atom = hw.atom_bytes;
  const double n = doc.contains("batch") ? (doc["batch"].is_object() ? get(doc["batch"], "n", 1) : doc["batch"].get<int>()) : 1;
  const double w = get(in, "w", 1), h = get(in, "h", 1), c = get(in, "c", 4), k = get(wt, "k", 1);
  const bool image = in.contains("format");
  const double in_bytes = image ? (w + atom) * 8.0 * h : w * h * std::ceil(c * 2 / atom) * atom;
  const double ow = w + get(pad, "left", 0) + get(pad, "right", 0), oh = h + get(pad, "top", 0) + get(pad, "bottom", 0);
  const double out_bytes = ow * oh * std::ceil(k * 2 / atom) * atom;
  const double weights = k * get(wt, "r", 1) * get(wt, "s", 1) * c * 2;
  return n * (in_bytes + out_bytes * (doc.contains("ew") ? 2 : 1)) + weights;
}

// Batches (docs/CDMA_MODES.md §1, nv_full): 1 in 8 direct layers (every one with --focus batch),
// neither Winograd nor W-fold nor image input nor a pool post-op (§4 refusals), a stream of its
// own (the other draws stay as they were): N in 1..32 (small N more often), halved until the
// compiler takes the layer in one band and this RTL's rows of all N cubes fit beside one
// kernel group (else the RTL device would refuse it: no Split-H for batched layers, §4). Dropped
// when even N = 1 does not. The drawn bandwidth is widened for the N cubes in and out.
void draw_batch(const HwConfig& hw, RandomLayer& L, const ConvShape& s, bool out16, std::string& feat) {
  if (!golden::has_batch_and_compression(hw) || s.wino || L.doc.contains("wfold") || L.doc.contains("pool")) return;
  // No conversion with batches (NVDLA's write DMA has no batch walk in its 8 -> 16 mode).
  if (out16 != s.int16) return;
  Rng rng = Rng::derive(L.seed, "batch");
  Draw d{rng};
  if (L.focus == "splith" || (L.focus != "batch" && !d.chance(0.125))) return;  // batches: one band
  int n = d.chance(0.3) ? d.i(1, 4) : d.log_i(1, 32);
  // A strided output keeps CACC's and SDP's 64-byte pairs in step: the surface stride minus H' x
  // line stride a multiple of 64 (golden::batch_pairing_problem; CACC's copy is SDP's).
  if (L.doc.contains("output") && L.doc["output"].contains("surface_stride") && L.doc["output"].contains("line_stride")) {
    ojson& o = L.doc["output"];
    const int64_t oh = (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1;
    const int64_t off = (o["surface_stride"].get<int64_t>() - oh * o["line_stride"].get<int64_t>()) % 64;
    if (off != 0) o["surface_stride"] = o["surface_stride"].get<int64_t>() + 64 - off;
  }
  for (; n >= 1; n /= 2) {
    ojson with = L.doc;
    with["batch"] = n;
    const std::optional<golden::ConvConfig> c = one_band_config(L, with);
    if (!c || engines::rtl_data_banks(*c, hw) + golden::conv_derived(*c, hw).weight_banks_min > golden::cbuf_geometry(hw).banks) {
      continue;
    }
    L.doc = with;
    break;
  }
  if (n < 1) return;
  widen_bandwidth(L, conv_shape_bytes(hw, s, out16, n, double(s.s) * s.c));
  feat += fmt::format(" batch {}", n);
}

// Half the time a pad value other than +0: -0, NaN, the infinities, the smallest denormal, the
// largest finite, and two plain values.
void draw_fp16_pad_value(Draw& d, ojson& pad, std::string& feat) {
  if (!d.chance(0.5)) return;
  static constexpr const char* kPads[] = {"0x8000", "nan", "inf", "-inf", "0x0001", "65504", "-1.5", "0.25"};
  const std::string v = kPads[d.i(0, 7)];
  if (v == "65504" || v == "-1.5" || v == "0.25") {
    pad["value"] = std::stod(v);
  } else {
    pad["value"] = v;
  }
  feat += " pad " + v;
}

// fp16 image input (nv_full; a fifth of `--focus fp16`, a fifth of `--focus image` there): an
// fp16 pixel format (T_R16_F, T_A16B16G16R16_F, T_A16Y16U16V16_F: fp16 values in the five
// regimes, NaN and Inf included, passing the converter unchanged) or an integer format through
// the converter into fp16 (the 17-bit result rounded to fp16, sometimes saturating); PIXEL_X_OFFSET,
// line gaps, left / right and top / bottom pads of any fp16 value, kernels up to 7x7, strides up
// to 4, channel post-extension by 2 or 4 rows where C' and the X stride allow (drawn last, so the
// other draws are those of earlier sessions' seeds). Too large for CBUF: fewer lines, then
// narrower.
RandomLayer gen_image_fp16(const HwConfig& hw, RandomLayer L, Draw& d) {
  static constexpr int kFp16Formats[] = {5, 8, 11};
  static constexpr int kIntFormats[] = {0, 12, 13, 14, 15, 16, 17, 18, 19, 26, 27, 3, 4, 6, 9, 20, 22};
  const bool f16_fmt = d.chance(0.5);
  const int code = f16_fmt ? kFp16Formats[d.i(0, 2)] : kIntFormats[d.i(0, 16)];
  const golden::PixelFormat& f = *golden::pixel_format(code);
  const int atom = hw.atom_bytes, C = f.channels;
  ImageShape g = draw_image_shape(d, 200);
  const int S = g.k.s, R = g.k.r, pl = g.k.pl, pr = g.k.pr, pt = g.k.pt, pb = g.k.pb, sx = g.sx, sy = g.sy, K = g.kernels;
  int &W = g.w, &H = g.h;
  const int o = d.chance(0.3) ? d.i(0, atom / f.bpp0 - 1) : 0;
  const int gap0 = d.chance(0.25) ? d.i(1, 3) : 0;
  std::string feat = fmt::format("fp16 image {}", f.name);
  ojson in = ojson::object();
  in["format"] = f.name;
  in["w"] = W;
  in["h"] = H;
  if (f16_fmt) {
    draw_fp16_data(d, in["data"]);
  } else {
    const bool sgn = d.chance(0.5);
    in["data"] = ojson{{"random", ojson::object()}};
    if (sgn) in["sign"] = "signed";
    // (x - offset or mean) x scale >> truncate: aimed at [2^-2, 2^14] or so, sometimes beyond the
    // 17 bits (saturation) or down to a few integers
    const int scale = d.chance(0.2) ? d.i(-2000, 2000) : d.i(1, 64);
    const int sc = scale == 0 ? 1 : scale;
    const int trunc = d.chance(0.7) ? d.i(0, 6) : d.i(7, 20);
    ojson cv{{"scale", sc}, {"truncate", trunc}};
    const int64_t omax = int64_t{1} << (f.container_bits() - 1);
    if (d.chance(0.4)) {
      ojson mean = ojson::array();
      for (int c = 0; c < 4; ++c) mean.push_back(d.range(-omax, omax - 1));
      in["mean"] = mean;
      feat += " mean";
    } else {
      cv["offset"] = d.range(-omax, omax - 1);
    }
    in["converter"] = cv;
    feat += fmt::format(" {} cvt scale {} >> {}", sgn ? "signed" : "unsigned", sc, trunc);
  }
  if (o != 0) {
    in["x_offset"] = o;
    feat += fmt::format(" x-offset {}", o);
  }
  ojson doc = conv_header(hw, L);
  doc["precision"] = "fp16";
  ojson padding = ojson::object();
  if (pl != 0) padding["left"] = pl;
  if (pr != 0) padding["right"] = pr;
  if (pt != 0) padding["top"] = pt;
  if (pb != 0) padding["bottom"] = pb;
  draw_fp16_pad_value(d, padding, feat);
  if (d.chance(0.3)) {
    ojson tb = ojson::object();
    draw_fp16_pad_value(d, tb, feat);
    if (tb.contains("value")) padding["top_bottom_value"] = tb["value"];
  }
  ojson wdata;
  draw_fp16_data(d, wdata);
  draw_post_extension(hw, d, S, C, sx, doc, feat);  // drawn last: earlier seeds' other draws stay
  fit_image(L, in, W, H, g.k, [&](ojson& im) {
    if (gap0 != 0) im["line_stride"] = ((int64_t{o} + W) * f.bpp0 + atom - 1) / atom * atom + int64_t{gap0} * atom;
    ojson body = doc;
    body["input"] = im;
    body["weights"] = ojson{{"k", K}, {"r", R}, {"s", S}, {"data", wdata}};
    if (!padding.empty()) body["padding"] = padding;
    if (sx != 1 || sy != 1) body["stride"] = ojson{{"x", sx}, {"y", sy}};
    return body;
  });
  if (sx != 1 || sy != 1) feat += fmt::format(" stride {}x{}", sx, sy);
  if (gap0 != 0) feat += " line-gaps";
  L.features = fmt::format("{} {}x{}x{} k{} {}x{}", feat, W, H, C, K, R, S);
  widen_bandwidth(L, fp16_layer_bytes_bound(hw, L.doc));
  return L;
}

// fp16 Winograd (a quarter of `--focus fp16`, and of `--focus winograd` on nv_full): NVDLA's
// Winograd shapes (draw_wino_shape), fp16 data in the five regimes, pads of any fp16 value, weights
// whose transform U = G g G^T stays finite (the compiler refuses a finite kernel whose U overflows
// fp16), fp16 or int16 out, SDP's fp16 BS / BN stages. Too large for CBUF (Winograd has no
// Split-H): fewer channels, then a smaller output.
RandomLayer gen_conv_wino_fp16(const HwConfig& hw, RandomLayer L, Draw& d) {
  std::string feat = "fp16 winograd";
  ConvShape s = draw_wino_shape(d, true, feat);
  ojson doc = conv_header(hw, L);
  doc["precision"] = "fp16";
  doc["mode"] = "winograd";
  ojson data, weights;
  draw_fp16_data(d, data);
  draw_fp16_data(d, weights);
  if (weights["random"]["max"] == 65504) weights = ojson{{"random", {{"min", -4096}, {"max", 4096}, {"specials", 0.01}}}};
  ojson pad{{"left", s.pl}, {"right", s.pr}, {"top", s.pt}, {"bottom", s.pb}};
  draw_fp16_pad_value(d, pad, feat);
  const bool int16_out = d.chance(0.2);
  const bool bs = d.chance(0.5), bn = d.chance(0.3);
  ojson stages = ojson::object();
  if (bs) draw_fp16_x_stage(d, "bs", stages, feat);
  if (bn) draw_fp16_x_stage(d, "bn", stages, feat);
  const auto render = [&] {
    s.wino_input(0, 0);
    ojson doc2 = doc;
    doc2["input"] = ojson{{"w", s.w}, {"h", s.h}, {"c", s.c}, {"data", data}};
    doc2["weights"] = ojson{{"k", s.k}, {"r", s.r}, {"s", s.s}, {"data", weights}};
    doc2["padding"] = pad;
    if (s.sx != 1 || s.sy != 1) doc2["stride"] = ojson{{"x", s.sx}, {"y", s.sy}};
    if (int16_out) doc2["output"] = ojson{{"precision", "int16"}};
    for (const auto& [key, v] : stages.items()) doc2[key] = v;
    return doc2;
  };
  L.doc = render();
  bool cbuf = false;
  std::string where;
  while (!try_compile_conv(L, L.doc, cbuf, where).empty() && cbuf && (s.c > 1 || s.ow4 > 8 || s.oh4 > 8)) {
    if (s.c > 1) {
      s.c = std::max(1, s.c / 2);
    } else {
      s.ow4 = std::max(8, s.ow4 / 8 * 4);
      s.oh4 = std::max(8, s.oh4 / 8 * 4);
    }
    L.doc = render();
    ++L.resized;
  }
  if (int16_out) feat += " int16-out";
  if (s.sx != 1 || s.sy != 1) feat += fmt::format(" stride {}x{}", s.sx, s.sy);
  L.features = fmt::format("{} {}x{}x{} k{} {}x{}", feat, s.w, s.h, s.c, s.k, s.r, s.s);
  widen_bandwidth(L, fp16_layer_bytes_bound(hw, L.doc));
  return L;
}

// fp16 (--focus fp16, nv_full; docs/FP16.md): direct feature-input layers over the space the
// golden model runs in fp16: shapes across channel blocks (64) and kernel groups (16), kernels up
// to 7x7, strides, dilations, pads whose value is any fp16 (zeros, NaNs and infinities included),
// batches, fp16 or int16 output, SDP's BS / BN / EW stages (LUT included), and data in one of five regimes, with
// specials sprinkled in.
// Run on the RTL against golden; --judge cmod adds NVIDIA's C model.
RandomLayer gen_conv_fp16(const HwConfig& hw, RandomLayer L, Draw& d) {
  // Winograd in a quarter of the layers (a stream of its own: the direct draws stay as they were),
  // image input in a fifth of the others (another).
  {
    Rng rng = Rng::derive(L.seed, "fp16-winograd");
    Draw dw{rng};
    if (hw.winograd && dw.chance(0.25)) return gen_conv_wino_fp16(hw, std::move(L), dw);
  }
  {
    Rng rng = Rng::derive(L.seed, "fp16-image");
    Draw di{rng};
    if (di.chance(0.2)) return gen_image_fp16(hw, std::move(L), di);
  }
  const int w = d.log_i(1, 24), h = d.log_i(1, 24), c = d.log_i(1, 200), k = d.log_i(1, 48);
  const auto axis = [&](int size, int& taps, int& dil, int& stride, int& lo, int& hi) {
    taps = d.log_i(1, 7);
    dil = d.chance(0.25) ? d.i(2, 4) : 1;
    stride = d.chance(0.3) ? d.i(2, 4) : 1;
    lo = d.chance(0.5) ? d.i(0, 3) : 0;
    hi = d.chance(0.5) ? d.i(0, 3) : 0;
    for (;;) {
      const int extent = (taps - 1) * dil + 1;
      if (extent <= size + lo + hi && hi < extent) return;
      if (dil > 1) {
        --dil;
      } else if (taps > 1) {
        --taps;
      } else {
        hi = 0;
      }
    }
  };
  int r = 1, s = 1, dx = 1, dy = 1, sx = 1, sy = 1, pl = 0, pr = 0, pt = 0, pb = 0;
  axis(w, s, dx, sx, pl, pr);
  axis(h, r, dy, sy, pt, pb);
  const auto data = [&](ojson& node) { draw_fp16_data(d, node); };
  ojson doc = conv_header(hw, L);
  doc["precision"] = "fp16";
  doc["input"] = ojson{{"w", w}, {"h", h}, {"c", c}};
  data(doc["input"]["data"]);
  doc["weights"] = ojson{{"k", k}, {"r", r}, {"s", s}};
  data(doc["weights"]["data"]);
  std::string feat = "fp16";
  if (pl + pr + pt + pb > 0) {
    ojson pad{{"left", pl}, {"right", pr}, {"top", pt}, {"bottom", pb}};
    draw_fp16_pad_value(d, pad, feat);
    doc["padding"] = pad;
  }
  if (sx != 1 || sy != 1) doc["stride"] = ojson{{"x", sx}, {"y", sy}};
  if (dx != 1 || dy != 1) doc["dilation"] = ojson{{"x", dx}, {"y", dy}};
  const int n = d.chance(0.1) ? d.i(2, 4) : 1;
  if (n > 1) doc["batch"] = ojson{{"n", n}};
  if (n == 1 && d.chance(0.2)) {
    doc["output"] = ojson{{"precision", "int16"}};
    feat += " int16-out";
  }
  if (d.chance(0.5)) draw_fp16_x_stage(d, "bs", doc, feat);
  if (d.chance(0.3)) draw_fp16_x_stage(d, "bn", doc, feat);
  draw_fp16_ew(L.seed, doc, feat);
  L.doc = doc;
  bool cbuf = false;
  std::string where;
  // Too large for CBUF even in Split-H bands: fewer channels until it fits (rare at these sizes).
  while (!try_compile_conv(L, L.doc, cbuf, where).empty() && cbuf && L.doc["input"]["c"].get<int>() > 1) {
    L.doc["input"]["c"] = std::max(1, L.doc["input"]["c"].get<int>() / 2);
    ++L.resized;
  }
  // Batches have no Split-H: N halves until the cubes fit beside one kernel group (as
  // draw_batch), else the RTL device would refuse the layer.
  while (L.doc.contains("batch")) {
    const std::optional<golden::ConvConfig> band = one_band_config(L, L.doc);
    if (band && engines::rtl_data_banks(*band, hw) + golden::conv_derived(*band, hw).weight_banks_min <=
                 golden::cbuf_geometry(hw).banks) {
      break;
    }
    const int half = L.doc["batch"]["n"].get<int>() / 2;
    if (half < 2) {
      L.doc.erase("batch");
    } else {
      L.doc["batch"]["n"] = half;
    }
    ++L.resized;
  }
  if (L.doc.contains("batch")) feat += fmt::format(" batch {}", L.doc["batch"]["n"].get<int>());
  // Compressed weights in a tenth (a stream of its own): small integers, exact in fp16, with a
  // drawn share of zeros (+0, which the compressor drops).
  draw_sparse(hw, L, -8, 8, L.doc["input"]["c"].get<int>(), feat);
  if (sx != 1 || sy != 1) feat += fmt::format(" stride {}x{}", sx, sy);
  if (dx != 1 || dy != 1) feat += fmt::format(" dilation {}x{}", dx, dy);
  L.features = fmt::format("{} {}x{}x{} k{} {}x{}", feat, w, h, L.doc["input"]["c"].get<int>(), k, r, s);
  widen_bandwidth(L, fp16_layer_bytes_bound(hw, L.doc));
  return L;
}

RandomLayer gen_conv(const HwConfig& hw, RandomLayer L, Draw& d) {
  if (L.focus == "fp16") return gen_conv_fp16(hw, std::move(L), d);
  {
    // Image input (1 in 8, every layer with --focus image): a stream of its own, so the draws of
    // the other layers stay as they were.
    Rng rng = Rng::derive(L.seed, "image");
    Draw di{rng};
    if (L.focus == "image" || ((L.focus.empty() || L.focus == "sparse") && di.chance(0.125))) {
      // fp16 in a fifth of `--focus image` on nv_full (a stream of its own)
      Rng rf = Rng::derive(L.seed, "image-fp16");
      Draw df{rf};
      if (L.focus == "image" && hw.supports(golden::Precision::Fp16) && df.chance(0.2)) {
        return gen_image_fp16(hw, std::move(L), df);
      }
      return gen_image(hw, std::move(L), di);
    }
  }
  if (L.focus == "winograd" && hw.supports(golden::Precision::Fp16)) {
    // fp16 in a fifth of the Winograd layers (a stream of its own)
    Rng rng = Rng::derive(L.seed, "winograd-fp16");
    Draw dw{rng};
    if (dw.chance(0.2)) return gen_conv_wino_fp16(hw, std::move(L), dw);
  }
  std::string feat;
  const bool int16 = hw.int16 && d.chance(0.3);
  const bool focus_wfold = L.focus == "wfold";
  const bool focus_sparse = L.focus == "sparse";  // compressed weights: neither Winograd nor W-fold
  const bool focus_batch = L.focus == "batch";  // batches: neither Winograd nor W-fold
  const bool focus_splith = L.focus == "splith";  // Split-H bands: direct (no Split-H in Winograd)
  const bool focus_wino = L.focus == "winograd";
  const bool wino = hw.winograd && (d.chance(0.15) || focus_wino) && !focus_wfold && !focus_sparse && !focus_batch &&
                    !focus_splith;
  ConvShape s = wino ? draw_wino_shape(d, int16, feat) : draw_direct_shape(d, hw, int16, feat, focus_splith);
  if (!focus_sparse && !focus_batch) draw_wfold(hw, s, L.seed, focus_wfold);  // a stream of its own: the draws below stay as they were
  const int64_t vmax = int16 ? 32767 : 127, vmin = -vmax - 1;
  feat = fmt::format("{}{}{}", wino ? "winograd" : "direct", int16 ? " int16" : " int8", feat);

  // Values: Winograd's exact scheme needs small data and weights (docs/WINOGRAD.md).
  // 40 % of Winograd layers leave the exact case: NVDLA's truncating weight scheme, PRA_TRUNCATE
  // 1..3, data the PRA clamps. The int64 reference does not judge those (the result is not the
  // direct convolution); cross mode does.
  std::pair<int64_t, int64_t> dr, wr;
  std::string scheme = "exact";
  int pra = 0;
  if (wino && d.chance(0.4)) {
    scheme = d.chance(0.5) ? "nvdla" : "exact";
    pra = d.i(0, 3);
    const int64_t wmax = scheme == "nvdla" ? (int16 ? 14000 : 56) : (int16 ? 3640 : 14);
    dr = value_range(d, vmin, vmax);
    wr = {-d.range(1, wmax), d.range(0, wmax)};
    feat += fmt::format(" {}-scheme pra{}", scheme, pra);
  } else if (wino) {
    const int64_t dmax = int16 ? (d.chance(0.5) ? 8191 : 127) : 31, wmax = int16 ? (d.chance(0.5) ? 3640 : 127) : 14;
    dr = {-dmax, dmax};
    wr = {-wmax, wmax};
  } else {
    dr = value_range(d, vmin, vmax);
    wr = value_range(d, vmin, vmax);
  }
  ojson rest = conv_header(hw, L);
  if (scheme != "exact") rest["wino_scheme"] = scheme;
  if (pra != 0) rest["pra_truncate"] = pra;
  ojson in = ojson::object();
  in["data"] = random_values(dr.first, dr.second, vmin, vmax);
  double lg_d = lg_sd(dr.first, dr.second);
  if (!wino && d.chance(0.15)) {
    const int scale = d.chance(0.2) ? d.i(-64, 64) : d.i(1, 64);
    const int sc = scale == 0 ? 1 : scale;
    const int trunc = std::clamp(iround(std::log2(std::abs(sc))) + d.i(-1, 2), 0, 63);
    in["converter"] = ojson{{"offset", d.i(-20, 20)}, {"scale", sc}, {"truncate", trunc}};
    lg_d = std::min(lg_d + std::log2(std::abs(sc)) - trunc, int16 ? 14.0 : 6.0);
    feat += " cvt";
  }
  rest["input"] = in;
  rest["weights"]["data"] = random_values(wr.first, wr.second, vmin, vmax);
  if (d.chance(0.5) && (s.pl + s.pr + s.pt + s.pb) > 0) {
    rest["padding"]["value"] = wino ? d.range(dr.first, dr.second) : d.range(vmin, vmax);
    feat += " pad-value";
  }

  // Clip: CACC's output a little below the SDP target, sometimes far above (saturation) or far
  // below (clip 0 on small values).
  const double taps = std::max(1.0, static_cast<double>(s.c) * s.r * s.s);
  const double m_acc = 0.5 * std::log2(taps) + lg_d + lg_sd(wr.first, wr.second);
  // Winograd: the exact scheme writes clip + 2 - PRA_TRUNCATE (0..16), NVDLA's clip - PRA_TRUNCATE.
  const int clip_min = !wino ? 0 : scheme == "exact" ? std::max(0, pra - 2) : pra;
  const int clip_max = !wino ? 16 : scheme == "exact" ? std::min(16, 14 + pra) : 16;
  const double want = d.chance(0.1) ? d.i(-6, 0) : d.i(4, 14);
  const int clip = std::clamp(iround(m_acc - want), clip_min, clip_max);
  if (clip != 0) rest["clip"] = clip;
  double m = m_acc - clip;

  // SDP post-ops.
  bool lut = false, eql = false;
  if (d.chance(0.45)) {
    std::string pf;
    m = x_stages(d, rest, m, pf, 0.6, 0.4, int16);
    if (d.chance(0.35)) {
      ojson st = ojson::object();
      m = y_stage(d, st, m, PostOps{!wino, false, int16}, pf, lut, eql);
      if (!st.empty()) rest["ew"] = st;
    }
    feat += pf;
  }
  // Only int8 -> int16 converts on the fly: NVDLA converts int16 -> int8 only in an SDP layer
  // reading from memory (docs/SDP.md "Precisions"); the draw is made either way (a stable stream).
  bool out16 = int16;
  if (hw.int16 && d.chance(0.2) && !int16) out16 = true;
  if (wino && !int16) out16 = false;  // no int8 -> int16 in Winograd mode
  const bool strided_out = output_block(d, rest, out16, m, out16 != int16);
  if (rest["output"].contains("precision") && out16 != int16) feat += out16 ? " out-int16" : " out-int8";
  if (d.chance(0.1)) rest["perf"] = ojson{{"dma", d.chance(0.5)}, {"lut", d.chance(0.5)}, {"sat", d.chance(0.5)}};

  const int gap_line = d.i(0, 3), gap_surf = d.i(0, 5);
  for (int attempt = 0;; ++attempt) {
    ojson r = rest;
    legalize(s, hw);
    // A cost cap: at most kMaxAtomicOps atomic operations (one per cycle), so every layer ends
    // well within the runner's 10M-cycle wait for an interrupt and a campaign stays cheap; the
    // kernels go first, then the input.
    while (conv_atomic_ops(s, hw) > kMaxAtomicOps && attempt < 200) {
      if (s.k > 1) {
        s.k = std::max(1, s.k / 2);
      } else {
        shrink_conv(s, "/input", d);
        legalize(s, hw);
      }
      ++attempt;
    }
    if (strided_out) {
      output_strides(r["output"], hw.atom_bytes, (s.w + s.pl + s.pr - s.ext_x()) / s.sx + 1,
                     (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1, gap_line, gap_surf);
    }
    L.doc = render_conv(s, r);
    bool cbuf = false;
    std::string where;
    int bands = 1;
    bool shared = false;
    std::string err = try_compile_conv(L, L.doc, cbuf, where, &bands, nullptr, &shared);
    if (!err.empty() && !cbuf && where == "/wfold") {  // e.g. W' x S' beyond CSC's width: unfolded
      s.wfold = focus_wfold ? -1 : 0;  // "auto" keeps such a layer unfolded by its own rule
      L.doc = render_conv(s, r);
      err = try_compile_conv(L, L.doc, cbuf, where, &bands, nullptr, &shared);
    }
    if (err.empty() && bands > 1) feat += fmt::format(" split-h {}", bands);  // larger than CBUF
    if (err.empty() && shared) feat += " weight-reuse";  // the bands share the weights in CBUF
    if (err.empty() || !cbuf || attempt >= 200) break;
    shrink_conv(s, where, d);
    ++L.resized;
  }
  // No longer a longer watchdog for large kernels: the harness counts CSC->CMAC operands as progress
  // (docs/CLI.md "Watchdog"), so a stripe's quiet computation is not a hang.
  // widen_bandwidth (seed 60 on nv_large: layer 937, 1.25 MB of 11x11x101x102 int8 weights, and
  // layer 4509, a 1x7273x52 input and its output, each at 1/8 byte per cycle, outlasted the wait).
  {
    const int ws = s.wino ? 0 : effective_ws(s, hw);  // W-fold: the folded weights, R x S' x C' a kernel
    const double wcols = ws != 0 ? std::ceil(double(s.s) / ws) * std::ceil(double(s.c) / (hw.atomic_c / ws)) * hw.atomic_c
                                 : double(s.s) * s.c;
    widen_bandwidth(L, conv_shape_bytes(hw, s, out16, 1, wcols));
  }
  // A pool post-op (conv -> SDP -> PDP on the fly) on direct layers with a packed output: any
  // method, kernel up to 8 (at most the output), pads below the kernel with a pad value, strides
  // up to 16 (the width's a divisor of W' + pads - kernel: NVDLA uses every column). Dropped when
  // the compiler refuses it (a Split-H layer, a pooled width beyond PDP's line buffer).
  if (!s.wino && !strided_out && !eql && d.chance(0.2) && L.focus != "batch") {
    const int ow = (s.w + s.pl + s.pr - s.ext_x()) / s.sx + 1, oh = (s.h + s.pt + s.pb - s.ext_y()) / s.sy + 1;
    static constexpr const char* kMethods[] = {"max", "min", "average"};
    const std::string method = kMethods[d.i(0, 2)];
    const int kw = d.i(1, std::min(8, ow)), kh = d.i(1, std::min(8, oh));
    const auto pad = [&](int k) { return d.chance(0.3) ? d.i(0, k - 1) : 0; };
    const int pl = pad(kw), pr = pad(kw), pt = pad(kh), pb = pad(kh);
    std::vector<int> strides;
    for (int sw = 1; sw <= 16; ++sw) {
      if ((ow + pl + pr - kw) % sw == 0) strides.push_back(sw);
    }
    const int sw = strides[static_cast<std::size_t>(d.i(0, static_cast<int>(strides.size()) - 1))];
    const int sh = d.chance(0.5) ? kh : d.i(1, 16);
    ojson pool{{"method", method}, {"kernel", {{"w", kw}, {"h", kh}}}, {"stride", {{"w", sw}, {"h", sh}}}};
    ojson pads = ojson::object();
    if (pl != 0) pads["left"] = pl;
    if (pr != 0) pads["right"] = pr;
    if (pt != 0) pads["top"] = pt;
    if (pb != 0) pads["bottom"] = pb;
    if (!pads.empty()) {
      const int64_t omax = out16 ? 32767 : 127;
      pads["value"] = d.range(-omax - 1, omax);
      pool["pad"] = pads;
    }
    ojson with = L.doc;
    with["pool"] = pool;
    bool cbuf = false;
    std::string where;
    if (try_compile_conv(L, with, cbuf, where).empty()) {
      L.doc = with;
      feat += fmt::format(" pool {} {}x{} s{}x{}{}", method, kw, kh, sw, sh, pads.empty() ? "" : " padded");
      // (PDP's kernel + stride input lines before an output line are no watchdog stop either: the
      // convolution's operands and SDP->PDP move meanwhile.)
    }
  }
  if (strided_out) feat += " out-strided";
  if (s.wfold < 0) {
    const int ws = effective_ws(s, hw);
    feat += ws != 0 ? fmt::format(" wfold auto({})", ws) : std::string(" wfold auto(unfolded)");
  } else if (s.wfold > 0) {
    feat += fmt::format(" wfold {}", s.wfold);
  }
  if (s.sx != 1 || s.sy != 1) feat += fmt::format(" stride {}x{}", s.sx, s.sy);
  if (s.dx != 1 || s.dy != 1) feat += fmt::format(" dilation {}x{}", s.dx, s.dy);
  if (!s.wino) draw_sparse(hw, L, wr.first, wr.second, s.c, feat);
  draw_batch(hw, L, s, out16, feat);
  L.features = fmt::format("{} {}x{}x{} k{} {}x{}", feat, s.w, s.h, s.c, s.k, s.r, s.s);
  return L;
}

}  // namespace

RandomLayer generate_conv_layer(const HwConfig& hw, RandomLayer L, Rng& rng) {
  Draw d{rng};
  return gen_conv(hw, std::move(L), d);
}

}  // namespace dla::harness
