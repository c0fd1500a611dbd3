// CSC weight decompression (compressed weights, D_WEIGHT_FORMAT = COMPRESSED, nv_full;
// cdma-input-modes.md §5, docs/CDMA_MODES.md §2): one MAC cell's weights from the mask bits and
// the packed non-zero elements.
//   mask_i   the cell's mask bits, bit i for element i (LSB first, from the cell's first element)
//   packed_i the packed stream from the cell's first non-zero element (byte 0 = its first byte)
//   n_i      elements of the cell (kernels in the cell x channels): bits >= n_i are not the cell's
// Element i (bpe bytes: 1 int8, 2 int16) of data_o is
//   mask[i] ? packed element popcount(mask[0 .. i-1]) : 0     for i < n_i, else 0,
// and cnt_o = popcount(mask[0 .. n_i-1]): the packed elements the cell consumes. Combinational.
module conv_csc_wdec #(
  parameter int unsigned RowBytes     = 128,  // bytes of a cell beat (int8 elements)
  parameter bit          SupportInt16 = 1'b1,
  localparam int unsigned CntW        = $clog2(RowBytes) + 1
) (
  input  logic                  int16_i,
  input  logic [CntW-1:0]       n_i,
  input  logic [RowBytes-1:0]   mask_i,
  input  logic [8*RowBytes-1:0] packed_i,
  output logic [8*RowBytes-1:0] data_o,
  output logic [CntW-1:0]       cnt_o
);
  // Per element size e (1 << e bytes: int8, and int16 where SupportInt16), RowBytes >> e elements
  // with mask bits 0 .. (RowBytes >> e) - 1.
  localparam int unsigned Sizes = SupportInt16 ? 2 : 1;
  logic [Sizes-1:0][8*RowBytes-1:0] d;
  logic [Sizes-1:0][CntW-1:0]       c;
  for (genvar e = 0; e < Sizes; e++) begin : g_size
    localparam int unsigned EBits = 8 << e;
    always_comb begin
      d[e] = '0;
      c[e] = '0;
      for (int unsigned i = 0; i < (RowBytes >> e); i++) begin
        if (mask_i[i] && CntW'(i) < n_i) begin
          d[e][EBits*i +: EBits] = packed_i[EBits*c[e] +: EBits];
          c[e]                   = c[e] + 1'b1;
        end
      end
    end
  end

  assign data_o = (SupportInt16 && int16_i) ? d[Sizes-1] : d[0];
  assign cnt_o  = (SupportInt16 && int16_i) ? c[Sizes-1] : c[0];
endmodule
