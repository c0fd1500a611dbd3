// The verilated NVDLA core (rtl/top/nvdla_core.sv: CDMA, CBUF, CSC, CMAC_A/B, CACC flying into
// SDP with SDP_RDMA, SDP flying into PDP with PDP_RDMA, and the GLB) as the RTL device for register
// programs: SDP or PDP alone run on it too, with the convolution pipeline idle (docs/CONV_RTL.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>

#include "dla_rtl_models.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/rtl_device.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/conv/golden/conv_fp16.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/sdp/golden/sdp.hpp"
#include "harness/engine.hpp"
#include "tops/nvdla_core_watch.hpp"

namespace dla::harness {

namespace {

// Mirrors the CSB writes to the convolution blocks and SDP (S_POINTER.PRODUCER and both D_ groups) and,
// when CDMA is enabled, decodes the group about to run (golden::decode_conv, registers never
// written at their reset values) and refuses it if its D_BANK split cannot hold it on this RTL
// (engines::rtl_cbuf_problem: banks beyond CBUF, the input or one kernel group beyond its banks):
// the RTL would otherwise compute wrong values silently; likewise batches where the RTL has none
// (off nv_full, with Winograd, image input or W-fold, or CDMA / CSC / CACC disagreeing: the RTL
// reads CDMA's copy), compressed weights where the RTL has none (off nv_full, Winograd, W-fold,
// CDMA and CSC disagreeing), post-extension without image input or off nv_full, and a batched output
// whose CACC and SDP addresses decide the 64-byte pairs differently. Checked even when the golden model
// refuses the layer for another reason too (an RTL-only run has no golden device to say so).
// Only the guard reads the mirror; the RTL decodes its own registers.
class ConvCapacityGuard {
 public:
  explicit ConvCapacityGuard(const golden::HwConfig& hw) : hw_(&hw) {
    const RegDb& db = RegDb::nvdla();
    for (const char* name : {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC", "SDP", "SDP_RDMA"}) {
      const RegBlock* b = db.block(name);
      Block blk;
      blk.name = name;
      blk.base = *db.address(hw.name, b->regs.begin()->second) - b->regs.begin()->second.offset;
      blk.def = b;
      blocks_.push_back(std::move(blk));
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    for (auto& b : blocks_) {
      if (addr < b.base || addr >= b.base + 0x1000) continue;
      const RegDef* r = RegDb::nvdla().at_address(hw_->name, addr);
      if (r == nullptr) return;
      if (r->name == "S_POINTER") b.producer = static_cast<int>(value & 1u);
      if (r->dual) b.group[static_cast<std::size_t>(b.producer)][r->offset] = value;
      if (r->name == "D_OP_ENABLE" && (value & 1u) != 0) b.enabled = b.producer;
      if (b.name == "CDMA" && r->name == "D_OP_ENABLE" && (value & 1u) != 0) check(b.producer);
      return;
    }
  }

 private:
  struct Block {
    std::string name;
    uint32_t base = 0;
    const RegBlock* def = nullptr;
    int producer = 0;
    int enabled = -1;  // the group last enabled
    std::array<std::map<uint32_t, uint32_t>, 2> group;
  };

  void check(int g) {
    auto reader = [g](const Block& b, int group = -1) {
      return [&b, gg = group < 0 ? g : group](uint32_t offset) -> uint32_t {
        const auto& m = b.group[static_cast<std::size_t>(gg)];
        if (const auto it = m.find(offset); it != m.end()) return it->second;
        for (const auto& [n, r] : b.def->regs) {
          if (r.offset == offset) return r.reset;
        }
        return 0;
      };
    };
    golden::ConvRegReaders rr{reader(blocks_[0]), reader(blocks_[1]), reader(blocks_[2]), reader(blocks_[3]),
                              reader(blocks_[4])};
    // Multi-batch, compressed weights and post-extension (docs/CDMA_MODES.md): the golden model
    // has all three; this RTL has batches for direct feature input and compressed weights on
    // nv_full (conv_core decodes CDMA's D_BATCH_NUMBER and D_WEIGHT_FORMAT there only).
    // Judged on the raw words, whatever else decode_conv finds.
    namespace gr = golden::regs;
    // fp16 (docs/FP16.md "Convolution"): conv_core has NVDLA v1's fp16 direct convolution where the
    // build has fp16 (nv_full) and reads CSC's PROC_PRECISION (CDMA's: the NaN flush and counters);
    // what the golden model has no fp16 of (W-fold, the input converter on feature data;
    // golden::conv_fp16_unsupported, below) the RTL has not either.
    const uint32_t precs[] = {
        gr::field(rr.cdma(gr::cdma::D_MISC_CFG::offset), gr::cdma::D_MISC_CFG::PROC_PRECISION{}),
        gr::field(rr.csc(gr::csc::D_MISC_CFG::offset), gr::csc::D_MISC_CFG::PROC_PRECISION{})};
    const auto refuse_precision = [&](const std::string& why) {
      throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                       fmt::format("this RTL refuses the layer: PROC_PRECISION is {} in CDMA, {} in CSC; {} (docs/FP16.md)",
                                   precs[0], precs[1], why));
    };
    if (precs[0] == 3 || precs[1] == 3) refuse_precision("3 is reserved (0 INT8, 1 INT16, 2 FP16)");
    if (precs[0] == 2 || precs[1] == 2) {
      if (!hw_->supports(golden::Precision::Fp16)) refuse_precision(fmt::format("FP16, and {} has no fp16", hw_->name));
      if (precs[0] != precs[1]) refuse_precision("FP16 in one copy only, and the RTL reads both");
    }
    const uint32_t batches[] = {
        gr::field(rr.cdma(gr::cdma::D_BATCH_NUMBER::offset), gr::cdma::D_BATCH_NUMBER::BATCHES{}),
        gr::field(rr.csc(gr::csc::D_BATCH_NUMBER::offset), gr::csc::D_BATCH_NUMBER::BATCHES{}),
        gr::field(rr.cacc(gr::cacc::D_BATCH_NUMBER::offset), gr::cacc::D_BATCH_NUMBER::BATCHES{})};
    if (batches[0] != 0 || batches[1] != 0 || batches[2] != 0) {
      const bool wino = gr::field(rr.csc(gr::csc::D_MISC_CFG::offset), gr::csc::D_MISC_CFG::CONV_MODE{}) != 0;
      const bool image =
          gr::field(rr.csc(gr::csc::D_DATAIN_FORMAT::offset), gr::csc::D_DATAIN_FORMAT::DATAIN_FORMAT{}) != 0;
      const bool wfold =
          hw_->wfold && gr::field(rr.cdma(gr::cdma::D_WFOLD::offset), gr::cdma::D_WFOLD::WFOLD_EN{}) != 0;
      const char* why = batches[0] != batches[1] || batches[0] != batches[2]
                            ? "the three copies differ and the RTL reads CDMA's"
                        : !hw_->winograd ? "the RTL has multi-batch mode on nv_full only"
                        : wino           ? "the RTL has no multi-batch Winograd"
                        : image          ? "the RTL has no multi-batch image input"
                        : wfold          ? "the RTL has no multi-batch W-fold"
                                         : nullptr;
      if (why != nullptr) {
        throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                         fmt::format("this RTL refuses the layer: D_BATCH_NUMBER is {} / {} / {} in CDMA / CSC / CACC, "
                                     "and {} (docs/CDMA_MODES.md)",
                                     batches[0], batches[1], batches[2], why));
      }
    }
    // Compressed weights: conv_csc decompresses on nv_full (SupportWino's feature set) for direct
    // and image input, reading CDMA's D_WEIGHT_FORMAT.
    if (const uint32_t fmts[] = {
            gr::field(rr.cdma(gr::cdma::D_WEIGHT_FORMAT::offset), gr::cdma::D_WEIGHT_FORMAT::WEIGHT_FORMAT{}),
            gr::field(rr.csc(gr::csc::D_WEIGHT_FORMAT::offset), gr::csc::D_WEIGHT_FORMAT::WEIGHT_FORMAT{})};
        fmts[0] != 0 || fmts[1] != 0) {
      const char* why =
          fmts[0] != fmts[1] ? "CDMA's and CSC's copies differ and the RTL reads CDMA's"
          : !hw_->winograd   ? "the RTL decompresses weights on nv_full only"
          : gr::field(rr.csc(gr::csc::D_MISC_CFG::offset), gr::csc::D_MISC_CFG::CONV_MODE{}) != 0
              ? "the RTL has no compressed Winograd weights"
          : hw_->wfold && gr::field(rr.cdma(gr::cdma::D_WFOLD::offset), gr::cdma::D_WFOLD::WFOLD_EN{}) != 0
              ? "the RTL has no compressed W-fold weights"
              : nullptr;
      if (why != nullptr) {
        throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                         fmt::format("this RTL refuses the layer: D_WEIGHT_FORMAT is COMPRESSED, and {} "
                                     "(docs/CDMA_MODES.md)",
                                     why));
      }
    }
    // Post-extension: conv_csc has it on nv_full (SupportWino) with image input, as NVDLA.
    if (const uint32_t e =
            gr::field(rr.csc(gr::csc::D_POST_Y_EXTENSION::offset), gr::csc::D_POST_Y_EXTENSION::Y_EXTENSION{});
        e != 0 && (!hw_->winograd ||
                   gr::field(rr.csc(gr::csc::D_DATAIN_FORMAT::offset), gr::csc::D_DATAIN_FORMAT::DATAIN_FORMAT{}) == 0)) {
      throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                       fmt::format("this RTL refuses the layer: CSC D_POST_Y_EXTENSION is {}, and the RTL has channel "
                                   "post-extension only with image input on nv_full (docs/IMAGE_INPUT.md)",
                                   e));
    }
    // Image input (D_DATAIN_FORMAT PIXEL) runs on the RTL for every pixel format the golden model
    // has (docs/IMAGE_INPUT.md "RTL"); its CBUF layout is NVDLA's, as direct convolution's (rtl_data_rows).
    const golden::ConvConfig c = golden::decode_conv(rr, *hw_);
    // Batched output: CACC and SDP must decide the 64-byte pairs alike (the golden model's rule).
    // SDP is enabled before CDMA (NVIDIA's firmware and traces); its group last enabled is the one
    // this convolution feeds. Without one, only the golden device judges.
    if (const Block& sdp = blocks_[5]; c.output.n > 1 && sdp.enabled >= 0) {
      const golden::SdpConfig sc = golden::decode_sdp(
          reader(sdp, sdp.enabled), reader(blocks_[6], std::max(blocks_[6].enabled, 0)), hw_->atom_bytes);
      if (const std::string p = golden::batch_pairing_problem(c.cacc_out_base, c.cacc_out_line_stride,
                                                              golden::sdp_output_layout(sc), c.output);
          !p.empty()) {
        throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g), "this RTL refuses the layer: " + p);
      }
    }
    if (const std::vector<std::string> u = golden::conv_fp16_unsupported(c); !u.empty()) {
      throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                       fmt::format("this RTL refuses the layer: {} (docs/FP16.md)", u.front()));
    }
    const uint32_t bank = reader(blocks_[0])(golden::regs::cdma::D_BANK::offset);
    const engines::ConvBanks banks{
        static_cast<int>(golden::regs::field(bank, golden::regs::cdma::D_BANK::DATA_BANK{})) + 1,
        static_cast<int>(golden::regs::field(bank, golden::regs::cdma::D_BANK::WEIGHT_BANK{})) + 1};
    if (const engines::RtlCbufProblem p = engines::rtl_cbuf_problem(c, *hw_, banks); !p.reason.empty()) {
      throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", g),
                       fmt::format("this RTL refuses the layer: {} (CDMA.D_BANK 0x{:x}; docs/CONV_RTL.md \"CBUF\")",
                                   p.reason, bank));
    }
    // CBUF reuse: conv_cdma takes whatever CBUF holds, so a reuse the previous layer did not leave
    // would compute silently wrong values (the golden model's rule). The previous layer is the one
    // the pipeline runs before, in its consumer order (group 0 first, then alternating), which is
    // not always the order of arming: NVIDIA's firmware may enable group 1 before group 0 (a
    // conv whose fused SDP -> PDP chain is enabled first); group 1 then waits for group 0.
    armed_[static_cast<std::size_t>(g)] = c;
    while (const auto& next = armed_[static_cast<std::size_t>(consumer_)]) {
      if (const std::vector<std::string> r = golden::cbuf_reuse_problems(last_ ? &*last_ : nullptr, *next, *hw_);
          !r.empty()) {
        throw InputError("CDMA.D_OP_ENABLE", fmt::format("group {}", consumer_),
                         fmt::format("this RTL refuses the layer: {} (docs/CONV_RTL.md \"CBUF reuse\")", r.front()));
      }
      last_ = next;
      armed_[static_cast<std::size_t>(consumer_)].reset();
      consumer_ ^= 1;
    }
  }

  const golden::HwConfig* hw_;
  std::vector<Block> blocks_;
  std::array<std::optional<golden::ConvConfig>, 2> armed_;  // armed and not yet in run order, per group
  int consumer_ = 0;                                         // the group the pipeline runs next
  std::optional<golden::ConvConfig> last_;                   // the convolution run before, for CBUF reuse
};

// SDP's precision fields per register group. fp16 processing runs where the build has it (NVDLA v1,
// nv_full: int16 and fp16 together), within the golden model's limits, which name the combinations
// NVDLA leaves undefined (docs/FP16.md "SDP"): the guard mirrors both blocks' group registers and,
// at either block's D_OP_ENABLE of an fp16 layer, decodes them as the golden model does. The
// reserved precision 3 is refused everywhere.
class SdpPrecisionGuard {
 public:
  explicit SdpPrecisionGuard(const golden::HwConfig& hw) : hw_(&hw) {
    const RegDb& db = RegDb::nvdla();
    for (std::size_t b = 0; b < 2; ++b) {
      const RegBlock* blk = db.block(kBlock[b]);
      base_[b] = *db.address(hw.name, blk->regs.begin()->second) - blk->regs.begin()->second.offset;
    }
  }

  void operator()(uint32_t addr, uint32_t value) {
    const RegDef* r = RegDb::nvdla().at_address(hw_->name, addr);
    if (r == nullptr || (r->block != "SDP" && r->block != "SDP_RDMA")) return;
    const std::size_t b = r->block == "SDP_RDMA" ? 1 : 0;
    if (r->name == "S_POINTER") producer_[b] = static_cast<int>(value & 1u);
    const auto g = static_cast<std::size_t>(producer_[b]);
    group_[b][g][addr - base_[b]] = value;
    if (r->name != "D_OP_ENABLE" || (value & 1u) == 0) return;
    namespace gr = golden::regs;
    const uint32_t fmt_v = reg(0, static_cast<std::size_t>(producer_[0]), gr::sdp::D_DATA_FORMAT::offset);
    const uint32_t mode = reg(1, static_cast<std::size_t>(producer_[1]), gr::sdp_rdma::D_FEATURE_MODE_CFG::offset);
    const uint32_t proc = gr::field(fmt_v, gr::sdp::D_DATA_FORMAT::PROC_PRECISION{});
    const uint32_t out = gr::field(fmt_v, gr::sdp::D_DATA_FORMAT::OUT_PRECISION{});
    const uint32_t in = gr::field(mode, gr::sdp_rdma::D_FEATURE_MODE_CFG::IN_PRECISION{});
    const auto refuse = [&](const std::string& rule) {
      throw InputError(fmt::format("{}.D_OP_ENABLE", r->block), fmt::format("group {}", g),
                       fmt::format("this RTL refuses the layer: {}", rule));
    };
    if (proc == 3 || out == 3) refuse("a precision field of SDP D_DATA_FORMAT is reserved (3)");
    if (b == 1 && in == 3) refuse("SDP_RDMA D_FEATURE_MODE_CFG.IN_PRECISION is reserved (3)");
    if (proc != 2 && out != 2 && (b == 0 || in != 2)) return;
    if (!hw_->supports(golden::Precision::Fp16)) refuse(fmt::format("FP16: {} has no fp16", hw_->name));
    const golden::SdpConfig cfg = golden::decode_sdp(
        [&](uint32_t off) { return reg(0, static_cast<std::size_t>(producer_[0]), off); },
        [&](uint32_t off) { return reg(1, static_cast<std::size_t>(producer_[1]), off); }, hw_->atom_bytes);
    if (const auto why = cfg.unsupported(); !why.empty()) refuse(why.front());
  }

 private:
  static constexpr std::array<const char*, 2> kBlock{"SDP", "SDP_RDMA"};
  [[nodiscard]] uint32_t reg(std::size_t b, std::size_t g, uint32_t off) const {
    const auto it = group_[b][g].find(off);
    return it == group_[b][g].end() ? 0u : it->second;
  }
  const golden::HwConfig* hw_;
  std::array<uint32_t, 2> base_{};
  std::array<int, 2> producer_{};                                       // SDP, SDP_RDMA
  std::array<std::array<std::map<uint32_t, uint32_t>, 2>, 2> group_{};  // [block][group] offset -> value
};

// `runs_sdp`: the program enables SDP, so PDP may take its input on the fly from it.
template <class Model>
std::unique_ptr<Device> guarded(const golden::HwConfig& cfg, const std::string& unit, unsigned atom,
                                const RtlDeviceOptions& o, bool runs_sdp) {
  auto dev = std::make_unique<RtlDevice<Model>>(cfg, unit, nvdla_core_intr_units(), atom, o);
  dev->set_write_guard(make_nvdla_core_guard(cfg, runs_sdp));
  return dev;
}

}  // namespace

std::function<void(uint32_t addr, uint32_t value)> make_nvdla_core_guard(const golden::HwConfig& cfg, bool runs_sdp) {
  return [conv = ConvCapacityGuard(cfg), sdp = SdpPrecisionGuard(cfg),
          pdp = make_pdp_guard(cfg, "nvdla_core", runs_sdp)](uint32_t addr, uint32_t value) mutable {
    conv(addr, value);
    sdp(addr, value);
    pdp(addr, value);
  };
}

const std::vector<std::string>& nvdla_core_intr_units() {
  static const std::vector<std::string> k = engines::top_interrupts(engines::rtl_top("nvdla_core"));
  return k;
}

const std::vector<std::string>& nvdla_core_blocks() {
  static const std::vector<std::string> blocks = engines::top_blocks(engines::rtl_top("nvdla_core"));
  return blocks;
}

std::unique_ptr<Device> make_nvdla_core_device(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                               const RunOptions& opt, std::string& why) {
  const auto& have = nvdla_core_blocks();
  for (const auto& b : blocks) {
    if (std::find(have.begin(), have.end(), b) == have.end()) {
      why = fmt::format("the program enables {}, which nvdla_core does not have", b);
      return nullptr;
    }
  }
  return make_nvdla_core_top(blocks, cfg, opt);
}

std::unique_ptr<Device> make_nvdla_core_top(const std::vector<std::string>& blocks, const golden::HwConfig& cfg,
                                            const RunOptions& opt) {
  RtlDeviceOptions o;
  o.sim = opt.sim;
  o.sim.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.mem = opt.mem;
  const std::string unit = fmt::format("nvdla_core ({})", cfg.name);
  const auto atom = static_cast<unsigned>(cfg.atom_bytes);
  const bool runs_sdp = std::any_of(blocks.begin(), blocks.end(),
                                    [](const std::string& b) { return b == "SDP" || b == "SDP_RDMA"; });
#define DLA_PICK(C) \
  if (cfg.name == #C) return guarded<rtl_models::C::nvdla_core>(cfg, unit, atom, o, runs_sdp);
  DLA_RTL_CONFIGS(DLA_PICK)
#undef DLA_PICK
  throw InputError("--config", "", fmt::format("no nvdla_core RTL build for configuration {}", cfg.name));
}

}  // namespace dla::harness
