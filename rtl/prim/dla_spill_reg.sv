// Register slice that cuts both directions of a valid/ready stream at full throughput:
// out_valid_o / out_data_o and in_ready_o all come from registers. Two entries: the output
// register, and a spill register that catches the beat accepted in the cycle the output
// stalls (in_ready_o was already high). One beat per cycle when the output is not stalled;
// one cycle of latency.
module dla_spill_reg #(
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);
  logic             out_valid_q, spill_valid_q, out_free, in_fire;
  logic [Width-1:0] out_data_q, spill_data_q;

  assign in_ready_o  = !spill_valid_q;
  assign in_fire     = in_valid_i && in_ready_o;
  assign out_free    = !out_valid_q || out_ready_i;  // the output register may load at the edge
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q   <= 1'b0;
      spill_valid_q <= 1'b0;
    end else if (out_free) begin
      // the spilled beat goes first (in_ready_o was low while it was held)
      out_valid_q   <= spill_valid_q || in_fire;
      spill_valid_q <= 1'b0;
    end else if (in_fire) begin
      spill_valid_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (out_free && spill_valid_q) out_data_q <= spill_data_q;
    else if (out_free && in_fire) out_data_q <= in_data_i;
    if (!out_free && in_fire) spill_data_q <= in_data_i;
  end
endmodule
