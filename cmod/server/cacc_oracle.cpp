// dlacosim-cacc-oracle: NVIDIA's CACC of NVDLA v1 (NV_NVDLA_cacc of the nvdlav1 C model: its fp16
// adder and its fp32 output conversion) behind a pipe, as the judge of the golden model's fp16
// accumulation (engines/conv/golden/cacc_fp16.hpp, docs/FP16.md "CACC").
//
//   dlacosim-cacc-oracle < records > results
//
// A record: three little-endian uint64, (0, accumulator, MAC cell word) for an add, giving the new
// accumulator, or (1, accumulator, 0) for the conversion, giving the fp32 bits.
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include <systemc.h>
#include <tlm.h>

// The two functions are private members of the module: made reachable for this driver only.
#define private public
#include "NV_NVDLA_cacc.h"
#undef private

using scsim::cmod::NV_NVDLA_cacc;

int sc_main(int, char**) {
  // SystemC prints its banner on stdout: the results go to a private copy of it, fd 1 to stderr.
  const int out_fd = ::dup(1);
  if (out_fd < 0 || ::dup2(2, 1) < 0) return 1;
  std::FILE* results = ::fdopen(out_fd, "wb");
  if (results == nullptr) return 1;
  NV_NVDLA_cacc cacc("cacc");
  uint64_t rec[3];
  while (std::fread(rec, sizeof rec, 1, stdin) == 1) {
    uint64_t out = 0;
    if (rec[0] == 0) {
      sc_uint<FP16_ALEN> acc = rec[1];
      cacc.cacc_fp16_add(&acc, sc_uint<44>(rec[2]));
      out = acc.to_uint64();
    } else {
      sc_int<32> fp32 = 0;
      cacc.cacc_fp48_to_fp32(&fp32, sc_uint<FP16_ALEN>(rec[1]));
      out = static_cast<uint64_t>(fp32.to_int64()) & 0xffffffffu;
    }
    if (std::fwrite(&out, sizeof out, 1, results) != 1) return 1;
  }
  return std::fclose(results) == 0 ? 0 : 1;
}
