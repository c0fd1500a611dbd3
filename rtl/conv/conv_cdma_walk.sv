// CDMA's walk over the input feature fetch, one memory atom per step (conv_cdma instantiates it
// twice: the request side and the response side follow the same sequence, so responses, which
// come back in order, need no tags). Loop order: line -> py -> px -> channel atom a -> x.
//   * direct mode: the cube as CSC sees it (in_w x in_h x in_c), one phase, never padding; atom
//     (h, a, w) goes to data row h*NB*W + (a / ApB)*W + w, lane a mod ApB (NB channel blocks of
//     AtomicC, ApB atoms per block);
//   * Winograd (cfg.wino): the padded, channel-extended cube CSC's tiles read, (W'+2) x (H'+2)
//     positions: extended position (ye, xe), phase (py, px) of the CDMA stride (1 or 2 each way),
//     source position (ye*sy + py - PAD_TOP, xe*sx + px - PAD_LEFT) of the cube in memory;
//     outside it the step is padding (pad_o: no read, CDMA writes PAD_VALUE). Extended channel
//     block cb = (py*sx + px)*N + a (N atoms per source position: channels padded to whole atoms,
//     so every atom lands whole); rows hold 2x2 positions of one block:
//     row (ye/2)*NCB*WB + cb*WB + xe/2, lane 2*(ye mod 2) + xe mod 2, with NCB = sx*sy*N and
//     WB = (W'+2)/2. CSC reads a 4x4 tile at even (ye, xe) as four rows, one per lane parity
//     (docs/CONV_RTL.md, "Winograd").
module conv_cdma_walk #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned AtomicC      = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter bit          SupportWino  = 1'b0,
  parameter int unsigned DataRows     = 8192,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned WordW       = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowAtoms    = WordW / (8 * AtomBytes),
  localparam int unsigned LaneW       = RowAtoms > 1 ? $clog2(RowAtoms) : 1,
  localparam int unsigned DRowW       = $clog2(DataRows)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,
  input  conv_pkg::cfg_t     cfg_i,
  input  logic               step_i,       // the current atom is done: go to the next
  output logic [13:0]        line_o,       // current line = lines complete (lines_o when done)
  output logic [13:0]        lines_o,      // lines of the walk
  output logic               done_o,       // every atom walked
  output logic               line_last_o,  // the current atom is its line's last
  output logic               pad_o,        // the current atom is padding (Winograd only)
  output logic [63:0]        addr_o,       // memory address of the current atom
  output logic [DRowW-1:0]   row_o,        // CBUF data row and lane of the current atom
  output logic [LaneW-1:0]   lane_o,
  output logic [13:0]        chan0_o       // source channel of the atom's first element
);
  localparam int unsigned CLog2 = $clog2(AtomicC);

  logic        wino, int16;
  logic [13:0] width, chans, atoms, blocks;
  logic [1:0]  apb_log2;
  logic [14:0] c_bytes;
  logic [3:0]  sx, sy;
  assign wino     = SupportWino && cfg_i.wino;
  assign int16    = SupportInt16 && cfg_i.int16;
  assign lines_o  = wino ? cfg_i.out_h + 14'd2 : cfg_i.in_h;
  assign width    = wino ? cfg_i.out_w + 14'd2 : cfg_i.in_w;
  assign chans    = wino ? cfg_i.src_c : cfg_i.in_c;
  assign sx       = wino ? cfg_i.src_stride_x : 4'd1;
  assign sy       = wino ? cfg_i.src_stride_y : 4'd1;
  assign c_bytes  = int16 ? {chans, 1'b0} : {1'b0, chans};
  assign atoms    = 14'((c_bytes + 15'(AtomBytes - 1)) >> AtomLog2);
  assign blocks   = 14'((15'(cfg_i.in_c) + 15'(AtomicC - 1)) >> CLog2);
  assign apb_log2 = 2'(CLog2 + 32'(int16) - AtomLog2);

  // Row strides (per line / line pair, per channel block), fixed for the layer.
  logic [27:0] line_rows_q, blk_rows_q;
  logic [13:0] wb;  // Winograd: 2x2 blocks per line pair
  assign wb = (width + 14'd1) >> 1;
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      if (wino) begin
        blk_rows_q  <= 28'(wb);
        line_rows_q <= 28'(sx) * 28'(sy) * 28'(atoms) * 28'(wb);
      end else begin
        blk_rows_q  <= 28'(cfg_i.in_w);
        line_rows_q <= 28'(blocks) * 28'(cfg_i.in_w);
      end
    end
  end

  logic [13:0] ln_q, a_q, x_q;
  logic [3:0]  py_q, px_q;
  logic        last_x, last_a, last_px, last_py;
  assign last_x      = x_q == width - 14'd1;
  assign last_a      = a_q == atoms - 14'd1;
  assign last_px     = px_q == sx - 4'd1;
  assign last_py     = py_q == sy - 4'd1;
  assign line_last_o = last_x && last_a && last_px && last_py;
  assign done_o      = ln_q == lines_o;
  assign line_o      = ln_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ln_q <= '0;
      py_q <= '0;
      px_q <= '0;
      a_q  <= '0;
      x_q  <= '0;
    end else if (start_i) begin
      ln_q <= '0;
      py_q <= '0;
      px_q <= '0;
      a_q  <= '0;
      x_q  <= '0;
    end else if (step_i) begin
      x_q <= last_x ? '0 : x_q + 14'd1;
      if (last_x) begin
        a_q <= last_a ? '0 : a_q + 14'd1;
        if (last_a) begin
          px_q <= last_px ? '0 : px_q + 4'd1;
          if (last_px) begin
            py_q <= last_py ? '0 : py_q + 4'd1;
            if (last_py) ln_q <= ln_q + 14'd1;  // stops at lines_o: done
          end
        end
      end
    end
  end

  // Source position (Winograd: padding and the stride's phase; direct: the position itself).
  logic signed [19:0] hs, ws;
  assign hs = wino ? $signed(20'(ln_q) * 20'(sy) + 20'(py_q)) - $signed(20'(cfg_i.src_pad_top))
                   : $signed(20'(ln_q));
  assign ws = wino ? $signed(20'(x_q) * 20'(sx) + 20'(px_q)) - $signed(20'(cfg_i.src_pad_left))
                   : $signed(20'(x_q));
  assign pad_o = wino && (hs < 0 || hs >= $signed(20'(cfg_i.src_h)) || ws < 0 ||
                          ws >= $signed(20'(cfg_i.src_w)));
  assign addr_o = cfg_i.dain_addr + 64'(a_q) * 64'(cfg_i.surf_stride)
                + 64'(hs) * 64'(cfg_i.line_stride) + (64'(ws) << AtomLog2);
  assign chan0_o = a_q << (AtomLog2 - 32'(int16));

  logic [27:0] row, cb;
  logic [13:0] ln_half, x_half, a_blk;
  assign ln_half = ln_q >> 1;
  assign x_half  = x_q >> 1;
  assign a_blk   = a_q >> apb_log2;
  always_comb begin
    if (wino) begin
      cb     = (28'(py_q) * 28'(sx) + 28'(px_q)) * 28'(atoms) + 28'(a_q);
      row    = 28'(ln_half) * line_rows_q + cb * blk_rows_q + 28'(x_half);
      lane_o = LaneW'({ln_q[0], x_q[0]});
    end else begin
      cb     = 28'(a_blk);
      row    = 28'(ln_q) * line_rows_q + cb * blk_rows_q + 28'(x_q);
      lane_o = LaneW'(a_q & ((14'd1 << apb_log2) - 14'd1));
    end
  end
  assign row_o = DRowW'(row);

  logic unused;
  assign unused = ^{cfg_i, row};
endmodule
