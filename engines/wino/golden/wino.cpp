// Winograd F(2x2,3x3): PRA, MAC, POA and the weight pre-transforms (golden/wino.hpp).
#include "engines/wino/golden/wino.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "golden/arith.hpp"
#include "golden/fp.hpp"

namespace dla::golden {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("wino: " + what);
}

}  // namespace

WinoTile wino_pra_exact(const WinoTile& d) {
  for (const int64_t v : d) require(!saturates(v, kWinoPraInBits), "PRA input beyond 16 bits");
  // T = B^T d: B^T rows (1,0,-1,0), (0,1,1,0), (0,-1,1,0), (0,1,0,-1) applied to each column.
  std::array<int64_t, 16> t{};
  for (int c = 0; c < 4; ++c) {
    t[0 * 4 + c] = d[0 * 4 + c] - d[2 * 4 + c];
    t[1 * 4 + c] = d[1 * 4 + c] + d[2 * 4 + c];
    t[2 * 4 + c] = d[2 * 4 + c] - d[1 * 4 + c];
    t[3 * 4 + c] = d[1 * 4 + c] - d[3 * 4 + c];
  }
  // V = T B: the same combinations along each row.
  WinoTile v{};
  for (int r = 0; r < 4; ++r) {
    const int64_t* tr = &t[static_cast<std::size_t>(r * 4)];
    v[r * 4 + 0] = tr[0] - tr[2];
    v[r * 4 + 1] = tr[1] + tr[2];
    v[r * 4 + 2] = tr[2] - tr[1];
    v[r * 4 + 3] = tr[1] - tr[3];
  }
  return v;
}

WinoTile wino_pra(const WinoTile& d, Precision p, int truncate) {
  require(truncate >= 0 && truncate <= kWinoMaxPraTruncate, "PRA_TRUNCATE " + std::to_string(truncate) +
                                                               " is outside 0.." +
                                                               std::to_string(kWinoMaxPraTruncate));
  const int bits = bits_per_element(p);
  for (const int64_t v : d) require(!saturates(v, bits), "PRA input beyond the precision's range");
  WinoTile out = wino_pra_exact(d);
  // shift_right_sat: rhaz by truncate, then sat_bits (the 18-bit value, truncate < 18).
  for (auto& v : out) v = shift_right_sat(v, kWinoPraPass2Bits, truncate, bits);
  return out;
}

WinoOut wino_poa(const WinoTile& m) {
  for (const int64_t v : m) require(!saturates(v, 59), "POA input beyond 59 bits");
  // T = A^T M: A^T rows (1,1,1,0), (0,1,-1,-1) applied to each column.
  std::array<int64_t, 8> t{};
  for (int c = 0; c < 4; ++c) {
    t[0 * 4 + c] = m[0 * 4 + c] + m[1 * 4 + c] + m[2 * 4 + c];
    t[1 * 4 + c] = m[1 * 4 + c] - m[2 * 4 + c] - m[3 * 4 + c];
  }
  // Y = T A: the same combinations along each row.
  WinoOut y{};
  for (int i = 0; i < 2; ++i) {
    const int64_t* ti = &t[static_cast<std::size_t>(i * 4)];
    y[i * 2 + 0] = ti[0] + ti[1] + ti[2];
    y[i * 2 + 1] = ti[1] - ti[2] - ti[3];
  }
  return y;
}

WinoTile wino_mac(std::span<const int64_t> data, std::span<const int64_t> weights) {
  require(data.size() == weights.size() && !data.empty() && data.size() % kWinoPositions == 0,
          "an atomic operation needs equal data and weight lanes, a multiple of 16");
  const std::size_t channels = data.size() / kWinoPositions;
  WinoTile m{};
  for (std::size_t p = 0; p < kWinoPositions; ++p) {
    Wide acc = 0;
    for (std::size_t ch = 0; ch < channels; ++ch) {
      const std::size_t l = p * channels + ch;
      acc += Wide{data[l]} * Wide{weights[l]};
    }
    require(!saturates(acc, 64), "MAC result beyond 64 bits");
    m[p] = static_cast<int64_t>(acc);
  }
  return m;
}

WinoOut wino_atomic_op(std::span<const int64_t> data, std::span<const int64_t> weights) {
  return wino_poa(wino_mac(data, weights));
}

std::vector<int64_t> wino_pack_lanes(std::span<const WinoTile> tiles) {
  const std::size_t channels = tiles.size();
  std::vector<int64_t> lanes(channels * kWinoPositions);
  for (std::size_t ch = 0; ch < channels; ++ch) {
    for (std::size_t p = 0; p < kWinoPositions; ++p) lanes[p * channels + ch] = tiles[ch][p];
  }
  return lanes;
}

std::vector<WinoTile> wino_unpack_lanes(std::span<const int64_t> lanes) {
  require(!lanes.empty() && lanes.size() % kWinoPositions == 0, "lanes must be a multiple of 16");
  const std::size_t channels = lanes.size() / kWinoPositions;
  std::vector<WinoTile> tiles(channels);
  for (std::size_t ch = 0; ch < channels; ++ch) {
    for (std::size_t p = 0; p < kWinoPositions; ++p) tiles[ch][p] = lanes[p * channels + ch];
  }
  return tiles;
}

namespace {

// The compiler's arithmetic (nvdla/sw WeightTranslationUnit): FP32 matrices, U = (G g) G^T, the
// sums in this order.
std::array<float, 16> weights_fp32(const std::array<float, 9>& g) {
  static constexpr float kG[4][3] = {{1.0F, 0.0F, 0.0F}, {0.5F, 0.5F, 0.5F}, {0.5F, -0.5F, 0.5F}, {0.0F, 0.0F, 1.0F}};
  float gg[4][3] = {};  // G g
  for (int i = 0; i < 4; ++i) {
    for (int s = 0; s < 3; ++s) {
      float acc = 0.0F;
      for (int r = 0; r < 3; ++r) acc += kG[i][r] * g[static_cast<std::size_t>(r * 3 + s)];
      gg[i][s] = acc;
    }
  }
  std::array<float, 16> u{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0F;
      for (int s = 0; s < 3; ++s) acc += gg[i][s] * kG[j][s];
      u[static_cast<std::size_t>(i * 4 + j)] = acc;
    }
  }
  return u;
}

// An fp16 bit pattern's IEEE 754 value (what a compiler reads; exact in float).
float fp16_value(uint16_t h) {
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  float v = 0.0F;
  if (e == 0x1f) {
    v = m == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  } else {
    v = e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(m | 0x400), e - 25);
  }
  return (h & 0x8000u) != 0 ? -v : v;
}

}  // namespace

WinoTile wino_weights_nvdla(const WinoKernel& g, Precision p) {
  const int bits = bits_per_element(p);
  for (const int64_t v : g) require(!saturates(v, bits), "weight beyond the precision's range");
  // Every intermediate is a multiple of 1/4 below 2^18 in magnitude, so FP32 holds it exactly and
  // the order of the sums does not matter.
  std::array<float, 9> gf{};
  for (std::size_t i = 0; i < gf.size(); ++i) gf[i] = static_cast<float>(g[i]);
  const std::array<float, 16> uf = weights_fp32(gf);
  WinoTile u{};
  // The cast to the integer weight type: truncation toward zero, then the type's range.
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = sat(static_cast<Wide>(std::trunc(uf[i])), bits);
  return u;
}

WinoTile wino_weights_fp16(const WinoKernel& g, bool* overflow) {
  std::array<float, 9> gf{};
  bool finite = true;
  for (std::size_t i = 0; i < gf.size(); ++i) {
    require(g[i] >= -0x8000 && g[i] <= 0xffff, "an fp16 weight is a 16-bit pattern");
    gf[i] = fp16_value(static_cast<uint16_t>(g[i]));
    finite = finite && std::isfinite(gf[i]);
  }
  const std::array<float, 16> uf = weights_fp32(gf);
  WinoTile u{};
  bool over = false;
  for (std::size_t i = 0; i < u.size(); ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &uf[i], sizeof bits);
    u[i] = fp::convert(fp::kFp32, fp::kFp16, bits);
    // a finite U that IEEE would round to Inf: the converter saturates it to 65504
    over = over || (finite && std::fabs(uf[i]) >= 65520.0F);
  }
  if (overflow != nullptr) *overflow = over;
  return u;
}

WinoTile wino_pra_fp16(const WinoTile& d) {
  // CSC's order (NV_NVDLA_CSC_pra_cell): every datum widened to fp17; the rows of B^T, then the
  // columns of B, each one fp17 add or subtract (operand order kept: it decides NaN payloads and
  // the sign of a zero); each result narrowed to fp16.
  std::array<uint32_t, 16> x{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    require(d[i] >= -0x8000 && d[i] <= 0xffff, "PRA fp16 input is a 16-bit pattern");
    x[i] = fp::convert(fp::kFp16, fp::kFp17, static_cast<uint32_t>(d[i]) & 0xffffu);
  }
  const auto add = [](uint32_t a, uint32_t b) { return fp::add(fp::kFp17, a, b); };
  const auto sub = [](uint32_t a, uint32_t b) { return fp::sub(fp::kFp17, a, b); };
  std::array<uint32_t, 16> m{};
  for (std::size_t c = 0; c < 4; ++c) {
    m[c] = sub(x[c], x[8 + c]);
    m[4 + c] = add(x[4 + c], x[8 + c]);
    m[8 + c] = sub(x[8 + c], x[4 + c]);
    m[12 + c] = sub(x[4 + c], x[12 + c]);
  }
  WinoTile v{};
  for (std::size_t r = 0; r < 4; ++r) {
    const uint32_t* t = &m[4 * r];
    const std::array<uint32_t, 4> f = {sub(t[0], t[2]), add(t[1], t[2]), sub(t[2], t[1]), sub(t[1], t[3])};
    for (std::size_t c = 0; c < 4; ++c) v[4 * r + c] = fp::convert(fp::kFp17, fp::kFp16, f[c]);
  }
  return v;
}

WinoTile wino_weights_exact(const WinoKernel& g) {
  for (const int64_t v : g) require(!saturates(v, 32), "weight beyond 32 bits");
  // 2G rows (2,0,0), (1,1,1), (1,-1,1), (0,0,2).
  static constexpr int64_t kG2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
  int64_t gg[4][3] = {};
  for (int i = 0; i < 4; ++i) {
    for (int s = 0; s < 3; ++s) {
      for (int r = 0; r < 3; ++r) gg[i][s] += kG2[i][r] * g[static_cast<std::size_t>(r * 3 + s)];
    }
  }
  WinoTile u{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      int64_t acc = 0;
      for (int s = 0; s < 3; ++s) acc += gg[i][s] * kG2[j][s];
      u[static_cast<std::size_t>(i * 4 + j)] = acc;
    }
  }
  return u;
}

bool wino_weights_fit(const WinoTile& u, int bits) {
  for (const int64_t v : u) {
    if (saturates(v, bits)) return false;
  }
  return true;
}

}  // namespace dla::golden
