// SDP-only NVDLA top: sdp_core (SDP, SDP_RDMA) and the GLB interrupt block (nvdla_glb) on one
// CSB port; the verilated model of the SDP-only builds (Vsdp_nv_small, Vsdp_nv_full).
//   * CSB: both blocks see every request and decode their own 4 KiB window; the one that did not
//     hit answers 0, so the read data are ORed (dla_csb_merge);
//   * DMA and the flying input: sdp_core's ports, passed through;
//   * intr_o: GLB's level interrupt (NVDLA's dla_intr), |(S_INTR_STATUS & ~S_INTR_MASK).
module nvdla_sdp_top #(
  parameter int unsigned AtomLog2 = 3,  // 8-byte memory atom (nv_small); 5 for nv_full
  parameter logic [31:0] SdpBase  = 32'h9000,
  parameter logic [31:0] RdmaBase = 32'h8000,
  parameter int unsigned Lanes    = 1,  // SDP elements per cycle (sdp_core)
  parameter int unsigned RdSlots  = 8,  // SDP_RDMA reads in flight per stream (sdp_core)
  parameter logic [31:0] GlbBase  = 32'h1000,
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // CSB
  input  logic                   csb_req_valid_i,
  output logic                   csb_req_ready_o,
  input  logic [31:0]            csb_req_addr_i,
  input  logic                   csb_req_write_i,
  input  logic [31:0]            csb_req_wdata_i,
  output logic                   csb_rsp_valid_o,
  output logic [31:0]            csb_rsp_rdata_o,
  // DMA read
  output logic                   dma_rd_req_valid_o,
  input  logic                   dma_rd_req_ready_i,
  output logic [63:0]            dma_rd_req_addr_o,
  input  logic                   dma_rd_rsp_valid_i,
  output logic                   dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]    dma_rd_rsp_data_i,
  // DMA write
  output logic                   dma_wr_req_valid_o,
  input  logic                   dma_wr_req_ready_i,
  output logic [63:0]            dma_wr_req_addr_o,
  output logic [AtomBits-1:0]    dma_wr_req_data_o,
  output logic [AtomBytes-1:0]   dma_wr_req_mask_o,
  // flying input
  input  logic                   fly_valid_i,
  output logic                   fly_ready_o,
  input  logic [Lanes-1:0][31:0] fly_data_i,
  // level interrupt
  output logic                   intr_o
);
  logic        sdp_csb_ready, glb_csb_ready, sdp_rsp_valid, glb_rsp_valid;
  logic [31:0] sdp_rsp_rdata, glb_rsp_rdata;
  logic [1:0]  sdp_done;

  sdp_core #(
    .AtomLog2(AtomLog2),
    .SdpBase (SdpBase),
    .RdmaBase(RdmaBase),
    .Lanes   (Lanes),
    .RdSlots (RdSlots)
  ) u_sdp (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (sdp_csb_ready),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (sdp_rsp_valid),
    .csb_rsp_rdata_o   (sdp_rsp_rdata),
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
    .intr_o            (sdp_done)
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
    .sdp_done_i     (sdp_done),
    .cdp_done_i     (2'b00),
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
    .req_ready_i({glb_csb_ready, sdp_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, sdp_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, sdp_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );
endmodule
