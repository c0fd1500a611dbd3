// Synthesis wrapper: nv_large's and nv_full's cdp_core (32-byte atom, CDP_THROUGHPUT 8) with 8
// DMA reads in flight instead of 72 / 136 (the depth of the read engine's latency buffer; every
// lane and the whole datapath are there). Parameter-free, because Yosys 0.55 asserts when
// -chparam re-derives a module with parameterized children (docs/SYNTHESIS.md).
module cdp_core_synth_t8 (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         csb_req_valid_i,
  output logic         csb_req_ready_o,
  input  logic [31:0]  csb_req_addr_i,
  input  logic         csb_req_write_i,
  input  logic [31:0]  csb_req_wdata_i,
  output logic         csb_rsp_valid_o,
  output logic [31:0]  csb_rsp_rdata_o,
  output logic         dma_rd_req_valid_o,
  input  logic         dma_rd_req_ready_i,
  output logic [63:0]  dma_rd_req_addr_o,
  input  logic         dma_rd_rsp_valid_i,
  output logic         dma_rd_rsp_ready_o,
  input  logic [255:0] dma_rd_rsp_data_i,
  output logic         dma_wr_req_valid_o,
  input  logic         dma_wr_req_ready_i,
  output logic [63:0]  dma_wr_req_addr_o,
  output logic [255:0] dma_wr_req_data_o,
  output logic [31:0]  dma_wr_req_mask_o,
  output logic [1:0]   intr_o
);
  cdp_core #(
    .AtomLog2   (5),
    .CdpBase    (32'hf000),
    .RdmaBase   (32'he000),
    .Throughput (8),
    .MaxInFlight(8)
  ) u_cdp (
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
    .intr_o            (intr_o)
  );
endmodule
