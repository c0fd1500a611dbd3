// NVDLA core with the units that exist so far: the direct-convolution pipeline (conv_core:
// CDMA, CBUF, CSC, CMAC_A/B, CACC) flying into SDP (sdp_core: SDP, SDP_RDMA) (docs/CONV_RTL.md).
//   * CSB: one port fanned out to all three; every block decodes its own 4 KiB window, the read data
//     of the blocks that did not hit is 0, so the answers are ORed;
//   * DMA read: one port shared by SDP_RDMA and CDMA, fixed priority to SDP; the grant is held
//     while a request waits, and a tag FIFO routes the in-order responses back;
//   * DMA write: SDP only;
//   * GLB (nvdla_glb, also on the CSB): the units' done pulses (SDP_DONE, CACC_DONE,
//     CDMA_DAT_DONE, CDMA_WT_DONE per register group) set S_INTR_STATUS; intr_o is GLB's level
//     interrupt (NVDLA's dla_intr), |(S_INTR_STATUS & ~S_INTR_MASK).
module nvdla_core #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned DataRows     = 8192,
  parameter int unsigned WtRows       = 8192,
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
  localparam int unsigned TagDepth = 128;  // >= CDMA's 64 + SDP's 1 reads in flight
  localparam int unsigned TagW     = $clog2(TagDepth);

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
    .DataRows    (DataRows),
    .WtRows      (WtRows),
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
    .intr_o            (sdp_intr)
  );

  // ---------------------------------------------------------------- CSB
  logic        glb_csb_ready, glb_rsp_valid;
  logic [31:0] glb_rsp_rdata;
  assign csb_req_ready_o = conv_csb_ready && sdp_csb_ready && glb_csb_ready;
  assign csb_rsp_valid_o = conv_rsp_valid || sdp_rsp_valid || glb_rsp_valid;
  assign csb_rsp_rdata_o = conv_rsp_rdata | sdp_rsp_rdata | glb_rsp_rdata;

  // ---------------------------------------------------------------- DMA read arbiter
  logic            sel, sel_q, hold_q, tag_full, req_fire, rsp_fire, head;
  logic [TagW:0]   tag_cnt_q;
  logic [TagW-1:0] tag_wr_q, tag_rd_q;
  logic            tags_q [TagDepth];

  assign tag_full = tag_cnt_q == (TagW + 1)'(TagDepth);
  // fixed priority to SDP, but a request that is waiting keeps the grant
  assign sel                = hold_q ? sel_q : !m_req_valid[0];
  assign dma_rd_req_valid_o = !tag_full && m_req_valid[sel];
  assign dma_rd_req_addr_o  = m_req_addr[sel];
  assign req_fire           = dma_rd_req_valid_o && dma_rd_req_ready_i;
  assign m_req_ready[0]     = !tag_full && dma_rd_req_ready_i && !sel;
  assign m_req_ready[1]     = !tag_full && dma_rd_req_ready_i && sel;

  assign head               = tags_q[tag_rd_q];
  assign m_rsp_valid[0]     = dma_rd_rsp_valid_i && tag_cnt_q != '0 && !head;
  assign m_rsp_valid[1]     = dma_rd_rsp_valid_i && tag_cnt_q != '0 && head;
  assign dma_rd_rsp_ready_o = tag_cnt_q != '0 && m_rsp_ready[head];
  assign rsp_fire           = dma_rd_rsp_valid_i && dma_rd_rsp_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_q     <= 1'b0;
      hold_q    <= 1'b0;
      tag_cnt_q <= '0;
      tag_wr_q  <= '0;
      tag_rd_q  <= '0;
    end else begin
      sel_q  <= sel;
      hold_q <= dma_rd_req_valid_o && !dma_rd_req_ready_i;
      if (req_fire) tag_wr_q <= tag_wr_q + 1'b1;
      if (rsp_fire) tag_rd_q <= tag_rd_q + 1'b1;
      tag_cnt_q <= tag_cnt_q + (TagW + 1)'(req_fire) - (TagW + 1)'(rsp_fire);
    end
  end
  always_ff @(posedge clk_i) begin
    if (req_fire) tags_q[tag_wr_q] <= sel;
  end

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
endmodule
