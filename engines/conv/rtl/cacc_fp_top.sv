// CACC's fp16 accumulate and fp32 output primitives side by side, as one verilated model for their
// RTL-vs-golden test (engines/conv/tests/rtl/test_cacc_fp_rtl.cpp). Combinational.
module cacc_fp_top (
  input  logic [47:0] acc_i,
  input  logic [43:0] word_i,
  output logic [47:0] sum_o,   // acc_i plus word_i
  output logic [31:0] fp32_o   // acc_i as fp32
);
  cacc_fp_add u_add (
    .acc_i  (acc_i),
    .word_i (word_i),
    .sum_o  (sum_o)
  );

  cacc_fp_to_fp32 u_to_fp32 (
    .acc_i  (acc_i),
    .fp32_o (fp32_o)
  );
endmodule
