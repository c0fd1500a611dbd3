// The output stage (docs/LINEBUF.md §1 steps 1-2): activation, then requantize
// sat_bits(rhaz(v / 2^out_shift)), bits 8 or 16; leaky: negatives become
// rhaz(acc * slope / 2^leaky_shift). Rounding and saturation are dla_sshift_sat and dla_sat
// (rtl/common, the RTL twins of golden/arith.hpp). Combinational.
module linebuf_out #(
  parameter int unsigned AccW  = 48,
  parameter int unsigned DataW = 16
) (
  input  logic signed [AccW-1:0] acc_i,
  input  logic [1:0]             act_i,
  input  logic [15:0]            slope_i,
  input  logic [4:0]             slope_shift_i,
  input  logic [5:0]             out_shift_i,
  input  logic                   int16_i,
  output logic [DataW-1:0]       data_o
);
  localparam int unsigned ProdW = AccW + 17;
  logic signed [ProdW-1:0] prod;
  logic signed [AccW-1:0]  leaky, act_v, shifted;
  logic signed [7:0]       sat8;
  logic signed [15:0]      sat16;
  logic                    unused_sat_leaky, unused_sat_requant, unused_sat8, unused_sat16;

  assign prod = ProdW'(acc_i) * $signed({1'b0, slope_i});

  // |prod / 2^s| <= |acc| (slope <= 2^s, refused otherwise): never saturates.
  dla_sshift_sat #(.InW(ProdW), .OutW(AccW), .ShW(7), .LeftW(1)) u_leaky (
    .data_i (prod),
    .shift_i({2'b00, slope_shift_i}),
    .data_o (leaky),
    .sat_o  (unused_sat_leaky)
  );

  always_comb begin
    act_v = acc_i;
    if (acc_i < 0 && act_i == linebuf_pkg::ActRelu) act_v = '0;
    if (acc_i < 0 && act_i == linebuf_pkg::ActLeaky) act_v = leaky;
  end

  // A right shift only (0..63): no saturation at AccW.
  dla_sshift_sat #(.InW(AccW), .OutW(AccW), .ShW(7), .LeftW(1)) u_requant (
    .data_i (act_v),
    .shift_i({1'b0, out_shift_i}),
    .data_o (shifted),
    .sat_o  (unused_sat_requant)
  );
  dla_sat #(.InW(AccW), .OutW(8)) u_sat8 (.data_i(shifted), .data_o(sat8), .sat_o(unused_sat8));
  dla_sat #(.InW(AccW), .OutW(16)) u_sat16 (.data_i(shifted), .data_o(sat16), .sat_o(unused_sat16));

  if (DataW >= 16) begin : g_int16
    assign data_o = int16_i ? DataW'(sat16) : DataW'(sat8);
  end else begin : g_int8
    logic unused_int16;
    assign unused_int16 = int16_i ^ (^sat16);
    assign data_o = DataW'(sat8);
  end
endmodule
