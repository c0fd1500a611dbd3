// Floating-point max (max_i = 1) / min (max_i = 0) of two operands, combinational, bit-exact
// with NVDLA v1's FpCmp / FpMax / FpMin (hls/include/nvdla_float.h; HLS units fp16_max/min,
// fp17_max/min). The quirks kept, because the hardware compares so:
//   * the order is sign, then the raw exponent and mantissa bits, so +0 > -0 (max(-0, +0) = +0,
//     min = -0) and an Inf is an ordinary large value;
//   * on equal bits it does not matter which operand is returned; on |a| = |b| with equal signs
//     the bits are equal too, so no other tie exists;
//   * a NaN operand is returned unchanged (a's first), for max and min alike.
module dla_fp_minmax #(
  parameter int unsigned ExpW  = 5,
  parameter int unsigned MantW = 10
) (
  input  logic [ExpW+MantW:0] a_i,
  input  logic [ExpW+MantW:0] b_i,
  input  logic                max_i,
  output logic [ExpW+MantW:0] z_o
);
  logic a_sign, b_sign, a_nan, b_nan, a_mag_gt, a_gt;

  assign a_sign   = a_i[ExpW+MantW];
  assign b_sign   = b_i[ExpW+MantW];
  assign a_nan    = (&a_i[ExpW+MantW-1:MantW]) && (a_i[MantW-1:0] != '0);
  assign b_nan    = (&b_i[ExpW+MantW-1:MantW]) && (b_i[MantW-1:0] != '0);
  assign a_mag_gt = a_i[ExpW+MantW-1:0] > b_i[ExpW+MantW-1:0];

  // a > b: a positive and b negative, or both of a's sign with |a| larger (positive) / not
  // larger (negative)
  always_comb begin
    if (a_sign != b_sign) a_gt = b_sign;
    else                  a_gt = a_sign ? !a_mag_gt : a_mag_gt;
  end

  always_comb begin
    if (a_nan)                z_o = a_i;
    else if (b_nan)           z_o = b_i;
    else if (a_gt == max_i)   z_o = a_i;
    else                      z_o = b_i;
  end
endmodule
