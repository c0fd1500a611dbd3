// Floating-point add / subtract, combinational, bit-exact with NVDLA v1's FpAdd / FpSub
// (hls/include/nvdla_float.h; the HLS units fp16_add/sub, fp17_add/sub, fp32_add/sub).
// sub_i = 1 is FpSub: b's sign is flipped first, also when b is a NaN (which then comes out with
// the flipped sign, as NVIDIA's does). Not IEEE 754; the quirks kept, each because the hardware
// computes so:
//   * only an exact zero gets an implied 0: a denormal is read as 1.m x 2^(0-bias) (no 0.m), so
//     0x0200 + 0x0200 = 0x0600 in fp16;
//   * the smaller operand is aligned into MantW+2 bits below the mantissa and whatever is shifted
//     further out is dropped, as is the LSB on a carry-out shift: no sticky bit. (With that many
//     guard bits no normal-operand, normal-result case differing from IEEE RNE was found.)
//   * a result below the normal range (normalised exponent <= 0) flushes to zero keeping the
//     larger operand's sign, so x + (-x) = +0 or -0 by which operand is "larger" (a on ties);
//   * overflow saturates to the largest finite value (expo all ones - 1, mantissa all ones)
//     instead of Inf; an Inf operand is just 1.0 x 2^(max-bias) with no special case, so in
//     fp16 Inf + Inf = 0x7bff, Inf - Inf = 0, Inf - 32768 = 32768 and Inf + 32768 = 0x7e00 (a NaN
//     pattern out of non-NaN operands);
//   * NaN operands pass through unchanged, a's first.
module dla_fp_add #(
  parameter int unsigned ExpW  = 5,
  parameter int unsigned MantW = 10
) (
  input  logic [ExpW+MantW:0] a_i,
  input  logic [ExpW+MantW:0] b_i,
  input  logic                sub_i,
  output logic [ExpW+MantW:0] z_o
);
  localparam int unsigned AlignW = MantW + 2;          // room for the smaller operand's bits
  localparam int unsigned SumW   = 2 * MantW + 3;      // implied one + mantissa + AlignW
  localparam int unsigned CntW   = $clog2(SumW + 1);
  localparam int unsigned CmpW   = (ExpW > CntW) ? ExpW : CntW;
  localparam logic [ExpW-1:0] ExpTop = {{(ExpW - 1){1'b1}}, 1'b0};  // largest finite exponent

  logic             a_sign, b_sign;
  logic [ExpW-1:0]  a_exp, b_exp;
  logic [MantW-1:0] a_man, b_man;
  logic             a_nan, b_nan;
  logic [MantW:0]   a_mp1, b_mp1;                      // with the implied bit

  assign {a_sign, a_exp, a_man} = a_i;
  assign b_sign = b_i[ExpW+MantW] ^ sub_i;
  assign {b_exp, b_man} = b_i[ExpW+MantW-1:0];
  assign a_nan  = (&a_exp) && (a_man != '0);
  assign b_nan  = (&b_exp) && (b_man != '0);
  assign a_mp1  = {(a_exp != '0) || (a_man != '0), a_man};
  assign b_mp1  = {(b_exp != '0) || (b_man != '0), b_man};

  // Order by magnitude bits (a wins ties); the result takes the larger operand's sign.
  logic             a_ge;
  logic             l_sign;
  logic [ExpW-1:0]  l_exp, s_exp, shift;
  logic [MantW:0]   l_mp1, s_mp1;
  assign a_ge   = {a_exp, a_man} >= {b_exp, b_man};
  assign l_sign = a_ge ? a_sign : b_sign;
  assign l_exp  = a_ge ? a_exp : b_exp;
  assign s_exp  = a_ge ? b_exp : a_exp;
  assign l_mp1  = a_ge ? a_mp1 : b_mp1;
  assign s_mp1  = a_ge ? b_mp1 : a_mp1;
  assign shift  = l_exp - s_exp;

  logic [SumW-1:0] l_al, s_al;
  logic [SumW:0]   sum;
  assign l_al   = {l_mp1, AlignW'(0)};
  assign s_al   = {s_mp1, AlignW'(0)} >> shift;         // bits below AlignW are lost
  assign sum   = (a_sign == b_sign) ? {1'b0, l_al} + {1'b0, s_al}
                                    : {1'b0, l_al} - {1'b0, s_al};

  logic [CntW-1:0] zc;
  dla_lzc #(
    .Width (SumW)
  ) u_lzc (
    .data_i (sum[SumW-1:0]),
    .cnt_o  (zc)
  );

  // Normalise: a carry shifts right by one, otherwise shift the leading one to the top; a
  // result whose exponent would drop to <= 0 is zero.
  logic [ExpW-1:0] n_exp;
  logic [SumW-1:0] n_man;
  logic            carry_inf;
  always_comb begin
    carry_inf = 1'b0;
    n_exp     = l_exp;
    n_man     = sum[SumW:1];
    if (sum[SumW]) begin
      if (l_exp < ExpTop) n_exp = l_exp + 1'b1;
      else                carry_inf = 1'b1;
    end else if ((sum[SumW-1:0] == '0) || (CmpW'(l_exp) <= CmpW'(zc))) begin
      n_exp = '0;
      n_man = '0;
    end else begin
      n_exp = l_exp - ExpW'(zc);
      n_man = sum[SumW-1:0] << zc;
    end
  end

  logic [MantW:0] r_mp1;
  logic           r_ovf;
  dla_fp_round #(
    .InW  (SumW),
    .OutW (MantW + 1)
  ) u_round (
    .mant_i (n_man),
    .mant_o (r_mp1),
    .ovf_o  (r_ovf)
  );

  // the rounded implied one: a carry out of it is r_ovf, the exponent bump below
  logic unused_lead;
  assign unused_lead = r_mp1[MantW];

  always_comb begin
    logic            inf;
    logic [ExpW-1:0] o_exp;
    inf   = carry_inf;
    o_exp = n_exp;
    if (r_ovf) begin
      if (n_exp < ExpTop) o_exp = n_exp + 1'b1;
      else                inf   = 1'b1;
    end
    if (a_nan)      z_o = a_i;
    else if (b_nan) z_o = {b_sign, b_exp, b_man};
    else if (inf)   z_o = {l_sign, ExpTop, {MantW{1'b1}}};
    else            z_o = {l_sign, o_exp, r_mp1[MantW-1:0]};
  end
endmodule
