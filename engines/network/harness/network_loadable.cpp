// `dlacosim compile NET.json --loadable OUT.nvdla` (docs/LOADABLES.md "Export"): a compiled
// network written as an NVDLA loadable, the container NVIDIA's runtime and firmware run.
//
// Each hardware layer's register writes (what the network compiler placed) are read back into the
// firmware's descriptors, field by field, as the inverse of what the firmware's `*_program`
// functions write: a convolution becomes a conv op and its fused SDP op, an `sdp` layer an SDP op
// from memory, a `pdp` layer a PDP op. The dependency graph follows NVIDIA's compiler (read from
// its NN_L0_0): the next op of a type waits for its predecessor to be programmed (completed when it
// reads that op's output), a data edge is a consumer waiting for completion, a fused SDP waits for
// its convolution to be programmed and the convolution for the SDP to be enabled.
//
// Memories: the network's memory window first (so its constants and intermediate tensors keep
// their addresses: the runtime places the first memory at the window's base), holding every
// constant as SET content; each network input and output as a bound memory (INPUT / OUTPUT, with
// its tensor descriptor); then the descriptor lists. What a loadable cannot express is refused,
// naming the layer and the rule.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/network/harness/network.hpp"
#include "engines/network/harness/network_internal.hpp"
#include "golden/config.hpp"
#include "golden/cube.hpp"
#include "golden/fp.hpp"
#include "golden/layout.hpp"
#include "harness/dla_descriptors.hpp"
#include "harness/errors.hpp"
#include "harness/loadable.hpp"
#include "harness/program.hpp"
#include "harness/regdb.hpp"

namespace dla::harness::engines {

namespace {

using namespace ::dla::harness::fw;  // NOLINT(google-build-using-namespace): the descriptor types
using loadable::AddressEntry;
using loadable::Blob;
using loadable::Interface;
using loadable::Loadable;
using loadable::MemoryEntry;

constexpr loadable::Version kDescriptorVersion{0, 12, 5};  // NVIDIA's firmware header (dla_fw_version.h)
constexpr Layout kLayout{kDescriptorVersion};
constexpr uint32_t kPageBytes = 4096;

uint64_t page_up(uint64_t v) { return (v + kPageBytes - 1) / kPageBytes * kPageBytes; }

// One layer's register writes: the last value of each register (its group's copy) and field
// reads through the register database.
class LayerRegs {
 public:
  LayerRegs(const NetLayer& L, const std::string& file) : L_(L), file_(file) {
    for (const ProgramStep& s : L.steps) {
      if (s.op != StepOp::RegWrite || s.reg == nullptr) continue;
      if (s.reg->name == "S_POINTER" || s.reg->name == "D_OP_ENABLE") continue;
      values_[s.reg->block + "." + s.reg->name] = s.value;
    }
  }
  [[nodiscard]] const std::vector<ProgramStep>& layer_steps() const { return L_.steps; }
  [[noreturn]] void refuse(const std::string& rule) const {
    throw InputError(file_, L_.pointer, fmt::format("layer \"{}\" ({}) cannot be exported as a loadable: {}", L_.name, L_.op, rule));
  }
  [[nodiscard]] bool written(std::string_view block, std::string_view reg) const {
    return values_.contains(fmt::format("{}.{}", block, reg));
  }
  // A register's value (0 when the layer did not write it: the firmware writes it as 0 then).
  [[nodiscard]] uint32_t reg(std::string_view block, std::string_view reg) const {
    const auto it = values_.find(fmt::format("{}.{}", block, reg));
    return it == values_.end() ? 0u : it->second;
  }
  [[nodiscard]] uint32_t field(std::string_view block, std::string_view reg, std::string_view field) const {
    return field_of(block, reg, field, this->reg(block, reg));
  }
  [[nodiscard]] static uint32_t field_of(std::string_view block, std::string_view reg, std::string_view field,
                                         uint32_t value) {
    const RegField& f = def_field(block, reg, field);
    return (value & f.mask()) >> f.lsb;
  }
  // A field's value as a signed number of its width.
  [[nodiscard]] int64_t signed_field(std::string_view block, std::string_view reg, std::string_view field) const {
    const RegField& f = def_field(block, reg, field);
    const int w = f.msb - f.lsb + 1;
    const int64_t v = this->field(block, reg, field);
    return v >= (int64_t{1} << (w - 1)) ? v - (int64_t{1} << w) : v;
  }
  // A field as the index of its value among `names` (the descriptor's numbering).
  [[nodiscard]] uint8_t choice(std::string_view block, std::string_view reg, std::string_view field,
                               std::initializer_list<std::string_view> names) const {
    const uint32_t v = this->field(block, reg, field);
    const RegDef& d = def(block, reg);
    uint8_t i = 0;
    for (const std::string_view n : names) {
      if (d.enum_value(field, n) == v) return i;
      ++i;
    }
    refuse(fmt::format("{}.{}.{} = {} has no descriptor value", block, reg, field, v));
  }
  [[nodiscard]] bool yes(std::string_view block, std::string_view reg, std::string_view field,
                         std::string_view value) const {
    return def(block, reg).enum_value(field, value) == this->field(block, reg, field);
  }
  [[nodiscard]] uint64_t addr(std::string_view block, std::string_view high, std::string_view low) const {
    return (uint64_t{reg(block, high)} << 32) | reg(block, low);
  }
  [[nodiscard]] int hardware_layers(std::string_view block) const {
    int n = 0;
    for (const ProgramStep& s : L_.steps) {
      if (s.op == StepOp::RegWrite && s.reg != nullptr && s.reg->block == block && s.reg->name == "D_OP_ENABLE" &&
          (s.value & 1u) != 0) {
        ++n;
      }
    }
    return n;
  }

 private:
  static const RegDef& def(std::string_view block, std::string_view reg) {
    const RegDef* d = RegDb::nvdla().find(fmt::format("{}.{}", block, reg));
    if (d == nullptr) throw std::logic_error(fmt::format("loadable export: no register {}.{}", block, reg));
    return *d;
  }
  static const RegField& def_field(std::string_view block, std::string_view reg, std::string_view field) {
    const RegField* f = def(block, reg).field(field);
    if (f == nullptr) throw std::logic_error(fmt::format("loadable export: no field {}.{}.{}", block, reg, field));
    return *f;
  }

  const NetLayer& L_;
  const std::string& file_;
  std::map<std::string, uint32_t, std::less<>> values_;
};


// An op of the exported graph.
struct Op {
  OpType type = OpType::Conv;
  int layer = -1;                  // index into CompiledNetwork::layers
  std::vector<uint8_t> op_desc;    // the op container
  std::vector<uint8_t> surf_desc;  // the surface container
  int fused_parent = -1;           // op feeding this one on the fly
  std::vector<int> data_from;      // ops whose output it reads from memory
  // BDMA: the surface, encoded once the task's address list is known (its transfers name
  // address-list entries: here indices into Exporter::bdma_refs_).
  std::optional<BdmaSurfaceDesc> bdma;
};

class Exporter {
 public:
  Exporter(const CompiledNetwork& cn, const golden::HwConfig& hw, std::string file)
      : cn_(cn), hw_(hw), file_(std::move(file)) {}

  Loadable run() {
    plan_memories();
    for (const int li : cn_.order) add_layer(li);
    if (ops_.empty()) throw InputError(file_, "/layers", "the network has no hardware layer to export");
    return assemble();
  }

 private:
  // ---- memories and addresses ----------------------------------------------------------------

  struct Bound {
    int tensor = -1;
    bool input = true;
  };

  // The window (memory 0) and one bound memory per network input and output tensor.
  void plan_memories() {
    std::set<int> read;
    for (const int li : cn_.order) {
      const NetLayer& L = cn_.layers[static_cast<std::size_t>(li)];
      for (const int t : network_detail::reads(L)) read.insert(t);
    }
    for (std::size_t t = 0; t < cn_.tensors.size(); ++t) {
      const NetTensor& x = cn_.tensors[t];
      // An image's planes are its convolution's constants (SET content of the window).
      if (x.elided || x.parent >= 0 || !x.format.empty()) continue;
      if (x.producer < 0) bound_.push_back({static_cast<int>(t), true});
      else if (!read.contains(static_cast<int>(t))) bound_.push_back({static_cast<int>(t), false});
    }
  }

  // The memory and offset holding `bytes` bytes at device address `a` in the JSON path.
  struct Where {
    int memory = 0;
    uint64_t offset = 0;
    uint64_t room = 0;  // bytes from the offset to the end of the region
  };

  std::optional<Where> where(uint64_t a) const {
    for (std::size_t b = 0; b < bound_.size(); ++b) {
      const NetTensor& t = cn_.tensors[static_cast<std::size_t>(bound_[b].tensor)];
      if (a >= t.layout.base && a < t.layout.base + t.bytes) {
        return Where{static_cast<int>(b) + 1, a - t.layout.base, t.layout.base + t.bytes - a};
      }
    }
    if (a >= cn_.memory_base && a < cn_.memory_base + cn_.memory_used) {
      return Where{0, a - cn_.memory_base, cn_.memory_base + cn_.memory_used - a};
    }
    return std::nullopt;
  }

  // A data cube at device address `a` (task address index = memory index + 1: index 0 is the
  // network descriptor).
  DataCube cube(const LayerRegs& r, uint64_t a, uint64_t size, const char* what) const {
    const auto w = where(a);
    if (!w) r.refuse(fmt::format("{} at {:#x} lies outside the network's memory", what, a));
    if (size > w->room) r.refuse(fmt::format("{} ({} bytes at {:#x}) runs past its tensor or region", what, size, a));
    DataCube c;
    c.type = kMemMc;
    c.address = static_cast<int16_t>(w->memory + 1);
    c.offset = static_cast<uint32_t>(w->offset);
    c.size = static_cast<uint32_t>(size);
    return c;
  }

  // Bytes a feature cube spans: its last surface's last line ends `w` atoms in.
  uint64_t extent(int w, int h, int c, int bpe, uint64_t line, uint64_t surf) const {
    const int per_atom = hw_.atom_bytes / bpe;
    const uint64_t surfaces = static_cast<uint64_t>((c + per_atom - 1) / per_atom);
    return (surfaces - 1) * surf + static_cast<uint64_t>(h - 1) * line + static_cast<uint64_t>(w) * static_cast<uint64_t>(hw_.atom_bytes);
  }

  static int bpe_of(uint8_t precision) { return precision == kPrecisionInt8 ? 1 : 2; }

  // A W x H x C cube streaming between two fused ops (type HW, no address).
  static DataCube flowing(int w, int h, int c) {
    DataCube d;
    d.type = kMemHw;
    d.address = -1;
    d.width = static_cast<uint16_t>(w);
    d.height = static_cast<uint16_t>(h);
    d.channel = static_cast<uint16_t>(c);
    return d;
  }

  // A feature cube at `a`: W x H x C at these strides (`batches` of them, `batch_stride` apart).
  DataCube feature_cube(const LayerRegs& r, uint64_t a, int w, int h, int c, int bpe, uint32_t line, uint32_t surf,
                        const char* what, int batches = 1, uint32_t batch_stride = 0) const {
    DataCube d = cube(r, a, extent(w, h, c, bpe, line, surf) + static_cast<uint64_t>(batches - 1) * batch_stride, what);
    d.width = static_cast<uint16_t>(w);
    d.height = static_cast<uint16_t>(h);
    d.channel = static_cast<uint16_t>(c);
    d.line_stride = line;
    d.surf_stride = surf;
    return d;
  }

  // ---- ops -----------------------------------------------------------------------------------

  void add_layer(int li) {
    const NetLayer& L = cn_.layers[static_cast<std::size_t>(li)];
    const LayerRegs r(L, file_);
    // A fused pdp (`fused_into`) runs no hardware layer: its conv carries it (`pool_from`).
    if (L.fused_into >= 0) throw std::logic_error("loadable export: a fused pooling layer in the execution order");
    std::vector<int> from;
    for (const int t : network_detail::reads(L)) {
      int x = t;
      while (cn_.tensors[static_cast<std::size_t>(x)].parent >= 0) x = cn_.tensors[static_cast<std::size_t>(x)].parent;
      const int p = cn_.tensors[static_cast<std::size_t>(x)].producer;
      if (p >= 0 && output_op_.contains(p)) from.push_back(output_op_.at(p));  // not a concat
      // A concat's branches: every producer of a channel slice.
      for (std::size_t u = 0; u < cn_.tensors.size(); ++u) {
        const NetTensor& s = cn_.tensors[u];
        if (s.parent == x && s.producer >= 0 && output_op_.contains(s.producer)) from.push_back(output_op_.at(s.producer));
      }
    }
    if (L.op == "conv") {
      if (r.hardware_layers("CDMA") != 1) {
        r.refuse(fmt::format("it runs as {} hardware layers (Split-H bands); the export writes one op per layer",
                             r.hardware_layers("CDMA")));
      }
      // conv -> SDP on the fly, and with pooling on the fly (a fused pdp layer or the conv's own
      // "pool") SDP -> PDP too: a chain of fused ops, as NVIDIA's compiler emits it (the firmware
      // programs them together).
      const bool pool = r.yes("SDP", "D_FEATURE_MODE_CFG", "OUTPUT_DST", "PDP");
      const int conv = add_op(OpType::Conv, li, conv_op(r), conv_surface(r), -1, from);
      const int sdp = add_op(OpType::Sdp, li, sdp_op(r, true, pool), sdp_surface(r, true, pool), conv, {});
      output_op_[li] = pool ? add_op(OpType::Pdp, li, pdp_op(r, true), pdp_surface(r, true), sdp, {}) : sdp;
    } else if (L.op == "sdp") {
      output_op_[li] = add_op(OpType::Sdp, li, sdp_op(r, false, false), sdp_surface(r, false, false), -1, from);
    } else if (L.op == "pdp") {
      output_op_[li] = add_op(OpType::Pdp, li, pdp_op(r, false), pdp_surface(r, false), -1, from);
    } else if (L.op == "cdp") {
      output_op_[li] = add_op(OpType::Cdp, li, cdp_op(r), cdp_surface(r), -1, from);
    } else if (L.op == "deconv") {
      output_op_[li] = add_deconv(L, from);
    } else if (L.op == "rubik") {
      output_op_[li] = add_op(OpType::Rubik, li, rubik_op(r), rubik_surface(r), -1, from);
    } else if (L.op == "bdma") {
      BdmaSurfaceDesc s = bdma_surface(r);
      output_op_[li] = add_op(OpType::Bdma, li, encode_bdma_op(s.num_transfers), {}, -1, from);
      ops_.back().bdma = s;
    } else {
      r.refuse(fmt::format("{} layers are not exported yet (conv, deconv, sdp, pdp, cdp, bdma and rubik layers are)", L.op));
    }
  }

  // A deconvolution as NVDLA's compiler runs it (docs/DECONV.md): its sub-kernel convolutions, each
  // a conv op with its fused SDP op writing a slice of the channel-extended cube, then a RUBIK
  // CONTRACT op reading the whole cube once every SDP op has completed. Each convolution's
  // registers are the layer's writes up to its CDMA enable (each takes the registers as they stand
  // then); RUBIK's, the layer's last. Returns the RUBIK op.
  int add_deconv(const NetLayer& L, const std::vector<int>& from) {
    std::vector<int> sdps;
    for (std::size_t k = 0; k < L.steps.size(); ++k) {
      const ProgramStep& st = L.steps[k];
      if (st.op != StepOp::RegWrite || st.reg == nullptr || st.reg->block != "CDMA" || st.reg->name != "D_OP_ENABLE" ||
          (st.value & 1u) == 0) {
        continue;
      }
      NetLayer upto = L;
      upto.steps.resize(k + 1);
      const LayerRegs r(upto, file_);
      if (r.yes("SDP", "D_FEATURE_MODE_CFG", "OUTPUT_DST", "PDP")) r.refuse("a deconvolution's convolution pooled on the fly");
      const int conv = add_op(OpType::Conv, L_index(L), conv_op(r), conv_surface(r), -1, from);
      sdps.push_back(add_op(OpType::Sdp, L_index(L), sdp_op(r, true, false), sdp_surface(r, true, false), conv, {}));
    }
    const LayerRegs r(L, file_);
    if (sdps.empty()) r.refuse("the deconvolution runs no convolution");
    if (!r.written("RBK", "D_MISC_CFG")) r.refuse("the deconvolution runs no RUBIK layer");
    return add_op(OpType::Rubik, L_index(L), rubik_op(r), rubik_surface(r), -1, sdps);
  }

  int L_index(const NetLayer& L) const { return static_cast<int>(&L - cn_.layers.data()); }

  std::vector<uint8_t> rubik_op(const LayerRegs& r) const {
    RubikOpDesc d;
    d.mode = r.choice("RBK", "D_MISC_CFG", "RUBIK_MODE", {"CONTRACT", "SPLIT", "MERGE"});
    if (d.mode != 0) r.refuse("a RUBIK SPLIT or MERGE (a network's rubik layer is CONTRACT)");
    d.precision = r.choice("RBK", "D_MISC_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    d.stride_x = static_cast<uint8_t>(r.field("RBK", "D_DECONV_STRIDE", "DECONV_X_STRIDE") + 1);
    d.stride_y = static_cast<uint8_t>(r.field("RBK", "D_DECONV_STRIDE", "DECONV_Y_STRIDE") + 1);
    return encode_rubik_op(d);
  }

  // RUBIK CONTRACT's cubes: the channel-extended input, the output grid (W x sx, H x sy). The
  // firmware derives the contract strides from them (rubik.c): another value is not expressible.
  std::vector<uint8_t> rubik_surface(const LayerRegs& r) const {
    InOutSurfaceDesc s;
    const uint8_t prec = r.choice("RBK", "D_MISC_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    const int bpe = bpe_of(prec);
    const int w = static_cast<int>(r.field("RBK", "D_DATAIN_SIZE_0", "DATAIN_WIDTH") + 1);
    const int h = static_cast<int>(r.field("RBK", "D_DATAIN_SIZE_0", "DATAIN_HEIGHT") + 1);
    const int c = static_cast<int>(r.field("RBK", "D_DATAIN_SIZE_1", "DATAIN_CHANNEL") + 1);
    const int oc = static_cast<int>(r.field("RBK", "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL") + 1);
    const int sx = static_cast<int>(r.field("RBK", "D_DECONV_STRIDE", "DECONV_X_STRIDE") + 1);
    const int sy = static_cast<int>(r.field("RBK", "D_DECONV_STRIDE", "DECONV_Y_STRIDE") + 1);
    if (!r.yes("RBK", "D_DAIN_RAM_TYPE", "DATAIN_RAM_TYPE", "MCIF") || !r.yes("RBK", "D_DAOUT_RAM_TYPE", "DATAOUT_RAM_TYPE", "MCIF")) {
      r.refuse("RUBIK on CV-SRAM");
    }
    s.src_data = feature_cube(r, r.addr("RBK", "D_DAIN_ADDR_HIGH", "D_DAIN_ADDR_LOW"), w, h, c, bpe,
                              r.reg("RBK", "D_DAIN_LINE_STRIDE"), r.reg("RBK", "D_DAIN_SURF_STRIDE"), "RUBIK's input");
    s.dst_data = feature_cube(r, r.addr("RBK", "D_DAOUT_ADDR_HIGH", "D_DAOUT_ADDR_LOW"), w * sx, h * sy, oc, bpe,
                              r.reg("RBK", "D_DAOUT_LINE_STRIDE"), r.reg("RBK", "D_DAOUT_SURF_STRIDE"), "RUBIK's output");
    const uint64_t stride0 = uint64_t{(static_cast<uint32_t>(oc * bpe) + 31u) / 32u} * s.src_data.surf_stride;
    const uint64_t stride1 = uint64_t{static_cast<uint32_t>(sy)} * s.dst_data.line_stride;
    if (r.reg("RBK", "D_CONTRACT_STRIDE_0") != stride0 || r.reg("RBK", "D_CONTRACT_STRIDE_1") != stride1) {
      r.refuse(fmt::format("RUBIK's contract strides {:#x} / {:#x} are not the firmware's {:#x} / {:#x}",
                           r.reg("RBK", "D_CONTRACT_STRIDE_0"), r.reg("RBK", "D_CONTRACT_STRIDE_1"), stride0, stride1));
    }
    return encode_in_out_surface(s, kLayout);
  }

  int add_op(OpType t, int layer, std::vector<uint8_t> op, std::vector<uint8_t> surf, int fused, std::vector<int> from) {
    Op o;
    o.type = t;
    o.layer = layer;
    o.op_desc = std::move(op);
    o.surf_desc = std::move(surf);
    o.fused_parent = fused;
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    o.data_from = std::move(from);
    ops_.push_back(std::move(o));
    return static_cast<int>(ops_.size()) - 1;
  }

  static CvtParam cvt(uint32_t enable, uint32_t truncate, uint32_t offset, uint32_t scale) {
    return {static_cast<int16_t>(scale), static_cast<uint8_t>(truncate), static_cast<uint8_t>(enable),
            static_cast<int32_t>(offset)};
  }

  std::vector<uint8_t> conv_op(const LayerRegs& r) const {
    if (r.field("CDMA", "D_WEIGHT_FORMAT", "WEIGHT_FORMAT") != 0) r.refuse("compressed weights are not exported yet");
    if (r.written("CDMA", "D_NAN_FLUSH_TO_ZERO") && r.reg("CDMA", "D_NAN_FLUSH_TO_ZERO") != 0) {
      r.refuse("CDMA's NAN_TO_ZERO has no descriptor field (the firmware leaves it 0)");
    }
    ConvOpDesc c;
    c.conv_mode = r.choice("CDMA", "D_MISC_CFG", "CONV_MODE", {"DIRECT", "WINOGRAD"});
    c.data_reuse = static_cast<uint8_t>(r.field("CDMA", "D_MISC_CFG", "DATA_REUSE"));
    c.weight_reuse = static_cast<uint8_t>(r.field("CDMA", "D_MISC_CFG", "WEIGHT_REUSE"));
    c.skip_data_rls = static_cast<uint8_t>(r.field("CDMA", "D_MISC_CFG", "SKIP_DATA_RLS"));
    c.skip_weight_rls = static_cast<uint8_t>(r.field("CDMA", "D_MISC_CFG", "SKIP_WEIGHT_RLS"));
    c.entry_per_slice = static_cast<uint16_t>(r.field("CDMA", "D_ENTRY_PER_SLICE", "ENTRIES") + 1);
    // FORMAT_FEATURE, or the pixel format (the descriptor's numbers are the register's).
    const bool pixel = r.yes("CDMA", "D_DATAIN_FORMAT", "DATAIN_FORMAT", "PIXEL");
    c.data_format = static_cast<uint8_t>(pixel ? r.field("CDMA", "D_DATAIN_FORMAT", "PIXEL_FORMAT") : 36);
    c.pixel_mapping = static_cast<uint8_t>(r.field("CDMA", "D_DATAIN_FORMAT", "PIXEL_MAPPING"));
    c.pixel_override = static_cast<uint8_t>(r.field("CDMA", "D_DATAIN_FORMAT", "PIXEL_SIGN_OVERRIDE"));
    c.fetch_grain = static_cast<uint16_t>(r.field("CDMA", "D_FETCH_GRAIN", "GRAINS") + 1);
    c.batch = static_cast<uint8_t>(r.field("CDMA", "D_BATCH_NUMBER", "BATCHES") + 1);
    c.weight_format = 0;
    c.data_bank = static_cast<uint8_t>(r.field("CDMA", "D_BANK", "DATA_BANK") + 1);
    c.weight_bank = static_cast<uint8_t>(r.field("CDMA", "D_BANK", "WEIGHT_BANK") + 1);
    c.batch_stride = r.reg("CDMA", "D_BATCH_STRIDE");
    c.post_extension = static_cast<uint8_t>(r.field("CSC", "D_POST_Y_EXTENSION", "Y_EXTENSION"));
    c.release = static_cast<uint16_t>(r.field("CSC", "D_RELEASE", "RLS_SLICES") + 1);
    c.input_width_csc = static_cast<uint16_t>(r.field("CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_WIDTH_EXT") + 1);
    c.input_height_csc = static_cast<uint16_t>(r.field("CSC", "D_DATAIN_SIZE_EXT_0", "DATAIN_HEIGHT_EXT") + 1);
    c.input_channel_csc = static_cast<uint16_t>(r.field("CSC", "D_DATAIN_SIZE_EXT_1", "DATAIN_CHANNEL_EXT") + 1);
    c.kernel_width_csc = static_cast<uint16_t>(r.field("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_WIDTH_EXT") + 1);
    c.kernel_height_csc = static_cast<uint16_t>(r.field("CSC", "D_WEIGHT_SIZE_EXT_0", "WEIGHT_HEIGHT_EXT") + 1);
    c.kernel_channel_csc = static_cast<uint16_t>(r.field("CSC", "D_WEIGHT_SIZE_EXT_1", "WEIGHT_CHANNEL_EXT") + 1);
    c.input_width_cmac = static_cast<uint16_t>(r.field("CSC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH") + 1);
    c.input_height_cmac = static_cast<uint16_t>(r.field("CSC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT") + 1);
    c.bytes_per_kernel = r.field("CDMA", "D_WEIGHT_SIZE_0", "BYTE_PER_KERNEL") + 1;
    c.mean_format = static_cast<uint8_t>(r.field("CDMA", "D_MEAN_FORMAT", "MEAN_FORMAT"));
    c.mean_ry = static_cast<int16_t>(r.field("CDMA", "D_MEAN_GLOBAL_0", "MEAN_RY"));
    c.mean_gu = static_cast<int16_t>(r.field("CDMA", "D_MEAN_GLOBAL_0", "MEAN_GU"));
    c.mean_bv = static_cast<int16_t>(r.field("CDMA", "D_MEAN_GLOBAL_1", "MEAN_BV"));
    c.mean_ax = static_cast<int16_t>(r.field("CDMA", "D_MEAN_GLOBAL_1", "MEAN_AX"));
    c.conv_stride_x = static_cast<uint8_t>(r.field("CDMA", "D_CONV_STRIDE", "CONV_X_STRIDE") + 1);
    c.conv_stride_y = static_cast<uint8_t>(r.field("CDMA", "D_CONV_STRIDE", "CONV_Y_STRIDE") + 1);
    c.pad_x_left = static_cast<uint8_t>(r.field("CDMA", "D_ZERO_PADDING", "PAD_LEFT"));
    c.pad_x_right = static_cast<uint8_t>(r.field("CDMA", "D_ZERO_PADDING", "PAD_RIGHT"));
    c.pad_y_top = static_cast<uint8_t>(r.field("CDMA", "D_ZERO_PADDING", "PAD_TOP"));
    c.pad_y_bottom = static_cast<uint8_t>(r.field("CDMA", "D_ZERO_PADDING", "PAD_BOTTOM"));
    c.dilation_x = static_cast<uint8_t>(r.field("CSC", "D_DILATION_EXT", "X_DILATION_EXT") + 1);
    c.dilation_y = static_cast<uint8_t>(r.field("CSC", "D_DILATION_EXT", "Y_DILATION_EXT") + 1);
    c.pra_truncate = static_cast<uint8_t>(r.reg("CSC", "D_PRA_CFG"));
    c.in_precision = r.choice("CDMA", "D_MISC_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    c.out_precision = r.choice("CDMA", "D_MISC_CFG", "PROC_PRECISION", {"INT8", "INT16", "FP16"});
    c.pad_val = static_cast<int16_t>(r.field("CDMA", "D_ZERO_PADDING_VALUE", "PAD_VALUE"));
    c.in_cvt = cvt(r.field("CDMA", "D_CVT_CFG", "CVT_EN"), r.field("CDMA", "D_CVT_CFG", "CVT_TRUNCATE"),
                   r.reg("CDMA", "D_CVT_OFFSET"), r.reg("CDMA", "D_CVT_SCALE"));
    c.out_cvt = cvt(1, r.reg("CACC", "D_CLIP_CFG"), 0, 1);  // CACC clips only: the firmware wants scale 1, offset 0
    return encode_conv_op(c);
  }

  std::vector<uint8_t> conv_surface(const LayerRegs& r) const {
    ConvSurfaceDesc s;
    const uint8_t in_prec = r.choice("CDMA", "D_MISC_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    s.weight_data = cube(r, r.addr("CDMA", "D_WEIGHT_ADDR_HIGH", "D_WEIGHT_ADDR_LOW"), r.reg("CDMA", "D_WEIGHT_BYTES"),
                         "the weights");
    s.wmb_data.address = -1;
    s.wgs_data.address = -1;
    const int w = static_cast<int>(r.field("CDMA", "D_DATAIN_SIZE_0", "DATAIN_WIDTH") + 1);
    const int h = static_cast<int>(r.field("CDMA", "D_DATAIN_SIZE_0", "DATAIN_HEIGHT") + 1);
    const int c = static_cast<int>(r.field("CDMA", "D_DATAIN_SIZE_1", "DATAIN_CHANNEL") + 1);
    const uint32_t line = r.reg("CDMA", "D_LINE_STRIDE"), surf = r.reg("CDMA", "D_SURF_STRIDE");
    const int batches = static_cast<int>(r.field("CDMA", "D_BATCH_NUMBER", "BATCHES") + 1);
    const uint64_t in = r.addr("CDMA", "D_DAIN_ADDR_HIGH_0", "D_DAIN_ADDR_LOW_0");
    if (r.yes("CDMA", "D_DATAIN_FORMAT", "DATAIN_FORMAT", "PIXEL")) {
      // An image: its planes (the layer's constants) from the first; the second plane's offset.
      const auto at = where(in);
      if (!at) r.refuse(fmt::format("the image at {:#x} lies outside the network's memory", in));
      s.src_data = cube(r, in, std::min<uint64_t>(at->room, operand_bytes(r.layer_steps(), in)), "the image");
      s.src_data.width = static_cast<uint16_t>(w);
      s.src_data.height = static_cast<uint16_t>(h);
      s.src_data.channel = static_cast<uint16_t>(c);
      s.src_data.line_stride = line;
      s.src_data.surf_stride = surf;
      s.offset_u = static_cast<int64_t>(r.addr("CDMA", "D_DAIN_ADDR_HIGH_1", "D_DAIN_ADDR_LOW_1") - in);
      s.in_line_uv_stride = r.reg("CDMA", "D_LINE_UV_STRIDE");
    } else {
      s.src_data = feature_cube(r, in, w, h, c, bpe_of(in_prec), line, surf, "the input", batches,
                                r.reg("CDMA", "D_BATCH_STRIDE"));
    }
    // The output flies to SDP: its size is CACC's.
    s.dst_data.type = kMemHw;
    s.dst_data.address = -1;
    s.dst_data.width = static_cast<uint16_t>(r.field("CACC", "D_DATAOUT_SIZE_0", "DATAOUT_WIDTH") + 1);
    s.dst_data.height = static_cast<uint16_t>(r.field("CACC", "D_DATAOUT_SIZE_0", "DATAOUT_HEIGHT") + 1);
    s.dst_data.channel = static_cast<uint16_t>(r.field("CACC", "D_DATAOUT_SIZE_1", "DATAOUT_CHANNEL") + 1);
    s.dst_data.line_stride = r.reg("CACC", "D_LINE_STRIDE");
    s.dst_data.surf_stride = r.reg("CACC", "D_SURF_STRIDE");
    return encode_conv_surface(s, kLayout);
  }

  // One of SDP's X1 (BS) / X2 (BN) / Y (EW) stages.
  SdpOp sdp_stage(const LayerRegs& r, const std::string& p, const char* rdma, uint8_t proc) const {
    const std::string cfg = "D_DP_" + p + "_CFG";
    SdpOp x;
    if (r.yes("SDP", cfg, p + "_BYPASS", "YES")) return x;
    x.enable = 1;
    const bool alu = r.yes("SDP", cfg, p + "_ALU_BYPASS", "NO");
    const bool mul = r.yes("SDP", cfg, p + "_MUL_BYPASS", "NO");
    x.type = static_cast<uint8_t>(alu && mul ? 3 : alu ? 2 : mul ? 1 : 0);
    x.alu_type = r.choice("SDP", cfg, p + "_ALU_ALGO", {"MAX", "MIN", "SUM", "EQL"});
    const bool ew = p == "EW";
    if (r.yes("SDP", cfg, p + "_MUL_PRELU", "YES")) x.act = 3;
    else if (ew ? r.yes("SDP", cfg, "EW_LUT_BYPASS", "NO") : r.yes("SDP", cfg, p + "_RELU_BYPASS", "NO")) x.act = ew ? 2 : 1;
    const std::string alu_cfg = "D_DP_" + p + "_ALU_CFG", mul_cfg = "D_DP_" + p + "_MUL_CFG";
    const bool alu_mem = alu && r.yes("SDP", alu_cfg, p + "_ALU_SRC", "MEM");
    const bool mul_mem = mul && r.yes("SDP", mul_cfg, p + "_MUL_SRC", "MEM");
    if (alu && mul && alu_mem != mul_mem) {
      r.refuse(fmt::format("SDP's {} takes its ALU operand from {} and its MUL operand from {}: a descriptor has one "
                           "source for both",
                           p, alu_mem ? "memory" : "a register", mul_mem ? "memory" : "a register"));
    }
    const bool mem = alu_mem || mul_mem;
    const std::string rd = std::string(rdma);
    x.mode = !mem ? 0 : r.yes("SDP_RDMA", "D_" + rd + "_CFG", rd + "_DATA_MODE", "PER_KERNEL") ? 1 : 2;
    x.precision = mem ? (r.yes("SDP_RDMA", "D_" + rd + "_CFG", rd + "_DATA_SIZE", "ONE_BYTE") ? kPrecisionInt8
                         : proc == kPrecisionFp16                                            ? kPrecisionFp16
                                                                                             : kPrecisionInt16)
                      : proc;
    if (!ew) {
      x.shift_value = static_cast<uint8_t>(r.field("SDP", alu_cfg, p + "_ALU_SHIFT_VALUE"));
      x.truncate = static_cast<uint8_t>(r.field("SDP", mul_cfg, p + "_MUL_SHIFT_VALUE"));
      if (!mem) {
        x.alu_operand = static_cast<int32_t>(r.reg("SDP", "D_DP_" + p + "_ALU_SRC_VALUE"));
        x.mul_operand = static_cast<int32_t>(r.reg("SDP", "D_DP_" + p + "_MUL_SRC_VALUE"));
      }
    } else {
      x.truncate = static_cast<uint8_t>(r.reg("SDP", "D_DP_EW_TRUNCATE_VALUE"));
      if (!mem) {
        x.alu_operand = static_cast<int32_t>(r.reg("SDP", "D_DP_EW_ALU_SRC_VALUE"));
        x.mul_operand = static_cast<int32_t>(r.reg("SDP", "D_DP_EW_MUL_SRC_VALUE"));
      } else {
        x.alu_cvt = cvt(r.yes("SDP", "D_DP_EW_ALU_CFG", "EW_ALU_CVT_BYPASS", "NO") ? 1 : 0,
                        r.reg("SDP", "D_DP_EW_ALU_CVT_TRUNCATE_VALUE"), r.reg("SDP", "D_DP_EW_ALU_CVT_OFFSET_VALUE"),
                        r.reg("SDP", "D_DP_EW_ALU_CVT_SCALE_VALUE"));
        x.mul_cvt = cvt(r.yes("SDP", "D_DP_EW_MUL_CFG", "EW_MUL_CVT_BYPASS", "NO") ? 1 : 0,
                        r.reg("SDP", "D_DP_EW_MUL_CVT_TRUNCATE_VALUE"), r.reg("SDP", "D_DP_EW_MUL_CVT_OFFSET_VALUE"),
                        r.reg("SDP", "D_DP_EW_MUL_CVT_SCALE_VALUE"));
      }
    }
    return x;
  }

  // `fused`: the input streams from the convolution; `to_pdp`: the output streams into PDP.
  std::vector<uint8_t> sdp_op(const LayerRegs& r, bool fused, bool to_pdp) {
    if (r.yes("SDP", "D_FEATURE_MODE_CFG", "NAN_TO_ZERO", "ENABLE")) {
      r.refuse("SDP's NAN_TO_ZERO has no descriptor field (the firmware leaves it 0)");
    }
    if (to_pdp != r.yes("SDP", "D_FEATURE_MODE_CFG", "OUTPUT_DST", "PDP")) {
      r.refuse("SDP's output does not go the way the layer's op says");
    }
    if (fused != r.yes("SDP_RDMA", "D_FEATURE_MODE_CFG", "FLYING_MODE", "ON")) {
      r.refuse("SDP's input does not come the way the layer's op says");
    }
    SdpOpDesc d;
    d.src_precision = r.choice("SDP_RDMA", "D_FEATURE_MODE_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    d.dst_precision = r.choice("SDP_RDMA", "D_FEATURE_MODE_CFG", "OUT_PRECISION", {"INT8", "INT16", "FP16"});
    const uint8_t proc = r.choice("SDP", "D_DATA_FORMAT", "PROC_PRECISION", {"INT8", "INT16", "FP16"});
    const uint8_t fw_proc = d.dst_precision == kPrecisionInt8 && d.src_precision == kPrecisionInt16 ? kPrecisionInt8 : d.src_precision;
    if (proc != fw_proc) {
      r.refuse(fmt::format("SDP's processing precision {} is not the one the firmware derives from {} in and {} out",
                           golden::precision_code_name(proc), golden::precision_code_name(d.src_precision),
                           golden::precision_code_name(d.dst_precision)));
    }
    d.lut_index = -1;
    d.out_cvt = cvt(1, r.reg("SDP", "D_CVT_SHIFT"), r.reg("SDP", "D_CVT_OFFSET"), r.reg("SDP", "D_CVT_SCALE"));
    d.conv_mode = r.yes("SDP", "D_FEATURE_MODE_CFG", "WINOGRAD", "ON") ? 1 : 0;
    d.batch_num = static_cast<uint8_t>(r.field("SDP", "D_FEATURE_MODE_CFG", "BATCH_NUMBER") + 1);
    d.batch_stride = r.reg("SDP", "D_DST_BATCH_STRIDE");
    d.x1_op = sdp_stage(r, "BS", "BRDMA", proc);
    d.x2_op = sdp_stage(r, "BN", "NRDMA", proc);
    d.y_op = sdp_stage(r, "EW", "ERDMA", proc);
    if (d.y_op.act == 2) {  // EW's LUT: the op carries its table in the LUT list, as a CDP op does
      if (proc == kPrecisionFp16) r.refuse("an fp16 SDP LUT: NVIDIA's firmware refuses an fp16 LUT");
      luts_.push_back(lut_param(r, "SDP"));
      d.lut_index = static_cast<int16_t>(luts_.size() - 1);
    }
    return encode_sdp_op(d);
  }

  std::vector<uint8_t> sdp_surface(const LayerRegs& r, bool fused, bool to_pdp) const {
    SdpSurfaceDesc s;
    const uint8_t in = r.choice("SDP_RDMA", "D_FEATURE_MODE_CFG", "IN_PRECISION", {"INT8", "INT16", "FP16"});
    const uint8_t out = r.choice("SDP_RDMA", "D_FEATURE_MODE_CFG", "OUT_PRECISION", {"INT8", "INT16", "FP16"});
    const int w = static_cast<int>(r.reg("SDP", "D_DATA_CUBE_WIDTH") + 1);
    const int h = static_cast<int>(r.reg("SDP", "D_DATA_CUBE_HEIGHT") + 1);
    const int c = static_cast<int>(r.reg("SDP", "D_DATA_CUBE_CHANNEL") + 1);
    const int batches = static_cast<int>(r.field("SDP", "D_FEATURE_MODE_CFG", "BATCH_NUMBER") + 1);
    if (fused) {
      s.src_data.type = kMemHw;
      s.src_data.address = -1;
    } else {
      s.src_data = feature_cube(r, r.addr("SDP_RDMA", "D_SRC_BASE_ADDR_HIGH", "D_SRC_BASE_ADDR_LOW"), w, h, c, bpe_of(in),
                                r.reg("SDP_RDMA", "D_SRC_LINE_STRIDE"), r.reg("SDP_RDMA", "D_SRC_SURFACE_STRIDE"),
                                "SDP's input");
    }
    s.src_data.width = static_cast<uint16_t>(w);
    s.src_data.height = static_cast<uint16_t>(h);
    s.src_data.channel = static_cast<uint16_t>(c);
    const auto operand = [&](const char* rd, const char* stage, DataCube& cb) {
      cb.address = -1;
      if (r.yes("SDP_RDMA", fmt::format("D_{}_CFG", rd), fmt::format("{}_DISABLE", rd), "YES")) return;
      const uint64_t a = r.addr("SDP_RDMA", fmt::format("D_{}_BASE_ADDR_HIGH", stage), fmt::format("D_{}_BASE_ADDR_LOW", stage));
      const auto at = where(a);
      if (!at) r.refuse(fmt::format("SDP's {} operand at {:#x} lies outside the network's memory", stage, a));
      cb = cube(r, a, std::min<uint64_t>(at->room, operand_bytes(r.layer_steps(), a)), "an SDP operand");
      cb.width = static_cast<uint16_t>(w);
      cb.height = static_cast<uint16_t>(h);
      cb.channel = static_cast<uint16_t>(c);
      cb.line_stride = r.reg("SDP_RDMA", fmt::format("D_{}_LINE_STRIDE", stage));
      cb.surf_stride = r.reg("SDP_RDMA", fmt::format("D_{}_SURFACE_STRIDE", stage));
    };
    operand("BRDMA", "BS", s.x1_data);
    operand("NRDMA", "BN", s.x2_data);
    operand("ERDMA", "EW", s.y_data);
    if (to_pdp) {
      s.dst_data = flowing(w, h, c);
    } else {
      s.dst_data = feature_cube(r, r.addr("SDP", "D_DST_BASE_ADDR_HIGH", "D_DST_BASE_ADDR_LOW"), w, h, c, bpe_of(out),
                                r.reg("SDP", "D_DST_LINE_STRIDE"), r.reg("SDP", "D_DST_SURFACE_STRIDE"), "SDP's output",
                                batches, r.reg("SDP", "D_DST_BATCH_STRIDE"));
    }
    return encode_sdp_surface(s, kLayout);
  }

  // The bytes a constant loaded at `a` holds (the layer's memory load there), else the rest of
  // the region (an operand tensor).
  static uint64_t operand_bytes(const std::vector<ProgramStep>& steps, uint64_t a) {
    for (const ProgramStep& s : steps) {
      if (s.op == StepOp::MemLoad && s.addr <= a && a < s.addr + s.bytes.size()) return s.addr + s.bytes.size() - a;
    }
    return UINT64_MAX;
  }

  // `fly`: the input streams from SDP (pooling on the fly).
  std::vector<uint8_t> pdp_op(const LayerRegs& r, bool fly) const {
    if (fly != r.yes("PDP", "D_OPERATION_MODE_CFG", "FLYING_MODE", "ON_FLYING")) {
      r.refuse("PDP's input does not come the way the layer's op says");
    }
    if (r.reg("PDP", "D_NAN_FLUSH_TO_ZERO") != 0) r.refuse("PDP's NAN_TO_ZERO has no descriptor field (the firmware leaves it 0)");
    PdpOpDesc d;
    const auto part = [&](const char* reg, const char* f) { return static_cast<uint16_t>(r.field("PDP", reg, f) + 1); };
    d.split_num = static_cast<uint8_t>(r.field("PDP", "D_OPERATION_MODE_CFG", "SPLIT_NUM") + 1);
    d.partial_in_width_first = part("D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_FIRST");
    d.partial_in_width_mid = part("D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_MID");
    d.partial_in_width_last = part("D_PARTIAL_WIDTH_IN", "PARTIAL_WIDTH_IN_LAST");
    d.partial_width_first = part("D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_FIRST");
    d.partial_width_mid = part("D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_MID");
    d.partial_width_last = part("D_PARTIAL_WIDTH_OUT", "PARTIAL_WIDTH_OUT_LAST");
    d.pool_mode = r.choice("PDP", "D_OPERATION_MODE_CFG", "POOLING_METHOD",
                           {"POOLING_METHOD_AVERAGE", "POOLING_METHOD_MAX", "POOLING_METHOD_MIN"});
    d.pool_width = static_cast<uint8_t>(r.field("PDP", "D_POOLING_KERNEL_CFG", "KERNEL_WIDTH"));
    d.pool_height = static_cast<uint8_t>(r.field("PDP", "D_POOLING_KERNEL_CFG", "KERNEL_HEIGHT"));
    d.stride_x = static_cast<uint8_t>(r.field("PDP", "D_POOLING_KERNEL_CFG", "KERNEL_STRIDE_WIDTH") + 1);
    d.stride_y = static_cast<uint8_t>(r.field("PDP", "D_POOLING_KERNEL_CFG", "KERNEL_STRIDE_HEIGHT") + 1);
    // NVDLA's stride fields reach 16; NVIDIA's firmware refuses beyond 8 (pdp.c validate_strides).
    if (d.stride_x > 8 || d.stride_y > 8) {
      r.refuse(fmt::format("pooling strides {} x {}: NVIDIA's firmware takes 1..8 (pdp.c validate_strides)", d.stride_x,
                           d.stride_y));
    }
    d.pad_left = static_cast<uint8_t>(r.field("PDP", "D_POOLING_PADDING_CFG", "PAD_LEFT"));
    d.pad_right = static_cast<uint8_t>(r.field("PDP", "D_POOLING_PADDING_CFG", "PAD_RIGHT"));
    d.pad_top = static_cast<uint8_t>(r.field("PDP", "D_POOLING_PADDING_CFG", "PAD_TOP"));
    d.pad_bottom = static_cast<uint8_t>(r.field("PDP", "D_POOLING_PADDING_CFG", "PAD_BOTTOM"));
    d.precision = r.choice("PDP", "D_DATA_FORMAT", "INPUT_DATA", {"INT8", "INT16", "FP16"});
    for (std::size_t k = 0; k < d.padding_value.size(); ++k) {
      d.padding_value[k] = static_cast<int32_t>(r.reg("PDP", fmt::format("D_POOLING_PADDING_VALUE_{}_CFG", k + 1)));
    }
    // The firmware writes its table of 1/k (0.16 fixed point, or fp17 for fp16 data): another
    // reciprocal is not expressible.
    if (d.pool_mode == 0) {
      const bool fp16 = d.precision == kPrecisionFp16;
      const auto recip = [&](uint8_t size) { return golden::pdp_recip_kernel(fp16, size + 1); };
      if (r.reg("PDP", "D_RECIP_KERNEL_WIDTH") != recip(d.pool_width) ||
          r.reg("PDP", "D_RECIP_KERNEL_HEIGHT") != recip(d.pool_height)) {
        r.refuse(fmt::format("average pooling's reciprocals {:#x} / {:#x} are not the firmware's 1 / k ({:#x} / {:#x})",
                             r.reg("PDP", "D_RECIP_KERNEL_WIDTH"), r.reg("PDP", "D_RECIP_KERNEL_HEIGHT"),
                             recip(d.pool_width), recip(d.pool_height)));
      }
    }
    return encode_pdp_op(d);
  }

  std::vector<uint8_t> pdp_surface(const LayerRegs& r, bool fly) const {
    InOutSurfaceDesc s;
    const int bpe = bpe_of(r.choice("PDP", "D_DATA_FORMAT", "INPUT_DATA", {"INT8", "INT16", "FP16"}));
    const int w = static_cast<int>(r.field("PDP", "D_DATA_CUBE_IN_WIDTH", "CUBE_IN_WIDTH") + 1);
    const int h = static_cast<int>(r.field("PDP", "D_DATA_CUBE_IN_HEIGHT", "CUBE_IN_HEIGHT") + 1);
    const int c = static_cast<int>(r.field("PDP", "D_DATA_CUBE_IN_CHANNEL", "CUBE_IN_CHANNEL") + 1);
    if (fly) {
      s.src_data = flowing(w, h, c);
    } else {
      s.src_data = feature_cube(r, r.addr("PDP_RDMA", "D_SRC_BASE_ADDR_HIGH", "D_SRC_BASE_ADDR_LOW"), w, h, c, bpe,
                                r.reg("PDP_RDMA", "D_SRC_LINE_STRIDE"), r.reg("PDP_RDMA", "D_SRC_SURFACE_STRIDE"),
                                "PDP's input");
    }
    const int ow = static_cast<int>(r.field("PDP", "D_DATA_CUBE_OUT_WIDTH", "CUBE_OUT_WIDTH") + 1);
    const int oh = static_cast<int>(r.field("PDP", "D_DATA_CUBE_OUT_HEIGHT", "CUBE_OUT_HEIGHT") + 1);
    const int oc = static_cast<int>(r.field("PDP", "D_DATA_CUBE_OUT_CHANNEL", "CUBE_OUT_CHANNEL") + 1);
    s.dst_data = feature_cube(r, r.addr("PDP", "D_DST_BASE_ADDR_HIGH", "D_DST_BASE_ADDR_LOW"), ow, oh, oc, bpe,
                              r.reg("PDP", "D_DST_LINE_STRIDE"), r.reg("PDP", "D_DST_SURFACE_STRIDE"), "PDP's output");
    return encode_in_out_surface(s, kLayout);
  }

  // A LUT as the layer wrote it: the tables from its S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA writes
  // in order (the address increments per data word), the rest from the S_LUT_* registers.
  LutParam lut_param(const LayerRegs& r, const char* blk) const {
    LutParam p;
    int table = -1;
    uint32_t index = 0;
    bool any = false;
    for (const ProgramStep& s : r.layer_steps()) {
      if (s.op != StepOp::RegWrite || s.reg == nullptr || s.reg->block != blk) continue;
      if (s.reg->name == "S_LUT_ACCESS_CFG") {
        if (LayerRegs::field_of(blk, "S_LUT_ACCESS_CFG", "LUT_ACCESS_TYPE", s.value) != 1) continue;  // a read
        table = static_cast<int>(LayerRegs::field_of(blk, "S_LUT_ACCESS_CFG", "LUT_TABLE_ID", s.value));
        index = LayerRegs::field_of(blk, "S_LUT_ACCESS_CFG", "LUT_ADDR", s.value);
      } else if (s.reg->name == "S_LUT_ACCESS_DATA") {
        if (table < 0) r.refuse(fmt::format("{} LUT data is written before a LUT address", blk));
        const auto v = static_cast<int16_t>(s.value & 0xffffu);
        if (table == 0 && index < p.linear_exp_table.size()) p.linear_exp_table[index] = v;
        else if (table == 1 && index < p.linear_only_table.size()) p.linear_only_table[index] = v;
        else r.refuse(fmt::format("{} LUT data beyond its table (entry {})", blk, index));
        ++index;
        any = true;
      }
    }
    if (!any) r.refuse(fmt::format("the layer writes no {} LUT (a loadable's op carries its own table)", blk));
    p.method = static_cast<uint8_t>(r.field(blk, "S_LUT_CFG", "LUT_LE_FUNCTION"));
    p.hybrid_priority = static_cast<uint8_t>(r.field(blk, "S_LUT_CFG", "LUT_HYBRID_PRIORITY"));
    p.underflow_priority = static_cast<uint8_t>(r.field(blk, "S_LUT_CFG", "LUT_UFLOW_PRIORITY"));
    p.overflow_priority = static_cast<uint8_t>(r.field(blk, "S_LUT_CFG", "LUT_OFLOW_PRIORITY"));
    p.linear_exp_offset = static_cast<int8_t>(
        r.field(blk, "S_LUT_INFO", p.method == 0 ? "LUT_LE_INDEX_OFFSET" : "LUT_LE_INDEX_SELECT"));
    p.linear_only_offset = static_cast<int8_t>(r.field(blk, "S_LUT_INFO", "LUT_LO_INDEX_SELECT"));
    const bool sdp = std::string_view(blk) == "SDP";
    const auto start_end = [&](const char* name) -> uint64_t {
      if (sdp) return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(r.reg(blk, name))));
      const int64_t v = (int64_t{r.reg(blk, fmt::format("{}_HIGH", name)) & 0x3f} << 32) | r.reg(blk, fmt::format("{}_LOW", name));
      return static_cast<uint64_t>(v >= (int64_t{1} << 37) ? v - (int64_t{1} << 38) : v);  // 38 bits, signed
    };
    p.linear_exp_start = start_end("S_LUT_LE_START");
    p.linear_exp_end = start_end("S_LUT_LE_END");
    p.linear_only_start = start_end("S_LUT_LO_START");
    p.linear_only_end = start_end("S_LUT_LO_END");
    const auto slope = [&](const char* which, const char* uo) {
      LutParam::Slope s;
      s.scale = static_cast<int16_t>(r.field(blk, fmt::format("S_LUT_{}_SLOPE_SCALE", which),
                                             fmt::format("LUT_{}_SLOPE_{}_SCALE", which, uo)));
      s.shifter = static_cast<int8_t>(r.signed_field(blk, fmt::format("S_LUT_{}_SLOPE_SHIFT", which),
                                                     fmt::format("LUT_{}_SLOPE_{}_SHIFT", which, uo)));
      s.data_f = static_cast<uint16_t>(s.scale);
      return s;
    };
    p.linear_exp_underflow_slope = slope("LE", "UFLOW");
    p.linear_exp_overflow_slope = slope("LE", "OFLOW");
    p.linear_only_underflow_slope = slope("LO", "UFLOW");
    p.linear_only_overflow_slope = slope("LO", "OFLOW");
    return p;
  }

  std::vector<uint8_t> cdp_op(const LayerRegs& r) {
    if (r.reg("CDP", "D_NAN_FLUSH_TO_ZERO") != 0) r.refuse("CDP's NAN_TO_ZERO has no descriptor field (the firmware leaves it 0)");
    CdpOpDesc d;
    d.in_precision = r.choice("CDP_RDMA", "D_DATA_FORMAT", "INPUT_DATA", {"INT8", "INT16", "FP16"});
    d.out_precision = d.in_precision;
    if (r.choice("CDP", "D_DATA_FORMAT", "INPUT_DATA_TYPE", {"INT8", "INT16", "FP16"}) != d.in_precision) {
      r.refuse("CDP's and CDP_RDMA's data formats differ (the firmware writes both from one precision)");
    }
    if (d.in_precision == kPrecisionFp16) r.refuse("an fp16 CDP: NVIDIA's firmware refuses an fp16 LUT");
    luts_.push_back(lut_param(r, "CDP"));
    d.lut_index = static_cast<int16_t>(luts_.size() - 1);
    d.in_cvt = cvt(1, r.reg("CDP", "D_DATIN_SHIFTER"), static_cast<uint32_t>(r.signed_field("CDP", "D_DATIN_OFFSET", "DATIN_OFFSET")),
                   r.reg("CDP", "D_DATIN_SCALE"));
    d.out_cvt = cvt(1, r.reg("CDP", "D_DATOUT_SHIFTER"), r.reg("CDP", "D_DATOUT_OFFSET"), r.reg("CDP", "D_DATOUT_SCALE"));
    d.local_size = static_cast<uint8_t>(3 + 2 * r.field("CDP", "D_LRN_CFG", "NORMALZ_LEN"));
    d.bypass_sqsum = static_cast<uint8_t>(r.field("CDP", "D_FUNC_BYPASS", "SQSUM_BYPASS"));
    d.bypass_out_mul = static_cast<uint8_t>(r.field("CDP", "D_FUNC_BYPASS", "MUL_BYPASS"));
    return encode_cdp_op(d);
  }

  // A BDMA layer's commands (each CFG_OP write takes the CFG_* registers written before it), one
  // transfer each, as the firmware's processor_bdma_program_slot writes them back. A transfer
  // names an address-list entry, which carries the offset: bdma_refs_ collects them.
  BdmaSurfaceDesc bdma_surface(const LayerRegs& r) {
    BdmaSurfaceDesc s;
    std::map<std::string, uint32_t, std::less<>> cfg;
    std::optional<uint32_t> cmd;
    const auto ref = [&](uint64_t a, uint64_t extent, const char* what) {
      const auto w = where(a);
      if (!w) r.refuse(fmt::format("a BDMA {} at {:#x} lies outside the network's memory", what, a));
      if (extent > w->room) r.refuse(fmt::format("a BDMA {} ({} bytes at {:#x}) runs past its region", what, extent, a));
      bdma_refs_.push_back({w->memory, w->offset, extent});
      return static_cast<int16_t>(bdma_refs_.size() - 1);
    };
    for (const ProgramStep& st : r.layer_steps()) {
      if (st.op != StepOp::RegWrite || st.reg == nullptr || st.reg->block != "BDMA") continue;
      if (st.reg->name != "CFG_OP" || (st.value & 1u) == 0) {
        cfg[st.reg->name] = st.value;
        continue;
      }
      if (s.num_transfers == s.transfers.size()) r.refuse("more than 20 BDMA commands (a descriptor holds 20)");
      const auto v = [&](const char* name) { return cfg.contains(name) ? cfg.at(name) : 0u; };
      if (cmd && *cmd != v("CFG_CMD")) r.refuse("BDMA commands with different RAM types (a descriptor has one pair)");
      cmd = v("CFG_CMD");
      BdmaTransfer& t = s.transfers[s.num_transfers++];
      t.line_size = (LayerRegs::field_of("BDMA", "CFG_LINE", "SIZE", v("CFG_LINE")) + 1) * 32;
      t.line_repeat = LayerRegs::field_of("BDMA", "CFG_LINE_REPEAT", "NUMBER", v("CFG_LINE_REPEAT")) + 1;
      t.surface_repeat = LayerRegs::field_of("BDMA", "CFG_SURF_REPEAT", "NUMBER", v("CFG_SURF_REPEAT")) + 1;
      t.source_line = v("CFG_SRC_LINE");
      t.destination_line = v("CFG_DST_LINE");
      t.source_surface = v("CFG_SRC_SURF");
      t.destination_surface = v("CFG_DST_SURF");
      const auto extent = [&](uint32_t line, uint32_t surface) {
        return uint64_t{surface} * (t.surface_repeat - 1) + uint64_t{line} * (t.line_repeat - 1) + t.line_size;
      };
      t.source_address = ref((uint64_t{v("CFG_SRC_ADDR_HIGH")} << 32) | v("CFG_SRC_ADDR_LOW"),
                             extent(t.source_line, t.source_surface), "source");
      t.destination_address = ref((uint64_t{v("CFG_DST_ADDR_HIGH")} << 32) | v("CFG_DST_ADDR_LOW"),
                                  extent(t.destination_line, t.destination_surface), "destination");
    }
    if (s.num_transfers == 0) r.refuse("the BDMA layer runs no command");
    const auto type = [&](const char* field) {
      return LayerRegs::field_of("BDMA", "CFG_CMD", field, *cmd) == RegDb::nvdla().find("BDMA.CFG_CMD")->enum_value(field, "MC")
                 ? kMemMc
                 : kMemCv;
    };
    s.source_type = static_cast<uint8_t>(type("SRC_RAM_TYPE"));
    s.destination_type = static_cast<uint8_t>(type("DST_RAM_TYPE"));
    return s;
  }

  std::vector<uint8_t> cdp_surface(const LayerRegs& r) const {
    InOutSurfaceDesc s;
    const int bpe = bpe_of(r.choice("CDP_RDMA", "D_DATA_FORMAT", "INPUT_DATA", {"INT8", "INT16", "FP16"}));
    const int w = static_cast<int>(r.field("CDP_RDMA", "D_DATA_CUBE_WIDTH", "WIDTH") + 1);
    const int h = static_cast<int>(r.field("CDP_RDMA", "D_DATA_CUBE_HEIGHT", "HEIGHT") + 1);
    const int c = static_cast<int>(r.field("CDP_RDMA", "D_DATA_CUBE_CHANNEL", "CHANNEL") + 1);
    s.src_data = feature_cube(r, r.addr("CDP_RDMA", "D_SRC_BASE_ADDR_HIGH", "D_SRC_BASE_ADDR_LOW"), w, h, c, bpe,
                              r.reg("CDP_RDMA", "D_SRC_LINE_STRIDE"), r.reg("CDP_RDMA", "D_SRC_SURFACE_STRIDE"), "CDP's input");
    s.dst_data = feature_cube(r, r.addr("CDP", "D_DST_BASE_ADDR_HIGH", "D_DST_BASE_ADDR_LOW"), w, h, c, bpe,
                              r.reg("CDP", "D_DST_LINE_STRIDE"), r.reg("CDP", "D_DST_SURFACE_STRIDE"), "CDP's output");
    return encode_in_out_surface(s, kLayout);
  }

  // ---- the dependency graph ------------------------------------------------------------------

  std::vector<CommonOpDesc> graph() const {
    const int n = static_cast<int>(ops_.size());
    std::vector<CommonOpDesc> g(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      CommonOpDesc& d = g[static_cast<std::size_t>(i)];
      d.index = static_cast<int16_t>(i);
      d.op_type = static_cast<uint8_t>(ops_[static_cast<std::size_t>(i)].type);
      for (auto& c : d.consumers) c = {-1, kEventCompleted};
      d.fused_parent = {-1, kEventCompleted};
    }
    // The processors' queues: each op's next op of its type, waiting for it to be programmed.
    std::array<int, kOpTypes> last{};
    last.fill(-1);
    std::vector<int> prev(static_cast<std::size_t>(n), -1);  // the op before in its type's queue
    for (int i = 0; i < n; ++i) {
      const auto t = static_cast<std::size_t>(ops_[static_cast<std::size_t>(i)].type);
      if (last[t] >= 0) {
        g[static_cast<std::size_t>(last[t])].consumers[t] = {static_cast<int16_t>(i), kEventProgrammed};
        prev[static_cast<std::size_t>(i)] = last[t];
      }
      last[t] = i;
    }
    for (int i = 0; i < n; ++i) {
      const Op& o = ops_[static_cast<std::size_t>(i)];
      const auto t = static_cast<std::size_t>(o.type);
      if (o.fused_parent >= 0) {  // conv -> SDP, SDP -> PDP on the fly
        g[static_cast<std::size_t>(o.fused_parent)].consumers[t] = {static_cast<int16_t>(i), kEventProgrammed};
        g[static_cast<std::size_t>(i)].fused_parent = {static_cast<int16_t>(o.fused_parent), kEventEnabled};
      }
      for (const int p : o.data_from) {
        auto& slot = g[static_cast<std::size_t>(p)].consumers[t];
        if (ops_[static_cast<std::size_t>(p)].type != o.type && slot.index == -1) {
          slot = {static_cast<int16_t>(i), kEventCompleted};
          continue;
        }
        // The slot holds another op (or the producer is of this type): this op waits for every op
        // of its type from the first one after the producer, each completed (which follows the
        // producer's completion: that first op waits for it).
        const int first = ops_[static_cast<std::size_t>(p)].type == o.type ? p : slot.index;
        if (first < 0 || first > i) throw std::logic_error("loadable export: a data edge runs backwards");
        for (int k = i; k != first && k >= 0; k = prev[static_cast<std::size_t>(k)]) {
          const int before = prev[static_cast<std::size_t>(k)];
          if (before < 0) throw std::logic_error("loadable export: a queue ends before its producer");
          g[static_cast<std::size_t>(before)].consumers[t].event = kEventCompleted;
        }
      }
    }
    for (int i = 0; i < n; ++i) {
      for (const auto& c : g[static_cast<std::size_t>(i)].consumers) {
        if (c.index >= 0) ++g[static_cast<std::size_t>(c.index)].dependency_count;
      }
      if (g[static_cast<std::size_t>(i)].fused_parent.index >= 0) {
        ++g[static_cast<std::size_t>(g[static_cast<std::size_t>(i)].fused_parent.index)].dependency_count;
      }
    }
    return g;
  }

  // ---- the container -------------------------------------------------------------------------

  static std::vector<uint8_t> concat(const std::vector<std::vector<uint8_t>>& parts) {
    std::vector<uint8_t> out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
  }

  uint16_t add_memory(Loadable& l, uint16_t flags, uint64_t size) const {
    MemoryEntry m;
    m.id = static_cast<uint16_t>(l.memories.size());
    m.flags = flags;
    m.size = size;
    m.alignment = kPageBytes;
    l.memories.push_back(std::move(m));
    AddressEntry a;
    a.id = static_cast<uint16_t>(l.addresses.size());
    a.mem_id = l.memories.back().id;
    a.size = size;
    l.addresses.push_back(a);
    return a.id;
  }

  void add_content(Loadable& l, uint16_t mem, uint64_t offset, std::vector<uint8_t> bytes, std::string name,
                   Interface iface, loadable::Version v) const {
    Blob b;
    b.name = std::move(name);
    b.size = bytes.size();
    b.interface = iface;
    b.version = v;
    b.data = std::move(bytes);
    l.memories[mem].flags |= loadable::kMemSet;
    l.memories[mem].contents.push_back(b.name);
    l.memories[mem].offsets.push_back(offset);
    l.blobs.push_back(std::move(b));
  }

  loadable::TensorDesc tensor_desc(const NetTensor& t, uint16_t id, uint16_t mem) const {
    loadable::TensorDesc d;
    d.name = t.name;
    d.id = id;
    d.mem_id = mem;
    d.size = t.bytes;
    d.data_format = 3;    // NCxHWx (the runtime's TENSOR_DATA_FORMAT_NCxHWx)
    d.data_category = 2;  // feature
    d.pixel_format = 36;  // FEATURE
    d.data_type = t.prec == golden::Precision::Int8    ? loadable::DataType::Int8
                  : t.prec == golden::Precision::Int16 ? loadable::DataType::Int16
                                                       : loadable::DataType::Half;
    d.n = t.n;
    d.c = t.c;
    d.h = t.h;
    d.w = t.w;
    d.stride[0] = static_cast<uint32_t>(t.layout.bpe);
    d.stride[1] = static_cast<uint32_t>(t.layout.line_stride);
    d.stride[2] = static_cast<uint32_t>(t.layout.surface_stride);
    return d;
  }

  Loadable assemble() const {
    Loadable l;
    l.file = file_;
    l.version = {0, 7, 0};
    // Memory 0: the network's window with every constant the layers load.
    const uint16_t window = add_memory(l, loadable::kMemAlloc, page_up(std::max<uint64_t>(cn_.memory_used, 1)));
    std::vector<std::pair<uint64_t, uint64_t>> tensors;  // regions no constant is taken from
    std::vector<std::pair<uint64_t, uint64_t>> baked;    // but these: network inputs placed in a concat's slice
    for (const NetTensor& t : cn_.tensors) {
      if (!t.elided && t.parent < 0 && t.format.empty()) tensors.emplace_back(t.layout.base, t.layout.base + t.bytes);
      if (!t.elided && t.parent >= 0 && t.producer < 0 && t.format.empty()) baked.emplace_back(t.layout.base, t.layout.base + t.bytes);
    }
    int blob = 0;
    for (const int li : cn_.order) {
      for (const ProgramStep& s : cn_.layers[static_cast<std::size_t>(li)].steps) {
        if (s.op != StepOp::MemLoad || s.bytes.empty()) continue;
        const uint64_t a = s.addr, e = s.addr + s.bytes.size();
        if (std::any_of(tensors.begin(), tensors.end(), [&](const auto& r) { return a < r.second && r.first < e; })) continue;
        if (a < cn_.memory_base || e > cn_.memory_base + cn_.memory_used) continue;  // a unit's fixed region (unused)
        add_content(l, window, a - cn_.memory_base, s.bytes, fmt::format("tb-{}", blob++), Interface::None, {});
      }
    }
    // A network input placed in a concat's slice has no memory of its own to bind (its bytes are
    // the concat's): its values are baked in, the bytes the JSON path loads there.
    for (const ProgramStep& s : cn_.program.steps) {
      if (s.op != StepOp::MemLoad || s.bytes.empty()) continue;
      const uint64_t a = s.addr, e = s.addr + s.bytes.size();
      if (std::none_of(baked.begin(), baked.end(), [&](const auto& r) { return r.first <= a && e <= r.second; })) continue;
      add_content(l, window, a - cn_.memory_base, s.bytes, fmt::format("tb-{}", blob++), Interface::None, {});
    }
    // The bound tensors.
    uint16_t in_id = 0, out_id = 0;
    for (const Bound& b : bound_) {
      const NetTensor& t = cn_.tensors[static_cast<std::size_t>(b.tensor)];
      const uint16_t m = add_memory(l, loadable::kMemAlloc | (b.input ? loadable::kMemInput : loadable::kMemOutput),
                                    page_up(t.bytes));
      const uint16_t tid = static_cast<uint16_t>(l.tensors.size());
      l.memories[m].bind_id = b.input ? in_id++ : out_id++;
      l.memories[m].tensor_desc_id = tid;
      l.tensors.push_back(tensor_desc(t, tid, m));
    }
    // The descriptor lists.
    const std::vector<CommonOpDesc> g = graph();
    std::vector<std::vector<uint8_t>> op_list, surf_list, dep_list;
    NetworkDesc nd;
    nd.op_head.fill(-1);
    // The task's address list: [0] the network descriptor, then every memory in order (a cube's
    // address index is its memory's index + 1), then one entry per BDMA region (memory and offset).
    // The memories still to come: the op, surface and dependency lists, the LUT list, the
    // network descriptor.
    const auto nd_mem = static_cast<uint16_t>(l.memories.size() + 3 + (luts_.empty() ? 0 : 1));
    const auto first_ref = static_cast<int16_t>(nd_mem + 2);
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      op_list.push_back(ops_[i].op_desc);
      if (ops_[i].bdma) {
        BdmaSurfaceDesc b = *ops_[i].bdma;
        for (std::size_t k = 0; k < b.num_transfers; ++k) {
          b.transfers[k].source_address = static_cast<int16_t>(first_ref + b.transfers[k].source_address);
          b.transfers[k].destination_address = static_cast<int16_t>(first_ref + b.transfers[k].destination_address);
        }
        surf_list.push_back(encode_bdma_surface(b));
      } else {
        surf_list.push_back(ops_[i].surf_desc);
      }
      dep_list.push_back(encode_common(g[i]));
      auto& head = nd.op_head[static_cast<std::size_t>(ops_[i].type)];
      if (head < 0) head = static_cast<int16_t>(i);
    }
    const auto list_memory = [&](std::vector<uint8_t> bytes, const char* name) {
      const uint16_t m = add_memory(l, loadable::kMemAlloc, bytes.size());
      add_content(l, m, 0, std::move(bytes), fmt::format("task-0-{}", name), Interface::Dla1, kDescriptorVersion);
      return m;
    };
    const uint16_t ops_mem = list_memory(concat(op_list), "op_list");
    const uint16_t surf_mem = list_memory(concat(surf_list), "surf_list");
    const uint16_t dep_mem = list_memory(concat(dep_list), "dep_graph");
    if (!luts_.empty()) {
      std::vector<std::vector<uint8_t>> lut_list;
      for (const LutParam& p : luts_) lut_list.push_back(encode_lut(p));
      nd.lut_data_index = static_cast<int16_t>(list_memory(concat(lut_list), "lut_list") + 1);
      nd.num_luts = static_cast<uint16_t>(luts_.size());
    }
    if (l.memories.size() != nd_mem) throw std::logic_error("loadable export: the memories before the network descriptor");
    const auto task_index = [](uint16_t mem) { return static_cast<int16_t>(mem + 1); };
    nd.operation_desc_index = task_index(ops_mem);
    nd.surface_desc_index = task_index(surf_mem);
    nd.dependency_graph_index = task_index(dep_mem);
    nd.num_rois = 1;
    nd.num_operations = static_cast<uint16_t>(ops_.size());
    nd.num_addresses = static_cast<uint16_t>(nd_mem + 2 + bdma_refs_.size());
    (void)list_memory(encode_network(nd), "addr0");
    loadable::TaskEntry task;
    task.id = 0;
    task.interface = Interface::Dla1;
    task.instance = -1;
    task.address_list.push_back(nd_mem);
    for (uint16_t m = 0; m < nd_mem + 1; ++m) task.address_list.push_back(m);
    for (const BdmaRef& b : bdma_refs_) {
      loadable::AddressEntry a;
      a.id = static_cast<uint16_t>(l.addresses.size());
      a.mem_id = static_cast<uint16_t>(b.memory);
      a.offset = b.offset;
      a.size = b.size;
      l.addresses.push_back(a);
      task.address_list.push_back(a.id);
    }
    l.tasks.push_back(std::move(task));
    l.submits.push_back({0, {0}});
    return l;
  }

  const CompiledNetwork& cn_;
  const golden::HwConfig& hw_;
  std::string file_;
  std::vector<Bound> bound_;
  std::vector<Op> ops_;
  std::vector<LutParam> luts_;  // the LUT list, in op order
  std::map<int, int> output_op_;  // layer -> the op writing its output
  struct BdmaRef {
    int memory = 0;
    uint64_t offset = 0, size = 0;
  };
  std::vector<BdmaRef> bdma_refs_;  // BDMA transfers' regions: address-list entries after the memories
};

}  // namespace

loadable::Loadable export_loadable(const CompiledNetwork& cn, const LayerHeader& h) {
  return Exporter(cn, *h.config, h.file.string()).run();
}

std::vector<std::pair<std::string, std::vector<uint8_t>>> loadable_inputs(const CompiledNetwork& cn) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  for (const NetTensor& t : cn.tensors) {
    if (t.producer >= 0 || t.elided || t.parent >= 0 || !t.format.empty()) continue;
    golden::FeatureLayout at = t.layout;
    at.base = 0;
    golden::Cube<int64_t> cube({t.n, t.c, t.h, t.w});
    std::copy(t.values.begin(), t.values.end(), cube.data().begin());
    out.emplace_back(t.name, golden::store_cube_bytes(at, cube, 0));
  }
  return out;
}

}  // namespace dla::harness::engines
