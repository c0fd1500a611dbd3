#include "harness/dla_descriptors.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <type_traits>
#include <vector>

#include "harness/errors.hpp"

namespace dla::harness::fw {

const char* op_type_name(int type) {
  static constexpr std::array<const char*, kOpTypes> kNames = {"bdma", "conv", "sdp", "pdp", "cdp", "rubik"};
  return type >= 0 && type < kOpTypes ? kNames[static_cast<std::size_t>(type)] : "unknown";
}

bool layout_supported(const loadable::Version& v) { return v.major == 0 && v.minor >= 10 && v.minor <= 12; }

uint64_t Bytes::le(std::size_t off, std::size_t n, const char* field) const {
  if (off > data_.size() || n > data_.size() - off) {
    throw InputError(file_, what_,
                     fmt::format("field {} (bytes {}..{}) lies beyond the descriptor's {} bytes", field, off,
                                 off + n, data_.size()));
  }
  uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= uint64_t{data_[off + i]} << (8 * i);
  return v;
}

namespace {

// dla_interface.h's packed layouts, each described once (offset, member, name) and walked by a
// Reader (decoding, bounds-checked) or a Writer (encoding into a zeroed buffer).
class Reader {
 public:
  explicit Reader(const Bytes& b) : b_(b) {}
  template <class T>
  void operator()(std::size_t off, T& v, const char* name) const {
    v = static_cast<T>(b_.le(off, sizeof(T), name));
  }

 private:
  const Bytes& b_;
};

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
  template <class T>
  void operator()(std::size_t off, const T& v, const char* name) const {
    if (off + sizeof(T) > out_.size()) {
      throw std::logic_error(fmt::format("descriptor encoder: field {} (bytes {}..{}) beyond {} bytes", name, off,
                                         off + sizeof(T), out_.size()));
    }
    using U = std::make_unsigned_t<std::remove_cv_t<T>>;
    const auto u = static_cast<uint64_t>(static_cast<U>(v));
    for (std::size_t i = 0; i < sizeof(T); ++i) out_[off + i] = static_cast<uint8_t>(u >> (8 * i));
  }

 private:
  std::vector<uint8_t>& out_;
};

template <class IO, class C>
void cube_fields(const IO& io, std::size_t o, C& c, const Layout& l) {
  io(o, c.type, "type");
  io(o + 2, c.address, "address");
  std::size_t p = o + 4;
  if (l.cube_has_offset()) {
    io(p, c.offset, "offset");
    p += 4;
  }
  io(p, c.size, "size");
  io(p + 4, c.width, "width");
  io(p + 6, c.height, "height");
  io(p + 8, c.channel, "channel");
  io(p + 12, c.line_stride, "line_stride");
  io(p + 16, c.surf_stride, "surf_stride");
  io(p + 20, c.plane_stride, "plane_stride");
}

template <class IO, class C>
void cvt_fields(const IO& io, std::size_t o, C& c) {
  io(o, c.scale, "cvt.scale");
  io(o + 2, c.truncate, "cvt.truncate");
  io(o + 3, c.enable, "cvt.enable");
  io(o + 4, c.offset, "cvt.offset");
}

template <class IO, class S>
void sdp_op_fields(const IO& io, std::size_t o, S& s) {
  io(o, s.enable, "enable");
  io(o + 1, s.alu_type, "alu_type");
  io(o + 2, s.type, "type");
  io(o + 3, s.mode, "mode");
  io(o + 4, s.act, "act");
  io(o + 5, s.shift_value, "shift_value");
  io(o + 6, s.truncate, "truncate");
  io(o + 7, s.precision, "precision");
  io(o + 8, s.alu_operand, "alu_operand");
  io(o + 12, s.mul_operand, "mul_operand");
  cvt_fields(io, o + 16, s.alu_cvt);
  cvt_fields(io, o + 24, s.mul_cvt);
}

template <class IO, class N>
void network_fields(const IO& io, N& n) {
  io(0, n.operation_desc_index, "operation_desc_index");
  io(2, n.surface_desc_index, "surface_desc_index");
  io(4, n.dependency_graph_index, "dependency_graph_index");
  io(6, n.lut_data_index, "lut_data_index");
  io(8, n.roi_array_index, "roi_array_index");
  io(10, n.surface_index, "surface_index");
  io(12, n.stat_list_index, "stat_list_index");
  io(14, n.reserved1, "reserved1");
  for (std::size_t i = 0; i < kOpTypes; ++i) io(16 + 2 * i, n.op_head[i], "op_head");
  io(28, n.num_rois, "num_rois");
  io(30, n.num_operations, "num_operations");
  io(32, n.num_luts, "num_luts");
  io(34, n.num_addresses, "num_addresses");
  io(36, n.input_layer, "input_layer");
  io(38, n.dynamic_roi, "dynamic_roi");
}

template <class IO, class C>
void common_fields(const IO& io, C& c) {
  io(0, c.index, "index");
  io(2, c.roi_index, "roi_index");
  io(3, c.op_type, "op_type");
  io(4, c.dependency_count, "dependency_count");
  for (std::size_t i = 0; i < kOpTypes; ++i) {
    io(8 + 4 * i, c.consumers[i].index, "consumers.index");
    io(10 + 4 * i, c.consumers[i].event, "consumers.event");
  }
  io(32, c.fused_parent.index, "fused_parent.index");
  io(34, c.fused_parent.event, "fused_parent.event");
}

template <class IO, class C>
void conv_op_fields(const IO& io, C& c) {
  io(0, c.conv_mode, "conv_mode");
  io(1, c.data_reuse, "data_reuse");
  io(2, c.weight_reuse, "weight_reuse");
  io(3, c.skip_data_rls, "skip_data_rls");
  io(4, c.skip_weight_rls, "skip_weight_rls");
  io(6, c.entry_per_slice, "entry_per_slice");
  io(8, c.data_format, "data_format");
  io(9, c.pixel_mapping, "pixel_mapping");
  io(10, c.fetch_grain, "fetch_grain");
  io(20, c.batch, "batch");
  io(21, c.weight_format, "weight_format");
  io(22, c.data_bank, "data_bank");
  io(23, c.weight_bank, "weight_bank");
  io(24, c.batch_stride, "batch_stride");
  io(28, c.post_extension, "post_extension");
  io(29, c.pixel_override, "pixel_override");
  io(30, c.release, "release");
  io(32, c.input_width_csc, "input_width_csc");
  io(34, c.input_height_csc, "input_height_csc");
  io(36, c.input_channel_csc, "input_channel_csc");
  io(38, c.kernel_width_csc, "kernel_width_csc");
  io(40, c.kernel_height_csc, "kernel_height_csc");
  io(42, c.kernel_channel_csc, "kernel_channel_csc");
  io(44, c.input_width_cmac, "input_width_cmac");
  io(46, c.input_height_cmac, "input_height_cmac");
  io(48, c.bytes_per_kernel, "bytes_per_kernel");
  io(52, c.mean_ry, "mean_ry");
  io(54, c.mean_gu, "mean_gu");
  io(56, c.mean_bv, "mean_bv");
  io(58, c.mean_ax, "mean_ax");
  io(60, c.mean_format, "mean_format");
  io(61, c.conv_stride_x, "conv_stride_x");
  io(62, c.conv_stride_y, "conv_stride_y");
  io(63, c.pad_x_left, "pad_x_left");
  io(64, c.pad_x_right, "pad_x_right");
  io(65, c.pad_y_top, "pad_y_top");
  io(66, c.pad_y_bottom, "pad_y_bottom");
  io(67, c.dilation_x, "dilation_x");
  io(68, c.dilation_y, "dilation_y");
  io(71, c.pra_truncate, "pra_truncate");
  io(72, c.in_precision, "in_precision");
  io(73, c.out_precision, "out_precision");
  io(74, c.pad_val, "pad_val");
  cvt_fields(io, 76, c.in_cvt);
  cvt_fields(io, 84, c.out_cvt);
}

template <class IO, class S>
void conv_surface_fields(const IO& io, S& s, const Layout& l) {
  const std::size_t n = l.cube_bytes();
  cube_fields(io, 0, s.weight_data, l);
  cube_fields(io, n, s.wmb_data, l);
  cube_fields(io, 2 * n, s.wgs_data, l);
  cube_fields(io, 3 * n, s.src_data, l);
  cube_fields(io, 4 * n, s.dst_data, l);
  io(5 * n, s.offset_u, "offset_u");
  io(5 * n + 8, s.in_line_uv_stride, "in_line_uv_stride");
}

template <class IO, class S>
void sdp_op_desc_fields(const IO& io, S& s) {
  io(0, s.src_precision, "src_precision");
  io(1, s.dst_precision, "dst_precision");
  io(2, s.lut_index, "lut_index");
  cvt_fields(io, 4, s.out_cvt);
  io(12, s.conv_mode, "conv_mode");
  io(13, s.batch_num, "batch_num");
  io(16, s.batch_stride, "batch_stride");
  sdp_op_fields(io, 20, s.x1_op);
  sdp_op_fields(io, 52, s.x2_op);
  sdp_op_fields(io, 84, s.y_op);
}

template <class IO, class S>
void sdp_surface_fields(const IO& io, S& s, const Layout& l) {
  const std::size_t n = l.cube_bytes();
  cube_fields(io, 0, s.src_data, l);
  cube_fields(io, n, s.x1_data, l);
  cube_fields(io, 2 * n, s.x2_data, l);
  cube_fields(io, 3 * n, s.y_data, l);
  cube_fields(io, 4 * n, s.dst_data, l);
}

template <class IO, class P>
void pdp_op_fields(const IO& io, P& p) {
  io(0, p.partial_in_width_first, "partial_in_width_first");
  io(2, p.partial_in_width_mid, "partial_in_width_mid");
  io(4, p.partial_in_width_last, "partial_in_width_last");
  io(6, p.partial_width_first, "partial_width_first");
  io(8, p.partial_width_mid, "partial_width_mid");
  io(10, p.partial_width_last, "partial_width_last");
  io(12, p.split_num, "split_num");
  io(13, p.pool_mode, "pool_mode");
  io(14, p.pool_width, "pool_width");
  io(15, p.pool_height, "pool_height");
  io(16, p.stride_x, "stride_x");
  io(17, p.stride_y, "stride_y");
  io(18, p.pad_left, "pad_left");
  io(19, p.pad_right, "pad_right");
  io(20, p.pad_top, "pad_top");
  io(21, p.pad_bottom, "pad_bottom");
  io(22, p.precision, "precision");
  for (std::size_t i = 0; i < p.padding_value.size(); ++i) io(24 + 4 * i, p.padding_value[i], "padding_value");
}

template <class IO, class C>
void cdp_op_fields(const IO& io, C& c) {
  io(0, c.in_precision, "in_precision");
  io(1, c.out_precision, "out_precision");
  io(2, c.lut_index, "lut_index");
  cvt_fields(io, 4, c.in_cvt);
  cvt_fields(io, 12, c.out_cvt);
  io(20, c.local_size, "local_size");
  io(21, c.bypass_sqsum, "bypass_sqsum");
  io(22, c.bypass_out_mul, "bypass_out_mul");
}

template <class IO, class R>
void rubik_op_fields(const IO& io, R& r) {
  io(0, r.mode, "mode");
  io(1, r.precision, "precision");
  io(2, r.stride_x, "stride_x");
  io(3, r.stride_y, "stride_y");
}

template <class IO, class S>
void in_out_surface_fields(const IO& io, S& s, const Layout& l) {
  cube_fields(io, 0, s.src_data, l);
  cube_fields(io, l.cube_bytes(), s.dst_data, l);
}

template <class IO, class S>
void bdma_surface_fields(const IO& io, S& s) {
  io(0, s.source_type, "source_type");
  io(1, s.destination_type, "destination_type");
  io(2, s.num_transfers, "num_transfers");
  for (std::size_t i = 0; i < s.transfers.size(); ++i) {
    const std::size_t o = 4 + 32 * i;
    auto& t = s.transfers[i];
    io(o, t.source_address, "source_address");
    io(o + 2, t.destination_address, "destination_address");
    io(o + 4, t.line_size, "line_size");
    io(o + 8, t.line_repeat, "line_repeat");
    io(o + 12, t.source_line, "source_line");
    io(o + 16, t.destination_line, "destination_line");
    io(o + 20, t.surface_repeat, "surface_repeat");
    io(o + 24, t.source_surface, "source_surface");
    io(o + 28, t.destination_surface, "destination_surface");
  }
}

// A slope is a union: {int16 scale, int8 shifter} or an fp16 word. Decoding fills both views;
// encoding writes the integer view (an fp16 slope's word is its scale's bits, shifter 0).
template <class IO, class S>
void slope_fields(const IO& io, std::size_t o, S& s) {
  io(o, s.scale, "slope.scale");
  io(o + 2, s.shifter, "slope.shifter");
}

template <class IO, class L>
void lut_fields(const IO& io, L& l) {
  for (std::size_t i = 0; i < l.linear_exp_table.size(); ++i) io(2 * i, l.linear_exp_table[i], "linear_exp_table");
  for (std::size_t i = 0; i < l.linear_only_table.size(); ++i) io(130 + 2 * i, l.linear_only_table[i], "linear_only_table");
  io(644, l.linear_exp_offset, "linear_exp_offset");
  io(646, l.linear_only_offset, "linear_only_offset");
  io(648, l.linear_exp_start, "linear_exp_start");
  io(656, l.linear_exp_end, "linear_exp_end");
  io(664, l.linear_only_start, "linear_only_start");
  io(672, l.linear_only_end, "linear_only_end");
  slope_fields(io, 680, l.linear_exp_underflow_slope);
  slope_fields(io, 684, l.linear_exp_overflow_slope);
  slope_fields(io, 688, l.linear_only_underflow_slope);
  slope_fields(io, 692, l.linear_only_overflow_slope);
  io(696, l.hybrid_priority, "hybrid_priority");
  io(697, l.underflow_priority, "underflow_priority");
  io(698, l.overflow_priority, "overflow_priority");
  io(699, l.method, "method");
}

template <class T, class F>
T decode_with(const Bytes& b, F&& fields) {
  T v;
  fields(Reader(b), v);
  return v;
}

template <class T, class F>
std::vector<uint8_t> encode_with(std::size_t bytes, const T& v, F&& fields) {
  std::vector<uint8_t> out(bytes, 0);
  fields(Writer(out), v);
  return out;
}

}  // namespace

NetworkDesc decode_network(const Bytes& b) { return decode_with<NetworkDesc>(b, [](const auto& io, auto& v) { network_fields(io, v); }); }
CommonOpDesc decode_common(const Bytes& b) { return decode_with<CommonOpDesc>(b, [](const auto& io, auto& v) { common_fields(io, v); }); }
ConvOpDesc decode_conv_op(const Bytes& b) { return decode_with<ConvOpDesc>(b, [](const auto& io, auto& v) { conv_op_fields(io, v); }); }
ConvSurfaceDesc decode_conv_surface(const Bytes& b, const Layout& l) {
  return decode_with<ConvSurfaceDesc>(b, [&l](const auto& io, auto& v) { conv_surface_fields(io, v, l); });
}
SdpOpDesc decode_sdp_op(const Bytes& b) { return decode_with<SdpOpDesc>(b, [](const auto& io, auto& v) { sdp_op_desc_fields(io, v); }); }
SdpSurfaceDesc decode_sdp_surface(const Bytes& b, const Layout& l) {
  return decode_with<SdpSurfaceDesc>(b, [&l](const auto& io, auto& v) { sdp_surface_fields(io, v, l); });
}
PdpOpDesc decode_pdp_op(const Bytes& b) { return decode_with<PdpOpDesc>(b, [](const auto& io, auto& v) { pdp_op_fields(io, v); }); }
CdpOpDesc decode_cdp_op(const Bytes& b) { return decode_with<CdpOpDesc>(b, [](const auto& io, auto& v) { cdp_op_fields(io, v); }); }
RubikOpDesc decode_rubik_op(const Bytes& b) { return decode_with<RubikOpDesc>(b, [](const auto& io, auto& v) { rubik_op_fields(io, v); }); }
InOutSurfaceDesc decode_in_out_surface(const Bytes& b, const Layout& l) {
  return decode_with<InOutSurfaceDesc>(b, [&l](const auto& io, auto& v) { in_out_surface_fields(io, v, l); });
}
uint16_t decode_bdma_op(const Bytes& b) { return b.u16(0, "num_transfers"); }
BdmaSurfaceDesc decode_bdma_surface(const Bytes& b) {
  return decode_with<BdmaSurfaceDesc>(b, [](const auto& io, auto& v) { bdma_surface_fields(io, v); });
}
LutParam decode_lut(const Bytes& b) {
  LutParam l = decode_with<LutParam>(b, [](const auto& io, auto& v) { lut_fields(io, v); });
  for (auto* s : {&l.linear_exp_underflow_slope, &l.linear_exp_overflow_slope, &l.linear_only_underflow_slope,
                  &l.linear_only_overflow_slope}) {
    s->data_f = static_cast<uint16_t>(s->scale);  // the union's fp16 view
  }
  return l;
}

std::vector<uint8_t> encode_network(const NetworkDesc& n) {
  return encode_with(kNetworkDescBytes, n, [](const auto& io, auto& v) { network_fields(io, v); });
}
std::vector<uint8_t> encode_common(const CommonOpDesc& c) {
  return encode_with(kCommonOpDescBytes, c, [](const auto& io, auto& v) { common_fields(io, v); });
}
std::vector<uint8_t> encode_conv_op(const ConvOpDesc& c) {
  return encode_with(kOpContainerBytes, c, [](const auto& io, auto& v) { conv_op_fields(io, v); });
}
std::vector<uint8_t> encode_conv_surface(const ConvSurfaceDesc& s, const Layout& l) {
  return encode_with(kSurfaceContainerBytes, s, [&l](const auto& io, auto& v) { conv_surface_fields(io, v, l); });
}
std::vector<uint8_t> encode_sdp_op(const SdpOpDesc& s) {
  return encode_with(kOpContainerBytes, s, [](const auto& io, auto& v) { sdp_op_desc_fields(io, v); });
}
std::vector<uint8_t> encode_sdp_surface(const SdpSurfaceDesc& s, const Layout& l) {
  return encode_with(kSurfaceContainerBytes, s, [&l](const auto& io, auto& v) { sdp_surface_fields(io, v, l); });
}
std::vector<uint8_t> encode_pdp_op(const PdpOpDesc& p) {
  return encode_with(kOpContainerBytes, p, [](const auto& io, auto& v) { pdp_op_fields(io, v); });
}
std::vector<uint8_t> encode_cdp_op(const CdpOpDesc& c) {
  return encode_with(kOpContainerBytes, c, [](const auto& io, auto& v) { cdp_op_fields(io, v); });
}
std::vector<uint8_t> encode_rubik_op(const RubikOpDesc& r) {
  return encode_with(kOpContainerBytes, r, [](const auto& io, auto& v) { rubik_op_fields(io, v); });
}
std::vector<uint8_t> encode_in_out_surface(const InOutSurfaceDesc& s, const Layout& l) {
  return encode_with(kSurfaceContainerBytes, s, [&l](const auto& io, auto& v) { in_out_surface_fields(io, v, l); });
}
std::vector<uint8_t> encode_bdma_op(uint16_t num_transfers) {
  return encode_with(kOpContainerBytes, num_transfers, [](const auto& io, auto& v) { io(0, v, "num_transfers"); });
}
std::vector<uint8_t> encode_bdma_surface(const BdmaSurfaceDesc& s) {
  return encode_with(kSurfaceContainerBytes, s, [](const auto& io, auto& v) { bdma_surface_fields(io, v); });
}
std::vector<uint8_t> encode_lut(const LutParam& l) { return encode_with(kLutParamBytes, l, [](const auto& io, auto& v) { lut_fields(io, v); }); }

}  // namespace dla::harness::fw
