// Winograd F(2x2,3x3): PRA, MAC, POA and the weight pre-transforms (golden/wino.hpp).
#include "engines/wino/golden/wino.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "golden/arith.hpp"

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

WinoTile wino_weights_nvdla(const WinoKernel& g, Precision p) {
  const int bits = bits_per_element(p);
  for (const int64_t v : g) require(!saturates(v, bits), "weight beyond the precision's range");
  // The compiler's arithmetic: FP32 matrices, U = (G g) G^T. Every intermediate is a multiple
  // of 1/4 below 2^18 in magnitude, so FP32 holds it exactly and the order of the sums does not
  // matter.
  static constexpr float kG[4][3] = {{1.0F, 0.0F, 0.0F}, {0.5F, 0.5F, 0.5F}, {0.5F, -0.5F, 0.5F}, {0.0F, 0.0F, 1.0F}};
  float gg[4][3] = {};  // G g
  for (int i = 0; i < 4; ++i) {
    for (int s = 0; s < 3; ++s) {
      float acc = 0.0F;
      for (int r = 0; r < 3; ++r) acc += kG[i][r] * static_cast<float>(g[static_cast<std::size_t>(r * 3 + s)]);
      gg[i][s] = acc;
    }
  }
  WinoTile u{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0F;
      for (int s = 0; s < 3; ++s) acc += gg[i][s] * kG[j][s];
      // The cast to the integer weight type: truncation toward zero, then the type's range.
      u[static_cast<std::size_t>(i * 4 + j)] = sat(static_cast<Wide>(std::trunc(acc)), bits);
    }
  }
  return u;
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
