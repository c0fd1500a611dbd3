// The line buffer (docs/LINEBUF.md §2): a ring of Slots line slots (a power of two >= 4), 3 read
// by the PEs while the others fill (the seed's ping-pong BRAM halves as a rotation); in the
// weights-once dataflow it holds the whole padded map. A slot holds MaxC channels of
// LineDepth + 2 positions: a padded line is stored whole, its pad columns as written zeros. A
// slot marked zero (a pad row at the top or bottom) reads as zeros everywhere.
// One write port; NumPe x 3 combinational read ports (one column of 3 pixels per PE).
module linebuf_lines #(
  parameter int unsigned NumPe     = 4,
  parameter int unsigned LineDepth = 64,
  parameter int unsigned MaxC      = 64,
  parameter int unsigned DataW     = 16,
  parameter int unsigned Slots     = 4,
  localparam int unsigned SlotW    = $clog2(Slots),
  localparam int unsigned Pos      = LineDepth + 2,
  localparam int unsigned ChW      = $clog2(MaxC),
  localparam int unsigned PosW     = $clog2(Pos)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // write: a pixel or a pad zero, or a whole slot marked zero
  input  logic                       wr_i,
  input  logic                       wr_zero_row_i,
  input  logic [SlotW-1:0]           wr_slot_i,
  input  logic [ChW-1:0]             wr_ch_i,
  input  logic [PosW-1:0]            wr_pos_i,
  input  logic [DataW-1:0]           wr_data_i,
  // read: rows slot (rd_slot_i + i) % Slots for i = 0..2, channel rd_ch_i + p for PE p, one position
  input  logic [SlotW-1:0]           rd_slot_i,
  input  logic [ChW-1:0]             rd_ch_i,
  input  logic [PosW-1:0]            rd_pos_i,
  output logic [NumPe*3*DataW-1:0]   rd_data_o   // PE p, row i at [(3p+i)*DataW +: DataW]
);
  localparam int unsigned Entries = Slots * MaxC * Pos;
  localparam int unsigned AddrW = $clog2(Entries);

  logic [DataW-1:0] mem_q[Entries];
  logic [Slots-1:0] zero_q;

  function automatic logic [AddrW-1:0] addr(input logic [SlotW-1:0] slot, input logic [ChW-1:0] ch,
                                            input logic [PosW-1:0] pos);
    addr = AddrW'((32'(slot) * MaxC + 32'(ch)) * Pos + 32'(pos));
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      zero_q <= '0;
    end else if (wr_i) begin
      zero_q[wr_slot_i] <= wr_zero_row_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_i && !wr_zero_row_i) mem_q[addr(wr_slot_i, wr_ch_i, wr_pos_i)] <= wr_data_i;
  end

  always_comb begin
    rd_data_o = '0;
    for (int unsigned p = 0; p < NumPe; p++) begin
      for (int unsigned i = 0; i < 3; i++) begin
        logic [SlotW-1:0] slot;
        slot = rd_slot_i + SlotW'(i);
        if (!zero_q[slot]) begin
          rd_data_o[(3*p+i)*DataW +: DataW] = mem_q[addr(slot, rd_ch_i + ChW'(p), rd_pos_i)];
        end
      end
    end
  end
endmodule
