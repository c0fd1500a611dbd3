// Synchronous FIFO of Depth entries of Width bits, valid/ready on both sides.
//   * in_ready_o = !full, from registers only: a full FIFO takes no beat, not even in a cycle
//     in which it hands one out;
//   * FallThrough = 0: out_valid_o = !empty and out_data_o = the head, both from registers (one
//     cycle from input to output);
//     FallThrough = 1: an empty FIFO passes the input beat to the output in the same cycle
//     (out_valid_o = in_valid_i, out_data_o = in_data_i); it is stored only if not taken;
//   * level_o: entries held, 0..Depth.
// Any Depth >= 1 (pointers wrap at Depth, no power of two needed). The storage has no reset
// (only the pointers do): out_data_o is meaningful only while out_valid_o.
module dla_fifo #(
  parameter int unsigned Depth       = 4,
  parameter int unsigned Width       = 8,
  parameter bit          FallThrough = 1'b0,
  localparam int unsigned LevelW     = $clog2(Depth + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [Width-1:0]  in_data_i,
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [Width-1:0]  out_data_o,
  output logic [LevelW-1:0] level_o
);
  logic [Width-1:0]  head;
  logic [LevelW-1:0] level_q;
  logic              empty, push, pop;

  assign empty      = level_q == '0;
  assign in_ready_o = level_q != LevelW'(Depth);
  assign level_o    = level_q;

  if (FallThrough) begin : g_fall_through
    assign out_valid_o = !empty || in_valid_i;
    assign out_data_o  = empty ? in_data_i : head;
    assign pop         = !empty && out_ready_i;
    assign push        = in_valid_i && in_ready_o && !(empty && out_ready_i);
  end else begin : g_registered
    assign out_valid_o = !empty;
    assign out_data_o  = head;
    assign pop         = !empty && out_ready_i;
    assign push        = in_valid_i && in_ready_o;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      level_q <= '0;
    end else begin
      level_q <= level_q + LevelW'(push) - LevelW'(pop);
    end
  end

  if (Depth == 1) begin : g_one
    logic [Width-1:0] data_q;
    always_ff @(posedge clk_i) begin
      if (push) data_q <= in_data_i;
    end
    assign head = data_q;
  end else begin : g_ring
    localparam int unsigned PtrW = $clog2(Depth);
    logic [Width-1:0] mem_q [Depth];
    logic [PtrW-1:0]  wr_q, rd_q;
    function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] p);
      next_ptr = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
    endfunction
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wr_q <= '0;
        rd_q <= '0;
      end else begin
        if (push) wr_q <= next_ptr(wr_q);
        if (pop) rd_q <= next_ptr(rd_q);
      end
    end
    always_ff @(posedge clk_i) begin
      if (push) mem_q[wr_q] <= in_data_i;
    end
    assign head = mem_q[rd_q];
  end
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovInFire: cover property (@(posedge clk_i) in_valid_i && in_ready_o);
  CovInStall: cover property (@(posedge clk_i) in_valid_i && !in_ready_o);
  CovOutFire: cover property (@(posedge clk_i) out_valid_o && out_ready_i);
  CovOutStall: cover property (@(posedge clk_i) out_valid_o && !out_ready_i);
`endif
endmodule
