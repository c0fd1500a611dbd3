// NVDLA two-table hybrid LUT engine (LE 65 entries: linear or exponent index; LO 257 entries:
// linear), integer pipeline of SDP-Y (Variant 0) or CDP (Variant 1), Lanes lookups per beat.
//
// Stream: a beat (Lanes inputs + lane mask) moves when in_valid_i && in_ready_o; results leave
// 4 cycles after acceptance when out_ready_i is high (one beat per cycle, bubbles collapse); the
// output payload holds while out_valid_o && !out_ready_i.
// Config: lut_regs_i[k] = the S_LUT_* register at block offset 0x10 + 4k (10 words SDP, 14 CDP),
// decoded here; it must stay stable while busy_o.
// Tables: programmed through prog_* (S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA); writes while busy_o
// are refused and set prog_err_o (sticky) -- see lut_ram and docs/LUT.md.
// busy_o = layer_active_i || in_valid_i || any beat in the pipeline.
module lut_engine #(
  parameter int unsigned Variant = 0,  // 0: SDP (32-bit X, 32-bit result), 1: CDP (38/16)
  parameter int unsigned Lanes   = 1,
  localparam int unsigned InW     = (Variant == 0) ? 32 : 38,
  localparam int unsigned OutW    = (Variant == 0) ? 32 : 16,
  localparam int unsigned NumRegs = (Variant == 0) ? 10 : 14
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // configuration
  input  logic [NumRegs-1:0][31:0]       lut_regs_i,
  input  logic                           in_int8_i,       // CDP: int8 input (6-bit selects)
  input  logic                           layer_active_i,  // holds busy_o for a whole layer
  output logic                           busy_o,
  // input stream
  input  logic                           in_valid_i,
  output logic                           in_ready_o,
  input  logic [Lanes-1:0][InW-1:0]      in_data_i,       // signed X per lane
  input  logic [Lanes-1:0]               in_mask_i,       // lanes counted by the statistics
  // output stream
  output logic                           out_valid_o,
  input  logic                           out_ready_i,
  output logic [Lanes-1:0][OutW-1:0]     out_value_o,     // signed result per lane
  output logic [Lanes-1:0]               out_uflow_o,
  output logic [Lanes-1:0]               out_oflow_o,
  output logic [Lanes-1:0]               out_le_hit_o,
  output logic [Lanes-1:0]               out_lo_hit_o,
  output logic [Lanes-1:0]               out_lo_sel_o,    // LO produced the value
  output logic [Lanes-1:0]               out_mask_o,
  // statistics
  input  logic                           stat_en_i,       // PERF_LUT_EN
  input  logic                           stat_clr_i,
  output logic [31:0]                    stat_uflow_o,
  output logic [31:0]                    stat_oflow_o,
  output logic [31:0]                    stat_hybrid_o,
  output logic [31:0]                    stat_le_hit_o,
  output logic [31:0]                    stat_lo_hit_o,
  // table programming: prog_addr_i 0 = S_LUT_ACCESS_CFG, 1 = S_LUT_ACCESS_DATA
  input  logic                           prog_valid_i,
  output logic                           prog_ready_o,
  input  logic                           prog_addr_i,
  input  logic                           prog_write_i,
  input  logic [31:0]                    prog_wdata_i,
  output logic                           prog_rsp_valid_o,
  output logic [31:0]                    prog_rsp_rdata_o,
  output logic                           prog_rsp_err_o,
  output logic                           prog_err_o,
  input  logic                           prog_err_clr_i
);
  // ---------------------------------------------------------------- configuration
  logic                  le_linear, uflow_prio_lo, oflow_prio_lo, hybrid_prio_lo;
  logic signed [7:0]     le_off, le_sel, lo_sel;
  logic signed [InW-1:0] le_start, le_end, lo_start, lo_end;
  logic signed [15:0]    le_uflow_scale, le_oflow_scale, lo_uflow_scale, lo_oflow_scale;
  logic signed [4:0]     le_uflow_shift, le_oflow_shift, lo_uflow_shift, lo_oflow_shift;

  lut_cfg_decode #(
    .Variant(Variant),
    .InW    (InW),
    .NumRegs(NumRegs)
  ) u_decode (
    .lut_regs_i      (lut_regs_i),
    .in_int8_i       (in_int8_i),
    .le_linear_o     (le_linear),
    .uflow_prio_lo_o (uflow_prio_lo),
    .oflow_prio_lo_o (oflow_prio_lo),
    .hybrid_prio_lo_o(hybrid_prio_lo),
    .le_off_o        (le_off),
    .le_sel_o        (le_sel),
    .lo_sel_o        (lo_sel),
    .le_start_o      (le_start),
    .le_end_o        (le_end),
    .lo_start_o      (lo_start),
    .lo_end_o        (lo_end),
    .le_uflow_scale_o(le_uflow_scale),
    .le_oflow_scale_o(le_oflow_scale),
    .lo_uflow_scale_o(lo_uflow_scale),
    .lo_oflow_scale_o(lo_oflow_scale),
    .le_uflow_shift_o(le_uflow_shift),
    .le_oflow_shift_o(le_oflow_shift),
    .lo_uflow_shift_o(lo_uflow_shift),
    .lo_oflow_shift_o(lo_oflow_shift)
  );

  // ---------------------------------------------------------------- pipeline control
  // Stage k (1..4) holds a beat when valid_q[k-1]; it takes one (ld[k-1]) when empty or when
  // the next stage (or the consumer, for stage 4) takes its beat.
  logic [3:0] valid_q, ld;

  dla_pipe_ctrl #(
    .Stages(4)
  ) u_pipe (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .ld_o       (ld),
    .valid_o    (valid_q)
  );

  assign busy_o      = layer_active_i || in_valid_i || (valid_q != '0);

  // ---------------------------------------------------------------- tables
  logic [64:0][15:0]  le_tab;
  logic [256:0][15:0] lo_tab;

  lut_ram u_ram (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .busy_i     (busy_o),
    .req_valid_i(prog_valid_i),
    .req_ready_o(prog_ready_o),
    .req_addr_i (prog_addr_i),
    .req_write_i(prog_write_i),
    .req_wdata_i(prog_wdata_i),
    .rsp_valid_o(prog_rsp_valid_o),
    .rsp_rdata_o(prog_rsp_rdata_o),
    .rsp_err_o  (prog_rsp_err_o),
    .err_o      (prog_err_o),
    .err_clr_i  (prog_err_clr_i),
    .le_tab_o   (le_tab),
    .lo_tab_o   (lo_tab)
  );

  // ---------------------------------------------------------------- lanes
  logic [Lanes-1:0][1:0] le_status, lo_status;

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    lut_lane #(
      .Variant(Variant),
      .InW    (InW),
      .OutW   (OutW)
    ) u_lane (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .ld_i            (ld),
      .x_i             (in_data_i[l]),
      .mask_i          (in_mask_i[l]),
      .le_linear_i     (le_linear),
      .uflow_prio_lo_i (uflow_prio_lo),
      .oflow_prio_lo_i (oflow_prio_lo),
      .hybrid_prio_lo_i(hybrid_prio_lo),
      .le_off_i        (le_off),
      .le_sel_i        (le_sel),
      .lo_sel_i        (lo_sel),
      .le_start_i      (le_start),
      .le_end_i        (le_end),
      .lo_start_i      (lo_start),
      .lo_end_i        (lo_end),
      .le_uflow_scale_i(le_uflow_scale),
      .le_oflow_scale_i(le_oflow_scale),
      .lo_uflow_scale_i(lo_uflow_scale),
      .lo_oflow_scale_i(lo_oflow_scale),
      .le_uflow_shift_i(le_uflow_shift),
      .le_oflow_shift_i(le_oflow_shift),
      .lo_uflow_shift_i(lo_uflow_shift),
      .lo_oflow_shift_i(lo_oflow_shift),
      .le_tab_i        (le_tab),
      .lo_tab_i        (lo_tab),
      .value_o         (out_value_o[l]),
      .uflow_o         (out_uflow_o[l]),
      .oflow_o         (out_oflow_o[l]),
      .le_hit_o        (out_le_hit_o[l]),
      .lo_hit_o        (out_lo_hit_o[l]),
      .lo_sel_o        (out_lo_sel_o[l]),
      .le_status_o     (le_status[l]),
      .lo_status_o     (lo_status[l]),
      .mask_o          (out_mask_o[l])
    );
  end

  // ---------------------------------------------------------------- statistics
  logic [4:0][31:0] stat_count;

  lut_stats #(
    .Variant(Variant),
    .Lanes  (Lanes)
  ) u_stats (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (stat_clr_i),
    .en_i       (stat_en_i),
    .fire_i     (out_valid_o && out_ready_i),
    .mask_i     (out_mask_o),
    .uflow_i    (out_uflow_o),
    .oflow_i    (out_oflow_o),
    .le_status_i(le_status),
    .lo_status_i(lo_status),
    .count_o    (stat_count)
  );

  assign stat_uflow_o  = stat_count[0];
  assign stat_oflow_o  = stat_count[1];
  assign stat_hybrid_o = stat_count[2];
  assign stat_le_hit_o = stat_count[3];
  assign stat_lo_hit_o = stat_count[4];
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovInFire: cover property (@(posedge clk_i) in_valid_i && in_ready_o);
  CovInStall: cover property (@(posedge clk_i) in_valid_i && !in_ready_o);
  CovOutFire: cover property (@(posedge clk_i) out_valid_o && out_ready_i);
  CovOutStall: cover property (@(posedge clk_i) out_valid_o && !out_ready_i);
  CovProgFire: cover property (@(posedge clk_i) prog_valid_i && prog_ready_o);
  CovProgStall: cover property (@(posedge clk_i) prog_valid_i && !prog_ready_o);
`endif
endmodule
