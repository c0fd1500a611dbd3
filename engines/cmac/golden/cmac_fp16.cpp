// CMAC's fp16 atomic operation (engines/cmac/golden/cmac_fp16.hpp), written from the behaviour of
// NVDLA v1's MAC cell as docs/FP16.md "CMAC" describes it.
#include "engines/cmac/golden/cmac_fp16.hpp"

#include <vector>

#include "golden/arith.hpp"
#include "golden/fp.hpp"

namespace dla::golden {
namespace {

constexpr uint64_t kMantMask = (uint64_t{1} << kCmacFp16MantBits) - 1;

// One 3:2 carry-save step over the rows' front: triples of rows become (sum, carry) pairs in
// place, rows left over move up behind them; repeated until two rows remain.
std::vector<uint32_t> carry_save(std::vector<uint32_t> rows) {
  while (rows.size() >= 3) {
    const std::size_t groups = rows.size() / 3;
    std::vector<uint32_t> next;
    for (std::size_t g = 0; g < groups; ++g) {
      const uint32_t a = rows[3 * g];
      const uint32_t b = rows[3 * g + 1];
      const uint32_t c = rows[3 * g + 2];
      next.push_back(a ^ b ^ c);
      next.push_back(((a & b) | (b & c) | (a & c)) << 1);
    }
    for (std::size_t j = 3 * groups; j < rows.size(); ++j) next.push_back(rows[j]);
    rows = next;
  }
  return rows;
}

// Two's complement of a fixed-point word of `bits` bits.
int64_t signed_of(uint64_t v, int bits) { return sign_extend(v, bits); }

}  // namespace

int32_t cmac_fp16_product(bool negative, uint32_t weight_mant, uint32_t data_mant, uint32_t shift) {
  if (shift >= 32) return 0;
  // Radix-4 Booth digits of the weight (of its negation for a negative product: every 3-bit
  // window inverted), each selecting 0, +-data or +-2 data. A positive row carries a 1 at bit 16
  // and a negative one is the row's one's complement with its +1 in the next row: the sign
  // extensions become one constant, added after the shift.
  std::vector<uint32_t> partial(8);
  std::vector<uint32_t> plus_one(8);
  uint32_t window = weight_mant << 1;
  for (std::size_t i = 0; i < 8; ++i) {
    const uint32_t digit = (window & 7u) ^ (negative ? 7u : 0u);
    window >>= 2;
    switch (digit) {
      case 0:
      case 7:
        partial[i] = 0x10000;
        break;
      case 1:
      case 2:
        partial[i] = data_mant | 0x10000;
        break;
      case 3:
        partial[i] = (data_mant << 1) | 0x10000;
        break;
      case 4:
        partial[i] = ~(data_mant << 1) & 0xffff;
        plus_one[i] = 1;
        break;
      default:  // 5, 6
        partial[i] = ~data_mant & 0xffff;
        plus_one[i] = 1;
        break;
    }
  }
  // Ten rows in two trees of five: digits 0-3 with their +1s, digits 4-7 with theirs.
  const std::vector<uint32_t> low = carry_save({partial[0], (partial[1] << 2) | plus_one[0],
                                                (partial[2] << 4) | (plus_one[1] << 2),
                                                (partial[3] << 6) | (plus_one[2] << 4), plus_one[3] << 6});
  const std::vector<uint32_t> high = carry_save({partial[4] << 8, (partial[5] << 10) | (plus_one[4] << 8),
                                                 (partial[6] << 12) | (plus_one[5] << 10),
                                                 (partial[7] << 14) | (plus_one[6] << 12), plus_one[7] << 14});
  const std::vector<uint32_t> rows = carry_save({low[0], low[1], high[0], high[1]});
  // Each row is shifted (truncated) on its own; the sign constant -0x55550000 is shifted rounding
  // up, as the hardware's table of it holds.
  const int64_t constant = -0x55550000LL;
  const auto shifted_constant = static_cast<int64_t>(-floor_shift(-constant, static_cast<int>(shift)));
  const uint64_t sum = uint64_t{rows[0] >> shift} + uint64_t{rows[1] >> shift} +
                       static_cast<uint64_t>(shifted_constant);
  return static_cast<int32_t>(signed_of(sum & 0xffffffffu, 32));
}

CmacFp16Out cmac_fp16_cell(const std::array<uint16_t, kCmacFp16Channels>& data,
                           const std::array<uint16_t, kCmacFp16Channels>& weight,
                           const std::array<bool, kCmacFp16Channels>& active, bool winograd) {
  CmacFp16Out out;
  // A NaN anywhere in the atom, masked or not, is the result: the first NaN weight by channel,
  // else the first NaN data value; its sign and fraction go out with exponent bits all ones.
  for (const auto* operands : {&weight, &data}) {
    for (uint16_t v : *operands) {
      if (fp::is_nan(fp::kFp16, v)) {
        const uint64_t word = (uint64_t{0x3f} << kCmacFp16MantBits) | (uint64_t{(v >> 15) & 1u} << 37) |
                              (uint64_t{v & 0x3ffu} << 27);
        out.word[0] = word;
        if (winograd) out.word = {word, word, word, word};
        return out;
      }
    }
  }
  // Each product's exponent is split: the two low bits shift the mantissas (an exponent field of
  // 0 counts as 1, with no leading 1: denormals are exact), the high bits pick a block of four.
  std::array<uint32_t, kCmacFp16Channels> block{};
  uint32_t max_block = 0;
  for (int c = 0; c < kCmacFp16Channels; ++c) {
    if (!active[static_cast<std::size_t>(c)]) continue;
    const uint32_t de = (data[static_cast<std::size_t>(c)] >> 10) & 0x1fu;
    const uint32_t we = (weight[static_cast<std::size_t>(c)] >> 10) & 0x1fu;
    block[static_cast<std::size_t>(c)] = (de >> 2) + (we >> 2);
    if (block[static_cast<std::size_t>(c)] > max_block) max_block = block[static_cast<std::size_t>(c)];
  }
  std::array<int64_t, kCmacFp16Channels> product{};
  for (int c = 0; c < kCmacFp16Channels; ++c) {
    const auto i = static_cast<std::size_t>(c);
    if (!active[i]) continue;
    auto mantissa = [](uint16_t v) {
      const uint32_t e = (v >> 10) & 0x1fu;
      const uint32_t m = (v & 0x3ffu) | (e != 0 ? 0x400u : 0u);
      return m << (e == 0 ? 1u : (e & 3u));
    };
    const bool negative = ((data[i] ^ weight[i]) >> 15) != 0;
    product[i] = cmac_fp16_product(negative, mantissa(weight[i]), mantissa(data[i]), (max_block - block[i]) * 4);
  }
  std::array<int64_t, 16> quad{};
  for (std::size_t q = 0; q < 16; ++q) {
    quad[q] = product[4 * q] + product[4 * q + 1] + product[4 * q + 2] + product[4 * q + 3];
  }
  const auto wrap = [](int64_t v) { return signed_of(static_cast<uint64_t>(v), kCmacFp16MantBits); };
  const uint64_t exp = (uint64_t{max_block} << 2) & 0x3fu;
  const auto pack = [&](int64_t mant) { return (exp << kCmacFp16MantBits) | (static_cast<uint64_t>(mant) & kMantMask); };
  if (!winograd) {
    int64_t sum = 0;
    for (int64_t q : quad) sum = wrap(sum + q);
    out.word[0] = pack(sum);
    return out;
  }
  // Winograd: the 16 groups of four channels are the 4x4 transformed positions; the cell applies
  // the POA's output transform (rows, then columns) to give the 2x2 outputs.
  std::array<int64_t, 8> rows{};
  for (std::size_t i = 0; i < 4; ++i) {
    rows[i] = wrap(quad[i] + quad[i + 4] + quad[i + 8]);
    rows[i + 4] = wrap(quad[i + 4] - quad[i + 8] - quad[i + 12]);
  }
  for (std::size_t i = 0; i < 2; ++i) {
    out.word[2 * i] = pack(wrap(rows[4 * i] + rows[4 * i + 1] + rows[4 * i + 2]));
    out.word[2 * i + 1] = pack(wrap(rows[4 * i + 1] - rows[4 * i + 2] - rows[4 * i + 3]));
  }
  return out;
}

}  // namespace dla::golden
