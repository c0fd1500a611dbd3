// Synthesis wrapper of sdp_core with fp16 processing (nv_full's 32-byte atom, SupportFp16) at one
// lane: every module of nv_full's datapath, float stages included, appears once (the 16 lanes are
// 16 instances of the same modules: 2.16 M cells and 245 s of CPU at Lanes 16, measured
// 2026-11-30, against the CI budget). Parameter-free, because Yosys 0.55 asserts when -chparam
// re-derives a module with parameterized children (docs/SYNTHESIS.md); 8 reads in flight per
// stream instead of 264 (the depth of the read engines' latency buffers): synth:sdp_fp16.
module sdp_core_synth (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          csb_req_valid_i,
  output logic          csb_req_ready_o,
  input  logic [31:0]   csb_req_addr_i,
  input  logic          csb_req_write_i,
  input  logic [31:0]   csb_req_wdata_i,
  output logic          csb_rsp_valid_o,
  output logic [31:0]   csb_rsp_rdata_o,
  output logic          dma_rd_req_valid_o,
  input  logic          dma_rd_req_ready_i,
  output logic [63:0]   dma_rd_req_addr_o,
  input  logic          dma_rd_rsp_valid_i,
  output logic          dma_rd_rsp_ready_o,
  input  logic [255:0]  dma_rd_rsp_data_i,
  output logic          dma_wr_req_valid_o,
  input  logic          dma_wr_req_ready_i,
  output logic [63:0]   dma_wr_req_addr_o,
  output logic [255:0]  dma_wr_req_data_o,
  output logic [31:0]   dma_wr_req_mask_o,
  input  logic          fly_valid_i,
  output logic          fly_ready_o,
  input  logic [31:0]   fly_data_i,
  output logic          pdp_valid_o,
  input  logic          pdp_ready_i,
  output logic [255:0]  pdp_data_o,
  output logic [1:0]    intr_o
);
  sdp_core #(
    .AtomLog2   (5),
    .SdpBase    (32'hb000),
    .RdmaBase   (32'ha000),
    .Lanes      (1),
    .RdSlots    (8),
    .SupportFp16(1'b1)
  ) u_sdp (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (csb_req_ready_o),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (csb_rsp_valid_o),
    .csb_rsp_rdata_o   (csb_rsp_rdata_o),
    .dma_rd_req_valid_o(dma_rd_req_valid_o),
    .dma_rd_req_ready_i(dma_rd_req_ready_i),
    .dma_rd_req_addr_o (dma_rd_req_addr_o),
    .dma_rd_rsp_valid_i(dma_rd_rsp_valid_i),
    .dma_rd_rsp_ready_o(dma_rd_rsp_ready_o),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .dma_wr_req_valid_o(dma_wr_req_valid_o),
    .dma_wr_req_ready_i(dma_wr_req_ready_i),
    .dma_wr_req_addr_o (dma_wr_req_addr_o),
    .dma_wr_req_data_o (dma_wr_req_data_o),
    .dma_wr_req_mask_o (dma_wr_req_mask_o),
    .fly_valid_i       (fly_valid_i),
    .fly_ready_o       (fly_ready_o),
    .fly_data_i        (fly_data_i),
    .pdp_valid_o       (pdp_valid_o),
    .pdp_ready_i       (pdp_ready_i),
    .pdp_data_o        (pdp_data_o),
    .intr_o            (intr_o)
  );
endmodule
