// CDP-only NVDLA top: cdp_core (CDP, CDP_RDMA) and the GLB interrupt block (nvdla_glb) on one
// CSB port; the verilated model of the CDP builds (Vcdp_nv_small, Vcdp_nv_large, Vcdp_nv_full).
//   * CSB: both blocks see every request and decode their own 4 KiB window; the one that did not
//     hit answers 0, so the read data are ORed (dla_csb_merge);
//   * DMA: cdp_core's ports, passed through;
//   * intr_o: GLB's level interrupt, |(S_INTR_STATUS & ~S_INTR_MASK) (CDP_DONE bits 2/3).
module nvdla_cdp_top #(
  parameter int unsigned AtomLog2   = 3,  // 8-byte memory atom (nv_small); 5 for nv_large/nv_full
  parameter logic [31:0] CdpBase    = 32'hd000,
  parameter logic [31:0] RdmaBase   = 32'hc000,
  parameter int unsigned Throughput = 1,  // CDP_THROUGHPUT
  parameter int unsigned RdSlots    = 8,  // DMA reads in flight
  parameter logic [31:0] GlbBase    = 32'h1000,
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // CSB
  input  logic                 csb_req_valid_i,
  output logic                 csb_req_ready_o,
  input  logic [31:0]          csb_req_addr_i,
  input  logic                 csb_req_write_i,
  input  logic [31:0]          csb_req_wdata_i,
  output logic                 csb_rsp_valid_o,
  output logic [31:0]          csb_rsp_rdata_o,
  // DMA read
  output logic                 dma_rd_req_valid_o,
  input  logic                 dma_rd_req_ready_i,
  output logic [63:0]          dma_rd_req_addr_o,
  input  logic                 dma_rd_rsp_valid_i,
  output logic                 dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]  dma_rd_rsp_data_i,
  // DMA write
  output logic                 dma_wr_req_valid_o,
  input  logic                 dma_wr_req_ready_i,
  output logic [63:0]          dma_wr_req_addr_o,
  output logic [AtomBits-1:0]  dma_wr_req_data_o,
  output logic [AtomBytes-1:0] dma_wr_req_mask_o,
  // level interrupt
  output logic                 intr_o
);
  logic        cdp_csb_ready, glb_csb_ready, cdp_rsp_valid, glb_rsp_valid;
  logic [31:0] cdp_rsp_rdata, glb_rsp_rdata;
  logic [1:0]  cdp_done;

  cdp_core #(
    .AtomLog2   (AtomLog2),
    .CdpBase    (CdpBase),
    .RdmaBase   (RdmaBase),
    .Throughput (Throughput),
    .MaxInFlight(RdSlots)
  ) u_cdp (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (cdp_csb_ready),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (cdp_rsp_valid),
    .csb_rsp_rdata_o   (cdp_rsp_rdata),
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
    .intr_o            (cdp_done)
  );

  nvdla_glb #(
    .GlbBase(GlbBase)
  ) u_glb (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .csb_req_valid_i(csb_req_valid_i),
    .csb_req_ready_o(glb_csb_ready),
    .csb_req_addr_i (csb_req_addr_i),
    .csb_req_write_i(csb_req_write_i),
    .csb_req_wdata_i(csb_req_wdata_i),
    .csb_rsp_valid_o(glb_rsp_valid),
    .csb_rsp_rdata_o(glb_rsp_rdata),
    .sdp_done_i     (2'b00),
    .cdp_done_i     (cdp_done),
    .pdp_done_i     (2'b00),
    .bdma_done_i    (2'b00),
    .rubik_done_i   (2'b00),
    .cdma_dat_done_i(2'b00),
    .cdma_wt_done_i (2'b00),
    .cacc_done_i    (2'b00),
    .intr_o         (intr_o)
  );

  dla_csb_merge #(
    .N(2)
  ) u_csb (
    .req_ready_i({glb_csb_ready, cdp_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, cdp_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, cdp_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );
endmodule
