// CSC for direct convolution (conv-pipeline.md §5): two independent sequencers over the same
// loop nest
//     kernel group g -> stripe (16/8/rest on nv_small) -> channel block b -> r -> s
// synchronised through the MAC array's shadow weight registers:
//   * the weight loader sends, per (g, stripe, b, r, s), one beat per MAC cell holding the
//     weights W[k][b-block][r][s] of its kernel(s) (channels >= C and kernels >= K zero),
//     wt_last on the set's last beat; it waits until the set's weights are in CBUF and, when it
//     leaves a group, releases that group's bytes of the weight ring to CDMA;
//   * the data issuer sends for every (b, r, s) pass the data atoms of the stripe's positions
//     (PAD_VALUE outside the input, 0 for channels >= C), each once its input line is in CBUF
//     (dat_lines_i: CDMA delivers whole lines in order), tagged
//     stripe_st (first position: the array swaps the shadow set in), stripe_end (last position)
//     and channel_end (every position of the stripe's last pass).
// One atomic operation per cycle while the array accepts; the weight set of the next pass loads
// while the current pass runs (passes of >= NumCells positions never wait).
//
// Batches (cfg.batch_m1 = N - 1, direct feature input): a stripe's entries are (position, batch)
// pairs, batch innermost (cdma-input-modes.md §4.3), so one weight set serves every batch; the
// stripe rule partitions the W'*H'*N entries (N = 1: positions), so a stripe never holds more
// entries than CACC's accumulators. Batch n of input line hi is CBUF slice hi*N + n.
//
// Compressed weights (cfg.wt_comp, WmbRows > 0, nv_full; docs/CDMA_MODES.md §2): the weight ring
// holds the packed non-zero stream and CBUF's mask ring (bank 15) the mask bits. The loader walks
// the same sets and cells; a cell is the next n = (kernels of the cell) x channels elements of
// the uncompressed stream, so the loader keeps a mask bit pointer and a packed byte pointer,
// reads n mask bits and the packed bytes from there and expands them (conv_csc_wdec), both
// pointers continuing cell by cell, back to the kernel group's first bit / byte for each stripe
// and on to the next group's (the current ones) at a group change. A cell goes once its mask
// bits and its packed bytes are in CBUF; the group's first byte / mask byte is the release.
//
// Winograd (cfg.wino, SupportWino): the same two sequencers over
//     kernel group g -> stripe of 2x2 output tiles -> channel group q (4 extended channels)
// with one "position" per tile and R = S = 1: a weight set is one (g, q): per cell the
// pre-transformed 16 positions x 4 channels of its kernel(s), 64 contiguous elements per kernel
// in the stream; a data beat is the tile's 4x4 x 4-channel input (four CBUF rows, see
// conv_cdma_walk; PAD_VALUE outside the input, CDMA's padding) through the PRA (wino_pra_tile
// per channel, PRA_TRUNCATE), lane 4*p + ch.
module conv_csc #(
  parameter int unsigned AtomLog2     = 3,  // memory atom bytes (log2): the CBUF entry packing
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned CbufRows     = 16384,
  parameter int unsigned StripeLower  = 8,
  parameter int unsigned StripeUpper  = 16,
  parameter bit          SupportWino  = 1'b0,
  parameter bit          SupportFp16  = 1'b0,  // NVDLA v1's fp16: the PRA in fp16 (Winograd)
  parameter int unsigned WmbRows      = 0,  // rows of CBUF's mask ring (0: no compressed weights)
  localparam int unsigned DatRdPorts  = SupportWino ? 8 : 2,  // Winograd 4, image 2 per line
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW       = AtomicC * DataW,
  localparam int unsigned RowBytes    = WordW / 8,
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1,
  localparam int unsigned NumOut      = NumCells * KernPerCell,
  localparam int unsigned CellW       = NumCells > 1 ? $clog2(NumCells) : 1,
  localparam int unsigned RowW        = $clog2(CbufRows),
  localparam int unsigned RowAtoms    = WordW / (8 << AtomLog2)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  // CBUF state from CDMA
  input  logic [13:0]         dat_lines_i,   // complete input lines in CBUF
  input  logic [31:0]         wt_written_i,
  output logic [31:0]         wt_release_o,
  input  logic [RowW:0]       wt_ring_i,     // rows of the weight ring (D_BANK.WEIGHT_BANK)
  // CBUF reads
  output logic [DatRdPorts-1:0][RowW-1:0] dat_rrow_o,
  input  logic [DatRdPorts-1:0][WordW-1:0] dat_rdata_i,
  output logic [RowW-1:0]     wt_rrow0_o,   // ring rows
  input  logic [WordW-1:0]    wt_rdata0_i,
  output logic [RowW-1:0]     wt_rrow1_o,
  input  logic [WordW-1:0]    wt_rdata1_i,
  // compressed weights: the mask ring
  input  logic [31:0]         wmb_written_i,  // mask bytes in CBUF
  output logic [31:0]         wmb_release_o,  // mask bytes done with
  output logic [1:0][RowW-1:0]  wmb_rrow_o,   // mask ring rows
  input  logic [1:0][WordW-1:0] wmb_rdata_i,
  // MAC array
  output logic                wt_valid_o,
  input  logic                wt_ready_i,
  output logic [CellW-1:0]    wt_cell_o,
  output logic [WordW-1:0]    wt_data_o,
  output logic                wt_last_o,
  output logic                dat_valid_o,
  input  logic                dat_ready_i,
  output logic [WordW-1:0]    dat_data_o,
  output logic                dat_stripe_st_o,
  output logic                dat_stripe_end_o,
  output logic                dat_channel_end_o
);
  localparam int unsigned CLog2   = $clog2(AtomicC);
  localparam int unsigned RowLog2 = $clog2(RowBytes);
  localparam int unsigned KLog2   = $clog2(NumOut);
  localparam int unsigned CellLog2 = $clog2(NumCells);

  // ---------------------------------------------------------------- geometry
  // Winograd runs the direct loops with one position per 2x2 output tile, channel groups of 4
  // as blocks and a 1x1 kernel.
  logic        int16, wino;
  logic [13:0] blocks, groups, cpb_last, kpg_last, e_out_w, e_out_h;
  logic [5:0]  e_kern_w, e_kern_h;
  logic [27:0] npos, nent;
  logic [4:0]  ak_log2;
  assign int16    = SupportInt16 && cfg_i.int16;
  assign wino     = SupportWino && cfg_i.wino;
  assign ak_log2  = int16 ? 5'(CellLog2) : 5'(KLog2);
  assign blocks   = wino ? 14'((15'(cfg_i.in_c) + 15'd3) >> 2)
                         : 14'((15'(cfg_i.in_c) + 15'(AtomicC - 1)) >> CLog2);
  assign groups   = 14'((15'(cfg_i.kernels) + (15'd1 << ak_log2) - 15'd1) >> ak_log2);
  assign cpb_last = wino ? 14'(AtomicC) : cfg_i.in_c - ((blocks - 14'd1) << CLog2);
  assign kpg_last = cfg_i.kernels - ((groups - 14'd1) << ak_log2);
  assign e_out_w  = wino ? cfg_i.out_w >> 1 : cfg_i.out_w;
  assign e_kern_w = wino ? 6'd1 : cfg_i.kern_w;
  // image with post-extension (nv_full, where SupportWino): row groups of E = 2^post_e rows
  logic       post;
  logic [1:0] post_e;
  assign post     = SupportWino && cfg_i.img && cfg_i.post_e != 2'd0;
  assign post_e   = post ? cfg_i.post_e : 2'd0;
  assign e_kern_h = wino ? 6'd1 : post ? (cfg_i.kern_h + (6'd1 << post_e) - 6'd1) >> post_e : cfg_i.kern_h;
  assign e_out_h  = wino ? cfg_i.out_h >> 1 : cfg_i.out_h;
  assign npos     = 28'(e_out_w) * 28'(e_out_h);
  assign nent     = npos * (28'(cfg_i.batch_m1) + 28'd1);  // stripe entries of a kernel group

  // direct: memory atoms per position and per channel block (log2), atoms per CBUF entry (log2)
  localparam logic [1:0] ALog2 = 2'($clog2(RowAtoms));
  logic [13:0] atoms;
  logic [1:0]  apb_log2;
  assign atoms    = 14'(((int16 ? {cfg_i.in_c, 1'b0} : {1'b0, cfg_i.in_c}) + 15'((1 << AtomLog2) - 1)) >> AtomLog2);
  assign apb_log2 = 2'(CLog2 + 32'(int16) - AtomLog2);

  logic [27:0] positions_q, nbw_q;
  logic [10:0] rs_q;  // R*S
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      positions_q <= nent;
      // direct: NVDLA's entries per slice; W-fold: its own rows, G blocks x Wf (docs/WFOLD.md)
      nbw_q       <= cfg_i.wfold ? 28'(blocks) * 28'(cfg_i.in_w) : conv_pkg::dc_eps(atoms, cfg_i.in_w, ALog2);
      rs_q        <= 11'(e_kern_h) * 11'(e_kern_w);
    end
  end

  // ================================================================ weight loader
  logic        wl_act_q;
  logic [13:0] wg_q, wb_q;
  logic [5:0]  wr_q, ws_q;
  logic [CellW:0] wc_q;
  logic [27:0] wleft_q;
  logic [31:0] wgrp_base_q, wblk_base_q, wrs_base_q;
  logic [RowW:0] wgrp_row_q;  // ring row of wgrp_base_q (wgrp_base_q / RowBytes mod wt_ring_i)

  logic [13:0] w_kpg, w_cpb;
  logic [CellW:0] w_cells;
  logic        w_last_c, w_last_s, w_last_r, w_last_b, w_last_stripe, w_last_g, w_fire;
  logic [27:0] w_len;
  logic [31:0] w_rs_step, w_blk_step, w_cell_off, w_set_end;
  // compressed weights (see below)
  localparam int unsigned CntW    = $clog2(RowBytes) + 1;
  localparam int unsigned MaskLog2 = $clog2(WordW);  // mask bits per CBUF row
  logic            comp;
  logic [34:0]     mp_q, gmp_q, c_mp_nx;  // mask bit pointer (uncompressed element), group's first
  logic [31:0]     dp_q, gdp_q, c_dp_nx;  // packed byte pointer, group's first
  logic [RowW:0]   dp_row_q, gdp_row_q, mp_row_q, gmp_row_q, c_dp_row_nx, c_mp_row_nx;
  logic [RowW-1:0] c_dp_row1, c_mp_row1;
  logic [CntW-1:0] c_n, c_cnt;
  logic [31:0]     c_bytes;
  logic [WordW-1:0] c_data;
  logic [2*WordW-1:0] c_mask_win, c_pack_win;
  logic            c_stripe_end;
  logic        kpc2;  // two int8 kernels per cell
  assign kpc2       = KernPerCell == 2 && !int16;
  assign w_kpg      = (wg_q == groups - 14'd1) ? kpg_last : (14'd1 << ak_log2);
  // post-extension: a kernel's row group is its n_q rows' C' elements, compact (§3)
  logic [5:0] w_rows_left;
  logic [2:0] w_rows;
  assign w_rows_left = cfg_i.kern_h - (6'(wr_q) << post_e);
  assign w_rows     = (w_rows_left > (6'd1 << post_e)) ? 3'd1 << post_e : 3'(w_rows_left);
  assign w_cpb      = post ? 14'(w_rows) * cpb_last
                    : (wb_q == blocks - 14'd1) ? cpb_last : 14'(AtomicC);
  assign w_cells    = kpc2 ? (CellW + 1)'((w_kpg + 14'd1) >> 1) : (CellW + 1)'(w_kpg);
  assign w_len      = conv_pkg::stripe_len(wleft_q, 28'(StripeLower), 28'(StripeUpper));
  assign w_last_c   = wc_q == w_cells - 1'b1;
  assign w_last_s   = 6'(ws_q) == e_kern_w - 6'd1;
  assign w_last_r   = 6'(wr_q) == e_kern_h - 6'd1;
  assign w_last_b   = wb_q == blocks - 14'd1;
  assign w_last_stripe = wleft_q == w_len;
  assign w_last_g   = wg_q == groups - 14'd1;
  // byte strides of the weight stream (conv-pipeline.md §2.2, bpe-byte elements)
  assign w_rs_step  = (32'(w_cpb) * 32'(w_kpg)) << int16;
  assign w_blk_step = ((32'(AtomicC) * 32'(rs_q) * 32'(w_kpg)) << int16);
  assign w_cell_off = (32'(wc_q) * 32'(w_cpb) << int16) << kpc2;

  // A weight set goes as soon as its own bytes are in CBUF (the stream holds the sets in loop
  // order), so the first stripe overlaps the fetch of the rest of its group.
  assign w_set_end  = wgrp_base_q + wblk_base_q + wrs_base_q + w_rs_step;
  // Compressed: a cell goes once its mask bits and packed bytes are in CBUF.
  assign wt_valid_o = wl_act_q && (comp ? (35'(wmb_written_i) << 3) >= c_mp_nx && wt_written_i >= c_dp_nx
                                        : wt_written_i >= w_set_end);
  assign w_fire     = wt_valid_o && wt_ready_i;
  assign wt_cell_o  = CellW'(wc_q);
  assign wt_last_o  = w_last_c;
  assign wt_release_o = comp ? gdp_q : wgrp_base_q;
  assign wmb_release_o = 32'(gmp_q >> 3);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wl_act_q    <= 1'b0;
      wg_q        <= '0;
      wb_q        <= '0;
      wr_q        <= '0;
      ws_q        <= '0;
      wc_q        <= '0;
      wleft_q     <= '0;
      wgrp_base_q <= '0;
      wgrp_row_q  <= '0;
      wblk_base_q <= '0;
      wrs_base_q  <= '0;
    end else if (start_i) begin
      wl_act_q    <= 1'b1;
      wg_q        <= '0;
      wb_q        <= '0;
      wr_q        <= '0;
      ws_q        <= '0;
      wc_q        <= '0;
      wleft_q     <= nent;
      wgrp_base_q <= '0;
      wgrp_row_q  <= '0;
      wblk_base_q <= '0;
      wrs_base_q  <= '0;
    end else if (w_fire) begin
      wc_q <= w_last_c ? '0 : wc_q + 1'b1;
      if (w_last_c) begin
        ws_q       <= w_last_s ? '0 : ws_q + 6'd1;
        wrs_base_q <= wrs_base_q + w_rs_step;
        if (w_last_s) begin
          wr_q <= w_last_r ? '0 : wr_q + 6'd1;
          if (w_last_r) begin
            wb_q        <= w_last_b ? '0 : wb_q + 14'd1;
            wrs_base_q  <= '0;
            wblk_base_q <= wblk_base_q + w_blk_step;
            if (w_last_b) begin
              wblk_base_q <= '0;
              wleft_q     <= wleft_q - w_len;
              if (w_last_stripe) begin
                wleft_q     <= positions_q;
                wg_q        <= wg_q + 14'd1;
                wgrp_base_q <= wgrp_base_q + (32'(cfg_i.byte_per_kernel) << ak_log2);
                wgrp_row_q  <= w_grp_next;
                if (w_last_g) wl_act_q <= 1'b0;
              end
            end
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- compressed weights
  assign comp    = WmbRows > 0 && cfg_i.wt_comp;
  // the cell's elements: its kernel(s) x channels
  assign c_n     = CntW'((kpc2 && 14'(2 * wc_q + 1) < w_kpg) ? w_cpb << 1 : w_cpb);
  // (zero for uncompressed layers: the decompressor then idles, which keeps simulation cheap)
  assign c_mask_win = comp ? {wmb_rdata_i[1], wmb_rdata_i[0]} >> mp_q[MaskLog2-1:0] : '0;
  assign c_pack_win = comp ? {wt_rdata1_i, wt_rdata0_i} >> {dp_q[RowLog2-1:0], 3'b000} : '0;
  conv_csc_wdec #(
    .RowBytes(RowBytes), .SupportInt16(SupportInt16)
  ) u_wdec (
    .int16_i(int16), .n_i(c_n), .mask_i(c_mask_win[RowBytes-1:0]), .packed_i(c_pack_win[WordW-1:0]),
    .data_o(c_data), .cnt_o(c_cnt)
  );
  assign c_bytes     = 32'(c_cnt) << int16;
  assign c_mp_nx     = mp_q + 35'(c_n);
  assign c_dp_nx     = dp_q + c_bytes;
  // a cell moves each pointer into the next ring row at most (n <= a row's elements)
  assign c_dp_row_nx = (32'(dp_q[RowLog2-1:0]) + c_bytes < 32'(RowBytes)) ? dp_row_q
                     : (dp_row_q + 1'b1 == wt_ring_i) ? '0 : dp_row_q + 1'b1;
  assign c_mp_row_nx = (32'(mp_q[MaskLog2-1:0]) + 32'(c_n) < 32'(WordW)) ? mp_row_q
                     : (mp_row_q + 1'b1 == (RowW + 1)'(WmbRows)) ? '0 : mp_row_q + 1'b1;
  assign c_dp_row1   = (dp_row_q + 1'b1 == wt_ring_i) ? '0 : RowW'(dp_row_q + 1'b1);
  assign c_mp_row1   = (mp_row_q + 1'b1 == (RowW + 1)'(WmbRows)) ? '0 : RowW'(mp_row_q + 1'b1);
  assign wmb_rrow_o  = {c_mp_row1, RowW'(mp_row_q)};
  assign c_stripe_end = w_last_c && w_last_s && w_last_r && w_last_b;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {mp_q, gmp_q, dp_q, gdp_q, dp_row_q, gdp_row_q, mp_row_q, gmp_row_q} <= '0;
    end else if (start_i) begin
      {mp_q, gmp_q, dp_q, gdp_q, dp_row_q, gdp_row_q, mp_row_q, gmp_row_q} <= '0;
    end else if (w_fire && comp) begin
      mp_q     <= c_mp_nx;
      dp_q     <= c_dp_nx;
      mp_row_q <= c_mp_row_nx;
      dp_row_q <= c_dp_row_nx;
      if (c_stripe_end && !w_last_stripe) begin
        // the next stripe of the group reads the group's weights again
        mp_q     <= gmp_q;
        dp_q     <= gdp_q;
        mp_row_q <= gmp_row_q;
        dp_row_q <= gdp_row_q;
      end else if (c_stripe_end) begin
        gmp_q     <= c_mp_nx;
        gdp_q     <= c_dp_nx;
        gmp_row_q <= c_mp_row_nx;
        gdp_row_q <= c_dp_row_nx;
      end
    end
  end

  // Weight bytes of one cell: a window of two consecutive ring rows from the set's offset.
  logic [2*WordW-1:0] w_window;
  logic [WordW-1:0]   w_lo, w_hi, w_word;
  logic [RowBytes-1:0] w_mask_k, w_mask_16;
  // Ring rows: the group's ring row plus the rows from there (a group holds at most the ring's
  // bytes, D_BANK.WEIGHT_BANK >= one kernel group, so one wrap at most).
  logic [31:0]   w_in_grp, w_grp_adv;
  logic [RowW+1:0] w_row_sum, w_grp_sum;
  logic [RowW:0] w_row0, w_grp_next;
  logic [RowW-1:0] w_row1;
  assign w_in_grp   = 32'(wgrp_base_q[RowLog2-1:0]) + wblk_base_q + wrs_base_q + w_cell_off;
  assign w_row_sum  = (RowW + 2)'(wgrp_row_q) + (RowW + 2)'(w_in_grp >> RowLog2);
  assign w_row0     = (w_row_sum >= (RowW + 2)'(wt_ring_i)) ? (RowW + 1)'(w_row_sum - (RowW + 2)'(wt_ring_i))
                                                            : (RowW + 1)'(w_row_sum);
  assign w_row1     = (w_row0 + 1'b1 == wt_ring_i) ? '0 : RowW'(w_row0 + 1'b1);
  assign w_grp_adv  = 32'(wgrp_base_q[RowLog2-1:0]) + (32'(cfg_i.byte_per_kernel) << ak_log2);
  assign w_grp_sum  = (RowW + 2)'(wgrp_row_q) + (RowW + 2)'(w_grp_adv >> RowLog2);
  assign w_grp_next = (w_grp_sum >= (RowW + 2)'(wt_ring_i)) ? (RowW + 1)'(w_grp_sum - (RowW + 2)'(wt_ring_i))
                                                            : (RowW + 1)'(w_grp_sum);
  assign wt_rrow0_o = comp ? RowW'(dp_row_q) : RowW'(w_row0);
  assign wt_rrow1_o = comp ? c_dp_row1 : w_row1;
  assign w_window   = comp ? {{WordW{1'b0}}, c_data} : {wt_rdata1_i, wt_rdata0_i} >> {w_in_grp[RowLog2-1:0], 3'b000};
  always_comb begin
    for (int unsigned i = 0; i < RowBytes; i++) begin
      w_mask_k[i]  = 14'(i) < w_cpb;
      w_mask_16[i] = 14'(i) < (w_cpb << 1);
    end
  end
  always_comb begin
    w_lo = '0;
    w_hi = '0;
    for (int unsigned i = 0; i < RowBytes; i++) begin
      if (w_mask_k[i]) w_lo[8*i +: 8] = w_window[8*i +: 8];
    end
    w_word = w_lo;
    if (SupportInt16) begin
      if (int16) begin
        for (int unsigned i = 0; i < RowBytes; i++) begin
          w_word[8*i +: 8] = w_mask_16[i] ? w_window[8*i +: 8] : 8'd0;
        end
      end else begin
        // two kernels per cell: kernel 2c in bytes [0, AtomicC), 2c+1 in [AtomicC, 2*AtomicC)
        w_hi = w_window[WordW-1:0] >> {w_cpb, 3'b000};
        for (int unsigned i = 0; i < RowBytes / 2; i++) begin
          w_word[8*(i + RowBytes / 2) +: 8] =
              (w_mask_k[i] && 14'(2 * wc_q + 1) < w_kpg) ? w_hi[8*i +: 8] : 8'd0;
        end
      end
    end
  end
  if (SupportWino) begin : g_post_wt
    conv_csc_img_wt #(
      .AtomicC(AtomicC), .SupportInt16(SupportInt16)
    ) u_post_wt (
      .int16_i(int16), .post_i(post_e), .cext_i(7'(cpb_last)), .data_i(w_word), .data_o(wt_data_o)
    );
  end else begin : g_no_post_wt
    assign wt_data_o = w_word;
  end

  // ================================================================ data issuer
  logic        di_act_q;
  logic [13:0] dg_q, db_q;
  logic [5:0]  dr_q, ds_q;
  logic [27:0] dleft_q, dlen_q, di_q;
  logic [13:0] dp0h_q, dp0w_q, dph_q, dpw_q;
  logic [4:0]  dn0_q, dn_q;  // batch of the stripe's first entry, of the current entry
  logic [13:0] d_nx_h, d_nx_w;
  logic [4:0]  d_nx_n;
  logic        d_last_n;
  logic        d_last_s, d_last_r, d_last_b, d_last_i, d_last_stripe, d_last_g, d_fire, d_pw_wrap;
  logic [27:0] d_next_left;
  logic [13:0] d_cpb;
  assign d_last_s      = 6'(ds_q) == e_kern_w - 6'd1;
  assign d_last_r      = 6'(dr_q) == e_kern_h - 6'd1;
  assign d_last_b      = db_q == blocks - 14'd1;
  assign d_last_i      = di_q == dlen_q - 28'd1;
  assign d_next_left   = dleft_q - dlen_q;
  assign d_last_stripe = d_next_left == '0;
  assign d_last_g      = dg_q == groups - 14'd1;
  assign d_pw_wrap     = dpw_q == e_out_w - 14'd1;
  assign d_cpb         = d_last_b ? cpb_last : 14'(AtomicC);
  // the entry after the current one: the next batch, or batch 0 of the next position
  assign d_last_n      = dn_q == cfg_i.batch_m1;
  assign d_nx_n        = d_last_n ? '0 : dn_q + 5'd1;
  assign d_nx_w        = !d_last_n ? dpw_q : d_pw_wrap ? '0 : dpw_q + 14'd1;
  assign d_nx_h        = (d_last_n && d_pw_wrap) ? dph_q + 14'd1 : dph_q;

  // A position goes once its input line is in CBUF (padding needs none); a Winograd tile once
  // its four extended lines are.
  logic d_lines_ok;
  assign d_lines_ok        = wino ? 15'(dph_q) * 15'd2 + 15'd3 < 15'(dat_lines_i)
                           : cfg_i.img ? (hi + $signed(20'(d_rows)) - 20'sd1 < $signed(20'(dat_lines_i)) ||
                                          dat_lines_i == cfg_i.in_h)
                                  : (!in_range || slice < $signed(24'(dat_lines_i)));
  assign dat_valid_o       = di_act_q && d_lines_ok;
  assign d_fire            = dat_valid_o && dat_ready_i;
  assign dat_stripe_st_o   = di_q == '0;
  assign dat_stripe_end_o  = d_last_i;
  assign dat_channel_end_o = d_last_b && d_last_r && d_last_s;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      di_act_q <= 1'b0;
      dg_q     <= '0;
      db_q     <= '0;
      dr_q     <= '0;
      ds_q     <= '0;
      dleft_q  <= '0;
      dlen_q   <= '0;
      di_q     <= '0;
      dp0h_q   <= '0;
      dp0w_q   <= '0;
      dph_q    <= '0;
      dpw_q    <= '0;
      dn0_q    <= '0;
      dn_q     <= '0;
    end else if (start_i) begin
      di_act_q <= 1'b1;
      dg_q     <= '0;
      db_q     <= '0;
      dr_q     <= '0;
      ds_q     <= '0;
      dleft_q  <= nent;
      dlen_q   <= conv_pkg::stripe_len(nent, 28'(StripeLower), 28'(StripeUpper));
      di_q     <= '0;
      dp0h_q   <= '0;
      dp0w_q   <= '0;
      dph_q    <= '0;
      dpw_q    <= '0;
      dn0_q    <= '0;
      dn_q     <= '0;
    end else if (d_fire) begin
      di_q  <= d_last_i ? '0 : di_q + 28'd1;
      dpw_q <= d_nx_w;
      dph_q <= d_nx_h;
      dn_q  <= d_nx_n;
      if (d_last_i) begin
        // back to the stripe's first entry for the next (b, r, s) pass
        dpw_q <= dp0w_q;
        dph_q <= dp0h_q;
        dn_q  <= dn0_q;
        ds_q  <= d_last_s ? '0 : ds_q + 6'd1;
        if (d_last_s) begin
          dr_q <= d_last_r ? '0 : dr_q + 6'd1;
          if (d_last_r) begin
            db_q <= d_last_b ? '0 : db_q + 14'd1;
            if (d_last_b) begin
              // next stripe starts after this one's last entry
              dp0w_q  <= d_nx_w;
              dp0h_q  <= d_nx_h;
              dn0_q   <= d_nx_n;
              dpw_q   <= d_nx_w;
              dph_q   <= d_nx_h;
              dn_q    <= d_nx_n;
              dleft_q <= d_next_left;
              dlen_q  <= conv_pkg::stripe_len(d_next_left, 28'(StripeLower), 28'(StripeUpper));
              if (d_last_stripe) begin
                dg_q    <= dg_q + 14'd1;
                dleft_q <= positions_q;
                dlen_q  <= conv_pkg::stripe_len(positions_q, 28'(StripeLower), 28'(StripeUpper));
                dp0w_q  <= '0;
                dp0h_q  <= '0;
                dn0_q   <= '0;
                dpw_q   <= '0;
                dph_q   <= '0;
                dn_q    <= '0;
                if (d_last_g) di_act_q <= 1'b0;
              end
            end
          end
        end
      end
    end
  end

  // Input coordinates of the current (position, r, s), CBUF row, and the atom sent.
  logic signed [19:0] hi, wi;
  logic               in_range;
  logic [31:0]        drow;
  // post-extension: row group dr starts at kernel row dr * E
  logic [5:0] d_rows_left;
  logic [2:0] d_rows;
  assign d_rows_left = cfg_i.kern_h - (6'(dr_q) << post_e);
  assign d_rows      = !post ? 3'd1 : (d_rows_left > (6'd1 << post_e)) ? 3'd1 << post_e : 3'(d_rows_left);
  assign hi = $signed(20'(dph_q) * 20'(cfg_i.stride_y) + 20'(dr_q) * (post ? 20'd1 << post_e : 20'(cfg_i.dil_y)))
            - $signed(20'(cfg_i.pad_top));
  assign wi = $signed(20'(dpw_q) * 20'(cfg_i.stride_x) + 20'(ds_q) * 20'(cfg_i.dil_x))
            - $signed(20'(cfg_i.pad_left));
  assign in_range = hi >= 0 && hi < $signed(20'(cfg_i.in_h)) && wi >= 0 && wi < $signed(20'(cfg_i.in_w));
  logic signed [23:0] slice;  // CBUF slice of (hi, batch): hi*N + n
  assign slice = $signed(24'(hi) * (24'(cfg_i.batch_m1) + 24'd1)) + $signed(24'(dn_q));
  // direct: block db's first atom where NVDLA's entry packing put it (conv_pkg::dc_place)
  conv_pkg::dc_place_t dplace;
  logic [1:0]          dlane;  // the block's first lane in the row
  assign dplace = conv_pkg::dc_place(atoms, db_q << apb_log2, 14'(wi), cfg_i.in_w, ALog2);
  assign dlane  = cfg_i.wfold ? 2'd0 : dplace.lane;
  assign drow   = 32'(slice) * 32'(nbw_q)
                + (cfg_i.wfold ? 32'(db_q) * 32'(cfg_i.in_w) + 32'(wi) : 32'(dplace.row));
  // Image input (cfg.img): the atom is a window of one line, or of E lines with post-extension
  // (conv_csc_img, two ports per line).
  localparam int unsigned ImgLines = DatRdPorts / 2;
  logic [DatRdPorts-1:0][RowW-1:0] img_rrow;
  logic [WordW-1:0]                img_data;
  conv_csc_img #(
    .AtomicC(AtomicC), .SupportInt16(SupportInt16), .RowW(RowW), .Lines(ImgLines)
  ) u_img (
    .int16_i(int16), .post_i(post_e), .rows_i(d_rows), .stride_x_i(cfg_i.stride_x),
    .chans_i(cfg_i.img_c), .eps_i(cfg_i.eps), .in_h_i(cfg_i.in_h), .cpb_i(d_cpb), .pad_value_i(cfg_i.pad_value),
    .line_i(hi), .col_i(dpw_q), .blk_i(db_q), .rrow_o(img_rrow), .rdata_i(dat_rdata_i), .data_o(img_data)
  );
  for (genvar p = 0; p < DatRdPorts; p++) begin : g_rrow_mux
    if (p == 0) begin : g_p0
      assign dat_rrow_o[p] = wino ? wino_rrow[p] : cfg_i.img ? img_rrow[p] : RowW'(drow);
    end else begin : g_pn
      assign dat_rrow_o[p] = wino ? wino_rrow[p] : img_rrow[p];
    end
  end

  logic [WordW-1:0] d_atom8, direct_data, d_row;
  // the block's lanes moved down to lane 0 (constant shifts, one per lane)
  always_comb begin
    d_row = dat_rdata_i[0];
    for (int unsigned l = 1; l < RowAtoms; l++) begin
      if (dlane == 2'(l)) d_row = dat_rdata_i[0] >> (l * (8 << AtomLog2));
    end
  end
  always_comb begin
    d_atom8 = '0;
    for (int unsigned j = 0; j < AtomicC; j++) begin
      if (14'(j) < d_cpb) d_atom8[8*j +: 8] = in_range ? d_row[8*j +: 8] : cfg_i.pad_value[7:0];
    end
  end
  if (SupportInt16) begin : g_dat16
    logic [WordW-1:0] d_atom16;
    always_comb begin
      d_atom16 = '0;
      for (int unsigned j = 0; j < AtomicC; j++) begin
        if (14'(j) < d_cpb) d_atom16[16*j +: 16] = in_range ? d_row[16*j +: 16] : cfg_i.pad_value;
      end
    end
    assign direct_data = int16 ? d_atom16 : d_atom8;
  end else begin : g_dat8
    assign direct_data = d_atom8;
  end
  assign dat_data_o = wino ? wino_data : cfg_i.img ? img_data : direct_data;

  // ---------------------------------------------------------------- Winograd data
  // Tile (ty, tx) = (dph, dpw) covers extended rows/columns 2ty..2ty+3 / 2tx..2tx+3: the CBUF
  // rows of the 2x2-position blocks (ty+dy, tx+dx), port 2*dy + dx, lane 2*(i mod 2) + j mod 2
  // for tile element (i, j). Channel group q = db is 4 channels at element offset 4q mod RowCh
  // of block cb = 4q / RowCh (RowCh = 32 int8 / 16 int16 channels per lane).
  // (Multi-dimensional signals live outside the generate block: Yosys 0.55 cannot index them
  // inside one.)
  localparam int unsigned LaneBits = WordW / 4;
  logic [DatRdPorts-1:0][RowW-1:0]  wino_rrow;
  logic [WordW-1:0]                 wino_data;
  logic [3:0][3:0][LaneBits-1:0]    lane_sh;      // per port and lane, shifted to the group
  logic [3:0][15:0][15:0]           tiles, pra;   // per channel: 4x4 input tile, transformed
  if (SupportWino) begin : g_wino
    logic [27:0] blk_q, ncbwb_q;
    logic [13:0] cb, co, ncb;
    logic [2:0]  rowch_log2;
    assign rowch_log2 = 3'($clog2(LaneBits / 8)) - 3'(int16);
    assign ncb   = (cfg_i.in_c + (14'd1 << rowch_log2) - 14'd1) >> rowch_log2;
    assign cb    = (db_q << 2) >> rowch_log2;
    assign co    = (db_q << 2) & ((14'd1 << rowch_log2) - 14'd1);
    always_ff @(posedge clk_i) begin
      if (start_i) begin
        blk_q   <= 28'(e_out_w) + 28'd1;
        ncbwb_q <= 28'(ncb) * (28'(e_out_w) + 28'd1);
      end
    end
    for (genvar pt = 0; pt < 4; pt++) begin : g_rrow
      assign wino_rrow[pt] = RowW'((28'(dph_q) + 28'(pt / 2)) * ncbwb_q + 28'(cb) * blk_q
                                    + 28'(dpw_q) + 28'(pt % 2));
    end
    for (genvar pt = 4; pt < DatRdPorts; pt++) begin : g_rport
      assign wino_rrow[pt] = '0;
    end

    // Per port and lane: the lane shifted down to the group's first channel.
    for (genvar pt = 0; pt < 4; pt++) begin : g_port
      for (genvar l = 0; l < 4; l++) begin : g_lane
        assign lane_sh[pt][l] = dat_rdata_i[pt][l*LaneBits +: LaneBits] >> (int16 ? {co, 4'd0} : {1'b0, co, 3'd0});
      end
    end
    // Padding is not in CBUF: a tile element outside the input cube takes PAD_VALUE (on the real
    // channels). Group q's 4 channels lie in one phase (phases are whole atoms, multiples of 4
    // channels): phase = 4q / C_pad, phase-local channel cl = 4q - phase*C_pad, channel ch real
    // when cl + ch < C; element (i, j) is input (2ty+i)*sy + py - PAD_TOP, (2tx+j)*sx + px - PAD_LEFT.
    logic [13:0] c_pad, e0, cl;
    logic [1:0]  phase;
    logic        sx2, sy2, py, px;
    assign c_pad = (cfg_i.src_c + (14'd1 << rowch_log2) - 14'd1) & ~((14'd1 << rowch_log2) - 14'd1);
    assign e0    = db_q << 2;
    always_comb begin
      phase = 2'd0;
      cl    = e0;
      for (int unsigned ph = 1; ph < 4; ph++) begin
        if (16'(e0) >= 16'(ph) * 16'(c_pad)) begin
          phase = 2'(ph);
          cl    = 14'(16'(e0) - 16'(ph) * 16'(c_pad));
        end
      end
    end
    assign sx2 = cfg_i.src_stride_x == 4'd2;
    assign sy2 = cfg_i.src_stride_y == 4'd2;
    assign px  = sx2 && phase[0];
    assign py  = sx2 ? phase[1] : phase[0];
    logic [3:0] row_in, col_in;
    for (genvar i = 0; i < 4; i++) begin : g_in
      logic signed [17:0] hs, ws;
      logic [17:0]        ye, xe;  // extended row / column of tile element i
      assign ye = (18'(dph_q) << 1) + 18'(i);
      assign xe = (18'(dpw_q) << 1) + 18'(i);
      assign hs = $signed((ye << sy2) + 18'(py)) - $signed(18'(cfg_i.src_pad_top));
      assign ws = $signed((xe << sx2) + 18'(px)) - $signed(18'(cfg_i.src_pad_left));
      assign row_in[i] = hs >= 0 && hs < $signed(18'(cfg_i.src_h));
      assign col_in[i] = ws >= 0 && ws < $signed(18'(cfg_i.src_w));
    end
    logic [15:0] pad16;
    // CDMA writes Winograd's pads into CBUF: fp16's NAN_TO_ZERO flushes a NaN pad too (C model)
    assign pad16 = (SupportFp16 && cfg_i.fp16 && cfg_i.nan_to_zero && dla_fp_pkg::fp16_is_nan(cfg_i.src_pad_value[14:0]))
                       ? 16'd0
                   : int16 ? cfg_i.src_pad_value : 16'($signed(cfg_i.src_pad_value[7:0]));

    always_comb begin
      for (int unsigned ch = 0; ch < 4; ch++) begin
        for (int unsigned p = 0; p < 16; p++) begin
          logic [LaneBits-1:0] ln;
          ln = lane_sh[2 * (p / 8) + (p % 4) / 2][2 * ((p / 4) % 2) + p % 2];
          if (15'(cl) + 15'(ch) >= 15'(cfg_i.src_c)) tiles[ch][p] = '0;
          else if (!row_in[p / 4] || !col_in[p % 4]) tiles[ch][p] = pad16;
          else if (int16) tiles[ch][p] = ln[16*ch +: 16];
          else tiles[ch][p] = 16'($signed(ln[8*ch +: 8]));
        end
      end
    end
    for (genvar ch = 0; ch < 4; ch++) begin : g_pra
      wino_pra_tile #(
        .SupportFp16(SupportFp16)
      ) u_pra (
        .tile_i    (tiles[ch]),
        .int16_i   (int16),
        .fp16_i    (cfg_i.fp16),
        .truncate_i(cfg_i.pra_truncate),
        .tile_o    (pra[ch])
      );
    end
    always_comb begin
      wino_data = '0;
      for (int unsigned p = 0; p < 16; p++) begin
        for (int unsigned ch = 0; ch < 4; ch++) begin
          if (int16) wino_data[16*(4*p + ch) +: 16] = pra[ch][p];
          else wino_data[8*(4*p + ch) +: 8] = pra[ch][p][7:0];
        end
      end
    end
  end else begin : g_no_wino
    assign wino_rrow = '0;
    assign wino_data = '0;
    assign lane_sh   = '0;
    assign tiles     = '0;
    assign pra       = '0;
    logic unused_wino;
    assign unused_wino = ^{lane_sh, tiles, pra, wino_rrow};
  end

  logic unused;
  assign unused = ^{cfg_i, drow, nbw_q[27:20], w_hi, w_mask_16, w_window, c_mask_win, c_pack_win};
endmodule
