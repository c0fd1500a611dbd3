// Round-to-nearest-even narrowing of a mantissa: keep the top OutW of InW bits (InW > OutW), the
// bit below them is the guard, every bit under the guard ORs into the sticky, and one is added
// when guard && (sticky || kept LSB). NVDLA's FpMantRNE (hls/include/nvdla_float.h), the only
// rounding rule of its float library; every dla_fp_* module rounds through this one.
// NVDLA quirk kept: the increment wraps inside OutW bits (all ones + 1 = 0) and ovf_o flags it
// (carry && kept bits all ones); the caller bumps the exponent, so a mantissa that carries the
// implied one comes back as 0 with ovf_o, i.e. 1.0 at the next exponent.
module dla_fp_round #(
  parameter int unsigned InW  = 24,
  parameter int unsigned OutW = 11
) (
  input  logic [InW-1:0]  mant_i,
  output logic [OutW-1:0] mant_o,
  output logic            ovf_o
);
  logic [OutW-1:0] keep;
  logic            guard, sticky, carry;

  assign keep  = mant_i[InW-1 -: OutW];
  assign guard = mant_i[InW-OutW-1];
  if (InW - OutW >= 2) begin : g_sticky
    assign sticky = |mant_i[InW-OutW-2:0];
  end else begin : g_no_sticky
    assign sticky = 1'b0;
  end

  assign carry  = guard && (sticky || keep[0]);
  assign mant_o = keep + OutW'(carry);
  assign ovf_o  = carry && (&keep);
endmodule
