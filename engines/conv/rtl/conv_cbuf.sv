// Convolution buffer (CBUF): one array of CbufRows rows (NVDLA's banks x entries; a row is one
// CBUF entry = one channel block of WordW bits, AtomicC elements at the widest precision) split
// by the programmed D_BANK as NVDLA splits it: the data part is rows [0, wt_base_i) (banks
// 0..DATA_BANK), the weight part the ring of rows from wt_base_i ((DATA_BANK+1) x entries) that
// CDMA and CSC address by ring row (docs/CONV_RTL.md, "CBUF"). Two write ports, as NVDLA's CBUF
// has (CDMA_DAT's and CDMA_WT's): a data write -- any set of a row's lanes of the data part
// (dat_wmask_i; one atom a cycle in direct mode, a whole folded row in W-fold mode) -- and a
// weight write -- any set of a row's lanes of the weight ring (wt_wmask_i; the atoms of one DMA
// beat) -- may come in the same cycle: the two parts are different rows. A data write may
// also write lanes dat_wmask1_i of the next row (dat_wnext_i: the second atom of a two-atom beat
// of columns x, x + 1, which this layout keeps in two rows where NVDLA packs them into one entry). CSC reads DatRdPorts data rows and two consecutive weight rows per
// cycle (asynchronous reads). DatRdPorts 4 (Winograd): CSC reads the four rows of a 4x4 tile
// per cycle; they are the four parities of (row pair, column pair).
// Compressed weights (WmbRows > 0, nv_full): the last WmbRows rows (bank 15) are the ring of the
// weight mask bits; CDMA's weight write port writes there when wt_wmb_i (row = ring row), and CSC
// reads two consecutive mask rows per cycle (wmb_rrow_i: ring rows).
module conv_cbuf #(
  parameter int unsigned WordW      = 64,
  parameter int unsigned AtomBits   = 64,
  parameter int unsigned CbufRows   = 16384,
  parameter int unsigned DatRdPorts = 1,
  parameter int unsigned WmbRows    = 0,  // rows of the mask ring (0: no compressed weights)
  localparam int unsigned RowAtoms = WordW / AtomBits,
  localparam int unsigned RowW     = $clog2(CbufRows)
) (
  input  logic                clk_i,
  input  logic [RowW-1:0]     wt_base_i,    // first row of the weight part
  // CDMA writes
  input  logic                dat_we_i,
  input  logic [RowW-1:0]     dat_wrow_i,
  input  logic [RowAtoms-1:0] dat_wmask_i,  // lanes of the row written
  input  logic [WordW-1:0]    dat_wdata_i,
  input  logic                dat_wnext_i,  // also write row dat_wrow_i + 1
  input  logic [RowAtoms-1:0] dat_wmask1_i, // its lanes
  input  logic [WordW-1:0]    dat_wdata1_i, // and data
  input  logic                wt_we_i,
  input  logic [RowW-1:0]     wt_wrow_i,    // ring row
  input  logic [RowAtoms-1:0] wt_wmask_i,   // lanes of the ring row written
  input  logic [WordW-1:0]    wt_wdata_i,
  input  logic                wt_wmb_i,     // the weight write goes to the mask ring
  // CSC reads
  input  logic [DatRdPorts-1:0][RowW-1:0] dat_rrow_i,
  output logic [DatRdPorts-1:0][WordW-1:0] dat_rdata_o,
  input  logic [RowW-1:0]     wt_rrow0_i,   // ring rows
  output logic [WordW-1:0]    wt_rdata0_o,
  input  logic [RowW-1:0]     wt_rrow1_i,
  output logic [WordW-1:0]    wt_rdata1_o,
  input  logic [1:0][RowW-1:0]  wmb_rrow_i,  // mask ring rows
  output logic [1:0][WordW-1:0] wmb_rdata_o
);
  localparam int unsigned WmbBase = CbufRows - (WmbRows > 0 ? WmbRows : 1);
  // Physical row of a ring row: wt_base_i + ring row.
  logic [RowW-1:0]     wt_wprow, wt_prow0, wt_prow1;
  assign wt_wprow = (WmbRows > 0 && wt_wmb_i) ? RowW'(WmbBase) + wt_wrow_i : wt_base_i + wt_wrow_i;
  assign wt_prow0 = wt_base_i + wt_rrow0_i;
  assign wt_prow1 = wt_base_i + wt_rrow1_i;

  if (WmbRows == 0) begin : g_no_wmb
    logic unused_wmb;
    assign unused_wmb = ^{wmb_rrow_i, wt_wmb_i};
  end

  // One memory per atom lane so every write is a whole word of its memory.
  for (genvar l = 0; l < RowAtoms; l++) begin : g_lane
    logic [AtomBits-1:0] mem [CbufRows];
    always_ff @(posedge clk_i) begin
      if (dat_we_i && dat_wmask_i[l]) mem[dat_wrow_i] <= dat_wdata_i[l*AtomBits +: AtomBits];
      if (wt_we_i && wt_wmask_i[l]) mem[wt_wprow] <= wt_wdata_i[l*AtomBits +: AtomBits];
      if (dat_wnext_i && dat_wmask1_i[l]) mem[dat_wrow_i + 1'b1] <= dat_wdata1_i[l*AtomBits +: AtomBits];
    end
    for (genvar p = 0; p < DatRdPorts; p++) begin : g_rd
      assign dat_rdata_o[p][l*AtomBits +: AtomBits] = mem[dat_rrow_i[p]];
    end
    assign wt_rdata0_o[l*AtomBits +: AtomBits] = mem[wt_prow0];
    assign wt_rdata1_o[l*AtomBits +: AtomBits] = mem[wt_prow1];
    for (genvar p = 0; p < 2; p++) begin : g_wmb
      if (WmbRows > 0) begin : g_on
        assign wmb_rdata_o[p][l*AtomBits +: AtomBits] = mem[RowW'(WmbBase) + wmb_rrow_i[p]];
      end else begin : g_off
        assign wmb_rdata_o[p][l*AtomBits +: AtomBits] = '0;
      end
    end
  end
endmodule
