// The LUT engine's table choice and table read, shared by the integer lane (lut_lane) and the
// float lane (lut_lane_fp): the five priority rules of ../shared/reference/nvdla-arithmetic.md
// §1.3 "INDEX MUXING" (both uflow / both oflow / both hit / one uflow + one oflow / one hit) on
// the two tables' own statuses, then y0 = T[idx], y1 = T[idx + 1] of the chosen table (a hit
// index is at most Depth - 2; the last entry is read twice otherwise) and its fraction.
// Combinational.
module lut_select #(
  parameter int unsigned FracW = 16
) (
  input  logic               le_uf_i,
  input  logic               le_of_i,
  input  logic [6:0]         le_idx_i,
  input  logic [FracW-1:0]   le_frac_i,
  input  logic               lo_uf_i,
  input  logic               lo_of_i,
  input  logic [8:0]         lo_idx_i,
  input  logic [FracW-1:0]   lo_frac_i,
  input  logic               uflow_prio_lo_i,
  input  logic               oflow_prio_lo_i,
  input  logic               hybrid_prio_lo_i,
  input  logic [64:0][15:0]  le_tab_i,
  input  logic [256:0][15:0] lo_tab_i,
  output logic               le_hit_o,
  output logic               lo_hit_o,
  output logic               sel_lo_o,  // LO is the chosen table
  output logic               uf_o,      // the chosen table's status
  output logic               of_o,
  output logic [15:0]        y0_o,
  output logic [15:0]        y1_o,
  output logic [FracW-1:0]   frac_o
);
  logic [6:0] le_idx1;
  logic [8:0] lo_idx1;
  always_comb begin
    le_hit_o = !le_uf_i && !le_of_i;
    lo_hit_o = !lo_uf_i && !lo_of_i;
    if (le_uf_i && lo_uf_i) begin
      sel_lo_o = uflow_prio_lo_i;
    end else if (le_of_i && lo_of_i) begin
      sel_lo_o = oflow_prio_lo_i;
    end else if (le_hit_o == lo_hit_o) begin
      sel_lo_o = hybrid_prio_lo_i;
    end else begin
      sel_lo_o = lo_hit_o;
    end
    uf_o    = sel_lo_o ? lo_uf_i : le_uf_i;
    of_o    = sel_lo_o ? lo_of_i : le_of_i;
    le_idx1 = (le_idx_i == 7'd64) ? 7'd64 : le_idx_i + 7'd1;
    lo_idx1 = (lo_idx_i == 9'd256) ? 9'd256 : lo_idx_i + 9'd1;
    y0_o    = sel_lo_o ? lo_tab_i[lo_idx_i] : le_tab_i[le_idx_i];
    y1_o    = sel_lo_o ? lo_tab_i[lo_idx1] : le_tab_i[le_idx1];
    frac_o  = sel_lo_o ? lo_frac_i : le_frac_i;
  end
endmodule
