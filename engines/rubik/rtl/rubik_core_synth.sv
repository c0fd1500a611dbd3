// Synthesis wrapper of rubik_core (nvdlav1 base 0x10000). Parameter-free, because Yosys 0.55
// asserts when -chparam re-derives a module with parameterized children (docs/SYNTHESIS.md); the
// configuration comes from defines:
//   (none)              nv_full as verilated (Vrubik_nv_full): 32-byte atoms (two 32 x 32-byte
//                       transpose banks), 136 DMA reads in flight: synth:rubik_nv_full
//   RUBIK_SYNTH_SMALL   8-byte atoms (8 x 8-byte banks), 4 DMA reads in flight: the same logic --
//                       register groups, the three walks, both transpose banks, statistics -- at
//                       a size synthesized in seconds: by hand only (docs/SYNTHESIS.md)
`ifdef RUBIK_SYNTH_SMALL
`define RUBIK_SYNTH_ATOM_LOG2 3
`define RUBIK_SYNTH_READS 4
`else
`define RUBIK_SYNTH_ATOM_LOG2 5
`define RUBIK_SYNTH_READS 136
`endif
`define RUBIK_SYNTH_BITS (8 << `RUBIK_SYNTH_ATOM_LOG2)
module rubik_core_synth (
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
  input  logic [`RUBIK_SYNTH_BITS-1:0] dma_rd_rsp_data_i,
  output logic         dma_wr_req_valid_o,
  input  logic         dma_wr_req_ready_i,
  output logic [63:0]  dma_wr_req_addr_o,
  output logic [`RUBIK_SYNTH_BITS-1:0] dma_wr_req_data_o,
  output logic [`RUBIK_SYNTH_BITS/8-1:0] dma_wr_req_mask_o,
  output logic [1:0]   done_o
);
  rubik_core #(
    .Base       (32'h10000),
    .MaxInFlight(`RUBIK_SYNTH_READS),
    .AtomLog2   (`RUBIK_SYNTH_ATOM_LOG2)
  ) u_rubik (
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
