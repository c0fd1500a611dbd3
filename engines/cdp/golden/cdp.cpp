// NVDLA CDP + CDP_RDMA, integer data, register level. Spec: ../shared/reference/pdp-cdp-bdma-rubik.md
// §3, nvdla-arithmetic.md §1.5 and §5; decisions: docs/CDP.md.
#include "engines/cdp/golden/cdp.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_regs.hpp"

namespace dla::golden {
namespace {

namespace rc = regs::cdp;
namespace rr = regs::cdp_rdma;
using regs::field;

uint64_t addr64(uint32_t high, uint32_t low) { return (uint64_t{high} << 32) | low; }
int plus1(uint32_t v) { return static_cast<int>(v) + 1; }
std::string str(int64_t v) { return std::to_string(v); }

const char* precision_label(CdpPrecision p) {
  switch (p) {
    case CdpPrecision::Int8: return "int8";
    case CdpPrecision::Int16: return "int16";
    case CdpPrecision::Fp16: return "fp16";
    default: return "reserved";
  }
}

bool is_int8(const CdpConfig& c) { return c.precision == CdpPrecision::Int8; }

// Datapath widths (nvdla-arithmetic.md §5): converted input x, the converter products, the LUT
// output times x, the output converter product.
struct Widths {
  int x;        // converted input: 9 / 17
  int in_prod;  // (in - offset) * scale: 25 / 33
  int out_off;  // DATOUT_OFFSET bits used: 25 / 32
  int out_prod; // (p - offset) * scale: 42 / 50
  int out;      // 8 / 16
};

Widths widths(const CdpConfig& c) { return is_int8(c) ? Widths{9, 25, 25, 42, 8} : Widths{17, 33, 32, 50, 16}; }

}  // namespace

int CdpConfig::lanes() const {
  const int ca = lanes_per_atom();
  return (shape.c + ca - 1) / ca * ca;
}

// ---- decode -----------------------------------------------------------------------------------

CdpConfig decode_cdp(const CdpRegReader& cdp, const CdpRegReader& rdma, int atom_bytes) {
  CdpConfig c;
  c.atom_bytes = atom_bytes;
  c.shape.w = plus1(field(rdma(rr::D_DATA_CUBE_WIDTH::offset), rr::D_DATA_CUBE_WIDTH::WIDTH{}));
  c.shape.h = plus1(field(rdma(rr::D_DATA_CUBE_HEIGHT::offset), rr::D_DATA_CUBE_HEIGHT::HEIGHT{}));
  c.shape.c = plus1(field(rdma(rr::D_DATA_CUBE_CHANNEL::offset), rr::D_DATA_CUBE_CHANNEL::CHANNEL{}));
  c.src_base = addr64(rdma(rr::D_SRC_BASE_ADDR_HIGH::offset), rdma(rr::D_SRC_BASE_ADDR_LOW::offset));
  c.src_line_stride = rdma(rr::D_SRC_LINE_STRIDE::offset);
  c.src_surface_stride = rdma(rr::D_SRC_SURFACE_STRIDE::offset);
  c.src_ram_mc = field(rdma(rr::D_SRC_DMA_CFG::offset), rr::D_SRC_DMA_CFG::SRC_RAM_TYPE{}) != 0;
  c.rdma_precision =
      static_cast<CdpPrecision>(field(rdma(rr::D_DATA_FORMAT::offset), rr::D_DATA_FORMAT::INPUT_DATA{}));
  c.rdma_perf_en = field(rdma(rr::D_PERF_ENABLE::offset), rr::D_PERF_ENABLE::DMA_EN{}) != 0;

  c.precision =
      static_cast<CdpPrecision>(field(cdp(rc::D_DATA_FORMAT::offset), rc::D_DATA_FORMAT::INPUT_DATA_TYPE{}));
  const uint32_t bypass = cdp(rc::D_FUNC_BYPASS::offset);
  c.sqsum_bypass = field(bypass, rc::D_FUNC_BYPASS::SQSUM_BYPASS{}) != 0;
  c.mul_bypass = field(bypass, rc::D_FUNC_BYPASS::MUL_BYPASS{}) != 0;
  c.normalz_len = 3 + 2 * static_cast<int>(field(cdp(rc::D_LRN_CFG::offset), rc::D_LRN_CFG::NORMALZ_LEN{}));
  c.datin_offset = static_cast<int32_t>(
      sign_extend(field(cdp(rc::D_DATIN_OFFSET::offset), rc::D_DATIN_OFFSET::DATIN_OFFSET{}), 16));
  c.datin_scale = static_cast<int32_t>(
      sign_extend(field(cdp(rc::D_DATIN_SCALE::offset), rc::D_DATIN_SCALE::DATIN_SCALE{}), 16));
  c.datin_shift = static_cast<int>(field(cdp(rc::D_DATIN_SHIFTER::offset), rc::D_DATIN_SHIFTER::DATIN_SHIFTER{}));
  c.datout_offset = sign_extend(field(cdp(rc::D_DATOUT_OFFSET::offset), rc::D_DATOUT_OFFSET::DATOUT_OFFSET{}), 32);
  c.datout_scale = static_cast<int32_t>(
      sign_extend(field(cdp(rc::D_DATOUT_SCALE::offset), rc::D_DATOUT_SCALE::DATOUT_SCALE{}), 16));
  c.datout_shift =
      static_cast<int>(field(cdp(rc::D_DATOUT_SHIFTER::offset), rc::D_DATOUT_SHIFTER::DATOUT_SHIFTER{}));
  c.dst_base = addr64(cdp(rc::D_DST_BASE_ADDR_HIGH::offset), cdp(rc::D_DST_BASE_ADDR_LOW::offset));
  c.dst_line_stride = cdp(rc::D_DST_LINE_STRIDE::offset);
  c.dst_surface_stride = cdp(rc::D_DST_SURFACE_STRIDE::offset);
  c.dst_ram_mc = field(cdp(rc::D_DST_DMA_CFG::offset), rc::D_DST_DMA_CFG::DST_RAM_TYPE{}) != 0;
  c.nan_to_zero = field(cdp(rc::D_NAN_FLUSH_TO_ZERO::offset), rc::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO{}) != 0;
  const uint32_t perf = cdp(rc::D_PERF_ENABLE::offset);
  c.perf_dma_en = field(perf, rc::D_PERF_ENABLE::DMA_EN{}) != 0;
  c.perf_lut_en = field(perf, rc::D_PERF_ENABLE::LUT_EN{}) != 0;

  std::array<uint32_t, 14> words{};
  for (std::size_t k = 0; k < words.size(); ++k) {
    words[k] = cdp(kLutCfgFirstOffset + 4 * static_cast<uint32_t>(k));
  }
  c.lut = decode_lut_config(LutVariant::Cdp, words,
                            c.precision == CdpPrecision::Int8 ? LutPrecision::Int8 : LutPrecision::Int16);
  return c;
}

std::string cdp_describe(const CdpConfig& c) {
  std::string s = std::string("CDP ") + precision_label(c.precision) + " " + str(c.shape.w) + "x" + str(c.shape.h) +
                  "x" + str(c.shape.c) + ", LRN window " + str(c.normalz_len);
  if (c.sqsum_bypass) s += ", square sum bypassed";
  if (c.mul_bypass) s += ", multiply bypassed";
  s += ", in (x - " + str(c.datin_offset) + ") * " + str(c.datin_scale) + " >> " + str(c.datin_shift) + ", out (p - " +
       str(c.datout_offset) + ") * " + str(c.datout_scale) + " >> " + str(c.datout_shift);
  s += c.lut.le_linear ? ", LE linear" : ", LE exponent";
  return s;
}

// ---- limits -----------------------------------------------------------------------------------

std::vector<std::string> CdpConfig::unsupported(const HwConfig& hw) const {
  std::vector<std::string> why;
  for (const std::string& p : {ram_type_problem(hw, src_ram_mc, "CDP_RDMA D_SRC_DMA_CFG.SRC_RAM_TYPE"),
                               ram_type_problem(hw, dst_ram_mc, "CDP D_DST_DMA_CFG.DST_RAM_TYPE")}) {
    if (!p.empty()) why.push_back(p);
  }
  if (precision == CdpPrecision::Reserved) why.emplace_back("CDP D_DATA_FORMAT.INPUT_DATA_TYPE=3 is reserved");
  if (precision == CdpPrecision::Int16 && !hw.supports(Precision::Int16)) {
    why.push_back("CDP D_DATA_FORMAT.INPUT_DATA_TYPE=INT16: " + hw.name + " has no int16");
  }
  if (precision == CdpPrecision::Fp16 && !hw.supports(Precision::Fp16)) {
    why.push_back("CDP D_DATA_FORMAT.INPUT_DATA_TYPE=FP16: " + hw.name + " has no fp16");
  }
  if (rdma_precision != precision) {
    why.push_back(std::string("CDP_RDMA D_DATA_FORMAT.INPUT_DATA (") + precision_label(rdma_precision) +
                  ") differs from CDP's D_DATA_FORMAT.INPUT_DATA_TYPE (" + precision_label(precision) + ")");
  }
  if (!why.empty()) return why;  // the rules below assume a valid precision
  const std::string src = cdp_input_layout(*this).validate(cdp_shape(*this));
  if (!src.empty()) why.push_back("CDP_RDMA source (D_SRC_*): " + src);
  const std::string dst = cdp_output_layout(*this).validate(cdp_shape(*this));
  if (!dst.empty()) why.push_back("CDP destination (D_DST_*): " + dst);
  if (src.empty() && dst.empty()) {
    // The hardware streams: a destination overlapping the source at another position would read
    // values it already overwrote (in place, with the same layout, each atom is read first).
    const FeatureLayout in = cdp_input_layout(*this);
    const FeatureLayout out = cdp_output_layout(*this);
    const uint64_t in_end = in.base + in.region_bytes(cdp_shape(*this));
    const uint64_t out_end = out.base + out.region_bytes(cdp_shape(*this));
    const bool same = in.base == out.base && in.line_stride == out.line_stride &&
                      in.surface_stride == out.surface_stride;
    if (!same && in.base < out_end && out.base < in_end) {
      why.emplace_back("CDP destination (D_DST_*) overlaps the CDP_RDMA source (D_SRC_*) with a different layout: "
                       "the result would depend on the order of the DMA reads and writes");
    }
  }
  return why;
}

// ---- arithmetic -------------------------------------------------------------------------------

int64_t cdp_convert_in(const CdpConfig& c, int64_t in) {
  const Widths w = widths(c);
  const int64_t off = is_int8(c) ? sign_extend(static_cast<uint64_t>(c.datin_offset), 8)
                                 : sign_extend(static_cast<uint64_t>(c.datin_offset), 16);
  const Wide prod = Wide{in - off} * Wide{c.datin_scale};
  return shift_right_sat(prod, w.in_prod, c.datin_shift, w.x);
}

int64_t cdp_lut_input(const CdpConfig& c, const std::vector<int64_t>& x, int ch) {
  if (c.sqsum_bypass) return x.at(static_cast<std::size_t>(ch));
  const int half = (c.normalz_len - 1) / 2;
  int64_t q = 0;
  for (int j = ch - half; j <= ch + half; ++j) {
    if (j < 0 || j >= c.shape.c) continue;
    const int64_t v = x.at(static_cast<std::size_t>(j));
    q += v * v;
  }
  return q;
}

int64_t cdp_convert_out(const CdpConfig& c, int64_t p, bool& saturated) {
  const Widths w = widths(c);
  const int64_t off = sign_extend(static_cast<uint64_t>(c.datout_offset), w.out_off);
  const Wide prod = (Wide{p} - Wide{off}) * Wide{c.datout_scale};
  // The flag is NVDLA's IntShiftRightSat one, as SDP's (hls/cdp_libs/cdp_ocvt.cpp).
  return shift_right_sat_hls(prod, w.out_prod, c.datout_shift, w.out, saturated);
}

namespace {

uint32_t sat_inc(uint32_t v) { return v == 0xffffffffu ? v : v + 1; }

// fp16 (docs/FP16.md "CDP in fp16"): the data widened exactly (fp16 -> fp17 -> fp32; DATIN_* not
// read), squares in fp32 (exact), summed in fp32 by a fixed tree (c-1 + c+1, + c, then each
// further pair added outward), the float LUT (lut_lookup_fp, fp17 out), then x * LUT in fp17 (the
// datum first) and to fp16 (DATOUT_* not read). Channels outside [0, C) are +0.
void cdp_normalize_fp16(const CdpConfig& cfg, const LutTables& tables, const Cube<int64_t>& input, CdpRun& run) {
  using fp::kFp16, fp::kFp17, fp::kFp32;
  const CubeShape s = cdp_shape(cfg);
  const int lanes = s.c;
  const int half = (cfg.normalz_len - 1) / 2;
  std::vector<uint32_t> x17(static_cast<std::size_t>(lanes)), x32(x17.size()), sq(x17.size());
  for (int h = 0; h < s.h; ++h) {
    for (int w = 0; w < s.w; ++w) {
      for (int c = 0; c < lanes; ++c) {
        // D_NAN_INPUT_NUM / D_INF_INPUT_NUM: every lane of every atom read, before the flush.
        const uint32_t v = static_cast<uint32_t>(input.at(0, c, h, w)) & 0xffffu;
        if (fp::is_nan(kFp16, v)) run.stats.nan_input = sat_inc(run.stats.nan_input);
        if (fp::is_inf(kFp16, v)) run.stats.inf_input = sat_inc(run.stats.inf_input);
        const uint32_t d = c >= cfg.shape.c || (cfg.nan_to_zero && fp::is_nan(kFp16, v)) ? 0u : v;
        const auto i = static_cast<std::size_t>(c);
        x17[i] = fp::convert(kFp16, kFp17, d);
        x32[i] = fp::convert(kFp17, kFp32, x17[i]);
        sq[i] = cfg.sqsum_bypass ? x32[i] : fp::mul(kFp32, x32[i], x32[i]);
      }
      const auto square = [&](int c) { return c < 0 || c >= lanes ? 0u : sq[static_cast<std::size_t>(c)]; };
      for (int c = 0; c < lanes; ++c) {
        uint32_t sum = square(c);
        if (!cfg.sqsum_bypass) {
          sum = fp::add(kFp32, fp::add(kFp32, square(c - 1), square(c + 1)), square(c));
          for (int k = 2; k <= half; ++k) sum = fp::add(kFp32, sum, fp::add(kFp32, square(c - k), square(c + k)));
        }
        const LutResult r = lut_lookup_fp(LutVariant::Cdp, cfg.lut, tables, sum);
        if (cfg.perf_lut_en) accumulate(LutVariant::Cdp, run.stats.lut, r);
        const auto i = static_cast<std::size_t>(c);
        const auto r17 = static_cast<uint32_t>(r.value);
        // MUL_BYPASS outputs the LUT value, but a NaN datum itself.
        const uint32_t o17 = cfg.mul_bypass ? (fp::is_nan(kFp32, x32[i]) ? x17[i] : r17) : fp::mul(kFp17, x17[i], r17);
        const uint32_t o = fp::convert(kFp17, kFp16, o17);
        if (fp::is_nan(kFp16, o)) run.stats.nan_output = sat_inc(run.stats.nan_output);
        run.output.at(0, c, h, w) = sign_extend(o, 16);
        ++run.elements;
      }
    }
  }
}

}  // namespace

CdpRun cdp_normalize(const CdpConfig& cfg, const LutTables& tables, const Cube<int64_t>& input) {
  const CubeShape s = cdp_shape(cfg);
  const CubeShape is = input.shape();
  if (is.n != 1 || is.c < s.c || is.h != s.h || is.w != s.w) {
    throw std::invalid_argument("cdp_normalize: the input cube does not match the configuration");
  }
  if (cfg.precision == CdpPrecision::Fp16) {
    CdpRun run;
    run.output = Cube<int64_t>(s);
    cdp_normalize_fp16(cfg, tables, input, run);
    return run;
  }
  const int lanes = s.c;
  CdpRun run;
  run.output = Cube<int64_t>(s);
  std::vector<int64_t> x(static_cast<std::size_t>(lanes));
  for (int h = 0; h < s.h; ++h) {
    for (int w = 0; w < s.w; ++w) {
      // Lanes past C carry DATIN_OFFSET into the converter (NVDLA's C model), i.e. x = 0.
      for (int c = 0; c < lanes; ++c) {
        x[static_cast<std::size_t>(c)] = c < cfg.shape.c ? cdp_convert_in(cfg, input.at(0, c, h, w)) : 0;
      }
      for (int c = 0; c < lanes; ++c) {
        const LutResult r = lut_lookup(LutVariant::Cdp, cfg.lut, tables, cdp_lut_input(cfg, x, c));
        if (cfg.perf_lut_en) accumulate(LutVariant::Cdp, run.stats.lut, r);
        const int64_t p = cfg.mul_bypass ? r.value : r.value * x[static_cast<std::size_t>(c)];
        bool saturated = false;
        run.output.at(0, c, h, w) = cdp_convert_out(cfg, p, saturated);
        if (saturated && run.stats.out_saturation != 0xffffffffu) ++run.stats.out_saturation;
        ++run.elements;
      }
    }
  }
  return run;
}

// ---- layer ------------------------------------------------------------------------------------

FeatureLayout cdp_input_layout(const CdpConfig& c) {
  return FeatureLayout::strided(c.src_base, c.src_line_stride, c.src_surface_stride, c.atom_bytes,
                                cdp_precision_bytes(c.precision));
}

FeatureLayout cdp_output_layout(const CdpConfig& c) {
  return FeatureLayout::strided(c.dst_base, c.dst_line_stride, c.dst_surface_stride, c.atom_bytes,
                                cdp_precision_bytes(c.precision));
}

CubeShape cdp_shape(const CdpConfig& c) { return {1, c.lanes(), c.shape.h, c.shape.w}; }

CdpRun run_cdp(const CdpConfig& cfg, const HwConfig& hw, const LutTables& tables, const ByteReader& read,
               const ByteWriter& write) {
  if (const auto u = cfg.unsupported(hw); !u.empty()) throw std::invalid_argument(u.front());
  const Cube<int64_t> input = load_cube(cdp_input_layout(cfg), cdp_shape(cfg), read);
  CdpRun run = cdp_normalize(cfg, tables, input);
  store_cube(cdp_output_layout(cfg), run.output, write);
  return run;
}

}  // namespace dla::golden
