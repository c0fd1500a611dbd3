// Leading-zero count of a Width-bit unsigned value: cnt_o = number of zero bits above the highest
// one; an all-zero input counts Width. This is ac_int's leading_sign() of an unsigned value, i.e.
// NVDLA's IntLeadZero (hls/include/nvdla_int.h), which normalises mantissas and integers in its
// float library (dla_fp_add, dla_fp_cvt, dla_fp_from_int use this one count; each tests an
// all-zero operand itself, as NVIDIA's code does, so no quirk lives here).
module dla_lzc #(
  parameter int unsigned  Width = 16,
  localparam int unsigned CntW  = $clog2(Width + 1)
) (
  input  logic [Width-1:0] data_i,
  output logic [CntW-1:0]  cnt_o
);
  // Scan from the LSB up: the last (highest) one found decides.
  always_comb begin
    cnt_o = CntW'(Width);
    for (int unsigned i = 0; i < Width; i++) begin
      if (data_i[i]) cnt_o = CntW'(Width - 1 - i);
    end
  end
endmodule
