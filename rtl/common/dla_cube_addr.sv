// NVDLA feature-cube byte address (nvdla-arithmetic.md §8; golden/layout.hpp FeatureLayout):
//   base + n*batch_stride + floor(c/Ca)*surface_stride + h*line_stride + w*atom + (c mod Ca)*bpe
// with Ca = atom / bpe channels per atom. Atom and bpe are powers of two, given as log2.
module dla_cube_addr #(
  parameter int unsigned AddrW = 64,
  parameter int unsigned IdxW  = 13
) (
  input  logic [AddrW-1:0] base_i,
  input  logic [31:0]      line_stride_i,
  input  logic [31:0]      surface_stride_i,
  input  logic [31:0]      batch_stride_i,
  input  logic [2:0]       atom_log2_i,  // bytes per atom
  input  logic [1:0]       bpe_log2_i,   // bytes per element
  input  logic [4:0]       n_i,
  input  logic [IdxW-1:0]  c_i,
  input  logic [IdxW-1:0]  h_i,
  input  logic [IdxW-1:0]  w_i,
  output logic [AddrW-1:0] addr_o
);
  logic [2:0]      ca_log2;
  logic [IdxW-1:0] surface, lane;
  assign ca_log2 = atom_log2_i - 3'(bpe_log2_i);
  assign surface = c_i >> ca_log2;
  assign lane    = c_i & ((IdxW'(1) << ca_log2) - 1'b1);
  assign addr_o  = base_i
                 + AddrW'(n_i) * AddrW'(batch_stride_i)
                 + AddrW'(surface) * AddrW'(surface_stride_i)
                 + AddrW'(h_i) * AddrW'(line_stride_i)
                 + (AddrW'(w_i) << atom_log2_i)
                 + (AddrW'(lane) << bpe_log2_i);
endmodule
