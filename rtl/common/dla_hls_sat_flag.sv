// The saturation flag of NVDLA's HLS IntShiftRightSat (SDP's and CDP's output converters): set
// where the converter's result (rounded, clamped) lies more than 1 from the plain floor shift of
// its input, so a floor one past the output range is clamped but not counted
// (golden/arith.hpp shift_right_sat_hls). A shift of InW or more leaves the sign (0 or -1).
module dla_hls_sat_flag #(
  parameter int unsigned InW  = 49,
  parameter int unsigned OutW = 17,
  parameter int unsigned ShW  = 6
) (
  input  logic signed [InW-1:0]  data_i,    // the value the converter shifts
  input  logic        [ShW-1:0]  shift_i,
  input  logic signed [OutW-1:0] result_i,  // the converter's output
  output logic                   sat_o
);
  localparam int unsigned GapW = InW + 1;
  localparam logic signed [GapW-1:0] One = GapW'(1);
  logic signed [InW-1:0]  floor_q;
  logic signed [GapW-1:0] gap;
  assign floor_q = data_i >>> shift_i;
  assign gap     = GapW'(floor_q) - GapW'(result_i);
  assign sat_o   = (gap > One) || (gap < -One);
endmodule
