// `dlacosim bench conv`: convolution utilization of the RTL, direct (docs/CONV_RTL.md) and
// Winograd against direct on nv_full (docs/WINOGRAD.md "Bench").
#include "engines/conv/harness/conv_bench.hpp"

#include <chrono>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <span>

#include "engines/conv/golden/conv_wfold.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/conv/harness/conv.hpp"
#include "harness/bench.hpp"

namespace dla::harness::engines {

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

// Register words of the conv blocks (the `conv` layer compiler's, engines/conv/harness/conv.hpp) and of
// SDP (flying, every stage bypassed, unit converter), from conv-pipeline.md §7.
std::map<std::string, Words> encode(const ConvConfig& c, const HwConfig& hw, uint64_t out_base,
                                    const golden::FeatureLayout& out) {
  const auto prec = static_cast<int>(golden::precision_code(c.precision));
  namespace sd = regs::sdp;
  std::map<std::string, Words> w = conv_register_words(c, hw, conv_bank_split(c, hw), out);
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
  put(sdp, sd::D_PERF_ENABLE::offset, sd::D_PERF_ENABLE::PERF_DMA_EN{}, 1);
  put(w["CDMA"], regs::cdma::D_PERF_ENABLE::offset, regs::cdma::D_PERF_ENABLE::DMA_EN{}, 1);
  if (c.precision == golden::Precision::Fp16) {
    // SDP_RDMA's operand streams read nothing here; in fp16 an enabled one (their reset) would have
    // to be two bytes wide (the golden rule, which the RTL device's guard applies)
    namespace rr = regs::sdp_rdma;
    Words& rdma = w["SDP_RDMA"];
    put(rdma, rr::D_BRDMA_CFG::offset, rr::D_BRDMA_CFG::BRDMA_DISABLE{}, 1);
    put(rdma, rr::D_NRDMA_CFG::offset, rr::D_NRDMA_CFG::NRDMA_DISABLE{}, 1);
    put(rdma, rr::D_ERDMA_CFG::offset, rr::D_ERDMA_CFG::ERDMA_DISABLE{}, 1);
  }
  return w;
}

uint32_t block_base(const HwConfig& hw, const std::string& block) {
  const RegBlock* b = RegDb::nvdla().block(block);
  if (b == nullptr) throw std::logic_error("conv bench: no block " + block);
  return hw.nvdlav1_map ? b->base_full.value_or(0) : b->base_small;
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

golden::ConvParams conv_bench_wino_layer() {
  ConvParams p = conv_bench_layer();
  p.h = 32;
  p.c = 64;
  p.k = 128;
  p.precision = golden::Precision::Int16;
  p.clip_truncate = 12;
  return p;
}

ConvBenchMode conv_bench_wino_mode(bool winograd, bool rtl) {
  ConvBenchMode m;
  m.mode = winograd ? golden::ConvMode::Winograd : golden::ConvMode::Direct;
  m.data_max = 2000;
  m.weight_max = 1000;
  m.rtl = rtl;
  return m;
}

ConvBenchResult measure_conv(const HwConfig& hw, const ConvParams& p, uint64_t seed, double stall, int rand_reset,
                             const ConvBenchMode& m) {
  constexpr uint64_t kIn = 0x100000, kWt = 0x400000, kOut = 0x800000;
  ConvBenchResult res;
  res.config = hw.name;
  res.params = p;
  res.mode = m.mode;
  const bool wino = m.mode == golden::ConvMode::Winograd;
  const bool values = m.data_max > 0;  // logical values (else random bytes)
  if (wino && (!values || m.weight_max <= 0)) {
    throw std::invalid_argument("conv bench: Winograd needs data_max and weight_max (values its scheme can carry)");
  }
  Rng rng = Rng::derive(seed, "conv.bench");
  const bool i16 = p.precision != golden::Precision::Int8;  // int16 and fp16: two bytes
  ConvParams q = p;
  q.pad_value = static_cast<int32_t>(values ? rng.range(-m.data_max - 1, m.data_max)
                                            : (i16 ? rng.range(-32768, 32767) : rng.range(-128, 127)));
  golden::Cube<int64_t> x(golden::CubeShape{1, p.c, p.h, p.w}), wt(golden::CubeShape{p.k, p.c, p.r, p.s});
  // fp16 values: either sign, magnitudes in [1/8, 4) (the integer bounds do not apply)
  const auto fp16_value = [&] { return (rng.range(0, 1) << 15) | (rng.range(12, 16) << 10) | rng.range(0, 0x3ff); };
  const bool f16 = p.precision == golden::Precision::Fp16;
  if (values && f16) {
    q.pad_value = static_cast<int32_t>(fp16_value());
    for (auto& v : x.data()) v = fp16_value();
    for (auto& v : wt.data()) v = fp16_value();
  } else if (values) {
    for (auto& v : x.data()) v = rng.range(-m.data_max - 1, m.data_max);
    for (auto& v : wt.data()) v = rng.range(-m.weight_max, m.weight_max);
  }
  std::optional<golden::WinoLayer> wl;
  if (wino) {
    wl = golden::wino_compile(q, wt, m.scheme, m.pra_truncate, hw, kIn, kWt);
    if (!wl->problems.empty()) throw std::invalid_argument("conv bench: " + wl->problems.front().text);
  }
  const ConvConfig c = wino ? wl->cfg : golden::conv_config_from(q, hw, kIn, kWt);
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CubeShape oshape{1, c.kernels, c.output.h, c.output.w};
  const golden::FeatureLayout out = golden::FeatureLayout::packed(oshape, hw.atom_bytes, i16 ? 2 : 1, kOut);
  const int ak = hw.atomic_k(p.precision);
  res.macs = static_cast<uint64_t>(c.output.w * c.output.h) * static_cast<uint64_t>(c.kernels) *
             static_cast<uint64_t>(c.input.c) * static_cast<uint64_t>(c.kernel_h * c.kernel_w);
  // Winograd: D_ATOMICS counts output points; one atomic operation per 2x2 tile and channel group.
  res.atomic_ops = static_cast<uint64_t>(d.kernel_groups) * static_cast<uint64_t>(wino ? d.atomics / 4 : d.atomics) *
                   static_cast<uint64_t>(d.channel_blocks) * static_cast<uint64_t>(wino ? 1 : c.kernel_h * c.kernel_w);
  res.ideal_cycles = wino ? res.atomic_ops : res.macs / static_cast<uint64_t>(hw.atomic_c * ak);

  RunOptions o;
  o.seed = seed;
  o.stall = stall;
  o.sim.seed = seed;
  o.sim.rand_reset = rand_reset;
  o.sim.watchdog = 200000;
  o.mem = m.mem;
  std::string why;
  std::unique_ptr<Device> rtl;
  if (m.rtl) {
    rtl = make_nvdla_core_device({"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP"}, hw, o, why);
    if (!rtl) throw std::logic_error("conv bench: " + why);
  }
  GoldenDevice gold(hw);
  std::vector<Device*> devs = {&gold};
  if (rtl) devs.insert(devs.begin(), rtl.get());

  // Memory: the input cube and the weights (random bytes, or the values in their layouts; the
  // pre-transformed image in Winograd mode).
  const uint64_t in_bytes = c.in_layout.region_bytes(c.input);
  res.layer_bytes = in_bytes + d.weight_bytes + out.region_bytes(oshape);
  std::vector<uint8_t> bytes(in_bytes + d.weight_bytes);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng.next());
  if (values) {
    const auto img = golden::store_cube_bytes(c.in_layout, x, 0);
    std::copy(img.begin(), img.end(), bytes.begin());
  }
  if (wino) {
    std::copy(wl->weights.begin(), wl->weights.end(), bytes.begin() + static_cast<std::ptrdiff_t>(in_bytes));
  } else if (values) {
    golden::store_weights(c.weight_layout(), wt, 0, [&](uint64_t a, uint8_t v) { bytes[in_bytes + a] = v; });
  }
  std::map<std::string, Words> program = encode(c, hw, kOut, out);
  if (wino) apply_wino_regs(program, wl->regs);
  for (Device* dev : devs) {
    dev->memory().write(kIn, std::span(bytes.data(), in_bytes));
    dev->memory().write(kWt, std::span(bytes.data() + in_bytes, d.weight_bytes));
    for (const auto& [block, words] : program) {
      const uint32_t base = block_base(hw, block);
      for (const auto& [off, v] : words) dev->reg_write(base + off, v);
    }
  }
  uint64_t t0 = 0;
  for (Device* dev : devs) {
    // As the firmware: CBUF's flush after reset first, so the cycles counted are the layer's.
    const uint32_t done = regs::cdma::S_CBUF_FLUSH_STATUS::FLUSH_DONE::mask;
    (void)poll_register(*dev, block_base(hw, "CDMA") + regs::cdma::S_CBUF_FLUSH_STATUS::offset, done, done, kPollReads);
    for (const char* block : {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) {
      dev->reg_write(block_base(hw, block) + (std::string(block) == "CDMA" ? regs::cdma::D_OP_ENABLE::offset
                                              : std::string(block) == "SDP" ? regs::sdp::D_OP_ENABLE::offset
                                                                              : regs::cacc::D_OP_ENABLE::offset),
                     1);
    }
    if (dev == rtl.get()) t0 = rtl->cycles();
  }
  const uint64_t timeout = 50'000'000;
  const uint64_t out_bytes = out.region_bytes(oshape);
  if (!rtl) {
    const WaitResult g = gold.wait_interrupt("SDP_0", timeout);
    if (!g.raised) res.detail = "golden: " + g.detail;
    res.golden_output = gold.memory().read(kOut, out_bytes);
    return res;
  }
  const auto wall0 = std::chrono::steady_clock::now();
  WaitResult w = rtl->wait_interrupt("CDMA_DAT_0", timeout);
  const uint64_t t_dat = rtl->cycles();
  if (w.raised) w = rtl->wait_interrupt("CACC_0", timeout);
  const uint64_t t_cacc = rtl->cycles();
  if (w.raised) w = rtl->wait_interrupt("SDP_0", timeout);
  const uint64_t t_sdp = rtl->cycles();
  res.rtl_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
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
  res.cycles_data = t_dat - t0;
  res.cycles_to_sdp = t_sdp - t0;
  const auto a = rtl->memory().read(kOut, out_bytes);
  const auto b = gold.memory().read(kOut, out_bytes);
  res.golden_output = b;
  const uint32_t sat_reg = block_base(hw, "CACC") + regs::cacc::D_OUT_SATURATION::offset;
  res.out_saturation_rtl = rtl->reg_read(sat_reg);
  res.out_saturation_golden = gold.reg_read(sat_reg);
  res.outputs_equal = a == b;
  const uint32_t cdma = block_base(hw, "CDMA");
  res.cdma_dat_stall = rtl->reg_read(cdma + regs::cdma::D_PERF_DAT_READ_STALL::offset);
  res.cdma_wt_stall = rtl->reg_read(cdma + regs::cdma::D_PERF_WT_READ_STALL::offset);
  res.cdma_dat_latency = rtl->reg_read(cdma + regs::cdma::D_PERF_DAT_READ_LATENCY::offset);
  res.cdma_wt_latency = rtl->reg_read(cdma + regs::cdma::D_PERF_WT_READ_LATENCY::offset);
  res.sdp_wr_stall = rtl->reg_read(block_base(hw, "SDP") + regs::sdp::D_PERF_WDMA_WRITE_STALL::offset);
  res.dma = rtl->dma_traffic();
  if (!res.outputs_equal) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i] ? 1 : 0;
    res.detail = fmt::format("{} of {} output bytes differ from the golden device", n, a.size());
  }
  rtl->finish();
  return res;
}

namespace {

// One bench case from a measured layer. `macs`: the direct-equivalent MACs (Winograd's own count
// is of transformed operands).
BenchCase conv_case(const golden::HwConfig& hw, std::string name, const ConvBenchResult& r, uint64_t macs,
                    const MemOptions& mem) {
  BenchCase c;
  c.unit = "conv";
  c.config = hw.name;
  c.name = std::move(name);
  c.element = "MAC";
  c.cycles = r.cycles_layer;
  c.elements = macs;
  // NVDLA: direct ATOMIC_C x ATOMIC_K MACs per cycle; Winograd one atomic operation per cycle,
  // i.e. macs / ideal cycles; both capped by the interface for the layer's bytes.
  const bool wino = r.mode == golden::ConvMode::Winograd;
  const double throughput = wino ? static_cast<double>(macs) / static_cast<double>(r.ideal_cycles)
                                 : static_cast<double>(hw.atomic_c * hw.atomic_k(r.params.precision));
  c.nvdla_elements_per_cycle = nvdla_rate(throughput, nvdla_interface_bytes(hw, mem), macs, r.layer_bytes);
  c.utilization = r.util_layer();
  c.wall_s = r.rtl_seconds;
  c.mem = mem;
  c.dma = r.dma;
  c.status = r.outputs_equal ? "PASS" : "MISMATCH: " + r.detail;
  const golden::ConvParams& p = r.params;
  c.extra = {{"layer", fmt::format("{}x{}x{} -> {}x{}x{}, {}x{} kernel, pad 1, {}", p.w, p.h, p.c, p.w, p.h, p.k, p.s,
                                   p.r, golden::precision_name(p.precision))},
             {"mode", wino ? "winograd" : "direct"},
             {"mac_units", hw.atomic_c * hw.atomic_k(p.precision)},
             {"ideal_cycles", r.ideal_cycles},
             {"atomic_ops", r.atomic_ops},
             {"cycles_data", r.cycles_data},
             {"cycles_to_sdp", r.cycles_to_sdp},
             {"layer_bytes", r.layer_bytes},
             {"simulated_macs_per_s", r.simulated_macs_per_s()}};
  return c;
}

// W-fold against the unfolded layer on nv_full (docs/WFOLD.md "Bench"): small-C layers compiled by
// the `conv` layer compiler with "wfold": "off" and "auto" (Split-H where CBUF cannot hold the
// layer), each whole program run in cross mode. Utilization counts the layer's own MACs
// (W'H' x K x C x R x S), not the folded convolution's, against ATOMIC_C x ATOMIC_K per cycle.
struct WfoldLayer {
  int w, h, c, k, r, s, sx, sy, pad;
};
// The ResNet stem (7x7 stride 2 on an RGB image, the layer) and a 3x3 stride-1 layer on
// a one-channel map.
constexpr WfoldLayer kWfoldLayers[] = {{224, 224, 3, 64, 7, 7, 2, 2, 3}, {64, 32, 1, 32, 3, 3, 1, 1, 1}};

std::string wfold_layer_name(const WfoldLayer& l) {
  return fmt::format("{}x{}x{} -> {}, {}x{} stride {}x{} pad {}", l.w, l.h, l.c, l.k, l.s, l.r, l.sx, l.sy, l.pad);
}

// A case of an int8 layer the `conv` compiler built, run whole in cross mode (`rr`): `macs` of the
// layer itself against `mac_units` per cycle.
BenchCase layer_case(const HwConfig& hw, const std::string& name, const RunResult& rr, uint64_t macs, int mac_units,
                     double seconds, const BenchOptions& opt) {
  BenchCase b;
  b.unit = "conv";
  b.config = hw.name;
  b.name = name;
  b.element = "MAC";
  b.cycles = rr.cycles_since_launch();  // the layer's, not the setup's (CBUF's flush after reset)
  b.elements = macs;
  b.nvdla_elements_per_cycle = mac_units;
  b.utilization = b.cycles ? double(macs) / (double(b.cycles) * mac_units) : 0.0;
  b.wall_s = seconds;
  b.mem = opt.mem;
  b.dma = rr.dma;
  b.status = rr.status == Status::Pass ? "PASS" : fmt::format("{}: {}", status_name(rr.status), rr.message);
  return b;
}

// Batch mode on nv_full (docs/CDMA_MODES.md §1): a fully connected int8 layer 1x1x1024 -> 256
// compiled with "batch": n and run in cross mode. The weights are fetched once per layer, so per
// image they fall n-fold: weight bytes fetched = the RTL's DMA reads less the n input cubes
// (1024 bytes each; SDP flies without operands). Utilization counts the layer's MACs (n x K x C).
BenchCase batch_case(int n, const BenchOptions& opt) {
  const HwConfig& hw = golden::nv_full();
  constexpr int kC = 1024, kK = 256;
  const nlohmann::ordered_json values{{"random", {{"min", -20}, {"max", 20}}}};
  const nlohmann::ordered_json doc{{"unit", "conv"},
                                   {"config", hw.name},
                                   {"seed", opt.seed},
                                   {"batch", n},
                                   {"input", {{"w", 1}, {"h", 1}, {"c", kC}, {"data", values}}},
                                   {"weights", {{"k", kK}, {"r", 1}, {"s", 1}, {"data", values}}},
                                   {"clip", 8}};
  const std::string layer = fmt::format("fully connected 1x1x{} -> {}", kC, kK);
  const std::string name = fmt::format("batch {}, {}", n, layer);
  const auto jd = parse_json_text("bench-conv.json", doc.dump(1));
  const CompiledConv cc = compile_conv_layer(bench_layer_header("conv", name, hw, opt.seed), JsonNode::root(jd));
  double seconds = 0;
  const RunResult rr = run_bench_rtl(cc.program, hw, opt, seconds, "cross");
  const uint64_t macs = uint64_t(n) * kK * kC;
  const int mac_units = hw.atomic_c * hw.atomic_k(golden::Precision::Int8);
  BenchCase b = layer_case(hw, name, rr, macs, mac_units, seconds, opt);
  const uint64_t inputs = uint64_t(n) * kC;
  const uint64_t fetched = rr.dma && rr.dma->bytes_read >= inputs ? rr.dma->bytes_read - inputs : 0;
  b.extra = {{"layer", layer},
             {"batch", n},
             {"weight_bytes", cc.conv.weight_bytes},
             {"batch_weight_bytes_fetched", fetched},
             {"weight_bytes_per_image", double(fetched) / n},
             {"cycles_per_image", double(b.cycles) / n},
             {"mac_units", mac_units}};
  return b;
}

BenchCase wfold_case(const WfoldLayer& l, const char* fold, const BenchOptions& opt) {
  const HwConfig& hw = golden::nv_full();
  const nlohmann::ordered_json values{{"random", {{"min", -20}, {"max", 20}}}};
  const nlohmann::ordered_json doc{{"unit", "conv"},
                                   {"config", hw.name},
                                   {"seed", opt.seed},
                                   {"input", {{"w", l.w}, {"h", l.h}, {"c", l.c}, {"data", values}}},
                                   {"weights", {{"k", l.k}, {"r", l.r}, {"s", l.s}, {"data", values}}},
                                   {"padding", {{"left", l.pad}, {"right", l.pad}, {"top", l.pad}, {"bottom", l.pad}}},
                                   {"stride", {{"x", l.sx}, {"y", l.sy}}},
                                   {"clip", 8},
                                   {"wfold", fold}};
  const std::string name = fmt::format("wfold comparison {}, wfold {}", wfold_layer_name(l), fold);
  const auto jd = parse_json_text("bench-conv.json", doc.dump(1));
  const CompiledConv cc = compile_conv_layer(bench_layer_header("conv", name, hw, opt.seed), JsonNode::root(jd));
  double seconds = 0;
  const RunResult rr = run_bench_rtl(cc.program, hw, opt, seconds, "cross");
  const int ow = (l.w + 2 * l.pad - l.s) / l.sx + 1, oh = (l.h + 2 * l.pad - l.r) / l.sy + 1;
  const uint64_t macs = uint64_t(ow) * uint64_t(oh) * uint64_t(l.k) * uint64_t(l.c) * uint64_t(l.r) * uint64_t(l.s);
  const int mac_units = hw.atomic_c * hw.atomic_k(golden::Precision::Int8);
  BenchCase b = layer_case(hw, name, rr, macs, mac_units, seconds, opt);
  const bool folded = cc.conv.wfold_ws != 0;
  const golden::ConvConfig c = folded ? golden::wfold_view(cc.conv) : cc.conv;  // what CSC runs
  b.extra = {{"layer", wfold_layer_name(l)},
             {"wfold", fold},
             {"folded", folded},
             {"ws", folded ? cc.conv.wfold_ws : 1},
             {"csc_cube", fmt::format("{}x{}x{}, kernel {}x{}", c.input.w, c.input.h, c.input.c, c.kernel_w, c.kernel_h)},
             {"bands", cc.bands},
             {"mac_units", mac_units}};
  return b;
}

// An image first layer on nv_full (docs/IMAGE_INPUT.md "RTL"): 224x224 A8B8G8R8 (C 4, so C' =
// S x C = 28 of a 64-lane atom), 7x7 stride 2 pad 3, 64 kernels, compiled by the `conv` layer
// compiler and run in cross mode. Utilization counts the layer's MACs (W'H' x K x C x R x S)
// against ATOMIC_C x ATOMIC_K per cycle; `post_extension` E packs E kernel rows into an atom
// (ceil(R / E) operations per output instead of R), when the RTL has it.
BenchCase image_case(int post_extension, const BenchOptions& opt) {
  const HwConfig& hw = golden::nv_full();
  constexpr int kW = 224, kH = 224, kC = 4, kK = 64, kR = 7, kS = 7, kStride = 2, kPad = 3;
  nlohmann::ordered_json doc{{"unit", "conv"},
                             {"config", hw.name},
                             {"seed", opt.seed},
                             {"input", {{"format", "T_A8B8G8R8"}, {"w", kW}, {"h", kH}, {"sign", "signed"},
                                        {"data", {{"random", {{"min", -20}, {"max", 20}}}}},
                                        {"converter", {{"offset", 0}, {"scale", 1}, {"truncate", 0}}}}},
                             {"weights", {{"k", kK}, {"r", kR}, {"s", kS}, {"data", {{"random", {{"min", -20}, {"max", 20}}}}}}},
                             {"padding", {{"left", kPad}, {"right", kPad}, {"top", kPad}, {"bottom", kPad}}},
                             {"stride", {{"x", kStride}, {"y", kStride}}},
                             {"clip", 8}};
  if (post_extension != 1) doc["post_extension"] = post_extension;
  const std::string layer = fmt::format("{}x{} A8B8G8R8 -> {}, {}x{} stride {} pad {}", kW, kH, kK, kS, kR, kStride, kPad);
  const std::string name = fmt::format("image first layer {}, post-extension {}", layer, post_extension);
  const auto jd = parse_json_text("bench-conv.json", doc.dump(1));
  const CompiledConv cc = compile_conv_layer(bench_layer_header("conv", name, hw, opt.seed), JsonNode::root(jd));
  double seconds = 0;
  const RunResult rr = run_bench_rtl(cc.program, hw, opt, seconds, "cross");
  const int ow = (kW + 2 * kPad - kS) / kStride + 1, oh = (kH + 2 * kPad - kR) / kStride + 1;
  const uint64_t macs = uint64_t(ow) * uint64_t(oh) * kK * kC * kR * kS;
  const int mac_units = hw.atomic_c * hw.atomic_k(golden::Precision::Int8);
  BenchCase b = layer_case(hw, name, rr, macs, mac_units, seconds, opt);
  const int rows = (kR + post_extension - 1) / post_extension;
  b.extra = {{"layer", layer},
             {"post_extension", post_extension},
             {"c_ext", kS * kC},
             {"atomic_ops", uint64_t(ow) * uint64_t(oh) * rows * ((kK + 31) / 32)},
             {"mac_units", mac_units}};
  return b;
}

// A 50 % sparse layer on nv_full (docs/CDMA_MODES.md "RTL"): 16x16x64 -> 64, 3x3 pad 1, int8,
// weight element i (the JSON's order) non-zero exactly when i / 64 + i is even -- half of them,
// scattered over every kernel -- run with the weights uncompressed or compressed. Weight bytes
// fetched: the RTL's DMA reads less the input cube's (16 x 16 x 64 bytes): the weight stream,
// or the packed stream + the mask bits (WGS is not read).
BenchCase sparse_case(bool compressed, const BenchOptions& opt) {
  const HwConfig& hw = golden::nv_full();
  constexpr int kW = 16, kH = 16, kC = 64, kK = 64, kR = 3, kS = 3;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (int i = 0; i < kK * kR * kS * kC; ++i) values.push_back((i / 64 + i) % 2 == 0 ? 1 + (i * 37) % 101 : 0);
  const nlohmann::ordered_json doc{
      {"unit", "conv"},
      {"config", hw.name},
      {"seed", opt.seed},
      {"input", {{"w", kW}, {"h", kH}, {"c", kC}, {"data", {{"random", {{"min", -20}, {"max", 20}}}}}}},
      {"weights", {{"k", kK}, {"r", kR}, {"s", kS}, {"compressed", compressed}, {"data", {{"values", values}}}}},
      {"padding", {{"left", 1}, {"right", 1}, {"top", 1}, {"bottom", 1}}},
      {"clip", 8}};
  const std::string layer = fmt::format("{}x{}x{} -> {}, {}x{} pad 1, 50 % non-zero weights", kW, kH, kC, kK, kS, kR);
  const std::string name = fmt::format("sparse {}, {}", layer, compressed ? "compressed" : "uncompressed");
  const auto jd = parse_json_text("bench-conv.json", doc.dump(1));
  const CompiledConv cc = compile_conv_layer(bench_layer_header("conv", name, hw, opt.seed), JsonNode::root(jd));
  double seconds = 0;
  const RunResult rr = run_bench_rtl(cc.program, hw, opt, seconds, "cross");
  const uint64_t macs = uint64_t(kW) * kH * kK * kC * kR * kS;
  const int mac_units = hw.atomic_c * hw.atomic_k(golden::Precision::Int8);
  BenchCase b = layer_case(hw, name, rr, macs, mac_units, seconds, opt);
  const uint64_t input_bytes = uint64_t(kW) * kH * kC;
  b.extra = {{"layer", layer},
             {"compressed", compressed},
             {"weight_bytes", cc.conv.weight_bytes},
             {"wmb_bytes", compressed ? cc.conv.compression.wmb_bytes : 0},
             {"weight_bytes_fetched", rr.dma && rr.dma->bytes_read >= input_bytes ? rr.dma->bytes_read - input_bytes : 0},
             {"mac_units", mac_units}};
  return b;
}

// Split-H bands sharing their weights in CBUF (docs/CONV.md §9): an nv_small layer the `conv`
// compiler runs as bands that keep all weights beside each band's input, run in cross mode as
// compiled (WEIGHT_REUSE from the second band) and with the reuse and skip-release bits cleared
// (every band fetches the weights). Both read every input row; the difference in bytes read is the
// weights fetched again.
BenchCase reuse_case(bool shared, const BenchOptions& opt) {
  const HwConfig& hw = golden::nv_small();
  constexpr int kW = 48, kH = 48, kC = 64, kK = 64;
  const nlohmann::ordered_json values{{"random", {{"min", -20}, {"max", 20}}}};
  const nlohmann::ordered_json doc{{"unit", "conv"},
                                   {"config", hw.name},
                                   {"seed", opt.seed},
                                   {"input", {{"w", kW}, {"h", kH}, {"c", kC}, {"data", values}}},
                                   {"weights", {{"k", kK}, {"r", 3}, {"s", 3}, {"data", values}}},
                                   {"padding", {{"left", 1}, {"right", 1}, {"top", 1}, {"bottom", 1}}},
                                   {"clip", 8}};
  const std::string layer = fmt::format("{}x{}x{} -> {}, 3x3 pad 1", kW, kH, kC, kK);
  const std::string name = fmt::format("Split-H {}, weights {}", layer, shared ? "shared (WEIGHT_REUSE)" : "fetched per band");
  const auto jd = parse_json_text("bench-conv.json", doc.dump(1));
  CompiledConv cc = compile_conv_layer(bench_layer_header("conv", name, hw, opt.seed), JsonNode::root(jd));
  if (!shared) {
    namespace cd = golden::regs::cdma;
    const uint32_t bits = cd::D_MISC_CFG::WEIGHT_REUSE::mask | cd::D_MISC_CFG::SKIP_WEIGHT_RLS::mask;
    for (ProgramStep& st : cc.program.steps) {
      if (st.op == StepOp::RegWrite && st.reg->name == "D_MISC_CFG" && (st.reg->block == "CDMA" || st.reg->block == "CSC")) {
        st.value &= ~bits;  // the same bit positions in CSC's copy
      }
    }
  }
  double seconds = 0;
  const RunResult rr = run_bench_rtl(cc.program, hw, opt, seconds, "cross");
  const uint64_t macs = uint64_t(kW) * kH * kK * kC * 9;
  const int mac_units = hw.atomic_c * hw.atomic_k(golden::Precision::Int8);
  BenchCase b = layer_case(hw, name, rr, macs, mac_units, seconds, opt);
  b.extra = {{"layer", layer},
             {"bands", cc.bands},
             {"bands_share_weights", shared && cc.bands_share_weights},
             {"weight_bytes", cc.conv.weight_bytes},
             {"bytes_read", rr.dma ? rr.dma->bytes_read : 0},
             {"mac_units", mac_units}};
  return b;
}

}  // namespace

std::vector<BenchCase> bench_conv(const BenchOptions& opt) {
  struct Case {
    const golden::HwConfig& hw;
    const char* what;
    golden::ConvParams p;
  };
  std::vector<Case> layers;
  std::vector<BenchCase> cases;
  ConvBenchMode mode;
  mode.mem = opt.mem;
  if (!opt.configs.empty()) {
    // --config: the per-configuration layers only, 32x16 C 64 / K 32 and C 128 / K 64 (whole atomic
    // C and K blocks on every build), the second 32 rows high where that input fits half of CBUF
    // (so the first kernel group's weight fetch, which NVDLA too waits for, is a small share),
    // else 16; in each precision the build has. The Winograd, W-fold and batch comparisons are
    // nv_full's and stay in the default run.
    for (const auto* hw : bench_configs(opt, {})) {
      for (const golden::Precision pr : {golden::Precision::Int8, golden::Precision::Int16, golden::Precision::Fp16}) {
        if (!hw->supports(pr)) continue;
        for (const auto& [c, k] : {std::pair{64, 32}, std::pair{128, 64}}) {
          golden::ConvParams p = conv_bench_layer();
          p.c = c;
          p.k = k;
          const int64_t half_cbuf = int64_t{hw->cbuf_banks} * hw->cbuf_entries * hw->cbuf_entry_bytes / 2;
          if (c == 128 && int64_t{p.w} * 32 * c * golden::bytes_per_element(pr) <= half_cbuf) p.h = 32;
          p.precision = pr;
          if (pr == golden::Precision::Fp16) p.clip_truncate = 0;
          const ConvBenchResult r = measure_conv(*hw, p, opt.seed, 0.0, 0, mode);
          cases.push_back(conv_case(*hw, fmt::format("{}, C {}, K {}", golden::precision_name(pr), c, k), r, r.macs,
                                    opt.mem));
        }
      }
    }
    return cases;
  }
  const golden::ConvParams ref = conv_bench_layer();
  layers.push_back({golden::nv_small(), "issue reference layer", ref});
  golden::ConvParams p = ref;
  p.c = 64;
  p.k = 32;
  layers.push_back({golden::nv_small(), "C 64, K 32", p});
  layers.push_back({golden::nv_full(), "int8, C 64, K 32", p});
  p.c = 128;
  p.k = 64;
  layers.push_back({golden::nv_full(), "int8, C 128, K 64", p});
  p.c = 64;
  p.k = 32;
  p.precision = golden::Precision::Int16;
  layers.push_back({golden::nv_full(), "int16, C 64, K 32", p});
  // fp16 (random bit patterns: NaNs, infinities and denormals among them; CACC has no clip)
  p.precision = golden::Precision::Fp16;
  p.clip_truncate = 0;
  layers.push_back({golden::nv_full(), "fp16, C 64, K 32", p});
  for (const Case& cs : layers) {
    const ConvBenchResult r = measure_conv(cs.hw, cs.p, opt.seed, 0.0, 0, mode);
    cases.push_back(conv_case(cs.hw, cs.what, r, r.macs, opt.mem));
  }
  // Winograd against direct on nv_full: the same 3x3 pad-1 layer and values. The second layer has
  // fewer kernel groups to amortise the first group's fetch (docs/CONV_RTL.md, "Winograd").
  golden::ConvParams second = conv_bench_wino_layer();
  second.h = 16;
  second.c = 128;
  second.k = 64;
  // fp16: the first layer in NVDLA v1's float MAC (the same MAC count per cycle as int16).
  golden::ConvParams half = conv_bench_wino_layer();
  half.precision = golden::Precision::Fp16;
  half.clip_truncate = 0;
  for (const golden::ConvParams& layer : {conv_bench_wino_layer(), second, half}) {
    const ConvWinoComparison wc = measure_conv_wino(opt.seed, true, layer, opt.mem);
    const std::string name = fmt::format("winograd comparison {}x{}x{} -> {}{}", layer.w, layer.h, layer.c, layer.k,
                                         layer.precision == golden::Precision::Fp16 ? " fp16" : "");
    for (const ConvBenchResult* r : {&wc.direct, &wc.wino}) {
      BenchCase c = conv_case(golden::nv_full(), name + (r == &wc.wino ? ", winograd" : ", direct"), *r,
                              wc.direct.macs, opt.mem);
      c.winograd_speedup = wc.speedup();
      c.extra["ideal_speedup"] =
          wc.wino.ideal_cycles ? double(wc.direct.ideal_cycles) / double(wc.wino.ideal_cycles) : 0.0;
      c.extra["golden_outputs_equal"] = wc.direct.golden_output == wc.wino.golden_output;
      cases.push_back(std::move(c));
    }
  }
  for (const WfoldLayer& l : kWfoldLayers) {
    BenchCase off = wfold_case(l, "off", opt);
    BenchCase on = wfold_case(l, "auto", opt);
    const double gain = off.utilization.value_or(0) > 0 ? on.utilization.value_or(0) / *off.utilization : 0.0;
    off.extra["wfold_gain"] = on.extra["wfold_gain"] = gain;
    cases.push_back(std::move(off));
    cases.push_back(std::move(on));
  }
  // Batch 1 against batch 32 (one FC layer): weight bytes fetched per image fall 32-fold.
  BenchCase one = batch_case(1, opt), many = batch_case(32, opt);
  const double per_image = one.num("weight_bytes_per_image"), per_image32 = many.num("weight_bytes_per_image");
  one.extra["weight_fetch_reduction"] = many.extra["weight_fetch_reduction"] = per_image32 > 0 ? per_image / per_image32 : 0.0;
  cases.push_back(std::move(one));
  cases.push_back(std::move(many));
  // The image first layer without and with post-extension E = 2 (C' = 28 <= 32): 4 row groups
  // instead of 7 kernel rows, so up to 7/4 the utilization.
  BenchCase plain = image_case(1, opt), post = image_case(2, opt);
  const double gain = plain.utilization.value_or(0) > 0 ? post.utilization.value_or(0) / *plain.utilization : 0.0;
  plain.extra["post_extension_gain"] = post.extra["post_extension_gain"] = gain;
  cases.push_back(std::move(plain));
  cases.push_back(std::move(post));
  // 50 % sparse weights, uncompressed and compressed: weight bytes fetched and cycles.
  cases.push_back(sparse_case(false, opt));
  cases.push_back(sparse_case(true, opt));
  // Split-H bands fetching the weights per band, then sharing them (WEIGHT_REUSE).
  BenchCase per_band = reuse_case(false, opt), once = reuse_case(true, opt);
  per_band.extra["bytes_saved"] = once.extra["bytes_saved"] =
      per_band.num("bytes_read") - once.num("bytes_read");
  cases.push_back(std::move(per_band));
  cases.push_back(std::move(once));
  return cases;
}

std::string format_bench_conv(const std::vector<BenchCase>& cases) {
  std::string out;
  auto status = [](const BenchCase& c) {
    return c.status == "PASS" ? std::string("equals the golden device") : "DIFFERS: " + c.status;
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const BenchCase& c = cases[i];
    if (c.extra.contains("batch_weight_bytes_fetched")) {
      out += fmt::format("conv {} {} (int8, the layer compiler's program): weight bytes fetched {} ({} per image, "
                         "WEIGHT_BYTES {}), {} cycles ({:.0f} per image), utilization {:.2f}%, output {}\n",
                         c.config, c.name, c.extra.at("batch_weight_bytes_fetched").get<uint64_t>(),
                         c.num("weight_bytes_per_image"), c.extra.at("weight_bytes").get<uint64_t>(), c.cycles,
                         c.num("cycles_per_image"), 100.0 * c.utilization.value_or(0), status(c));
      if (c.extra.at("batch").get<int>() != 1) {
        out += fmt::format("  weight bytes per image, batch 1 / batch {}: {:.2f}x\n", c.extra.at("batch").get<int>(),
                           c.num("weight_fetch_reduction"));
      }
      continue;
    }
    if (c.extra.contains("wfold_gain")) {
      // A comparison: the unfolded case, then the folded one.
      if (i + 1 >= cases.size()) break;
      out += fmt::format("conv {} W-fold, {} (int8, the layer compiler's program, Split-H bands included):\n",
                         c.config, c.extra.at("layer").get<std::string>());
      for (const BenchCase* r : {&c, &cases[i + 1]}) {
        out += fmt::format("  wfold {:<4}: CSC runs {} ({} band(s)), {} cycles, utilization {:.2f}%, output {}\n",
                           r->extra.at("wfold").get<std::string>(), r->extra.at("csc_cube").get<std::string>(),
                           r->extra.at("bands").get<int>(), r->cycles, 100.0 * r->utilization.value_or(0), status(*r));
      }
      out += fmt::format("  folded / unfolded utilization: {:.2f}x\n", c.num("wfold_gain"));
      ++i;
      continue;
    }
    if (c.extra.contains("post_extension")) {
      out += fmt::format("conv {} {} (int8, the layer compiler's program, C' = {}): {} atomic ops, {} cycles, "
                         "utilization {:.2f}%, output {}\n",
                         c.config, c.name, c.extra.at("c_ext").get<int>(), c.extra.at("atomic_ops").get<uint64_t>(),
                         c.cycles, 100.0 * c.utilization.value_or(0), status(c));
      if (c.extra.at("post_extension").get<int>() != 1) {
        out += fmt::format("  post-extended / plain utilization: {:.2f}x\n", c.num("post_extension_gain"));
      }
      continue;
    }
    if (c.extra.contains("bands_share_weights")) {
      out += fmt::format("conv {} {} ({} bands): {} bytes read (WEIGHT_BYTES {}), {} cycles, utilization {:.2f}%, "
                         "output {}\n",
                         c.config, c.name, c.extra.at("bands").get<int>(), c.extra.at("bytes_read").get<uint64_t>(),
                         c.extra.at("weight_bytes").get<uint64_t>(), c.cycles, 100.0 * c.utilization.value_or(0),
                         status(c));
      if (c.extra.at("bands_share_weights").get<bool>()) {
        out += fmt::format("  bytes not read again with the weights shared: {:.0f}\n", c.num("bytes_saved"));
      }
      continue;
    }
    if (c.extra.contains("weight_bytes_fetched")) {
      out += fmt::format("conv {} {}: weight bytes fetched {} (WEIGHT_BYTES {}, WMB_BYTES {}), {} cycles, "
                         "utilization {:.2f}%, output {}\n",
                         c.config, c.name, c.extra.at("weight_bytes_fetched").get<uint64_t>(),
                         c.extra.at("weight_bytes").get<uint64_t>(), c.extra.at("wmb_bytes").get<uint64_t>(), c.cycles,
                         100.0 * c.utilization.value_or(0), status(c));
      continue;
    }
    if (c.winograd_speedup) {
      // A comparison: the direct case, then the Winograd one.
      if (i + 1 >= cases.size()) break;
      const BenchCase& w = cases[i + 1];
      // fp16 rounds differently in the two modes (the PRA in fp17, other sums): its outputs differ
      const bool half = c.name.find(" fp16") != std::string::npos;
      out += fmt::format("conv {} {} ({}, the same values):\n", c.config, c.name.substr(0, c.name.rfind(',')),
                         half ? "fp16, weights U = G g G^T in fp16" : "int16, exact scheme, PRA_TRUNCATE 0");
      for (const BenchCase* r : {&c, &w}) {
        const bool wino = r->extra.at("mode") == "winograd";
        out += fmt::format("  {}: ideal {} cycles ({}), {} cycles, utilization {:.1f}%, input in CBUF after {}; "
                           "output {}\n",
                           wino ? "winograd" : "direct  ", r->extra.at("ideal_cycles").get<uint64_t>(),
                           wino ? "kernel groups x W'H'/4 x ceil(C_ext/4) atomic ops" : "W'H'KCRS / (64 x 16)",
                           r->cycles, 100.0 * r->utilization.value_or(0),
                           r->extra.at("cycles_data").get<uint64_t>(), status(*r));
      }
      out += fmt::format("  direct / winograd cycles: {:.2f} (ideal {:.2f}); golden outputs of both modes {}\n",
                         *c.winograd_speedup, c.num("ideal_speedup"),
                         c.extra.at("golden_outputs_equal").get<bool>() ? "equal"
                         : half ? "differ (fp16 rounds differently in each mode, as NVDLA does)"
                                : "DIFFER");
      ++i;
      continue;
    }
    out += fmt::format(
        "conv {} {} ({}): ideal {} cycles (MACs / {}), {} atomic ops\n"
        "  layer (OP_EN -> CACC done, CBUF loading included): {} cycles, utilization {:.1f}%\n"
        "  input cube in CBUF after {} cycles (compute overlaps the loading)\n"
        "  OP_EN -> SDP done: {} cycles, {:.3g} s wall, {:.3g} simulated MAC/s; output {}\n",
        c.config, c.name, c.extra.at("layer").get<std::string>(), c.extra.at("ideal_cycles").get<uint64_t>(),
        c.extra.at("mac_units").get<int>(), c.extra.at("atomic_ops").get<uint64_t>(), c.cycles,
        100.0 * c.utilization.value_or(0), c.extra.at("cycles_data").get<uint64_t>(),
        c.extra.at("cycles_to_sdp").get<uint64_t>(), c.wall_s, c.num("simulated_macs_per_s"), status(c));
  }
  for (const BenchCase& c : cases) {
    if (c.dma && c.extra.contains("cycles_to_sdp")) {
      out += fmt::format("  {} {}, OP_EN -> SDP done: {}\n", c.config, c.name,
                         format_dma(*c.dma, c.extra.at("cycles_to_sdp").get<uint64_t>()));
    }
  }
  return out;
}

ConvWinoComparison measure_conv_wino(uint64_t seed, bool rtl, const golden::ConvParams& p, const MemOptions& mem) {
  ConvWinoComparison c;
  ConvBenchMode direct = conv_bench_wino_mode(false, rtl), wino = conv_bench_wino_mode(true, rtl);
  direct.mem = wino.mem = mem;
  c.direct = measure_conv(golden::nv_full(), p, seed, 0.0, 0, direct);
  c.wino = measure_conv(golden::nv_full(), p, seed, 0.0, 0, wino);
  return c;
}

}  // namespace dla::harness::engines
