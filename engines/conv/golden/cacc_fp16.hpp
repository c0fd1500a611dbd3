// CACC's fp16 accumulation on nv_full: the MAC cells' block-floating-point words
// (engines/cmac/golden/cmac_fp16.hpp) are added into a 48-bit accumulator of NVDLA's own format,
// 8-bit exponent and 40-bit two's complement mantissa, rounded half away from zero at every add;
// at the end of a channel group each accumulator leaves for SDP as an fp32. Rules: docs/FP16.md
// "CACC"; judged against NVIDIA's CACC by tests/cmod/test_cacc_fp16_oracle.cpp.
#pragma once

#include <cstdint>

namespace dla::golden {

// The accumulator: exponent in bits 47..40, mantissa in bits 39..0; the value is
// mantissa * 2^(exponent - 101). 0 is the empty accumulator.
using CaccFp48 = uint64_t;

// The accumulator after adding one MAC cell word (44 bits: exponent 43..38, mantissa 37..0).
CaccFp48 cacc_fp16_add(CaccFp48 acc, uint64_t mac_word);

// The fp32 an accumulator delivers to SDP.
uint32_t cacc_fp48_to_fp32(CaccFp48 acc);

}  // namespace dla::golden
