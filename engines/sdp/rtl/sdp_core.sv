// SDP with SDP_RDMA: NVDLA's single-point post-processor (nvdla-arithmetic.md §2, docs/SDP.md),
// register level, composed the way conv_core is (docs/SDP_RTL.md):
//   sdp_regs  CSB of SDP and SDP_RDMA (ping-pong groups), S_LUT_* registers, the one register
//             decode (sdp_pkg::cfg_t), status and counters into the finished group, intr_o;
//   sdp_seq   layer start / end and the walker's position (batch, channel group, h, w, lane);
//   sdp_rdma  the fetch walker and the MRDMA / BRDMA / NRDMA / ERDMA streams: one dla_dma_rd per
//             stream (RdSlots reads in flight) onto the DMA read port, step descriptors up to
//             RdSlots steps ahead of the datapath;
//   sdp_dp    flying input, BS -> BN -> EW (sdp_x, sdp_y), LUT engine, output converter (sdp_c);
//   sdp_wdma  output atoms to the DMA write engine (dla_dma_wr), to memory or on the fly to PDP.
// Input from memory, or flying: beats of Lanes 32-bit elements on fly_*, in the order the SDP
// processes them (batch, channel group, h, w, lane). Up to Lanes elements per cycle while the
// operand atoms they need have arrived. The layer starts when SDP's consumer group is armed and,
// with flying mode off, SDP_RDMA's consumer group too; both groups are released at the end.
module sdp_core #(
  parameter int unsigned AtomLog2 = 3,  // 8-byte memory atom (nv_small); 5 for nv_full
  parameter logic [31:0] SdpBase  = 32'h9000,
  parameter logic [31:0] RdmaBase = 32'h8000,
  parameter int unsigned Lanes    = 1,  // elements per cycle (power of 2, <= lanes of an atom)
  parameter int unsigned RdSlots  = 8,  // reads in flight per operand stream (docs/DMA.md sizing)
  parameter bit          SupportFp16 = 1'b0,  // fp16 processing (NVDLA v1, nv_full)
  parameter int unsigned FetchAtoms = 1,  // atoms a read fetches: the port's beat (sdp_rdma)
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes,
  localparam int unsigned FetchBits = AtomBits * FetchAtoms
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
  // DMA read: FetchAtoms consecutive atoms per request (aligned), responses in order
  output logic                  dma_rd_req_valid_o,
  input  logic                  dma_rd_req_ready_i,
  output logic [63:0]           dma_rd_req_addr_o,
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [FetchBits-1:0]  dma_rd_rsp_data_i,
  // DMA write: one atom per request, byte mask
  output logic                  dma_wr_req_valid_o,
  input  logic                  dma_wr_req_ready_i,
  output logic [63:0]           dma_wr_req_addr_o,
  output logic [AtomBits-1:0]   dma_wr_req_data_o,
  output logic [AtomBytes-1:0]  dma_wr_req_mask_o,
  // flying input from CACC
  input  logic                  fly_valid_i,
  output logic                  fly_ready_o,
  input  logic [Lanes-1:0][31:0] fly_data_i,
  // on-the-fly output to PDP (D_FEATURE_MODE_CFG.OUTPUT_DST = PDP): the atoms the write port
  // would take, in the same order (surface, line, column), instead of memory writes
  output logic                  pdp_valid_o,
  input  logic                  pdp_ready_i,
  output logic [AtomBits-1:0]   pdp_data_o,
  // done interrupt per register group (one-cycle pulse)
  output logic [1:0]            intr_o
);
  localparam int unsigned CntW = $clog2(Lanes + 1);

  sdp_pkg::cfg_t    cfg;
  logic             sdp_armed, rdma_armed, start, running, walk, done;
  logic [9:0][31:0] lut_regs;
  logic             lut_prog_valid, lut_prog_addr, lut_prog_write;
  logic [31:0]      lut_prog_wdata, lut_prog_rdata;
  logic             unequal;
  logic [31:0]      sat_cnt, lut_uflow, lut_oflow, lut_hybrid, lut_le_hit, lut_lo_hit, wr_stall;
  logic [3:0][31:0] rd_stall;
  logic [31:0]      nan_in, inf_in, nan_out;

  sdp_regs #(
    .AtomLog2(AtomLog2),
    .SdpBase (SdpBase),
    .RdmaBase(RdmaBase)
  ) u_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .csb_req_valid_i (csb_req_valid_i),
    .csb_req_ready_o (csb_req_ready_o),
    .csb_req_addr_i  (csb_req_addr_i),
    .csb_req_write_i (csb_req_write_i),
    .csb_req_wdata_i (csb_req_wdata_i),
    .csb_rsp_valid_o (csb_rsp_valid_o),
    .csb_rsp_rdata_o (csb_rsp_rdata_o),
    .cfg_o           (cfg),
    .sdp_armed_o     (sdp_armed),
    .rdma_armed_o    (rdma_armed),
    .lut_regs_o      (lut_regs),
    .lut_prog_valid_o(lut_prog_valid),
    .lut_prog_addr_o (lut_prog_addr),
    .lut_prog_write_o(lut_prog_write),
    .lut_prog_wdata_o(lut_prog_wdata),
    .lut_prog_rdata_i(lut_prog_rdata),
    .done_i          (done),
    .unequal_i       (unequal),
    .sat_cnt_i       (sat_cnt),
    .lut_uflow_i     (lut_uflow),
    .lut_oflow_i     (lut_oflow),
    .lut_hybrid_i    (lut_hybrid),
    .lut_le_hit_i    (lut_le_hit),
    .lut_lo_hit_i    (lut_lo_hit),
    .wr_stall_i      (wr_stall),
    .rd_stall_i      (rd_stall),
    .nan_in_i        (nan_in),
    .inf_in_i        (inf_in),
    .nan_out_i       (nan_out),
    .intr_o          (intr_o)
  );

  // ---------------------------------------------------------------- sequencer and walker
  logic [CntW-1:0] wk_cnt;
  logic            wk_step, wk_last_l, wk_last, dp_last_taken, dp_empty, wr_idle;
  logic [4:0]      wk_n;
  logic [12:0]     wk_c, wk_h, wk_w;
  logic [6:0]      wk_beat;
  sdp_seq #(
    .Lanes(Lanes)
  ) u_seq (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .cfg_i       (cfg),
    .sdp_armed_i (sdp_armed),
    .rdma_armed_i(rdma_armed),
    .cnt_i       (wk_cnt),
    .step_i      (wk_step),
    .last_taken_i(dp_last_taken),
    .drained_i   (dp_empty && wr_idle),
    .start_o     (start),
    .running_o   (running),
    .walk_o      (walk),
    .done_o      (done),
    .n_o         (wk_n),
    .c_o         (wk_c),
    .h_o         (wk_h),
    .w_o         (wk_w),
    .beat_o      (wk_beat),
    .last_l_o    (wk_last_l),
    .last_o      (wk_last)
  );

  // ---------------------------------------------------------------- SDP_RDMA
  logic                   st_valid, st_take, st_need0, st_last_l, st_last;
  logic [CntW-1:0]        st_cnt;
  logic [12:0]            st_c, st_h, st_w;
  logic [6:0]             st_beat;
  logic [4:0]             st_n;
  logic [Lanes-1:0][15:0] st_in, st_bs_alu, st_bs_mul, st_bn_alu, st_bn_mul, st_ew_alu, st_ew_mul;
  sdp_rdma #(
    .AtomLog2  (AtomLog2),
    .Lanes     (Lanes),
    .RdSlots   (RdSlots),
    .FetchAtoms(FetchAtoms)
  ) u_rdma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .cfg_i             (cfg),
    .start_i           (start),
    .running_i         (running),
    .walk_i            (walk),
    .n_i               (wk_n),
    .c_i               (wk_c),
    .h_i               (wk_h),
    .w_i               (wk_w),
    .beat_i            (wk_beat),
    .last_l_i          (wk_last_l),
    .last_i            (wk_last),
    .cnt_o             (wk_cnt),
    .step_o            (wk_step),
    .dma_rd_req_valid_o(dma_rd_req_valid_o),
    .dma_rd_req_ready_i(dma_rd_req_ready_i),
    .dma_rd_req_addr_o (dma_rd_req_addr_o),
    .dma_rd_rsp_valid_i(dma_rd_rsp_valid_i),
    .dma_rd_rsp_ready_o(dma_rd_rsp_ready_o),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .dp_valid_o        (st_valid),
    .dp_take_i         (st_take),
    .dp_need0_o        (st_need0),
    .dp_cnt_o          (st_cnt),
    .dp_c_o            (st_c),
    .dp_beat_o         (st_beat),
    .dp_last_l_o       (st_last_l),
    .dp_n_o            (st_n),
    .dp_h_o            (st_h),
    .dp_w_o            (st_w),
    .dp_last_o         (st_last),
    .dp_in_o           (st_in),
    .dp_bs_alu_o       (st_bs_alu),
    .dp_bs_mul_o       (st_bs_mul),
    .dp_bn_alu_o       (st_bn_alu),
    .dp_bn_mul_o       (st_bn_mul),
    .dp_ew_alu_o       (st_ew_alu),
    .dp_ew_mul_o       (st_ew_mul),
    .rd_stall_o        (rd_stall)
  );
  assign dp_last_taken = st_take && st_last;

  // ---------------------------------------------------------------- datapath
  logic                   out_valid, out_ready, out_atom_last, out_write;
  logic [Lanes-1:0][15:0] out_val;
  logic [CntW-1:0]        out_cnt;
  logic [5:0]             out_lane;
  logic [AtomBytes-1:0]   out_mask;
  logic [63:0]            out_addr;
  sdp_dp #(
    .AtomLog2   (AtomLog2),
    .Lanes      (Lanes),
    .SupportFp16(SupportFp16)
  ) u_dp (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .cfg_i           (cfg),
    .start_i         (start),
    .running_i       (running),
    .step_valid_i    (st_valid),
    .step_take_o     (st_take),
    .step_need0_i    (st_need0),
    .step_cnt_i      (st_cnt),
    .step_c_i        (st_c),
    .step_beat_i     (st_beat),
    .step_last_l_i   (st_last_l),
    .step_n_i        (st_n),
    .step_h_i        (st_h),
    .step_w_i        (st_w),
    .step_in_i       (st_in),
    .step_bs_alu_i   (st_bs_alu),
    .step_bs_mul_i   (st_bs_mul),
    .step_bn_alu_i   (st_bn_alu),
    .step_bn_mul_i   (st_bn_mul),
    .step_ew_alu_i   (st_ew_alu),
    .step_ew_mul_i   (st_ew_mul),
    .fly_valid_i     (fly_valid_i),
    .fly_ready_o     (fly_ready_o),
    .fly_data_i      (fly_data_i),
    .lut_regs_i      (lut_regs),
    .lut_prog_valid_i(lut_prog_valid),
    .lut_prog_addr_i (lut_prog_addr),
    .lut_prog_write_i(lut_prog_write),
    .lut_prog_wdata_i(lut_prog_wdata),
    .lut_prog_rdata_o(lut_prog_rdata),
    .out_valid_o     (out_valid),
    .out_ready_i     (out_ready),
    .out_val_o       (out_val),
    .out_cnt_o       (out_cnt),
    .out_lane_o      (out_lane),
    .out_atom_last_o (out_atom_last),
    .out_write_o     (out_write),
    .out_mask_o      (out_mask),
    .out_addr_o      (out_addr),
    .empty_o         (dp_empty),
    .unequal_o       (unequal),
    .sat_cnt_o       (sat_cnt),
    .lut_uflow_o     (lut_uflow),
    .lut_oflow_o     (lut_oflow),
    .lut_hybrid_o    (lut_hybrid),
    .lut_le_hit_o    (lut_le_hit),
    .lut_lo_hit_o    (lut_lo_hit),
    .nan_in_o        (nan_in),
    .inf_in_o        (inf_in),
    .nan_out_o       (nan_out)
  );

  // ---------------------------------------------------------------- WDMA
  sdp_wdma #(
    .AtomLog2(AtomLog2),
    .Lanes   (Lanes)
  ) u_wdma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .cfg_i             (cfg),
    .start_i           (start),
    .running_i         (running),
    .in_valid_i        (out_valid),
    .in_ready_o        (out_ready),
    .in_val_i          (out_val),
    .in_cnt_i          (out_cnt),
    .in_lane_i         (out_lane),
    .in_atom_last_i    (out_atom_last),
    .in_write_i        (out_write),
    .in_mask_i         (out_mask),
    .in_addr_i         (out_addr),
    .dma_wr_req_valid_o(dma_wr_req_valid_o),
    .dma_wr_req_ready_i(dma_wr_req_ready_i),
    .dma_wr_req_addr_o (dma_wr_req_addr_o),
    .dma_wr_req_data_o (dma_wr_req_data_o),
    .dma_wr_req_mask_o (dma_wr_req_mask_o),
    .pdp_valid_o       (pdp_valid_o),
    .pdp_ready_i       (pdp_ready_i),
    .pdp_data_o        (pdp_data_o),
    .idle_o            (wr_idle),
    .wr_stall_o        (wr_stall)
  );

`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports (the layer sequencer's: sdp_seq).
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
  CovDmaRdReqFire: cover property (@(posedge clk_i) dma_rd_req_valid_o && dma_rd_req_ready_i);
  CovDmaRdReqStall: cover property (@(posedge clk_i) dma_rd_req_valid_o && !dma_rd_req_ready_i);
  CovDmaRdRspFire: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && dma_rd_rsp_ready_o);
  CovDmaRdRspStall: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && !dma_rd_rsp_ready_o);
  CovDmaWrReqFire: cover property (@(posedge clk_i) dma_wr_req_valid_o && dma_wr_req_ready_i);
  CovDmaWrReqStall: cover property (@(posedge clk_i) dma_wr_req_valid_o && !dma_wr_req_ready_i);
  CovFlyInFire: cover property (@(posedge clk_i) fly_valid_i && fly_ready_o);
  CovFlyInStall: cover property (@(posedge clk_i) fly_valid_i && !fly_ready_o);
  CovPdpOutFire: cover property (@(posedge clk_i) pdp_valid_o && pdp_ready_i);
  CovPdpOutStall: cover property (@(posedge clk_i) pdp_valid_o && !pdp_ready_i);
`endif
endmodule
