// One fp16 lane of NVDLA v1's MAC cell: the radix-4 Booth product of two aligned 14-bit mantissas,
// aligned to the atom's exponent block by a right shift of its two carry-save rows
// (cmac_fp16_pkg::product). cmac_fp16_dot runs the same function over a cell's lanes in a loop;
// this module is the lane on its own, for its checks and for synthesis by lane.
module cmac_fp16_mul (
  input  logic        negative_i,  // product sign (data sign xor weight sign)
  input  logic [13:0] wt_mant_i,   // weight mantissa, already shifted by its exponent's low bits
  input  logic [13:0] dat_mant_i,  // data mantissa, likewise
  input  logic [5:0]  shift_i,     // 4 x (atom block - lane block); 32 or more gives 0
  output logic [31:0] prod_o       // aligned product, two's complement
);
  assign prod_o = cmac_fp16_pkg::product(negative_i, wt_mant_i, dat_mant_i, shift_i);
endmodule
