// The independent reference of the `conv` layer tests (tests/rtl/test_conv_layers.cpp,
// test_conv_wino_layers.cpp): the layer read from its JSON here, and its expected output computed
// with plain int64 loops -- the convolution (padding, stride, dilation, CDMA input converter),
// CACC's clip (round half away from zero, 32-bit saturation) and the SDP post-ops (X stages, EW,
// output converter) as ../shared/reference/nvdla-arithmetic.md §2-3 state them. No golden/
// arithmetic and no layer-compiler code is used for the expected values; the input, weight and
// operand values come from the JSON ("values") or from the harness's value generator
// (resolve_values, for "random"). A Winograd layer ("mode": "winograd") computes the same
// convolution, so the same reference judges it.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_devices.hpp"
#include "cross_stress.hpp"
#include "units/conv.hpp"

namespace conv_ref {

namespace fs = std::filesystem;
using namespace dla::harness;  // NOLINT(google-build-using-namespace): test helpers
using nlohmann::json;

inline const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "conv";
inline const fs::path kBad = fs::path(DLA_SOURCE_DIR) / "tests" / "data" / "bad_layers";

// The bundled layers whose file name starts with `prefix`, of one mode: direct ("mode" absent or
// "direct") or Winograd ("mode": "winograd").
enum class Mode { Direct, Winograd };
inline std::vector<fs::path> layer_files(const std::string& prefix = "", Mode mode = Mode::Direct) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kLayers)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.rfind(prefix, 0) != 0) continue;
    std::ifstream in(e.path());
    const bool wino = json::parse(in).value("mode", std::string("direct")) == "winograd";
    if (wino == (mode == Mode::Winograd)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- plain integer arithmetic (nvdla-arithmetic.md) --------------------------------------------

inline int64_t clamp_bits(int64_t v, int bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}

// v / 2^s, rounded half away from zero. |v| < 2^62 in every use here.
inline int64_t rhaz(int64_t v, int s) {
  REQUIRE(v < (int64_t{1} << 62));
  REQUIRE(v > -(int64_t{1} << 62));
  if (s == 0) return v;
  if (s >= 63) return 0;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t q = (mag + (int64_t{1} << (s - 1))) >> s;
  return v < 0 ? -q : q;
}

// ---- the layer, read from its JSON ---------------------------------------------------------------

// A value list: inline "values" read here; "random" / "file" through the harness's generator.
inline std::vector<int64_t> values_of(const JsonNode& n, std::size_t count, int bytes, uint64_t seed) {
  const int64_t hi = (int64_t{1} << (8 * bytes - 1)) - 1;
  if (n.raw().contains("values")) {
    std::vector<int64_t> v;
    for (const auto& x : n.raw()["values"]) v.push_back(x.get<int64_t>());
    REQUIRE(v.size() == count);
    return v;
  }
  return resolve_values(n, count, bytes, -hi - 1, hi, seed);
}

inline int jint(const json& j, const char* key, int fallback) { return j.contains(key) ? j[key].get<int>() : fallback; }

// One SDP operand: a register value, or values per kernel / per element from memory.
struct Operand {
  bool used = false, mem = false, per_element = false;
  int64_t reg = 0;
  std::vector<int64_t> mem_values;
  bool cvt = false;  // EW input converter
  int64_t cvt_offset = 0, cvt_scale = 1;
  int cvt_truncate = 0;
  [[nodiscard]] int64_t at(int k, int y, int x, int oh, int ow) const {
    if (!mem) return reg;
    return mem_values[static_cast<std::size_t>(per_element ? (k * oh + y) * ow + x : k)];
  }
};

struct Stage {
  bool on = false;
  std::string alu_algo = "sum";
  int alu_shift = 0, truncate = 0;
  Operand alu, mul;
  bool prelu = false, relu = false;
};

struct Layer {
  std::string name, config;
  bool wino = false;            // "mode": "winograd" (the same convolution)
  std::string wino_scheme = "exact";
  int pra_truncate = 0;
  int W = 0, H = 0, C = 0, K = 0, R = 0, S = 0;
  int pl = 0, pr = 0, pt = 0, pb = 0, sx = 1, sy = 1, dx = 1, dy = 1, clip = 0;
  int64_t pad_value = 0;
  bool int16 = false;
  bool cvt = false;
  int64_t cvt_offset = 0, cvt_scale = 1;
  int cvt_truncate = 0;
  std::vector<int64_t> in, wt;  // (c, h, w) and (k, c, r, s)
  bool out16 = false;
  int64_t out_offset = 0, out_scale = 1;
  int out_shift = 0;
  uint64_t out_line = 0, out_surf = 0;  // 0: packed
  Stage bs, bn, ew;
  [[nodiscard]] int ow() const { return (W + pl + pr - ((S - 1) * dx + 1)) / sx + 1; }
  [[nodiscard]] int oh() const { return (H + pt + pb - ((R - 1) * dy + 1)) / sy + 1; }
  [[nodiscard]] int atom() const { return config == "nv_full" ? 32 : 8; }
  [[nodiscard]] bool post_ops() const { return bs.on || bn.on || ew.on; }
};

inline void read_operand(const JsonNode& parent, const char* dma_default_per, const json& operands, Operand& op,
                  const Layer& L, uint64_t seed) {
  op.used = true;
  const JsonNode n = parent.require("operand");
  if (!n.raw().is_object()) {
    op.reg = n.raw().get<int64_t>();
    return;
  }
  op.mem = true;
  op.per_element = (operands.is_object() && operands.contains("per") ? operands["per"].get<std::string>()
                                                                      : std::string(dma_default_per)) == "element";
  const int bytes = operands.is_object() && operands.contains("precision") && operands["precision"] == "int16" ? 2 : 1;
  const std::size_t count = static_cast<std::size_t>(op.per_element ? L.K * L.oh() * L.ow() : L.K);
  op.mem_values = values_of(n, count, bytes, seed);
  if (parent.raw().contains("converter")) {
    const json& c = parent.raw()["converter"];
    op.cvt = true;
    op.cvt_offset = c.value("offset", int64_t{0});
    op.cvt_scale = c.value("scale", int64_t{1});
    op.cvt_truncate = c.value("truncate", 0);
  }
}

inline void read_stage(const JsonNode& root, const char* key, Stage& st, const Layer& L, uint64_t seed) {
  const auto n = root.get(key);
  if (!n) return;
  const bool ew = std::string(key) == "ew";
  for (const auto& [k, v] : n->raw().items()) {
    INFO(L.name << ": /" << key << "/" << k);
    REQUIRE((k == "alu" || k == "mul" || k == "truncate" || k == "relu" || k == "operands"));  // no LUT here
  }
  st.on = true;
  const json operands = n->raw().value("operands", json::object());
  if (const auto a = n->get("alu")) {
    st.alu_algo = a->raw().value("algo", std::string("sum"));
    REQUIRE((st.alu_algo == "sum" || st.alu_algo == "max" || st.alu_algo == "min"));  // no EQL here
    st.alu_shift = jint(a->raw(), "shift", 0);
    read_operand(*a, ew ? "element" : "channel", operands, st.alu, L, seed);
  }
  if (const auto m = n->get("mul")) {
    st.prelu = m->raw().value("prelu", false);
    read_operand(*m, ew ? "element" : "channel", operands, st.mul, L, seed);
  }
  st.truncate = jint(n->raw(), "truncate", 0);
  st.relu = n->raw().value("relu", false);
}

inline Layer read_layer(const fs::path& file, uint64_t seed) {
  const LoadedLayer ll = load_layer(file);
  const JsonNode root = ll.root();
  const json& j = root.raw();
  Layer L;
  L.name = file.stem().string();
  L.config = j["config"].get<std::string>();
  L.wino = j.value("mode", std::string("direct")) == "winograd";
  L.wino_scheme = j.value("wino_scheme", std::string("exact"));
  L.pra_truncate = j.value("pra_truncate", 0);
  L.int16 = j.value("precision", std::string("int8")) == "int16";
  const json& in = j["input"];
  L.W = in["w"].get<int>();
  L.H = in["h"].get<int>();
  L.C = in["c"].get<int>();
  if (in.contains("converter")) {
    L.cvt = true;
    L.cvt_offset = in["converter"].value("offset", int64_t{0});
    L.cvt_scale = in["converter"].value("scale", int64_t{1});
    L.cvt_truncate = in["converter"].value("truncate", 0);
  }
  const json& wt = j["weights"];
  L.K = wt["k"].get<int>();
  L.R = wt["r"].get<int>();
  L.S = wt["s"].get<int>();
  const json pad = j.value("padding", json::object());
  L.pl = jint(pad, "left", 0);
  L.pr = jint(pad, "right", 0);
  L.pt = jint(pad, "top", 0);
  L.pb = jint(pad, "bottom", 0);
  L.pad_value = pad.value("value", int64_t{0});
  const json st = j.value("stride", json::object());
  L.sx = jint(st, "x", 1);
  L.sy = jint(st, "y", 1);
  const json dl = j.value("dilation", json::object());
  L.dx = jint(dl, "x", 1);
  L.dy = jint(dl, "y", 1);
  L.clip = j.value("clip", 0);
  const int bytes = L.int16 ? 2 : 1;
  L.in = values_of(root.require("input").require("data"), static_cast<std::size_t>(L.C * L.H * L.W), bytes, seed);
  L.wt = values_of(root.require("weights").require("data"), static_cast<std::size_t>(L.K * L.C * L.R * L.S), bytes,
                   seed);
  const json out = j.value("output", json::object());
  L.out16 = out.value("precision", std::string(L.int16 ? "int16" : "int8")) == "int16";
  const json cv = out.value("converter", json::object());
  L.out_offset = cv.value("offset", int64_t{0});
  L.out_scale = cv.value("scale", int64_t{1});
  L.out_shift = cv.value("shift", 0);
  L.out_line = out.value("line_stride", uint64_t{0});
  L.out_surf = out.value("surface_stride", uint64_t{0});
  read_stage(root, "bs", L.bs, L, seed);
  read_stage(root, "bn", L.bn, L, seed);
  read_stage(root, "ew", L.ew, L, seed);
  return L;
}

// ---- the reference -------------------------------------------------------------------------------

struct Expected {
  std::vector<int64_t> cacc;  // K x H' x W', the 32-bit values CACC hands to SDP
  std::vector<int64_t> out;   // K x H' x W', SDP's output elements
  uint32_t cacc_saturated = 0;
  int64_t abs_sum_max = 0;  // largest sum of |products| of one output (bounds every partial sum)
  int64_t relu_clamped = 0;  // values a ReLU turned into 0
};

// X stage (BS, BN): ALU (operand << shift, saturated to 32 bits; 33-bit max/min/sum), MUL (PReLU
// passes a non-negative ALU result's low 32 bits untruncated), truncation sat32(rhaz(v / 2^t)) even
// with MUL bypassed, then ReLU.
inline int64_t x_stage(const Stage& st, int64_t x, int k, int y, int xx, int oh, int ow, int64_t& relu_clamped) {
  if (!st.on) return x;
  int64_t v = x;
  if (st.alu.used) {
    const int64_t op16 = st.alu.at(k, y, xx, oh, ow);
    const int64_t op = st.alu_shift < 32 ? clamp_bits(op16 * (int64_t{1} << st.alu_shift), 32)
                       : op16 == 0     ? 0
                       : op16 > 0      ? INT32_MAX
                                       : INT32_MIN;
    v = st.alu_algo == "max" ? std::max(v, op) : st.alu_algo == "min" ? std::min(v, op) : v + op;
  }
  bool passed = false;
  if (st.mul.used) {
    if (st.prelu && v >= 0) {
      v = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu));
      passed = true;
    } else {
      v *= st.mul.at(k, y, xx, oh, ow);
    }
  }
  if (!passed) v = clamp_bits(rhaz(v, st.truncate), 32);
  if (st.relu && v < 0) {
    v = 0;
    ++relu_clamped;
  }
  return v;
}

inline int64_t ew_operand(const Operand& op, int k, int y, int x, int oh, int ow) {
  const int64_t raw = op.at(k, y, x, oh, ow);
  if (!op.mem || !op.cvt) return raw;
  return clamp_bits(rhaz((raw - op.cvt_offset) * op.cvt_scale, op.cvt_truncate), 32);
}

// Y stage (EW): MUL first (PReLU passes non-negative values; else sat32(rhaz(v * op / 2^t))), then
// ALU max/min/sum saturated to 32 bits.
inline int64_t y_stage(const Stage& st, int64_t x, int k, int y, int xx, int oh, int ow) {
  if (!st.on) return x;
  int64_t v = x;
  if (st.mul.used && !(st.prelu && v >= 0)) {
    v = st.truncate >= 64 ? 0 : clamp_bits(rhaz(v * ew_operand(st.mul, k, y, xx, oh, ow), st.truncate), 32);
  }
  if (st.alu.used) {
    const int64_t op = ew_operand(st.alu, k, y, xx, oh, ow);
    v = clamp_bits(st.alu_algo == "max" ? std::max(v, op) : st.alu_algo == "min" ? std::min(v, op) : v + op, 32);
  }
  return v;
}

inline Expected reference(const Layer& L) {
  Expected e;
  const int OH = L.oh(), OW = L.ow();
  const int in_bits = L.int16 ? 16 : 8;
  auto input = [&](int c, int y, int x) -> int64_t {
    if (y < 0 || y >= L.H || x < 0 || x >= L.W) return L.pad_value;  // padding is not converted
    const int64_t v = L.in[static_cast<std::size_t>((c * L.H + y) * L.W + x)];
    return L.cvt ? clamp_bits(rhaz((v - L.cvt_offset) * L.cvt_scale, L.cvt_truncate), in_bits) : v;
  };
  for (int k = 0; k < L.K; ++k) {
    for (int oy = 0; oy < OH; ++oy) {
      for (int ox = 0; ox < OW; ++ox) {
        int64_t acc = 0, abs_sum = 0;
        for (int c = 0; c < L.C; ++c) {
          for (int r = 0; r < L.R; ++r) {
            for (int s = 0; s < L.S; ++s) {
              const int64_t x = input(c, oy * L.sy + r * L.dy - L.pt, ox * L.sx + s * L.dx - L.pl);
              const int64_t p = x * L.wt[static_cast<std::size_t>(((k * L.C + c) * L.R + r) * L.S + s)];
              acc += p;
              abs_sum += p < 0 ? -p : p;
            }
          }
        }
        e.abs_sum_max = std::max(e.abs_sum_max, abs_sum);
        const int64_t rounded = rhaz(acc, L.clip);
        const int64_t cacc = clamp_bits(rounded, 32);
        if (cacc != rounded) ++e.cacc_saturated;
        e.cacc.push_back(cacc);
        int64_t v = x_stage(L.bs, cacc, k, oy, ox, OH, OW, e.relu_clamped);
        v = x_stage(L.bn, v, k, oy, ox, OH, OW, e.relu_clamped);
        v = y_stage(L.ew, v, k, oy, ox, OH, OW);
        const int64_t t = clamp_bits(rhaz((v - L.out_offset) * L.out_scale, L.out_shift), 17);
        e.out.push_back(clamp_bits(t, L.out16 ? 16 : 8));
      }
    }
  }
  return e;
}

// SDP's output elements (real kernels only) read back from a device's memory, with the feature
// layout of nvdla-arithmetic.md §8: base + (k / Ca) * surface + y * line + x * atom + (k mod Ca) * bpe.
inline std::vector<int64_t> read_output(Memory& m, uint64_t base, const Layer& L) {
  const int bpe = L.out16 ? 2 : 1;
  const int ca = L.atom() / bpe;
  const uint64_t line = L.out_line != 0 ? L.out_line : uint64_t(L.ow()) * uint64_t(L.atom());
  const uint64_t surf = L.out_surf != 0 ? L.out_surf : line * uint64_t(L.oh());
  std::vector<int64_t> out;
  for (int k = 0; k < L.K; ++k) {
    for (int y = 0; y < L.oh(); ++y) {
      for (int x = 0; x < L.ow(); ++x) {
        const uint64_t a = base + uint64_t(k / ca) * surf + uint64_t(y) * line + uint64_t(x) * uint64_t(L.atom()) +
                           uint64_t(k % ca) * uint64_t(bpe);
        const int64_t lo = m.read(a);
        out.push_back(bpe == 1 ? static_cast<int8_t>(lo) : static_cast<int16_t>(lo | int64_t{m.read(a + 1)} << 8));
      }
    }
  }
  return out;
}

// First differing element as "(k, h, w): got G, expected E", and the number of differences.
inline std::string diff(const std::vector<int64_t>& got, const std::vector<int64_t>& want, const Layer& L) {
  std::size_t n = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      ++n;
      first = std::min(first, i);
    }
  }
  if (n == 0) return "";
  const auto hw = static_cast<std::size_t>(L.oh() * L.ow());
  const std::size_t k = first / hw, y = first % hw / static_cast<std::size_t>(L.ow()),
                    x = first % static_cast<std::size_t>(L.ow());
  return std::to_string(n) + " of " + std::to_string(got.size()) + " outputs differ; first (k, h, w) = (" +
         std::to_string(k) + ", " + std::to_string(y) + ", " + std::to_string(x) + "): got " +
         std::to_string(got[first]) + ", expected " + std::to_string(want[first]);
}

inline uint32_t cacc_saturation(Device& d, const dla::golden::HwConfig& hw) {
  const RegDb& db = RegDb::nvdla();
  return d.reg_read(*db.address(hw.name, *db.find("CACC.D_OUT_SATURATION")));
}

inline units::CompiledConv compile_at(const fs::path& f, uint64_t seed) {
  LoadedLayer l = load_layer(f);
  l.header.seed = seed;
  return units::compile_conv_layer(l.header, l.root());
}

// Runs the layer's program on the golden device and (when `rtl_opt` is given) the RTL together,
// and checks each device's output and CACC saturation count against the reference.
inline void check_layer(const fs::path& f, uint64_t seed, const RunOptions* rtl_opt) {
  const Layer L = read_layer(f, seed);
  const Expected e = reference(L);
  // The plain sum is what CACC computes only while no partial sum reaches its saturating width.
  REQUIRE(e.abs_sum_max < (int64_t{1} << (L.int16 ? 47 : 33)));
  const units::CompiledConv c = compile_at(f, seed);
  const dla::golden::HwConfig& hw = *dla::golden::find_config(L.config);
  GoldenDevice gold(hw);
  std::unique_ptr<Device> rtl;
  if (rtl_opt != nullptr) {
    std::string why;
    rtl = make_rtl_device(enabled_blocks(c.program), hw, *rtl_opt, why);
    INFO(why);
    REQUIRE(rtl != nullptr);
  }
  ProgramRunOptions po;
  po.mode = rtl ? "cross" : "golden";
  const RunResult r = run_program(c.program, &gold, rtl.get(), po);
  INFO(L.name << " seed " << seed << (rtl_opt ? " rand-reset " + std::to_string(rtl_opt->sim.rand_reset) : "")
              << "\n" << format_run(r));
  REQUIRE(r.status == Status::Pass);
  CHECK(diff(read_output(gold.memory(), c.out_layout.base, L), e.out, L) == "");
  CHECK(cacc_saturation(gold, hw) == e.cacc_saturated);
  if (!rtl) return;
  CHECK(diff(read_output(rtl->memory(), c.out_layout.base, L), e.out, L) == "");
  CHECK(cacc_saturation(*rtl, hw) == e.cacc_saturated);
  rtl->finish();
}

// Each layer in cross mode (golden and RTL) at 3 back-pressure seeds x rand-reset 0/1/2.
inline void run_rtl(const std::vector<fs::path>& files) {
  for (const auto& f : files) {
    for (RunOptions o : cross_stress::options()) check_layer(f, *o.seed, &o);
  }
}

// The value of `field` in the last write of BLOCK.REG in the program.
inline uint32_t written(const Program& p, const std::string& block, const std::string& reg, dla::golden::regs::Field field) {
  for (auto it = p.steps.rbegin(); it != p.steps.rend(); ++it) {
    if (it->op == StepOp::RegWrite && it->reg->block == block && it->reg->name == reg) {
      return dla::golden::regs::field(it->value, field);
    }
  }
  FAIL("no write of " << block << "." << reg);
  return 0;
}

// The reference comparison of a layer whose weight image `change` alters: the program compiled,
// the weight bytes changed, run on the golden device (without the status reads, which expect the
// unchanged layer's values); returns diff() of its output against the unchanged reference.
template <class F>
std::string diff_after_weight_change(const fs::path& f, F change) {
  const LoadedLayer l = load_layer(f);
  const Layer L = read_layer(f, l.header.seed);
  units::CompiledConv c = units::compile_conv_layer(l.header, l.root(), false);
  auto w = std::find_if(c.program.steps.begin(), c.program.steps.end(), [](const ProgramStep& s) {
    return s.op == StepOp::MemLoad && s.where.find("weights") != std::string::npos;
  });
  REQUIRE(w != c.program.steps.end());
  change(w->bytes, L);
  c.program.steps.erase(std::remove_if(c.program.steps.begin(), c.program.steps.end(),
                                       [](const ProgramStep& s) { return s.op == StepOp::RegRead; }),
                        c.program.steps.end());
  GoldenDevice gold(*l.header.config);
  const RunResult r = run_program(c.program, &gold, nullptr, {});
  REQUIRE(r.status == Status::Pass);
  return diff(read_output(gold.memory(), c.out_layout.base, L), reference(L).out, L);
}

// Strong: the outputs spread over many values and stay off the rails; small enough for the RTL;
// a ReLU clamps some but not most.
inline void check_strong(const Layer& L, const Expected& e) {
  const std::set<int64_t> distinct(e.out.begin(), e.out.end());
  CHECK(distinct.size() >= std::min<std::size_t>(16, e.out.size() / 2));
  const int64_t hi = L.out16 ? 32767 : 127;
  const auto rails = std::count_if(e.out.begin(), e.out.end(), [&](int64_t v) { return v == hi || v == -hi - 1; });
  CHECK(static_cast<std::size_t>(rails) * 4 <= e.out.size());
  CHECK(std::set<int64_t>(e.cacc.begin(), e.cacc.end()).size() >= std::min<std::size_t>(16, e.cacc.size() / 2));
  CHECK(e.out.size() <= 4000);
  if (L.bs.relu || L.bn.relu) {
    CHECK(e.relu_clamped > 0);
    CHECK(e.relu_clamped * 4 < static_cast<int64_t>(e.out.size()) * 3);
  }
}

// A malformed layer in tests/data/bad_layers and what its InputError must say.
struct Refusal {
  const char* file;
  const char* where;  // JSON pointer
  const char* rule;   // contained in the rule text
};
inline void check_refusals(const std::vector<Refusal>& cases) {
  for (const auto& c : cases) {
    const fs::path f = kBad / c.file;
    INFO(c.file);
    try {
      (void)load_layer(f);
      FAIL("accepted " << c.file);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.file() == f.string());
      CHECK(e.where() == c.where);
      CHECK_THAT(e.rule(), Catch::Contains(c.rule));
    }
  }
}

}  // namespace conv_ref
