// One BS (X1) or BN (X2) stage for one element in fp16 processing (NVDLA v1; docs/FP16.md
// "SDP"), in fp32: ALU (add, max or min with the fp16 operand, the data first; 3 is add, as in
// integers) -> MUL, except PReLU's pass of a value with its sign bit clear (+0 and +NaN too) ->
// ReLU (a negative value, -0 included, becomes +0; a NaN passes). No shifts: the operands are
// fp16 (register or memory), flushed and widened by sdp_fp_operand.
module sdp_x_fp (
  input  sdp_pkg::x_cfg_t cfg_i,
  input  logic            nan_to_zero_i,
  input  logic [31:0]     data_i,
  input  logic [15:0]     alu_mem_i,  // operand from BRDMA/NRDMA when the source is memory
  input  logic [15:0]     mul_mem_i,
  output logic [31:0]     data_o
);
  logic [31:0] alu_op, mul_op, sum, ext, alu_v, prod, mul_v;
  sdp_fp_operand u_alu_op (
    .nan_to_zero_i(nan_to_zero_i),
    .op_i         (cfg_i.alu_src_mem ? alu_mem_i : cfg_i.alu_operand),
    .op_o         (alu_op)
  );
  sdp_fp_operand u_mul_op (
    .nan_to_zero_i(nan_to_zero_i),
    .op_i         (cfg_i.mul_src_mem ? mul_mem_i : cfg_i.mul_operand),
    .op_o         (mul_op)
  );
  dla_fp_add #(.ExpW(8), .MantW(23)) u_add (
    .a_i  (data_i),
    .b_i  (alu_op),
    .sub_i(1'b0),
    .z_o  (sum)
  );
  dla_fp_minmax #(.ExpW(8), .MantW(23)) u_ext (
    .a_i  (data_i),
    .b_i  (alu_op),
    .max_i(cfg_i.alu_algo == sdp_pkg::AluMax),
    .z_o  (ext)
  );
  always_comb begin
    if (cfg_i.alu_bypass) alu_v = data_i;
    else if (cfg_i.alu_algo == sdp_pkg::AluMax || cfg_i.alu_algo == sdp_pkg::AluMin) alu_v = ext;
    else alu_v = sum;
  end
  dla_fp_mul #(.ExpW(8), .MantW(23)) u_mul (
    .a_i(alu_v),
    .b_i(mul_op),
    .z_o(prod)
  );
  assign mul_v = (cfg_i.mul_bypass || (cfg_i.mul_prelu && !alu_v[31])) ? alu_v : prod;
  always_comb begin
    if (cfg_i.bypass) data_o = data_i;
    else if (!cfg_i.relu_bypass && mul_v[31] && !dla_fp_pkg::fp32_is_nan(mul_v[30:0])) data_o = '0;
    else data_o = mul_v;
  end
  logic unused;  // no shifts in float
  assign unused = ^{cfg_i.alu_shift, cfg_i.mul_shift};
endmodule
