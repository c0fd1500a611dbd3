// The float primitives (rtl/prim/dla_fp_*.sv) at the instances NVDLA v1 uses, side by side, as one
// verilated model for their RTL-vs-golden test (tests/rtl/test_fp_prims_rtl.cpp). Combinational:
// op_i selects which instance drives z_o; operands and results sit in the low bits.
//   0-4   fp16 add, sub, mul, max, min     15 fp16 -> fp17   21 int16 -> fp16
//   5-9   fp17 add, sub, mul, max, min     16 fp16 -> fp32   22 int17 -> fp16
//   10-14 fp32 add, sub, mul, max, min     17 fp17 -> fp16   23 uint16 fraction -> fp17
//                                          18 fp17 -> fp32   24 fp16 -> int16
//                                          19 fp32 -> fp16
//                                          20 fp32 -> fp17
module dla_fp_top (
  input  logic [4:0]  op_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] z_o
);

  logic [31:0] result [32];

  for (genvar f = 0; f < 3; f++) begin : g_format
    localparam int unsigned ExpW  = f == 0 ? 5 : (f == 1 ? 6 : 8);
    localparam int unsigned MantW = f == 2 ? 23 : 10;
    localparam int unsigned W     = 1 + ExpW + MantW;

    logic [W-1:0] add_z, sub_z, mul_z, max_z, min_z;

    dla_fp_add #(.ExpW(ExpW), .MantW(MantW)) u_add (
      .a_i(a_i[W-1:0]), .b_i(b_i[W-1:0]), .sub_i(1'b0), .z_o(add_z)
    );
    dla_fp_add #(.ExpW(ExpW), .MantW(MantW)) u_sub (
      .a_i(a_i[W-1:0]), .b_i(b_i[W-1:0]), .sub_i(1'b1), .z_o(sub_z)
    );
    dla_fp_mul #(.ExpW(ExpW), .MantW(MantW)) u_mul (
      .a_i(a_i[W-1:0]), .b_i(b_i[W-1:0]), .z_o(mul_z)
    );
    dla_fp_minmax #(.ExpW(ExpW), .MantW(MantW)) u_max (
      .a_i(a_i[W-1:0]), .b_i(b_i[W-1:0]), .max_i(1'b1), .z_o(max_z)
    );
    dla_fp_minmax #(.ExpW(ExpW), .MantW(MantW)) u_min (
      .a_i(a_i[W-1:0]), .b_i(b_i[W-1:0]), .max_i(1'b0), .z_o(min_z)
    );

    assign result[5*f+0] = 32'(add_z);
    assign result[5*f+1] = 32'(sub_z);
    assign result[5*f+2] = 32'(mul_z);
    assign result[5*f+3] = 32'(max_z);
    assign result[5*f+4] = 32'(min_z);
  end

  logic [16:0] fp16_fp17_z;
  logic [31:0] fp16_fp32_z;
  logic [15:0] fp17_fp16_z;
  logic [31:0] fp17_fp32_z;
  logic [15:0] fp32_fp16_z;
  logic [16:0] fp32_fp17_z;

  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_fp16_fp17 (
    .a_i(a_i[15:0]), .z_o(fp16_fp17_z)
  );
  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b1)) u_fp16_fp32 (
    .a_i(a_i[15:0]), .z_o(fp16_fp32_z)
  );
  dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(5), .OutMantW(10), .Denorm(1'b1)) u_fp17_fp16 (
    .a_i(a_i[16:0]), .z_o(fp17_fp16_z)
  );
  dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b0)) u_fp17_fp32 (
    .a_i(a_i[16:0]), .z_o(fp17_fp32_z)
  );
  dla_fp_cvt #(.InExpW(8), .InMantW(23), .OutExpW(5), .OutMantW(10), .Denorm(1'b1)) u_fp32_fp16 (
    .a_i(a_i), .z_o(fp32_fp16_z)
  );
  dla_fp_cvt #(.InExpW(8), .InMantW(23), .OutExpW(6), .OutMantW(10), .Denorm(1'b0)) u_fp32_fp17 (
    .a_i(a_i), .z_o(fp32_fp17_z)
  );

  assign result[15] = 32'(fp16_fp17_z);
  assign result[16] = fp16_fp32_z;
  assign result[17] = 32'(fp17_fp16_z);
  assign result[18] = fp17_fp32_z;
  assign result[19] = 32'(fp32_fp16_z);
  assign result[20] = 32'(fp32_fp17_z);

  logic [15:0] int16_fp16_z;
  logic [15:0] int17_fp16_z;
  logic [16:0] frac16_fp17_z;
  logic [15:0] fp16_int16_z;

  dla_fp_from_int #(.IntW(16), .Fraction(1'b0), .ExpW(5), .MantW(10)) u_int16_fp16 (
    .a_i(a_i[15:0]), .z_o(int16_fp16_z)
  );
  dla_fp_from_int #(.IntW(17), .Fraction(1'b0), .ExpW(5), .MantW(10)) u_int17_fp16 (
    .a_i(a_i[16:0]), .z_o(int17_fp16_z)
  );
  dla_fp_from_int #(.IntW(16), .Fraction(1'b1), .ExpW(6), .MantW(10)) u_frac16_fp17 (
    .a_i(a_i[15:0]), .z_o(frac16_fp17_z)
  );
  dla_fp_to_int #(.IntW(16), .ExpW(5), .MantW(10)) u_fp16_int16 (
    .a_i(a_i[15:0]), .z_o(fp16_int16_z)
  );

  assign result[21] = 32'(int16_fp16_z);
  assign result[22] = 32'(int17_fp16_z);
  assign result[23] = 32'(frac16_fp17_z);
  assign result[24] = 32'(fp16_int16_z);

  for (genvar i = 25; i < 32; i++) begin : g_unused
    assign result[i] = '0;
  end

  assign z_o = result[op_i];

endmodule
