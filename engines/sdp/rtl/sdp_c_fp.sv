// Output of fp16 processing, one element (NVDLA v1; docs/FP16.md "SDP"): fp32 -> fp16 (NVDLA's
// saturating narrowing), then either the fp16 pattern or, for INT16 output, fp16 -> int16 (round
// half away from zero, saturating, a NaN to -32768). sat_o flags an fp16 output of +-65504 (the
// narrowing's saturation and a genuine 65504 alike, as NVDLA counts them). EQL mode passes the
// low 16 bits unconverted, as in integers.
module sdp_c_fp (
  input  sdp_pkg::c_cfg_t cfg_i,
  input  logic [31:0]     data_i,
  output logic [15:0]     data_o,
  output logic            sat_o
);
  logic [15:0] h, i16;
  dla_fp_cvt #(.InExpW(8), .InMantW(23), .OutExpW(5), .OutMantW(10), .Denorm(1'b1)) u_narrow (
    .a_i(data_i),
    .z_o(h)
  );
  dla_fp_to_int #(.IntW(16), .ExpW(5), .MantW(10)) u_int (
    .a_i(h),
    .z_o(i16)
  );
  always_comb begin
    if (cfg_i.eql) begin
      data_o = data_i[15:0];
      sat_o  = 1'b0;
    end else if (!cfg_i.out_fp16) begin
      data_o = i16;
      sat_o  = 1'b0;
    end else begin
      data_o = h;
      sat_o  = h[14:0] == 15'h7bff;
    end
  end
  logic unused;  // the integer converter
  assign unused = ^{cfg_i.offset, cfg_i.scale, cfg_i.shift, cfg_i.out_wide, cfg_i.fp};
endmodule
