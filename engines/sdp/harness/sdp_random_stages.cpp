#include "engines/sdp/harness/sdp_random_stages.hpp"

#include <algorithm>
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

}  // namespace dla::harness::engines::sdp_draw
