// CDMA input converter, one element (cdma-input-modes.md §2.2, conv-pipeline.md §3):
// y = sat_OutW(rhaz((x - OFFSET) * SCALE / 2^TRUNCATE)), x the element extended to 17 bits by
// its input's rule (feature data signed; image components by PIXEL_SIGN_OVERRIDE), OFFSET (or
// the image's mean) and SCALE signed 16-bit, TRUNCATE 0..63. The one rule of the feature
// (conv_cdma_cvt) and the image path (conv_cdma_img_pack).
module conv_cdma_cvt_elem #(
  parameter int unsigned OutW = 8
) (
  input  logic signed [16:0] data_i,
  input  logic [15:0]        offset_i,
  input  logic [15:0]        scale_i,
  input  logic [5:0]         truncate_i,
  output logic [OutW-1:0]    data_o
);
  logic signed [33:0] prod;
  logic unused_sat;
  assign prod = (34'(data_i) - 34'($signed(offset_i))) * 34'($signed(scale_i));
  dla_sshift_sat #(
    .InW  (34),
    .OutW (OutW),
    .ShW  (7),
    .LeftW(1)
  ) u_shift (
    .data_i (prod),
    .shift_i({1'b0, truncate_i}),
    .data_o (data_o),
    .sat_o  (unused_sat)
  );
endmodule
