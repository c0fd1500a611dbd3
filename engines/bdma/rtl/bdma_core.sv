// NVDLA BDMA (bridge DMA: memory-to-memory copies in command batches), register level.
// Spec: ../shared/reference/pdp-cdp-bdma-rubik.md §5; decisions in docs/BDMA.md.
//   * CSB: the generated register block bdma_reg_top: the twelve CFG_* staging registers (defined
//     bits only), CFG_STATUS.STALL_COUNT_EN, STATUS = FREE_SLOT | IDLE | GRP0_BUSY | GRP1_BUSY, the
//     four stall counters; CFG_OP, CFG_LAUNCH0/1 are triggers and read 0. Reads answer one cycle
//     later.
//   * CFG_OP.EN = 1 pushes a snapshot of the staging registers into a FifoDepth-entry command
//     FIFO (dla_fifo; FREE_SLOT = FifoDepth - level); a command is counted as "gathered" until
//     CFG_LAUNCHn.GRPn_LAUNCH = 1 closes the gathered commands as a batch of group n (a 2-entry
//     batch queue of (group, count)) and sets GRPn_BUSY. A launch with nothing gathered is
//     ignored (the RTL device refuses it before).
//   * copy engine: the read walk pops a command only once its batch is launched and reads it atom
//     by atom (surface, line, atom order; 32-byte atoms) through dla_dma_rd (MaxInFlight reads in
//     flight); the command goes on to the write walk (a 2-entry FIFO), which writes each response
//     whole at the same walk of the destination, through dla_dma_wr (one write falling through).
//     So reads of the next command run while the writes of the previous one drain (the RTL device refuses programs whose written lines
//     overlap other lines: the order of such accesses would decide the result).
//   * the last write of a batch being taken by memory pulses done_o[group] (to GLB bits 6/7) one
//     cycle later and clears GRPn_BUSY; IDLE = FIFO empty and no group busy.
//   * stall counters: cycles a read / write request of group n waits, while STALL_COUNT_EN.
module bdma_core #(
  parameter logic [31:0] Base        = 32'h4000,  // nvdlav1 map (nv_full)
  parameter int unsigned FifoDepth   = 20,        // CSB command slots
  parameter int unsigned MaxInFlight = 8,         // DMA reads outstanding
  localparam int unsigned AtomBytes  = 32,
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
  localparam int unsigned LevelW = $clog2(FifoDepth + 1);
  // A command: src[39:5], dst[39:5], size[12:0], dst_type, line_repeat[12:0], surf_repeat[12:0],
  // src_line, dst_line, src_surf, dst_surf [31:5].
  localparam int unsigned CmdW = 35 + 35 + 13 + 1 + 13 + 13 + 4 * 27;
  typedef struct packed {
    logic [34:0] src;
    logic [34:0] dst;
    logic [12:0] size;
    logic        dst_mc;
    logic [12:0] lines;
    logic [12:0] surfs;
    logic [26:0] src_line;
    logic [26:0] dst_line;
    logic [26:0] src_surf;
    logic [26:0] dst_surf;
  } cmd_t;
  typedef struct packed {
    logic  grp;
    logic  last;  // the last command of its batch
    cmd_t  cmd;
  } wcmd_t;

  // ---------------------------------------------------------------- CSB registers
  // The generated register block bdma_reg_top (tools/reggen): the staging registers and
  // CFG_STATUS as reg2hw fields, CFG_OP / CFG_LAUNCH0/1 as trigger pulses (they store nothing and
  // read 0), STATUS and the stall counters through hw2reg.
  bdma_regs_pkg::bdma_reg2hw_s_t cfg;
  bdma_regs_pkg::bdma_trigger_t  trig;
  bdma_regs_pkg::bdma_hw2reg_t   hw2reg;
  logic [1:0]        busy_q;
  logic [LevelW-1:0] cmd_level;
  logic [LevelW-1:0] gather_q;
  logic              rsp_q;
  logic [1:0][31:0]  rd_stall, wr_stall;
  localparam int unsigned SlotW    = 8;
  localparam logic [7:0]  Slots    = FifoDepth[7:0];
  localparam logic [63:0] AtomStep = 64'd32;  // AtomBytes

  logic cmd_push, cmd_in_ready, launch, launch_grp, bq_in_ready, csb_hit;
  assign cmd_push   = trig.cfg_op;
  assign launch     = (trig.cfg_launch0 || trig.cfg_launch1) && gather_q != '0;
  logic  launch_go;  // taken
  assign launch_go  = launch && bq_in_ready;
  assign launch_grp = trig.cfg_launch1;
  // A CFG_OP into a full FIFO, or a launch with two batches queued, waits (CSB back-pressure) until
  // the read walk takes a launched command / batch: nothing is lost. (With nothing launched this
  // would wait for ever: the RTL device refuses that program.)
  assign csb_req_ready_o = !(cmd_push && !cmd_in_ready) && !(launch && !bq_in_ready);

  bdma_reg_top #(
    .Base(Base)
  ) u_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_ready_i(csb_req_ready_o),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (csb_hit),
    .rdata_o    (csb_rsp_rdata_o),
    .reg2hw_o   (cfg),
    .trigger_o  (trig),
    .hw2reg_i   (hw2reg)
  );

  always_comb begin
    hw2reg                         = '0;
    hw2reg.status_free_slot        = Slots - SlotW'(cmd_level);
    hw2reg.status_idle             = cmd_level == '0 && busy_q == '0;
    hw2reg.status_grp0_busy        = busy_q[0];
    hw2reg.status_grp1_busy        = busy_q[1];
    hw2reg.status_grp0_read_stall  = rd_stall[0];
    hw2reg.status_grp0_write_stall = wr_stall[0];
    hw2reg.status_grp1_read_stall  = rd_stall[1];
    hw2reg.status_grp1_write_stall = wr_stall[1];
  end

  logic [1:0] done_d;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= '0;
      gather_q <= '0;
      rsp_q    <= 1'b0;
    end else begin
      if (cmd_push && cmd_in_ready) gather_q <= gather_q + 1'b1;
      else if (launch_go) gather_q <= '0;
      busy_q <= (busy_q & ~done_d) | (launch_go ? (launch_grp ? 2'b10 : 2'b01) : 2'b00);
      rsp_q  <= csb_req_valid_i && !csb_req_write_i;
    end
  end
  assign csb_rsp_valid_o = rsp_q;

  // ---------------------------------------------------------------- command FIFO and batches
  // A snapshot of the staging registers (REPEAT.NUMBER[23:13] are reserved: the RTL device refuses
  // a CFG_OP with any of them set, so the command keeps 13 bits).
  cmd_t stg_cmd;
  always_comb begin
    stg_cmd.src      = {cfg.cfg_src_addr_high, cfg.cfg_src_addr_low};
    stg_cmd.dst      = {cfg.cfg_dst_addr_high, cfg.cfg_dst_addr_low};
    stg_cmd.size     = cfg.cfg_line;
    stg_cmd.dst_mc   = cfg.cfg_cmd_dst_ram_type;
    stg_cmd.lines    = 13'(cfg.cfg_line_repeat);
    stg_cmd.surfs    = 13'(cfg.cfg_surf_repeat);
    stg_cmd.src_line = cfg.cfg_src_line;
    stg_cmd.dst_line = cfg.cfg_dst_line;
    stg_cmd.src_surf = cfg.cfg_src_surf;
    stg_cmd.dst_surf = cfg.cfg_dst_surf;
  end

  logic cmd_valid, cmd_pop;
  cmd_t cmd_head;
  dla_fifo #(
    .Depth(FifoDepth),
    .Width(CmdW)
  ) u_cmd_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (cmd_push),
    .in_ready_o (cmd_in_ready),
    .in_data_i  (stg_cmd),
    .out_valid_o(cmd_valid),
    .out_ready_i(cmd_pop),
    .out_data_o (cmd_head),
    .level_o    (cmd_level)
  );

  logic              bq_valid, bq_pop, bq_grp;
  logic [LevelW-1:0] bq_cnt;
  logic [1:0]        bq_level;
  dla_fifo #(
    .Depth(2),
    .Width(1 + LevelW)
  ) u_batch_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (launch_go),
    .in_ready_o (bq_in_ready),
    .in_data_i  ({launch_grp, gather_q}),
    .out_valid_o(bq_valid),
    .out_ready_i(bq_pop),
    .out_data_o ({bq_grp, bq_cnt}),
    .level_o    (bq_level)
  );

  // ---------------------------------------------------------------- read walk
  logic              rd_active_q, rd_grp_q;
  logic [LevelW-1:0] rd_left_q;  // commands of the current batch not yet popped
  /* verilator lint_off UNUSEDSIGNAL */
  cmd_t              rd_cmd_q;  // the destination fields are the write walk's (u_wcmd_q)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [12:0]       rd_atom_q, rd_line_q, rd_surf_q;
  logic [63:0]       rd_addr_q, rd_line_addr_q, rd_surf_addr_q;
  logic              wq_in_ready, rd_take, rd_start;

  assign rd_start = !rd_active_q && cmd_valid && (rd_left_q != '0 || bq_valid) && wq_in_ready;
  assign cmd_pop  = rd_start;
  assign bq_pop   = rd_start && rd_left_q == '0;

  logic              start_grp, start_last;
  logic [LevelW-1:0] start_left;
  assign start_grp  = rd_left_q == '0 ? bq_grp : rd_grp_q;
  assign start_left = (rd_left_q == '0 ? bq_cnt : rd_left_q) - 1'b1;
  assign start_last = start_left == '0;

  logic rd_req_ready;
  assign rd_take = rd_active_q && rd_req_ready;

  function automatic logic [63:0] addr40(input logic [34:0] a);
    addr40 = {24'b0, a, 5'b0};
  endfunction
  function automatic logic [63:0] stride(input logic [26:0] s);
    stride = {32'b0, s, 5'b0};
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_active_q    <= 1'b0;
      rd_grp_q       <= 1'b0;
      rd_left_q      <= '0;
      rd_cmd_q       <= '0;
      rd_atom_q      <= '0;
      rd_line_q      <= '0;
      rd_surf_q      <= '0;
      rd_addr_q      <= '0;
      rd_line_addr_q <= '0;
      rd_surf_addr_q <= '0;
    end else if (rd_start) begin
      rd_active_q    <= 1'b1;
      rd_grp_q       <= start_grp;
      rd_left_q      <= start_left;
      rd_cmd_q       <= cmd_head;
      rd_atom_q      <= '0;
      rd_line_q      <= '0;
      rd_surf_q      <= '0;
      rd_addr_q      <= addr40(cmd_head.src);
      rd_line_addr_q <= addr40(cmd_head.src);
      rd_surf_addr_q <= addr40(cmd_head.src);
    end else if (rd_take) begin
      if (rd_atom_q != rd_cmd_q.size) begin
        rd_atom_q <= rd_atom_q + 1'b1;
        rd_addr_q <= rd_addr_q + AtomStep;
      end else if (rd_line_q != rd_cmd_q.lines) begin
        rd_atom_q      <= '0;
        rd_line_q      <= rd_line_q + 1'b1;
        rd_addr_q      <= rd_line_addr_q + stride(rd_cmd_q.src_line);
        rd_line_addr_q <= rd_line_addr_q + stride(rd_cmd_q.src_line);
      end else if (rd_surf_q != rd_cmd_q.surfs) begin
        rd_atom_q      <= '0;
        rd_line_q      <= '0;
        rd_surf_q      <= rd_surf_q + 1'b1;
        rd_addr_q      <= rd_surf_addr_q + stride(rd_cmd_q.src_surf);
        rd_line_addr_q <= rd_surf_addr_q + stride(rd_cmd_q.src_surf);
        rd_surf_addr_q <= rd_surf_addr_q + stride(rd_cmd_q.src_surf);
      end else begin
        rd_active_q <= 1'b0;
      end
    end
  end

  logic              rsp_valid, rsp_ready;
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
    .req_addr_i     (rd_addr_q),
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

  // ---------------------------------------------------------------- write walk
  logic  wq_valid, wq_pop;
  wcmd_t wq_head;
  logic [1:0] wq_level;
  dla_fifo #(
    .Depth(2),
    .Width(2 + CmdW)
  ) u_wcmd_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (rd_start),
    .in_ready_o (wq_in_ready),
    .in_data_i  ({start_grp, start_last, cmd_head}),
    .out_valid_o(wq_valid),
    .out_ready_i(wq_pop),
    .out_data_o (wq_head),
    .level_o    (wq_level)
  );

  logic        wr_active_q;
  logic [12:0] wr_atom_q, wr_line_q, wr_surf_q;
  logic [63:0] wr_addr_q, wr_line_addr_q, wr_surf_addr_q;
  logic        wr_req_valid, wr_req_ready, wr_take, wr_end, wr_idle, mem_wr_take;
  logic        unused_wr_pending;

  assign wr_req_valid = wr_active_q && rsp_valid;
  assign wr_take      = wr_req_valid && wr_req_ready;
  assign rsp_ready    = wr_take;
  assign wr_end = wr_atom_q == wq_head.cmd.size && wr_line_q == wq_head.cmd.lines &&
                  wr_surf_q == wq_head.cmd.surfs;
  assign wq_pop = wr_take && wr_end;

  // The DMA write engine (docs/DMA.md), one write falling through: while memory takes every write
  // the port sees the walk's write in the cycle it is made, as without a buffer; a write memory
  // does not take is held there (the engine takes the next one once it has left).
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
    .req_addr_i     (wr_addr_q),
    .req_data_i     (rsp_data),
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

  // The group of the write at the port and whether it ends its batch: the write the walk makes now
  // while the engine holds none, else the held one's (the engine takes a write only while it holds
  // none). A batch is done when memory takes its last write.
  logic port_grp, port_end, held_grp_q, held_end_q;
  assign port_grp = wr_idle ? wq_head.grp : held_grp_q;
  assign port_end = wr_idle ? wq_pop && wq_head.last : held_end_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_grp_q <= 1'b0;
      held_end_q <= 1'b0;
    end else if (wr_take && !mem_wr_take) begin
      held_grp_q <= wq_head.grp;
      held_end_q <= wq_pop && wq_head.last;
    end
  end
  assign done_d = (mem_wr_take && port_end) ? (port_grp ? 2'b10 : 2'b01) : 2'b00;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_active_q    <= 1'b0;
      wr_atom_q      <= '0;
      wr_line_q      <= '0;
      wr_surf_q      <= '0;
      wr_addr_q      <= '0;
      wr_line_addr_q <= '0;
      wr_surf_addr_q <= '0;
      done_o         <= '0;
    end else begin
      done_o <= done_d;
      if (!wr_active_q) begin
        if (wq_valid) begin
          wr_active_q    <= 1'b1;
          wr_atom_q      <= '0;
          wr_line_q      <= '0;
          wr_surf_q      <= '0;
          wr_addr_q      <= addr40(wq_head.cmd.dst);
          wr_line_addr_q <= addr40(wq_head.cmd.dst);
          wr_surf_addr_q <= addr40(wq_head.cmd.dst);
        end
      end else if (wr_take) begin
        if (wr_atom_q != wq_head.cmd.size) begin
          wr_atom_q <= wr_atom_q + 1'b1;
          wr_addr_q <= wr_addr_q + AtomStep;
        end else if (wr_line_q != wq_head.cmd.lines) begin
          wr_atom_q      <= '0;
          wr_line_q      <= wr_line_q + 1'b1;
          wr_addr_q      <= wr_line_addr_q + stride(wq_head.cmd.dst_line);
          wr_line_addr_q <= wr_line_addr_q + stride(wq_head.cmd.dst_line);
        end else if (wr_surf_q != wq_head.cmd.surfs) begin
          wr_atom_q      <= '0;
          wr_line_q      <= '0;
          wr_surf_q      <= wr_surf_q + 1'b1;
          wr_addr_q      <= wr_surf_addr_q + stride(wq_head.cmd.dst_surf);
          wr_line_addr_q <= wr_surf_addr_q + stride(wq_head.cmd.dst_surf);
          wr_surf_addr_q <= wr_surf_addr_q + stride(wq_head.cmd.dst_surf);
        end else begin
          wr_active_q <= 1'b0;
        end
      end
    end
  end

  // ---------------------------------------------------------------- stall counters
  for (genvar g = 0; g < 2; g++) begin : g_stall
    dla_perf_cnt u_rd_stall (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .clr_i  (1'b0),
      .en_i   (cfg.cfg_status),
      .inc_i  (dma_rd_req_valid_o && !dma_rd_req_ready_i && rd_grp_q == g[0]),
      .count_o(rd_stall[g])
    );
    dla_perf_cnt u_wr_stall (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .clr_i  (1'b0),
      .en_i   (cfg.cfg_status),
      .inc_i  (dma_wr_req_valid_o && !dma_wr_req_ready_i && port_grp == g[0]),
      .count_o(wr_stall[g])
    );
  end

  logic unused;
  assign unused = (^bq_level) ^ (^wq_level) ^ cfg.cfg_cmd_src_ram_type ^ csb_hit ^ (^cfg.cfg_line_repeat) ^
                  (^cfg.cfg_surf_repeat);
endmodule
