// The golden float rules (golden/include/golden/fp.hpp) against NVIDIA's own float library of
// NVDLA v1 (nvdla_float.h, the source its HLS units were generated from), run by
// dlacosim-fp-oracle (cmod/server/fp_oracle.cpp): every operation NVIDIA's vlibs instantiate, one
// million edge-biased operand pairs per two-operand operation, every input of the one-operand
// ones up to 17 bits and a million fp32 inputs; every result bit for bit.
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "common/fp_operands.hpp"
#include "common/oracle_pipe.hpp"
#include "golden/fp.hpp"

namespace fs = std::filesystem;
namespace fp = dla::golden::fp;

namespace {

const fs::path kOracle = fs::path(DLA_BINARY_DIR) / "cmod/dlacosim-fp-oracle";
constexpr std::size_t kPairs = 1'000'000;

// Compares golden with the oracle on every record; reports the first mismatches in hex.
void judge(const std::string& op, int arity, const std::vector<uint32_t>& words,
           const std::function<uint32_t(const uint32_t*)>& golden) {
  const std::vector<uint32_t> expected = dla::test::run_oracle<uint32_t>(kOracle, op, words);
  const std::size_t records = words.size() / static_cast<std::size_t>(arity);
  REQUIRE(expected.size() == records);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < records; ++i) {
    const uint32_t* rec = &words[i * static_cast<std::size_t>(arity)];
    const uint32_t got = golden(rec);
    if (got != expected[i]) {
      if (++wrong <= 8) {
        char line[160];
        std::snprintf(line, sizeof line, "%s(%08x%s%08x): golden %08x, NVIDIA %08x", op.c_str(), rec[0],
                      arity == 2 ? ", " : "", arity == 2 ? rec[1] : 0u, got, expected[i]);
        UNSCOPED_INFO(line);
      }
    }
  }
  INFO(op << ": " << records << " records, " << wrong << " differ");
  CHECK(wrong == 0);
}

using dla::test::kFpFormats;

// Every input of a format up to 17 bits wide; a million drawn ones for fp32.
std::vector<uint32_t> inputs_of(fp::Format f, uint64_t seed) {
  std::vector<uint32_t> v;
  if (f.width() <= 17) {
    for (uint32_t i = 0; i <= f.mask(); ++i) v.push_back(i);
  } else {
    dla::test::FpOperands draw(seed);
    for (std::size_t i = 0; i < kPairs; ++i) v.push_back(draw.one(f));
  }
  return v;
}

}  // namespace

TEST_CASE("fp: add, sub, mul, max, min agree with NVIDIA's float library bit for bit", "[fp][cmod]") {
  REQUIRE(fs::exists(kOracle));
  using Binary = uint32_t (*)(fp::Format, uint32_t, uint32_t);
  const std::pair<const char*, Binary> ops[] = {
      {"add", fp::add}, {"sub", fp::sub}, {"mul", fp::mul}, {"max", fp::max}, {"min", fp::min}};
  uint64_t seed = 1;
  for (const dla::test::NamedFormat& n : kFpFormats) {
    for (const auto& [name, f] : ops) {
      dla::test::FpOperands draw(seed++);
      std::vector<uint32_t> words;
      words.reserve(2 * kPairs);
      for (std::size_t i = 0; i < kPairs; ++i) {
        const uint32_t a = draw.one(n.format);
        words.push_back(a);
        words.push_back(draw.draw(2) ? draw.partner(n.format, a) : draw.one(n.format));
      }
      const fp::Format format = n.format;
      const Binary op = f;
      judge(std::string(n.name) + "_" + name, 2, words,
            [format, op](const uint32_t* r) { return op(format, r[0], r[1]); });
    }
  }
}

TEST_CASE("fp: the six conversions agree with NVIDIA's float library bit for bit", "[fp][cmod]") {
  REQUIRE(fs::exists(kOracle));
  for (const dla::test::NamedFormat& from : kFpFormats) {
    for (const dla::test::NamedFormat& to : kFpFormats) {
      if (from.format == to.format) continue;
      const fp::Format f = from.format;
      const fp::Format t = to.format;
      judge(std::string(from.name) + "_to_" + to.name, 1, inputs_of(f, 77),
            [f, t](const uint32_t* r) { return fp::convert(f, t, r[0]); });
    }
  }
}

TEST_CASE("fp: integer and fraction conversions and ReLU agree with NVIDIA's float library", "[fp][cmod]") {
  REQUIRE(fs::exists(kOracle));
  std::vector<uint32_t> all16;
  std::vector<uint32_t> all17;
  for (uint32_t i = 0; i < (1u << 16); ++i) all16.push_back(i);
  for (uint32_t i = 0; i < (1u << 17); ++i) all17.push_back(i);
  judge("int16_to_fp16", 1, all16, [](const uint32_t* r) { return fp::from_int(fp::kFp16, r[0], 16); });
  judge("int17_to_fp16", 1, all17, [](const uint32_t* r) { return fp::from_int(fp::kFp16, r[0], 17); });
  judge("uint16_to_fp17", 1, all16, [](const uint32_t* r) { return fp::from_fraction(fp::kFp17, r[0], 16); });
  judge("fp16_to_int16", 1, all16, [](const uint32_t* r) {
    return static_cast<uint32_t>(fp::to_int(fp::kFp16, r[0], 16)) & 0xffffu;
  });
  judge("fp16_relu", 1, all16, [](const uint32_t* r) { return fp::relu(fp::kFp16, r[0]); });
}
