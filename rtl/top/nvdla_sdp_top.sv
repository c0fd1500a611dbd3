// The post-processing NVDLA top: sdp_core (SDP, SDP_RDMA), pdp_core (PDP, PDP_RDMA) and the GLB
// interrupt block (nvdla_glb) on one CSB port; the verilated model of the SDP builds
// (Vsdp_nv_small, Vsdp_nv_large, Vsdp_nv_full).
//   * CSB: every block sees every request and decodes its own 4 KiB window; the ones that did not
//     hit answer 0, so the read data are ORed (dla_csb_merge);
//   * SDP -> PDP on the fly: SDP's output atoms (D_FEATURE_MODE_CFG.OUTPUT_DST = PDP) are PDP's
//     flying input (PDP FLYING_MODE = ON_FLYING);
//   * DMA read: SDP and PDP round robin onto the port, a tag FIFO routes the in-order responses
//     (dla_dma_rd_mux); DMA write: round robin (dla_rr_arb, a stalled grant is held);
//   * the flying input (from CACC in nvdla_core): sdp_core's port, passed through;
//   * intr_o: GLB's level interrupt (NVDLA's dla_intr), |(S_INTR_STATUS & ~S_INTR_MASK).
module nvdla_sdp_top #(
  parameter int unsigned AtomLog2 = 3,  // 8-byte memory atom (nv_small); 5 for nv_full
  parameter logic [31:0] SdpBase  = 32'h9000,
  parameter logic [31:0] RdmaBase = 32'h8000,
  parameter int unsigned Lanes    = 1,  // SDP elements per cycle (sdp_core)
  parameter int unsigned RdSlots  = 8,  // SDP_RDMA reads in flight per stream (sdp_core)
  parameter logic [31:0] PdpBase     = 32'hb000,
  parameter logic [31:0] PdpRdmaBase = 32'ha000,
  parameter int unsigned PdpThroughput = 1,  // PDP_THROUGHPUT (pdp_core)
  parameter logic [31:0] GlbBase  = 32'h1000,
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes,
  localparam int unsigned PdpReads  = 16,  // pdp_core's MaxInFlight
  localparam int unsigned WrW       = 64 + AtomBits + AtomBytes
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
  logic        sdp_csb_ready, pdp_csb_ready, glb_csb_ready, sdp_rsp_valid, pdp_rsp_valid, glb_rsp_valid;
  logic [31:0] sdp_rsp_rdata, pdp_rsp_rdata, glb_rsp_rdata;
  logic [1:0]  sdp_done, pdp_done;
  logic                pdp_fly_valid, pdp_fly_ready;
  logic [AtomBits-1:0] pdp_fly_data;
  // DMA masters: 0 = SDP, 1 = PDP
  logic [1:0]          rd_req_valid, rd_req_ready, rd_rsp_valid, rd_rsp_ready, wr_valid, wr_ready;
  logic [1:0][63:0]    rd_req_addr;
  logic [AtomBits-1:0] rd_rsp_data;
  logic [1:0][WrW-1:0] wr_beat;
  logic [1:0][63:0]    wr_addr;
  logic [1:0][AtomBits-1:0]  wr_data;
  logic [1:0][AtomBytes-1:0] wr_mask;
  logic                wr_idx;

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
    .dma_rd_req_valid_o(rd_req_valid[0]),
    .dma_rd_req_ready_i(rd_req_ready[0]),
    .dma_rd_req_addr_o (rd_req_addr[0]),
    .dma_rd_rsp_valid_i(rd_rsp_valid[0]),
    .dma_rd_rsp_ready_o(rd_rsp_ready[0]),
    .dma_rd_rsp_data_i (rd_rsp_data),
    .dma_wr_req_valid_o(wr_valid[0]),
    .dma_wr_req_ready_i(wr_ready[0]),
    .dma_wr_req_addr_o (wr_addr[0]),
    .dma_wr_req_data_o (wr_data[0]),
    .dma_wr_req_mask_o (wr_mask[0]),
    .fly_valid_i       (fly_valid_i),
    .fly_ready_o       (fly_ready_o),
    .fly_data_i        (fly_data_i),
    .pdp_valid_o       (pdp_fly_valid),
    .pdp_ready_i       (pdp_fly_ready),
    .pdp_data_o        (pdp_fly_data),
    .intr_o            (sdp_done)
  );

  pdp_core #(
    .AtomLog2   (AtomLog2),
    .PdpBase    (PdpBase),
    .RdmaBase   (PdpRdmaBase),
    .Throughput (PdpThroughput),
    .MaxInFlight(PdpReads)
  ) u_pdp (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (pdp_csb_ready),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (pdp_rsp_valid),
    .csb_rsp_rdata_o   (pdp_rsp_rdata),
    .dma_rd_req_valid_o(rd_req_valid[1]),
    .dma_rd_req_ready_i(rd_req_ready[1]),
    .dma_rd_req_addr_o (rd_req_addr[1]),
    .dma_rd_rsp_valid_i(rd_rsp_valid[1]),
    .dma_rd_rsp_ready_o(rd_rsp_ready[1]),
    .dma_rd_rsp_data_i (rd_rsp_data),
    .dma_wr_req_valid_o(wr_valid[1]),
    .dma_wr_req_ready_i(wr_ready[1]),
    .dma_wr_req_addr_o (wr_addr[1]),
    .dma_wr_req_data_o (wr_data[1]),
    .dma_wr_req_mask_o (wr_mask[1]),
    .fly_valid_i       (pdp_fly_valid),
    .fly_ready_o       (pdp_fly_ready),
    .fly_data_i        (pdp_fly_data),
    .intr_o            (pdp_done)
  );

  dla_dma_rd_mux #(
    .N       (2),
    .DataW   (AtomBits),
    .TagDepth(4 * RdSlots + PdpReads)  // every read SDP_RDMA's four streams and PDP_RDMA keep in flight
  ) u_rd_mux (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .m_req_valid_i(rd_req_valid),
    .m_req_ready_o(rd_req_ready),
    .m_req_addr_i (rd_req_addr),
    .m_rsp_valid_o(rd_rsp_valid),
    .m_rsp_ready_i(rd_rsp_ready),
    .m_rsp_data_o (rd_rsp_data),
    .req_valid_o  (dma_rd_req_valid_o),
    .req_ready_i  (dma_rd_req_ready_i),
    .req_addr_o   (dma_rd_req_addr_o),
    .rsp_valid_i  (dma_rd_rsp_valid_i),
    .rsp_ready_o  (dma_rd_rsp_ready_o),
    .rsp_data_i   (dma_rd_rsp_data_i)
  );

  for (genvar m = 0; m < 2; m++) begin : g_wr
    assign wr_beat[m] = {wr_addr[m], wr_data[m], wr_mask[m]};
  end
  dla_rr_arb #(
    .N    (2),
    .Width(WrW)
  ) u_wr_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (wr_valid),
    .in_ready_o (wr_ready),
    .in_data_i  (wr_beat),
    .out_valid_o(dma_wr_req_valid_o),
    .out_ready_i(dma_wr_req_ready_i),
    .out_data_o ({dma_wr_req_addr_o, dma_wr_req_data_o, dma_wr_req_mask_o}),
    .out_idx_o  (wr_idx)
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
    .pdp_done_i     (pdp_done),
    .bdma_done_i    (2'b00),
    .rubik_done_i   (2'b00),
    .cdma_dat_done_i(2'b00),
    .cdma_wt_done_i (2'b00),
    .cacc_done_i    (2'b00),
    .intr_o         (intr_o)
  );

  dla_csb_merge #(
    .N(3)
  ) u_csb (
    .req_ready_i({glb_csb_ready, pdp_csb_ready, sdp_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, pdp_rsp_valid, sdp_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, pdp_rsp_rdata, sdp_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );

  logic unused;
  assign unused = wr_idx;
endmodule
