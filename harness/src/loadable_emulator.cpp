// EMU1 tasks: the CPU work NVIDIA's runtime does itself between DLA tasks (its emulator: power
// and softmax), decoded at plan time and computed on each device's memory (docs/LOADABLES.md
// "EMU1 tasks").
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "golden/layout.hpp"
#include "harness/dla_descriptors.hpp"
#include "harness/errors.hpp"
#include "harness/loadable_runner.hpp"
#include "loadable_task.hpp"

namespace dla::harness::loadable {

namespace {

using ::dla::harness::fw::Bytes;

// The emulator interface NVIDIA's regression loadables carry (blob version 0.0.x): an op
// container of 16 bytes (op type, then the op's floats, packed), a buffer container of two
// 256-byte-aligned buffer descriptors without the later `addressIndexOffset`.
constexpr std::size_t kEmuNetworkDescBytes = 6;
constexpr std::size_t kEmuOpContainerBytes = 16;
constexpr std::size_t kEmuBufferDescBytes = 256;
constexpr std::size_t kEmuBufferContainerBytes = 2 * kEmuBufferDescBytes;
constexpr uint16_t kEmuFormatFp16 = 2;  // the runtime's NVDLA_FF16_F_FORMAT of that interface
constexpr uint32_t kFp16PerAtom = 16;   // 32-byte atoms of 16 halves (its getAddrOffset)
constexpr uint32_t kAtomBytes = 32;

class EmuDecoder {
 public:
  EmuDecoder(const Loadable& l, std::size_t task, const Plan& plan, const std::vector<std::vector<uint8_t>>& images)
      : l_(l), task_(l.tasks[task]), view_(l, task, plan, images) {}

  std::vector<EmuOp> decode() {
    check_version();
    const auto nd = view_.read(0, 0, kEmuNetworkDescBytes, "the EMU network descriptor (address 0)");
    const Bytes net(nd, l_.file, view_.where() + " EMU network descriptor");
    const int16_t op_index = net.s16(0, "operation_desc_index");
    const int16_t buf_index = net.s16(2, "operation_buffer_desc_index");
    const uint16_t count = net.u16(4, "num_operations");
    std::vector<EmuOp> ops;
    for (uint16_t k = 0; k < count; ++k) {
      const auto ob = view_.read(op_index, uint64_t{k} * kEmuOpContainerBytes, kEmuOpContainerBytes,
                                 "an EMU operation descriptor");
      const Bytes o(ob, l_.file, fmt::format("{} EMU op {} operation descriptor", view_.where(), k));
      EmuOp op;
      op.what = fmt::format("task {} EMU op {}", task_.id, k);
      const uint8_t type = o.u8(0, "op_type");
      if (type == 0) {
        op.kind = EmuOp::Kind::Power;
        op.power = as_float(o.u32(1, "power"));
        op.scale = as_float(o.u32(5, "scale"));
        op.shift = as_float(o.u32(9, "shift"));
      } else if (type == 1) {
        op.kind = EmuOp::Kind::Softmax;
      } else {
        view_.bad(fmt::format("EMU op {}: op_type {} is neither power (0) nor softmax (1)", k, type));
      }
      const auto bb = view_.read(buf_index, uint64_t{k} * kEmuBufferContainerBytes, kEmuBufferContainerBytes,
                                 "an EMU buffer descriptor");
      op.src = buffer(std::span(bb).subspan(0, kEmuBufferDescBytes), fmt::format("EMU op {} src_data", k));
      op.dst = buffer(std::span(bb).subspan(kEmuBufferDescBytes, kEmuBufferDescBytes), fmt::format("EMU op {} dst_data", k));
      if (op.src.width != op.dst.width || op.src.height != op.dst.height || op.src.channel != op.dst.channel) {
        view_.bad(fmt::format("EMU op {}: src_data is {} x {} x {} but dst_data {} x {} x {} (W x H x C): the emulator "
                              "writes the source's shape",
                              k, op.src.width, op.src.height, op.src.channel, op.dst.width, op.dst.height, op.dst.channel));
      }
      ops.push_back(op);
    }
    return ops;
  }

 private:
  static float as_float(uint32_t bits) {
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

  void check_version() const {
    const Blob& b = view_.descriptor_blob("the EMU network descriptor");
    if (b.version.major != 0 || b.version.minor != 0) {
      view_.bad(fmt::format("EMU interface version {} (blob \"{}\") is not one dlacosim decodes (0.0.x, the layout of "
                            "NVIDIA's regression loadables)",
                            b.version.text(), b.name));
    }
  }

  EmuBuffer buffer(std::span<const uint8_t> bytes, const std::string& what) const {
    const Bytes b(bytes, l_.file, view_.where() + " " + what);
    EmuBuffer e;
    const int16_t index = b.s16(0, "addressIndex");
    e.size = b.u32(2, "size");
    e.format = b.u16(6, "format");
    e.width = b.u16(8, "width");
    e.height = b.u16(10, "height");
    e.channel = b.u16(12, "channel");
    e.line_stride = b.u32(14, "line_stride");
    e.surf_stride = b.u32(18, "surf_stride");
    if (e.format != kEmuFormatFp16) {
      view_.bad(fmt::format("{}: format {}: dlacosim's emulator computes fp16 buffers (format {}) only", what, e.format,
                            kEmuFormatFp16));
    }
    if (e.width == 0 || e.height == 0 || e.channel == 0) {
      view_.bad(fmt::format("{}: an empty {} x {} x {} cube", what, e.width, e.height, e.channel));
    }
    // The farthest byte either op touches: the last element of the strided cube (power) and the
    // `channel` contiguous halves (softmax).
    const uint64_t last = std::max<uint64_t>(emu_offset(e, e.width - 1u, e.height - 1u, e.channel - 1u),
                                             2ull * (e.channel - 1u)) + 2;
    if (last > e.size) view_.bad(fmt::format("{}: its elements reach byte {}, past its size {}", what, last, e.size));
    e.addr = view_.address(index, 0, what);
    view_.check_inside(index, 0, e.size, what);
    return e;
  }

  const Loadable& l_;
  const TaskEntry& task_;
  TaskView view_;
};

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  uint32_t bits = 0;
  if (e == 0x1f) {
    bits = sign | 0x7f80'0000u | (m << 13);
  } else if (e != 0) {
    bits = sign | ((e + 112) << 23) | (m << 13);
  } else if (m == 0) {
    bits = sign;
  } else {
    int k = 0;  // normalize the subnormal
    while ((m & 0x400u) == 0) {
      m <<= 1;
      ++k;
    }
    bits = sign | ((113u - static_cast<uint32_t>(k)) << 23) | ((m & 0x3ffu) << 13);
  }
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t load_half(const Memory& m, uint64_t a) {
  return static_cast<uint16_t>(m.read(a) | (m.read(a + 1) << 8));
}

void store_half(Memory& m, uint64_t a, uint16_t v) {
  const uint8_t b[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
  m.write(a, std::span<const uint8_t>(b, 2));
}

}  // namespace

uint64_t emu_offset(const EmuBuffer& b, uint32_t x, uint32_t y, uint32_t c) {
  // the runtime's getAddrOffset for 32-byte atoms of 16 halves: NVDLA's feature layout
  golden::FeatureLayout l;
  l.line_stride = b.line_stride;
  l.surface_stride = b.surf_stride;
  l.atom_bytes = static_cast<int>(kAtomBytes);
  l.bpe = static_cast<int>(kAtomBytes / kFp16PerAtom);
  return l.address(0, static_cast<int>(c), static_cast<int>(y), static_cast<int>(x));
}

uint16_t runtime_float_to_half(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int e = static_cast<int>((bits >> 23) & 0xffu);
  const uint32_t m = bits & 0x7f'ffffu;
  uint32_t base = 0;
  int shift = 24;
  if (e >= 143) {
    base = 0x7c00;
    shift = e == 255 ? 13 : 24;  // a NaN keeps its top mantissa bits (none left: it becomes Inf)
  } else if (e >= 113) {
    base = static_cast<uint32_t>(e - 112) << 10;
    shift = 13;
  } else if (e >= 103) {
    base = 0x400u >> (113 - e);  // subnormal: the hidden bit shifted in
    shift = 126 - e;
  }
  uint32_t h = base + (m >> shift);
  // One guard bit, added in magnitude (ties away from zero); [2^-25, 2^-24) rounds up to the
  // smallest subnormal; nothing rounds out of Inf / NaN.
  const uint32_t guard = ((m >> (shift - 1)) & 1u) | (e == 102 ? 1u : 0u);
  if ((h & 0x7c00u) != 0x7c00u) h += guard;
  return static_cast<uint16_t>(sign | h);
}

std::vector<EmuOp> decode_emu_task(const Loadable& l, std::size_t task, const Plan& plan,
                                   const std::vector<std::vector<uint8_t>>& images) {
  return EmuDecoder(l, task, plan, images).decode();
}

void run_emu_op(const EmuOp& op, Memory& mem) {
  if (op.kind == EmuOp::Kind::Power) {
    // powf(shift + scale * x, power) per element of the strided cube, in float.
    for (uint32_t c = 0; c < op.src.channel; ++c) {
      for (uint32_t y = 0; y < op.src.height; ++y) {
        for (uint32_t x = 0; x < op.src.width; ++x) {
          const float v = half_bits_to_float(load_half(mem, op.src.addr + emu_offset(op.src, x, y, c)));
          const float r = ::powf(op.shift + op.scale * v, op.power);
          store_half(mem, op.dst.addr + emu_offset(op.dst, x, y, c), runtime_float_to_half(r));
        }
      }
    }
    return;
  }
  // Softmax over `channel` contiguous halves (the emulator ignores width, height and strides):
  // the maximum subtracted, expf and the sum in float, in order.
  const uint32_t n = op.src.channel;
  std::vector<float> x(n);
  float max_value = -std::numeric_limits<float>::infinity();
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = half_bits_to_float(load_half(mem, op.src.addr + 2ull * i));
    if (x[i] > max_value) max_value = x[i];
  }
  float sum = 0.0f;
  for (uint32_t i = 0; i < n; ++i) sum += ::expf(x[i] - max_value);
  for (uint32_t i = 0; i < n; ++i) {
    store_half(mem, op.dst.addr + 2ull * i, runtime_float_to_half(::expf(x[i] - max_value) / sum));
  }
}

}  // namespace dla::harness::loadable
