// What NVIDIA's C model cannot judge, and the counters it keeps otherwise than NVDLA documents
// (docs/CMOD.md "Where the model is not a judge"). Each rule is a finding with evidence there; a
// test shows each (tests/cmod/test_cmod_device.cpp).
#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <string>

#include "harness/cmod_device.hpp"
#include "harness/regdb.hpp"

namespace dla::harness {

namespace {

uint32_t field_of(uint32_t word, const RegDef& reg, std::string_view field) {
  const RegField* f = reg.field(field);
  if (f == nullptr) throw std::logic_error(fmt::format("cmod rules: {}.{} has no field {}", reg.block, reg.name, field));
  return (word & f->mask()) >> f->lsb;
}

// The register values a program has written so far, by register and, for a D_ register, by the
// group its block's S_POINTER.PRODUCER pointed at: a D_OP_ENABLE is written with the producer at
// the group it enables, so there the values seen are that group's (NVIDIA's firmware programs
// one group while the other runs, and may enable group 1 before group 0).
class Shadow {
 public:
  void write(const RegDef& reg, uint32_t v) {
    if (reg.name == "S_POINTER" && reg.field("PRODUCER") != nullptr) producer_[reg.block] = static_cast<int>(field_of(v, reg, "PRODUCER"));
    values_[{&reg, reg.dual ? producer(reg.block) : 0}] = v;
  }
  [[nodiscard]] uint32_t value(const char* block, const char* name) const {
    const RegDef* r = RegDb::nvdla().find(fmt::format("{}.{}", block, name));
    if (r == nullptr) throw std::logic_error(fmt::format("cmod rules: no register {}.{}", block, name));
    const auto it = values_.find({r, r->dual ? producer(r->block) : 0});
    return it != values_.end() ? it->second : r->reset;
  }
  [[nodiscard]] int producer(const std::string& block) const {
    const auto it = producer_.find(block);
    return it != producer_.end() ? it->second : 0;
  }
  [[nodiscard]] uint32_t field(const char* block, const char* name, std::string_view f) const {
    return field_of(value(block, name), *RegDb::nvdla().find(fmt::format("{}.{}", block, name)), f);
  }

 private:
  std::map<std::pair<const RegDef*, int>, uint32_t> values_;
  std::map<std::string, int> producer_;
};

// RUBIK contract: the model reads sub-cube j of the input at DAIN + (j x surfaces + s) x
// DAIN_SURF_STRIDE, never at D_CONTRACT_STRIDE_0 (nvdlav1 cmod/rubik/NV_NVDLA_rbk.cpp,
// RubikRdmaSequenceContract); NVDLA's RTL (NV_NVDLA_RUBIK_seq_gen.v) and the documents step by
// CONTRACT_STRIDE_0. The two agree only where that stride is the packed one.
std::string rubik_contract_rule(const Shadow& s) {
  if (s.field("RBK", "D_MISC_CFG", "RUBIK_MODE") != 0) return {};
  const uint32_t prec = s.field("RBK", "D_MISC_CFG", "IN_PRECISION");
  const uint32_t per_atom = prec == 0 ? 32 : 16;
  const uint32_t channels = s.field("RBK", "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL") + 1;
  const uint32_t surfaces = (channels + per_atom - 1) / per_atom;
  const uint32_t surf = s.field("RBK", "D_DAIN_SURF_STRIDE", "DAIN_SURF_STRIDE");
  const uint32_t contract = s.field("RBK", "D_CONTRACT_STRIDE_0", "CONTRACT_STRIDE_0");
  if (uint64_t{contract} == uint64_t{surfaces} * surf) return {};
  return fmt::format(
      "a RUBIK contract whose D_CONTRACT_STRIDE_0 ({} x 32 B) is not its {} input surfaces x DAIN_SURF_STRIDE ({} x 32 "
      "B): the C model ignores D_CONTRACT_STRIDE_0 (docs/CMOD.md, RUBIK)",
      contract, surfaces, surf);
}

// A conv layer's weight ring position, as the model's CDMA and CSC each leave it.
struct ConvWeights {
  uint32_t banks = 0;       // CDMA D_BANK
  uint64_t fetched = 0;     // entries the CDMA fills: D_WEIGHT_BYTES
  uint64_t consumed = 0;    // entries the CSC steps over: the weights its size registers describe
  bool weight_reuse = false;
  bool compressed = false;  // the model's CSC then releases D_WEIGHT_BYTES
};

ConvWeights conv_weights(const Shadow& s, const golden::HwConfig& cfg) {
  const uint64_t entry = static_cast<uint64_t>(cfg.cbuf_entry_bytes);
  const uint64_t bpe = s.field("CSC", "D_MISC_CFG", "PROC_PRECISION") == 0 ? 1 : 2;
  const uint64_t bytes = uint64_t{s.field("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_WIDTH_EXT") + 1} *
                         (s.field("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_HEIGHT_EXT") + 1) *
                         (s.field("CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_CHANNEL_EXT") + 1) *
                         (s.field("CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_KERNEL") + 1) * bpe;
  const uint64_t weight_bytes = s.value("CDMA", "D_WEIGHT_BYTES");
  return {s.value("CDMA", "D_BANK"), (weight_bytes + entry - 1) / entry, (bytes + entry - 1) / entry,
          s.field("CDMA", "D_MISC_CFG", "WEIGHT_REUSE") != 0, s.field("CDMA", "D_WEIGHT_FORMAT", "WEIGHT_FORMAT") != 0};
}

// Two conv layers in a row: the model carries its weight ring over from one to the next, its CDMA
// by D_WEIGHT_BYTES (which NVDLA's firmware pads to 128 bytes) and its CSC by the entries it read
// (nvdla/hw master cmod/cdma/NV_NVDLA_cdma.cpp WeightReadRequestSequenceThread, cmod/csc/
// NV_NVDLA_csc.cpp "BANK not change. not reset cbuf pointers"). Where the padding spans an entry,
// on the same banks the second layer reads weights from the wrong place; on other banks the CDMA
// first waits until the CSC has freed every entry it filled
// (WaitUntilWeightEntryPlanedIndexEqualEntryFreeIndex), which never happens: the model hangs.
// NVDLA's RTL CSC counts its weight entries from D_WEIGHT_BYTES as the CDMA does
// (NV_NVDLA_CSC_wl.v, last_weight_entries); this project starts each layer's weights afresh.
std::string conv_ring_rule(const std::optional<ConvWeights>& prev, const ConvWeights& now) {
  if (!prev || prev->fetched == prev->consumed) return {};
  if (prev->banks == now.banks && now.weight_reuse) return {};
  if (prev->banks != now.banks) {
    return fmt::format(
        "a conv layer on other CBUF banks than the conv layer before it, whose D_WEIGHT_BYTES fills {} entries while "
        "its weights take {}: the C model's CDMA waits for its CSC to free the {} entries, which it never does (a "
        "hang; docs/CMOD.md, conv)",
        prev->fetched, prev->consumed, prev->fetched);
  }
  return fmt::format(
      "a conv layer on the same CBUF banks as the conv layer before it, whose D_WEIGHT_BYTES fills {} entries while "
      "its weights take {}: the C model's CSC and CDMA then disagree where the next weights start (docs/CMOD.md, "
      "conv)",
      prev->fetched, prev->consumed);
}

// The first rule by which the model cannot judge `program`, or "". `ring` says whether that rule is
// the weight-ring deviation (which an unpadded D_WEIGHT_BYTES avoids, cmod_judge_plan).
std::string first_rule(const Program& program, const golden::HwConfig& cfg, bool& ring) {
  ring = false;
  if (cfg.cmod.empty()) return fmt::format("{} has no NVIDIA C model", cfg.name);
  Shadow shadow;
  bool bdma_launched[2] = {false, false};
  // Convolutions in the order the model's CDMA runs them: its consumer group first, then
  // alternating, whatever order the groups were enabled in.
  std::optional<ConvWeights> prev_conv;
  std::array<std::optional<ConvWeights>, 2> armed;
  int consumer = 0;
  for (const ProgramStep& st : program.steps) {
    if (st.op == StepOp::WaitIntr && st.intr.starts_with("BDMA_")) {
      bdma_launched[st.intr == "BDMA_1" ? 1 : 0] = false;
    } else if (st.op == StepOp::WaitAny) {
      bdma_launched[0] = bdma_launched[1] = false;
    }
    if (st.op != StepOp::RegWrite || st.reg == nullptr) continue;
    const RegDef& reg = *st.reg;
    shadow.write(reg, st.value);
    if (!reg.extension.empty() && st.value != 0) {
      return fmt::format("it writes {}.{}, this project's extension that NVDLA lacks ({})", reg.block, reg.name,
                         reg.extension);
    }
    if (reg.block == "RBK" && reg.name == "D_OP_ENABLE" && (st.value & 1u) != 0) {
      if (std::string why = rubik_contract_rule(shadow); !why.empty()) return "it runs " + why;
    }
    if (reg.block == "CDMA" && reg.name == "D_OP_ENABLE" && (st.value & 1u) != 0) {
      // Image input in NVIDIA's master C model: only nv_small's build runs it (8-byte CBUF
      // entries); every other master build dies of SIGSEGV on it, NVIDIA's own img traces of
      // nv_small_256 and nv_medium_512 included (docs/CMOD.md "Where the model is not a judge").
      if (shadow.field("CDMA", "D_DATAIN_FORMAT", "DATAIN_FORMAT") != 0 && cfg.cmod.starts_with("master:") &&
          cfg.cbuf_entry_bytes > 8) {
        return fmt::format("it runs image input on {}: NVIDIA's master C model crashes (SIGSEGV) on image input in "
                           "every build with CBUF entries wider than 8 bytes, on NVIDIA's own img traces too "
                           "(docs/CMOD.md)",
                           cfg.name);
      }
      armed[static_cast<std::size_t>(shadow.producer("CDMA"))] = conv_weights(shadow, cfg);
      while (armed[static_cast<std::size_t>(consumer)]) {
        ConvWeights now = *armed[static_cast<std::size_t>(consumer)];
        if (std::string why = conv_ring_rule(prev_conv, now); !why.empty()) {
          ring = true;
          return "it runs " + why;
        }
        if (now.compressed) now.consumed = now.fetched;
        prev_conv = now;
        armed[static_cast<std::size_t>(consumer)].reset();
        consumer ^= 1;
      }
    }
    if (reg.block == "BDMA" && reg.name == "CFG_CMD" && field_of(st.value, reg, "DST_RAM_TYPE") == 0) {
      // nvdlav1 cmod: CV-SRAM writes land one 32-byte atom off up to each 256-byte boundary
      // (its CVIF write path); every copy to MC agrees (docs/CMOD.md, BDMA).
      return "a BDMA copy into CV-SRAM (CFG_CMD.DST_RAM_TYPE = CVSRAM): the C model's CV-SRAM write path shifts the "
             "data (docs/CMOD.md, BDMA)";
    }
    if (reg.block == "BDMA" && (reg.name == "CFG_LAUNCH0" || reg.name == "CFG_LAUNCH1") && (st.value & 1u) != 0) {
      const int g = reg.name == "CFG_LAUNCH1" ? 1 : 0;
      bdma_launched[g] = true;
      if (bdma_launched[0] && bdma_launched[1]) {
        return "both BDMA groups launched before either is waited for: the C model loses one group's interrupt "
               "(docs/CMOD.md, BDMA)";
      }
    }
  }
  return {};
}

// Every uncompressed conv layer's D_WEIGHT_BYTES (CDMA's and CSC's) as the
// CBUF entries its weights take, where the program writes more: step index -> value. Empty when a
// write serves layers of different sizes (then the program is left as it is).
std::map<std::size_t, uint32_t> unpadded_weight_bytes(const Program& program, const golden::HwConfig& cfg) {
  std::map<std::size_t, uint32_t> writes;
  std::map<std::pair<std::string, int>, std::size_t> last;  // (block, group) -> step of its D_WEIGHT_BYTES
  Shadow shadow;
  for (std::size_t i = 0; i < program.steps.size(); ++i) {
    const ProgramStep& st = program.steps[i];
    if (st.op != StepOp::RegWrite || st.reg == nullptr) continue;
    const RegDef& reg = *st.reg;
    shadow.write(reg, st.value);
    if (reg.name == "D_WEIGHT_BYTES" && (reg.block == "CDMA" || reg.block == "CSC")) {
      last[{reg.block, shadow.producer(reg.block)}] = i;
    }
    if (reg.block != "CDMA" || reg.name != "D_OP_ENABLE" || (st.value & 1u) == 0) continue;
    const ConvWeights w = conv_weights(shadow, cfg);
    if (w.compressed) continue;
    const uint64_t bytes = w.consumed * static_cast<uint64_t>(cfg.cbuf_entry_bytes);
    for (const char* block : {"CDMA", "CSC"}) {
      const auto it = last.find({block, shadow.producer(block)});
      if (it == last.end() || program.steps[it->second].value <= bytes) continue;
      const auto [w_it, inserted] = writes.emplace(it->second, static_cast<uint32_t>(bytes));
      if (!inserted && w_it->second != bytes) return {};
    }
  }
  return writes;
}

}  // namespace

std::string cmod_cannot_judge(const Program& program, const golden::HwConfig& cfg) {
  bool ring = false;
  return first_rule(program, cfg, ring);
}

CmodJudgePlan cmod_judge_plan(const Program& program, const golden::HwConfig& cfg) {
  CmodJudgePlan plan;
  bool ring = false;
  plan.cannot = first_rule(program, cfg, ring);
  if (plan.cannot.empty() || !ring) return plan;
  std::map<std::size_t, uint32_t> writes = unpadded_weight_bytes(program, cfg);
  if (writes.empty()) return plan;
  Program adapted = program;
  for (const auto& [i, v] : writes) adapted.steps[i].value = v;
  if (std::string why = first_rule(adapted, cfg, ring); !why.empty()) {
    plan.cannot = std::move(why);
    return plan;
  }
  plan.cannot.clear();
  plan.adaptation.why = fmt::format(
      "on the program with {} D_WEIGHT_BYTES write(s) as the CBUF entries the layer's weights take, not padded to "
      "128 bytes: the model's weight-ring deviation (docs/CMOD.md)",
      writes.size());
  plan.adaptation.writes = std::move(writes);
  return plan;
}

namespace {

// The program fetches image input (CDMA D_DATAIN_FORMAT.DATAIN_FORMAT = PIXEL in a group it writes).
bool writes_image_input(const Program& program) {
  for (const ProgramStep& st : program.steps) {
    if (st.op != StepOp::RegWrite || st.reg->block != "CDMA" || st.reg->name != "D_DATAIN_FORMAT") continue;
    if (const RegField* f = st.reg->field("DATAIN_FORMAT"); f != nullptr && (st.value & f->mask()) != 0) return true;
  }
  return false;
}

}  // namespace

std::string cmod_uncompared_read(const Program& program, const RegDef& reg, uint32_t cmod_value, uint32_t expected) {
  if (reg.block == "CDMA" && (reg.name == "D_NAN_INPUT_DATA_NUM" || reg.name == "D_INF_INPUT_DATA_NUM") &&
      cmod_value > expected && writes_image_input(program)) {
    return "the C model counts fp16 image NaN / Inf over its line buffer to the end of the last atom, of which it "
           "fills only one pixel past the image: the rest is uninitialised memory, so its count can be higher and "
           "changes from run to run (docs/CMOD.md, counters)";
  }
  if (reg.block == "PDP" && (reg.name == "D_NAN_INPUT_NUM" || reg.name == "D_INF_INPUT_NUM") && cmod_value < expected) {
    return "the C model counts fp16 NaN / Inf input only until PDP's layer is done, which can come before PDP_RDMA "
           "delivers the last surface's rows below the last window (fewer, by timing; docs/CMOD.md, counters)";
  }
  if (reg.block == "CDP" && reg.name == "D_OUT_SATURATION") {
    return "the C model counts CDP output saturation otherwise (more, also where no output is at a limit; "
           "docs/CMOD.md, counters)";
  }
  if ((reg.block == "CDP" || reg.block == "SDP") && reg.name.starts_with("D_PERF_LUT_")) {
    return "the C model counts LUT hits per slot of its own loop, and while D_PERF_ENABLE is 0 (docs/CMOD.md, "
           "counters)";
  }
  if (reg.block == "CDMA" && reg.name == "S_CBUF_FLUSH_STATUS" && cmod_value > expected) {
    return "the C model has no CBUF flush after reset: it sets FLUSH_DONE at construction (NV_NVDLA_cdma.cpp), "
           "where the hardware reads 0 for its first thousands of cycles (docs/CMOD.md, counters)";
  }
  if (reg.name.find("STALL") != std::string::npos) {
    return "stall counts measure timing, which the C model does not model as the hardware (docs/CMOD.md, counters)";
  }
  return {};
}

}  // namespace dla::harness
