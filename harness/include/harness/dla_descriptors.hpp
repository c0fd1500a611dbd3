// The DLA firmware's descriptors (NVIDIA's dla_interface.h): the network, the dependency graph
// entries, each op's operation and surface descriptors and the LUT tables, as plain values,
// decoded from the little-endian packed bytes a loadable's DLA1 blobs hold. The layout depends on
// the descriptor interface's version (docs/LOADABLES.md "Descriptor versions"): before 0.12 a data
// cube has no `offset` field. Every read is bounds-checked: a short blob is an InputError naming
// the descriptor and the field. Each layout is described once and serves both the decoders and
// the encoders (`dlacosim compile --loadable` writes descriptors).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "harness/loadable.hpp"

namespace dla::harness::fw {

enum class OpType : uint8_t { Bdma = 0, Conv = 1, Sdp = 2, Pdp = 3, Cdp = 4, Rubik = 5 };
inline constexpr int kOpTypes = 6;
[[nodiscard]] const char* op_type_name(int type);

// Sizes of the descriptor lists' elements (the firmware indexes the lists by them).
inline constexpr std::size_t kNetworkDescBytes = 40;
inline constexpr std::size_t kCommonOpDescBytes = 36;
inline constexpr std::size_t kOpContainerBytes = 116;
inline constexpr std::size_t kSurfaceContainerBytes = 644;
inline constexpr std::size_t kLutParamBytes = 700;

// Events a consumer waits for (dla_interface.h DLA_EVENT_*).
inline constexpr uint8_t kEventCompleted = 1, kEventProgrammed = 2, kEventEnabled = 3, kEventCdmaWtDone = 4,
                         kEventCdmaDtDone = 5;

// Memory types of a data cube.
inline constexpr uint16_t kMemMc = 0, kMemCv = 1, kMemHw = 2;

// Precisions of descriptors.
inline constexpr uint8_t kPrecisionInt8 = 0, kPrecisionInt16 = 1, kPrecisionFp16 = 2;

// The descriptor interface's layout version.
struct Layout {
  loadable::Version version;
  [[nodiscard]] bool cube_has_offset() const { return version.minor >= 12; }
  [[nodiscard]] std::size_t cube_bytes() const { return cube_has_offset() ? 32 : 28; }
};
// The layouts dlacosim decodes: 0.10, 0.11 (NVIDIA's regression files) and 0.12 (the header's).
[[nodiscard]] bool layout_supported(const loadable::Version& v);

// A bounds-checked little-endian view of one descriptor.
class Bytes {
 public:
  Bytes(std::span<const uint8_t> data, std::string file, std::string what)
      : data_(data), file_(std::move(file)), what_(std::move(what)) {}
  [[nodiscard]] uint64_t le(std::size_t off, std::size_t n, const char* field) const;
  [[nodiscard]] uint8_t u8(std::size_t off, const char* f) const { return static_cast<uint8_t>(le(off, 1, f)); }
  [[nodiscard]] int8_t s8(std::size_t off, const char* f) const { return static_cast<int8_t>(le(off, 1, f)); }
  [[nodiscard]] uint16_t u16(std::size_t off, const char* f) const { return static_cast<uint16_t>(le(off, 2, f)); }
  [[nodiscard]] int16_t s16(std::size_t off, const char* f) const { return static_cast<int16_t>(le(off, 2, f)); }
  [[nodiscard]] uint32_t u32(std::size_t off, const char* f) const { return static_cast<uint32_t>(le(off, 4, f)); }
  [[nodiscard]] int32_t s32(std::size_t off, const char* f) const { return static_cast<int32_t>(le(off, 4, f)); }
  [[nodiscard]] uint64_t u64(std::size_t off, const char* f) const { return le(off, 8, f); }
  [[nodiscard]] const std::string& what() const { return what_; }
  [[nodiscard]] std::size_t size() const { return data_.size(); }

 private:
  std::span<const uint8_t> data_;
  std::string file_;
  std::string what_;
};

struct NetworkDesc {
  int16_t operation_desc_index = -1, surface_desc_index = -1, dependency_graph_index = -1, lut_data_index = -1;
  int16_t roi_array_index = -1, surface_index = -1, stat_list_index = -1, reserved1 = -1;
  std::array<int16_t, kOpTypes> op_head{};
  uint16_t num_rois = 0, num_operations = 0, num_luts = 0, num_addresses = 0;
  int16_t input_layer = 0;
  uint8_t dynamic_roi = 0;
};

struct Consumer {
  int16_t index = -1;
  uint8_t event = 0;
};

struct CommonOpDesc {
  int16_t index = 0;
  int8_t roi_index = 0;
  uint8_t op_type = 0;
  uint8_t dependency_count = 0;
  std::array<Consumer, kOpTypes> consumers{};
  Consumer fused_parent;
};

struct DataCube {
  uint16_t type = 0;     // kMemMc, kMemCv, kMemHw
  int16_t address = -1;  // index into the task's address list
  uint32_t offset = 0;   // 0.12 on
  uint32_t size = 0;
  uint16_t width = 0, height = 0, channel = 0;
  uint32_t line_stride = 0, surf_stride = 0, plane_stride = 0;
};

struct CvtParam {
  int16_t scale = 0;
  uint8_t truncate = 0;
  uint8_t enable = 0;
  int32_t offset = 0;
};

struct ConvOpDesc {
  uint8_t conv_mode = 0, data_reuse = 0, weight_reuse = 0, skip_data_rls = 0, skip_weight_rls = 0;
  uint16_t entry_per_slice = 0;
  uint8_t data_format = 0, pixel_mapping = 0;
  uint16_t fetch_grain = 0;
  uint8_t batch = 0, weight_format = 0, data_bank = 0, weight_bank = 0;
  uint32_t batch_stride = 0;
  uint8_t post_extension = 0, pixel_override = 0;
  uint16_t release = 0;
  uint16_t input_width_csc = 0, input_height_csc = 0, input_channel_csc = 0;
  uint16_t kernel_width_csc = 0, kernel_height_csc = 0, kernel_channel_csc = 0;
  uint16_t input_width_cmac = 0, input_height_cmac = 0;
  uint32_t bytes_per_kernel = 0;
  int16_t mean_ry = 0, mean_gu = 0, mean_bv = 0, mean_ax = 0;
  uint8_t mean_format = 0, conv_stride_x = 0, conv_stride_y = 0;
  uint8_t pad_x_left = 0, pad_x_right = 0, pad_y_top = 0, pad_y_bottom = 0;
  uint8_t dilation_x = 0, dilation_y = 0;
  uint8_t pra_truncate = 0, in_precision = 0, out_precision = 0;
  int16_t pad_val = 0;
  CvtParam in_cvt, out_cvt;
};

struct ConvSurfaceDesc {
  DataCube weight_data, wmb_data, wgs_data, src_data, dst_data;
  int64_t offset_u = 0;
  uint32_t in_line_uv_stride = 0;
};

struct SdpOp {
  uint8_t enable = 0, alu_type = 0, type = 0, mode = 0, act = 0, shift_value = 0, truncate = 0, precision = 0;
  int32_t alu_operand = 0, mul_operand = 0;
  CvtParam alu_cvt, mul_cvt;
};

struct SdpOpDesc {
  uint8_t src_precision = 0, dst_precision = 0;
  int16_t lut_index = -1;
  CvtParam out_cvt;
  uint8_t conv_mode = 0, batch_num = 0;
  uint32_t batch_stride = 0;
  SdpOp x1_op, x2_op, y_op;
};

struct SdpSurfaceDesc {
  DataCube src_data, x1_data, x2_data, y_data, dst_data;
};

struct PdpOpDesc {
  uint16_t partial_in_width_first = 0, partial_in_width_mid = 0, partial_in_width_last = 0;
  uint16_t partial_width_first = 0, partial_width_mid = 0, partial_width_last = 0;
  uint8_t split_num = 0, pool_mode = 0, pool_width = 0, pool_height = 0, stride_x = 0, stride_y = 0;
  uint8_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0, precision = 0;
  std::array<int32_t, 7> padding_value{};
};

struct CdpOpDesc {
  uint8_t in_precision = 0, out_precision = 0;
  int16_t lut_index = -1;
  CvtParam in_cvt, out_cvt;
  uint8_t local_size = 0, bypass_sqsum = 0, bypass_out_mul = 0;
};

struct RubikOpDesc {
  uint8_t mode = 0, precision = 0, stride_x = 0, stride_y = 0;
};

struct BdmaTransfer {
  int16_t source_address = -1, destination_address = -1;
  uint32_t line_size = 0, line_repeat = 0, source_line = 0, destination_line = 0;
  uint32_t surface_repeat = 0, source_surface = 0, destination_surface = 0;
};

struct BdmaSurfaceDesc {
  uint8_t source_type = 0, destination_type = 0;
  uint16_t num_transfers = 0;
  std::array<BdmaTransfer, 20> transfers{};
};

// Two cubes: PDP, CDP and RUBIK surfaces.
struct InOutSurfaceDesc {
  DataCube src_data, dst_data;
};

struct LutParam {
  std::array<int16_t, 65> linear_exp_table{};
  std::array<int16_t, 257> linear_only_table{};
  int8_t linear_exp_offset = 0;  // exp_offset or frac_bits (a union's first byte)
  int8_t linear_only_offset = 0;
  uint64_t linear_exp_start = 0, linear_exp_end = 0, linear_only_start = 0, linear_only_end = 0;
  // Each slope: scale (int16) and shifter (int8) as integers, or an fp16 word.
  struct Slope {
    int16_t scale = 0;
    int8_t shifter = 0;
    uint16_t data_f = 0;
  };
  Slope linear_exp_underflow_slope, linear_exp_overflow_slope, linear_only_underflow_slope,
      linear_only_overflow_slope;
  uint8_t hybrid_priority = 0, underflow_priority = 0, overflow_priority = 0, method = 0;
};

[[nodiscard]] NetworkDesc decode_network(const Bytes& b);
[[nodiscard]] CommonOpDesc decode_common(const Bytes& b);
[[nodiscard]] ConvOpDesc decode_conv_op(const Bytes& b);
[[nodiscard]] ConvSurfaceDesc decode_conv_surface(const Bytes& b, const Layout& l);
[[nodiscard]] SdpOpDesc decode_sdp_op(const Bytes& b);
[[nodiscard]] SdpSurfaceDesc decode_sdp_surface(const Bytes& b, const Layout& l);
[[nodiscard]] PdpOpDesc decode_pdp_op(const Bytes& b);
[[nodiscard]] CdpOpDesc decode_cdp_op(const Bytes& b);
[[nodiscard]] RubikOpDesc decode_rubik_op(const Bytes& b);
[[nodiscard]] InOutSurfaceDesc decode_in_out_surface(const Bytes& b, const Layout& l);
[[nodiscard]] uint16_t decode_bdma_op(const Bytes& b);  // num_transfers
[[nodiscard]] BdmaSurfaceDesc decode_bdma_surface(const Bytes& b);
[[nodiscard]] LutParam decode_lut(const Bytes& b);

// The same layouts written (little endian, zero padding), each at its list element's size: the
// network descriptor, a dependency graph entry, an op container, a surface container, a LUT.
[[nodiscard]] std::vector<uint8_t> encode_network(const NetworkDesc& n);
[[nodiscard]] std::vector<uint8_t> encode_common(const CommonOpDesc& c);
[[nodiscard]] std::vector<uint8_t> encode_conv_op(const ConvOpDesc& c);
[[nodiscard]] std::vector<uint8_t> encode_conv_surface(const ConvSurfaceDesc& s, const Layout& l);
[[nodiscard]] std::vector<uint8_t> encode_sdp_op(const SdpOpDesc& s);
[[nodiscard]] std::vector<uint8_t> encode_sdp_surface(const SdpSurfaceDesc& s, const Layout& l);
[[nodiscard]] std::vector<uint8_t> encode_pdp_op(const PdpOpDesc& p);
[[nodiscard]] std::vector<uint8_t> encode_cdp_op(const CdpOpDesc& c);
[[nodiscard]] std::vector<uint8_t> encode_rubik_op(const RubikOpDesc& r);
[[nodiscard]] std::vector<uint8_t> encode_in_out_surface(const InOutSurfaceDesc& s, const Layout& l);
[[nodiscard]] std::vector<uint8_t> encode_bdma_op(uint16_t num_transfers);
[[nodiscard]] std::vector<uint8_t> encode_bdma_surface(const BdmaSurfaceDesc& s);
[[nodiscard]] std::vector<uint8_t> encode_lut(const LutParam& l);

}  // namespace dla::harness::fw
