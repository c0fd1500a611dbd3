// NVIDIA's KMD firmware, re-expressed as a register-program generator (docs/LOADABLES.md): the
// scheduler's walk of a DLA1 task's dependency graph (ops prepared into a free register group,
// programmed, enabled when their dependency counts reach 0, consumers updated on the
// programmed / enabled / completed events) and each op's register writes, read from NVIDIA's
// scheduler.c, conv.c, sdp.c, pdp.c, cdp.c, bdma.c, rubik.c and common.c for the facts (which
// register gets which descriptor field, in which order). Register and field names and the named
// values come from the register database (regs/nvdla-registers.json).
//
// The firmware reacts to interrupts as they come; a register program is a fixed list. The
// generator therefore decides the order the interrupts are handled in: the op enabled first is
// the one waited for first, unless data still has to stream into it from a fused parent that is
// not enabled yet (a conv's SDP, enabled before its conv, waits for that conv's enable). Any
// order the hardware could produce is one the firmware handles, and a running op never needs the
// host to finish (its inputs were enabled before it), so the order never deadlocks a correct graph.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include "golden/fp.hpp"
#include "harness/dla_descriptors.hpp"
#include "harness/errors.hpp"
#include "harness/loadable_runner.hpp"
#include "loadable_task.hpp"
#include "harness/regdb.hpp"

namespace dla::harness::loadable {

namespace {

using namespace ::dla::harness::fw;

// Register writes by block, register and field name, through the register database.
class Emitter {
 public:
  Emitter(Program& p, std::string file) : p_(p), file_(std::move(file)), db_(RegDb::nvdla()) {}

  std::string context;  // "task 0 op 1 (sdp), group 0"

  [[nodiscard]] const RegDef& reg(std::string_view block, std::string_view name) const {
    const RegDef* r = db_.find(fmt::format("{}.{}", block, name));
    if (r == nullptr) throw std::logic_error(fmt::format("loadable firmware: no register {}.{}", block, name));
    return *r;
  }
  // A field's value at its place, unmasked (the firmware shifts without masking).
  [[nodiscard]] uint32_t f(std::string_view block, std::string_view name, std::string_view field, uint32_t v) const {
    const RegField* rf = reg(block, name).field(field);
    if (rf == nullptr) throw std::logic_error(fmt::format("loadable firmware: no field {}.{}.{}", block, name, field));
    return v << rf->lsb;
  }
  // The same, masked to the field (where the firmware masks).
  [[nodiscard]] uint32_t fm(std::string_view block, std::string_view name, std::string_view field, uint32_t v) const {
    const RegField* rf = reg(block, name).field(field);
    if (rf == nullptr) throw std::logic_error(fmt::format("loadable firmware: no field {}.{}.{}", block, name, field));
    return (v << rf->lsb) & rf->mask();
  }
  // A named value of a field (the RDL's enum), at its place.
  [[nodiscard]] uint32_t e(std::string_view block, std::string_view name, std::string_view field,
                           std::string_view value) const {
    const RegDef& r = reg(block, name);
    const auto v = r.enum_value(field, value);
    if (!v) throw std::logic_error(fmt::format("loadable firmware: no value {} of {}.{}.{}", value, block, name, field));
    return *v << r.field(field)->lsb;
  }
  // The named value only (not shifted), for tables indexed by a descriptor field.
  [[nodiscard]] uint32_t ev(std::string_view block, std::string_view name, std::string_view field,
                            std::string_view value) const {
    return e(block, name, field, value) >> reg(block, name).field(field)->lsb;
  }

  void write(std::string_view block, std::string_view name, uint32_t value) {
    ProgramStep& s = add(StepOp::RegWrite, fmt::format("reg_write {}.{}", block, name));
    s.reg = &reg(block, name);
    s.value = value;
  }
  void poll(std::string_view block, std::string_view name, uint32_t mask, uint32_t value, bool not_equal) {
    ProgramStep& s = add(StepOp::RegRead, fmt::format("poll {}.{}", block, name));
    s.reg = &reg(block, name);
    s.mask = mask;
    s.value = value;
    s.poll_reads = kPollReads;
    s.poll_not_equal = not_equal;
  }
  void wait(const std::string& intr) {
    ProgramStep& s = add(StepOp::WaitIntr, "wait_intr " + intr);
    s.intr = intr;
  }
  void check(uint64_t addr, uint64_t size, const std::string& what) {
    ProgramStep& s = add(StepOp::Check, "check golden of " + what);
    s.check = CheckKind::Golden;
    s.addr = addr;
    s.size = size;
  }
  void load(uint64_t addr, std::vector<uint8_t> bytes, const std::string& what) {
    ProgramStep& s = add(StepOp::MemLoad, "mem_load " + what);
    s.addr = addr;
    s.bytes = std::move(bytes);
  }
  void fill(uint64_t addr, uint64_t size, const std::string& what) {
    ProgramStep& s = add(StepOp::MemFill, "mem_fill " + what);
    s.addr = addr;
    s.size = size;
    s.fill = 0;
  }

 private:
  ProgramStep& add(StepOp op, const std::string& what) {
    ProgramStep s;
    s.op = op;
    s.where = context.empty() ? fmt::format("{}: step {} ({})", file_, p_.steps.size(), what)
                              : fmt::format("{}: {}: step {} ({})", file_, context, p_.steps.size(), what);
    p_.steps.push_back(std::move(s));
    return p_.steps.back();
  }

  Program& p_;
  std::string file_;
  const RegDb& db_;
};

uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

// The interrupt of each op type's completion (the firmware's ISR: CACC done ends a convolution).
const char* done_unit(int type) {
  static constexpr std::array<const char*, kOpTypes> kUnits = {"BDMA", "CACC", "SDP", "PDP", "CDP", "RUBIK"};
  return kUnits[static_cast<std::size_t>(type)];
}
const char* intr_mask_field(int type) {
  static constexpr std::array<const char*, kOpTypes> kFields = {"BDMA_DONE_MASK", "CACC_DONE_MASK", "SDP_DONE_MASK",
                                                                "PDP_DONE_MASK", "CDP_DONE_MASK", "RUBIK_DONE_MASK"};
  return kFields[static_cast<std::size_t>(type)];
}

struct OpNode {
  CommonOpDesc dep;
  int deps = 0;  // the dependency count, counted down by the events
  bool prepared = false, enabled = false, completed = false;
  ConvOpDesc conv;
  ConvSurfaceDesc conv_s;
  SdpOpDesc sdp;
  SdpSurfaceDesc sdp_s;
  PdpOpDesc pdp;
  CdpOpDesc cdp;
  RubikOpDesc rubik;
  InOutSurfaceDesc io;  // PDP, CDP, RUBIK
  BdmaSurfaceDesc bdma_s;
  std::size_t record = 0;
};

struct Group {
  int op = -1;
  bool pending = false, active = false, programming = false, rdma_needed = false;
  int rdma_id = 0;
  int lut_index = -1;
};

struct Processor {
  std::array<Group, 2> groups;
  uint8_t group_status = 0, rdma_status = 0;
  int tail = -1;
  int hw_consumer = 0, hw_rdma_consumer = 0;  // the hardware's consumer pointers
};

class Firmware {
 public:
  Firmware(const Loadable& l, const golden::HwConfig& hw, std::size_t task_no, const Plan& plan,
           const std::vector<std::vector<uint8_t>>& images, Emitter& em, std::vector<OpRecord>& records,
           uint32_t& intr_mask)
      : l_(l), hw_(hw), task_no_(task_no), task_(l.tasks[task_no]), plan_(plan), view_(l, task_no, plan, images), em_(em),
        records_(records), intr_mask_(intr_mask) {}

  void run() {
    where_ = view_.where();
    layout_.version = descriptor_version();
    const std::vector<uint8_t> nd = read(0, 0, kNetworkDescBytes, "the network descriptor (address 0)");
    net_ = decode_network(Bytes(nd, l_.file, where_ + " network descriptor"));
    if (net_.num_operations == 0) return;
    if (net_.num_rois != 1 || net_.dynamic_roi != 0) {
      bad(fmt::format("the network has {} ROIs{}: dlacosim runs one ROI (static region of interest) only",
                      net_.num_rois, net_.dynamic_roi != 0 ? " and a dynamic ROI" : ""));
    }
    ops_.resize(net_.num_operations);
    const std::vector<uint8_t> deps = read(net_.dependency_graph_index, 0,
                                           kCommonOpDescBytes * net_.num_operations, "the dependency graph");
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      ops_[i].dep = decode_common(Bytes(std::span(deps).subspan(i * kCommonOpDescBytes, kCommonOpDescBytes), l_.file,
                                        fmt::format("{} dependency graph entry {}", where_, i)));
      ops_[i].deps = ops_[i].dep.dependency_count;
    }
    for (std::size_t i = 0; i < ops_.size(); ++i) check_links(static_cast<int>(i));
    for (int t = 0; t < kOpTypes; ++t) {
      const int16_t head = net_.op_head[static_cast<std::size_t>(t)];
      if (head != -1 && (head < 0 || head >= static_cast<int>(ops_.size()))) {
        bad(fmt::format("network op_head[{}] ({}) is {}: not an op of the {} in the graph", t, op_type_name(t), head,
                        ops_.size()));
      }
      if (head >= 0 && ops_[static_cast<std::size_t>(head)].dep.op_type != t) {
        bad(fmt::format("network op_head[{}] ({}) names op {}, whose type is {}", t, op_type_name(t), head,
                        op_type_name(ops_[static_cast<std::size_t>(head)].dep.op_type)));
      }
    }
    // Initiate the processors: the head op of each type is submitted, the next one queued behind it.
    for (int t = 0; t < kOpTypes; ++t) {
      const int16_t head = net_.op_head[static_cast<std::size_t>(t)];
      if (head < 0) continue;
      submit(t, head);
      dequeue(t);
    }
    while (done_ < static_cast<int>(ops_.size())) {
      if (running_.empty()) {
        std::string left;
        for (std::size_t i = 0; i < ops_.size(); ++i) {
          if (!ops_[i].completed) left += fmt::format("{}{} ({})", left.empty() ? "" : ", ", i, op_type_name(ops_[i].dep.op_type));
        }
        bad(fmt::format("the dependency graph never runs op(s) {}: nothing is running and their dependency counts "
                        "never reach 0 (a cycle, or a count larger than the events its producers send)",
                        left));
      }
      // The next done interrupt comes from the earliest enabled op whose on-the-fly input is
      // flowing (a fused SDP or PDP cannot finish before the op feeding it is enabled too) and
      // whose group the hardware runs now: a group enabled before the other one waits for it (the
      // consumer pointer), which happens when a fused chain is enabled downstream first. BDMA's
      // two groups are its own queue.
      auto next = std::find_if(running_.begin(), running_.end(), [&](const auto& r) {
        const Processor& p = procs_[static_cast<std::size_t>(r.first)];
        return (r.first == static_cast<int>(OpType::Bdma) || r.second == p.hw_consumer) &&
               fed(p.groups[static_cast<std::size_t>(r.second)].op);
      });
      if (next == running_.end()) {
        bad(fmt::format("{} waits for its fused parent, or for its processor's other group, which is never enabled",
                        op_name(procs_[static_cast<std::size_t>(running_.front().first)]
                                    .groups[static_cast<std::size_t>(running_.front().second)]
                                    .op)));
      }
      const auto [type, g] = *next;
      running_.erase(next);
      complete(type, g);
    }
  }

 private:
  [[noreturn]] void bad(const std::string& rule) const { throw InputError(l_.file, where_, rule); }

  // The descriptor interface version: the version of the blob in the network descriptor's memory.
  loadable::Version descriptor_version() {
    const Blob& b = view_.descriptor_blob("the network descriptor");
    if (!layout_supported(b.version)) {
      bad(fmt::format("descriptor interface version {} (blob \"{}\") is not one dlacosim decodes (0.10, 0.11, 0.12)",
                      b.version.text(), b.name));
    }
    return b.version;
  }

  const AddressEntry& address_entry(int index, const char* what) const { return view_.address_entry(index, what); }

  // The device address of task address `index` + `offset` (dla_get_dma_cube_address).
  uint64_t address(int index, uint64_t offset, const char* what) const { return view_.address(index, offset, what); }

  // `bytes` bytes of task address `index` + `offset` as the memories hold them before the run.
  std::vector<uint8_t> read(int index, uint64_t offset, std::size_t bytes, const char* what) const {
    return view_.read(index, offset, bytes, what);
  }

  // A data cube in memory: its address, and its `size` bytes inside its memory (the firmware
  // trusts the descriptor; a hostile one is refused here instead of reading or writing outside).
  uint64_t cube_address(const DataCube& c, const char* what) const {
    const uint64_t a = address(c.address, c.offset, what);
    view_.check_inside(c.address, c.offset, c.size, what);
    return a;
  }

  void check_links(int i) const {
    const CommonOpDesc& d = ops_[static_cast<std::size_t>(i)].dep;
    if (d.op_type >= kOpTypes) bad(fmt::format("op {} has op type {}, which the firmware does not know (0..5)", i, d.op_type));
    const auto link = [&](const Consumer& c, const std::string& what) {
      if (c.index == -1) return;
      if (c.index < 0 || c.index >= static_cast<int>(ops_.size())) {
        bad(fmt::format("op {}'s {} is op {}, not an op of the {} in the graph", i, what, c.index, ops_.size()));
      }
      if (c.event < kEventCompleted || c.event > kEventCdmaDtDone) {
        bad(fmt::format("op {}'s {} waits for event {}, which the firmware does not send (1..5)", i, what, c.event));
      }
    };
    for (int t = 0; t < kOpTypes; ++t) {
      const Consumer& c = d.consumers[static_cast<std::size_t>(t)];
      link(c, fmt::format("{} consumer", op_type_name(t)));
      if (c.index >= 0 && ops_[static_cast<std::size_t>(c.index)].dep.op_type != t) {
        bad(fmt::format("op {}'s {} consumer is op {}, whose type is {}", i, op_type_name(t), c.index,
                        op_type_name(ops_[static_cast<std::size_t>(c.index)].dep.op_type)));
      }
    }
    link(d.fused_parent, "fused parent");
    if (d.fused_parent.index >= 0 && ops_[static_cast<std::size_t>(d.fused_parent.index)].dep.op_type + 1 != d.op_type) {
      bad(fmt::format("op {} ({})'s fused parent is op {} ({}): a fused parent is the op type before it", i,
                      op_type_name(d.op_type), d.fused_parent.index,
                      op_type_name(ops_[static_cast<std::size_t>(d.fused_parent.index)].dep.op_type)));
    }
  }

  // Whether an op's fused parents (the ops streaming data into it) are all enabled.
  [[nodiscard]] bool fed(int i) const {
    for (int p = ops_[static_cast<std::size_t>(i)].dep.fused_parent.index; p >= 0;
         p = ops_[static_cast<std::size_t>(p)].dep.fused_parent.index) {
      if (!ops_[static_cast<std::size_t>(p)].enabled) return false;
    }
    return true;
  }

  std::string op_name(int i) const {
    return fmt::format("op {} ({})", i, op_type_name(ops_[static_cast<std::size_t>(i)].dep.op_type));
  }

  // Reads an op's operation and surface descriptors (dla_read_config) and checks what dlacosim models.
  void read_config(int i) {
    OpNode& n = ops_[static_cast<std::size_t>(i)];
    const std::string at = fmt::format("{} {}", where_, op_name(i));
    const auto op_bytes = read(net_.operation_desc_index, kOpContainerBytes * static_cast<uint64_t>(i),
                               kOpContainerBytes, "the operation descriptor list");
    const auto surf_bytes = read(net_.surface_desc_index, kSurfaceContainerBytes * static_cast<uint64_t>(i),
                                 kSurfaceContainerBytes, "the surface descriptor list");
    const Bytes ob(op_bytes, l_.file, at + " operation descriptor");
    const Bytes sb(surf_bytes, l_.file, at + " surface descriptor");
    const auto precision = [&](uint8_t p, const char* field) {
      if (p == kPrecisionFp16 && !hw_.int16) bad(fmt::format("{}: {} is fp16, which {} does not have", op_name(i), field, hw_.name));
      if (p > kPrecisionFp16) bad(fmt::format("{}: {} {} is not a precision (0 int8, 1 int16, 2 fp16)", op_name(i), field, p));
      if (p == kPrecisionInt16 && !hw_.int16) bad(fmt::format("{}: {} is int16, which {} does not have", op_name(i), field, hw_.name));
    };
    switch (static_cast<OpType>(n.dep.op_type)) {
      case OpType::Conv:
        n.conv = decode_conv_op(ob);
        n.conv_s = decode_conv_surface(sb, layout_);
        precision(n.conv.in_precision, "in_precision");
        precision(n.conv.out_precision, "out_precision");
        if (n.conv.conv_mode > 1) bad(fmt::format("{}: conv_mode {} is neither direct (0) nor Winograd (1)", op_name(i), n.conv.conv_mode));
        if (n.conv.data_format > 36) bad(fmt::format("{}: data_format {} is not a pixel format or FEATURE (0..36)", op_name(i), n.conv.data_format));
        if (n.conv.pixel_mapping != 0) bad(fmt::format("{}: pixel_mapping {} is not PITCH_LINEAR (0)", op_name(i), n.conv.pixel_mapping));
        if (n.conv.weight_format > 1) bad(fmt::format("{}: weight_format {} is neither uncompressed nor compressed", op_name(i), n.conv.weight_format));
        if (n.conv.mean_format > 1) bad(fmt::format("{}: mean_format {} is neither 0 nor 1", op_name(i), n.conv.mean_format));
        if (n.conv_s.src_data.type > kMemCv || n.conv_s.weight_data.type > kMemCv) {
          bad(fmt::format("{}: a convolution reads its input and weights from memory (MC or CV)", op_name(i)));
        }
        if (n.conv.out_cvt.scale != 1 || n.conv.out_cvt.offset != 0) {
          bad(fmt::format("{}: out_cvt scale {} offset {}: the firmware accepts scale 1 offset 0 only (truncate only)",
                          op_name(i), n.conv.out_cvt.scale, n.conv.out_cvt.offset));
        }
        break;
      case OpType::Sdp: {
        n.sdp = decode_sdp_op(ob);
        n.sdp_s = decode_sdp_surface(sb, layout_);
        precision(n.sdp.src_precision, "src_precision");
        precision(n.sdp.dst_precision, "dst_precision");
        for (const SdpOp* x : {&n.sdp.x1_op, &n.sdp.x2_op, &n.sdp.y_op}) {
          if (x->type > 3 || x->mode > 2 || x->alu_type > 3 || x->act > 3 || x->precision > 2) {
            bad(fmt::format("{}: an SDP op (x1, x2 or y) has a type, mode, ALU, activation or precision the firmware "
                            "does not know",
                            op_name(i)));
          }
          if (x->enable != 0) precision(x->precision, "an operand precision");
        }
        if (n.sdp.batch_num == 0) bad(fmt::format("{}: batch_num 0 (at least 1)", op_name(i)));
        if (n.sdp_s.src_data.type > kMemHw || n.sdp_s.dst_data.type > kMemHw) {
          bad(fmt::format("{}: a cube's memory type is not MC, CV or HW", op_name(i)));
        }
        if (n.sdp.lut_index >= 0 && n.sdp.lut_index >= net_.num_luts) {
          bad(fmt::format("{}: lut_index {} but the network has {} LUTs", op_name(i), n.sdp.lut_index, net_.num_luts));
        }
        break;
      }
      case OpType::Pdp:
        n.pdp = decode_pdp_op(ob);
        n.io = decode_in_out_surface(sb, layout_);
        precision(n.pdp.precision, "precision");
        // vaildate_pdp_configs
        if (n.io.dst_data.type == kMemHw) bad(fmt::format("{}: PDP writes to memory (MC or CV), not HW", op_name(i)));
        if (n.pdp.stride_x < 1 || n.pdp.stride_y < 1 || n.pdp.stride_x > 8 || n.pdp.stride_y > 8) {
          bad(fmt::format("{}: strides {} x {} are outside 1..8", op_name(i), n.pdp.stride_x, n.pdp.stride_y));
        }
        if (n.pdp.split_num > 64 || n.pdp.split_num == 0) bad(fmt::format("{}: split_num {} is outside 1..64", op_name(i), n.pdp.split_num));
        if (n.pdp.pool_width > 7 || n.pdp.pool_height > 7) bad(fmt::format("{}: pool size beyond 8", op_name(i)));
        if (n.pdp.pool_mode > 2) bad(fmt::format("{}: pool_mode {} is not average, max or min", op_name(i), n.pdp.pool_mode));
        if (n.io.src_data.type == kMemHw && n.pdp.split_num != 1) bad(fmt::format("{}: on the fly with split_num {} (1 only)", op_name(i), n.pdp.split_num));
        break;
      case OpType::Cdp:
        n.cdp = decode_cdp_op(ob);
        n.io = decode_in_out_surface(sb, layout_);
        precision(n.cdp.in_precision, "in_precision");
        precision(n.cdp.out_precision, "out_precision");
        if (n.io.src_data.type == kMemHw || n.io.dst_data.type == kMemHw) bad(fmt::format("{}: CDP reads and writes memory, not HW", op_name(i)));
        if (n.cdp.in_precision != n.cdp.out_precision) bad(fmt::format("{}: CDP does not convert precisions", op_name(i)));
        if (n.cdp.local_size != 3 && n.cdp.local_size != 5 && n.cdp.local_size != 7 && n.cdp.local_size != 9) {
          bad(fmt::format("{}: local_size {} is not 3, 5, 7 or 9", op_name(i), n.cdp.local_size));
        }
        if (n.cdp.lut_index >= 0 && n.cdp.lut_index >= net_.num_luts) {
          bad(fmt::format("{}: lut_index {} but the network has {} LUTs", op_name(i), n.cdp.lut_index, net_.num_luts));
        }
        break;
      case OpType::Rubik:
        if (!block_exists("RBK")) bad(fmt::format("{}: RUBIK is not supported for this configuration ({} has no RBK block)", op_name(i), hw_.name));
        n.rubik = decode_rubik_op(ob);
        n.io = decode_in_out_surface(sb, layout_);
        precision(n.rubik.precision, "precision");
        if (n.rubik.mode > 2) bad(fmt::format("{}: mode {} is not contract, split or merge", op_name(i), n.rubik.mode));
        if (n.io.src_data.type == kMemHw || n.io.dst_data.type == kMemHw) bad(fmt::format("{}: RUBIK reads and writes memory", op_name(i)));
        break;
      case OpType::Bdma:
        (void)decode_bdma_op(ob);
        n.bdma_s = decode_bdma_surface(sb);
        if (!block_exists("BDMA")) bad(fmt::format("{}: BDMA is not supported for this configuration ({} has no BDMA block)", op_name(i), hw_.name));
        if (n.bdma_s.num_transfers > 20) bad(fmt::format("{}: {} transfers (at most 20)", op_name(i), n.bdma_s.num_transfers));
        if (n.bdma_s.source_type > 1 || n.bdma_s.destination_type > 1) bad(fmt::format("{}: BDMA memory types are MC or CV", op_name(i)));
        break;
    }
  }

  [[nodiscard]] bool block_exists(std::string_view name) const {
    const RegBlock* b = RegDb::nvdla().block(name);
    return b != nullptr && RegDb::nvdla().block_base(hw_.name, *b).has_value();
  }

  // ---- the scheduler ---------------------------------------------------------------------------

  // utils_get_free_group: a group when one is free, the consumer pointer's when both are.
  bool free_group(int type, int& group, int& rdma) const {
    const Processor& p = procs_[static_cast<std::size_t>(type)];
    if (p.group_status == 0x3) return false;
    group = p.group_status == 0 ? p.hw_consumer : ((p.group_status >> 1) == 0 ? 1 : 0);
    rdma = p.rdma_status == 0 ? p.hw_rdma_consumer : ((p.rdma_status >> 1) == 0 ? 1 : 0);
    return true;
  }

  bool rdma_needed(int i) const {
    const OpNode& n = ops_[static_cast<std::size_t>(i)];
    switch (static_cast<OpType>(n.dep.op_type)) {
      case OpType::Sdp: {
        const auto needs = [](const SdpOp& x) { return x.enable != 0 && x.mode != 0; };
        return n.sdp_s.src_data.type != kMemHw || needs(n.sdp.x1_op) || needs(n.sdp.x2_op) || needs(n.sdp.y_op);
      }
      case OpType::Pdp: return n.io.src_data.type != kMemHw;
      case OpType::Cdp: return true;
      default: return false;
    }
  }

  bool is_ready(int type, int g) const {
    const Processor& p = procs_[static_cast<std::size_t>(type)];
    const Group& grp = p.groups[static_cast<std::size_t>(g)];
    const Group& next = p.groups[static_cast<std::size_t>(1 - g)];
    const OpNode& n = ops_[static_cast<std::size_t>(grp.op)];
    if (type == static_cast<int>(OpType::Sdp) || type == static_cast<int>(OpType::Cdp)) {
      const int lut = type == static_cast<int>(OpType::Sdp) ? n.sdp.lut_index : n.cdp.lut_index;
      if (lut == -1 || next.lut_index == lut) return true;
      if (next.lut_index != -1) return false;
      return !next.active;
    }
    if (type == static_cast<int>(OpType::Bdma)) {
      return !((p.group_status & (1u << (1 - g))) != 0 && !next.active);
    }
    return true;
  }

  void submit(int type, int i) {
    Processor& p = procs_[static_cast<std::size_t>(type)];
    int g = 0, rdma = 0;
    if (!free_group(type, g, rdma)) return;  // both groups busy: dequeued again at a completion
    Group& grp = p.groups[static_cast<std::size_t>(g)];
    grp = Group{};
    grp.op = i;
    grp.rdma_id = rdma;
    read_config(i);
    grp.pending = true;
    p.group_status |= static_cast<uint8_t>(1u << g);
    grp.rdma_needed = rdma_needed(i);
    if (grp.rdma_needed) p.rdma_status |= static_cast<uint8_t>(1u << rdma);
    p.tail = i;
    ops_[static_cast<std::size_t>(i)].prepared = true;
    if (!is_ready(type, g)) return;
    program(type, g);
    if (ops_[static_cast<std::size_t>(i)].deps == 0) enable(i);
  }

  void dequeue(int type) {
    const Processor& p = procs_[static_cast<std::size_t>(type)];
    if (p.tail < 0) return;
    const int next = ops_[static_cast<std::size_t>(p.tail)].dep.consumers[static_cast<std::size_t>(type)].index;
    if (next == -1) return;
    if (ops_[static_cast<std::size_t>(next)].prepared) return;  // already in a group
    submit(type, next);
  }

  void program(int type, int g) {
    Processor& p = procs_[static_cast<std::size_t>(type)];
    Group& grp = p.groups[static_cast<std::size_t>(g)];
    const int i = grp.op;
    grp.programming = true;
    em_.context = fmt::format("task {} {} group {}", task_no_, op_name(i), g);
    set_producer(type, g, grp.rdma_id);
    OpRecord rec;
    rec.task = task_no_;
    rec.index = i;
    rec.type = type;
    rec.group = g;
    current_group_ = g;
    switch (static_cast<OpType>(type)) {
      case OpType::Conv: program_conv(i, g, rec); break;
      case OpType::Sdp: program_sdp(i, grp, rec); break;
      case OpType::Pdp: program_pdp(i, rec); break;
      case OpType::Cdp: program_cdp(i, rec); break;
      case OpType::Rubik: program_rubik(i, rec); break;
      case OpType::Bdma: program_bdma(i, rec); break;
    }
    // The graph's data edges: ops naming this one as a consumer of another type (a consumer of
    // the same type is the processor's queue, not data).
    for (std::size_t k = 0; k < ops_.size(); ++k) {
      const CommonOpDesc& d = ops_[k].dep;
      for (int t = 0; t < kOpTypes; ++t) {
        if (t != d.op_type && d.consumers[static_cast<std::size_t>(t)].index == i) rec.producers.push_back(static_cast<int>(k));
      }
    }
    ops_[static_cast<std::size_t>(i)].record = records_.size();
    records_.push_back(std::move(rec));
    grp.programming = false;
    grp.pending = false;
    update_consumers(i, kEventProgrammed);
  }

  void enable(int i) {
    const int type = ops_[static_cast<std::size_t>(i)].dep.op_type;
    Processor& p = procs_[static_cast<std::size_t>(type)];
    int g = -1;
    for (int k = 0; k < 2; ++k) {
      const Group& grp = p.groups[static_cast<std::size_t>(k)];
      if ((p.group_status & (1u << k)) != 0 && grp.op == i && !grp.pending) g = k;
    }
    if (g < 0) return;  // not programmed yet: enabled when it is
    Group& grp = p.groups[static_cast<std::size_t>(g)];
    if (grp.programming || grp.active) return;
    em_.context = fmt::format("task {} {} group {}", task_no_, op_name(i), g);
    set_producer(type, g, grp.rdma_id);
    switch (static_cast<OpType>(type)) {
      case OpType::Conv:
        em_.poll("CDMA", "S_CBUF_FLUSH_STATUS", em_.reg("CDMA", "S_CBUF_FLUSH_STATUS").field("FLUSH_DONE")->mask(),
                 em_.reg("CDMA", "S_CBUF_FLUSH_STATUS").field("FLUSH_DONE")->mask(), false);
        for (const char* b : {"CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) em_.write(b, "D_OP_ENABLE", em_.e(b, "D_OP_ENABLE", "OP_EN", "ENABLE"));
        break;
      case OpType::Sdp:
      case OpType::Pdp:
      case OpType::Cdp: {
        const std::string blk = type == static_cast<int>(OpType::Sdp)   ? "SDP"
                                : type == static_cast<int>(OpType::Pdp) ? "PDP"
                                                                        : "CDP";
        const std::string rdma = blk + "_RDMA";
        if (grp.rdma_needed) em_.write(rdma, "D_OP_ENABLE", em_.e(rdma, "D_OP_ENABLE", "OP_EN", "ENABLE"));
        em_.write(blk, "D_OP_ENABLE", em_.e(blk, "D_OP_ENABLE", "OP_EN", "ENABLE"));
        break;
      }
      case OpType::Rubik: em_.write("RBK", "D_OP_ENABLE", em_.e("RBK", "D_OP_ENABLE", "OP_EN", "ENABLE")); break;
      case OpType::Bdma:
        if (ops_[static_cast<std::size_t>(i)].bdma_s.num_transfers == 0) break;  // completes at once
        if (g == 0) em_.write("BDMA", "CFG_LAUNCH0", em_.e("BDMA", "CFG_LAUNCH0", "GRP0_LAUNCH", "YES"));
        else em_.write("BDMA", "CFG_LAUNCH1", em_.e("BDMA", "CFG_LAUNCH1", "GRP1_LAUNCH", "YES"));
        break;
    }
    grp.active = true;
    ops_[static_cast<std::size_t>(i)].enabled = true;
    running_.emplace_back(type, g);
    update_consumers(i, kEventEnabled);
  }

  void update_consumers(int i, uint8_t event) {
    const CommonOpDesc& d = ops_[static_cast<std::size_t>(i)].dep;
    for (const auto& c : d.consumers) update_dependency(c, event);
    update_dependency(d.fused_parent, event);
  }

  void update_dependency(const Consumer& c, uint8_t event) {
    if (c.index == -1 || c.event != event) return;
    OpNode& n = ops_[static_cast<std::size_t>(c.index)];
    if (n.deps == 0) {
      bad(fmt::format("{}'s dependency count is already 0 when another event arrives for it (the graph counts fewer "
                      "dependencies than it sends events)",
                      op_name(c.index)));
    }
    if (--n.deps == 0) enable(c.index);
  }

  void complete(int type, int g) {
    Processor& p = procs_[static_cast<std::size_t>(type)];
    Group& grp = p.groups[static_cast<std::size_t>(g)];
    const int i = grp.op;
    OpNode& n = ops_[static_cast<std::size_t>(i)];
    em_.context = fmt::format("task {} {} group {}", task_no_, op_name(i), g);
    // The interrupts the ISR sees for this op (and acknowledges, as the firmware writes the status back).
    if (type == static_cast<int>(OpType::Conv)) {
      em_.wait(fmt::format("CDMA_DAT_{}", g));
      update_consumers(i, kEventCdmaDtDone);
      em_.wait(fmt::format("CDMA_WT_{}", g));
      update_consumers(i, kEventCdmaWtDone);
    }
    if (!(type == static_cast<int>(OpType::Bdma) && n.bdma_s.num_transfers == 0)) {
      em_.wait(fmt::format("{}_{}", done_unit(type), g));
    }
    const OpRecord& rec = records_[n.record];
    if (rec.out_size != 0) em_.check(rec.out_addr, rec.out_size, fmt::format("task {} {}'s output", task_no_, op_name(i)));
    ++done_;
    n.completed = true;
    p.group_status &= static_cast<uint8_t>(~(1u << g));
    if (grp.rdma_needed) {
      p.rdma_status &= static_cast<uint8_t>(~(1u << grp.rdma_id));
      p.hw_rdma_consumer = 1 - grp.rdma_id;
    }
    p.hw_consumer = 1 - g;
    grp.active = false;
    grp.lut_index = -1;
    grp.rdma_needed = false;
    update_consumers(i, kEventCompleted);
    grp.op = -1;
    if (done_ == static_cast<int>(ops_.size())) return;
    Group& next = p.groups[static_cast<std::size_t>(1 - g)];
    if (next.op >= 0 && next.pending) {
      if (is_ready(type, 1 - g)) {
        program(type, 1 - g);
        if (ops_[static_cast<std::size_t>(next.op)].deps == 0) enable(next.op);
      }
    }
    dequeue(type);
  }

  // ---- each op's registers ---------------------------------------------------------------------

  void set_producer(int type, int g, int rdma) {
    const auto ptr = [&](const char* b, int v) { em_.write(b, "S_POINTER", em_.f(b, "S_POINTER", "PRODUCER", static_cast<uint32_t>(v))); };
    switch (static_cast<OpType>(type)) {
      case OpType::Conv:
        for (const char* b : {"CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"}) ptr(b, g);
        break;
      case OpType::Sdp: ptr("SDP", g); ptr("SDP_RDMA", rdma); break;
      case OpType::Pdp: ptr("PDP", g); ptr("PDP_RDMA", rdma); break;
      case OpType::Cdp: ptr("CDP", g); ptr("CDP_RDMA", g); break;  // the firmware points both at the group
      case OpType::Rubik: ptr("RBK", g); break;
      case OpType::Bdma: break;  // BDMA has no pointer: CFG_LAUNCH<g> picks the group
    }
  }

  // dla_enable_intr: unmask the op type's two done interrupts.
  void enable_intr(int type) {
    const std::string f = intr_mask_field(type);
    const uint32_t m = em_.f("GLB", "S_INTR_MASK", f + "0", 1) | em_.f("GLB", "S_INTR_MASK", f + "1", 1);
    intr_mask_ &= ~m;
    em_.write("GLB", "S_INTR_MASK", intr_mask_);
  }

  void program_conv(int i, int g, OpRecord& rec) {
    (void)g;
    const ConvOpDesc& c = ops_[static_cast<std::size_t>(i)].conv;
    const ConvSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].conv_s;
    const auto prec = [&](const char* blk, const char* reg, const char* field, uint8_t p) {
      static constexpr std::array<const char*, 3> kP = {"INT8", "INT16", "FP16"};
      return em_.e(blk, reg, field, kP[p]);
    };
    const auto mode = [&](const char* blk, const char* reg) { return em_.e(blk, reg, "CONV_MODE", c.conv_mode == 0 ? "DIRECT" : "WINOGRAD"); };
    uint64_t weight = 0, wmb = 0, wgs = 0, out = 0;
    if (c.weight_format == 1) {
      if (s.wmb_data.address == -1 || s.wgs_data.address == -1) bad(fmt::format("{}: compressed weights need wmb and wgs data", op_name(i)));
      wmb = cube_address(s.wmb_data, "the weight mask (wmb)");
      wgs = cube_address(s.wgs_data, "the weight group sizes (wgs)");
    }
    if (s.weight_data.address != -1) weight = cube_address(s.weight_data, "the weights");
    if (s.dst_data.address != -1) out = cube_address(s.dst_data, "the convolution's output");
    const uint64_t in = s.src_data.type == kMemHw ? 0 : cube_address(s.src_data, "the convolution's input");
    const uint32_t atom = static_cast<uint32_t>(hw_.atom_bytes);
    for (const auto& [a, what] : {std::pair{weight, "weights"}, std::pair{in, "input"}, std::pair{out, "output"}}) {
      if (a % atom != 0) bad(fmt::format("{}: the {} address {:#x} is not aligned to the {}-byte atom", op_name(i), what, a, atom));
    }
    // CACC
    em_.write("CACC", "D_MISC_CFG", mode("CACC", "D_MISC_CFG") | prec("CACC", "D_MISC_CFG", "PROC_PRECISION", c.out_precision));
    em_.write("CACC", "D_DATAOUT_SIZE_0", em_.f("CACC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH", s.dst_data.width - 1u) |
                                              em_.f("CACC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT", s.dst_data.height - 1u));
    em_.write("CACC", "D_DATAOUT_SIZE_1", em_.f("CACC", "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL", s.dst_data.channel - 1u));
    em_.write("CACC", "D_DATAOUT_ADDR", lo32(out));
    em_.write("CACC", "D_BATCH_NUMBER", c.batch - 1u);
    em_.write("CACC", "D_LINE_STRIDE", s.dst_data.line_stride);
    em_.write("CACC", "D_SURF_STRIDE", s.dst_data.surf_stride);
    if (s.dst_data.width == 1 && s.dst_data.height == 1) {
      if (s.dst_data.line_stride != s.dst_data.width * atom) {
        bad(fmt::format("{}: a 1 x 1 output needs line stride {} (one atom), not {}", op_name(i), atom, s.dst_data.line_stride));
      }
      em_.write("CACC", "D_DATAOUT_MAP", em_.e("CACC", "D_DATAOUT_MAP", "LINE_PACKED", "TRUE") |
                                             em_.e("CACC", "D_DATAOUT_MAP", "SURF_PACKED", "TRUE"));
    } else {
      em_.write("CACC", "D_DATAOUT_MAP", em_.e("CACC", "D_DATAOUT_MAP", "LINE_PACKED", "FALSE") |
                                             em_.e("CACC", "D_DATAOUT_MAP", "SURF_PACKED", "FALSE"));
    }
    em_.write("CACC", "D_CLIP_CFG", c.out_cvt.truncate);
    // CMAC
    const uint32_t cmac = mode("CMAC_A", "D_MISC_CFG") | prec("CMAC_A", "D_MISC_CFG", "PROC_PRECISION", c.out_precision);
    em_.write("CMAC_A", "D_MISC_CFG", cmac);
    em_.write("CMAC_B", "D_MISC_CFG", cmac);
    // CSC
    const auto reuse = [&](const char* blk) {
      return em_.f(blk, "D_MISC_CFG", "DATA_REUSE", c.data_reuse) | em_.f(blk, "D_MISC_CFG", "WEIGHT_REUSE", c.weight_reuse) |
             em_.f(blk, "D_MISC_CFG", "SKIP_DATA_RLS", c.skip_data_rls) |
             em_.f(blk, "D_MISC_CFG", "SKIP_WEIGHT_RLS", c.skip_weight_rls);
    };
    em_.write("CSC", "D_MISC_CFG", mode("CSC", "D_MISC_CFG") | prec("CSC", "D_MISC_CFG", "IN_PRECISION", c.out_precision) |
                                       prec("CSC", "D_MISC_CFG", "PROC_PRECISION", c.out_precision) | reuse("CSC"));
    const bool pixel = c.data_format < 36;
    em_.write("CSC", "D_DATAIN_FORMAT", em_.e("CSC", "D_DATAIN_FORMAT", "DATAIN_FORMAT", pixel ? "PIXEL" : "FEATURE"));
    em_.write("CSC", "D_DATAIN_SIZE_EXT_0", em_.f("CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_WIDTH_EXT", c.input_width_csc - 1u) |
                                                em_.f("CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_HEIGHT_EXT", c.input_height_csc - 1u));
    em_.write("CSC", "D_DATAIN_SIZE_EXT_1", em_.f("CSC", "D_DATAIN_SIZE_EXT_1", "DATAIN_CHANNEL_EXT", c.input_channel_csc - 1u));
    em_.write("CSC", "D_BATCH_NUMBER", em_.f("CSC", "D_BATCH_NUMBER", "BATCHES", c.batch - 1u));
    em_.write("CSC", "D_POST_Y_EXTENSION", em_.f("CSC", "D_POST_Y_EXTENSION", "Y_EXTENSION", c.post_extension));
    em_.write("CSC", "D_ENTRY_PER_SLICE", em_.f("CSC", "D_ENTRY_PER_SLICE", "ENTRIES", c.entry_per_slice - 1u));
    em_.write("CSC", "D_WEIGHT_FORMAT", em_.f("CSC", "D_WEIGHT_FORMAT", "WEIGHT_FORMAT", c.weight_format));
    em_.write("CSC", "D_WEIGHT_SIZE_EXT_0", em_.f("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_WIDTH_EXT", c.kernel_width_csc - 1u) |
                                                em_.f("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_HEIGHT_EXT", c.kernel_height_csc - 1u));
    em_.write("CSC", "D_WEIGHT_SIZE_EXT_1", em_.f("CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_CHANNEL_EXT", c.kernel_channel_csc - 1u) |
                                                em_.f("CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_KERNEL", s.dst_data.channel - 1u));
    em_.write("CSC", "D_WEIGHT_BYTES", s.weight_data.size);
    em_.write("CSC", "D_WMB_BYTES", s.wmb_data.size);
    em_.write("CSC", "D_DATAOUT_SIZE_0", em_.f("CSC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH", c.input_width_cmac - 1u) |
                                             em_.f("CSC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT", c.input_height_cmac - 1u));
    em_.write("CSC", "D_DATAOUT_SIZE_1", em_.f("CSC", "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL", s.dst_data.channel - 1u));
    em_.write("CSC", "D_ATOMICS", em_.f("CSC", "D_ATOMICS", "ATOMICS", static_cast<uint32_t>(s.dst_data.width) * s.dst_data.height - 1u));
    em_.write("CSC", "D_RELEASE", em_.f("CSC", "D_RELEASE", "RLS_SLICES", c.release - 1u));
    const bool direct = c.conv_mode == 0;
    em_.write("CSC", "D_CONV_STRIDE_EXT", em_.f("CSC", "D_CONV_STRIDE_EXT", "CONV_X_STRIDE_EXT", direct ? c.conv_stride_x - 1u : 0u) |
                                              em_.f("CSC", "D_CONV_STRIDE_EXT", "CONV_Y_STRIDE_EXT", direct ? c.conv_stride_y - 1u : 0u));
    em_.write("CSC", "D_DILATION_EXT", em_.f("CSC", "D_DILATION_EXT", "X_DILATION_EXT", c.dilation_x - 1u) |
                                           em_.f("CSC", "D_DILATION_EXT", "Y_DILATION_EXT", c.dilation_y - 1u));
    em_.write("CSC", "D_ZERO_PADDING", em_.f("CSC", "D_ZERO_PADDING", "PAD_LEFT", direct ? c.pad_x_left : 0u) |
                                           em_.f("CSC", "D_ZERO_PADDING", "PAD_TOP", direct ? c.pad_y_top : 0u));
    em_.write("CSC", "D_ZERO_PADDING_VALUE", em_.fm("CSC", "D_ZERO_PADDING_VALUE", "PAD_VALUE", static_cast<uint32_t>(c.pad_val)));
    em_.write("CSC", "D_BANK", em_.f("CSC", "D_BANK", "DATA_BANK", c.data_bank - 1u) | em_.f("CSC", "D_BANK", "WEIGHT_BANK", c.weight_bank - 1u));
    em_.write("CSC", "D_PRA_CFG", c.pra_truncate);
    // CDMA
    em_.write("CDMA", "D_MISC_CFG", mode("CDMA", "D_MISC_CFG") | prec("CDMA", "D_MISC_CFG", "IN_PRECISION", c.in_precision) |
                                        prec("CDMA", "D_MISC_CFG", "PROC_PRECISION", c.out_precision) | reuse("CDMA"));
    // The image formats' register values are their numbers (the descriptor's and the RDL's enums agree).
    em_.write("CDMA", "D_DATAIN_FORMAT", em_.e("CDMA", "D_DATAIN_FORMAT", "DATAIN_FORMAT", pixel ? "PIXEL" : "FEATURE") |
                                             em_.f("CDMA", "D_DATAIN_FORMAT", "PIXEL_FORMAT", pixel ? c.data_format : 0u) |
                                             em_.f("CDMA", "D_DATAIN_FORMAT", "PIXEL_MAPPING", c.pixel_mapping) |
                                             em_.f("CDMA", "D_DATAIN_FORMAT", "PIXEL_SIGN_OVERRIDE", c.pixel_override));
    em_.write("CDMA", "D_DATAIN_SIZE_0", em_.f("CDMA", "D_DATAIN_SIZE_0", "DATAIN_WIDTH", s.src_data.width - 1u) |
                                             em_.f("CDMA", "D_DATAIN_SIZE_0", "DATAIN_HEIGHT", s.src_data.height - 1u));
    em_.write("CDMA", "D_DATAIN_SIZE_1", em_.f("CDMA", "D_DATAIN_SIZE_1", "DATAIN_CHANNEL", s.src_data.channel - 1u));
    em_.write("CDMA", "D_DATAIN_SIZE_EXT_0", em_.f("CDMA", "D_DATAIN_SIZE_EXT_0", "DATAIN_WIDTH_EXT", c.input_width_csc - 1u) |
                                                 em_.f("CDMA", "D_DATAIN_SIZE_EXT_0", "DATAIN_HEIGHT_EXT", c.input_height_csc - 1u));
    em_.write("CDMA", "D_DAIN_RAM_TYPE", em_.e("CDMA", "D_DAIN_RAM_TYPE", "DATAIN_RAM_TYPE", s.src_data.type == kMemCv ? "CVIF" : "MCIF"));
    em_.write("CDMA", "D_DAIN_ADDR_HIGH_0", hi32(in));
    em_.write("CDMA", "D_DAIN_ADDR_LOW_0", lo32(in));
    const uint64_t in_u = in + static_cast<uint64_t>(s.offset_u);
    em_.write("CDMA", "D_DAIN_ADDR_HIGH_1", hi32(in_u));
    em_.write("CDMA", "D_DAIN_ADDR_LOW_1", lo32(in_u));
    em_.write("CDMA", "D_LINE_STRIDE", s.src_data.line_stride);
    em_.write("CDMA", "D_SURF_STRIDE", s.src_data.surf_stride);
    em_.write("CDMA", "D_LINE_UV_STRIDE", s.in_line_uv_stride);
    em_.write("CDMA", "D_DAIN_MAP",
              em_.f("CDMA", "D_DAIN_MAP", "LINE_PACKED", s.src_data.line_stride == s.src_data.width * atom ? 1u : 0u) |
                  em_.f("CDMA", "D_DAIN_MAP", "SURF_PACKED",
                        s.src_data.surf_stride == static_cast<uint32_t>(s.src_data.width) * s.src_data.height * atom ? 1u : 0u));
    em_.write("CDMA", "D_BATCH_NUMBER", em_.f("CDMA", "D_BATCH_NUMBER", "BATCHES", c.batch - 1u));
    em_.write("CDMA", "D_BATCH_STRIDE", c.batch_stride);
    em_.write("CDMA", "D_ENTRY_PER_SLICE", em_.f("CDMA", "D_ENTRY_PER_SLICE", "ENTRIES", c.entry_per_slice - 1u));
    em_.write("CDMA", "D_FETCH_GRAIN", em_.f("CDMA", "D_FETCH_GRAIN", "GRAINS", c.fetch_grain - 1u));
    em_.write("CDMA", "D_WEIGHT_FORMAT", em_.f("CDMA", "D_WEIGHT_FORMAT", "WEIGHT_FORMAT", c.weight_format));
    em_.write("CDMA", "D_WEIGHT_SIZE_0", em_.f("CDMA", "D_WEIGHT_SIZE_0", "BYTE_PER_KERNEL", c.bytes_per_kernel - 1u));
    em_.write("CDMA", "D_WEIGHT_SIZE_1", em_.f("CDMA", "D_WEIGHT_SIZE_1", "WEIGHT_KERNEL", s.dst_data.channel - 1u));
    em_.write("CDMA", "D_WEIGHT_RAM_TYPE", em_.e("CDMA", "D_WEIGHT_RAM_TYPE", "WEIGHT_RAM_TYPE", s.weight_data.type == kMemCv ? "CVIF" : "MCIF"));
    em_.write("CDMA", "D_WEIGHT_ADDR_HIGH", hi32(weight));
    em_.write("CDMA", "D_WEIGHT_ADDR_LOW", lo32(weight));
    em_.write("CDMA", "D_WEIGHT_BYTES", s.weight_data.size);
    if (c.weight_format == 1) {
      em_.write("CDMA", "D_WGS_ADDR_HIGH", hi32(wgs));
      em_.write("CDMA", "D_WGS_ADDR_LOW", lo32(wgs));
      em_.write("CDMA", "D_WMB_ADDR_HIGH", hi32(wmb));
      em_.write("CDMA", "D_WMB_ADDR_LOW", lo32(wmb));
      em_.write("CDMA", "D_WMB_BYTES", s.wmb_data.size);
    }
    em_.write("CDMA", "D_MEAN_FORMAT", em_.e("CDMA", "D_MEAN_FORMAT", "MEAN_FORMAT", c.mean_format != 0 ? "ENABLE" : "DISABLE"));
    if (c.mean_format != 0) {
      em_.write("CDMA", "D_MEAN_GLOBAL_0", em_.fm("CDMA", "D_MEAN_GLOBAL_0", "MEAN_RY", static_cast<uint16_t>(c.mean_ry)) |
                                               em_.fm("CDMA", "D_MEAN_GLOBAL_0", "MEAN_GU", static_cast<uint16_t>(c.mean_gu)));
      em_.write("CDMA", "D_MEAN_GLOBAL_1", em_.fm("CDMA", "D_MEAN_GLOBAL_1", "MEAN_BV", static_cast<uint16_t>(c.mean_bv)) |
                                               em_.fm("CDMA", "D_MEAN_GLOBAL_1", "MEAN_AX", static_cast<uint16_t>(c.mean_ax)));
    }
    if (c.in_cvt.enable != 0) {
      em_.write("CDMA", "D_CVT_CFG", em_.e("CDMA", "D_CVT_CFG", "CVT_EN", "ENABLE") |
                                         em_.f("CDMA", "D_CVT_CFG", "CVT_TRUNCATE", c.in_cvt.truncate));
      em_.write("CDMA", "D_CVT_OFFSET", static_cast<uint32_t>(c.in_cvt.offset));
      em_.write("CDMA", "D_CVT_SCALE", static_cast<uint32_t>(static_cast<int32_t>(c.in_cvt.scale)));
    } else {
      em_.write("CDMA", "D_CVT_CFG", em_.e("CDMA", "D_CVT_CFG", "CVT_EN", "DISABLE"));
    }
    em_.write("CDMA", "D_CONV_STRIDE", em_.f("CDMA", "D_CONV_STRIDE", "CONV_X_STRIDE", c.conv_stride_x - 1u) |
                                           em_.f("CDMA", "D_CONV_STRIDE", "CONV_Y_STRIDE", c.conv_stride_y - 1u));
    em_.write("CDMA", "D_ZERO_PADDING", em_.f("CDMA", "D_ZERO_PADDING", "PAD_LEFT", c.pad_x_left) |
                                            em_.f("CDMA", "D_ZERO_PADDING", "PAD_RIGHT", c.pad_x_right) |
                                            em_.f("CDMA", "D_ZERO_PADDING", "PAD_TOP", c.pad_y_top) |
                                            em_.f("CDMA", "D_ZERO_PADDING", "PAD_BOTTOM", c.pad_y_bottom));
    em_.write("CDMA", "D_ZERO_PADDING_VALUE", em_.fm("CDMA", "D_ZERO_PADDING_VALUE", "PAD_VALUE", static_cast<uint32_t>(c.pad_val)));
    em_.write("CDMA", "D_BANK", em_.f("CDMA", "D_BANK", "WEIGHT_BANK", c.weight_bank - 1u) |
                                    em_.f("CDMA", "D_BANK", "DATA_BANK", c.data_bank - 1u));
    rec.summary = fmt::format("conv {} {}x{}x{} -> {}x{}x{}, kernel {}x{}, {}", c.conv_mode == 0 ? "direct" : "Winograd",
                              s.src_data.width, s.src_data.height, s.src_data.channel, s.dst_data.width,
                              s.dst_data.height, s.dst_data.channel, c.kernel_width_csc, c.kernel_height_csc,
                              golden::precision_code_name(c.in_precision));
    if (s.dst_data.type != kMemHw && s.dst_data.address != -1) {
      rec.out_addr = out;
      rec.out_size = s.dst_data.size;
    }
  }

  void update_lut(bool sdp, const LutParam& lut, uint8_t precision) {
    const char* blk = sdp ? "SDP" : "CDP";
    em_.write(blk, "S_LUT_ACCESS_CFG", em_.e(blk, "S_LUT_ACCESS_CFG", "LUT_TABLE_ID", "LE") |
                                           em_.e(blk, "S_LUT_ACCESS_CFG", "LUT_ACCESS_TYPE", "WRITE"));
    for (const int16_t v : lut.linear_exp_table) em_.write(blk, "S_LUT_ACCESS_DATA", static_cast<uint16_t>(v));
    em_.write(blk, "S_LUT_ACCESS_CFG", em_.e(blk, "S_LUT_ACCESS_CFG", "LUT_TABLE_ID", "LO") |
                                           em_.e(blk, "S_LUT_ACCESS_CFG", "LUT_ACCESS_TYPE", "WRITE"));
    for (const int16_t v : lut.linear_only_table) em_.write(blk, "S_LUT_ACCESS_DATA", static_cast<uint16_t>(v));
    if (lut.method > 1 || lut.hybrid_priority > 1 || lut.underflow_priority > 1 || lut.overflow_priority > 1) {
      bad("a LUT's method or priorities are outside 0..1");
    }
    em_.write(blk, "S_LUT_CFG", em_.f(blk, "S_LUT_CFG", "LUT_LE_FUNCTION", lut.method) |
                                    em_.f(blk, "S_LUT_CFG", "LUT_HYBRID_PRIORITY", lut.hybrid_priority) |
                                    em_.f(blk, "S_LUT_CFG", "LUT_UFLOW_PRIORITY", lut.underflow_priority) |
                                    em_.f(blk, "S_LUT_CFG", "LUT_OFLOW_PRIORITY", lut.overflow_priority));
    const auto u8v = [](int8_t v) { return static_cast<uint32_t>(v); };
    if (lut.method == 0) {  // exponent
      em_.write(blk, "S_LUT_INFO", em_.fm(blk, "S_LUT_INFO", "LUT_LE_INDEX_OFFSET", u8v(lut.linear_exp_offset)) |
                                       em_.fm(blk, "S_LUT_INFO", "LUT_LO_INDEX_SELECT", u8v(lut.linear_only_offset)));
    } else {
      em_.write(blk, "S_LUT_INFO", em_.fm(blk, "S_LUT_INFO", "LUT_LE_INDEX_SELECT", u8v(lut.linear_exp_offset)) |
                                       em_.fm(blk, "S_LUT_INFO", "LUT_LO_INDEX_SELECT", u8v(lut.linear_only_offset)));
    }
    const auto start_end = [&](const char* name, uint64_t v) {
      if (sdp) {
        em_.write(blk, name, lo32(v));
      } else {
        em_.write(blk, fmt::format("{}_LOW", name), lo32(v));
        em_.write(blk, fmt::format("{}_HIGH", name), hi32(v));
      }
    };
    start_end("S_LUT_LE_START", lut.linear_exp_start);
    start_end("S_LUT_LE_END", lut.linear_exp_end);
    start_end("S_LUT_LO_START", lut.linear_only_start);
    start_end("S_LUT_LO_END", lut.linear_only_end);
    if (precision == kPrecisionFp16) bad("an fp16 LUT is not supported (no fp16 datapath yet)");
    const auto scale = [](const LutParam::Slope& s) { return static_cast<uint32_t>(static_cast<uint16_t>(s.scale)); };
    const auto shift = [](const LutParam::Slope& s) { return static_cast<uint32_t>(static_cast<uint8_t>(s.shifter)); };
    em_.write(blk, "S_LUT_LE_SLOPE_SCALE",
              em_.fm(blk, "S_LUT_LE_SLOPE_SCALE", "LUT_LE_SLOPE_UFLOW_SCALE", scale(lut.linear_exp_underflow_slope)) |
                  em_.fm(blk, "S_LUT_LE_SLOPE_SCALE", "LUT_LE_SLOPE_OFLOW_SCALE", scale(lut.linear_exp_overflow_slope)));
    em_.write(blk, "S_LUT_LE_SLOPE_SHIFT",
              em_.fm(blk, "S_LUT_LE_SLOPE_SHIFT", "LUT_LE_SLOPE_UFLOW_SHIFT", shift(lut.linear_exp_underflow_slope)) |
                  em_.fm(blk, "S_LUT_LE_SLOPE_SHIFT", "LUT_LE_SLOPE_OFLOW_SHIFT", shift(lut.linear_exp_overflow_slope)));
    em_.write(blk, "S_LUT_LO_SLOPE_SCALE",
              em_.fm(blk, "S_LUT_LO_SLOPE_SCALE", "LUT_LO_SLOPE_UFLOW_SCALE", scale(lut.linear_only_underflow_slope)) |
                  em_.fm(blk, "S_LUT_LO_SLOPE_SCALE", "LUT_LO_SLOPE_OFLOW_SCALE", scale(lut.linear_only_overflow_slope)));
    em_.write(blk, "S_LUT_LO_SLOPE_SHIFT",
              em_.fm(blk, "S_LUT_LO_SLOPE_SHIFT", "LUT_LO_SLOPE_UFLOW_SHIFT", shift(lut.linear_only_underflow_slope)) |
                  em_.fm(blk, "S_LUT_LO_SLOPE_SHIFT", "LUT_LO_SLOPE_OFLOW_SHIFT", shift(lut.linear_only_overflow_slope)));
  }

  LutParam read_lut(int index) const {
    const auto bytes = read(net_.lut_data_index, kLutParamBytes * static_cast<uint64_t>(index), kLutParamBytes, "the LUT list");
    return decode_lut(Bytes(bytes, l_.file, fmt::format("{} LUT {}", where_, index)));
  }

  void program_sdp(int i, Group& grp, OpRecord& rec) {
    const SdpOpDesc& d = ops_[static_cast<std::size_t>(i)].sdp;
    const SdpSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].sdp_s;
    enable_intr(static_cast<int>(OpType::Sdp));
    const bool fly = s.src_data.type == kMemHw;
    const bool out_dma = s.dst_data.type != kMemHw;
    const auto rdma_on = [](const SdpOp& x) { return x.enable != 0 && x.type != 0 && x.mode != 0; };
    const bool x1_dma = rdma_on(d.x1_op), x2_dma = rdma_on(d.x2_op), y_dma = rdma_on(d.y_op);
    const uint32_t atom = static_cast<uint32_t>(hw_.atom_bytes);
    uint64_t src = 0, dst = 0, x1 = 0, x2 = 0, y = 0;
    if (!fly) src = cube_address(s.src_data, "SDP's input");
    if (out_dma) dst = cube_address(s.dst_data, "SDP's output");
    std::optional<LutParam> lut;
    if (d.lut_index >= 0) {
      grp.lut_index = d.lut_index;
      lut = read_lut(d.lut_index);
    }
    if (x1_dma) x1 = cube_address(s.x1_data, "SDP's x1 operand");
    if (x2_dma) x2 = cube_address(s.x2_data, "SDP's x2 operand");
    if (y_dma) y = cube_address(s.y_data, "SDP's y operand");
    for (const uint64_t a : {src, dst, x1, x2, y}) {
      if (a % atom != 0) bad(fmt::format("{}: address {:#x} is not aligned to the {}-byte atom", op_name(i), a, atom));
    }
    static constexpr std::array<const char*, 3> kP = {"INT8", "INT16", "FP16"};
    const char* R = "SDP_RDMA";
    em_.write(R, "D_FEATURE_MODE_CFG", em_.e(R, "D_FEATURE_MODE_CFG", "FLYING_MODE", "OFF"));
    em_.write(R, "D_BRDMA_CFG", em_.e(R, "D_BRDMA_CFG", "BRDMA_DISABLE", "YES"));
    em_.write(R, "D_NRDMA_CFG", em_.e(R, "D_NRDMA_CFG", "NRDMA_DISABLE", "YES"));
    em_.write(R, "D_ERDMA_CFG", em_.e(R, "D_ERDMA_CFG", "ERDMA_DISABLE", "YES"));
    // The processing precision: int8 output from int16 input processes as int8 (the firmware's table).
    const uint8_t proc = d.dst_precision == kPrecisionInt8 && d.src_precision == kPrecisionInt16 ? kPrecisionInt8 : d.src_precision;
    em_.write(R, "D_FEATURE_MODE_CFG",
              em_.e(R, "D_FEATURE_MODE_CFG", "FLYING_MODE", fly ? "ON" : "OFF") |
                  em_.e(R, "D_FEATURE_MODE_CFG", "WINOGRAD", d.conv_mode == 1 ? "ON" : "OFF") |
                  em_.e(R, "D_FEATURE_MODE_CFG", "IN_PRECISION", kP[d.src_precision]) |
                  em_.e(R, "D_FEATURE_MODE_CFG", "OUT_PRECISION", kP[d.dst_precision]) |
                  em_.e(R, "D_FEATURE_MODE_CFG", "PROC_PRECISION", kP[proc]) |
                  em_.f(R, "D_FEATURE_MODE_CFG", "BATCH_NUMBER", d.batch_num - 1u));
    const auto dma_cfg = [&](const char* reg, const char* pre, bool on, const SdpOp& x, const DataCube& cube) {
      static constexpr std::array<const char*, 4> kUse = {"MUL", "MUL", "ALU", "BOTH"};
      static constexpr std::array<const char*, 3> kMode = {"PER_ELEMENT", "PER_KERNEL", "PER_ELEMENT"};
      const std::string p(pre);
      return em_.e(R, reg, p + "_DISABLE", on ? "NO" : "YES") | em_.e(R, reg, p + "_DATA_USE", kUse[x.type]) |
             em_.e(R, reg, p + "_DATA_SIZE", x.precision == kPrecisionInt8 ? "ONE_BYTE" : "TWO_BYTE") |
             em_.e(R, reg, p + "_DATA_MODE", kMode[x.mode]) |
             em_.e(R, reg, p + "_RAM_TYPE", cube.type == kMemCv ? "CV" : "MC");
    };
    // The BS / BN / EW operand cubes: the same four registers under each stage's name.
    const auto operand_base = [&](const std::string& stage, uint64_t addr, const DataCube& cube) {
      em_.write(R, "D_" + stage + "_BASE_ADDR_LOW", lo32(addr));
      em_.write(R, "D_" + stage + "_BASE_ADDR_HIGH", hi32(addr));
      em_.write(R, "D_" + stage + "_LINE_STRIDE", cube.line_stride);
      em_.write(R, "D_" + stage + "_SURFACE_STRIDE", cube.surf_stride);
    };
    if (grp.rdma_needed) {
      em_.write(R, "D_DATA_CUBE_WIDTH", s.src_data.width - 1u);
      em_.write(R, "D_DATA_CUBE_HEIGHT", s.src_data.height - 1u);
      em_.write(R, "D_DATA_CUBE_CHANNEL", s.src_data.channel - 1u);
      if (!fly) {
        em_.write(R, "D_SRC_BASE_ADDR_LOW", lo32(src));
        em_.write(R, "D_SRC_BASE_ADDR_HIGH", hi32(src));
        em_.write(R, "D_SRC_LINE_STRIDE", s.src_data.line_stride);
        em_.write(R, "D_SRC_SURFACE_STRIDE", s.src_data.surf_stride);
        em_.write(R, "D_SRC_DMA_CFG", em_.e(R, "D_SRC_DMA_CFG", "SRC_RAM_TYPE", s.src_data.type == kMemCv ? "CV" : "MC"));
      }
      em_.write(R, "D_BRDMA_CFG", dma_cfg("D_BRDMA_CFG", "BRDMA", x1_dma, d.x1_op, s.x1_data));
      if (x1_dma) {
        operand_base("BS", x1, s.x1_data);
      }
      em_.write(R, "D_NRDMA_CFG", dma_cfg("D_NRDMA_CFG", "NRDMA", x2_dma, d.x2_op, s.x2_data));
      if (x2_dma) {
        operand_base("BN", x2, s.x2_data);
      }
      em_.write(R, "D_ERDMA_CFG", dma_cfg("D_ERDMA_CFG", "ERDMA", y_dma, d.y_op, s.y_data));
      if (y_dma) {
        operand_base("EW", y, s.y_data);
      }
    }
    if (lut) update_lut(true, *lut, d.src_precision);
    const char* S = "SDP";
    em_.write(S, "D_DATA_CUBE_WIDTH", s.src_data.width - 1u);
    em_.write(S, "D_DATA_CUBE_HEIGHT", s.src_data.height - 1u);
    em_.write(S, "D_DATA_CUBE_CHANNEL", s.src_data.channel - 1u);
    if (out_dma) {
      em_.write(S, "D_DST_BASE_ADDR_HIGH", hi32(dst));
      em_.write(S, "D_DST_BASE_ADDR_LOW", lo32(dst));
      em_.write(S, "D_DST_LINE_STRIDE", s.dst_data.line_stride);
      em_.write(S, "D_DST_SURFACE_STRIDE", s.dst_data.surf_stride);
    }
    static constexpr std::array<const char*, 4> kAlu = {"MAX", "MIN", "SUM", "EQL"};
    const auto yn = [](bool b) { return b ? "YES" : "NO"; };
    // BS (x1) and BN (x2): the same registers with BS_ / BN_ names.
    const auto xstage = [&](const SdpOp& x, const char* P) {
      const std::string p(P);
      const std::string cfg = "D_DP_" + p + "_CFG";
      if (x.alu_type == 3) bad(fmt::format("{}: the {} stage has no EQL ALU (only Y has)", op_name(i), p));
      em_.write(S, cfg, em_.e(S, cfg, p + "_BYPASS", yn(x.enable == 0)) |
                            em_.e(S, cfg, p + "_ALU_BYPASS", yn(!(x.type != 1 && x.type != 0))) |
                            em_.e(S, cfg, p + "_ALU_ALGO", kAlu[x.alu_type]) |
                            em_.e(S, cfg, p + "_MUL_BYPASS", yn(!(x.type != 2 && x.type != 0))) |
                            em_.e(S, cfg, p + "_MUL_PRELU", yn(x.act == 3)) |
                            em_.e(S, cfg, p + "_RELU_BYPASS", yn(x.act != 1)));
      if (x.enable == 0) return;
      const char* from = x.mode == 0 ? "REG" : "MEM";
      if (x.type == 2 || x.type == 3) {
        const std::string r = "D_DP_" + p + "_ALU_CFG";
        em_.write(S, r, em_.e(S, r, p + "_ALU_SRC", from) | em_.f(S, r, p + "_ALU_SHIFT_VALUE", x.shift_value));
      }
      if (x.mode == 0) {
        em_.write(S, "D_DP_" + p + "_ALU_SRC_VALUE", static_cast<uint32_t>(x.alu_operand));
        em_.write(S, "D_DP_" + p + "_MUL_SRC_VALUE", static_cast<uint32_t>(x.mul_operand));
      }
      const std::string r = "D_DP_" + p + "_MUL_CFG";
      em_.write(S, r, em_.e(S, r, p + "_MUL_SRC", from) | em_.f(S, r, p + "_MUL_SHIFT_VALUE", x.truncate));
    };
    xstage(d.x1_op, "BS");
    xstage(d.x2_op, "BN");
    const SdpOp& ew = d.y_op;
    em_.write(S, "D_DP_EW_CFG", em_.e(S, "D_DP_EW_CFG", "EW_BYPASS", yn(ew.enable == 0)) |
                                    em_.e(S, "D_DP_EW_CFG", "EW_ALU_BYPASS", yn(!(ew.type != 1 && ew.type != 0))) |
                                    em_.e(S, "D_DP_EW_CFG", "EW_ALU_ALGO", kAlu[ew.alu_type]) |
                                    em_.e(S, "D_DP_EW_CFG", "EW_MUL_BYPASS", yn(!(ew.type != 2 && ew.type != 0))) |
                                    em_.e(S, "D_DP_EW_CFG", "EW_MUL_PRELU", yn(ew.act == 3)) |
                                    em_.e(S, "D_DP_EW_CFG", "EW_LUT_BYPASS", yn(ew.act != 2)));
    if (ew.enable != 0) {
      const char* from = ew.mode == 0 ? "REG" : "MEM";
      if (ew.type == 2 || ew.type == 3) {
        em_.write(S, "D_DP_EW_ALU_CFG", em_.e(S, "D_DP_EW_ALU_CFG", "EW_ALU_SRC", from) |
                                            em_.e(S, "D_DP_EW_ALU_CFG", "EW_ALU_CVT_BYPASS", yn(ew.alu_cvt.enable == 0)));
        if (ew.mode == 0) {
          em_.write(S, "D_DP_EW_ALU_SRC_VALUE", static_cast<uint32_t>(ew.alu_operand));
        } else {
          em_.write(S, "D_DP_EW_ALU_CVT_OFFSET_VALUE", static_cast<uint32_t>(ew.alu_cvt.offset));
          em_.write(S, "D_DP_EW_ALU_CVT_SCALE_VALUE", static_cast<uint32_t>(static_cast<int32_t>(ew.alu_cvt.scale)));
          em_.write(S, "D_DP_EW_ALU_CVT_TRUNCATE_VALUE", ew.alu_cvt.truncate);
        }
      }
      if (ew.type == 1 || ew.type == 3) {
        em_.write(S, "D_DP_EW_MUL_CFG", em_.e(S, "D_DP_EW_MUL_CFG", "EW_MUL_SRC", from) |
                                            em_.e(S, "D_DP_EW_MUL_CFG", "EW_MUL_CVT_BYPASS", yn(ew.mul_cvt.enable == 0)));
        if (ew.mode == 0) {
          em_.write(S, "D_DP_EW_MUL_SRC_VALUE", static_cast<uint32_t>(ew.mul_operand));
        } else {
          em_.write(S, "D_DP_EW_MUL_CVT_OFFSET_VALUE", static_cast<uint32_t>(ew.mul_cvt.offset));
          em_.write(S, "D_DP_EW_MUL_CVT_SCALE_VALUE", static_cast<uint32_t>(static_cast<int32_t>(ew.mul_cvt.scale)));
          em_.write(S, "D_DP_EW_MUL_CVT_TRUNCATE_VALUE", ew.mul_cvt.truncate);
        }
      }
      em_.write(S, "D_DP_EW_TRUNCATE_VALUE", ew.truncate);
    }
    em_.write(S, "D_FEATURE_MODE_CFG", em_.e(S, "D_FEATURE_MODE_CFG", "FLYING_MODE", fly ? "ON" : "OFF") |
                                           em_.e(S, "D_FEATURE_MODE_CFG", "OUTPUT_DST", out_dma ? "MEM" : "PDP") |
                                           em_.e(S, "D_FEATURE_MODE_CFG", "WINOGRAD", d.conv_mode == 1 ? "ON" : "OFF") |
                                           em_.f(S, "D_FEATURE_MODE_CFG", "BATCH_NUMBER", d.batch_num - 1u));
    em_.write(S, "D_DST_DMA_CFG", em_.e(S, "D_DST_DMA_CFG", "DST_RAM_TYPE", s.dst_data.type == kMemCv ? "CV" : "MC"));
    if (d.batch_num > 1) em_.write(S, "D_DST_BATCH_STRIDE", d.batch_stride);
    em_.write(S, "D_DATA_FORMAT", em_.e(S, "D_DATA_FORMAT", "PROC_PRECISION", kP[proc]) |
                                      em_.e(S, "D_DATA_FORMAT", "OUT_PRECISION", kP[d.dst_precision]));
    em_.write(S, "D_CVT_OFFSET", static_cast<uint32_t>(d.out_cvt.offset));
    em_.write(S, "D_CVT_SCALE", static_cast<uint32_t>(static_cast<int32_t>(d.out_cvt.scale)));
    em_.write(S, "D_CVT_SHIFT", d.out_cvt.truncate);
    rec.summary = fmt::format("sdp {}x{}x{}{}{}, {} -> {}", s.src_data.width, s.src_data.height, s.src_data.channel,
                              fly ? " on the fly" : " from memory", out_dma ? "" : " to PDP",
                              golden::precision_code_name(d.src_precision), golden::precision_code_name(d.dst_precision));
    if (out_dma) {
      rec.out_addr = dst;
      rec.out_size = s.dst_data.size;
    }
  }

  void program_pdp(int i, OpRecord& rec) {
    const PdpOpDesc& d = ops_[static_cast<std::size_t>(i)].pdp;
    const InOutSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].io;
    enable_intr(static_cast<int>(OpType::Pdp));
    const bool fly = s.src_data.type == kMemHw;
    const uint64_t in = fly ? 0 : cube_address(s.src_data, "PDP's input");
    const uint64_t out = s.dst_data.address != -1 ? cube_address(s.dst_data, "PDP's output") : 0;
    static constexpr std::array<const char*, 3> kP = {"INT8", "INT16", "FP16"};
    const auto part = [](uint16_t v) { return v == 0 ? 0u : v - 1u; };
    const char* R = "PDP_RDMA";
    if (!fly) {
      em_.write(R, "D_DATA_CUBE_IN_WIDTH", s.src_data.width - 1u);
      em_.write(R, "D_DATA_CUBE_IN_HEIGHT", s.src_data.height - 1u);
      em_.write(R, "D_DATA_CUBE_IN_CHANNEL", s.src_data.channel - 1u);
      em_.write(R, "D_SRC_BASE_ADDR_HIGH", hi32(in));
      em_.write(R, "D_SRC_BASE_ADDR_LOW", lo32(in));
      em_.write(R, "D_SRC_LINE_STRIDE", s.src_data.line_stride);
      em_.write(R, "D_SRC_SURFACE_STRIDE", s.src_data.surf_stride);
      em_.write(R, "D_DATA_FORMAT", em_.e(R, "D_DATA_FORMAT", "INPUT_DATA", kP[d.precision]));
      em_.write(R, "D_SRC_RAM_CFG", em_.e(R, "D_SRC_RAM_CFG", "SRC_RAM_TYPE", s.src_data.type == kMemCv ? "CV" : "MC"));
      em_.write(R, "D_OPERATION_MODE_CFG", em_.f(R, "D_OPERATION_MODE_CFG", "SPLIT_NUM", d.split_num - 1u));
      em_.write(R, "D_POOLING_KERNEL_CFG", em_.f(R, "D_POOLING_KERNEL_CFG", "KERNEL_WIDTH", d.pool_width) |
                                               em_.f(R, "D_POOLING_KERNEL_CFG", "KERNEL_STRIDE_WIDTH", d.stride_x - 1u));
      em_.write(R, "D_POOLING_PADDING_CFG", em_.f(R, "D_POOLING_PADDING_CFG", "PAD_WIDTH", d.pad_left));
      em_.write(R, "D_PARTIAL_WIDTH_IN", em_.f(R, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_FIRST", part(d.partial_in_width_first)) |
                                             em_.f(R, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_MID", part(d.partial_in_width_mid)) |
                                             em_.f(R, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_LAST", part(d.partial_in_width_last)));
    }
    const char* P = "PDP";
    em_.write(P, "D_DATA_CUBE_IN_WIDTH", em_.f(P, "D_DATA_CUBE_IN_WIDTH", "CUBE_IN_WIDTH", s.src_data.width - 1u));
    em_.write(P, "D_DATA_CUBE_IN_HEIGHT", em_.f(P, "D_DATA_CUBE_IN_HEIGHT", "CUBE_IN_HEIGHT", s.src_data.height - 1u));
    em_.write(P, "D_DATA_CUBE_IN_CHANNEL", em_.f(P, "D_DATA_CUBE_IN_CHANNEL", "CUBE_IN_CHANNEL", s.src_data.channel - 1u));
    em_.write(P, "D_DATA_CUBE_OUT_WIDTH", em_.f(P, "D_DATA_CUBE_OUT_WIDTH", "CUBE_OUT_WIDTH", s.dst_data.width - 1u));
    em_.write(P, "D_DATA_CUBE_OUT_HEIGHT", em_.f(P, "D_DATA_CUBE_OUT_HEIGHT", "CUBE_OUT_HEIGHT", s.dst_data.height - 1u));
    em_.write(P, "D_DATA_CUBE_OUT_CHANNEL", em_.f(P, "D_DATA_CUBE_OUT_CHANNEL", "CUBE_OUT_CHANNEL", s.dst_data.channel - 1u));
    static constexpr std::array<const char*, 3> kPool = {"POOLING_METHOD_AVERAGE", "POOLING_METHOD_MAX", "POOLING_METHOD_MIN"};
    em_.write(P, "D_OPERATION_MODE_CFG", em_.e(P, "D_OPERATION_MODE_CFG", "POOLING_METHOD", kPool[d.pool_mode]) |
                                             em_.e(P, "D_OPERATION_MODE_CFG", "FLYING_MODE", fly ? "ON_FLYING" : "OFF_FLYING") |
                                             em_.f(P, "D_OPERATION_MODE_CFG", "SPLIT_NUM", d.split_num - 1u));
    em_.write(P, "D_PARTIAL_WIDTH_IN", em_.f(P, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_FIRST", part(d.partial_in_width_first)) |
                                           em_.f(P, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_MID", part(d.partial_in_width_mid)) |
                                           em_.f(P, "D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_LAST", part(d.partial_in_width_last)));
    em_.write(P, "D_PARTIAL_WIDTH_OUT", em_.f(P, "D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_FIRST", part(d.partial_width_first)) |
                                            em_.f(P, "D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_MID", part(d.partial_width_mid)) |
                                            em_.f(P, "D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_LAST", part(d.partial_width_last)));
    em_.write(P, "D_POOLING_KERNEL_CFG", em_.f(P, "D_POOLING_KERNEL_CFG", "KERNEL_WIDTH", d.pool_width) |
                                             em_.f(P, "D_POOLING_KERNEL_CFG", "KERNEL_HEIGHT", d.pool_height) |
                                             em_.f(P, "D_POOLING_KERNEL_CFG", "KERNEL_STRIDE_WIDTH", d.stride_x - 1u) |
                                             em_.f(P, "D_POOLING_KERNEL_CFG", "KERNEL_STRIDE_HEIGHT", d.stride_y - 1u));
    // The firmware's table of 1/k: 0.16 fixed point, truncated, or fp17 for fp16 data (pdp.c
    // recip_kernel_size; before session 37 fp16 got the integer values).
    const auto recip = [&](uint8_t size) { return golden::pdp_recip_kernel(d.precision == kPrecisionFp16, size + 1); };
    em_.write(P, "D_RECIP_KERNEL_WIDTH", recip(d.pool_width));
    em_.write(P, "D_RECIP_KERNEL_HEIGHT", recip(d.pool_height));
    em_.write(P, "D_POOLING_PADDING_CFG", em_.f(P, "D_POOLING_PADDING_CFG", "PAD_LEFT", d.pad_left) |
                                              em_.f(P, "D_POOLING_PADDING_CFG", "PAD_RIGHT", d.pad_right) |
                                              em_.f(P, "D_POOLING_PADDING_CFG", "PAD_TOP", d.pad_top) |
                                              em_.f(P, "D_POOLING_PADDING_CFG", "PAD_BOTTOM", d.pad_bottom));
    for (std::size_t k = 0; k < 7; ++k) {
      em_.write(P, fmt::format("D_POOLING_PADDING_VALUE_{}_CFG", k + 1), static_cast<uint32_t>(d.padding_value[k]));
    }
    if (!fly) {
      em_.write(P, "D_SRC_LINE_STRIDE", s.src_data.line_stride);
      em_.write(P, "D_SRC_SURFACE_STRIDE", s.src_data.surf_stride);
    }
    em_.write(P, "D_DST_BASE_ADDR_LOW", lo32(out));
    em_.write(P, "D_DST_BASE_ADDR_HIGH", hi32(out));
    em_.write(P, "D_DST_LINE_STRIDE", s.dst_data.line_stride);
    em_.write(P, "D_DST_SURFACE_STRIDE", s.dst_data.surf_stride);
    em_.write(P, "D_DST_RAM_CFG", em_.e(P, "D_DST_RAM_CFG", "DST_RAM_TYPE", s.dst_data.type == kMemCv ? "CV" : "MC"));
    em_.write(P, "D_DATA_FORMAT", em_.e(P, "D_DATA_FORMAT", "INPUT_DATA", kP[d.precision]));
    static constexpr std::array<const char*, 3> kName = {"average", "max", "min"};
    rec.summary = fmt::format("pdp {} {}x{} stride {}x{}, {}x{}x{} -> {}x{}x{}{}", kName[d.pool_mode], d.pool_width + 1,
                              d.pool_height + 1, d.stride_x, d.stride_y, s.src_data.width, s.src_data.height,
                              s.src_data.channel, s.dst_data.width, s.dst_data.height, s.dst_data.channel,
                              fly ? " on the fly" : "");
    if (s.dst_data.address != -1) {
      rec.out_addr = out;
      rec.out_size = s.dst_data.size;
    }
  }

  void program_cdp(int i, OpRecord& rec) {
    const CdpOpDesc& d = ops_[static_cast<std::size_t>(i)].cdp;
    const InOutSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].io;
    enable_intr(static_cast<int>(OpType::Cdp));
    const uint64_t in = cube_address(s.src_data, "CDP's input");
    const uint64_t out = cube_address(s.dst_data, "CDP's output");
    std::optional<LutParam> lut;
    if (d.lut_index >= 0) {
      procs_[static_cast<std::size_t>(OpType::Cdp)].groups[static_cast<std::size_t>(records_group())].lut_index = d.lut_index;
      lut = read_lut(d.lut_index);
    }
    static constexpr std::array<const char*, 3> kP = {"INT8", "INT16", "FP16"};
    const char* R = "CDP_RDMA";
    em_.write(R, "D_DATA_CUBE_WIDTH", em_.f(R, "D_DATA_CUBE_WIDTH", "WIDTH", s.src_data.width - 1u));
    em_.write(R, "D_DATA_CUBE_HEIGHT", em_.f(R, "D_DATA_CUBE_HEIGHT", "HEIGHT", s.src_data.height - 1u));
    em_.write(R, "D_DATA_CUBE_CHANNEL", em_.f(R, "D_DATA_CUBE_CHANNEL", "CHANNEL", s.src_data.channel - 1u));
    em_.write(R, "D_SRC_BASE_ADDR_LOW", lo32(in));
    em_.write(R, "D_SRC_BASE_ADDR_HIGH", hi32(in));
    em_.write(R, "D_SRC_LINE_STRIDE", s.src_data.line_stride);
    em_.write(R, "D_SRC_SURFACE_STRIDE", s.src_data.surf_stride);
    em_.write(R, "D_SRC_DMA_CFG", em_.e(R, "D_SRC_DMA_CFG", "SRC_RAM_TYPE", s.src_data.type == kMemCv ? "CV" : "MC"));
    em_.write(R, "D_DATA_FORMAT", em_.e(R, "D_DATA_FORMAT", "INPUT_DATA", kP[d.in_precision]));
    if (lut) update_lut(false, *lut, d.in_precision);
    const char* C = "CDP";
    em_.write(C, "D_DST_BASE_ADDR_LOW", lo32(out));
    em_.write(C, "D_DST_BASE_ADDR_HIGH", hi32(out));
    em_.write(C, "D_DST_LINE_STRIDE", s.dst_data.line_stride);
    em_.write(C, "D_DST_SURFACE_STRIDE", s.dst_data.surf_stride);
    em_.write(C, "D_DST_DMA_CFG", em_.e(C, "D_DST_DMA_CFG", "DST_RAM_TYPE", s.dst_data.type == kMemCv ? "CV" : "MC"));
    em_.write(C, "D_DATA_FORMAT", em_.e(C, "D_DATA_FORMAT", "INPUT_DATA_TYPE", kP[d.in_precision]));
    em_.write(C, "D_LRN_CFG", em_.f(C, "D_LRN_CFG", "NORMALZ_LEN", (d.local_size - 1u) / 2u - 1u));
    em_.write(C, "D_DATIN_OFFSET", em_.f(C, "D_DATIN_OFFSET", "DATIN_OFFSET", static_cast<uint32_t>(d.in_cvt.offset)));
    em_.write(C, "D_DATIN_SCALE", em_.f(C, "D_DATIN_SCALE", "DATIN_SCALE", static_cast<uint32_t>(static_cast<int32_t>(d.in_cvt.scale))));
    em_.write(C, "D_DATIN_SHIFTER", em_.f(C, "D_DATIN_SHIFTER", "DATIN_SHIFTER", d.in_cvt.truncate));
    em_.write(C, "D_DATOUT_OFFSET", em_.f(C, "D_DATOUT_OFFSET", "DATOUT_OFFSET", static_cast<uint32_t>(d.out_cvt.offset)));
    em_.write(C, "D_DATOUT_SCALE", em_.f(C, "D_DATOUT_SCALE", "DATOUT_SCALE", static_cast<uint32_t>(static_cast<int32_t>(d.out_cvt.scale))));
    em_.write(C, "D_DATOUT_SHIFTER", em_.f(C, "D_DATOUT_SHIFTER", "DATOUT_SHIFTER", d.out_cvt.truncate));
    em_.write(C, "D_FUNC_BYPASS", em_.e(C, "D_FUNC_BYPASS", "SQSUM_BYPASS", d.bypass_sqsum != 0 ? "ENABLE" : "DISABLE") |
                                      em_.e(C, "D_FUNC_BYPASS", "MUL_BYPASS", d.bypass_out_mul != 0 ? "ENABLE" : "DISABLE"));
    rec.summary = fmt::format("cdp LRN {} {}x{}x{}, {}", d.local_size, s.src_data.width, s.src_data.height,
                              s.src_data.channel, golden::precision_code_name(d.in_precision));
    rec.out_addr = out;
    rec.out_size = s.dst_data.size;
  }

  // The group the op being programmed went to (program() records it before calling).
  [[nodiscard]] int records_group() const { return current_group_; }

  void program_rubik(int i, OpRecord& rec) {
    const RubikOpDesc& d = ops_[static_cast<std::size_t>(i)].rubik;
    const InOutSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].io;
    enable_intr(static_cast<int>(OpType::Rubik));
    const uint64_t in = cube_address(s.src_data, "RUBIK's input");
    const uint64_t out = cube_address(s.dst_data, "RUBIK's output");
    static constexpr std::array<const char*, 3> kMode = {"CONTRACT", "SPLIT", "MERGE"};
    static constexpr std::array<const char*, 3> kP = {"INT8", "INT16", "FP16"};
    const char* B = "RBK";
    em_.write(B, "D_MISC_CFG", em_.e(B, "D_MISC_CFG", "RUBIK_MODE", kMode[d.mode]) | em_.e(B, "D_MISC_CFG", "IN_PRECISION", kP[d.precision]));
    em_.write(B, "D_DAIN_RAM_TYPE", em_.e(B, "D_DAIN_RAM_TYPE", "DATAIN_RAM_TYPE", s.src_data.type == kMemCv ? "CVIF" : "MCIF"));
    em_.write(B, "D_DATAIN_SIZE_0", em_.f(B, "D_DATAIN_SIZE_0", "DATAIN_WIDTH", s.src_data.width - 1u) |
                                        em_.f(B, "D_DATAIN_SIZE_0", "DATAIN_HEIGHT", s.src_data.height - 1u));
    em_.write(B, "D_DATAIN_SIZE_1", em_.f(B, "D_DATAIN_SIZE_1", "DATAIN_CHANNEL", s.src_data.channel - 1u));
    em_.write(B, "D_DAIN_ADDR_LOW", lo32(in));
    em_.write(B, "D_DAIN_ADDR_HIGH", hi32(in));
    if (d.mode == 2) {
      if (s.src_data.plane_stride == 0 || (s.src_data.plane_stride & 0x1f) != 0) {
        bad(fmt::format("{}: MERGE needs a non-zero input plane stride, a multiple of 32 ({})", op_name(i), s.src_data.plane_stride));
      }
      em_.write(B, "D_DAIN_PLANAR_STRIDE", s.src_data.plane_stride);
    } else {
      em_.write(B, "D_DAIN_SURF_STRIDE", s.src_data.surf_stride);
    }
    em_.write(B, "D_DAIN_LINE_STRIDE", s.src_data.line_stride);
    em_.write(B, "D_DAOUT_RAM_TYPE", em_.e(B, "D_DAOUT_RAM_TYPE", "DATAOUT_RAM_TYPE", s.dst_data.type == kMemCv ? "CVIF" : "MCIF"));
    em_.write(B, "D_DATAOUT_SIZE_1", em_.f(B, "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL", s.dst_data.channel - 1u));
    em_.write(B, "D_DAOUT_ADDR_LOW", lo32(out));
    em_.write(B, "D_DAOUT_ADDR_HIGH", hi32(out));
    em_.write(B, "D_DAOUT_LINE_STRIDE", s.dst_data.line_stride);
    if (d.mode != 1) {
      em_.write(B, "D_DAOUT_SURF_STRIDE", s.dst_data.surf_stride);
      if (d.mode == 0) {
        const uint32_t bpe = d.precision == kPrecisionInt8 ? 1u : 2u;
        em_.write(B, "D_CONTRACT_STRIDE_0", (s.dst_data.channel * bpe + 31u) / 32u * s.src_data.surf_stride);
        em_.write(B, "D_CONTRACT_STRIDE_1", d.stride_y * s.dst_data.line_stride);
        em_.write(B, "D_DECONV_STRIDE", em_.f(B, "D_DECONV_STRIDE", "DECONV_X_STRIDE", d.stride_x - 1u) |
                                            em_.f(B, "D_DECONV_STRIDE", "DECONV_Y_STRIDE", d.stride_y - 1u));
      }
    } else {
      em_.write(B, "D_DAOUT_PLANAR_STRIDE", s.dst_data.plane_stride);
    }
    static constexpr std::array<const char*, 3> kName = {"contract", "split", "merge"};
    rec.summary = fmt::format("rubik {} {}x{}x{} -> {}x{}x{}", kName[d.mode], s.src_data.width, s.src_data.height,
                              s.src_data.channel, s.dst_data.width, s.dst_data.height, s.dst_data.channel);
    rec.out_addr = out;
    rec.out_size = s.dst_data.size;
  }

  void program_bdma(int i, OpRecord& rec) {
    const BdmaSurfaceDesc& s = ops_[static_cast<std::size_t>(i)].bdma_s;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (std::size_t k = 0; k < s.num_transfers; ++k) {
      const BdmaTransfer& t = s.transfers[k];
      em_.poll("BDMA", "STATUS", em_.reg("BDMA", "STATUS").field("FREE_SLOT")->mask(), 0, true);
      const uint64_t src = address(t.source_address, 0, "a BDMA source");
      const uint64_t dst = address(t.destination_address, 0, "a BDMA destination");
      // processor_bdma_program_slot's rules.
      if (t.line_repeat > 8192 || t.surface_repeat > 8192 || t.line_size % 32 != 0 || t.line_repeat == 0 ||
          t.surface_repeat == 0 || t.line_size == 0 || t.source_line < t.line_size || t.destination_line < t.line_size ||
          uint64_t{t.source_surface} < uint64_t{t.source_line} * t.line_repeat ||
          uint64_t{t.destination_surface} < uint64_t{t.destination_line} * t.line_repeat) {
        bad(fmt::format("{}: transfer {} breaks the firmware's rules (line size a non-zero multiple of 32, repeats "
                        "1..8192, strides at least a line / a surface)",
                        op_name(i), k));
      }
      // Both regions inside their memories.
      const auto inside = [&](int16_t index, uint64_t extent, const char* what) {
        const AddressEntry& a = address_entry(index, what);
        const MemoryEntry& m = l_.memories[a.mem_id];
        if (a.offset > m.size || extent > m.size - a.offset) {
          bad(fmt::format("{}: transfer {}'s {} ({} bytes from offset {} of memory {}) runs past the memory's {} bytes",
                          op_name(i), k, what, extent, a.offset, a.mem_id, m.size));
        }
      };
      const uint64_t src_extent = uint64_t{t.source_surface} * (t.surface_repeat - 1) + uint64_t{t.source_line} * (t.line_repeat - 1) + t.line_size;
      const uint64_t dst_extent = uint64_t{t.destination_surface} * (t.surface_repeat - 1) +
                                  uint64_t{t.destination_line} * (t.line_repeat - 1) + t.line_size;
      inside(t.source_address, src_extent, "source");
      inside(t.destination_address, dst_extent, "destination");
      lo = std::min(lo, dst);
      hi = std::max(hi, dst + dst_extent);
      const char* B = "BDMA";
      em_.write(B, "CFG_SRC_ADDR_LOW", lo32(src));
      em_.write(B, "CFG_SRC_ADDR_HIGH", hi32(src));
      em_.write(B, "CFG_DST_ADDR_LOW", lo32(dst));
      em_.write(B, "CFG_DST_ADDR_HIGH", hi32(dst));
      em_.write(B, "CFG_LINE", (t.line_size >> 5) - 1u);
      em_.write(B, "CFG_CMD", em_.e(B, "CFG_CMD", "SRC_RAM_TYPE", s.source_type == 1 ? "CVSRAM" : "MC") |
                                  em_.e(B, "CFG_CMD", "DST_RAM_TYPE", s.destination_type == 1 ? "CVSRAM" : "MC"));
      em_.write(B, "CFG_LINE_REPEAT", t.line_repeat - 1u);
      em_.write(B, "CFG_SRC_LINE", t.source_line);
      em_.write(B, "CFG_DST_LINE", t.destination_line);
      em_.write(B, "CFG_SURF_REPEAT", t.surface_repeat - 1u);
      em_.write(B, "CFG_SRC_SURF", t.source_surface);
      em_.write(B, "CFG_DST_SURF", t.destination_surface);
      em_.write(B, "CFG_OP", em_.e(B, "CFG_OP", "EN", "ENABLE"));
    }
    if (s.num_transfers != 0) enable_intr(static_cast<int>(OpType::Bdma));
    rec.summary = fmt::format("bdma {} transfer(s)", s.num_transfers);
    if (s.num_transfers != 0) {
      rec.out_addr = lo;
      rec.out_size = hi - lo;
    }
  }

  const Loadable& l_;
  const golden::HwConfig& hw_;
  std::size_t task_no_;
  const TaskEntry& task_;
  const Plan& plan_;
  TaskView view_;
  Emitter& em_;
  std::vector<OpRecord>& records_;
  uint32_t& intr_mask_;
  std::string where_;
  Layout layout_;
  NetworkDesc net_;
  std::vector<OpNode> ops_;
  std::array<Processor, kOpTypes> procs_{};
  std::deque<std::pair<int, int>> running_;  // (op type, group) in the order they were enabled
  int done_ = 0;
  int current_group_ = 0;
};

}  // namespace

// ---- the runtime: memories, tasks in submit order ---------------------------------------------

Plan plan_loadable(const Loadable& l, const golden::HwConfig& hw, const std::vector<InputBinding>& inputs,
                   const ImageScaling& scaling) {
  Plan plan;
  // Allocation (the runtime's loadMemory): every ALLOC memory gets its own page-aligned region.
  plan.memory_base.assign(l.memories.size(), 0);
  uint64_t next = kMemoryWindowBase;
  std::vector<std::vector<uint8_t>> images(l.memories.size());
  for (std::size_t i = 0; i < l.memories.size(); ++i) {
    const MemoryEntry& m = l.memories[i];
    if ((m.flags & kMemAlloc) == 0) continue;
    const uint64_t align = std::max<uint64_t>(4096, m.alignment);
    if ((align & (align - 1)) != 0) {
      throw InputError(l.file, fmt::format("/memory_list/{}/alignment", i), fmt::format("{} is not a power of two", m.alignment));
    }
    next = (next + align - 1) / align * align;
    if (m.size > kMemoryWindowBase + kMemoryWindowBytes - next) {
      throw InputError(l.file, fmt::format("/memory_list/{}/size", i),
                       fmt::format("{} bytes do not fit the {:#x} bytes of memory dlacosim gives a loadable (at {:#x}); "
                                   "the memories before it take {:#x}",
                                   m.size, kMemoryWindowBytes, kMemoryWindowBase, next - kMemoryWindowBase));
    }
    plan.memory_base[i] = next;
    next += std::max<uint64_t>(m.size, 1);
    // Only memories with content get an image (a declared size costs nothing until then).
    if ((m.flags & kMemSet) != 0 && !m.bindable()) {
      images[i].assign(static_cast<std::size_t>(m.size), 0);
      for (std::size_t c = 0; c < m.contents.size(); ++c) {
        const Blob* b = l.blob(m.contents[c]);
        std::copy_n(b->data.begin(), static_cast<std::ptrdiff_t>(b->size),
                    images[i].begin() + static_cast<std::ptrdiff_t>(m.offsets[c]));
      }
    }
  }
  // Bound inputs: from --input files, else zero (the runtime's buffer as allocated, no image).
  for (const auto& in : inputs) {
    std::optional<std::size_t> mem;
    for (std::size_t i = 0; i < l.memories.size(); ++i) {
      const MemoryEntry& m = l.memories[i];
      if ((m.flags & kMemInput) != 0 && l.tensors[m.tensor_desc_id].name == in.tensor) mem = i;
    }
    if (!mem) {
      std::string names;
      for (const auto& m : l.memories) {
        if ((m.flags & kMemInput) != 0) names += (names.empty() ? "" : ", ") + l.tensors[m.tensor_desc_id].name;
      }
      throw InputError("--input", in.tensor,
                       fmt::format("the loadable has no input tensor of that name (inputs: {})", names.empty() ? "none" : names));
    }
    const TensorDesc& t = l.tensors[l.memories[*mem].tensor_desc_id];
    images[*mem] = in.raw ? raw_tensor_bytes(t, l.memories[*mem].size, *in.raw, in.file.string())
                          : input_tensor_bytes(t, l.memories[*mem].size, in.file, scaling);
  }
  if (const auto out = l.bound_memory(kMemOutput, 0)) {
    plan.output_tensor = l.memories[*out].tensor_desc_id;
    const TensorDesc& t = l.tensors[*plan.output_tensor];
    plan.output_addr = plan.memory_base[t.mem_id] + t.offset;
  }

  uint32_t intr_mask = RegDb::nvdla().find("GLB.S_INTR_MASK")->reset;
  bool first = true;
  for (const SubmitEntry& s : l.submits) {
    for (const uint16_t task : s.task_ids) {
      PlanStep step;
      step.task = task;
      step.program.name = fmt::format("{} task {}", std::filesystem::path(l.file).filename().string(), task);
      step.program.config = hw.name;
      Emitter em(step.program, l.file);
      if (first) {
        // The runtime fills every allocated memory before the first submit.
        for (std::size_t i = 0; i < l.memories.size(); ++i) {
          if ((l.memories[i].flags & kMemAlloc) == 0 || l.memories[i].size == 0) continue;
          const bool any = std::any_of(images[i].begin(), images[i].end(), [](uint8_t v) { return v != 0; });
          if (any) {
            em.load(plan.memory_base[i], images[i], fmt::format("memory {}", i));
          } else {
            em.fill(plan.memory_base[i], l.memories[i].size, fmt::format("memory {} (zero)", i));
          }
        }
        first = false;
      }
      if (l.tasks[task].interface == Interface::Emu1) {
        step.emu = true;
        step.emu_ops = decode_emu_task(l, task, plan, images);
      } else {
        Firmware fw(l, hw, task, plan, images, em, plan.ops, intr_mask);
        fw.run();
      }
      plan.steps.push_back(std::move(step));
    }
  }
  return plan;
}

Program plan_program(const Loadable& l, const Plan& p) {
  Program out;
  for (const auto& s : p.steps) {
    if (s.emu) {
      // Memory loads of the first step still belong to the program.
      if (!s.program.steps.empty() && &s != &p.steps.front()) continue;
      bool later_dla = false;
      for (const auto* t = &s + 1; t < p.steps.data() + p.steps.size(); ++t) later_dla = later_dla || !t->emu;
      if (later_dla) {
        throw InputError(l.file, fmt::format("/task_list/{}", s.task),
                         "an EMU1 task (the runtime's CPU work, e.g. softmax) runs between DLA tasks: it has no "
                         "register-program form, so the loadable cannot be imported as one program (run it instead)");
      }
    }
    if (out.name.empty()) {
      out.name = std::filesystem::path(l.file).filename().string();
      out.config = s.program.config;
    }
    out.steps.insert(out.steps.end(), s.program.steps.begin(), s.program.steps.end());
  }
  return out;
}

}  // namespace dla::harness::loadable
