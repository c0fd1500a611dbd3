// SDP's datapath (docs/SDP_RTL.md "Datapath"): takes a step from sdp_rdma (its lanes' input and
// operand values) or, flying, its lanes from CACC's beats (through a register slice), computes
// BS -> BN -> EW (sdp_x, sdp_x, sdp_y with its converters) per lane in the issue cycle, then
// the LUT engine (4-cycle pipeline) with a side FIFO (dla_fifo) carrying the pre-LUT values and
// what the writer needs, and the output converter (sdp_c) per lane. Its output is one step's
// converted lanes with their place in the output atom, to sdp_wdma. Counts the saturations
// (PERF_SAT_EN) and, in EQL mode, whether any lane differed. With SupportFp16 (nv_full), fp16
// processing beside the integer stages (docs/FP16.md "SDP"): the input widened to fp32 (or CACC's
// fp32), NAN_TO_ZERO, sdp_x_fp / sdp_y_fp in fp32, the LUT engine's float lanes, sdp_c_fp to fp16
// or int16; it counts the NaN / Inf inputs and the NaN outputs.
module sdp_dp #(
  parameter int unsigned AtomLog2 = 3,
  parameter int unsigned Lanes    = 1,
  parameter bit          SupportFp16 = 1'b0,
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned CntW      = $clog2(Lanes + 1)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  sdp_pkg::cfg_t           cfg_i,
  input  logic                    start_i,
  input  logic                    running_i,
  // the step (sdp_rdma)
  input  logic                    step_valid_i,
  output logic                    step_take_o,
  input  logic                    step_need0_i,
  input  logic [CntW-1:0]         step_cnt_i,
  input  logic [12:0]             step_c_i,
  input  logic [6:0]              step_beat_i,
  input  logic                    step_last_l_i,
  input  logic [4:0]              step_n_i,
  input  logic [12:0]             step_h_i,
  input  logic [12:0]             step_w_i,
  input  logic [Lanes-1:0][15:0]  step_in_i,
  input  logic [Lanes-1:0][15:0]  step_bs_alu_i,
  input  logic [Lanes-1:0][15:0]  step_bs_mul_i,
  input  logic [Lanes-1:0][15:0]  step_bn_alu_i,
  input  logic [Lanes-1:0][15:0]  step_bn_mul_i,
  input  logic [Lanes-1:0][15:0]  step_ew_alu_i,
  input  logic [Lanes-1:0][15:0]  step_ew_mul_i,
  // flying input from CACC
  input  logic                    fly_valid_i,
  output logic                    fly_ready_o,
  input  logic [Lanes-1:0][31:0]  fly_data_i,
  // LUT engine: configuration words and table access (sdp_regs)
  input  logic [9:0][31:0]        lut_regs_i,
  input  logic                    lut_prog_valid_i,
  input  logic                    lut_prog_addr_i,
  input  logic                    lut_prog_write_i,
  input  logic [31:0]             lut_prog_wdata_i,
  output logic [31:0]             lut_prog_rdata_o,
  // a step's converted lanes, to the writer (sdp_wdma)
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [Lanes-1:0][15:0]  out_val_o,
  output logic [CntW-1:0]         out_cnt_o,
  output logic [5:0]              out_lane_o,       // output-atom lane of the first one
  output logic                    out_atom_last_o,  // the step ends an output atom or a group
  output logic                    out_write_o,      // ... and that atom is written
  output logic [AtomBytes-1:0]    out_mask_o,       // bytes of the atom the group writes
  output logic [63:0]             out_addr_o,
  output logic                    empty_o,          // no step between issue and output
  // status and counters
  output logic                    unequal_o,
  output logic [31:0]             sat_cnt_o,
  output logic [31:0]             lut_uflow_o,
  output logic [31:0]             lut_oflow_o,
  output logic [31:0]             lut_hybrid_o,
  output logic [31:0]             lut_le_hit_o,
  output logic [31:0]             lut_lo_hit_o,
  output logic [31:0]             nan_in_o,
  output logic [31:0]             inf_in_o,
  output logic [31:0]             nan_out_o
);
  /* verilator lint_off UNUSEDSIGNAL */
  sdp_pkg::cfg_t cfg;  // only the stages and the output geometry are read here
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  // The step's flying lanes come from CACC (flying lanes past its groups are zeros).
  logic                   fly_take, fly_valid_q, fly_pop, c_fire, c_step_ok;
  logic [Lanes-1:0][31:0] fly_data_q;
  assign fly_take = cfg.flying && 14'(step_c_i) < cfg.in_lanes;

  // ---------------------------------------------------------------- datapath to the LUT
  localparam int unsigned LaneW = (Lanes > 1) ? $clog2(Lanes) : 1;
  logic [Lanes-1:0][31:0] y_pre, y_int, y_fp;
  logic [Lanes-1:0]       step_mask;
  logic                   fp;  // fp16 processing in this layer
  assign fp = SupportFp16 && cfg.c.fp;
  for (genvar j = 0; j < Lanes; j++) begin : g_dp
    logic signed [15:0] in_val, bs_alu_v, bs_mul_v, bn_alu_v, bn_mul_v, ew_alu_v, ew_mul_v;
    logic signed [31:0] x_in, x1, x2, y;
    logic [LaneW-1:0]   fly_lane;
    assign in_val   = step_in_i[j];
    assign bs_alu_v = step_bs_alu_i[j];
    assign bs_mul_v = step_bs_mul_i[j];
    assign bn_alu_v = step_bn_alu_i[j];
    assign bn_mul_v = step_bn_mul_i[j];
    assign ew_alu_v = step_ew_alu_i[j];
    assign ew_mul_v = step_ew_mul_i[j];
    assign fly_lane = LaneW'(step_beat_i) + LaneW'(j);  // wraps only for lanes outside the step
    assign x_in = fly_take ? $signed(fly_data_q[fly_lane]) : step_need0_i ? 32'(in_val) : 32'sd0;
    sdp_x u_bs (.cfg_i(cfg.bs), .data_i(x_in), .alu_mem_i(bs_alu_v), .mul_mem_i(bs_mul_v), .data_o(x1));
    sdp_x u_bn (.cfg_i(cfg.bn), .data_i(x1), .alu_mem_i(bn_alu_v), .mul_mem_i(bn_mul_v), .data_o(x2));
    sdp_y u_ew (.cfg_i(cfg.ew), .data_i(x2), .alu_mem_i(ew_alu_v), .mul_mem_i(ew_mul_v), .data_o(y));
    assign y_int[j]     = y;
    assign y_pre[j]     = fp ? y_fp[j] : y_int[j];
    assign step_mask[j] = CntW'(j) < step_cnt_i;
  end

  // fp16 processing: per lane the float stages beside the integer ones (docs/FP16.md "SDP").
  if (SupportFp16) begin : g_fp
    for (genvar j = 0; j < Lanes; j++) begin : g_lane
      logic [LaneW-1:0] fly_lane;
      logic [31:0]      in32, x_in, x1, x2;
      assign fly_lane = LaneW'(step_beat_i) + LaneW'(j);
      dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b1)) u_in32 (
        .a_i(step_in_i[j]),
        .z_o(in32)
      );
      // CACC's fp32 or the fp16 from memory, widened; NAN_TO_ZERO on the data
      always_comb begin
        x_in = fly_take ? fly_data_q[fly_lane] : step_need0_i ? in32 : 32'd0;
        if (cfg.nan_to_zero && dla_fp_pkg::fp32_is_nan(x_in[30:0])) x_in = '0;
      end
      sdp_x_fp u_bs (.cfg_i(cfg.bs), .nan_to_zero_i(cfg.nan_to_zero), .data_i(x_in), .alu_mem_i(step_bs_alu_i[j]),
                     .mul_mem_i(step_bs_mul_i[j]), .data_o(x1));
      sdp_x_fp u_bn (.cfg_i(cfg.bn), .nan_to_zero_i(cfg.nan_to_zero), .data_i(x1), .alu_mem_i(step_bn_alu_i[j]),
                     .mul_mem_i(step_bn_mul_i[j]), .data_o(x2));
      sdp_y_fp u_ew (.cfg_i(cfg.ew), .nan_to_zero_i(cfg.nan_to_zero), .data_i(x2), .alu_mem_i(step_ew_alu_i[j]),
                     .mul_mem_i(step_ew_mul_i[j]), .data_o(y_fp[j]));
    end
  end else begin : g_no_fp
    assign y_fp = '0;
  end

  // Side FIFO: what the writer needs of each step travels beside the LUT engine.
  typedef struct packed {
    logic [Lanes-1:0][31:0] y;
    logic [5:0]             lane;       // output-atom lane of the step's first element
    logic [CntW-1:0]        cnt;
    logic                   atom_last;  // the step ends an output atom or a channel group
    logic                   write_atom;
    logic [AtomBytes-1:0]   wr_mask;    // bytes of the atom the group writes
    logic [63:0]            atom_addr;
  } side_t;
  localparam int unsigned FifoDepth = 8;
  logic [3:0] fifo_level;
  logic       fifo_ready, fifo_valid, lut_in_ready, lut_out_valid, lut_out_ready, pop;
  side_t      side_in, side_out;
  logic [63:0] dst_atom_addr;

  dla_cube_addr #(.AddrW(64), .IdxW(13)) u_addr_dst (
    .base_i          (cfg.dst_base),
    .line_stride_i   (cfg.dst_line_stride),
    .surface_stride_i(cfg.dst_surface_stride),
    .batch_stride_i  (cfg.dst_batch_stride),
    .atom_log2_i     (3'(AtomLog2)),
    .bpe_log2_i      (2'(cfg.c.out_wide)),
    .n_i             (step_n_i),
    .c_i             (step_c_i & ~((13'd1 << cfg.ca_out_log2) - 13'd1)),
    .h_i             (step_h_i),
    .w_i             (step_w_i),
    .addr_o          (dst_atom_addr)
  );

  // The flying port goes through a register slice (full rate, one cycle of latency), so the
  // per-lane datapath does not depend on input ports: Verilator evaluates input-dependent logic
  // on every eval, which made the 16-lane model ~10x slower to simulate. A beat is consumed by
  // the step that reaches its end.
  logic fly_ld, fly_held;
  assign fly_pop = c_step_ok && fly_take && fly_valid_q && (step_beat_i + 7'(step_cnt_i) == 7'(Lanes));
  dla_pipe_ctrl #(
    .Stages(1)
  ) u_fly_reg (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (fly_valid_i),
    .in_ready_o (fly_ready_o),
    .out_valid_o(fly_valid_q),
    .out_ready_i(fly_pop),
    .ld_o       (fly_ld),
    .valid_o    (fly_held)
  );
  always_ff @(posedge clk_i) begin
    if (fly_ld) fly_data_q <= fly_data_i;
  end
  assign c_step_ok   = running_i && step_valid_i && lut_in_ready && fifo_ready;
  // Flying lanes beyond CACC's kernel groups (output atoms wider than the input's) are zeros
  // that take no beat.
  assign c_fire      = c_step_ok && (!fly_take || fly_valid_q);
  assign step_take_o = c_fire;
  logic [5:0] out_lane, grp_lo, grp_n;
  logic [5:0] out_n, it_n;  // lanes of an output atom, of a channel group (<= 32)
  assign out_n    = 6'd1 << cfg.ca_out_log2;
  assign it_n     = 6'd1 << cfg.ca_it_log2;
  assign out_lane = step_c_i[5:0] & (out_n - 6'd1);
  // lanes of the atom written by this group: all of it, or the group's part of it
  assign grp_lo   = (cfg.ca_it_log2 >= cfg.ca_out_log2) ? 6'd0 : (out_lane & ~(it_n - 6'd1));
  assign grp_n    = (cfg.ca_it_log2 >= cfg.ca_out_log2) ? out_n : it_n;
  always_comb begin
    side_in.y          = y_pre;
    side_in.lane       = out_lane;
    side_in.cnt        = step_cnt_i;
    side_in.atom_last  = step_last_l_i || 7'(out_lane) + 7'(step_cnt_i) == (7'd1 << cfg.ca_out_log2);
    side_in.write_atom = 14'(step_c_i) < cfg.out_lanes;
    side_in.atom_addr  = dst_atom_addr;
    for (int unsigned i = 0; i < AtomBytes; i++) begin
      logic [6:0] l;
      l = cfg.c.out_wide ? 7'(i >> 1) : 7'(i);
      side_in.wr_mask[i] = l >= 7'(grp_lo) && l < 7'(grp_lo) + 7'(grp_n);
    end
  end

  // A step enters the FIFO when it fires (step_ok waits for room) and leaves with its LUT result.
  dla_fifo #(
    .Depth(FifoDepth),
    .Width($bits(side_in))  // Yosys 0.55 takes $bits of a signal, not of a type
  ) u_side_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (c_fire),
    .in_ready_o (fifo_ready),
    .in_data_i  (side_in),
    .out_valid_o(fifo_valid),
    .out_ready_i(pop),
    .out_data_o (side_out),
    .level_o    (fifo_level)
  );

  logic [Lanes-1:0][31:0] lut_value;
  logic [Lanes-1:0][31:0] lut_fp_value;  // fp32 (fp16 processing)
  logic [Lanes-1:0] lut_uflow, lut_oflow, lut_le_hit, lut_lo_hit, lut_lo_sel, lut_mask;
  logic lut_busy, prog_ready, prog_rsp_valid, prog_rsp_err, prog_err;
  lut_engine #(
    .Variant  (0),
    .Lanes    (Lanes),
    .SupportFp(SupportFp16)
  ) u_lut (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .lut_regs_i      (lut_regs_i),
    .in_int8_i       (1'b0),
    .in_fp_i         (fp),
    .layer_active_i  (running_i),
    .busy_o          (lut_busy),
    .in_valid_i      (c_fire),
    .in_ready_o      (lut_in_ready),
    .in_data_i       (y_pre),
    .in_mask_i       (step_mask & {Lanes{cfg.lut_active}}),
    .out_valid_o     (lut_out_valid),
    .out_ready_i     (lut_out_ready),
    .out_value_o     (lut_value),
    .out_fp_value_o  (lut_fp_value),
    .out_uflow_o     (lut_uflow),
    .out_oflow_o     (lut_oflow),
    .out_le_hit_o    (lut_le_hit),
    .out_lo_hit_o    (lut_lo_hit),
    .out_lo_sel_o    (lut_lo_sel),
    .out_mask_o      (lut_mask),
    .stat_en_i       (cfg.perf_lut_en),
    .stat_clr_i      (start_i),
    .stat_uflow_o    (lut_uflow_o),
    .stat_oflow_o    (lut_oflow_o),
    .stat_hybrid_o   (lut_hybrid_o),
    .stat_le_hit_o   (lut_le_hit_o),
    .stat_lo_hit_o   (lut_lo_hit_o),
    .prog_valid_i    (lut_prog_valid_i),
    .prog_ready_o    (prog_ready),
    .prog_addr_i     (lut_prog_addr_i),
    .prog_write_i    (lut_prog_write_i),
    .prog_wdata_i    (lut_prog_wdata_i),
    .prog_rsp_valid_o(prog_rsp_valid),
    .prog_rsp_rdata_o(lut_prog_rdata_o),
    .prog_rsp_err_o  (prog_rsp_err),
    .prog_err_o      (prog_err),
    .prog_err_clr_i  (1'b0)
  );

  // ---------------------------------------------------------------- output converter
  localparam int unsigned IncW = $clog2(Lanes + 1);
  logic [Lanes-1:0][15:0] out_val, f_val;
  logic [Lanes-1:0]       out_sat, out_mask, f_sat;
  logic [IncW-1:0]        sat_inc;
  logic                   any_unequal, unequal_q;
  for (genvar j = 0; j < Lanes; j++) begin : g_c
    logic signed [15:0] v;
    logic               v_sat;
    sdp_c u_c (.cfg_i(cfg.c), .data_i(cfg.lut_active ? $signed(lut_value[j]) : $signed(side_out.y[j])),
               .data_o(v), .sat_o(v_sat));
    assign out_val[j]  = fp ? f_val[j] : v;
    assign out_sat[j]  = fp ? f_sat[j] : v_sat;
    assign out_mask[j] = CntW'(j) < side_out.cnt;
  end
  if (SupportFp16) begin : g_c_fp
    for (genvar j = 0; j < Lanes; j++) begin : g_lane
      sdp_c_fp u_c (.cfg_i(cfg.c), .data_i(cfg.lut_active ? lut_fp_value[j] : side_out.y[j]), .data_o(f_val[j]),
                    .sat_o(f_sat[j]));
    end
  end else begin : g_no_c_fp
    assign f_val = '0;
    assign f_sat = '0;
    logic unused_fp;  // the float LUT's values, 0 without SupportFp16
    assign unused_fp = ^lut_fp_value;
  end
  always_comb begin
    sat_inc     = '0;
    any_unequal = 1'b0;
    for (int unsigned j = 0; j < Lanes; j++) begin
      if (out_mask[j]) begin
        sat_inc += IncW'(out_sat[j]);
        any_unequal |= out_val[j] != '0;
      end
    end
  end

  // A step leaves with its LUT result when the writer takes it.
  assign out_valid_o     = lut_out_valid;
  assign lut_out_ready   = out_ready_i;
  assign pop             = lut_out_valid && lut_out_ready;
  assign out_val_o       = out_val;
  assign out_cnt_o       = side_out.cnt;
  assign out_lane_o      = side_out.lane;
  assign out_atom_last_o = side_out.atom_last;
  assign out_write_o     = side_out.write_atom && !cfg.c.eql;
  assign out_mask_o      = side_out.wr_mask;
  assign out_addr_o      = side_out.atom_addr;
  assign empty_o         = fifo_level == '0;

  dla_perf_cnt #(.IncW(IncW)) u_sat_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (pop && cfg.perf_sat_en && !cfg.c.eql),
    .inc_i  (sat_inc),
    .count_o(sat_cnt_o)
  );
  // fp16: NaN / Inf inputs read from memory (SDP_RDMA's PERF_NAN_INF_COUNT_EN) and NaN fp16
  // outputs (SDP's), every lane computed; 0 in the integer pipelines
  logic [IncW-1:0] nan_in_inc, inf_in_inc, nan_out_inc;
  always_comb begin
    nan_in_inc  = '0;
    inf_in_inc  = '0;
    nan_out_inc = '0;
    for (int unsigned j = 0; j < Lanes; j++) begin
      if (step_mask[j] && step_need0_i && !fly_take) begin
        nan_in_inc += IncW'(dla_fp_pkg::fp16_is_nan(step_in_i[j][14:0]));
        inf_in_inc += IncW'(dla_fp_pkg::fp16_is_inf(step_in_i[j][14:0]));
      end
      if (out_mask[j]) nan_out_inc += IncW'(dla_fp_pkg::fp16_is_nan(out_val[j][14:0]));
    end
  end
  dla_perf_cnt #(.IncW(IncW)) u_nan_in_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (c_fire && fp && cfg.rdma_perf_nan_inf_en),
    .inc_i  (nan_in_inc),
    .count_o(nan_in_o)
  );
  dla_perf_cnt #(.IncW(IncW)) u_inf_in_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (c_fire && fp && cfg.rdma_perf_nan_inf_en),
    .inc_i  (inf_in_inc),
    .count_o(inf_in_o)
  );
  dla_perf_cnt #(.IncW(IncW)) u_nan_out_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (pop && fp && cfg.c.out_fp16 && cfg.perf_nan_inf_en && !cfg.c.eql),
    .inc_i  (nan_out_inc),
    .count_o(nan_out_o)
  );

  // EQL mode: D_STATUS.STATUS_UNEQUAL, any compared lane not 0
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      unequal_q <= 1'b0;
    end else begin
      if (start_i) unequal_q <= 1'b0;
      if (pop && cfg.c.eql && any_unequal) unequal_q <= 1'b1;
    end
  end
  assign unequal_o = unequal_q;

  logic unused;
  assign unused = ^{lut_busy, prog_ready, prog_rsp_valid, prog_rsp_err, prog_err, lut_uflow, lut_oflow,
                    lut_le_hit, lut_lo_hit, lut_lo_sel, lut_mask, fifo_valid, fly_held};
endmodule
