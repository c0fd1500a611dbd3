// The fused 2x2 stride-2 max-pool queue (docs/LINEBUF.md §2): results arrive row by row, kernel
// by kernel, column by column. Even output rows: the max of each column pair is queued per
// kernel. Odd rows: the pair's max meets the queued value and leaves. An unpaired last column or
// row never leaves. With pool_i low every result leaves as it comes.
module linebuf_pool #(
  parameter int unsigned LineDepth = 64,
  parameter int unsigned MaxK      = 64,
  parameter int unsigned DataW     = 16,
  localparam int unsigned Half     = (LineDepth + 1) / 2,
  localparam int unsigned KW       = $clog2(MaxK),
  localparam int unsigned XW       = $clog2(LineDepth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             pool_i,
  input  logic             valid_i,
  input  logic [DataW-1:0] data_i,
  input  logic [KW-1:0]    k_i,
  input  logic [XW-1:0]    x_i,
  input  logic             y_odd_i,
  output logic             valid_o,
  output logic [DataW-1:0] data_o
);
  localparam int unsigned AddrW = $clog2(MaxK * Half);
  logic [DataW-1:0] queue_q[MaxK * Half];
  logic [DataW-1:0] h_q, pair, both;
  logic [AddrW-1:0] qa;

  function automatic logic [DataW-1:0] smax(input logic [DataW-1:0] a, input logic [DataW-1:0] b);
    smax = ($signed(a) > $signed(b)) ? a : b;
  endfunction

  assign qa   = AddrW'(32'(k_i) * Half + 32'(x_i[XW-1:1]));
  assign pair = smax(h_q, data_i);
  assign both = smax(pair, queue_q[qa]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) h_q <= '0;
    else if (valid_i && !x_i[0]) h_q <= data_i;
  end

  always_ff @(posedge clk_i) begin
    if (pool_i && valid_i && !y_odd_i && x_i[0]) queue_q[qa] <= pair;
  end

  assign valid_o = valid_i && (!pool_i || (y_odd_i && x_i[0]));
  assign data_o  = pool_i ? both : data_i;
endmodule
