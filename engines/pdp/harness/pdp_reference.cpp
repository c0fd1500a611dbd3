// int64 pooling reference for `pdp` layers (engines/pdp/harness/pdp_reference.hpp). Plain loops
// from ../shared/reference/pdp-cdp-bdma-rubik.md §2; nothing from golden/.
#include "engines/pdp/harness/pdp_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/layer.hpp"
#include "harness/reference_facts.hpp"

namespace dla::harness::pdp_ref {

namespace {

using json = nlohmann::json;

int jint(const json& j, const char* key, int def) { return j.contains(key) ? j[key].get<int>() : def; }

}  // namespace

uint64_t Layer::out_address(int c, int y, int x) const {
  const int ca = atom / bpe();
  return out_base + static_cast<uint64_t>(c / ca) * out_surface_stride + static_cast<uint64_t>(y) * out_line_stride +
         static_cast<uint64_t>(x) * static_cast<uint64_t>(atom) + static_cast<uint64_t>(c % ca) * static_cast<uint64_t>(bpe());
}

std::vector<int64_t> read_elements(const Memory& mem, int lanes, int h, int w, int bpe,
                                   const std::function<uint64_t(int c, int y, int x)>& address) {
  std::vector<int64_t> out;
  out.reserve(static_cast<std::size_t>(lanes) * h * w);
  const int bits = 8 * bpe;
  for (int c = 0; c < lanes; ++c) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const uint64_t a = address(c, y, x);
        int64_t v = 0;
        for (int b = 0; b < bpe; ++b) v |= int64_t{mem.read(a + static_cast<uint64_t>(b))} << (8 * b);
        if (v >= (int64_t{1} << (bits - 1))) v -= int64_t{1} << bits;
        out.push_back(v);
      }
    }
  }
  return out;
}

Layer read_layer(const JsonNode& root, const std::string& name, uint64_t seed) {
  const json& j = root.raw();
  Layer L;
  L.name = name;
  L.config = j["config"].get<std::string>();
  L.atom = reference_atom_bytes(L.config);
  L.W = j["cube"]["w"].get<int>();
  L.H = j["cube"]["h"].get<int>();
  L.C = j["cube"]["c"].get<int>();
  L.int16 = j["input"]["precision"].get<std::string>() == "int16";
  const json& p = j["pool"];
  L.method = p["method"].get<std::string>();
  L.kw = jint(p["kernel"], "w", 1);
  L.kh = jint(p["kernel"], "h", 1);
  const json st = p.value("stride", json::object());
  L.sw = jint(st, "w", 1);
  L.sh = jint(st, "h", 1);
  const json pad = p.value("pad", json::object());
  L.pl = jint(pad, "left", 0);
  L.pr = jint(pad, "right", 0);
  L.pt = jint(pad, "top", 0);
  L.pb = jint(pad, "bottom", 0);
  L.pad_value = pad.value("value", int64_t{0});
  if (j.contains("split")) L.splits = j["split"].contains("num") ? j["split"]["num"].get<int>() : 0;
  const int bits = 8 * L.bpe();
  L.in = resolve_values(root.require("input").require("data"), static_cast<std::size_t>(int64_t{L.C} * L.H * L.W),
                        L.bpe(), -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1, seed);
  const json& o = j["output"];
  const uint64_t line = static_cast<uint64_t>(L.ow()) * static_cast<uint64_t>(L.atom);
  L.out_base = o.value("base", uint64_t{0xc000'0000ull});
  L.out_line_stride = o.value("line_stride", line);
  L.out_surface_stride = o.value("surface_stride", static_cast<uint64_t>(L.oh()) * L.out_line_stride);
  return L;
}

Layer read_layer(const std::filesystem::path& file, uint64_t seed) {
  const LoadedLayer ll = load_layer(file);
  return read_layer(ll.root(), file.stem().string(), seed);
}

int64_t rhaz(int64_t v, int s) {
  if (s == 0) return v;
  const int64_t mag = v < 0 ? -v : v;
  const int64_t q = (mag + (int64_t{1} << (s - 1))) >> s;  // |v| / 2^s, halves up
  return v < 0 ? -q : q;
}

std::vector<int64_t> reference(const Layer& L) {
  const int lanes = L.lanes(), oh = L.oh(), ow = L.ow();
  const int64_t recip_w = 65536 / L.kw, recip_h = 65536 / L.kh;
  std::vector<int64_t> out;
  out.reserve(static_cast<std::size_t>(lanes) * oh * ow);
  for (int c = 0; c < lanes; ++c) {
    for (int y = 0; y < oh; ++y) {
      for (int x = 0; x < ow; ++x) {
        int64_t sum = 0, best = 0;
        bool any = false;
        for (int i = 0; i < L.kh; ++i) {
          for (int k = 0; k < L.kw; ++k) {
            const int r = y * L.sh - L.pt + i, q = x * L.sw - L.pl + k;
            if (r < 0 || r >= L.H || q < 0 || q >= L.W) {
              sum += L.pad_value;  // padding counts in the average only
              continue;
            }
            const int64_t v = c < L.C ? L.in[(static_cast<std::size_t>(c) * L.H + r) * L.W + q] : 0;
            sum += v;
            if (!any) best = v;
            best = L.method == "max" ? std::max(best, v) : std::min(best, v);
            any = true;
          }
        }
        out.push_back(L.method == "average" ? rhaz(rhaz(sum * recip_w, 16) * recip_h, 16) : best);
      }
    }
  }
  return out;
}

std::vector<int64_t> read_output(const Layer& L, const Memory& mem) {
  return read_elements(mem, L.lanes(), L.oh(), L.ow(), L.bpe(), [&](int c, int y, int x) { return L.out_address(c, y, x); });
}

std::string compare(const Layer& L, const std::vector<int64_t>& actual) {
  const std::vector<int64_t> expect = reference(L);
  if (actual.size() != expect.size()) {
    return fmt::format("{}: {} values read, {} expected", L.name, actual.size(), expect.size());
  }
  std::size_t bad = 0, first = expect.size();
  for (std::size_t i = 0; i < expect.size(); ++i) {
    if (actual[i] != expect[i]) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return "";
  const std::size_t plane = static_cast<std::size_t>(L.oh()) * L.ow();
  return fmt::format("{}: {} of {} values differ; first at lane {} y {} x {}: {} (reference {})", L.name, bad,
                     expect.size(), first / plane, first % plane / L.ow(), first % L.ow(), actual[first], expect[first]);
}

}  // namespace dla::harness::pdp_ref
