// The NaN and infinity fp16 elements of a word, among the lanes mask_i selects: NVDLA v1's
// fp16 status counters (CDMA's, PDP's, CDP's D_NAN_* / D_INF_* registers) count them so.
module dla_fp16_count #(
  parameter int unsigned Halves = 16,
  localparam int unsigned CntW  = $clog2(Halves + 1)
) (
  input  logic [Halves*16-1:0] data_i,
  input  logic [Halves-1:0]    mask_i,
  output logic [CntW-1:0]      nan_o,
  output logic [CntW-1:0]      inf_o
);
  always_comb begin
    nan_o = '0;
    inf_o = '0;
    for (int unsigned i = 0; i < Halves; i++) begin
      nan_o = nan_o + CntW'(mask_i[i] && dla_fp_pkg::fp16_is_nan(data_i[16*i +: 15]));
      inf_o = inf_o + CntW'(mask_i[i] && dla_fp_pkg::fp16_is_inf(data_i[16*i +: 15]));
    end
  end
endmodule
