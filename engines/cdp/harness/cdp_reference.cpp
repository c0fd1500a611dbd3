// int64 reference for `cdp` layers (engines/cdp/harness/cdp_reference.hpp). Plain loops from
// ../shared/reference/pdp-cdp-bdma-rubik.md §3 and nvdla-arithmetic.md §5; from golden/ only the
// verified LUT lookup.
#include "engines/cdp/harness/cdp_reference.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/layer.hpp"
#include "harness/reference_facts.hpp"
#include "engines/pdp/harness/pdp_reference.hpp"
#include "engines/lut/harness/lut.hpp"

namespace dla::harness::cdp_ref {

namespace {

int64_t opt_int(const JsonNode& n, const char* key, int64_t def) {
  const auto v = n.get(key);
  return v ? v->as_int(INT64_MIN, INT64_MAX) : def;
}

bool opt_bool(const JsonNode& n, const char* key, bool def) {
  const auto v = n.get(key);
  return v ? v->as_bool() : def;
}

// v / 2^s rounded half away from zero; |v| < 2^62, 0 <= s <= 62.
int64_t rhaz(int64_t v, int s) {
  if (s == 0) return v;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t q = (mag + (int64_t{1} << (s - 1))) >> s;
  return v < 0 ? -q : q;
}

int64_t clamp_bits(int64_t v, int bits, bool& clamped) {
  const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
  clamped = v < lo || v > hi;
  return std::clamp(v, lo, hi);
}

void count(uint32_t& c) {
  if (c != 0xffffffffu) ++c;
}

}  // namespace

uint64_t Layer::out_address(int c, int y, int x) const {
  const int ca = atom / bpe();
  return out_base + static_cast<uint64_t>(c / ca) * out_surface_stride + static_cast<uint64_t>(y) * out_line_stride +
         static_cast<uint64_t>(x) * static_cast<uint64_t>(atom) + static_cast<uint64_t>(c % ca) * static_cast<uint64_t>(bpe());
}

Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed) {
  Layer L;
  L.name = name;
  L.config = root.require("config").as_string();
  L.atom = reference_atom_bytes(L.config);
  const JsonNode cube = root.require("cube");
  L.W = static_cast<int>(cube.require("w").as_int(1, 8192));
  L.H = static_cast<int>(cube.require("h").as_int(1, 8192));
  L.C = static_cast<int>(cube.require("c").as_int(1, 8192));
  const JsonNode in = root.require("input");
  L.int16 = in.require("precision").as_string() == "int16";
  const JsonNode lrn = root.require("lrn");
  L.window = static_cast<int>(lrn.require("window").as_int(3, 9));
  L.sqsum_bypass = opt_bool(lrn, "sqsum_bypass", false);
  L.mul_bypass = opt_bool(lrn, "mul_bypass", false);
  if (const auto c = root.get("in_cvt")) {
    L.in_offset = opt_int(*c, "offset", 0);
    L.in_scale = opt_int(*c, "scale", 1);
    L.in_shift = static_cast<int>(opt_int(*c, "shift", 0));
  }
  if (const auto c = root.get("out_cvt")) {
    L.out_offset = opt_int(*c, "offset", 0);
    L.out_scale = opt_int(*c, "scale", 1);
    L.out_shift = static_cast<int>(opt_int(*c, "shift", 0));
  }
  L.perf_lut = opt_bool(root, "perf_lut_en", true);
  const golden::LutProgram lp = engines::parse_lut_object(
      golden::LutVariant::Cdp, L.int16 ? golden::LutPrecision::Int16 : golden::LutPrecision::Int8, root.require("lut"));
  L.lut = lp.config;
  L.tables = lp.tables;
  const int bits = 8 * L.bpe();
  L.in = resolve_values(in.require("data"), static_cast<std::size_t>(int64_t{L.C} * L.H * L.W), L.bpe(),
                        -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1, seed);
  const JsonNode o = root.require("output");
  L.out_base = static_cast<uint64_t>(opt_int(o, "base", static_cast<int64_t>(kOutputBase)));
  L.out_line_stride = static_cast<uint64_t>(opt_int(o, "line_stride", int64_t{L.W} * L.atom));
  L.out_surface_stride = static_cast<uint64_t>(opt_int(o, "surface_stride", static_cast<int64_t>(L.out_line_stride) * L.H));
  return L;
}

Layer read_layer(const std::filesystem::path& file, uint64_t seed) {
  const LoadedLayer ll = load_layer(file);
  return read_layer(ll.root(), file.stem().string(), seed);
}

Result reference(const Layer& L) {
  const int lanes = L.lanes();
  const int xbits = L.int16 ? 17 : 9;
  const int obits = L.int16 ? 16 : 8;
  const int half = (L.window - 1) / 2;
  Result res;
  res.out.assign(static_cast<std::size_t>(lanes) * L.H * L.W, 0);
  std::vector<int64_t> x(static_cast<std::size_t>(lanes));
  for (int y = 0; y < L.H; ++y) {
    for (int w = 0; w < L.W; ++w) {
      for (int c = 0; c < lanes; ++c) {
        bool clamped = false;
        x[static_cast<std::size_t>(c)] =
            c < L.C ? clamp_bits(rhaz((L.in[(static_cast<std::size_t>(c) * L.H + y) * L.W + w] - L.in_offset) * L.in_scale,
                                      L.in_shift),
                                 xbits, clamped)
                    : 0;
      }
      for (int c = 0; c < lanes; ++c) {
        int64_t q = 0;
        if (L.sqsum_bypass) {
          q = x[static_cast<std::size_t>(c)];
        } else {
          for (int j = std::max(0, c - half); j <= std::min(L.C - 1, c + half); ++j) q += x[static_cast<std::size_t>(j)] * x[static_cast<std::size_t>(j)];
        }
        const golden::LutResult r = golden::lut_lookup(golden::LutVariant::Cdp, L.lut, L.tables, q);
        if (L.perf_lut) {
          using S = golden::LutTableStatus;
          const S le = r.le_status, lo = r.lo_status;
          if (le == S::Uflow && lo == S::Uflow) count(res.stats.uflow);
          else if (le == S::Oflow && lo == S::Oflow) count(res.stats.oflow);
          else if (le == S::Hit && lo != S::Hit) count(res.stats.le_hit);
          else if (lo == S::Hit && le != S::Hit) count(res.stats.lo_hit);
          else {
            count(res.stats.hybrid);  // both hit, or one under- and one overflow
            if (le != S::Hit) count(res.stats.mixed);
          }
        }
        const int64_t p = L.mul_bypass ? r.value : r.value * x[static_cast<std::size_t>(c)];
        const int64_t v = (p - L.out_offset) * L.out_scale;
        bool clamped = false;
        const int64_t out = clamp_bits(rhaz(v, L.out_shift), obits, clamped);
        // NVDLA counts a clamp only where the plain floor shift lies more than 1 from the output
        // (IntShiftRightSat in NVIDIA's HLS converter): a floor one past the range is not counted.
        const int64_t floor_q = v >> L.out_shift;
        if (clamped && (floor_q - out > 1 || floor_q - out < -1)) count(res.stats.saturation);
        res.out[(static_cast<std::size_t>(c) * L.H + y) * L.W + w] = out;
      }
    }
  }
  return res;
}

std::vector<int64_t> read_output(const Layer& L, const Memory& mem) {
  return pdp_ref::read_elements(mem, L.lanes(), L.H, L.W, L.bpe(), [&](int c, int y, int x) { return L.out_address(c, y, x); });
}

std::string compare(const Layer& L, const std::vector<int64_t>& actual) {
  const std::vector<int64_t> expect = reference(L).out;
  if (actual.size() != expect.size()) {
    return fmt::format("{}: {} values read, {} expected", L.name, actual.size(), expect.size());
  }
  std::size_t bad = 0, first = expect.size();
  for (std::size_t i = 0; i < expect.size(); ++i) {
    if (actual[i] != expect[i] && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  const std::size_t plane = static_cast<std::size_t>(L.H) * L.W;
  return fmt::format("{}: {} of {} values differ; first at lane {} y {} x {}: {} (reference {})", L.name, bad,
                     expect.size(), first / plane, first % plane / L.W, first % L.W, actual[first], expect[first]);
}

}  // namespace dla::harness::cdp_ref
