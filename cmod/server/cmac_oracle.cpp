// dlacosim-cmac-oracle: NVIDIA's MAC cell of NVDLA v1 (NvdlaMacCell in cmac/NV_NVDLA_cmac.h of
// the nvdlav1 checkout, the C model's arithmetic of one cell) behind a pipe, as the judge of the
// golden model's fp16 atomic operation (engines/cmac/golden/cmac_fp16.hpp, docs/FP16.md "CMAC").
//
//   dlacosim-cmac-oracle < atoms > results
//
// An atom: 64 little-endian uint16 data values (fp16 bits, channel order), 64 weight values, a
// uint64 of active channels (bit c: channel c takes part), a uint64 whose bit 0 selects Winograd.
// A result: four little-endian uint64 words, each the cell's 44-bit output (exponent in bits
// 43..38, mantissa sum in bits 37..0), words 1-3 zero outside Winograd.
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "NV_NVDLA_cmac.h"

using scsim::cmod::NvdlaMacCell;

namespace {

struct Atom {
  uint16_t data[64];
  uint16_t weight[64];
  uint64_t active;
  uint64_t winograd;
};

}  // namespace

int sc_main(int, char**) {
  // SystemC prints its banner on stdout: the results go to a private copy of it, fd 1 to stderr.
  const int out_fd = ::dup(1);
  if (out_fd < 0 || ::dup2(2, 1) < 0) return 1;
  std::FILE* results = ::fdopen(out_fd, "wb");
  if (results == nullptr) return 1;
  sc_int<8> data[128];
  sc_int<8> weight[128];
  sc_int<22> result[8];
  uint64_t wt_mask[2];
  uint64_t dat_mask[2];
  NvdlaMacCell cell;
  cell.data_operand_ptr_ = data;
  cell.weight_operand_ptr_ = weight;
  cell.result_ptr_ = result;
  cell.wt_mask_ptr_ = wt_mask;
  cell.dat_mask_ptr_ = dat_mask;
  cell.precision_ = NVDLA_CMAC_A_D_MISC_CFG_0_PROC_PRECISION_FP16;
  Atom a;
  while (std::fread(&a, sizeof a, 1, stdin) == 1) {
    for (int c = 0; c < 64; ++c) {
      data[2 * c] = a.data[c] & 0xff;
      data[2 * c + 1] = a.data[c] >> 8;
      weight[2 * c] = a.weight[c] & 0xff;
      weight[2 * c + 1] = a.weight[c] >> 8;
    }
    // Channel c's mask bits are 2 (c % 32) and the next, in word 1 - c / 32 of both masks (the
    // words the cell reads them from).
    wt_mask[0] = wt_mask[1] = dat_mask[0] = dat_mask[1] = 0;
    for (int c = 0; c < 64; ++c) {
      if (((a.active >> c) & 1) == 0) continue;
      const uint64_t bits = uint64_t{3} << ((c % 32) * 2);
      wt_mask[1 - c / 32] |= bits;
      dat_mask[1 - c / 32] |= bits;
    }
    cell.do_calc(true, (a.winograd & 1) != 0);
    uint64_t out[4];
    for (int w = 0; w < 4; ++w) {
      const uint64_t lo = static_cast<uint64_t>(result[2 * w].to_int64()) & 0x3fffff;
      const uint64_t hi = static_cast<uint64_t>(result[2 * w + 1].to_int64()) & 0x3fffff;
      out[w] = (hi << 22) | lo;
    }
    if (std::fwrite(out, sizeof out, 1, results) != 1) return 1;
  }
  return std::fclose(results) == 0 ? 0 : 1;
}
