// EW operand converter (nvdla-arithmetic.md §2.2): sat32(rhaz(((x16 - offset32) * scale16) /
// 2^truncate)), widths 16 -> 33 -> 49 -> 32; bypass sign-extends x16.
module sdp_cvt (
  input  logic               bypass_i,
  input  logic [31:0]        offset_i,
  input  logic [15:0]        scale_i,
  input  logic [5:0]         truncate_i,
  input  logic signed [15:0] data_i,
  output logic signed [31:0] data_o
);
  logic signed [32:0] diff;
  logic signed [48:0] prod;
  logic signed [31:0] shifted;
  logic               sat;
  assign diff = 33'(data_i) - 33'($signed(offset_i));
  assign prod = 49'(diff) * 49'($signed(scale_i));
  sdp_rshift_sat #(
    .InW (49),
    .OutW(32),
    .ShW (6)
  ) u_shift (
    .data_i (prod),
    .shift_i(truncate_i),
    .data_o (shifted),
    .sat_o  (sat)
  );
  assign data_o = bypass_i ? 32'(data_i) : shifted;
  logic unused;
  assign unused = sat;
endmodule
