// CDMA for direct convolution: fetches the input lines the first stripe needs, the first kernel
// group's weights, the rest of the input feature cube, then the rest of the weight byte stream,
// through the DMA read port (one atom per request, responses in request order, up to
// MaxOutstanding reads in flight), and writes them into CBUF. That order lets CSC start after a
// few lines and one weight set while the rest is still arriving (one read port: a data-first
// order would idle the MACs for the whole cube).
//   * data: for each line h, for each channel atom a, for each w (conv-pipeline.md §3); atom
//     (h, a, w) lands in data row h*NB*W + (a / ApB)*W + w, lane a mod ApB, where NB is the
//     number of channel blocks (AtomicC channels) and ApB the atoms per block; the input
//     converter (D_CVT_CFG) is applied on the way in;
//   * weights: D_WEIGHT_BYTES bytes read linearly from D_WEIGHT_ADDR into the weight ring; a
//     read is issued only when its bytes do not overwrite weights CSC still needs
//     (wt_release_i: stream offset below which CSC is done).
// dat_lines_o (complete input lines in CBUF) / wt_written_o tell CSC what has arrived; the
// *_pulse_o outputs mark the end of the data and of the weight fetch (CDMA_DAT / CDMA_WT
// interrupts).
module conv_cdma #(
  parameter int unsigned AtomLog2       = 3,
  parameter int unsigned AtomicC        = 8,
  parameter bit          SupportInt16   = 1'b0,
  parameter int unsigned DataRows       = 8192,
  parameter int unsigned WtRows         = 8192,
  parameter int unsigned MaxOutstanding = 64,
  parameter int unsigned GroupKernels   = 8,  // kernels per kernel group at int8 (half at int16)
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes,
  localparam int unsigned WordW     = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowBytes  = WordW / 8,
  localparam int unsigned RowAtoms  = WordW / AtomBits,
  localparam int unsigned LaneW     = RowAtoms > 1 ? $clog2(RowAtoms) : 1,
  localparam int unsigned DRowW     = $clog2(DataRows),
  localparam int unsigned WRowW     = $clog2(WtRows)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  // DMA read
  output logic                dma_rd_req_valid_o,
  input  logic                dma_rd_req_ready_i,
  output logic [63:0]         dma_rd_req_addr_o,
  input  logic                dma_rd_rsp_valid_i,
  output logic                dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0] dma_rd_rsp_data_i,
  // CBUF writes
  output logic                dat_we_o,
  output logic [DRowW-1:0]    dat_wrow_o,
  output logic [LaneW-1:0]    dat_wlane_o,
  output logic [AtomBits-1:0] dat_wdata_o,
  output logic                wt_we_o,
  output logic [WRowW-1:0]    wt_wrow_o,
  output logic [LaneW-1:0]    wt_wlane_o,
  output logic [AtomBits-1:0] wt_wdata_o,
  // to CSC
  input  logic [31:0]         wt_release_i,
  output logic                req_dat_o,     // the request on the port is for input data
  output logic [13:0]         dat_lines_o,
  output logic [31:0]         wt_written_o,
  output logic                dat_done_pulse_o,
  output logic                wt_done_pulse_o
);
  localparam int unsigned RowLog2  = $clog2(RowBytes);
  localparam int unsigned CLog2    = $clog2(AtomicC);
  localparam logic [32:0] WtCap    = 33'(WtRows) * 33'(RowBytes);
  localparam int unsigned OutW     = $clog2(MaxOutstanding + 1);

  // ---------------------------------------------------------------- geometry
  logic [14:0] c_bytes;
  logic [13:0] atoms;       // atoms per position (N)
  logic [13:0] blocks;      // channel blocks (NB)
  logic [1:0]  apb_log2;    // log2(atoms per channel block)
  assign c_bytes  = cfg_i.int16 ? {cfg_i.in_c, 1'b0} : {1'b0, cfg_i.in_c};
  assign atoms    = 14'((c_bytes + 15'(AtomBytes - 1)) >> AtomLog2);
  assign blocks   = 14'((15'(cfg_i.in_c) + 15'(AtomicC - 1)) >> CLog2);
  assign apb_log2 = 2'(CLog2 + 32'(cfg_i.int16) - AtomLog2);

  logic [27:0] nbw_q;  // NB * W rows per line
  always_ff @(posedge clk_i) begin
    if (start_i) nbw_q <= 28'(blocks) * 28'(cfg_i.in_w);
  end

  // ---------------------------------------------------------------- requests
  // Phase order, the same on the request and the response side: PhData0 (first_lines input
  // lines), PhWeight0 (the first kernel group's bytes), PhData (the other lines), PhWeight (the
  // other bytes), PhDone; empty phases are skipped.
  typedef enum logic [2:0] {PhIdle, PhData0, PhWeight0, PhData, PhWeight, PhDone} phase_e;
  logic [13:0] first_lines;  // lines of the first output row: (R-1)*dy + 1 - PAD_TOP, in [1, H]
  logic signed [15:0] span;
  assign span        = (16'(cfg_i.kern_h) - 16'd1) * 16'(cfg_i.dil_y) + 16'sd1 - 16'(cfg_i.pad_top);
  assign first_lines = (span < 16'sd1) ? 14'd1 : (span > $signed(16'(cfg_i.in_h))) ? cfg_i.in_h : 14'(span);
  logic [31:0] w0_bytes;
  logic [5:0]  group_k;
  assign group_k  = (SupportInt16 && cfg_i.int16) ? 6'(GroupKernels / 2) : 6'(GroupKernels);
  assign w0_bytes = (32'(group_k) * 32'(cfg_i.byte_per_kernel) < cfg_i.wt_bytes)
                  ? 32'(group_k) * 32'(cfg_i.byte_per_kernel) : cfg_i.wt_bytes;
  phase_e      req_ph_q;
  logic [13:0] qh_q, qa_q, qw_q;
  logic [31:0] qo_q;
  logic [OutW-1:0] out_cnt_q;
  logic        q_last_w, q_last_a, q_last_h, q_last_o, q_last_o0, wt_room, req_fire, rsp_fire;

  assign q_last_w = qw_q == cfg_i.in_w - 14'd1;
  assign q_last_a = qa_q == atoms - 14'd1;
  assign q_last_h = qh_q == cfg_i.in_h - 14'd1;
  assign q_last_o = qo_q + 32'(AtomBytes) >= cfg_i.wt_bytes;
  assign q_last_o0 = qo_q + 32'(AtomBytes) >= w0_bytes;
  assign wt_room  = 33'(qo_q) + 33'(AtomBytes) <= 33'(wt_release_i) + WtCap;

  always_comb begin
    dma_rd_req_addr_o = cfg_i.wt_addr + 64'(qo_q);
    if (req_ph_q == PhData0 || req_ph_q == PhData) begin
      dma_rd_req_addr_o = cfg_i.dain_addr + 64'(qa_q) * 64'(cfg_i.surf_stride)
                        + 64'(qh_q) * 64'(cfg_i.line_stride) + (64'(qw_q) << AtomLog2);
    end
  end
  assign dma_rd_req_valid_o = out_cnt_q != OutW'(MaxOutstanding) &&
                              (req_ph_q == PhData0 || req_ph_q == PhData ||
                               ((req_ph_q == PhWeight0 || req_ph_q == PhWeight) && wt_room));
  assign req_fire           = dma_rd_req_valid_o && dma_rd_req_ready_i;
  assign dma_rd_rsp_ready_o = 1'b1;
  assign rsp_fire           = dma_rd_rsp_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_ph_q  <= PhIdle;
      qh_q      <= '0;
      qa_q      <= '0;
      qw_q      <= '0;
      qo_q      <= '0;
      out_cnt_q <= '0;
    end else begin
      out_cnt_q <= out_cnt_q + OutW'(req_fire) - OutW'(rsp_fire);
      if (start_i) begin
        req_ph_q <= PhData0;
        qh_q     <= '0;
        qa_q     <= '0;
        qw_q     <= '0;
        qo_q     <= '0;
      end else if (req_fire) begin
        if (req_ph_q == PhData0 || req_ph_q == PhData) begin
          qw_q <= q_last_w ? '0 : qw_q + 14'd1;
          if (q_last_w) begin
            qa_q <= q_last_a ? '0 : qa_q + 14'd1;
            if (q_last_a) begin
              qh_q <= qh_q + 14'd1;
              if (req_ph_q == PhData0 && (q_last_h || qh_q + 14'd1 >= first_lines)) req_ph_q <= PhWeight0;
              else if (q_last_h) req_ph_q <= (qo_q >= cfg_i.wt_bytes) ? PhDone : PhWeight;
            end
          end
        end else begin
          qo_q <= qo_q + 32'(AtomBytes);
          if (req_ph_q == PhWeight0 && (q_last_o0 || q_last_o)) begin
            req_ph_q <= (qh_q < cfg_i.in_h) ? PhData : q_last_o ? PhDone : PhWeight;
          end else if (q_last_o) begin
            req_ph_q <= PhDone;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- responses -> CBUF
  phase_e      rsp_ph_q;
  logic [13:0] sh_q, sa_q, sw_q;
  logic [31:0] so_q;
  logic        s_last_w, s_last_a, s_last_h, s_last_o, s_last_o0;
  assign s_last_w = sw_q == cfg_i.in_w - 14'd1;
  assign s_last_a = sa_q == atoms - 14'd1;
  assign s_last_h = sh_q == cfg_i.in_h - 14'd1;
  assign s_last_o = so_q + 32'(AtomBytes) >= cfg_i.wt_bytes;
  assign s_last_o0 = so_q + 32'(AtomBytes) >= w0_bytes;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_ph_q <= PhIdle;
      sh_q     <= '0;
      sa_q     <= '0;
      sw_q     <= '0;
      so_q     <= '0;
    end else begin
      if (start_i) begin
        rsp_ph_q <= PhData0;
        sh_q     <= '0;
        sa_q     <= '0;
        sw_q     <= '0;
        so_q     <= '0;
      end else if (rsp_fire) begin
        if (rsp_ph_q == PhData0 || rsp_ph_q == PhData) begin
          sw_q <= s_last_w ? '0 : sw_q + 14'd1;
          if (s_last_w) begin
            sa_q <= s_last_a ? '0 : sa_q + 14'd1;
            if (s_last_a) begin
              sh_q <= sh_q + 14'd1;
              if (rsp_ph_q == PhData0 && (s_last_h || sh_q + 14'd1 >= first_lines)) rsp_ph_q <= PhWeight0;
              else if (s_last_h) rsp_ph_q <= (so_q >= cfg_i.wt_bytes) ? PhDone : PhWeight;
            end
          end
        end else if (rsp_ph_q == PhWeight0 || rsp_ph_q == PhWeight) begin
          so_q <= so_q + 32'(AtomBytes);
          if (rsp_ph_q == PhWeight0 && (s_last_o0 || s_last_o)) begin
            rsp_ph_q <= (sh_q < cfg_i.in_h) ? PhData : s_last_o ? PhDone : PhWeight;
          end else if (s_last_o) begin
            rsp_ph_q <= PhDone;
          end
        end
      end
    end
  end

  logic [27:0] drow;
  logic [13:0] sblk;
  assign sblk = sa_q >> apb_log2;
  assign drow = 28'(sh_q) * nbw_q + 28'(sblk) * 28'(cfg_i.in_w) + 28'(sw_q);

  conv_cdma_cvt #(
    .AtomBytes   (AtomBytes),
    .SupportInt16(SupportInt16)
  ) u_cvt (
    .en_i      (cfg_i.cvt_en),
    .int16_i   (cfg_i.int16),
    .offset_i  (cfg_i.cvt_offset),
    .scale_i   (cfg_i.cvt_scale),
    .truncate_i(cfg_i.cvt_truncate),
    .data_i    (dma_rd_rsp_data_i),
    .data_o    (dat_wdata_o)
  );

  assign dat_we_o    = rsp_fire && (rsp_ph_q == PhData0 || rsp_ph_q == PhData);
  assign dat_wrow_o  = DRowW'(drow);
  assign dat_wlane_o = LaneW'(sa_q & ((14'd1 << apb_log2) - 14'd1));
  assign wt_we_o     = rsp_fire && (rsp_ph_q == PhWeight0 || rsp_ph_q == PhWeight);
  assign wt_wrow_o   = WRowW'(so_q >> RowLog2);
  assign wt_wlane_o  = LaneW'(so_q >> AtomLog2);
  assign wt_wdata_o  = dma_rd_rsp_data_i;

  assign dat_lines_o      = sh_q;
  assign req_dat_o        = req_ph_q == PhData0 || req_ph_q == PhData;  // lines complete in CBUF (reset at start)
  assign wt_written_o     = so_q;
  assign dat_done_pulse_o = dat_we_o && s_last_w && s_last_a && s_last_h;
  assign wt_done_pulse_o  = wt_we_o && s_last_o;

  logic unused;
  assign unused = ^{drow, cfg_i};
endmodule
