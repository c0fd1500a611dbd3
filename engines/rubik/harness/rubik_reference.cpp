// Independent reference for `rubik` layers: element loops from each mode's meaning
// (harness/rubik_reference.hpp); nothing from golden/.
#include "engines/rubik/harness/rubik_reference.hpp"

#include <fmt/format.h>

#include <map>

#include "harness/layer.hpp"

namespace dla::harness::rubik_ref {

namespace {

uint64_t up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
uint64_t n64(int v) { return static_cast<uint64_t>(v); }

uint64_t opt(const JsonNode& n, const char* key, uint64_t dflt) {
  const auto v = n.get(key);
  return v ? v->as_u64() : dflt;
}

}  // namespace

Layer read_layer(const JsonNode& root, uint64_t seed) {
  Layer L;
  L.mode = root.require("mode").as_string();
  L.bpe = root.require("precision").as_string() == "int8" ? 1 : 2;  // int16, fp16
  const JsonNode cube = root.require("cube");
  L.W = static_cast<int>(cube.require("w").as_int(1, 1 << 20));
  L.H = static_cast<int>(cube.require("h").as_int(1, 1 << 20));
  L.C = static_cast<int>(cube.require("c").as_int(1, 1 << 20));
  if (const auto s = root.get("stride")) {
    if (const auto x = s->get("x")) L.sx = static_cast<int>(x->as_int(1, 64));
    if (const auto y = s->get("y")) L.sy = static_cast<int>(y->as_int(1, 64));
  }
  const JsonNode in = root.require("input");
  const JsonNode out = root.require("output");
  L.in_base = opt(in, "base", kInputBase);
  L.out_base = opt(out, "base", kOutputBase);
  const uint64_t surfaces = up(n64(L.C) * n64(L.bpe), 32) / 32;
  const uint64_t cube_line = n64(L.W) * 32;
  const uint64_t plane_line = up(up(n64(L.W) * n64(L.bpe), 32), 64);
  if (L.mode == "merge") {
    L.in_line = opt(in, "line_stride", plane_line);
    L.in_planar = opt(in, "planar_stride", n64(L.H) * L.in_line);
  } else {
    L.in_line = opt(in, "line_stride", cube_line);
    L.in_surface = opt(in, "surface_stride", n64(L.H) * L.in_line);
    L.in_contract = opt(in, "contract_stride", surfaces * L.in_surface);
  }
  if (L.mode == "split") {
    L.out_line = opt(out, "line_stride", plane_line);
    L.out_planar = opt(out, "planar_stride", n64(L.H) * L.out_line);
  } else if (L.mode == "contract") {
    L.out_line = opt(out, "line_stride", cube_line * n64(L.sx));
    L.out_contract = opt(out, "contract_stride", n64(L.sy) * L.out_line);
    L.out_surface = opt(out, "surface_stride", n64(L.H) * L.out_contract);
  } else {
    L.out_line = opt(out, "line_stride", cube_line);
    L.out_surface = opt(out, "surface_stride", n64(L.H) * L.out_line);
  }
  const std::size_t count = static_cast<std::size_t>(L.sx) * static_cast<std::size_t>(L.sy) *
                            static_cast<std::size_t>(L.C) * static_cast<std::size_t>(L.H) *
                            static_cast<std::size_t>(L.W);
  const int bits = 8 * L.bpe;
  // fp16: 16-bit patterns (the reference moves bytes; what they mean does not matter)
  L.values = root.require("precision").as_string() == "fp16"
                 ? resolve_fp16_values(in.require("data"), count, seed)
                 : resolve_values(in.require("data"), count, L.bpe, -(int64_t{1} << (bits - 1)),
                                  (int64_t{1} << (bits - 1)) - 1, seed);
  return L;
}

std::vector<uint8_t> expected_output(const Layer& L) {
  std::map<uint64_t, uint8_t> w;  // every byte the layer writes
  const auto put = [&](uint64_t addr, int64_t v) {
    for (int b = 0; b < L.bpe; ++b) w[addr + n64(b)] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b));
  };
  const int lanes = 32 / L.bpe;
  const int padded = static_cast<int>(up(n64(L.C), n64(lanes)));  // channels incl. the last atom's padding
  const auto value = [&](int block, int c, int h, int x) {       // element c of block (sub-cube / plane set)
    const std::size_t i = ((static_cast<std::size_t>(block) * n64(L.C) + n64(c)) * n64(L.H) + n64(h)) * n64(L.W) + n64(x);
    return L.values.at(i);
  };
  if (L.mode == "contract") {
    for (int Y = 0; Y < L.H * L.sy; ++Y) {
      for (int X = 0; X < L.W * L.sx; ++X) {
        const int sub = (Y % L.sy) * L.sx + (X % L.sx);
        const uint64_t line = L.out_base + n64(Y / L.sy) * L.out_contract + n64(Y % L.sy) * L.out_line;
        for (int c = 0; c < padded; ++c) {
          const int64_t v = c < L.C ? value(sub, c, Y / L.sy, X / L.sx) : 0;  // padded lanes were loaded 0
          put(line + n64(c / lanes) * L.out_surface + n64(X) * 32 + n64(c % lanes) * n64(L.bpe), v);
        }
      }
    }
  } else if (L.mode == "split") {
    const uint64_t line_bytes = up(n64(L.W) * n64(L.bpe), 32);
    for (int c = 0; c < L.C; ++c) {
      for (int h = 0; h < L.H; ++h) {
        const uint64_t line = L.out_base + n64(c) * L.out_planar + n64(h) * L.out_line;
        for (int x = 0; x < L.W; ++x) put(line + n64(x) * n64(L.bpe), value(0, c, h, x));
        for (uint64_t b = n64(L.W) * n64(L.bpe); b < line_bytes; ++b) w[line + b] = 0;
      }
    }
  } else {
    for (int c = 0; c < padded; ++c) {
      for (int h = 0; h < L.H; ++h) {
        for (int x = 0; x < L.W; ++x) {
          put(L.out_base + n64(c / lanes) * L.out_surface + n64(h) * L.out_line + n64(x) * 32 +
                  n64(c % lanes) * n64(L.bpe),
              c < L.C ? value(0, c, h, x) : 0);
        }
      }
    }
  }
  std::vector<uint8_t> region(w.rbegin()->first + 1 - L.out_base, kOutputFill);
  for (const auto& [a, v] : w) region.at(a - L.out_base) = v;
  return region;
}

std::string compare(const Layer& L, const Memory& mem) {
  const std::vector<uint8_t> want = expected_output(L);
  const std::vector<uint8_t> got = mem.read(L.out_base, want.size());
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == got[i]) continue;
    if (bad++ == 0) {
      first = fmt::format("byte {:#x} (offset {} of the output region): expected {:#04x}, got {:#04x}",
                          L.out_base + i, i, want[i], got[i]);
    }
  }
  return bad == 0 ? "" : fmt::format("{}; {} of {} bytes differ", first, bad, want.size());
}

}  // namespace dla::harness::rubik_ref
