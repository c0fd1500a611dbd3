// Signed saturation sat_N: clamp an InW-bit signed value to the signed OutW-bit range
// [-2^(OutW-1), 2^(OutW-1)-1] (golden/arith.hpp sat). sat_o reports that the clamp was applied.
// OutW >= InW is a plain sign extension.
module dla_sat #(
  parameter int unsigned InW  = 33,
  parameter int unsigned OutW = 32
) (
  input  logic signed [InW-1:0]  data_i,
  output logic signed [OutW-1:0] data_o,
  output logic                   sat_o
);
  if (OutW >= InW) begin : g_extend
    assign data_o = OutW'(data_i);
    assign sat_o  = 1'b0;
  end else begin : g_clamp
    // In range iff the bits from OutW-1 up are all copies of the sign bit.
    logic [InW-OutW:0] top;
    assign top    = data_i[InW-1:OutW-1];
    assign sat_o  = !((top == '0) || (top == '1));
    assign data_o = !sat_o ? data_i[OutW-1:0]
                  : data_i[InW-1] ? {1'b1, {(OutW - 1){1'b0}}} : {1'b0, {(OutW - 1){1'b1}}};
  end
endmodule
