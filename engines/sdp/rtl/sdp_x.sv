// One BS (X1) or BN (X2) stage for one element (nvdla-arithmetic.md §2.1):
// ALU (operand << shift, saturated to 32; MAX/MIN/SUM on 33 bits) -> MUL (33x16) or PReLU ->
// truncation (rounding right shift, saturated to 32; runs even when MUL is bypassed) -> ReLU.
module sdp_x (
  input  sdp_pkg::x_cfg_t    cfg_i,
  input  logic signed [31:0] data_i,
  input  logic signed [15:0] alu_mem_i,  // operand from BRDMA/NRDMA when the source is memory
  input  logic signed [15:0] mul_mem_i,
  output logic signed [31:0] data_o
);
  // ALU operand: sat32(op16 * 2^shift).
  logic signed [15:0] alu_op16;
  logic signed [31:0] alu_op32;
  logic               alu_op_sat;
  assign alu_op16 = cfg_i.alu_src_mem ? alu_mem_i : $signed(cfg_i.alu_operand);
  dla_sshift_sat #(
    .InW  (16),
    .OutW (32),
    .ShW  (7),
    .LeftW(63)
  ) u_alu_shift (
    .data_i (alu_op16),
    .shift_i(-$signed({1'b0, cfg_i.alu_shift})),
    .data_o (alu_op32),
    .sat_o  (alu_op_sat)
  );

  logic signed [32:0] x33, op33, alu33;
  always_comb begin
    x33  = 33'(data_i);
    op33 = 33'(alu_op32);
    if (cfg_i.alu_bypass) begin
      alu33 = x33;
    end else begin
      unique case (cfg_i.alu_algo)
        sdp_pkg::AluMax: alu33 = (x33 > op33) ? x33 : op33;
        sdp_pkg::AluMin: alu33 = (x33 < op33) ? x33 : op33;
        default:         alu33 = x33 + op33;  // SUM; 3 is SUM too in the X stages
      endcase
    end
  end

  logic signed [15:0] mul_op16;
  logic signed [48:0] prod49;
  logic               prelu_pass;
  assign mul_op16   = cfg_i.mul_src_mem ? mul_mem_i : $signed(cfg_i.mul_operand);
  assign prelu_pass = !cfg_i.mul_bypass && cfg_i.mul_prelu && !alu33[32];
  assign prod49     = cfg_i.mul_bypass ? 49'(alu33) : 49'(alu33) * 49'(mul_op16);

  logic signed [31:0] trunc32;
  logic               trunc_sat;
  sdp_rshift_sat #(
    .InW (49),
    .OutW(32),
    .ShW (6)
  ) u_trunc (
    .data_i (prod49),
    .shift_i(cfg_i.mul_shift),
    .data_o (trunc32),
    .sat_o  (trunc_sat)
  );

  logic signed [31:0] v32;
  // PReLU pass-through keeps the low 32 bits of the 33-bit ALU value (NVDLA: wrap, no clamp).
  assign v32 = prelu_pass ? alu33[31:0] : trunc32;

  always_comb begin
    if (cfg_i.bypass) data_o = data_i;
    else if (!cfg_i.relu_bypass && v32[31]) data_o = '0;
    else data_o = v32;
  end

  logic unused;
  assign unused = alu_op_sat ^ trunc_sat;
endmodule
