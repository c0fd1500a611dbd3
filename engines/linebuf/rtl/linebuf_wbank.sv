// The weight register bank (docs/LINEBUF.md §2): two banks of one weight group (NumPe filters
// and a bias); the next group loads while the current one is in use (double buffering).
module linebuf_wbank #(
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,    // a new layer: both banks empty
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             valid_o,    // the current bank holds a group
  output logic [Width-1:0] data_o,
  input  logic             release_i   // the current group is done with
);
  logic [Width-1:0] bank_q[2];
  logic [1:0]       full_q;
  logic             wr_q, rd_q;

  assign in_ready_o = !full_q[wr_q];
  assign valid_o    = full_q[rd_q];
  assign data_o     = bank_q[rd_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= '0;
      wr_q   <= 1'b0;
      rd_q   <= 1'b0;
    end else if (clear_i) begin
      full_q <= '0;
      wr_q   <= 1'b0;
      rd_q   <= 1'b0;
    end else begin
      logic [1:0] f;
      f = full_q;
      if (in_valid_i && in_ready_o) begin
        f[wr_q] = 1'b1;
        wr_q    <= !wr_q;
      end
      if (release_i && valid_o) begin
        f[rd_q] = 1'b0;
        rd_q    <= !rd_q;
      end
      full_q <= f;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_valid_i && in_ready_o) bank_q[wr_q] <= in_data_i;
  end
endmodule
