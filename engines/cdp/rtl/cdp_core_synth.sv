// Synthesis wrapper of cdp_core. Parameter-free, because Yosys 0.55 asserts when -chparam
// re-derives a module with parameterized children (docs/SYNTHESIS.md); the configuration comes
// from defines:
//   (none)        nv_small: 8-byte atom, CDP_THROUGHPUT 1, 8 DMA reads in flight (cdp_core's
//                 defaults, which synth:cdp_default synthesizes directly)
//   CDP_SYNTH_T8  nv_full: 32-byte atom, CDP_THROUGHPUT 8, 8 DMA reads in flight instead of 136
//                 (the depth of the read engine's latency buffer; every lane and the whole
//                 datapath are there), fp16 (the float square sum, LUT lanes and multiply; a
//                 superset of nv_large's): synth:cdp_t8
`ifdef CDP_SYNTH_T8
`define CDP_SYNTH_ATOM_LOG2 5
`define CDP_SYNTH_T 8
`define CDP_SYNTH_CDP_BASE 32'hf000
`define CDP_SYNTH_RDMA_BASE 32'he000
`define CDP_SYNTH_FP16 1'b1
`else
`define CDP_SYNTH_ATOM_LOG2 3
`define CDP_SYNTH_T 1
`define CDP_SYNTH_CDP_BASE 32'hd000
`define CDP_SYNTH_RDMA_BASE 32'hc000
`define CDP_SYNTH_FP16 1'b0
`endif
`define CDP_SYNTH_BITS (8 << `CDP_SYNTH_ATOM_LOG2)
module cdp_core_synth (
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
  input  logic [`CDP_SYNTH_BITS-1:0] dma_rd_rsp_data_i,
  output logic         dma_wr_req_valid_o,
  input  logic         dma_wr_req_ready_i,
  output logic [63:0]  dma_wr_req_addr_o,
  output logic [`CDP_SYNTH_BITS-1:0] dma_wr_req_data_o,
  output logic [`CDP_SYNTH_BITS/8-1:0] dma_wr_req_mask_o,
  output logic [1:0]   intr_o
);
  cdp_core #(
    .AtomLog2   (`CDP_SYNTH_ATOM_LOG2),
    .CdpBase    (`CDP_SYNTH_CDP_BASE),
    .RdmaBase   (`CDP_SYNTH_RDMA_BASE),
    .Throughput (`CDP_SYNTH_T),
    .MaxInFlight(8),
    .SupportFp16(`CDP_SYNTH_FP16)
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
