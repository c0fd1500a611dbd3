// W-fold (docs/WFOLD.md): the fold CDMA applies while it writes CBUF, the folded weights, the
// refusals, the "auto" rule and the fold-mode register relations. Written from docs/WFOLD.md.
#include "engines/conv/golden/conv_wfold.hpp"

#include <algorithm>

#include "golden/nvdla_regs.hpp"

namespace dla::golden {

namespace {

namespace rcdma = regs::cdma;
namespace rcsc = regs::csc;
using regs::field;

int ceil_div(int a, int b) { return (a + b - 1) / b; }
std::string str(int v) { return std::to_string(v); }

bool legal_ws(int ws) { return ws == 2 || ws == 4 || ws == 8 || ws == 16; }

}  // namespace

WfoldGeometry wfold_geometry(const ConvConfig& c) {
  WfoldGeometry g;
  g.ws = std::max(1, c.wfold_ws);
  g.pci = std::max(1, c.atomic_c / g.ws);
  g.groups = ceil_div(std::max(c.input.c, 1), g.pci);
  g.s_fold = ceil_div(std::max(c.kernel_w, 1), g.ws);
  g.w_fold = c.output.w * g.s_fold;
  g.c_fold = g.groups * c.atomic_c;
  return g;
}

ConvConfig wfold_view(const ConvConfig& c) {
  const WfoldGeometry g = wfold_geometry(c);
  ConvConfig v = c;
  v.wfold_ws = 0;
  v.input = CubeShape{1, g.c_fold, c.input.h, g.w_fold};
  v.kernel_w = g.s_fold;
  v.stride_x = g.s_fold;
  v.dilation_x = 1;
  v.pad_left = 0;
  v.pad_right = 0;
  v.cvt = ConvInputCvt{};  // CDMA converted before folding
  return v;
}

Cube<int64_t> wfold_fold(const ConvConfig& c, const Cube<int64_t>& in) {
  const WfoldGeometry g = wfold_geometry(c);
  const int W = c.input.w, H = c.input.h, C = c.input.c, S = c.kernel_w;
  Cube<int64_t> f(CubeShape{1, g.c_fold, H, g.w_fold}, 0);
  for (int h = 0; h < H; ++h) {
    for (int ow = 0; ow < c.output.w; ++ow) {
      for (int t = 0; t < g.s_fold; ++t) {
        const int wf = ow * g.s_fold + t;
        for (int grp = 0; grp < g.groups; ++grp) {
          for (int j = 0; j < g.ws; ++j) {
            const int s = t * g.ws + j;
            const int x = ow * c.stride_x - c.pad_left + s * c.dilation_x;
            for (int cc = 0; cc < g.pci; ++cc) {
              const int ch = grp * g.pci + cc;
              int64_t v = 0;
              if (s < S && ch < C) v = x < 0 || x >= W ? int64_t{c.pad_value} : in.at(0, ch, h, x);
              f.at(0, grp * c.atomic_c + j * g.pci + cc, h, wf) = v;
            }
          }
        }
      }
    }
  }
  return f;
}

Cube<int64_t> wfold_weights(const ConvConfig& c, const Cube<int64_t>& w) {
  const WfoldGeometry g = wfold_geometry(c);
  const int K = w.shape().n, C = w.shape().c, R = w.shape().h, S = w.shape().w;
  Cube<int64_t> out(CubeShape{K, g.c_fold, R, g.s_fold}, 0);
  for (int k = 0; k < K; ++k)
    for (int r = 0; r < R; ++r)
      for (int t = 0; t < g.s_fold; ++t)
        for (int grp = 0; grp < g.groups; ++grp)
          for (int j = 0; j < g.ws; ++j)
            for (int cc = 0; cc < g.pci; ++cc) {
              const int s = t * g.ws + j, ch = grp * g.pci + cc;
              if (s < S && ch < C) out.at(k, grp * c.atomic_c + j * g.pci + cc, r, t) = w.at(k, ch, r, s);
            }
  return out;
}

std::string wfold_hw_refusal(const HwConfig& hw) {
  return "W-fold (D_WFOLD.WFOLD_EN) needs a configuration with the fold data path (hw_configs.json \"wfold\": "
         "true, nv_full only); " + hw.name + " has none";
}

std::string wfold_ws_refusal(const ConvParams& p, const HwConfig& hw, int ws) {
  if (!legal_ws(ws)) return "the fold width ws must be a power of two 2..16 (got " + str(ws) + ")";
  const int bpe = bytes_per_element(p.precision);
  const int pci = hw.atomic_c / ws;
  if (pci * bpe > hw.atom_bytes)
    return "ws " + str(ws) + " gives slots of pci = ATOMIC_C / ws = " + str(pci) + " channels x " + str(bpe) +
           " bytes, wider than the " + str(hw.atom_bytes) + "-byte memory atom (a slot must lie inside one atom" +
           (bpe == 2 ? "; int16 needs ws >= 4)" : ")");
  if (const int sf = ceil_div(p.s, ws); sf > 8)
    return "S' = ceil(S / ws) = ceil(" + str(p.s) + " / " + str(ws) + ") = " + str(sf) +
           " folded kernel columns exceed 8 (CSC's X stride is S'; S must be <= 8 x ws)";
  return "";
}

int wfold_auto_ws(const ConvParams& p, const HwConfig& hw) {
  if (!hw.wfold) return 0;
  const int unfolded = ceil_div(p.c, hw.atomic_c) * p.s;
  int best = 0, best_cost = unfolded;
  for (const int ws : {2, 4, 8, 16}) {  // ascending ws = descending pci: a tie keeps the larger pci
    if (!wfold_ws_refusal(p, hw, ws).empty()) continue;
    const int cost = ceil_div(p.c, hw.atomic_c / ws) * ceil_div(p.s, ws);
    if (cost < best_cost) {
      best = ws;
      best_cost = cost;
    }
  }
  return best;
}

std::vector<std::string> wfold_unsupported(const ConvConfig& c) {
  std::vector<std::string> u;
  if (c.wfold_ws == 0) return u;
  if (c.mode == ConvMode::Winograd) u.push_back("W-fold and Winograd mode exclude each other (docs/WFOLD.md)");
  if (!legal_ws(c.wfold_ws) || c.atomic_c % c.wfold_ws != 0) {
    u.push_back("D_WFOLD: the fold width ws must be a power of two 2..16 dividing ATOMIC_C (got " + str(c.wfold_ws) + ")");
    return u;
  }
  const WfoldGeometry g = wfold_geometry(c);
  if (g.pci * c.bpe() > c.atom_bytes)
    u.push_back("D_WFOLD: ws " + str(g.ws) + " gives slots of " + str(g.pci) + " channels x " + str(c.bpe()) +
                " bytes, wider than the " + str(c.atom_bytes) + "-byte memory atom (a slot must lie inside one atom)");
  if (g.s_fold > 8)
    u.push_back("D_WFOLD: S' = ceil(S / ws) = " + str(g.s_fold) + " exceeds 8 (CSC's X stride is S')");
  if (g.w_fold > 8192)
    u.push_back("the folded width OW * S' = " + str(g.w_fold) + " exceeds CSC's 8192 (DATAIN_WIDTH_EXT)");
  return u;
}

void decode_conv_wfold(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c) {
  std::vector<std::string>& bad = c.decode_problems;
  auto expect = [&](const std::string& what, uint32_t got, uint32_t want) {
    if (got != want) bad.push_back(what + " is " + std::to_string(got) + ", W-fold needs " + std::to_string(want));
  };
  if (!hw.wfold) bad.push_back(wfold_hw_refusal(hw));
  const uint32_t wf = regs.cdma(rcdma::D_WFOLD::offset);
  const uint32_t ws_log2 = field(wf, rcdma::D_WFOLD::WS_LOG2{});
  if (ws_log2 < 1 || ws_log2 > 4) {
    bad.push_back("D_WFOLD.WS_LOG2 " + std::to_string(ws_log2) + " is outside 1..4 (ws 2..16)");
  }
  c.wfold_ws = 1 << std::clamp<uint32_t>(ws_log2, 1, 4);

  // The layer's X geometry: CDMA's copies and D_WFOLD. The Y geometry stays CSC's (checked below).
  c.kernel_w = static_cast<int>(field(wf, rcdma::D_WFOLD::KERNEL_WIDTH{})) + 1;
  c.dilation_x = static_cast<int>(field(wf, rcdma::D_WFOLD::X_DILATION{})) + 1;
  const uint32_t stride = regs.cdma(rcdma::D_CONV_STRIDE::offset);
  c.stride_x = static_cast<int>(field(stride, rcdma::D_CONV_STRIDE::CONV_X_STRIDE{})) + 1;
  const uint32_t pad = regs.cdma(rcdma::D_ZERO_PADDING::offset);
  c.pad_left = static_cast<int>(field(pad, rcdma::D_ZERO_PADDING::PAD_LEFT{}));
  expect("CDMA and CSC Y strides (CONV_Y_STRIDE+1 of CDMA vs CSC)", field(stride, rcdma::D_CONV_STRIDE::CONV_Y_STRIDE{}) + 1,
         static_cast<uint32_t>(c.stride_y));
  expect("CDMA PAD_TOP (CSC's)", field(pad, rcdma::D_ZERO_PADDING::PAD_TOP{}), static_cast<uint32_t>(c.pad_top));

  // CSC's copies describe the folded convolution.
  const WfoldGeometry g = wfold_geometry(c);
  const uint32_t in0 = regs.csc(rcsc::D_DATAIN_SIZE_EXT_0::offset);
  expect("CSC DATAIN_WIDTH_EXT+1 (Wf = OW * S')", field(in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1,
         static_cast<uint32_t>(g.w_fold));
  expect("CSC DATAIN_HEIGHT_EXT+1 (H)", field(in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1,
         static_cast<uint32_t>(c.input.h));
  expect("CSC DATAIN_CHANNEL_EXT+1 (C' = G * ATOMIC_C)",
         field(regs.csc(rcsc::D_DATAIN_SIZE_EXT_1::offset), rcsc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1,
         static_cast<uint32_t>(g.c_fold));
  expect("CSC WEIGHT_WIDTH_EXT+1 (S')",
         field(regs.csc(rcsc::D_WEIGHT_SIZE_EXT_0::offset), rcsc::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}) + 1,
         static_cast<uint32_t>(g.s_fold));
  expect("CSC WEIGHT_CHANNEL_EXT+1 (C')",
         field(regs.csc(rcsc::D_WEIGHT_SIZE_EXT_1::offset), rcsc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1,
         static_cast<uint32_t>(g.c_fold));
  expect("CSC CONV_X_STRIDE_EXT+1 (S')",
         field(regs.csc(rcsc::D_CONV_STRIDE_EXT::offset), rcsc::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}) + 1,
         static_cast<uint32_t>(g.s_fold));
  expect("CSC X_DILATION_EXT+1", field(regs.csc(rcsc::D_DILATION_EXT::offset), rcsc::D_DILATION_EXT::X_DILATION_EXT{}) + 1,
         1u);
  expect("CSC PAD_LEFT", field(regs.csc(rcsc::D_ZERO_PADDING::offset), rcsc::D_ZERO_PADDING::PAD_LEFT{}), 0u);
  expect("CDMA BYTE_PER_KERNEL+1 (R * S' * C' * bpe)",
         field(regs.cdma(rcdma::D_WEIGHT_SIZE_0::offset), rcdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1,
         static_cast<uint32_t>(c.kernel_h * g.s_fold * g.c_fold * c.bpe()));
  expect("CSC D_ATOMICS+1 (OW * OH)", field(regs.csc(rcsc::D_ATOMICS::offset), rcsc::D_ATOMICS::ATOMICS{}) + 1,
         static_cast<uint32_t>(c.output.w * c.output.h));
  // The layer's output width from CDMA's X geometry (the fold reads the columns of exactly these).
  const int span = c.input.w + c.pad_left + c.pad_right - ((c.kernel_w - 1) * c.dilation_x + 1);
  const int ow = span < 0 ? 0 : span / c.stride_x + 1;
  expect("DATAOUT_WIDTH+1 (the layer's W' from CDMA's W, pads, S, X stride and dilation)",
         static_cast<uint32_t>(c.output.w), static_cast<uint32_t>(ow));
}

}  // namespace dla::golden
