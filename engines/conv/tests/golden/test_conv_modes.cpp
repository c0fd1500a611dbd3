// Multi-batch and compressed weights (golden/conv_modes.hpp, docs/CDMA_MODES.md) against an int64
// reference written here from ../shared/reference/cdma-input-modes.md §4 / §5 and
// conv-pipeline.md §2: the test writes the five blocks' register words and the memory itself
// (its own feature addresses with the batch stride, its own weight byte order, its own
// compressor: LSB-first mask bits, a continuous packed stream, WGS = nnz x bpe per kernel group),
// then decode_conv + run_conv must give a plain per-image convolution. Also: the worked examples
// 4 and 5 of the document, CSC's batch stripes (§4.3), the SDP write order (§4.4) and the
// refusals, each naming its rule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "golden/nvdla_regs.hpp"

using namespace dla::golden;

namespace {

namespace cd = regs::cdma;
namespace cs = regs::csc;
namespace cm = regs::cmac_a;
namespace ca = regs::cacc;

constexpr uint64_t kIn = 0x1000'0000, kWt = 0x2000'0000, kWmb = 0x3000'0000, kWgs = 0x3800'0000;
constexpr int kAtom = 32, kAtomicC = 64;  // nv_full: 32-byte memory atom, 64-channel blocks

struct Mem {
  std::unordered_map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const {
    const auto it = bytes.find(a);
    return it == bytes.end() ? 0 : it->second;
  }
  void put(uint64_t a, int64_t v, int bpe) {
    for (int i = 0; i < bpe; ++i) bytes[a + static_cast<uint64_t>(i)] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
  }
};

// A layer as the test sees it: N images C x H x W, K kernels C x R x S, pads, stride, clip.
struct Layer {
  int n = 1, w = 1, h = 1, c = 1, k = 1, r = 1, s = 1, pad = 0, stride = 1, clip = 0;
  bool int16 = false;
  uint64_t gap = 0;  // extra bytes between batch cubes (garbage)
  std::vector<int64_t> x;   // [n][c][h][w]
  std::vector<int64_t> wt;  // [k][c][r][s]
  int bpe() const { return int16 ? 2 : 1; }
  int kk() const { return int16 ? 16 : 32; }  // ATOMIC_K on nv_full
  int ow() const { return (w + 2 * pad - s) / stride + 1; }
  int oh() const { return (h + 2 * pad - r) / stride + 1; }
  uint64_t line() const { return static_cast<uint64_t>(w) * kAtom; }
  uint64_t surf() const { return line() * static_cast<uint64_t>(h); }
  int surfaces() const { return (c * bpe() + kAtom - 1) / kAtom; }
  uint64_t batch_stride() const { return surf() * static_cast<uint64_t>(surfaces()) + gap; }
  int64_t in(int b, int ch, int y, int xx) const { return x[static_cast<std::size_t>(((b * c + ch) * h + y) * w + xx)]; }
  int64_t weight(int kn, int ch, int rr, int ss) const {
    return wt[static_cast<std::size_t>(((kn * c + ch) * r + rr) * s + ss)];
  }
};

int64_t rhaz_clip(int64_t v, int sh) {
  int64_t q = v;
  if (sh > 0) {
    const int64_t mag = v < 0 ? -v : v;
    q = (mag + (int64_t{1} << (sh - 1))) >> sh;
    if (v < 0) q = -q;
  }
  return q > INT32_MAX ? INT32_MAX : (q < INT32_MIN ? INT32_MIN : q);
}

// Per image: out[b][k][y][x] = clip(sum weight * input-or-0).
int64_t reference(const Layer& L, int b, int kn, int oy, int ox) {
  int64_t acc = 0;
  for (int ch = 0; ch < L.c; ++ch)
    for (int rr = 0; rr < L.r; ++rr)
      for (int ss = 0; ss < L.s; ++ss) {
        const int y = oy * L.stride + rr - L.pad, xx = ox * L.stride + ss - L.pad;
        if (y >= 0 && y < L.h && xx >= 0 && xx < L.w) acc += L.in(b, ch, y, xx) * L.weight(kn, ch, rr, ss);
      }
  return rhaz_clip(acc, L.clip);
}

// conv-pipeline.md §2.2: kernel group -> channel block -> r -> s -> kernel -> channels, dense.
std::vector<uint8_t> weight_stream(const Layer& L) {
  std::vector<uint8_t> out;
  for (int g = 0; g * L.kk() < L.k; ++g)
    for (int b = 0; b * kAtomicC < L.c; ++b)
      for (int rr = 0; rr < L.r; ++rr)
        for (int ss = 0; ss < L.s; ++ss)
          for (int kn = g * L.kk(); kn < std::min(L.k, (g + 1) * L.kk()); ++kn)
            for (int ch = b * kAtomicC; ch < std::min(L.c, (b + 1) * kAtomicC); ++ch)
              for (int i = 0; i < L.bpe(); ++i)
                out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(L.weight(kn, ch, rr, ss)) >> (8 * i)));
  return out;
}

// §5.2, written here: mask bit n (LSB first) = element n != 0; the non-zero elements packed;
// WGS[g] = bytes of group g's non-zero elements.
struct Packed {
  std::vector<uint8_t> data, wmb;
  std::vector<uint32_t> wgs;
};
Packed pack(const std::vector<uint8_t>& stream, int bpe, uint64_t per_group) {
  Packed p;
  const uint64_t elements = stream.size() / static_cast<uint64_t>(bpe);
  p.wmb.assign((elements + 7) / 8, 0);
  for (uint64_t e = 0; e < elements; ++e) {
    if (e % per_group == 0) p.wgs.push_back(0);
    bool nz = false;
    for (int i = 0; i < bpe; ++i) nz = nz || stream[e * static_cast<uint64_t>(bpe) + static_cast<uint64_t>(i)] != 0;
    if (!nz) continue;
    p.wmb[e / 8] = static_cast<uint8_t>(p.wmb[e / 8] | (1u << (e % 8)));
    for (int i = 0; i < bpe; ++i) p.data.push_back(stream[e * static_cast<uint64_t>(bpe) + static_cast<uint64_t>(i)]);
    p.wgs.back() += static_cast<uint32_t>(bpe);
  }
  return p;
}
uint64_t up128(uint64_t v) { return (v + 127) / 128 * 128; }

struct Words {
  std::map<uint32_t, uint32_t> cdma, csc, cmac, cacc;
};
template <class F>
void put(std::map<uint32_t, uint32_t>& m, uint32_t off, F f, int64_t v) {
  m[off] |= regs::place(static_cast<uint32_t>(v), f);
}

struct Setup {
  Words w;
  Mem mem;
  Packed packed;
};

// Registers (docs/CONV.md §2 for one image, §4.1 batch, §5.1 compression) and memory.
Setup build(const Layer& L, bool compressed, std::mt19937& rng) {
  Setup st;
  Words& w = st.w;
  std::uniform_int_distribution<int> byte(0, 255);
  const int prec = L.int16 ? 1 : 0;
  const int ow = L.ow(), oh = L.oh();
  // EPS on nv_full (128-byte entries): channel bytes per position in 32-byte atoms, 4 per entry;
  // a short remainder packs 2 (<= 2 atoms) or 4 (1 atom) positions per entry (conv-pipeline.md §3).
  const int atoms = (L.c * L.bpe() + kAtom - 1) / kAtom;
  const int rem = atoms % 4;
  const int eps = (atoms / 4) * L.w + (rem == 0 ? 0 : rem > 2 ? L.w : rem == 2 ? (L.w + 1) / 2 : (L.w + 3) / 4);
  const int data_banks = (eps * L.h * L.n + 255) / 256;
  const uint64_t stream_bytes = static_cast<uint64_t>(L.k * L.c * L.r * L.s * L.bpe());
  const int weight_banks = compressed ? 15 - data_banks : 16 - data_banks;

  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}, L.w - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}, L.h - 1);
  put(w.cdma, cd::D_DATAIN_SIZE_1::offset, cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}, L.c - 1);
  put(w.cdma, cd::D_DAIN_ADDR_LOW_0::offset, cd::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{}, static_cast<int64_t>(kIn));
  put(w.cdma, cd::D_LINE_STRIDE::offset, cd::D_LINE_STRIDE::LINE_STRIDE{}, static_cast<int64_t>(L.line()));
  put(w.cdma, cd::D_SURF_STRIDE::offset, cd::D_SURF_STRIDE::SURF_STRIDE{}, static_cast<int64_t>(L.surf()));
  put(w.cdma, cd::D_ENTRY_PER_SLICE::offset, cd::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_0::offset, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}, L.c * L.r * L.s * L.bpe() - 1);
  put(w.cdma, cd::D_WEIGHT_SIZE_1::offset, cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}, L.k - 1);
  put(w.cdma, cd::D_WEIGHT_ADDR_LOW::offset, cd::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{}, static_cast<int64_t>(kWt));
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_X_STRIDE{}, L.stride - 1);
  put(w.cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_Y_STRIDE{}, L.stride - 1);
  for (auto f : {cd::D_ZERO_PADDING::PAD_LEFT::lsb, cd::D_ZERO_PADDING::PAD_TOP::lsb})
    w.cdma[cd::D_ZERO_PADDING::offset] |= static_cast<uint32_t>(L.pad) << f;
  w.cdma[cd::D_ZERO_PADDING::offset] |= static_cast<uint32_t>(L.pad) << cd::D_ZERO_PADDING::PAD_RIGHT::lsb;
  w.cdma[cd::D_ZERO_PADDING::offset] |= static_cast<uint32_t>(L.pad) << cd::D_ZERO_PADDING::PAD_BOTTOM::lsb;
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::DATA_BANK{}, data_banks - 1);
  put(w.cdma, cd::D_BANK::offset, cd::D_BANK::WEIGHT_BANK{}, weight_banks - 1);
  put(w.cdma, cd::D_BATCH_NUMBER::offset, cd::D_BATCH_NUMBER::BATCHES{}, L.n - 1);
  put(w.cdma, cd::D_BATCH_STRIDE::offset, cd::D_BATCH_STRIDE::BATCH_STRIDE{}, static_cast<int64_t>(L.batch_stride()));

  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::IN_PRECISION{}, prec);
  put(w.csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, L.w - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, L.h - 1);
  put(w.csc, cs::D_DATAIN_SIZE_EXT_1::offset, cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}, L.c - 1);
  put(w.csc, cs::D_ENTRY_PER_SLICE::offset, cs::D_ENTRY_PER_SLICE::ENTRIES{}, eps - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}, L.s - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}, L.r - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}, L.c - 1);
  put(w.csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}, L.k - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, ow - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, oh - 1);
  put(w.csc, cs::D_DATAOUT_SIZE_1::offset, cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, L.k - 1);
  put(w.csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, ow * oh - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}, L.stride - 1);
  put(w.csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}, L.stride - 1);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_LEFT{}, L.pad);
  put(w.csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_TOP{}, L.pad);
  w.csc[cs::D_BANK::offset] = w.cdma[cd::D_BANK::offset];
  put(w.csc, cs::D_BATCH_NUMBER::offset, cs::D_BATCH_NUMBER::BATCHES{}, L.n - 1);

  put(w.cmac, cm::D_MISC_CFG::offset, cm::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, ow - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, oh - 1);
  put(w.cacc, ca::D_DATAOUT_SIZE_1::offset, ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, L.k - 1);
  put(w.cacc, ca::D_CLIP_CFG::offset, ca::D_CLIP_CFG::CLIP_TRUNCATE{}, L.clip);
  put(w.cacc, ca::D_BATCH_NUMBER::offset, ca::D_BATCH_NUMBER::BATCHES{}, L.n - 1);

  // Input: every batch's region garbage first (padded lanes, the gap), then the elements at
  // base + b * BATCH_STRIDE + (c / ca) * SURF + y * LINE + x * 32 + (c mod ca) * bpe.
  const int ca = kAtom / L.bpe();
  for (uint64_t a = 0; a < L.batch_stride() * static_cast<uint64_t>(L.n); ++a)
    st.mem.bytes[kIn + a] = static_cast<uint8_t>(byte(rng));
  for (int b = 0; b < L.n; ++b)
    for (int ch = 0; ch < L.c; ++ch)
      for (int y = 0; y < L.h; ++y)
        for (int xx = 0; xx < L.w; ++xx)
          st.mem.put(kIn + static_cast<uint64_t>(b) * L.batch_stride() + static_cast<uint64_t>(ch / ca) * L.surf() +
                         static_cast<uint64_t>(y) * L.line() + static_cast<uint64_t>(xx) * kAtom +
                         static_cast<uint64_t>((ch % ca) * L.bpe()),
                     L.in(b, ch, y, xx), L.bpe());

  const std::vector<uint8_t> stream = weight_stream(L);
  REQUIRE(stream.size() == stream_bytes);
  uint64_t weight_bytes = up128(stream_bytes);
  if (!compressed) {
    for (uint64_t a = 0; a < weight_bytes; ++a)
      st.mem.bytes[kWt + a] = a < stream.size() ? stream[a] : static_cast<uint8_t>(byte(rng));
  } else {
    const uint64_t per_group = static_cast<uint64_t>(L.kk() * L.c * L.r * L.s);
    st.packed = pack(stream, L.bpe(), per_group);
    weight_bytes = up128(st.packed.data.size());
    const uint64_t wmb_bytes = up128(st.packed.wmb.size());
    // Tails beyond the stream / the mask bits: garbage (never consumed).
    for (uint64_t a = 0; a < weight_bytes; ++a)
      st.mem.bytes[kWt + a] = a < st.packed.data.size() ? st.packed.data[a] : static_cast<uint8_t>(byte(rng));
    for (uint64_t a = 0; a < wmb_bytes; ++a)
      st.mem.bytes[kWmb + a] = a < st.packed.wmb.size() ? st.packed.wmb[a] : static_cast<uint8_t>(byte(rng));
    const uint64_t elements = stream.size() / static_cast<uint64_t>(L.bpe());
    if (elements % 8 != 0) {  // the unused high bits of the last mask byte: set
      st.mem.bytes[kWmb + elements / 8] |= static_cast<uint8_t>(0xffu << (elements % 8));
    }
    for (std::size_t g = 0; g < st.packed.wgs.size(); ++g) st.mem.put(kWgs + 4 * g, st.packed.wgs[g], 4);
    put(w.cdma, cd::D_WEIGHT_FORMAT::offset, cd::D_WEIGHT_FORMAT::WEIGHT_FORMAT{}, 1);
    put(w.csc, cs::D_WEIGHT_FORMAT::offset, cs::D_WEIGHT_FORMAT::WEIGHT_FORMAT{}, 1);
    put(w.cdma, cd::D_WMB_ADDR_LOW::offset, cd::D_WMB_ADDR_LOW::WMB_ADDR_LOW{}, static_cast<int64_t>(kWmb));
    put(w.cdma, cd::D_WGS_ADDR_LOW::offset, cd::D_WGS_ADDR_LOW::WGS_ADDR_LOW{}, static_cast<int64_t>(kWgs));
    put(w.cdma, cd::D_WMB_BYTES::offset, cd::D_WMB_BYTES::WMB_BYTES{}, static_cast<int64_t>(wmb_bytes));
    put(w.csc, cs::D_WMB_BYTES::offset, cs::D_WMB_BYTES::WMB_BYTES{}, static_cast<int64_t>(wmb_bytes));
  }
  put(w.cdma, cd::D_WEIGHT_BYTES::offset, cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(weight_bytes));
  put(w.csc, cs::D_WEIGHT_BYTES::offset, cs::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(weight_bytes));
  return st;
}

ConvConfig decode(const Words& w, const HwConfig& hw = nv_full()) {
  auto reader = [](const std::map<uint32_t, uint32_t>& m) {
    return [&m](uint32_t off) {
      const auto it = m.find(off);
      return it == m.end() ? 0u : it->second;
    };
  };
  return decode_conv({reader(w.cdma), reader(w.csc), reader(w.cmac), reader(w.cmac), reader(w.cacc)}, hw);
}

std::string problems(const ConvConfig& c) {
  std::string all;
  for (const auto& e : c.unsupported()) all += e + "\n";
  return all;
}

// Random layer values: input in [-128, 127] (int16: [-3000, 3000]); weights non-zero with
// probability `density`.
Layer random_layer(Layer L, double density, std::mt19937& rng) {
  const int64_t hi = L.int16 ? 3000 : 127;
  std::uniform_int_distribution<int64_t> val(-hi - 1, hi);
  std::bernoulli_distribution keep(density);
  L.x.resize(static_cast<std::size_t>(L.n * L.c * L.h * L.w));
  for (auto& v : L.x) v = val(rng);
  L.wt.resize(static_cast<std::size_t>(L.k * L.c * L.r * L.s));
  for (auto& v : L.wt) {
    v = keep(rng) ? val(rng) : 0;
    if (v == 0 && density >= 1.0) v = 1;
  }
  return L;
}

// Runs the layer from its registers and memory and compares every output with the reference.
void check(const Layer& L, bool compressed, uint32_t seed, double density = 1.0) {
  std::mt19937 rng(seed);
  const Layer R = random_layer(L, density, rng);
  Setup st = build(R, compressed, rng);
  const ConvConfig cfg = decode(st.w);
  INFO(conv_describe(cfg) << " seed " << seed << " density " << density);
  REQUIRE(problems(cfg).empty());
  REQUIRE(cfg.input.n == L.n);
  const ConvRun run = run_conv(cfg, nv_full(), [&](uint64_t a) { return st.mem.read(a); });
  REQUIRE(run.cacc.shape().n == L.n);
  int64_t mismatches = 0, nonzero = 0;
  for (int b = 0; b < L.n; ++b)
    for (int kn = 0; kn < run.cacc.shape().c; ++kn)
      for (int y = 0; y < L.oh(); ++y)
        for (int xx = 0; xx < L.ow(); ++xx) {
          const int64_t want = kn < L.k ? reference(R, b, kn, y, xx) : 0;
          if (run.cacc.at(b, kn, y, xx) != want && ++mismatches <= 5)
            FAIL_CHECK("batch " << b << " kernel " << kn << " (" << xx << ", " << y << "): " << run.cacc.at(b, kn, y, xx)
                                << " != " << want);
          nonzero += want != 0 ? 1 : 0;
        }
  CHECK(mismatches == 0);
  CHECK(nonzero > 0);
  // One atomic operation per (kernel group, position, batch, channel block, r, s).
  const int64_t groups = (L.k + L.kk() - 1) / L.kk(), blocks = (L.c + kAtomicC - 1) / kAtomicC;
  CHECK(run.stats.atomic_ops == static_cast<uint64_t>(groups * L.ow() * L.oh() * L.n * blocks * L.r * L.s));
}

Layer fc(int n, int c, int k, bool int16 = false) {
  Layer L;
  L.n = n;
  L.c = c;
  L.k = k;
  L.int16 = int16;
  return L;
}
Layer conv3x3(int n, int w, int h, int c, int k, bool int16 = false) {
  Layer L = fc(n, c, k, int16);
  L.w = w;
  L.h = h;
  L.r = L.s = 3;
  L.pad = 1;
  return L;
}

}  // namespace

TEST_CASE("batched FC and 3x3 convolutions equal a per-image int64 reference (batches 1 to 32)", "[conv][batch]") {
  uint32_t seed = 100;
  for (const int n : {1, 2, 3, 4, 7, 8, 15, 16, 31, 32}) {
    check(fc(n, 200, 40), false, ++seed);          // 4 channel blocks (64 + 64 + 64 + 8), 2 kernel groups
    check(conv3x3(n, 5, 4, 20, 34), false, ++seed);  // pads, 2 kernel groups
  }
  check(fc(9, 70, 20, true), false, ++seed);  // int16: 2 groups of 16, 2 blocks
  Layer s2 = conv3x3(6, 7, 5, 33, 8);
  s2.stride = 2;
  s2.clip = 3;
  s2.gap = 96;  // batch cubes 96 bytes apart beyond their extent (garbage between)
  check(s2, false, ++seed);
}

TEST_CASE("compressed weights at several densities equal the uncompressed int64 reference", "[conv][compress]") {
  uint32_t seed = 200;
  for (const double density : {0.05, 0.3, 0.5, 0.8, 1.0}) {
    check(conv3x3(1, 6, 5, 40, 40), true, ++seed, density);   // 2 groups, WGS per group
    check(fc(1, 300, 70), true, ++seed, density);             // 3 groups, 5 blocks
    check(conv3x3(1, 4, 4, 24, 20, true), true, ++seed, density);  // int16: 2 groups of 16
  }
  check(fc(8, 100, 33), true, ++seed, 0.4);  // batches with compressed weights
}

TEST_CASE("worked example 5: the compressor's images and a compressed 1x1 convolution", "[conv][compress]") {
  // int8, K = 2, C = 4, R = S = 1: stream k0 = (5, 0, 0, -3), k1 = (0, 7, 0, 0).
  const std::vector<uint8_t> s8 = {0x05, 0, 0, 0xFD, 0, 0x07, 0, 0};
  const CompressedWeights z = compress_weights(s8, 1, 32 * 4);
  REQUIRE(z.wmb.size() == 128);
  CHECK(z.wmb[0] == 0x29);
  CHECK(std::all_of(z.wmb.begin() + 1, z.wmb.end(), [](uint8_t v) { return v == 0; }));
  REQUIRE(z.data.size() == 128);
  CHECK(std::vector<uint8_t>(z.data.begin(), z.data.begin() + 4) == std::vector<uint8_t>{0x05, 0xFD, 0x07, 0});
  CHECK(z.wgs == std::vector<uint32_t>{3});
  CHECK(z.wgs_bytes() == std::vector<uint8_t>{3, 0, 0, 0});
  // int16 stream (0x0100, 0, 0xFFFF, 0): mask 0x05, data 00 01 FF FF, WGS 4.
  const CompressedWeights z16 = compress_weights({0x00, 0x01, 0, 0, 0xFF, 0xFF, 0, 0}, 2, 16 * 4);
  CHECK(z16.wmb[0] == 0x05);
  CHECK(std::vector<uint8_t>(z16.data.begin(), z16.data.begin() + 5) == std::vector<uint8_t>{0x00, 0x01, 0xFF, 0xFF, 0});
  CHECK(z16.wgs == std::vector<uint32_t>{4});
  // K = 40: group 1 starts at the next bit and right after group 0's data.
  std::vector<uint8_t> s40(40 * 4, 0);
  s40[31 * 4 + 3] = 9;   // group 0's last element
  s40[32 * 4 + 0] = 11;  // group 1's first
  const CompressedWeights z40 = compress_weights(s40, 1, 32 * 4);
  CHECK(z40.wgs == std::vector<uint32_t>{1, 1});
  CHECK(z40.data[0] == 9);
  CHECK(z40.data[1] == 11);
  CHECK(z40.wmb[127 / 8] == 0x80);  // bit 127
  CHECK(z40.wmb[128 / 8] == 0x01);  // bit 128

  // The example's layer on one pixel (1, 2, 3, 4): k0 = 5 - 12 = -7, k1 = 14.
  Layer L = fc(1, 4, 2);
  L.x = {1, 2, 3, 4};
  L.wt = {5, 0, 0, -3, 0, 7, 0, 0};
  std::mt19937 rng(5);
  Setup st = build(L, true, rng);
  CHECK(st.packed.wmb == std::vector<uint8_t>{0x29});
  const ConvConfig cfg = decode(st.w);
  REQUIRE(problems(cfg).empty());
  const ConvRun run = run_conv(cfg, nv_full(), [&](uint64_t a) { return st.mem.read(a); });
  CHECK(run.cacc.at(0, 0, 0, 0) == -7);
  CHECK(run.cacc.at(0, 1, 0, 0) == 14);
  const DecompressedWeights d = decompress_weights(cfg, nv_full(), [&](uint64_t a) { return st.mem.read(a); });
  CHECK(d.bytes == s8);
  CHECK(d.group_nonzero == std::vector<uint64_t>{3});
}

TEST_CASE("batch stripes (4.3) and the CACC to SDP write order of worked example 4 (4.4)", "[conv][batch]") {
  CHECK(batch_stripe_normal(1) == 16);
  CHECK(batch_stripe_normal(3) == 8);
  CHECK(batch_stripe_normal(4) == 4);
  CHECK(batch_stripe_normal(15) == 2);
  CHECK(batch_stripe_normal(16) == 1);
  CHECK(batch_stripes(6, 2) == std::vector<int>{6});               // example 4: one stripe
  CHECK(batch_stripes(40, 2) == std::vector<int>{8, 8, 8, 16});    // last grows to 2 x 8
  CHECK(batch_stripes(9, 4) == std::vector<int>{4, 5});
  CHECK(batch_stripes(3, 20) == std::vector<int>{1, 1, 1});
  // Example 4: N = 2, W' = 3, H' = 2, K = 32 int8, DST 0x10000, LINE 0x80, SURF 0x100, BATCH 0x1000.
  FeatureLayout out;
  out.base = 0x10000;
  out.line_stride = 0x80;
  out.surface_stride = 0x100;
  out.batch_stride = 0x1000;
  out.atom_bytes = 32;
  out.bpe = 1;
  auto writes = [&](uint64_t base) {
    out.base = base;
    std::vector<std::pair<uint64_t, int>> v;
    for (const BatchWrite& w : batch_write_order(out, CubeShape{2, 32, 2, 3})) v.emplace_back(w.addr, w.bytes);
    return v;
  };
  CHECK(writes(0x10000) == std::vector<std::pair<uint64_t, int>>{{0x10000, 64}, {0x11000, 64}, {0x10040, 32},
                                                                  {0x11040, 32}, {0x10080, 64}, {0x11080, 64},
                                                                  {0x100C0, 32}, {0x110C0, 32}});
  const auto shifted = writes(0x10020);
  REQUIRE(shifted.size() >= 4);
  CHECK(std::vector<std::pair<uint64_t, int>>(shifted.begin(), shifted.begin() + 4) ==
        std::vector<std::pair<uint64_t, int>>{{0x10020, 32}, {0x11020, 32}, {0x10040, 64}, {0x11040, 64}});
  // 1x1 outputs never pair; one batch: single atoms in raster order.
  CHECK(batch_write_order(out, CubeShape{4, 64, 1, 1}).size() == 8);
  CHECK(batch_write_order(out, CubeShape{1, 32, 2, 3}).size() == 6);
}

TEST_CASE("batched output: CACC's and SDP's 64-byte pair decisions must agree", "[conv][batch]") {
  // Hand-worked from NVIDIA's C model: CACC pairs a line's first two positions when D_DATAOUT_ADDR
  // + D_LINE_STRIDE x g is 64-byte aligned, g = surface x H' + line; SDP when its own address is.
  // int16, 32-byte atoms (16 channels): K = 34 is 3 surfaces.
  const auto out = [](uint64_t base, uint64_t line, uint64_t surf) {
    return FeatureLayout::strided(base, line, surf, 32, 2, 0x10000);
  };
  const CubeShape b4{4, 34, 1, 8};  // N 4, W' 8, H' 1 (random conv nv_full seed 3844, layer 1186)
  // Line 288, surface 448: surface 1's line starts at +448 (SDP: 448 % 64 = 0, pairs) while CACC
  // counts g = 1 line of 288 (288 % 64 = 32, single): the model permutes surface 1.
  const std::string p = batch_pairing_problem(0x40000, 288, out(0x40000, 288, 448), b4);
  CHECK_THAT(p, Catch::Contains("at surface 1 line 0"));
  CHECK_THAT(p, Catch::Contains("D_LINE_STRIDE 288 x 1"));
  CHECK_THAT(p, Catch::Contains("D_LINE_STRIDE 288 x 1 (lines of all surfaces before it) is not 64-byte aligned"));
  CHECK_THAT(p, Catch::Contains("SDP's address 262592"));  // 0x40000 + 448: aligned
  CHECK_THAT(p, Catch::Contains("§4.4"));
  // Surface stride 352 = 288 + 64: every surface starts where CACC's count puts it, modulo 64.
  CHECK(batch_pairing_problem(0x40000, 288, out(0x40000, 288, 352), b4).empty());
  // Packed (surface = H' x line) agrees whatever the line stride: 160 (W' 5) pairs every other line.
  const CubeShape odd{2, 40, 3, 5};
  CHECK(batch_pairing_problem(0x40000, 160, out(0x40000, 160, 480), odd).empty());
  // ... and a surface 32 bytes longer breaks it at surface 1 (line 0 at 480 + 32 = 512, g = 3: 480).
  CHECK_THAT(batch_pairing_problem(0x40000, 160, out(0x40000, 160, 512), odd),
             Catch::Contains("at surface 1 line 0"));
  // CACC's own copy 32 bytes off SDP's: line 0 already differs.
  CHECK_THAT(batch_pairing_problem(0x40020, 256, out(0x40000, 256, 256), CubeShape{2, 16, 1, 8}),
             Catch::Contains("at surface 0 line 0"));
  // CACC's line stride differing only by a multiple of 64 decides alike.
  CHECK(batch_pairing_problem(0x40000, 256 + 64, out(0x40000, 256, 512), CubeShape{2, 16, 2, 8}).empty());
  // No pairs, nothing to agree on: one batch, or a width of 1 (each position its line's last).
  CHECK(batch_pairing_problem(0x40020, 288, out(0x40000, 288, 448), CubeShape{1, 34, 1, 8}).empty());
  CHECK(batch_pairing_problem(0x40020, 288, out(0x40000, 288, 448), CubeShape{4, 34, 3, 1}).empty());
  // A large cube (70 surfaces of 200 lines): the residues repeat, the first differing line is found.
  CHECK_THAT(batch_pairing_problem(0, 96, out(0, 96, 96 * 200 + 32), CubeShape{2, 16 * 70, 200, 3}),
             Catch::Contains("at surface 1 line 0"));
}

TEST_CASE("batches and compressed weights: the refusals name their rule", "[conv][batch][compress]") {
  std::mt19937 rng(7);
  const Layer L = random_layer(fc(4, 64, 40), 0.5, rng);
  auto decoded = [&](bool compressed, auto mutate) {
    std::mt19937 r2(9);
    Setup st = build(L, compressed, r2);
    mutate(st.w);
    return problems(decode(st.w));
  };
  auto run_error = [&](bool compressed, auto mutate_mem, const HwConfig& hw = nv_full()) {
    std::mt19937 r2(9);
    Setup st = build(L, compressed, r2);
    mutate_mem(st);
    try {
      (void)run_conv(decode(st.w, hw), hw, [&](uint64_t a) { return st.mem.read(a); });
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("ran");
  };
  CHECK(decoded(true, [](Words&) {}).empty());
  CHECK(run_error(true, [](Setup&) {}) == "ran");
  CHECK_THAT(decoded(false, [](Words& w) { w.cacc[ca::D_BATCH_NUMBER::offset] = 1; }),
             Catch::Contains("D_BATCH_NUMBER differs in CDMA / CSC / CACC (3, 3, 1)"));
  CHECK_THAT(decoded(false, [](Words& w) { w.cdma[cd::D_BATCH_STRIDE::offset] = 32; }),
             Catch::Contains("D_BATCH_STRIDE 32 is smaller than D_SURF_STRIDE x surfaces = 64"));
  CHECK_THAT(decoded(false, [](Words& w) { w.cdma[cd::D_BATCH_STRIDE::offset] = 80; }),
             Catch::Contains("multiple of the 32-byte atom"));
  CHECK_THAT(decoded(false, [](Words& w) { w.cdma[cd::D_BANK::offset] = 0; }),  // 1 data bank for 4 x 1 entries: fits
             !Catch::Contains("DATA_BANK"));
  CHECK_THAT(decoded(true, [](Words& w) { w.csc[cs::D_WEIGHT_FORMAT::offset] = 0; }),
             Catch::Contains("D_WEIGHT_FORMAT differs in CDMA (1) and CSC (0)"));
  CHECK_THAT(decoded(true, [](Words& w) { w.csc[cs::D_WMB_BYTES::offset] = 256; }),
             Catch::Contains("D_WMB_BYTES differs in CDMA (384) and CSC (256)"));
  CHECK_THAT(decoded(true, [](Words& w) { w.cdma[cd::D_BANK::offset] = w.csc[cs::D_BANK::offset] = 0xf0000; }),
             Catch::Contains("the last bank is reserved for the weight mask bits"));
  CHECK_THAT(decoded(false, [](Words& w) { w.csc[cs::D_POST_Y_EXTENSION::offset] = 1; }),
             Catch::Contains("post-extension exists only with image input"));
  // Rules on the memory images (checked when the layer runs).
  CHECK_THAT(run_error(true, [](Setup& s) { s.mem.put(kWgs, s.packed.wgs[0] + 1, 4); }),
             Catch::Contains("WGS[0]") && Catch::Contains("WGS[g] = nnz x bpe"));
  CHECK_THAT(run_error(true,
                       [](Setup& s) {
                         s.w.cdma[cd::D_WEIGHT_BYTES::offset] += 128;
                         s.w.csc[cs::D_WEIGHT_BYTES::offset] += 128;
                       }),
             Catch::Contains("needs exactly roundup(nnz x bpe, 128)"));
  CHECK_THAT(run_error(true,
                       [](Setup& s) {
                         s.w.cdma[cd::D_WMB_BYTES::offset] = s.w.csc[cs::D_WMB_BYTES::offset] = 256;
                       }),
             Catch::Contains("D_WMB_BYTES is 256") && Catch::Contains("roundup(ceil(elements / 8), 128) = 384"));
  CHECK_THAT(run_error(true, [](Setup& s) { s.mem.bytes[kWmb + 100] = 0xff; }),  // bits of elements 800..807 set
             Catch::Contains("WGS[") || Catch::Contains("more than D_WEIGHT_BYTES"));
  CHECK_THAT(run_error(false, [](Setup&) {}, nv_small()), Catch::Contains("exists on nv_full only"));
  CHECK_THAT(run_error(true,
                       [](Setup& s) {
                         s.w.cdma[cd::D_BATCH_NUMBER::offset] = s.w.csc[cs::D_BATCH_NUMBER::offset] =
                             s.w.cacc[ca::D_BATCH_NUMBER::offset] = 0;
                       },
                       nv_small()),
             Catch::Contains("compressed weights (D_WEIGHT_FORMAT COMPRESSED) exist on nv_full only"));
  // Modes the typed config forbids with batches / compression.
  ConvParams p;
  p.w = p.h = 4;
  p.c = 8;
  p.k = 8;
  p.r = p.s = 3;
  p.batch = 2;
  ConvConfig c = conv_config_from(p, nv_full(), 0x1000, 0x8000);
  CHECK(problems(c).empty());
  c.mode = ConvMode::Winograd;
  CHECK_THAT(problems(c), Catch::Contains("Winograd with batches is not allowed"));
  c.mode = ConvMode::Direct;
  c.image.enabled = true;
  CHECK_THAT(problems(c), Catch::Contains("image input allows no batches"));
  c.image.enabled = false;
  c.compression.enabled = true;
  c.compression.wmb_base = 0x10010;
  CHECK_THAT(problems(c), Catch::Contains("D_WMB_ADDR and D_WGS_ADDR must be multiples of the 32-byte atom"));
  // One group's mask bits beyond bank 15: 32 kernels x 9000 elements = 36000 bytes = 282 entries.
  p.batch = 1;
  p.c = 1000;
  p.k = 32;
  ConvConfig big = conv_config_from(p, nv_full(), 0x1000, 0x8000);
  big.compression.enabled = true;
  CHECK_THAT(problems(big), Catch::Contains("one kernel group's mask bits need 282 CBUF entries"));
}
