// DMA write engine: a client's one-atom write requests (address, data, byte mask) to memory, in
// order, through an elastic buffer of Depth requests (docs/DMA.md).
//   * Posted writes: the memory write port has no response channel (docs/RTL_CONVENTIONS.md), so
//     a write is complete when memory takes it. In flight = accepted from the client in an earlier
//     cycle, not yet taken by memory: pending_o counts them, idle_o = none; a unit's layer ends
//     only when its writes have left (idle_o), as NVDLA's units wait for their write completions.
//   * Buffer, Fifo = 0 (pipe): Depth stages (dla_pipe_ctrl, bubbles collapse). The memory request
//     (valid, address, data, mask) comes from registers; req_ready_o = pending < Depth ||
//     mem_req_ready_i, so one request per cycle at any Depth >= 1 while memory takes one per cycle
//     (a full buffer takes a new request in the cycle memory takes the oldest). A request reaches
//     memory Depth cycles after it is accepted when nothing stalls.
//   * Buffer, Fifo = 1: a dla_fifo of Depth entries; req_ready_o = pending < Depth (from
//     registers). FallThrough = 0: the memory request comes from registers, a request reaches
//     memory one cycle after it is accepted at any Depth. FallThrough = 1: an empty buffer hands
//     the client's request to memory in the same cycle (mem_req_* = req_*) and keeps it only if
//     memory does not take it, so a client that wrote the port directly keeps its timing while
//     memory takes every write, and runs on while memory stalls.
// Depth >= 1. The data registers have no reset: mem_req_addr_o / data / mask are meaningful only
// while mem_req_valid_o.
module dla_dma_wr #(
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned DataWidth = 64,  // one memory atom
  parameter int unsigned Depth     = 1,
  parameter bit          Fifo        = 1'b0,
  parameter bit          FallThrough = 1'b0,  // with Fifo only
  localparam int unsigned MaskWidth = DataWidth / 8,
  localparam int unsigned CntW      = $clog2(Depth + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // client request: one atom, byte mask
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [AddrWidth-1:0] req_addr_i,
  input  logic [DataWidth-1:0] req_data_i,
  input  logic [MaskWidth-1:0] req_mask_i,
  // memory write request (posted)
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic [AddrWidth-1:0] mem_req_addr_o,
  output logic [DataWidth-1:0] mem_req_data_o,
  output logic [MaskWidth-1:0] mem_req_mask_o,
  // writes accepted and not yet taken by memory
  output logic [CntW-1:0]      pending_o,
  output logic                 idle_o
);
  localparam int unsigned W = AddrWidth + DataWidth + MaskWidth;

  if (Fifo) begin : g_fifo
    logic [CntW-1:0] level;
    dla_fifo #(
      .Depth      (Depth),
      .Width      (W),
      .FallThrough(FallThrough)
    ) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (req_valid_i),
      .in_ready_o (req_ready_o),
      .in_data_i  ({req_addr_i, req_data_i, req_mask_i}),
      .out_valid_o(mem_req_valid_o),
      .out_ready_i(mem_req_ready_i),
      .out_data_o ({mem_req_addr_o, mem_req_data_o, mem_req_mask_o}),
      .level_o    (level)
    );
    assign pending_o = level;
    assign idle_o    = level == '0;
  end else begin : g_pipe
    logic [Depth-1:0]   ld, held;
    logic [Depth*W-1:0] stage_q;  // stage k at [W*k +: W] (Yosys 0.55 takes no 2-D packed array here)

    dla_pipe_ctrl #(
      .Stages(Depth)
    ) u_ctrl (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .in_valid_i (req_valid_i),
      .in_ready_o (req_ready_o),
      .out_valid_o(mem_req_valid_o),
      .out_ready_i(mem_req_ready_i),
      .ld_o       (ld),
      .valid_o    (held)
    );

    always_ff @(posedge clk_i) begin
      for (int unsigned k = 0; k < Depth; k++) begin
        if (ld[k]) stage_q[W*k +: W] <= (k == 0) ? {req_addr_i, req_data_i, req_mask_i} : stage_q[W*((k == 0) ? 0 : k - 1) +: W];
      end
    end
    assign {mem_req_addr_o, mem_req_data_o, mem_req_mask_o} = stage_q[W*(Depth-1) +: W];

    always_comb begin
      pending_o = '0;
      for (int unsigned k = 0; k < Depth; k++) pending_o += CntW'(held[k]);
    end
    assign idle_o = held == '0;
  end
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovReqFire: cover property (@(posedge clk_i) req_valid_i && req_ready_o);
  CovReqStall: cover property (@(posedge clk_i) req_valid_i && !req_ready_o);
  CovMemReqFire: cover property (@(posedge clk_i) mem_req_valid_o && mem_req_ready_i);
  CovMemReqStall: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
`endif
endmodule
