// NVDLA SDP integer pipelines, register level. Spec: ../shared/reference/nvdla-arithmetic.md §2;
// decisions: docs/SDP.md.
#include "engines/sdp/golden/sdp.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_regs.hpp"

namespace dla::golden {
namespace {

namespace rs = regs::sdp;
namespace rr = regs::sdp_rdma;
using regs::field;

int16_t s16(uint32_t v) { return static_cast<int16_t>(sign_extend(v, 16)); }
int32_t s32(uint32_t v) { return static_cast<int32_t>(sign_extend(v, 32)); }
uint64_t addr64(uint32_t high, uint32_t low) { return (uint64_t{high} << 32) | low; }

SdpXCfg decode_x(const SdpRegReader& sdp, bool bn) {
  // BS and BN registers have the same layout; BN sits 0x14 bytes after BS.
  SdpXCfg x;
  if (!bn) {
    const uint32_t cfg = sdp(rs::D_DP_BS_CFG::offset);
    x.bypass = field(cfg, rs::D_DP_BS_CFG::BS_BYPASS{}) != 0;
    x.alu_bypass = field(cfg, rs::D_DP_BS_CFG::BS_ALU_BYPASS{}) != 0;
    x.alu_algo = static_cast<SdpAluAlgo>(field(cfg, rs::D_DP_BS_CFG::BS_ALU_ALGO{}));
    x.mul_bypass = field(cfg, rs::D_DP_BS_CFG::BS_MUL_BYPASS{}) != 0;
    x.mul_prelu = field(cfg, rs::D_DP_BS_CFG::BS_MUL_PRELU{}) != 0;
    x.relu_bypass = field(cfg, rs::D_DP_BS_CFG::BS_RELU_BYPASS{}) != 0;
    const uint32_t alu = sdp(rs::D_DP_BS_ALU_CFG::offset);
    x.alu_src_mem = field(alu, rs::D_DP_BS_ALU_CFG::BS_ALU_SRC{}) != 0;
    x.alu_shift = static_cast<int>(field(alu, rs::D_DP_BS_ALU_CFG::BS_ALU_SHIFT_VALUE{}));
    x.alu_operand = s16(field(sdp(rs::D_DP_BS_ALU_SRC_VALUE::offset), rs::D_DP_BS_ALU_SRC_VALUE::BS_ALU_OPERAND{}));
    const uint32_t mul = sdp(rs::D_DP_BS_MUL_CFG::offset);
    x.mul_src_mem = field(mul, rs::D_DP_BS_MUL_CFG::BS_MUL_SRC{}) != 0;
    x.mul_shift = static_cast<int>(field(mul, rs::D_DP_BS_MUL_CFG::BS_MUL_SHIFT_VALUE{}) & 0x3fu);
    x.mul_operand = s16(field(sdp(rs::D_DP_BS_MUL_SRC_VALUE::offset), rs::D_DP_BS_MUL_SRC_VALUE::BS_MUL_OPERAND{}));
  } else {
    const uint32_t cfg = sdp(rs::D_DP_BN_CFG::offset);
    x.bypass = field(cfg, rs::D_DP_BN_CFG::BN_BYPASS{}) != 0;
    x.alu_bypass = field(cfg, rs::D_DP_BN_CFG::BN_ALU_BYPASS{}) != 0;
    x.alu_algo = static_cast<SdpAluAlgo>(field(cfg, rs::D_DP_BN_CFG::BN_ALU_ALGO{}));
    x.mul_bypass = field(cfg, rs::D_DP_BN_CFG::BN_MUL_BYPASS{}) != 0;
    x.mul_prelu = field(cfg, rs::D_DP_BN_CFG::BN_MUL_PRELU{}) != 0;
    x.relu_bypass = field(cfg, rs::D_DP_BN_CFG::BN_RELU_BYPASS{}) != 0;
    const uint32_t alu = sdp(rs::D_DP_BN_ALU_CFG::offset);
    x.alu_src_mem = field(alu, rs::D_DP_BN_ALU_CFG::BN_ALU_SRC{}) != 0;
    x.alu_shift = static_cast<int>(field(alu, rs::D_DP_BN_ALU_CFG::BN_ALU_SHIFT_VALUE{}));
    x.alu_operand = s16(field(sdp(rs::D_DP_BN_ALU_SRC_VALUE::offset), rs::D_DP_BN_ALU_SRC_VALUE::BN_ALU_OPERAND{}));
    const uint32_t mul = sdp(rs::D_DP_BN_MUL_CFG::offset);
    x.mul_src_mem = field(mul, rs::D_DP_BN_MUL_CFG::BN_MUL_SRC{}) != 0;
    x.mul_shift = static_cast<int>(field(mul, rs::D_DP_BN_MUL_CFG::BN_MUL_SHIFT_VALUE{}) & 0x3fu);
    x.mul_operand = s16(field(sdp(rs::D_DP_BN_MUL_SRC_VALUE::offset), rs::D_DP_BN_MUL_SRC_VALUE::BN_MUL_OPERAND{}));
  }
  return x;
}

SdpYCfg decode_y(const SdpRegReader& sdp) {
  SdpYCfg y;
  const uint32_t cfg = sdp(rs::D_DP_EW_CFG::offset);
  y.bypass = field(cfg, rs::D_DP_EW_CFG::EW_BYPASS{}) != 0;
  y.alu_bypass = field(cfg, rs::D_DP_EW_CFG::EW_ALU_BYPASS{}) != 0;
  y.alu_algo = static_cast<SdpAluAlgo>(field(cfg, rs::D_DP_EW_CFG::EW_ALU_ALGO{}));
  y.mul_bypass = field(cfg, rs::D_DP_EW_CFG::EW_MUL_BYPASS{}) != 0;
  y.mul_prelu = field(cfg, rs::D_DP_EW_CFG::EW_MUL_PRELU{}) != 0;
  y.lut_bypass = field(cfg, rs::D_DP_EW_CFG::EW_LUT_BYPASS{}) != 0;

  const uint32_t alu = sdp(rs::D_DP_EW_ALU_CFG::offset);
  y.alu_src_mem = field(alu, rs::D_DP_EW_ALU_CFG::EW_ALU_SRC{}) != 0;
  y.alu_cvt.bypass = field(alu, rs::D_DP_EW_ALU_CFG::EW_ALU_CVT_BYPASS{}) != 0;
  y.alu_operand = s32(sdp(rs::D_DP_EW_ALU_SRC_VALUE::offset));
  y.alu_cvt.offset = s32(sdp(rs::D_DP_EW_ALU_CVT_OFFSET_VALUE::offset));
  y.alu_cvt.scale = s16(field(sdp(rs::D_DP_EW_ALU_CVT_SCALE_VALUE::offset),
                              rs::D_DP_EW_ALU_CVT_SCALE_VALUE::EW_ALU_CVT_SCALE{}));
  y.alu_cvt.truncate = static_cast<int>(field(sdp(rs::D_DP_EW_ALU_CVT_TRUNCATE_VALUE::offset),
                                              rs::D_DP_EW_ALU_CVT_TRUNCATE_VALUE::EW_ALU_CVT_TRUNCATE{}));

  const uint32_t mul = sdp(rs::D_DP_EW_MUL_CFG::offset);
  y.mul_src_mem = field(mul, rs::D_DP_EW_MUL_CFG::EW_MUL_SRC{}) != 0;
  y.mul_cvt.bypass = field(mul, rs::D_DP_EW_MUL_CFG::EW_MUL_CVT_BYPASS{}) != 0;
  y.mul_operand = s32(sdp(rs::D_DP_EW_MUL_SRC_VALUE::offset));
  y.mul_cvt.offset = s32(sdp(rs::D_DP_EW_MUL_CVT_OFFSET_VALUE::offset));
  y.mul_cvt.scale = s16(field(sdp(rs::D_DP_EW_MUL_CVT_SCALE_VALUE::offset),
                              rs::D_DP_EW_MUL_CVT_SCALE_VALUE::EW_MUL_CVT_SCALE{}));
  y.mul_cvt.truncate = static_cast<int>(field(sdp(rs::D_DP_EW_MUL_CVT_TRUNCATE_VALUE::offset),
                                              rs::D_DP_EW_MUL_CVT_TRUNCATE_VALUE::EW_MUL_CVT_TRUNCATE{}));
  y.truncate = static_cast<int>(field(sdp(rs::D_DP_EW_TRUNCATE_VALUE::offset), rs::D_DP_EW_TRUNCATE_VALUE::EW_TRUNCATE{}));
  return y;
}

// The three operand DMAs have the same register layout: CFG, BASE_LOW, BASE_HIGH, LINE_STRIDE,
// SURFACE_STRIDE, BATCH_STRIDE at consecutive words.
SdpDmaCfg decode_dma(const SdpRegReader& rdma, uint32_t cfg_offset) {
  static_assert(rr::D_NRDMA_CFG::offset - rr::D_BRDMA_CFG::offset == 0x18 &&
                rr::D_ERDMA_CFG::offset - rr::D_NRDMA_CFG::offset == 0x18 &&
                rr::D_BS_BASE_ADDR_LOW::offset == rr::D_BRDMA_CFG::offset + 4 &&
                rr::D_BS_BATCH_STRIDE::offset == rr::D_BRDMA_CFG::offset + 0x14 &&
                rr::D_NRDMA_CFG::NRDMA_DATA_USE::lsb == rr::D_BRDMA_CFG::BRDMA_DATA_USE::lsb &&
                rr::D_ERDMA_CFG::ERDMA_DATA_MODE::lsb == rr::D_BRDMA_CFG::BRDMA_DATA_MODE::lsb,
                "SDP_RDMA operand DMA register groups are expected to share one layout");
  SdpDmaCfg d;
  const uint32_t cfg = rdma(cfg_offset);
  d.enabled = field(cfg, rr::D_BRDMA_CFG::BRDMA_DISABLE{}) == 0;
  d.use = static_cast<SdpDmaUse>(field(cfg, rr::D_BRDMA_CFG::BRDMA_DATA_USE{}));
  d.data_bytes = field(cfg, rr::D_BRDMA_CFG::BRDMA_DATA_SIZE{}) != 0 ? 2 : 1;
  d.per_element = field(cfg, rr::D_BRDMA_CFG::BRDMA_DATA_MODE{}) != 0;
  d.ram_mc = field(cfg, rr::D_BRDMA_CFG::BRDMA_RAM_TYPE{}) != 0;
  d.base = addr64(rdma(cfg_offset + 8), rdma(cfg_offset + 4));
  d.line_stride = rdma(cfg_offset + 0x0c);
  d.surface_stride = rdma(cfg_offset + 0x10);
  d.batch_stride = rdma(cfg_offset + 0x14);
  return d;
}

const char* precision_text(SdpPrecision p) {
  switch (p) {
    case SdpPrecision::Int8: return "INT8";
    case SdpPrecision::Int16: return "INT16";
    case SdpPrecision::Fp16: return "FP16";
    default: return "reserved value 3";
  }
}

int ceil_to(int v, int m) { return (v + m - 1) / m * m; }

int64_t read_le(const ByteReader& read, uint64_t addr, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t{read(addr + static_cast<uint64_t>(i))} << (8 * i);
  return sign_extend(v, 8 * bytes);
}

// One operand DMA's view of memory: the value for (n, c, h, w), ALU or MUL part.
struct OperandReader {
  const SdpDmaCfg* dma = nullptr;
  FeatureLayout layout{};  // per-element layout: Ca lanes of element_bytes each per w position
  int data_bytes = 1;
  int element_bytes = 1;

  OperandReader(const SdpDmaCfg& d, int lanes) : dma(&d), data_bytes(d.data_bytes), element_bytes(d.element_bytes()) {
    layout.base = d.base;
    layout.line_stride = d.line_stride;
    layout.surface_stride = d.surface_stride;
    layout.batch_stride = d.batch_stride;
    layout.atom_bytes = lanes * element_bytes;  // one w position = Ca channels of element_bytes
    layout.bpe = element_bytes;
  }
  [[nodiscard]] int64_t value(const ByteReader& read, int n, int c, int h, int w, bool mul_part) const {
    const uint64_t elem = dma->per_element ? layout.address(n, c, h, w)
                                           : dma->base + static_cast<uint64_t>(c) * static_cast<uint64_t>(element_bytes);
    const uint64_t part = (dma->use == SdpDmaUse::Both && mul_part) ? static_cast<uint64_t>(data_bytes) : 0;
    return read_le(read, elem + part, data_bytes);
  }
};

uint32_t sat_inc(uint32_t v) { return v == 0xffffffffu ? v : v + 1; }

}  // namespace

// ---- decode -----------------------------------------------------------------------------------

std::vector<std::string> sdp_hw_problems(const SdpConfig& c, const HwConfig& hw) {
  std::vector<std::string> out;
  const auto add = [&](bool used, bool mc, const char* reg) {
    if (std::string p = used ? ram_type_problem(hw, mc, reg) : ""; !p.empty()) out.push_back(std::move(p));
  };
  add(!c.flying, c.src_ram_mc, "SDP_RDMA D_SRC_DMA_CFG.SRC_RAM_TYPE");
  add(c.brdma.enabled, c.brdma.ram_mc, "SDP_RDMA D_BRDMA_CFG.BRDMA_RAM_TYPE");
  add(c.nrdma.enabled, c.nrdma.ram_mc, "SDP_RDMA D_NRDMA_CFG.NRDMA_RAM_TYPE");
  add(c.erdma.enabled, c.erdma.ram_mc, "SDP_RDMA D_ERDMA_CFG.ERDMA_RAM_TYPE");
  add(!c.output_to_pdp, c.dst_ram_mc, "SDP D_DST_DMA_CFG.DST_RAM_TYPE");
  return out;
}

SdpConfig decode_sdp(const SdpRegReader& sdp, const SdpRegReader& rdma, int atom_bytes) {
  SdpConfig c;
  c.atom_bytes = atom_bytes;
  c.src_ram_mc = field(rdma(rr::D_SRC_DMA_CFG::offset), rr::D_SRC_DMA_CFG::SRC_RAM_TYPE{}) != 0;
  c.dst_ram_mc = field(sdp(rs::D_DST_DMA_CFG::offset), rs::D_DST_DMA_CFG::DST_RAM_TYPE{}) != 0;
  const uint32_t mode = sdp(rs::D_FEATURE_MODE_CFG::offset);
  c.flying = field(mode, rs::D_FEATURE_MODE_CFG::FLYING_MODE{}) != 0;
  c.output_to_pdp = field(mode, rs::D_FEATURE_MODE_CFG::OUTPUT_DST{}) != 0;
  c.winograd = field(mode, rs::D_FEATURE_MODE_CFG::WINOGRAD{}) != 0;
  c.nan_to_zero = field(mode, rs::D_FEATURE_MODE_CFG::NAN_TO_ZERO{}) != 0;
  const int batches = static_cast<int>(field(mode, rs::D_FEATURE_MODE_CFG::BATCH_NUMBER{})) + 1;

  c.shape.w = static_cast<int>(field(sdp(rs::D_DATA_CUBE_WIDTH::offset), rs::D_DATA_CUBE_WIDTH::WIDTH{})) + 1;
  c.shape.h = static_cast<int>(field(sdp(rs::D_DATA_CUBE_HEIGHT::offset), rs::D_DATA_CUBE_HEIGHT::HEIGHT{})) + 1;
  c.shape.c = static_cast<int>(field(sdp(rs::D_DATA_CUBE_CHANNEL::offset), rs::D_DATA_CUBE_CHANNEL::CHANNEL{})) + 1;
  // Batches exist only with the convolution pipeline feeding SDP (docs/SDP.md).
  c.shape.n = c.flying ? batches : 1;

  const uint32_t fmt = sdp(rs::D_DATA_FORMAT::offset);
  c.proc_precision = static_cast<SdpPrecision>(field(fmt, rs::D_DATA_FORMAT::PROC_PRECISION{}));
  c.out_precision = static_cast<SdpPrecision>(field(fmt, rs::D_DATA_FORMAT::OUT_PRECISION{}));

  c.dst_base = addr64(sdp(rs::D_DST_BASE_ADDR_HIGH::offset), sdp(rs::D_DST_BASE_ADDR_LOW::offset));
  c.dst_line_stride = sdp(rs::D_DST_LINE_STRIDE::offset);
  c.dst_surface_stride = sdp(rs::D_DST_SURFACE_STRIDE::offset);
  c.dst_batch_stride = sdp(rs::D_DST_BATCH_STRIDE::offset);

  c.bs = decode_x(sdp, false);
  c.bn = decode_x(sdp, true);
  c.ew = decode_y(sdp);
  c.cvt.offset = s32(sdp(rs::D_CVT_OFFSET::offset));
  c.cvt.scale = s16(field(sdp(rs::D_CVT_SCALE::offset), rs::D_CVT_SCALE::CVT_SCALE{}));
  c.cvt.shift = static_cast<int>(field(sdp(rs::D_CVT_SHIFT::offset), rs::D_CVT_SHIFT::CVT_SHIFT{}));

  const uint32_t perf = sdp(rs::D_PERF_ENABLE::offset);
  c.perf_dma_en = field(perf, rs::D_PERF_ENABLE::PERF_DMA_EN{}) != 0;
  c.perf_lut_en = field(perf, rs::D_PERF_ENABLE::PERF_LUT_EN{}) != 0;
  c.perf_sat_en = field(perf, rs::D_PERF_ENABLE::PERF_SAT_EN{}) != 0;
  c.perf_nan_inf_en = field(perf, rs::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN{}) != 0;
  c.rdma_perf_nan_inf_en =
      field(rdma(rr::D_PERF_ENABLE::offset), rr::D_PERF_ENABLE::PERF_NAN_INF_COUNT_EN{}) != 0;

  static_assert(rs::S_LUT_LO_SLOPE_SHIFT::offset == kLutCfgFirstOffset + 4 * 9 &&
                rs::S_LUT_CFG::offset == kLutCfgFirstOffset,
                "the LUT engine decoder takes the ten SDP S_LUT_* words from S_LUT_CFG on");
  std::array<uint32_t, 10> lut_words{};
  for (std::size_t i = 0; i < lut_words.size(); ++i) {
    lut_words[i] = sdp(kLutCfgFirstOffset + 4 * static_cast<uint32_t>(i));
  }
  c.lut = decode_lut_config(LutVariant::Sdp, lut_words);

  // SDP_RDMA
  const uint32_t rmode = rdma(rr::D_FEATURE_MODE_CFG::offset);
  c.in_precision = static_cast<SdpPrecision>(field(rmode, rr::D_FEATURE_MODE_CFG::IN_PRECISION{}));
  c.rdma_winograd = field(rmode, rr::D_FEATURE_MODE_CFG::WINOGRAD{}) != 0;
  c.rdma_proc_precision = static_cast<SdpPrecision>(field(rmode, rr::D_FEATURE_MODE_CFG::PROC_PRECISION{}));
  c.rdma_shape.n = 1;
  c.rdma_shape.w = static_cast<int>(field(rdma(rr::D_DATA_CUBE_WIDTH::offset), rr::D_DATA_CUBE_WIDTH::WIDTH{})) + 1;
  c.rdma_shape.h = static_cast<int>(field(rdma(rr::D_DATA_CUBE_HEIGHT::offset), rr::D_DATA_CUBE_HEIGHT::HEIGHT{})) + 1;
  c.rdma_shape.c =
      static_cast<int>(field(rdma(rr::D_DATA_CUBE_CHANNEL::offset), rr::D_DATA_CUBE_CHANNEL::CHANNEL{})) + 1;
  c.src_base = addr64(rdma(rr::D_SRC_BASE_ADDR_HIGH::offset), rdma(rr::D_SRC_BASE_ADDR_LOW::offset));
  c.src_line_stride = rdma(rr::D_SRC_LINE_STRIDE::offset);
  c.src_surface_stride = rdma(rr::D_SRC_SURFACE_STRIDE::offset);
  if (c.flying) c.in_precision = c.proc_precision;  // CACC delivers processing-precision lanes
  c.brdma = decode_dma(rdma, rr::D_BRDMA_CFG::offset);
  c.nrdma = decode_dma(rdma, rr::D_NRDMA_CFG::offset);
  c.erdma = decode_dma(rdma, rr::D_ERDMA_CFG::offset);
  c.rdma_active = !c.flying || c.brdma.enabled || c.nrdma.enabled || c.erdma.enabled;
  return c;
}

std::vector<std::string> sdp_winograd_refusals(bool eql, SdpPrecision in, SdpPrecision out) {
  std::vector<std::string> r;
  if (eql) r.emplace_back("the EW ALU's EQL is not available with D_FEATURE_MODE_CFG.WINOGRAD (NVDLA: no EQL in Winograd mode)");
  if (in == SdpPrecision::Int8 && out == SdpPrecision::Int16) {
    r.emplace_back("int8 input -> int16 output is not available with D_FEATURE_MODE_CFG.WINOGRAD (NVDLA: no int8 -> "
                   "int16 conversion in Winograd mode)");
  }
  return r;
}

std::vector<std::string> SdpConfig::unsupported() const {
  std::vector<std::string> out;
  // fp16 (NVDLA v1, docs/FP16.md "SDP"): the data stays fp32 from CACC (or from fp16 memory,
  // widened exactly) through BS, BN and EW to the output converter, which rounds to fp16 (or on to
  // int16); the LUT interpolates in fp17.
  const bool fp = proc_precision == SdpPrecision::Fp16;
  if (proc_precision == SdpPrecision::Reserved) out.emplace_back("D_DATA_FORMAT.PROC_PRECISION is the reserved value 3");
  if (out_precision == SdpPrecision::Reserved) out.emplace_back("D_DATA_FORMAT.OUT_PRECISION is the reserved value 3");
  if (!flying && in_precision == SdpPrecision::Reserved)
    out.emplace_back("SDP_RDMA D_FEATURE_MODE_CFG.IN_PRECISION is the reserved value 3");
  if (fp) {
    if (out_precision == SdpPrecision::Int8) {
      out.emplace_back("PROC_PRECISION FP16 with OUT_PRECISION INT8 is not an NVDLA mode: its output converter has no "
                       "fp16 -> int8 path and the write DMA would store the low byte of each fp16 (NVIDIA's C model)");
    }
    if (!flying && in_precision != SdpPrecision::Fp16) {
      out.emplace_back("PROC_PRECISION FP16 needs SDP_RDMA IN_PRECISION FP16: SDP has no integer -> float input "
                       "conversion (NVIDIA's C model would read the integers as fp16 bit patterns)");
    }
    if (eql_mode() && !ew.lut_bypass) {
      out.emplace_back("EW ALU EQL with the LUT in use is undefined in fp16: the LUT would index the integer 0 or 1 as "
                       "an fp32 pattern (NVIDIA's C model)");
    }
    if (eql_mode() && out_precision != SdpPrecision::Fp16) {
      out.emplace_back("a precision conversion in EQL mode is not allowed (NVDLA programming guide)");
    }
    if (eql_mode() && shape.n > 1) {
      out.emplace_back("EW ALU EQL with batches (D_FEATURE_MODE_CFG.BATCH_NUMBER > 0) is not available (NVIDIA's C "
                       "model asserts it)");
    }
    for (const auto& [x, name] : {std::pair{&bs, "BS"}, std::pair{&bn, "BN"}}) {
      if (!x->bypass && !x->alu_bypass && x->alu_algo == SdpAluAlgo::Eql) {
        out.push_back(std::string(name) + " ALU algorithm EQL does not exist in fp16 (NVIDIA's C model would output "
                                          "the integer 0 or 1 as an fp32 pattern)");
      }
    }
    for (const auto& [d, name] : {std::pair{&brdma, "BRDMA"}, std::pair{&nrdma, "NRDMA"}, std::pair{&erdma, "ERDMA"}}) {
      if (d->enabled && d->data_bytes != 2) {
        out.push_back(std::string("SDP_RDMA ") + name + " DATA_SIZE is ONE_BYTE in fp16: the operands are fp16 "
                                                        "(two bytes)");
      }
    }
    if (rdma_active && rdma_proc_precision != proc_precision) {
      out.push_back(std::string("SDP D_DATA_FORMAT and SDP_RDMA D_FEATURE_MODE_CFG PROC_PRECISION differ (") +
                    precision_text(proc_precision) + " vs " + precision_text(rdma_proc_precision) + ")");
    }
    if (out_precision != SdpPrecision::Fp16 && output_to_pdp) {
      out.emplace_back("a precision conversion with OUTPUT_DST = PDP is not allowed (NVDLA programming guide: no "
                       "conversion when SDP outputs to PDP or in EQL mode)");
    }
    if (out_precision != SdpPrecision::Fp16 && shape.n > 1) {
      out.emplace_back("a precision conversion with batches (D_FEATURE_MODE_CFG.BATCH_NUMBER > 0) is not available: "
                       "NVDLA's write DMA has no batch walk in its conversion modes (NVIDIA's C model asserts it)");
    }
  } else {
    if (out_precision == SdpPrecision::Fp16)
      out.emplace_back("OUT_PRECISION FP16 needs PROC_PRECISION FP16 (NVDLA has no integer -> fp16 output)");
    if (!flying && in_precision == SdpPrecision::Fp16)
      out.emplace_back("SDP_RDMA IN_PRECISION FP16 needs PROC_PRECISION FP16 (NVDLA has no fp16 -> integer input)");
  }
  // WINOGRAD changes only the order WDMA writes the cube (2x2 tiles from CACC, docs/SDP.md
  // "Winograd write order"), not a value; NVDLA has neither EQL nor int8 -> int16 in that mode.
  if (winograd) {
    if (!flying) out.emplace_back("D_FEATURE_MODE_CFG.WINOGRAD needs FLYING_MODE on (the 2x2 tile order comes from CACC)");
    if (shape.w % 2 != 0 || shape.h % 2 != 0) {
      out.push_back("D_FEATURE_MODE_CFG.WINOGRAD needs an even cube width and height (2x2 output tiles); got " +
                    std::to_string(shape.w) + "x" + std::to_string(shape.h) + " (W x H)");
    }
    for (std::string& e : sdp_winograd_refusals(eql_mode(), in_precision, out_precision)) out.push_back(std::move(e));
    // Per-element operands arrive in the order SDP_RDMA fetches them: the Winograd order only with
    // its own WINOGRAD bit (NVIDIA's firmware sets both; its C model fetches so, NV_NVDLA_sdp.cpp).
    const auto per_element_in_use = [&](const SdpDmaCfg& d) { return d.enabled && d.per_element; };
    if (!rdma_winograd && (per_element_in_use(brdma) || per_element_in_use(nrdma) || per_element_in_use(erdma))) {
      out.emplace_back("per-element operands in Winograd mode need SDP_RDMA D_FEATURE_MODE_CFG.WINOGRAD as well as "
                       "SDP's (without it SDP_RDMA fetches them in line order and NVDLA pairs them with other "
                       "outputs)");
    }
  }
  // Precisions as NVDLA runs them (NVIDIA's firmware map_proc_precision, its C model and RTL):
  // PROC is the input's, except int16 -> int8, which is PROC INT8 and reads from memory.
  const bool ints = (in_precision == SdpPrecision::Int8 || in_precision == SdpPrecision::Int16) &&
                    (proc_precision == SdpPrecision::Int8 || proc_precision == SdpPrecision::Int16) &&
                    (out_precision == SdpPrecision::Int8 || out_precision == SdpPrecision::Int16);
  if (ints) {
    const bool in16 = in_precision == SdpPrecision::Int16, proc16 = proc_precision == SdpPrecision::Int16,
               out16 = out_precision == SdpPrecision::Int16;
    if (proc16 && !out16) {
      out.emplace_back("D_DATA_FORMAT PROC_PRECISION INT16 with OUT_PRECISION INT8 is not an NVDLA mode (its write DMA "
                       "would pack two positions' 16-channel results into one int8 atom); int16 -> int8 is SDP_RDMA "
                       "IN_PRECISION INT16 with PROC_PRECISION INT8 in SDP and SDP_RDMA (NVIDIA's firmware, "
                       "map_proc_precision)");
    } else if (!flying && !in16 && proc16) {
      out.emplace_back("SDP_RDMA IN_PRECISION INT8 needs PROC_PRECISION INT8 (NVDLA processes at the input's "
                       "precision; int8 -> int16 is PROC INT8 with OUT INT16)");
    } else if (!flying && in16 && !proc16 && out16) {
      out.emplace_back("PROC_PRECISION INT8 with IN_PRECISION INT16 converts to int8 only: OUT_PRECISION must be INT8");
    }
    if (rdma_active && rdma_proc_precision != proc_precision) {
      out.push_back(std::string("SDP D_DATA_FORMAT and SDP_RDMA D_FEATURE_MODE_CFG PROC_PRECISION differ (") +
                    precision_text(proc_precision) + " vs " + precision_text(rdma_proc_precision) +
                    "): NVDLA's operand DMAs group their lanes by SDP_RDMA's, the datapath by SDP's");
    }
    const bool converts = in_precision != proc_precision || proc_precision != out_precision;
    if (converts && output_to_pdp) {
      out.emplace_back("a precision conversion with OUTPUT_DST = PDP is not allowed (NVDLA programming guide: no "
                       "conversion when SDP outputs to PDP or in EQL mode)");
    }
    if (converts && eql_mode()) {
      out.emplace_back("a precision conversion in EQL mode is not allowed (NVDLA programming guide)");
    }
    if (converts && shape.n > 1) {
      out.emplace_back("a precision conversion with batches (D_FEATURE_MODE_CFG.BATCH_NUMBER > 0) is not available: "
                       "NVDLA's write DMA has no batch walk in its conversion modes (NVIDIA's C model asserts it)");
    }
    // Operands are 16-bit in an int16 datapath (register description: "in INT16 Mode, should set
    // to TWO_BYTE"; NVIDIA's RTL asserts it on every enabled operand DMA).
    if (proc16) {
      const auto two_byte = [&](const SdpDmaCfg& d, const char* name) {
        if (d.enabled && d.data_bytes != 2) {
          out.push_back(std::string(name) + " DATA_SIZE is ONE_BYTE with PROC_PRECISION INT16: NVDLA reads 16-bit "
                                            "operands in int16 mode (register description; NVIDIA's RTL asserts it)");
        }
      };
      two_byte(brdma, "SDP_RDMA D_BRDMA_CFG");
      two_byte(nrdma, "SDP_RDMA D_NRDMA_CFG");
      two_byte(erdma, "SDP_RDMA D_ERDMA_CFG");
    }
  }
  // EQL compares: the output converter must pass the ALU's result through unchanged.
  if (eql_mode() && (cvt.offset != 0 || cvt.scale != 1 || cvt.shift != 0)) {
    out.push_back("EQL mode needs the output converter at offset 0, scale 1, shift 0 (got " +
                  std::to_string(cvt.offset) + ", " + std::to_string(cvt.scale) + ", " + std::to_string(cvt.shift) +
                  "; NVIDIA's C model asserts it)");
  }
  // A 1 x 1 cube is read and written as one contiguous run: NVDLA's SDP DMAs ignore the surface
  // strides there (its C model asserts them packed); the line strides are free (NVIDIA's own
  // sdp_1x1x1 trace).
  if ((ints || fp) && shape.w == 1 && shape.h == 1) {
    const auto packed = [&](const char* reg, uint64_t stride, uint64_t want) {
      if (stride != want) {
        out.push_back(std::string("a 1x1 cube must be surface-packed: NVDLA's SDP DMAs move it as one contiguous "
                                  "run and ignore ") +
                      reg + " (" + std::to_string(stride) + ", packed " + std::to_string(want) + ")");
      }
    };
    if (!flying) packed("SDP_RDMA D_SRC_SURFACE_STRIDE", src_surface_stride, static_cast<uint64_t>(atom_bytes));
    const auto operand = [&](const SdpDmaCfg& d, const char* reg) {
      if (d.enabled) packed(reg, d.surface_stride, static_cast<uint64_t>(proc_lanes_per_atom() * d.element_bytes()));
    };
    operand(brdma, "SDP_RDMA D_BS_SURFACE_STRIDE");
    operand(nrdma, "SDP_RDMA D_BN_SURFACE_STRIDE");
    operand(erdma, "SDP_RDMA D_EW_SURFACE_STRIDE");
    if (shape.n == 1 && !output_to_pdp && !eql_mode()) {
      packed("SDP D_DST_SURFACE_STRIDE", dst_surface_stride, static_cast<uint64_t>(atom_bytes));
    }
  }
  if (!flying && !(rdma_shape.w == shape.w && rdma_shape.h == shape.h && rdma_shape.c == shape.c)) {
    out.push_back("the SDP_RDMA cube " + std::to_string(rdma_shape.w) + "x" + std::to_string(rdma_shape.h) + "x" +
                  std::to_string(rdma_shape.c) + " differs from the SDP cube " + std::to_string(shape.w) + "x" +
                  std::to_string(shape.h) + "x" + std::to_string(shape.c) + " (W x H x C)");
  }
  auto check_src = [&](bool stage_active, bool src_mem, const SdpDmaCfg& dma, const char* stage, const char* dma_name) {
    if (!stage_active || !src_mem) return;
    if (!dma.enabled) {
      out.push_back(std::string(stage) + " takes its operand from memory but " + dma_name +
                    " is disabled (the hardware would wait for it forever)");
    } else if (dma.use == SdpDmaUse::Reserved) {
      out.push_back(std::string(dma_name) + ".DATA_USE is the reserved value 3");
    }
  };
  check_src(!bs.bypass && !bs.alu_bypass, bs.alu_src_mem, brdma, "BS ALU", "BRDMA");
  check_src(!bs.bypass && !bs.mul_bypass, bs.mul_src_mem, brdma, "BS MUL", "BRDMA");
  check_src(!bn.bypass && !bn.alu_bypass, bn.alu_src_mem, nrdma, "BN ALU", "NRDMA");
  check_src(!bn.bypass && !bn.mul_bypass, bn.mul_src_mem, nrdma, "BN MUL", "NRDMA");
  check_src(!ew.bypass && !ew.alu_bypass, ew.alu_src_mem, erdma, "EW ALU", "ERDMA");
  check_src(!ew.bypass && !ew.mul_bypass, ew.mul_src_mem, erdma, "EW MUL", "ERDMA");
  return out;
}

std::string sdp_describe(const SdpConfig& c) {
  auto algo = [](SdpAluAlgo a) {
    switch (a) {
      case SdpAluAlgo::Max: return "MAX";
      case SdpAluAlgo::Min: return "MIN";
      case SdpAluAlgo::Sum: return "SUM";
      default: return "EQL";
    }
  };
  auto src = [](bool mem) { return mem ? "mem" : "reg"; };
  auto x = [&](const char* name, const SdpXCfg& s) {
    if (s.bypass) return std::string(name) + " bypass";
    std::string t = std::string(name) + "[";
    t += s.alu_bypass ? "ALU bypass" : std::string("ALU ") + algo(s.alu_algo) + " " + src(s.alu_src_mem);
    t += s.mul_bypass ? ", MUL bypass" : std::string(", MUL ") + src(s.mul_src_mem) + (s.mul_prelu ? " PReLU" : "");
    t += ", shift " + std::to_string(s.mul_shift) + (s.relu_bypass ? "" : ", ReLU") + "]";
    return t;
  };
  std::string out = std::to_string(c.shape.w) + "x" + std::to_string(c.shape.h) + "x" + std::to_string(c.shape.c) +
                    " (WxHxC)" + (c.shape.n > 1 ? " x" + std::to_string(c.shape.n) + " batches" : "") + ", " +
                    precision_text(c.in_precision) + " -> " + precision_text(c.out_precision) +
                    (c.flying ? ", flying input" : ", memory input") + ", " + x("BS", c.bs) + ", " + x("BN", c.bn) + ", ";
  if (c.ew.bypass) {
    out += "EW bypass";
  } else {
    out += "EW[";
    out += c.ew.mul_bypass ? "MUL bypass" : std::string("MUL ") + src(c.ew.mul_src_mem) + (c.ew.mul_prelu ? " PReLU" : "");
    out += c.ew.alu_bypass ? ", ALU bypass" : std::string(", ALU ") + algo(c.ew.alu_algo) + " " + src(c.ew.alu_src_mem);
    out += c.ew.lut_bypass ? ", LUT bypass]" : ", LUT]";
  }
  out += ", CVT offset " + std::to_string(c.cvt.offset) + " scale " + std::to_string(c.cvt.scale) + " shift " +
         std::to_string(c.cvt.shift);
  if (c.eql_mode()) out += ", EQL mode (no write-back)";
  if (c.winograd) out += ", Winograd write order";
  if (c.output_to_pdp) out += ", output to PDP";
  return out;
}

// ---- stages -----------------------------------------------------------------------------------

int64_t sdp_x_stage(const SdpXCfg& c, int64_t in32, int64_t alu_op16, int64_t mul_op16) {
  if (c.bypass) return in32;
  // ALU on 33 bits (MAX/MIN/SUM; algo 3 is SUM in the RTL). Bypassed: the input, sign-extended.
  Wide a = in32;
  if (!c.alu_bypass) {
    const Wide op32 = shift_left_sat(alu_op16, c.alu_shift, 32);
    switch (c.alu_algo) {
      case SdpAluAlgo::Max: a = std::max<Wide>(a, op32); break;
      case SdpAluAlgo::Min: a = std::min<Wide>(a, op32); break;
      default: a = a + op32; break;
    }
  }
  int64_t v = 0;
  if (!c.mul_bypass && c.mul_prelu && a >= 0) {
    // PReLU pass-through: unmultiplied, no truncation, the low 32 bits of the 33-bit value.
    v = sign_extend(static_cast<uint64_t>(a), 32);
  } else {
    // MUL (33 x 16 -> 49 bits) or its bypass; the truncation runs either way.
    const Wide p = c.mul_bypass ? a : a * Wide{mul_op16};
    v = shift_right_sat(p, 49, c.mul_shift, 32);
  }
  if (!c.relu_bypass) v = std::max<int64_t>(v, 0);
  return v;
}

int64_t sdp_ew_cvt(const SdpCvtCfg& c, int64_t x16) {
  if (c.bypass) return x16;
  const Wide v = (Wide{x16} - Wide{c.offset}) * Wide{c.scale};  // 33 x 16 -> 49 bits
  return shift_right_sat(v, 49, c.truncate, 32);
}

SdpYResult sdp_y_stage(const SdpYCfg& c, const LutConfig& lut_cfg, const LutTables& tables, int64_t in32,
                       int64_t alu_op32, int64_t mul_op32) {
  SdpYResult r;
  r.value = in32;
  if (c.bypass) return r;
  int64_t v = in32;
  if (!c.mul_bypass && !(c.mul_prelu && v >= 0)) {
    const Wide p = Wide{v} * Wide{mul_op32};  // 32 x 32 -> 64 bits
    v = shift_right_sat(p, 64, c.truncate, 32);
  }
  if (!c.alu_bypass) {
    switch (c.alu_algo) {
      case SdpAluAlgo::Max: v = std::max(v, alu_op32); break;
      case SdpAluAlgo::Min: v = std::min(v, alu_op32); break;
      case SdpAluAlgo::Sum: v = sat(Wide{v} + Wide{alu_op32}, 32); break;
      case SdpAluAlgo::Eql: v = v == alu_op32 ? 0 : 1; break;
    }
  }
  if (!c.lut_bypass) {
    r.lut = lut_lookup(LutVariant::Sdp, lut_cfg, tables, v);
    v = r.lut->value;
  }
  r.value = v;
  return r;
}

SdpOutResult sdp_out_cvt(const SdpOutCvtCfg& c, int64_t in32, int out_bits) {
  const Wide v = (Wide{in32} - Wide{c.offset}) * Wide{c.scale};  // 33 x 16 -> 49 bits
  SdpOutResult r;
  const int64_t t = shift_right_sat_hls(v, 49, c.shift, 17, r.saturated);
  r.value = sat(t, out_bits);
  return r;
}

// ---- layer ------------------------------------------------------------------------------------

uint32_t sdp_fp16_operand(uint16_t op, bool nan_to_zero) {
  return fp::convert(fp::kFp16, fp::kFp32, nan_to_zero && fp::is_nan(fp::kFp16, op) ? 0u : op);
}

uint32_t sdp_x_stage_fp16(const SdpXCfg& c, uint32_t x32, uint16_t alu_op, uint16_t mul_op, bool nan_to_zero) {
  if (c.bypass) return x32;
  // Operands are fp16, flushed like the data, widened exactly; the data is the first operand.
  if (!c.alu_bypass) {
    const uint32_t op = sdp_fp16_operand(alu_op, nan_to_zero);
    switch (c.alu_algo) {
      case SdpAluAlgo::Max: x32 = fp::max(fp::kFp32, x32, op); break;
      case SdpAluAlgo::Min: x32 = fp::min(fp::kFp32, x32, op); break;
      default: x32 = fp::add(fp::kFp32, x32, op); break;  // EQL is refused in fp16 (unsupported())
    }
  }
  // PReLU passes a value with its sign bit clear (+0 and +NaN too) unmultiplied.
  if (!c.mul_bypass && !(c.mul_prelu && (x32 >> 31) == 0)) {
    x32 = fp::mul(fp::kFp32, x32, sdp_fp16_operand(mul_op, nan_to_zero));
  }
  if (!c.relu_bypass) x32 = fp::relu(fp::kFp32, x32);
  return x32;
}

SdpYResult sdp_y_stage_fp16(const SdpYCfg& c, const LutConfig& lut_cfg, const LutTables& tables, uint32_t x32,
                            uint32_t alu_op32, uint32_t mul_op32) {
  SdpYResult r;
  r.value = x32;
  if (c.bypass) return r;
  // MUL (or PReLU's pass of a value with its sign bit clear), then ALU with the data first.
  if (!c.mul_bypass && !(c.mul_prelu && (x32 >> 31) == 0)) x32 = fp::mul(fp::kFp32, x32, mul_op32);
  if (!c.alu_bypass) {
    switch (c.alu_algo) {
      case SdpAluAlgo::Max: x32 = fp::max(fp::kFp32, x32, alu_op32); break;
      case SdpAluAlgo::Min: x32 = fp::min(fp::kFp32, x32, alu_op32); break;
      case SdpAluAlgo::Sum: x32 = fp::add(fp::kFp32, x32, alu_op32); break;
      case SdpAluAlgo::Eql: x32 = x32 != alu_op32 ? 1u : 0u; break;  // the raw patterns: +0 != -0, NaN == itself
    }
  }
  if (!c.lut_bypass) {
    r.lut = lut_lookup_fp(LutVariant::Sdp, lut_cfg, tables, x32);
    x32 = static_cast<uint32_t>(r.lut->value);
  }
  r.value = x32;
  return r;
}

SdpOutResult sdp_fp16_out(const SdpConfig& c, uint32_t x32) {
  const uint32_t h = fp::convert(fp::kFp32, fp::kFp16, x32);
  SdpOutResult o;
  if (c.out_precision == SdpPrecision::Int16) {
    o.value = fp::to_int(fp::kFp16, h, 16);  // the converter's saturation flag stays 0 here
  } else {
    o.value = sign_extend(h, 16);
    o.saturated = (h & 0x7fffu) == fp::max_finite(fp::kFp16, 0);  // counts a genuine +-65504 too
  }
  return o;
}

FeatureLayout sdp_output_layout(const SdpConfig& c) {
  return FeatureLayout::strided(c.dst_base, c.dst_line_stride, c.dst_surface_stride, c.atom_bytes,
                                sdp_precision_bytes(c.out_precision), c.dst_batch_stride);
}

CubeShape sdp_output_shape(const SdpConfig& c) {
  // Whole output atoms, and whole PROC-lane groups: int8 -> int16 writes two int16 surfaces per
  // 32-lane group (NVIDIA's C model and RTL write DMA), so C rounds up to 32 there.
  CubeShape s = c.shape;
  s.c = ceil_to(c.shape.c, std::max(sdp_output_layout(c).channels_per_atom(), c.proc_lanes_per_atom()));
  return s;
}

SdpRun run_sdp(const SdpConfig& cfg, const LutTables& tables, const ByteReader& read, const ByteWriter& write,
               const Cube<int64_t>* flying_input) {
  if (const auto u = cfg.unsupported(); !u.empty()) {
    std::string msg = "SDP: cannot run this configuration: " + u.front();
    for (std::size_t i = 1; i < u.size(); ++i) msg += "; " + u[i];
    throw std::invalid_argument(msg);
  }
  if (cfg.flying && flying_input == nullptr) throw std::invalid_argument("SDP: flying mode needs the CACC input cube");

  // The datapath works in groups of PROC lanes: int16 -> int8 reads the int16 surfaces in pairs
  // (its last group's second surface too, beyond C), operands come in PROC-lane groups.
  const int proc_lanes = cfg.proc_lanes_per_atom();
  const int in_lanes = ceil_to(cfg.shape.c, std::max(cfg.lanes_per_atom(), proc_lanes));
  const CubeShape out_shape = sdp_output_shape(cfg);
  const int lanes = std::max(in_lanes, out_shape.c);
  const int out_bits = 8 * sdp_precision_bytes(cfg.out_precision);
  const bool eql = cfg.eql_mode();
  const bool fp = cfg.proc_precision == SdpPrecision::Fp16;

  // Input layout (MRDMA): every lane of every atom, padded lanes included.
  const FeatureLayout in_layout = FeatureLayout::strided(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride,
                                                         cfg.atom_bytes, sdp_precision_bytes(cfg.in_precision));

  const OperandReader bro(cfg.brdma, proc_lanes);
  const OperandReader nro(cfg.nrdma, proc_lanes);
  const OperandReader ero(cfg.erdma, proc_lanes);

  const bool bs_alu_mem = !cfg.bs.bypass && !cfg.bs.alu_bypass && cfg.bs.alu_src_mem;
  const bool bs_mul_mem = !cfg.bs.bypass && !cfg.bs.mul_bypass && cfg.bs.mul_src_mem;
  const bool bn_alu_mem = !cfg.bn.bypass && !cfg.bn.alu_bypass && cfg.bn.alu_src_mem;
  const bool bn_mul_mem = !cfg.bn.bypass && !cfg.bn.mul_bypass && cfg.bn.mul_src_mem;
  const bool ew_alu_mem = !cfg.ew.bypass && !cfg.ew.alu_bypass && cfg.ew.alu_src_mem;
  const bool ew_mul_mem = !cfg.ew.bypass && !cfg.ew.mul_bypass && cfg.ew.mul_src_mem;

  SdpRun run;
  run.output = Cube<int64_t>(out_shape);
  for (int n = 0; n < cfg.shape.n; ++n) {
    for (int c = 0; c < lanes; ++c) {
      for (int h = 0; h < cfg.shape.h; ++h) {
        for (int w = 0; w < cfg.shape.w; ++w) {
          if (fp) {
            // fp16: the fp32 word from CACC, or the fp16 from memory widened exactly.
            uint32_t x32 = 0;
            if (cfg.flying) {
              const CubeShape& fs = flying_input->shape();
              if (n < fs.n && c < fs.c && h < fs.h && w < fs.w)
                x32 = static_cast<uint32_t>(flying_input->at(n, c, h, w));
            } else if (c < in_lanes) {
              const uint32_t x16 = static_cast<uint32_t>(read_le(read, in_layout.address(n, c, h, w), 2)) & 0xffffu;
              if (cfg.rdma_perf_nan_inf_en && cfg.in_precision == SdpPrecision::Fp16) {
                if (fp::is_nan(fp::kFp16, x16)) run.stats.nan_input = sat_inc(run.stats.nan_input);
                if (fp::is_inf(fp::kFp16, x16)) run.stats.inf_input = sat_inc(run.stats.inf_input);
              }
              x32 = fp::convert(fp::kFp16, fp::kFp32, x16);
            }
            if (cfg.nan_to_zero && fp::is_nan(fp::kFp32, x32)) x32 = 0;
            const auto op16 = [](int64_t v) { return static_cast<uint16_t>(v); };
            x32 = sdp_x_stage_fp16(cfg.bs, x32, op16(bs_alu_mem ? bro.value(read, n, c, h, w, false) : cfg.bs.alu_operand),
                                   op16(bs_mul_mem ? bro.value(read, n, c, h, w, true) : cfg.bs.mul_operand),
                                   cfg.nan_to_zero);
            x32 = sdp_x_stage_fp16(cfg.bn, x32, op16(bn_alu_mem ? nro.value(read, n, c, h, w, false) : cfg.bn.alu_operand),
                                   op16(bn_mul_mem ? nro.value(read, n, c, h, w, true) : cfg.bn.mul_operand),
                                   cfg.nan_to_zero);
            // EW: memory operands are fp16 (flushed, widened), register operands fp32 as written.
            const auto ew_op = [&](bool mem, bool mul, int32_t reg) {
              return mem ? sdp_fp16_operand(op16(ero.value(read, n, c, h, w, mul)), cfg.nan_to_zero)
                         : static_cast<uint32_t>(reg);
            };
            const SdpYResult y = sdp_y_stage_fp16(cfg.ew, cfg.lut, tables, x32, ew_op(ew_alu_mem, false, cfg.ew.alu_operand),
                                                  ew_op(ew_mul_mem, true, cfg.ew.mul_operand));
            if (y.lut && cfg.perf_lut_en) accumulate(LutVariant::Sdp, run.stats.lut, *y.lut);
            x32 = static_cast<uint32_t>(y.value);
            if (eql) {
              // EQL writes nothing; any 1 sets D_STATUS.STATUS_UNEQUAL.
              if (x32 != 0) run.stats.unequal = true;
              ++run.stats.elements;
              if (c < out_shape.c) run.output.at(n, c, h, w) = static_cast<int64_t>(x32);
              continue;
            }
            const SdpOutResult o = sdp_fp16_out(cfg, x32);
            if (cfg.perf_nan_inf_en && cfg.out_precision == SdpPrecision::Fp16 &&
                fp::is_nan(fp::kFp16, static_cast<uint32_t>(o.value) & 0xffffu)) {
              run.stats.nan_output = sat_inc(run.stats.nan_output);
            }
            if (o.saturated && cfg.perf_sat_en) run.stats.out_saturation = sat_inc(run.stats.out_saturation);
            ++run.stats.elements;
            if (c < out_shape.c) run.output.at(n, c, h, w) = o.value;
            continue;
          }
          int64_t x = 0;
          if (cfg.flying) {
            const CubeShape& fs = flying_input->shape();
            if (n < fs.n && c < fs.c && h < fs.h && w < fs.w) {
              x = sign_extend(static_cast<uint64_t>(flying_input->at(n, c, h, w)), 32);
            }
          } else if (c < in_lanes) {
            x = read_le(read, in_layout.address(n, c, h, w), in_layout.bpe);
          }
          // X1 (BS), X2 (BN)
          x = sdp_x_stage(cfg.bs, x, bs_alu_mem ? bro.value(read, n, c, h, w, false) : cfg.bs.alu_operand,
                          bs_mul_mem ? bro.value(read, n, c, h, w, true) : cfg.bs.mul_operand);
          x = sdp_x_stage(cfg.bn, x, bn_alu_mem ? nro.value(read, n, c, h, w, false) : cfg.bn.alu_operand,
                          bn_mul_mem ? nro.value(read, n, c, h, w, true) : cfg.bn.mul_operand);
          // Y (EW): DMA operands go through the input converters, register operands do not.
          const int64_t ew_alu =
              ew_alu_mem ? sdp_ew_cvt(cfg.ew.alu_cvt, ero.value(read, n, c, h, w, false)) : cfg.ew.alu_operand;
          const int64_t ew_mul =
              ew_mul_mem ? sdp_ew_cvt(cfg.ew.mul_cvt, ero.value(read, n, c, h, w, true)) : cfg.ew.mul_operand;
          const SdpYResult y = sdp_y_stage(cfg.ew, cfg.lut, tables, x, ew_alu, ew_mul);
          if (y.lut && cfg.perf_lut_en) accumulate(LutVariant::Sdp, run.stats.lut, *y.lut);
          // C
          int64_t out = 0;
          if (eql) {
            out = sign_extend(static_cast<uint64_t>(y.value), 16);
            if (out != 0) run.stats.unequal = true;
          } else {
            const SdpOutResult o = sdp_out_cvt(cfg.cvt, y.value, out_bits);
            if (o.saturated && cfg.perf_sat_en) run.stats.out_saturation = sat_inc(run.stats.out_saturation);
            out = o.value;
          }
          ++run.stats.elements;
          if (c < out_shape.c) run.output.at(n, c, h, w) = out;
        }
      }
    }
  }
  run.wrote_memory = !eql && !cfg.output_to_pdp;
  if (run.wrote_memory) store_cube(sdp_output_layout(cfg), run.output, write);
  return run;
}

}  // namespace dla::golden
