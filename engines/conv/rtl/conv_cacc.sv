// CACC for direct convolution (conv-pipeline.md §6, docs/CONV.md §1, nvdla-arithmetic.md §3):
//   * one accumulator per (position of the stripe, kernel): the stripe's first (b, r, s) pass
//     writes the MAC partial sums, later passes add them, saturating at 34 bits (int8) or 48
//     bits (int16);
//   * on the stripe's channel_end pass the finished vector of a position goes to a delivery
//     FIFO (the MAC array is held only when that FIFO is full);
//   * delivery to SDP in completion order (kernel group, then positions in raster order, with
//     batches: each position's N batches in turn), FlyLanes
//     32-bit elements per beat, lanes 0..AtomicK-1 (lanes of kernels >= K carry 0):
//     sat32(rhaz(acc / 2^CLIP_TRUNCATE)); clamps of real kernels (k < K) are counted for
//     D_OUT_SATURATION.
// done_o pulses with the layer's last delivered element.
// fp16 (cfg.fp16, SupportFp16): each accumulator is NVDLA v1's 48-bit float (8-bit exponent,
// 40-bit mantissa) that adds the MAC words from empty (cacc_fp_add) and goes out as fp32
// (cacc_fp_to_fp32): no clip, no saturation count (docs/FP16.md "CACC").
// Winograd (cfg.wino, SupportWino): an operation carries the 2x2 outputs of one tile per kernel
// (in_wino_i[k][2*i + j]); a stripe position is a tile with four accumulators, and delivery
// sends the tile's four positions in the order (0,0), (0,1), (1,0), (1,1) -- the order SDP's
// WINOGRAD mode writes (2x2 tiles in tile raster order).
module conv_cacc #(
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned MaxStripe    = 16,
  parameter int unsigned FifoDepth    = 32,
  parameter int unsigned FlyLanes     = 1,  // elements per beat to SDP (power of 2, divides AtomicK)
  parameter bit          SupportWino  = 1'b0,
  parameter bit          SupportFp16  = 1'b0,  // NVDLA v1's fp16 (with SupportInt16)
  localparam int unsigned Subs        = SupportWino ? 4 : 1,  // accumulators per stripe position
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1,
  localparam int unsigned NumOut      = NumCells * KernPerCell,
  localparam int unsigned PsumW       = SupportFp16 ? 44 : (SupportInt16 ? 32 : 16) + $clog2(AtomicC),
  localparam int unsigned AccW        = SupportInt16 ? 48 : 34
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         start_i,
  input  conv_pkg::cfg_t               cfg_i,
  // from the MAC array
  input  logic                         in_valid_i,
  output logic                         in_ready_o,
  input  logic [NumOut-1:0][PsumW-1:0] in_psum_i,
  input  logic [NumOut-1:0][3:0][PsumW-1:0] in_wino_i,
  input  logic                         in_stripe_end_i,
  input  logic                         in_channel_end_i,
  // flying output to SDP
  output logic                         fly_valid_o,
  input  logic                         fly_ready_i,
  output logic [FlyLanes-1:0][31:0]    fly_data_o,
  // layer
  output logic                         done_o,
  output logic [31:0]                  sat_count_o
);
  localparam int unsigned PosW  = $clog2(MaxStripe);
  localparam int unsigned LaneW = $clog2(NumOut);

  logic int16, wino, fp16;
  assign int16 = SupportInt16 && cfg_i.int16;
  assign wino  = SupportWino && cfg_i.wino;
  assign fp16  = SupportFp16 && cfg_i.fp16;

  // ---------------------------------------------------------------- accumulation
  logic [Subs-1:0][NumOut-1:0][AccW-1:0] acc_q [MaxStripe];
  logic [Subs-1:0][NumOut-1:0][AccW-1:0] sum;
  logic [PosW-1:0] pos_q;
  logic            first_q, in_fire, fifo_full;

  for (genvar u = 0; u < Subs; u++) begin : g_sub
    for (genvar k = 0; k < NumOut; k++) begin : g_acc
      logic signed [PsumW-1:0] in;
      logic signed [AccW:0]    add;
      logic signed [33:0]      sat34;
      logic                    unused_sat34;
      assign in  = wino ? in_wino_i[k][u] : in_psum_i[k];
      assign add = first_q ? (AccW + 1)'(in)
                           : (AccW + 1)'($signed(acc_q[pos_q][u][k])) + (AccW + 1)'(in);
      dla_sat #(.InW(AccW + 1), .OutW(34)) u_sat34 (.data_i(add), .data_o(sat34), .sat_o(unused_sat34));
      if (SupportInt16) begin : g_wide
        logic signed [AccW-1:0] sat48, fp_sum;
        logic                   unused_sat48;
        dla_sat #(.InW(AccW + 1), .OutW(AccW)) u_sat48 (.data_i(add), .data_o(sat48), .sat_o(unused_sat48));
        // fp16 has one kernel per cell: outputs NumCells.. carry none
        if (SupportFp16 && k < NumCells) begin : g_fp
          cacc_fp_add u_fp_add (
            .acc_i (first_q ? '0 : acc_q[pos_q][u][k]),
            .word_i(in[43:0]),
            .sum_o (fp_sum)
          );
        end else begin : g_no_fp
          assign fp_sum = '0;
        end
        assign sum[u][k] = fp16 ? fp_sum : int16 ? sat48 : AccW'(sat34);
      end else begin : g_narrow
        assign sum[u][k] = sat34;
      end
    end
  end

  assign in_ready_o = !(in_channel_end_i && fifo_full);
  assign in_fire    = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q   <= '0;
      first_q <= 1'b1;
    end else if (start_i) begin
      pos_q   <= '0;
      first_q <= 1'b1;
    end else if (in_fire) begin
      pos_q <= in_stripe_end_i ? '0 : pos_q + 1'b1;
      if (in_stripe_end_i) first_q <= in_channel_end_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_fire && !in_channel_end_i) acc_q[pos_q] <= sum;
  end

  // ---------------------------------------------------------------- delivery FIFO
  logic [Subs-1:0][NumOut-1:0][AccW-1:0] fifo_head;  // the oldest finished vector (all subs)
  logic            fifo_ready, pop;
  logic [$clog2(FifoDepth + 1)-1:0] fifo_level;
  assign fifo_full = !fifo_ready;
  dla_fifo #(
    .Depth(FifoDepth),
    .Width(Subs * NumOut * AccW)
  ) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i && in_channel_end_i),
    .in_ready_o (fifo_ready),
    .in_data_i  (sum),
    .out_valid_o(fly_valid_o),
    .out_ready_i(pop),
    .out_data_o (fifo_head),
    .level_o    (fifo_level)
  );

  // ---------------------------------------------------------------- delivery to SDP
  localparam int unsigned IncW = $clog2(FlyLanes + 1);
  logic [4:0]       ak_log2;
  logic [LaneW-1:0] lane_q;
  logic [1:0]       sub_q;  // Winograd: position of the tile being delivered
  logic             last_sub;
  logic [13:0]      grp_q;
  logic [27:0]      dpos_q, positions;
  logic [13:0]      groups;
  logic             last_lane, last_pos, last_grp, fire;
  logic [FlyLanes-1:0] out_sat, real_k;
  logic [IncW-1:0]  sat_inc;
  assign ak_log2   = int16 ? 5'($clog2(NumCells)) : 5'(LaneW);
  assign groups    = 14'((15'(cfg_i.kernels) + (15'd1 << ak_log2) - 15'd1) >> ak_log2);
  // batches: every position delivers its N batches in turn (CSC's entry order)
  assign positions = 28'(cfg_i.out_w) * 28'(cfg_i.out_h) * (28'(cfg_i.batch_m1) + 28'd1);
  assign last_lane = 32'(lane_q) + FlyLanes == (32'd1 << ak_log2);
  assign last_pos  = dpos_q == positions - 28'd1;
  assign last_grp  = grp_q == groups - 14'd1;
  assign last_sub  = !wino || sub_q == 2'd3;

  logic [NumOut-1:0][AccW-1:0] head;  // the vector being delivered
  if (SupportWino) begin : g_head_wino
    assign head = fifo_head[sub_q];
  end else begin : g_head
    assign head = fifo_head[0];
  end
  for (genvar j = 0; j < FlyLanes; j++) begin : g_clip
    logic [LaneW-1:0] lane;
    assign lane      = lane_q + LaneW'(j);
    assign real_k[j] = ((14'(grp_q) << ak_log2) + 14'(lane)) < cfg_i.kernels;
    logic [31:0] clipped;
    logic        clip_sat;
    dla_sshift_sat #(
      .InW  (AccW),
      .OutW (32),
      .ShW  (6),
      .LeftW(1)
    ) u_clip (
      .data_i (head[lane]),
      .shift_i({1'b0, cfg_i.clip_truncate}),
      .data_o (clipped),
      .sat_o  (clip_sat)
    );
    if (SupportFp16) begin : g_fp_out
      logic [31:0] fp32;
      cacc_fp_to_fp32 u_fp32 (.acc_i(head[lane]), .fp32_o(fp32));
      assign fly_data_o[j] = fp16 ? fp32 : clipped;
      assign out_sat[j]    = !fp16 && clip_sat;
    end else begin : g_int_out
      assign fly_data_o[j] = clipped;
      assign out_sat[j]    = clip_sat;
    end
  end

  assign fire        = fly_valid_o && fly_ready_i;
  assign pop         = fire && last_lane && last_sub;
  assign done_o      = pop && last_pos && last_grp;
  // the count including the current beat: done_o comes with the layer's last element
  always_comb begin
    sat_inc = '0;
    for (int unsigned j = 0; j < FlyLanes; j++) sat_inc += IncW'(out_sat[j] && real_k[j]);
  end
  dla_perf_cnt #(.IncW(IncW)) u_sat_cnt (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (fire),
    .inc_i  (sat_inc),
    .count_o(sat_count_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lane_q <= '0;
      sub_q  <= '0;
      grp_q  <= '0;
      dpos_q <= '0;
    end else if (start_i) begin
      lane_q <= '0;
      sub_q  <= '0;
      grp_q  <= '0;
      dpos_q <= '0;
    end else if (fire) begin
      lane_q <= last_lane ? '0 : lane_q + LaneW'(FlyLanes);
      if (last_lane) begin
        sub_q  <= last_sub ? '0 : sub_q + 2'd1;
        dpos_q <= last_pos ? '0 : dpos_q + 28'd1;
        if (last_pos) grp_q <= last_grp ? '0 : grp_q + 14'd1;
      end
    end
  end

  logic unused;
  assign unused = ^{cfg_i, fifo_level, fp16};
endmodule
