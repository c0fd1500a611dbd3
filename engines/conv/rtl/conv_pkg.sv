// Direct-convolution pipeline: the layer configuration every stage reads (decoded once by
// conv_core from the CDMA, CSC and CACC register groups, docs/CONV_RTL.md) and the CSC stripe
// partition (conv-pipeline.md §5).
package conv_pkg;

  typedef struct packed {
    logic        int16;        // 16-bit elements: PROC_PRECISION INT16 or FP16 (nv_full only)
    logic        fp16;         // PROC_PRECISION FP16 (NVDLA v1's float MAC and CACC, docs/FP16.md)
    logic        nan_to_zero;  // CDMA D_NAN_FLUSH_TO_ZERO: feature NaNs become +0 on the way into CBUF
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
    // Image input (CDMA D_DATAIN_FORMAT PIXEL, docs/IMAGE_INPUT.md): CSC's in_c above is the
    // pre-extended C' = S x C, kern_w 1; CDMA reads the pixels src_w x src_h describe
    logic        img;
    logic [2:0]  img_c;         // CSC: channels per pixel in CBUF (1, 3, 4)
    logic [13:0] eps;           // ENTRY_PER_SLICE + 1: CBUF rows per image line
    logic [5:0]  pix_fmt;       // CDMA D_DATAIN_FORMAT.PIXEL_FORMAT
    logic        pix_signed;    // PIXEL_SIGN_OVERRIDE
    logic [4:0]  pix_x_off;     // D_PIXEL_OFFSET.PIXEL_X_OFFSET
    logic [5:0]  src_pad_right; // CDMA D_ZERO_PADDING.PAD_RIGHT
    logic [63:0] dain_addr1;    // plane 1 (semi-planar formats)
    logic [31:0] line_uv_stride;
    logic        mean_en;       // D_MEAN_FORMAT: means replace CVT_OFFSET
    logic [3:0][15:0] mean;     // MEAN_RY, _GU, _BV, _AX by CBUF channel
    logic [1:0]  post_e;        // CSC D_POST_Y_EXTENSION: E = 2^post_e kernel rows per atom
    // Multi-batch (nv_full, direct feature input, docs/CDMA_MODES.md §1): N = batch_m1 + 1 cubes,
    // batch b's at dain_addr + b * batch_stride (CDMA D_BATCH_NUMBER, D_BATCH_STRIDE)
    logic [4:0]  batch_m1;
    logic [31:0] batch_stride;
    // Compressed weights (nv_full, CDMA D_WEIGHT_FORMAT, docs/CDMA_MODES.md §2): wt_* above are
    // the packed non-zero stream, the mask bits WMB (wmb_bytes at wmb_addr) go to CBUF bank 15
    logic        wt_comp;
    logic [63:0] wmb_addr;
    logic [31:0] wmb_bytes;
    // CBUF reuse (CDMA D_MISC_CFG DATA_REUSE / WEIGHT_REUSE, docs/CONV_RTL.md "CBUF reuse"): the
    // input lines / the weight bytes the previous layer left in CBUF are this layer's, nothing is
    // fetched
    logic        dat_reuse;
    logic        wt_reuse;
  } cfg_t;

  // What CDMA needs of a pixel format (cdma-input-modes.md table 1.2): bytes per pixel of plane
  // 0 (log2) and 1, 16-bit components, the packed 10-bit field layout, channels in CBUF and the
  // channel order. Components are first put into slots in memory order -- bytes / halfwords of
  // the pixel word, the 10-bit fields left-justified (colour << 6, alpha << 14) with alpha in
  // the high (kind 1) or low (kind 2) bits, semi-planar: Y, then plane 1's two components --
  // then channel c takes slot perm(c): 0 = (0,1,2,3), 1 = (2,1,0,3), 2 = (1,2,3,0),
  // 3 = (3,2,1,0), 4 = (0,2,1).
  typedef struct packed {
    logic [1:0] bpp0_log2;
    logic       semi;       // second plane
    logic       bpp1_4;     // plane 1: 4 bytes per pixel (else 2)
    logic       e16;        // 16-bit components
    logic [1:0] kind;       // 0 plain, 1 10-bit alpha high, 2 10-bit alpha low
    logic [2:0] perm;
    logic [2:0] chans;      // 1, 3, 4
  } pix_fmt_t;

  function automatic logic [12:0] pix_fmt(input logic [5:0] f);  // a pix_fmt_t (13 bits)
    pix_fmt_t d;
    d.bpp0_log2 = 2'd2;
    d.semi      = 1'b0;
    d.bpp1_4    = 1'b0;
    d.e16       = 1'b0;
    d.kind      = 2'd0;
    d.perm      = 3'd0;
    d.chans     = 3'd4;
    case (f)
      6'd0:                       begin d.bpp0_log2 = 2'd0; d.chans = 3'd1; end
      6'd1, 6'd2, 6'd3, 6'd4, 6'd5: begin d.bpp0_log2 = 2'd1; d.chans = 3'd1; d.e16 = 1'b1; end
      6'd6, 6'd7, 6'd8:           begin d.bpp0_log2 = 2'd3; d.e16 = 1'b1; end
      6'd9, 6'd11:                begin d.bpp0_log2 = 2'd3; d.e16 = 1'b1; d.perm = 3'd1; end
      6'd10:                      begin d.bpp0_log2 = 2'd3; d.e16 = 1'b1; d.perm = 3'd2; end
      6'd13, 6'd17, 6'd26:        d.perm = 3'd1;
      6'd14, 6'd18, 6'd27:        d.perm = 3'd2;
      6'd15, 6'd19:               d.perm = 3'd3;
      6'd20:                      begin d.e16 = 1'b1; d.kind = 2'd1; end
      6'd21, 6'd24:               begin d.e16 = 1'b1; d.kind = 2'd1; d.perm = 3'd1; end
      6'd22, 6'd25:               begin d.e16 = 1'b1; d.kind = 2'd2; d.perm = 3'd2; end
      6'd23:                      begin d.e16 = 1'b1; d.kind = 2'd2; d.perm = 3'd3; end
      6'd28, 6'd29:               begin d.bpp0_log2 = 2'd0; d.semi = 1'b1; d.chans = 3'd3;
                                        d.perm = f[0] ? 3'd0 : 3'd4; end
      6'd30, 6'd31, 6'd32, 6'd33, 6'd34, 6'd35:
                                  begin d.bpp0_log2 = 2'd1; d.semi = 1'b1; d.bpp1_4 = 1'b1; d.e16 = 1'b1;
                                        d.chans = 3'd3; d.perm = f[0] ? 3'd0 : 3'd4; end
      default:                    ;  // 12, 16 and reserved codes (the RTL device refuses those)
    endcase
    pix_fmt = d;
  endfunction

  // NVDLA's CBUF entry packing for direct convolution (conv-pipeline.md §2.3 and §3, NVIDIA's C
  // model DirectConvDataResponseSequencerCommon): a position's N memory atoms fill entries of
  // A = 2^a_log2 atoms. Whole groups of A atoms go to entry g*W + w of the slice; the last
  // r = N mod A atoms share one entry among 2^s positions (s = 0 for r > A/2, 1 for r > A/4,
  // else 2), position w from lane (w mod 2^s) * A / 2^s. CDMA writes and CSC reads by this rule.
  function automatic logic [1:0] dc_share_log2(input logic [13:0] atoms, input logic [1:0] a_log2);
    logic [13:0] r, half;
    r    = atoms & ((14'd1 << a_log2) - 14'd1);
    half = (14'd1 << a_log2) >> 1;
    if (r == '0 || r > half) dc_share_log2 = 2'd0;
    else if (r > (half >> 1)) dc_share_log2 = 2'd1;
    else dc_share_log2 = 2'd2;
  endfunction

  // CBUF entries of one slice (one line of one batch): NVDLA's ENTRY_PER_SLICE
  function automatic logic [27:0] dc_eps(input logic [13:0] atoms, input logic [13:0] width,
                                         input logic [1:0] a_log2);
    logic [1:0]  s;
    logic        rest;
    logic [13:0] q;
    logic [14:0] shared;
    s      = dc_share_log2(atoms, a_log2);
    rest   = (atoms & ((14'd1 << a_log2) - 14'd1)) != '0;
    q      = atoms >> a_log2;
    shared = (15'(width) + (15'd1 << s) - 15'd1) >> s;
    dc_eps = 28'(q) * 28'(width) + (rest ? 28'(shared) : 28'd0);
  endfunction

  typedef struct packed {
    logic [27:0] row;   // entry within the slice
    logic [1:0]  lane;  // atom lane within the entry
  } dc_place_t;

  // Where atom `a` of position `w` lies in its slice: a dc_place_t (30 bits)
  function automatic logic [29:0] dc_place(input logic [13:0] atoms, input logic [13:0] a,
                                         input logic [13:0] w, input logic [13:0] width,
                                         input logic [1:0] a_log2);
    dc_place_t   p;
    logic [13:0] g, ws;
    logic [1:0]  s, lane;
    logic        shared;
    g      = a >> a_log2;
    lane   = 2'(a & ((14'd1 << a_log2) - 14'd1));
    shared = g == (atoms >> a_log2);  // the last, partial group
    s      = shared ? dc_share_log2(atoms, a_log2) : 2'd0;
    ws     = w >> s;
    p.row    = 28'(g) * 28'(width) + 28'(ws);
    p.lane   = lane + 2'((w & ((14'd1 << s) - 14'd1)) << (a_log2 - s));
    dc_place = p;
  endfunction

  // Stripe length for `left` positions still to issue (conv-pipeline.md §5): the upper limit
  // while at least two full stripes remain, the lower limit while more than one, then the rest.
  function automatic logic [27:0] stripe_len(input logic [27:0] left, input logic [27:0] lower,
                                             input logic [27:0] upper);
    if (left >= (upper << 1)) stripe_len = upper;
    else if (left > upper) stripe_len = lower;
    else stripe_len = left;
  endfunction

endpackage
