// Winograd F(2x2,3x3) as NVDLA's nv_full does it (../shared/reference/nvdla-arithmetic.md §6,
// docs/WINOGRAD.md):
//   PRA (CSC):  V = B^T d B on a 4x4 data tile, exact, then sat(rhaz(V / 2^PRA_TRUNCATE));
//   MAC:        per position, a dot product over the channels of one atomic operation: M[16];
//   POA (CMAC): Y = A^T M A, exact, 2x2 outputs;
//   weights:    pre-transformed offline (U = G g G^T), no weight transform in the hardware.
// Tiles are row-major: element 4*r + c of a 4x4 tile, 3*r + s of a 3x3 kernel, 2*i + j of a
// 2x2 output. In an atomic operation's 64-lane word, lane 4*p + ch holds position p of channel
// ch (NVDLA's (r, s, channel) weight order).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "golden/config.hpp"

namespace dla::golden {

using WinoTile = std::array<int64_t, 16>;    // 4x4: d, V, U, M
using WinoKernel = std::array<int64_t, 9>;   // 3x3: g
using WinoOut = std::array<int64_t, 4>;      // 2x2: Y

inline constexpr int kWinoPositions = 16;
inline constexpr int kWinoPraInBits = 16;     // PRA input (int8 sign-extended)
inline constexpr int kWinoPraPass1Bits = 17;  // B^T d
inline constexpr int kWinoPraPass2Bits = 18;  // B^T d B
inline constexpr int kWinoMaxPraTruncate = 3;  // the 2-bit field; NVDLA documents 0..2

// Exact MAC result of one position (4 channels: 2*bits + 2) and exact POA output (+4: a sum of
// 9 MAC results). int8 18 / 22 bits, int16 34 / 38 bits.
[[nodiscard]] constexpr int wino_sum_bits(Precision p) { return 2 * bits_per_element(p) + 2; }
[[nodiscard]] constexpr int wino_out_bits(Precision p) { return wino_sum_bits(p) + 4; }

// ---------------------------------------------------------------- PRA

// V = B^T d B, exact (|V| < 2^17 for 16-bit inputs). d in the 16-bit range.
[[nodiscard]] WinoTile wino_pra_exact(const WinoTile& d);

// NVDLA's PRA: sat_bits(rhaz(V / 2^truncate)) with bits 8 (int8) or 16 (int16).
// d must lie in the precision's range, 0 <= truncate <= kWinoMaxPraTruncate (std::invalid_argument).
[[nodiscard]] WinoTile wino_pra(const WinoTile& d, Precision p, int truncate);

// NVDLA v1's PRA in fp16 (CSC's NV_NVDLA_CSC_pra_cell): each datum widened to fp17, B^T d and then
// (B^T d) B by one fp17 add / subtract each (golden/fp.hpp's rules, NVIDIA's operand order), each
// result narrowed to fp16. PRA_TRUNCATE has no effect. d and the result hold fp16 bit patterns.
[[nodiscard]] WinoTile wino_pra_fp16(const WinoTile& d);

// ---------------------------------------------------------------- POA and the atomic operation

// Y = A^T M A, exact (inputs of up to 59 bits).
[[nodiscard]] WinoOut wino_poa(const WinoTile& m);

// One kernel's Winograd atomic operation in the MAC cell: M[p] = sum over ch of
// data[4p+ch] * weights[4p+ch] (data: PRA output, weights: pre-transformed), then POA.
// data.size() == weights.size() == 16 * channels (nv_full: 64).
[[nodiscard]] WinoTile wino_mac(std::span<const int64_t> data, std::span<const int64_t> weights);
[[nodiscard]] WinoOut wino_atomic_op(std::span<const int64_t> data, std::span<const int64_t> weights);

// Packs per-channel tiles into an atomic operation's lanes (lane 4p + ch; tiles.size() channels)
// and back.
[[nodiscard]] std::vector<int64_t> wino_pack_lanes(std::span<const WinoTile> tiles);
[[nodiscard]] std::vector<WinoTile> wino_unpack_lanes(std::span<const int64_t> lanes);

// ---------------------------------------------------------------- weight pre-transform

// (a) NVDLA's compiler (nvdla/sw WeightTranslationUnit): U = G g G^T in FP32 with
// G rows (1,0,0), (1/2,1/2,1/2), (1/2,-1/2,1/2), (0,0,1), cast to the weight type: the
// fraction is truncated toward zero; values beyond the type's range saturate (the compiler's
// cast is undefined there; see docs/WINOGRAD.md). g in the precision's range.
[[nodiscard]] WinoTile wino_weights_nvdla(const WinoKernel& g, Precision p);
// fp16 weights (g and the result fp16 bit patterns): U = G g G^T in FP32 as (a), from each
// weight's IEEE value, narrowed to fp16 by NVDLA's fp32 -> fp16 rule (round to nearest even;
// an Inf or NaN weight spreads through the sums as in FP32). *overflow (when given) says whether
// a finite kernel gave a U beyond fp16's range (the rule saturates it to 65504).
[[nodiscard]] WinoTile wino_weights_fp16(const WinoKernel& g, bool* overflow = nullptr);

// (b) The exact integer scheme: U' = (2G) g (2G)^T = 4U, an integer. |U'| <= 9 max|g|: int8
// weights need int16 U' (the MAC then runs in int16); int16 weights fit only when
// |g| <= 3640. Returns the exact values (no saturation).
[[nodiscard]] WinoTile wino_weights_exact(const WinoKernel& g);
// True when every value of wino_weights_exact(g) fits the signed `bits`-bit range.
[[nodiscard]] bool wino_weights_fit(const WinoTile& u, int bits);

// CACC CLIP_TRUNCATE to add for the exact scheme so the result is the direct convolution's scale:
// the MAC result carries 4 * 2^-pra_truncate, i.e. clip_truncate += 2 - pra_truncate (exact when
// the PRA rounded nothing). pra_truncate <= 2.
[[nodiscard]] constexpr int wino_exact_clip_adjust(int pra_truncate) { return 2 - pra_truncate; }

}  // namespace dla::golden
