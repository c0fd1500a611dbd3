// Single-engine NVDLA top: one engine core and the GLB interrupt block (nvdla_glb) on one CSB
// port. One module for the three engines that run alone in the harness; the harness names its
// builds nvdla_bdma_top (Vbdma_nv_full), nvdla_cdp_top (Vcdp_nv_small, Vcdp_nv_large, Vcdp_nv_full)
// and nvdla_rubik_top (Vrubik_nv_full).
//   * Engine: "bdma" (bdma_core), "cdp" (cdp_core: CDP and CDP_RDMA) or "rubik" (rubik_core);
//   * CSB: both blocks see every request and decode their own 4 KiB window; the one that did not
//     hit answers 0, so the read data are ORed (dla_csb_merge);
//   * DMA: the core's ports, passed through (BDMA and RUBIK move 32-byte atoms);
//   * intr_o: GLB's level interrupt, |(S_INTR_STATUS & ~S_INTR_MASK); the core's two done pulses
//     (one per register group) enter GLB at the engine's bits (BDMA 6/7, CDP 2/3, RUBIK 8/9).
module nvdla_engine_top #(
  parameter string       Engine     = "bdma",
  parameter int unsigned AtomLog2   = 5,         // memory atom, log2 bytes (CDP: 3 on nv_small)
  parameter logic [31:0] Base       = 32'h4000,  // the engine's register block (CDP: CDP's)
  // one engine's own parameters: the others' builds leave them unused
  /* verilator lint_off UNUSEDPARAM */
  parameter logic [31:0] RdmaBase   = 32'hc000,  // CDP_RDMA's block (CDP only)
  parameter int unsigned Throughput = 1,         // CDP_THROUGHPUT (CDP only)
  parameter bit          SupportFp16 = 1'b0,     // fp16 data (CDP only; NVDLA v1)
  parameter int unsigned FifoDepth  = 20,        // BDMA's command FIFO (BDMA only)
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned RdSlots    = 8,         // DMA reads in flight
  parameter logic [31:0] GlbBase    = 32'h0,
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
  logic        eng_csb_ready, glb_csb_ready, eng_rsp_valid, glb_rsp_valid;
  logic [31:0] eng_rsp_rdata, glb_rsp_rdata;
  logic [1:0]  eng_done;

  if (Engine == "bdma") begin : g_bdma
    if (AtomLog2 != 5) begin : g_atom_check
      $error("nvdla_engine_top: BDMA moves 32-byte atoms (AtomLog2 5)");
    end
    bdma_core #(
      .Base       (Base),
      .FifoDepth  (FifoDepth),
      .MaxInFlight(RdSlots)
    ) u_bdma (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .csb_req_valid_i   (csb_req_valid_i),
      .csb_req_ready_o   (eng_csb_ready),
      .csb_req_addr_i    (csb_req_addr_i),
      .csb_req_write_i   (csb_req_write_i),
      .csb_req_wdata_i   (csb_req_wdata_i),
      .csb_rsp_valid_o   (eng_rsp_valid),
      .csb_rsp_rdata_o   (eng_rsp_rdata),
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
      .done_o            (eng_done)
    );
  end else if (Engine == "cdp") begin : g_cdp
    cdp_core #(
      .AtomLog2   (AtomLog2),
      .CdpBase    (Base),
      .RdmaBase   (RdmaBase),
      .Throughput (Throughput),
      .MaxInFlight(RdSlots),
      .SupportFp16(SupportFp16)
    ) u_cdp (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .csb_req_valid_i   (csb_req_valid_i),
      .csb_req_ready_o   (eng_csb_ready),
      .csb_req_addr_i    (csb_req_addr_i),
      .csb_req_write_i   (csb_req_write_i),
      .csb_req_wdata_i   (csb_req_wdata_i),
      .csb_rsp_valid_o   (eng_rsp_valid),
      .csb_rsp_rdata_o   (eng_rsp_rdata),
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
      .intr_o            (eng_done)
    );
  end else if (Engine == "rubik") begin : g_rubik
    if (AtomLog2 != 5) begin : g_atom_check
      $error("nvdla_engine_top: RUBIK moves 32-byte atoms (AtomLog2 5)");
    end
    rubik_core #(
      .Base       (Base),
      .MaxInFlight(RdSlots)
    ) u_rubik (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .csb_req_valid_i   (csb_req_valid_i),
      .csb_req_ready_o   (eng_csb_ready),
      .csb_req_addr_i    (csb_req_addr_i),
      .csb_req_write_i   (csb_req_write_i),
      .csb_req_wdata_i   (csb_req_wdata_i),
      .csb_rsp_valid_o   (eng_rsp_valid),
      .csb_rsp_rdata_o   (eng_rsp_rdata),
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
      .done_o            (eng_done)
    );
  end else begin : g_unknown
    $error("nvdla_engine_top: Engine must be \"bdma\", \"cdp\" or \"rubik\"");
  end

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
    .cdp_done_i     (Engine == "cdp" ? eng_done : 2'b00),
    .pdp_done_i     (2'b00),
    .bdma_done_i    (Engine == "bdma" ? eng_done : 2'b00),
    .rubik_done_i   (Engine == "rubik" ? eng_done : 2'b00),
    .cdma_dat_done_i(2'b00),
    .cdma_wt_done_i (2'b00),
    .cacc_done_i    (2'b00),
    .intr_o         (intr_o)
  );

  dla_csb_merge #(
    .N(2)
  ) u_csb (
    .req_ready_i({glb_csb_ready, eng_csb_ready}),
    .req_ready_o(csb_req_ready_o),
    .rsp_valid_i({glb_rsp_valid, eng_rsp_valid}),
    .rsp_rdata_i({glb_rsp_rdata, eng_rsp_rdata}),
    .rsp_valid_o(csb_rsp_valid_o),
    .rsp_rdata_o(csb_rsp_rdata_o)
  );
endmodule
