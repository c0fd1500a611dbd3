// PDP's pooling stages (split from pdp_core 2026-12-03, no change of behaviour; docs/PDP_RTL.md):
// per split, surface and input line, the atoms from PDP_RDMA (in_*) go through Throughput lanes a
// cycle. Horizontal stage: up to 8 open windows of the current line (slot = output column mod 8),
// a window's row result (sum + PAD_VALUE_{ncol}X, or max / min of the valid columns) goes to the
// vertical stage when its last column arrives (or at the line end for right padding). Vertical
// stage: 8 line buffers of partial results (bank = output line mod 8, MaxOutW columns x all
// lanes), read-modify-written for every output line whose window contains the input line; an
// output line is finished by its last input line, or after the surface's last line (bottom
// padding). A beat that finishes output values hands them to the writer (out_*, pdp_wdma) with
// their atom's address; the integer lanes are pdp_lane, the fp16 ones pdp_lane_fp.
module pdp_pool #(
  parameter int unsigned AtomLog2    = 3,
  parameter int unsigned Throughput  = 1,     // elements per cycle (PDP_THROUGHPUT)
  parameter bit          SupportFp16 = 1'b0,  // fp16 data (NVDLA v1, nv_full)
  parameter int unsigned MaxOutW     = 4096 >> AtomLog2,  // line-buffer columns (pdp_core)
  parameter int unsigned BeatW       = 1,     // beat index width: pdp_core's, the one definition
  localparam int unsigned AtomBytes  = 1 << AtomLog2,
  localparam int unsigned AtomBits   = 8 * AtomBytes
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */
  input  pdp_regs_pkg::pdp_reg2hw_d_t  pdp_i,     // PDP's consumer group (the fields it reads)
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                           wide_i,    // 16-bit elements (int16, fp16)
  input  logic                           fp16_i,
  input  logic                           start_i,
  input  logic                           flying_i,  // the layer's input is SDP's (ON_FLYING)
  // input atoms (pdp_rdma)
  input  logic                           in_valid_i,
  output logic                           in_ready_o,
  input  logic [AtomBits-1:0]            in_data_i,
  // output beats (pdp_wdma): out_fire_o a beat finishes output values and advances
  input  logic                           out_ready_i,  // the writer takes an atom
  output logic                           out_fire_o,
  output logic [BeatW-1:0]               out_beat_o,
  output logic                           out_last_o,   // the atom's last beat
  output logic [Throughput-1:0][15:0]    out_value_o,
  output logic [63:0]                    out_addr_o,
  // the layer's end: the writer is idle and PDP_RDMA has issued every read
  input  logic                           drained_i,
  output logic                           done_o
);
  localparam int unsigned T      = Throughput;
  localparam int unsigned Lanes  = AtomBytes;          // int8 lanes of an atom
  localparam int unsigned AccW   = 32;                 // partial results
  localparam int unsigned ColW   = $clog2(MaxOutW);

  logic wide, fp16;
  assign wide = wide_i;
  assign fp16 = fp16_i;
  logic flush_nan;  // NAN_TO_ZERO on data read from memory (fp16)
  assign flush_nan = SupportFp16 && pdp_i.nan_flush_to_zero && !flying_i;

  // Values as counts (registers hold value - 1).
  typedef logic signed [17:0] pos_t;  // positions (columns, lines) incl. padding
  logic [1:0]  method;                // 0 average, 1 max, 2 min
  logic [8:0]  n_split;
  logic [13:0] in_h, out_h;
  logic [13:0] in_w, out_w;
  logic [10:0] pin_first, pin_mid, pin_last, pout_first, pout_mid, pout_last;
  logic [4:0]  kw, kh, sw, sh;
  logic [2:0]  pad_l, pad_t;
  logic [13:0] surfaces;
  logic [16:0] recip_w, recip_h;
  logic [6:0][18:0] pad_value;
  assign method     = pdp_i.operation_mode_cfg_pooling_method;
  assign n_split    = 9'(pdp_i.operation_mode_cfg_split_num) + 9'd1;
  assign in_w       = 14'(pdp_i.data_cube_in_width) + 14'd1;
  assign in_h       = 14'(pdp_i.data_cube_in_height) + 14'd1;
  assign out_w      = 14'(pdp_i.data_cube_out_width) + 14'd1;
  assign out_h      = 14'(pdp_i.data_cube_out_height) + 14'd1;
  assign pin_first  = 11'(pdp_i.partial_width_in_partial_width_in_first) + 11'd1;
  assign pin_last   = 11'(pdp_i.partial_width_in_partial_width_in_last) + 11'd1;
  assign pin_mid    = 11'(pdp_i.partial_width_in_partial_width_in_mid) + 11'd1;
  assign pout_first = 11'(pdp_i.partial_width_out_partial_width_out_first) + 11'd1;
  assign pout_last  = 11'(pdp_i.partial_width_out_partial_width_out_last) + 11'd1;
  assign pout_mid   = 11'(pdp_i.partial_width_out_partial_width_out_mid) + 11'd1;
  assign kw         = 5'(pdp_i.pooling_kernel_cfg_kernel_width) + 5'd1;
  assign kh         = 5'(pdp_i.pooling_kernel_cfg_kernel_height) + 5'd1;
  assign sw         = 5'(pdp_i.pooling_kernel_cfg_kernel_stride_width) + 5'd1;
  assign sh         = 5'(pdp_i.pooling_kernel_cfg_kernel_stride_height) + 5'd1;
  assign pad_l      = pdp_i.pooling_padding_cfg_pad_left;
  assign pad_t      = pdp_i.pooling_padding_cfg_pad_top;
  assign recip_w    = pdp_i.recip_kernel_width;
  assign recip_h    = pdp_i.recip_kernel_height;
  // surfaces = ceil(C / lanes per atom)
  assign surfaces   = wide ? 14'((14'(pdp_i.data_cube_in_channel) + 14'(Lanes / 2)) >> (AtomLog2 - 1))
                            : 14'((14'(pdp_i.data_cube_in_channel) + 14'(Lanes)) >> AtomLog2);
  assign pad_value  = {pdp_i.pooling_padding_value_7_cfg, pdp_i.pooling_padding_value_6_cfg,
                        pdp_i.pooling_padding_value_5_cfg, pdp_i.pooling_padding_value_4_cfg,
                        pdp_i.pooling_padding_value_3_cfg, pdp_i.pooling_padding_value_2_cfg,
                        pdp_i.pooling_padding_value_1_cfg};

  typedef enum logic [3:0] {
    SIdle, SSplit, SSurf, SVOpen, SHOpen, SStream, SHFlush, SRowEnd, SVFlush, SSurfEnd, SWaitWr
  } state_e;
  state_e st_q;

  logic [8:0]  split_q;
  logic [13:0] surf_q, row_q, col_q;       // input line h, input column x (atoms)
  logic [BeatW-1:0] beat_q;
  logic [13:0] win_q, wout_q;              // this split's input and output widths
  logic [2:0]  padl_q;                     // this split's left padding
  logic signed [31:0] out_off_q;           // atom offset of the next split's output
  // horizontal windows
  logic [13:0] h_lo_q, h_next_q;
  pos_t        h_start_lo_q, h_start_next_q;
  logic [7:0]  h_fresh_q;
  logic [Lanes-1:0][AccW-1:0] hacc_q [8];
  // vertical (output lines)
  logic [13:0] v_lo_q, v_next_q, vcol_q;
  pos_t        v_start_lo_q, v_start_next_q;
  logic [7:0]  v_fresh_q;
  logic [Lanes-1:0][AccW-1:0] lb_q [8][MaxOutW];
  // output
  logic [63:0] wsurf_base_q, wline_base_q, wsplit_base_q;

  logic [BeatW-1:0] beats;     // beats per atom
  assign beats = wide ? BeatW'(Lanes / 2 / T) : BeatW'(Lanes / T);
  logic last_beat;
  assign last_beat = beat_q == beats - BeatW'(1);

  function automatic logic [13:0] split_width(input logic [8:0] i, input logic is_out);
    logic signed [5:0] ov;
    ov = $signed({1'b0, kw}) - $signed({1'b0, sw});
    if (n_split == 9'd1) split_width = is_out ? out_w : in_w;
    else if (i == 9'd0) split_width = is_out ? 14'(pout_first) : 14'(pin_first);
    else if (i == n_split - 9'd1) split_width = is_out ? 14'(pout_last) : 14'($signed({3'b0, pin_last}) + 14'(ov));
    else split_width = is_out ? 14'(pout_mid) : 14'($signed({3'b0, pin_mid}) + 14'(ov));
  endfunction

  function automatic logic signed [AccW-1:0] padv(input logic [3:0] n);
    if (n == 4'd0 || n > 4'd7) padv = '0;
    else padv = AccW'($signed(pad_value[3'(n - 4'd1)]));
  endfunction

  // average: the window total of a finished output value, + KW x PAD_VALUE_{nrow}X (one product
  // for all lanes); |total| < 2^31 + 16 x 2^31 (TotW bits, signed)
  localparam int unsigned TotW = 38;

  // element of lane l of the input atom
  function automatic logic signed [AccW-1:0] element(input int unsigned l);
    if (wide) element = AccW'($signed(in_data_i[16*(l % (Lanes / 2)) +: 16]));
    else element = AccW'($signed(in_data_i[8*l +: 8]));
  endfunction

  // number of window positions outside [0, n): start_i s, kernel k
  function automatic logic [3:0] outside(input pos_t s, input logic [4:0] k, input logic [13:0] n);
    pos_t e, lo, hi;
    e  = s + pos_t'(k) - pos_t'(1);
    lo = s < 0 ? -s : '0;
    hi = e > pos_t'(n) - pos_t'(1) ? e - (pos_t'(n) - pos_t'(1)) : '0;
    outside = 4'(lo + hi);
  endfunction

  // ---- one beat of the datapath (combinational)
  logic        h_open_now, h_complete, v_complete, beat_has_h;
  logic [3:0]  h_nact, v_nact;
  logic [7:0]  h_active, v_active;
  logic [Lanes-1:0][AccW-1:0] hacc_d [8];
  logic [ColW-1:0] vcol;                // output column of the vertical update / flush
  logic [T-1:0][15:0] obeat;            // output values of the beat
  logic [7:0]  h_take, h_first;         // window k takes the beat's elements (as its first)
  logic [AccW-1:0] h_pad;               // added to an average's row result
  logic [TotW-1:0] v_pad;               // added to an average's total
  logic        emit;                    // the beat produces output
  pos_t        h_end_lo, v_end_lo;
  logic [3:0]  ncol, nrow;
  // The beat's T lanes are read and written through constant indexes, one branch per beat
  // (a run-time lane index synthesizes as shifts across all lanes: docs/RTL_CONVENTIONS.md).
  localparam int unsigned NBeats = Lanes / T;
  logic [T-1:0][AccW-1:0]     elem_b;          // input elements of the beat
  logic [T-1:0][7:0][AccW-1:0] hacc_b;        // the beat's lanes of each window accumulator
  logic [T-1:0][7:0][AccW-1:0] hnew_b;        // ... after this beat
  logic [Lanes-1:0][AccW-1:0]  lb_rd [8];     // line-buffer word of column vcol, each bank
  logic [Lanes-1:0][AccW-1:0]  lb_wr [8];     // ... with the beat's lanes replaced
  logic [T-1:0][7:0][AccW-1:0] lb_b;          // the beat's lanes of lb_rd
  logic [T-1:0][7:0][AccW-1:0] vnew;          // new line-buffer values of the beat's lanes

  // SVOpen / SHOpen open a window this cycle, and another one would follow
  logic v_open, v_open_more, h_open, h_open_more;
  assign v_open      = v_next_q < out_h && v_start_next_q <= pos_t'(row_q);
  assign v_open_more = v_next_q + 14'd1 < out_h && v_start_next_q + pos_t'(sh) <= pos_t'(row_q);
  assign h_open      = h_next_q < wout_q && h_start_next_q < 0;
  assign h_open_more = h_next_q + 14'd1 < wout_q && h_start_next_q + pos_t'(sw) < 0;
  assign h_end_lo   = h_start_lo_q + pos_t'(kw) - pos_t'(1);
  assign v_end_lo   = v_start_lo_q + pos_t'(kh) - pos_t'(1);
  assign h_open_now = st_q == SStream && h_next_q < wout_q && h_start_next_q == pos_t'(col_q);
  assign h_nact     = 4'(h_next_q - h_lo_q) + 4'(h_open_now);
  assign v_nact     = 4'(v_next_q - v_lo_q);
  assign h_complete = st_q == SStream ? (h_nact != 4'd0 && h_end_lo == pos_t'(col_q))
                                      : (st_q == SHFlush && h_lo_q < wout_q);
  assign beat_has_h = h_complete && v_nact != 4'd0;
  assign v_complete = v_nact != 4'd0 && v_end_lo == pos_t'(row_q);
  assign ncol       = outside(h_start_lo_q, kw, win_q);
  assign nrow       = outside(v_start_lo_q, kh, in_h);
  assign vcol       = st_q == SVFlush ? ColW'(vcol_q) : ColW'(h_lo_q);

  always_comb begin
    elem_b = '0;
    hacc_b = '0;
    lb_b   = '0;
    for (int k = 0; k < 8; k++) lb_rd[k] = lb_q[k][vcol];
    for (int unsigned b = 0; b < NBeats; b++) begin
      if (beat_q == BeatW'(b)) begin
        for (int unsigned t = 0; t < T; t++) begin
          elem_b[t] = element(b * T + t);
          for (int k = 0; k < 8; k++) begin
            hacc_b[t][k] = hacc_q[k][b * T + t];
            lb_b[t][k]   = lb_rd[k][b * T + t];
          end
        end
      end
    end
    for (int k = 0; k < 8; k++) begin
      // distance of slot / bank k from the oldest open one, mod 8 (3-bit result)
      h_active[k] = {1'b0, 3'(3'(k) - h_lo_q[2:0])} < h_nact;
      v_active[k] = {1'b0, 3'(3'(k) - v_lo_q[2:0])} < v_nact;
      h_take[k]   = st_q == SStream && h_active[k];
      h_first[k]  = h_fresh_q[k] || (h_open_now && 3'(k) == h_next_q[2:0]);
    end
    // the beat produces finished output values: from the line buffer (flush) or this update
    emit  = (st_q == SVFlush && v_lo_q < out_h) || (beat_has_h && v_complete);
    h_pad = padv(ncol);
    v_pad = TotW'($signed({1'b0, kw})) * TotW'(padv(nrow));
  end

  // the lanes' new accumulators and line-buffer values back into the beat's lanes
  always_comb begin
    for (int k = 0; k < 8; k++) begin
      hacc_d[k] = hacc_q[k];
      lb_wr[k]  = lb_rd[k];
      for (int unsigned b = 0; b < NBeats; b++) begin
        if (beat_q == BeatW'(b)) begin
          for (int unsigned t = 0; t < T; t++) begin
            hacc_d[k][b * T + t] = hnew_b[t][k];
            lb_wr[k][b * T + t]  = vnew[t][k];
          end
        end
      end
    end
  end

  logic [T-1:0][7:0][AccW-1:0] hnew_i, vnew_i;  // the integer lanes' results
  logic [T-1:0][15:0]          obeat_i;
  for (genvar t = 0; t < T; t++) begin : g_lane
    pdp_lane #(
      .AccW(AccW),
      .TotW(TotW)
    ) u_lane (
      .method_i (method),
      .elem_i   (elem_b[t]),
      .hacc_i   (hacc_b[t]),
      .h_take_i (h_take),
      .h_first_i(h_first),
      .h_sel_i  (h_lo_q[2:0]),
      .h_pad_i  (h_pad),
      .lb_i     (lb_b[t]),
      .v_first_i(v_fresh_q),
      .v_sel_i  (v_lo_q[2:0]),
      .flush_i  (st_q == SVFlush),
      .v_pad_i  (v_pad),
      .recip_w_i(recip_w),
      .recip_h_i(recip_h),
      .hacc_o   (hnew_i[t]),
      .lb_o     (vnew_i[t]),
      .out_o    (obeat_i[t])
    );
  end

  // fp16: the lanes in float; the beat's elements are elem_b's low 16 bits (16-bit lanes), the
  // pads padv()'s low 17 bits (fp17 patterns). The signals are declared here for both builds
  // (Yosys cannot size a packed array declared inside a generate block); without SupportFp16
  // they are 0 and unused.
  logic [16:0] h_pad17, pad_nrow17;
  assign h_pad17    = h_pad[16:0];
  assign pad_nrow17 = 17'(padv(nrow));
  logic [T-1:0]       nan_b;     // the beat's elements that are NaNs
  logic [T-1:0][15:0] elem16_b;  // ... flushed under NAN_TO_ZERO
  logic [T-1:0][7:0][AccW-1:0] hnew_f, vnew_f;  // the fp16 lanes' results
  logic [T-1:0][15:0] obeat_f;
  logic [16:0]        v_pad17, kw17;
  if (SupportFp16) begin : g_fp16
    dla_fp_from_int #(.IntW(12), .ExpW(6), .MantW(10)) u_kw17 (
      .a_i(12'(kw)),
      .z_o(kw17)
    );
    dla_fp_mul #(.ExpW(6), .MantW(10)) u_vpad (
      .a_i(pad_nrow17),
      .b_i(kw17),
      .z_o(v_pad17)
    );
    for (genvar t = 0; t < T; t++) begin : g_flush
      assign nan_b[t]    = dla_fp_pkg::fp16_is_nan(elem_b[t][14:0]);
      assign elem16_b[t] = (flush_nan && nan_b[t]) ? 16'h0000 : elem_b[t][15:0];
    end
    for (genvar t = 0; t < T; t++) begin : g_lane_fp
      pdp_lane_fp #(.AccW(AccW)) u_lane (
        .method_i  (method),
        .elem_i    (elem16_b[t]),
        .hacc_i    (hacc_b[t]),
        .h_take_i  (h_take),
        .h_first_i (h_first),
        .h_sel_i   (h_lo_q[2:0]),
        .h_pad_en_i(ncol != 4'd0),
        .h_pad_i   (h_pad17),
        .lb_i      (lb_b[t]),
        .v_first_i (v_fresh_q),
        .v_sel_i   (v_lo_q[2:0]),
        .flush_i   (st_q == SVFlush),
        .v_pad_en_i(nrow != 4'd0),
        .v_pad_i   (v_pad17),
        .recip_w_i (recip_w),
        .recip_h_i (recip_h),
        .hacc_o    (hnew_f[t]),
        .lb_o      (vnew_f[t]),
        .out_o     (obeat_f[t])
      );
    end
    assign hnew_b = fp16 ? hnew_f : hnew_i;
    assign vnew   = fp16 ? vnew_f : vnew_i;
    assign obeat  = fp16 ? obeat_f : obeat_i;
  end else begin : g_int_only
    assign nan_b     = '0;
    assign elem16_b  = '0;
    assign hnew_f    = '0;
    assign vnew_f    = '0;
    assign obeat_f   = '0;
    assign v_pad17   = '0;
    assign kw17      = '0;
    logic unused_fp16;  // fp16 is 0 without SupportFp16
    assign unused_fp16 = ^{fp16, h_pad17, pad_nrow17, flush_nan, nan_b, elem16_b, hnew_f, vnew_f,
                           obeat_f, v_pad17, kw17};
    assign hnew_b = hnew_i;
    assign vnew   = vnew_i;
    assign obeat  = obeat_i;
  end


  // ---- the beat's output to the writer
  logic go;  // the state machine advances a beat (below)
  assign out_fire_o  = go && emit;
  assign out_beat_o  = beat_q;
  assign out_last_o  = last_beat;
  assign out_value_o = obeat;
  assign out_addr_o  = wline_base_q + (64'(vcol) << AtomLog2);

  // ---- the state machine advances a beat when its input and output are there
  always_comb begin
    go = 1'b1;
    if (st_q == SStream && !in_valid_i) go = 1'b0;
    if (emit && !out_ready_i) go = 1'b0;
  end
  assign in_ready_o  = st_q == SStream && go && last_beat;
  assign done_o = st_q == SWaitWr && drained_i;

  logic [63:0] dst_base;
  assign dst_base = {pdp_i.dst_base_addr_high, pdp_i.dst_base_addr_low};

  always_ff @(posedge clk_i) begin
    if (go && (st_q == SStream || st_q == SHFlush)) begin
      for (int k = 0; k < 8; k++) hacc_q[k] <= hacc_d[k];
      if (beat_has_h) begin
        for (int k = 0; k < 8; k++) begin
          if (v_active[k]) lb_q[k][vcol] <= lb_wr[k];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q           <= SIdle;
      split_q        <= '0;
      surf_q         <= '0;
      row_q          <= '0;
      col_q          <= '0;
      beat_q         <= '0;
      win_q          <= '0;
      wout_q         <= '0;
      padl_q         <= '0;
      out_off_q      <= '0;
      h_lo_q         <= '0;
      h_next_q       <= '0;
      h_start_lo_q   <= '0;
      h_start_next_q <= '0;
      h_fresh_q      <= '0;
      v_lo_q         <= '0;
      v_next_q       <= '0;
      vcol_q         <= '0;
      v_start_lo_q   <= '0;
      v_start_next_q <= '0;
      v_fresh_q      <= '0;
      wsurf_base_q   <= '0;
      wline_base_q   <= '0;
      wsplit_base_q  <= '0;
    end else begin
      unique case (st_q)
        SIdle: if (start_i) begin
          st_q          <= SSplit;
          split_q       <= '0;
          out_off_q     <= 32'(pout_first);
          wsplit_base_q <= dst_base;
        end
        SSplit: begin
          win_q        <= split_width(split_q, 1'b0);
          wout_q       <= split_width(split_q, 1'b1);
          padl_q       <= split_q == 9'd0 ? pad_l : 3'd0;
          surf_q       <= '0;
          wsurf_base_q <= wsplit_base_q;
          st_q         <= SSurf;
        end
        SSurf: begin
          row_q          <= '0;
          v_lo_q         <= '0;
          v_next_q       <= '0;
          v_start_lo_q   <= -pos_t'(pad_t);
          v_start_next_q <= -pos_t'(pad_t);
          v_fresh_q      <= '0;
          wline_base_q   <= wsurf_base_q;
          st_q           <= SVOpen;
        end
        // One output line opened a cycle; the line's horizontal state is set up in the cycle of the
        // last opening (or alone when none opens), and SHOpen is skipped without left padding.
        SVOpen: begin
          if (v_open) begin
            v_fresh_q[v_next_q[2:0]] <= 1'b1;
            v_next_q       <= v_next_q + 14'd1;
            v_start_next_q <= v_start_next_q + pos_t'(sh);
          end
          if (!v_open || !v_open_more) begin
            h_lo_q         <= '0;
            h_next_q       <= '0;
            h_start_lo_q   <= -pos_t'(padl_q);
            h_start_next_q <= -pos_t'(padl_q);
            h_fresh_q      <= '0;
            col_q          <= '0;
            beat_q         <= '0;
            st_q           <= padl_q != 3'd0 ? SHOpen : SStream;
          end
        end
        // The windows starting in the left padding, one a cycle, the stream following the last.
        SHOpen: begin
          if (h_open) begin
            h_fresh_q[h_next_q[2:0]] <= 1'b1;
            h_next_q       <= h_next_q + 14'd1;
            h_start_next_q <= h_start_next_q + pos_t'(sw);
          end
          if (!h_open || !h_open_more) st_q <= SStream;
        end
        SStream: if (go) begin
          if (!last_beat) begin
            beat_q <= beat_q + BeatW'(1);
          end else begin
            beat_q    <= '0;
            h_fresh_q <= '0;
            if (h_open_now) begin
              h_next_q       <= h_next_q + 14'd1;
              h_start_next_q <= h_start_next_q + pos_t'(sw);
            end
            if (h_complete) begin
              h_lo_q       <= h_lo_q + 14'd1;
              h_start_lo_q <= h_start_lo_q + pos_t'(sw);
            end
            col_q <= col_q + 14'd1;
            // the line's last column: the windows reaching into the right padding, if any
            if (col_q + 14'd1 == win_q) st_q <= h_lo_q + 14'(h_complete) >= wout_q ? SRowEnd : SHFlush;
          end
        end
        SHFlush: begin
          if (h_lo_q >= wout_q) begin
            st_q <= SRowEnd;
          end else if (go) begin
            if (!last_beat) begin
              beat_q <= beat_q + BeatW'(1);
            end else begin
              beat_q       <= '0;
              h_lo_q       <= h_lo_q + 14'd1;
              h_start_lo_q <= h_start_lo_q + pos_t'(sw);
              if (h_lo_q + 14'd1 >= wout_q) st_q <= SRowEnd;
            end
          end
        end
        SRowEnd: begin
          v_fresh_q <= '0;
          if (v_complete) begin
            v_lo_q       <= v_lo_q + 14'd1;
            v_start_lo_q <= v_start_lo_q + pos_t'(sh);
            wline_base_q <= wline_base_q + 64'(pdp_i.dst_line_stride);
          end
          row_q <= row_q + 14'd1;
          vcol_q <= '0;
          beat_q <= '0;
          st_q  <= (row_q + 14'd1 == in_h) ? SVFlush : SVOpen;
        end
        SVFlush: begin
          if (v_lo_q >= out_h) begin
            st_q <= SSurfEnd;
          end else if (go) begin
            if (!last_beat) begin
              beat_q <= beat_q + BeatW'(1);
            end else begin
              beat_q <= '0;
              if (vcol_q + 14'd1 < wout_q) begin
                vcol_q <= vcol_q + 14'd1;
              end else begin
                vcol_q       <= '0;
                v_lo_q       <= v_lo_q + 14'd1;
                v_start_lo_q <= v_start_lo_q + pos_t'(sh);
                wline_base_q <= wline_base_q + 64'(pdp_i.dst_line_stride);
              end
            end
          end
        end
        SSurfEnd: begin
          if (surf_q + 14'd1 < surfaces) begin
            surf_q       <= surf_q + 14'd1;
            wsurf_base_q <= wsurf_base_q + 64'(pdp_i.dst_surface_stride);
            st_q         <= SSurf;
          end else if (split_q + 9'd1 < n_split) begin
            split_q       <= split_q + 9'd1;
            wsplit_base_q <= dst_base + 64'($signed(64'(out_off_q)) <<< AtomLog2);
            out_off_q     <= out_off_q + 32'(pout_mid);
            st_q          <= SSplit;
          end else begin
            st_q <= SWaitWr;
          end
        end
        SWaitWr: if (done_o) st_q <= SIdle;
        default: st_q <= SIdle;
      endcase
    end
  end
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: every state of the pooling state machine.
  for (genvar s = 0; s < 11; s++) begin : g_cov_st
    CovState: cover property (@(posedge clk_i) st_q == state_e'(s));
  end
`endif
endmodule
