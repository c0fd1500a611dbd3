#include "harness/golden_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "golden/bdma.hpp"
#include "golden/cdp.hpp"
#include "golden/conv.hpp"
#include "golden/nvdla_regs.hpp"
#include "golden/pdp.hpp"
#include "golden/rubik.hpp"
#include "golden/sdp.hpp"
#include "harness/errors.hpp"
#include "harness/engine.hpp"

namespace dla::harness {

namespace gregs = golden::regs;

int interrupt_bit(std::string_view intr) {
  // The GLB S_INTR_STATUS field "<UNIT>_DONE_STATUS<GROUP>" gives the bit.
  const auto us = intr.rfind('_');
  if (us == std::string_view::npos || us + 2 != intr.size()) return -1;
  const char g = intr.back();
  if (g != '0' && g != '1') return -1;
  const RegDef* status = RegDb::nvdla().find("GLB.S_INTR_STATUS");
  if (status == nullptr) return -1;
  const std::string name = std::string(intr.substr(0, us)) + "_DONE_STATUS" + g;
  const RegField* f = status->field(name);
  return f == nullptr ? -1 : f->lsb;
}

// ---- register files -----------------------------------------------------------------------------

struct GoldenDevice::BlockRegs {
  const RegBlock* def = nullptr;
  uint32_t base = 0;
  bool grouped = false;
  uint32_t op_enable_offset = 0;  // D_OP_ENABLE: first D_ register
  std::map<uint32_t, const RegDef*> by_offset;
  std::map<uint32_t, uint32_t> single;
  std::array<std::map<uint32_t, uint32_t>, 2> group;
  int producer = 0;
  int consumer = 0;
  bool running = false;  // the consumer group has launched; its done event is still queued
  std::unique_ptr<golden::LutRam> lut;  // SDP, CDP

  [[nodiscard]] bool op_en(int g) const {
    if (!grouped) return false;
    const auto it = group[static_cast<std::size_t>(g)].find(op_enable_offset);
    return it != group[static_cast<std::size_t>(g)].end() && (it->second & 1u) != 0;
  }
  [[nodiscard]] uint32_t stored(const RegDef& r, int g) const {
    const auto& m = r.dual ? group[static_cast<std::size_t>(g)] : single;
    const auto it = m.find(r.offset);
    return it == m.end() ? 0 : it->second;
  }
  void store(const RegDef& r, int g, uint32_t v) { (r.dual ? group[static_cast<std::size_t>(g)] : single)[r.offset] = v; }
  // The layer of the consumer group is over: OP_EN clears, the other group is next.
  void release_consumer() {
    group[static_cast<std::size_t>(consumer)][op_enable_offset] = 0;
    consumer ^= 1;
    running = false;
  }
};

GoldenDevice::GoldenDevice(const golden::HwConfig& config) : config_(&config) {
  const RegDb& db = RegDb::nvdla();
  for (const auto& name : db.block_names()) {
    const RegBlock* b = db.block(name);
    const std::optional<uint32_t> base = db.block_base(config.name, *b);
    if (!base) continue;  // block absent in this configuration (CFGROM on nv_full, BDMA on nv_small)
    auto regs = std::make_unique<BlockRegs>();
    regs->def = b;
    regs->base = *base;
    for (const auto& [rname, r] : b->regs) {
      regs->by_offset[r.offset] = &r;
      if (rname == "D_OP_ENABLE") {
        regs->grouped = true;
        regs->op_enable_offset = r.offset;
      }
      if (r.dual) {
        regs->group[0][r.offset] = r.reset;
        regs->group[1][r.offset] = r.reset;
      } else {
        regs->single[r.offset] = r.reset;
      }
    }
    if (name == "SDP" || name == "CDP") regs->lut = std::make_unique<golden::LutRam>();
    if (name == "BDMA") bdma_ = std::make_unique<golden::BdmaEngine>();
    by_base_[*base] = regs.get();
    blocks_.emplace(name, std::move(regs));
  }
  // The golden device has no CBUF to clear after reset: FLUSH_DONE is 1 from the start, so a
  // program's poll_reg_equal(CDMA.S_CBUF_FLUSH_STATUS, 1) passes at once (conv-pipeline.md §8).
  if (blocks_.count("CDMA") != 0) {
    set_hw_register("CDMA", gregs::cdma::S_CBUF_FLUSH_STATUS::offset, 0,
                    gregs::cdma::S_CBUF_FLUSH_STATUS::FLUSH_DONE::mask);
  }
}

GoldenDevice::~GoldenDevice() = default;

GoldenDevice::BlockRegs* GoldenDevice::block_at(uint32_t byte_addr, uint32_t& offset) {
  const auto it = by_base_.find(byte_addr & ~0xfffu);
  if (it == by_base_.end()) return nullptr;
  offset = byte_addr & 0xfffu;
  return it->second;
}

GoldenDevice::BlockRegs& GoldenDevice::block_named(std::string_view name) {
  const auto it = blocks_.find(name);
  if (it == blocks_.end()) throw std::out_of_range(fmt::format("golden device: no block {} in {}", name, config_->name));
  return *it->second;
}

const GoldenDevice::BlockRegs& GoldenDevice::block_named(std::string_view name) const {
  const auto it = blocks_.find(name);
  if (it == blocks_.end()) throw std::out_of_range(fmt::format("golden device: no block {} in {}", name, config_->name));
  return *it->second;
}

uint32_t GoldenDevice::peek(std::string_view block, uint32_t offset, int group) const {
  const BlockRegs& b = block_named(block);
  const auto it = b.by_offset.find(offset);
  if (it == b.by_offset.end()) return 0;
  return b.stored(*it->second, group);
}

void GoldenDevice::set_hw_register(std::string_view block, uint32_t offset, int group, uint32_t value) {
  BlockRegs& b = block_named(block);
  const auto it = b.by_offset.find(offset);
  if (it == b.by_offset.end()) throw std::out_of_range(fmt::format("golden device: no register at {}+{:#x}", block, offset));
  uint32_t defined = 0;
  for (const auto& f : it->second->fields) defined |= f.mask();
  b.store(*it->second, group, value & defined);
}

int GoldenDevice::consumer(std::string_view block) const { return block_named(block).consumer; }
bool GoldenDevice::armed(std::string_view block, int group) const { return block_named(block).op_en(group); }

golden::LutRam& GoldenDevice::lut_ram(std::string_view block) {
  BlockRegs& b = block_named(block);
  if (!b.lut) throw std::out_of_range(fmt::format("golden device: block {} has no LUT", block));
  return *b.lut;
}

void GoldenDevice::reg_write(uint32_t byte_addr, uint32_t value) {
  uint32_t off = 0;
  BlockRegs* b = block_at(byte_addr, off);
  if (b == nullptr) return;  // no block decodes this address: the CSB dummy client drops it
  const auto it = b->by_offset.find(off);
  if (it == b->by_offset.end()) return;
  const RegDef& r = *it->second;
  const std::string& bname = b->def->name;

  if (bname == "GLB") {
    if (off == gregs::glb::S_INTR_STATUS::offset) {
      intr_status_ &= ~value;  // write 1 to clear
    } else if (off == gregs::glb::S_INTR_SET::offset) {
      intr_status_ |= value & r.writable_mask();
    } else if (off == gregs::glb::S_INTR_MASK::offset) {
      intr_mask_ = value & r.writable_mask();
    }
    return;
  }
  if (bname == "BDMA") {
    bdma_write(off, value);
    return;
  }
  if (r.name == "S_POINTER") {
    b->producer = static_cast<int>(value & 1u);
    return;
  }
  if (b->lut && r.name == "S_LUT_ACCESS_CFG") {
    (void)b->lut->cfg_write(value);
    b->store(r, 0, b->lut->cfg_read());
    return;
  }
  if (b->lut && r.name == "S_LUT_ACCESS_DATA") {
    (void)b->lut->data_write(value);
    return;
  }
  const uint32_t writable = r.writable_mask();
  if (writable == 0) return;  // read-only register
  const int g = b->producer;
  if (r.dual && b->op_en(g)) return;  // the group is armed: the RTL drops the write
  b->store(r, g, (b->stored(r, g) & ~writable) | (value & writable));
  if (r.dual && off == b->op_enable_offset && (value & 1u) != 0) try_launch();
}

uint32_t GoldenDevice::reg_read(uint32_t byte_addr) {
  uint32_t off = 0;
  BlockRegs* b = block_at(byte_addr, off);
  if (b == nullptr) return 0;
  const auto it = b->by_offset.find(off);
  if (it == b->by_offset.end()) return 0;
  const RegDef& r = *it->second;
  const std::string& bname = b->def->name;
  if (bname == "GLB") {
    if (off == gregs::glb::S_INTR_STATUS::offset) return intr_status_;
    if (off == gregs::glb::S_INTR_MASK::offset) return intr_mask_;
    if (off == gregs::glb::S_INTR_SET::offset) return 0;
    return b->stored(r, 0);
  }
  if (bname == "BDMA") return bdma_->read(off);
  if (r.name == "S_POINTER") return static_cast<uint32_t>(b->producer) | (static_cast<uint32_t>(b->consumer) << 16);
  if (r.name == "S_STATUS" && b->grouped) {
    auto status = [&](int g) -> uint32_t { return b->op_en(g) ? (b->consumer == g ? 1u : 2u) : 0u; };
    return status(0) | (status(1) << 16);
  }
  if (b->lut && r.name == "S_LUT_ACCESS_CFG") return b->lut->cfg_read();
  if (b->lut && r.name == "S_LUT_ACCESS_DATA") return b->lut->data_read();
  return b->stored(r, b->producer);
}

bool GoldenDevice::interrupt_pending(std::string_view intr) {
  const int bit = interrupt_bit(intr);
  return bit >= 0 && (intr_status_ & (1u << bit)) != 0;
}

WaitResult GoldenDevice::wait_interrupt(std::string_view intr, uint64_t) {
  WaitResult w;
  const int bit = interrupt_bit(intr);
  if (bit < 0) {
    w.detail = fmt::format("\"{}\" is not an interrupt name", intr);
    return w;
  }
  while ((intr_status_ & (1u << bit)) == 0 && release_next_done()) {
  }
  if ((intr_status_ & (1u << bit)) != 0) {
    w.raised = true;
    return w;
  }
  const std::string unit(intr.substr(0, intr.size() - 2));
  const int g = intr.back() - '0';
  if (unit == "BDMA") {
    w.detail = bdma_ == nullptr
                   ? fmt::format("{} has no BDMA (nv_full only, as in NVDLA), so {} never comes", config_->name, intr)
                   : fmt::format("BDMA group {} has no outstanding launch (CFG_LAUNCH{} not written since its last "
                                 "interrupt, or the interrupt came and was cleared)",
                                 g, g);
    return w;
  }
  if (const auto e = unit_errors_.find(unit); e != unit_errors_.end()) {
    w.detail = e->second;
    return w;
  }
  for (const auto& u : units()) {
    if (u.intr_unit != unit) continue;
    if (blocks_.count(u.core_block) == 0) {
      w.detail = fmt::format("{} has no {} ({} exists on nv_full only, as in NVDLA), so {} never comes", config_->name,
                             unit, u.core_block, intr);
    } else if (!armed(u.core_block, g)) {
      w.detail = fmt::format("{} group {} was never armed (D_OP_ENABLE not written with OP_EN=1), "
                             "or its layer already completed and the interrupt was cleared",
                             u.core_block, g);
    } else if (consumer(u.core_block) != g) {
      w.detail = fmt::format("{} group {} is armed but group {} (the consumer) has to run first", u.core_block, g,
                             consumer(u.core_block));
    } else {
      w.detail = u.blocked(*this, g);
    }
    return w;
  }
  // Interrupts a unit raises besides its own (the convolution pipeline's SDP, CDMA_DAT, CDMA_WT).
  for (const auto& u : units()) {
    for (const auto& [also_unit, block] : u.also_raises) {
      if (also_unit != unit) continue;
      const int gc = consumer(u.core_block);
      if (!armed(block, g)) {
        w.detail = fmt::format("{} group {} was never armed (D_OP_ENABLE not written with OP_EN=1), "
                               "or its layer already completed and the interrupt was cleared",
                               block, g);
      } else if (consumer(block) != g) {
        w.detail = fmt::format("{} group {} is armed but group {} (the consumer) has to run first", block, g,
                               consumer(block));
      } else if (!armed(u.core_block, gc)) {
        w.detail = fmt::format("{} group {} is armed, but {} completes only together with {}, and {} group {} is "
                               "not armed",
                               block, g, intr, u.core_block, u.core_block, gc);
      } else {
        w.detail = u.blocked(*this, gc);
      }
      return w;
    }
  }
  w.detail = fmt::format("the golden device has no model of {} in this build, so {} never completes", unit, intr);
  return w;
}

WaitResult GoldenDevice::wait_any_interrupt(uint64_t) {
  // The interrupt line: any status bit the mask lets through.
  while ((intr_status_ & ~intr_mask_) == 0 && release_next_done()) {
  }
  if ((intr_status_ & ~intr_mask_) != 0) return {true, ""};
  if (!unit_errors_.empty()) return {false, unit_errors_.begin()->second};
  return {false, "no interrupt is pending and no layer is running (nothing armed can run, or every done "
                 "interrupt is masked)"};
}

bool GoldenDevice::release_next_done() {
  if (done_queue_.empty()) return false;
  const DoneEvent e = std::move(done_queue_.front());
  done_queue_.pop_front();
  if (e.bit >= 0) intr_status_ |= 1u << e.bit;
  if (e.bdma_group >= 0) bdma_->release_group(e.bdma_group);
  for (const auto& name : e.release_blocks) block_named(name).release_consumer();
  if (!e.release_blocks.empty()) try_launch();
  return true;
}

namespace {

// Order in which a layer's done interrupts reach the GLB on the hardware: the loads end before
// the accumulation, the accumulation before the post-processing has written the last atom.
int pipeline_rank(std::string_view intr_unit) {
  static constexpr std::array<std::string_view, 5> kOrder{"CDMA_DAT", "CDMA_WT", "CACC", "SDP", "PDP"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), intr_unit);
  return static_cast<int>(it - kOrder.begin());
}

}  // namespace

void GoldenDevice::try_launch() {
  bool progress = true;
  while (progress) {
    progress = false;
    for (const auto& u : units()) {
      if (blocks_.count(u.core_block) == 0) continue;  // absent in this configuration (RBK off nv_full)
      BlockRegs& core = block_named(u.core_block);
      const int g = core.consumer;
      if (core.running || !core.op_en(g) || !u.blocked(*this, g).empty()) continue;
      const std::vector<std::string> partners = u.partners(*this, g);
      if (std::any_of(partners.begin(), partners.end(), [&](const auto& p) { return block_named(p).running; })) continue;
      std::vector<std::pair<std::string, std::string>> raises;  // {interrupt unit, interrupt name}
      raises.emplace_back(u.intr_unit, fmt::format("{}_{}", u.intr_unit, g));
      auto also = u.also_raises;
      if (u.raises_if) {
        const auto more = u.raises_if(*this, g);
        also.insert(also.end(), more.begin(), more.end());
      }
      for (const auto& [also_unit, block] : also) {
        raises.emplace_back(also_unit, fmt::format("{}_{}", also_unit, consumer(block)));
      }
      bool ok = true;
      try {
        u.run(*this, g);
        for (const auto& r : raises) unit_errors_.erase(r.first);
      } catch (const std::exception& e) {
        for (const auto& r : raises) {
          unit_errors_[r.first] = fmt::format("{} group {} did not run: {}", u.core_block, g, e.what());
        }
        ok = false;
      }
      // Done (or refused): the consumed groups are released either way, so nothing loops; a
      // refused layer's groups at once, a layer that ran with its last done event.
      std::vector<std::string> consumed{u.core_block};
      consumed.insert(consumed.end(), partners.begin(), partners.end());
      for (const auto& b : consumed) block_named(b).running = true;
      if (ok) {
        std::stable_sort(raises.begin(), raises.end(),
                         [](const auto& a, const auto& b) { return pipeline_rank(a.first) < pipeline_rank(b.first); });
        for (const auto& r : raises) done_queue_.push_back({interrupt_bit(r.second), {}});
        done_queue_.back().release_blocks = std::move(consumed);
      } else {
        for (const auto& b : consumed) block_named(b).release_consumer();
      }
      progress = true;
    }
  }
}

// ---- BDMA (docs/BDMA.md) ------------------------------------------------------------------------------

void GoldenDevice::bdma_write(uint32_t offset, uint32_t value) {
  std::optional<golden::BdmaEngine::Batch> batch;
  try {
    batch = bdma_->write(offset, value);
  } catch (const golden::BdmaRefused& e) {
    throw InputError("BDMA", "", fmt::format("the golden device refuses the write: {}", e.what()));
  }
  if (!batch) return;
  // The batch runs in FIFO order; its last command's done event sets BDMA_DONE_STATUS<g> and
  // frees the group.
  Memory& mem = memory_;
  std::string summary;
  for (const golden::BdmaCommand& c : batch->commands) {
    golden::bdma_copy(c, [&](uint64_t a) { return mem.read(a); }, [&](uint64_t a, uint8_t v) { mem.write(a, v); });
    if (summary.empty()) summary = golden::bdma_describe(c);
  }
  if (batch->commands.size() > 1) summary += fmt::format(" and {} more command(s)", batch->commands.size() - 1);
  GoldenLayer layer;
  layer.unit = "BDMA";
  layer.group = batch->group;
  layer.summary = std::move(summary);
  record_layer(std::move(layer));
  DoneEvent e;
  e.bit = interrupt_bit(batch->group == 0 ? "BDMA_0" : "BDMA_1");
  e.bdma_group = batch->group;
  done_queue_.push_back(std::move(e));
}

// ---- units ----------------------------------------------------------------------------------------

namespace {

namespace rs = gregs::sdp;

std::string conv_blocked(const GoldenDevice& d, int g);

// The record of a layer that wrote `output` (every lane, including padded ones) to memory.
void record_memory_layer(GoldenDevice& d, const char* unit, int g, std::string summary,
                         const golden::FeatureLayout& layout, const golden::Cube<int64_t>& output) {
  GoldenLayer layer;
  layer.unit = unit;
  layer.group = g;
  layer.summary = std::move(summary);
  layer.wrote_memory = true;
  layer.out_layout = layout;
  layer.out_shape = output.shape();
  layer.output = output;
  d.record_layer(std::move(layer));
}

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
  // Integer data: no NaN or Inf; no back-pressure in golden.
  for (const uint32_t off : {rp::D_INF_INPUT_NUM::offset, rp::D_NAN_INPUT_NUM::offset, rp::D_NAN_OUTPUT_NUM::offset,
                             rp::D_PERF_WRITE_STALL::offset}) {
    d.set_hw_register("PDP", off, g, 0);
  }
  if (cfg.off_flying) d.set_hw_register("PDP_RDMA", rpr::D_PERF_READ_STALL::offset, d.consumer("PDP_RDMA"), 0);
  record_memory_layer(d, "PDP", g, golden::pdp_describe(cfg), golden::pdp_output_layout(cfg), r.output);
}

// PDP's layer on SDP's output (SDP group gs wrote nothing to memory).
void pdp_run_flying(GoldenDevice& d, int gs, const golden::SdpConfig& scfg, const golden::Cube<int64_t>& sdp_out) {
  const int gp = d.consumer("PDP");
  const golden::PdpConfig cfg = pdp_decode(d, gp);
  const bool sdp_int16 = scfg.out_precision == golden::SdpPrecision::Int16;
  const bool pdp_int16 = cfg.precision == golden::PdpPrecision::Int16;
  if (scfg.out_precision != golden::SdpPrecision::Int8 && !sdp_int16) {
    throw std::invalid_argument("SDP D_DATA_FORMAT.OUT_PRECISION must be int8 or int16 when its output goes to PDP");
  }
  if (sdp_int16 != pdp_int16 && cfg.precision != golden::PdpPrecision::Fp16) {
    throw std::invalid_argument(fmt::format("PDP group {} D_DATA_FORMAT ({}) differs from SDP group {}'s output precision",
                                            gp, pdp_int16 ? "int16" : "int8", gs));
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
  Memory& mem = d.memory();
  const golden::SdpRun r = golden::run_sdp(
      cfg, d.lut_ram("SDP").tables(), [&](uint64_t a) { return mem.read(a); },
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
  std::vector<std::string> p(std::begin(kConvBlocks), std::end(kConvBlocks));
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
  const auto sdp_prec = cfg.precision == golden::Precision::Int16 ? golden::SdpPrecision::Int16 : golden::SdpPrecision::Int8;
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

  Memory& mem = d.memory();
  const golden::ConvRun cr = golden::run_conv(cfg, hw, [&](uint64_t a) { return mem.read(a); }, &d.conv_cbuf());
  const golden::SdpRun sr = golden::run_sdp(
      scfg, d.lut_ram("SDP").tables(), [&](uint64_t a) { return mem.read(a); },
      [&](uint64_t a, uint8_t v) { mem.write(a, v); }, &cr.cacc);

  // Hardware-updated registers of the groups that ran.
  d.set_hw_register("CACC", rcacc::D_OUT_SATURATION::offset, g, cr.stats.out_saturation);
  for (const uint32_t off : {rcdma::D_NAN_INPUT_DATA_NUM::offset, rcdma::D_NAN_INPUT_WEIGHT_NUM::offset,
                             rcdma::D_INF_INPUT_DATA_NUM::offset, rcdma::D_INF_INPUT_WEIGHT_NUM::offset,
                             rcdma::D_PERF_DAT_READ_STALL::offset, rcdma::D_PERF_WT_READ_STALL::offset,
                             rcdma::D_PERF_DAT_READ_LATENCY::offset, rcdma::D_PERF_WT_READ_LATENCY::offset}) {
    d.set_hw_register("CDMA", off, g_cdma, 0);  // integer data, no back-pressure in golden
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

// ---- CDP: LRN from memory through CDP_RDMA (docs/CDP.md) ------------------------------------------

namespace rc = gregs::cdp;
namespace rcr = gregs::cdp_rdma;

std::string cdp_blocked(const GoldenDevice& d, int g) {
  const int gr = d.consumer("CDP_RDMA");
  if (!d.armed("CDP_RDMA", gr)) {
    return fmt::format("CDP group {} is waiting for CDP_RDMA group {} to be armed (CDP_RDMA.D_OP_ENABLE)", g, gr);
  }
  return "";
}

std::vector<std::string> cdp_partners(const GoldenDevice&, int) { return {"CDP_RDMA"}; }

void cdp_run(GoldenDevice& d, int g) {
  const int gr = d.consumer("CDP_RDMA");
  const golden::CdpConfig cfg = golden::decode_cdp([&](uint32_t off) { return d.peek("CDP", off, g); },
                                                   [&](uint32_t off) { return d.peek("CDP_RDMA", off, gr); },
                                                   d.hw().atom_bytes);
  Memory& mem = d.memory();
  const golden::CdpRun r = golden::run_cdp(
      cfg, d.hw(), d.lut_ram("CDP").tables(), [&](uint64_t a) { return mem.read(a); },
      [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  // Statistics of the group that ran (cleared at layer start, so always written). Integer data:
  // no NaN or Inf; no back-pressure in golden.
  d.set_hw_register("CDP", rc::D_OUT_SATURATION::offset, g, r.stats.out_saturation);
  d.set_hw_register("CDP", rc::D_PERF_LUT_UFLOW::offset, g, r.stats.lut.uflow);
  d.set_hw_register("CDP", rc::D_PERF_LUT_OFLOW::offset, g, r.stats.lut.oflow);
  d.set_hw_register("CDP", rc::D_PERF_LUT_HYBRID::offset, g, r.stats.lut.hybrid);
  d.set_hw_register("CDP", rc::D_PERF_LUT_LE_HIT::offset, g, r.stats.lut.le_hit);
  d.set_hw_register("CDP", rc::D_PERF_LUT_LO_HIT::offset, g, r.stats.lut.lo_hit);
  for (const uint32_t off : {rc::D_NAN_INPUT_NUM::offset, rc::D_INF_INPUT_NUM::offset, rc::D_NAN_OUTPUT_NUM::offset,
                             rc::D_PERF_WRITE_STALL::offset}) {
    d.set_hw_register("CDP", off, g, 0);
  }
  d.set_hw_register("CDP_RDMA", rcr::D_PERF_READ_STALL::offset, gr, 0);
  record_memory_layer(d, "CDP", g, golden::cdp_describe(cfg), golden::cdp_output_layout(cfg), r.output);
}

// ---- RUBIK: data-layout transforms, nv_full only (docs/RUBIK.md) ------------------------------------

namespace rrb = gregs::rbk;

void rubik_run(GoldenDevice& d, int g) {
  const golden::RubikConfig cfg = golden::decode_rubik([&](uint32_t off) { return d.peek("RBK", off, g); });
  Memory& mem = d.memory();
  (void)golden::run_rubik(cfg, d.hw(), [&](uint64_t a) { return mem.read(a); },
                          [&](uint64_t a, uint8_t v) { mem.write(a, v); });
  // No back-pressure on the golden device: both stall counters of the group that ran are 0.
  d.set_hw_register("RBK", rrb::D_PERF_READ_STALL::offset, g, 0);
  d.set_hw_register("RBK", rrb::D_PERF_WRITE_STALL::offset, g, 0);
  GoldenLayer layer;  // planar data is no feature cube: the record carries the summary only
  layer.unit = "RUBIK";
  layer.group = g;
  layer.summary = golden::rubik_describe(cfg);
  d.record_layer(std::move(layer));
}

}  // namespace

// The units of the registered engines (units/engine.hpp), in engine order.
const std::vector<GoldenDevice::Unit>& GoldenDevice::units() {
  static const std::vector<Unit> k = [] {
    std::vector<Unit> v;
    for (const units::Engine& e : units::engines()) {
      if (e.golden == nullptr) continue;
      for (Unit& u : e.golden()) v.push_back(std::move(u));
    }
    return v;
  }();
  return k;
}

// The golden units of the engines that predate the registry, for their engine descriptors.
namespace units::golden_units {

GoldenDevice::Unit sdp() { return {"SDP", "SDP", &sdp_blocked, &sdp_partners, &sdp_run, {}, &pdp_raised_by_sdp}; }
GoldenDevice::Unit conv() {
  return {"CACC", "CACC", &conv_blocked, &conv_partners, &conv_run, {{"SDP", "SDP"}, {"CDMA_DAT", "CDMA"}, {"CDMA_WT", "CDMA"}},
          [](const GoldenDevice& d, int) { return pdp_raised_by_sdp(d, d.consumer("SDP")); }};
}
GoldenDevice::Unit pdp() { return {"PDP", "PDP", &pdp_blocked, &pdp_partners, &pdp_run, {}}; }
GoldenDevice::Unit cdp() { return {"CDP", "CDP", &cdp_blocked, &cdp_partners, &cdp_run, {}}; }
GoldenDevice::Unit rubik() {
  return {"RUBIK", "RBK", [](const GoldenDevice&, int) { return std::string(); },
          [](const GoldenDevice&, int) { return std::vector<std::string>(); }, &rubik_run, {}};
}

}  // namespace units::golden_units

}  // namespace dla::harness
