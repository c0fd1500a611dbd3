// One PE (docs/LINEBUF.md §2): a 3x3 window that shifts in one column (3 pixels) per cycle, 9
// multipliers and an adder tree. sum_o is the window of the two held columns and the incoming
// one (combinational); the held columns move on at shift_i.
module linebuf_pe #(
  parameter int unsigned DataW = 16,
  parameter int unsigned SumW  = 48
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    shift_i,
  input  logic [3*DataW-1:0]      col_i,   // row i at [i*DataW +: DataW]
  input  logic [9*DataW-1:0]      w_i,     // tap 3i+j at [(3i+j)*DataW +: DataW]
  output logic signed [SumW-1:0]  sum_o
);
  logic [3*DataW-1:0] col0_q, col1_q;  // columns j = 0 and 1 of the next window

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      col0_q <= '0;
      col1_q <= '0;
    end else if (shift_i) begin
      col0_q <= col1_q;
      col1_q <= col_i;
    end
  end

  logic signed [2*DataW-1:0] prod[9];
  logic signed [SumW-1:0]    row_sum[3];

  always_comb begin
    for (int unsigned i = 0; i < 3; i++) begin
      for (int unsigned j = 0; j < 3; j++) begin
        logic signed [DataW-1:0] px, w;
        px = (j == 0) ? col0_q[i*DataW +: DataW] : (j == 1) ? col1_q[i*DataW +: DataW] : col_i[i*DataW +: DataW];
        w  = w_i[(3*i+j)*DataW +: DataW];
        prod[3*i+j] = px * w;
      end
    end
    // Adder tree: three row sums, then their sum.
    for (int unsigned i = 0; i < 3; i++) begin
      row_sum[i] = SumW'(prod[3*i]) + SumW'(prod[3*i+1]) + SumW'(prod[3*i+2]);
    end
    sum_o = row_sum[0] + row_sum[1] + row_sum[2];
  end
endmodule
