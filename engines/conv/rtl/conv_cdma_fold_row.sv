// W-fold: assembles one CBUF row from its slots (docs/WFOLD.md). A slot is the converted
// response's bytes [src_off, src_off + bytes) -- or the pad value for a padding slot, raw as CSC
// pads -- placed at byte dst_off of the row. The row starts at its first walked slot from zero,
// or (reuse) from the previous row moved down by shift bytes, whose top bytes are zero; its
// slots then go to bytes that are zero. row_o is the row including the current slot; conv_cdma
// writes it to CBUF at the row's last slot.
module conv_cdma_fold_row #(
  parameter int unsigned AtomLog2     = 5,
  parameter int unsigned AtomicC      = 64,
  parameter bit          SupportInt16 = 1'b1,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned AtomBits    = 8 * AtomBytes,
  localparam int unsigned WordW       = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowLog2     = $clog2(WordW / 8)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                step_i,      // the slot is done (response taken, or padding)
  input  logic                int16_i,
  input  logic [15:0]         pad_value_i,
  input  logic                pad_i,       // the slot is padding
  input  logic                first_i,     // the slot is the row's first walked slot
  input  logic                reuse_i,     // ... and the row starts from the previous one, moved
  input  logic [RowLog2:0]    shift_i,     // bytes the previous row moves down
  input  logic [AtomLog2-1:0] src_off_i,
  input  logic [RowLog2-1:0]  dst_off_i,
  input  logic [AtomLog2:0]   bytes_i,     // real channel bytes; the slot's others are 0
  input  logic [AtomBits-1:0] data_i,      // the response through the input converter
  output logic [WordW-1:0]    row_o
);
  logic [AtomBits-1:0] pad_atom, slot_src, slot_mask, slot_bytes;
  logic [WordW-1:0]    slot, base, row_q;
  assign pad_atom  = (SupportInt16 && int16_i) ? {(AtomBytes / 2){pad_value_i}} : {AtomBytes{pad_value_i[7:0]}};
  assign slot_src  = pad_i ? pad_atom : data_i >> {src_off_i, 3'b000};
  assign slot_mask = ~({AtomBits{1'b1}} << {bytes_i, 3'b000});
  assign slot_bytes = slot_src & slot_mask;
  assign slot      = WordW'(slot_bytes) << {dst_off_i, 3'b000};
  assign base      = !first_i ? row_q : reuse_i ? row_q >> {shift_i, 3'b000} : '0;
  assign row_o     = base | slot;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) row_q <= '0;
    else if (step_i) row_q <= row_o;
  end
endmodule
