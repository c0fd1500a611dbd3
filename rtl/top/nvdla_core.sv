// NVDLA core with the units that exist so far: the direct-convolution pipeline (conv_core:
// CDMA, CBUF, CSC, CMAC_A/B, CACC) flying into SDP (sdp_core: SDP, SDP_RDMA) (docs/CONV_RTL.md).
//   * CSB: one port fanned out to all three; every block decodes its own 4 KiB window, the read data
//     of the blocks that did not hit is 0, so the answers are ORed (dla_csb_merge);
//   * DMA read: one port shared by SDP_RDMA and CDMA, round robin (dla_rr_arb); the grant is
//     held while a request waits, and a tag FIFO (dla_fifo) routes the in-order responses back;
//   * DMA write: SDP only;
//   * GLB (nvdla_glb, also on the CSB): the units' done pulses (SDP_DONE, CACC_DONE,
//     CDMA_DAT_DONE, CDMA_WT_DONE per register group) set S_INTR_STATUS; intr_o is GLB's level
//     interrupt (NVDLA's dla_intr), |(S_INTR_STATUS & ~S_INTR_MASK).
module nvdla_core #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned CbufBanks    = 32,
  parameter int unsigned CbufEntries  = 512,
  parameter int unsigned StripeLower  = 8,
  parameter int unsigned StripeUpper  = 16,
  parameter logic [31:0] CdmaBase     = 32'h3000,
  parameter logic [31:0] CscBase      = 32'h4000,
  parameter logic [31:0] CmacABase    = 32'h5000,
  parameter logic [31:0] CmacBBase    = 32'h6000,
  parameter logic [31:0] CaccBase     = 32'h7000,
  parameter logic [31:0] SdpRdmaBase  = 32'h8000,
  parameter logic [31:0] SdpBase      = 32'h9000,
  parameter logic [31:0] GlbBase      = 32'h1000,
  parameter int unsigned FlyLanes     = 1,  // CACC -> SDP elements per cycle (SDP throughput)
  parameter bit          SupportWino  = 1'b0,  // Winograd convolution (nv_full)
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned AtomBits    = 8 * AtomBytes
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
  // DMA read
  output logic                  dma_rd_req_valid_o,
  input  logic                  dma_rd_req_ready_i,
  output logic [63:0]           dma_rd_req_addr_o,
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]   dma_rd_rsp_data_i,
  // DMA write
  output logic                  dma_wr_req_valid_o,
  input  logic                  dma_wr_req_ready_i,
  output logic [63:0]           dma_wr_req_addr_o,
  output logic [AtomBits-1:0]   dma_wr_req_data_o,
  output logic [AtomBytes-1:0]  dma_wr_req_mask_o,
  // level interrupt (GLB)
  output logic                  intr_o
);
  localparam int unsigned TagDepth = 128;  // >= CDMA's 64 + SDP's 4 streams x RdSlots (8) in flight
  logic [AtomBits-1:0] unused_rsp_data;  // each master takes dma_rd_rsp_data_i directly
  logic                unused_pdp_valid;
  logic [AtomBits-1:0] unused_pdp_data;

  // ---------------------------------------------------------------- units
  logic        conv_csb_ready, sdp_csb_ready, conv_rsp_valid, sdp_rsp_valid;
  logic [31:0] conv_rsp_rdata, sdp_rsp_rdata;
  logic        fly_valid, fly_ready;
  logic [FlyLanes-1:0][31:0] fly_data;
  logic [5:0]  conv_intr;
  logic [1:0]  sdp_intr;
  // DMA read, per master: 0 = SDP, 1 = CDMA
  logic [1:0]        m_req_valid, m_req_ready, m_rsp_valid, m_rsp_ready;
  logic [1:0][63:0]  m_req_addr;

  conv_core #(
    .AtomLog2    (AtomLog2),
    .AtomicC     (AtomicC),
    .NumCells    (NumCells),
    .SupportInt16(SupportInt16),
    .CbufBanks   (CbufBanks),
    .CbufEntries (CbufEntries),
    .StripeLower (StripeLower),
    .StripeUpper (StripeUpper),
    .CdmaBase    (CdmaBase),
    .CscBase     (CscBase),
    .CmacABase   (CmacABase),
    .CmacBBase   (CmacBBase),
    .CaccBase    (CaccBase),
    .FlyLanes    (FlyLanes),
    .SupportWino (SupportWino)
  ) u_conv (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (conv_csb_ready),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (conv_rsp_valid),
    .csb_rsp_rdata_o   (conv_rsp_rdata),
    .dma_rd_req_valid_o(m_req_valid[1]),
    .dma_rd_req_ready_i(m_req_ready[1]),
    .dma_rd_req_addr_o (m_req_addr[1]),
    .dma_rd_rsp_valid_i(m_rsp_valid[1]),
    .dma_rd_rsp_ready_o(m_rsp_ready[1]),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .fly_valid_o       (fly_valid),
    .fly_ready_i       (fly_ready),
    .fly_data_o        (fly_data),
    .intr_o            (conv_intr)
  );

  sdp_core #(
    .AtomLog2(AtomLog2),
    .SdpBase (SdpBase),
    .RdmaBase(SdpRdmaBase),
    .Lanes   (FlyLanes)
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
    .dma_rd_req_valid_o(m_req_valid[0]),
    .dma_rd_req_ready_i(m_req_ready[0]),
    .dma_rd_req_addr_o (m_req_addr[0]),
    .dma_rd_rsp_valid_i(m_rsp_valid[0]),
    .dma_rd_rsp_ready_o(m_rsp_ready[0]),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .dma_wr_req_valid_o(dma_wr_req_valid_o),
    .dma_wr_req_ready_i(dma_wr_req_ready_i),
    .dma_wr_req_addr_o (dma_wr_req_addr_o),
    .dma_wr_req_data_o (dma_wr_req_data_o),
    .dma_wr_req_mask_o (dma_wr_req_mask_o),
    .fly_valid_i       (fly_valid),
    .fly_ready_o       (fly_ready),
    .fly_data_i        (fly_data),
    // no PDP in this top: OUTPUT_DST = PDP output is dropped (the RTL device refuses PDP blocks)
    .pdp_valid_o       (unused_pdp_valid),
    .pdp_ready_i       (1'b1),
    .pdp_data_o        (unused_pdp_data),
    .intr_o            (sdp_intr)
  );

  // ---------------------------------------------------------------- CSB
  logic        glb_csb_ready, glb_rsp_valid;
  logic [31:0] glb_rsp_rdata;
  dla_csb_merge #(
    .N(3)
  ) u_csb (
    .req_ready_i({glb_csb_ready, sdp_csb_ready, conv_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, sdp_rsp_valid, conv_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, sdp_rsp_rdata, conv_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );

  // ---------------------------------------------------------------- DMA read arbiter
  // Round robin between the masters; a tag FIFO routes the in-order responses (dla_dma_rd_mux).
  dla_dma_rd_mux #(
    .N       (2),
    .DataW   (AtomBits),
    .TagDepth(TagDepth)
  ) u_rd_mux (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .m_req_valid_i(m_req_valid),
    .m_req_ready_o(m_req_ready),
    .m_req_addr_i (m_req_addr),
    .m_rsp_valid_o(m_rsp_valid),
    .m_rsp_ready_i(m_rsp_ready),
    .m_rsp_data_o (unused_rsp_data),
    .req_valid_o  (dma_rd_req_valid_o),
    .req_ready_i  (dma_rd_req_ready_i),
    .req_addr_o   (dma_rd_req_addr_o),
    .rsp_valid_i  (dma_rd_rsp_valid_i),
    .rsp_ready_o  (dma_rd_rsp_ready_o),
    .rsp_data_i   (dma_rd_rsp_data_i)
  );

  // ---------------------------------------------------------------- interrupts
  // conv_intr: [1:0] CACC_DONE, [3:2] CDMA_DAT_DONE, [5:4] CDMA_WT_DONE (bit 0 of a pair: group 0)
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
    .sdp_done_i     (sdp_intr),
    .cdp_done_i     (2'b00),
    .pdp_done_i     (2'b00),
    .bdma_done_i    (2'b00),
    .rubik_done_i   (2'b00),
    .cdma_dat_done_i(conv_intr[3:2]),
    .cdma_wt_done_i (conv_intr[5:4]),
    .cacc_done_i    (conv_intr[1:0]),
    .intr_o         (intr_o)
  );

  logic unused;
  assign unused = ^{unused_rsp_data, unused_pdp_valid, unused_pdp_data};
endmodule
