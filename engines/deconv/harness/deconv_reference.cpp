#include "engines/deconv/harness/deconv_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace dla::harness::deconv_ref {

namespace {

constexpr uint64_t kOutBase = 0xc000'0000ull;  // docs/DECONV.md
constexpr uint64_t kAtom = 32;                 // nv_full's memory atom

int jint(const nlohmann::json& j, const char* key) { return j.contains(key) ? j[key].get<int>() : 0; }

uint64_t ceil_to(int v, int m) { return static_cast<uint64_t>((v + m - 1) / m * m); }

}  // namespace

uint64_t Layer::line_stride() const { return ceil_to(out_w(), conv.sx) * kAtom; }
uint64_t Layer::surface_stride() const { return ceil_to(out_h(), conv.sy) * line_stride(); }

Layer read_layer(const JsonNode& root, uint64_t seed) {
  Layer L;
  L.conv = conv_ref::read_layer(root, root.raw().value("name", std::string("deconv")), seed);
  const nlohmann::json& j = root.raw();
  const nlohmann::json crop = j.value("crop", nlohmann::json::object());
  L.crop_l = jint(crop, "left");
  L.crop_r = jint(crop, "right");
  L.crop_t = jint(crop, "top");
  L.crop_b = jint(crop, "bottom");
  const nlohmann::json op = j.value("output_padding", nlohmann::json::object());
  L.pad_x = jint(op, "x");
  L.pad_y = jint(op, "y");
  return L;
}

conv_ref::Expected reference(const Layer& L) {
  const conv_ref::Layer& c = L.conv;
  const int ow = L.out_w(), oh = L.out_h();
  const int bits = c.int16 ? 16 : 8;
  std::vector<int64_t> acc(static_cast<std::size_t>(int64_t{c.K} * oh * ow), 0);
  std::vector<int64_t> abs_sum(acc.size(), 0);
  for (int k = 0; k < c.K; ++k) {
    for (int ch = 0; ch < c.C; ++ch) {
      for (int h = 0; h < c.H; ++h) {
        for (int w = 0; w < c.W; ++w) {
          int64_t x = c.in[static_cast<std::size_t>((int64_t{ch} * c.H + h) * c.W + w)];
          if (c.cvt) x = conv_ref::clamp_bits(conv_ref::rhaz((x - c.cvt_offset) * c.cvt_scale, c.cvt_truncate), bits);
          for (int r = 0; r < c.R; ++r) {
            const int oy = h * c.sy + r - L.crop_t;
            if (oy < 0 || oy >= oh) continue;
            for (int s = 0; s < c.S; ++s) {
              const int ox = w * c.sx + s - L.crop_l;
              if (ox < 0 || ox >= ow) continue;
              const int64_t p = x * c.wt[static_cast<std::size_t>(((int64_t{k} * c.C + ch) * c.R + r) * c.S + s)];
              const auto i = static_cast<std::size_t>((int64_t{k} * oh + oy) * ow + ox);
              acc[i] += p;
              abs_sum[i] += p < 0 ? -p : p;
            }
          }
        }
      }
    }
  }
  conv_ref::Expected e;
  e.out.reserve(acc.size());
  for (int k = 0; k < c.K; ++k) {
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        const auto i = static_cast<std::size_t>((int64_t{k} * oh + oy) * ow + ox);
        e.abs_sum_max = std::max(e.abs_sum_max, abs_sum[i]);
        e.out.push_back(conv_ref::convert_output(c, acc[i], k, oy, ox, oh, ow, e));
      }
    }
  }
  return e;
}

std::string not_applicable(const Layer& L, const conv_ref::Expected& e) { return conv_ref::not_applicable(L.conv, e); }

std::vector<int64_t> read_output(const Memory& m, const Layer& L) {
  const int bpe = L.conv.out16 ? 2 : 1;
  const int ca = static_cast<int>(kAtom) / bpe;
  std::vector<int64_t> out;
  out.reserve(static_cast<std::size_t>(int64_t{L.conv.K} * L.out_h() * L.out_w()));
  for (int k = 0; k < L.conv.K; ++k) {
    for (int y = 0; y < L.out_h(); ++y) {
      for (int x = 0; x < L.out_w(); ++x) {
        const uint64_t a = kOutBase + static_cast<uint64_t>(k / ca) * L.surface_stride() +
                           static_cast<uint64_t>(y) * L.line_stride() + static_cast<uint64_t>(x) * kAtom +
                           static_cast<uint64_t>(k % ca) * static_cast<uint64_t>(bpe);
        const int64_t lo = m.read(a);
        out.push_back(bpe == 1 ? static_cast<int8_t>(lo) : static_cast<int16_t>(lo | int64_t{m.read(a + 1)} << 8));
      }
    }
  }
  return out;
}

std::string compare(const Layer& L, const Memory& m) {
  const std::vector<int64_t> got = read_output(m, L);
  const std::vector<int64_t> want = reference(L).out;
  std::size_t n = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i] && n++ == 0) first = i;
  }
  if (n == 0) return "";
  const auto hw = static_cast<std::size_t>(L.out_h()) * static_cast<std::size_t>(L.out_w());
  const auto w = static_cast<std::size_t>(L.out_w());
  return fmt::format("{} of {} outputs differ; first (k, h, w) = ({}, {}, {}): got {}, expected {}", n, got.size(),
                     first / hw, first % hw / w, first % w, got[first], want[first]);
}

}  // namespace dla::harness::deconv_ref
