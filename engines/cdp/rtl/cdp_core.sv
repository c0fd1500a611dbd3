// NVDLA CDP + CDP_RDMA (local response normalization across channels), integer data (int8,
// int16) and, with SupportFp16, fp16 (NVDLA v1), register level. Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §1 and §3,
// nvdla-arithmetic.md §1.5 and §5; docs/CDP_RTL.md.
//   * two CSB register blocks with ping-pong groups (the generated cdp_reg_top and
//     cdp_rdma_reg_top, fields as structs); CDP's S_LUT_* registers are single:
//     S_LUT_ACCESS_CFG/DATA go to the LUT engine's programming port, S_LUT_CFG ... LO_SLOPE_SHIFT
//     are its configuration words. The layer starts when CDP's and CDP_RDMA's
//     consumer groups are both armed (either enable order); both are released after the last
//     write;
//   * CDP_RDMA read order: per line, per chunk of up to 8 atoms along W, per surface, the chunk's
//     atoms (through dla_dma_rd, several reads in flight); the same order for the writes;
//   * a ring of 4 surface slots (one chunk of 8 atoms each): the datapath takes surface s of a
//     chunk once surface s + 1 has arrived (or s is the last), since the channel window crosses
//     surface boundaries; the reads run up to 2 surfaces ahead;
//   * datapath, Throughput elements (consecutive channels of one atom) per beat:
//     input converter x = sat(rhaz((in - DATIN_OFFSET) x DATIN_SCALE / 2^DATIN_SHIFTER)) to 9
//     (int8) / 17 (int16) bits, channels outside [0, C) are 0; square sum over NORMALZ_LEN
//     (3/5/7/9) centred channels (or x with SQSUM_BYPASS); the CDP variant of the LUT engine;
//     p = lut x x (or lut with MUL_BYPASS); output converter
//     sat(rhaz((p - DATOUT_OFFSET) x DATOUT_SCALE / 2^DATOUT_SHIFTER)) to int8 / int16, each clamp
//     counted in D_OUT_SATURATION;
//   * statistics written into the finished group: D_OUT_SATURATION (every lane), D_PERF_LUT_*
//     (the engine's CDP semantics, every lookup of every lane, while D_PERF_ENABLE.LUT_EN),
//     D_PERF_WRITE_STALL / CDP_RDMA
//     D_PERF_READ_STALL (cycles a write / read request waits, when DMA_EN); D_NAN_* / D_INF_*
//     (fp16; 0 for integer data); CDP_DONE for the consumer group after the last write;
//   * fp16 (docs/FP16.md "CDP in fp16"): the same walk, ring and beats as int16; each element
//     flushed (channels outside [0, C), NaNs with NAN_TO_ZERO) to +0, widened exactly to fp17
//     and fp32, squared in fp32, the squares summed in fp32 by NVDLA's order (c-1 + c+1, + c,
//     then each further pair added outward); the LUT engine's float lanes; x times the LUT value
//     in fp17 (MUL_BYPASS: the LUT value, a NaN datum itself), narrowed to fp16. The converters
//     are not read. D_NAN_INPUT_NUM / D_INF_INPUT_NUM count every element of every atom read,
//     D_NAN_OUTPUT_NUM every element written.
module cdp_core #(
  parameter int unsigned AtomLog2    = 3,   // 8-byte memory atom (nv_small); 5 for nv_large/nv_full
  parameter logic [31:0] CdpBase     = 32'hd000,
  parameter logic [31:0] RdmaBase    = 32'hc000,
  parameter int unsigned Throughput  = 1,   // elements per cycle (CDP_THROUGHPUT)
  parameter int unsigned MaxInFlight = 8,   // DMA reads outstanding
  parameter bit          SupportFp16 = 1'b0,  // fp16 data (NVDLA v1, nv_full)
  localparam int unsigned AtomBytes  = 1 << AtomLog2,
  localparam int unsigned AtomBits   = 8 * AtomBytes
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
  // done pulse per register group (to GLB)
  output logic [1:0]            intr_o
);
  localparam int unsigned T       = Throughput;
  localparam int unsigned E8      = AtomBytes;          // int8 elements of an atom
  localparam int unsigned ElemW   = $clog2(E8);         // element index
  localparam int unsigned BeatW   = $clog2(E8 / T + 1);
  localparam int unsigned K       = T + 8;              // converted elements a beat needs
  localparam int unsigned SideW   = 17 * T + ElemW + 1 + 64;

  // ---------------------------------------------------------------- registers
  // Generated register blocks (tools/reggen): the consumer groups' fields as structs.
  /* verilator lint_off UNUSEDSIGNAL */
  cdp_regs_pkg::cdp_reg2hw_d_t      cdp;
  cdp_rdma_regs_pkg::cdp_rdma_reg2hw_d_t rdma;
  /* verilator lint_on UNUSEDSIGNAL */
  cdp_regs_pkg::cdp_hw2reg_t        cdp_hw2reg;
  cdp_rdma_regs_pkg::cdp_rdma_hw2reg_t   rdma_hw2reg;
  logic cdp_armed, rdma_armed, cdp_consumer, rdma_consumer, layer_done;
  logic [31:0] cdp_rdata, rdma_rdata, cdp_s_rdata;
  logic        cdp_s_we, cdp_s_re, rdma_s_we, rdma_s_re, cdp_hit, rdma_hit;
  logic [11:0] cdp_s_off, rdma_s_off;
  logic [31:0] cdp_s_wdata, rdma_s_wdata;

  cdp_reg_top #(.Base(CdpBase)) u_cdp_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (cdp_hit),
    .rdata_o    (cdp_rdata),
    .s_we_o     (cdp_s_we),
    .s_re_o     (cdp_s_re),
    .s_offset_o (cdp_s_off),
    .s_wdata_o  (cdp_s_wdata),
    .s_rdata_i  (cdp_s_rdata),
    .reg2hw_o   (cdp),
    .hw2reg_i   (cdp_hw2reg),
    .consumer_o (cdp_consumer),
    .armed_o    (cdp_armed),
    .done_i     (layer_done)
  );

  cdp_rdma_reg_top #(.Base(RdmaBase)) u_rdma_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (rdma_hit),
    .rdata_o    (rdma_rdata),
    .s_we_o     (rdma_s_we),
    .s_re_o     (rdma_s_re),
    .s_offset_o (rdma_s_off),
    .s_wdata_o  (rdma_s_wdata),
    .s_rdata_i  ('0),
    .reg2hw_o   (rdma),
    .hw2reg_i   (rdma_hw2reg),
    .consumer_o (rdma_consumer),
    .armed_o    (rdma_armed),
    .done_i     (layer_done)
  );

  assign csb_req_ready_o = 1'b1;
  logic csb_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) csb_rd_q <= 1'b0;
    else csb_rd_q <= csb_req_valid_i && !csb_req_write_i;
  end
  assign csb_rsp_valid_o = csb_rd_q;
  assign csb_rsp_rdata_o = cdp_rdata | rdma_rdata;  // a block that did not hit answers 0

  // CDP S_ registers: S_LUT_ACCESS_CFG/DATA go to the LUT engine, S_LUT_CFG..LO_SLOPE_SHIFT
  // (14 words from 0x10) are the engine's configuration, stored with their writable bits.
  localparam logic [14*32-1:0] LutMasks = {
    cdp_regs_pkg::CDP_S_LUT_LO_SLOPE_SHIFT_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LO_SLOPE_SCALE_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_LE_SLOPE_SHIFT_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LE_SLOPE_SCALE_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_LO_END_HIGH_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LO_END_LOW_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_LO_START_HIGH_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LO_START_LOW_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_LE_END_HIGH_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LE_END_LOW_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_LE_START_HIGH_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_LE_START_LOW_WRITABLE_MASK,
    cdp_regs_pkg::CDP_S_LUT_INFO_WRITABLE_MASK, cdp_regs_pkg::CDP_S_LUT_CFG_WRITABLE_MASK};
  logic [13:0][31:0] lut_regs_q;
  logic        lut_prog, lut_prog_addr, lut_prog_write;
  logic [31:0] lut_prog_wdata, prog_rsp_rdata;
  logic        prog_rsp_valid, prog_rsp_err, prog_err, prog_ready;
  lut_s_regs #(
    .NumRegs  (14),
    .CfgOffset(cdp_regs_pkg::CDP_S_LUT_ACCESS_CFG_OFFSET),
    .LutFirst (cdp_regs_pkg::CDP_S_LUT_CFG_OFFSET),
    .Masks    (LutMasks)
  ) u_lut_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .s_we_i          (cdp_s_we),
    .s_re_i          (cdp_s_re),
    .s_offset_i      (cdp_s_off),
    .s_wdata_i       (cdp_s_wdata),
    .s_rdata_o       (cdp_s_rdata),
    .lut_regs_o      (lut_regs_q),
    .prog_valid_o    (lut_prog),
    .prog_addr_o     (lut_prog_addr),
    .prog_write_o    (lut_prog_write),
    .prog_wdata_o    (lut_prog_wdata),
    .prog_rsp_rdata_i(prog_rsp_rdata)
  );

  // Cube (CDP_RDMA's registers; CDP has no size registers), precision (CDP's D_DATA_FORMAT; the
  // RTL device refuses a CDP_RDMA format that differs).
  logic        int16, wide, fp16;  // int16; 16-bit elements (int16, fp16); fp16
  logic [13:0] cube_w, cube_h, cube_c, surfaces;
  logic [3:0]  half_n;      // NORMALZ_LEN / 2: 1, 2, 3, 4
  logic        sq_bypass, mul_bypass;
  logic [BeatW-1:0] beats;  // beats per atom
  assign int16      = cdp.data_format == 2'd1;
  assign wide       = cdp.data_format != 2'd0;
  assign fp16       = SupportFp16 && cdp.data_format == 2'd2;
  assign cube_w     = 14'(rdma.data_cube_width) + 14'd1;
  assign cube_h     = 14'(rdma.data_cube_height) + 14'd1;
  assign cube_c     = 14'(rdma.data_cube_channel) + 14'd1;
  assign surfaces   = wide ? 14'((14'(rdma.data_cube_channel) + 14'(E8 / 2)) >> (AtomLog2 - 1))
                            : 14'((14'(rdma.data_cube_channel) + 14'(E8)) >> AtomLog2);
  assign half_n     = 4'(cdp.lrn_cfg) + 4'd1;
  assign sq_bypass  = cdp.func_bypass_sqsum_bypass;
  assign mul_bypass = cdp.func_bypass_mul_bypass;
  assign beats      = wide ? BeatW'(E8 / 2 / T) : BeatW'(E8 / T);

  // ---------------------------------------------------------------- layer control
  logic running_q, start, core_done;
  assign start      = !running_q && cdp_armed && rdma_armed;
  assign layer_done = running_q && core_done;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) running_q <= 1'b0;
    else if (start) running_q <= 1'b1;
    else if (layer_done) running_q <= 1'b0;
  end
  assign intr_o = layer_done ? (cdp_consumer ? 2'b10 : 2'b01) : 2'b00;

  // ---------------------------------------------------------------- CDP_RDMA read sequencer
  logic        rq_active, rq_ready;
  logic [63:0] rq_addr;
  logic [13:0] unused_rq_s;
  logic [2:0]  unused_rq_w;
  logic [3:0]  unused_rq_cw;
  logic        unused_rq_last, unused_rq_end;
  cdp_walk #(
    .AtomLog2(AtomLog2)
  ) u_rq_walk (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (start),
    .step_i       (rq_active && rq_ready),
    .base_i       ({rdma.src_base_addr_high, rdma.src_base_addr_low}),
    .line_stride_i(rdma.src_line_stride),
    .surf_stride_i(rdma.src_surface_stride),
    .width_i      (cube_w),
    .height_i     (cube_h),
    .surfaces_i   (surfaces),
    .active_o     (rq_active),
    .addr_o       (rq_addr),
    .s_o          (unused_rq_s),
    .w_o          (unused_rq_w),
    .chunk_w_o    (unused_rq_cw),
    .last_s_o     (unused_rq_last),
    .chunk_end_o  (unused_rq_end)
  );

  logic                rd_valid, rd_ready;
  logic [AtomBits-1:0] rd_data;
  dla_dma_rd #(
    .AddrWidth  (64),
    .DataWidth  (AtomBits),
    .MaxInFlight(MaxInFlight)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (rq_active),
    .req_ready_o    (rq_ready),
    .req_addr_i     (rq_addr),
    .rsp_valid_o    (rd_valid),
    .rsp_ready_i    (rd_ready),
    .rsp_data_o     (rd_data),
    .mem_req_valid_o(dma_rd_req_valid_o),
    .mem_req_ready_i(dma_rd_req_ready_i),
    .mem_req_addr_o (dma_rd_req_addr_o),
    .mem_rsp_valid_i(dma_rd_rsp_valid_i),
    .mem_rsp_ready_o(dma_rd_rsp_ready_o),
    .mem_rsp_data_i (dma_rd_rsp_data_i)
  );

  // ---------------------------------------------------------------- surface ring
  // 4 slots of one chunk (8 atoms) each; slot = surface-chunk number mod 4. ahead_q = surface-
  // chunks received completely minus surface-chunks the datapath has finished (0..3).
  logic [AtomBits-1:0] ring_q [4][8];
  logic [1:0]  in_slot_q, out_slot_q;
  logic [2:0]  ahead_q;
  logic [2:0]  in_w;
  logic        in_fire, in_chunk_end, out_chunk_end;
  logic        unused_in_active, unused_in_last;
  logic [63:0] unused_in_addr;
  logic [13:0] unused_in_s;
  logic [3:0]  unused_in_cw;
  assign rd_ready = running_q && ahead_q <= 3'd2;
  assign in_fire  = rd_valid && rd_ready;
  // The received atoms' positions (the read order).
  cdp_walk #(
    .AtomLog2(AtomLog2)
  ) u_in_walk (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (start),
    .step_i       (in_fire),
    .base_i       ('0),
    .line_stride_i('0),
    .surf_stride_i('0),
    .width_i      (cube_w),
    .height_i     (cube_h),
    .surfaces_i   (surfaces),
    .active_o     (unused_in_active),
    .addr_o       (unused_in_addr),
    .s_o          (unused_in_s),
    .w_o          (in_w),
    .chunk_w_o    (unused_in_cw),
    .last_s_o     (unused_in_last),
    .chunk_end_o  (in_chunk_end)
  );

  always_ff @(posedge clk_i) begin
    if (in_fire) ring_q[in_slot_q][in_w] <= rd_data;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_slot_q  <= '0;
      out_slot_q <= '0;
      ahead_q    <= '0;
    end else if (start) begin
      in_slot_q  <= '0;
      out_slot_q <= '0;
      ahead_q    <= '0;
    end else begin
      ahead_q <= ahead_q + 3'(in_chunk_end) - 3'(out_chunk_end);
      if (out_chunk_end) out_slot_q <= out_slot_q + 2'd1;
      if (in_chunk_end) in_slot_q <= in_slot_q + 2'd1;
    end
  end

  // ---------------------------------------------------------------- beat issue
  logic        o_active, o_last_s, o_avail, issue, o_last_beat;
  logic [13:0] o_s;
  logic [2:0]  o_w;
  logic [63:0] o_addr;
  logic [3:0]  unused_o_cw;
  logic [BeatW-1:0] o_beat_q;
  logic        lut_in_ready, side_in_ready;
  assign o_avail     = o_active && (ahead_q >= 3'd2 || (o_last_s && ahead_q >= 3'd1));
  assign issue       = o_avail && side_in_ready && lut_in_ready;
  assign o_last_beat = o_beat_q == beats - BeatW'(1);
  // The written atoms' positions (the same order), one step per atom (its last beat).
  cdp_walk #(
    .AtomLog2(AtomLog2)
  ) u_out_walk (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (start),
    .step_i       (issue && o_last_beat),
    .base_i       ({cdp.dst_base_addr_high, cdp.dst_base_addr_low}),
    .line_stride_i(cdp.dst_line_stride),
    .surf_stride_i(cdp.dst_surface_stride),
    .width_i      (cube_w),
    .height_i     (cube_h),
    .surfaces_i   (surfaces),
    .active_o     (o_active),
    .addr_o       (o_addr),
    .s_o          (o_s),
    .w_o          (o_w),
    .chunk_w_o    (unused_o_cw),
    .last_s_o     (o_last_s),
    .chunk_end_o  (out_chunk_end)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) o_beat_q <= '0;
    else if (start) o_beat_q <= '0;
    else if (issue) o_beat_q <= o_last_beat ? '0 : o_beat_q + BeatW'(1);
  end

  // ---------------------------------------------------------------- gather + input converter
  // Element k of the beat (k = 0 .. T+7) is channel lane0 + k - 4 of the surface (negative: the
  // previous surface's last lanes, >= elements per atom: the next surface's first lanes).
  logic [AtomBits-1:0] a_prev, a_cur, a_next;
  logic [ElemW-1:0]    lane0;
  assign a_prev = ring_q[out_slot_q - 2'd1][o_w];
  assign a_cur  = ring_q[out_slot_q][o_w];
  assign a_next = ring_q[out_slot_q + 2'd1][o_w];
  assign lane0  = ElemW'(32'(o_beat_q) * T);

  // element e of atom a, in either precision (e: a constant; the modulo folds the lanes a
  // beat of the other precision never uses onto real ones)
  function automatic logic signed [16:0] element(input logic [AtomBits-1:0] a, input int unsigned e,
                                                 input logic is16);
    if (is16) element = 17'($signed(a[16*(e % (E8 / 2)) +: 16]));
    else element = 17'($signed(a[8*(e % E8) +: 8]));
  endfunction

  // element at lane jj of the current surface (-4 <= jj < e_per + 4; a constant), e_per
  // elements per atom
  function automatic logic signed [16:0] pick(input logic [AtomBits-1:0] p, input logic [AtomBits-1:0] c,
                                              input logic [AtomBits-1:0] n, input int jj,
                                              input int e_per, input logic is16);
    if (jj < 0) pick = element(p, 32'(jj + e_per), is16);
    else if (jj >= e_per) pick = element(n, 32'(jj - e_per), is16);
    else pick = element(c, 32'(jj), is16);
  endfunction

  logic signed [16:0] in_off;
  logic signed [15:0] in_scale;
  assign in_off   = int16 ? 17'($signed(cdp.datin_offset)) : 17'($signed(cdp.datin_offset[7:0]));
  assign in_scale = $signed(cdp.datin_scale);

  logic [K-1:0][16:0] raw;    // input value of element k (signed)
  logic [K-1:0]       in_cube; // channel in [0, C)
  always_comb begin
    for (int unsigned k = 0; k < K; k++) begin
      logic signed [7:0]  j;     // lane within the current surface, -4 .. elements + 3
      logic signed [15:0] ch;    // channel number
      j  = $signed({1'b0, 7'(lane0)}) + $signed(8'(k)) - 8'sd4;
      ch = $signed({1'b0, 15'(o_s)} * (wide ? 16'(E8 / 2) : 16'(E8))) + 16'(j);
      in_cube[k] = ch >= 0 && ch < $signed({2'b0, cube_c});
      // one branch per beat, so every element is picked at a constant index (a run-time index
      // synthesizes as a shifter across the atom: docs/RTL_CONVENTIONS.md)
      raw[k] = '0;
      for (int b = 0; b < int'(E8 / T); b++) begin
        if (o_beat_q == BeatW'(b)) begin
          raw[k] = wide ? pick(a_prev, a_cur, a_next, b * int'(T) + int'(k) - 4, int'(E8 / 2), 1'b1)
                         : pick(a_prev, a_cur, a_next, b * int'(T) + int'(k) - 4, int'(E8), 1'b0);
        end
      end
    end
  end

  logic [K-1:0][16:0] xk;  // converted values, 0 outside [0, C)
  logic [K-1:0][32:0] sq;  // their squares
  for (genvar k = 0; k < K; k++) begin : g_icvt
    cdp_icvt u_icvt (
      .raw_i     (raw[k]),
      .in_cube_i (in_cube[k]),
      .int16_i   (int16),
      .in_off_i  (in_off),
      .in_scale_i(in_scale),
      .in_shift_i(cdp.datin_shifter),
      .x_o       (xk[k]),
      .sq_o      (sq[k])
    );
  end

  // ---------------------------------------------------------------- square sum
  logic [T-1:0][37:0] lut_x, i_lut_x;
  logic [T-1:0][16:0] x_ctr, i_x_ctr;
  always_comb begin
    for (int unsigned t = 0; t < T; t++) begin
      logic [36:0] sum;
      logic signed [16:0] xc;
      logic signed [37:0] xc38;
      sum = '0;
      for (int unsigned d = 0; d < 9; d++) begin
        if (d + 32'(half_n) >= 32'd4 && d <= 32'd4 + 32'(half_n)) sum = sum + {4'd0, sq[t + d]};
      end
      xc       = $signed(xk[t + 4]);
      xc38     = 38'(xc);  // sign extension (SQSUM_BYPASS: the LUT looks up x itself)
      i_x_ctr[t] = xk[t + 4];
      i_lut_x[t] = sq_bypass ? xc38 : {1'b0, sum};
    end
  end

  // ---------------------------------------------------------------- fp16 input + square sum
  // Declared here, not in the generate block (Yosys cannot size packed arrays declared there).
  logic [K-1:0][16:0] fx17;      // the flushed elements in fp17
  logic [K-1:0][31:0] fx32, fsq; // in fp32; their squares (or themselves with SQSUM_BYPASS)
  logic [T-1:0][3:0][31:0] fsum; // sum over 3, 5, 7, 9 channels
  logic [T-1:0][31:0] f_lut_x;
  if (SupportFp16) begin : g_fp_in
    for (genvar k = 0; k < K; k++) begin : g_elem
      logic [15:0] d16;
      logic [31:0] sq32;
      assign d16 = in_cube[k] && !(cdp.nan_flush_to_zero && dla_fp_pkg::fp16_is_nan(raw[k][14:0])) ? raw[k][15:0]
                                                                                                   : 16'd0;
      dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_x17 (
        .a_i(d16),
        .z_o(fx17[k])
      );
      dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b0)) u_x32 (
        .a_i(fx17[k]),
        .z_o(fx32[k])
      );
      dla_fp_mul #(.ExpW(8), .MantW(23)) u_sq (
        .a_i(fx32[k]),
        .b_i(fx32[k]),
        .z_o(sq32)
      );
      assign fsq[k] = sq_bypass ? fx32[k] : sq32;
    end
    for (genvar t = 0; t < T; t++) begin : g_sum
      // sum_1 = (c-1 + c+1) + c; sum_j = sum_(j-1) + (c-j + c+j)
      logic [31:0] near;
      dla_fp_add #(.ExpW(8), .MantW(23)) u_near (
        .a_i  (fsq[t + 3]),
        .b_i  (fsq[t + 5]),
        .sub_i(1'b0),
        .z_o  (near)
      );
      dla_fp_add #(.ExpW(8), .MantW(23)) u_sum1 (
        .a_i  (near),
        .b_i  (fsq[t + 4]),
        .sub_i(1'b0),
        .z_o  (fsum[t][0])
      );
      for (genvar j = 2; j <= 4; j++) begin : g_pair
        logic [31:0] pair;
        dla_fp_add #(.ExpW(8), .MantW(23)) u_pair (
          .a_i  (fsq[t + 4 - j]),
          .b_i  (fsq[t + 4 + j]),
          .sub_i(1'b0),
          .z_o  (pair)
        );
        dla_fp_add #(.ExpW(8), .MantW(23)) u_sum (
          .a_i  (fsum[t][j-2]),
          .b_i  (pair),
          .sub_i(1'b0),
          .z_o  (fsum[t][j-1])
        );
      end
      assign f_lut_x[t] = sq_bypass ? fx32[t + 4] : fsum[t][cdp.lrn_cfg];
    end
  end else begin : g_no_fp_in
    assign fx17    = '0;
    assign fx32    = '0;
    assign fsq     = '0;
    assign fsum    = '0;
    assign f_lut_x = '0;
  end
  always_comb begin
    for (int unsigned t = 0; t < T; t++) begin
      lut_x[t] = fp16 ? 38'(f_lut_x[t]) : i_lut_x[t];
      x_ctr[t] = fp16 ? fx17[t + 4] : i_x_ctr[t];
    end
  end

  // ---------------------------------------------------------------- LUT engine + side queue
  logic                 side_out_valid, lut_out_valid, lut_out_ready, lut_busy;
  logic [SideW-1:0]     side_out;
  logic [T-1:0][15:0]   lut_val;
  logic [T-1:0][31:0]   lut_fp_val;  // fp17 in the low bits
  logic [T-1:0]         lut_uflow, lut_oflow, lut_le_hit, lut_lo_hit, lut_lo_sel, lut_mask;
  logic [31:0]          st_uflow, st_oflow, st_hybrid, st_le_hit, st_lo_hit;
  logic [$clog2(7)-1:0] side_level;

  lut_engine #(
    .Variant  (1),
    .Lanes    (T),
    .SupportFp(SupportFp16)
  ) u_lut (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .lut_regs_i      (lut_regs_q),
    .in_int8_i       (!int16),
    .in_fp_i         (fp16),
    .layer_active_i  (running_q),
    .busy_o          (lut_busy),
    .in_valid_i      (o_avail && side_in_ready),
    .in_ready_o      (lut_in_ready),
    .in_data_i       (lut_x),
    .in_mask_i       ('1),
    .out_valid_o     (lut_out_valid),
    .out_ready_i     (lut_out_ready),
    .out_value_o     (lut_val),
    .out_fp_value_o  (lut_fp_val),
    .out_uflow_o     (lut_uflow),
    .out_oflow_o     (lut_oflow),
    .out_le_hit_o    (lut_le_hit),
    .out_lo_hit_o    (lut_lo_hit),
    .out_lo_sel_o    (lut_lo_sel),
    .out_mask_o      (lut_mask),
    .stat_en_i       (cdp.perf_enable_lut_en),
    .stat_clr_i      (start),
    .stat_uflow_o    (st_uflow),
    .stat_oflow_o    (st_oflow),
    .stat_hybrid_o   (st_hybrid),
    .stat_le_hit_o   (st_le_hit),
    .stat_lo_hit_o   (st_lo_hit),
    .prog_valid_i    (lut_prog),
    .prog_ready_o    (prog_ready),
    .prog_addr_i     (lut_prog_addr),
    .prog_write_i    (lut_prog_write),
    .prog_wdata_i    (lut_prog_wdata),
    .prog_rsp_valid_o(prog_rsp_valid),
    .prog_rsp_rdata_o(prog_rsp_rdata),
    .prog_rsp_err_o  (prog_rsp_err),
    .prog_err_o      (prog_err),
    .prog_err_clr_i  (1'b0)
  );

  // The beat's centre values, lane0, last-beat-of-atom flag and write address ride beside the
  // engine's pipeline (in order; one entry per beat in the engine).
  dla_fifo #(
    .Depth(6),
    .Width(SideW)
  ) u_side (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (issue),
    .in_ready_o (side_in_ready),
    .in_data_i  ({x_ctr, lane0, o_last_beat, o_addr}),
    .out_valid_o(side_out_valid),
    .out_ready_i(lut_out_valid && lut_out_ready),
    .out_data_o (side_out),
    .level_o    (side_level)
  );

  logic [T-1:0][16:0] s_x;
  logic [ElemW-1:0]   s_lane0;
  logic               s_last;
  logic [63:0]        s_addr;
  assign {s_x, s_lane0, s_last, s_addr} = side_out;

  // ---------------------------------------------------------------- multiply + output converter
  logic signed [34:0] out_off;
  logic signed [15:0] out_scale;
  assign out_off   = int16 ? 35'($signed(cdp.datout_offset)) : 35'($signed(cdp.datout_offset[24:0]));
  assign out_scale = $signed(cdp.datout_scale);
  logic [T-1:0][15:0] o_val, i_val, f_val;
  logic [T-1:0]       o_sat, i_sat;
  for (genvar t = 0; t < T; t++) begin : g_ocvt
    cdp_ocvt u_ocvt (
      .lut_i       (lut_val[t]),
      .x_i         (s_x[t]),
      .mul_bypass_i(mul_bypass),
      .int16_i     (int16),
      .out_off_i   (out_off),
      .out_scale_i (out_scale),
      .out_shift_i (cdp.datout_shifter),
      .val_o       (i_val[t]),
      .sat_o       (i_sat[t])
    );
  end
  // fp16: x * LUT in fp17 (the datum first), narrowed to fp16
  if (SupportFp16) begin : g_fp_out
    for (genvar t = 0; t < T; t++) begin : g_lane
      logic [16:0] prod, o17;
      dla_fp_mul #(.ExpW(6), .MantW(10)) u_mul (
        .a_i(s_x[t]),
        .b_i(lut_fp_val[t][16:0]),
        .z_o(prod)
      );
      logic unused_hi;  // CDP's LUT value is fp17
      assign unused_hi = ^lut_fp_val[t][31:17];
      assign o17 = !mul_bypass ? prod : dla_fp_pkg::fp17_is_nan(s_x[t][15:0]) ? s_x[t] : lut_fp_val[t][16:0];
      dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(5), .OutMantW(10), .Denorm(1'b1)) u_narrow (
        .a_i(o17),
        .z_o(f_val[t])
      );
    end
  end else begin : g_no_fp_out
    assign f_val = '0;
    logic unused_fp;  // the float datapath's wires, 0 without SupportFp16
    assign unused_fp = ^{fx32, fsq, fsum, lut_fp_val, nan_out_inc};
  end
  assign o_val = fp16 ? f_val : i_val;
  assign o_sat = fp16 ? '0 : i_sat;

  // ---------------------------------------------------------------- packing + writer
  logic [AtomBits-1:0] pack_q, pack_d;
  logic                wf_in_ready, wr_idle, lut_fire;
  logic [$clog2(5)-1:0] unused_wr_pending;
  always_comb begin
    pack_d = pack_q;
    for (int unsigned b = 0; b < E8 / T; b++) begin
      if (s_lane0 == ElemW'(b * T)) begin
        for (int unsigned t = 0; t < T; t++) begin
          if (wide) pack_d[16*((b * T + t) % (E8 / 2)) +: 16] = o_val[t];
          else pack_d[8*(b * T + t) +: 8] = o_val[t][7:0];
        end
      end
    end
  end
  assign lut_out_ready = !s_last || wf_in_ready;
  assign lut_fire      = lut_out_valid && lut_out_ready;
  always_ff @(posedge clk_i) begin
    if (lut_fire) pack_q <= pack_d;
  end

  // the DMA write engine (dla_dma_wr, a 4-entry FIFO: docs/DMA.md)
  dla_dma_wr #(
    .AddrWidth(64),
    .DataWidth(AtomBits),
    .Depth    (4),
    .Fifo     (1'b1)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (lut_fire && s_last),
    .req_ready_o    (wf_in_ready),
    .req_addr_i     (s_addr),
    .req_data_i     (pack_d),
    .req_mask_i     ('1),
    .mem_req_valid_o(dma_wr_req_valid_o),
    .mem_req_ready_i(dma_wr_req_ready_i),
    .mem_req_addr_o (dma_wr_req_addr_o),
    .mem_req_data_o (dma_wr_req_data_o),
    .mem_req_mask_o (dma_wr_req_mask_o),
    .pending_o      (unused_wr_pending),
    .idle_o         (wr_idle)
  );

  assign core_done = !o_active && !rq_active && side_level == '0 && !side_out_valid && wr_idle;

  // ---------------------------------------------------------------- statistics
  localparam int unsigned SatIncW = $clog2(T + 1);
  logic [SatIncW-1:0] sat_inc;
  always_comb begin
    sat_inc = '0;
    for (int unsigned t = 0; t < T; t++) sat_inc = sat_inc + SatIncW'(o_sat[t]);
  end
  // fp16's NaN / Inf counters (0 for integer data): every element of every atom read, every
  // element written
  logic [31:0] nan_in_q, inf_in_q, nan_out_q, nan_out_inc;
  if (SupportFp16) begin : g_fp_count
    localparam int unsigned CntW = $clog2(E8 / 2 + 1);
    logic [CntW-1:0] in_nan, in_inf;
    dla_fp16_count #(.Halves(E8 / 2)) u_in_cnt (
      .data_i(rd_data), .mask_i('1), .nan_o(in_nan), .inf_o(in_inf)
    );
    always_comb begin
      nan_out_inc = '0;
      for (int unsigned t = 0; t < T; t++) nan_out_inc = nan_out_inc + 32'(dla_fp_pkg::fp16_is_nan(f_val[t][14:0]));
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        nan_in_q  <= '0;
        inf_in_q  <= '0;
        nan_out_q <= '0;
      end else if (start) begin
        nan_in_q  <= '0;
        inf_in_q  <= '0;
        nan_out_q <= '0;
      end else if (fp16) begin
        if (in_fire) begin
          nan_in_q <= nan_in_q + 32'(in_nan);
          inf_in_q <= inf_in_q + 32'(in_inf);
        end
        if (lut_fire) nan_out_q <= nan_out_q + nan_out_inc;
      end
    end
  end else begin : g_int_count
    assign nan_in_q    = '0;
    assign inf_in_q    = '0;
    assign nan_out_q   = '0;
    assign nan_out_inc = '0;
  end
  logic [31:0] sat_cnt, wr_stall, rd_stall;
  dla_perf_cnt #(.IncW(SatIncW)) u_sat_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (lut_fire),
    .inc_i  (sat_inc),
    .count_o(sat_cnt)
  );
  dla_perf_cnt u_wr_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (cdp.perf_enable_dma_en && running_q),
    .inc_i  (dma_wr_req_valid_o && !dma_wr_req_ready_i),
    .count_o(wr_stall)
  );
  dla_perf_cnt u_rd_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (rdma.perf_enable && running_q),
    .inc_i  (dma_rd_req_valid_o && !dma_rd_req_ready_i),
    .count_o(rd_stall)
  );

  always_comb begin
    cdp_hw2reg                     = '0;
    rdma_hw2reg                    = '0;
    cdp_hw2reg.out_saturation_de   = layer_done;
    cdp_hw2reg.perf_write_stall_de = layer_done;
    cdp_hw2reg.perf_lut_uflow_de   = layer_done;
    cdp_hw2reg.perf_lut_oflow_de   = layer_done;
    cdp_hw2reg.perf_lut_hybrid_de  = layer_done;
    cdp_hw2reg.perf_lut_le_hit_de  = layer_done;
    cdp_hw2reg.perf_lut_lo_hit_de  = layer_done;
    rdma_hw2reg.perf_read_stall_de = layer_done;
    cdp_hw2reg.nan_input_num_de    = layer_done;
    cdp_hw2reg.inf_input_num_de    = layer_done;
    cdp_hw2reg.nan_output_num_de   = layer_done;
    cdp_hw2reg.nan_input_num       = nan_in_q;
    cdp_hw2reg.inf_input_num       = inf_in_q;
    cdp_hw2reg.nan_output_num      = nan_out_q;
    cdp_hw2reg.out_saturation      = sat_cnt;
    cdp_hw2reg.perf_write_stall    = wr_stall;
    cdp_hw2reg.perf_lut_uflow      = st_uflow;
    cdp_hw2reg.perf_lut_oflow      = st_oflow;
    cdp_hw2reg.perf_lut_hybrid     = st_hybrid;
    cdp_hw2reg.perf_lut_le_hit     = st_le_hit;
    cdp_hw2reg.perf_lut_lo_hit     = st_lo_hit;
    rdma_hw2reg.perf_read_stall    = rd_stall;
  end

  logic unused;
  assign unused = ^{cdp_hit, rdma_hit, rdma_s_we, rdma_s_re, rdma_s_off, rdma_s_wdata, rdma_consumer, lut_busy,
                    prog_ready, prog_rsp_valid, prog_rsp_err, prog_err, lut_uflow, lut_oflow, lut_le_hit,
                    lut_lo_hit, lut_lo_sel, lut_mask, unused_rq_s, unused_rq_w,
                    unused_rq_cw, unused_rq_last, unused_rq_end, unused_in_active, unused_in_last, unused_in_addr,
                    unused_in_s, unused_in_cw, unused_o_cw};
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the layer sequencer and the valid/ready ports.
  CovStart: cover property (@(posedge clk_i) start);
  CovRunning: cover property (@(posedge clk_i) running_q);
  CovLayerDone: cover property (@(posedge clk_i) layer_done);
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
