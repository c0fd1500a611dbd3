// One table's index of the float LUT (NVDLA v1; docs/FP16.md "SDP EW and LUT", "CDP in fp16"),
// combinational. d_i = X - START in fp32; only D > 0 (not +-0, not a NaN) lands in the table,
// anything else underflows with index 0. FracW = 35 (SDP) or 16 (CDP).
//   linear (LO, and LE with LE_FUNCTION linear): q = m x 2^s; index floor(q), overflow (index
//     Depth - 1) where q >= Depth - 1; the fraction floor(frac(q) x 2^FracW).
//     CDP (its HLS wrapper, host float): q = D / 2^sel exactly, an Inf pattern infinite, a
//       denormal D 0.m x 2^-126;
//     SDP (FpFloatToIntFrac<8,23,8,9,35>): m = 1.m always (a denormal D is 1.m x 2^-127), the
//       exponent kept in 8 signed bits (an Inf pattern reads as 1.0 x 2^-128).
//   exponent (LE only): e = the unbiased exponent field of D (-127 for a denormal, 128 for Inf);
//     e < off underflows, e - off >= 64 overflows, else index e - off and the fraction D's
//     mantissa (SDP all 23 bits, CDP the top 16) in FracW bits.
module lut_index_fp #(
  parameter int unsigned Variant = 1,     // 0: SDP, 1: CDP
  parameter int unsigned Depth   = 65,    // 65 (LE) or 257 (LO)
  parameter bit          HasExp  = 1'b1,  // the exponent index exists (LE)
  localparam int unsigned FracW  = (Variant == 0) ? 35 : 16
) (
  input  logic [31:0]       d_i,
  input  logic              exp_mode_i,
  input  logic signed [7:0] off_i,
  input  logic signed [7:0] sel_i,
  output logic              uflow_o,
  output logic              oflow_o,
  output logic [8:0]        index_o,
  output logic [FracW-1:0]  frac_o
);
  localparam logic [32:0] Last = 33'(Depth - 1);

  logic [7:0]  d_exp;
  logic [22:0] d_man;
  logic        pos, inf;
  assign d_exp = d_i[30:23];
  assign d_man = d_i[22:0];
  assign inf   = d_exp == 8'hff && d_man == '0;
  assign pos   = !d_i[31] && d_i[30:0] != '0 && !dla_fp_pkg::fp32_is_nan(d_i[30:0]);

  // linear: q = m24 * 2^s; CDP: s = max(exp, 1) - 150 - sel (-276 .. 232); SDP: s = int8(exp -
  // 127) - 23 - sel (-278 .. 232)
  localparam int unsigned ScW = 24 + FracW;
  logic [23:0]        m24;
  logic signed [10:0] s;
  logic [32:0]        lin_int;
  logic [FracW-1:0]   lin_frac;
  logic               lin_over;
  logic [ScW-1:0]     scaled;
  always_comb begin
    if (Variant == 0) begin
      m24 = {1'b1, d_man};
      s   = 11'($signed(d_exp - 8'd127)) - 11'sd23 - 11'(sel_i);
    end else begin
      m24 = {d_exp != 8'd0, d_man};
      s   = $signed({3'b0, (d_exp == 8'd0) ? 8'd1 : d_exp}) - 11'sd150 - 11'(sel_i);
    end
    lin_int  = '0;
    lin_frac = '0;
    scaled   = '0;
    // q >= 2^9 > Depth - 1 for any m24 >= 1; CDP's Inf is infinite
    lin_over = (Variant != 0 && inf) || s >= 11'sd9;
    if (!lin_over && !s[10]) begin
      lin_int = 33'(m24) << s[3:0];
    end else if (s[10]) begin
      if (-s < 11'(ScW)) scaled = {m24, FracW'(0)} >> 7'(-s);
      lin_int  = 33'(scaled[ScW-1:FracW]);
      lin_frac = scaled[FracW-1:0];
    end
    lin_over = lin_over || lin_int >= Last;
  end

  // exponent: e = exp - 127 (-127 .. 128); i = e - off
  logic signed [9:0] e_rel;
  assign e_rel = $signed({2'b0, d_exp}) - 10'sd127 - 10'(off_i);

  always_comb begin
    uflow_o = 1'b1;
    oflow_o = 1'b0;
    index_o = '0;
    frac_o  = '0;
    if (pos) begin
      uflow_o = 1'b0;
      if (HasExp && exp_mode_i) begin
        if (e_rel[9]) begin
          uflow_o = 1'b1;
        end else if (e_rel >= 10'sd64) begin
          oflow_o = 1'b1;
          index_o = 9'(Depth - 1);
        end else begin
          index_o = 9'(e_rel);
          frac_o  = (Variant == 0) ? FracW'({d_man, 12'd0}) : FracW'(d_man[22:7]);
        end
      end else if (lin_over) begin
        oflow_o = 1'b1;
        index_o = 9'(Depth - 1);
      end else begin
        index_o = lin_int[8:0];
        frac_o  = lin_frac;
      end
    end
  end
endmodule
