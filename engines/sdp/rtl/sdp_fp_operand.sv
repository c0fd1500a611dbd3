// An fp16 operand of SDP's float stages (NVDLA v1; docs/FP16.md "SDP"): a NaN becomes +0 with
// NAN_TO_ZERO (as the data does), then the pattern is widened exactly to fp32.
module sdp_fp_operand (
  input  logic        nan_to_zero_i,
  input  logic [15:0] op_i,
  output logic [31:0] op_o
);
  logic [15:0] flushed;
  assign flushed = (nan_to_zero_i && dla_fp_pkg::fp16_is_nan(op_i[14:0])) ? 16'd0 : op_i;
  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b1)) u_widen (
    .a_i(flushed),
    .z_o(op_o)
  );
endmodule
