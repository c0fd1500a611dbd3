// NVDLA v1's fp16 direct convolution (nv_full): the same fetch, CBUF layout and CSC issue order as
// int16 (two bytes per element), but each atom goes through CMAC's block-floating-point cell
// (engines/cmac/golden/cmac_fp16.hpp) and CACC's 48-bit float accumulator
// (engines/conv/golden/cacc_fp16.hpp), which delivers fp32 to SDP. The order of accumulation
// decides the bits: per output, channel blocks in order, each block's kernel positions row-major.
// Rules and the C-model lines they were read from: docs/FP16.md "Convolution".
#pragma once

#include <string>
#include <vector>

#include "engines/conv/golden/conv.hpp"

namespace dla::golden {

// Modes of an fp16 layer this model does not run yet, one sentence each (empty: runnable).
[[nodiscard]] std::vector<std::string> conv_fp16_unsupported(const ConvConfig& c);

// The direct convolution of the fp16 cube `in` (bit patterns, sign-extended from 16 bits) in CSC's
// `stripes`; run.cacc holds each output's fp32 bit pattern (0 .. 2^32-1).
// `rows_per_atom`: image input's channel post-extension E (1, 2, 4; `cfg` is then the image view,
// one channel block of C' <= 64 / E): one atomic operation takes E kernel rows side by side, row i
// in lanes [i * 64 / E, i * 64 / E + C'), so CMAC sums them in one dot product and CACC adds once
// per row group. In fp16 that grouping decides the rounding (the integer paths do not depend on it).
[[nodiscard]] ConvRun run_conv_direct_fp16(const ConvConfig& cfg, const ByteReader& read, const Cube<int64_t>& in,
                                           const std::vector<int>& stripes, int rows_per_atom = 1);

// CDMA's fp16 status counters (D_NAN_INPUT_DATA_NUM, D_INF_INPUT_DATA_NUM, D_NAN_INPUT_WEIGHT_NUM,
// D_INF_INPUT_WEIGHT_NUM): NaNs and infinities in every fp16 of every input atom it fetches (the
// lanes beyond C included) and of the D_WEIGHT_BYTES weight bytes, counted before any flush; 0
// for an integer fetch. A client that fetches nothing (DATA_REUSE, WEIGHT_REUSE) reports its
// `last` counts again, as NVIDIA's C model does (docs/FP16.md "Convolution").
[[nodiscard]] ConvFp16Counts conv_fp16_counts(const ConvConfig& cfg, const ByteReader& read,
                                              const ConvFp16Counts& last);

}  // namespace dla::golden
