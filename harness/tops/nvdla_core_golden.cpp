// The golden device's units of nvdla_core's pipeline (docs/CONV.md §3, docs/SDP.md, docs/PDP.md):
// the convolution row (CDMA -> CSC -> CMAC -> CACC) flying into SDP, SDP from memory, PDP from
// memory or on the fly behind SDP. One file, because the three chain on the fly: whether one
// group may run, and what it raises, depends on the others.
#include "tops/nvdla_core_golden.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engines/cdp/golden/cdp.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_fp16.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "engines/conv/harness/conv_device.hpp"
#include "engines/lut/harness/lut_device.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/pdp/golden/pdp.hpp"
#include "engines/rubik/golden/rubik.hpp"
#include "engines/sdp/golden/sdp.hpp"
#include "harness/golden_device.hpp"
#include "harness/memory.hpp"

namespace dla::harness {

namespace gregs = golden::regs;

namespace {

namespace rs = gregs::sdp;

std::string conv_blocked(const GoldenDevice& d, int g);

// ---- PDP: from memory through PDP_RDMA, or on the fly from SDP (docs/PDP.md) ----------------------

namespace rp = gregs::pdp;
namespace rpr = gregs::pdp_rdma;

bool sdp_output_to_pdp(const GoldenDevice& d, int gs) {
  return gregs::field(d.peek("SDP", rs::D_FEATURE_MODE_CFG::offset, gs), rs::D_FEATURE_MODE_CFG::OUTPUT_DST{}) != 0;
}

bool pdp_on_flying(const GoldenDevice& d, int gp) {
  return gregs::field(d.peek("PDP", rp::D_OPERATION_MODE_CFG::offset, gp), rp::D_OPERATION_MODE_CFG::FLYING_MODE{}) == 0;
}

// Empty when SDP group gs (OUTPUT_DST = PDP) finds PDP ready to take its output.
std::string pdp_flying_blocked(const GoldenDevice& d, int gs) {
  const int gp = d.consumer("PDP");
  if (!d.armed("PDP", gp)) {
    return fmt::format("SDP group {} sends its output on the fly to PDP (D_FEATURE_MODE_CFG.OUTPUT_DST=PDP) and is "
                       "waiting for PDP group {} to be armed (PDP.D_OP_ENABLE)",
                       gs, gp);
  }
  if (!pdp_on_flying(d, gp)) {
    return fmt::format("SDP group {} sends its output on the fly to PDP, but PDP group {} is armed with "
                       "D_OPERATION_MODE_CFG.FLYING_MODE=OFF_FLYING (input from memory)",
                       gs, gp);
  }
  return "";
}

std::vector<std::pair<std::string, std::string>> pdp_raised_by_sdp(const GoldenDevice& d, int gs) {
  if (!sdp_output_to_pdp(d, gs)) return {};
  return {{"PDP", "PDP"}};
}

golden::PdpConfig pdp_decode(const GoldenDevice& d, int g) {
  const int gr = d.consumer("PDP_RDMA");
  return golden::decode_pdp([&](uint32_t off) { return d.peek("PDP", off, g); },
                            [&](uint32_t off) { return d.peek("PDP_RDMA", off, gr); }, d.hw().atom_bytes);
}

void pdp_finish(GoldenDevice& d, int g, const golden::PdpConfig& cfg, const golden::PdpRun& r) {
  // fp16's NaN / Inf counters (0 for integers); no back-pressure in golden.
  d.set_hw_register("PDP", rp::D_INF_INPUT_NUM::offset, g, r.inf_input);
  d.set_hw_register("PDP", rp::D_NAN_INPUT_NUM::offset, g, r.nan_input);
  d.set_hw_register("PDP", rp::D_NAN_OUTPUT_NUM::offset, g, r.nan_output);
  d.set_hw_register("PDP", rp::D_PERF_WRITE_STALL::offset, g, 0);
  if (cfg.off_flying) d.set_hw_register("PDP_RDMA", rpr::D_PERF_READ_STALL::offset, d.consumer("PDP_RDMA"), 0);
  record_memory_layer(d, "PDP", g, golden::pdp_describe(cfg), golden::pdp_output_layout(cfg), r.output);
}

// PDP's layer on SDP's output (SDP group gs wrote nothing to memory).
void pdp_run_flying(GoldenDevice& d, int gs, const golden::SdpConfig& scfg, const golden::Cube<int64_t>& sdp_out) {
  const int gp = d.consumer("PDP");
  const golden::PdpConfig cfg = pdp_decode(d, gp);
  // PDP reads SDP's output words as its own D_DATA_FORMAT says: the two must agree (the SdpPrecision
  // and PdpPrecision codes are NVDLA's, int8 0, int16 1, fp16 2).
  if (static_cast<int>(scfg.out_precision) != static_cast<int>(cfg.precision)) {
    throw std::invalid_argument(fmt::format(
        "PDP group {} D_DATA_FORMAT ({}) differs from SDP group {}'s output precision ({}): PDP reads SDP's words as "
        "its own format",
        gp, golden::precision_code_name(static_cast<uint32_t>(cfg.precision)), gs,
        golden::precision_code_name(static_cast<uint32_t>(scfg.out_precision))));
  }
  Memory& mem = d.memory();
  const golden::PdpRun r = golden::run_pdp(
      cfg, d.hw(), [&](uint64_t a) { return mem.read(a); }, [&](uint64_t a, uint8_t v) { mem.write(a, v); }, &sdp_out);
  pdp_finish(d, gp, cfg, r);
}

std::string sdp_blocked(const GoldenDevice& d, int g);

std::string pdp_blocked(const GoldenDevice& d, int g) {
  if (pdp_on_flying(d, g)) {
    const int gs = d.consumer("SDP");
    std::string why;
    if (!d.armed("SDP", gs)) {
      why = fmt::format("SDP group {} is not armed (SDP.D_OP_ENABLE)", gs);
    } else if (!sdp_output_to_pdp(d, gs)) {
      why = fmt::format("SDP group {} writes to memory (D_FEATURE_MODE_CFG.OUTPUT_DST=MEM)", gs);
    } else {
      why = sdp_blocked(d, gs);
      if (why.empty()) why = fmt::format("SDP group {} is ready", gs);
    }
    return fmt::format("PDP group {} takes its input on the fly from SDP (D_OPERATION_MODE_CFG.FLYING_MODE=ON_FLYING) "
                       "and runs with SDP's layer: {}",
                       g, why);
  }
  const int gr = d.consumer("PDP_RDMA");
  if (!d.armed("PDP_RDMA", gr)) {
    return fmt::format("PDP group {} (FLYING_MODE=OFF_FLYING) is waiting for PDP_RDMA group {} to be armed "
                       "(PDP_RDMA.D_OP_ENABLE)",
                       g, gr);
  }
  return "";
}

std::vector<std::string> pdp_partners(const GoldenDevice& d, int g) {
  if (pdp_on_flying(d, g)) return {};
  return {"PDP_RDMA"};
}

void pdp_run(GoldenDevice& d, int g) {
  const golden::PdpConfig cfg = pdp_decode(d, g);
  Memory& mem = d.memory();
  const golden::PdpRun r = golden::run_pdp(
      cfg, d.hw(), [&](uint64_t a) { return mem.read(a); }, [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  pdp_finish(d, g, cfg, r);
}

std::string sdp_blocked(const GoldenDevice& d, int g) {
  const uint32_t mode = d.peek("SDP", rs::D_FEATURE_MODE_CFG::offset, g);
  if (gregs::field(mode, rs::D_FEATURE_MODE_CFG::FLYING_MODE{}) != 0) {
    // The convolution pipeline's row runs this layer (its input comes from CACC).
    const int gc = d.consumer("CACC");
    const std::string why = d.armed("CACC", gc) ? conv_blocked(d, gc)
                                                : fmt::format("CACC group {} is not armed (CACC.D_OP_ENABLE)", gc);
    return fmt::format("SDP group {} is armed in flying mode: its input comes from the convolution pipeline, and {}",
                       g, why.empty() ? std::string("the pipeline is ready") : why);
  }
  if (gregs::field(mode, rs::D_FEATURE_MODE_CFG::OUTPUT_DST{}) != 0) {
    if (std::string why = pdp_flying_blocked(d, g); !why.empty()) return why;
  }
  const int gr = d.consumer("SDP_RDMA");
  if (!d.armed("SDP_RDMA", gr)) {
    return fmt::format("SDP group {} (flying mode off) is waiting for SDP_RDMA group {} to be armed "
                       "(SDP_RDMA.D_OP_ENABLE)",
                       g, gr);
  }
  return "";
}

std::vector<std::string> sdp_partners(const GoldenDevice& d, int g) {
  const uint32_t mode = d.peek("SDP", rs::D_FEATURE_MODE_CFG::offset, g);
  if (gregs::field(mode, rs::D_FEATURE_MODE_CFG::FLYING_MODE{}) != 0) return {};
  std::vector<std::string> p{"SDP_RDMA"};
  if (sdp_output_to_pdp(d, g)) p.emplace_back("PDP");
  return p;
}

golden::SdpConfig sdp_decode(const GoldenDevice& d, int g) {
  const int gr = d.consumer("SDP_RDMA");
  return golden::decode_sdp([&](uint32_t off) { return d.peek("SDP", off, g); },
                            [&](uint32_t off) { return d.peek("SDP_RDMA", off, gr); }, d.hw().atom_bytes);
}

// Status and counters of the SDP group that ran, and its layer record.
void sdp_finish(GoldenDevice& d, int g, const golden::SdpConfig& cfg, const golden::SdpRun& r);

void sdp_run(GoldenDevice& d, int g) {
  const golden::SdpConfig cfg = sdp_decode(d, g);
  if (const auto u = golden::sdp_hw_problems(cfg, d.hw()); !u.empty()) {
    throw std::invalid_argument("SDP: cannot run this configuration: " + u.front());
  }
  Memory& mem = d.memory();
  const golden::SdpRun r = golden::run_sdp(
      cfg, engines::lut_ram(d, "SDP").tables(), [&](uint64_t a) { return mem.read(a); },
      [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  if (cfg.output_to_pdp) pdp_run_flying(d, g, cfg, r.output);
  sdp_finish(d, g, cfg, r);
}

void sdp_finish(GoldenDevice& d, int g, const golden::SdpConfig& cfg, const golden::SdpRun& r) {
  // Status and counters of the group that ran (cleared at layer start, so always written).
  d.set_hw_register("SDP", rs::D_STATUS::offset, g, r.stats.unequal ? 1u : 0u);
  d.set_hw_register("SDP", rs::D_PERF_OUT_SATURATION::offset, g, cfg.perf_sat_en ? r.stats.out_saturation : 0u);
  const golden::LutStats lut = cfg.perf_lut_en ? r.stats.lut : golden::LutStats{};
  d.set_hw_register("SDP", rs::D_PERF_LUT_UFLOW::offset, g, lut.uflow);
  d.set_hw_register("SDP", rs::D_PERF_LUT_OFLOW::offset, g, lut.oflow);
  d.set_hw_register("SDP", rs::D_PERF_LUT_HYBRID::offset, g, lut.hybrid);
  d.set_hw_register("SDP", rs::D_PERF_LUT_LE_HIT::offset, g, lut.le_hit);
  d.set_hw_register("SDP", rs::D_PERF_LUT_LO_HIT::offset, g, lut.lo_hit);
  d.set_hw_register("SDP", rs::D_PERF_WDMA_WRITE_STALL::offset, g, 0);  // no back-pressure in golden
  // fp16's NaN / infinity counters (docs/FP16.md "SDP"); 0 in the integer pipelines.
  d.set_hw_register("SDP", rs::D_STATUS_NAN_OUTPUT_NUM::offset, g, r.stats.nan_output);
  if (!cfg.flying) {
    const int gr = d.consumer("SDP_RDMA");
    d.set_hw_register("SDP_RDMA", golden::regs::sdp_rdma::D_STATUS_NAN_INPUT_NUM::offset, gr, r.stats.nan_input);
    d.set_hw_register("SDP_RDMA", golden::regs::sdp_rdma::D_STATUS_INF_INPUT_NUM::offset, gr, r.stats.inf_input);
  }
  GoldenLayer layer;
  layer.unit = "SDP";
  layer.group = g;
  layer.summary = golden::sdp_describe(cfg);
  layer.wrote_memory = r.wrote_memory;
  layer.out_layout = golden::sdp_output_layout(cfg);
  layer.out_shape = golden::sdp_output_shape(cfg);
  layer.output = r.output;
  d.record_layer(std::move(layer));
}

// ---- direct-convolution pipeline: CDMA -> CSC -> CMAC_A/B -> CACC -> SDP (flying) -------------------
//
// The row's core block is CACC; it runs when CACC's consumer group, the consumer groups of CMAC_A,
// CMAC_B, CSC and CDMA, and SDP's consumer group in flying mode are all armed (whatever the order
// of the D_OP_ENABLE writes; the traces go SDP, CACC, CMAC_A, CMAC_B, CSC, CDMA). SDP_RDMA joins
// only when one of SDP's stages reads an operand from memory. docs/CONV.md §3.

namespace rcacc = gregs::cacc;
namespace rcdma = gregs::cdma;

constexpr const char* kConvBlocks[] = {"CMAC_A", "CMAC_B", "CSC", "CDMA"};

// True when an active SDP stage takes an operand from memory (then SDP_RDMA must run too).
bool sdp_needs_rdma(const golden::SdpConfig& c) {
  auto x = [](const golden::SdpXCfg& s) {
    return !s.bypass && ((!s.alu_bypass && s.alu_src_mem) || (!s.mul_bypass && s.mul_src_mem));
  };
  const bool y = !c.ew.bypass && ((!c.ew.alu_bypass && c.ew.alu_src_mem) || (!c.ew.mul_bypass && c.ew.mul_src_mem));
  return x(c.bs) || x(c.bn) || y;
}

std::string conv_blocked(const GoldenDevice& d, int g) {
  if (engines::conv_state(d).flushing) {
    return fmt::format("the convolution pipeline (CACC group {}) waits for CBUF's flush after reset "
                       "(CDMA.S_CBUF_FLUSH_STATUS.FLUSH_DONE = 0; poll it or wait)",
                       g);
  }
  for (const char* blk : kConvBlocks) {
    const int gb = d.consumer(blk);
    if (!d.armed(blk, gb)) {
      return fmt::format("the convolution pipeline (CACC group {}) is waiting for {} group {} to be armed "
                         "({}.D_OP_ENABLE)",
                         g, blk, gb, blk);
    }
  }
  const int gs = d.consumer("SDP");
  if (!d.armed("SDP", gs)) {
    return fmt::format("the convolution pipeline (CACC group {}) is waiting for SDP group {} to be armed: CACC "
                       "delivers its results to SDP in flying mode",
                       g, gs);
  }
  const uint32_t mode = d.peek("SDP", rs::D_FEATURE_MODE_CFG::offset, gs);
  if (gregs::field(mode, rs::D_FEATURE_MODE_CFG::FLYING_MODE{}) == 0) {
    return fmt::format("the convolution pipeline (CACC group {}) has no consumer: SDP group {} is armed with "
                       "D_FEATURE_MODE_CFG.FLYING_MODE=0 (input from memory, not from CACC)",
                       g, gs);
  }
  if (gregs::field(mode, rs::D_FEATURE_MODE_CFG::OUTPUT_DST{}) != 0) {
    if (std::string why = pdp_flying_blocked(d, gs); !why.empty()) return why;
  }
  if (sdp_needs_rdma(sdp_decode(d, gs)) && !d.armed("SDP_RDMA", d.consumer("SDP_RDMA"))) {
    return fmt::format("SDP group {} (after the convolution) reads an operand from memory and is waiting for "
                       "SDP_RDMA group {} to be armed (SDP_RDMA.D_OP_ENABLE)",
                       gs, d.consumer("SDP_RDMA"));
  }
  return "";
}

std::vector<std::string> conv_partners(const GoldenDevice& d, int) {
  std::vector<std::string> p;
  p.reserve(std::size(kConvBlocks) + 3);
  for (const char* b : kConvBlocks) p.emplace_back(b);
  p.emplace_back("SDP");
  if (sdp_needs_rdma(sdp_decode(d, d.consumer("SDP")))) p.emplace_back("SDP_RDMA");
  if (sdp_output_to_pdp(d, d.consumer("SDP"))) p.emplace_back("PDP");
  return p;
}

void conv_run(GoldenDevice& d, int g) {
  const golden::HwConfig& hw = d.hw();
  const int g_cdma = d.consumer("CDMA");
  const int g_csc = d.consumer("CSC");
  const int g_ma = d.consumer("CMAC_A");
  const int g_mb = d.consumer("CMAC_B");
  const int g_sdp = d.consumer("SDP");
  golden::ConvRegReaders rr;
  rr.cdma = [&](uint32_t off) { return d.peek("CDMA", off, g_cdma); };
  rr.csc = [&](uint32_t off) { return d.peek("CSC", off, g_csc); };
  rr.cmac_a = [&](uint32_t off) { return d.peek("CMAC_A", off, g_ma); };
  rr.cmac_b = [&](uint32_t off) { return d.peek("CMAC_B", off, g_mb); };
  rr.cacc = [&](uint32_t off) { return d.peek("CACC", off, g); };
  const golden::ConvConfig cfg = golden::decode_conv(rr, hw);
  const golden::SdpConfig scfg = sdp_decode(d, g_sdp);

  // CACC hands SDP a W' x H' x K cube of processing-precision values; SDP must expect exactly that.
  const auto sdp_prec = static_cast<golden::SdpPrecision>(golden::precision_code(cfg.precision));
  // Batches (nv_full, docs/CDMA_MODES.md): SDP's BATCH_NUMBER must be CACC's.
  if (scfg.shape.w != cfg.output.w || scfg.shape.h != cfg.output.h || scfg.shape.c != cfg.output.c ||
      scfg.shape.n != cfg.output.n) {
    throw std::invalid_argument(fmt::format(
        "SDP D_DATA_CUBE_* ({}x{}x{}, {} batch(es)) differs from the CACC output cube {}x{}x{} ({} batch(es))",
        scfg.shape.w, scfg.shape.h, scfg.shape.c, scfg.shape.n, cfg.output.w, cfg.output.h, cfg.output.c,
        cfg.output.n));
  }
  if (scfg.proc_precision != sdp_prec) {
    throw std::invalid_argument(fmt::format(
        "SDP D_DATA_FORMAT.PROC_PRECISION differs from the convolution's {}: flying from CACC, SDP processes at "
        "CACC's precision (NVDLA converts int16 -> int8 only from memory)",
        golden::precision_name(cfg.precision)));
  }
  // A Winograd CACC delivers 2x2 tiles, which SDP's WDMA writes in that order only with WINOGRAD set
  // (docs/WINOGRAD.md); a mismatch would scatter the output.
  if (scfg.winograd != (cfg.mode == golden::ConvMode::Winograd)) {
    throw std::invalid_argument(fmt::format("SDP D_FEATURE_MODE_CFG.WINOGRAD is {} but the convolution's CONV_MODE is {}",
                                            scfg.winograd ? 1 : 0,
                                            cfg.mode == golden::ConvMode::Winograd ? "WINOGRAD" : "DIRECT"));
  }
  if (const auto u = scfg.unsupported(); !u.empty()) throw std::invalid_argument("SDP: " + u.front());
  if (const auto u = golden::sdp_hw_problems(scfg, hw); !u.empty()) throw std::invalid_argument("SDP: " + u.front());
  if (const std::string p = golden::batch_pairing_problem(cfg.cacc_out_base, cfg.cacc_out_line_stride,
                                                          golden::sdp_output_layout(scfg), cfg.output);
      !p.empty()) {
    throw std::invalid_argument("CACC / SDP: " + p);
  }

  Memory& mem = d.memory();
  // fp16: CDMA counts the NaNs and infinities it fetches (before the layer runs: counted unflushed).
  const golden::ConvFp16Counts fp_counts =
      golden::conv_fp16_counts(cfg, [&](uint64_t a) { return mem.read(a); }, engines::conv_state(d).cbuf.fp16_counts);
  const golden::ConvRun cr = golden::run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); }, &engines::conv_state(d).cbuf);
  engines::conv_state(d).cbuf.fp16_counts = fp_counts;
  const golden::SdpRun sr = golden::run_sdp(
      scfg, engines::lut_ram(d, "SDP").tables(), [&](uint64_t a) { return mem.read(a); },
      [&](uint64_t a, uint8_t v) { mem.write(a, v); }, &cr.cacc);

  // Hardware-updated registers of the groups that ran.
  d.set_hw_register("CACC", rcacc::D_OUT_SATURATION::offset, g, cr.stats.out_saturation);
  d.set_hw_register("CDMA", rcdma::D_NAN_INPUT_DATA_NUM::offset, g_cdma, fp_counts.data_nan);
  d.set_hw_register("CDMA", rcdma::D_INF_INPUT_DATA_NUM::offset, g_cdma, fp_counts.data_inf);
  d.set_hw_register("CDMA", rcdma::D_NAN_INPUT_WEIGHT_NUM::offset, g_cdma, fp_counts.weight_nan);
  d.set_hw_register("CDMA", rcdma::D_INF_INPUT_WEIGHT_NUM::offset, g_cdma, fp_counts.weight_inf);
  for (const uint32_t off : {rcdma::D_PERF_DAT_READ_STALL::offset, rcdma::D_PERF_WT_READ_STALL::offset,
                             rcdma::D_PERF_DAT_READ_LATENCY::offset, rcdma::D_PERF_WT_READ_LATENCY::offset}) {
    d.set_hw_register("CDMA", off, g_cdma, 0);  // no back-pressure in golden
  }
  GoldenLayer layer;
  layer.unit = "CACC";
  layer.group = g;
  layer.summary = golden::conv_describe(cfg) + fmt::format(", {} stripe(s) per kernel group, {} saturated output(s)",
                                                           cr.stats.stripes_per_group, cr.stats.out_saturation);
  layer.wrote_memory = false;  // CACC's output flies into SDP
  layer.out_shape = cr.cacc.shape();
  layer.output = cr.cacc;
  d.record_layer(std::move(layer));
  if (scfg.output_to_pdp) pdp_run_flying(d, g_sdp, scfg, sr.output);
  sdp_finish(d, g_sdp, scfg, sr);
}

}  // namespace

namespace engines::golden_units {

GoldenDevice::Unit sdp() { return {"SDP", "SDP", &sdp_blocked, &sdp_partners, &sdp_run, {}, &pdp_raised_by_sdp}; }
GoldenDevice::Unit conv() {
  return {"CACC", "CACC", &conv_blocked, &conv_partners, &conv_run, {{"SDP", "SDP"}, {"CDMA_DAT", "CDMA"}, {"CDMA_WT", "CDMA"}},
          [](const GoldenDevice& d, int) { return pdp_raised_by_sdp(d, d.consumer("SDP")); }};
}
GoldenDevice::Unit pdp() { return {"PDP", "PDP", &pdp_blocked, &pdp_partners, &pdp_run, {}}; }

}  // namespace engines::golden_units

}  // namespace dla::harness
