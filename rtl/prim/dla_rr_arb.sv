// N-way valid/ready arbiter, round robin with optional weights.
//   * Round robin: the search for the next grant starts after the input granted last, so an
//     input that keeps requesting waits at most N-1 grants.
//   * Weight w(i) (>= 1; 0 counts as 1): input i may take up to w(i) consecutive grants
//     while it keeps requesting before the search moves on; under full load input i gets
//     w(i) / sum(w) of the grants, and a requesting input waits at most the sum of
//     the others' weights. All weights 1 (the default) is plain round robin.
//   * Lock: a grant whose beat is stalled (out_valid_o && !out_ready_i) is held until the beat
//     moves, so out_data_o / out_idx_o stay stable (inputs keep valid up until taken, as the
//     protocol demands).
// in_ready_o[i] = out_ready_i for the granted input (a combinational path, as in any arbiter).
// N >= 2.
module dla_rr_arb #(
  parameter int unsigned N       = 2,
  parameter int unsigned Width   = 8,
  parameter int unsigned WeightW = 4,
  // Weights[WeightW*i +: WeightW] is input i's weight (flat: Yosys 0.55 takes no 2-D parameter)
  parameter logic [N*WeightW-1:0] Weights = {N{WeightW'(1)}},
  localparam int unsigned IdxW   = $clog2(N)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [N-1:0]          in_valid_i,
  output logic [N-1:0]          in_ready_o,
  input  logic [N-1:0][Width-1:0] in_data_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic [Width-1:0]      out_data_o,
  output logic [IdxW-1:0]       out_idx_o
);
  logic [IdxW-1:0]    last_q, lock_idx_q, next, gnt;
  logic [WeightW-1:0] run_q;  // consecutive grants of last_q
  logic [WeightW-1:0] last_w;
  logic               lock_q, stay, fire;

  // the first requesting input after last_q (last_q itself comes last)
  always_comb begin
    logic found;
    next  = last_q;
    found = 1'b0;
    for (int unsigned k = 1; k <= N; k++) begin
      int unsigned j;
      j = 32'(last_q) + k;
      if (j >= N) j = j - N;
      if (!found && in_valid_i[j]) begin
        next  = IdxW'(j);
        found = 1'b1;
      end
    end
  end

  assign last_w      = Weights[WeightW*last_q +: WeightW];
  assign stay        = in_valid_i[last_q] && run_q < last_w;
  assign gnt         = lock_q ? lock_idx_q : stay ? last_q : next;
  assign out_valid_o = in_valid_i[gnt];
  assign out_data_o  = in_data_i[gnt];
  assign out_idx_o   = gnt;
  assign fire        = out_valid_o && out_ready_i;
  always_comb begin
    in_ready_o      = '0;
    in_ready_o[gnt] = out_ready_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q     <= '0;
      run_q      <= '0;
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
    end else begin
      lock_q     <= out_valid_o && !out_ready_i;
      lock_idx_q <= gnt;
      if (fire) begin
        last_q <= gnt;
        // a further grant of the same input inside its weight extends its run; any other
        // grant (another input, or the same one after its run, nobody else asking) starts one
        run_q  <= (gnt == last_q && run_q < last_w) ? run_q + 1'b1 : WeightW'(1);
      end
    end
  end
endmodule
