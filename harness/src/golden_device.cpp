#include "harness/golden_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "golden/nvdla_regs.hpp"
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
  std::vector<const GoldenDevice::Hooks*> hooks;  // engines' hooks that take this block's accesses

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
    for (const Hooks& h : hooks()) {
      if (std::find(h.blocks.begin(), h.blocks.end(), name) != h.blocks.end()) regs->hooks.push_back(&h);
    }
    by_base_[*base] = regs.get();
    blocks_.emplace(name, std::move(regs));
  }
  for (const Hooks& h : hooks()) {
    if (h.reset) h.reset(*this);
  }
}

void GoldenDevice::pass_time() {
  bool changed = false;
  for (const Hooks& h : hooks()) {
    if (h.time_passes && h.time_passes(*this)) changed = true;
  }
  if (changed) try_launch();
}

void GoldenDevice::queue_done(std::string_view intr, std::function<void(GoldenDevice&)> on_release) {
  DoneEvent e;
  e.bit = interrupt_bit(intr);
  e.on_release = std::move(on_release);
  done_queue_.push_back(std::move(e));
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
  for (const Hooks* h : b->hooks) {
    if (h->write && h->write(*this, bname, r, value)) return;
  }
  if (r.name == "S_POINTER") {
    b->producer = static_cast<int>(value & 1u);
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
  for (const Hooks* h : b->hooks) {
    if (!h->read) continue;
    if (const std::optional<uint32_t> v = h->read(*this, bname, r)) return *v;
  }
  if (r.name == "S_POINTER") return static_cast<uint32_t>(b->producer) | (static_cast<uint32_t>(b->consumer) << 16);
  if (r.name == "S_STATUS" && b->grouped) {
    auto status = [&](int g) -> uint32_t { return b->op_en(g) ? (b->consumer == g ? 1u : 2u) : 0u; };
    return status(0) | (status(1) << 16);
  }
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
  pass_time();  // waiting lets time pass
  while ((intr_status_ & (1u << bit)) == 0 && release_next_done()) {
  }
  if ((intr_status_ & (1u << bit)) != 0) {
    w.raised = true;
    return w;
  }
  const std::string unit(intr.substr(0, intr.size() - 2));
  const int g = intr.back() - '0';
  for (const Hooks& h : hooks()) {
    if (!h.never_comes) continue;
    if (std::optional<std::string> why = h.never_comes(*this, intr)) {
      w.detail = std::move(*why);
      return w;
    }
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
  pass_time();  // waiting lets time pass
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
  if (e.on_release) e.on_release(*this);
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

// The units of the registered engines (harness/include/harness/engine.hpp), in engine order.
const std::vector<GoldenDevice::Unit>& GoldenDevice::units() {
  static const std::vector<Unit> k = [] {
    std::vector<Unit> v;
    for (const engines::Engine& e : engines::engines()) {
      if (e.golden == nullptr) continue;
      for (Unit& u : e.golden()) v.push_back(std::move(u));
    }
    return v;
  }();
  return k;
}

const std::vector<GoldenDevice::Hooks>& GoldenDevice::hooks() {
  static const std::vector<Hooks> k = [] {
    std::vector<Hooks> v;
    for (const engines::Engine& e : engines::engines()) {
      if (e.golden_hooks == nullptr) continue;
      for (Hooks& h : e.golden_hooks()) v.push_back(std::move(h));
    }
    return v;
  }();
  return k;
}

}  // namespace dla::harness
