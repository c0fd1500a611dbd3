// Winograd F(2x2,3x3) input transform (PRA) of one 4x4 tile of one channel, combinational:
//   V = B^T d B,  B^T rows (1,0,-1,0), (0,1,1,0), (0,-1,1,0), (0,1,0,-1)
// Exact (inputs 16-bit, int8 sign-extended; first pass 17-bit, second pass 18-bit), then
// sat_8 (int8) or sat_16 (int16) of rhaz(v / 2^truncate_i) (round half away from zero; the
// rule of golden/arith.hpp, realised by dla_sshift_sat). Element p = 4*r + c (row r, column c)
// at bits [16p +: 16]; int8 results leave sign-extended to 16 bits.
module wino_pra_tile (
  input  logic [15:0][15:0] tile_i,      // d[r][c], signed 16-bit
  input  logic              int16_i,     // 1: saturate to int16, 0: to int8
  input  logic [1:0]        truncate_i,  // PRA_TRUNCATE (NVDLA documents 0..2)
  output logic [15:0][15:0] tile_o       // sat(rhaz(V / 2^truncate)), signed 16-bit
);
  // Packed arrays (Yosys turns unpacked ones written in always_comb into memories).
  logic [3:0][3:0][16:0] t;  // T = B^T d (first pass), t[r][c] signed
  logic [3:0][3:0][17:0] v;  // V = T B (second pass), v[r][c] signed

  always_comb begin
    for (int unsigned c = 0; c < 4; c++) begin
      // Rows of B^T applied to column c of d (all four terms sign-extended to 17 bits).
      t[0][c] = 17'($signed(tile_i[c]))      - 17'($signed(tile_i[8 + c]));
      t[1][c] = 17'($signed(tile_i[4 + c]))  + 17'($signed(tile_i[8 + c]));
      t[2][c] = 17'($signed(tile_i[8 + c]))  - 17'($signed(tile_i[4 + c]));
      t[3][c] = 17'($signed(tile_i[4 + c]))  - 17'($signed(tile_i[12 + c]));
    end
    for (int unsigned r = 0; r < 4; r++) begin
      // Columns of B (= rows of B^T) applied to row r of T.
      v[r][0] = 18'($signed(t[r][0])) - 18'($signed(t[r][2]));
      v[r][1] = 18'($signed(t[r][1])) + 18'($signed(t[r][2]));
      v[r][2] = 18'($signed(t[r][2])) - 18'($signed(t[r][1]));
      v[r][3] = 18'($signed(t[r][1])) - 18'($signed(t[r][3]));
    end
  end

  for (genvar p = 0; p < 16; p++) begin : g_pos
    logic signed [17:0] rounded;
    logic signed [15:0] sat16;
    logic signed [7:0]  sat8;
    logic               unused_sat;

    // rhaz(v / 2^truncate); the shift amount is never negative, so the result fits 18 bits.
    dla_sshift_sat #(
      .InW  (18),
      .OutW (18),
      .ShW  (3),
      .LeftW(1)
    ) u_round (
      .data_i (v[p / 4][p % 4]),
      .shift_i({1'b0, truncate_i}),
      .data_o (rounded),
      .sat_o  (unused_sat)
    );

    logic unused_sat16, unused_sat8;
    dla_sat #(
      .InW (18),
      .OutW(16)
    ) u_sat16 (
      .data_i(rounded),
      .data_o(sat16),
      .sat_o (unused_sat16)
    );
    dla_sat #(
      .InW (18),
      .OutW(8)
    ) u_sat8 (
      .data_i(rounded),
      .data_o(sat8),
      .sat_o (unused_sat8)
    );

    assign tile_o[p] = int16_i ? sat16 : 16'(sat8);
  end
endmodule
