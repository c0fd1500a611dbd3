// The float primitives of rtl/prim/ (dla_fp_*.sv, through rtl/top/dla_fp_top.sv) against the
// golden float rules (golden/include/golden/fp.hpp, themselves judged by NVIDIA's float library in
// tests/cmod/test_fp_oracle.cpp): one million edge-biased operand pairs per two-operand instance,
// every input of the one-operand instances up to 17 bits and a million fp32 inputs; bit for bit.
// Combinational units: no reset or back-pressure to vary.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "Vfp_top.h"
#include "common/fp_operands.hpp"
#include "golden/fp.hpp"

namespace fp = dla::golden::fp;

namespace {

constexpr int kPairs = 1'000'000;

struct Checker {
  VerilatedContext ctx;
  Vfp_top top{&ctx, "top"};
  uint32_t run(int op, uint32_t a, uint32_t b) {
    top.op_i = static_cast<uint8_t>(op);
    top.a_i = a;
    top.b_i = b;
    top.eval();
    return top.z_o;
  }
};

// Runs op on every record, counts and reports the first differences from golden.
void compare(Checker& c, const std::string& name, int op, std::size_t records,
             const std::function<std::pair<uint32_t, uint32_t>(std::size_t)>& operands,
             const std::function<uint32_t(uint32_t, uint32_t)>& golden) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < records; ++i) {
    const auto [a, b] = operands(i);
    const uint32_t got = c.run(op, a, b);
    const uint32_t want = golden(a, b);
    if (got != want && ++wrong <= 8) {
      UNSCOPED_INFO(name << "(" << std::hex << a << ", " << b << "): RTL " << got << ", golden " << want << std::dec);
    }
  }
  INFO(name << ": " << records << " records, " << wrong << " differ");
  CHECK(wrong == 0);
}

using dla::test::kFpFormats;

}  // namespace

TEST_CASE("fp prims: add, sub, mul, max, min equal golden on a million pairs each", "[rtl][prim][fp]") {
  Checker c;
  using Binary = uint32_t (*)(fp::Format, uint32_t, uint32_t);
  const Binary ops[] = {fp::add, fp::sub, fp::mul, fp::max, fp::min};
  const char* names[] = {"add", "sub", "mul", "max", "min"};
  for (int f = 0; f < 3; ++f) {
    for (int k = 0; k < 5; ++k) {
      const fp::Format format = kFpFormats[f].format;
      dla::test::FpOperands draw(static_cast<uint64_t>(100 + 5 * f + k));
      const Binary g = ops[k];
      compare(c, std::string(kFpFormats[f].name) + "_" + names[k], 5 * f + k, kPairs,
              [&](std::size_t) {
                const uint32_t a = draw.one(format);
                return std::pair{a, draw.draw(2) ? draw.partner(format, a) : draw.one(format)};
              },
              [format, g](uint32_t a, uint32_t b) { return g(format, a, b); });
    }
  }
  c.top.final();
}

TEST_CASE("fp prims: the six conversions equal golden on every fp16 / fp17 input and a million fp32", "[rtl][prim][fp]") {
  Checker c;
  struct Conv {
    int op;
    int from;
    int to;
  };
  const Conv convs[] = {{15, 0, 1}, {16, 0, 2}, {17, 1, 0}, {18, 1, 2}, {19, 2, 0}, {20, 2, 1}};
  dla::test::FpOperands draw(31);
  for (const Conv& v : convs) {
    const fp::Format from = kFpFormats[v.from].format;
    const fp::Format to = kFpFormats[v.to].format;
    const bool all = from.width() <= 17;
    compare(c, std::string(kFpFormats[v.from].name) + "_to_" + kFpFormats[v.to].name, v.op,
            all ? std::size_t{from.mask()} + 1 : std::size_t{kPairs},
            [&](std::size_t i) { return std::pair{all ? static_cast<uint32_t>(i) : draw.one(from), 0u}; },
            [from, to](uint32_t a, uint32_t) { return fp::convert(from, to, a); });
  }
  c.top.final();
}

TEST_CASE("fp prims: integer and fraction conversions equal golden on every input", "[rtl][prim][fp]") {
  Checker c;
  const auto index = [](std::size_t i) { return std::pair{static_cast<uint32_t>(i), 0u}; };
  compare(c, "int16_to_fp16", 21, 1u << 16, index, [](uint32_t a, uint32_t) { return fp::from_int(fp::kFp16, a, 16); });
  compare(c, "int17_to_fp16", 22, 1u << 17, index, [](uint32_t a, uint32_t) { return fp::from_int(fp::kFp16, a, 17); });
  compare(c, "uint16_to_fp17", 23, 1u << 16, index,
          [](uint32_t a, uint32_t) { return fp::from_fraction(fp::kFp17, a, 16); });
  compare(c, "fp16_to_int16", 24, 1u << 16, index, [](uint32_t a, uint32_t) {
    return static_cast<uint32_t>(fp::to_int(fp::kFp16, a, 16)) & 0xffffu;
  });
  c.top.final();
}
