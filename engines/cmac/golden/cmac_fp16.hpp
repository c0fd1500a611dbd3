// CMAC's fp16 atomic operation on nv_full: one MAC cell multiplies 64 fp16 channel pairs and sums
// them into a block-floating-point result, not an IEEE dot product. Every product's mantissa is
// aligned to the largest exponent of the atom in steps of four bits and summed exactly in fixed
// point after a truncating shift; CACC turns the sum and its exponent into fp32. Rules: docs/FP16.md
// "CMAC"; judged against NVIDIA's own MAC cell by tests/cmod/test_cmac_fp16_oracle.cpp.
#pragma once

#include <array>
#include <cstdint>

namespace dla::golden {

inline constexpr int kCmacFp16Channels = 64;
inline constexpr int kCmacFp16MantBits = 38;  // the fixed-point sum, two's complement
inline constexpr int kCmacFp16ExpBits = 6;    // its exponent: a multiple of 4

// A cell's result word: exponent in bits 43..38, signed mantissa sum in bits 37..0. Direct
// convolution fills word 0 only; Winograd fills four (the POA's 2x2 outputs).
struct CmacFp16Out {
  std::array<uint64_t, 4> word{};
  bool operator==(const CmacFp16Out&) const = default;
};

// One atom: data[c] and weight[c] are fp16 bit patterns; active[c] is false where either the data
// or the weight of channel c is masked off (a zero CSC skipped), which contributes nothing.
CmacFp16Out cmac_fp16_cell(const std::array<uint16_t, kCmacFp16Channels>& data,
                           const std::array<uint16_t, kCmacFp16Channels>& weight,
                           const std::array<bool, kCmacFp16Channels>& active, bool winograd);

// The exact product of the aligned mantissas as the cell forms it: a radix-4 Booth multiplier
// whose two carry-save rows are shifted right by `shift` separately (each row truncated) before
// they are added. Exposed for the tests' hand-worked cases.
int32_t cmac_fp16_product(bool negative, uint32_t weight_mant, uint32_t data_mant, uint32_t shift);

}  // namespace dla::golden
