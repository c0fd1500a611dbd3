// One lane of CDP's output stage (cdp_core instantiates Throughput of them): the LUT output times
// the centre element (or the LUT output alone under MUL_BYPASS), then the output converter
// ((p - DATOUT_OFFSET) x DATOUT_SCALE >> DATOUT_SHIFTER, rounded, saturated to 16 bits, then to 8
// for int8), with NVDLA's saturation flag (dla_hls_sat_flag). Spec: pdp-cdp-bdma-rubik.md (CDP); docs/CDP_RTL.md.
// A module of its own so that the lanes are one piece of logic, synthesized once.
module cdp_ocvt (
  input  logic [15:0] lut_i,        // the LUT output (signed)
  input  logic [16:0] x_i,          // the centre element, converted (signed)
  input  logic        mul_bypass_i,
  input  logic        int16_i,
  input  logic [34:0] out_off_i,    // DATOUT_OFFSET, sign-extended
  input  logic [15:0] out_scale_i,  // DATOUT_SCALE
  input  logic [5:0]  out_shift_i,  // DATOUT_SHIFTER
  output logic [15:0] val_o,
  output logic        sat_o
);
  logic signed [32:0] r33, rx, p;
  logic signed [34:0] p35, d35;
  logic signed [50:0] d51, scale51, prod;
  logic signed [15:0] v16;
  logic signed [7:0]  v8;
  logic               sat16, sat8;
  assign r33     = 33'($signed(lut_i));                // sign extension
  assign rx      = r33 * 33'($signed(x_i));            // 16 x 17 bits: exact in 33
  assign p       = mul_bypass_i ? r33 : rx;
  assign p35     = 35'(p);
  assign d35     = p35 - $signed(out_off_i);           // exact: 33 and 32 bits
  assign d51     = 51'(d35);
  assign scale51 = 51'($signed(out_scale_i));
  assign prod    = d51 * scale51;
  dla_sshift_sat #(
    .InW (51),
    .OutW(16),
    .ShW (7)
  ) u_shift (
    .data_i (prod),
    .shift_i({1'b0, out_shift_i}),
    .data_o (v16),
    .sat_o  (sat16)
  );
  dla_sat #(
    .InW (16),
    .OutW(8)
  ) u_sat8 (
    .data_i(v16),
    .data_o(v8),
    .sat_o (sat8)
  );
  assign val_o = int16_i ? v16 : 16'(v8);
  // NVDLA's flag (IntShiftRightSat, hls/cdp_libs/cdp_ocvt.cpp), not the clamps' own.
  dla_hls_sat_flag #(
    .InW (51),
    .OutW(16),
    .ShW (6)
  ) u_flag (
    .data_i  (prod),
    .shift_i (out_shift_i),
    .result_i(val_o),
    .sat_o   (sat_o)
  );
  logic unused;
  assign unused = ^{sat16, sat8};
endmodule
