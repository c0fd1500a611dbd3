// dlacosim-pra-oracle: NVIDIA's Winograd PRA of NVDLA v1 (csc_pra_hls, the C model's wrapper of its
// HLS unit NV_NVDLA_CSC_pra_cell) behind a pipe, as the judge of the golden PRA
// (engines/wino/golden/wino.hpp: wino_pra, wino_pra_fp16).
//
//   dlacosim-pra-oracle < records > results
//
// A record: 18 little-endian uint16, the 4x4 tile (row-major; int8 data sign-extended to 16 bits,
// fp16 as bit patterns), the precision (0 int8, 1 int16, 2 fp16) and PRA_TRUNCATE. A result: the
// 16 transformed elements as 16-bit words.
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include <systemc.h>

#include "csc_hls_wrapper.h"

int sc_main(int, char**) {
  // SystemC prints its banner on stdout: the results go to a private copy of it, fd 1 to stderr.
  const int out_fd = ::dup(1);
  if (out_fd < 0 || ::dup2(2, 1) < 0) return 1;
  std::FILE* results = ::fdopen(out_fd, "wb");
  if (results == nullptr) return 1;
  uint16_t rec[18];
  while (std::fread(rec, sizeof rec, 1, stdin) == 1) {
    int16_t out[16] = {};
    csc_pra_hls(rec, static_cast<uint8_t>(rec[16]), static_cast<uint8_t>(rec[17]), out);
    if (std::fwrite(out, sizeof out, 1, results) != 1) return 1;
  }
  return std::fclose(results) == 0 ? 0 : 1;
}
