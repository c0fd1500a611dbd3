// CDMA input converter on one memory atom (conv-pipeline.md §3, docs/CONV.md §1): every element
// through conv_cdma_cvt_elem, y = sat_in(rhaz((x - OFFSET) * SCALE / 2^TRUNCATE)), OFFSET and
// SCALE signed 16-bit, TRUNCATE 0..63, sat_in = int8 or int16 by precision. Disabled: the atom
// passes unchanged.
module conv_cdma_cvt #(
  parameter int unsigned AtomBytes    = 8,
  parameter bit          SupportInt16 = 1'b0
) (
  input  logic                     en_i,
  input  logic                     int16_i,
  input  logic [15:0]              offset_i,
  input  logic [15:0]              scale_i,
  input  logic [5:0]               truncate_i,
  input  logic [8*AtomBytes-1:0]   data_i,
  output logic [8*AtomBytes-1:0]   data_o
);
  logic [8*AtomBytes-1:0] out8, out16;

  for (genvar i = 0; i < AtomBytes; i++) begin : g_int8
    conv_cdma_cvt_elem #(.OutW(8)) u_elem (
      .data_i    (17'($signed(data_i[8*i +: 8]))),
      .offset_i  (offset_i),
      .scale_i   (scale_i),
      .truncate_i(truncate_i),
      .data_o    (out8[8*i +: 8])
    );
  end

  if (SupportInt16) begin : g_int16
    for (genvar i = 0; i < AtomBytes / 2; i++) begin : g_lane
      conv_cdma_cvt_elem #(.OutW(16)) u_elem (
        .data_i    (17'($signed(data_i[16*i +: 16]))),
        .offset_i  (offset_i),
        .scale_i   (scale_i),
        .truncate_i(truncate_i),
        .data_o    (out16[16*i +: 16])
      );
    end
  end else begin : g_no_int16
    assign out16 = out8;
  end

  assign data_o = !en_i ? data_i : (SupportInt16 && int16_i) ? out16 : out8;
endmodule
