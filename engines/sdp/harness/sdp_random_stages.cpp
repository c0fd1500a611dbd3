#include "engines/sdp/harness/sdp_random_stages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace dla::harness::engines::sdp_draw {

double lg_sd(int64_t lo, int64_t hi) {
  const double sd = std::sqrt((std::pow(static_cast<double>(hi - lo + 1), 2) - 1.0) / 12.0 +
                              std::pow((static_cast<double>(lo) + static_cast<double>(hi)) / 2.0, 2));
  return std::log2(std::max(1.0, sd));
}

int iround(double v) { return static_cast<int>(std::lround(v)); }

std::pair<int64_t, int64_t> value_range(Draw& d, int64_t vmin, int64_t vmax) {
  if (d.chance(0.5)) return {vmin, vmax};
  const int bits = static_cast<int>(std::log2(static_cast<double>(vmax) + 1.0));
  const int64_t a = int64_t{1} << d.i(1, bits);
  int64_t lo = -a, hi = a - 1;
  if (d.chance(0.15)) lo = 0;
  if (d.chance(0.1)) hi = 0;
  return {std::max(lo, vmin), std::min(hi, vmax)};
}

ojson random_values(int64_t lo, int64_t hi, int64_t vmin, int64_t vmax) {
  ojson r = ojson::object();
  if (lo != vmin) r["min"] = lo;
  if (hi != vmax) r["max"] = hi;
  return ojson{{"random", r}};
}

double x_stage(Draw& d, ojson& st, double m, std::string& feat, const char* name, bool ops16) {
  const bool mem_op = d.chance(0.6);
  const bool alu = d.chance(0.75), mul = !alu || d.chance(0.5);
  const bool int16_ops = d.chance(0.6) || ops16;
  const int64_t opmax = int16_ops ? 32767 : 127;
  bool any_mem = false;
  if (alu) {
    ojson a = ojson::object();
    a["algo"] = d.pick<std::string>({"sum", "sum", "max", "min"});
    const int shift = d.chance(0.2) ? d.i(1, d.chance(0.1) ? 40 : 6) : 0;
    if (shift != 0) a["shift"] = shift;
    const int64_t mag = std::clamp<int64_t>(static_cast<int64_t>(std::exp2(std::max(0.0, m - shift + 1))), 1, opmax);
    if (mem_op) {
      a["operand"] = random_values(-mag, mag, -opmax - 1, opmax);
      any_mem = true;
    } else {
      a["operand"] = d.range(-std::min<int64_t>(mag, 32767), std::min<int64_t>(mag, 32767));
    }
    st["alu"] = a;
    feat += fmt::format(" {}.alu", name);
  }
  int trunc = 0;
  if (mul) {
    ojson u = ojson::object();
    const int64_t mag = int64_t{1} << d.i(0, int16_ops ? 14 : 6);
    const bool mul_mem = mem_op ? d.chance(0.7) : d.chance(0.3);
    if (mul_mem) {
      u["operand"] = random_values(d.chance(0.3) ? 0 : -mag, mag, -opmax - 1, opmax);
      any_mem = true;
    } else {
      u["operand"] = d.range(-std::min<int64_t>(mag, 32767), std::min<int64_t>(mag, 32767));
    }
    if (d.chance(0.2)) u["prelu"] = true;
    st["mul"] = u;
    trunc = std::clamp(iround(std::log2(static_cast<double>(mag))) + d.i(-1, 2), 0, 63);
    m += std::log2(static_cast<double>(mag)) - trunc;
    feat += fmt::format(" {}.mul", name);
  } else if (d.chance(0.2)) {
    trunc = d.i(1, 4);
    m -= trunc;
  }
  if (trunc != 0) st["truncate"] = trunc;
  if (d.chance(0.35)) {
    st["relu"] = true;
    feat += " relu";
  }
  if (any_mem) {
    ojson o = ojson::object();
    if (d.chance(0.3)) o["per"] = "element";
    if (int16_ops) o["precision"] = "int16";
    st["operands"] = o;
  }
  return m;
}

double x_stages(Draw& d, ojson& doc, double m, std::string& feat, double p_bs, double p_bn, bool ops16) {
  for (const auto& [name, p] : {std::pair{"bs", p_bs}, std::pair{"bn", p_bn}}) {
    if (!d.chance(p)) continue;
    ojson st = ojson::object();
    m = x_stage(d, st, m, feat, name, ops16);
    doc[name] = st;
  }
  return m;
}

double y_stage(Draw& d, ojson& st, double m, const PostOps& ok, std::string& feat, bool& lut, bool& eql) {
  const bool int16_ops = d.chance(0.5) || ok.ops16;
  const int64_t opmax = int16_ops ? 32767 : 127;
  const int kind = d.i(0, 9);  // 0-4 ALU (eltwise sum / max / min), 5-7 MUL (product), 8 both, 9 LUT
  if (ok.eql && d.chance(0.1)) {
    eql = true;
    return m;  // the caller builds the EQL operand
  }
  bool any_mem = false;
  if (kind <= 4 || kind == 8) {
    ojson a = ojson::object();
    a["algo"] = d.pick<std::string>({"sum", "sum", "max", "min"});
    if (d.chance(0.85)) {
      a["operand"] = random_values(-opmax - 1, opmax, -opmax - 1, opmax);
      any_mem = true;
      if (d.chance(0.3)) {
        const int sc = d.i(-64, 64);
        a["converter"] = ojson{{"offset", d.i(-100, 100)}, {"scale", sc == 0 ? 1 : sc}, {"truncate", d.i(0, 6)}};
      }
    } else {
      a["operand"] = d.range(-100000, 100000);
    }
    st["alu"] = a;
    feat += " ew.alu";
  }
  int trunc = 0;
  if (kind >= 5 && kind <= 8) {
    ojson u = ojson::object();
    const int64_t mag = int64_t{1} << d.i(0, int16_ops ? 14 : 6);
    if (d.chance(0.8)) {
      u["operand"] = random_values(-mag, mag, -opmax - 1, opmax);
      any_mem = true;
      if (d.chance(0.3)) u["converter"] = ojson{{"offset", d.i(-20, 20)}, {"scale", d.i(1, 8)}, {"truncate", d.i(0, 3)}};
    } else {
      u["operand"] = d.range(-mag, mag);
    }
    if (d.chance(0.2)) u["prelu"] = true;
    st["mul"] = u;
    trunc = std::clamp(iround(std::log2(static_cast<double>(mag))) + d.i(-1, 2), 0, 1023);
    m += std::log2(static_cast<double>(mag)) - trunc;
    feat += " ew.mul";
  }
  if (trunc != 0) st["truncate"] = trunc;
  if (kind == 9 && ok.lut) {
    // A function table over the magnitude the EW stage sees; the output is 16-bit scaled.
    const double span = std::exp2(std::clamp(m, 0.0, 24.0));
    ojson t = ojson::object();
    t["function"] = d.pick<std::string>({"sigmoid", "tanh"});
    t["in_scale"] = 4.0 / span;
    t["le_function"] = d.pick<std::string>({"linear", "exponent"});
    t["raw"] = ojson::array({-8, 8});
    t["density"] = ojson::array({-2, 2});
    st["lut"] = t;
    lut = true;
    feat += " ew.lut";
    m = 14;
  } else if (kind == 9) {
    ojson a = ojson::object();
    a["algo"] = "sum";
    a["operand"] = d.range(-1000, 1000);
    st["alu"] = a;
    feat += " ew.alu";
  }
  if (any_mem) {
    ojson o = ojson::object();
    if (d.chance(0.15)) o["per"] = "channel";
    if (int16_ops) o["precision"] = "int16";
    if (!o.empty()) st["operands"] = o;
  }
  return m;
}

bool output_block(Draw& d, ojson& doc, bool out16, double m, bool force_prec) {
  ojson out = ojson::object();
  if (force_prec || d.chance(0.8)) out["precision"] = out16 ? "int16" : "int8";
  const bool strided = d.chance(0.12);
  const double target = (out16 ? 12.0 : 5.0) + (d.chance(0.1) ? d.i(2, 6) : d.i(-2, 1));
  if (m > target + 0.5 || d.chance(0.3)) {
    const int scale = d.chance(0.3) ? d.i(-300, 300) : d.pick<int>({1, 1, 3, -1, 7, 100});
    const int sc = scale == 0 ? 1 : scale;
    const int shift = std::clamp(iround(m + std::log2(std::abs(sc)) - target), 0, 63);
    ojson cv = ojson::object();
    const int64_t off = int64_t{1} << std::clamp(iround(m), 0, 30);
    if (d.chance(0.5)) cv["offset"] = d.range(-off, off);
    cv["scale"] = sc;
    cv["shift"] = shift;
    out["converter"] = cv;
  }
  doc["output"] = out;
  return strided;
}

void output_strides(ojson& out, int atom, int w, int h, int gap_line, int gap_surf) {
  // A 1x1 cube stays packed: NVDLA's SDP moves it as one contiguous run (docs/SDP.md).
  const bool one = w == 1 && h == 1;
  const int64_t line = int64_t{atom} * (w + (one ? 0 : gap_line));
  out["line_stride"] = line;
  out["surface_stride"] = one ? int64_t{atom} : line * h + int64_t{atom} * gap_surf;
}

namespace {

// An fp16 stage's operand: half the time fp16 values from memory in [-range, range] (a fifth of
// those with 5 % specials), else one of the register values `regs`.
template <std::size_t N>
void draw_fp16_operand(Draw& d, ojson& op, bool& mem, int range, const std::array<const char*, N>& regs) {
  if (d.chance(0.5)) {
    mem = true;
    op["operand"] = ojson{{"random", {{"min", -range}, {"max", range}}}};
    if (d.chance(0.2)) op["operand"]["random"]["specials"] = 0.05;
  } else {
    op["operand"] = regs[static_cast<std::size_t>(d.i(0, static_cast<int>(N) - 1))];
  }
}

constexpr std::array<const char*, 3> kFp16Algos = {"sum", "max", "min"};

}  // namespace

void draw_fp16_data(Draw& d, ojson& node) {
  switch (d.i(0, 4)) {
    case 0: node = ojson{{"random", {{"min", -8}, {"max", 8}}}}; break;
    case 1: node = ojson{{"random", {{"min", -2}, {"max", 2}}}}; break;
    case 2: node = ojson{{"random", {{"min", -65504}, {"max", 65504}}}}; break;
    case 3: node = ojson{{"random", {{"min", "0x8400"}, {"max", "0x0400"}}}}; break;  // |x| <= 2^-14
    default: node = ojson{{"random", {{"min", -1}, {"max", 1}, {"specials", 0.02}}}}; break;
  }
}

void draw_fp16_x_stage(Draw& d, const char* name, ojson& doc, std::string& feat) {
  static constexpr std::array<const char*, 8> kRegs = {"0x3c00", "0xb800", "0x4500", "0x0001",
                                                       "0x7bff", "nan",    "-inf",   "0x8000"};
  ojson x = ojson::object();
  bool mem = false;
  if (d.chance(0.7)) {
    x["alu"] = ojson{{"algo", kFp16Algos[static_cast<std::size_t>(d.i(0, 2))]}};
    draw_fp16_operand(d, x["alu"], mem, 2, kRegs);
  }
  if (d.chance(0.5)) {
    x["mul"] = ojson::object();
    draw_fp16_operand(d, x["mul"], mem, 2, kRegs);
    if (d.chance(0.3)) x["mul"]["prelu"] = true;
  }
  if (d.chance(0.5)) x["relu"] = true;
  if (mem && d.chance(0.3)) x["operands"] = ojson{{"per", "element"}};
  doc[name] = x;
  feat += std::string(" ") + name;
}

void draw_fp16_ew(uint64_t seed, ojson& doc, std::string& feat, double p_ew) {
  Rng rng = Rng::derive(seed, "fp16-ew");
  Draw d{rng};
  if (!d.chance(p_ew)) return;
  static constexpr std::array<const char*, 9> kRegs = {"0x3fc00000", "0xbe800000", "0x7f7fffff", "nan", "0x0da24260",
                                                       "0x80000000", "0x40400000", "0xc2f70000", "inf"};
  ojson y = ojson::object();
  bool mem = false;
  if (d.chance(0.5)) {
    y["mul"] = ojson::object();
    draw_fp16_operand(d, y["mul"], mem, 4, kRegs);
    if (d.chance(0.3)) y["mul"]["prelu"] = true;
  }
  if (d.chance(0.6)) {
    y["alu"] = ojson{{"algo", kFp16Algos[static_cast<std::size_t>(d.i(0, 2))]}};
    draw_fp16_operand(d, y["alu"], mem, 4, kRegs);
  }
  if (d.chance(0.5) || y.empty()) {
    static constexpr std::array<const char*, 3> kFns = {"sigmoid", "tanh", "exp"};
    static constexpr std::array<const char*, 2> kPrio = {"le", "lo"};
    const auto prio = [&] { return kPrio[static_cast<std::size_t>(d.i(0, 1))]; };
    const bool exponent = d.chance(0.4);
    ojson lut{{"function", kFns[static_cast<std::size_t>(d.i(0, 2))]}, {"le_function", exponent ? "exponent" : "linear"},
              {"le_start", d.i(-16, 0)}, {"lo_start", d.i(-16, 0)}, {"lo_index_select", d.i(-6, 0)}};
    if (exponent) {
      lut["le_index_offset"] = d.i(-10, 2);
    } else {
      lut["le_index_select"] = d.i(-6, 0);
    }
    ojson regs = ojson::object();
    regs["uflow_priority"] = prio();
    regs["oflow_priority"] = prio();
    regs["hybrid_priority"] = prio();
    lut["registers"] = regs;
    y["lut"] = lut;
    feat += fmt::format(" lut {}", lut["function"].get<std::string>());
  }
  if (mem && d.chance(0.3)) y["operands"] = ojson{{"per", "channel"}};
  doc["ew"] = y;
  feat += " ew";
}

}  // namespace dla::harness::engines::sdp_draw
