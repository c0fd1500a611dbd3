// NVDLA core with the units that exist so far: the convolution pipeline (conv_core: CDMA, CBUF,
// CSC, CMAC_A/B, CACC) flying into SDP (sdp_core: SDP, SDP_RDMA), and SDP flying into PDP
// (pdp_core: PDP, PDP_RDMA) when SDP's OUTPUT_DST is PDP (docs/CONV_RTL.md, docs/PDP_RTL.md).
//   * CSB: one port fanned out to all blocks; every block decodes its own 4 KiB window, the read
//     data of the blocks that did not hit is 0, so the answers are ORed (dla_csb_merge);
//   * DMA read: one port shared by four read clients, SDP_RDMA, CDMA_DAT, CDMA_WT and PDP_RDMA,
//     weighted round robin (RdWeights, 8 bits a client as NVDLA MCIF's CFG_RD_WEIGHT fields;
//     regs/hw_configs.json); a tag FIFO routes the in-order responses back (dla_dma_rd_mux). The
//     port is DmaAtoms atoms wide (the configuration's dma_bits: 512 bits on nv_full); a request
//     asks for 1 .. DmaAtoms consecutive atoms (dma_rd_req_len_o = atoms - 1), answered in one
//     beat, low lanes first (docs/DMA.md "The port"). SDP and PDP read one atom a request, CDMA's
//     clients up to DmaAtoms;
//   * DMA write: SDP and PDP, round robin (dla_rr_arb, a stalled grant is held);
//   * GLB (nvdla_glb, also on the CSB): the units' done pulses (SDP_DONE, PDP_DONE, CACC_DONE,
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
  parameter logic [31:0] PdpRdmaBase  = 32'ha000,
  parameter logic [31:0] PdpBase      = 32'hb000,
  parameter int unsigned PdpThroughput = 1,  // PDP_THROUGHPUT
  // SDP_RDMA's reads in flight per operand stream: enough to cover the memory latency at one read
  // per cycle (docs/DMA.md sizing; 8, sdp_core's synthesis default, keeps SDP latency-bound)
  parameter int unsigned SdpRdSlots   = 264,
  parameter logic [31:0] GlbBase      = 32'h1000,
  parameter int unsigned FlyLanes     = 1,  // CACC -> SDP elements per cycle (SDP throughput)
  parameter bit          SupportWino  = 1'b0,  // Winograd convolution (nv_full)
  parameter bit          SupportWfold = 1'b0,  // the W-fold CDMA data path (nv_full)
  parameter int unsigned DmaAtoms     = 1,  // atoms per read beat: dma_bits / (8 x atom_bytes)
  // reads in flight of CDMA's data and weight clients (docs/DMA.md sizing)
  parameter int unsigned CdmaDatRdSlots = 264,
  parameter int unsigned CdmaWtRdSlots  = 264,
  parameter int unsigned PdpRdSlots     = 16,  // PDP_RDMA's reads in flight
  // read arbiter weights, client i at [8i +: 8]: 0 SDP, 1 CDMA_DAT, 2 PDP, 3 CDMA_WT (NVDLA's
  // reset value of every MCIF CFG_RD_WEIGHT field is 1: plain round robin)
  parameter logic [31:0] RdWeights    = 32'h01010101,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned AtomBits    = 8 * AtomBytes,
  localparam int unsigned DmaBits     = AtomBits * DmaAtoms,
  localparam int unsigned LenW        = DmaAtoms > 1 ? $clog2(DmaAtoms) : 1,
  localparam int unsigned WrW         = 64 + AtomBits + AtomBytes
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
  output logic [LenW-1:0]       dma_rd_req_len_o,   // atoms - 1
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [DmaBits-1:0]    dma_rd_rsp_data_i,
  // DMA write
  output logic                  dma_wr_req_valid_o,
  input  logic                  dma_wr_req_ready_i,
  output logic [63:0]           dma_wr_req_addr_o,
  output logic [AtomBits-1:0]   dma_wr_req_data_o,
  output logic [AtomBytes-1:0]  dma_wr_req_mask_o,
  // level interrupt (GLB)
  output logic                  intr_o
);
  // the reads in flight on the port: CDMA's two clients' + SDP's 4 streams x SdpRdSlots + PDP_RDMA's
  localparam int unsigned TagDepth = CdmaDatRdSlots + CdmaWtRdSlots + 4 * SdpRdSlots + PdpRdSlots;
  logic [DmaBits-1:0]  unused_rsp_data;  // each master takes dma_rd_rsp_data_i directly
  logic [AtomBits-1:0] rsp_atom;         // the beat's first atom: PDP's reads

  // ---------------------------------------------------------------- units
  logic        conv_csb_ready, sdp_csb_ready, conv_rsp_valid, sdp_rsp_valid;
  logic [31:0] conv_rsp_rdata, sdp_rsp_rdata;
  logic        fly_valid, fly_ready;
  logic [FlyLanes-1:0][31:0] fly_data;
  logic [5:0]  conv_intr;
  logic [1:0]  sdp_intr, pdp_intr;
  logic        pdp_csb_ready, pdp_rsp_valid;
  logic [31:0] pdp_rsp_rdata;
  logic                pdp_fly_valid, pdp_fly_ready;
  logic [AtomBits-1:0] pdp_fly_data;
  // DMA read, per master: 0 = SDP, 1 = CDMA_DAT, 2 = PDP, 3 = CDMA_WT
  logic [3:0]        m_req_valid, m_req_ready, m_rsp_valid, m_rsp_ready;
  logic [3:0][63:0]  m_req_addr;
  logic [LenW-1:0]   cdma_dat_len, cdma_wt_len;
  logic [3:0][LenW+63:0] m_req;
  // DMA write, per master: 0 = SDP, 1 = PDP
  logic [1:0]                wr_valid, wr_ready;
  logic [1:0][63:0]          wr_addr;
  logic [1:0][AtomBits-1:0]  wr_data;
  logic [1:0][AtomBytes-1:0] wr_mask;
  logic [1:0][WrW-1:0]       wr_beat;
  logic                      wr_idx;

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
    .SupportWino (SupportWino),
    .SupportWfold(SupportWfold),
    .SupportFp16 (SupportInt16),  // NVDLA v1 (nv_full) has int16 and fp16 together
    .DmaAtoms    (DmaAtoms),
    .DatRdSlots  (CdmaDatRdSlots),
    .WtRdSlots   (CdmaWtRdSlots)
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
    .dat_rd_req_valid_o(m_req_valid[1]),
    .dat_rd_req_ready_i(m_req_ready[1]),
    .dat_rd_req_addr_o (m_req_addr[1]),
    .dat_rd_req_len_o  (cdma_dat_len),
    .dat_rd_rsp_valid_i(m_rsp_valid[1]),
    .dat_rd_rsp_ready_o(m_rsp_ready[1]),
    .dat_rd_rsp_data_i (dma_rd_rsp_data_i),
    .wt_rd_req_valid_o (m_req_valid[3]),
    .wt_rd_req_ready_i (m_req_ready[3]),
    .wt_rd_req_addr_o  (m_req_addr[3]),
    .wt_rd_req_len_o   (cdma_wt_len),
    .wt_rd_rsp_valid_i (m_rsp_valid[3]),
    .wt_rd_rsp_ready_o (m_rsp_ready[3]),
    .wt_rd_rsp_data_i  (dma_rd_rsp_data_i),
    .fly_valid_o       (fly_valid),
    .fly_ready_i       (fly_ready),
    .fly_data_o        (fly_data),
    .intr_o            (conv_intr)
  );

  sdp_core #(
    .AtomLog2(AtomLog2),
    .SdpBase (SdpBase),
    .RdmaBase(SdpRdmaBase),
    .Lanes   (FlyLanes),
    .RdSlots (SdpRdSlots),
    .SupportFp16(SupportInt16),  // NVDLA v1 (nv_full) has int16 and fp16 together
    .FetchAtoms(DmaAtoms)
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
    .dma_wr_req_valid_o(wr_valid[0]),
    .dma_wr_req_ready_i(wr_ready[0]),
    .dma_wr_req_addr_o (wr_addr[0]),
    .dma_wr_req_data_o (wr_data[0]),
    .dma_wr_req_mask_o (wr_mask[0]),
    .fly_valid_i       (fly_valid),
    .fly_ready_o       (fly_ready),
    .fly_data_i        (fly_data),
    .pdp_valid_o       (pdp_fly_valid),
    .pdp_ready_i       (pdp_fly_ready),
    .pdp_data_o        (pdp_fly_data),
    .intr_o            (sdp_intr)
  );

  pdp_core #(
    .AtomLog2   (AtomLog2),
    .PdpBase    (PdpBase),
    .RdmaBase   (PdpRdmaBase),
    .Throughput (PdpThroughput),
    .MaxInFlight(PdpRdSlots),
    .SupportFp16(SupportInt16)  // NVDLA v1 (nv_full) has int16 and fp16 together
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
    .dma_rd_req_valid_o(m_req_valid[2]),
    .dma_rd_req_ready_i(m_req_ready[2]),
    .dma_rd_req_addr_o (m_req_addr[2]),
    .dma_rd_rsp_valid_i(m_rsp_valid[2]),
    .dma_rd_rsp_ready_o(m_rsp_ready[2]),
    .dma_rd_rsp_data_i (rsp_atom),
    .dma_wr_req_valid_o(wr_valid[1]),
    .dma_wr_req_ready_i(wr_ready[1]),
    .dma_wr_req_addr_o (wr_addr[1]),
    .dma_wr_req_data_o (wr_data[1]),
    .dma_wr_req_mask_o (wr_mask[1]),
    .fly_valid_i       (pdp_fly_valid),
    .fly_ready_o       (pdp_fly_ready),
    .fly_data_i        (pdp_fly_data),
    .intr_o            (pdp_intr)
  );

  // ---------------------------------------------------------------- DMA write arbiter
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

  // ---------------------------------------------------------------- CSB
  logic        glb_csb_ready, glb_rsp_valid;
  logic [31:0] glb_rsp_rdata;
  dla_csb_merge #(
    .N(4)
  ) u_csb (
    .req_ready_i({pdp_csb_ready, glb_csb_ready, sdp_csb_ready, conv_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({pdp_rsp_valid, glb_rsp_valid, sdp_rsp_valid, conv_rsp_valid}),
    .rsp_rdata_i({pdp_rsp_rdata, glb_rsp_rdata, sdp_rsp_rdata, conv_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );

  // ---------------------------------------------------------------- DMA read arbiter
  // Weighted round robin between the masters; a tag FIFO routes the in-order responses
  // (dla_dma_rd_mux). A request is {length, address}: SDP a whole beat (its aligned block of
  // DmaAtoms atoms), PDP one atom (length 0).
  assign rsp_atom = dma_rd_rsp_data_i[AtomBits-1:0];
  assign m_req[0] = {LenW'(DmaAtoms - 1), m_req_addr[0]};
  assign m_req[1] = {cdma_dat_len, m_req_addr[1]};
  assign m_req[2] = {LenW'(0), m_req_addr[2]};
  assign m_req[3] = {cdma_wt_len, m_req_addr[3]};
  dla_dma_rd_mux #(
    .N       (4),
    .DataW   (DmaBits),
    .TagDepth(TagDepth),
    .ReqW    (LenW + 64),
    .WeightW (8),
    .Weights (RdWeights)
  ) u_rd_mux (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .m_req_valid_i(m_req_valid),
    .m_req_ready_o(m_req_ready),
    .m_req_addr_i (m_req),
    .m_rsp_valid_o(m_rsp_valid),
    .m_rsp_ready_i(m_rsp_ready),
    .m_rsp_data_o (unused_rsp_data),
    .req_valid_o  (dma_rd_req_valid_o),
    .req_ready_i  (dma_rd_req_ready_i),
    .req_addr_o   ({dma_rd_req_len_o, dma_rd_req_addr_o}),
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
    .pdp_done_i     (pdp_intr),
    .bdma_done_i    (2'b00),
    .rubik_done_i   (2'b00),
    .cdma_dat_done_i(conv_intr[3:2]),
    .cdma_wt_done_i (conv_intr[5:4]),
    .cacc_done_i    (conv_intr[1:0]),
    .intr_o         (intr_o)
  );

  logic unused;
  assign unused = ^{unused_rsp_data, wr_idx};
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the CSB and DMA ports.
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
  CovDmaRdReqFire: cover property (@(posedge clk_i) dma_rd_req_valid_o && dma_rd_req_ready_i);
  CovDmaRdReqStall: cover property (@(posedge clk_i) dma_rd_req_valid_o && !dma_rd_req_ready_i);
  CovDmaRdRspFire: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && dma_rd_rsp_ready_o);
  CovDmaRdRspStall: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && !dma_rd_rsp_ready_o);
  CovDmaWrReqFire: cover property (@(posedge clk_i) dma_wr_req_valid_o && dma_wr_req_ready_i);
  CovDmaWrReqStall: cover property (@(posedge clk_i) dma_wr_req_valid_o && !dma_wr_req_ready_i);
`endif
endmodule
