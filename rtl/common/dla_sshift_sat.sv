// Signed-amount shift with NVDLA rounding and saturation (NVDLA shiftrightss / IntSignedShiftRight):
//   shift_i >= 0: data_i / 2^shift_i, rounded half away from zero (-2.5 -> -3, 2.5 -> 3);
//   shift_i <  0: data_i * 2^-shift_i (left shift; amounts beyond LeftW saturate unless data is 0);
// then saturated to the signed OutW-bit range. sat_o reports that the clamp was applied.
// Same rule as golden/arith.hpp signed_shift_sat (and rhaz_shift for the right-shift half).
module dla_sshift_sat #(
  parameter int unsigned InW   = 32,  // signed input width
  parameter int unsigned OutW  = 32,  // signed output width (OutW <= InW + LeftW)
  parameter int unsigned ShW   = 6,   // width of the signed shift amount
  parameter int unsigned LeftW = 16   // largest exact left shift
) (
  input  logic signed [InW-1:0]  data_i,
  input  logic signed [ShW-1:0]  shift_i,
  output logic signed [OutW-1:0] data_o,
  output logic                   sat_o
);
  localparam int unsigned MaxRight = (1 << (ShW - 1)) - 1;
  // |data| plus the rounding half must not overflow: one bit above max(InW, MaxRight).
  localparam int unsigned RW = ((InW > MaxRight) ? InW : MaxRight) + 1;
  // Exact result width: room for the widest left shift and for every quotient bit.
  localparam int unsigned WW = (InW + LeftW > RW) ? InW + LeftW : RW;

  logic              neg;
  logic signed [RW-1:0] ext;
  logic [RW-1:0]     mag, half, quo;
  logic [ShW-2:0]    rsh;
  logic [ShW-1:0]    lsh;
  logic signed [WW-1:0] wide;

  always_comb begin
    neg  = data_i[InW-1];
    ext  = RW'(data_i);  // sign extension
    mag  = $unsigned(neg ? -ext : ext);
    rsh  = shift_i[ShW-2:0];
    lsh  = -shift_i;
    half = '0;
    quo  = '0;
    wide = '0;
    if (!shift_i[ShW-1]) begin
      if (rsh != '0) begin
        half = RW'(1) << (rsh - 1'b1);
      end
      quo  = (mag + half) >> rsh;
      wide = neg ? -$signed(WW'(quo)) : $signed(WW'(quo));
    end else if (32'(lsh) > LeftW) begin
      if (data_i != '0) begin
        wide = neg ? {1'b1, {(WW - 1){1'b0}}} : {1'b0, {(WW - 1){1'b1}}};
      end
    end else begin
      wide = WW'(data_i) <<< lsh;
    end
  end

  dla_sat #(
    .InW (WW),
    .OutW(OutW)
  ) u_sat (
    .data_i(wide),
    .data_o(data_o),
    .sat_o (sat_o)
  );
endmodule
