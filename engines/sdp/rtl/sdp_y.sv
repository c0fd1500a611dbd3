// EW (Y) stage before the LUT, one element (nvdla-arithmetic.md §2.2): MUL (32x32, rounding
// truncation by EW_TRUNCATE, or PReLU) then ALU (MAX/MIN/SUM saturated to 32, or EQL -> 0/1).
// Memory operands pass the converters; register operands are used as they are.
module sdp_y (
  input  sdp_pkg::y_cfg_t    cfg_i,
  input  logic signed [31:0] data_i,
  input  logic signed [15:0] alu_mem_i,
  input  logic signed [15:0] mul_mem_i,
  output logic signed [31:0] data_o
);
  logic signed [31:0] alu_cvt, mul_cvt, alu_op, mul_op;
  sdp_cvt u_alu_cvt (
    .bypass_i  (cfg_i.alu_cvt_bypass),
    .offset_i  (cfg_i.alu_cvt_offset),
    .scale_i   (cfg_i.alu_cvt_scale),
    .truncate_i(cfg_i.alu_cvt_truncate),
    .data_i    (alu_mem_i),
    .data_o    (alu_cvt)
  );
  sdp_cvt u_mul_cvt (
    .bypass_i  (cfg_i.mul_cvt_bypass),
    .offset_i  (cfg_i.mul_cvt_offset),
    .scale_i   (cfg_i.mul_cvt_scale),
    .truncate_i(cfg_i.mul_cvt_truncate),
    .data_i    (mul_mem_i),
    .data_o    (mul_cvt)
  );
  assign alu_op = cfg_i.alu_src_mem ? alu_cvt : $signed(cfg_i.alu_operand);
  assign mul_op = cfg_i.mul_src_mem ? mul_cvt : $signed(cfg_i.mul_operand);

  logic signed [63:0] prod;
  logic signed [31:0] mul_trunc, mul_out;
  logic               mul_sat;
  assign prod = 64'(data_i) * 64'(mul_op);
  sdp_rshift_sat #(
    .InW (64),
    .OutW(32),
    .ShW (10)
  ) u_trunc (
    .data_i (prod),
    .shift_i(cfg_i.truncate),
    .data_o (mul_trunc),
    .sat_o  (mul_sat)
  );
  always_comb begin
    if (cfg_i.mul_bypass) mul_out = data_i;
    else if (cfg_i.mul_prelu && !data_i[31]) mul_out = data_i;
    else mul_out = mul_trunc;
  end

  logic signed [32:0] a33, b33, sum33;
  logic signed [31:0] alu_out;
  logic               sum_sat;
  assign a33   = 33'(mul_out);
  assign b33   = 33'(alu_op);
  assign sum33 = a33 + b33;
  logic signed [31:0] sum32;
  dla_sat #(
    .InW (33),
    .OutW(32)
  ) u_sum_sat (
    .data_i(sum33),
    .data_o(sum32),
    .sat_o (sum_sat)
  );
  always_comb begin
    unique case (cfg_i.alu_algo)
      sdp_pkg::AluMax: alu_out = (a33 > b33) ? mul_out : alu_op;
      sdp_pkg::AluMin: alu_out = (a33 < b33) ? mul_out : alu_op;
      sdp_pkg::AluSum: alu_out = sum32;
      default:         alu_out = (mul_out == alu_op) ? 32'sd0 : 32'sd1;  // EQL
    endcase
  end

  always_comb begin
    if (cfg_i.bypass) data_o = data_i;
    else if (cfg_i.alu_bypass) data_o = mul_out;
    else data_o = alu_out;
  end

  logic unused;
  assign unused = mul_sat ^ sum_sat ^ cfg_i.lut_bypass;
endmodule
