// SDP_RDMA: the fetch walker and the four operand streams (MRDMA input, BRDMA, NRDMA, ERDMA) with
// their DMA reads (docs/SDP_RTL.md "Fetch", docs/DMA.md). For the sequencer's position (sdp_seq)
// the walker computes every stream's element address, the step's lane count (cnt_o: the leading
// lanes whose bytes lie in lane 0's atom of every stream it needs) and, where a stream's lane-0
// atom differs from the one it read last, queues a read of it; it issues the step (step_o) into
// a FIFO of RdSlots step descriptors, so it runs up to RdSlots steps ahead of the datapath. Each
// stream reads through its own dla_dma_rd (RdSlots reads in flight); dla_dma_rd_mux puts the four
// onto the DMA read port and routes the in-order responses back. A step is offered to the
// datapath (dp_valid_o) when every new atom it needs has arrived, with its lanes' input and
// operand values picked from the atoms; the atoms it takes stay held for the steps after it.
// A read fetches a block of FetchAtoms consecutive atoms, aligned to its size (nv_full: two, its
// 512-bit port's beat, docs/DMA.md "The port"): a stream held there serves the next position's
// atom from the same read. A step's lanes still lie in one memory atom (the next atom of a
// surface is the next position, not the next channels).
module sdp_rdma #(
  parameter int unsigned AtomLog2   = 3,
  parameter int unsigned Lanes      = 1,
  parameter int unsigned RdSlots    = 8,
  parameter int unsigned FetchAtoms = 1,  // atoms a read fetches (1 or 2)
  localparam int unsigned FetchLog2 = AtomLog2 + $clog2(FetchAtoms),
  localparam int unsigned FetchBits = 8 << FetchLog2,
  localparam int unsigned CntW      = $clog2(Lanes + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  sdp_pkg::cfg_t          cfg_i,
  input  logic                   start_i,
  input  logic                   running_i,
  // the walker's position (sdp_seq) and its step
  input  logic                   walk_i,
  input  logic [4:0]             n_i,
  input  logic [12:0]            c_i,
  input  logic [12:0]            h_i,
  input  logic [12:0]            w_i,
  input  logic [6:0]             beat_i,
  input  logic                   last_l_i,
  input  logic                   last_i,
  output logic [CntW-1:0]        cnt_o,
  output logic                   step_o,
  // DMA read: one block of FetchAtoms atoms per request (aligned), responses in order
  output logic                   dma_rd_req_valid_o,
  input  logic                   dma_rd_req_ready_i,
  output logic [63:0]            dma_rd_req_addr_o,
  input  logic                   dma_rd_rsp_valid_i,
  output logic                   dma_rd_rsp_ready_o,
  input  logic [FetchBits-1:0]   dma_rd_rsp_data_i,
  // the next step, to the datapath (dp_take_i: it takes the step; only while dp_valid_o)
  output logic                   dp_valid_o,
  input  logic                   dp_take_i,
  output logic                   dp_need0_o,   // the step's lanes read the input cube
  output logic [CntW-1:0]        dp_cnt_o,
  output logic [12:0]            dp_c_o,
  output logic [6:0]             dp_beat_o,
  output logic                   dp_last_l_o,
  output logic [4:0]             dp_n_o,
  output logic [12:0]            dp_h_o,
  output logic [12:0]            dp_w_o,
  output logic                   dp_last_o,
  output logic [Lanes-1:0][15:0] dp_in_o,      // input value (int8 sign-extended, or int16)
  output logic [Lanes-1:0][15:0] dp_bs_alu_o,  // operand values (BRDMA, NRDMA, ERDMA)
  output logic [Lanes-1:0][15:0] dp_bs_mul_o,
  output logic [Lanes-1:0][15:0] dp_bn_alu_o,
  output logic [Lanes-1:0][15:0] dp_bn_mul_o,
  output logic [Lanes-1:0][15:0] dp_ew_alu_o,
  output logic [Lanes-1:0][15:0] dp_ew_mul_o,
  // cycles a read of each stream waits on its port (MRDMA, BRDMA, NRDMA, ERDMA)
  output logic [3:0][31:0]       rd_stall_o
);
  /* verilator lint_off UNUSEDSIGNAL */
  sdp_pkg::cfg_t cfg;  // only the streams and the input geometry are read here
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  // ---------------------------------------------------------------- operand fetch (walker)
  // Streams: 0 MRDMA (input), 1 BRDMA, 2 NRDMA, 3 ERDMA. The walker keeps the tag of the block
  // each stream read last: a step whose lane-0 block differs reads it.
  localparam int unsigned NStreams = 4;
  logic [NStreams-1:0]          need, miss, wv_q, push;
  logic [NStreams-1:0][63:0]    elem_addr, wtag_q;
  logic [NStreams-1:0][63:0]    tag, atom;  // lane 0's block and memory atom
  logic [NStreams-1:0][1:0]     eb_log2;  // bytes per stored element (operand: size x 2 if BOTH)
  logic [NStreams-1:0]          size2, both;
  logic [CntW-1:0]              cnt;
  logic                         wk_fire;

  assign need[0] = !cfg.flying && (14'(c_i) < cfg.in_lanes);
  assign need[1] = cfg.brdma.need;
  assign need[2] = cfg.nrdma.need;
  assign need[3] = cfg.erdma.need;
  assign size2   = {cfg.erdma.size2, cfg.nrdma.size2, cfg.brdma.size2, cfg.in_wide};
  assign both    = {cfg.erdma.both, cfg.nrdma.both, cfg.brdma.both, 1'b0};
  for (genvar k = 0; k < NStreams; k++) begin : g_eb
    assign eb_log2[k] = 2'(size2[k]) + 2'(both[k]);
  end

  dla_cube_addr #(.AddrW(64), .IdxW(13)) u_addr_m (
    .base_i          (cfg.src_base),
    .line_stride_i   (cfg.src_line_stride),
    .surface_stride_i(cfg.src_surface_stride),
    .batch_stride_i  (32'd0),
    .atom_log2_i     (3'(AtomLog2)),
    .bpe_log2_i      (2'(cfg.in_wide)),
    .n_i             (5'd0),
    .c_i             (c_i),
    .h_i             (h_i),
    .w_i             (w_i),
    .addr_o          (elem_addr[0])
  );

  // Operand streams: per element, the processing precision's lane grouping with eb-byte
  // elements; per kernel, packed channels from the base (docs/SDP.md §4).
  logic [2:0][63:0] op_base;
  logic [2:0][31:0] op_line, op_surf, op_batch;
  logic [2:0]       op_per_elt;
  assign op_base    = {cfg.erdma.base, cfg.nrdma.base, cfg.brdma.base};
  assign op_line    = {cfg.erdma.line_stride, cfg.nrdma.line_stride, cfg.brdma.line_stride};
  assign op_surf    = {cfg.erdma.surface_stride, cfg.nrdma.surface_stride, cfg.brdma.surface_stride};
  assign op_batch   = {cfg.erdma.batch_stride, cfg.nrdma.batch_stride, cfg.brdma.batch_stride};
  assign op_per_elt = {cfg.erdma.per_elt, cfg.nrdma.per_elt, cfg.brdma.per_elt};
  for (genvar k = 1; k < NStreams; k++) begin : g_op_addr
    logic [63:0] cube_addr;
    dla_cube_addr #(.AddrW(64), .IdxW(13)) u_addr (
      .base_i          (op_base[k-1]),
      .line_stride_i   (op_line[k-1]),
      .surface_stride_i(op_surf[k-1]),
      .batch_stride_i  (op_batch[k-1]),
      .atom_log2_i     (cfg.ca_op_log2 + 3'(eb_log2[k])),
      .bpe_log2_i      (eb_log2[k]),
      .n_i             (n_i),
      .c_i             (c_i),
      .h_i             (h_i),
      .w_i             (w_i),
      .addr_o          (cube_addr)
    );
    assign elem_addr[k] = op_per_elt[k-1] ? cube_addr : op_base[k-1] + (64'(c_i) << eb_log2[k]);
  end

  // Lane j of a step is channel c_cur + j: inside a Lanes-aligned group its bytes follow lane
  // 0's in every stream (elements are size-aligned, so a value never straddles two atoms). A
  // step takes the leading lanes whose bytes lie in lane 0's memory atom of every stream it
  // needs (so in its block too).
  logic [NStreams-1:0][Lanes-1:0] lane_same;
  logic [Lanes-1:0]               lane_ok;
  for (genvar k = 0; k < NStreams; k++) begin : g_lane_k
    for (genvar j = 0; j < Lanes; j++) begin : g_lane_j
      logic [63:0] a, m;
      assign a               = elem_addr[k] + (64'(j) << eb_log2[k]);
      assign m               = a + (both[k] ? (size2[k] ? 64'd2 : 64'd1) : 64'd0);
      assign lane_same[k][j] = !need[k] || ((a >> AtomLog2) == atom[k] && (m >> AtomLog2) == atom[k]);
    end
    assign atom[k] = elem_addr[k] >> AtomLog2;
    assign tag[k]  = elem_addr[k] >> FetchLog2;
    assign miss[k] = need[k] && !(wv_q[k] && wtag_q[k] == tag[k]);
  end
  for (genvar j = 0; j < Lanes; j++) begin : g_lane_ok
    assign lane_ok[j] = (beat_i + 7'(j) < 7'(Lanes)) && lane_same[0][j] && lane_same[1][j] &&
                        lane_same[2][j] && lane_same[3][j];
  end
  always_comb begin
    logic stop;
    cnt  = '0;
    stop = 1'b0;
    for (int unsigned j = 0; j < Lanes; j++) begin
      if (!lane_ok[j]) stop = 1'b1;
      if (!stop) cnt = cnt + 1'b1;
    end
  end
  assign cnt_o  = cnt;
  assign step_o = wk_fire;

  // Per stream a 2-entry request queue (a step may need a new atom of every stream at once; the
  // queues let the walker go on while the port takes them one per cycle), one read engine
  // (dla_dma_rd, RdSlots reads in flight), a round-robin arbiter onto the DMA read port and a
  // FIFO of stream numbers that routes the in-order responses back (dla_dma_rd_mux). Every
  // engine takes every response (its slots were reserved), so routing never blocks.
  localparam int unsigned IdDepth = NStreams * RdSlots;
  logic [NStreams-1:0]                rq_ready, rd_valid, rd_ready, eng_req_valid, eng_req_ready, eng_rsp_valid;
  logic [NStreams-1:0]                eng_rsp_ready, eng_mem_rsp_valid, eng_mem_rsp_ready;
  logic [NStreams-1:0][63:0]          eng_req_addr, rd_addr;
  logic [NStreams-1:0][1:0]           rq_level;
  logic [NStreams-1:0][FetchBits-1:0] eng_rsp_data;
  logic [FetchBits-1:0]               mem_rsp_data;  // every engine takes the port's data
  for (genvar k = 0; k < NStreams; k++) begin : g_eng
    assign push[k]              = wk_fire && miss[k];
    dla_fifo #(
      .Depth(2),
      .Width(64)
    ) u_rq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (push[k]),
      .in_ready_o (rq_ready[k]),
      .in_data_i  (tag[k] << FetchLog2),
      .out_valid_o(rd_valid[k]),
      .out_ready_i(rd_ready[k]),
      .out_data_o (rd_addr[k]),
      .level_o    (rq_level[k])
    );
    dla_dma_rd #(
      .AddrWidth  (64),
      .DataWidth  (FetchBits),
      .MaxInFlight(RdSlots)
    ) u_rd (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .req_valid_i    (rd_valid[k]),
      .req_ready_o    (rd_ready[k]),
      .req_addr_i     (rd_addr[k]),
      .rsp_valid_o    (eng_rsp_valid[k]),
      .rsp_ready_i    (eng_rsp_ready[k]),
      .rsp_data_o     (eng_rsp_data[k]),
      .mem_req_valid_o(eng_req_valid[k]),
      .mem_req_ready_i(eng_req_ready[k]),
      .mem_req_addr_o (eng_req_addr[k]),
      .mem_rsp_valid_i(eng_mem_rsp_valid[k]),
      .mem_rsp_ready_o(eng_mem_rsp_ready[k]),
      .mem_rsp_data_i (mem_rsp_data)
    );
  end
  dla_dma_rd_mux #(
    .N       (NStreams),
    .DataW   (FetchBits),
    .TagDepth(IdDepth)
  ) u_rd_mux (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .m_req_valid_i(eng_req_valid),
    .m_req_ready_o(eng_req_ready),
    .m_req_addr_i (eng_req_addr),
    .m_rsp_valid_o(eng_mem_rsp_valid),
    .m_rsp_ready_i(eng_mem_rsp_ready),
    .m_rsp_data_o (mem_rsp_data),
    .req_valid_o  (dma_rd_req_valid_o),
    .req_ready_i  (dma_rd_req_ready_i),
    .req_addr_o   (dma_rd_req_addr_o),
    .rsp_valid_i  (dma_rd_rsp_valid_i),
    .rsp_ready_o  (dma_rd_rsp_ready_o),
    .rsp_data_i   (dma_rd_rsp_data_i)
  );

  // The walker's step: the request queue of every stream whose atom it misses has room, and so
  // has the descriptor FIFO (RdSlots steps: the walker runs up to that far ahead of the
  // datapath). `fresh`: the step takes the next response of that stream.
  typedef struct packed {
    logic [NStreams-1:0]               fresh;
    logic [NStreams-1:0][FetchLog2-1:0] off;  // lane 0's byte in the stream's block
    logic                              need0;
    logic [CntW-1:0]                   cnt;
    logic [12:0]                       c;
    logic [6:0]                        beat;
    logic                              last_l;
    logic [4:0]                        n;
    logic [12:0]                       h, w;
    logic                              last;  // the layer's last step
  } step_t;
  step_t step_in, st;
  logic  desc_ready, desc_valid;
  logic [$clog2(RdSlots + 1)-1:0] desc_level;
  always_comb begin
    step_in.fresh  = miss;
    for (int unsigned k = 0; k < NStreams; k++) step_in.off[k] = elem_addr[k][FetchLog2-1:0];
    step_in.need0  = need[0];
    step_in.cnt    = cnt;
    step_in.c      = c_i;
    step_in.beat   = beat_i;
    step_in.last_l = last_l_i;
    step_in.n      = n_i;
    step_in.h      = h_i;
    step_in.w      = w_i;
    step_in.last   = last_i;
  end
  assign wk_fire = walk_i && ((~miss | rq_ready) == '1) && desc_ready;
  dla_fifo #(
    .Depth(RdSlots),
    .Width($bits(step_in))
  ) u_steps (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (wk_fire),
    .in_ready_o (desc_ready),
    .in_data_i  (step_in),
    .out_valid_o(desc_valid),
    .out_ready_i(dp_take_i),
    .out_data_o (st),
    .level_o    (desc_level)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wv_q <= '0;
    end else if (start_i) begin
      wv_q <= '0;  // memory may have changed between layers
    end else begin
      wv_q <= wv_q | push;
    end
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NStreams; k++) begin
      if (push[k]) wtag_q[k] <= tag[k];
    end
  end

  // ---------------------------------------------------------------- step intake
  // A step goes when every new atom it needs has arrived; the atoms it takes stay held for the
  // steps after it. The datapath reads a new atom straight from its engine in that cycle.
  logic [NStreams-1:0]               avail;
  logic [NStreams-1:0][FetchBits-1:0] cdata_q, op_data;
  for (genvar k = 0; k < NStreams; k++) begin : g_take
    assign avail[k]         = !st.fresh[k] || eng_rsp_valid[k];
    assign eng_rsp_ready[k] = dp_take_i && st.fresh[k];
    assign op_data[k]       = st.fresh[k] ? eng_rsp_data[k] : cdata_q[k];
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < NStreams; k++) begin
      if (eng_rsp_ready[k]) cdata_q[k] <= eng_rsp_data[k];
    end
  end
  assign dp_valid_o  = desc_valid && (&avail);
  assign dp_need0_o  = st.need0;
  assign dp_cnt_o    = st.cnt;
  assign dp_c_o      = st.c;
  assign dp_beat_o   = st.beat;
  assign dp_last_l_o = st.last_l;
  assign dp_n_o      = st.n;
  assign dp_h_o      = st.h;
  assign dp_w_o      = st.w;
  assign dp_last_o   = st.last;

  // Byte offsets of each lane in its streams' blocks (lanes of a step share lane 0's atom).
  logic [NStreams-1:0][Lanes-1:0][FetchLog2-1:0] lane_off, lane_mul_off;
  for (genvar k = 0; k < NStreams; k++) begin : g_off_k
    for (genvar j = 0; j < Lanes; j++) begin : g_off_j
      assign lane_off[k][j]     = st.off[k] + FetchLog2'(j << eb_log2[k]);
      assign lane_mul_off[k][j] = lane_off[k][j] + (both[k] ? (size2[k] ? FetchLog2'(2) : FetchLog2'(1)) : '0);
    end
  end

  // Values of a lane from the held blocks (little endian, sign-extended).
  function automatic logic signed [15:0] pick(input logic [FetchBits-1:0] block,
                                              input logic [FetchLog2-1:0] off, input logic two);
    logic [7:0] lo, hi;
    lo   = block[8*off +: 8];
    hi   = block[8*(FetchLog2'(off + 1'b1)) +: 8];
    pick = two ? $signed({hi, lo}) : 16'($signed(lo));
  endfunction
  for (genvar j = 0; j < Lanes; j++) begin : g_pick
    assign dp_in_o[j]     = pick(op_data[0], lane_off[0][j], cfg.in_wide);
    assign dp_bs_alu_o[j] = pick(op_data[1], lane_off[1][j], size2[1]);
    assign dp_bs_mul_o[j] = pick(op_data[1], lane_mul_off[1][j], size2[1]);
    assign dp_bn_alu_o[j] = pick(op_data[2], lane_off[2][j], size2[2]);
    assign dp_bn_mul_o[j] = pick(op_data[2], lane_mul_off[2][j], size2[2]);
    assign dp_ew_alu_o[j] = pick(op_data[3], lane_off[3][j], size2[3]);
    assign dp_ew_mul_o[j] = pick(op_data[3], lane_mul_off[3][j], size2[3]);
  end

  // DMA perf counters: cycles a read of each stream waits on its port (SDP_RDMA's
  // D_PERF_ENABLE.PERF_DMA_EN); in nvdla_core that includes losing the read arbitration.
  for (genvar k = 0; k < NStreams; k++) begin : g_rd_stall
    dla_perf_cnt u_cnt (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .clr_i  (start_i),
      .en_i   (cfg.perf_rd_en && running_i),
      .inc_i  (eng_req_valid[k] && !eng_req_ready[k]),
      .count_o(rd_stall_o[k])
    );
  end

  logic unused;
  assign unused = ^{desc_level, lane_mul_off[0], rq_level};
endmodule
