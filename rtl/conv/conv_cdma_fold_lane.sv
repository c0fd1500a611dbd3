// W-fold: assembles one 32-byte CBUF lane from the slots of a folded row (docs/WFOLD.md). Each
// slot is the converted response's bytes [src_off, src_off + bytes) -- or the pad value for a
// padding slot, raw as CSC pads -- moved to byte dst_off of the lane; the lane's other bytes are
// kept from its earlier slots, cleared at its first slot. lane_o is the lane including the
// current slot, written to CBUF by conv_cdma at the lane's last slot.
module conv_cdma_fold_lane #(
  parameter int unsigned AtomLog2     = 5,
  parameter bit          SupportInt16 = 1'b1,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned AtomBits    = 8 * AtomBytes
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                step_i,      // the slot is done (response taken, or padding)
  input  logic                int16_i,
  input  logic [15:0]         pad_value_i,
  input  logic                pad_i,       // the slot is padding
  input  logic                first_i,     // the slot starts its lane
  input  logic [AtomLog2-1:0] src_off_i,
  input  logic [AtomLog2-1:0] dst_off_i,
  input  logic [AtomLog2:0]   bytes_i,     // real channel bytes; the slot's others are 0
  input  logic [AtomBits-1:0] data_i,      // the response through the input converter
  output logic [AtomBits-1:0] lane_o
);
  logic [AtomBits-1:0] pad_atom, slot_src, slot_mask, slot, lane_q;
  assign pad_atom  = (SupportInt16 && int16_i) ? {(AtomBytes / 2){pad_value_i}} : {AtomBytes{pad_value_i[7:0]}};
  assign slot_src  = pad_i ? pad_atom : data_i >> {src_off_i, 3'b000};
  assign slot_mask = ~({AtomBits{1'b1}} << {bytes_i, 3'b000});
  assign slot      = (slot_src & slot_mask) << {dst_off_i, 3'b000};
  assign lane_o    = (first_i ? '0 : lane_q) | slot;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lane_q <= '0;
    else if (step_i) lane_q <= lane_o;
  end
endmodule
