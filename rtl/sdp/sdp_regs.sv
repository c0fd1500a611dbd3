// SDP's register block: the CSB port of SDP and SDP_RDMA (two dla_group_regs, ping-pong groups),
// SDP's S_LUT_* registers (lut_s_regs: the LUT engine's configuration words and table access),
// and the one decode of both blocks' consumer-group D_ registers into sdp_pkg::cfg_t, including
// the layer geometry derived from them. At the end of a layer (done_i) it writes the status and
// the counters into the finished groups, releases them and pulses intr_o for SDP's group.
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
  // done interrupt per register group (one-cycle pulse)
  output logic [1:0]       intr_o
);
  localparam int unsigned DWSDP      = nvdla_regs_pkg::SDP_D_WORDS;
  localparam int unsigned DWSDP_RDMA = nvdla_regs_pkg::SDP_RDMA_D_WORDS;
  localparam int unsigned SdpDFirst  = 32'(nvdla_regs_pkg::SDP_D_OP_ENABLE_OFFSET);
  localparam int unsigned RdmaDFirst = 32'(nvdla_regs_pkg::SDP_RDMA_D_OP_ENABLE_OFFSET);
  // ---------------------------------------------------------------- CSB and register blocks
  logic [DWSDP-1:0][31:0]      sdp_d;
  logic [DWSDP_RDMA-1:0][31:0] rdma_d;
  logic sdp_hit, rdma_hit, sdp_armed, rdma_armed, sdp_consumer, rdma_consumer;
  logic [31:0] sdp_rdata, rdma_rdata;
  logic sdp_s_we, sdp_s_re, rdma_s_we, rdma_s_re;
  logic [11:0] sdp_s_off, rdma_s_off;
  logic [31:0] sdp_s_wdata, rdma_s_wdata, sdp_s_rdata;
  logic rdma_done;
  logic [DWSDP-1:0]            sdp_hw_we;
  logic [DWSDP-1:0][31:0]      sdp_hw_wdata;
  logic [DWSDP_RDMA-1:0]       rdma_hw_we;
  logic [DWSDP_RDMA-1:0][31:0] rdma_hw_wdata;

  assign csb_req_ready_o = 1'b1;

  dla_group_regs #(
    .Base     (SdpBase),
    .DFirst   (SdpDFirst),
    .DWords   (DWSDP),
    .DReset   (nvdla_regs_pkg::SDP_D_RESET),
    .DWritable(nvdla_regs_pkg::SDP_D_WRITABLE)
  ) u_sdp_regs (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (csb_req_valid_i),
    .req_addr_i  (csb_req_addr_i),
    .req_write_i (csb_req_write_i),
    .req_wdata_i (csb_req_wdata_i),
    .hit_o       (sdp_hit),
    .rdata_o     (sdp_rdata),
    .s_we_o      (sdp_s_we),
    .s_re_o      (sdp_s_re),
    .s_offset_o  (sdp_s_off),
    .s_wdata_o   (sdp_s_wdata),
    .s_rdata_i   (sdp_s_rdata),
    .d_consumer_o(sdp_d),
    .consumer_o  (sdp_consumer),
    .armed_o     (sdp_armed),
    .done_i      (done_i),
    .hw_we_i     (sdp_hw_we),
    .hw_wdata_i  (sdp_hw_wdata)
  );

  dla_group_regs #(
    .Base     (RdmaBase),
    .DFirst   (RdmaDFirst),
    .DWords   (DWSDP_RDMA),
    .DReset   (nvdla_regs_pkg::SDP_RDMA_D_RESET),
    .DWritable(nvdla_regs_pkg::SDP_RDMA_D_WRITABLE)
  ) u_rdma_regs (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (csb_req_valid_i),
    .req_addr_i  (csb_req_addr_i),
    .req_write_i (csb_req_write_i),
    .req_wdata_i (csb_req_wdata_i),
    .hit_o       (rdma_hit),
    .rdata_o     (rdma_rdata),
    .s_we_o      (rdma_s_we),
    .s_re_o      (rdma_s_re),
    .s_offset_o  (rdma_s_off),
    .s_wdata_o   (rdma_s_wdata),
    .s_rdata_i   ('0),
    .d_consumer_o(rdma_d),
    .consumer_o  (rdma_consumer),
    .armed_o     (rdma_armed),
    .done_i      (rdma_done),
    .hw_we_i     (rdma_hw_we),
    .hw_wdata_i  (rdma_hw_wdata)
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
    .CfgOffset(nvdla_regs_pkg::SDP_S_LUT_ACCESS_CFG_OFFSET),
    .LutFirst (nvdla_regs_pkg::SDP_S_LUT_CFG_OFFSET)
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
  // Register words: only their defined fields are read, so most words have unused bits.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] w_data_cube_width;
  assign w_data_cube_width = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DATA_CUBE_WIDTH_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_data_cube_height;
  assign w_data_cube_height = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DATA_CUBE_HEIGHT_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_data_cube_channel;
  assign w_data_cube_channel = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DATA_CUBE_CHANNEL_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dst_base_addr_low;
  assign w_dst_base_addr_low = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DST_BASE_ADDR_LOW_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dst_base_addr_high;
  assign w_dst_base_addr_high = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DST_BASE_ADDR_HIGH_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dst_line_stride;
  assign w_dst_line_stride = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DST_LINE_STRIDE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dst_surface_stride;
  assign w_dst_surface_stride = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DST_SURFACE_STRIDE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bs_cfg;
  assign w_dp_bs_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BS_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bs_alu_cfg;
  assign w_dp_bs_alu_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BS_ALU_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bs_alu_src_value;
  assign w_dp_bs_alu_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BS_ALU_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bs_mul_cfg;
  assign w_dp_bs_mul_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BS_MUL_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bs_mul_src_value;
  assign w_dp_bs_mul_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BS_MUL_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bn_cfg;
  assign w_dp_bn_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BN_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bn_alu_cfg;
  assign w_dp_bn_alu_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BN_ALU_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bn_alu_src_value;
  assign w_dp_bn_alu_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BN_ALU_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bn_mul_cfg;
  assign w_dp_bn_mul_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BN_MUL_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_bn_mul_src_value;
  assign w_dp_bn_mul_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_BN_MUL_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_cfg;
  assign w_dp_ew_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_alu_cfg;
  assign w_dp_ew_alu_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_ALU_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_alu_src_value;
  assign w_dp_ew_alu_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_ALU_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_alu_cvt_offset_value;
  assign w_dp_ew_alu_cvt_offset_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_alu_cvt_scale_value;
  assign w_dp_ew_alu_cvt_scale_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_SCALE_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_alu_cvt_truncate_value;
  assign w_dp_ew_alu_cvt_truncate_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_mul_cfg;
  assign w_dp_ew_mul_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_MUL_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_mul_src_value;
  assign w_dp_ew_mul_src_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_MUL_SRC_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_mul_cvt_offset_value;
  assign w_dp_ew_mul_cvt_offset_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_mul_cvt_scale_value;
  assign w_dp_ew_mul_cvt_scale_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_SCALE_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_mul_cvt_truncate_value;
  assign w_dp_ew_mul_cvt_truncate_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dp_ew_truncate_value;
  assign w_dp_ew_truncate_value = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DP_EW_TRUNCATE_VALUE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_feature_mode_cfg;
  assign w_feature_mode_cfg = sdp_d[(32'(nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_dst_batch_stride;
  assign w_dst_batch_stride = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DST_BATCH_STRIDE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_data_format;
  assign w_data_format = sdp_d[(32'(nvdla_regs_pkg::SDP_D_DATA_FORMAT_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_cvt_offset;
  assign w_cvt_offset = sdp_d[(32'(nvdla_regs_pkg::SDP_D_CVT_OFFSET_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_cvt_scale;
  assign w_cvt_scale = sdp_d[(32'(nvdla_regs_pkg::SDP_D_CVT_SCALE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_cvt_shift;
  assign w_cvt_shift = sdp_d[(32'(nvdla_regs_pkg::SDP_D_CVT_SHIFT_OFFSET) - SdpDFirst) / 4];
  logic [31:0] w_perf_enable;
  assign w_perf_enable = sdp_d[(32'(nvdla_regs_pkg::SDP_D_PERF_ENABLE_OFFSET) - SdpDFirst) / 4];
  logic [31:0] r_src_base_addr_low;
  assign r_src_base_addr_low = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_SRC_BASE_ADDR_LOW_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_src_base_addr_high;
  assign r_src_base_addr_high = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_SRC_BASE_ADDR_HIGH_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_src_line_stride;
  assign r_src_line_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_SRC_LINE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_src_surface_stride;
  assign r_src_surface_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_SRC_SURFACE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_brdma_cfg;
  assign r_brdma_cfg = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_nrdma_cfg;
  assign r_nrdma_cfg = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_erdma_cfg;
  assign r_erdma_cfg = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_feature_mode_cfg;
  assign r_feature_mode_cfg = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_FEATURE_MODE_CFG_OFFSET) - RdmaDFirst) / 4];

  logic [31:0] r_bs_base_addr_low;
  assign r_bs_base_addr_low = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BS_BASE_ADDR_LOW_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bs_base_addr_high;
  assign r_bs_base_addr_high = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BS_BASE_ADDR_HIGH_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bs_line_stride;
  assign r_bs_line_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BS_LINE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bs_surface_stride;
  assign r_bs_surface_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BS_SURFACE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bs_batch_stride;
  assign r_bs_batch_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BS_BATCH_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bn_base_addr_low;
  assign r_bn_base_addr_low = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BN_BASE_ADDR_LOW_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bn_base_addr_high;
  assign r_bn_base_addr_high = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BN_BASE_ADDR_HIGH_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bn_line_stride;
  assign r_bn_line_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BN_LINE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bn_surface_stride;
  assign r_bn_surface_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BN_SURFACE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_bn_batch_stride;
  assign r_bn_batch_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_BN_BATCH_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_ew_base_addr_low;
  assign r_ew_base_addr_low = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_EW_BASE_ADDR_LOW_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_ew_base_addr_high;
  assign r_ew_base_addr_high = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_EW_BASE_ADDR_HIGH_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_ew_line_stride;
  assign r_ew_line_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_EW_LINE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_ew_surface_stride;
  assign r_ew_surface_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_EW_SURFACE_STRIDE_OFFSET) - RdmaDFirst) / 4];
  logic [31:0] r_ew_batch_stride;
  assign r_ew_batch_stride = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_EW_BATCH_STRIDE_OFFSET) - RdmaDFirst) / 4];
  /* verilator lint_on UNUSEDSIGNAL */
  sdp_pkg::x_cfg_t bs_cfg, bn_cfg;
  sdp_pkg::y_cfg_t ew_cfg;
  sdp_pkg::c_cfg_t c_cfg;
  always_comb begin
    bs_cfg.bypass      = w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_BYPASS_LSB];
    bs_cfg.alu_bypass  = w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_ALU_BYPASS_LSB];
    bs_cfg.alu_algo    = sdp_pkg::alu_algo_e'(w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_ALU_ALGO_LSB +: nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_ALU_ALGO_WIDTH]);
    bs_cfg.mul_bypass  = w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_MUL_BYPASS_LSB];
    bs_cfg.mul_prelu   = w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_MUL_PRELU_LSB];
    bs_cfg.relu_bypass = w_dp_bs_cfg[nvdla_regs_pkg::SDP_D_DP_BS_CFG_BS_RELU_BYPASS_LSB];
    bs_cfg.alu_src_mem = w_dp_bs_alu_cfg[nvdla_regs_pkg::SDP_D_DP_BS_ALU_CFG_BS_ALU_SRC_LSB];
    bs_cfg.alu_shift   = w_dp_bs_alu_cfg[nvdla_regs_pkg::SDP_D_DP_BS_ALU_CFG_BS_ALU_SHIFT_VALUE_LSB +: nvdla_regs_pkg::SDP_D_DP_BS_ALU_CFG_BS_ALU_SHIFT_VALUE_WIDTH];
    bs_cfg.alu_operand = w_dp_bs_alu_src_value[nvdla_regs_pkg::SDP_D_DP_BS_ALU_SRC_VALUE_BS_ALU_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_BS_ALU_SRC_VALUE_BS_ALU_OPERAND_WIDTH];
    bs_cfg.mul_src_mem = w_dp_bs_mul_cfg[nvdla_regs_pkg::SDP_D_DP_BS_MUL_CFG_BS_MUL_SRC_LSB];
    bs_cfg.mul_shift   = 6'(w_dp_bs_mul_cfg[nvdla_regs_pkg::SDP_D_DP_BS_MUL_CFG_BS_MUL_SHIFT_VALUE_LSB +: nvdla_regs_pkg::SDP_D_DP_BS_MUL_CFG_BS_MUL_SHIFT_VALUE_WIDTH]);
    bs_cfg.mul_operand = w_dp_bs_mul_src_value[nvdla_regs_pkg::SDP_D_DP_BS_MUL_SRC_VALUE_BS_MUL_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_BS_MUL_SRC_VALUE_BS_MUL_OPERAND_WIDTH];

    bn_cfg.bypass      = w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_BYPASS_LSB];
    bn_cfg.alu_bypass  = w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_ALU_BYPASS_LSB];
    bn_cfg.alu_algo    = sdp_pkg::alu_algo_e'(w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_ALU_ALGO_LSB +: nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_ALU_ALGO_WIDTH]);
    bn_cfg.mul_bypass  = w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_MUL_BYPASS_LSB];
    bn_cfg.mul_prelu   = w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_MUL_PRELU_LSB];
    bn_cfg.relu_bypass = w_dp_bn_cfg[nvdla_regs_pkg::SDP_D_DP_BN_CFG_BN_RELU_BYPASS_LSB];
    bn_cfg.alu_src_mem = w_dp_bn_alu_cfg[nvdla_regs_pkg::SDP_D_DP_BN_ALU_CFG_BN_ALU_SRC_LSB];
    bn_cfg.alu_shift   = w_dp_bn_alu_cfg[nvdla_regs_pkg::SDP_D_DP_BN_ALU_CFG_BN_ALU_SHIFT_VALUE_LSB +: nvdla_regs_pkg::SDP_D_DP_BN_ALU_CFG_BN_ALU_SHIFT_VALUE_WIDTH];
    bn_cfg.alu_operand = w_dp_bn_alu_src_value[nvdla_regs_pkg::SDP_D_DP_BN_ALU_SRC_VALUE_BN_ALU_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_BN_ALU_SRC_VALUE_BN_ALU_OPERAND_WIDTH];
    bn_cfg.mul_src_mem = w_dp_bn_mul_cfg[nvdla_regs_pkg::SDP_D_DP_BN_MUL_CFG_BN_MUL_SRC_LSB];
    bn_cfg.mul_shift   = 6'(w_dp_bn_mul_cfg[nvdla_regs_pkg::SDP_D_DP_BN_MUL_CFG_BN_MUL_SHIFT_VALUE_LSB +: nvdla_regs_pkg::SDP_D_DP_BN_MUL_CFG_BN_MUL_SHIFT_VALUE_WIDTH]);
    bn_cfg.mul_operand = w_dp_bn_mul_src_value[nvdla_regs_pkg::SDP_D_DP_BN_MUL_SRC_VALUE_BN_MUL_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_BN_MUL_SRC_VALUE_BN_MUL_OPERAND_WIDTH];

    ew_cfg.bypass           = w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_BYPASS_LSB];
    ew_cfg.alu_bypass       = w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_ALU_BYPASS_LSB];
    ew_cfg.alu_algo         = sdp_pkg::alu_algo_e'(w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_ALU_ALGO_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_ALU_ALGO_WIDTH]);
    ew_cfg.mul_bypass       = w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_MUL_BYPASS_LSB];
    ew_cfg.mul_prelu        = w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_MUL_PRELU_LSB];
    ew_cfg.lut_bypass       = w_dp_ew_cfg[nvdla_regs_pkg::SDP_D_DP_EW_CFG_EW_LUT_BYPASS_LSB];
    ew_cfg.alu_src_mem      = w_dp_ew_alu_cfg[nvdla_regs_pkg::SDP_D_DP_EW_ALU_CFG_EW_ALU_SRC_LSB];
    ew_cfg.alu_cvt_bypass   = w_dp_ew_alu_cfg[nvdla_regs_pkg::SDP_D_DP_EW_ALU_CFG_EW_ALU_CVT_BYPASS_LSB];
    ew_cfg.alu_operand      = w_dp_ew_alu_src_value[nvdla_regs_pkg::SDP_D_DP_EW_ALU_SRC_VALUE_EW_ALU_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_ALU_SRC_VALUE_EW_ALU_OPERAND_WIDTH];
    ew_cfg.alu_cvt_offset   = w_dp_ew_alu_cvt_offset_value[nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE_EW_ALU_CVT_OFFSET_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE_EW_ALU_CVT_OFFSET_WIDTH];
    ew_cfg.alu_cvt_scale    = w_dp_ew_alu_cvt_scale_value[nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_SCALE_VALUE_EW_ALU_CVT_SCALE_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_SCALE_VALUE_EW_ALU_CVT_SCALE_WIDTH];
    ew_cfg.alu_cvt_truncate = w_dp_ew_alu_cvt_truncate_value[nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE_EW_ALU_CVT_TRUNCATE_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE_EW_ALU_CVT_TRUNCATE_WIDTH];
    ew_cfg.mul_src_mem      = w_dp_ew_mul_cfg[nvdla_regs_pkg::SDP_D_DP_EW_MUL_CFG_EW_MUL_SRC_LSB];
    ew_cfg.mul_cvt_bypass   = w_dp_ew_mul_cfg[nvdla_regs_pkg::SDP_D_DP_EW_MUL_CFG_EW_MUL_CVT_BYPASS_LSB];
    ew_cfg.mul_operand      = w_dp_ew_mul_src_value[nvdla_regs_pkg::SDP_D_DP_EW_MUL_SRC_VALUE_EW_MUL_OPERAND_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_MUL_SRC_VALUE_EW_MUL_OPERAND_WIDTH];
    ew_cfg.mul_cvt_offset   = w_dp_ew_mul_cvt_offset_value[nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE_EW_MUL_CVT_OFFSET_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE_EW_MUL_CVT_OFFSET_WIDTH];
    ew_cfg.mul_cvt_scale    = w_dp_ew_mul_cvt_scale_value[nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_SCALE_VALUE_EW_MUL_CVT_SCALE_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_SCALE_VALUE_EW_MUL_CVT_SCALE_WIDTH];
    ew_cfg.mul_cvt_truncate = w_dp_ew_mul_cvt_truncate_value[nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE_EW_MUL_CVT_TRUNCATE_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE_EW_MUL_CVT_TRUNCATE_WIDTH];
    ew_cfg.truncate         = w_dp_ew_truncate_value[nvdla_regs_pkg::SDP_D_DP_EW_TRUNCATE_VALUE_EW_TRUNCATE_LSB +: nvdla_regs_pkg::SDP_D_DP_EW_TRUNCATE_VALUE_EW_TRUNCATE_WIDTH];

    c_cfg.offset    = w_cvt_offset[nvdla_regs_pkg::SDP_D_CVT_OFFSET_CVT_OFFSET_LSB +: nvdla_regs_pkg::SDP_D_CVT_OFFSET_CVT_OFFSET_WIDTH];
    c_cfg.scale     = w_cvt_scale[nvdla_regs_pkg::SDP_D_CVT_SCALE_CVT_SCALE_LSB +: nvdla_regs_pkg::SDP_D_CVT_SCALE_CVT_SCALE_WIDTH];
    c_cfg.shift     = w_cvt_shift[nvdla_regs_pkg::SDP_D_CVT_SHIFT_CVT_SHIFT_LSB +: nvdla_regs_pkg::SDP_D_CVT_SHIFT_CVT_SHIFT_WIDTH];
    c_cfg.out_int16 = w_data_format[nvdla_regs_pkg::SDP_D_DATA_FORMAT_OUT_PRECISION_LSB +: nvdla_regs_pkg::SDP_D_DATA_FORMAT_OUT_PRECISION_WIDTH] == 2'd1;
    c_cfg.eql       = !ew_cfg.bypass && !ew_cfg.alu_bypass && ew_cfg.alu_algo == sdp_pkg::AluEql;
  end

  // ---------------------------------------------------------------- the layer
  sdp_pkg::cfg_t cfg;
  logic [13:0]   lanes;
  logic [12:0]   channel_m1;
  assign channel_m1 = w_data_cube_channel[nvdla_regs_pkg::SDP_D_DATA_CUBE_CHANNEL_CHANNEL_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_CHANNEL_CHANNEL_WIDTH];
  logic [31:0]   r_perf_enable;
  assign r_perf_enable = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_ENABLE_OFFSET) - RdmaDFirst) / 4];
  always_comb begin
    cfg    = '0;
    cfg.bs = bs_cfg;
    cfg.bn = bn_cfg;
    cfg.ew = ew_cfg;
    cfg.c  = c_cfg;

    // Operand streams; a stream is needed when a stage reads its ALU or MUL operand from it.
    cfg.brdma.base           = {r_bs_base_addr_high, r_bs_base_addr_low};
    cfg.brdma.line_stride    = r_bs_line_stride;
    cfg.brdma.surface_stride = r_bs_surface_stride;
    cfg.brdma.batch_stride   = r_bs_batch_stride;
    cfg.brdma.size2          = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_SIZE_LSB];
    cfg.brdma.both           = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE_WIDTH] == 2'd2;
    cfg.brdma.per_elt        = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_MODE_LSB];
    cfg.brdma.need           = (!bs_cfg.bypass && !bs_cfg.alu_bypass && bs_cfg.alu_src_mem) ||
                               (!bs_cfg.bypass && !bs_cfg.mul_bypass && bs_cfg.mul_src_mem);
    cfg.nrdma.base           = {r_bn_base_addr_high, r_bn_base_addr_low};
    cfg.nrdma.line_stride    = r_bn_line_stride;
    cfg.nrdma.surface_stride = r_bn_surface_stride;
    cfg.nrdma.batch_stride   = r_bn_batch_stride;
    cfg.nrdma.size2          = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_SIZE_LSB];
    cfg.nrdma.both           = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_USE_WIDTH] == 2'd2;
    cfg.nrdma.per_elt        = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_MODE_LSB];
    cfg.nrdma.need           = (!bn_cfg.bypass && !bn_cfg.alu_bypass && bn_cfg.alu_src_mem) ||
                               (!bn_cfg.bypass && !bn_cfg.mul_bypass && bn_cfg.mul_src_mem);
    cfg.erdma.base           = {r_ew_base_addr_high, r_ew_base_addr_low};
    cfg.erdma.line_stride    = r_ew_line_stride;
    cfg.erdma.surface_stride = r_ew_surface_stride;
    cfg.erdma.batch_stride   = r_ew_batch_stride;
    cfg.erdma.size2          = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_SIZE_LSB];
    cfg.erdma.both           = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_USE_WIDTH] == 2'd2;
    cfg.erdma.per_elt        = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_MODE_LSB];
    cfg.erdma.need           = (!ew_cfg.bypass && !ew_cfg.alu_bypass && ew_cfg.alu_src_mem) ||
                               (!ew_cfg.bypass && !ew_cfg.mul_bypass && ew_cfg.mul_src_mem);
    cfg.lut_active           = !ew_cfg.bypass && !ew_cfg.lut_bypass;

    cfg.src_base           = {r_src_base_addr_high, r_src_base_addr_low};
    cfg.src_line_stride    = r_src_line_stride;
    cfg.src_surface_stride = r_src_surface_stride;
    cfg.dst_base           = {w_dst_base_addr_high, w_dst_base_addr_low};
    cfg.dst_line_stride    = w_dst_line_stride;
    cfg.dst_surface_stride = w_dst_surface_stride;
    cfg.dst_batch_stride   = w_dst_batch_stride;
    cfg.width_m1   = w_data_cube_width[nvdla_regs_pkg::SDP_D_DATA_CUBE_WIDTH_WIDTH_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_WIDTH_WIDTH_WIDTH];
    cfg.height_m1  = w_data_cube_height[nvdla_regs_pkg::SDP_D_DATA_CUBE_HEIGHT_HEIGHT_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_HEIGHT_HEIGHT_WIDTH];
    cfg.flying     = w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_FLYING_MODE_LSB];
    // WINOGRAD (flying only): CACC delivers 2x2 output tiles, tile raster order, inside a tile
    // (0,0), (0,1), (1,0), (1,1); positions are walked in that order.
    cfg.wg_order   = cfg.flying && w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_WINOGRAD_LSB];
    cfg.to_pdp     = w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_OUTPUT_DST_LSB];
    cfg.batch_m1   = cfg.flying ? w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_BATCH_NUMBER_LSB +: nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_BATCH_NUMBER_WIDTH] : 5'd0;
    // Flying mode: CACC delivers lanes at the processing precision (SDP's, not SDP_RDMA's).
    cfg.in_int16   = cfg.flying ? w_data_format[nvdla_regs_pkg::SDP_D_DATA_FORMAT_PROC_PRECISION_LSB +:
                                                nvdla_regs_pkg::SDP_D_DATA_FORMAT_PROC_PRECISION_WIDTH] == 2'd1
                                : r_feature_mode_cfg[nvdla_regs_pkg::SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION_LSB +:
                                                     nvdla_regs_pkg::SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION_WIDTH] == 2'd1;
    cfg.perf_sat_en = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_SAT_EN_LSB];
    cfg.perf_lut_en = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_LUT_EN_LSB];
    cfg.perf_wr_en  = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_DMA_EN_LSB];
    cfg.perf_rd_en  = r_perf_enable[nvdla_regs_pkg::SDP_RDMA_D_PERF_ENABLE_PERF_DMA_EN_LSB];

    // Lanes: Ca_in = atom / input bytes, Ca_out = atom / output bytes; every lane of every atom
    // is computed (padded lanes too), over max(input lanes, output lanes) channels. The channel
    // loop runs in groups of Ca_it lanes: output atoms (Ca_out) from memory; flying, CACC's
    // kernel groups (Ca_in lanes, the order CACC delivers), so an output atom may be written in
    // parts (Ca_in < Ca_out, byte mask) or a group may fill several (Ca_in > Ca_out).
    cfg.ca_in_log2  = 3'(AtomLog2) - 3'(cfg.in_int16);
    cfg.ca_out_log2 = 3'(AtomLog2) - 3'(c_cfg.out_int16);
    cfg.ca_it_log2  = cfg.flying ? cfg.ca_in_log2 : cfg.ca_out_log2;
    cfg.in_lanes    = ((14'(channel_m1) >> cfg.ca_in_log2) + 14'd1) << cfg.ca_in_log2;
    cfg.out_lanes   = ((14'(channel_m1) >> cfg.ca_out_log2) + 14'd1) << cfg.ca_out_log2;
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

  localparam int unsigned IMStall  = (32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_MRDMA_READ_STALL_OFFSET) - RdmaDFirst) / 4;
  localparam int unsigned IBStall  = (32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_BRDMA_READ_STALL_OFFSET) - RdmaDFirst) / 4;
  localparam int unsigned INStall  = (32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_NRDMA_READ_STALL_OFFSET) - RdmaDFirst) / 4;
  localparam int unsigned IEStall  = (32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_ERDMA_READ_STALL_OFFSET) - RdmaDFirst) / 4;
  always_comb begin
    rdma_hw_we              = '0;
    rdma_hw_wdata           = '0;
    rdma_hw_we[IMStall]     = rdma_done;
    rdma_hw_we[IBStall]     = rdma_done;
    rdma_hw_we[INStall]     = rdma_done;
    rdma_hw_we[IEStall]     = rdma_done;
    rdma_hw_wdata[IMStall]  = rd_stall_i[0];
    rdma_hw_wdata[IBStall]  = rd_stall_i[1];
    rdma_hw_wdata[INStall]  = rd_stall_i[2];
    rdma_hw_wdata[IEStall]  = rd_stall_i[3];
  end

  // Status and counters land in the finished group's read-only registers.
  localparam int unsigned IWrStall = (32'(nvdla_regs_pkg::SDP_D_PERF_WDMA_WRITE_STALL_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned IStatus = (32'(nvdla_regs_pkg::SDP_D_STATUS_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned ISat    = (32'(nvdla_regs_pkg::SDP_D_PERF_OUT_SATURATION_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned IUflow  = (32'(nvdla_regs_pkg::SDP_D_PERF_LUT_UFLOW_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned IOflow  = (32'(nvdla_regs_pkg::SDP_D_PERF_LUT_OFLOW_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned IHybrid = (32'(nvdla_regs_pkg::SDP_D_PERF_LUT_HYBRID_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned ILeHit  = (32'(nvdla_regs_pkg::SDP_D_PERF_LUT_LE_HIT_OFFSET) - SdpDFirst) / 4;
  localparam int unsigned ILoHit  = (32'(nvdla_regs_pkg::SDP_D_PERF_LUT_LO_HIT_OFFSET) - SdpDFirst) / 4;
  always_comb begin
    sdp_hw_we    = '0;
    sdp_hw_wdata = '0;
    if (done_i) begin
      sdp_hw_we[IStatus]  = 1'b1;
      sdp_hw_we[ISat]     = 1'b1;
      sdp_hw_we[IUflow]   = 1'b1;
      sdp_hw_we[IOflow]   = 1'b1;
      sdp_hw_we[IHybrid]  = 1'b1;
      sdp_hw_we[ILeHit]   = 1'b1;
      sdp_hw_we[ILoHit]   = 1'b1;
      sdp_hw_we[IWrStall] = 1'b1;
    end
    sdp_hw_wdata[IWrStall] = wr_stall_i;
    sdp_hw_wdata[IStatus]  = {31'd0, unequal_i};
    sdp_hw_wdata[ISat]     = sat_cnt_i;
    sdp_hw_wdata[IUflow]   = lut_uflow_i;
    sdp_hw_wdata[IOflow]   = lut_oflow_i;
    sdp_hw_wdata[IHybrid]  = lut_hybrid_i;
    sdp_hw_wdata[ILeHit]   = lut_le_hit_i;
    sdp_hw_wdata[ILoHit]   = lut_lo_hit_i;
  end

  logic unused;
  assign unused = ^{rdma_hit, sdp_hit, rdma_s_we, rdma_s_re, rdma_s_off, rdma_s_wdata, rdma_consumer};
endmodule
