// CDMA's walk over the input feature fetch, one memory atom per step (conv_cdma instantiates it
// twice: the request side and the response side follow the same sequence, so responses, which
// come back in order, need no tags). Loop order: line h -> channel atom a -> w over the cube in
// memory (conv-pipeline.md §3).
//   * batches (cfg.batch_m1 = N - 1, direct mode only): line h -> batch n -> a -> w, batch n's
//     cube at dain_addr + n*batch_stride; CBUF holds the slices interleaved line-major as NVDLA
//     (cdma-input-modes.md §4.2): slice h*N + n takes the rows of one line, so a "line" of the
//     walk (line_o, lines_o = H*N) is a slice. N = 1: slice = line.
//   * direct mode: the cube as CSC sees it (in_w x in_h x in_c); atom (h, a, w) goes where
//     NVDLA's CBUF entry packing puts it (conv_pkg::dc_place): slice h at h*EPS, whole groups
//     of a row's atoms at g*W + w, the last partial group shared by 2 or 4 positions;
//   * Winograd (cfg.wino): the cube CDMA's D_DATAIN_SIZE_0/1 describe, placed into the padded,
//     channel-extended cube CSC's tiles read: (h + PAD_TOP, w + PAD_LEFT) = (ye*sy + py,
//     xe*sx + px) with the CDMA stride (sx, sy in {1, 2}) and phase (py, px); extended channel
//     block cb = (py*sx + px)*N + a (N atoms per position: every phase holds whole atoms, so an
//     atom lands whole). Rows hold 2x2 positions of one block: row (ye/2)*NCB*WB + cb*WB + xe/2,
//     lane 2*(ye mod 2) + xe mod 2, with NCB = sx*sy*N and WB = W'/2 + 1. Padding is not stored
//     (CSC substitutes it); an atom beyond the extended cube the tiles read (stride 2: a last
//     column or row no output uses) is skipped (skip_o: no read, no write).
//   * pairs (PairData): the current atom and the next of the line (x + 1, same a) are
//     consecutive in memory; where they are walked as one step, pair_o is set (one two-atom read
//     on a 512-bit port, docs/DMA.md "The port"): x even and x + 1 < W (Winograd: at stride 1,
//     both needed). The second atom goes to lane lane1_o of row_o where pair_row_o is set, else
//     of row_o + 1. Direct mode: rows row_o and row_o + 1, same lane; in a shared entry, one
//     row, lane + A / 2^s. Winograd: xe even, lanes (2*(ye mod 2), +1) of one row; xe odd, lane
//     2*(ye mod 2) + 1 of row_o and lane 2*(ye mod 2) of row_o + 1. The walk is the same on the
//     request and the response side, so both see the same pairs.
module conv_cdma_walk #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned AtomicC      = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter bit          SupportWino  = 1'b0,
  parameter int unsigned CbufRows     = 16384,
  parameter bit          PairData     = 1'b0,  // walk pairs of atoms (above)
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned WordW       = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowAtoms    = WordW / (8 * AtomBytes),
  localparam int unsigned LaneW       = RowAtoms > 1 ? $clog2(RowAtoms) : 1,
  localparam int unsigned RowW        = $clog2(CbufRows)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,
  input  conv_pkg::cfg_t     cfg_i,
  input  logic               step_i,       // the current atom is done: go to the next
  output logic [13:0]        line_o,       // current line = lines complete (lines_o when done)
  output logic [13:0]        lines_o,      // lines of the walk
  output logic               done_o,       // every atom walked
  output logic               line_last_o,  // the current atom (pair) is its line's last
  output logic               pair_o,       // the current atom and the next are one step
  output logic               skip_o,       // Winograd: the current atom is not needed
  output logic [63:0]        addr_o,       // memory address of the current atom
  output logic [RowW-1:0]    row_o,        // CBUF data row and lane of the current atom
  output logic [LaneW-1:0]   lane_o,
  output logic               pair_row_o,   // a pair's second atom goes to row_o too
  output logic [LaneW-1:0]   lane1_o       // its lane
);
  localparam logic [1:0]  ALog2 = 2'($clog2(RowAtoms));  // atoms per CBUF entry (log2)

  logic        wino, int16, sx2, sy2;
  logic [13:0] width, chans, atoms, wb;
  logic [14:0] c_bytes;
  assign wino     = SupportWino && cfg_i.wino;
  assign int16    = SupportInt16 && cfg_i.int16;
  assign lines_o  = wino ? cfg_i.src_h : 14'(20'(cfg_i.in_h) * (20'(cfg_i.batch_m1) + 20'd1));
  assign width    = wino ? cfg_i.src_w : cfg_i.in_w;
  assign chans    = wino ? cfg_i.src_c : cfg_i.in_c;
  assign sx2      = cfg_i.src_stride_x == 4'd2;
  assign sy2      = cfg_i.src_stride_y == 4'd2;
  assign c_bytes  = int16 ? {chans, 1'b0} : {1'b0, chans};
  assign atoms    = 14'((c_bytes + 15'(AtomBytes - 1)) >> AtomLog2);
  assign wb       = (cfg_i.out_w >> 1) + 14'd1;

  // Row strides (per line / line pair, per channel block), fixed for the layer.
  logic [27:0] line_rows_q, blk_rows_q;
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      if (wino) begin
        blk_rows_q  <= 28'(wb);
        line_rows_q <= (28'(atoms) << (32'(sx2) + 32'(sy2))) * 28'(wb);
      end else begin
        blk_rows_q  <= 28'(cfg_i.in_w);
        line_rows_q <= conv_pkg::dc_eps(atoms, cfg_i.in_w, ALog2);
      end
    end
  end

  logic [13:0] ln_q, a_q, x_q;  // ln_q: slice (line when N = 1)
  logic [13:0] h_q;             // line of the cube
  logic [4:0]  n_q;             // batch
  logic [36:0] nbase_q;         // n_q * batch_stride
  logic        last_x, last_a, last_n;
  // the step's last column is the line's last (a pair is never split: x + 1 < width)
  assign last_x      = x_q + 14'(pair_o) == width - 14'd1;
  assign last_a      = a_q == atoms - 14'd1;
  assign last_n      = n_q == cfg_i.batch_m1;
  assign line_last_o = last_x && last_a;
  assign done_o      = ln_q == lines_o;
  assign line_o      = ln_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ln_q    <= '0;
      h_q     <= '0;
      n_q     <= '0;
      nbase_q <= '0;
      a_q     <= '0;
      x_q     <= '0;
    end else if (start_i) begin
      ln_q    <= '0;
      h_q     <= '0;
      n_q     <= '0;
      nbase_q <= '0;
      a_q     <= '0;
      x_q     <= '0;
    end else if (step_i) begin
      x_q <= last_x ? '0 : x_q + (pair_o ? 14'd2 : 14'd1);
      if (last_x) begin
        a_q <= last_a ? '0 : a_q + 14'd1;
        if (last_a) begin
          ln_q    <= ln_q + 14'd1;  // stops at lines_o: done
          n_q     <= last_n ? '0 : n_q + 5'd1;
          nbase_q <= last_n ? '0 : nbase_q + 37'(cfg_i.batch_stride);
          if (last_n) h_q <= h_q + 14'd1;
        end
      end
    end
  end

  assign addr_o = cfg_i.dain_addr + 64'(nbase_q) + 64'(a_q) * 64'(cfg_i.surf_stride)
                + 64'(h_q) * 64'(cfg_i.line_stride) + (64'(x_q) << AtomLog2);

  // Winograd: position in the padded cube, then extended position and phase.
  logic [14:0] yp, xp;
  logic [13:0] ye, xe, ye_half, xe_half;
  logic        py, px;
  assign yp      = 15'(h_q) + 15'(cfg_i.src_pad_top);
  assign xp      = 15'(x_q) + 15'(cfg_i.src_pad_left);
  assign ye      = 14'(yp >> sy2);
  assign xe      = 14'(xp >> sx2);
  assign py      = sy2 && yp[0];
  assign px      = sx2 && xp[0];
  assign ye_half = ye >> 1;
  assign xe_half = xe >> 1;
  assign skip_o  = wino && (15'(ye) >= 15'(cfg_i.out_h) + 15'd2 || 15'(xe) >= 15'(cfg_i.out_w) + 15'd2);
  if (PairData) begin : g_pair
    assign pair_o = x_q + 14'd1 < width && !x_q[0] &&
                    (!wino || (!sx2 && !skip_o && 15'(xe) + 15'd1 < 15'(cfg_i.out_w) + 15'd2));
  end else begin : g_no_pair
    assign pair_o = 1'b0;
  end

  logic [27:0] row, cb;
  conv_pkg::dc_place_t place;
  logic [1:0]  share;  // direct: log2 of the positions sharing the current atom's entry
  assign place = conv_pkg::dc_place(atoms, a_q, x_q, width, ALog2);
  assign share = (a_q >> ALog2) == (atoms >> ALog2) ? conv_pkg::dc_share_log2(atoms, ALog2) : 2'd0;
  always_comb begin
    if (wino) begin
      cb         = ((28'(py) << sx2) + 28'(px)) * 28'(atoms) + 28'(a_q);
      row        = 28'(ye_half) * line_rows_q + cb * blk_rows_q + 28'(xe_half);
      lane_o     = LaneW'({ye[0], xe[0]});
      pair_row_o = !xe[0];
      lane1_o    = xe[0] ? lane_o - 1'b1 : lane_o + 1'b1;
    end else begin
      cb         = '0;
      row        = 28'(ln_q) * line_rows_q + place.row;
      lane_o     = LaneW'(place.lane);
      pair_row_o = share != 2'd0;
      lane1_o    = LaneW'(place.lane + 2'(3'(RowAtoms) >> share));
    end
  end
  assign row_o = RowW'(row);

  logic unused;
  assign unused = ^{cfg_i, row, cb, blk_rows_q};
endmodule
