// The `cdp` random-layer generator (docs/RANDOM.md, "cdp"): random legal LRN layers over NVDLA's
// whole space -- windows 3/5/7/9, cubes from 1x1x1 to wide lines and many surfaces (C below the
// window, C not a multiple of the atom), int16 where the configuration has it, both bypasses,
// input and output converters over their field ranges (saturating or not), LUTs built by
// function (lrn, and sigmoid / tanh / exp on the signed input with SQSUM_BYPASS) or given as
// random tables with random linear / exponent placements, priorities, slopes and shifts, strided
// layouts; fp16 with --focus fp16 (the RTL against golden; NVIDIA's C model with --judge cmod). Each draw is handed to the `cdp` layer compiler; one it refuses (a placement the table
// builder cannot make) is drawn again, so every generated layer is legal.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "harness/errors.hpp"
#include "harness/json_reader.hpp"
#include "harness/random_layers.hpp"
#include "engines/cdp/harness/cdp.hpp"
#include "engines/cdp/harness/cdp_random.hpp"

namespace dla::harness {

namespace {

using ojson = nlohmann::ordered_json;

struct Pick {
  Rng& r;
  int64_t i(int64_t lo, int64_t hi) { return r.range(lo, hi); }
  bool chance(double p) { return r.chance(p); }
  int64_t log_i(int64_t lo, int64_t hi) { return r.log_range(lo, hi); }
};

int bits_of(int64_t v) { return static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(v, 1)))); }

// A linear table placement: START somewhere in [-span/2, span), select so the table spans about
// `span` (x 2^-3 .. 2^2), END where the last entry sits.
void linear_table(Pick& d, ojson& regs, const char* t, int entries, int64_t lo_q, int64_t hi_q, int sel_min, int sel_max) {
  const int64_t span = std::max<int64_t>(1, hi_q - lo_q);
  const int sel = std::clamp(bits_of(span) - bits_of(entries - 1) + static_cast<int>(d.i(-3, 2)), sel_min, sel_max);
  const int64_t start = lo_q + d.i(-span / 2, span - 1);
  const int64_t end = start + (sel >= 0 ? int64_t{entries - 1} << sel : int64_t{entries - 1} >> -sel);
  regs[fmt::format("{}_start", t)] = start;
  regs[fmt::format("{}_index_select", t)] = sel;
  regs[fmt::format("{}_end", t)] = end;
}

ojson random_tables(Pick& d, bool int16, int64_t lo_q, int64_t hi_q) {
  // Entries: a ramp, a random walk or uniform noise (all int16).
  const auto table = [&](int n) {
    ojson a = ojson::array();
    const int kind = static_cast<int>(d.i(0, 2));
    int64_t v = d.i(-20000, 20000);
    const int64_t step = d.i(-300, 300);
    for (int k = 0; k < n; ++k) {
      if (kind == 0) v = std::clamp<int64_t>(v + step, -32768, 32767);
      if (kind == 1) v = std::clamp<int64_t>(v + d.i(-2000, 2000), -32768, 32767);
      if (kind == 2) v = d.i(-32768, 32767);
      a.push_back(v);
    }
    return a;
  };
  ojson lut = ojson::object();
  lut["le"] = table(65);
  lut["lo"] = table(257);
  // Selects as the engine reads them: 6 bits (int8) / 7 bits (int16); negative ones only as far as
  // the table still spans whole input steps.
  const int sel_max = int16 ? 40 : 28;
  ojson regs = ojson::object();
  const bool le_linear = d.chance(0.5);
  regs["le_function"] = le_linear ? "linear" : "exponent";
  if (le_linear) {
    linear_table(d, regs, "le", 65, lo_q, hi_q, -6, sel_max);
  } else {
    regs["le_start"] = lo_q + d.i(-(hi_q - lo_q) / 4, (hi_q - lo_q) / 8);
    regs["le_index_offset"] = d.i(-40, std::min(30, bits_of(hi_q - lo_q)));
    regs["le_end"] = d.i(lo_q, hi_q);
  }
  linear_table(d, regs, "lo", 257, lo_q, hi_q, -8, sel_max);
  for (const char* p : {"uflow_priority", "oflow_priority", "hybrid_priority"}) regs[p] = d.chance(0.5) ? "lo" : "le";
  for (const char* s : {"le_uflow", "le_oflow", "lo_uflow", "lo_oflow"}) {
    regs[fmt::format("{}_scale", s)] = d.chance(0.2) ? d.i(-32768, 32767) : d.i(-64, 64);
    regs[fmt::format("{}_shift", s)] = d.i(-16, 15);
  }
  lut["registers"] = regs;
  return lut;
}

ojson function_tables(Pick& d, bool sqsum_bypass, int64_t x_max, int64_t q_max) {
  ojson lut = ojson::object();
  if (!sqsum_bypass || d.chance(0.3)) {
    // LRN (k + alpha Q)^-beta over Q >= 0 (with SQSUM_BYPASS the negative inputs fall under START).
    const double hi = static_cast<double>(std::max<int64_t>(q_max, 64));
    lut["function"] = "lrn";
    lut["lrn_k"] = d.chance(0.7) ? 1.0 : static_cast<double>(d.i(1, 8)) / 2.0;
    lut["lrn_alpha"] = std::pow(10.0, -static_cast<double>(d.i(1, 6))) * static_cast<double>(d.i(1, 9)) *
                       (65536.0 / hi);
    lut["lrn_beta"] = static_cast<double>(d.i(25, 100)) / 100.0;
    lut["le_function"] = d.chance(0.6) ? "exponent" : "linear";
    lut["raw"] = ojson::array({0, hi * static_cast<double>(d.i(1, 4)) / 2.0});
    lut["density"] = ojson::array({0, hi / static_cast<double>(int64_t{1} << d.i(2, 8))});
  } else {
    // A per-element function of the signed converted input: x in [-x_max, x_max] maps to about
    // [-8, 8].
    const int fn = static_cast<int>(d.i(0, 2));
    const double in_scale = 8.0 / static_cast<double>(int64_t{1} << (bits_of(x_max) - 1));
    lut["function"] = fn == 0 ? "sigmoid" : fn == 1 ? "tanh" : "exp";
    lut["in_scale"] = in_scale;
    lut["out_scale"] = fn == 2 ? 256 : 16384;
    lut["le_function"] = "linear";
    lut["raw"] = fn == 2 ? ojson::array({-8, 4}) : ojson::array({-16, 16});
    lut["density"] = ojson::array({-2, 2});
  }
  if (d.chance(0.3)) {
    ojson regs = ojson::object();
    for (const char* p : {"uflow_priority", "oflow_priority", "hybrid_priority"}) {
      if (d.chance(0.5)) regs[p] = d.chance(0.5) ? "lo" : "le";
    }
    if (!regs.empty()) lut["registers"] = regs;
  }
  return lut;
}


// The LRN keys of an integer `cdp` layer (lrn, in_cvt, lut, out_cvt, perf_lut_en) over C channels
// whose data lie in [-data_max - 1, data_max]: converters about the data's width, LUT by function or
// random tables. Also the network generator's CDP layers (cdp_random.hpp).
void draw_lrn(Pick& d, bool int16, int window, bool sqsum_bypass, bool mul_bypass, int c, int64_t data_max, ojson& doc,
              std::string& feat) {
  doc["lrn"] = ojson{{"window", window}};
  if (sqsum_bypass) doc["lrn"]["sqsum_bypass"] = true;
  if (mul_bypass) doc["lrn"]["mul_bypass"] = true;
  const int xbits = int16 ? 17 : 9;
  int64_t x_max = std::min<int64_t>(2 * data_max + 1, (int64_t{1} << (xbits - 1)) - 1);
  if (d.chance(0.5)) {
    const int64_t off_max = int16 ? 32767 : 127;
    const int64_t scale = d.chance(0.7) ? d.i(1, 8) * (d.chance(0.15) ? -1 : 1) : d.i(-32768, 32767);
    const int shift = static_cast<int>(std::clamp<int64_t>(bits_of(std::abs(scale)) + d.i(-2, 2), 0, int16 ? 31 : 24));
    doc["in_cvt"] = ojson{{"offset", d.chance(0.5) ? 0 : d.i(-off_max - 1, off_max)}, {"scale", scale}, {"shift", shift}};
    x_max = std::min<int64_t>((int64_t{1} << (xbits - 1)) - 1,
                              std::max<int64_t>(1, (2 * data_max + 1) * std::abs(scale) >> shift));
    feat += fmt::format(" in x{}>>{}", scale, shift);
  }
  const int64_t q_max = sqsum_bypass ? x_max : x_max * x_max * std::min(window, c);
  // LUT.
  const bool inline_tables = d.chance(0.35);
  doc["lut"] = inline_tables ? random_tables(d, int16, sqsum_bypass ? -x_max : 0, q_max)
                             : function_tables(d, sqsum_bypass, x_max, q_max);
  feat += inline_tables ? " random-tables" : fmt::format(" {}", doc["lut"]["function"].get<std::string>());
  // Output converter: about the output width out of p (sometimes saturating, sometimes small).
  const int obits = int16 ? 16 : 8;
  const int pbits = mul_bypass ? 16 : 16 + bits_of(x_max);
  const int64_t oscale = d.chance(0.6) ? d.i(1, 16) : d.i(-32768, 32767);
  const int prod = int16 ? 50 : 42;
  const int oshift = static_cast<int>(
      std::clamp<int64_t>(pbits + bits_of(std::abs(oscale)) - obits + d.i(-4, 3) - (d.chance(0.3) ? 4 : 0), 0, prod - 1));
  const int64_t ooff_max = int16 ? 0x7fffffff : (int64_t{1} << 24) - 1;
  const int64_t near = std::min(int64_t{1} << (pbits - 2), ooff_max);
  const int64_t ooff = d.chance(0.6) ? 0 : d.chance(0.7) ? d.i(-near, near) : d.i(-ooff_max - 1, ooff_max);
  doc["out_cvt"] = ojson{{"offset", ooff}, {"scale", oscale}, {"shift", oshift}};
  if (d.chance(0.1)) doc["perf_lut_en"] = false;
}

ojson draw_layer(const golden::HwConfig& hw, const RandomLayer& L, Pick& d, std::string& feat) {
  const bool int16 = hw.int16 && d.chance(0.3);
  const int bpe = int16 ? 2 : 1;
  const int atom = hw.atom_bytes;
  const int ca = atom / bpe;
  const int window = static_cast<int>(3 + 2 * d.i(0, 3));
  const bool sqsum_bypass = d.chance(0.15);
  const bool mul_bypass = d.chance(0.2);
  // Cube: mostly small, sometimes wide or deep.
  const int size = static_cast<int>(d.i(0, 99));
  int w = static_cast<int>(size < 85 ? d.log_i(1, 24) : d.log_i(24, 2048));
  int h = static_cast<int>(size < 85 ? d.log_i(1, 12) : d.i(1, 3));
  int c = static_cast<int>(d.chance(0.8) ? d.i(1, 3 * ca) : d.log_i(1, std::max(1, 32768 / (w * h))));
  // Cost cap: at most 128 KiB of input (the CDP RTL reads and writes every atom once).
  const auto in_bytes = [&] { return int64_t{(c + ca - 1) / ca} * h * w * atom; };
  while (in_bytes() > (int64_t{1} << 17) && h > 1) h = std::max(1, h / 2);
  while (in_bytes() > (int64_t{1} << 17) && w > 1) w = std::max(1, w / 2);
  while (in_bytes() > (int64_t{1} << 17) && c > ca) c = std::max(1, c / 2);

  ojson doc = random_layer_doc(L, w, h, c);
  // 15 %: line and surface strides with gaps of up to 3 atoms per line and 4 per surface.
  const auto strided = [&](ojson& o, const char* what) {
    if (!d.chance(0.15)) return;
    const int64_t line = int64_t{atom} * (w + d.i(0, 3));
    o["line_stride"] = line;
    o["surface_stride"] = line * h + int64_t{atom} * d.i(0, 4);
    feat += what;
  };

  // Input values and converter.
  const int ebits = 8 * bpe;
  ojson in = ojson::object();
  in["precision"] = int16 ? "int16" : "int8";
  ojson rnd = ojson::object();
  int64_t data_max = (int64_t{1} << (ebits - 1)) - 1;
  if (d.chance(0.3)) {
    data_max = (int64_t{1} << d.i(1, ebits - 1)) - 1;
    rnd["min"] = -data_max - 1;
    rnd["max"] = data_max;
  }
  in["data"] = ojson{{"random", rnd}};
  strided(in, " in-strided");
  doc["input"] = in;
  draw_lrn(d, int16, window, sqsum_bypass, mul_bypass, c, data_max, doc, feat);

  ojson out = ojson::object();
  strided(out, " out-strided");
  doc["output"] = out;
  feat = fmt::format("lrn{}{}{}{} {}x{}x{} ({} surface(s)) {}", window, sqsum_bypass ? " sqsum-bypass" : "",
                     mul_bypass ? " mul-bypass" : "", feat, w, h, c, (c + ca - 1) / ca, int16 ? "int16" : "int8");
  return doc;
}

// fp16 (--focus fp16, nv_full; docs/FP16.md "CDP in fp16"): windows, bypasses and cubes as in
// integers; data in one of four regimes (around 1, tens, the whole finite range, denormal
// magnitudes) with specials; NAN_TO_ZERO; the LUT built by function (LRN of the square sum with a
// random k / alpha / beta, or sigmoid / tanh / exp of the datum with SQSUM_BYPASS) at a random
// placement of both tables, random priorities and fp16 slopes. The RTL runs them against golden; NVIDIA's C model judges both.
// The LRN keys of an fp16 `cdp` layer (lrn, lut, perf_lut_en): the LUT by function at a random
// placement, priorities and slopes. Also the network generator's fp16 CDP layers.
void draw_lrn_fp16(Pick& d, int window, bool sqsum_bypass, bool mul_bypass, ojson& doc, std::string& feat) {
  doc["lrn"] = ojson{{"window", window}};
  if (sqsum_bypass) doc["lrn"]["sqsum_bypass"] = true;
  if (mul_bypass) doc["lrn"]["mul_bypass"] = true;
  ojson lut = ojson::object();
  if (!sqsum_bypass || d.chance(0.3)) {
    lut["function"] = "lrn";
    lut["lrn_k"] = static_cast<double>(d.i(1, 8)) / 2.0;
    lut["lrn_alpha"] = std::ldexp(1.0, static_cast<int>(d.i(-20, -2)));
    lut["lrn_beta"] = static_cast<double>(d.i(1, 4)) / 4.0;
  } else {
    static constexpr const char* kFns[] = {"sigmoid", "tanh", "exp"};
    lut["function"] = kFns[d.i(0, 2)];
  }
  const bool exponent = d.chance(0.5);
  lut["le_function"] = exponent ? "exponent" : "linear";
  lut["le_start"] = sqsum_bypass ? d.i(-16, 0) : 0;
  lut["lo_start"] = sqsum_bypass ? d.i(-16, 0) : d.i(0, 4);
  if (exponent) {
    lut["le_index_offset"] = d.i(-30, 4);
  } else {
    lut["le_index_select"] = d.i(-6, 8);
  }
  lut["lo_index_select"] = d.i(-6, 6);
  ojson regs = ojson::object();
  for (const char* pr : {"uflow_priority", "oflow_priority", "hybrid_priority"}) regs[pr] = d.chance(0.5) ? "lo" : "le";
  if (d.chance(0.15)) {
    // The whole 8-bit range of the selects and the offset (fp16 reads all 8 bits): mostly every
    // lookup under- or overflows the tables, which the extrapolation then carries.
    regs["le_index_select"] = d.i(-128, 127);
    regs["lo_index_select"] = d.i(-128, 127);
    regs["le_index_offset"] = d.i(-128, 127);
    feat += " wide-selects";
  }
  if (d.chance(0.3)) {
    static constexpr const char* kSlopes[] = {"0x0000", "0x3c00", "0xb800", "0x2000", "0x7bff", "nan"};
    for (const char* sl : {"le_uflow_scale", "le_oflow_scale", "lo_uflow_scale", "lo_oflow_scale"}) regs[sl] = kSlopes[d.i(0, 5)];
  }
  lut["registers"] = regs;
  doc["lut"] = lut;
  if (d.chance(0.1)) doc["perf_lut_en"] = false;
}

ojson draw_layer_fp16(const RandomLayer& L, Pick& d, std::string& feat) {
  const int window = static_cast<int>(3 + 2 * d.i(0, 3));
  const bool sqsum_bypass = d.chance(0.15);
  const bool mul_bypass = d.chance(0.2);
  const int size = static_cast<int>(d.i(0, 99));
  int w = static_cast<int>(size < 85 ? d.log_i(1, 24) : d.log_i(24, 1024));
  int h = static_cast<int>(size < 85 ? d.log_i(1, 12) : d.i(1, 3));
  int c = static_cast<int>(d.chance(0.8) ? d.i(1, 48) : d.log_i(1, std::max(1, 16384 / (w * h))));
  const auto in_bytes = [&] { return int64_t{(c + 15) / 16} * h * w * 32; };
  while (in_bytes() > (int64_t{1} << 17) && h > 1) h = std::max(1, h / 2);
  while (in_bytes() > (int64_t{1} << 17) && w > 1) w = std::max(1, w / 2);
  ojson doc = random_layer_doc(L, w, h, c);
  ojson in{{"precision", "fp16"}};
  switch (d.i(0, 3)) {
    case 0: in["data"] = ojson{{"random", {{"min", -2}, {"max", 2}, {"specials", 0.03}}}}; break;
    case 1: in["data"] = ojson{{"random", {{"min", -60}, {"max", 60}}}}; break;
    case 2: in["data"] = ojson{{"random", {{"min", -65504}, {"max", 65504}, {"specials", 0.02}}}}; break;
    default: in["data"] = ojson{{"random", {{"min", "0x8400"}, {"max", "0x0400"}, {"specials", 0.05}}}}; break;
  }
  if (d.chance(0.3)) {
    in["nan_to_zero"] = true;
    feat += " nan-to-zero";
  }
  doc["input"] = in;
  draw_lrn_fp16(d, window, sqsum_bypass, mul_bypass, doc, feat);
  doc["output"] = ojson::object();
  feat = fmt::format("lrn{}{}{} {} {}{} {}x{}x{} ({} surface(s)) fp16", window, sqsum_bypass ? " sqsum-bypass" : "",
                     mul_bypass ? " mul-bypass" : "", doc["lut"]["function"].get<std::string>(),
                     doc["lut"]["le_function"] == "exponent" ? "le-exp" : "le-lin",
                     feat, w, h, c, (c + 15) / 16);
  return doc;
}

}  // namespace

void draw_cdp_lrn(Rng& rng, golden::Precision prec, int c, int64_t data_max, nlohmann::ordered_json& doc,
                  std::string& feat) {
  Pick d{rng};
  const int window = static_cast<int>(3 + 2 * d.i(0, 3));
  const bool sqsum_bypass = d.chance(0.15);
  const bool mul_bypass = d.chance(0.2);
  if (prec == golden::Precision::Fp16) {
    draw_lrn_fp16(d, window, sqsum_bypass, mul_bypass, doc, feat);
    feat += fmt::format(" {}", doc["lut"]["function"].get<std::string>());
  } else {
    draw_lrn(d, prec == golden::Precision::Int16, window, sqsum_bypass, mul_bypass, c, data_max, doc, feat);
  }
  feat = fmt::format("lrn{}{}{}{}", window, sqsum_bypass ? " sqsum-bypass" : "", mul_bypass ? " mul-bypass" : "", feat);
}

RandomLayer generate_cdp_layer(const golden::HwConfig& hw, RandomLayer L, Rng& rng) {
  Pick d{rng};
  const bool fp16 = L.focus == "fp16";
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string feat;
    ojson doc = fp16 ? draw_layer_fp16(L, d, feat) : draw_layer(hw, L, d, feat);
    if (random_layer_compiles(L, doc, &engines::compile_cdp_layer)) {
      L.doc = std::move(doc);
      L.features = feat;
      return L;
    }
  }
  throw std::logic_error("cdp generator: no legal layer in 64 draws");
}

}  // namespace dla::harness
