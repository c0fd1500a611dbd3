// Float to signed integer, combinational, bit-exact with NVDLA v1's FpFloatToInt
// (hls/include/nvdla_float.h, Fp16ToInt16 = FpFloatToInt<16,5,10>). The quirks kept, because
// the hardware converts so:
//   * rounding is to nearest with ties AWAY from zero (the ac_fixed AC_RND_INF of NVIDIA's
//     IntSignedShiftRight), on the magnitude before the sign is applied: 2.5 -> 3, -2.5 -> -3;
//   * every input gets an implied 1, zero and denormals too (both round to 0 anyway);
//   * magnitudes above 2^(IntW-1)-1 saturate to the signed range by sign (-2^(IntW-1) exactly
//     is representable), Inf is 1.0 x 2^(max-bias) and saturates too;
//   * a NaN gives the most negative integer.
module dla_fp_to_int #(
  parameter int unsigned IntW  = 16,
  parameter int unsigned ExpW  = 5,
  parameter int unsigned MantW = 10
) (
  input  logic [ExpW+MantW:0] a_i,
  output logic [IntW-1:0]     z_o
);
  localparam int unsigned Bias  = 2 ** (ExpW - 1) - 1;
  localparam int unsigned FracW = Bias + MantW;             // binary places of mag << exp
  localparam int unsigned FullW = MantW + 2 ** ExpW;        // (1.m << largest exponent)
  localparam int unsigned WholeW = FullW - FracW + 1;       // integer part, one bit of headroom
  localparam logic [WholeW-1:0] IntMax = WholeW'(2 ** (IntW - 1) - 1);

  logic             sign, nan;
  logic [ExpW-1:0]  in_exp;
  logic [MantW-1:0] in_man;
  assign {sign, in_exp, in_man} = a_i;
  assign nan = (&in_exp) && (in_man != '0);

  // |a| x 2^FracW as an integer: 1.m shifted left by the biased exponent
  logic [FullW-1:0]  full;
  logic [WholeW-1:0] whole;
  assign full  = FullW'({1'b1, in_man}) << in_exp;
  assign whole = WholeW'(full[FullW-1:FracW]) + WholeW'(full[FracW-1]);

  // the bits under the guard only ever round down (ties go away from zero)
  logic unused_frac;
  assign unused_frac = ^full[FracW-2:0];

  always_comb begin
    if (nan)                 z_o = {1'b1, {(IntW - 1){1'b0}}};
    else if (whole > IntMax) z_o = sign ? {1'b1, {(IntW - 1){1'b0}}} : {1'b0, {(IntW - 1){1'b1}}};
    else if (sign)           z_o = IntW'(-whole);
    else                     z_o = IntW'(whole);
  end
endmodule
