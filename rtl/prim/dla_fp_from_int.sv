// Integer to float, combinational, bit-exact with NVDLA v1 (hls/include/nvdla_float.h):
//   Fraction = 0: FpIntToFloat, a signed IntW-bit integer (Int16ToFp16, Int17ToFp16);
//   Fraction = 1: FpFractionToFloat, an unsigned IntW-bit fraction a / 2^IntW (HLS unit
//                 uint16_to_fp17, FpFractionToFloat<16,6,10>).
// The magnitude is normalised (dla_lzc) and rounded once to nearest even (dla_fp_round); needs
// IntW >= MantW + 2. The quirks kept, because the hardware converts so:
//   * integers beyond the range saturate to the largest finite value (expo all ones - 1,
//     mantissa all ones), never Inf: int17 -65536 gives 0xfbff (-65504);
//   * the biased exponent IntW - 1 - lzc + bias is kept in ExpW bits (NVIDIA's ExpoType) before
//     the overflow test, as the reference does (no wrap at the NVDLA instances);
//   * a fraction whose exponent would be <= 0 is a zero (never reached at IntW = 16 into fp17:
//     no denormals, no Inf, as NVIDIA's comment assumes).
module dla_fp_from_int #(
  parameter int unsigned IntW     = 16,
  parameter bit          Fraction = 1'b0,
  parameter int unsigned ExpW     = 5,
  parameter int unsigned MantW    = 10
) (
  input  logic [IntW-1:0]     a_i,
  output logic [ExpW+MantW:0] z_o
);
  localparam int unsigned CntW = $clog2(IntW + 1);
  localparam int unsigned Bias = 2 ** (ExpW - 1) - 1;
  localparam logic [ExpW-1:0] ExpTop = {{(ExpW - 1){1'b1}}, 1'b0};  // largest finite exponent

  logic            sign;
  logic [IntW-1:0] mag;
  assign sign = Fraction ? 1'b0 : a_i[IntW-1];
  assign mag  = sign ? IntW'(-a_i) : a_i;   // -(-2^(IntW-1)) is 2^(IntW-1) unsigned

  logic [CntW-1:0] zc;
  dla_lzc #(
    .Width (IntW)
  ) u_lzc (
    .data_i (mag),
    .cnt_o  (zc)
  );

  // 1.f with the leading one at the top; a zero LSB appended (NVIDIA rounds the fraction at
  // IntW + 1 bits; for an integer the extra 0 only joins the sticky bits)
  logic [IntW:0]  norm;
  logic [MantW:0] r_mp1;
  logic           r_ovf;
  assign norm = {mag << zc, 1'b0};
  dla_fp_round #(
    .InW  (IntW + 1),
    .OutW (MantW + 1)
  ) u_round (
    .mant_i (norm),
    .mant_o (r_mp1),
    .ovf_o  (r_ovf)
  );

  // the rounded implied one: a carry out of it is r_ovf, the exponent bump below
  logic unused_lead;
  assign unused_lead = r_mp1[MantW];

  if (Fraction) begin : g_fraction
    // value 2^-(zc+1) x 1.f: exponent bias - zc - 1, or bias - zc when rounding carries
    always_comb begin
      if (a_i == '0)
        z_o = '0;
      else if (r_ovf)
        z_o = {1'b0, ExpW'(Bias - 32'(zc)), {MantW{1'b0}}};
      else if (Bias <= 32'(zc) + 1)
        z_o = '0;
      else
        z_o = {1'b0, ExpW'(Bias - 32'(zc) - 1), r_mp1[MantW-1:0]};
    end
  end else begin : g_int
    // value 2^(IntW-1-zc) x 1.f
    always_comb begin
      logic [ExpW-1:0] o_exp;
      o_exp = ExpW'(IntW - 1 + Bias - 32'(zc));
      if (a_i == '0)
        z_o = '0;
      else if ((&o_exp) || (r_ovf && (o_exp >= ExpTop)))
        z_o = {sign, ExpTop, {MantW{1'b1}}};
      else
        z_o = {sign, o_exp + ExpW'(r_ovf), r_mp1[MantW-1:0]};
    end
  end
endmodule
