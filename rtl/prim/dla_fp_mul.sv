// Floating-point multiply, combinational, bit-exact with NVDLA v1's FpMul
// (hls/include/nvdla_float.h; the HLS units fp16_mul, fp17_mul, fp32_mul). Not IEEE 754; the
// quirks kept, each because the hardware computes so:
//   * only an exact zero gets an implied 0: a denormal is read as 1.m x 2^(0-bias), so
//     denormal x large can give a normal result; zero x anything (Inf too) is a signed zero;
//   * the full (2*MantW+2)-bit product is rounded once, to nearest even (dla_fp_round);
//   * a result whose biased exponent is < 0, or exactly 0 after rounding, flushes to a zero
//     with the product's sign (no denormal outputs);
//   * overflow saturates to the largest finite value (expo all ones - 1, mantissa all ones),
//     never Inf; an Inf operand is just 1.0 x 2^(max-bias), so Inf x tiny can be finite;
//   * NaN operands pass through unchanged, a's first.
module dla_fp_mul #(
  parameter int unsigned ExpW  = 5,
  parameter int unsigned MantW = 10
) (
  input  logic [ExpW+MantW:0] a_i,
  input  logic [ExpW+MantW:0] b_i,
  output logic [ExpW+MantW:0] z_o
);
  localparam int unsigned ProdW = 2 * MantW + 2;
  localparam logic [ExpW:0]   Bias   = {2'b00, {(ExpW - 1){1'b1}}};
  localparam logic [ExpW:0]   InfLim = {1'b0, {ExpW{1'b1}}} + Bias;  // exp sum that saturates
  localparam logic [ExpW-1:0] ExpTop = {{(ExpW - 1){1'b1}}, 1'b0};   // largest finite exponent

  logic             a_sign, b_sign, p_sign;
  logic [ExpW-1:0]  a_exp, b_exp;
  logic [MantW-1:0] a_man, b_man;
  logic             a_nan, b_nan, a_zero, b_zero;

  assign {a_sign, a_exp, a_man} = a_i;
  assign {b_sign, b_exp, b_man} = b_i;
  assign a_nan  = (&a_exp) && (a_man != '0);
  assign b_nan  = (&b_exp) && (b_man != '0);
  assign a_zero = (a_exp == '0) && (a_man == '0);
  assign b_zero = (b_exp == '0) && (b_man == '0);
  assign p_sign = a_sign ^ b_sign;

  // Exponent sum and product of the mantissas with their implied ones (both operands are
  // non-zero wherever the product is used, so both implied bits are 1 there).
  logic [ExpW:0]    exp_sum;
  logic [ProdW-1:0] prod;
  assign exp_sum = {1'b0, a_exp} + {1'b0, b_exp};
  assign prod    = {1'b1, a_man} * {1'b1, b_man};

  // Product exponent; a product in [2, 4) moves up one unless that reaches the top.
  logic             zero, inf;
  logic [ExpW-1:0]  p_exp;
  logic [ProdW-1:0] p_man;
  always_comb begin
    zero  = a_zero || b_zero || (exp_sum < Bias);
    inf   = !zero && (exp_sum >= InfLim);
    p_exp = ExpW'(exp_sum - Bias);
    p_man = {prod[ProdW-2:0], 1'b0};
    if (prod[ProdW-1]) begin
      p_man = prod;
      if (p_exp < ExpTop) p_exp = p_exp + 1'b1;
      else                inf   = 1'b1;
    end
  end

  logic [MantW:0] r_mp1;
  logic           r_ovf;
  dla_fp_round #(
    .InW  (ProdW),
    .OutW (MantW + 1)
  ) u_round (
    .mant_i (p_man),
    .mant_o (r_mp1),
    .ovf_o  (r_ovf)
  );

  // the rounded implied one: a carry out of it is r_ovf, the exponent bump below
  logic unused_lead;
  assign unused_lead = r_mp1[MantW];

  always_comb begin
    logic [ExpW-1:0] o_exp;
    o_exp = p_exp + ExpW'(r_ovf);
    if (a_nan)                   z_o = a_i;
    else if (b_nan)              z_o = b_i;
    else if (zero)               z_o = {p_sign, {(ExpW + MantW){1'b0}}};
    else if (inf || (&o_exp))    z_o = {p_sign, ExpTop, {MantW{1'b1}}};  // rounding reached the top
    else if (o_exp == '0)        z_o = {p_sign, {(ExpW + MantW){1'b0}}};  // below the normal range
    else                         z_o = {p_sign, o_exp, r_mp1[MantW-1:0]};
  end
endmodule
