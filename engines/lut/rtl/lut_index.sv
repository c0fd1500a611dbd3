// Index and fraction of one LUT table for one input (NVDLA lut_line / lut_expn, CDP LUT_CTRL).
// d_i = X - START, meaningful when pos_i (X > START; X <= START is underflow).
//   linear (sel >= 0): I = d >> sel, fraction = the bits of d below bit sel, left-aligned to
//                      FracW bits (truncated / zero-filled); sel < 0: I = d << -sel, fraction 0.
//   exponent (HasExp): e = lead_i = floor(log2 d); underflow if e < off; I = e - off; fraction =
//                      the bits below the leading one, left-aligned to FracW bits.
//   overflow if I >= Depth - 1 (index forced to Depth - 1).
module lut_index #(
  parameter int unsigned DW     = 32,   // width of d_i
  parameter int unsigned FracW  = 35,   // fraction width: 35 (SDP) or 16 (CDP)
  parameter int unsigned Depth  = 65,   // 65 (LE) or 257 (LO)
  parameter bit          HasExp = 1'b1  // the table can run in exponent mode (LE)
) (
  input  logic [DW-1:0]     d_i,
  input  logic              pos_i,
  input  logic [5:0]        lead_i,
  input  logic              exp_mode_i,
  input  logic signed [7:0] off_i,
  input  logic signed [7:0] sel_i,
  output logic              uflow_o,
  output logic              oflow_o,
  output logic [8:0]        index_o,
  output logic [FracW-1:0]  frac_o
);
  localparam int unsigned TW = DW + FracW;
  localparam logic [8:0] Last = 9'(Depth - 1);

  logic              use_exp;
  logic [6:0]        rsh;     // right shift of {d, FracW zeros}
  logic [TW-1:0]     shifted;
  logic [DW-1:0]     i_right; // linear index for sel >= 0
  logic [7:0]        lsh;     // -sel for sel < 0
  logic [DW+8:0]     i_left;  // linear index for 0 < -sel <= 8
  logic signed [9:0] i_exp;   // e - off

  always_comb begin
    use_exp = HasExp && exp_mode_i;
    rsh     = use_exp ? {1'b0, lead_i} : (sel_i[7] ? 7'd0 : sel_i[6:0]);
    shifted = {d_i, {FracW{1'b0}}} >> rsh;
    i_right = shifted[TW-1:FracW];
    lsh     = -sel_i;
    i_left  = {9'd0, d_i} << lsh[3:0];
    i_exp   = $signed({4'd0, lead_i}) - 10'(off_i);

    uflow_o = 1'b0;
    oflow_o = 1'b0;
    index_o = '0;
    frac_o  = '0;
    if (!pos_i) begin
      uflow_o = 1'b1;
    end else if (use_exp) begin
      if (i_exp < 0) begin
        uflow_o = 1'b1;
      end else if (i_exp >= 10'(Last)) begin
        oflow_o = 1'b1;
        index_o = Last;
      end else begin
        index_o = i_exp[8:0];
        frac_o  = shifted[FracW-1:0];
      end
    end else if (!sel_i[7]) begin
      if (i_right >= DW'(Last)) begin
        oflow_o = 1'b1;
        index_o = Last;
      end else begin
        index_o = i_right[8:0];
        frac_o  = shifted[FracW-1:0];
      end
    end else begin
      // d >= 1, so a left shift of 9 or more reaches 512 > Depth - 1.
      if ((lsh > 8'd8) || (i_left >= (DW + 9)'(Last))) begin
        oflow_o = 1'b1;
        index_o = Last;
      end else begin
        index_o = i_left[8:0];
      end
    end
  end
endmodule
