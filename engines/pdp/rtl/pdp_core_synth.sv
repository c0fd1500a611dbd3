// Synthesis wrapper of pdp_core with a line buffer of 4 columns instead of 4096 / atom (the full
// one is 8 banks x 512 x 8 lanes of flip-flops on nv_small, beyond the WebAssembly Yosys).
// Parameter-free, because Yosys 0.55 asserts when -chparam re-derives a module with
// parameterized children (docs/SYNTHESIS.md); the configuration comes from defines:
//   (none)        nv_small: 8-byte atom, PDP_THROUGHPUT 1, 16 reads in flight
//   PDP_SYNTH_T8  nv_full: 32-byte atom, PDP_THROUGHPUT 8, 8 reads in flight, fp16 (every
//                 lane, window and bank of the integer and fp16 datapaths is there)
`ifdef PDP_SYNTH_T8
`define PDP_SYNTH_ATOM_LOG2 5
`define PDP_SYNTH_T 8
`define PDP_SYNTH_READS 8
`define PDP_SYNTH_FP16 1'b1
`else
`define PDP_SYNTH_ATOM_LOG2 3
`define PDP_SYNTH_T 1
`define PDP_SYNTH_READS 16
`define PDP_SYNTH_FP16 1'b0
`endif
`define PDP_SYNTH_BITS (8 << `PDP_SYNTH_ATOM_LOG2)
module pdp_core_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        csb_req_valid_i,
  output logic        csb_req_ready_o,
  input  logic [31:0] csb_req_addr_i,
  input  logic        csb_req_write_i,
  input  logic [31:0] csb_req_wdata_i,
  output logic        csb_rsp_valid_o,
  output logic [31:0] csb_rsp_rdata_o,
  output logic        dma_rd_req_valid_o,
  input  logic        dma_rd_req_ready_i,
  output logic [63:0] dma_rd_req_addr_o,
  input  logic        dma_rd_rsp_valid_i,
  output logic        dma_rd_rsp_ready_o,
  input  logic [`PDP_SYNTH_BITS-1:0] dma_rd_rsp_data_i,
  output logic        dma_wr_req_valid_o,
  input  logic        dma_wr_req_ready_i,
  output logic [63:0] dma_wr_req_addr_o,
  output logic [`PDP_SYNTH_BITS-1:0] dma_wr_req_data_o,
  output logic [`PDP_SYNTH_BITS/8-1:0] dma_wr_req_mask_o,
  input  logic        fly_valid_i,
  output logic        fly_ready_o,
  input  logic [`PDP_SYNTH_BITS-1:0] fly_data_i,
  output logic [1:0]  intr_o
);
  pdp_core #(
    .AtomLog2   (`PDP_SYNTH_ATOM_LOG2),
    .Throughput (`PDP_SYNTH_T),
    .MaxInFlight(`PDP_SYNTH_READS),
    .MaxOutW    (4),
    .SupportFp16(`PDP_SYNTH_FP16)
  ) u_pdp (
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
    .intr_o            (intr_o)
  );
endmodule
