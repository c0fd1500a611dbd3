// docs/LINEBUF.md §1 as plain loops (harness/linebuf_reference.hpp).
#include "engines/linebuf/harness/linebuf_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace dla::harness::linebuf_ref {

using golden::LinebufAct;
using golden::LinebufKind;
using golden::LinebufLayer;
using golden::LinebufMap;

namespace {

using I128 = __int128;

int64_t round_shift_clamp(I128 v, int s, int bits) {
  I128 q = v;
  if (s > 0) {
    const I128 div = static_cast<I128>(1) << s;
    q = v / div;
    I128 rem = v - q * div;  // C++ division truncates: make q the floor
    if (rem < 0) {
      q -= 1;
      rem += div;
    }
    const I128 half = div / 2;
    if (rem > half || (rem == half && v >= 0)) q += 1;
  }
  const I128 hi = (static_cast<I128>(1) << (bits - 1)) - 1;
  const I128 lo = -hi - 1;
  return static_cast<int64_t>(q > hi ? hi : q < lo ? lo : q);
}

int64_t out_stage(int64_t acc, const LinebufLayer& L, int bits) {
  I128 v = acc;
  if (L.out.act == LinebufAct::Relu && acc < 0) v = 0;
  if (L.out.act == LinebufAct::Leaky && acc < 0) {
    v = round_shift_clamp(static_cast<I128>(acc) * L.out.leaky_slope, L.out.leaky_shift, 64);
  }
  return round_shift_clamp(v, L.out.out_shift, bits);
}

}  // namespace

LinebufMap layer(const LinebufMap& in, const LinebufLayer& L, int bits) {
  LinebufMap out;
  if (L.kind == LinebufKind::Fc) {
    out = {L.outputs, 1, 1, {}};
    const std::size_t n = in.data.size();
    for (int m = 0; m < L.outputs; ++m) {
      int64_t acc = L.bias[static_cast<std::size_t>(m)];
      for (std::size_t i = 0; i < n; ++i) acc += in.data[i] * L.weights[static_cast<std::size_t>(m) * n + i];
      out.data.push_back(out_stage(acc, L, bits));
    }
    return out;
  }
  // Padded copy, then a plain 3x3 correlation.
  const int hp = in.h + 2 * L.pad, wp = in.w + 2 * L.pad;
  std::vector<int64_t> padded(static_cast<std::size_t>(in.c) * hp * wp, 0);
  for (int c = 0; c < in.c; ++c) {
    for (int y = 0; y < in.h; ++y) {
      for (int x = 0; x < in.w; ++x) {
        padded[(static_cast<std::size_t>(c) * hp + y + L.pad) * wp + x + L.pad] =
            in.data[(static_cast<std::size_t>(c) * in.h + y) * in.w + x];
      }
    }
  }
  const int ho = hp - 2, wo = wp - 2;
  std::vector<int64_t> conv;
  for (int k = 0; k < L.outputs; ++k) {
    for (int y = 0; y < ho; ++y) {
      for (int x = 0; x < wo; ++x) {
        int64_t acc = L.bias[static_cast<std::size_t>(k)];
        for (int c = 0; c < in.c; ++c) {
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              acc += padded[(static_cast<std::size_t>(c) * hp + y + i) * wp + x + j] *
                     L.weights[static_cast<std::size_t>(((k * in.c + c) * 3 + i) * 3 + j)];
            }
          }
        }
        conv.push_back(out_stage(acc, L, bits));
      }
    }
  }
  if (!L.pool) return {L.outputs, ho, wo, conv};
  out = {L.outputs, ho / 2, wo / 2, {}};
  for (int k = 0; k < L.outputs; ++k) {
    for (int y = 0; y < ho / 2; ++y) {
      for (int x = 0; x < wo / 2; ++x) {
        const auto at = [&](int yy, int xx) { return conv[(static_cast<std::size_t>(k) * ho + yy) * wo + xx]; };
        out.data.push_back(std::max(std::max(at(2 * y, 2 * x), at(2 * y, 2 * x + 1)),
                                    std::max(at(2 * y + 1, 2 * x), at(2 * y + 1, 2 * x + 1))));
      }
    }
  }
  return out;
}

std::vector<LinebufMap> stack(const LinebufMap& in, const std::vector<LinebufLayer>& layers, int bits) {
  std::vector<LinebufMap> outs;
  const LinebufMap* cur = &in;
  for (const LinebufLayer& L : layers) {
    outs.push_back(layer(*cur, L, bits));
    cur = &outs.back();
  }
  return outs;
}

std::string first_difference(const std::vector<LinebufMap>& got, const std::vector<LinebufMap>& ref) {
  if (got.size() != ref.size()) return fmt::format("{} maps, the reference has {}", got.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const LinebufMap& g = got[i];
    const LinebufMap& r = ref[i];
    if (g.c != r.c || g.h != r.h || g.w != r.w || g.data.size() != r.data.size()) {
      return fmt::format("layer {}: {}x{}x{} (CxHxW), the reference {}x{}x{}", i, g.c, g.h, g.w, r.c, r.h, r.w);
    }
    for (std::size_t e = 0; e < r.data.size(); ++e) {
      if (g.data[e] != r.data[e]) {
        const auto w = static_cast<std::size_t>(r.w), h = static_cast<std::size_t>(r.h);
        return fmt::format("layer {} at (c={}, y={}, x={}): {}, the reference {}", i, e / (w * h), (e / w) % h, e % w,
                           g.data[e], r.data[e]);
      }
    }
  }
  return "";
}

}  // namespace dla::harness::linebuf_ref
