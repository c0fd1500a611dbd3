// CSC's weight beat with channel post-extension (cdma-input-modes.md §3): a kernel's row group q
// is stored compact -- its n_q rows of C' elements back to back -- and the data atom holds line i
// of the group in lanes [i*AtomicC/E, (i+1)*AtomicC/E), so row i of the kernel's compact elements
// moves to the start of slice i: element i*C' + j to lane i*AtomicC/E + j (j < C'). The beat holds
// one kernel (int16) or two (int8: kernel 2c in bytes [0, AtomicC), 2c + 1 above); each is
// expanded alike. Without post-extension (post_i = 0) the beat passes unchanged.
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

  // Kernel vectors of AtomicC elements of `bits` bits: slice i from element i*C'.
  function automatic logic [8*AtomicC-1:0] expand8(input logic [8*AtomicC-1:0] v, input logic [1:0] post,
                                                   input logic [6:0] cext);
    logic [8*AtomicC-1:0] o, sh;
    o = '0;
    for (int unsigned i = 0; i < 4; i++) begin
      sh = v >> (8 * i * 32'(cext));
      for (int unsigned j = 0; j < AtomicC; j++) begin
        if (i < (32'd1 << post) && j < (AtomicC >> post) && 7'(j) < cext) begin
          o[8 * ((i << (CLog2 - 32'(post))) + j) +: 8] = sh[8*j +: 8];
        end
      end
    end
    return o;
  endfunction

  logic [WordW-1:0] x8;
  for (genvar k = 0; k < Kern; k++) begin : g_k8
    assign x8[8*AtomicC*k +: 8*AtomicC] = expand8(data_i[8*AtomicC*k +: 8*AtomicC], post_i, cext_i);
  end

  if (SupportInt16) begin : g_int16
    logic [WordW-1:0] x16, sh16 [4];
    always_comb begin
      x16 = '0;
      for (int unsigned i = 0; i < 4; i++) begin
        sh16[i] = data_i >> (16 * i * 32'(cext_i));
        for (int unsigned j = 0; j < AtomicC; j++) begin
          if (i < (32'd1 << post_i) && j < (AtomicC >> post_i) && 7'(j) < cext_i) begin
            x16[16 * ((i << (CLog2 - 32'(post_i))) + j) +: 16] = sh16[i][16*j +: 16];
          end
        end
      end
    end
    assign data_o = post_i == 2'd0 ? data_i : int16_i ? x16 : x8;
  end else begin : g_int8
    assign data_o = post_i == 2'd0 ? data_i : x8;
    logic unused;
    assign unused = int16_i;
  end
endmodule
