// Convolution buffer (CBUF): a data part and a weight part, rows of one channel block
// (WordW bits = AtomicC elements at the widest precision). CDMA writes one memory atom per
// cycle into either part (a row takes RowAtoms atoms); CSC reads one data row and two
// consecutive weight rows per cycle (asynchronous reads). The weight part is a ring over the
// weight byte stream (docs/CONV_RTL.md, "CBUF"). DatRdPorts 4 (Winograd): CSC reads the four
// rows of a 4x4 tile per cycle; they are the four parities of (row pair, column pair), i.e. four
// interleaved banks, one read each.
module conv_cbuf #(
  parameter int unsigned WordW    = 64,
  parameter int unsigned AtomBits = 64,
  parameter int unsigned DataRows = 8192,
  parameter int unsigned WtRows   = 8192,
  parameter int unsigned DatRdPorts = 1,
  localparam int unsigned RowAtoms = WordW / AtomBits,
  localparam int unsigned LaneW    = RowAtoms > 1 ? $clog2(RowAtoms) : 1,
  localparam int unsigned DRowW    = $clog2(DataRows),
  localparam int unsigned WRowW    = $clog2(WtRows)
) (
  input  logic                clk_i,
  // CDMA writes
  input  logic                dat_we_i,
  input  logic [DRowW-1:0]    dat_wrow_i,
  input  logic [LaneW-1:0]    dat_wlane_i,
  input  logic [AtomBits-1:0] dat_wdata_i,
  input  logic                wt_we_i,
  input  logic [WRowW-1:0]    wt_wrow_i,
  input  logic [LaneW-1:0]    wt_wlane_i,
  input  logic [AtomBits-1:0] wt_wdata_i,
  // CSC reads
  input  logic [DatRdPorts-1:0][DRowW-1:0] dat_rrow_i,
  output logic [DatRdPorts-1:0][WordW-1:0] dat_rdata_o,
  input  logic [WRowW-1:0]    wt_rrow0_i,
  output logic [WordW-1:0]    wt_rdata0_o,
  input  logic [WRowW-1:0]    wt_rrow1_i,
  output logic [WordW-1:0]    wt_rdata1_o
);
  // One memory per atom lane so every write is a whole word of its memory.
  for (genvar l = 0; l < RowAtoms; l++) begin : g_lane
    logic [AtomBits-1:0] dmem [DataRows];
    logic [AtomBits-1:0] wmem [WtRows];
    always_ff @(posedge clk_i) begin
      if (dat_we_i && (RowAtoms == 1 || dat_wlane_i == LaneW'(l))) dmem[dat_wrow_i] <= dat_wdata_i;
      if (wt_we_i && (RowAtoms == 1 || wt_wlane_i == LaneW'(l))) wmem[wt_wrow_i] <= wt_wdata_i;
    end
    for (genvar p = 0; p < DatRdPorts; p++) begin : g_rd
      assign dat_rdata_o[p][l*AtomBits +: AtomBits] = dmem[dat_rrow_i[p]];
    end
    assign wt_rdata0_o[l*AtomBits +: AtomBits] = wmem[wt_rrow0_i];
    assign wt_rdata1_o[l*AtomBits +: AtomBits] = wmem[wt_rrow1_i];
  end
  if (RowAtoms == 1) begin : g_no_lanes
    logic unused_lanes;
    assign unused_lanes = ^{dat_wlane_i, wt_wlane_i};
  end
endmodule
