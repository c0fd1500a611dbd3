// SDP's register block: the CSB port of SDP and SDP_RDMA (the generated sdp_reg_top and
// sdp_rdma_reg_top, ping-pong groups), SDP's S_LUT_* registers (lut_s_regs: the LUT engine's
// configuration words and table access), and the one decode of both blocks' consumer-group
// fields (reg2hw, by name) into sdp_pkg::cfg_t, including the layer geometry derived from them.
// At the end of a layer (done_i) it writes the status and the counters into the finished groups
// (hw2reg), releases them and pulses intr_o for SDP's group.
module sdp_regs #(
  parameter int unsigned AtomLog2 = 3,
  parameter logic [31:0] SdpBase  = 32'h9000,
  parameter logic [31:0] RdmaBase = 32'h8000
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // CSB
  input  logic             csb_req_valid_i,
  output logic             csb_req_ready_o,
  input  logic [31:0]      csb_req_addr_i,
  input  logic             csb_req_write_i,
  input  logic [31:0]      csb_req_wdata_i,
  output logic             csb_rsp_valid_o,
  output logic [31:0]      csb_rsp_rdata_o,
  // the consumer groups' layer, decoded
  output sdp_pkg::cfg_t    cfg_o,
  output logic             sdp_armed_o,
  output logic             rdma_armed_o,
  // LUT engine: configuration words and table access (S_LUT_ACCESS_CFG / DATA)
  output logic [9:0][31:0] lut_regs_o,
  output logic             lut_prog_valid_o,
  output logic             lut_prog_addr_o,
  output logic             lut_prog_write_o,
  output logic [31:0]      lut_prog_wdata_o,
  input  logic [31:0]      lut_prog_rdata_i,
  // end of layer: status and counters for the finished groups' read-only registers
  input  logic             done_i,
  input  logic             unequal_i,
  input  logic [31:0]      sat_cnt_i,
  input  logic [31:0]      lut_uflow_i,
  input  logic [31:0]      lut_oflow_i,
  input  logic [31:0]      lut_hybrid_i,
  input  logic [31:0]      lut_le_hit_i,
  input  logic [31:0]      lut_lo_hit_i,
  input  logic [31:0]      wr_stall_i,
  input  logic [3:0][31:0] rd_stall_i,  // MRDMA, BRDMA, NRDMA, ERDMA
  input  logic [31:0]      nan_in_i,    // fp16: NaN / Inf inputs read, NaN outputs
  input  logic [31:0]      inf_in_i,
  input  logic [31:0]      nan_out_i,
  // done interrupt per register group (one-cycle pulse)
  output logic [1:0]       intr_o
);
  // ---------------------------------------------------------------- CSB and register blocks
  // Generated register blocks (tools/reggen): the consumer groups' fields as structs (reg2hw),
  // status and counters in (hw2reg). Only the fields named below are read.
  /* verilator lint_off UNUSEDSIGNAL */
  sdp_regs_pkg::sdp_reg2hw_d_t      sdp;
  sdp_rdma_regs_pkg::sdp_rdma_reg2hw_d_t rdma;
  /* verilator lint_on UNUSEDSIGNAL */
  sdp_regs_pkg::sdp_hw2reg_t        sdp_hw2reg;
  sdp_rdma_regs_pkg::sdp_rdma_hw2reg_t   rdma_hw2reg;
  logic sdp_hit, rdma_hit, sdp_armed, rdma_armed, sdp_consumer, rdma_consumer;
  logic [31:0] sdp_rdata, rdma_rdata;
  logic sdp_s_we, sdp_s_re, rdma_s_we, rdma_s_re;
  logic [11:0] sdp_s_off, rdma_s_off;
  logic [31:0] sdp_s_wdata, rdma_s_wdata, sdp_s_rdata;
  logic rdma_done;

  assign csb_req_ready_o = 1'b1;

  sdp_reg_top #(.Base(SdpBase)) u_sdp_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (sdp_hit),
    .rdata_o    (sdp_rdata),
    .s_we_o     (sdp_s_we),
    .s_re_o     (sdp_s_re),
    .s_offset_o (sdp_s_off),
    .s_wdata_o  (sdp_s_wdata),
    .s_rdata_i  (sdp_s_rdata),
    .reg2hw_o   (sdp),
    .hw2reg_i   (sdp_hw2reg),
    .consumer_o (sdp_consumer),
    .armed_o    (sdp_armed),
    .done_i     (done_i)
  );

  sdp_rdma_reg_top #(.Base(RdmaBase)) u_rdma_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (rdma_hit),
    .rdata_o    (rdma_rdata),
    .s_we_o     (rdma_s_we),
    .s_re_o     (rdma_s_re),
    .s_offset_o (rdma_s_off),
    .s_wdata_o  (rdma_s_wdata),
    .s_rdata_i  ('0),
    .reg2hw_o   (rdma),
    .hw2reg_i   (rdma_hw2reg),
    .consumer_o (rdma_consumer),
    .armed_o    (rdma_armed),
    .done_i     (rdma_done)
  );

  logic csb_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) csb_rd_q <= 1'b0;
    else csb_rd_q <= csb_req_valid_i && !csb_req_write_i;
  end
  assign csb_rsp_valid_o = csb_rd_q;
  assign csb_rsp_rdata_o = sdp_rdata | rdma_rdata;  // a block that did not hit answers 0

  // SDP S_ registers: S_LUT_ACCESS_CFG/DATA go to the LUT engine, S_LUT_CFG..LO_SLOPE_SHIFT are
  // the engine's configuration words (stored as written).
  lut_s_regs #(
    .NumRegs  (10),
    .CfgOffset(sdp_regs_pkg::SDP_S_LUT_ACCESS_CFG_OFFSET),
    .LutFirst (sdp_regs_pkg::SDP_S_LUT_CFG_OFFSET)
  ) u_lut_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .s_we_i          (sdp_s_we),
    .s_re_i          (sdp_s_re),
    .s_offset_i      (sdp_s_off),
    .s_wdata_i       (sdp_s_wdata),
    .s_rdata_o       (sdp_s_rdata),
    .lut_regs_o      (lut_regs_o),
    .prog_valid_o    (lut_prog_valid_o),
    .prog_addr_o     (lut_prog_addr_o),
    .prog_write_o    (lut_prog_write_o),
    .prog_wdata_o    (lut_prog_wdata_o),
    .prog_rsp_rdata_i(lut_prog_rdata_i)
  );

  // ---------------------------------------------------------------- register decode
  sdp_pkg::x_cfg_t bs_cfg, bn_cfg;
  sdp_pkg::y_cfg_t ew_cfg;
  sdp_pkg::c_cfg_t c_cfg;
  always_comb begin
    bs_cfg.bypass      = sdp.dp_bs_cfg_bs_bypass;
    bs_cfg.alu_bypass  = sdp.dp_bs_cfg_bs_alu_bypass;
    bs_cfg.alu_algo    = sdp_pkg::alu_algo_e'(sdp.dp_bs_cfg_bs_alu_algo);
    bs_cfg.mul_bypass  = sdp.dp_bs_cfg_bs_mul_bypass;
    bs_cfg.mul_prelu   = sdp.dp_bs_cfg_bs_mul_prelu;
    bs_cfg.relu_bypass = sdp.dp_bs_cfg_bs_relu_bypass;
    bs_cfg.alu_src_mem = sdp.dp_bs_alu_cfg_bs_alu_src;
    bs_cfg.alu_shift   = sdp.dp_bs_alu_cfg_bs_alu_shift_value;
    bs_cfg.alu_operand = sdp.dp_bs_alu_src_value;
    bs_cfg.mul_src_mem = sdp.dp_bs_mul_cfg_bs_mul_src;
    bs_cfg.mul_shift   = 6'(sdp.dp_bs_mul_cfg_bs_mul_shift_value);
    bs_cfg.mul_operand = sdp.dp_bs_mul_src_value;

    bn_cfg.bypass      = sdp.dp_bn_cfg_bn_bypass;
    bn_cfg.alu_bypass  = sdp.dp_bn_cfg_bn_alu_bypass;
    bn_cfg.alu_algo    = sdp_pkg::alu_algo_e'(sdp.dp_bn_cfg_bn_alu_algo);
    bn_cfg.mul_bypass  = sdp.dp_bn_cfg_bn_mul_bypass;
    bn_cfg.mul_prelu   = sdp.dp_bn_cfg_bn_mul_prelu;
    bn_cfg.relu_bypass = sdp.dp_bn_cfg_bn_relu_bypass;
    bn_cfg.alu_src_mem = sdp.dp_bn_alu_cfg_bn_alu_src;
    bn_cfg.alu_shift   = sdp.dp_bn_alu_cfg_bn_alu_shift_value;
    bn_cfg.alu_operand = sdp.dp_bn_alu_src_value;
    bn_cfg.mul_src_mem = sdp.dp_bn_mul_cfg_bn_mul_src;
    bn_cfg.mul_shift   = 6'(sdp.dp_bn_mul_cfg_bn_mul_shift_value);
    bn_cfg.mul_operand = sdp.dp_bn_mul_src_value;

    ew_cfg.bypass           = sdp.dp_ew_cfg_ew_bypass;
    ew_cfg.alu_bypass       = sdp.dp_ew_cfg_ew_alu_bypass;
    ew_cfg.alu_algo         = sdp_pkg::alu_algo_e'(sdp.dp_ew_cfg_ew_alu_algo);
    ew_cfg.mul_bypass       = sdp.dp_ew_cfg_ew_mul_bypass;
    ew_cfg.mul_prelu        = sdp.dp_ew_cfg_ew_mul_prelu;
    ew_cfg.lut_bypass       = sdp.dp_ew_cfg_ew_lut_bypass;
    ew_cfg.alu_src_mem      = sdp.dp_ew_alu_cfg_ew_alu_src;
    ew_cfg.alu_cvt_bypass   = sdp.dp_ew_alu_cfg_ew_alu_cvt_bypass;
    ew_cfg.alu_operand      = sdp.dp_ew_alu_src_value;
    ew_cfg.alu_cvt_offset   = sdp.dp_ew_alu_cvt_offset_value;
    ew_cfg.alu_cvt_scale    = sdp.dp_ew_alu_cvt_scale_value;
    ew_cfg.alu_cvt_truncate = sdp.dp_ew_alu_cvt_truncate_value;
    ew_cfg.mul_src_mem      = sdp.dp_ew_mul_cfg_ew_mul_src;
    ew_cfg.mul_cvt_bypass   = sdp.dp_ew_mul_cfg_ew_mul_cvt_bypass;
    ew_cfg.mul_operand      = sdp.dp_ew_mul_src_value;
    ew_cfg.mul_cvt_offset   = sdp.dp_ew_mul_cvt_offset_value;
    ew_cfg.mul_cvt_scale    = sdp.dp_ew_mul_cvt_scale_value;
    ew_cfg.mul_cvt_truncate = sdp.dp_ew_mul_cvt_truncate_value;
    ew_cfg.truncate         = sdp.dp_ew_truncate_value;

    c_cfg.offset    = sdp.cvt_offset;
    c_cfg.scale     = sdp.cvt_scale;
    c_cfg.shift     = sdp.cvt_shift;
    c_cfg.out_wide  = sdp.data_format_out_precision != 2'd0;
    c_cfg.out_fp16  = sdp.data_format_out_precision == 2'd2;
    c_cfg.fp        = sdp.data_format_proc_precision == 2'd2;
    c_cfg.eql       = !ew_cfg.bypass && !ew_cfg.alu_bypass && ew_cfg.alu_algo == sdp_pkg::AluEql;
  end

  // ---------------------------------------------------------------- the layer
  sdp_pkg::cfg_t cfg;
  logic [13:0]   lanes;
  logic [2:0]    ca_in_grp, ca_out_grp;  // lanes (log2) the input / output round up to
  always_comb begin
    cfg    = '0;
    cfg.bs = bs_cfg;
    cfg.bn = bn_cfg;
    cfg.ew = ew_cfg;
    cfg.c  = c_cfg;

    // Operand streams; a stream is needed when a stage reads its ALU or MUL operand from it.
    cfg.brdma.base           = {rdma.bs_base_addr_high, rdma.bs_base_addr_low};
    cfg.brdma.line_stride    = rdma.bs_line_stride;
    cfg.brdma.surface_stride = rdma.bs_surface_stride;
    cfg.brdma.batch_stride   = rdma.bs_batch_stride;
    cfg.brdma.size2          = rdma.brdma_cfg_brdma_data_size;
    cfg.brdma.both           = rdma.brdma_cfg_brdma_data_use == 2'd2;
    cfg.brdma.per_elt        = rdma.brdma_cfg_brdma_data_mode;
    cfg.brdma.need           = (!bs_cfg.bypass && !bs_cfg.alu_bypass && bs_cfg.alu_src_mem) ||
                               (!bs_cfg.bypass && !bs_cfg.mul_bypass && bs_cfg.mul_src_mem);
    cfg.nrdma.base           = {rdma.bn_base_addr_high, rdma.bn_base_addr_low};
    cfg.nrdma.line_stride    = rdma.bn_line_stride;
    cfg.nrdma.surface_stride = rdma.bn_surface_stride;
    cfg.nrdma.batch_stride   = rdma.bn_batch_stride;
    cfg.nrdma.size2          = rdma.nrdma_cfg_nrdma_data_size;
    cfg.nrdma.both           = rdma.nrdma_cfg_nrdma_data_use == 2'd2;
    cfg.nrdma.per_elt        = rdma.nrdma_cfg_nrdma_data_mode;
    cfg.nrdma.need           = (!bn_cfg.bypass && !bn_cfg.alu_bypass && bn_cfg.alu_src_mem) ||
                               (!bn_cfg.bypass && !bn_cfg.mul_bypass && bn_cfg.mul_src_mem);
    cfg.erdma.base           = {rdma.ew_base_addr_high, rdma.ew_base_addr_low};
    cfg.erdma.line_stride    = rdma.ew_line_stride;
    cfg.erdma.surface_stride = rdma.ew_surface_stride;
    cfg.erdma.batch_stride   = rdma.ew_batch_stride;
    cfg.erdma.size2          = rdma.erdma_cfg_erdma_data_size;
    cfg.erdma.both           = rdma.erdma_cfg_erdma_data_use == 2'd2;
    cfg.erdma.per_elt        = rdma.erdma_cfg_erdma_data_mode;
    cfg.erdma.need           = (!ew_cfg.bypass && !ew_cfg.alu_bypass && ew_cfg.alu_src_mem) ||
                               (!ew_cfg.bypass && !ew_cfg.mul_bypass && ew_cfg.mul_src_mem);
    cfg.lut_active           = !ew_cfg.bypass && !ew_cfg.lut_bypass;

    cfg.src_base           = {rdma.src_base_addr_high, rdma.src_base_addr_low};
    cfg.src_line_stride    = rdma.src_line_stride;
    cfg.src_surface_stride = rdma.src_surface_stride;
    cfg.dst_base           = {sdp.dst_base_addr_high, sdp.dst_base_addr_low};
    cfg.dst_line_stride    = sdp.dst_line_stride;
    cfg.dst_surface_stride = sdp.dst_surface_stride;
    cfg.dst_batch_stride   = sdp.dst_batch_stride;
    cfg.width_m1   = sdp.data_cube_width;
    cfg.height_m1  = sdp.data_cube_height;
    cfg.flying     = sdp.feature_mode_cfg_flying_mode;
    // WINOGRAD (flying only): CACC delivers 2x2 output tiles, tile raster order, inside a tile
    // (0,0), (0,1), (1,0), (1,1); positions are walked in that order.
    cfg.wg_order   = cfg.flying && sdp.feature_mode_cfg_winograd;
    cfg.to_pdp     = sdp.feature_mode_cfg_output_dst;
    cfg.batch_m1   = cfg.flying ? sdp.feature_mode_cfg_batch_number : 5'd0;
    // Flying mode: CACC delivers lanes at the processing precision (SDP's, not SDP_RDMA's).
    cfg.in_wide    = cfg.flying ? sdp.data_format_proc_precision != 2'd0
                                : rdma.feature_mode_cfg_in_precision != 2'd0;
    cfg.nan_to_zero = sdp.feature_mode_cfg_nan_to_zero;
    cfg.perf_sat_en = sdp.perf_enable_perf_sat_en;
    cfg.perf_lut_en = sdp.perf_enable_perf_lut_en;
    cfg.perf_wr_en  = sdp.perf_enable_perf_dma_en;
    cfg.perf_rd_en  = rdma.perf_enable_perf_dma_en;
    cfg.perf_nan_inf_en      = sdp.perf_enable_perf_nan_inf_count_en;
    cfg.rdma_perf_nan_inf_en = rdma.perf_enable_perf_nan_inf_count_en;

    // Lanes: Ca_in = atom / input bytes, Ca_out = atom / output bytes; every lane of every atom
    // is computed (padded lanes too), over max(input lanes, output lanes) channels. The channel
    // loop runs in groups of Ca_it lanes: output atoms (Ca_out) from memory; flying, CACC's
    // kernel groups (Ca_in lanes, the order CACC delivers), so an output atom may be written in
    // parts (Ca_in < Ca_out, byte mask) or a group may fill several (Ca_in > Ca_out).
    cfg.ca_in_log2  = 3'(AtomLog2) - 3'(cfg.in_wide);
    cfg.ca_out_log2 = 3'(AtomLog2) - 3'(c_cfg.out_wide);
    cfg.ca_it_log2  = cfg.flying ? cfg.ca_in_log2 : cfg.ca_out_log2;
    cfg.ca_op_log2  = 3'(AtomLog2) - 3'(sdp.data_format_proc_precision != 2'd0);
    ca_in_grp       = (cfg.ca_op_log2 > cfg.ca_in_log2) ? cfg.ca_op_log2 : cfg.ca_in_log2;
    ca_out_grp      = (cfg.ca_op_log2 > cfg.ca_out_log2) ? cfg.ca_op_log2 : cfg.ca_out_log2;
    cfg.in_lanes    = ((14'(sdp.data_cube_channel) >> ca_in_grp) + 14'd1) << ca_in_grp;
    cfg.out_lanes   = ((14'(sdp.data_cube_channel) >> ca_out_grp) + 14'd1) << ca_out_grp;
    lanes           = (cfg.in_lanes > cfg.out_lanes) ? cfg.in_lanes : cfg.out_lanes;
    cfg.surfaces_m1 = 13'((lanes >> cfg.ca_it_log2) - 14'd1);
  end
  assign cfg_o        = cfg;
  assign sdp_armed_o  = sdp_armed;
  assign rdma_armed_o = rdma_armed;

  // ---------------------------------------------------------------- end of layer
  // SDP_RDMA's group is released with SDP's; flying, only if it was armed (operands).
  assign rdma_done = done_i && (!cfg.flying || rdma_armed);
  assign intr_o    = done_i ? (sdp_consumer ? 2'b10 : 2'b01) : 2'b00;

  // Status and counters land in the finished groups' read-only registers.
  always_comb begin
    rdma_hw2reg                          = '0;
    rdma_hw2reg.perf_mrdma_read_stall_de = rdma_done;
    rdma_hw2reg.perf_brdma_read_stall_de = rdma_done;
    rdma_hw2reg.perf_nrdma_read_stall_de = rdma_done;
    rdma_hw2reg.perf_erdma_read_stall_de = rdma_done;
    rdma_hw2reg.perf_mrdma_read_stall    = rd_stall_i[0];
    rdma_hw2reg.perf_brdma_read_stall    = rd_stall_i[1];
    rdma_hw2reg.perf_nrdma_read_stall    = rd_stall_i[2];
    rdma_hw2reg.perf_erdma_read_stall    = rd_stall_i[3];
    rdma_hw2reg.status_nan_input_num_de  = rdma_done;
    rdma_hw2reg.status_inf_input_num_de  = rdma_done;
    rdma_hw2reg.status_nan_input_num     = nan_in_i;
    rdma_hw2reg.status_inf_input_num     = inf_in_i;
  end
  always_comb begin
    sdp_hw2reg                          = '0;
    sdp_hw2reg.status_de                = done_i;
    sdp_hw2reg.perf_out_saturation_de   = done_i;
    sdp_hw2reg.perf_lut_uflow_de        = done_i;
    sdp_hw2reg.perf_lut_oflow_de        = done_i;
    sdp_hw2reg.perf_lut_hybrid_de       = done_i;
    sdp_hw2reg.perf_lut_le_hit_de       = done_i;
    sdp_hw2reg.perf_lut_lo_hit_de       = done_i;
    sdp_hw2reg.perf_wdma_write_stall_de = done_i;
    sdp_hw2reg.status                   = unequal_i;
    sdp_hw2reg.perf_out_saturation      = sat_cnt_i;
    sdp_hw2reg.perf_lut_uflow           = lut_uflow_i;
    sdp_hw2reg.perf_lut_oflow           = lut_oflow_i;
    sdp_hw2reg.perf_lut_hybrid          = lut_hybrid_i;
    sdp_hw2reg.perf_lut_le_hit          = lut_le_hit_i;
    sdp_hw2reg.perf_lut_lo_hit          = lut_lo_hit_i;
    sdp_hw2reg.perf_wdma_write_stall    = wr_stall_i;
    sdp_hw2reg.status_nan_output_num_de = done_i;
    sdp_hw2reg.status_nan_output_num    = nan_out_i;
  end

  logic unused;
  assign unused = ^{rdma_hit, sdp_hit, rdma_s_we, rdma_s_re, rdma_s_off, rdma_s_wdata, rdma_consumer};
endmodule
