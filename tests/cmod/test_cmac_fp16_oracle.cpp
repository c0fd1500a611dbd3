// The golden fp16 MAC cell (engines/cmac/golden/cmac_fp16.hpp) against NVIDIA's own MAC cell of
// NVDLA v1 (NvdlaMacCell of the nvdlav1 C model), run by dlacosim-cmac-oracle
// (cmod/server/cmac_oracle.cpp): drawn atoms in direct and Winograd mode, every output word bit
// for bit.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"

#include <filesystem>
#include <random>
#include <vector>

#include "common/fp_operands.hpp"
#include "common/oracle_pipe.hpp"
#include "engines/cmac/golden/cmac_fp16.hpp"

namespace fs = std::filesystem;
using namespace dla::golden;

namespace {

const fs::path kOracle = fs::path(DLA_BINARY_DIR) / "cmod/dlacosim-cmac-oracle";

struct Atom {
  std::array<uint16_t, kCmacFp16Channels> data;
  std::array<uint16_t, kCmacFp16Channels> weight;
  uint64_t active;
  uint64_t winograd;
};
static_assert(sizeof(Atom) == 272);

// Atoms of several kinds: exponents in a narrow or wide window (alignment shifts from none to
// everything aligned out), zeros and denormals, sparse masks, and now and then a NaN or infinity.
Atom draw_atom(std::mt19937_64& rng, dla::test::FpOperands& edges) {
  Atom a{};
  const int kind = static_cast<int>(rng() % 6);
  const int lo = static_cast<int>(rng() % 31);
  const int span = 1 + static_cast<int>(rng() % (kind == 0 ? 31 : 6));
  auto value = [&]() -> uint16_t {
    if (kind == 1 && rng() % 4 == 0) return static_cast<uint16_t>(edges.one(fp::kFp16));
    if (kind == 2 && rng() % 3 == 0) return static_cast<uint16_t>((rng() & 0x83ff));  // zero, denormal
    const uint32_t e = static_cast<uint32_t>(std::min(30, lo + static_cast<int>(rng() % static_cast<uint64_t>(span))));
    return static_cast<uint16_t>(((rng() & 1) << 15) | (e << 10) | (rng() & 0x3ff));
  };
  for (std::size_t c = 0; c < kCmacFp16Channels; ++c) {
    a.data[c] = value();
    a.weight[c] = value();
  }
  a.active = kind == 3 ? rng() : ~uint64_t{0};
  if (kind == 4) a.active &= ~(uint64_t{1} << (rng() % 64));
  if (kind == 5 && rng() % 8 == 0) {
    const auto c = static_cast<std::size_t>(rng() % 64);
    (rng() & 1 ? a.data : a.weight)[c] = static_cast<uint16_t>(0x7c00 | ((rng() & 1) << 15) | (rng() % 3 == 0 ? 0 : (rng() & 0x3ff) | 1));
  }
  a.winograd = rng() & 1;
  return a;
}

}  // namespace

TEST_CASE("cmac fp16: the golden MAC cell agrees with NVIDIA's bit for bit", "[cmac][fp16][cmod]") {
  constexpr std::size_t kAtoms = 200'000;
  std::mt19937_64 rng(2026);
  dla::test::FpOperands edges(9);
  std::vector<Atom> atoms(kAtoms);
  for (Atom& a : atoms) a = draw_atom(rng, edges);

  const std::vector<uint64_t> expected = dla::test::run_oracle<uint64_t>(kOracle, "", atoms);
  REQUIRE(expected.size() == 4 * kAtoms);

  std::size_t wrong = 0;
  std::size_t nan_atoms = 0;
  std::size_t wino_atoms = 0;
  for (std::size_t i = 0; i < kAtoms; ++i) {
    const Atom& a = atoms[i];
    std::array<bool, kCmacFp16Channels> active{};
    for (std::size_t c = 0; c < kCmacFp16Channels; ++c) active[c] = ((a.active >> c) & 1) != 0;
    const CmacFp16Out got = cmac_fp16_cell(a.data, a.weight, active, a.winograd != 0);
    if (((got.word[0] >> 38) & 0x3f) == 0x3f) ++nan_atoms;
    wino_atoms += a.winograd;
    for (std::size_t w = 0; w < 4; ++w) {
      if (got.word[w] != expected[4 * i + w] && ++wrong <= 8) {
        UNSCOPED_INFO("atom " << i << " word " << w << ": golden " << std::hex << got.word[w] << ", NVIDIA "
                              << expected[4 * i + w] << std::dec);
      }
    }
  }
  INFO(kAtoms << " atoms (" << wino_atoms << " Winograd, " << nan_atoms << " with a NaN), " << wrong << " words differ");
  CHECK(wrong == 0);
  CHECK(nan_atoms > 100);
  CHECK(wino_atoms > kAtoms / 3);
}
