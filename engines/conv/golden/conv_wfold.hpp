// W-fold (docs/WFOLD.md, seed 004): CDMA folds the positions one output column's kernel row reads
// into the channels of its data rows, the layer compiler folds the weights to match, and CSC, CMAC
// and CACC run an unchanged direct convolution on the folded cube. nv_full only (HwConfig::wfold).
//
// A ConvConfig in fold mode (wfold_ws != 0) describes the layer as in memory (CDMA's registers:
// input W x H x C, kernel width S, X stride, X dilation, left pad); wfold_view() gives the folded
// convolution CSC runs (CSC's registers). Written from docs/WFOLD.md, never from the RTL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/cube.hpp"

namespace dla::golden {

// The fold parameters of docs/WFOLD.md for a config in fold mode.
struct WfoldGeometry {
  int ws = 1;      // positions folded into one data row (2, 4, 8, 16)
  int pci = 1;     // channels per slot: ATOMIC_C / ws
  int groups = 1;  // G = ceil(C / pci) channel blocks of the folded cube
  int s_fold = 1;  // S' = ceil(S / ws) folded kernel columns
  int w_fold = 1;  // Wf = OW * S' data rows per line and channel block
  int c_fold = 1;  // C' = G * ATOMIC_C
};
[[nodiscard]] WfoldGeometry wfold_geometry(const ConvConfig& c);

// The folded convolution CSC runs: input Wf x H x C', kernel S' x R x C', X stride S', X dilation
// 1, left / right pad 0; H, Y stride, Y dilation, top / bottom pads, pad value, output, weights
// (base, bytes) and the clip as the layer's. Mode Direct, wfold_ws 0.
[[nodiscard]] ConvConfig wfold_view(const ConvConfig& c);

// The folded cube F (docs/WFOLD.md "The fold") of the layer's input `in` (W x H x C, after the
// input converter): shape (1, C', H, Wf). Slots of kernel columns s >= S or channels c >= C hold
// 0, input columns outside the input the pad value P (raw, not converted).
[[nodiscard]] Cube<int64_t> wfold_fold(const ConvConfig& c, const Cube<int64_t>& in);

// The folded weights W' (docs/WFOLD.md "The folded weights") of the layer's weights `w` (shape
// K x C x R x S as (n = k, c, h = r, w = s)): shape K x C' x R x S', zero where t * ws + j >= S or
// g * pci + cc >= C.
[[nodiscard]] Cube<int64_t> wfold_weights(const ConvConfig& c, const Cube<int64_t>& w);

// Why fold mode cannot run `c` (docs/WFOLD.md "Where it cannot apply"), one sentence each naming
// the rule; the configuration's own rule is wfold_hw_refusal.
[[nodiscard]] std::vector<std::string> wfold_unsupported(const ConvConfig& c);
[[nodiscard]] std::string wfold_hw_refusal(const HwConfig& hw);

// Why ws cannot fold the layer `p` on `hw` (empty: it can): ws not 2..16 a power of two, a slot
// wider than the memory atom (pci * bpe > atom), S' > 8. The configuration rule is not included.
[[nodiscard]] std::string wfold_ws_refusal(const ConvParams& p, const HwConfig& hw, int ws);

// "wfold": "auto" (docs/WFOLD.md): the legal ws with the fewest atomic operations per output
// element and kernel row, G * S', ties to the larger pci (smaller ws); 0 (unfolded) when that is
// not fewer than the unfolded ceil(C / ATOMIC_C) * S, or when `hw` has no fold.
[[nodiscard]] int wfold_auto_ws(const ConvParams& p, const HwConfig& hw);

// Register decoding in fold mode (D_WFOLD.WFOLD_EN = 1), called by decode_conv after the direct
// fields: takes the layer's X geometry from CDMA and D_WFOLD and checks CSC's copies against the
// fold relations of docs/WFOLD.md "Registers" (problems into c.decode_problems).
void decode_conv_wfold(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c);

}  // namespace dla::golden
