// Output converter (nvdla-arithmetic.md §2.3): t = sat17(rhaz(((x32 - offset) * scale) /
// 2^shift)) with the saturation flag of this 17-bit stage only; then sat8 or sat16 (no flag).
// The flag is NVDLA's IntShiftRightSat one: set where t differs from the floor shift by more
// than 1, so a floor one past the 17-bit range is clamped but not counted (golden/arith.hpp
// shift_right_sat_hls).
// EQL mode passes the low 16 bits of the input unconverted.
module sdp_c (
  input  sdp_pkg::c_cfg_t    cfg_i,
  input  logic signed [31:0] data_i,
  output logic signed [15:0] data_o,  // int8 results sign-extended
  output logic               sat_o
);
  logic signed [32:0] diff;
  logic signed [48:0] prod;
  logic signed [16:0] t17;
  logic               t_sat;  // the rounded value's clamp: not NVDLA's flag (below)
  assign diff = 33'(data_i) - 33'($signed(cfg_i.offset));
  assign prod = 49'(diff) * 49'($signed(cfg_i.scale));
  sdp_rshift_sat #(
    .InW (49),
    .OutW(17),
    .ShW (6)
  ) u_shift (
    .data_i (prod),
    .shift_i(cfg_i.shift),
    .data_o (t17),
    .sat_o  (t_sat)
  );
  logic flag;
  dla_hls_sat_flag #(
    .InW (49),
    .OutW(17),
    .ShW (6)
  ) u_flag (
    .data_i  (prod),
    .shift_i (cfg_i.shift),
    .result_i(t17),
    .sat_o   (flag)
  );

  logic signed [15:0] t16;
  logic signed [7:0]  t8;
  logic               s16, s8;
  dla_sat #(.InW(17), .OutW(16)) u_sat16 (.data_i(t17), .data_o(t16), .sat_o(s16));
  dla_sat #(.InW(17), .OutW(8))  u_sat8  (.data_i(t17), .data_o(t8),  .sat_o(s8));

  always_comb begin
    if (cfg_i.eql) begin
      data_o = data_i[15:0];
      sat_o  = 1'b0;
    end else begin
      data_o = cfg_i.out_wide ? t16 : 16'(t8);
      sat_o  = flag;
    end
  end
  logic unused;  // the float fields (sdp_c_fp)
  assign unused = ^{s16, s8, t_sat, cfg_i.out_fp16, cfg_i.fp};
endmodule
