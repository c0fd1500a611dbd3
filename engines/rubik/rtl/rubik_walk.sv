// RUBIK address walk: five nested counters (level 0 outermost, level 4 innermost) over an atom
// address base + sum(cnt_k * stride_k), kept incrementally (docs/RUBIK.md "RTL").
//   * start_i loads the counters with 0 and every level's address with base_i;
//   * step_i advances by one atom: the innermost level k whose counter is below its limit counts
//     up, the levels inside it restart at 0, and levels k..4 all take addr_q[k] + stride_i[k]
//     (addr_q[k] is the address of level k's current index with the inner ones at 0);
//   * last_o: every counter is at its limit (the walk's last atom);
//   * lim_i[k] is the count of level k minus one; the parent may derive lim_i[4] from cnt_o (a
//     block's last one is shorter), which is why the counters are outputs.
module rubik_walk #(
  parameter int unsigned CntW = 13
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  logic                 step_i,
  input  logic [63:0]          base_i,
  input  logic [4:0][63:0]     stride_i,
  input  logic [4:0][CntW-1:0] lim_i,
  output logic [4:0][CntW-1:0] cnt_o,
  output logic [63:0]          addr_o,
  output logic                 last_o
);
  logic [4:0][CntW-1:0] cnt_q;
  logic [4:0][63:0]     addr_q;
  logic [4:0]           at_lim;
  logic [2:0]           lvl;  // the level that counts up on a step (5: none, the walk is at its end)

  always_comb begin
    for (int unsigned k = 0; k < 5; k++) at_lim[k] = cnt_q[k] == lim_i[k];
    lvl = 3'd5;
    for (int unsigned k = 0; k < 5; k++) begin
      if (!at_lim[k]) lvl = 3'(k);  // the last one found is the innermost
    end
  end

  // The new address of the level that counts up, shared by the levels inside it.
  logic [63:0] next_addr;
  always_comb begin
    next_addr = '0;
    for (int unsigned k = 0; k < 5; k++) begin
      if (lvl == 3'(k)) next_addr = addr_q[k] + stride_i[k];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q  <= '0;
      addr_q <= '0;
    end else if (start_i) begin
      cnt_q  <= '0;
      addr_q <= {5{base_i}};
    end else if (step_i && lvl != 3'd5) begin
      for (int unsigned k = 0; k < 5; k++) begin
        if (lvl == 3'(k)) cnt_q[k] <= cnt_q[k] + 1'b1;
        else if (lvl < 3'(k)) cnt_q[k] <= '0;
        if (lvl <= 3'(k)) addr_q[k] <= next_addr;
      end
    end
  end

  assign cnt_o  = cnt_q;
  assign addr_o = addr_q[4];
  assign last_o = &at_lim;
endmodule
