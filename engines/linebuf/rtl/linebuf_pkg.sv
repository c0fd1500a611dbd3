// The line-buffer engine's descriptor (docs/LINEBUF.md §2): one 99-bit beat per layer.
// A packed struct lists its fields MSB first: width is bits [15:0].
package linebuf_pkg;
  typedef struct packed {
    logic        out_chip;     // [98]    output to the on-chip map store (no `out` beats)
    logic        in_chip;      // [97]    input from the on-chip map store (no `px` beats)
    logic        wonce;        // [96]    dataflow "weights load once": the whole padded map on chip
    logic [4:0]  leaky_shift;  // [95:91]
    logic [15:0] leaky_slope;  // [90:75] unsigned; negatives times slope / 2^leaky_shift
    logic [5:0]  out_shift;    // [74:69] requantize: sat(rhaz(v / 2^out_shift))
    logic        pool;         // [68]    fused 2x2 stride-2 max pool
    logic [1:0]  act;          // [67:66] 0 none, ActRelu, ActLeaky
    logic        int16;        // [65]    int16 data, weights and outputs (else int8)
    logic        pad;          // [64]    one zero row/column on every side
    logic [15:0] kernels;      // [63:48] K
    logic [15:0] channels;     // [47:32] C
    logic [15:0] height;       // [31:16] H
    logic [15:0] width;        // [15:0]  W
  } desc_t;

  localparam logic [1:0] ActRelu = 2'd1;
  localparam logic [1:0] ActLeaky = 2'd2;
endpackage
