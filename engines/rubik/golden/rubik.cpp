// NVDLA RUBIK (RBK), int8 / int16 / fp16 (moved as 16-bit patterns), register level. Spec: ../shared/reference/pdp-cdp-bdma-rubik.md
// §1 and §6, the programming guide seed 000_* (RUBIK); decisions: docs/RUBIK.md.
#include "engines/rubik/golden/rubik.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "golden/nvdla_regs.hpp"

namespace dla::golden {
namespace {

namespace rb = regs::rbk;
using regs::field;

using Atom = std::array<uint8_t, kRubikAtomBytes>;

uint64_t addr64(uint32_t high, uint32_t low) { return (uint64_t{high} << 32) | low; }
int plus1(uint32_t v) { return static_cast<int>(v) + 1; }
uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
template <class T>
std::string str(T v) {
  return std::to_string(v);
}
std::string hex(uint64_t v) {
  std::array<char, 24> b{};
  std::snprintf(b.data(), b.size(), "%#llx", static_cast<unsigned long long>(v));
  return b.data();
}

const char* precision_name(RubikPrecision p) {
  switch (p) {
    case RubikPrecision::Int8: return "int8";
    case RubikPrecision::Int16: return "int16";
    case RubikPrecision::Fp16: return "fp16";
    default: return "reserved";
  }
}

// The bytes of one plane line as the hardware writes or reads them: whole 32-byte atoms.
uint64_t plane_line_bytes(const RubikConfig& c) {
  return round_up(uint64_t(c.width) * uint64_t(c.bpe()), kRubikAtomBytes);
}

// Byte address of element w of line h of plane `plane` (SPLIT's output, MERGE's input).
uint64_t plane_address(uint64_t base, uint64_t planar_stride, uint64_t line_stride, int bpe, int plane, int h, int w) {
  return base + uint64_t(plane) * planar_stride + uint64_t(h) * line_stride + uint64_t(w) * uint64_t(bpe);
}

// Collects the layer's atom reads and writes; the writes reach memory only once the whole layer
// is known to be free of overlaps.
class AtomMover {
 public:
  explicit AtomMover(const ByteReader& read) : read_(read) {}
  Atom read(uint64_t addr) {
    read_atoms_.insert(addr);
    Atom a{};
    for (int i = 0; i < kRubikAtomBytes; ++i) a[static_cast<std::size_t>(i)] = read_(addr + static_cast<uint64_t>(i));
    return a;
  }
  void write(uint64_t addr, const Atom& a) {
    if (!written_.insert(addr).second) {
      throw std::invalid_argument("two output atoms land on address " + hex(addr) +
                                  ": the output strides make the output overlap itself");
    }
    writes_.emplace_back(addr, a);
  }
  RubikRun commit(const ByteWriter& write) const {
    for (const auto& [addr, a] : writes_) {
      if (read_atoms_.count(addr) != 0) {
        throw std::invalid_argument("the output atom at " + hex(addr) +
                                    " is also read as input: the output region overlaps the input, and the result "
                                    "would depend on the engine's order");
      }
    }
    for (const auto& [addr, a] : writes_) {
      for (int i = 0; i < kRubikAtomBytes; ++i) write(addr + static_cast<uint64_t>(i), a[static_cast<std::size_t>(i)]);
    }
    return {reads_, writes_.size()};
  }
  void count_read() { ++reads_; }

 private:
  const ByteReader& read_;
  std::unordered_set<uint64_t> read_atoms_, written_;
  std::vector<std::pair<uint64_t, Atom>> writes_;
  uint64_t reads_ = 0;
};

FeatureLayout layout_at(const RubikConfig& c, uint64_t base, uint64_t line_stride, uint64_t surf_stride) {
  FeatureLayout l;
  l.base = base;
  l.line_stride = line_stride;
  l.surface_stride = surf_stride;
  l.atom_bytes = kRubikAtomBytes;
  l.bpe = c.bpe();
  return l;
}

// CONTRACT: input atom (w, h, surface s of sub-cube j) goes to output column w*sx + sx_i of output
// line h*sy + sy_i, surface s. Engine order: surface, input line, sy_i, then w-major / sx_i-minor.
void contract(const RubikConfig& c, AtomMover& m) {
  const int ca = c.lanes_per_atom();
  for (int s = 0; s < c.surfaces(); ++s) {
    for (int h = 0; h < c.height; ++h) {
      for (int syi = 0; syi < c.sy; ++syi) {
        // The output line h*sy + syi: one line of the output surface layout.
        const FeatureLayout out = layout_at(c, c.daout_base + uint64_t(h) * c.contract_stride_1 +
                                                   uint64_t(syi) * c.daout_line_stride,
                                            c.daout_line_stride, c.daout_surf_stride);
        for (int w = 0; w < c.width; ++w) {
          for (int sxi = 0; sxi < c.sx; ++sxi) {
            const FeatureLayout in = rubik_subcube_layout(c, syi * c.sx + sxi);
            const Atom a = m.read(in.address(0, s * ca, h, w));
            m.count_read();
            m.write(out.address(0, s * ca, 0, w * c.sx + sxi), a);
          }
        }
      }
    }
  }
}

// SPLIT: the Cout channels of a feature cube become Cout planes of packed lines; each plane line is
// written as whole atoms, the bytes past W*bpe in its last atom 0.
void split(const RubikConfig& c, AtomMover& m) {
  const int ca = c.lanes_per_atom();
  const int bpe = c.bpe();
  const FeatureLayout in = rubik_subcube_layout(c, 0);
  const uint64_t line_bytes = plane_line_bytes(c);
  std::vector<std::vector<uint8_t>> lines(static_cast<std::size_t>(c.out_channels), std::vector<uint8_t>(line_bytes));
  for (int h = 0; h < c.height; ++h) {
    for (auto& l : lines) std::fill(l.begin(), l.end(), uint8_t{0});
    for (int s = 0; s < c.surfaces(); ++s) {
      for (int w = 0; w < c.width; ++w) {
        const Atom a = m.read(in.address(0, s * ca, h, w));
        m.count_read();
        for (int lane = 0; lane < ca; ++lane) {
          const int ch = s * ca + lane;
          if (ch >= c.out_channels) break;
          for (int b = 0; b < bpe; ++b) {
            lines[static_cast<std::size_t>(ch)][static_cast<std::size_t>(w * bpe + b)] =
                a[static_cast<std::size_t>(lane * bpe + b)];
          }
        }
      }
    }
    for (int ch = 0; ch < c.out_channels; ++ch) {
      const uint64_t start = plane_address(c.daout_base, c.daout_planar_stride, c.daout_line_stride, bpe, ch, h, 0);
      for (uint64_t off = 0; off < line_bytes; off += kRubikAtomBytes) {
        Atom a{};
        std::copy_n(lines[static_cast<std::size_t>(ch)].begin() + static_cast<std::ptrdiff_t>(off), kRubikAtomBytes,
                    a.begin());
        m.write(start + off, a);
      }
    }
  }
}

// MERGE: C planes of packed lines (read as whole atoms) become a feature cube; the lanes past C
// in the last surface are written 0.
void merge(const RubikConfig& c, AtomMover& m) {
  const int ca = c.lanes_per_atom();
  const int bpe = c.bpe();
  const FeatureLayout out = rubik_merge_output_layout(c);
  const uint64_t line_bytes = plane_line_bytes(c);
  std::vector<std::vector<uint8_t>> lines(static_cast<std::size_t>(c.in_channels), std::vector<uint8_t>(line_bytes));
  for (int h = 0; h < c.height; ++h) {
    for (int ch = 0; ch < c.in_channels; ++ch) {
      const uint64_t start = plane_address(c.dain_base, c.dain_planar_stride, c.dain_line_stride, bpe, ch, h, 0);
      for (uint64_t off = 0; off < line_bytes; off += kRubikAtomBytes) {
        const Atom a = m.read(start + off);
        m.count_read();
        std::copy(a.begin(), a.end(), lines[static_cast<std::size_t>(ch)].begin() + static_cast<std::ptrdiff_t>(off));
      }
    }
    for (int s = 0; s < c.surfaces(); ++s) {
      for (int w = 0; w < c.width; ++w) {
        Atom a{};
        for (int lane = 0; lane < ca; ++lane) {
          const int ch = s * ca + lane;
          if (ch >= c.in_channels) break;
          for (int b = 0; b < bpe; ++b) {
            a[static_cast<std::size_t>(lane * bpe + b)] =
                lines[static_cast<std::size_t>(ch)][static_cast<std::size_t>(w * bpe + b)];
          }
        }
        m.write(out.address(0, s * ca, h, w), a);
      }
    }
  }
}

}  // namespace

const char* rubik_mode_name(RubikMode m) {
  switch (m) {
    case RubikMode::Contract: return "contract";
    case RubikMode::Split: return "split";
    case RubikMode::Merge: return "merge";
    default: return "reserved";
  }
}

int RubikConfig::surfaces() const {
  return static_cast<int>(round_up(uint64_t(cube_channels()) * uint64_t(bpe()), kRubikAtomBytes) / kRubikAtomBytes);
}

std::vector<std::string> RubikConfig::unsupported(const HwConfig& hw) const {
  std::vector<std::string> u;
  if (hw.atom_bytes != kRubikAtomBytes) {
    u.push_back("RUBIK moves 32-byte atoms, but " + hw.name + "'s memory atom is " + str(hw.atom_bytes) +
                " bytes (RBK exists on nv_full only, as in NVDLA)");
  }
  if (mode == RubikMode::Reserved) u.push_back("D_MISC_CFG.RUBIK_MODE 3 is reserved (0 CONTRACT, 1 SPLIT, 2 MERGE)");
  if (precision == RubikPrecision::Reserved) {
    u.push_back("D_MISC_CFG.IN_PRECISION 3 is reserved (0 INT8, 1 INT16, 2 FP16)");
  }
  if (mode == RubikMode::Contract && uint64_t(width) * uint64_t(sx) > 8192) {
    u.push_back("CONTRACT output width DATAIN_WIDTH+1 (" + str(width) + ") x DECONV_X_STRIDE+1 (" + str(sx) +
                ") = " + str(uint64_t(width) * uint64_t(sx)) + " exceeds 8192 (the programming guide's limit)");
  }
  if ((mode == RubikMode::Split || mode == RubikMode::Merge) && in_channels != out_channels) {
    u.push_back(std::string(mode == RubikMode::Split ? "SPLIT" : "MERGE") + ": DATAIN_CHANNEL+1 (" + str(in_channels) +
                ") and DATAOUT_CHANNEL+1 (" + str(out_channels) +
                ") differ; both count the planes, and which one the engine follows is not specified");
  }
  // Planar data (SPLIT's output, MERGE's input): addresses and line strides 64-byte aligned.
  const auto planar64 = [&](const char* what, uint64_t base, uint64_t line, uint64_t planar, const char* pfx) {
    if (base % 64 != 0 || line % 64 != 0 || planar % 64 != 0) {
      const std::string p(pfx);
      u.push_back(std::string(mode == RubikMode::Split ? "SPLIT" : "MERGE") + ": the planar " + what +
                  " must be 64-byte aligned (" + p + "_ADDR " + hex(base) + ", " + p + "_LINE_STRIDE " + str(line) +
                  ", " + p + "_PLANAR_STRIDE " + str(planar) +
                  "; the programming guide asks 64-byte alignment of planar data's address and line stride)");
    }
  };
  if (mode == RubikMode::Split) planar64("output", daout_base, daout_line_stride, daout_planar_stride, "DAOUT");
  if (mode == RubikMode::Merge) planar64("input", dain_base, dain_line_stride, dain_planar_stride, "DAIN");
  return u;
}

RubikConfig decode_rubik(const RubikRegReader& r) {
  RubikConfig c;
  const uint32_t misc = r(rb::D_MISC_CFG::offset);
  c.mode = static_cast<RubikMode>(field(misc, rb::D_MISC_CFG::RUBIK_MODE{}));
  c.precision = static_cast<RubikPrecision>(field(misc, rb::D_MISC_CFG::IN_PRECISION{}));
  const uint32_t size0 = r(rb::D_DATAIN_SIZE_0::offset);
  c.width = plus1(field(size0, rb::D_DATAIN_SIZE_0::DATAIN_WIDTH{}));
  c.height = plus1(field(size0, rb::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}));
  c.in_channels = plus1(field(r(rb::D_DATAIN_SIZE_1::offset), rb::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}));
  c.out_channels = plus1(field(r(rb::D_DATAOUT_SIZE_1::offset), rb::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}));
  const uint32_t ds = r(rb::D_DECONV_STRIDE::offset);
  c.sx = plus1(field(ds, rb::D_DECONV_STRIDE::DECONV_X_STRIDE{}));
  c.sy = plus1(field(ds, rb::D_DECONV_STRIDE::DECONV_Y_STRIDE{}));
  // Address and stride fields hold bits [31:5]: the field value shifted back is the byte value.
  const auto bytes = [&](uint32_t off, regs::Field f) { return uint64_t{field(r(off), f)} << f.lsb; };
  c.dain_base = addr64(r(rb::D_DAIN_ADDR_HIGH::offset),
                       static_cast<uint32_t>(bytes(rb::D_DAIN_ADDR_LOW::offset, rb::D_DAIN_ADDR_LOW::DAIN_ADDR_LOW{})));
  c.dain_line_stride = bytes(rb::D_DAIN_LINE_STRIDE::offset, rb::D_DAIN_LINE_STRIDE::DAIN_LINE_STRIDE{});
  c.dain_surf_stride = bytes(rb::D_DAIN_SURF_STRIDE::offset, rb::D_DAIN_SURF_STRIDE::DAIN_SURF_STRIDE{});
  c.dain_planar_stride = bytes(rb::D_DAIN_PLANAR_STRIDE::offset, rb::D_DAIN_PLANAR_STRIDE::DAIN_PLANAR_STRIDE{});
  c.daout_base =
      addr64(r(rb::D_DAOUT_ADDR_HIGH::offset),
             static_cast<uint32_t>(bytes(rb::D_DAOUT_ADDR_LOW::offset, rb::D_DAOUT_ADDR_LOW::DAOUT_ADDR_LOW{})));
  c.daout_line_stride = bytes(rb::D_DAOUT_LINE_STRIDE::offset, rb::D_DAOUT_LINE_STRIDE::DAOUT_LINE_STRIDE{});
  c.daout_surf_stride = bytes(rb::D_DAOUT_SURF_STRIDE::offset, rb::D_DAOUT_SURF_STRIDE::DAOUT_SURF_STRIDE{});
  c.daout_planar_stride =
      bytes(rb::D_DAOUT_PLANAR_STRIDE::offset, rb::D_DAOUT_PLANAR_STRIDE::DAOUT_PLANAR_STRIDE{});
  c.contract_stride_0 = bytes(rb::D_CONTRACT_STRIDE_0::offset, rb::D_CONTRACT_STRIDE_0::CONTRACT_STRIDE_0{});
  c.contract_stride_1 = bytes(rb::D_CONTRACT_STRIDE_1::offset, rb::D_CONTRACT_STRIDE_1::CONTRACT_STRIDE_1{});
  c.dain_ram_mc = field(r(rb::D_DAIN_RAM_TYPE::offset), rb::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{}) != 0;
  c.daout_ram_mc = field(r(rb::D_DAOUT_RAM_TYPE::offset), rb::D_DAOUT_RAM_TYPE::DATAOUT_RAM_TYPE{}) != 0;
  c.perf_en = field(r(rb::D_PERF_ENABLE::offset), rb::D_PERF_ENABLE::PERF_EN{}) != 0;
  return c;
}

std::string rubik_describe(const RubikConfig& c) {
  switch (c.mode) {
    case RubikMode::Contract:
      return std::string("RUBIK contract ") + precision_name(c.precision) + " " + str(c.width) + "x" + str(c.height) +
             " x " + str(c.sx) + "x" + str(c.sy) + " sub-cubes of " + str(c.out_channels) + " ch -> " +
             str(uint64_t(c.width) * c.sx) + "x" + str(uint64_t(c.height) * c.sy) + "x" + str(c.out_channels);
    case RubikMode::Split:
      return std::string("RUBIK split ") + precision_name(c.precision) + " " + str(c.width) + "x" + str(c.height) +
             "x" + str(c.out_channels) + " -> " + str(c.out_channels) + " planes";
    case RubikMode::Merge:
      return std::string("RUBIK merge ") + precision_name(c.precision) + " " + str(c.in_channels) + " planes -> " +
             str(c.width) + "x" + str(c.height) + "x" + str(c.in_channels);
    default: return "RUBIK reserved mode";
  }
}

FeatureLayout rubik_subcube_layout(const RubikConfig& c, int j) {
  return layout_at(c, c.dain_base + uint64_t(j) * c.contract_stride_0, c.dain_line_stride, c.dain_surf_stride);
}

FeatureLayout rubik_merge_output_layout(const RubikConfig& c) {
  return layout_at(c, c.daout_base, c.daout_line_stride, c.daout_surf_stride);
}

RubikRun run_rubik(const RubikConfig& cfg, const HwConfig& hw, const ByteReader& read, const ByteWriter& write) {
  if (const auto u = cfg.unsupported(hw); !u.empty()) throw std::invalid_argument(u.front());
  AtomMover m(read);
  switch (cfg.mode) {
    case RubikMode::Contract: contract(cfg, m); break;
    case RubikMode::Split: split(cfg, m); break;
    default: merge(cfg, m); break;
  }
  return m.commit(write);
}

}  // namespace dla::golden
