// Float-to-float format conversion, combinational, bit-exact with NVDLA v1's six converters
// (hls/include/nvdla_float.h; HLS units fp16_to_fp17, fp16_to_fp32, fp17_to_fp32 widen,
// fp17_to_fp16, fp32_to_fp16, fp32_to_fp17 narrow):
//   fp16->fp17 FpExpoWidthInc<5,6,10>     Denorm = 1     fp17->fp16 FpExpoWidthDec<6,5,10>  Denorm = 1
//   fp16->fp32 FpWidthInc<5,10,8,23>      Denorm = 1     fp32->fp16 FpWidthDec<8,23,5,10>   Denorm = 1
//   fp17->fp32 FpWidthInc<6,10,8,23>      Denorm = 0     fp32->fp17 FpWidthDec<8,23,6,10>   Denorm = 0
// OutExpW > InExpW widens (OutMantW >= InMantW), otherwise it narrows (InExpW > OutExpW,
// InMantW >= OutMantW, and the bias difference at least OutMantW, as in all three narrowings).
// The quirks kept, because the hardware converts so:
//   * Inf never survives: an Inf input becomes the largest finite output (expo all ones - 1,
//     mantissa all ones), as does any narrowing overflow;
//   * a NaN keeps its sign and its mantissa's LOW bits, unshifted: widening puts them in the low
//     bits of the wider mantissa, narrowing keeps only the low OutMantW bits, so a NaN whose low
//     bits are 0 narrows to the Inf pattern;
//   * widening with Denorm = 0 (fp17 -> fp32) reads a denormal as 1.m x 2^(0-bias);
//     with Denorm = 1 it is normalised exactly;
//   * narrowing into the denormal range shifts right and rounds to nearest even with sticky;
//     a result that rounds up to the smallest normal is kept even with Denorm = 0, any other
//     denormal result is then flushed to a signed zero; inputs far below (exponent under the bias
//     difference minus OutMantW) are a signed zero without rounding.
module dla_fp_cvt #(
  parameter int unsigned InExpW   = 5,
  parameter int unsigned InMantW  = 10,
  parameter int unsigned OutExpW  = 6,
  parameter int unsigned OutMantW = 10,
  parameter bit          Denorm   = 1'b1
) (
  input  logic [InExpW+InMantW:0]   a_i,
  output logic [OutExpW+OutMantW:0] z_o
);
  localparam int unsigned InBias  = 2 ** (InExpW - 1) - 1;
  localparam int unsigned OutBias = 2 ** (OutExpW - 1) - 1;
  localparam logic [OutExpW-1:0] OutExpTop = {{(OutExpW - 1){1'b1}}, 1'b0};

  logic                sign;
  logic [InExpW-1:0]   in_exp;
  logic [InMantW-1:0]  in_man;
  logic                nan;

  assign {sign, in_exp, in_man} = a_i;
  assign nan = (&in_exp) && (in_man != '0);

  if (OutExpW > InExpW) begin : g_widen
    localparam int unsigned BiasDelta = OutBias - InBias;
    localparam int unsigned MantPad   = OutMantW - InMantW;

    logic                zero, inf;
    logic [OutExpW-1:0]  w_exp;
    logic [InMantW-1:0]  w_man;
    assign zero = (in_exp == '0) && (in_man == '0);
    assign inf  = (&in_exp) && (in_man == '0);

    if (Denorm) begin : g_denorm
      localparam int unsigned CntW = $clog2(InMantW + 1);
      logic [CntW-1:0] zc;
      dla_lzc #(
        .Width (InMantW)
      ) u_lzc (
        .data_i (in_man),
        .cnt_o  (zc)
      );
      // a denormal 0.m x 2^(1-bias) is 1.m' x 2^(-bias-zc): shift the leading one out
      always_comb begin
        if (in_exp == '0) begin
          w_exp = OutExpW'(BiasDelta) - OutExpW'(zc);
          w_man = in_man << (zc + 1'b1);
        end else begin
          w_exp = OutExpW'(in_exp) + OutExpW'(BiasDelta);
          w_man = in_man;
        end
      end
    end else begin : g_no_denorm
      assign w_exp = OutExpW'(in_exp) + OutExpW'(BiasDelta);
      assign w_man = in_man;
    end

    always_comb begin
      if (nan)       z_o = {sign, {OutExpW{1'b1}}, OutMantW'(in_man)};
      else if (inf)  z_o = {sign, OutExpTop, {OutMantW{1'b1}}};
      else if (zero) z_o = {sign, {(OutExpW + OutMantW){1'b0}}};
      else           z_o = {sign, w_exp, OutMantW'(w_man) << MantPad};
    end
  end else begin : g_narrow
    localparam int unsigned BiasDelta = InBias - OutBias;
    localparam int unsigned InfLim    = 2 ** OutExpW - 1 + BiasDelta;  // >= saturates
    localparam int unsigned ZeroLim   = BiasDelta - OutMantW;          // < is zero
    localparam int unsigned PadW      = OutMantW + 1;                  // largest denormal shift
    localparam int unsigned XW        = InMantW + 1 + PadW;
    localparam int unsigned ShW       = $clog2(PadW + 1);

    logic             sat, tiny, denorm;
    logic [ShW-1:0]   sh;
    logic [XW-1:0]    x;
    assign sat    = 32'(in_exp) >= InfLim;
    assign tiny   = 32'(in_exp) < ZeroLim;
    assign denorm = 32'(in_exp) <= BiasDelta;
    // a denormal result 0.1m x 2^(1-bias) is the input's 1.m shifted right by 1 + the exponent gap
    assign sh     = denorm ? ShW'(BiasDelta + 1 - 32'(in_exp)) : '0;
    assign x      = {1'b1, in_man, PadW'(0)} >> sh;

    logic [OutMantW:0] r_mp1;
    logic              r_ovf;
    dla_fp_round #(
      .InW  (XW),
      .OutW (OutMantW + 1)
    ) u_round (
      .mant_i (x),
      .mant_o (r_mp1),
      .ovf_o  (r_ovf)
    );

    always_comb begin
      logic [OutExpW-1:0] o_exp;
      o_exp = OutExpW'(32'(in_exp) - BiasDelta) + OutExpW'(r_ovf);
      if (nan)                            z_o = {sign, {OutExpW{1'b1}}, in_man[OutMantW-1:0]};
      else if (sat)                       z_o = {sign, OutExpTop, {OutMantW{1'b1}}};
      else if (tiny)                      z_o = {sign, {(OutExpW + OutMantW){1'b0}}};
      else if (denorm) begin
        // r_mp1's top bit: rounded up to the smallest normal, 1.0 x 2^(1-bias)
        if (r_mp1[OutMantW])              z_o = {sign, OutExpW'(1), r_mp1[OutMantW-1:0]};
        else if (Denorm)                  z_o = {sign, {OutExpW{1'b0}}, r_mp1[OutMantW-1:0]};
        else                              z_o = {sign, {(OutExpW + OutMantW){1'b0}}};
      end
      else if (&o_exp)                    z_o = {sign, OutExpTop, {OutMantW{1'b1}}};
      else                                z_o = {sign, o_exp, r_mp1[OutMantW-1:0]};
    end
  end
endmodule
