// Decodes the S_LUT_* configuration register words of SDP (Variant 0) or CDP (Variant 1) into
// LUT engine fields. lut_regs_i[k] is the register at block offset 0x10 + 4k:
//   SDP (10 words): LUT_CFG, LUT_INFO, LE_START, LE_END, LO_START, LO_END, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
//   CDP (14 words): LUT_CFG, LUT_INFO, LE_START_LOW, LE_START_HIGH, LE_END_LOW, LE_END_HIGH,
//                   LO_START_LOW, LO_START_HIGH, LO_END_LOW, LO_END_HIGH, LE_SLOPE_SCALE,
//                   LE_SLOPE_SHIFT, LO_SLOPE_SCALE, LO_SLOPE_SHIFT
// CDP narrows the linear index selects to signed 7 bits (int16 input) or 6 bits (int8 input).
module lut_cfg_decode #(
  parameter int unsigned Variant = 0,   // 0: SDP, 1: CDP
  parameter int unsigned InW     = 32,  // START/END width: 32 (SDP) or 38 (CDP)
  parameter int unsigned NumRegs = 10   // 10 (SDP) or 14 (CDP)
) (
  input  logic [NumRegs-1:0][31:0] lut_regs_i,
  input  logic                     in_int8_i,  // CDP only: input precision is int8
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
  // Index of the first slope register word.
  localparam int unsigned SlopeBase = (Variant == 0) ? 6 : 10;

  logic [7:0] le_sel_raw, lo_sel_raw;

  assign le_linear_o      = lut_regs_i[0][0];
  assign uflow_prio_lo_o  = lut_regs_i[0][4];
  assign oflow_prio_lo_o  = lut_regs_i[0][5];
  assign hybrid_prio_lo_o = lut_regs_i[0][6];
  assign le_off_o         = lut_regs_i[1][7:0];
  assign le_sel_raw       = lut_regs_i[1][15:8];
  assign lo_sel_raw       = lut_regs_i[1][23:16];

  if (Variant == 0) begin : g_sdp
    assign le_sel_o   = le_sel_raw;
    assign lo_sel_o   = lo_sel_raw;
    assign le_start_o = lut_regs_i[2][InW-1:0];
    assign le_end_o   = lut_regs_i[3][InW-1:0];
    assign lo_start_o = lut_regs_i[4][InW-1:0];
    assign lo_end_o   = lut_regs_i[5][InW-1:0];
  end else begin : g_cdp
    // {HIGH[InW-33:0], LOW[31:0]}
    assign le_start_o = {lut_regs_i[3][InW-33:0], lut_regs_i[2]};
    assign le_end_o   = {lut_regs_i[5][InW-33:0], lut_regs_i[4]};
    assign lo_start_o = {lut_regs_i[7][InW-33:0], lut_regs_i[6]};
    assign lo_end_o   = {lut_regs_i[9][InW-33:0], lut_regs_i[8]};
    assign le_sel_o   = in_int8_i ? {{2{le_sel_raw[5]}}, le_sel_raw[5:0]}
                                  : {le_sel_raw[6], le_sel_raw[6:0]};
    assign lo_sel_o   = in_int8_i ? {{2{lo_sel_raw[5]}}, lo_sel_raw[5:0]}
                                  : {lo_sel_raw[6], lo_sel_raw[6:0]};
  end

  assign le_uflow_scale_o = lut_regs_i[SlopeBase][15:0];
  assign le_oflow_scale_o = lut_regs_i[SlopeBase][31:16];
  assign le_uflow_shift_o = lut_regs_i[SlopeBase+1][4:0];
  assign le_oflow_shift_o = lut_regs_i[SlopeBase+1][9:5];
  assign lo_uflow_scale_o = lut_regs_i[SlopeBase+2][15:0];
  assign lo_oflow_scale_o = lut_regs_i[SlopeBase+2][31:16];
  assign lo_uflow_shift_o = lut_regs_i[SlopeBase+3][4:0];
  assign lo_oflow_shift_o = lut_regs_i[SlopeBase+3][9:5];

  // Register bits without a field (and in_int8_i for SDP) are intentionally ignored.
  logic unused_bits;
  assign unused_bits = ^{lut_regs_i, in_int8_i, le_sel_raw, lo_sel_raw};
endmodule
