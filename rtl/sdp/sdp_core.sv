// SDP with SDP_RDMA: NVDLA's single-point post-processor (nvdla-arithmetic.md §2, docs/SDP.md),
// register level. Two CSB register blocks with ping-pong groups (dla_group_regs), MRDMA / BRDMA /
// NRDMA / ERDMA reads through one DMA read port (one atom per request; a fetch walker runs up to
// RdSlots steps ahead of the datapath and reads each stream's atoms through its own dla_dma_rd,
// RdSlots reads in flight each), BS -> BN -> EW (converters, MUL, ALU, LUT engine) -> output
// converter, and a writer that stores whole atoms (padded lanes included) through the DMA write
// port. Input from memory, or flying: beats of Lanes 32-bit elements on fly_*, in the order the
// SDP processes them (batch, channel atom, h, w, lane); beat b carries lanes Lanes*b ...
//
// Up to Lanes elements per cycle (consecutive lanes of one atom) while the operand atoms they
// need have arrived. The layer starts when SDP's consumer group is armed and, with flying mode
// off, SDP_RDMA's consumer group too; both groups are released at the end (docs/SDP_RTL.md).
module sdp_core #(
  parameter int unsigned AtomLog2 = 3,  // 8-byte memory atom (nv_small); 5 for nv_full
  parameter logic [31:0] SdpBase  = 32'h9000,
  parameter logic [31:0] RdmaBase = 32'h8000,
  parameter int unsigned Lanes    = 1,  // elements per cycle (power of 2, <= lanes of an atom)
  parameter int unsigned RdSlots  = 8,  // reads in flight per operand stream (docs/DMA.md sizing)
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // CSB
  input  logic                  csb_req_valid_i,
  output logic                  csb_req_ready_o,
  input  logic [31:0]           csb_req_addr_i,
  input  logic                  csb_req_write_i,
  input  logic [31:0]           csb_req_wdata_i,
  output logic                  csb_rsp_valid_o,
  output logic [31:0]           csb_rsp_rdata_o,
  // DMA read: one atom per request, responses in order
  output logic                  dma_rd_req_valid_o,
  input  logic                  dma_rd_req_ready_i,
  output logic [63:0]           dma_rd_req_addr_o,
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]   dma_rd_rsp_data_i,
  // DMA write: one atom per request, byte mask
  output logic                  dma_wr_req_valid_o,
  input  logic                  dma_wr_req_ready_i,
  output logic [63:0]           dma_wr_req_addr_o,
  output logic [AtomBits-1:0]   dma_wr_req_data_o,
  output logic [AtomBytes-1:0]  dma_wr_req_mask_o,
  // flying input from CACC
  input  logic                  fly_valid_i,
  output logic                  fly_ready_o,
  input  logic [Lanes-1:0][31:0] fly_data_i,
  // on-the-fly output to PDP (D_FEATURE_MODE_CFG.OUTPUT_DST = PDP): the atoms the write port
  // would take, in the same order (surface, line, column), instead of memory writes
  output logic                  pdp_valid_o,
  input  logic                  pdp_ready_i,
  output logic [AtomBits-1:0]   pdp_data_o,
  // done interrupt per register group (one-cycle pulse)
  output logic [1:0]            intr_o
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
  logic layer_done, rdma_done;
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
    .done_i      (layer_done),
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
  logic [9:0][31:0] lut_regs_q;
  logic        lut_prog, lut_prog_addr, lut_prog_write;
  logic [31:0] lut_prog_wdata, prog_rsp_rdata;
  logic        prog_rsp_valid, prog_rsp_err, prog_err, prog_ready;
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
    .lut_regs_o      (lut_regs_q),
    .prog_valid_o    (lut_prog),
    .prog_addr_o     (lut_prog_addr),
    .prog_write_o    (lut_prog_write),
    .prog_wdata_o    (lut_prog_wdata),
    .prog_rsp_rdata_i(prog_rsp_rdata)
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

  // ---------------------------------------------------------------- layer geometry
  typedef struct packed {
    logic size2;    // 2-byte operand values
    logic both;     // ALU and MUL values interleaved
    logic per_elt;  // one value per element (else per channel)
  } dma_cfg_t;
  dma_cfg_t brdma, nrdma, erdma;
  always_comb begin
    brdma.size2   = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_SIZE_LSB];
    brdma.both    = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE_WIDTH] == 2'd2;
    brdma.per_elt = r_brdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_MODE_LSB];
    nrdma.size2   = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_SIZE_LSB];
    nrdma.both    = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_USE_WIDTH] == 2'd2;
    nrdma.per_elt = r_nrdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_MODE_LSB];
    erdma.size2   = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_SIZE_LSB];
    erdma.both    = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_USE_LSB +: nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_USE_WIDTH] == 2'd2;
    erdma.per_elt = r_erdma_cfg[nvdla_regs_pkg::SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_MODE_LSB];
  end

  logic [12:0] width_m1, height_m1, channel_m1;
  logic        flying, wg_order, to_pdp, in_int16, out_int16, perf_sat_en, perf_lut_en;
  logic [4:0]  batch_m1;
  assign width_m1    = w_data_cube_width[nvdla_regs_pkg::SDP_D_DATA_CUBE_WIDTH_WIDTH_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_WIDTH_WIDTH_WIDTH];
  assign height_m1   = w_data_cube_height[nvdla_regs_pkg::SDP_D_DATA_CUBE_HEIGHT_HEIGHT_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_HEIGHT_HEIGHT_WIDTH];
  assign channel_m1  = w_data_cube_channel[nvdla_regs_pkg::SDP_D_DATA_CUBE_CHANNEL_CHANNEL_LSB +: nvdla_regs_pkg::SDP_D_DATA_CUBE_CHANNEL_CHANNEL_WIDTH];
  assign flying      = w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_FLYING_MODE_LSB];
  // WINOGRAD (flying only): CACC delivers 2x2 output tiles, tile raster order, inside a tile
  // (0,0), (0,1), (1,0), (1,1); positions are walked in that order.
  assign wg_order    = flying && w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_WINOGRAD_LSB];
  assign to_pdp      = w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_OUTPUT_DST_LSB];
  assign batch_m1    = flying ? w_feature_mode_cfg[nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_BATCH_NUMBER_LSB +: nvdla_regs_pkg::SDP_D_FEATURE_MODE_CFG_BATCH_NUMBER_WIDTH] : 5'd0;
  // Flying mode: CACC delivers lanes at the processing precision (SDP's, not SDP_RDMA's).
  assign in_int16    = flying ? w_data_format[nvdla_regs_pkg::SDP_D_DATA_FORMAT_PROC_PRECISION_LSB +:
                                              nvdla_regs_pkg::SDP_D_DATA_FORMAT_PROC_PRECISION_WIDTH] == 2'd1
                              : r_feature_mode_cfg[nvdla_regs_pkg::SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION_LSB +:
                                                   nvdla_regs_pkg::SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION_WIDTH] == 2'd1;
  assign out_int16   = c_cfg.out_int16;
  assign perf_sat_en = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_SAT_EN_LSB];
  assign perf_lut_en = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_LUT_EN_LSB];

  // Lanes: Ca_in = atom / input bytes, Ca_out = atom / output bytes; every lane of every atom is
  // computed (padded lanes too), over max(input lanes, output lanes) channels. The channel loop
  // runs in groups of Ca_it lanes: output atoms (Ca_out) from memory; flying, CACC's kernel
  // groups (Ca_in lanes, the order CACC delivers), so an output atom may be written in parts
  // (Ca_in < Ca_out, byte mask) or a group may fill several (Ca_in > Ca_out).
  logic [2:0]  ca_in_log2, ca_out_log2, ca_it_log2;
  logic [13:0] in_lanes, out_lanes, lanes;
  logic [12:0] surfaces_m1;
  assign ca_in_log2  = 3'(AtomLog2) - 3'(in_int16);
  assign ca_out_log2 = 3'(AtomLog2) - 3'(out_int16);
  assign ca_it_log2  = flying ? ca_in_log2 : ca_out_log2;
  assign in_lanes    = ((14'(channel_m1) >> ca_in_log2) + 14'd1) << ca_in_log2;
  assign out_lanes   = ((14'(channel_m1) >> ca_out_log2) + 14'd1) << ca_out_log2;
  assign lanes       = (in_lanes > out_lanes) ? in_lanes : out_lanes;
  assign surfaces_m1 = 13'((lanes >> ca_it_log2) - 14'd1);

  // Stages that read their operands from memory.
  logic bs_alu_mem, bs_mul_mem, bn_alu_mem, bn_mul_mem, ew_alu_mem, ew_mul_mem, lut_active;
  assign bs_alu_mem = !bs_cfg.bypass && !bs_cfg.alu_bypass && bs_cfg.alu_src_mem;
  assign bs_mul_mem = !bs_cfg.bypass && !bs_cfg.mul_bypass && bs_cfg.mul_src_mem;
  assign bn_alu_mem = !bn_cfg.bypass && !bn_cfg.alu_bypass && bn_cfg.alu_src_mem;
  assign bn_mul_mem = !bn_cfg.bypass && !bn_cfg.mul_bypass && bn_cfg.mul_src_mem;
  assign ew_alu_mem = !ew_cfg.bypass && !ew_cfg.alu_bypass && ew_cfg.alu_src_mem;
  assign ew_mul_mem = !ew_cfg.bypass && !ew_cfg.mul_bypass && ew_cfg.mul_src_mem;
  assign lut_active = !ew_cfg.bypass && !ew_cfg.lut_bypass;
  /* verilator lint_off UNUSEDSIGNAL */
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

  // ---------------------------------------------------------------- sequencing
  // A step takes `cnt` consecutive lanes (channels) of one (n, s, h, w): 1..Lanes of them, never
  // across a Lanes-aligned boundary, so a step stays inside one input atom, one output atom and,
  // flying, one beat (Lanes divides every atom's lane count).
  // Two stages walk the steps in the same order (docs/SDP_RTL.md "Fetch"): the fetch walker
  // (positions n_q .. l_q below) computes each step's operand addresses, reads every atom a step
  // needs that its stream does not hold yet (one dla_dma_rd per stream, many reads in flight) and
  // hands the step to the datapath through a small FIFO of step descriptors; the datapath takes a
  // step when the new atoms it needs have arrived.
  localparam int unsigned CntW = $clog2(Lanes + 1);
  logic running_q, start, fetch_done_q, done;
  logic [4:0]  n_q;
  logic [12:0] s_q, h_q, w_q;
  logic [5:0]  l_q;
  logic [12:0] c_cur;
  logic [CntW-1:0] cnt;
  logic [6:0]  beat_pos;  // lane of l_q inside its Lanes-aligned group
  logic        last_l, last_w, last_h, last_s, last_n, wk_fire;
  assign start    = !running_q && sdp_armed && (flying || rdma_armed);
  assign c_cur    = (s_q << ca_it_log2) | 13'(l_q);
  assign beat_pos = 7'(l_q) & 7'(Lanes - 1);
  assign last_l   = 7'(l_q) + 7'(cnt) == (7'd1 << ca_it_log2);
  assign last_w   = w_q == width_m1;
  assign last_h   = h_q == height_m1;
  assign last_s   = s_q == surfaces_m1;
  assign last_n   = n_q == batch_m1;

  // ---------------------------------------------------------------- operand fetch (walker)
  // Streams: 0 MRDMA (input), 1 BRDMA, 2 NRDMA, 3 ERDMA. The walker keeps the tag of the atom
  // each stream read last: a step whose lane-0 atom differs reads it.
  localparam int unsigned NStreams = 4;
  logic [NStreams-1:0]          need, miss, wv_q, push;
  logic [NStreams-1:0][63:0]    elem_addr, wtag_q;
  logic [NStreams-1:0][63:0]    tag;
  logic [NStreams-1:0][1:0]     eb_log2;  // bytes per stored element (operand: size x 2 if BOTH)
  logic [NStreams-1:0]          size2, both;

  assign need[0] = !flying && (14'(c_cur) < in_lanes);
  assign need[1] = bs_alu_mem || bs_mul_mem;
  assign need[2] = bn_alu_mem || bn_mul_mem;
  assign need[3] = ew_alu_mem || ew_mul_mem;
  assign size2   = {erdma.size2, nrdma.size2, brdma.size2, in_int16};
  assign both    = {erdma.both, nrdma.both, brdma.both, 1'b0};
  for (genvar k = 0; k < NStreams; k++) begin : g_eb
    assign eb_log2[k] = 2'(size2[k]) + 2'(both[k]);
  end

  dla_cube_addr #(.AddrW(64), .IdxW(13)) u_addr_m (
    .base_i          ({r_src_base_addr_high, r_src_base_addr_low}),
    .line_stride_i   (r_src_line_stride),
    .surface_stride_i(r_src_surface_stride),
    .batch_stride_i  (32'd0),
    .atom_log2_i     (3'(AtomLog2)),
    .bpe_log2_i      (2'(in_int16)),
    .n_i             (5'd0),
    .c_i             (c_cur),
    .h_i             (h_q),
    .w_i             (w_q),
    .addr_o          (elem_addr[0])
  );

  // Operand streams: per element, the input's lane grouping with eb-byte elements; per kernel,
  // packed channels from the base (docs/SDP.md §4).
  logic [2:0][63:0] op_base;
  logic [2:0][31:0] op_line, op_surf, op_batch;
  logic [2:0]       op_per_elt;
  assign op_base    = {{r_ew_base_addr_high, r_ew_base_addr_low}, {r_bn_base_addr_high, r_bn_base_addr_low},
                       {r_bs_base_addr_high, r_bs_base_addr_low}};
  assign op_line    = {r_ew_line_stride, r_bn_line_stride, r_bs_line_stride};
  assign op_surf    = {r_ew_surface_stride, r_bn_surface_stride, r_bs_surface_stride};
  assign op_batch   = {r_ew_batch_stride, r_bn_batch_stride, r_bs_batch_stride};
  assign op_per_elt = {erdma.per_elt, nrdma.per_elt, brdma.per_elt};
  for (genvar k = 1; k < NStreams; k++) begin : g_op_addr
    logic [63:0] cube_addr;
    dla_cube_addr #(.AddrW(64), .IdxW(13)) u_addr (
      .base_i          (op_base[k-1]),
      .line_stride_i   (op_line[k-1]),
      .surface_stride_i(op_surf[k-1]),
      .batch_stride_i  (op_batch[k-1]),
      .atom_log2_i     (ca_in_log2 + 3'(eb_log2[k])),
      .bpe_log2_i      (eb_log2[k]),
      .n_i             (n_q),
      .c_i             (c_cur),
      .h_i             (h_q),
      .w_i             (w_q),
      .addr_o          (cube_addr)
    );
    assign elem_addr[k] = op_per_elt[k-1] ? cube_addr : op_base[k-1] + (64'(c_cur) << eb_log2[k]);
  end

  // Lane j of a step is channel c_cur + j: inside a Lanes-aligned group its bytes follow lane
  // 0's in every stream (elements are size-aligned, so a value never straddles two atoms). A
  // step takes the leading lanes whose bytes lie in lane 0's atom of every stream it needs.
  logic [NStreams-1:0][Lanes-1:0] lane_same;
  logic [Lanes-1:0]               lane_ok;
  for (genvar k = 0; k < NStreams; k++) begin : g_lane_k
    for (genvar j = 0; j < Lanes; j++) begin : g_lane_j
      logic [63:0] a, m;
      assign a               = elem_addr[k] + (64'(j) << eb_log2[k]);
      assign m               = a + (both[k] ? (size2[k] ? 64'd2 : 64'd1) : 64'd0);
      assign lane_same[k][j] = !need[k] || ((a >> AtomLog2) == tag[k] && (m >> AtomLog2) == tag[k]);
    end
    assign tag[k]  = elem_addr[k] >> AtomLog2;
    assign miss[k] = need[k] && !(wv_q[k] && wtag_q[k] == tag[k]);
  end
  for (genvar j = 0; j < Lanes; j++) begin : g_lane_ok
    assign lane_ok[j] = (beat_pos + 7'(j) < 7'(Lanes)) && lane_same[0][j] && lane_same[1][j] &&
                        lane_same[2][j] && lane_same[3][j];
  end
  always_comb begin
    logic stop;
    cnt  = '0;
    stop = 1'b0;
    for (int unsigned j = 0; j < Lanes; j++) begin
      if (!lane_ok[j]) stop = 1'b1;
      if (!stop) cnt = cnt + 1'b1;
    end
  end

  // Per stream a 2-entry request queue (a step may need a new atom of every stream at once; the
  // queues let the walker go on while the port takes them one per cycle), one read engine
  // (dla_dma_rd, RdSlots reads in flight), a round-robin arbiter onto the DMA read port and a
  // FIFO of stream numbers that routes the in-order responses back. Every engine takes every
  // response (its slots were reserved), so routing never blocks.
  localparam int unsigned IdDepth = NStreams * RdSlots;
  logic [NStreams-1:0]                rq_ready, rd_valid, rd_ready, eng_req_valid, eng_req_ready, eng_rsp_valid;
  logic [NStreams-1:0]                eng_rsp_ready, eng_mem_rsp_valid, eng_mem_rsp_ready;
  logic [NStreams-1:0][63:0]          eng_req_addr, rd_addr;
  logic [NStreams-1:0][1:0]           rq_level;
  logic [NStreams-1:0][AtomBits-1:0]  eng_rsp_data;
  logic                               arb_valid, arb_ready, id_ready, id_valid;
  logic [1:0]                         arb_idx, id_head;
  logic [$clog2(IdDepth + 1)-1:0]     id_level;
  for (genvar k = 0; k < NStreams; k++) begin : g_eng
    assign push[k]              = wk_fire && miss[k];
    assign eng_mem_rsp_valid[k] = dma_rd_rsp_valid_i && id_valid && id_head == 2'(k);
    dla_fifo #(
      .Depth(2),
      .Width(64)
    ) u_rq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (push[k]),
      .in_ready_o (rq_ready[k]),
      .in_data_i  (tag[k] << AtomLog2),
      .out_valid_o(rd_valid[k]),
      .out_ready_i(rd_ready[k]),
      .out_data_o (rd_addr[k]),
      .level_o    (rq_level[k])
    );
    dla_dma_rd #(
      .AddrWidth  (64),
      .DataWidth  (AtomBits),
      .MaxInFlight(RdSlots)
    ) u_rd (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .req_valid_i    (rd_valid[k]),
      .req_ready_o    (rd_ready[k]),
      .req_addr_i     (rd_addr[k]),
      .rsp_valid_o    (eng_rsp_valid[k]),
      .rsp_ready_i    (eng_rsp_ready[k]),
      .rsp_data_o     (eng_rsp_data[k]),
      .mem_req_valid_o(eng_req_valid[k]),
      .mem_req_ready_i(eng_req_ready[k]),
      .mem_req_addr_o (eng_req_addr[k]),
      .mem_rsp_valid_i(eng_mem_rsp_valid[k]),
      .mem_rsp_ready_o(eng_mem_rsp_ready[k]),
      .mem_rsp_data_i (dma_rd_rsp_data_i)
    );
  end
  dla_rr_arb #(
    .N    (NStreams),
    .Width(64)
  ) u_rd_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (eng_req_valid),
    .in_ready_o (eng_req_ready),
    .in_data_i  (eng_req_addr),
    .out_valid_o(arb_valid),
    .out_ready_i(arb_ready),
    .out_data_o (dma_rd_req_addr_o),
    .out_idx_o  (arb_idx)
  );
  assign dma_rd_req_valid_o = arb_valid && id_ready;
  assign arb_ready          = dma_rd_req_ready_i && id_ready;
  dla_fifo #(
    .Depth(IdDepth),
    .Width(2)
  ) u_rd_ids (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (dma_rd_req_valid_o && dma_rd_req_ready_i),
    .in_ready_o (id_ready),
    .in_data_i  (arb_idx),
    .out_valid_o(id_valid),
    .out_ready_i(dma_rd_rsp_valid_i),
    .out_data_o (id_head),
    .level_o    (id_level)
  );
  assign dma_rd_rsp_ready_o = id_valid;

  // The walker's step: the request queue of every stream whose atom it misses has room, and so
  // has the descriptor FIFO (RdSlots steps: the walker runs up to that far ahead of the
  // datapath). `fresh`: the step takes the next response of that stream.
  typedef struct packed {
    logic [NStreams-1:0]               fresh;
    logic [NStreams-1:0][AtomLog2-1:0] off;  // lane 0's byte in the stream's atom
    logic                              need0;
    logic [CntW-1:0]                   cnt;
    logic [12:0]                       c;
    logic [6:0]                        beat;
    logic                              last_l;
    logic [4:0]                        n;
    logic [12:0]                       h, w;
    logic                              last;  // the layer's last step
  } step_t;
  step_t step_in, st;
  logic  desc_ready, desc_valid, c_fire, c_step_ok;
  logic [$clog2(RdSlots + 1)-1:0] desc_level;
  always_comb begin
    step_in.fresh  = miss;
    for (int unsigned k = 0; k < NStreams; k++) step_in.off[k] = elem_addr[k][AtomLog2-1:0];
    step_in.need0  = need[0];
    step_in.cnt    = cnt;
    step_in.c      = c_cur;
    step_in.beat   = beat_pos;
    step_in.last_l = last_l;
    step_in.n      = n_q;
    step_in.h      = h_q;
    step_in.w      = w_q;
    step_in.last   = last_l && last_w && last_h && last_s && last_n;
  end
  assign wk_fire = running_q && !fetch_done_q && ((~miss | rq_ready) == '1) && desc_ready;
  dla_fifo #(
    .Depth(RdSlots),
    .Width($bits(step_in))
  ) u_steps (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (wk_fire),
    .in_ready_o (desc_ready),
    .in_data_i  (step_in),
    .out_valid_o(desc_valid),
    .out_ready_i(c_fire),
    .out_data_o (st),
    .level_o    (desc_level)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wv_q <= '0;
    end else if (start) begin
      wv_q <= '0;  // memory may have changed between layers
    end else begin
      wv_q <= wv_q | push;
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NStreams; k++) begin
      if (push[k]) wtag_q[k] <= tag[k];
    end
  end

  // ---------------------------------------------------------------- step intake (datapath)
  // A step goes when every new atom it needs has arrived; the atoms it takes stay held for the
  // steps after it. The datapath reads a new atom straight from its engine in that cycle.
  logic [NStreams-1:0]               avail;
  logic [NStreams-1:0][AtomBits-1:0] cdata_q, op_data;
  for (genvar k = 0; k < NStreams; k++) begin : g_take
    assign avail[k]         = !st.fresh[k] || eng_rsp_valid[k];
    assign eng_rsp_ready[k] = c_fire && st.fresh[k];
    assign op_data[k]       = st.fresh[k] ? eng_rsp_data[k] : cdata_q[k];
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NStreams; k++) begin
      if (eng_rsp_ready[k]) cdata_q[k] <= eng_rsp_data[k];
    end
  end

  // Byte offsets of each lane in its streams' atoms (lanes of a step share lane 0's atom).
  logic [NStreams-1:0][Lanes-1:0][AtomLog2-1:0] lane_off, lane_mul_off;
  for (genvar k = 0; k < NStreams; k++) begin : g_off_k
    for (genvar j = 0; j < Lanes; j++) begin : g_off_j
      assign lane_off[k][j]     = st.off[k] + AtomLog2'(j << eb_log2[k]);
      assign lane_mul_off[k][j] = lane_off[k][j] + (both[k] ? (size2[k] ? AtomLog2'(2) : AtomLog2'(1)) : '0);
    end
  end

  // The step's flying lanes come from CACC (flying lanes past its groups are zeros).
  logic                   fly_take, fly_valid_q, fly_pop;
  logic [Lanes-1:0][31:0] fly_data_q;
  assign fly_take = flying && 14'(st.c) < in_lanes;

  // Values of a lane from the cached atoms (little endian, sign-extended).
  function automatic logic signed [15:0] pick(input logic [AtomBits-1:0] atom,
                                              input logic [AtomLog2-1:0] off, input logic two);
    logic [7:0] lo, hi;
    lo   = atom[8*off +: 8];
    hi   = atom[8*(AtomLog2'(off + 1'b1)) +: 8];
    pick = two ? $signed({hi, lo}) : 16'($signed(lo));
  endfunction

  // ---------------------------------------------------------------- datapath to the LUT
  localparam int unsigned LaneW = (Lanes > 1) ? $clog2(Lanes) : 1;
  logic [Lanes-1:0][31:0] y_pre;
  logic [Lanes-1:0]       step_mask;
  for (genvar j = 0; j < Lanes; j++) begin : g_dp
    logic signed [15:0] in_val, bs_alu_v, bs_mul_v, bn_alu_v, bn_mul_v, ew_alu_v, ew_mul_v;
    logic signed [31:0] x_in, x1, x2, y;
    logic [LaneW-1:0]   fly_lane;
    assign in_val   = pick(op_data[0], lane_off[0][j], in_int16);
    assign bs_alu_v = pick(op_data[1], lane_off[1][j], size2[1]);
    assign bs_mul_v = pick(op_data[1], lane_mul_off[1][j], size2[1]);
    assign bn_alu_v = pick(op_data[2], lane_off[2][j], size2[2]);
    assign bn_mul_v = pick(op_data[2], lane_mul_off[2][j], size2[2]);
    assign ew_alu_v = pick(op_data[3], lane_off[3][j], size2[3]);
    assign ew_mul_v = pick(op_data[3], lane_mul_off[3][j], size2[3]);
    assign fly_lane = LaneW'(st.beat) + LaneW'(j);  // wraps only for lanes outside the step
    assign x_in = fly_take ? $signed(fly_data_q[fly_lane]) : st.need0 ? 32'(in_val) : 32'sd0;
    sdp_x u_bs (.cfg_i(bs_cfg), .data_i(x_in), .alu_mem_i(bs_alu_v), .mul_mem_i(bs_mul_v), .data_o(x1));
    sdp_x u_bn (.cfg_i(bn_cfg), .data_i(x1), .alu_mem_i(bn_alu_v), .mul_mem_i(bn_mul_v), .data_o(x2));
    sdp_y u_ew (.cfg_i(ew_cfg), .data_i(x2), .alu_mem_i(ew_alu_v), .mul_mem_i(ew_mul_v), .data_o(y));
    assign y_pre[j]     = y;
    assign step_mask[j] = CntW'(j) < st.cnt;
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
    .base_i          ({w_dst_base_addr_high, w_dst_base_addr_low}),
    .line_stride_i   (w_dst_line_stride),
    .surface_stride_i(w_dst_surface_stride),
    .batch_stride_i  (w_dst_batch_stride),
    .atom_log2_i     (3'(AtomLog2)),
    .bpe_log2_i      (2'(out_int16)),
    .n_i             (st.n),
    .c_i             (st.c & ~((13'd1 << ca_out_log2) - 13'd1)),
    .h_i             (st.h),
    .w_i             (st.w),
    .addr_o          (dst_atom_addr)
  );

  // The flying port goes through a register slice (full rate, one cycle of latency), so the
  // per-lane datapath does not depend on input ports: Verilator evaluates input-dependent logic
  // on every eval, which made the 16-lane model ~10x slower to simulate. A beat is consumed by
  // the step that reaches its end.
  logic fly_ld, fly_held;
  assign fly_pop = c_step_ok && fly_take && fly_valid_q && (st.beat + 7'(st.cnt) == 7'(Lanes));
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
  assign c_step_ok   = running_q && desc_valid && (&avail) && lut_in_ready && fifo_ready;
  // Flying lanes beyond CACC's kernel groups (output atoms wider than the input's) are zeros
  // that take no beat.
  assign c_fire      = c_step_ok && (!fly_take || fly_valid_q);
  logic [5:0] out_lane, grp_lo, grp_n;
  logic [5:0] out_n, it_n;  // lanes of an output atom, of a channel group (<= 32)
  assign out_n    = 6'd1 << ca_out_log2;
  assign it_n     = 6'd1 << ca_it_log2;
  assign out_lane = st.c[5:0] & (out_n - 6'd1);
  // lanes of the atom written by this group: all of it, or the group's part of it
  assign grp_lo   = (ca_it_log2 >= ca_out_log2) ? 6'd0 : (out_lane & ~(it_n - 6'd1));
  assign grp_n    = (ca_it_log2 >= ca_out_log2) ? out_n : it_n;
  always_comb begin
    side_in.y          = y_pre;
    side_in.lane       = out_lane;
    side_in.cnt        = st.cnt;
    side_in.atom_last  = st.last_l || 7'(out_lane) + 7'(st.cnt) == (7'd1 << ca_out_log2);
    side_in.write_atom = 14'(st.c) < out_lanes;
    side_in.atom_addr  = dst_atom_addr;
    for (int unsigned i = 0; i < AtomBytes; i++) begin
      logic [6:0] l;
      l = out_int16 ? 7'(i >> 1) : 7'(i);
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
  logic [31:0] st_uflow, st_oflow, st_hybrid, st_le_hit, st_lo_hit;
  logic [Lanes-1:0] lut_uflow, lut_oflow, lut_le_hit, lut_lo_hit, lut_lo_sel, lut_mask;
  logic lut_busy;
  lut_engine #(
    .Variant(0),
    .Lanes  (Lanes)
  ) u_lut (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .lut_regs_i      (lut_regs_q),
    .in_int8_i       (1'b0),
    .layer_active_i  (running_q),
    .busy_o          (lut_busy),
    .in_valid_i      (c_fire),
    .in_ready_o      (lut_in_ready),
    .in_data_i       (y_pre),
    .in_mask_i       (step_mask & {Lanes{lut_active}}),
    .out_valid_o     (lut_out_valid),
    .out_ready_i     (lut_out_ready),
    .out_value_o     (lut_value),
    .out_uflow_o     (lut_uflow),
    .out_oflow_o     (lut_oflow),
    .out_le_hit_o    (lut_le_hit),
    .out_lo_hit_o    (lut_lo_hit),
    .out_lo_sel_o    (lut_lo_sel),
    .out_mask_o      (lut_mask),
    .stat_en_i       (perf_lut_en),
    .stat_clr_i      (start),
    .stat_uflow_o    (st_uflow),
    .stat_oflow_o    (st_oflow),
    .stat_hybrid_o   (st_hybrid),
    .stat_le_hit_o   (st_le_hit),
    .stat_lo_hit_o   (st_lo_hit),
    .prog_valid_i    (lut_prog),
    .prog_ready_o    (prog_ready),
    .prog_addr_i     (lut_prog_addr),
    .prog_write_i    (lut_prog_write),
    .prog_wdata_i    (lut_prog_wdata),
    .prog_rsp_valid_o(prog_rsp_valid),
    .prog_rsp_rdata_o(prog_rsp_rdata),
    .prog_rsp_err_o  (prog_rsp_err),
    .prog_err_o      (prog_err),
    .prog_err_clr_i  (1'b0)
  );

  // ---------------------------------------------------------------- output converter and writer
  localparam int unsigned IncW = $clog2(Lanes + 1);
  logic [Lanes-1:0][15:0] out_val;
  logic [Lanes-1:0]       out_sat, out_mask;
  logic [IncW-1:0]        sat_inc;
  logic                   any_unequal, wr_pending_q, wr_to_pdp_q, wr_ready;
  logic [AtomBytes-1:0][15:0] lanes_q, lanes_d;
  logic [AtomBits-1:0] wr_data_q, atom_data;
  logic [63:0]         wr_addr_q;
  logic [AtomBytes-1:0] wr_mask_q;
  for (genvar j = 0; j < Lanes; j++) begin : g_c
    logic signed [15:0] v;
    sdp_c u_c (.cfg_i(c_cfg), .data_i(lut_active ? $signed(lut_value[j]) : $signed(side_out.y[j])),
               .data_o(v), .sat_o(out_sat[j]));
    assign out_val[j]  = v;
    assign out_mask[j] = CntW'(j) < side_out.cnt;
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

  // A write leaves while the next atom's lanes arrive: a pop may replace the pending atom in
  // the cycle the write port takes it.
  assign wr_ready      = wr_to_pdp_q ? pdp_ready_i : dma_wr_req_ready_i;
  assign lut_out_ready = !wr_pending_q || wr_ready;
  assign pop           = lut_out_valid && lut_out_ready;
  always_comb begin
    atom_data = '0;
    lanes_d   = lanes_q;
    for (int unsigned i = 0; i < AtomBytes; i++) begin
      logic [6:0] rel;
      rel = 7'(i) - 7'(side_out.lane);
      if (7'(i) >= 7'(side_out.lane) && rel < 7'(side_out.cnt)) lanes_d[i] = out_val[LaneW'(rel)];
      if (out_int16) begin
        if (i < AtomBytes / 2) atom_data[16*i +: 16] = lanes_d[i];
      end else begin
        atom_data[8*i +: 8] = lanes_d[i][7:0];
      end
    end
  end

  logic [31:0] sat_cnt;
  logic        unequal_q;
  dla_perf_cnt #(.IncW(IncW)) u_sat_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (pop && perf_sat_en && !c_cfg.eql),
    .inc_i  (sat_inc),
    .count_o(sat_cnt)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_pending_q <= 1'b0;
      wr_to_pdp_q  <= 1'b0;
      unequal_q    <= 1'b0;
    end else begin
      if (start) begin
        unequal_q <= 1'b0;
      end
      if (wr_pending_q && wr_ready) wr_pending_q <= 1'b0;
      if (pop) begin
        if (c_cfg.eql && any_unequal) unequal_q <= 1'b1;
        if (side_out.atom_last && side_out.write_atom && !c_cfg.eql) begin
          wr_pending_q <= 1'b1;
          wr_to_pdp_q  <= to_pdp;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (pop) begin
      lanes_q <= lanes_d;
      if (side_out.atom_last) begin
        wr_data_q <= atom_data;
        wr_addr_q <= side_out.atom_addr;
        wr_mask_q <= side_out.wr_mask;
      end
    end
  end
  assign dma_wr_req_valid_o = wr_pending_q && !wr_to_pdp_q;
  assign pdp_valid_o        = wr_pending_q && wr_to_pdp_q;
  assign pdp_data_o         = wr_data_q;
  assign dma_wr_req_addr_o  = wr_addr_q;
  assign dma_wr_req_data_o  = wr_data_q;
  assign dma_wr_req_mask_o  = wr_mask_q;

  // ---------------------------------------------------------------- counters, completion
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q    <= 1'b0;
      fetch_done_q <= 1'b0;
      n_q <= '0;
      s_q <= '0;
      h_q <= '0;
      w_q <= '0;
      l_q <= '0;
    end else begin
      if (start) begin
        running_q    <= 1'b1;
        fetch_done_q <= 1'b0;
        n_q <= '0;
        s_q <= '0;
        h_q <= '0;
        w_q <= '0;
        l_q <= '0;
      end else if (wk_fire) begin
        l_q <= last_l ? '0 : l_q + 6'(cnt);
        if (last_l && wg_order && !(last_w && last_h)) begin
          // next position of the 2x2 tile, then the next tile (w, h even)
          if (!w_q[0]) begin
            w_q <= w_q + 1'b1;
          end else if (!h_q[0]) begin
            w_q <= w_q - 1'b1;
            h_q <= h_q + 1'b1;
          end else if (last_w) begin
            w_q <= '0;
            h_q <= h_q + 1'b1;
          end else begin
            w_q <= w_q + 1'b1;
            h_q <= h_q - 1'b1;
          end
        end else if (last_l) begin
          w_q <= last_w ? '0 : w_q + 1'b1;
          if (last_w) begin
            h_q <= last_h ? '0 : h_q + 1'b1;
            if (last_h) begin
              s_q <= last_s ? '0 : s_q + 1'b1;
              if (last_s) begin
                n_q <= last_n ? '0 : n_q + 1'b1;
                if (last_n) fetch_done_q <= 1'b1;
              end
            end
          end
        end
      end
      if (done) running_q <= 1'b0;
    end
  end
  // the datapath took the layer's last step
  logic cons_done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cons_done_q <= 1'b0;
    else if (start) cons_done_q <= 1'b0;
    else if (c_fire && st.last) cons_done_q <= 1'b1;
  end
  assign done       = running_q && cons_done_q && fifo_level == '0 && !wr_pending_q;
  assign layer_done = done;
  assign rdma_done  = done && (!flying || rdma_armed);  // flying: released if it was armed (operands)
  assign intr_o     = done ? (sdp_consumer ? 2'b10 : 2'b01) : 2'b00;

  // DMA perf counters: cycles a read of each stream (MRDMA, BRDMA, NRDMA, ERDMA; SDP_RDMA's
  // D_PERF_ENABLE.PERF_DMA_EN) or a write (SDP's PERF_DMA_EN) waits on its port.
  logic [3:0][31:0] rd_stall;
  logic [31:0]      wr_stall;
  logic             rdma_perf_en, sdp_perf_dma_en;
  logic [31:0]      r_perf_enable;
  assign r_perf_enable   = rdma_d[(32'(nvdla_regs_pkg::SDP_RDMA_D_PERF_ENABLE_OFFSET) - RdmaDFirst) / 4];
  assign rdma_perf_en    = r_perf_enable[nvdla_regs_pkg::SDP_RDMA_D_PERF_ENABLE_PERF_DMA_EN_LSB];
  assign sdp_perf_dma_en = w_perf_enable[nvdla_regs_pkg::SDP_D_PERF_ENABLE_PERF_DMA_EN_LSB];
  for (genvar k = 0; k < NStreams; k++) begin : g_rd_stall
    dla_perf_cnt u_cnt (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .clr_i  (start),
      .en_i   (rdma_perf_en && running_q),
      .inc_i  (eng_req_valid[k] && !eng_req_ready[k]),
      .count_o(rd_stall[k])
    );
  end
  dla_perf_cnt u_wr_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (sdp_perf_dma_en && running_q),
    .inc_i  (dma_wr_req_valid_o && !dma_wr_req_ready_i),
    .count_o(wr_stall)
  );
  localparam int unsigned IWrStall = (32'(nvdla_regs_pkg::SDP_D_PERF_WDMA_WRITE_STALL_OFFSET) - SdpDFirst) / 4;
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
    rdma_hw_wdata[IMStall]  = rd_stall[0];
    rdma_hw_wdata[IBStall]  = rd_stall[1];
    rdma_hw_wdata[INStall]  = rd_stall[2];
    rdma_hw_wdata[IEStall]  = rd_stall[3];
  end

  // Status and counters land in the finished group's read-only registers.
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
    if (done) begin
      sdp_hw_we[IStatus] = 1'b1;
      sdp_hw_we[ISat]    = 1'b1;
      sdp_hw_we[IUflow]  = 1'b1;
      sdp_hw_we[IOflow]  = 1'b1;
      sdp_hw_we[IHybrid] = 1'b1;
      sdp_hw_we[ILeHit]  = 1'b1;
      sdp_hw_we[ILoHit]  = 1'b1;
      sdp_hw_we[IWrStall] = 1'b1;
    end
    sdp_hw_wdata[IWrStall] = wr_stall;
    sdp_hw_wdata[IStatus] = {31'd0, unequal_q};
    sdp_hw_wdata[ISat]    = sat_cnt;
    sdp_hw_wdata[IUflow]  = st_uflow;
    sdp_hw_wdata[IOflow]  = st_oflow;
    sdp_hw_wdata[IHybrid] = st_hybrid;
    sdp_hw_wdata[ILeHit]  = st_le_hit;
    sdp_hw_wdata[ILoHit]  = st_lo_hit;
  end

  logic unused;
  assign unused = ^{rdma_hit, sdp_hit, rdma_s_we, rdma_s_re, rdma_s_off, rdma_s_wdata, rdma_consumer, lut_busy,
                    prog_ready, prog_rsp_valid, prog_rsp_err, prog_err, lut_uflow, lut_oflow, lut_le_hit,
                    lut_lo_hit, lut_lo_sel, lut_mask, fifo_valid, fly_held, desc_level, id_level,
                    eng_mem_rsp_ready, lane_mul_off[0], rq_level};
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the layer sequencer and the valid/ready ports.
  CovStart: cover property (@(posedge clk_i) start);
  CovRunning: cover property (@(posedge clk_i) running_q);
  CovLayerDone: cover property (@(posedge clk_i) done);
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
  CovDmaRdReqFire: cover property (@(posedge clk_i) dma_rd_req_valid_o && dma_rd_req_ready_i);
  CovDmaRdReqStall: cover property (@(posedge clk_i) dma_rd_req_valid_o && !dma_rd_req_ready_i);
  CovDmaRdRspFire: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && dma_rd_rsp_ready_o);
  CovDmaRdRspStall: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && !dma_rd_rsp_ready_o);
  CovDmaWrReqFire: cover property (@(posedge clk_i) dma_wr_req_valid_o && dma_wr_req_ready_i);
  CovDmaWrReqStall: cover property (@(posedge clk_i) dma_wr_req_valid_o && !dma_wr_req_ready_i);
  CovFlyInFire: cover property (@(posedge clk_i) fly_valid_i && fly_ready_o);
  CovFlyInStall: cover property (@(posedge clk_i) fly_valid_i && !fly_ready_o);
  CovPdpOutFire: cover property (@(posedge clk_i) pdp_valid_o && pdp_ready_i);
  CovPdpOutStall: cover property (@(posedge clk_i) pdp_valid_o && !pdp_ready_i);
`endif
endmodule
