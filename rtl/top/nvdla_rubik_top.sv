// RUBIK-only NVDLA top: rubik_core and the GLB interrupt block (nvdla_glb) on one CSB port; the
// verilated model of the RUBIK build (Vrubik_nv_full). A copy of nvdla_bdma_top's wiring.
//   * CSB: both blocks see every request and decode their own 4 KiB window; the one that did not
//     hit answers 0, so the read data are ORed (dla_csb_merge);
//   * DMA: rubik_core's ports (32-byte atoms), passed through;
//   * intr_o: GLB's level interrupt, |(S_INTR_STATUS & ~S_INTR_MASK) (RUBIK_DONE bits 8/9).
module nvdla_rubik_top #(
  parameter logic [31:0] RbkBase   = 32'h10000,
  parameter int unsigned RdSlots   = 8,  // DMA reads in flight
  parameter logic [31:0] GlbBase   = 32'h0,
  localparam int unsigned AtomBytes = 32,
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
  logic        rbk_csb_ready, glb_csb_ready, rbk_rsp_valid, glb_rsp_valid;
  logic [31:0] rbk_rsp_rdata, glb_rsp_rdata;
  logic [1:0]  rbk_done;

  rubik_core #(
    .Base       (RbkBase),
    .MaxInFlight(RdSlots)
  ) u_rubik (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (rbk_csb_ready),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (rbk_rsp_valid),
    .csb_rsp_rdata_o   (rbk_rsp_rdata),
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
    .done_o            (rbk_done)
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
    .cdp_done_i     (2'b00),
    .pdp_done_i     (2'b00),
    .bdma_done_i    (2'b00),
    .rubik_done_i   (rbk_done),
    .cdma_dat_done_i(2'b00),
    .cdma_wt_done_i (2'b00),
    .cacc_done_i    (2'b00),
    .intr_o         (intr_o)
  );

  dla_csb_merge #(
    .N(2)
  ) u_csb (
    .req_ready_i({glb_csb_ready, rbk_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, rbk_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, rbk_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );
endmodule
