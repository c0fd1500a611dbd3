#include "engines/conv/golden/conv_wino.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/cmac/golden/cmac_fp16.hpp"
#include "engines/conv/golden/cacc_fp16.hpp"
#include "engines/wino/golden/wino.hpp"

namespace dla::golden {

namespace {

namespace rcdma = regs::cdma;
namespace rcsc = regs::csc;
using regs::field;

constexpr int kGroupChannels = 4;  // channels per Winograd atomic operation (CSC_ELEMENT_PER_INPUT_ATOM_WG)
constexpr int kLanes = kGroupChannels * kWinoPositions;
// Every stride phase of the extended cube starts on a whole 32-byte atom (NVDLA's C', the
// programming guide's WEIGHT_SIZE_EXT table; the C model's ENTRY_PER_SLICE checks).
constexpr int kWinoAtomBytes = 32;

int ceil_div(int a, int b) { return (a + b - 1) / b; }
std::string str(int v) { return std::to_string(v); }
std::string dims(int w, int h) { return str(w) + "x" + str(h); }

}  // namespace

bool has_winograd(const HwConfig& hw) { return hw.winograd; }

std::string wino_hw_refusal(const HwConfig& hw) {
  return "Winograd (D_MISC_CFG.CONV_MODE = WINOGRAD) needs nv_full; " + hw.name + " is built with WINOGRAD_DISABLE";
}

WinoGeometry wino_geometry(const ConvConfig& c) {
  WinoGeometry g;
  const int sx = std::max(c.stride_x, 1), sy = std::max(c.stride_y, 1);
  g.w_ext = (c.input.w + c.pad_left + c.pad_right) / sx;
  g.h_ext = (c.input.h + c.pad_top + c.pad_bottom) / sy;
  g.phases = sx * sy;
  const int bpe = c.bpe();
  g.c_pad = ceil_div(c.input.c * bpe, kWinoAtomBytes) * kWinoAtomBytes / bpe;
  g.c_ext = g.phases * g.c_pad;
  g.channel_groups = g.c_ext / kGroupChannels;
  return g;
}

int wino_ext_channel(const ConvConfig& cfg, int c, int py, int px) {
  return (py * cfg.stride_x + px) * wino_geometry(cfg).c_pad + c;
}

// ---- weight layout ------------------------------------------------------------------------------

uint64_t WinoWeightLayout::kernel_bytes() const {
  return static_cast<uint64_t>(kLanes) * static_cast<uint64_t>(channel_groups) * static_cast<uint64_t>(bpe);
}

uint64_t WinoWeightLayout::total_bytes() const { return static_cast<uint64_t>(k) * kernel_bytes(); }

uint64_t WinoWeightLayout::padded_bytes() const { return (total_bytes() + 127) / 128 * 128; }

uint64_t WinoWeightLayout::offset(int kernel, int channel, int position) const {
  const int group = kernel / atomic_k;
  const int in_group = kernel % atomic_k;
  const int kpg = std::min(atomic_k, k - group * atomic_k);
  const uint64_t group_base = static_cast<uint64_t>(group) * static_cast<uint64_t>(atomic_k) * kernel_bytes();
  const uint64_t element = (static_cast<uint64_t>(channel / kGroupChannels) * static_cast<uint64_t>(kpg) +
                            static_cast<uint64_t>(in_group)) * kLanes +
                           static_cast<uint64_t>(position * kGroupChannels + channel % kGroupChannels);
  return group_base + element * static_cast<uint64_t>(bpe);
}

WinoWeightLayout wino_weight_layout(const ConvConfig& c) {
  return WinoWeightLayout{c.kernels, wino_geometry(c).channel_groups, c.atomic_k, c.bpe()};
}

// ---- checks and decoding ------------------------------------------------------------------------

std::vector<WinoProblem> wino_problems(const ConvConfig& c) {
  std::vector<WinoProblem> u;
  const auto bad = [&](WinoSubject s, std::string text) { u.push_back({s, std::move(text)}); };
  // The kernel CSC runs: the layer's kernel after CDMA's channel extension, 3x3 (decode_conv_wino
  // reads CSC's 4x4 and sets 3x3; a layer compiler extends R x S at stride s to it).
  if (c.kernel_h != 3 || c.kernel_w != 3)
    bad(WinoSubject::Kernel, "Winograd F(2x2,3x3) runs a 3x3 kernel after channel extension (got " +
                                 dims(c.kernel_w, c.kernel_h) + ")");
  if (c.stride_x < 1 || c.stride_x > 2 || c.stride_y < 1 || c.stride_y > 2)
    bad(WinoSubject::Stride, "Winograd strides here are 1 or 2 (CDMA's channel extension; NVDLA's CDMA takes up to 8, "
                             "this golden model and this RTL extend by 1 or 2); got " + dims(c.stride_x, c.stride_y));
  if (c.dilation_x != 1 || c.dilation_y != 1)
    bad(WinoSubject::Dilation, "Winograd has no dilation (got " + dims(c.dilation_x, c.dilation_y) + ")");
  if (c.pra_truncate < 0 || c.pra_truncate > 3)
    bad(WinoSubject::PraTruncate, "CSC PRA_TRUNCATE " + str(c.pra_truncate) + " is outside 0..3");
  if (c.output.w % 4 != 0 || c.output.h % 4 != 0 || c.output.w < 8 || c.output.h < 8)
    bad(WinoSubject::OutputSize, "Winograd needs output width and height multiples of 4 and at least 8 (NVDLA's "
                                 "hardware limitations); got " + dims(c.output.w, c.output.h));
  const int pw = c.input.w + c.pad_left + c.pad_right, ph = c.input.h + c.pad_top + c.pad_bottom;
  if (c.stride_x >= 1 && c.stride_y >= 1 && (pw % (4 * c.stride_x) != 0 || ph % (4 * c.stride_y) != 0))
    bad(WinoSubject::OutputSize,
        "Winograd needs W+PL+PR and H+PT+PB multiples of 4 x the stride (CDMA stores the extended cube in 4x4 "
        "blocks; NVIDIA's C model fails otherwise); got " + dims(pw, ph) + " at stride " + dims(c.stride_x, c.stride_y));
  if (c.stride_x >= 1 && c.stride_y >= 1) {
    const WinoGeometry g = wino_geometry(c);
    if (g.w_ext != c.output.w + 4 || g.h_ext != c.output.h + 4)
      bad(WinoSubject::OutputSize, "the extended cube (W+PL+PR)/sx x (H+PT+PB)/sy = " + dims(g.w_ext, g.h_ext) +
                                       " must be the output + 4 = " + dims(c.output.w + 4, c.output.h + 4) +
                                       " (NVDLA: DATAOUT = DATAIN_SIZE_EXT - 4; PAD_RIGHT / PAD_BOTTOM make up the rest)");
  }
  if (c.cvt.enabled)
    bad(WinoSubject::Converter, "the Winograd fetch has no input converter: CDMA D_CVT_CFG.CVT_EN must be 0 (NVIDIA's C "
                            "model converts nothing in Winograd mode)");
  const uint64_t need = wino_weight_layout(c).total_bytes();
  if (c.weight_bytes < need)
    bad(WinoSubject::Other, "D_WEIGHT_BYTES " + std::to_string(c.weight_bytes) + " is smaller than the " +
                                std::to_string(need) + " bytes of the pre-transformed weights (16 x C_ext x K x bpe)");
  return u;
}

std::vector<std::string> wino_unsupported(const ConvConfig& c) {
  std::vector<std::string> u;
  for (WinoProblem& p : wino_problems(c)) u.push_back(std::move(p.text));
  return u;
}

void decode_conv_wino(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c) {
  std::vector<std::string>& bad = c.decode_problems;
  auto expect = [&](const std::string& what, uint32_t got, uint32_t want) {
    if (got != want) bad.push_back(what + " is " + std::to_string(got) + ", Winograd needs " + std::to_string(want));
  };
  if (!has_winograd(hw)) bad.push_back(wino_hw_refusal(hw));
  c.pra_truncate = static_cast<int>(field(regs.csc(rcsc::D_PRA_CFG::offset), rcsc::D_PRA_CFG::PRA_TRUNCATE{}));
  // CSC's weight size is the pre-transformed one, 4x4 (the programming guide's WEIGHT_SIZE_EXT
  // table; NVIDIA's C model asserts it, NV_NVDLA_csc.cpp:2382); the kernel it runs is the 3x3
  // one after channel extension.
  if (c.kernel_w != 4 || c.kernel_h != 4)
    bad.push_back("CSC D_WEIGHT_SIZE_EXT_0 is " + dims(c.kernel_w, c.kernel_h) +
                  " (width x height); Winograd needs 4x4, the size after the weights' pre-transform");
  c.kernel_w = c.kernel_h = 3;

  // The layer's stride and pads are CDMA's: its Winograd fetch pads and channel-extends, so CSC
  // sees an unpadded cube at stride 1.
  const uint32_t stride = regs.cdma(rcdma::D_CONV_STRIDE::offset);
  c.stride_x = static_cast<int>(field(stride, rcdma::D_CONV_STRIDE::CONV_X_STRIDE{})) + 1;
  c.stride_y = static_cast<int>(field(stride, rcdma::D_CONV_STRIDE::CONV_Y_STRIDE{})) + 1;
  const uint32_t pad = regs.cdma(rcdma::D_ZERO_PADDING::offset);
  c.pad_left = static_cast<int>(field(pad, rcdma::D_ZERO_PADDING::PAD_LEFT{}));
  c.pad_top = static_cast<int>(field(pad, rcdma::D_ZERO_PADDING::PAD_TOP{}));
  const uint32_t csc_stride = regs.csc(rcsc::D_CONV_STRIDE_EXT::offset);
  expect("CSC D_CONV_STRIDE_EXT (x, y fields)", csc_stride & (rcsc::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT::mask |
                                                              rcsc::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT::mask), 0);
  const uint32_t csc_pad = regs.csc(rcsc::D_ZERO_PADDING::offset);
  expect("CSC D_ZERO_PADDING (left, top fields)",
         csc_pad & (rcsc::D_ZERO_PADDING::PAD_LEFT::mask | rcsc::D_ZERO_PADDING::PAD_TOP::mask), 0);

  const WinoGeometry g = wino_geometry(c);
  const uint32_t ext = regs.cdma(rcdma::D_DATAIN_SIZE_EXT_0::offset);
  expect("CDMA DATAIN_WIDTH_EXT+1", field(ext, rcdma::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1,
         static_cast<uint32_t>(g.w_ext));
  expect("CDMA DATAIN_HEIGHT_EXT+1", field(ext, rcdma::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1,
         static_cast<uint32_t>(g.h_ext));
  const uint32_t csc0 = regs.csc(rcsc::D_DATAIN_SIZE_EXT_0::offset);
  expect("CSC DATAIN_WIDTH_EXT+1", field(csc0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1,
         static_cast<uint32_t>(g.w_ext));
  expect("CSC DATAIN_HEIGHT_EXT+1", field(csc0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1,
         static_cast<uint32_t>(g.h_ext));
  expect("CSC DATAIN_CHANNEL_EXT+1",
         field(regs.csc(rcsc::D_DATAIN_SIZE_EXT_1::offset), rcsc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1,
         static_cast<uint32_t>(g.c_ext));
  expect("CSC WEIGHT_CHANNEL_EXT+1",
         field(regs.csc(rcsc::D_WEIGHT_SIZE_EXT_1::offset), rcsc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1,
         static_cast<uint32_t>(g.c_ext));
  expect("CDMA BYTE_PER_KERNEL+1",
         field(regs.cdma(rcdma::D_WEIGHT_SIZE_0::offset), rcdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1,
         static_cast<uint32_t>(wino_weight_layout(c).kernel_bytes()));
  expect("CSC D_ATOMICS+1", field(regs.csc(rcsc::D_ATOMICS::offset), rcsc::D_ATOMICS::ATOMICS{}) + 1,
         static_cast<uint32_t>(c.output.w * c.output.h));
}

ConvDerived conv_derived_wino(const ConvConfig& c, const HwConfig& hw) {
  const WinoGeometry g = wino_geometry(c);
  const WinoWeightLayout wl = wino_weight_layout(c);
  const CbufGeometry cb = cbuf_geometry(hw);
  ConvDerived d;
  // A slice is one extended row: W_ext x C_ext elements in whole entries (W_ext is a multiple of 4
  // and C_ext x bpe of 32, so this divides; NVIDIA's C model checks EPS so, CDMA and CSC).
  d.entries_per_slice = g.w_ext * g.c_ext * c.bpe() / cb.entry_bytes;
  d.data_banks_min = ceil_div(d.entries_per_slice * g.h_ext, cb.entries_per_bank);
  const uint64_t bank_bytes = static_cast<uint64_t>(cb.entries_per_bank) * static_cast<uint64_t>(cb.entry_bytes);
  d.byte_per_kernel = static_cast<uint32_t>(wl.kernel_bytes());
  d.weight_bytes = wl.padded_bytes();
  const uint64_t group_bytes = static_cast<uint64_t>(std::min(c.kernels, c.atomic_k)) * wl.kernel_bytes();
  d.weight_banks_min = static_cast<int>((group_bytes + bank_bytes - 1) / bank_bytes);
  d.weight_banks_all = static_cast<int>((d.weight_bytes + bank_bytes - 1) / bank_bytes);
  // D_ATOMICS counts output points (NVIDIA's firmware; its RTL divides by 4 for the 2x2 tiles);
  // the stripes are of tiles, one Winograd atomic operation per tile and channel group.
  d.atomics = c.output.w * c.output.h;
  d.kernel_groups = ceil_div(c.kernels, c.atomic_k);
  d.channel_blocks = g.channel_groups;
  d.stripes = csc_stripes(d.atomics / 4, stripe_limits(hw));
  return d;
}

// ---- one layer ---------------------------------------------------------------------------------

namespace {

// fp16: the PRA in fp16, the MAC cells' block-floating-point products with the POA
// (cmac_fp16_cell), CACC's 48-bit float accumulators, fp32 out; no clip, no saturation counts.
// Same issue order as the integer layer (per output: the channel groups in order).
template <typename Ext, typename Operand>
void run_wino_fp16(const ConvConfig& cfg, const Ext& ext, const Operand& operand, ConvRun& run) {
  const int K = cfg.kernels, kk = cfg.atomic_k;
  const int tiles_w = cfg.output.w / 2, tiles_h = cfg.output.h / 2;
  const int groups = wino_geometry(cfg).channel_groups;
  using Lanes = std::array<uint16_t, kCmacFp16Channels>;
  static_assert(kCmacFp16Channels == kLanes);
  // CSC masks every lane whose datum (after the PRA) or weight is +0 or -0.
  const auto nonzero = [](uint16_t v) { return (v & 0x7fffu) != 0; };
  Lanes data{};
  std::array<bool, kLanes> active{};
  for (int gk = 0; gk * kk < K; ++gk) {
    const int kpg = std::min(kk, K - gk * kk);
    for (int ty = 0; ty < tiles_h; ++ty) {
      for (int tx = 0; tx < tiles_w; ++tx) {
        std::vector<CaccFp48> acc(static_cast<std::size_t>(kpg) * 4, 0);
        for (int q = 0; q < groups; ++q) {
          for (int ch = 0; ch < kGroupChannels; ++ch) {
            WinoTile d{};
            for (int p = 0; p < kWinoPositions; ++p)
              d[static_cast<std::size_t>(p)] = ext(q * kGroupChannels + ch, 2 * ty + p / 4, 2 * tx + p % 4) & 0xffff;
            const WinoTile v = wino_pra_fp16(d);
            for (int p = 0; p < kWinoPositions; ++p)
              data[static_cast<std::size_t>(p * kGroupChannels + ch)] = static_cast<uint16_t>(v[static_cast<std::size_t>(p)]);
          }
          ++run.stats.atomic_ops;
          for (int k = 0; k < kpg; ++k) {
            const auto w = operand(gk * kk + k, q);
            Lanes wl{};
            for (std::size_t l = 0; l < wl.size(); ++l) {
              wl[l] = static_cast<uint16_t>(w[l]);
              active[l] = nonzero(data[l]) && nonzero(wl[l]);
            }
            const CmacFp16Out y = cmac_fp16_cell(data, wl, active, true);
            for (std::size_t e = 0; e < 4; ++e) {
              CaccFp48& a = acc[static_cast<std::size_t>(k) * 4 + e];
              a = cacc_fp16_add(a, y.word[e]);
            }
          }
        }
        for (int k = 0; k < kpg; ++k)
          for (int e = 0; e < 4; ++e)
            run.cacc.at(0, gk * kk + k, 2 * ty + e / 2, 2 * tx + e % 2) =
                cacc_fp48_to_fp32(acc[static_cast<std::size_t>(k * 4 + e)]);
      }
    }
  }
}

}  // namespace

ConvRun run_conv_wino(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read, const ByteReader& weights) {
  const Precision prec = cfg.precision;
  const int bpe = cfg.bpe();
  const int C = cfg.input.c, H = cfg.input.h, W = cfg.input.w;
  const int K = cfg.kernels, kk = cfg.atomic_k;
  const int OW = cfg.output.w, OH = cfg.output.h;
  const int sx = cfg.stride_x, sy = cfg.stride_y;
  const WinoGeometry g = wino_geometry(cfg);
  const WinoWeightLayout wl = wino_weight_layout(cfg);

  // CDMA: fetch and convert the input, then pad and channel-extend it. Extended channel
  // (py*sx + px)*c_pad + c at (ye, xe) is padded-input element (c, ye*sy + py, xe*sx + px).
  // Channels beyond C_ext and a phase's channels c >= C are 0 (like direct mode's channels beyond
  // C); positions past the extended cube (only reached at stride 2, by taps whose weights are 0)
  // fall outside the input and so are padding.
  const Cube<int64_t> in = conv_fetch_input(cfg, read);
  // CDMA writes the pads into CBUF: fp16's NAN_TO_ZERO flushes a NaN PAD_VALUE too (NVIDIA's C
  // model; in direct mode CSC pads after CBUF and nothing is flushed).
  const int64_t pad_value = prec == Precision::Fp16 && cfg.nan_to_zero &&
                                    fp::is_nan(fp::kFp16, static_cast<uint32_t>(cfg.pad_value) & 0xffffu)
                                ? 0
                                : cfg.pad_value;
  auto ext = [&](int ce, int ye, int xe) -> int64_t {
    const int phase = ce / g.c_pad, c = ce % g.c_pad;
    if (ce >= g.c_ext || c >= C) return 0;
    const int hi = ye * sy + phase / sx - cfg.pad_top;
    const int wi = xe * sx + phase % sx - cfg.pad_left;
    return hi >= 0 && hi < H && wi >= 0 && wi < W ? in.at(0, c, hi, wi) : pad_value;
  };

  // CDMA/CSC: each kernel's operand of each channel group, in the MAC cell's lane order.
  std::vector<int64_t> wt(static_cast<std::size_t>(K) * static_cast<std::size_t>(g.channel_groups) * kLanes);
  auto operand = [&](int k, int q) {
    return std::span<int64_t>(wt).subspan((static_cast<std::size_t>(k) * static_cast<std::size_t>(g.channel_groups) +
                                           static_cast<std::size_t>(q)) * kLanes, kLanes);
  };
  for (int k = 0; k < K; ++k)
    for (int q = 0; q < g.channel_groups; ++q)
      for (int p = 0; p < kWinoPositions; ++p)
        for (int ch = 0; ch < kGroupChannels; ++ch)
          operand(k, q)[static_cast<std::size_t>(p * kGroupChannels + ch)] =
              conv_read_element(weights, cfg.weight_base + wl.offset(k, q * kGroupChannels + ch, p), bpe);

  // Issue order: kernel group -> 2x2 output tile (raster) -> channel group. CACC accumulates
  // every output over the channel groups in that order (the only order a saturating partial
  // sum can see), then clip-truncates.
  ConvRun run;
  run.cacc = Cube<int64_t>(CubeShape{1, cfg.output_lanes(), OH, OW}, 0);
  const int tiles_w = OW / 2, tiles_h = OH / 2;
  run.stats.stripes_per_group = static_cast<int>(csc_stripes(tiles_w * tiles_h, stripe_limits(hw)).size());
  std::array<WinoTile, kGroupChannels> tiles{};
  if (prec == Precision::Fp16) {
    run_wino_fp16(cfg, ext, operand, run);
    return run;
  }
  for (int gk = 0; gk * kk < K; ++gk) {
    const int kpg = std::min(kk, K - gk * kk);
    for (int ty = 0; ty < tiles_h; ++ty) {
      for (int tx = 0; tx < tiles_w; ++tx) {
        std::vector<int64_t> acc(static_cast<std::size_t>(kpg) * 4, 0);
        for (int q = 0; q < g.channel_groups; ++q) {
          // CSC: the 4x4 data tile of each channel through the PRA.
          for (int ch = 0; ch < kGroupChannels; ++ch) {
            WinoTile d{};
            for (int p = 0; p < kWinoPositions; ++p)
              d[static_cast<std::size_t>(p)] = ext(q * kGroupChannels + ch, 2 * ty + p / 4, 2 * tx + p % 4);
            tiles[static_cast<std::size_t>(ch)] = wino_pra(d, prec, cfg.pra_truncate);
          }
          const std::vector<int64_t> lanes = wino_pack_lanes(tiles);
          ++run.stats.atomic_ops;
          for (int k = 0; k < kpg; ++k) {
            const WinoOut y = wino_atomic_op(lanes, operand(gk * kk + k, q));
            for (std::size_t e = 0; e < 4; ++e) {
              int64_t& a = acc[static_cast<std::size_t>(k) * 4 + e];
              const Wide exact = Wide{a} + y[e];
              a = cacc_accumulate(a, y[e], prec);
              if (a != exact) ++run.stats.psum_saturations;
            }
          }
        }
        for (int k = 0; k < kpg; ++k) {
          for (int e = 0; e < 4; ++e) {
            bool saturated = false;
            const int64_t v = cacc_output(acc[static_cast<std::size_t>(k * 4 + e)], cfg.clip_truncate, &saturated);
            if (saturated && run.stats.out_saturation != UINT32_MAX) ++run.stats.out_saturation;
            run.cacc.at(0, gk * kk + k, 2 * ty + e / 2, 2 * tx + e % 2) = v;
          }
        }
      }
    }
  }
  return run;
}

// ---- for a layer compiler -------------------------------------------------------------------

WinoLayer wino_compile(const ConvParams& p, const Cube<int64_t>& weights, WinoScheme scheme, int pra_truncate,
                       const HwConfig& hw, uint64_t in_base, uint64_t weight_base) {
  WinoLayer L;
  std::vector<WinoProblem>& bad = L.problems;
  if (!has_winograd(hw)) bad.push_back({WinoSubject::Hardware, wino_hw_refusal(hw)});
  ConvConfig& cfg = L.cfg;
  // The kernel CSC runs is 3x3 after CDMA's channel extension: ceil(R / sy) = ceil(S / sx) = 3
  // (the programming guide's rule; 3x3 at stride 1, 5x5 or 6x6 at stride 2).
  const bool strides_ok = p.stride_x >= 1 && p.stride_x <= 2 && p.stride_y >= 1 && p.stride_y <= 2;
  if (strides_ok && (ceil_div(p.r, p.stride_y) != 3 || ceil_div(p.s, p.stride_x) != 3)) {
    bad.push_back({WinoSubject::Kernel, "Winograd runs a kernel that is 3x3 after channel extension: ceil(R / "
                                        "stride_y) and ceil(S / stride_x) must be 3 (3x3 at stride 1, 5x5 or 6x6 at "
                                        "stride 2); got " + dims(p.s, p.r) + " at stride " +
                                        dims(p.stride_x, p.stride_y)});
  }
  // The layer's output; the extended cube is that + 4 (NVDLA: DATAOUT = DATAIN_SIZE_EXT - 4), so
  // PAD_RIGHT / PAD_BOTTOM grow to sx x (W' + 4) - W - PL (NVIDIA's compiler does the same).
  const int ow = conv_out_w(p), oh = conv_out_h(p);
  ConvParams q = p;
  if (strides_ok) {
    q.pad_right = p.stride_x * (ow + 4) - p.w - p.pad_left;
    q.pad_bottom = p.stride_y * (oh + 4) - p.h - p.pad_top;
  }
  if (q.pad_right > 63 || q.pad_bottom > 63) {
    bad.push_back({WinoSubject::OutputSize, "Winograd needs PAD_RIGHT / PAD_BOTTOM of " + dims(q.pad_right, q.pad_bottom) +
                                                " to reach the extended cube W' + 4 x H' + 4; CDMA's fields hold 0..63"});
  }
  cfg = conv_config_from(q, hw, in_base, weight_base);
  cfg.output.w = ow;
  cfg.output.h = oh;
  cfg.kernel_w = cfg.kernel_h = 3;
  cfg.mode = ConvMode::Winograd;
  cfg.pra_truncate = pra_truncate;
  // The weights carry 4 (exact) or 1 (NVDLA), the PRA divides the data by 2^PRA_TRUNCATE: CACC
  // takes the difference back so the output has the direct layer's scale.
  // fp16 has neither: the weights are U itself, the PRA does not truncate, CACC does not clip.
  const bool f16 = p.precision == Precision::Fp16;
  cfg.clip_truncate = f16                            ? p.clip_truncate
                      : scheme == WinoScheme::Exact ? p.clip_truncate + wino_exact_clip_adjust(pra_truncate)
                                                    : p.clip_truncate - pra_truncate;
  // (Judged only for a valid PRA_TRUNCATE; wino_problems names an invalid one.)
  const bool pra_valid = !f16 && pra_truncate >= 0 && pra_truncate <= 3;
  if (pra_valid && cfg.clip_truncate < 0) {
    bad.push_back({WinoSubject::Clip, scheme == WinoScheme::Exact
                                          ? "the exact scheme writes CLIP_TRUNCATE = clip + 2 - PRA_TRUNCATE = " +
                                                str(cfg.clip_truncate) + ", below 0"
                                          : "the truncating scheme needs CLIP_TRUNCATE >= PRA_TRUNCATE (" +
                                                str(p.clip_truncate) + " < " + str(pra_truncate) + ")"});
  }
  if (pra_valid && cfg.clip_truncate > 16) {
    bad.push_back({WinoSubject::Clip, "the exact scheme writes CLIP_TRUNCATE = clip + 2 - PRA_TRUNCATE = " +
                                          str(cfg.clip_truncate) + ", above CACC's 16"});
  }
  const WinoWeightLayout wl = wino_weight_layout(cfg);
  cfg.weight_bytes = wl.padded_bytes();
  if (weights.shape() != CubeShape{p.k, p.c, p.r, p.s})
    bad.push_back({WinoSubject::Weights, "the weights must be a K x C x R x S cube (n = kernel, c, h = r, w = s)"});
  // The mode-independent rules (the clip is judged above), then the Winograd ones.
  ConvConfig direct = cfg;
  direct.mode = ConvMode::Direct;
  direct.clip_truncate = std::clamp(cfg.clip_truncate, 0, 16);
  direct.weight_bytes = std::max(direct.weight_bytes, direct.weight_layout().total_bytes());
  for (std::string& e : direct.unsupported()) bad.push_back({WinoSubject::Other, std::move(e)});
  for (WinoProblem& e : wino_problems(cfg)) bad.push_back(std::move(e));
  if (!bad.empty()) return L;

  // Channel-extend each kernel (the extended 3x3 tap (re, se) of phase (py, px) is the layer's
  // (re*sy + py, se*sx + px), 0 beyond R x S), transform, and store. The extended channels of no
  // input channel (a phase's c >= C) keep weight 0.
  const int bits = bits_per_element(p.precision);
  const WinoGeometry g = wino_geometry(cfg);
  L.weights.assign(static_cast<std::size_t>(cfg.weight_bytes), 0);
  for (int k = 0; k < p.k; ++k) {
    for (int pc = 0; pc < g.phases * p.c; ++pc) {
      const int c = pc % p.c, py = pc / p.c / p.stride_x, px = pc / p.c % p.stride_x;
      const int ce = wino_ext_channel(cfg, c, py, px);
      WinoKernel gk{};
      for (int re = 0; re < 3; ++re) {
        for (int se = 0; se < 3; ++se) {
          const int r = re * p.stride_y + py, s = se * p.stride_x + px;
          gk[static_cast<std::size_t>(re * 3 + se)] = r < p.r && s < p.s ? weights.at(k, c, r, s) : 0;
        }
      }
      bool overflow = false;
      const WinoTile uk = f16                           ? wino_weights_fp16(gk, &overflow)
                          : scheme == WinoScheme::Exact ? wino_weights_exact(gk)
                                                        : wino_weights_nvdla(gk, p.precision);
      if (overflow) {
        bad.push_back({WinoSubject::Weights, "kernel " + str(k) + " channel " + str(c) +
                                                 ": a pre-transformed weight U = G g G^T of finite weights is "
                                                 "beyond fp16's range (|U| <= 65504; NVDLA's converter would "
                                                 "saturate it)"});
        L.weights.clear();
        return L;
      }
      if (!f16 && !wino_weights_fit(uk, bits)) {
        bad.push_back({WinoSubject::Weights, "kernel " + str(k) + " channel " + str(c) +
                                                 ": the exact weights 4U do not fit " +
                                                 std::string(precision_name(p.precision)) +
                                                 " (int8 layers need |g| <= 14, int16 |g| <= 3640; or run int8 "
                                                 "data at int16)"});
        L.weights.clear();
        return L;
      }
      for (int pos = 0; pos < kWinoPositions; ++pos) {
        const uint64_t at = wl.offset(k, ce, pos);
        const auto v = static_cast<uint64_t>(uk[static_cast<std::size_t>(pos)]);
        for (int b = 0; b < cfg.bpe(); ++b) L.weights[static_cast<std::size_t>(at) + static_cast<std::size_t>(b)] =
            static_cast<uint8_t>(v >> (8 * b));
      }
    }
  }

  L.derived = conv_derived(cfg, hw);
  const auto m1 = [](int v) { return static_cast<uint32_t>(v - 1); };
  const auto mode = [&](std::string_view block) { L.regs.push_back({block, "D_MISC_CFG", "CONV_MODE", 1}); };
  for (const std::string_view b : {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"}) mode(b);
  L.regs.insert(L.regs.end(), {
      {"CDMA", "D_ZERO_PADDING", "PAD_RIGHT", static_cast<uint32_t>(cfg.pad_right)},
      {"CDMA", "D_ZERO_PADDING", "PAD_BOTTOM", static_cast<uint32_t>(cfg.pad_bottom)},
      {"CDMA", "D_DATAIN_SIZE_EXT_0", "DATAIN_WIDTH_EXT", m1(g.w_ext)},
      {"CDMA", "D_DATAIN_SIZE_EXT_0", "DATAIN_HEIGHT_EXT", m1(g.h_ext)},
      {"CDMA", "D_WEIGHT_SIZE_0", "BYTE_PER_KERNEL", L.derived.byte_per_kernel - 1},
      {"CDMA", "D_WEIGHT_BYTES", "WEIGHT_BYTES", static_cast<uint32_t>(L.derived.weight_bytes)},
      {"CDMA", "D_ENTRY_PER_SLICE", "ENTRIES", m1(L.derived.entries_per_slice)},
      {"CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_WIDTH_EXT", m1(g.w_ext)},
      {"CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_HEIGHT_EXT", m1(g.h_ext)},
      {"CSC", "D_DATAIN_SIZE_EXT_1", "DATAIN_CHANNEL_EXT", m1(g.c_ext)},
      {"CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_WIDTH_EXT", m1(4)},
      {"CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_HEIGHT_EXT", m1(4)},
      {"CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_CHANNEL_EXT", m1(g.c_ext)},
      {"CSC", "D_WEIGHT_BYTES", "WEIGHT_BYTES", static_cast<uint32_t>(L.derived.weight_bytes)},
      {"CSC", "D_ENTRY_PER_SLICE", "ENTRIES", m1(L.derived.entries_per_slice)},
      {"CSC", "D_CONV_STRIDE_EXT", "CONV_X_STRIDE_EXT", 0},
      {"CSC", "D_CONV_STRIDE_EXT", "CONV_Y_STRIDE_EXT", 0},
      {"CSC", "D_ZERO_PADDING", "PAD_LEFT", 0},
      {"CSC", "D_ZERO_PADDING", "PAD_TOP", 0},
      {"CSC", "D_PRA_CFG", "PRA_TRUNCATE", static_cast<uint32_t>(pra_truncate)},
      {"CSC", "D_ATOMICS", "ATOMICS", m1(L.derived.atomics)},
      {"CSC", "D_RELEASE", "RLS_SLICES", m1(g.h_ext)},
      {"CACC", "D_CLIP_CFG", "CLIP_TRUNCATE", static_cast<uint32_t>(cfg.clip_truncate)},
      {"CSC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH", m1(ow)},
      {"CSC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT", m1(oh)},
      {"CACC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH", m1(ow)},
      {"CACC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT", m1(oh)},
      {"SDP", "D_FEATURE_MODE_CFG", "WINOGRAD", 1},
  });
  return L;
}

}  // namespace dla::golden
