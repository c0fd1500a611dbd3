// Synthesis wrapper of bdma_core (32-byte atoms, nvdlav1 base 0x4000). Parameter-free, because
// Yosys 0.55 asserts when -chparam re-derives a module with parameterized children
// (docs/SYNTHESIS.md); the configuration comes from defines:
//   (none)             nv_full as verilated (Vbdma_nv_full): 20 command slots, 136 DMA reads in
//                      flight: synth:bdma_nv_full
//   BDMA_SYNTH_SMALL   4 command slots, 4 DMA reads in flight (the depths of the command FIFO and
//                      of the read engine's latency buffer; the register block, both walks and the
//                      batch logic are all there): by hand only (docs/SYNTHESIS.md)
`ifdef BDMA_SYNTH_SMALL
`define BDMA_SYNTH_SLOTS 4
`define BDMA_SYNTH_READS 4
`else
`define BDMA_SYNTH_SLOTS 20
`define BDMA_SYNTH_READS 136
`endif
module bdma_core_synth (
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
  output logic [1:0]   done_o
);
  bdma_core #(
    .Base       (32'h4000),
    .FifoDepth  (`BDMA_SYNTH_SLOTS),
    .MaxInFlight(`BDMA_SYNTH_READS)
  ) u_bdma (
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
    .done_o            (done_o)
  );
endmodule
