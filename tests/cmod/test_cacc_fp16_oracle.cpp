// The golden fp16 accumulation (engines/conv/golden/cacc_fp16.hpp) against NVIDIA's CACC of NVDLA
// v1 (its fp16 adder and fp32 output conversion), run by dlacosim-cacc-oracle
// (cmod/server/cacc_oracle.cpp): every step of drawn accumulation chains, and every accumulator's
// fp32, bit for bit.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"

#include <filesystem>
#include <random>
#include <vector>

#include "common/oracle_pipe.hpp"
#include "engines/cmac/golden/cmac_fp16.hpp"
#include "engines/conv/golden/cacc_fp16.hpp"

namespace fs = std::filesystem;
using namespace dla::golden;

namespace {

const fs::path kOracle = fs::path(DLA_BINARY_DIR) / "cmod/dlacosim-cacc-oracle";

// MAC cell words: from drawn atoms through the golden cell (what CACC meets), and synthetic ones
// over the word's whole range (any exponent, mantissas of every length and sign, the extremes,
// now and then zero or a NaN).
uint64_t draw_word(std::mt19937_64& rng) {
  const int kind = static_cast<int>(rng() % 8);
  if (kind == 0) {
    std::array<uint16_t, kCmacFp16Channels> d{};
    std::array<uint16_t, kCmacFp16Channels> w{};
    std::array<bool, kCmacFp16Channels> act{};
    const int lo = static_cast<int>(rng() % 28);
    for (std::size_t c = 0; c < kCmacFp16Channels; ++c) {
      d[c] = static_cast<uint16_t>(((rng() & 1) << 15) | (uint32_t(lo + static_cast<int>(rng() % 3)) << 10) | (rng() & 0x3ff));
      w[c] = static_cast<uint16_t>(((rng() & 1) << 15) | (uint32_t(lo + static_cast<int>(rng() % 3)) << 10) | (rng() & 0x3ff));
      act[c] = true;
    }
    return cmac_fp16_cell(d, w, act, false).word[0];
  }
  if (kind == 1 && rng() % 16 == 0) return (uint64_t{0x3f} << 38) | (rng() & ((uint64_t{1} << 38) - 1)) | (uint64_t{1} << 27);
  if (kind == 2 && rng() % 4 == 0) return (rng() % 16) << 40;  // a zero mantissa
  const uint64_t exp = 4 * (rng() % 16);
  const uint64_t mant_mask = (uint64_t{1} << 38) - 1;
  uint64_t m = 0;
  switch (rng() % 5) {
    case 0:
      m = rng() & mant_mask;  // any
      break;
    case 1:
      m = (rng() & mant_mask) >> (rng() % 38);  // short positive
      break;
    case 2:
      m = (~((rng() & mant_mask) >> (rng() % 38))) & mant_mask;  // short negative
      break;
    case 3:
      m = (rng() & 1) ? (uint64_t{1} << 37) : (uint64_t{1} << 37) - 1;  // the extremes
      break;
    default:
      m = (rng() & 1) ? mant_mask : 1;  // -1, +1
      break;
  }
  return (exp << 38) | m;
}

}  // namespace

TEST_CASE("cacc fp16: the golden accumulation and fp32 output agree with NVIDIA's CACC", "[cacc][fp16][cmod]") {
  std::mt19937_64 rng(77);
  std::vector<uint64_t> records;
  std::vector<uint64_t> golden;
  std::size_t adds = 0;
  for (int chain = 0; chain < 20'000; ++chain) {
    CaccFp48 acc = 0;
    const int length = 1 + static_cast<int>(rng() % 64);
    for (int k = 0; k < length; ++k) {
      const uint64_t word = draw_word(rng);
      records.insert(records.end(), {0, acc, word});
      acc = cacc_fp16_add(acc, word);
      golden.push_back(acc);
      records.insert(records.end(), {1, acc, 0});
      golden.push_back(cacc_fp48_to_fp32(acc));
      ++adds;
    }
  }
  const std::vector<uint64_t> expected = dla::test::run_oracle<uint64_t>(kOracle, "", records);
  REQUIRE(expected.size() == golden.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < golden.size(); ++i) {
    if (golden[i] != expected[i] && ++wrong <= 8) {
      UNSCOPED_INFO((i % 2 == 0 ? "add" : "fp32") << " record " << i / 2 << ": accumulator " << std::hex
                                                  << records[3 * i + 1] << " word " << records[3 * i + 2]
                                                  << ": golden " << golden[i] << ", NVIDIA " << expected[i] << std::dec);
    }
  }
  INFO(adds << " adds and as many conversions, " << wrong << " results differ");
  CHECK(wrong == 0);
}
