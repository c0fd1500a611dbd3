// The golden Winograd PRA (engines/wino/golden/wino.hpp: wino_pra in int8 / int16 at every
// PRA_TRUNCATE, wino_pra_fp16) against NVIDIA's own PRA of NVDLA v1 (csc_pra_hls, its HLS unit
// NV_NVDLA_CSC_pra_cell), run by dlacosim-pra-oracle (cmod/server/pra_oracle.cpp): every element of
// drawn tiles, bit for bit.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"

#include <filesystem>
#include <vector>

#include "common/oracle_pipe.hpp"
#include "common/wino_tiles.hpp"
#include "engines/wino/golden/wino.hpp"
#include "golden/arith.hpp"
#include "golden/fp.hpp"

namespace fs = std::filesystem;
using namespace dla::golden;

namespace {

const fs::path kOracle = fs::path(DLA_BINARY_DIR) / "cmod/dlacosim-pra-oracle";

struct Record {
  std::array<uint16_t, 16> tile;
  uint16_t precision;  // 0 int8, 1 int16, 2 fp16 (NVDLA's codes)
  uint16_t truncate;
};
static_assert(sizeof(Record) == 36);

}  // namespace

TEST_CASE("wino: the golden PRA agrees with NVIDIA's in int8, int16 and fp16", "[wino][fp16][cmod]") {
  constexpr std::size_t kTiles = 300'000;
  dla::test::FpOperands r(4242);
  std::vector<Record> recs(kTiles);
  for (Record& x : recs) {
    const uint32_t code = r.draw(5) < 3 ? 2 : r.draw(2);  // fp16 in 3 of 5
    const Precision p = code == 2 ? Precision::Fp16 : code == 1 ? Precision::Int16 : Precision::Int8;
    x.tile = dla::test::draw_wino_tile(r, p);
    x.precision = static_cast<uint16_t>(code);
    // the hardware reads the 2-bit field in every precision; fp16 ignores it
    x.truncate = static_cast<uint16_t>(r.draw(code == 2 ? 4 : 3));
  }
  const std::vector<uint16_t> expected = dla::test::run_oracle<uint16_t>(kOracle, "", recs);
  REQUIRE(expected.size() == 16 * kTiles);

  std::size_t wrong = 0, fp16_tiles = 0, nan_out = 0, zero_out = 0;
  for (std::size_t i = 0; i < kTiles; ++i) {
    const Record& x = recs[i];
    WinoTile d{};
    WinoTile got{};
    uint16_t mask = 0xffff;
    if (x.precision == 2) {
      ++fp16_tiles;
      for (std::size_t e = 0; e < 16; ++e) d[e] = x.tile[e];
      got = wino_pra_fp16(d);
    } else {
      const Precision p = x.precision == 1 ? Precision::Int16 : Precision::Int8;
      for (std::size_t e = 0; e < 16; ++e) d[e] = sign_extend(x.tile[e], 16);
      got = wino_pra(d, p, x.truncate);
      if (p == Precision::Int8) mask = 0xff;  // int8 results travel in the low byte
    }
    for (std::size_t e = 0; e < 16; ++e) {
      const auto g = static_cast<uint16_t>(static_cast<uint64_t>(got[e]) & mask);
      const auto n = static_cast<uint16_t>(expected[16 * i + e] & mask);
      if (x.precision == 2) {
        nan_out += fp::is_nan(fp::kFp16, n) ? 1 : 0;
        zero_out += fp::is_zero(fp::kFp16, n) ? 1 : 0;
      }
      if (g != n && ++wrong <= 8) {
        UNSCOPED_INFO("tile " << i << " (precision " << x.precision << ", truncate " << x.truncate << ") element "
                              << e << ": golden " << std::hex << g << ", NVIDIA " << n << std::dec);
      }
    }
  }
  INFO(kTiles << " tiles (" << fp16_tiles << " fp16: " << nan_out << " NaN and " << zero_out
              << " zero elements out), " << wrong << " elements differ");
  CHECK(wrong == 0);
  CHECK(fp16_tiles > kTiles / 2);
  CHECK(nan_out > 100);
  CHECK(zero_out > 100);
}
