// CDMA for direct convolution: two DMA read clients, as NVDLA's CDMA_DAT and CDMA_WT, each with
// its own requests in flight and in-order responses (conv_core puts a dla_dma_rd engine on each),
// writing CBUF's data part and weight ring through CBUF's two write ports, so their responses may
// interleave in any way. Fetch order: the input lines the first stripe needs, the first kernel
// group's weights, the rest of the input feature cube, then the rest of the weight byte stream --
// as a priority between the clients, not phases of one stream: the data client waits after the
// first lines until the first group's weights are all requested, and a weight request is
// presented only in a cycle the data client presents none to the port (dat_rd_port_i low: its
// walk is done, skipping, held, or out of credits), so the weights take the port time the data
// client leaves idle. That order lets CSC start after a few lines and one weight set while the
// rest is still arriving (one read port: a data-first order would idle the MACs for the whole
// cube; weights first would delay the cube the first group's last stripe needs). A weight request
// once presented stays presented until taken. A weight request asks for WtAtoms consecutive
// atoms where its offset is a multiple of WtAtoms atoms and the phase and the ring have room
// for them (WtAtoms = min(DmaAtoms, atoms per CBUF row): nv_full's 512-bit port carries two
// 32-byte atoms a beat), else one; the beat is written into the lanes of one ring row. Data
// requests read two atoms where the walk pairs them (conv_cdma_walk, columns x, x + 1): two rows
// in one write (direct; Winograd where x + PAD_LEFT is odd) or two lanes of one row.
//   * data: the walk of conv_cdma_walk (for each line h, channel atom a, w, conv-pipeline.md §3;
//     Winograd: placed into the channel-extended cube, padding left to CSC); the input converter
//     (D_CVT_CFG) is applied on the way in;
//   * weights: D_WEIGHT_BYTES bytes read linearly from D_WEIGHT_ADDR into the weight ring; a
//     read is issued only when its bytes do not overwrite weights CSC still needs
//     (wt_release_i: stream offset below which CSC is done). Compressed weights (cfg.wt_comp,
//     WmbRows > 0): the packed stream goes into the weight ring the same way, and the client also
//     reads D_WMB_BYTES of mask bits from D_WMB_ADDR into the mask ring (CBUF's last WmbRows rows,
//     bank 15; wmb_release_i paces it), alternating between the two streams request by request
//     (a stream without room or done leaves the turn to the other); the first-group phase is
//     then at most the ring's bytes (the packed group's size is only known from WGS, not read).
// dat_lines_o (complete input lines in CBUF) / wt_written_o tell CSC what has arrived; the
// *_pulse_o outputs mark the end of the data and of the weight fetch (CDMA_DAT / CDMA_WT
// interrupts); fetch_done_o holds from the layer's last response (data and weights) to the next
// start. The fetch can outlast the convolution: weight bytes past the last kernel up to
// WEIGHT_BYTES and input lines no output uses are read but not needed, so they may come back
// after CACC's last element. CBUF reuse (cfg.dat_reuse / wt_reuse, D_MISC_CFG DATA_REUSE /
// WEIGHT_REUSE): that client fetches nothing, shows every line / weight byte in CBUF from the
// start and ends its fetch the cycle after start; the data and weights the previous layer left
// in CBUF (same D_BANK, rows from 0) are the layer's. The RTL device's guard refuses reuse the
// previous layer did not leave (golden::cbuf_reuse_problems).
module conv_cdma #(
  parameter int unsigned AtomLog2       = 3,
  parameter int unsigned AtomicC        = 8,
  parameter bit          SupportInt16   = 1'b0,
  parameter bit          SupportFp16    = 1'b0,  // fp16 image input (conv_cdma_img_pack)
  parameter int unsigned CbufRows       = 16384,
  parameter int unsigned WtRdSlots      = 64,  // the weight client's reads in flight (its engine's)
  parameter int unsigned GroupKernels   = 8,  // kernels per kernel group at int8 (half at int16)
  parameter bit          SupportWino    = 1'b0,
  parameter bit          SupportWfold   = 1'b0,  // W-fold (cfg.wfold, docs/WFOLD.md)
  parameter int unsigned StripeLower    = 8,
  parameter int unsigned StripeUpper    = 16,
  parameter int unsigned DmaAtoms       = 1,  // atoms per DMA read beat (a power of two)
  parameter int unsigned WmbRows        = 0,  // rows of CBUF's mask ring (0: no compressed weights)
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes,
  localparam int unsigned DmaBits   = AtomBits * DmaAtoms,
  localparam int unsigned LenW      = DmaAtoms > 1 ? $clog2(DmaAtoms) : 1,
  localparam int unsigned WordW     = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowBytes  = WordW / 8,
  localparam int unsigned RowAtoms  = WordW / AtomBits,
  localparam int unsigned RowW      = $clog2(CbufRows)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  // DMA read, data client (CDMA_DAT)
  output logic                dat_rd_req_valid_o,
  input  logic                dat_rd_req_ready_i,
  output logic [63:0]         dat_rd_req_addr_o,
  output logic [LenW-1:0]     dat_rd_req_len_o,   // atoms - 1
  input  logic                dat_rd_port_i,      // a data request is presented to the port
  input  logic                dat_rd_rsp_valid_i,
  output logic                dat_rd_rsp_ready_o,
  input  logic [DmaBits-1:0]  dat_rd_rsp_data_i,
  // DMA read, weight client (CDMA_WT)
  output logic                wt_rd_req_valid_o,
  input  logic                wt_rd_req_ready_i,
  output logic [63:0]         wt_rd_req_addr_o,
  output logic [LenW-1:0]     wt_rd_req_len_o,
  input  logic                wt_rd_rsp_valid_i,
  output logic                wt_rd_rsp_ready_o,
  input  logic [DmaBits-1:0]  wt_rd_rsp_data_i,
  // CBUF writes
  output logic                dat_we_o,
  output logic [RowW-1:0]     dat_wrow_o,
  output logic [RowAtoms-1:0] dat_wmask_o,  // lanes of the row written
  output logic [WordW-1:0]    dat_wdata_o,
  output logic                dat_wnext_o,  // also write row dat_wrow_o + 1
  output logic [RowAtoms-1:0] dat_wmask1_o, // its lanes
  output logic [WordW-1:0]    dat_wdata1_o, // and data
  output logic                wt_we_o,
  output logic [RowW-1:0]     wt_wrow_o,    // ring row
  output logic [RowAtoms-1:0] wt_wmask_o,   // lanes of the ring row written
  output logic [WordW-1:0]    wt_wdata_o,   // lane l's atom at l x AtomBits
  output logic                wt_wmb_o,     // the weight write goes to the mask ring
  // to CSC
  input  logic [31:0]         wt_release_i,
  input  logic [31:0]         wmb_release_i, // mask bytes CSC is done with
  output logic [31:0]         wmb_written_o, // mask bytes in CBUF
  input  logic [RowW:0]       wt_ring_i,     // rows of the weight ring (D_BANK.WEIGHT_BANK)
  output logic [13:0]         dat_lines_o,
  output logic [31:0]         wt_written_o,
  output logic                dat_done_pulse_o,
  output logic                wt_done_pulse_o,
  output logic                fetch_done_o,
  // fp16 image input: NaN / Inf halves of the atom the response side takes (an fp16 format)
  output logic [5:0]          img_nan_o,
  output logic [5:0]          img_inf_o
);
  localparam int unsigned RowLog2  = $clog2(RowBytes);
  localparam int unsigned LaneW    = RowAtoms > 1 ? $clog2(RowAtoms) : 1;
  // atoms of a weight beat: the port's, at most a CBUF row's
  localparam int unsigned WtAtoms  = DmaAtoms < RowAtoms ? DmaAtoms : RowAtoms;
  localparam int unsigned WtLog2   = $clog2(WtAtoms);
  localparam bit          PairData = DmaAtoms > 1 && RowAtoms > 1;

  logic wino;
  assign wino = SupportWino && cfg_i.wino;

  // ---------------------------------------------------------------- requests
  // Phases of each client. Data requests: PhData0 (first_lines input lines), PhData (the other
  // lines; held while the weights are in PhWeight0), PhDone. Weight requests: PhWeight0 (the first
  // kernel group's bytes), PhWeight (the other bytes), PhDone. The response sides: PhData (or
  // PhWeight) until the last response, PhDone.
  typedef enum logic [2:0] {PhIdle, PhData0, PhWeight0, PhData, PhWeight, PhDone} phase_e;
  // Lines CSC needs first. Direct: those of the first output row, (R-1)*dy + 1 - PAD_TOP in
  // [1, H]. Winograd: those of the first stripe's tiles, 2*(tile rows) + 2 extended lines, i.e.
  // that times the stride minus PAD_TOP input lines, in [1, H].
  logic [13:0] first_lines, first_lines_wino;
  logic signed [15:0] span;
  assign span        = (16'(cfg_i.kern_h) - 16'd1) * 16'(cfg_i.dil_y) + 16'sd1 - 16'(cfg_i.pad_top);
  if (SupportWino) begin : g_first_wino
    logic [27:0] tpr, first_tiles;
    logic [13:0] first_rows, half_w, half_h;
    assign half_w      = cfg_i.out_w >> 1;
    assign half_h      = cfg_i.out_h >> 1;
    assign tpr         = 28'(half_w);
    assign first_tiles = conv_pkg::stripe_len(tpr * 28'(half_h), 28'(StripeLower), 28'(StripeUpper));
    always_comb begin
      first_rows = 14'(StripeUpper);
      for (int k = StripeUpper; k >= 1; k--) begin
        if (28'(k) * tpr >= first_tiles) first_rows = 14'(k);
      end
    end
    logic signed [16:0] first_src;
    logic [16:0]        first_ext;  // extended lines of the first stripe
    assign first_ext = 17'd2 * 17'(first_rows) + 17'd2;
    assign first_src = $signed(first_ext << (cfg_i.src_stride_y == 4'd2)) - $signed(17'(cfg_i.src_pad_top));
    assign first_lines_wino = (first_src < 17'sd1) ? 14'd1
                            : (first_src > $signed(17'(cfg_i.src_h))) ? cfg_i.src_h : 14'(first_src);
  end else begin : g_first_direct
    assign first_lines_wino = '0;
  end
  // batches: the walk's lines are slices (h*N + n), so the first output row needs N times as many
  logic [13:0] first_direct;
  assign first_direct = (span < 16'sd1) ? 14'd1 : (span > $signed(16'(cfg_i.in_h))) ? cfg_i.in_h : 14'(span);
  assign first_lines = wino ? first_lines_wino
                     : 14'(20'(first_direct) * (20'(cfg_i.batch_m1) + 20'd1));
  logic [31:0] w0_bytes;
  logic [5:0]  group_k;
  assign group_k  = (SupportInt16 && cfg_i.int16) ? 6'(GroupKernels / 2) : 6'(GroupKernels);
  logic [31:0] w0_full, ring_bytes;
  logic        comp;
  assign comp       = WmbRows > 0 && cfg_i.wt_comp;
  assign w0_full    = (32'(group_k) * 32'(cfg_i.byte_per_kernel) < cfg_i.wt_bytes)
                    ? 32'(group_k) * 32'(cfg_i.byte_per_kernel) : cfg_i.wt_bytes;
  assign ring_bytes = 32'(wt_ring_i) << RowLog2;
  assign w0_bytes   = (comp && ring_bytes < w0_full) ? ring_bytes : w0_full;

  // The data walk of each side: conv_cdma_walk, or in W-fold mode conv_cdma_fold_walk (one slot
  // of a folded row per step).
  logic              fold;
  logic              q_step, s_step, q_done, s_done, q_line_last, s_line_last, q_skip, s_skip;
  logic [13:0]       q_line, s_line, q_lines, s_lines;
  logic [63:0]       q_addr, s_addr;
  logic [RowW-1:0]   s_row;
  logic [LaneW-1:0]  s_lane, s_lane1;
  logic              s_pair_row;
  logic              d_q_done, d_s_done, d_q_line_last, d_s_line_last, d_q_skip, d_s_skip;
  logic              d_q_pair, d_s_pair, q_pair, s_pair;
  logic [13:0]       d_q_line, d_s_line, d_q_lines, d_s_lines;
  logic [63:0]       d_q_addr, d_s_addr;
  logic [RowW-1:0]   d_q_row, d_s_row;
  logic [LaneW-1:0]  d_q_lane, d_s_lane, d_q_lane1, d_s_lane1;
  logic              d_q_pair_row, d_s_pair_row;
  conv_cdma_walk #(
    .AtomLog2(AtomLog2), .AtomicC(AtomicC), .SupportInt16(SupportInt16), .SupportWino(SupportWino),
    .CbufRows(CbufRows), .PairData(PairData)
  ) u_req_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(q_step),
    .line_o(c_q_line), .lines_o(c_q_lines), .done_o(c_q_done), .line_last_o(c_q_line_last),
    .pair_o(c_q_pair), .skip_o(c_q_skip), .addr_o(c_q_addr), .row_o(d_q_row), .lane_o(d_q_lane),
    .pair_row_o(d_q_pair_row), .lane1_o(d_q_lane1)
  );
  conv_cdma_walk #(
    .AtomLog2(AtomLog2), .AtomicC(AtomicC), .SupportInt16(SupportInt16), .SupportWino(SupportWino),
    .CbufRows(CbufRows), .PairData(PairData)
  ) u_rsp_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(s_step),
    .line_o(c_s_line), .lines_o(c_s_lines), .done_o(c_s_done), .line_last_o(c_s_line_last),
    .pair_o(c_s_pair), .skip_o(c_s_skip), .addr_o(c_s_addr), .row_o(d_s_row), .lane_o(d_s_lane),
    .pair_row_o(d_s_pair_row), .lane1_o(d_s_lane1)
  );

  // Image input (cfg.img): conv_cdma_img_walk takes the walk's place on both sides (one step per
  // pixel and plane, then a flush step per line; no pairs), conv_cdma_img_pack assembles the
  // CBUF lines from the responses (docs/IMAGE_INPUT.md "RTL").
  logic              img;
  logic              c_q_done, c_s_done, c_q_line_last, c_s_line_last, c_q_skip, c_s_skip;
  logic              c_q_pair, c_s_pair;
  logic [13:0]       c_q_line, c_s_line, c_q_lines, c_s_lines;
  logic [63:0]       c_q_addr, c_s_addr;
  logic              i_q_done, i_s_done, i_q_line_last, i_s_line_last, i_q_skip, i_s_skip;
  logic [13:0]       i_q_line, i_s_line, i_q_lines, i_s_lines;
  logic [63:0]       i_q_addr, i_s_addr;
  logic              i_q_plane, i_q_pad, i_q_emit, i_s_plane, i_s_pad, i_s_emit;
  logic [AtomLog2-1:0] i_q_off0, i_q_off1, i_s_off0, i_s_off1;
  logic              img_we;
  logic [RowW-1:0]   img_row;
  logic [WordW-1:0]  img_data;
  assign img = cfg_i.img;
  conv_cdma_img_walk #(.AtomLog2(AtomLog2)) u_req_img (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(q_step),
    .line_o(i_q_line), .lines_o(i_q_lines), .done_o(i_q_done), .line_last_o(i_q_line_last),
    .skip_o(i_q_skip), .addr_o(i_q_addr), .plane_o(i_q_plane), .pad_o(i_q_pad), .emit_o(i_q_emit),
    .off0_o(i_q_off0), .off1_o(i_q_off1)
  );
  conv_cdma_img_walk #(.AtomLog2(AtomLog2)) u_rsp_img (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(s_step),
    .line_o(i_s_line), .lines_o(i_s_lines), .done_o(i_s_done), .line_last_o(i_s_line_last),
    .skip_o(i_s_skip), .addr_o(i_s_addr), .plane_o(i_s_plane), .pad_o(i_s_pad), .emit_o(i_s_emit),
    .off0_o(i_s_off0), .off1_o(i_s_off1)
  );
  // a step that is not skipped takes a response (the walk's rule on both sides)
  conv_cdma_img_pack #(
    .AtomLog2(AtomLog2), .WordW(WordW), .SupportInt16(SupportInt16), .SupportFp16(SupportFp16), .RowW(RowW)
  ) u_img_pack (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(img && s_step),
    .rd_i(!s_skip), .data_i(dat_rd_rsp_data_i[AtomBits-1:0]), .plane_i(i_s_plane), .pad_i(i_s_pad),
    .emit_i(i_s_emit), .flush_i(i_s_line_last), .off0_i(i_s_off0), .off1_i(i_s_off1),
    .we_o(img_we), .row_o(img_row), .data_o(img_data), .nan_o(img_nan_o), .inf_o(img_inf_o)
  );
  assign d_q_line      = img ? i_q_line : c_q_line;
  assign d_q_lines     = img ? i_q_lines : c_q_lines;
  assign d_q_done      = img ? i_q_done : c_q_done;
  assign d_q_line_last = img ? i_q_line_last : c_q_line_last;
  assign d_q_pair      = !img && c_q_pair;
  assign d_q_skip      = img ? i_q_skip : c_q_skip;
  assign d_q_addr      = img ? i_q_addr : c_q_addr;
  assign d_s_line      = img ? i_s_line : c_s_line;
  assign d_s_lines     = img ? i_s_lines : c_s_lines;
  assign d_s_done      = img ? i_s_done : c_s_done;
  assign d_s_line_last = img ? i_s_line_last : c_s_line_last;
  assign d_s_pair      = !img && c_s_pair;
  assign d_s_skip      = img ? i_s_skip : c_s_skip;
  assign d_s_addr      = img ? i_s_addr : c_s_addr;
  logic unused_img;
  assign unused_img = ^{i_q_plane, i_q_pad, i_q_emit, i_q_off0, i_q_off1};

  logic [AtomBits-1:0] cvt_data;  // the response through the input converter (D_CVT_CFG)

  // W-fold: the response side assembles each CBUF row from its slots (docs/WFOLD.md).
  logic [WordW-1:0]    fold_row;
  logic [RowAtoms-1:0] fold_mask;
  logic                fold_we;
  if (SupportWfold) begin : g_fold
    logic              f_q_done, f_s_done, f_q_line_last, f_s_line_last, f_q_skip, f_s_skip;
    logic [13:0]       f_q_line, f_s_line, f_q_lines, f_s_lines;
    logic [63:0]       f_q_addr, f_s_addr;
    logic [RowW-1:0]   f_q_row, f_s_row;
    logic [RowAtoms-1:0] f_q_mask, f_s_mask;
    logic [AtomLog2-1:0] f_q_src, f_s_src;
    logic [RowLog2-1:0]  f_q_dst, f_s_dst;
    logic [AtomLog2:0]   f_q_bytes, f_s_bytes;
    logic [RowLog2:0]    f_q_shift, f_s_shift;
    logic              f_q_first, f_q_reuse, f_q_last, f_s_first, f_s_reuse, f_s_last;
    conv_cdma_fold_walk #(
      .AtomLog2(AtomLog2), .AtomicC(AtomicC), .SupportInt16(SupportInt16), .CbufRows(CbufRows)
    ) u_req_fold (
      .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(q_step),
      .line_o(f_q_line), .lines_o(f_q_lines), .done_o(f_q_done), .line_last_o(f_q_line_last),
      .skip_o(f_q_skip), .addr_o(f_q_addr), .row_o(f_q_row), .mask_o(f_q_mask),
      .src_off_o(f_q_src), .dst_off_o(f_q_dst), .bytes_o(f_q_bytes), .row_first_o(f_q_first),
      .reuse_o(f_q_reuse), .shift_o(f_q_shift), .row_last_o(f_q_last)
    );
    conv_cdma_fold_walk #(
      .AtomLog2(AtomLog2), .AtomicC(AtomicC), .SupportInt16(SupportInt16), .CbufRows(CbufRows)
    ) u_rsp_fold (
      .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .cfg_i(cfg_i), .step_i(s_step),
      .line_o(f_s_line), .lines_o(f_s_lines), .done_o(f_s_done), .line_last_o(f_s_line_last),
      .skip_o(f_s_skip), .addr_o(f_s_addr), .row_o(f_s_row), .mask_o(f_s_mask),
      .src_off_o(f_s_src), .dst_off_o(f_s_dst), .bytes_o(f_s_bytes), .row_first_o(f_s_first),
      .reuse_o(f_s_reuse), .shift_o(f_s_shift), .row_last_o(f_s_last)
    );
    assign fold        = cfg_i.wfold;
    assign q_line      = fold ? f_q_line : d_q_line;
    assign q_lines     = fold ? f_q_lines : d_q_lines;
    assign q_done      = fold ? f_q_done : d_q_done;
    assign q_line_last = fold ? f_q_line_last : d_q_line_last;
    assign q_skip      = fold ? f_q_skip : d_q_skip;
    assign q_addr      = fold ? f_q_addr : d_q_addr;
    assign q_pair      = !fold && d_q_pair;
    assign s_pair      = !fold && d_s_pair;
    assign s_line      = fold ? f_s_line : d_s_line;
    assign s_lines     = fold ? f_s_lines : d_s_lines;
    assign s_done      = fold ? f_s_done : d_s_done;
    assign s_line_last = fold ? f_s_line_last : d_s_line_last;
    assign s_skip      = fold ? f_s_skip : d_s_skip;
    assign s_addr      = fold ? f_s_addr : d_s_addr;
    assign s_row       = fold ? f_s_row : d_s_row;
    assign s_lane      = d_s_lane;
    assign s_lane1     = d_s_lane1;
    assign s_pair_row  = d_s_pair_row;

    conv_cdma_fold_row #(
      .AtomLog2(AtomLog2), .AtomicC(AtomicC), .SupportInt16(SupportInt16)
    ) u_fold_row (
      .clk_i(clk_i), .rst_ni(rst_ni), .step_i(fold && s_step), .int16_i(cfg_i.int16),
      .pad_value_i(cfg_i.src_pad_value), .pad_i(f_s_skip), .first_i(f_s_first), .reuse_i(f_s_reuse),
      .shift_i(f_s_shift), .src_off_i(f_s_src), .dst_off_i(f_s_dst), .bytes_i(f_s_bytes),
      .data_i(cvt_data), .row_o(fold_row)
    );
    assign fold_mask = f_s_mask;
    assign fold_we   = fold && s_step && f_s_last;

    logic unused_fold;
    assign unused_fold = ^{f_q_row, f_q_mask, f_q_src, f_q_dst, f_q_bytes, f_q_first, f_q_reuse, f_q_shift,
                           f_q_last};
  end else begin : g_no_fold
    assign fold        = 1'b0;
    assign q_line      = d_q_line;
    assign q_lines     = d_q_lines;
    assign q_done      = d_q_done;
    assign q_line_last = d_q_line_last;
    assign q_skip      = d_q_skip;
    assign q_addr      = d_q_addr;
    assign q_pair      = d_q_pair;
    assign s_pair      = d_s_pair;
    assign s_line      = d_s_line;
    assign s_lines     = d_s_lines;
    assign s_done      = d_s_done;
    assign s_line_last = d_s_line_last;
    assign s_skip      = d_s_skip;
    assign s_addr      = d_s_addr;
    assign s_row       = d_s_row;
    assign s_lane      = d_s_lane;
    assign s_lane1     = d_s_lane1;
    assign s_pair_row  = d_s_pair_row;
    assign fold_row    = '0;
    assign fold_mask   = '0;
    assign fold_we     = 1'b0;
  end

  phase_e      dq_ph_q, wq_ph_q;  // data / weight request phase
  logic [31:0] qo_q;
  logic        q_dat, dat_hold, wt_held_q, q_last_o, q_last_o0, wt_room, dat_fire, wt_fire;
  logic [31:0] q_bytes;  // bytes of this weight request: one atom or WtAtoms
  logic [32:0] wt_limit; // ring room: stream offsets below this may be written
  logic        q_wide;
  // compressed weights: the mask stream (mo_q bytes requested), q_msk selects it for this request
  logic [31:0] mo_q, q_off;
  logic        q_msk, msk_held_q, sel_q, d_can, m_can, q_d_done, q_m_done;
  logic [32:0] wmb_limit;

  // past the first lines, the data client waits for the first kernel group's weight requests
  assign dat_hold = dq_ph_q == PhData && wq_ph_q == PhWeight0;
  assign q_dat    = dq_ph_q == PhData0 || (dq_ph_q == PhData && !dat_hold);
  assign wt_limit = 33'(wt_release_i) + (33'(wt_ring_i) << RowLog2);
  assign wmb_limit = 33'(wmb_release_i) + 33'(WmbRows * RowBytes);
  // the two streams of a compressed layer take turns (sel_q: the mask's turn); a held request
  // keeps its stream
  assign wt_room   = 33'(qo_q) + 33'(AtomBytes) <= wt_limit;
  assign d_can     = (!comp || qo_q < cfg_i.wt_bytes) && wt_room;
  assign m_can     = comp && mo_q < cfg_i.wmb_bytes && 33'(mo_q) + 33'(AtomBytes) <= wmb_limit;
  assign q_msk     = wt_held_q ? msk_held_q : m_can && (sel_q || !d_can);
  assign q_off     = q_msk ? mo_q : qo_q;
  if (WtAtoms > 1) begin : g_q_wide
    // aligned, every atom starts inside the phase, and the ring has room for all of them
    logic [31:0] q_end;
    assign q_end  = q_msk ? cfg_i.wmb_bytes : (wq_ph_q == PhWeight0) ? w0_bytes : cfg_i.wt_bytes;
    assign q_wide = q_off[AtomLog2 +: WtLog2] == '0 &&
                    q_off + 32'((WtAtoms - 1) * AtomBytes) < q_end &&
                    33'(q_off) + 33'(WtAtoms * AtomBytes) <= (q_msk ? wmb_limit : wt_limit);
  end else begin : g_q_narrow
    assign q_wide = 1'b0;
  end
  assign q_bytes   = q_wide ? 32'(WtAtoms * AtomBytes) : 32'(AtomBytes);
  // the streams done after this request: the client's last request when both are
  assign q_d_done  = q_msk ? qo_q >= cfg_i.wt_bytes : qo_q + q_bytes >= cfg_i.wt_bytes;
  assign q_m_done  = !comp || (q_msk ? mo_q + q_bytes >= cfg_i.wmb_bytes : mo_q >= cfg_i.wmb_bytes);
  assign q_last_o  = q_d_done && q_m_done;
  assign q_last_o0 = !q_msk && qo_q + q_bytes >= w0_bytes;

  assign dat_rd_req_addr_o  = q_addr;
  assign dat_rd_req_len_o   = q_pair ? LenW'(1) : '0;
  assign dat_rd_req_valid_o = q_dat && !q_skip;
  assign dat_fire           = dat_rd_req_valid_o && dat_rd_req_ready_i;
  // a skipped atom takes a step without a read
  assign q_step             = q_dat && (q_skip || dat_fire);
  assign wt_rd_req_addr_o   = q_msk ? cfg_i.wmb_addr + 64'(mo_q) : cfg_i.wt_addr + 64'(qo_q);
  assign wt_rd_req_len_o    = q_wide ? LenW'(WtAtoms - 1) : '0;
  assign wt_rd_req_valid_o  = (wq_ph_q == PhWeight0 || wq_ph_q == PhWeight) && (q_msk ? m_can : d_can) &&
                              (!dat_rd_port_i || wt_held_q);
  assign wt_fire            = wt_rd_req_valid_o && wt_rd_req_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_ph_q   <= PhIdle;
      wq_ph_q   <= PhIdle;
      qo_q      <= '0;
      mo_q      <= '0;
      wt_held_q <= 1'b0;
      msk_held_q <= 1'b0;
      sel_q     <= 1'b0;
    end else if (start_i) begin
      // reuse: what CBUF holds is this layer's, the client has nothing to request
      dq_ph_q   <= cfg_i.dat_reuse ? PhDone : PhData0;
      wq_ph_q   <= cfg_i.wt_reuse ? PhDone : PhWeight0;
      qo_q      <= '0;
      mo_q      <= '0;
      wt_held_q <= 1'b0;
      msk_held_q <= 1'b0;
      sel_q     <= 1'b0;
    end else begin
      wt_held_q <= wt_rd_req_valid_o && !wt_rd_req_ready_i;
      msk_held_q <= q_msk;
      if (q_step && q_line_last) begin
        if (q_line + 14'd1 == q_lines) begin
          dq_ph_q <= PhDone;
        end else if (dq_ph_q == PhData0 && q_line + 14'd1 >= first_lines) begin
          dq_ph_q <= PhData;
        end
      end
      if (wt_fire) begin
        sel_q <= !q_msk;
        if (q_msk) mo_q <= mo_q + q_bytes;
        else qo_q <= qo_q + q_bytes;
        if (q_last_o) begin
          wq_ph_q <= PhDone;
        end else if (wq_ph_q == PhWeight0 && q_last_o0) begin
          wq_ph_q <= PhWeight;
        end
      end
    end
  end

  // ---------------------------------------------------------------- responses -> CBUF
  // Each response side walks its client's sequence; a skipped atom takes no response. The two
  // are independent: a data and a weight response may be written in the same cycle (CBUF's data
  // and weight write ports).
  phase_e      dr_ph_q, wr_ph_q;  // data / weight response phase
  logic [31:0] so_q;
  logic        s_dat, s_last_o, s_dat_fire, s_wt_fire, s_wide;
  logic [31:0] s_bytes, sm_q, s_off;
  logic        s_msk;  // the response is mask bits (compressed weights)
  assign s_dat     = dr_ph_q == PhData;
  // The width (and, compressed, the stream) of each weight request, in request order, for its
  // response (the request side's choice depends on the rings' room at the time).
  if (WtAtoms > 1) begin : g_wide_fifo
    logic wide_valid, wide_ready;
    logic [$clog2(WtRdSlots + 1)-1:0] wide_level;
    dla_fifo #(
      .Depth      (WtRdSlots),
      .Width      (2),
      .FallThrough(1'b1)
    ) u_wide (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (wt_fire),
      .in_ready_o (wide_ready),  // never full: it holds at most the weight reads in flight
      .in_data_i  ({q_msk, q_wide}),
      .out_valid_o(wide_valid),
      .out_ready_i(s_wt_fire),
      .out_data_o ({s_msk, s_wide}),
      .level_o    (wide_level)
    );
    logic unused_wide;
    assign unused_wide = ^{wide_valid, wide_ready, wide_level};
  end else begin : g_no_wide_fifo
    assign s_wide = 1'b0;
    assign s_msk  = 1'b0;  // WmbRows is 0 where a beat is one atom (nv_small)
  end
  assign s_bytes   = s_wide ? 32'(WtAtoms * AtomBytes) : 32'(AtomBytes);
  assign s_off     = s_msk ? sm_q : so_q;
  assign s_last_o  = (s_msk ? so_q >= cfg_i.wt_bytes : so_q + s_bytes >= cfg_i.wt_bytes) &&
                     (!comp || (s_msk ? sm_q + s_bytes >= cfg_i.wmb_bytes : sm_q >= cfg_i.wmb_bytes));
  assign dat_rd_rsp_ready_o = s_dat && !s_skip;
  assign s_dat_fire = dat_rd_rsp_valid_i && dat_rd_rsp_ready_o;
  assign s_step     = s_dat && (s_skip || s_dat_fire);
  assign wt_rd_rsp_ready_o = wr_ph_q == PhWeight;
  assign s_wt_fire  = wt_rd_rsp_valid_i && wt_rd_rsp_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dr_ph_q <= PhIdle;
      wr_ph_q <= PhIdle;
      so_q    <= '0;
      sm_q    <= '0;
    end else if (start_i) begin
      dr_ph_q <= cfg_i.dat_reuse ? PhDone : PhData;
      wr_ph_q <= cfg_i.wt_reuse ? PhDone : PhWeight;
      // reused weights are all in the ring already (the previous layer's, from row 0)
      so_q    <= cfg_i.wt_reuse ? cfg_i.wt_bytes : '0;
      sm_q    <= cfg_i.wt_reuse && comp ? cfg_i.wmb_bytes : '0;
    end else begin
      if (s_step && s_line_last && s_line + 14'd1 == s_lines) begin
        dr_ph_q <= PhDone;
      end
      if (s_wt_fire) begin
        if (s_msk) sm_q <= sm_q + s_bytes;
        else so_q <= so_q + s_bytes;
        if (s_last_o) begin
          wr_ph_q <= PhDone;
        end
      end
    end
  end

  // Ring row of the weight stream offset so_q: so_q / RowBytes mod wt_ring_i, kept by stepping
  // (the ring is any number of banks, not a power of two).
  logic [RowW:0] wt_row_q, wm_row_q;  // ring rows of so_q and (mask ring) of sm_q
  logic          wt_row_end;  // the beat at s_off ends its row
  logic [LaneW-1:0] wt_lane;  // lane of the beat's first atom
  if (RowAtoms == 1) begin : g_row_end1
    assign wt_row_end = 1'b1;
    assign wt_lane    = '0;
  end else begin : g_row_end
    assign wt_lane    = s_off[AtomLog2 +: LaneW];
    assign wt_row_end = (32'(wt_lane) + (s_bytes >> AtomLog2)) == 32'(RowAtoms);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wt_row_q <= '0;
    end else if (start_i) begin
      wt_row_q <= '0;
    end else if (s_wt_fire && wt_row_end && !s_msk) begin
      wt_row_q <= (wt_row_q + 1'b1 == wt_ring_i) ? '0 : wt_row_q + 1'b1;
    end
  end
  if (WmbRows > 0) begin : g_wm_row
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wm_row_q <= '0;
      end else if (start_i) begin
        wm_row_q <= '0;
      end else if (s_wt_fire && wt_row_end && s_msk) begin
        wm_row_q <= (wm_row_q + 1'b1 == (RowW + 1)'(WmbRows)) ? '0 : wm_row_q + 1'b1;
      end
    end
  end else begin : g_no_wm_row
    assign wm_row_q = '0;
  end

  // The input converter on the beat's first atom, or on both where data reads come in pairs.
  localparam int unsigned CvtAtoms = PairData ? 2 : 1;
  logic [CvtAtoms*AtomBits-1:0] cvt_beat;
  conv_cdma_cvt #(
    .AtomBytes   (CvtAtoms * AtomBytes),
    .SupportInt16(SupportInt16)
  ) u_cvt (
    .en_i      (cfg_i.cvt_en),
    .int16_i   (cfg_i.int16),
    .offset_i  (cfg_i.cvt_offset),
    .scale_i   (cfg_i.cvt_scale),
    .truncate_i(cfg_i.cvt_truncate),
    .data_i    (dat_rd_rsp_data_i[CvtAtoms*AtomBits-1:0]),
    .data_o    (cvt_beat)
  );
  assign cvt_data = cvt_beat[AtomBits-1:0];
  // A pair's second atom goes to lane s_lane1 of the same row (pair_row: Winograd's even
  // extended column, lanes l and l + 1; a shared direct entry) or of the next row (direct: the
  // same lane; Winograd's odd extended column: lane l - 1), conv_cdma_walk's rule.
  logic [WordW-1:0]    dat_word;
  logic [RowAtoms-1:0] dat_lanes;
  if (PairData) begin : g_pair_row
    logic one_row;
    assign one_row = s_pair && s_pair_row;
    for (genvar j = 0; j < RowAtoms; j++) begin : g_lane
      assign dat_word[j*AtomBits +: AtomBits] = (one_row && LaneW'(j) == s_lane1)
                                              ? cvt_beat[CvtAtoms*AtomBits-1 -: AtomBits] : cvt_data;
    end
    assign dat_lanes    = (RowAtoms'(1) << s_lane) | (one_row ? RowAtoms'(1) << s_lane1 : '0);
    assign dat_wnext_o  = !fold && s_pair && !one_row && s_dat && s_dat_fire;
    assign dat_wmask1_o = RowAtoms'(1) << s_lane1;
    assign dat_wdata1_o = {RowAtoms{cvt_beat[CvtAtoms*AtomBits-1 -: AtomBits]}};
  end else begin : g_no_pair_row
    assign dat_word     = {RowAtoms{cvt_data}};
    assign dat_lanes    = RowAtoms'(1) << s_lane;
    assign dat_wnext_o  = 1'b0;
    assign dat_wmask1_o = '0;
    assign dat_wdata1_o = '0;
    logic unused_pair;
    assign unused_pair = ^{s_pair, s_pair_row, s_lane1, cvt_beat};
  end


  assign dat_we_o    = img ? img_we : fold ? fold_we : s_dat && s_dat_fire;
  assign dat_wrow_o  = img ? img_row : s_row;
  assign dat_wmask_o = img ? '1 : fold ? fold_mask : dat_lanes;
  assign dat_wdata_o = img ? img_data : fold ? fold_row : dat_word;
  assign wt_we_o     = s_wt_fire;
  assign wt_wrow_o   = s_msk ? RowW'(wm_row_q) : RowW'(wt_row_q);
  assign wt_wmb_o    = s_msk;
  assign wmb_written_o = sm_q;
  // a one-atom beat goes to its lane, a wide one (aligned) to WtAtoms lanes from its lane: the
  // beat's atoms repeated along the row put atom j at lane (lane + j)
  assign wt_wmask_o  = (s_wide ? RowAtoms'((1 << WtAtoms) - 1) : RowAtoms'(1)) << wt_lane;
  assign wt_wdata_o  = s_wide ? {(RowAtoms / WtAtoms){wt_rd_rsp_data_i[WtAtoms*AtomBits-1:0]}}
                              : {RowAtoms{wt_rd_rsp_data_i[AtomBits-1:0]}};

  // Lines complete in CBUF (reset at start). Winograd: extended lines, whose input lines
  // (ye*sy + py - PAD_TOP, all phases) have all arrived; padding lines need none.
  logic [14:0] ext_lines;
  assign ext_lines   = (15'(s_line) + 15'(cfg_i.src_pad_top)) >> (cfg_i.src_stride_y == 4'd2);
  // CBUF reuse (cfg.dat_reuse / wt_reuse): every line is in CBUF from the start, and the fetch
  // that did not happen ends the cycle after start (its CDMA_DAT / CDMA_WT interrupt)
  logic dat_all_q, dat_reused_q, wt_reused_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dat_all_q    <= 1'b0;
      dat_reused_q <= 1'b0;
      wt_reused_q  <= 1'b0;
    end else begin
      if (start_i) dat_all_q <= cfg_i.dat_reuse;
      dat_reused_q <= start_i && cfg_i.dat_reuse;
      wt_reused_q  <= start_i && cfg_i.wt_reuse;
    end
  end
  assign dat_lines_o = dat_all_q ? '1
                     : !wino ? s_line
                     : (s_done || ext_lines >= 15'(cfg_i.out_h) + 15'd2) ? cfg_i.out_h + 14'd2 : 14'(ext_lines);
  assign wt_written_o     = so_q;
  assign dat_done_pulse_o = (s_step && s_line_last && s_line + 14'd1 == s_lines) || dat_reused_q;
  assign wt_done_pulse_o  = (wt_we_o && s_last_o) || wt_reused_q;
  assign fetch_done_o     = dr_ph_q == PhDone && wr_ph_q == PhDone;

  logic unused;
  assign unused = ^{cfg_i, s_addr, d_q_row, d_q_lane, d_q_lane1, d_q_pair_row, q_done, dat_rd_rsp_data_i, wt_rd_rsp_data_i,
                    q_off, s_off, wm_row_q};
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the request and response phase sequencers, the held
  // data client and a weight request taken beside data responses.
  for (genvar s = 0; s < 6; s++) begin : g_cov_dq_ph
    if (s != PhWeight0 && s != PhWeight) begin : g_st
      CovState: cover property (@(posedge clk_i) dq_ph_q == phase_e'(s));
    end
  end
  for (genvar s = 0; s < 6; s++) begin : g_cov_wq_ph
    if (s != PhData0 && s != PhData) begin : g_st
      CovState: cover property (@(posedge clk_i) wq_ph_q == phase_e'(s));
    end
  end
  CovDatHold: cover property (@(posedge clk_i) dat_hold);
  CovBothRsp: cover property (@(posedge clk_i) s_dat_fire && s_wt_fire);
  CovWtBackfill: cover property (@(posedge clk_i) wt_fire && dq_ph_q != PhDone && !dat_hold);
  CovDatReuse: cover property (@(posedge clk_i) dat_reused_q);
  CovWtReuse: cover property (@(posedge clk_i) wt_reused_q);
`endif
endmodule
