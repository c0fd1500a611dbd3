// Winograd F(2x2,3x3) output transform (POA) of one kernel's 4x4 MAC results, combinational
// and exact:  Y = A^T M A,  A^T rows (1,1,1,0), (0,1,-1,-1).
// First the rows of A^T combine the rows of M (T = A^T M, 2x4, three terms: +2 bits), then the
// columns (Y = T A, 2x2, three terms: +2 bits). Every output is a sum of 9 inputs, so
// OutW = InW + 4 holds it exactly. M[r][c] at element 4*r + c, Y[i][j] at element 2*i + j.
module wino_poa_tile #(
  parameter int unsigned  InW  = 34,       // signed MAC result width
  localparam int unsigned OutW = InW + 4   // signed output width
) (
  input  logic [15:0][InW-1:0] m_i,
  output logic [3:0][OutW-1:0] y_o
);
  localparam int unsigned TW = InW + 2;

  logic [1:0][3:0][TW-1:0] t;  // T = A^T M, signed

  always_comb begin
    for (int unsigned c = 0; c < 4; c++) begin
      t[0][c] = TW'($signed(m_i[c])) + TW'($signed(m_i[4 + c])) + TW'($signed(m_i[8 + c]));
      t[1][c] = TW'($signed(m_i[4 + c])) - TW'($signed(m_i[8 + c])) - TW'($signed(m_i[12 + c]));
    end
    for (int unsigned i = 0; i < 2; i++) begin
      y_o[2 * i]     = OutW'($signed(t[i][0])) + OutW'($signed(t[i][1])) + OutW'($signed(t[i][2]));
      y_o[2 * i + 1] = OutW'($signed(t[i][1])) - OutW'($signed(t[i][2])) - OutW'($signed(t[i][3]));
    end
  end
endmodule
