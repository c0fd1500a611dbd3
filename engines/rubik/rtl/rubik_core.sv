// NVDLA RUBIK (RBK, data-layout transforms), int8 / int16 / fp16 (fp16 moves as int16), register
// level, 32-byte atoms (nv_full). Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §1, §4 and §6; what it computes and
// the decisions: docs/RUBIK.md §1 and §2; this engine: docs/RUBIK.md "RTL".
//   * registers: S_STATUS, S_POINTER and both groups' D_ registers (the generated rbk_reg_top,
//     fields as a struct); a group runs when its OP_EN is set and it is the consumer; done_o[group]
//     (GLB RUBIK_DONE bits 8/9) pulses one cycle after memory takes its last write, OP_EN clears
//     and CONSUMER flips.
//   * reads through dla_dma_rd (MaxInFlight in flight), writes of whole 32-byte atoms (mask all
//     ones) through dla_dma_wr (one write falling through). Two address walks (rubik_walk: five
//     nested counters) in the same order: the read walk advances on each request taken, the write
//     walk on each write the write engine accepts.
//   * CONTRACT: every response is written as it is, at the output atom of the same step
//     (loops surface, input line, sy_i, w, sx_i; one atom per cycle).
//   * SPLIT / MERGE: loops line h, surface s, atom a of a plane line, then the block's atoms. A
//     block is one surface's ca channels x one plane-line atom's ca positions (ca = 32 / bpe):
//     SPLIT reads its positions' cube atoms and writes its channels' plane atoms, MERGE reads its
//     channels' plane atoms and writes its positions' cube atoms. Input atom i of a block fills row
//     i of a transpose bank (32 x 32 bytes); output atom X is, at byte q, row q / bpe, byte
//     X·bpe + q mod bpe -- 0 for rows past the block's inputs (SPLIT's line tails past W·bpe,
//     MERGE's lanes past C). Two banks: one fills while the other drains (one atom per cycle
//     each way when memory allows).
//   * D_PERF_READ_STALL / D_PERF_WRITE_STALL: cycles a read / write request waits at the memory
//     port while the layer runs with D_PERF_ENABLE.PERF_EN, written into the group at its end (0
//     without PERF_EN).
// Not handled here (the RTL device refuses them before OP_EN: engines/rubik/harness/rubik_rtl.cpp): the
// reserved mode / precision codes (taken as MERGE / int16), SPLIT / MERGE with
// DATAIN_CHANNEL != DATAOUT_CHANNEL, overlapping atoms (the result would depend on the order).
module rubik_core #(
  parameter logic [31:0] Base        = 32'h10000,  // nvdlav1 map (nv_full)
  parameter int unsigned MaxInFlight = 8,          // DMA reads outstanding
  parameter int unsigned AtomLog2    = 5,          // 32-byte atoms (nv_full); smaller for synthesis only
  localparam int unsigned AtomBytes  = 1 << AtomLog2,
  localparam int unsigned AtomBits   = 8 * AtomBytes
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // CSB
  input  logic                 csb_req_valid_i,
  output logic                 csb_req_ready_o,
  input  logic [31:0]          csb_req_addr_i,
  input  logic                 csb_req_write_i,
  input  logic [31:0]          csb_req_wdata_i,
  output logic                 csb_rsp_valid_o,
  output logic [31:0]          csb_rsp_rdata_o,
  // DMA read
  output logic                 dma_rd_req_valid_o,
  input  logic                 dma_rd_req_ready_i,
  output logic [63:0]          dma_rd_req_addr_o,
  input  logic                 dma_rd_rsp_valid_i,
  output logic                 dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]  dma_rd_rsp_data_i,
  // DMA write
  output logic                 dma_wr_req_valid_o,
  input  logic                 dma_wr_req_ready_i,
  output logic [63:0]          dma_wr_req_addr_o,
  output logic [AtomBits-1:0]  dma_wr_req_data_o,
  output logic [AtomBytes-1:0] dma_wr_req_mask_o,
  // done pulse per group (to GLB)
  output logic [1:0]           done_o
);
  localparam int unsigned CntW   = 13;

  // ---------------------------------------------------------------- registers
  // The generated register block (tools/reggen): the consumer group's fields as a struct.
  /* verilator lint_off UNUSEDSIGNAL */
  rbk_regs_pkg::rbk_reg2hw_d_t rbk;
  /* verilator lint_on UNUSEDSIGNAL */
  rbk_regs_pkg::rbk_hw2reg_t   hw2reg;
  logic                consumer, armed, layer_done;
  logic                s_we, s_re;
  logic [11:0]         s_off;
  logic [31:0]         s_wdata, regs_rdata;
  logic                regs_hit;
  rbk_reg_top #(.Base(Base)) u_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (regs_hit),
    .rdata_o    (regs_rdata),
    .s_we_o     (s_we),
    .s_re_o     (s_re),
    .s_offset_o (s_off),
    .s_wdata_o  (s_wdata),
    .s_rdata_i  (32'd0),  // RBK has no other S_ register
    .reg2hw_o   (rbk),
    .hw2reg_i   (hw2reg),
    .consumer_o (consumer),
    .armed_o    (armed),
    .done_i     (layer_done)
  );
  assign csb_req_ready_o = 1'b1;
  logic csb_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) csb_rd_q <= 1'b0;
    else csb_rd_q <= csb_req_valid_i && !csb_req_write_i;
  end
  assign csb_rsp_valid_o = csb_rd_q;
  assign csb_rsp_rdata_o = regs_rdata;  // 0 unless the last request read this block

  // ---------------------------------------------------------------- the layer's geometry
  logic [1:0]      mode;
  logic            contract, split, int16;
  logic [CntW-1:0] w1, h1, c1, s1, a1, wlast1, clast1, ca1, sx1, sy1;
  assign mode     = rbk.misc_cfg_rubik_mode;
  assign contract = mode == 2'd0;
  assign split    = mode == 2'd1;
  assign int16    = rbk.misc_cfg_in_precision != 2'd0;
  assign w1       = rbk.datain_size_0_datain_width;
  assign h1       = rbk.datain_size_0_datain_height;
  // Channels - 1: CONTRACT and SPLIT count DATAOUT_CHANNEL, MERGE DATAIN_CHANNEL (docs/RUBIK.md §2).
  assign c1 = (contract || split) ? rbk.dataout_size_1 : rbk.datain_size_1;
  // ca = 32 / bpe lanes per atom; surfaces S = ceil(C·bpe / 32), plane-line atoms A = ceil(W / ca).
  assign ca1    = int16 ? CntW'(AtomBytes / 2 - 1) : CntW'(AtomBytes - 1);
  assign s1     = int16 ? c1 >> (AtomLog2 - 1) : c1 >> AtomLog2;
  assign a1     = int16 ? w1 >> (AtomLog2 - 1) : w1 >> AtomLog2;
  assign wlast1 = w1 & ca1;  // positions of the last block of a line, minus one
  assign clast1 = c1 & ca1;  // channels of the last surface, minus one
  assign sx1    = 13'(rbk.deconv_stride_deconv_x_stride);
  assign sy1    = 13'(rbk.deconv_stride_deconv_y_stride);

  // Addresses and strides in bytes: the registers keep bits [31:AddrLsb] (32-byte units).
  localparam int unsigned AddrLsb = rbk_regs_pkg::RBK_D_DAIN_ADDR_LOW_DAIN_ADDR_LOW_LSB;
  function automatic logic [31:0] bytes(input logic [31-AddrLsb:0] units);
    bytes = {units, AddrLsb'(0)};
  endfunction
  logic [63:0] in_base, out_base, in_line, in_surf, in_plan, out_line, out_surf, out_plan, cs0, cs1;
  logic [63:0] sx, cs0_sx, in_plan_ca, out_plan_ca, ca_atoms;
  assign in_base  = {rbk.dain_addr_high, bytes(rbk.dain_addr_low)};
  assign out_base = {rbk.daout_addr_high, bytes(rbk.daout_addr_low)};
  assign in_line  = 64'(bytes(rbk.dain_line_stride));
  assign in_surf  = 64'(bytes(rbk.dain_surf_stride));
  assign in_plan  = 64'(bytes(rbk.dain_planar_stride));
  assign out_line = 64'(bytes(rbk.daout_line_stride));
  assign out_surf = 64'(bytes(rbk.daout_surf_stride));
  assign out_plan = 64'(bytes(rbk.daout_planar_stride));
  assign cs0      = 64'(bytes(rbk.contract_stride_0));
  assign cs1      = 64'(bytes(rbk.contract_stride_1));
  assign sx       = 64'(sx1) + 64'd1;
  // sx · CONTRACT_STRIDE_0 (sx <= 32): one sy_i step of the sub-cube index j = sy_i·sx + sx_i.
  always_comb begin
    cs0_sx = '0;
    for (int unsigned k = 0; k < 6; k++) begin
      if (sx[k]) cs0_sx = cs0_sx + (cs0 << k);
    end
  end
  assign in_plan_ca  = int16 ? in_plan << (AtomLog2 - 1) : in_plan << AtomLog2;
  assign out_plan_ca = int16 ? out_plan << (AtomLog2 - 1) : out_plan << AtomLog2;
  assign ca_atoms    = int16 ? 64'(AtomBytes * AtomBytes / 2) : 64'(AtomBytes * AtomBytes);  // ca atoms
  localparam logic [63:0] Atom = 64'(AtomBytes);

  // The walks: CONTRACT loops (surface, line, sy_i, w, sx_i); SPLIT / MERGE (-, h, s, a, block).
  // The cube side of SPLIT / MERGE steps through positions (ca atoms per a, then one), the plane
  // side through channels (ca planes per s, then one plane) of one plane-line atom. Packed
  // {level 4, ..., level 0}: level 0 (outermost) is element 0.
  logic [4:0][63:0]     rd_stride, wr_stride, cube_stride, in_plane_stride, out_plane_stride;
  logic [4:0][CntW-1:0] rd_lim, fl_lim, wr_lim, rd_cnt, fl_cnt, wr_cnt, contract_lim;
  logic [CntW-1:0]      rd_inner, fl_inner, wr_inner, pos_inner_rd, ch_inner_rd, pos_inner_fl, ch_inner_fl;
  logic [CntW-1:0]      pos_inner_wr, ch_inner_wr;
  assign cube_stride      = split ? {Atom, ca_atoms, in_surf, in_line, 64'd0}
                                  : {Atom, ca_atoms, out_surf, out_line, 64'd0};
  assign in_plane_stride  = {in_plan, Atom, in_plan_ca, in_line, 64'd0};
  assign out_plane_stride = {out_plan, Atom, out_plan_ca, out_line, 64'd0};
  assign rd_stride = contract ? {cs0, Atom, cs0_sx, in_line, in_surf} : split ? cube_stride : in_plane_stride;
  assign wr_stride = contract ? {Atom, sx << AtomLog2, out_line, cs1, out_surf} : split ? out_plane_stride : cube_stride;

  // A block's inputs / outputs minus one: positions (cube side: the line's last block is short)
  // or channels (plane side: the last surface is short).
  assign pos_inner_rd = rd_cnt[3] == a1 ? wlast1 : ca1;
  assign ch_inner_rd  = rd_cnt[2] == s1 ? clast1 : ca1;
  assign pos_inner_fl = fl_cnt[3] == a1 ? wlast1 : ca1;
  assign ch_inner_fl  = fl_cnt[2] == s1 ? clast1 : ca1;
  assign pos_inner_wr = wr_cnt[3] == a1 ? wlast1 : ca1;
  assign ch_inner_wr  = wr_cnt[2] == s1 ? clast1 : ca1;
  assign rd_inner     = split ? pos_inner_rd : ch_inner_rd;  // SPLIT reads the cube, MERGE the planes
  assign fl_inner     = split ? pos_inner_fl : ch_inner_fl;
  assign wr_inner     = split ? ch_inner_wr : pos_inner_wr;
  assign contract_lim = {sx1, w1, sy1, h1, s1};
  assign rd_lim       = contract ? contract_lim : {rd_inner, a1, s1, h1, {CntW{1'b0}}};
  assign fl_lim       = contract ? contract_lim : {fl_inner, a1, s1, h1, {CntW{1'b0}}};
  assign wr_lim       = contract ? contract_lim : {wr_inner, a1, s1, h1, {CntW{1'b0}}};

  // ---------------------------------------------------------------- control
  logic running_q, rd_active_q, start;
  logic rd_req_ready, rd_take, rd_last, fl_last, wr_last, wr_take;
  assign start = !running_q && armed;

  logic [63:0] rd_addr, fl_addr, wr_addr;
  rubik_walk #(.CntW(CntW)) u_rd_walk (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start),
    .step_i  (rd_take),
    .base_i  (in_base),
    .stride_i(rd_stride),
    .lim_i   (rd_lim),
    .cnt_o   (rd_cnt),
    .addr_o  (rd_addr),
    .last_o  (rd_last)
  );

  logic                rsp_valid, rsp_ready;
  logic [AtomBits-1:0] rsp_data;
  dla_dma_rd #(
    .AddrWidth  (64),
    .DataWidth  (AtomBits),
    .MaxInFlight(MaxInFlight)
  ) u_dma_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (rd_active_q),
    .req_ready_o    (rd_req_ready),
    .req_addr_i     (rd_addr),
    .rsp_valid_o    (rsp_valid),
    .rsp_ready_i    (rsp_ready),
    .rsp_data_o     (rsp_data),
    .mem_req_valid_o(dma_rd_req_valid_o),
    .mem_req_ready_i(dma_rd_req_ready_i),
    .mem_req_addr_o (dma_rd_req_addr_o),
    .mem_rsp_valid_i(dma_rd_rsp_valid_i),
    .mem_rsp_ready_o(dma_rd_rsp_ready_o),
    .mem_rsp_data_i (dma_rd_rsp_data_i)
  );
  assign rd_take = rd_active_q && rd_req_ready;

  // ---------------------------------------------------------------- transpose banks (SPLIT, MERGE)
  // A bank is AtomBytes x AtomBytes bytes; output atom X is its byte column X (an 8-bit
  // transpose). An int8 input atom i fills row i. An int16 input atom i fills rows 2i (the low
  // bytes of its elements, element e at byte e) and 2i + 1 (the high bytes), so column X, byte q
  // is byte q mod 2 of element X of input atom q / 2: the int16 transpose, with the same columns.
  localparam int unsigned RowW = AtomLog2;
  logic [1:0][AtomBytes-1:0][AtomBits-1:0] tbuf_q;   // [bank][row]
  logic [1:0][RowW-1:0]                    nrows_q;  // input atoms of the bank's block, minus one
  logic [1:0]                              full_q;
  logic                                    fb_q, db_q;  // the bank filling, the bank draining
  logic                                    fl_take, dr_take;
  logic [RowW-1:0]                         fl_row;
  logic [AtomBits-1:0]                     rsp_lo, rsp_hi;
  assign fl_row  = fl_cnt[4][RowW-1:0];
  assign fl_take = !contract && running_q && rsp_valid && !full_q[fb_q];
  assign dr_take = !contract && wr_take;
  always_comb begin
    rsp_lo = '0;
    rsp_hi = '0;
    for (int unsigned e = 0; e < AtomBytes / 2; e++) begin
      rsp_lo[8*e +: 8] = rsp_data[16*e +: 8];
      rsp_hi[8*e +: 8] = rsp_data[16*e + 8 +: 8];
    end
  end

  rubik_walk #(.CntW(CntW)) u_fill_walk (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start),
    .step_i  (fl_take),
    .base_i  (64'd0),
    .stride_i('0),
    .lim_i   (fl_lim),
    .cnt_o   (fl_cnt),
    .addr_o  (fl_addr),
    .last_o  (fl_last)
  );

  logic fl_block_end, dr_block_end;
  assign fl_block_end = fl_cnt[4] == fl_lim[4];
  assign dr_block_end = wr_cnt[4] == wr_lim[4];

  // Rows at constant indexes, under the fill's own condition (docs/RTL_CONVENTIONS.md).
  always_ff @(posedge clk_i) begin
    if (fl_take) begin
      for (int unsigned b = 0; b < 2; b++) begin
        for (int unsigned r = 0; r < AtomBytes; r++) begin
          if (fb_q == 1'(b)) begin
            if (!int16 && fl_row == RowW'(r)) tbuf_q[b][r] <= rsp_data;
            if (int16 && fl_row == RowW'(r / 2)) tbuf_q[b][r] <= (r % 2 == 1) ? rsp_hi : rsp_lo;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nrows_q <= '0;
      full_q  <= '0;
      fb_q    <= 1'b0;
      db_q    <= 1'b0;
    end else if (start) begin
      full_q <= '0;
      fb_q   <= 1'b0;
      db_q   <= 1'b0;
    end else begin
      if (fl_take && fl_block_end) begin
        for (int unsigned b = 0; b < 2; b++) begin
          if (fb_q == 1'(b)) begin
            full_q[b]  <= 1'b1;
            nrows_q[b] <= fl_row;
          end
        end
        fb_q <= !fb_q;
      end
      if (dr_take && dr_block_end) begin
        for (int unsigned b = 0; b < 2; b++) begin
          if (db_q == 1'(b)) full_q[b] <= 1'b0;
        end
        db_q <= !db_q;
      end
    end
  end

  // Output atom X of the draining bank: byte q is row q's byte X; 0 for rows of no input atom of
  // the block (SPLIT's line tails past W·bpe, MERGE's lanes past C). One branch per X.
  logic [AtomBytes-1:0][AtomBits-1:0] cur;
  logic [RowW-1:0]                    col, nrows;
  logic [AtomBits-1:0]                tr_data;
  assign cur   = tbuf_q[db_q];
  assign col   = wr_cnt[4][RowW-1:0];
  assign nrows = nrows_q[db_q];
  always_comb begin
    tr_data = '0;
    for (int unsigned x = 0; x < AtomBytes; x++) begin
      if (col == RowW'(x)) begin
        for (int unsigned q = 0; q < AtomBytes; q++) begin
          if ((int16 ? RowW'(q / 2) : RowW'(q)) <= nrows) tr_data[8*q +: 8] = cur[q][8*x +: 8];
        end
      end
    end
  end

  // ---------------------------------------------------------------- writes
  rubik_walk #(.CntW(CntW)) u_wr_walk (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start),
    .step_i  (wr_take),
    .base_i  (out_base),
    .stride_i(wr_stride),
    .lim_i   (wr_lim),
    .cnt_o   (wr_cnt),
    .addr_o  (wr_addr),
    .last_o  (wr_last)
  );
  logic wr_req_valid, wr_req_ready, wr_idle, mem_wr_take, unused_wr_pending;
  assign wr_req_valid = running_q && (contract ? rsp_valid : full_q[db_q]);
  assign wr_take      = wr_req_valid && wr_req_ready;
  assign rsp_ready    = contract ? wr_take : fl_take;

  // The DMA write engine with one write falling through, as bdma_core's (docs/DMA.md "Users").
  dla_dma_wr #(
    .AddrWidth  (64),
    .DataWidth  (AtomBits),
    .Depth      (1),
    .Fifo       (1'b1),
    .FallThrough(1'b1)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (wr_req_valid),
    .req_ready_o    (wr_req_ready),
    .req_addr_i     (wr_addr),
    .req_data_i     (contract ? rsp_data : tr_data),
    .req_mask_i     ('1),
    .mem_req_valid_o(dma_wr_req_valid_o),
    .mem_req_ready_i(dma_wr_req_ready_i),
    .mem_req_addr_o (dma_wr_req_addr_o),
    .mem_req_data_o (dma_wr_req_data_o),
    .mem_req_mask_o (dma_wr_req_mask_o),
    .pending_o      (unused_wr_pending),
    .idle_o         (wr_idle)
  );
  assign mem_wr_take = dma_wr_req_valid_o && dma_wr_req_ready_i;

  // The layer is done when memory takes its last write: the write the walk makes now while the
  // engine holds none, else the held one (the engine takes a write only while it holds none).
  logic held_last_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) held_last_q <= 1'b0;
    else if (wr_take && !mem_wr_take) held_last_q <= wr_last;
  end
  assign layer_done = mem_wr_take && (wr_idle ? wr_take && wr_last : held_last_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q   <= 1'b0;
      rd_active_q <= 1'b0;
      done_o      <= '0;
    end else begin
      done_o <= layer_done ? (consumer ? 2'b10 : 2'b01) : 2'b00;
      if (start) begin
        running_q   <= 1'b1;
        rd_active_q <= 1'b1;
      end else begin
        if (rd_take && rd_last) rd_active_q <= 1'b0;
        if (layer_done) running_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- statistics
  logic        perf_en;
  logic [31:0] rd_stall, wr_stall;
  assign perf_en = rbk.perf_enable && running_q;
  dla_perf_cnt u_rd_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (perf_en),
    .inc_i  (dma_rd_req_valid_o && !dma_rd_req_ready_i),
    .count_o(rd_stall)
  );
  dla_perf_cnt u_wr_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start),
    .en_i   (perf_en),
    .inc_i  (dma_wr_req_valid_o && !dma_wr_req_ready_i),
    .count_o(wr_stall)
  );
  always_comb begin
    hw2reg                     = '0;
    hw2reg.perf_read_stall_de  = layer_done;
    hw2reg.perf_write_stall_de = layer_done;
    hw2reg.perf_read_stall     = rd_stall;
    hw2reg.perf_write_stall    = wr_stall;
  end

  logic unused;
  assign unused = s_we ^ s_re ^ (^s_off) ^ (^s_wdata) ^ regs_hit ^ (^fl_addr) ^ fl_last ^ (^sx) ^
                  (^rd_cnt) ^ (^fl_cnt) ^ (^wr_cnt);
endmodule
