// NVDLA shiftrightsu / shiftrightsatsu for SDP: unsigned shift amount, rounding half away from
// zero, saturation to OutW bits. A shift of InW or more gives 0 (the RTL rule; golden/arith.hpp
// shift_right_sat). ShW is the shift field width.
module sdp_rshift_sat #(
  parameter int unsigned InW  = 49,
  parameter int unsigned OutW = 32,
  parameter int unsigned ShW  = 6
) (
  input  logic signed [InW-1:0]  data_i,
  input  logic [ShW-1:0]         shift_i,
  output logic signed [OutW-1:0] data_o,
  output logic                   sat_o
);
  // Shifts of InW or more are resolved here, so the rounding shifter needs only 7-bit amounts.
  logic              big;
  logic signed [6:0] sh;
  assign big = 32'(shift_i) >= InW;
  assign sh  = big ? 7'sd0 : $signed({1'b0, 6'(shift_i)});

  logic signed [OutW-1:0] shifted;
  logic                   shifted_sat;
  dla_sshift_sat #(
    .InW  (InW),
    .OutW (OutW),
    .ShW  (7),
    .LeftW(1)
  ) u_shift (
    .data_i (data_i),
    .shift_i(sh),
    .data_o (shifted),
    .sat_o  (shifted_sat)
  );
  assign data_o = big ? '0 : shifted;
  assign sat_o  = big ? 1'b0 : shifted_sat;
endmodule
