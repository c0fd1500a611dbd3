// A per-layer performance counter (NVDLA D_PERF_*): cleared at the layer start, adds inc_i each
// cycle while en_i, saturates at 2^32 - 1. count_o includes this cycle's increment, so a
// register written in the layer's last cycle holds the whole layer.
module dla_perf_cnt #(
  parameter int unsigned IncW = 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clr_i,
  input  logic            en_i,
  input  logic [IncW-1:0] inc_i,
  output logic [31:0]     count_o
);
  logic [31:0] count_q;
  logic [32:0] sum;
  assign sum     = 33'(count_q) + (en_i ? 33'(inc_i) : 33'd0);
  assign count_o = sum[32] ? '1 : sum[31:0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else if (clr_i) count_q <= '0;
    else count_q <= count_o;
  end
endmodule
