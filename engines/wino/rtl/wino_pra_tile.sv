// Winograd F(2x2,3x3) input transform (PRA) of one 4x4 tile of one channel, combinational:
//   V = B^T d B,  B^T rows (1,0,-1,0), (0,1,1,0), (0,-1,1,0), (0,1,0,-1)
// Exact (inputs 16-bit, int8 sign-extended; first pass 17-bit, second pass 18-bit), then
// sat_8 (int8) or sat_16 (int16) of rhaz(v / 2^truncate_i) (round half away from zero; the
// rule of golden/arith.hpp, realised by dla_sshift_sat). Element p = 4*r + c (row r, column c)
// at bits [16p +: 16]; int8 results leave sign-extended to 16 bits.
// fp16 (fp16_i, SupportFp16; NVDLA v1's NV_NVDLA_CSC_pra_cell): each datum widened to fp17, both
// passes one fp17 add / subtract per element in NVIDIA's operand order (dla_fp_add: NaNs, zero
// signs and saturation as NVDLA's), each result narrowed to fp16; truncate_i has no effect.
module wino_pra_tile #(
  parameter bit SupportFp16 = 1'b0
) (
  input  logic [15:0][15:0] tile_i,      // d[r][c], signed 16-bit (fp16: bit patterns)
  input  logic              int16_i,     // 1: saturate to int16, 0: to int8
  input  logic              fp16_i,      // 1: fp16 (needs SupportFp16)
  input  logic [1:0]        truncate_i,  // PRA_TRUNCATE (NVDLA documents 0..2)
  output logic [15:0][15:0] tile_o       // sat(rhaz(V / 2^truncate)), signed 16-bit; or fp16
);
  // Packed arrays (Yosys turns unpacked ones written in always_comb into memories).
  logic [3:0][3:0][16:0] t;  // T = B^T d (first pass), t[r][c] signed
  logic [3:0][3:0][17:0] v;  // V = T B (second pass), v[r][c] signed
  logic [15:0][15:0]     fp_out;  // fp16: V in fp16

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

    assign tile_o[p] = (SupportFp16 && fp16_i) ? fp_out[p] : int16_i ? sat16 : 16'(sat8);
  end

  // ---------------------------------------------------------------- fp16
  if (SupportFp16) begin : g_fp
    logic [15:0][16:0] x, m, f;  // widened data, B^T d, (B^T d) B in fp17
    for (genvar p = 0; p < 16; p++) begin : g_widen
      dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_widen (
        .a_i(tile_i[p]),
        .z_o(x[p])
      );
    end
    // (a, b, subtract) per element of each pass, NVIDIA's order
    for (genvar c = 0; c < 4; c++) begin : g_rows
      dla_fp_add #(.ExpW(6), .MantW(10)) u_m0 (.a_i(x[c]),     .b_i(x[8 + c]),  .sub_i(1'b1), .z_o(m[c]));
      dla_fp_add #(.ExpW(6), .MantW(10)) u_m1 (.a_i(x[4 + c]), .b_i(x[8 + c]),  .sub_i(1'b0), .z_o(m[4 + c]));
      dla_fp_add #(.ExpW(6), .MantW(10)) u_m2 (.a_i(x[8 + c]), .b_i(x[4 + c]),  .sub_i(1'b1), .z_o(m[8 + c]));
      dla_fp_add #(.ExpW(6), .MantW(10)) u_m3 (.a_i(x[4 + c]), .b_i(x[12 + c]), .sub_i(1'b1), .z_o(m[12 + c]));
    end
    for (genvar r = 0; r < 4; r++) begin : g_cols
      dla_fp_add #(.ExpW(6), .MantW(10)) u_f0 (
        .a_i(m[4*r]), .b_i(m[4*r + 2]), .sub_i(1'b1), .z_o(f[4*r])
      );
      dla_fp_add #(.ExpW(6), .MantW(10)) u_f1 (
        .a_i(m[4*r + 1]), .b_i(m[4*r + 2]), .sub_i(1'b0), .z_o(f[4*r + 1])
      );
      dla_fp_add #(.ExpW(6), .MantW(10)) u_f2 (
        .a_i(m[4*r + 2]), .b_i(m[4*r + 1]), .sub_i(1'b1), .z_o(f[4*r + 2])
      );
      dla_fp_add #(.ExpW(6), .MantW(10)) u_f3 (
        .a_i(m[4*r + 1]), .b_i(m[4*r + 3]), .sub_i(1'b1), .z_o(f[4*r + 3])
      );
    end
    for (genvar p = 0; p < 16; p++) begin : g_narrow
      dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(5), .OutMantW(10), .Denorm(1'b1)) u_narrow (
        .a_i(f[p]),
        .z_o(fp_out[p])
      );
    end
  end else begin : g_no_fp
    assign fp_out = '0;
    logic unused_fp;
    assign unused_fp = fp16_i;
  end
endmodule
