// EW (Y) stage before the LUT, one element in fp16 processing (NVDLA v1; docs/FP16.md "SDP EW
// and LUT"), in fp32: MUL (or PReLU's pass of a value with its sign bit clear) then ALU (add,
// max, min with the data first; EQL: 1 where the raw patterns differ, else 0, so +0 != -0 and a
// NaN equals itself). Memory operands are fp16, flushed and widened (sdp_fp_operand); register
// operands are fp32 as written. No converters and no truncation in float.
module sdp_y_fp (
  input  sdp_pkg::y_cfg_t cfg_i,
  input  logic            nan_to_zero_i,
  input  logic [31:0]     data_i,
  input  logic [15:0]     alu_mem_i,
  input  logic [15:0]     mul_mem_i,
  output logic [31:0]     data_o
);
  logic [31:0] alu_mem, mul_mem, alu_op, mul_op, prod, mul_v, sum, ext, alu_v;
  sdp_fp_operand u_alu_op (
    .nan_to_zero_i(nan_to_zero_i),
    .op_i         (alu_mem_i),
    .op_o         (alu_mem)
  );
  sdp_fp_operand u_mul_op (
    .nan_to_zero_i(nan_to_zero_i),
    .op_i         (mul_mem_i),
    .op_o         (mul_mem)
  );
  assign alu_op = cfg_i.alu_src_mem ? alu_mem : cfg_i.alu_operand;
  assign mul_op = cfg_i.mul_src_mem ? mul_mem : cfg_i.mul_operand;
  dla_fp_mul #(.ExpW(8), .MantW(23)) u_mul (
    .a_i(data_i),
    .b_i(mul_op),
    .z_o(prod)
  );
  assign mul_v = (cfg_i.mul_bypass || (cfg_i.mul_prelu && !data_i[31])) ? data_i : prod;
  dla_fp_add #(.ExpW(8), .MantW(23)) u_add (
    .a_i  (mul_v),
    .b_i  (alu_op),
    .sub_i(1'b0),
    .z_o  (sum)
  );
  dla_fp_minmax #(.ExpW(8), .MantW(23)) u_ext (
    .a_i  (mul_v),
    .b_i  (alu_op),
    .max_i(cfg_i.alu_algo == sdp_pkg::AluMax),
    .z_o  (ext)
  );
  always_comb begin
    unique case (cfg_i.alu_algo)
      sdp_pkg::AluMax, sdp_pkg::AluMin: alu_v = ext;
      sdp_pkg::AluEql:                  alu_v = {31'd0, mul_v != alu_op};
      default:                          alu_v = sum;
    endcase
    if (cfg_i.bypass) data_o = data_i;
    else if (cfg_i.alu_bypass) data_o = mul_v;
    else data_o = alu_v;
  end
  logic unused;  // the integer converters and truncation
  assign unused = ^{cfg_i.lut_bypass, cfg_i.alu_cvt_bypass, cfg_i.alu_cvt_offset, cfg_i.alu_cvt_scale,
                    cfg_i.alu_cvt_truncate, cfg_i.mul_cvt_bypass, cfg_i.mul_cvt_offset, cfg_i.mul_cvt_scale,
                    cfg_i.mul_cvt_truncate, cfg_i.truncate};
endmodule
