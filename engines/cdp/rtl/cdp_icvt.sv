// One element of CDP's input stage (cdp_core instantiates Throughput + 8 of them: the beat's
// elements and the square-sum window's 4 neighbours on each side): the input converter
// ((x - DATIN_OFFSET) x DATIN_SCALE >> DATIN_SHIFT, rounded, saturated to 17 bits, then to 9 for
// int8), 0 outside [0, C), and its square for the square sum. Spec: pdp-cdp-bdma-rubik.md (CDP);
// docs/CDP_RTL.md. A module of its own so that the elements are one piece of logic, synthesized once.
module cdp_icvt (
  input  logic [16:0] raw_i,       // the element, sign-extended
  input  logic        in_cube_i,   // its channel is in [0, C)
  input  logic        int16_i,
  input  logic [16:0] in_off_i,    // DATIN_OFFSET, sign-extended
  input  logic [15:0] in_scale_i,  // DATIN_SCALE
  input  logic [4:0]  in_shift_i,  // DATIN_SHIFTER
  output logic [16:0] x_o,         // the converted value (signed)
  output logic [32:0] sq_o         // its square (exact, non-negative)
);
  logic signed [32:0] d33, scale33, prod;
  logic signed [16:0] x17;
  logic signed [8:0]  x9;
  logic unused_sat17, unused_sat9;
  assign d33     = 33'($signed(raw_i)) - 33'($signed(in_off_i));
  assign scale33 = 33'($signed(in_scale_i));
  assign prod    = d33 * scale33;
  dla_sshift_sat #(
    .InW (33),
    .OutW(17),
    .ShW (6)
  ) u_shift (
    .data_i (prod),
    .shift_i({1'b0, in_shift_i}),
    .data_o (x17),
    .sat_o  (unused_sat17)
  );
  dla_sat #(
    .InW (17),
    .OutW(9)
  ) u_sat9 (
    .data_i(x17),
    .data_o(x9),
    .sat_o (unused_sat9)
  );
  assign x_o = !in_cube_i ? '0 : int16_i ? x17 : 17'(x9);

  // x^2 <= 2^32: exact in 33 bits
  logic signed [33:0] xs34, s2;
  logic unused_s2;
  assign xs34      = 34'($signed(x_o));
  assign s2        = xs34 * xs34;
  assign sq_o      = s2[32:0];
  assign unused_s2 = s2[33];
endmodule
