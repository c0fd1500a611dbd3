#include "harness/dla_descriptors.hpp"

#include <fmt/format.h>

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

// dla_interface.h's packed layouts: offsets within each structure.
DataCube cube(const Bytes& b, std::size_t o, const Layout& l) {
  DataCube c;
  c.type = b.u16(o, "type");
  c.address = b.s16(o + 2, "address");
  std::size_t p = o + 4;
  if (l.cube_has_offset()) {
    c.offset = b.u32(p, "offset");
    p += 4;
  }
  c.size = b.u32(p, "size");
  c.width = b.u16(p + 4, "width");
  c.height = b.u16(p + 6, "height");
  c.channel = b.u16(p + 8, "channel");
  c.line_stride = b.u32(p + 12, "line_stride");
  c.surf_stride = b.u32(p + 16, "surf_stride");
  c.plane_stride = b.u32(p + 20, "plane_stride");
  return c;
}

CvtParam cvt(const Bytes& b, std::size_t o) {
  return {b.s16(o, "cvt.scale"), b.u8(o + 2, "cvt.truncate"), b.u8(o + 3, "cvt.enable"), b.s32(o + 4, "cvt.offset")};
}

SdpOp sdp_op(const Bytes& b, std::size_t o) {
  SdpOp s;
  s.enable = b.u8(o, "enable");
  s.alu_type = b.u8(o + 1, "alu_type");
  s.type = b.u8(o + 2, "type");
  s.mode = b.u8(o + 3, "mode");
  s.act = b.u8(o + 4, "act");
  s.shift_value = b.u8(o + 5, "shift_value");
  s.truncate = b.u8(o + 6, "truncate");
  s.precision = b.u8(o + 7, "precision");
  s.alu_operand = b.s32(o + 8, "alu_operand");
  s.mul_operand = b.s32(o + 12, "mul_operand");
  s.alu_cvt = cvt(b, o + 16);
  s.mul_cvt = cvt(b, o + 24);
  return s;
}

LutParam::Slope slope(const Bytes& b, std::size_t o) {
  return {b.s16(o, "slope.scale"), b.s8(o + 2, "slope.shifter"), b.u16(o, "slope.data_f")};
}

}  // namespace

NetworkDesc decode_network(const Bytes& b) {
  NetworkDesc n;
  n.operation_desc_index = b.s16(0, "operation_desc_index");
  n.surface_desc_index = b.s16(2, "surface_desc_index");
  n.dependency_graph_index = b.s16(4, "dependency_graph_index");
  n.lut_data_index = b.s16(6, "lut_data_index");
  n.roi_array_index = b.s16(8, "roi_array_index");
  n.surface_index = b.s16(10, "surface_index");
  n.stat_list_index = b.s16(12, "stat_list_index");
  for (int i = 0; i < kOpTypes; ++i) n.op_head[static_cast<std::size_t>(i)] = b.s16(16 + 2 * static_cast<std::size_t>(i), "op_head");
  n.num_rois = b.u16(28, "num_rois");
  n.num_operations = b.u16(30, "num_operations");
  n.num_luts = b.u16(32, "num_luts");
  n.num_addresses = b.u16(34, "num_addresses");
  n.input_layer = b.s16(36, "input_layer");
  n.dynamic_roi = b.u8(38, "dynamic_roi");
  return n;
}

CommonOpDesc decode_common(const Bytes& b) {
  CommonOpDesc c;
  c.index = b.s16(0, "index");
  c.roi_index = b.s8(2, "roi_index");
  c.op_type = b.u8(3, "op_type");
  c.dependency_count = b.u8(4, "dependency_count");
  for (std::size_t i = 0; i < kOpTypes; ++i) c.consumers[i] = {b.s16(8 + 4 * i, "consumers.index"), b.u8(10 + 4 * i, "consumers.event")};
  c.fused_parent = {b.s16(32, "fused_parent.index"), b.u8(34, "fused_parent.event")};
  return c;
}

ConvOpDesc decode_conv_op(const Bytes& b) {
  ConvOpDesc c;
  c.conv_mode = b.u8(0, "conv_mode");
  c.data_reuse = b.u8(1, "data_reuse");
  c.weight_reuse = b.u8(2, "weight_reuse");
  c.skip_data_rls = b.u8(3, "skip_data_rls");
  c.skip_weight_rls = b.u8(4, "skip_weight_rls");
  c.entry_per_slice = b.u16(6, "entry_per_slice");
  c.data_format = b.u8(8, "data_format");
  c.pixel_mapping = b.u8(9, "pixel_mapping");
  c.fetch_grain = b.u16(10, "fetch_grain");
  c.batch = b.u8(20, "batch");
  c.weight_format = b.u8(21, "weight_format");
  c.data_bank = b.u8(22, "data_bank");
  c.weight_bank = b.u8(23, "weight_bank");
  c.batch_stride = b.u32(24, "batch_stride");
  c.post_extension = b.u8(28, "post_extension");
  c.pixel_override = b.u8(29, "pixel_override");
  c.release = b.u16(30, "release");
  c.input_width_csc = b.u16(32, "input_width_csc");
  c.input_height_csc = b.u16(34, "input_height_csc");
  c.input_channel_csc = b.u16(36, "input_channel_csc");
  c.kernel_width_csc = b.u16(38, "kernel_width_csc");
  c.kernel_height_csc = b.u16(40, "kernel_height_csc");
  c.kernel_channel_csc = b.u16(42, "kernel_channel_csc");
  c.input_width_cmac = b.u16(44, "input_width_cmac");
  c.input_height_cmac = b.u16(46, "input_height_cmac");
  c.bytes_per_kernel = b.u32(48, "bytes_per_kernel");
  c.mean_ry = b.s16(52, "mean_ry");
  c.mean_gu = b.s16(54, "mean_gu");
  c.mean_bv = b.s16(56, "mean_bv");
  c.mean_ax = b.s16(58, "mean_ax");
  c.mean_format = b.u8(60, "mean_format");
  c.conv_stride_x = b.u8(61, "conv_stride_x");
  c.conv_stride_y = b.u8(62, "conv_stride_y");
  c.pad_x_left = b.u8(63, "pad_x_left");
  c.pad_x_right = b.u8(64, "pad_x_right");
  c.pad_y_top = b.u8(65, "pad_y_top");
  c.pad_y_bottom = b.u8(66, "pad_y_bottom");
  c.dilation_x = b.u8(67, "dilation_x");
  c.dilation_y = b.u8(68, "dilation_y");
  c.pra_truncate = b.u8(71, "pra_truncate");
  c.in_precision = b.u8(72, "in_precision");
  c.out_precision = b.u8(73, "out_precision");
  c.pad_val = b.s16(74, "pad_val");
  c.in_cvt = cvt(b, 76);
  c.out_cvt = cvt(b, 84);
  return c;
}

ConvSurfaceDesc decode_conv_surface(const Bytes& b, const Layout& l) {
  ConvSurfaceDesc s;
  const std::size_t n = l.cube_bytes();
  s.weight_data = cube(b, 0, l);
  s.wmb_data = cube(b, n, l);
  s.wgs_data = cube(b, 2 * n, l);
  s.src_data = cube(b, 3 * n, l);
  s.dst_data = cube(b, 4 * n, l);
  s.offset_u = static_cast<int64_t>(b.u64(5 * n, "offset_u"));
  s.in_line_uv_stride = b.u32(5 * n + 8, "in_line_uv_stride");
  return s;
}

SdpOpDesc decode_sdp_op(const Bytes& b) {
  SdpOpDesc s;
  s.src_precision = b.u8(0, "src_precision");
  s.dst_precision = b.u8(1, "dst_precision");
  s.lut_index = b.s16(2, "lut_index");
  s.out_cvt = cvt(b, 4);
  s.conv_mode = b.u8(12, "conv_mode");
  s.batch_num = b.u8(13, "batch_num");
  s.batch_stride = b.u32(16, "batch_stride");
  s.x1_op = sdp_op(b, 20);
  s.x2_op = sdp_op(b, 52);
  s.y_op = sdp_op(b, 84);
  return s;
}

SdpSurfaceDesc decode_sdp_surface(const Bytes& b, const Layout& l) {
  const std::size_t n = l.cube_bytes();
  return {cube(b, 0, l), cube(b, n, l), cube(b, 2 * n, l), cube(b, 3 * n, l), cube(b, 4 * n, l)};
}

PdpOpDesc decode_pdp_op(const Bytes& b) {
  PdpOpDesc p;
  p.partial_in_width_first = b.u16(0, "partial_in_width_first");
  p.partial_in_width_mid = b.u16(2, "partial_in_width_mid");
  p.partial_in_width_last = b.u16(4, "partial_in_width_last");
  p.partial_width_first = b.u16(6, "partial_width_first");
  p.partial_width_mid = b.u16(8, "partial_width_mid");
  p.partial_width_last = b.u16(10, "partial_width_last");
  p.split_num = b.u8(12, "split_num");
  p.pool_mode = b.u8(13, "pool_mode");
  p.pool_width = b.u8(14, "pool_width");
  p.pool_height = b.u8(15, "pool_height");
  p.stride_x = b.u8(16, "stride_x");
  p.stride_y = b.u8(17, "stride_y");
  p.pad_left = b.u8(18, "pad_left");
  p.pad_right = b.u8(19, "pad_right");
  p.pad_top = b.u8(20, "pad_top");
  p.pad_bottom = b.u8(21, "pad_bottom");
  p.precision = b.u8(22, "precision");
  for (std::size_t i = 0; i < p.padding_value.size(); ++i) p.padding_value[i] = b.s32(24 + 4 * i, "padding_value");
  return p;
}

CdpOpDesc decode_cdp_op(const Bytes& b) {
  CdpOpDesc c;
  c.in_precision = b.u8(0, "in_precision");
  c.out_precision = b.u8(1, "out_precision");
  c.lut_index = b.s16(2, "lut_index");
  c.in_cvt = cvt(b, 4);
  c.out_cvt = cvt(b, 12);
  c.local_size = b.u8(20, "local_size");
  c.bypass_sqsum = b.u8(21, "bypass_sqsum");
  c.bypass_out_mul = b.u8(22, "bypass_out_mul");
  return c;
}

RubikOpDesc decode_rubik_op(const Bytes& b) {
  return {b.u8(0, "mode"), b.u8(1, "precision"), b.u8(2, "stride_x"), b.u8(3, "stride_y")};
}

InOutSurfaceDesc decode_in_out_surface(const Bytes& b, const Layout& l) {
  return {cube(b, 0, l), cube(b, l.cube_bytes(), l)};
}

uint16_t decode_bdma_op(const Bytes& b) { return b.u16(0, "num_transfers"); }

BdmaSurfaceDesc decode_bdma_surface(const Bytes& b) {
  BdmaSurfaceDesc s;
  s.source_type = b.u8(0, "source_type");
  s.destination_type = b.u8(1, "destination_type");
  s.num_transfers = b.u16(2, "num_transfers");
  for (std::size_t i = 0; i < s.transfers.size(); ++i) {
    const std::size_t o = 4 + 32 * i;
    BdmaTransfer& t = s.transfers[i];
    t.source_address = b.s16(o, "source_address");
    t.destination_address = b.s16(o + 2, "destination_address");
    t.line_size = b.u32(o + 4, "line_size");
    t.line_repeat = b.u32(o + 8, "line_repeat");
    t.source_line = b.u32(o + 12, "source_line");
    t.destination_line = b.u32(o + 16, "destination_line");
    t.surface_repeat = b.u32(o + 20, "surface_repeat");
    t.source_surface = b.u32(o + 24, "source_surface");
    t.destination_surface = b.u32(o + 28, "destination_surface");
  }
  return s;
}

LutParam decode_lut(const Bytes& b) {
  LutParam l;
  for (std::size_t i = 0; i < l.linear_exp_table.size(); ++i) l.linear_exp_table[i] = b.s16(2 * i, "linear_exp_table");
  for (std::size_t i = 0; i < l.linear_only_table.size(); ++i) {
    l.linear_only_table[i] = b.s16(130 + 2 * i, "linear_only_table");
  }
  l.linear_exp_offset = b.s8(644, "linear_exp_offset");
  l.linear_only_offset = b.s8(646, "linear_only_offset");
  l.linear_exp_start = b.u64(648, "linear_exp_start");
  l.linear_exp_end = b.u64(656, "linear_exp_end");
  l.linear_only_start = b.u64(664, "linear_only_start");
  l.linear_only_end = b.u64(672, "linear_only_end");
  l.linear_exp_underflow_slope = slope(b, 680);
  l.linear_exp_overflow_slope = slope(b, 684);
  l.linear_only_underflow_slope = slope(b, 688);
  l.linear_only_overflow_slope = slope(b, 692);
  l.hybrid_priority = b.u8(696, "hybrid_priority");
  l.underflow_priority = b.u8(697, "underflow_priority");
  l.overflow_priority = b.u8(698, "overflow_priority");
  l.method = b.u8(699, "method");
  return l;
}

}  // namespace dla::harness::fw
