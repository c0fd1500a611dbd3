// The line-buffer 3x3 engine of seed 003 (docs/LINEBUF.md): a descriptor per layer on `cfg`,
// pixels on `px` (row, channel, column), weight groups on `wt` (per output row, kernel, channel
// group), results on `out` (output row, kernel, column). 3x3 stride-1 convolution, pad 0/1
// stored with the lines, NumPe PEs over the channels of one kernel, a line of partial sums
// across channel groups, double-buffered weights, activation + requantize, fused 2x2 max pool.
// One pass (output row, kernel, group) takes Wp cycles; the engine waits (never drops) when
// the line it needs is not filled, the next weight group has not come, or the output is full.
// NumPe must be a power of two and MaxC a multiple of it; the descriptor must satisfy
// docs/LINEBUF.md §3 (the driver refuses what does not). A layer may read its input from and write
// its output to the on-chip map store (linebuf_map, MapWords values per bank, a power of two)
// instead of `px` / `out`: a stack's intermediate maps stay on chip.
module linebuf_core #(
  parameter int unsigned NumPe     = 4,
  parameter int unsigned LineDepth = 64,
  parameter int unsigned MaxC      = 64,
  parameter int unsigned MaxK      = 64,
  parameter int unsigned DataW     = 16,
  parameter int unsigned MapRows   = 16,  // line slots (a power of two >= 4); weights-once maps up to MapRows x MapRows padded
  parameter int unsigned MapWords  = 4096,  // on-chip map store: values per bank (a power of two)
  localparam int unsigned AccW     = 48,
  localparam int unsigned WtW      = 9 * NumPe * DataW + 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             cfg_valid_i,
  output logic             cfg_ready_o,
  input  linebuf_pkg::desc_t cfg_i,
  input  logic             px_valid_i,
  output logic             px_ready_o,
  input  logic [DataW-1:0] px_data_i,
  input  logic             wt_valid_i,
  output logic             wt_ready_o,
  input  logic [WtW-1:0]   wt_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [DataW-1:0] out_data_o,
  output logic             busy_o,
  // The last descriptor's refusal (0: taken; docs/LINEBUF.md §3): a refused descriptor starts
  // nothing and takes no pixel or weight. 1 W not in [1, LineDepth], 2 H = 0, 3 C not in
  // [1, MaxC], 4 K not in [1, MaxK], 5 pad 0 on a map under 3x3, 6 pool without a complete
  // window, 7 leaky slope above 1, 8 reserved act code 3, 9 weights once on a padded map above
  // MapRows x MapRows, 10 an on-chip input (C·H·W) or output (K·Ho'·Wo') above MapWords, 11 an
  // on-chip input while no layer has written the map store.
  output logic [3:0]       cfg_err_o
);
  localparam int unsigned PeLog = $clog2(NumPe);
  localparam int unsigned ChW   = $clog2(MaxC);
  localparam int unsigned PosW  = $clog2(LineDepth + 2);
  localparam int unsigned XW    = $clog2(LineDepth);
  localparam int unsigned KW    = $clog2(MaxK);
  localparam int unsigned SlotW = $clog2(MapRows);
  // Partial sums: a line (pixels once) or the whole output map (weights once).
  localparam int unsigned PsumDepth = (MapRows * MapRows > LineDepth) ? MapRows * MapRows : LineDepth;
  localparam int unsigned PsW   = $clog2(PsumDepth);
  localparam int unsigned MapAW = $clog2(MapWords);

  linebuf_pkg::desc_t d_q;
  logic        run_q;
  logic [16:0] wp, hp, ho, groups;

  always_comb begin
    wp     = {1'b0, d_q.width} + {15'b0, d_q.pad, 1'b0};
    hp     = {1'b0, d_q.height} + {15'b0, d_q.pad, 1'b0};
    ho     = hp - 17'd2;
    groups = ({1'b0, d_q.channels} + 17'(NumPe - 1)) >> PeLog;
  end

  assign cfg_ready_o = !run_q;
  assign busy_o      = run_q;

  logic [3:0] cfg_err, err_q;
  logic [16:0] c_wo, c_ho;     // the descriptor's output map (after pooling)
  logic [63:0] c_in_n, c_out_n;
  logic        last_out_q, map_valid_q, rd_bank_q;  // the map store: a map written, its bank
  always_comb begin
    c_wo    = {1'b0, cfg_i.width} + {15'b0, cfg_i.pad, 1'b0} - 17'd2;
    c_ho    = {1'b0, cfg_i.height} + {15'b0, cfg_i.pad, 1'b0} - 17'd2;
    if (cfg_i.pool) begin
      c_wo = c_wo >> 1;
      c_ho = c_ho >> 1;
    end
    c_in_n  = 64'(cfg_i.channels) * 64'(cfg_i.height) * 64'(cfg_i.width);
    c_out_n = 64'(cfg_i.kernels) * 64'(c_ho) * 64'(c_wo);
    cfg_err = 4'd0;
    if (cfg_i.width == '0 || 32'(cfg_i.width) > LineDepth) cfg_err = 4'd1;
    else if (cfg_i.height == '0) cfg_err = 4'd2;
    else if (cfg_i.channels == '0 || 32'(cfg_i.channels) > MaxC) cfg_err = 4'd3;
    else if (cfg_i.kernels == '0 || 32'(cfg_i.kernels) > MaxK) cfg_err = 4'd4;
    else if (!cfg_i.pad && (cfg_i.width < 16'd3 || cfg_i.height < 16'd3)) cfg_err = 4'd5;
    else if (cfg_i.pool && (({1'b0, cfg_i.width} + {15'b0, cfg_i.pad, 1'b0}) < 17'd4 ||
                            ({1'b0, cfg_i.height} + {15'b0, cfg_i.pad, 1'b0}) < 17'd4)) cfg_err = 4'd6;
    else if (cfg_i.act == linebuf_pkg::ActLeaky && 33'(cfg_i.leaky_slope) > (33'd1 << cfg_i.leaky_shift))
      cfg_err = 4'd7;
    else if (cfg_i.act == 2'd3) cfg_err = 4'd8;
    else if (cfg_i.wonce && (({1'b0, cfg_i.width} + {15'b0, cfg_i.pad, 1'b0}) > 17'(MapRows) ||
                             ({1'b0, cfg_i.height} + {15'b0, cfg_i.pad, 1'b0}) > 17'(MapRows))) cfg_err = 4'd9;
    else if ((cfg_i.in_chip && c_in_n > 64'(MapWords)) || (cfg_i.out_chip && c_out_n > 64'(MapWords)))
      cfg_err = 4'd10;
    else if (cfg_i.in_chip && !map_valid_q && !last_out_q) cfg_err = 4'd11;
  end
  assign cfg_err_o = err_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_q <= '0;
    else if (cfg_valid_i && cfg_ready_o) err_q <= cfg_err;
  end

  // The map store's banks: a layer writes its on-chip output into bank !rd_bank_q; when the next
  // descriptor comes, that bank becomes the one on-chip inputs read.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_out_q  <= 1'b0;
      map_valid_q <= 1'b0;
      rd_bank_q   <= 1'b0;
    end else if (cfg_valid_i && cfg_ready_o) begin
      last_out_q <= cfg_err == '0 && cfg_i.out_chip;
      if (last_out_q) begin
        rd_bank_q   <= !rd_bank_q;
        map_valid_q <= 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- filling the lines
  logic [16:0] fr_q, fc_q, fx_q;  // padded row, channel, padded column being written
  logic [16:0] cy_q, ck_q, cg_q, cc_q;  // output row, kernel, channel group, padded column
  logic        fill_can, pad_row, pad_col, fill_step;
  logic [31:0] map_rd_idx;  // on-chip input: the pixel's [c][y][x] index
  logic [DataW-1:0] map_rd_data, fill_data;

  always_comb begin
    fill_can   = run_q && fr_q < hp && (d_q.wonce || fr_q <= cy_q + 17'(MapRows - 1));
    pad_row    = d_q.pad && (fr_q == '0 || fr_q == hp - 17'd1);
    pad_col    = d_q.pad && (fx_q == '0 || fx_q == wp - 17'd1);
    px_ready_o = fill_can && !pad_row && !pad_col && !d_q.in_chip;
    fill_step  = fill_can && (pad_row || pad_col || d_q.in_chip || px_valid_i);
    map_rd_idx = (32'(fc_q) * 32'(d_q.height) + 32'(fr_q) - 32'(d_q.pad)) * 32'(d_q.width) + 32'(fx_q) -
                 32'(d_q.pad);
    fill_data  = pad_col ? '0 : d_q.in_chip ? map_rd_data : px_data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fr_q <= '0;
      fc_q <= '0;
      fx_q <= '0;
    end else if (cfg_valid_i && cfg_ready_o) begin
      fr_q <= '0;
      fc_q <= '0;
      fx_q <= '0;
    end else if (fill_step) begin
      if (pad_row) begin
        fr_q <= fr_q + 17'd1;
      end else if (fx_q == wp - 17'd1) begin
        fx_q <= '0;
        if (fc_q == {1'b0, d_q.channels} - 17'd1) begin
          fc_q <= '0;
          fr_q <= fr_q + 17'd1;
        end else begin
          fc_q <= fc_q + 17'd1;
        end
      end else begin
        fx_q <= fx_q + 17'd1;
      end
    end
  end

  logic [NumPe*3*DataW-1:0] cols;

  linebuf_lines #(
    .NumPe    (NumPe),
    .LineDepth(LineDepth),
    .MaxC     (MaxC),
    .DataW    (DataW),
    .Slots    (MapRows)
  ) u_lines (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .wr_i         (fill_step),
    .wr_zero_row_i(pad_row),
    .wr_slot_i    (fr_q[SlotW-1:0]),
    .wr_ch_i      (fc_q[ChW-1:0]),
    .wr_pos_i     (fx_q[PosW-1:0]),
    .wr_data_i    (fill_data),
    .rd_slot_i    (cy_q[SlotW-1:0]),
    .rd_ch_i      (ChW'(cg_q << PeLog)),
    .rd_pos_i     (cc_q[PosW-1:0]),
    .rd_data_o    (cols)
  );

  // ---------------------------------------------------------------- weights
  logic             wb_valid, wb_in_ready, wb_release, w_done_q;
  logic [WtW-1:0]   wb_data;
  logic [16:0]      wy_q, wk_q, wg_q;
  logic             wt_fire;

  assign wt_ready_o = run_q && !w_done_q && wb_in_ready;
  assign wt_fire    = wt_valid_i && wt_ready_o;

  linebuf_wbank #(.Width(WtW)) u_wbank (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clear_i   (cfg_valid_i && cfg_ready_o),
    .in_valid_i(wt_valid_i && run_q && !w_done_q),
    .in_ready_o(wb_in_ready),
    .in_data_i (wt_data_i),
    .valid_o   (wb_valid),
    .data_o    (wb_data),
    .release_i (wb_release)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wy_q     <= '0;
      wk_q     <= '0;
      wg_q     <= '0;
      w_done_q <= 1'b0;
    end else if (cfg_valid_i && cfg_ready_o) begin
      wy_q     <= '0;
      wk_q     <= '0;
      wg_q     <= '0;
      w_done_q <= 1'b0;
    end else if (wt_fire) begin
      // Pixels once: per output row, kernel, group; weights once: per kernel, group.
      if (wg_q == groups - 17'd1) begin
        wg_q <= '0;
        if (wk_q == {1'b0, d_q.kernels} - 17'd1) begin
          wk_q <= '0;
          wy_q <= wy_q + 17'd1;
          if (d_q.wonce || wy_q == ho - 17'd1) w_done_q <= 1'b1;
        end else begin
          wk_q <= wk_q + 17'd1;
        end
      end else begin
        wg_q <= wg_q + 17'd1;
      end
    end
  end

  // ---------------------------------------------------------------- PEs and partial sums
  logic                   fifo_in_ready, adv, col_out, last_g, end_pass;
  logic signed [AccW-1:0] pe_sum[NumPe];
  logic signed [AccW-1:0] sum, base, acc;
  logic signed [AccW-1:0] psum_q[PsumDepth];
  logic [XW-1:0]          x;
  logic [PsW-1:0]         pb_q, pi;  // weights once: psum base of the output row (cy * Wo); index

  always_comb begin
    adv      = run_q && fr_q >= cy_q + 17'd3 && wb_valid && fifo_in_ready;
    col_out  = cc_q >= 17'd2;
    x        = XW'(cc_q - 17'd2);
    last_g   = cg_q == groups - 17'd1;
    end_pass = adv && cc_q == wp - 17'd1;
    pi       = pb_q + PsW'(x);
  end
  // Weights once: a group's weights serve every output row.
  assign wb_release = end_pass && (!d_q.wonce || cy_q == ho - 17'd1);

  for (genvar p = 0; p < NumPe; p++) begin : g_pe
    logic [3*DataW-1:0] col;
    // Channels at or beyond C read as zeros: their weights never count.
    assign col = ((cg_q << PeLog) + 17'(p) < {1'b0, d_q.channels}) ? cols[3*p*DataW +: 3*DataW] : '0;
    linebuf_pe #(.DataW(DataW), .SumW(AccW)) u_pe (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .shift_i(adv),
      .col_i  (col),
      .w_i    (wb_data[9*p*DataW +: 9*DataW]),
      .sum_o  (pe_sum[p])
    );
  end

  always_comb begin
    sum = '0;
    for (int unsigned p = 0; p < NumPe; p++) sum = sum + pe_sum[p];
    base = (cg_q == '0) ? AccW'($signed(wb_data[9*NumPe*DataW +: 32])) : psum_q[pi];
    acc  = base + sum;
  end

  always_ff @(posedge clk_i) begin
    if (adv && col_out && !last_g) psum_q[pi] <= acc;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
      d_q   <= '0;
      cy_q  <= '0;
      ck_q  <= '0;
      cg_q  <= '0;
      cc_q  <= '0;
    end else if (cfg_valid_i && cfg_ready_o) begin
      run_q <= cfg_err == '0;
      d_q   <= cfg_i;
      cy_q  <= '0;
      ck_q  <= '0;
      cg_q  <= '0;
      cc_q  <= '0;
    end else if (adv) begin
      if (cc_q != wp - 17'd1) begin
        cc_q <= cc_q + 17'd1;
      end else if (!d_q.wonce) begin
        // Pixels once: column, channel group, kernel, output row.
        cc_q <= '0;
        if (last_g) begin
          cg_q <= '0;
          if (ck_q == {1'b0, d_q.kernels} - 17'd1) begin
            ck_q <= '0;
            cy_q <= cy_q + 17'd1;
            if (cy_q == ho - 17'd1) run_q <= 1'b0;
          end else begin
            ck_q <= ck_q + 17'd1;
          end
        end else begin
          cg_q <= cg_q + 17'd1;
        end
      end else begin
        // Weights once: column, output row, channel group, kernel.
        cc_q <= '0;
        if (cy_q == ho - 17'd1) begin
          cy_q <= '0;
          if (last_g) begin
            cg_q <= '0;
            if (ck_q == {1'b0, d_q.kernels} - 17'd1) run_q <= 1'b0;
            else ck_q <= ck_q + 17'd1;
          end else begin
            cg_q <= cg_q + 17'd1;
          end
        end else begin
          cy_q <= cy_q + 17'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pb_q <= '0;
    else if (cfg_valid_i && cfg_ready_o) pb_q <= '0;
    else if (d_q.wonce && end_pass) pb_q <= (cy_q == ho - 17'd1) ? '0 : pb_q + PsW'(wp - 17'd2);
  end

  // ---------------------------------------------------------------- output stage, pool, FIFO
  logic [DataW-1:0] res, pooled;
  logic             pooled_valid;
  logic [$clog2(3)-1:0] unused_level;

  linebuf_out #(.AccW(AccW), .DataW(DataW)) u_out (
    .acc_i        (acc),
    .act_i        (d_q.act),
    .slope_i      (d_q.leaky_slope),
    .slope_shift_i(d_q.leaky_shift),
    .out_shift_i  (d_q.out_shift),
    .int16_i      (d_q.int16),
    .data_o       (res)
  );

  linebuf_pool #(.LineDepth(LineDepth), .MaxK(MaxK), .DataW(DataW)) u_pool (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .pool_i (d_q.pool),
    .valid_i(adv && col_out && last_g),
    .data_i (res),
    .k_i    (ck_q[KW-1:0]),
    .x_i    (x),
    .y_odd_i(cy_q[0]),
    .valid_o(pooled_valid),
    .data_o (pooled)
  );

  // On-chip output: the pooled stream's position walks the output map in the dataflow's order
  // (pixels once: row, kernel, column; weights once: kernel, row, column) and the value goes to
  // [k][y][x] of the write bank instead of the output FIFO.
  logic [16:0] o_wo, o_ho, ox_q, oy_q, ok_q;
  logic [31:0] map_wr_idx;
  logic        o_last_x, o_last_y, o_last_k;
  always_comb begin
    o_wo       = d_q.pool ? (wp - 17'd2) >> 1 : wp - 17'd2;
    o_ho       = d_q.pool ? ho >> 1 : ho;
    o_last_x   = ox_q == o_wo - 17'd1;
    o_last_y   = oy_q == o_ho - 17'd1;
    o_last_k   = ok_q == {1'b0, d_q.kernels} - 17'd1;
    map_wr_idx = (32'(ok_q) * 32'(o_ho) + 32'(oy_q)) * 32'(o_wo) + 32'(ox_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ox_q <= '0;
      oy_q <= '0;
      ok_q <= '0;
    end else if (cfg_valid_i && cfg_ready_o) begin
      ox_q <= '0;
      oy_q <= '0;
      ok_q <= '0;
    end else if (pooled_valid) begin
      ox_q <= o_last_x ? '0 : ox_q + 17'd1;
      if (o_last_x && !d_q.wonce) begin
        ok_q <= o_last_k ? '0 : ok_q + 17'd1;
        if (o_last_k) oy_q <= oy_q + 17'd1;
      end else if (o_last_x) begin
        oy_q <= o_last_y ? '0 : oy_q + 17'd1;
        if (o_last_y) ok_q <= ok_q + 17'd1;
      end
    end
  end

  logic [63-2*MapAW:0] unused_map_idx;  // indices are below MapWords (refusal 10)
  assign unused_map_idx = {map_wr_idx[31:MapAW], map_rd_idx[31:MapAW]};

  linebuf_map #(.MapWords(MapWords), .DataW(DataW)) u_map (
    .clk_i    (clk_i),
    .wr_i     (pooled_valid && d_q.out_chip),
    .wr_bank_i(!rd_bank_q),
    .wr_addr_i(map_wr_idx[MapAW-1:0]),
    .wr_data_i(pooled),
    .rd_bank_i(rd_bank_q),
    .rd_addr_i(map_rd_idx[MapAW-1:0]),
    .rd_data_o(map_rd_data)
  );

  dla_fifo #(.Depth(2), .Width(DataW)) u_out_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (pooled_valid && !d_q.out_chip),
    .in_ready_o (fifo_in_ready),
    .in_data_i  (pooled),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (out_data_o),
    .level_o    (unused_level)
  );
endmodule
