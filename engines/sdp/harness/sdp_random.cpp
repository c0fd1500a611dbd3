// `random sdp` (docs/RANDOM.md): SDP layers from memory with random BS / BN / EW stages, LUTs,
// converters and strides.
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
#include "engines/sdp/harness/sdp_random.hpp"

namespace dla::harness {

namespace {

using golden::HwConfig;
using namespace engines::sdp_draw;


// A layer document's header and cube.
ojson sdp_header(const HwConfig& hw, const RandomLayer& L, int w, int h, int c) {
  ojson doc = ojson::object();
  doc["unit"] = "sdp";
  doc["config"] = hw.name;
  doc["name"] = L.name;
  doc["seed"] = L.seed;
  doc["stall"] = L.stall;
  doc["cube"] = ojson{{"w", w}, {"h", h}, {"c", c}};
  return doc;
}

// fp16 (--focus fp16, nv_full; docs/FP16.md): SDP from fp16 memory with the fp16 BS / BN / EW
// stages (the float LUT included) that `random conv --focus fp16` draws, fp16 or int16 output,
// data in one of five regimes with specials. The RTL runs them against golden; NVIDIA's C model
// judges both with --judge cmod.
RandomLayer gen_sdp_fp16(const HwConfig& hw, RandomLayer L, Draw& d) {
  const int w = d.log_i(1, 32), h = d.log_i(1, 16), c = d.log_i(1, 6 * hw.atom_bytes);
  ojson doc = sdp_header(hw, L, w, h, c);
  doc["input"] = ojson{{"precision", "fp16"}};
  draw_fp16_data(d, doc["input"]["data"]);
  std::string feat = "fp16";
  if (d.chance(0.5)) draw_fp16_x_stage(d, "bs", doc, feat);
  if (d.chance(0.4)) draw_fp16_x_stage(d, "bn", doc, feat);
  draw_fp16_ew(L.seed, doc, feat, 0.5);
  const bool out16 = d.chance(0.2);
  doc["output"] = ojson{{"precision", out16 ? "int16" : "fp16"}};
  doc["perf"] = ojson{{"sat", true}, {"nan_inf", true}};
  // NAN_TO_ZERO: the data's NaNs and the memory operands' to +0 (register operands stay)
  if (d.chance(0.3)) {
    doc["input"]["nan_to_zero"] = true;
    feat += " nan-to-zero";
  }
  L.doc = doc;
  L.features = fmt::format("{} {}x{}x{}{}", feat, w, h, c, out16 ? " out-int16" : "");
  return L;
}

RandomLayer gen_sdp(const HwConfig& hw, RandomLayer L, Draw& d) {
  if (L.focus == "fp16") return gen_sdp_fp16(hw, std::move(L), d);
  std::string feat;
  const bool in16 = hw.int16 && d.chance(0.3);
  bool out16 = in16;
  if (hw.int16 && d.chance(0.25)) out16 = !in16;
  const int atom = hw.atom_bytes;
  int w = 1, h = 1, c = 1;
  const int size = d.i(0, 99);
  if (size < 70) {
    w = d.log_i(1, 16);
    h = d.log_i(1, 12);
    c = d.chance(0.7) ? d.i(1, 3 * atom) : d.log_i(1, 8 * atom);
    feat = "small";
  } else if (size < 93) {
    w = d.log_i(1, 48);
    h = d.log_i(1, 48);
    c = d.log_i(1, 4 * atom);
    feat = "medium";
  } else {
    switch (d.i(0, 2)) {
      case 0: w = d.log_i(256, 8192); h = d.i(1, 2); c = d.i(1, atom); feat = "large-W"; break;
      case 1: h = d.log_i(256, 8192); w = d.i(1, 2); c = d.i(1, atom); feat = "large-H"; break;
      default: c = d.log_i(256, 8192); w = d.i(1, 3); h = d.i(1, 3); feat = "large-C"; break;
    }
  }
  // Cost cap under a bandwidth limit: the bytes the layer can move (input, output and up to three
  // per-element int16 operand streams) must pass in 4M cycles, well within the runner's 10M-cycle
  // wait for an interrupt (a 7566x2x17 int8 -> int16 layer at 1/8 byte per cycle needed 15.5M).
  if (!L.mem.unlimited()) {
    const auto surfaces = [&](int bpe) { return (static_cast<int64_t>(c) * bpe + atom - 1) / atom; };
    const auto bytes = [&] {
      return static_cast<double>(w) * h * atom * static_cast<double>(surfaces(in16 ? 2 : 1) + surfaces(out16 ? 2 : 1) +
                                                                      3 * surfaces(2));
    };
    while (bytes() / L.mem.bandwidth > 4e6) {
      if (w >= h && w >= c) w = (w + 1) / 2;
      else if (h >= c) h = (h + 1) / 2;
      else c = (c + 1) / 2;
    }
  }
  const int64_t vmax = in16 ? 32767 : 127, vmin = -vmax - 1;
  const auto dr = value_range(d, vmin, vmax);
  ojson doc = sdp_header(hw, L, w, h, c);
  ojson in = ojson::object();
  in["precision"] = in16 ? "int16" : "int8";
  const bool eql_candidate = int64_t{w} * h * c <= 512 && d.chance(0.08);
  std::vector<int64_t> values;
  if (eql_candidate) {
    for (int64_t i = 0; i < int64_t{w} * h * c; ++i) values.push_back(d.range(dr.first, dr.second));
    in["data"] = ojson{{"values", values}};
  } else {
    in["data"] = random_values(dr.first, dr.second, vmin, vmax);
  }
  if (d.chance(0.15)) {
    // A 1x1 cube stays packed (NVDLA's SDP reads it as one contiguous run); the draws are made
    // either way (a stable stream).
    const bool one = w == 1 && h == 1;
    const int line_gap = d.i(0, 3);
    const int64_t line = int64_t{atom} * (w + (one ? 0 : line_gap));
    const int64_t gap = int64_t{atom} * d.i(0, 4);
    in["line_stride"] = line;
    in["surface_stride"] = one ? int64_t{atom} : line * h + gap;
    feat += " in-strided";
  }
  doc["input"] = in;
  double m = lg_sd(dr.first, dr.second);
  bool lut = false, eql = false;
  ojson stages = ojson::object();
  // int16 -> int8 processes in int8 lane groups (PROC INT8): one-byte operands are legal there.
  const bool proc16 = in16 && out16;
  m = x_stages(d, stages, m, feat, 0.7, 0.5, proc16);
  if (d.chance(0.6) || eql_candidate) {
    ojson st = ojson::object();
    m = y_stage(d, st, m, PostOps{true, eql_candidate, proc16}, feat, lut, eql);
    if (eql) {
      // EQL compares the stage's input with a second cube: the input itself (with BS / BN
      // bypassed), changed in one element half the time.
      stages.erase("bs");
      stages.erase("bn");
      std::vector<int64_t> other = values;
      if (d.chance(0.5)) {
        auto& v = other[static_cast<std::size_t>(d.range(0, static_cast<int64_t>(other.size()) - 1))];
        v = v == dr.second ? v - 1 : v + 1;
      }
      st = ojson{{"alu", ojson{{"algo", "eql"}, {"operand", ojson{{"values", other}}}}}};
      if (in16) st["operands"] = ojson{{"precision", "int16"}};
      feat += " ew.eql";
    }
    if (!st.empty()) stages["ew"] = st;
  }
  // Per-element operand streams with gaps in their layout (their atom: the input's channels per
  // atom x the stream's bytes per channel, doubled when ALU and MUL share it).
  for (auto it = stages.begin(); it != stages.end(); ++it) {
    const std::string name = it.key();
    ojson& st = it.value();
    if (!st.contains("operands") || eql || !d.chance(0.25)) continue;
    ojson& o = st["operands"];
    const bool per_element = o.value("per", std::string(name == "ew" ? "element" : "channel")) == "element";
    const bool alu_mem = st.contains("alu") && st["alu"]["operand"].is_object();
    const bool mul_mem = st.contains("mul") && st["mul"]["operand"].is_object();
    if (!per_element || !(alu_mem || mul_mem)) continue;
    const int eb = (o.value("precision", std::string("int8")) == "int16" ? 2 : 1) * (alu_mem && mul_mem ? 2 : 1);
    const int op_atom = atom / (proc16 ? 2 : 1) * eb;  // a group of PROC lanes
    output_strides(o, op_atom, w, h, d.i(0, 2), d.i(0, 3));
    feat += fmt::format(" {}-strided", name);
  }
  ojson tmp = ojson::object();
  if (output_block(d, tmp, out16, m, true)) output_strides(tmp["output"], atom, w, h, d.i(0, 3), d.i(0, 5));
  if (eql) {
    // EQL compares: no precision conversion, and the output converter passes the ALU's result
    // unchanged (NVDLA's programming guide and C model).
    tmp["output"].erase("converter");
    tmp["output"]["precision"] = in16 ? "int16" : "int8";
    out16 = in16;
  }
  doc["output"] = tmp["output"];
  for (const auto& [k, v] : stages.items()) doc[k] = v;
  if (d.chance(0.15)) doc["perf"] = ojson{{"dma", d.chance(0.5)}, {"lut", d.chance(0.7)}, {"sat", d.chance(0.7)}};
  L.doc = doc;
  L.features = fmt::format("{} {}x{}x{}{}{}", feat, w, h, c, in16 ? " in-int16" : " in-int8", out16 ? " out-int16" : " out-int8");
  return L;
}

}  // namespace

RandomLayer generate_sdp_layer(const HwConfig& hw, RandomLayer L, Rng& rng) {
  Draw d{rng};
  return gen_sdp(hw, std::move(L), d);
}

}  // namespace dla::harness
