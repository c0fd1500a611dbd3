// CSC's image-mode data atom (cdma-input-modes.md §1.6, §3). With channel pre-extension a kernel
// row is C' = S x C consecutive elements of a padded CBUF line, so the atom of output column xo,
// line hi and channel block b holds the elements from e0 = xo*sx*C + b*AtomicC of that line (EPS
// rows from row hi*EPS). They may cross a row boundary: both rows are read (two data ports per
// line) and the pair shifted down to e0's byte.
// With channel post-extension (E = 2^Y_EXTENSION kernel rows per atom, one channel block) the
// atom holds E lines side by side: line hi + i in lanes [i*AtomicC/E, (i+1)*AtomicC/E), each
// line's C' window elements (lane j of a slice: j < C'), lines beyond the row group's `rows`
// zero, a line outside the image CSC's PAD_VALUE. E = 1 is the plain image atom: lanes j < cpb_i
// (C' - b*AtomicC) from line hi, PAD_VALUE on a pad row, the rest 0.
module conv_csc_img #(
  parameter int unsigned AtomicC      = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned RowW         = 14,
  parameter int unsigned Lines        = 1,  // lines an atom may hold (4 where post-extension exists)
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW       = AtomicC * DataW,
  localparam int unsigned RowLog2     = $clog2(WordW / 8)
) (
  input  logic                           int16_i,
  input  logic [1:0]                     post_i,     // Y_EXTENSION (0 without post-extension)
  input  logic [2:0]                     rows_i,     // lines of the row group (1 without)
  input  logic [3:0]                     stride_x_i,
  input  logic [2:0]                     chans_i,    // C
  input  logic [13:0]                    eps_i,      // rows per line
  input  logic [13:0]                    in_h_i,     // H
  input  logic [13:0]                    cpb_i,      // real lanes of a slice: C' - b*AtomicC
  input  logic [15:0]                    pad_value_i,
  input  logic signed [19:0]             line_i,     // hi: the first line
  input  logic [13:0]                    col_i,      // xo
  input  logic [13:0]                    blk_i,      // b
  output logic [2*Lines-1:0][RowW-1:0]   rrow_o,     // line i: ports 2i, 2i + 1
  input  logic [2*Lines-1:0][WordW-1:0]  rdata_i,
  output logic [WordW-1:0]               data_o
);
  localparam int unsigned CLog2 = $clog2(AtomicC);

  logic [31:0] e0, bytes;
  assign e0    = 32'(col_i) * 32'(stride_x_i) * 32'(chans_i) + (32'(blk_i) << CLog2);
  assign bytes = e0 << int16_i;

  // Each line's window: elements from e0 on.
  logic [Lines-1:0][WordW-1:0] win;
  logic [Lines-1:0]            in_img;
  for (genvar i = 0; i < Lines; i++) begin : g_line
    logic signed [19:0] line;
    logic [31:0]        row;
    logic [2*WordW-1:0] pair;
    assign line         = line_i + 20'(i);
    assign in_img[i]    = line >= 0 && line < $signed(20'(in_h_i));
    assign row          = 32'(line) * 32'(eps_i) + (bytes >> RowLog2);
    assign rrow_o[2*i]   = RowW'(row);
    assign rrow_o[2*i+1] = RowW'(row + 32'd1);
    assign pair         = {rdata_i[2*i+1], rdata_i[2*i]} >> {bytes[RowLog2-1:0], 3'b000};
    assign win[i]       = pair[WordW-1:0];
    logic unused_line;
    assign unused_line = ^{row, pair[2*WordW-1:WordW]};
  end

  // Slice i (lines of the group), element j: lane i*SW + j, SW = AtomicC / E. One word per E with
  // constant lanes (E = 2, 4 only where the lines exist), then the programmed one.
  localparam int unsigned NumE = Lines >= 4 ? 3 : 1;  // E = 1, 2, 4
  logic [1:0] sel;
  assign sel = NumE > 1 ? post_i : 2'd0;
  logic [NumE-1:0][WordW-1:0] d8, d16;  // (outside the generate blocks: Yosys 0.55)
  always_comb begin
    d8 = '0;
    for (int unsigned e = 0; e < NumE; e++) begin
      for (int unsigned i = 0; i < (1 << e); i++) begin
        for (int unsigned j = 0; j < (AtomicC >> e); j++) begin
          if (3'(i) < rows_i && 14'(j) < cpb_i) begin
            d8[e][8*((i << (CLog2 - e)) + j) +: 8] = in_img[i] ? win[i][8*j +: 8] : pad_value_i[7:0];
          end
        end
      end
    end
  end
  if (SupportInt16) begin : g_int16
    always_comb begin
      d16 = '0;
      for (int unsigned e = 0; e < NumE; e++) begin
        for (int unsigned i = 0; i < (1 << e); i++) begin
          for (int unsigned j = 0; j < (AtomicC >> e); j++) begin
            if (3'(i) < rows_i && 14'(j) < cpb_i) begin
              d16[e][16*((i << (CLog2 - e)) + j) +: 16] = in_img[i] ? win[i][16*j +: 16] : pad_value_i;
            end
          end
        end
      end
    end
    assign data_o = int16_i ? d16[sel] : d8[sel];
  end else begin : g_int8
    assign d16    = '0;
    assign data_o = d8[sel];
    logic unused_pad;
    assign unused_pad = ^{pad_value_i[15:8], d16};
  end
endmodule
