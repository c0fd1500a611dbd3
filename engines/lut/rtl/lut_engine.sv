// NVDLA two-table hybrid LUT engine (LE 65 entries: linear or exponent index; LO 257 entries:
// linear), integer pipeline of SDP-Y (Variant 0) or CDP (Variant 1), Lanes lookups per beat;
// with SupportFp also the variant's float pipeline (lut_lane_fp: fp32 X, START and END, fp16
// entries and scales; fp32 (SDP) or fp17 (CDP) results on out_fp_value_o), chosen per layer by
// in_fp_i.
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
  parameter bit          SupportFp = 1'b0,  // the float LUT (NVDLA v1's fp16)
  localparam int unsigned InW     = (Variant == 0) ? 32 : 38,
  localparam int unsigned OutW    = (Variant == 0) ? 32 : 16,
  localparam int unsigned NumRegs = (Variant == 0) ? 10 : 14
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  // configuration
  input  logic [NumRegs-1:0][31:0]       lut_regs_i,
  input  logic                           in_int8_i,       // CDP: int8 input (6-bit selects)
  input  logic                           in_fp_i,         // float lookups (SupportFp)
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
  output logic [Lanes-1:0][31:0]         out_fp_value_o,  // fp32 (SDP) / fp17 (CDP) per lane (in_fp_i)
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
    .in_fp_i         (SupportFp && in_fp_i),
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
  // Every output but the value comes from the float lanes in a float layer.
  logic [Lanes-1:0][1:0] le_status, lo_status, i_le_status, i_lo_status, f_le_status, f_lo_status;
  logic [Lanes-1:0]      i_uflow, i_oflow, i_le_hit, i_lo_hit, i_lo_sel, i_mask;
  logic [Lanes-1:0]      f_uflow, f_oflow, f_le_hit, f_lo_hit, f_lo_sel, f_mask;
  logic                  fp_mode;
  assign fp_mode = SupportFp && in_fp_i;

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
      .uflow_o         (i_uflow[l]),
      .oflow_o         (i_oflow[l]),
      .le_hit_o        (i_le_hit[l]),
      .lo_hit_o        (i_lo_hit[l]),
      .lo_sel_o        (i_lo_sel[l]),
      .le_status_o     (i_le_status[l]),
      .lo_status_o     (i_lo_status[l]),
      .mask_o          (i_mask[l])
    );
  end

  if (SupportFp) begin : g_fp
    // LE_START + 2^LE_INDEX_OFFSET in fp32, the exponent-mode LE underflow anchor; 2^off as a host
    // float: SDP's a denormal at -127 / -128, CDP's wrapper +0 for off <= -127.
    logic [31:0] le_bias, le_uanchor;
    always_comb begin
      if (le_off > -8'sd127) le_bias = {1'b0, 8'(le_off + 8'sd127), 23'd0};
      else if (Variant == 0) le_bias = (le_off == -8'sd127) ? 32'h0040_0000 : 32'h0020_0000;
      else le_bias = 32'd0;
    end
    dla_fp_add #(.ExpW(8), .MantW(23)) u_uanchor (
      .a_i  (le_start[31:0]),
      .b_i  (le_bias),
      .sub_i(1'b0),
      .z_o  (le_uanchor)
    );
    for (genvar l = 0; l < Lanes; l++) begin : g_lane
      lut_lane_fp #(
        .Variant(Variant)
      ) u_lane (
        .clk_i           (clk_i),
        .rst_ni          (rst_ni),
        .ld_i            (ld),
        .x_i             (in_data_i[l][31:0]),
        .mask_i          (in_mask_i[l]),
        .le_linear_i     (le_linear),
        .uflow_prio_lo_i (uflow_prio_lo),
        .oflow_prio_lo_i (oflow_prio_lo),
        .hybrid_prio_lo_i(hybrid_prio_lo),
        .le_off_i        (le_off),
        .le_sel_i        (le_sel),
        .lo_sel_i        (lo_sel),
        .le_start_i      (le_start[31:0]),
        .le_uanchor_i    (le_uanchor),
        .le_end_i        (le_end[31:0]),
        .lo_start_i      (lo_start[31:0]),
        .lo_end_i        (lo_end[31:0]),
        .le_uflow_scale_i(le_uflow_scale),
        .le_oflow_scale_i(le_oflow_scale),
        .lo_uflow_scale_i(lo_uflow_scale),
        .lo_oflow_scale_i(lo_oflow_scale),
        .le_tab_i        (le_tab),
        .lo_tab_i        (lo_tab),
        .value_o         (out_fp_value_o[l]),
        .uflow_o         (f_uflow[l]),
        .oflow_o         (f_oflow[l]),
        .le_hit_o        (f_le_hit[l]),
        .lo_hit_o        (f_lo_hit[l]),
        .lo_sel_o        (f_lo_sel[l]),
        .le_status_o     (f_le_status[l]),
        .lo_status_o     (f_lo_status[l]),
        .mask_o          (f_mask[l])
      );
    end
  end else begin : g_no_fp
    assign out_fp_value_o = '0;
    assign f_uflow        = '0;
    assign f_oflow        = '0;
    assign f_le_hit       = '0;
    assign f_lo_hit       = '0;
    assign f_lo_sel       = '0;
    assign f_le_status    = '0;
    assign f_lo_status    = '0;
    assign f_mask         = '0;
  end

  assign out_uflow_o  = fp_mode ? f_uflow : i_uflow;
  assign out_oflow_o  = fp_mode ? f_oflow : i_oflow;
  assign out_le_hit_o = fp_mode ? f_le_hit : i_le_hit;
  assign out_lo_hit_o = fp_mode ? f_lo_hit : i_lo_hit;
  assign out_lo_sel_o = fp_mode ? f_lo_sel : i_lo_sel;
  assign out_mask_o   = fp_mode ? f_mask : i_mask;
  assign le_status    = fp_mode ? f_le_status : i_le_status;
  assign lo_status    = fp_mode ? f_lo_status : i_lo_status;

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
