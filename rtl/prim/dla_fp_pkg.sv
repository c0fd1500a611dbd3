// Classification of fp16 (and fp17) patterns, shared by the engines' fp16 datapaths (NVDLA v1's NaN / Inf
// counters and NAN_TO_ZERO read them so). The arithmetic itself is in the dla_fp_* primitives.
// The sign does not matter: the functions take the 15 bits below it.
package dla_fp_pkg;
  function automatic logic fp16_is_nan(input logic [14:0] mag);
    fp16_is_nan = mag[14:10] == 5'h1f && mag[9:0] != 10'd0;
  endfunction
  function automatic logic fp16_is_inf(input logic [14:0] mag);
    fp16_is_inf = mag[14:10] == 5'h1f && mag[9:0] == 10'd0;
  endfunction
  function automatic logic fp17_is_nan(input logic [15:0] mag);
    fp17_is_nan = mag[15:10] == 6'h3f && mag[9:0] != 10'd0;
  endfunction
  function automatic logic fp32_is_nan(input logic [30:0] mag);
    fp32_is_nan = mag[30:23] == 8'hff && mag[22:0] != 23'd0;
  endfunction
endpackage
