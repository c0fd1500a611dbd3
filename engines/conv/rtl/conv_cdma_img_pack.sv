// CDMA image input, response side (cdma-input-modes.md §1.2, §1.4, §1.5, §2): follows the
// response walk (conv_cdma_img_walk) step by step, keeps the last atom read of each plane, and at
// each pixel's last step
//   * unpacks the pixel into its CBUF channels (conv_pkg::pix_fmt: slots in memory order, 10-bit
//     fields left-justified, then the format's channel order R,G,B,A / Y,U,V,A / Y,U,V),
//   * converts them (CVT_EN: conv_cdma_cvt_elem, each component zero- or sign-extended by
//     PIXEL_SIGN_OVERRIDE, MEAN_RY/GU/BV/AX by channel position instead of CVT_OFFSET when
//     MEAN_FORMAT is set; else the raw bits), a pad pixel puts CDMA's PAD_VALUE (raw) in every
//     channel,
//   * fp16 (PROC_PRECISION FP16, SupportFp16): an fp16 format (T_R16_F, T_A16B16G16R16_F,
//     T_A16Y16U16V16_F) passes the converter unchanged, a NaN flushed to +0 with NAN_TO_ZERO; an
//     integer format through the converter's 17-bit result into fp16 (dla_fp_from_int, NVIDIA's
//     FpIntToFloat<17>); and counts the NaN / Inf halves of each fetched atom of an fp16 format
//     from PIXEL_X_OFFSET on (nan_o / inf_o, NVIDIA's C model's per-line rule),
//   * appends its C x bpe bytes to the line, channel-minor and unaligned: a row register gathers
//     the line's bytes and goes to CBUF whenever it fills, and at the line's flush step if it
//     holds any. Line y takes rows [y*EPS, (y+1)*EPS) of the data part (EPS = ENTRY_PER_SLICE+1).
module conv_cdma_img_pack #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned WordW        = 64,
  parameter bit          SupportInt16 = 1'b0,
  parameter bit          SupportFp16  = 1'b0,
  parameter int unsigned RowW         = 14,
  localparam int unsigned AtomBits    = 8 << AtomLog2,
  localparam int unsigned RowBytes    = WordW / 8,
  localparam int unsigned RowLog2     = $clog2(RowBytes)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  input  logic                step_i,    // the response walk takes its step
  input  logic                rd_i,      // with this response
  input  logic [AtomBits-1:0] data_i,
  input  logic                plane_i,
  input  logic                pad_i,
  input  logic                emit_i,
  input  logic                flush_i,
  input  logic [AtomLog2-1:0] off0_i,
  input  logic [AtomLog2-1:0] off1_i,
  output logic                we_o,
  output logic [RowW-1:0]     row_o,
  output logic [WordW-1:0]    data_o,
  output logic [5:0]          nan_o,     // fp16 formats: NaN / Inf halves of this step's atom
  output logic [5:0]          inf_o
);
  conv_pkg::pix_fmt_t fmt;
  logic               int16;
  assign fmt   = conv_pkg::pix_fmt(cfg_i.pix_fmt);
  assign int16 = SupportInt16 && cfg_i.int16;

  // ---------------------------------------------------------------- the pixel's words
  logic [AtomBits-1:0] atom0_q, atom1_q, atom0, atom1;
  always_ff @(posedge clk_i) begin
    if (step_i && rd_i && !plane_i) atom0_q <= data_i;
    if (step_i && rd_i && plane_i) atom1_q <= data_i;
  end
  assign atom0 = (rd_i && !plane_i) ? data_i : atom0_q;
  assign atom1 = (rd_i && plane_i) ? data_i : atom1_q;
  logic [AtomBits-1:0] sh0, sh1;
  logic [63:0]         w0;
  logic [31:0]         w1;
  assign sh0 = atom0 >> {off0_i, 3'b000};
  assign sh1 = atom1 >> {off1_i, 3'b000};
  assign w0  = 64'(sh0);
  assign w1  = 32'(sh1);

  // ---------------------------------------------------------------- slots -> channels
  logic [3:0][15:0] slot, ch;
  always_comb begin
    slot = '0;
    if (fmt.semi) begin
      slot[0] = fmt.e16 ? w0[15:0] : 16'(w0[7:0]);
      slot[1] = fmt.e16 ? w1[15:0] : 16'(w1[7:0]);
      slot[2] = fmt.e16 ? w1[31:16] : 16'(w1[15:8]);
    end else if (fmt.kind == 2'd1) begin
      slot = {{w0[31:30], 14'd0}, {w0[29:20], 6'd0}, {w0[19:10], 6'd0}, {w0[9:0], 6'd0}};
    end else if (fmt.kind == 2'd2) begin
      slot = {{w0[31:22], 6'd0}, {w0[21:12], 6'd0}, {w0[11:2], 6'd0}, {w0[1:0], 14'd0}};
    end else begin
      for (int unsigned i = 0; i < 4; i++) begin
        slot[i] = fmt.e16 ? w0[16*i +: 16] : 16'(w0[8*i +: 8]);
      end
    end
    unique case (fmt.perm)
      3'd1:    ch = {slot[3], slot[0], slot[1], slot[2]};
      3'd2:    ch = {slot[0], slot[3], slot[2], slot[1]};
      3'd3:    ch = {slot[0], slot[1], slot[2], slot[3]};
      3'd4:    ch = {slot[3], slot[1], slot[2], slot[0]};
      default: ch = slot;
    endcase
  end

  // ---------------------------------------------------------------- converter, pad value
  // fp16 formats (PIXEL_FORMAT 5, 8, 11: IN_PRECISION FP16)
  logic f16_fmt, fp16;
  assign f16_fmt = SupportFp16 && (cfg_i.pix_fmt == 6'd5 || cfg_i.pix_fmt == 6'd8 || cfg_i.pix_fmt == 6'd11);
  assign fp16    = SupportFp16 && cfg_i.fp16;
  logic [3:0][15:0] elem;
  for (genvar c = 0; c < 4; c++) begin : g_ch
    logic signed [16:0] x17;
    logic [15:0]        op;
    logic signed [16:0] cvt17;
    logic signed [15:0] cvt16;
    logic signed [7:0]  cvt8;
    logic [15:0]        f16, raw;
    logic               unused_sat16, unused_sat8;
    assign x17 = fmt.e16 ? {cfg_i.pix_signed && ch[c][15], ch[c]}
                         : {{9{cfg_i.pix_signed && ch[c][7]}}, ch[c][7:0]};
    assign op  = cfg_i.mean_en ? cfg_i.mean[c] : cfg_i.cvt_offset;
    // the converter's 17-bit result (NVIDIA's IntShiftRight into 17 bits), then each precision's
    conv_cdma_cvt_elem #(.OutW(17)) u_cvt (
      .data_i    (x17),
      .offset_i  (op),
      .scale_i   (cfg_i.cvt_scale),
      .truncate_i(cfg_i.cvt_truncate),
      .data_o    (cvt17)
    );
    dla_sat #(
      .InW (17),
      .OutW(16)
    ) u_sat16 (
      .data_i(cvt17),
      .data_o(cvt16),
      .sat_o (unused_sat16)
    );
    dla_sat #(
      .InW (16),
      .OutW(8)
    ) u_sat8 (
      .data_i(cvt16),
      .data_o(cvt8),
      .sat_o (unused_sat8)
    );
    if (SupportFp16) begin : g_f16
      dla_fp_from_int #(
        .IntW(17)
      ) u_f16 (
        .a_i(cvt17),
        .z_o(f16)
      );
    end else begin : g_no_f16
      assign f16 = '0;
      logic unused_f16;
      assign unused_f16 = ^cvt17;
    end
    // an fp16 component: a NaN is flushed as the line is fetched (D_NAN_FLUSH_TO_ZERO)
    assign raw     = (f16_fmt && cfg_i.nan_to_zero && dla_fp_pkg::fp16_is_nan(ch[c][14:0])) ? 16'd0 : ch[c];
    assign elem[c] = pad_i                     ? cfg_i.src_pad_value
                   : (f16_fmt || !cfg_i.cvt_en) ? raw
                   : fp16                      ? f16
                   : int16                     ? cvt16 : 16'(cvt8);
  end

  // NaN / Inf halves of an fp16 format's fetched atom (plane 0), the line's first atom from
  // PIXEL_X_OFFSET's byte on (NVIDIA's C model counts the line's atoms from the x offset).
  if (SupportFp16) begin : g_count
    logic first_q;  // the next read is the line's first
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) first_q <= 1'b1;
      else if (start_i) first_q <= 1'b1;
      else if (step_i && flush_i) first_q <= 1'b1;
      else if (step_i && rd_i && !plane_i) first_q <= 1'b0;
    end
    localparam int unsigned Halves = AtomBits / 16;
    logic [Halves-1:0] hmask;
    logic [7:0]        skip;  // bytes before the x offset
    assign skip = first_q ? 8'(cfg_i.pix_x_off) << fmt.bpp0_log2 : 8'd0;
    always_comb begin
      for (int unsigned h = 0; h < Halves; h++) begin
        hmask[h] = f16_fmt && step_i && rd_i && !plane_i && 8'(2 * h) >= skip;
      end
    end
    logic [$clog2(Halves + 1)-1:0] nan, inf;
    dla_fp16_count #(.Halves(Halves)) u_cnt (
      .data_i(data_i), .mask_i(hmask), .nan_o(nan), .inf_o(inf)
    );
    assign nan_o = 6'(nan);
    assign inf_o = 6'(inf);
  end else begin : g_no_count
    assign nan_o = '0;
    assign inf_o = '0;
  end

  // The pixel's bytes, channel-minor: C channels of bpe bytes.
  logic [63:0] pix;
  logic [3:0]  nbytes;
  always_comb begin
    pix = '0;
    for (int unsigned c = 0; c < 4; c++) begin
      if (3'(c) < fmt.chans) begin
        if (int16) pix[16*c +: 16] = elem[c];
        else pix[8*c +: 8] = elem[c][7:0];
      end
    end
  end
  assign nbytes = 4'(fmt.chans) << int16;

  // ---------------------------------------------------------------- line assembly
  logic [WordW-1:0]   cur_q;
  logic [RowLog2-1:0] boff_q;
  logic [RowW-1:0]    base_q, k_q;
  logic [2*WordW-1:0] wide;
  logic [RowLog2:0]   noff;
  logic               full;
  assign wide = {{WordW{1'b0}}, cur_q} | ((2 * WordW)'(pix) << {boff_q, 3'b000});
  assign noff = (RowLog2 + 1)'(boff_q) + (RowLog2 + 1)'(nbytes);
  assign full = noff[RowLog2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_q  <= '0;
      boff_q <= '0;
      base_q <= '0;
      k_q    <= '0;
    end else if (start_i) begin
      cur_q  <= '0;
      boff_q <= '0;
      base_q <= '0;
      k_q    <= '0;
    end else if (step_i && flush_i) begin
      cur_q  <= '0;
      boff_q <= '0;
      base_q <= base_q + RowW'(cfg_i.eps);
      k_q    <= '0;
    end else if (step_i && emit_i) begin
      cur_q  <= full ? wide[2*WordW-1:WordW] : wide[WordW-1:0];
      boff_q <= noff[RowLog2-1:0];
      if (full) k_q <= k_q + 1'b1;
    end
  end
  assign we_o   = step_i && ((emit_i && full) || (flush_i && boff_q != '0));
  assign row_o  = base_q + k_q;
  assign data_o = flush_i ? cur_q : wide[WordW-1:0];

  logic unused;
  assign unused = ^{cfg_i, fmt, sh0, sh1, wide};
endmodule
