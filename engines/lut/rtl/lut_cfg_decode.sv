// Decodes the S_LUT_* configuration register words of SDP (Variant 0) or CDP (Variant 1) into
// LUT engine fields. lut_regs_i[k] is the register at block offset S_LUT_CFG + 4k:
//   SDP (10 words): LUT_CFG, LUT_INFO, LE_START, LE_END, LO_START, LO_END, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
//   CDP (14 words): LUT_CFG, LUT_INFO, LE_START_LOW, LE_START_HIGH, LE_END_LOW, LE_END_HIGH,
//                   LO_START_LOW, LO_START_HIGH, LO_END_LOW, LO_END_HIGH, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
// The fields come from the generated decoder of the block's single registers
// (<blk>_regs_pkg::<blk>_s_decode; the words below S_LUT_CFG are not the LUT's and read as 0).
// CDP narrows the linear index selects to signed 7 bits (int16 input) or 6 bits (int8 input).
module lut_cfg_decode #(
  parameter int unsigned Variant = 0,   // 0: SDP, 1: CDP
  parameter int unsigned InW     = 32,  // START/END width: 32 (SDP) or 38 (CDP)
  parameter int unsigned NumRegs = 10   // 10 (SDP) or 14 (CDP)
) (
  input  logic [NumRegs-1:0][31:0] lut_regs_i,
  input  logic                     in_int8_i,  // CDP only: input precision is int8
  input  logic                     in_fp_i,    // CDP only: float lookups (8-bit selects)
  output logic                     le_linear_o,
  output logic                     uflow_prio_lo_o,
  output logic                     oflow_prio_lo_o,
  output logic                     hybrid_prio_lo_o,
  output logic signed [7:0]        le_off_o,
  output logic signed [7:0]        le_sel_o,
  output logic signed [7:0]        lo_sel_o,
  output logic signed [InW-1:0]    le_start_o,
  output logic signed [InW-1:0]    le_end_o,
  output logic signed [InW-1:0]    lo_start_o,
  output logic signed [InW-1:0]    lo_end_o,
  output logic signed [15:0]       le_uflow_scale_o,
  output logic signed [15:0]       le_oflow_scale_o,
  output logic signed [15:0]       lo_uflow_scale_o,
  output logic signed [15:0]       lo_oflow_scale_o,
  output logic signed [4:0]        le_uflow_shift_o,
  output logic signed [4:0]        le_oflow_shift_o,
  output logic signed [4:0]        lo_uflow_shift_o,
  output logic signed [4:0]        lo_oflow_shift_o
);
  logic [7:0] le_sel_raw, lo_sel_raw;

  if (Variant == 0) begin : g_sdp
    localparam int unsigned First = 32'(sdp_regs_pkg::SDP_S_LUT_CFG_OFFSET) / 4;
    /* verilator lint_off UNUSEDSIGNAL */
    sdp_regs_pkg::sdp_reg2hw_s_t s;  // the S_LUT_ACCESS_* fields are lut_s_regs'
    /* verilator lint_on UNUSEDSIGNAL */
    assign s = sdp_regs_pkg::sdp_s_decode({lut_regs_i, (32 * First)'(0)});

    assign le_linear_o      = s.lut_cfg_lut_le_function;
    assign uflow_prio_lo_o  = s.lut_cfg_lut_uflow_priority;
    assign oflow_prio_lo_o  = s.lut_cfg_lut_oflow_priority;
    assign hybrid_prio_lo_o = s.lut_cfg_lut_hybrid_priority;
    assign le_off_o         = s.lut_info_lut_le_index_offset;
    assign le_sel_raw       = s.lut_info_lut_le_index_select;
    assign lo_sel_raw       = s.lut_info_lut_lo_index_select;
    assign le_sel_o         = le_sel_raw;
    assign lo_sel_o         = lo_sel_raw;
    assign le_start_o       = InW'(s.lut_le_start);
    assign le_end_o         = InW'(s.lut_le_end);
    assign lo_start_o       = InW'(s.lut_lo_start);
    assign lo_end_o         = InW'(s.lut_lo_end);
    assign le_uflow_scale_o = s.lut_le_slope_scale_lut_le_slope_uflow_scale;
    assign le_oflow_scale_o = s.lut_le_slope_scale_lut_le_slope_oflow_scale;
    assign le_uflow_shift_o = s.lut_le_slope_shift_lut_le_slope_uflow_shift;
    assign le_oflow_shift_o = s.lut_le_slope_shift_lut_le_slope_oflow_shift;
    assign lo_uflow_scale_o = s.lut_lo_slope_scale_lut_lo_slope_uflow_scale;
    assign lo_oflow_scale_o = s.lut_lo_slope_scale_lut_lo_slope_oflow_scale;
    assign lo_uflow_shift_o = s.lut_lo_slope_shift_lut_lo_slope_uflow_shift;
    assign lo_oflow_shift_o = s.lut_lo_slope_shift_lut_lo_slope_oflow_shift;
  end else begin : g_cdp
    localparam int unsigned First = 32'(cdp_regs_pkg::CDP_S_LUT_CFG_OFFSET) / 4;
    /* verilator lint_off UNUSEDSIGNAL */
    cdp_regs_pkg::cdp_reg2hw_s_t s;  // the S_LUT_ACCESS_* fields are lut_s_regs'
    /* verilator lint_on UNUSEDSIGNAL */
    assign s = cdp_regs_pkg::cdp_s_decode({lut_regs_i, (32 * First)'(0)});

    assign le_linear_o      = s.lut_cfg_lut_le_function;
    assign uflow_prio_lo_o  = s.lut_cfg_lut_uflow_priority;
    assign oflow_prio_lo_o  = s.lut_cfg_lut_oflow_priority;
    assign hybrid_prio_lo_o = s.lut_cfg_lut_hybrid_priority;
    assign le_off_o         = s.lut_info_lut_le_index_offset;
    assign le_sel_raw       = s.lut_info_lut_le_index_select;
    assign lo_sel_raw       = s.lut_info_lut_lo_index_select;
    // {HIGH[InW-33:0], LOW[31:0]}
    assign le_start_o = {s.lut_le_start_high[InW-33:0], s.lut_le_start_low};
    assign le_end_o   = {s.lut_le_end_high[InW-33:0], s.lut_le_end_low};
    assign lo_start_o = {s.lut_lo_start_high[InW-33:0], s.lut_lo_start_low};
    assign lo_end_o   = {s.lut_lo_end_high[InW-33:0], s.lut_lo_end_low};
    assign le_sel_o   = in_fp_i   ? le_sel_raw
                      : in_int8_i ? {{2{le_sel_raw[5]}}, le_sel_raw[5:0]}
                                  : {le_sel_raw[6], le_sel_raw[6:0]};
    assign lo_sel_o   = in_fp_i   ? lo_sel_raw
                      : in_int8_i ? {{2{lo_sel_raw[5]}}, lo_sel_raw[5:0]}
                                  : {lo_sel_raw[6], lo_sel_raw[6:0]};
    assign le_uflow_scale_o = s.lut_le_slope_scale_lut_le_slope_uflow_scale;
    assign le_oflow_scale_o = s.lut_le_slope_scale_lut_le_slope_oflow_scale;
    assign le_uflow_shift_o = s.lut_le_slope_shift_lut_le_slope_uflow_shift;
    assign le_oflow_shift_o = s.lut_le_slope_shift_lut_le_slope_oflow_shift;
    assign lo_uflow_scale_o = s.lut_lo_slope_scale_lut_lo_slope_uflow_scale;
    assign lo_oflow_scale_o = s.lut_lo_slope_scale_lut_lo_slope_oflow_scale;
    assign lo_uflow_shift_o = s.lut_lo_slope_shift_lut_lo_slope_uflow_shift;
    assign lo_oflow_shift_o = s.lut_lo_slope_shift_lut_lo_slope_oflow_shift;
  end

  // Register bits without a field (and in_int8_i for SDP) are intentionally ignored.
  logic unused_bits;
  assign unused_bits = ^{lut_regs_i, in_int8_i, in_fp_i, le_sel_raw, lo_sel_raw};
endmodule
