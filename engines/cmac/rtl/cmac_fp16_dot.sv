// The fp16 half of one CMAC cell (NVDLA v1, docs/FP16.md "CMAC"): Lanes fp16 channel pairs
// aligned to a common block exponent and summed in groups of four. The cell adds the groups (or
// applies the Winograd POA to them) and packs the word; this module gives it the group sums, the
// exponent field and the NaN that overrides them. Combinational.
// A lane is active unless its datum or its weight is +-0 (CSC skips those): an inactive lane adds
// nothing and takes no part in the block maximum, but its NaN still wins.
// The lanes are loops over cmac_fp16_pkg::product rather than Lanes instances of cmac_fp16_mul:
// the verilated model then has one copy of the lane code per cell, not one per lane (nv_full:
// 1024), and `en_i` low (integer layers) skips it; in hardware the loops unroll to the same lanes.
module cmac_fp16_dot #(
  // The cell sets it (AtomicC). A small default: Yosys elaborates the default of every module it
  // reads, and arrays without fp16 list this file too.
  parameter int unsigned  Lanes  = 4,
  localparam int unsigned Groups = Lanes / 4
) (
  input  logic                         en_i,        // fp16 layer; low: every output 0
  input  logic [Lanes-1:0][15:0]       data_i,      // fp16 lane j in halfword j
  input  logic [Lanes-1:0][15:0]       wt_i,
  output logic [Groups-1:0][33:0]      grp_o,       // signed sums of four aligned products
  output logic [5:0]                   exp_o,       // the word's exponent field: 4 x largest block
  output logic                         nan_o,       // some operand is a NaN: the word is nan_mant_o
  output logic [37:0]                  nan_mant_o   // that NaN's sign (37) and fraction (36..27)
);

  // The exponent field e splits into a block e div 4 and a mantissa shift e mod 4; e = 0 shifts
  // by 1 with no leading one, so denormals stay exact.
  function automatic logic [13:0] mant(input logic [14:0] v);
    logic [1:0] sh;
    sh   = v[14:10] == 5'd0 ? 2'd1 : v[11:10];
    mant = 14'({v[14:10] != 5'd0, v[9:0]}) << sh;
  endfunction

  logic [Lanes-1:0][3:0]   block;
  logic [Groups-1:0][33:0] grp;
  logic [3:0]  max_block;
  logic [15:0] nan_val;
  logic        nan_any;

  always_comb begin
    logic [15:0] d, w;  // one lane's operands
    d         = '0;
    w         = '0;
    max_block = '0;
    nan_any   = 1'b0;
    nan_val   = '0;
    grp       = '0;
    block     = '0;
    if (en_i) begin
      // Blocks and their maximum over the active lanes; NaNs from every lane, the first NaN weight
      // by channel, else the first NaN datum.
      for (int unsigned c = 0; c < Lanes; c++) begin
        block[c] = 4'(data_i[c][14:12]) + 4'(wt_i[c][14:12]);
        if (data_i[c][14:0] != '0 && wt_i[c][14:0] != '0 && block[c] > max_block) max_block = block[c];
      end
      for (int c = int'(Lanes) - 1; c >= 0; c--) begin
        if (dla_fp_pkg::fp16_is_nan(data_i[c][14:0])) begin
          nan_any = 1'b1;
          nan_val = data_i[c];
        end
      end
      for (int c = int'(Lanes) - 1; c >= 0; c--) begin
        if (dla_fp_pkg::fp16_is_nan(wt_i[c][14:0])) begin
          nan_any = 1'b1;
          nan_val = wt_i[c];
        end
      end
      // Four 32-bit products fit 34 bits exactly, so nothing wraps before the cell's 38-bit sum.
      for (int unsigned c = 0; c < Lanes; c++) begin
        d = data_i[c];
        w = wt_i[c];
        if (d[14:0] != '0 && w[14:0] != '0) begin
          grp[c / 4] = grp[c / 4] + 34'($signed(cmac_fp16_pkg::product(
              d[15] ^ w[15], mant(w[14:0]), mant(d[14:0]), {max_block - block[c], 2'b00})));
        end
      end
    end
  end

  assign grp_o      = grp;
  assign exp_o      = {max_block, 2'b00};
  assign nan_o      = nan_any;
  assign nan_mant_o = {nan_val[15], nan_val[9:0], 27'b0};

  logic unused_nan_exp;
  assign unused_nan_exp = ^nan_val[14:10];

endmodule
