// `dlacosim bench conv`: direct-convolution utilization of the RTL (docs/CONV_RTL.md).
#include "units/conv_bench.hpp"

#include <fmt/format.h>

#include <map>
#include <span>

#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/rtl_devices.hpp"
#include "units/units.hpp"

namespace dla::harness::units {

namespace {

using golden::ConvConfig;
using golden::ConvParams;
using golden::HwConfig;
namespace regs = golden::regs;

using Words = std::map<uint32_t, uint32_t>;  // block offset -> word

template <class F>
void put(Words& m, uint32_t offset, F f, int64_t v) {
  m[offset] |= regs::place(static_cast<uint32_t>(v), f);
}

// Register words of the conv blocks and of SDP (flying, every stage bypassed, unit converter),
// from docs/CONV.md §2 and conv-pipeline.md §7.
std::map<std::string, Words> encode(const ConvConfig& c, const HwConfig& hw, uint64_t out_base,
                                    const golden::FeatureLayout& out) {
  const int prec = c.precision == golden::Precision::Int16 ? 1 : 0;
  namespace cd = regs::cdma;
  namespace cs = regs::csc;
  namespace ca = regs::cacc;
  namespace sd = regs::sdp;
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  std::map<std::string, Words> w;
  // precision fields always written: their reset value is INT16
  Words& cdma = w["CDMA"];
  put(cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::IN_PRECISION{}, prec);
  put(cdma, cd::D_MISC_CFG::offset, cd::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_WIDTH{}, c.input.w - 1);
  put(cdma, cd::D_DATAIN_SIZE_0::offset, cd::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}, c.input.h - 1);
  put(cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, c.input.w - 1);
  put(cdma, cd::D_DATAIN_SIZE_EXT_0::offset, cd::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, c.input.h - 1);
  put(cdma, cd::D_DATAIN_SIZE_1::offset, cd::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}, c.input.c - 1);
  put(cdma, cd::D_DAIN_ADDR_HIGH_0::offset, cd::D_DAIN_ADDR_HIGH_0::DATAIN_ADDR_HIGH_0{},
      static_cast<int64_t>(c.in_layout.base >> 32));
  put(cdma, cd::D_DAIN_ADDR_LOW_0::offset, cd::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{},
      static_cast<int64_t>(c.in_layout.base & 0xffffffffu));
  put(cdma, cd::D_DAIN_RAM_TYPE::offset, cd::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{}, 1);
  put(cdma, cd::D_LINE_STRIDE::offset, cd::D_LINE_STRIDE::LINE_STRIDE{}, static_cast<int64_t>(c.in_layout.line_stride));
  put(cdma, cd::D_SURF_STRIDE::offset, cd::D_SURF_STRIDE::SURF_STRIDE{},
      static_cast<int64_t>(c.in_layout.surface_stride));
  put(cdma, cd::D_ENTRY_PER_SLICE::offset, cd::D_ENTRY_PER_SLICE::ENTRIES{}, d.entries_per_slice - 1);
  put(cdma, cd::D_WEIGHT_SIZE_0::offset, cd::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}, d.byte_per_kernel - 1);
  put(cdma, cd::D_WEIGHT_SIZE_1::offset, cd::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}, c.kernels - 1);
  put(cdma, cd::D_WEIGHT_RAM_TYPE::offset, cd::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE{}, 1);
  put(cdma, cd::D_WEIGHT_ADDR_HIGH::offset, cd::D_WEIGHT_ADDR_HIGH::WEIGHT_ADDR_HIGH{},
      static_cast<int64_t>(c.weight_base >> 32));
  put(cdma, cd::D_WEIGHT_ADDR_LOW::offset, cd::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{},
      static_cast<int64_t>(c.weight_base & 0xffffffffu));
  put(cdma, cd::D_WEIGHT_BYTES::offset, cd::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(d.weight_bytes));
  put(cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_EN{}, c.cvt.enabled ? 1 : 0);
  put(cdma, cd::D_CVT_CFG::offset, cd::D_CVT_CFG::CVT_TRUNCATE{}, c.cvt.truncate);
  put(cdma, cd::D_CVT_OFFSET::offset, cd::D_CVT_OFFSET::CVT_OFFSET{}, c.cvt.offset);
  put(cdma, cd::D_CVT_SCALE::offset, cd::D_CVT_SCALE::CVT_SCALE{}, c.cvt.scale);
  put(cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_X_STRIDE{}, c.stride_x - 1);
  put(cdma, cd::D_CONV_STRIDE::offset, cd::D_CONV_STRIDE::CONV_Y_STRIDE{}, c.stride_y - 1);
  put(cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_LEFT{}, c.pad_left);
  put(cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_RIGHT{}, c.pad_right);
  put(cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_TOP{}, c.pad_top);
  put(cdma, cd::D_ZERO_PADDING::offset, cd::D_ZERO_PADDING::PAD_BOTTOM{}, c.pad_bottom);
  put(cdma, cd::D_ZERO_PADDING_VALUE::offset, cd::D_ZERO_PADDING_VALUE::PAD_VALUE{}, c.pad_value);
  const int data_banks = d.data_banks_min, weight_banks = d.weight_banks_min;
  put(cdma, cd::D_BANK::offset, cd::D_BANK::DATA_BANK{}, data_banks - 1);
  put(cdma, cd::D_BANK::offset, cd::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  Words& csc = w["CSC"];
  put(csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::IN_PRECISION{}, prec);
  put(csc, cs::D_MISC_CFG::offset, cs::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}, c.input.w - 1);
  put(csc, cs::D_DATAIN_SIZE_EXT_0::offset, cs::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}, c.input.h - 1);
  put(csc, cs::D_DATAIN_SIZE_EXT_1::offset, cs::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}, c.input.c - 1);
  put(csc, cs::D_ENTRY_PER_SLICE::offset, cs::D_ENTRY_PER_SLICE::ENTRIES{}, d.entries_per_slice - 1);
  put(csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{}, c.kernel_w - 1);
  put(csc, cs::D_WEIGHT_SIZE_EXT_0::offset, cs::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{}, c.kernel_h - 1);
  put(csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}, c.input.c - 1);
  put(csc, cs::D_WEIGHT_SIZE_EXT_1::offset, cs::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}, c.kernels - 1);
  put(csc, cs::D_WEIGHT_BYTES::offset, cs::D_WEIGHT_BYTES::WEIGHT_BYTES{}, static_cast<int64_t>(d.weight_bytes));
  put(csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, c.output.w - 1);
  put(csc, cs::D_DATAOUT_SIZE_0::offset, cs::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, c.output.h - 1);
  put(csc, cs::D_DATAOUT_SIZE_1::offset, cs::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, c.kernels - 1);
  put(csc, cs::D_ATOMICS::offset, cs::D_ATOMICS::ATOMICS{}, d.atomics - 1);
  put(csc, cs::D_RELEASE::offset, cs::D_RELEASE::RLS_SLICES{}, c.input.h - 1);
  put(csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{}, c.stride_x - 1);
  put(csc, cs::D_CONV_STRIDE_EXT::offset, cs::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{}, c.stride_y - 1);
  put(csc, cs::D_DILATION_EXT::offset, cs::D_DILATION_EXT::X_DILATION_EXT{}, c.dilation_x - 1);
  put(csc, cs::D_DILATION_EXT::offset, cs::D_DILATION_EXT::Y_DILATION_EXT{}, c.dilation_y - 1);
  put(csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_LEFT{}, c.pad_left);
  put(csc, cs::D_ZERO_PADDING::offset, cs::D_ZERO_PADDING::PAD_TOP{}, c.pad_top);
  put(csc, cs::D_ZERO_PADDING_VALUE::offset, cs::D_ZERO_PADDING_VALUE::PAD_VALUE{}, c.pad_value);
  put(csc, cs::D_BANK::offset, cs::D_BANK::DATA_BANK{}, data_banks - 1);
  put(csc, cs::D_BANK::offset, cs::D_BANK::WEIGHT_BANK{}, weight_banks - 1);

  put(w["CMAC_A"], regs::cmac_a::D_MISC_CFG::offset, regs::cmac_a::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(w["CMAC_B"], regs::cmac_b::D_MISC_CFG::offset, regs::cmac_b::D_MISC_CFG::PROC_PRECISION{}, prec);
  Words& cacc = w["CACC"];
  put(cacc, ca::D_MISC_CFG::offset, ca::D_MISC_CFG::PROC_PRECISION{}, prec);
  put(cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}, c.output.w - 1);
  put(cacc, ca::D_DATAOUT_SIZE_0::offset, ca::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}, c.output.h - 1);
  put(cacc, ca::D_DATAOUT_SIZE_1::offset, ca::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}, c.kernels - 1);
  put(cacc, ca::D_CLIP_CFG::offset, ca::D_CLIP_CFG::CLIP_TRUNCATE{}, c.clip_truncate);

  Words& sdp = w["SDP"];
  put(sdp, sd::D_FEATURE_MODE_CFG::offset, sd::D_FEATURE_MODE_CFG::FLYING_MODE{}, 1);
  put(sdp, sd::D_DATA_CUBE_WIDTH::offset, sd::D_DATA_CUBE_WIDTH::WIDTH{}, c.output.w - 1);
  put(sdp, sd::D_DATA_CUBE_HEIGHT::offset, sd::D_DATA_CUBE_HEIGHT::HEIGHT{}, c.output.h - 1);
  put(sdp, sd::D_DATA_CUBE_CHANNEL::offset, sd::D_DATA_CUBE_CHANNEL::CHANNEL{}, c.kernels - 1);
  put(sdp, sd::D_DST_BASE_ADDR_LOW::offset, sd::D_DST_BASE_ADDR_LOW::DST_BASE_ADDR_LOW{},
      static_cast<int64_t>(out_base & 0xffffffffu));
  put(sdp, sd::D_DST_LINE_STRIDE::offset, sd::D_DST_LINE_STRIDE::DST_LINE_STRIDE{},
      static_cast<int64_t>(out.line_stride));
  put(sdp, sd::D_DST_SURFACE_STRIDE::offset, sd::D_DST_SURFACE_STRIDE::DST_SURFACE_STRIDE{},
      static_cast<int64_t>(out.surface_stride));
  put(sdp, sd::D_DATA_FORMAT::offset, sd::D_DATA_FORMAT::PROC_PRECISION{}, prec);
  put(sdp, sd::D_DATA_FORMAT::offset, sd::D_DATA_FORMAT::OUT_PRECISION{}, prec);
  put(sdp, sd::D_DST_DMA_CFG::offset, sd::D_DST_DMA_CFG::DST_RAM_TYPE{}, 1);
  put(sdp, sd::D_DP_BS_CFG::offset, sd::D_DP_BS_CFG::BS_BYPASS{}, 1);
  put(sdp, sd::D_DP_BN_CFG::offset, sd::D_DP_BN_CFG::BN_BYPASS{}, 1);
  put(sdp, sd::D_DP_EW_CFG::offset, sd::D_DP_EW_CFG::EW_BYPASS{}, 1);
  put(sdp, sd::D_CVT_SCALE::offset, sd::D_CVT_SCALE::CVT_SCALE{}, 1);
  return w;
}

uint32_t block_base(const HwConfig& hw, const std::string& block) {
  const RegBlock* b = RegDb::nvdla().block(block);
  if (b == nullptr) throw std::logic_error("conv bench: no block " + block);
  return hw.name == "nv_full" ? b->base_full.value_or(0) : b->base_small;
}

}  // namespace

ConvParams conv_bench_layer() {
  ConvParams p;
  p.w = 32;
  p.h = 16;
  p.c = 32;
  p.k = 16;
  p.r = 3;
  p.s = 3;
  p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
  p.clip_truncate = 9;
  return p;
}

ConvBenchResult measure_conv(const HwConfig& hw, const ConvParams& p, uint64_t seed, double stall, int rand_reset) {
  constexpr uint64_t kIn = 0x100000, kWt = 0x400000, kOut = 0x800000;
  ConvBenchResult res;
  res.config = hw.name;
  res.params = p;
  ConvConfig c = golden::conv_config_from(p, hw, kIn, kWt);
  Rng rng = Rng::derive(seed, "conv.bench");
  const bool i16 = p.precision == golden::Precision::Int16;
  c.pad_value = static_cast<int32_t>(i16 ? rng.range(-32768, 32767) : rng.range(-128, 127));
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CubeShape oshape{1, c.kernels, c.output.h, c.output.w};
  const golden::FeatureLayout out = golden::FeatureLayout::packed(oshape, hw.atom_bytes, i16 ? 2 : 1, kOut);
  const int ak = hw.atomic_k(p.precision);
  res.atomic_ops = static_cast<uint64_t>(d.kernel_groups) * static_cast<uint64_t>(d.atomics) *
                   static_cast<uint64_t>(d.channel_blocks) * static_cast<uint64_t>(c.kernel_h * c.kernel_w);
  res.ideal_cycles = static_cast<uint64_t>(d.atomics) * static_cast<uint64_t>(c.kernels) *
                     static_cast<uint64_t>(c.input.c) * static_cast<uint64_t>(c.kernel_h * c.kernel_w) /
                     static_cast<uint64_t>(hw.atomic_c * ak);

  RunOptions o;
  o.seed = seed;
  o.stall = stall;
  o.sim.seed = seed;
  o.sim.rand_reset = rand_reset;
  o.sim.watchdog = 200000;
  std::string why;
  std::unique_ptr<Device> rtl = make_nvdla_core_device({"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP"}, hw, o, why);
  if (!rtl) throw std::logic_error("conv bench: " + why);
  GoldenDevice gold(hw);
  Device* devs[] = {rtl.get(), &gold};

  const uint64_t in_bytes = c.in_layout.region_bytes(c.input);
  std::vector<uint8_t> bytes(in_bytes + d.weight_bytes);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng.next());
  for (Device* dev : devs) {
    dev->memory().write(kIn, std::span(bytes.data(), in_bytes));
    dev->memory().write(kWt, std::span(bytes.data() + in_bytes, d.weight_bytes));
    for (const auto& [block, words] : encode(c, hw, kOut, out)) {
      const uint32_t base = block_base(hw, block);
      for (const auto& [off, v] : words) dev->reg_write(base + off, v);
    }
  }
  uint64_t t0 = 0;
  for (Device* dev : devs) {
    for (const char* block : {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) {
      dev->reg_write(block_base(hw, block) + (std::string(block) == "CDMA" ? regs::cdma::D_OP_ENABLE::offset
                                              : std::string(block) == "SDP" ? regs::sdp::D_OP_ENABLE::offset
                                                                              : regs::cacc::D_OP_ENABLE::offset),
                     1);
    }
    if (dev == rtl.get()) t0 = rtl->cycles();
  }
  const uint64_t timeout = 50'000'000;
  WaitResult w = rtl->wait_interrupt("CDMA_DAT_0", timeout);
  const uint64_t t_dat = rtl->cycles();
  if (w.raised) w = rtl->wait_interrupt("CACC_0", timeout);
  const uint64_t t_cacc = rtl->cycles();
  if (w.raised) w = rtl->wait_interrupt("SDP_0", timeout);
  const uint64_t t_sdp = rtl->cycles();
  if (!w.raised) {
    res.detail = "RTL: " + w.detail;
    return res;
  }
  const WaitResult g = gold.wait_interrupt("SDP_0", timeout);
  if (!g.raised) {
    res.detail = "golden: " + g.detail;
    return res;
  }
  res.cycles_layer = t_cacc - t0;
  res.cycles_compute = t_cacc - t_dat;
  res.cycles_to_sdp = t_sdp - t0;
  const uint64_t out_bytes = out.region_bytes(oshape);
  const auto a = rtl->memory().read(kOut, out_bytes);
  const auto b = gold.memory().read(kOut, out_bytes);
  const uint32_t sat_reg = block_base(hw, "CACC") + regs::cacc::D_OUT_SATURATION::offset;
  res.out_saturation_rtl = rtl->reg_read(sat_reg);
  res.out_saturation_golden = gold.reg_read(sat_reg);
  res.outputs_equal = a == b;
  if (!res.outputs_equal) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i] ? 1 : 0;
    res.detail = fmt::format("{} of {} output bytes differ from the golden device", n, a.size());
  }
  rtl->finish();
  return res;
}

std::string bench_conv(const BenchOptions& opt) {
  std::string out;
  struct Case {
    const golden::HwConfig& hw;
    const char* what;
    golden::ConvParams p;
  };
  std::vector<Case> cases;
  const golden::ConvParams ref = conv_bench_layer();
  cases.push_back({golden::nv_small(), "issue reference layer", ref});
  golden::ConvParams p = ref;
  p.c = 64;
  p.k = 32;
  cases.push_back({golden::nv_small(), "C 64, K 32", p});
  p.c = 128;
  p.k = 64;
  cases.push_back({golden::nv_full(), "int8, C 128, K 64", p});
  p.c = 64;
  p.k = 32;
  p.precision = golden::Precision::Int16;
  cases.push_back({golden::nv_full(), "int16, C 64, K 32", p});
  for (const Case& cs : cases) {
    const ConvBenchResult r = measure_conv(cs.hw, cs.p, opt.seed, 0.0);
    const int ak = cs.hw.atomic_k(cs.p.precision);
    out += fmt::format(
        "conv {} {} ({}x{}x{} -> {}x{}x{}, {}x{} kernel, pad 1): ideal {} cycles (MACs / ({} x {})), "
        "{} atomic ops\n"
        "  layer (OP_EN -> CACC done, CBUF loading included): {} cycles, utilization {:.1f}%\n"
        "  compute (input in CBUF -> CACC done):              {} cycles, utilization {:.1f}%\n"
        "  OP_EN -> SDP done: {} cycles; output {}\n",
        cs.hw.name, cs.what, cs.p.w, cs.p.h, cs.p.c, cs.p.w, cs.p.h, cs.p.k, cs.p.s, cs.p.r, r.ideal_cycles,
        cs.hw.atomic_c, ak, r.atomic_ops, r.cycles_layer, 100.0 * r.util_layer(), r.cycles_compute,
        100.0 * r.util_compute(), r.cycles_to_sdp,
        r.outputs_equal ? "equals the golden device" : "DIFFERS: " + r.detail);
  }
  return out;
}

}  // namespace dla::harness::units
