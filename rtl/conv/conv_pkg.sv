// Direct-convolution pipeline: the layer configuration every stage reads (decoded once by
// conv_core from the CDMA, CSC and CACC register groups, docs/CONV_RTL.md) and the CSC stripe
// partition (conv-pipeline.md §5).
package conv_pkg;

  typedef struct packed {
    logic        int16;        // PROC_PRECISION INT16 (nv_full only)
    // input cube as CSC sees it (real sizes)
    logic [13:0] in_w;
    logic [13:0] in_h;
    logic [13:0] in_c;
    // weights
    logic [13:0] kernels;      // K
    logic [5:0]  kern_h;       // R
    logic [5:0]  kern_w;       // S
    logic [18:0] byte_per_kernel;
    logic [63:0] wt_addr;
    logic [31:0] wt_bytes;
    // output
    logic [13:0] out_w;
    logic [13:0] out_h;
    // geometry
    logic [3:0]  stride_x;
    logic [3:0]  stride_y;
    logic [5:0]  dil_x;
    logic [5:0]  dil_y;
    logic [4:0]  pad_left;
    logic [4:0]  pad_top;
    logic [15:0] pad_value;
    // input cube in memory
    logic [63:0] dain_addr;
    logic [31:0] line_stride;
    logic [31:0] surf_stride;
    // CDMA input converter
    logic        cvt_en;
    logic [5:0]  cvt_truncate;
    logic [15:0] cvt_offset;
    logic [15:0] cvt_scale;
    // CACC
    logic [4:0]  clip_truncate;
    // Winograd (CONV_MODE = WINOGRAD, nv_full): CSC's in_* above are the padded, channel-extended
    // cube; CDMA fetches the cube below and pads / extends it itself (docs/CONV_RTL.md)
    logic        wino;
    logic [1:0]  pra_truncate;  // CSC D_PRA_CFG
    logic [13:0] src_w;         // CDMA D_DATAIN_SIZE_0/1: the cube in memory
    logic [13:0] src_h;
    logic [13:0] src_c;
    logic [3:0]  src_stride_x;  // CDMA D_CONV_STRIDE (1 or 2: channel extension)
    logic [3:0]  src_stride_y;
    logic [4:0]  src_pad_left;  // CDMA D_ZERO_PADDING / _VALUE
    logic [4:0]  src_pad_top;
    logic [15:0] src_pad_value;
    // W-fold (CDMA D_WFOLD, nv_full, docs/WFOLD.md): CSC's in_*, kern_w, stride_x, dil_x and
    // pad_left above describe the folded convolution; CDMA folds the cube src_* describes, read
    // by the layer's own kernel width, X stride (src_stride_x), X dilation and PAD_LEFT
    logic        wfold;
    logic [2:0]  ws_log2;       // ws = 2**ws_log2 positions per CBUF row, pci = AtomicC / ws
    logic [5:0]  fold_kern_w;   // S
    logic [5:0]  fold_dil_x;    // dx
  } cfg_t;

  // Stripe length for `left` positions still to issue (conv-pipeline.md §5): the upper limit
  // while at least two full stripes remain, the lower limit while more than one, then the rest.
  function automatic logic [27:0] stripe_len(input logic [27:0] left, input logic [27:0] lower,
                                             input logic [27:0] upper);
    if (left >= (upper << 1)) stripe_len = upper;
    else if (left > upper) stripe_len = lower;
    else stripe_len = left;
  endfunction

endpackage
