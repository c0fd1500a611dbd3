// Winograd F(2x2,3x3) convolution mode (D_MISC_CFG.CONV_MODE = WINOGRAD), nv_full only, register
// level and bit exact: CDMA's channel extension (stride 2) and padding, CSC's PRA on every 4x4
// data tile of 4 channels, the MAC cells' 16 per-position dot products, CMAC's POA, CACC's
// saturating accumulation and clip-truncate. The arithmetic of each step is golden/wino.hpp,
// golden/arith.hpp and the CACC functions of golden/conv.hpp; this file adds the geometry, the
// pre-transformed weight layout and the issue loop. Decisions: docs/WINOGRAD.md, "Winograd mode
// in the golden convolution".
//
// Entry points: decode_conv / conv_derived / run_conv dispatch here on ConvConfig::mode; a layer
// compiler calls wino_compile().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "golden/cube.hpp"

namespace dla::golden {

// nv_full (nvdlav1) has Winograd; every other configuration is built with WINOGRAD_DISABLE.
[[nodiscard]] bool has_winograd(const HwConfig& hw);
[[nodiscard]] std::string wino_hw_refusal(const HwConfig& hw);

// What CSC sees after CDMA's channel extension (real values, not value-1).
struct WinoGeometry {
  int w_ext = 0, h_ext = 0;  // D_DATAIN_SIZE_EXT_0: (W + PL + PR) / sx, (H + PT + PB) / sy
  int phases = 1;            // sx * sy
  int c_pad = 0;             // C' = C rounded up to whole 32-byte atoms: ceil(C * bpe / 32) * 32 / bpe
  int c_ext = 0;             // CSC D_DATAIN_SIZE_EXT_1, WEIGHT_CHANNEL_EXT: C' x sx x sy (every phase padded)
  int channel_groups = 0;    // c_ext / 4: Winograd atomic operations per output tile
};
[[nodiscard]] WinoGeometry wino_geometry(const ConvConfig& c);

// Channel of the extended cube that carries input channel c at stride phase (py, px):
// phase-major, each phase starting on a whole memory atom, (py * sx + px) * c_pad + c. Extended
// channels whose phase-local channel (e % c_pad) is >= C hold 0 (data and weights).
[[nodiscard]] int wino_ext_channel(const ConvConfig& cfg, int c, int py, int px);

// Pre-transformed weights in memory. Byte order, outermost first: kernel group (atomic_k
// kernels, the last may be partial) -> channel group of 4 extended channels (the last padded
// with zero channels) -> kernel in group -> position p = 4*i + j of the 4x4 U -> channel in
// group. One kernel's 4 channels x 16 positions (one MAC cell's operand of one atomic
// operation, lane 4*p + ch as in golden/wino.hpp) are 64 contiguous elements.
struct WinoWeightLayout {
  int k = 1;               // kernels
  int channel_groups = 1;  // ceil(c_ext / 4)
  int atomic_k = 32;
  int bpe = 1;

  // Byte offset from the weight base of U[kernel][channel][position], channel < 4*channel_groups.
  [[nodiscard]] uint64_t offset(int kernel, int channel, int position) const;
  // CDMA D_WEIGHT_SIZE_0.BYTE_PER_KERNEL (+1): 16 * 4 * channel_groups * bpe.
  [[nodiscard]] uint64_t kernel_bytes() const;
  [[nodiscard]] uint64_t total_bytes() const;   // K * kernel_bytes
  [[nodiscard]] uint64_t padded_bytes() const;  // rounded up to 128 (D_WEIGHT_BYTES)
};
[[nodiscard]] WinoWeightLayout wino_weight_layout(const ConvConfig& c);

// What a Winograd problem is about, so that a layer compiler can point at the field behind it.
enum class WinoSubject {
  Hardware,     // the configuration has no Winograd
  Kernel,       // R x S
  Stride,
  Dilation,
  PraTruncate,
  OutputSize,   // W', H' (from the input size, pads and stride)
  Weights,      // weight values (the exact scheme's 4U must fit) or the weight cube's shape
  Clip,         // CLIP_TRUNCATE after the scheme's compensation
  Converter,    // CDMA's input converter (none in Winograd mode)
  Other,        // anything else (register relations, layouts, ...)
};
struct WinoProblem {
  WinoSubject subject = WinoSubject::Other;
  std::string text;
};

// Everything the Winograd model cannot run (hardware-independent part; run_conv adds
// wino_hw_refusal), one sentence each, with its subject.
[[nodiscard]] std::vector<WinoProblem> wino_problems(const ConvConfig& c);
// The texts of wino_problems(c). Called by ConvConfig::unsupported().
[[nodiscard]] std::vector<std::string> wino_unsupported(const ConvConfig& c);

// decode_conv's Winograd part: reads CDMA's extended sizes, stride and pads, CSC's PRA_TRUNCATE,
// and checks the Winograd register relations (docs/WINOGRAD.md) into c.decode_problems.
void decode_conv_wino(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c);

// conv_derived for Winograd: EPS = W_ext x C_ext x bpe / entry bytes, data banks of the extended
// cube, transformed-weight bytes (16 x C_ext x bpe per kernel), ATOMICS = W' x H' (output points,
// as NVIDIA's firmware writes it); the stripes count 2x2 tiles.
[[nodiscard]] ConvDerived conv_derived_wino(const ConvConfig& c, const HwConfig& hw);

// run_conv for Winograd (run_conv has already refused what cannot run): the input through `read`,
// the weights through `weights` (memory, or what CBUF holds).
[[nodiscard]] ConvRun run_conv_wino(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read,
                                    const ByteReader& weights);

// ---- for a layer compiler -------------------------------------------------------------------

enum class WinoScheme {
  Exact,  // U' = (2G) g (2G)^T = 4U, CLIP_TRUNCATE += 2 - PRA_TRUNCATE: exact at PRA_TRUNCATE 0
  Nvdla,  // U = G g G^T in FP32, truncated to the weight type (NVDLA's compiler); CLIP -= PRA_TRUNCATE
};

// One register field whose Winograd value differs from direct mode: the value as written
// (value - 1 where the field holds value - 1).
struct WinoRegWrite {
  std::string_view block;  // "CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP"
  std::string_view reg;    // e.g. "D_DATAIN_SIZE_EXT_0"
  std::string_view field;  // e.g. "DATAIN_WIDTH_EXT"
  uint32_t value = 0;
};

struct WinoLayer {
  ConvConfig cfg{};                  // mode Winograd; run_conv runs it
  ConvDerived derived{};             // EPS, banks, BYTE_PER_KERNEL, WEIGHT_BYTES, ATOMICS
  std::vector<uint8_t> weights{};    // the image at cfg.weight_base, derived.weight_bytes long
  std::vector<WinoRegWrite> regs{};  // every field whose rule differs from direct mode
  std::vector<WinoProblem> problems{};  // empty: the layer can run (then everything above is set)
};

// From the layer (ConvParams with a kernel that is 3x3 after channel extension: 3x3 at stride 1,
// 5x5 or 6x6 at stride 2; p.clip_truncate is the CLIP_TRUNCATE the same layer would use in direct
// mode) and its weights (n = kernel, c, h = r, w = s): the Winograd configuration (right / bottom
// pads grown so that the extended cube is the output + 4, as NVDLA programs it), the
// pre-transformed weight image and the register values. The output then approximates (Nvdla) or
// equals (Exact, PRA_TRUNCATE 0) the direct layer's CACC output.
[[nodiscard]] WinoLayer wino_compile(const ConvParams& p, const Cube<int64_t>& weights, WinoScheme scheme,
                                     int pra_truncate, const HwConfig& hw, uint64_t in_base, uint64_t weight_base);

}  // namespace dla::golden
