// CSC's weight beat with channel post-extension (cdma-input-modes.md §3): a kernel's row group q
// is stored compact -- its n_q rows of C' elements back to back -- and the data atom holds line i
// of the group in lanes [i*AtomicC/E, (i+1)*AtomicC/E), so row i of the kernel's compact elements
// moves to the start of slice i: element i*C' + j to lane i*AtomicC/E + j (j < C'). The beat holds
// one kernel (int16) or two (int8: kernel 2c in bytes [0, AtomicC), 2c + 1 above); each is
// expanded alike. Without post-extension (post_i = 0) the beat passes unchanged. Row i is the
// kernel shifted down by i*C' elements (one shifter per row, shared by E = 2 and 4); every lane of
// the E = 2 and E = 4 words is a constant position.
module conv_csc_img_wt #(
  parameter int unsigned AtomicC      = 64,
  parameter bit          SupportInt16 = 1'b1,
  localparam int unsigned WordW       = AtomicC * (SupportInt16 ? 16 : 8)
) (
  input  logic             int16_i,
  input  logic [1:0]       post_i,
  input  logic [6:0]       cext_i,  // C'
  input  logic [WordW-1:0] data_i,
  output logic [WordW-1:0] data_o
);
  localparam int unsigned CLog2 = $clog2(AtomicC);
  localparam int unsigned Kern  = WordW / (8 * AtomicC);  // int8 kernels per beat

  // One kernel vector of AtomicC elements of Bits bits, its rows spread by E = 2 (e = 1) and 4.
  // (Multi-dimensional signals live outside the generate blocks: Yosys 0.55 cannot index them
  // inside one.)
  logic [Kern-1:0][2:1][8*AtomicC-1:0] x8;
  logic [Kern-1:0][3:0][8*AtomicC-1:0] row8;
  logic [3:0][WordW-1:0]               row16;
  logic [2:1][WordW-1:0]               x16;
  for (genvar k = 0; k < Kern; k++) begin : g_k8
    for (genvar i = 0; i < 4; i++) begin : g_row
      assign row8[k][i] = data_i[8*AtomicC*k +: 8*AtomicC] >> (8 * i * 32'(cext_i));
    end
    always_comb begin
      x8[k] = '0;
      for (int unsigned e = 1; e <= 2; e++) begin
        for (int unsigned i = 0; i < (1 << e); i++) begin
          for (int unsigned j = 0; j < (AtomicC >> e); j++) begin
            if (7'(j) < cext_i) x8[k][e][8*((i << (CLog2 - e)) + j) +: 8] = row8[k][i][8*j +: 8];
          end
        end
      end
    end
  end
  logic [WordW-1:0] w8;
  for (genvar k = 0; k < Kern; k++) begin : g_w8
    assign w8[8*AtomicC*k +: 8*AtomicC] = post_i == 2'd1 ? x8[k][1] : x8[k][2];
  end

  if (SupportInt16) begin : g_int16
    for (genvar i = 0; i < 4; i++) begin : g_row
      assign row16[i] = data_i >> (16 * i * 32'(cext_i));
    end
    always_comb begin
      x16 = '0;
      for (int unsigned e = 1; e <= 2; e++) begin
        for (int unsigned i = 0; i < (1 << e); i++) begin
          for (int unsigned j = 0; j < (AtomicC >> e); j++) begin
            if (7'(j) < cext_i) x16[e][16*((i << (CLog2 - e)) + j) +: 16] = row16[i][16*j +: 16];
          end
        end
      end
    end
    assign data_o = post_i == 2'd0 ? data_i : int16_i ? (post_i == 2'd1 ? x16[1] : x16[2]) : w8;
  end else begin : g_int8
    assign row16  = '0;
    assign x16    = '0;
    assign data_o = post_i == 2'd0 ? data_i : w8;
    logic unused;
    assign unused = ^{int16_i, row16, x16};
  end
endmodule
