// The status flags of one LUT lookup riding a lane's stages 2 to 4 (lut_lane, lut_lane_fp):
// taken with the stage-2 registers (ld_i[1]) and handed on with each later stage's load, so they
// leave with the value. Bit order of flags_i / q2_o / q4_o:
//   {uflow, oflow, le_hit, lo_hit, lo_sel, le_status[1:0], lo_status[1:0], mask}
// (the chosen table's uflow / oflow, each table's own hit, LO chosen, each table's own
// {oflow, uflow}, the lane's statistics mask).
module lut_flags_pipe (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [3:0] ld_i,
  input  logic [9:0] flags_i,
  output logic [9:0] q2_o,
  output logic [9:0] q4_o
);
  logic [9:0] q3;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q2_o <= '0;
      q3   <= '0;
      q4_o <= '0;
    end else begin
      if (ld_i[1]) q2_o <= flags_i;
      if (ld_i[2]) q3 <= q2_o;
      if (ld_i[3]) q4_o <= q3;
    end
  end
  logic unused;  // stage 1's load is the lane's own
  assign unused = ld_i[0];
endmodule
