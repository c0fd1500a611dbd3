// The generated register structs (golden/include/golden/nvdla_reg_structs.hpp, tools/reggen):
// register words with known bits decode to the field values NVDLA's register manual gives for
// those bit positions (worked out by hand below; the words are placed at the offsets of
// nvdla_regs.hpp), bits outside the fields are ignored, and too few words are refused.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "golden/nvdla_reg_structs.hpp"

namespace {

using namespace dla::golden;

TEST_CASE("reg structs: CDMA D group fields decode from their words", "[regs]") {
  // CDMA's D group starts at D_OP_ENABLE (0x010); word i is offset 0x010 + 4i.
  namespace c = regs::cdma;
  CHECK(c::D::first_offset == 0x010u);
  std::vector<uint32_t> w(c::D::words, 0u);
  auto at = [&](uint32_t offset) -> uint32_t& { return w[(offset - 0x010) / 4]; };
  at(c::D_OP_ENABLE::offset) = 0xfffffffeu;   // OP_EN (bit 0) clear, the other bits are not fields
  at(c::D_DATAIN_SIZE_0::offset) = 0x801f0007u;  // WIDTH [12:0] = 7, HEIGHT [28:16] = 31, bit 31 junk
  at(c::D_DATAIN_SIZE_1::offset) = 0xffffe03fu;  // CHANNEL [12:0] = 0x3f = 63
  at(c::D_DAIN_ADDR_HIGH_0::offset) = 0x12345678u;  // whole word
  at(c::D_DAIN_ADDR_LOW_0::offset) = 0x9abcdef0u;   // whole word
  at(c::D_BANK::offset) = 0x00070009u;     // DATA_BANK [4:0] = 9, WEIGHT_BANK [20:16] = 7
  at(c::D_CVT_CFG::offset) = 0x000003f1u;  // CVT_EN [0] = 1, CVT_TRUNCATE [9:4] = 0x3f = 63
  at(c::D_WFOLD::offset) = 0x00010231u;    // WFOLD_EN [0] 1, WS_LOG2 [6:4] 3, KERNEL_WIDTH [12:8] 2, X_DILATION [20:16] 1
  const auto d = regs::cdma::D::decode(w);
  CHECK(d.op_enable == 0u);
  CHECK(d.datain_size_0_datain_width == 7u);
  CHECK(d.datain_size_0_datain_height == 31u);
  CHECK(d.datain_size_1 == 63u);
  CHECK(d.dain_addr_high_0 == 0x12345678u);
  CHECK(d.dain_addr_low_0 == 0x9abcdef0u);
  CHECK(d.bank_data_bank == 9u);
  CHECK(d.bank_weight_bank == 7u);
  CHECK(d.cvt_cfg_cvt_en == 1u);
  CHECK(d.cvt_cfg_cvt_truncate == 63u);
  CHECK(d.wfold_wfold_en == 1u);
  CHECK(d.wfold_ws_log2 == 3u);
  CHECK(d.wfold_kernel_width == 2u);
  CHECK(d.wfold_x_dilation == 1u);
  CHECK(d.line_stride == 0u);  // a word left 0

  CHECK_THROWS(regs::cdma::D::decode(std::vector<uint32_t>(regs::cdma::D::words - 1, 0u)));
}

TEST_CASE("reg structs: a field in bits 31 to 5 keeps its 27 bits (RUBIK addresses)", "[regs]") {
  // RBK's D group starts at 0x008; D_DAIN_ADDR_LOW's field DAIN_ADDR_LOW is [31:5].
  namespace r = regs::rbk;
  CHECK(r::D::first_offset == 0x008u);
  std::vector<uint32_t> w(r::D::words, 0u);
  w[(r::D_DAIN_ADDR_LOW::offset - 0x008) / 4] = 0xffffffffu;  // the low 5 bits are not the field
  w[(r::D_MISC_CFG::offset - 0x008) / 4] = 0x00000102u;       // RUBIK_MODE [1:0] 2, IN_PRECISION [9:8] 1
  const auto d = regs::rbk::D::decode(w);
  CHECK(d.dain_addr_low == 0x07ffffffu);
  CHECK(d.misc_cfg_rubik_mode == 2u);
  CHECK(d.misc_cfg_in_precision == 1u);
}

TEST_CASE("reg structs: SDP single registers from a word reader", "[regs]") {
  // S_LUT_INFO (0x014): LE_INDEX_OFFSET [7:0], LE_INDEX_SELECT [15:8], LO_INDEX_SELECT [23:16];
  // S_LUT_LE_SLOPE_SHIFT (0x02c): UFLOW [4:0], OFLOW [9:5].
  auto word_at = [](uint32_t offset) -> uint32_t {
    switch (offset) {
      case 0x008: return 0x00030155u;  // S_LUT_ACCESS_CFG: ADDR [9:0] 0x155, TABLE_ID [16] 1, TYPE [17] 1
      case 0x010: return 0x00000041u;  // S_LUT_CFG: LE_FUNCTION [0] 1, HYBRID_PRIORITY [6] 1
      case 0x014: return 0xabfe04f3u;
      case 0x02c: return 0xfffffdf0u;
      default: return 0u;
    }
  };
  const auto s = regs::sdp::S::read(word_at);
  CHECK(s.lut_access_cfg_lut_addr == 0x155u);
  CHECK(s.lut_access_cfg_lut_table_id == 1u);
  CHECK(s.lut_access_cfg_lut_access_type == 1u);
  CHECK(s.lut_cfg_lut_le_function == 1u);
  CHECK(s.lut_cfg_lut_uflow_priority == 0u);
  CHECK(s.lut_cfg_lut_hybrid_priority == 1u);
  CHECK(s.lut_info_lut_le_index_offset == 0xf3u);
  CHECK(s.lut_info_lut_le_index_select == 0x04u);
  CHECK(s.lut_info_lut_lo_index_select == 0xfeu);
  CHECK(s.lut_le_slope_shift_lut_le_slope_uflow_shift == 0x10u);
  CHECK(s.lut_le_slope_shift_lut_le_slope_oflow_shift == 0x0fu);
  CHECK(regs::sdp::S::words == 14u);  // S_STATUS 0x000 ... S_LUT_LO_SLOPE_SHIFT 0x034
}

TEST_CASE("reg structs: D_RELEASE keeps the register_field name, not a keyword", "[regs]") {
  // CSC D_RELEASE: RLS_SLICES [11:0] (group from 0x008).
  std::vector<uint32_t> w(regs::csc::D::words, 0u);
  w[(regs::csc::D_RELEASE::offset - 0x008) / 4] = 0xfffff123u;
  CHECK(regs::csc::D::decode(w).release_rls_slices == 0x123u);
}

}  // namespace
