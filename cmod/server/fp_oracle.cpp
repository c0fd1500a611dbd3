// dlacosim-fp-oracle: NVIDIA's float library of NVDLA v1 (hls/include/nvdla_float.h of the nvdlav1
// checkout, the functions its HLS units were generated from) behind a pipe, as a judge of the
// golden model's fp16 / fp17 / fp32 rules (golden/include/golden/fp.hpp, docs/FP16.md).
//
//   dlacosim-fp-oracle OP < operands > results
//
// Operands: little-endian uint32 words, two per record for the two-operand OPs, one otherwise;
// each holds the operand's bits in its low bits (an int operand as two's complement). Results: one
// uint32 per record, the result's bits zero-extended. OP names follow NVIDIA's vlibs (hls/vlibs/).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nvdla_float.h"

namespace {

template <int W>
ac_int<W, true> operand(std::uint32_t v) {
  ac_int<W, false> u = v;  // keeps the low W bits
  return ac_int<W, true>(u);
}

template <int W>
std::uint32_t bits(const ac_int<W, true>& v) {
  return ac_int<W, false>(v).to_uint();
}

using Binary = std::function<std::uint32_t(std::uint32_t, std::uint32_t)>;
using Unary = std::function<std::uint32_t(std::uint32_t)>;

template <int E, int M>
void add_binaries(std::map<std::string, Binary>& ops, const std::string& name) {
  constexpr int kW = 1 + E + M;
  ops[name + "_add"] = [](std::uint32_t a, std::uint32_t b) {
    return bits<kW>(FpAdd<E, M>(operand<kW>(a), operand<kW>(b)));
  };
  ops[name + "_sub"] = [](std::uint32_t a, std::uint32_t b) {
    return bits<kW>(FpSub<E, M>(operand<kW>(a), operand<kW>(b)));
  };
  ops[name + "_mul"] = [](std::uint32_t a, std::uint32_t b) {
    return bits<kW>(FpMul<E, M>(operand<kW>(a), operand<kW>(b)));
  };
  ops[name + "_max"] = [](std::uint32_t a, std::uint32_t b) {
    return bits<kW>(FpMax<E, M>(operand<kW>(a), operand<kW>(b)));
  };
  ops[name + "_min"] = [](std::uint32_t a, std::uint32_t b) {
    return bits<kW>(FpMin<E, M>(operand<kW>(a), operand<kW>(b)));
  };
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, Binary> binaries;
  add_binaries<5, 10>(binaries, "fp16");
  add_binaries<6, 10>(binaries, "fp17");
  add_binaries<8, 23>(binaries, "fp32");

  std::map<std::string, Unary> unaries;
  unaries["fp16_to_fp17"] = [](std::uint32_t a) { return bits<17>(Fp16ToFp17(operand<16>(a))); };
  unaries["fp16_to_fp32"] = [](std::uint32_t a) { return bits<32>(Fp16ToFp32(operand<16>(a))); };
  unaries["fp17_to_fp16"] = [](std::uint32_t a) { return bits<16>(Fp17ToFp16(operand<17>(a))); };
  unaries["fp17_to_fp32"] = [](std::uint32_t a) { return bits<32>(Fp17ToFp32(operand<17>(a))); };
  unaries["fp32_to_fp16"] = [](std::uint32_t a) { return bits<16>(Fp32ToFp16(operand<32>(a))); };
  unaries["fp32_to_fp17"] = [](std::uint32_t a) { return bits<17>(Fp32ToFp17(operand<32>(a))); };
  unaries["uint16_to_fp17"] = [](std::uint32_t a) {
    ac_int<16, false> u = a;
    return ac_int<17, false>(FpFractionToFloat<16, 6, 10>(u)).to_uint();
  };
  unaries["int16_to_fp16"] = [](std::uint32_t a) { return bits<16>(Int16ToFp16(operand<16>(a))); };
  unaries["int17_to_fp16"] = [](std::uint32_t a) { return bits<16>(Int17ToFp16(operand<17>(a))); };
  unaries["fp16_to_int16"] = [](std::uint32_t a) { return bits<16>(Fp16ToInt16(operand<16>(a))); };
  unaries["fp16_relu"] = [](std::uint32_t a) { return bits<16>(FpRelu<5, 10>(operand<16>(a))); };

  const std::string op = argc == 2 ? argv[1] : "";
  const bool binary = binaries.count(op) != 0;
  if (!binary && unaries.count(op) == 0) {
    std::fprintf(stderr, "usage: dlacosim-fp-oracle OP < operands > results; OP is one of:");
    for (const auto& [name, f] : binaries) std::fprintf(stderr, " %s", name.c_str());
    for (const auto& [name, f] : unaries) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  const std::size_t arity = binary ? 2 : 1;
  std::vector<std::uint32_t> in(4096 * arity);
  std::vector<std::uint32_t> out(4096);
  for (;;) {
    const std::size_t got = std::fread(in.data(), sizeof(std::uint32_t), in.size(), stdin);
    if (got % arity != 0) {
      std::fprintf(stderr, "dlacosim-fp-oracle %s: input ends inside a record\n", op.c_str());
      return 1;
    }
    const std::size_t n = got / arity;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = binary ? binaries[op](in[2 * i], in[2 * i + 1]) : unaries[op](in[i]);
    }
    if (std::fwrite(out.data(), sizeof(std::uint32_t), n, stdout) != n) return 1;
    if (got < in.size()) break;
  }
  return 0;
}
