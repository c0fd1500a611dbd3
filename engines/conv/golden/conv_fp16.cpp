#include "engines/conv/golden/conv_fp16.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "engines/cmac/golden/cmac_fp16.hpp"
#include "engines/conv/golden/cacc_fp16.hpp"
#include "engines/conv/golden/conv_image.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/fp.hpp"

namespace dla::golden {

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

uint16_t bits16(int64_t v) { return static_cast<uint16_t>(v); }

}  // namespace

std::vector<std::string> conv_fp16_unsupported(const ConvConfig& c) {
  std::vector<std::string> u;
  if (c.precision != Precision::Fp16) return u;
  const std::string pre = "fp16 convolution: ";
  if (c.wfold_ws != 0) u.push_back(pre + "W-fold is not an NVDLA mode and has no fp16 path");
  // Feature input: NVIDIA's C model leaves CVT_EN with fp16 undefined ("cvt_en should be false");
  // image input converts integer pixels to fp16 (conv_image.cpp image_convert).
  if (c.cvt.enabled && !c.image.enabled)
    u.push_back(pre + "the CDMA input converter (D_CVT_CFG.CVT_EN) applies to image input only in fp16 (docs/FP16.md)");
  if (c.atomic_c != kCmacFp16Channels)
    u.push_back(pre + "the MAC cell has " + std::to_string(kCmacFp16Channels) + " channels, ATOMIC_C is " +
                std::to_string(c.atomic_c));
  return u;
}

ConvRun run_conv_direct_fp16(const ConvConfig& cfg, const ByteReader& read, const Cube<int64_t>& in,
                             const std::vector<int>& stripes, int rows_per_atom) {
  if (const std::vector<std::string> u = conv_fp16_unsupported(cfg); !u.empty() || cfg.precision != Precision::Fp16)
    throw std::invalid_argument("run_conv_direct_fp16: " + (u.empty() ? std::string("not an fp16 layer") : u.front()));
  constexpr int kCh = kCmacFp16Channels;
  const int kk = cfg.atomic_k;
  const int C = cfg.input.c;
  const int K = cfg.kernels, R = cfg.kernel_h, S = cfg.kernel_w;
  const int OW = cfg.output.w, OH = cfg.output.h;
  const int N = std::max(1, cfg.input.n);
  const int groups = ceil_div(K, kk);
  const int blocks = ceil_div(C, kCh);
  const WeightLayout wl = cfg.weight_layout();
  const int E = rows_per_atom;
  if ((E != 1 && E != 2 && E != 4) || (E > 1 && (S != 1 || C > kCh / E)))
    throw std::invalid_argument("run_conv_direct_fp16: post-extension by " + std::to_string(E) +
                                " rows needs one kernel column and C' <= 64 / E");
  const int lanes_per_row = kCh / E;  // E = 1: the whole atom

  using Lanes = std::array<uint16_t, kCh>;
  using Mask = std::array<bool, kCh>;
  // CSC masks every lane whose datum or weight is +0 or -0 (channels beyond C are zero-filled):
  // a masked lane adds nothing and does not take part in the atom's exponent.
  const auto nonzero = [](uint16_t v) { return (v & 0x7fffu) != 0; };
  // One kernel's weights of a (channel block, r, s) as its cell holds them, with their mask.
  struct CellWeights {
    Lanes w{};
    Mask active{};
  };
  // Kernel rows r0 .. r0 + rows - 1 of a (channel block, s), row i at lanes i * lanes_per_row.
  auto load_weights = [&](int k, int b, int r0, int rows, int s) {
    CellWeights cw;
    const int cpb = std::min(lanes_per_row, C - b * kCh);
    for (int i = 0; i < rows; ++i) {
      for (int ci = 0; ci < cpb; ++ci) {
        const auto lane = static_cast<std::size_t>(i * lanes_per_row + ci);
        cw.w[lane] = bits16(conv_read_element(read, cfg.weight_base + wl.offset(k, b * kCh + ci, r0 + i, s), 2));
        cw.active[lane] = nonzero(cw.w[lane]);
      }
    }
    return cw;
  };

  ConvRun run;
  run.cacc = Cube<int64_t>(CubeShape{N, cfg.output_lanes(), OH, OW}, 0);
  run.stats.stripes_per_group = static_cast<int>(stripes.size());
  std::vector<CellWeights> wset;
  Lanes data{};
  Mask data_active{};
  Mask active{};
  for (int g = 0; g < groups; ++g) {
    const int kpg = std::min(kk, K - g * kk);
    int first = 0;
    for (const int len : stripes) {
      // CACC's accumulators of the stripe; each starts empty at its first atom.
      std::vector<CaccFp48> acc(static_cast<std::size_t>(len * N) * static_cast<std::size_t>(kk), 0);
      for (int b = 0; b < blocks; ++b) {
        const int cpb = std::min(lanes_per_row, C - b * kCh);
        for (int r0 = 0; r0 < R; r0 += E) {
          const int rows = std::min(E, R - r0);  // the row group's rows (a last group may be short)
          for (int s = 0; s < S; ++s) {
            wset.clear();
            for (int k = 0; k < kpg; ++k) wset.push_back(load_weights(g * kk + k, b, r0, rows, s));
            for (int i = 0; i < len * N; ++i) {
              const int p = first + i / N;
              const int n = i % N;
              data.fill(0);
              for (int ri = 0; ri < rows; ++ri) {
                const ConvTap t = conv_tap(cfg, p, r0 + ri, s);
                for (int ci = 0; ci < cpb; ++ci) {
                  data[static_cast<std::size_t>(ri * lanes_per_row + ci)] =
                      bits16(t.inside ? in.at(n, b * kCh + ci, t.h, t.w) : cfg.pad_value);
                }
              }
              for (std::size_t c = 0; c < data.size(); ++c) data_active[c] = nonzero(data[c]);
              ++run.stats.atomic_ops;
              for (int k = 0; k < kpg; ++k) {
                const CellWeights& cw = wset[static_cast<std::size_t>(k)];
                for (std::size_t c = 0; c < active.size(); ++c) active[c] = data_active[c] && cw.active[c];
                const CmacFp16Out out = cmac_fp16_cell(data, cw.w, active, false);
                CaccFp48& a = acc[static_cast<std::size_t>(i * kk + k)];
                a = cacc_fp16_add(a, out.word[0]);
              }
            }
          }
        }
      }
      for (int i = 0; i < len * N; ++i) {
        const int p = first + i / N;
        for (int k = 0; k < kpg; ++k) {
          run.cacc.at(i % N, g * kk + k, p / OW, p % OW) =
              cacc_fp48_to_fp32(acc[static_cast<std::size_t>(i * kk + k)]);
        }
      }
      first += len;
    }
  }
  return run;
}

ConvFp16Counts conv_fp16_counts(const ConvConfig& cfg, const ByteReader& read, const ConvFp16Counts& last) {
  ConvFp16Counts n;
  // A reusing client fetches nothing, and NVIDIA's C model then leaves its counters as the last
  // fetch set them (it clears them where a fetch starts).
  if (cfg.cbuf.data_reuse) {
    n.data_nan = last.data_nan;
    n.data_inf = last.data_inf;
  }
  if (cfg.cbuf.weight_reuse) {
    n.weight_nan = last.weight_nan;
    n.weight_inf = last.weight_inf;
  }
  const auto sat_add = [](uint32_t& c) { c = c == UINT32_MAX ? c : c + 1; };
  const auto count = [&](uint64_t addr, uint32_t& nan, uint32_t& inf) {
    const auto h = static_cast<uint32_t>(read(addr) | (read(addr + 1) << 8));
    if (fp::is_nan(fp::kFp16, h)) sat_add(nan);
    if (fp::is_inf(fp::kFp16, h)) sat_add(inf);
  };
  if (cfg.precision != Precision::Fp16) return n;
  if (cfg.mode == ConvMode::Winograd) {
    // Winograd: CDMA pads and channel-extends the cube as it writes CBUF, and counts what it
    // writes (NVIDIA's C model): every pad position of the padded input holds PAD_VALUE in each of
    // the C' channels of its atoms.
    const WinoGeometry g = wino_geometry(cfg);
    const uint64_t padded = uint64_t(g.w_ext) * uint64_t(cfg.stride_x) * uint64_t(g.h_ext) * uint64_t(cfg.stride_y);
    const uint64_t pads = (padded - uint64_t(cfg.input.w) * uint64_t(cfg.input.h)) * uint64_t(g.c_pad);
    const auto pv = static_cast<uint32_t>(cfg.pad_value) & 0xffffu;
    const auto add = [](uint32_t& c, uint64_t k) { c = static_cast<uint32_t>(std::min<uint64_t>(UINT32_MAX, c + k)); };
    if (fp::is_nan(fp::kFp16, pv)) add(n.data_nan, pads);
    if (fp::is_inf(fp::kFp16, pv)) add(n.data_inf, pads);
  }
  if (cfg.image.enabled) {
    // fp16 pixel formats (IN_PRECISION FP16) only: every 16-bit word of the atoms CDMA fetches for
    // a line, from PIXEL_X_OFFSET on (NVIDIA's C model: the pitch buffer of the line, from the x
    // offset to (PIXEL_X_OFFSET + W) * bpp rounded up to the atom), pads not included.
    const PixelFormat* f = pixel_format(cfg.image.pixel_format);
    if (f != nullptr && f->in_precision == 2) {
      const auto atom = static_cast<uint64_t>(cfg.atom_bytes);
      const uint64_t from = static_cast<uint64_t>(cfg.image.x_offset) * static_cast<uint64_t>(f->bpp0);
      const uint64_t to = (static_cast<uint64_t>(cfg.image.x_offset + cfg.input.w) * static_cast<uint64_t>(f->bpp0) +
                           atom - 1) / atom * atom;
      for (int y = 0; y < cfg.input.h; ++y) {
        const uint64_t line = cfg.in_layout.base + static_cast<uint64_t>(y) * cfg.in_layout.line_stride;
        for (uint64_t a = from; a < to; a += 2) count(line + a, n.data_nan, n.data_inf);
      }
    }
  } else if (!cfg.cbuf.data_reuse) {
    const FeatureLayout& l = cfg.in_layout;
    const int lanes = ceil_div(cfg.input.c, l.atom_bytes / 2) * (l.atom_bytes / 2);
    for (int b = 0; b < std::max(1, cfg.input.n); ++b)
      for (int c = 0; c < lanes; ++c)
        for (int y = 0; y < cfg.input.h; ++y)
          for (int x = 0; x < cfg.input.w; ++x) count(l.address(b, c, y, x), n.data_nan, n.data_inf);
  }
  if (!cfg.cbuf.weight_reuse) {
    for (uint64_t a = 0; a + 1 < cfg.weight_bytes; a += 2) count(cfg.weight_base + a, n.weight_nan, n.weight_inf);
  }
  return n;
}

}  // namespace dla::golden
