// NVDLA v1's fp16 lane product (CMAC, docs/FP16.md "CMAC"), shared by cmac_fp16_mul (one lane) and
// cmac_fp16_dot (a cell's lanes, in a loop: a verilated nv_full then runs one copy of this code for
// its 1024 lanes instead of one per instance).
package cmac_fp16_pkg;

  // 3:2 compressor: {carry, sum} of three rows, the carry already moved up one place.
  function automatic logic [63:0] csa(input logic [31:0] a, input logic [31:0] b, input logic [31:0] c);
    csa = {((a & b) | (b & c) | (a & c)) << 1, a ^ b ^ c};
  endfunction

  // One radix-4 Booth row of the data mantissa for a 3-bit window: {+1, row}. A positive row carries
  // a 1 at bit 16; a negative one is the one's complement of the magnitude, its +1 riding the next
  // row. 0 and 7 select zero, 1/2 +d, 3 +2d, 4 -2d, 5/6 -d.
  function automatic logic [17:0] booth_row(input logic [2:0] digit, input logic [13:0] dat_mant);
    logic [15:0] mag;
    logic        neg;
    mag = digit == 3'd3 || digit == 3'd4 ? {1'b0, dat_mant, 1'b0}
        : digit == 3'd0 || digit == 3'd7 ? 16'd0 : {2'b00, dat_mant};
    neg = digit[2] && digit != 3'd7;
    booth_row = neg ? {2'b10, ~mag} : {2'b01, mag};
  endfunction

  // The product of two aligned 14-bit mantissas, negated by inverting every Booth window, shifted
  // right by `shift`: the carry-save rows are shifted (truncated) separately, then added with the
  // sign extensions' constant -0x55550000 shifted rounding up, so the result can sit one unit above
  // the floor of the shifted exact product. The compressor grouping is the golden model's
  // (engines/cmac/golden/cmac_fp16.cpp): with two truncated rows, another grouping gives other
  // results. A shift of 32 or more gives 0 (`>>` clears the rows and the constant alike).
  function automatic logic [31:0] product(input logic negative, input logic [13:0] wt_mant,
                                          input logic [13:0] dat_mant, input logic [5:0] shift);
    logic [16:0] window;
    logic [7:0][17:0] rows;  // {+1, row} per digit
    logic [31:0] l0, l1, l2, l3, l4, h0, h1, h2, h3, h4;
    logic [63:0] a, b;
    window = {2'b00, wt_mant, 1'b0} ^ {17{negative}};
    for (int unsigned i = 0; i < 8; i++) rows[i] = booth_row(window[2 * i +: 3], dat_mant);
    // Two trees of five rows (digits 0-3 and 4-7 with their +1s), each reduced front first.
    l0 = 32'(rows[0][16:0]);
    l1 = (32'(rows[1][16:0]) << 2) | 32'(rows[0][17]);
    l2 = (32'(rows[2][16:0]) << 4) | (32'(rows[1][17]) << 2);
    l3 = (32'(rows[3][16:0]) << 6) | (32'(rows[2][17]) << 4);
    l4 = 32'(rows[3][17]) << 6;
    h0 = 32'(rows[4][16:0]) << 8;
    h1 = (32'(rows[5][16:0]) << 10) | (32'(rows[4][17]) << 8);
    h2 = (32'(rows[6][16:0]) << 12) | (32'(rows[5][17]) << 10);
    h3 = (32'(rows[7][16:0]) << 14) | (32'(rows[6][17]) << 12);
    h4 = 32'(rows[7][17]) << 14;
    a = csa(l0, l1, l2);
    a = csa(a[31:0], a[63:32], l3);
    a = csa(a[31:0], a[63:32], l4);
    b = csa(h0, h1, h2);
    b = csa(b[31:0], b[63:32], h3);
    b = csa(b[31:0], b[63:32], h4);
    // The four rows left: (l0, l1, h0), then (s, c, h1).
    a = csa(a[31:0], a[63:32], b[31:0]);
    a = csa(a[31:0], a[63:32], b[63:32]);
    product = (a[31:0] >> shift) + (a[63:32] >> shift) - (32'h5555_0000 >> shift);
  endfunction

endpackage
