// The on-chip map store (docs/LINEBUF.md §2, "Maps on chip"): two banks of MapWords values, a
// layer's output map written [k][y][x] into one bank while the next layer reads its input from
// the other (the seed's "weights load once" dataflow for small maps: the outputs stay on chip for
// the next layer). One write port, one combinational read port.
module linebuf_map #(
  parameter int unsigned MapWords = 4096,
  parameter int unsigned DataW    = 16,
  localparam int unsigned AddrW   = $clog2(MapWords)
) (
  input  logic             clk_i,
  input  logic             wr_i,
  input  logic             wr_bank_i,
  input  logic [AddrW-1:0] wr_addr_i,
  input  logic [DataW-1:0] wr_data_i,
  input  logic             rd_bank_i,
  input  logic [AddrW-1:0] rd_addr_i,
  output logic [DataW-1:0] rd_data_o
);
  logic [DataW-1:0] mem_q[2 * MapWords];

  always_ff @(posedge clk_i) begin
    if (wr_i) mem_q[{wr_bank_i, wr_addr_i}] <= wr_data_i;
  end

  assign rd_data_o = mem_q[{rd_bank_i, rd_addr_i}];
endmodule
