// DMA read engine: a client's one-atom read requests to memory, up to MaxInFlight of them in
// flight, responses back to the client in request order through a latency-hiding buffer of
// MaxInFlight atoms (docs/DMA.md).
//   * Credits: a slot of the response buffer is reserved when a request goes to memory and freed
//     when the client takes that response; a request goes out only while a slot is free
//     (reserved < MaxInFlight). So every response the memory returns has room: mem_rsp_ready_o is
//     constant 1 and the memory is never back-pressured.
//   * Request path: combinational pass-through, gated by the credit (req_ready_o =
//     mem_req_ready_i && credit, mem_req_valid_o = req_valid_i && credit). The credit falls only
//     when a request is taken, so a presented mem_req_valid_o stays up until it is taken.
//   * Response path: dla_fifo (registered outputs): rsp_valid_o / rsp_data_o come from registers,
//     one cycle after the memory's response.
//   * Rate: a slot is held from the request's cycle to one cycle after the client takes the
//     response, i.e. latency + 2 cycles when the client takes it at once. One request per cycle
//     at a memory latency of L cycles needs MaxInFlight >= L + 2; with fewer slots the engine
//     moves MaxInFlight / (L + 2) atoms per cycle.
// MaxInFlight >= 1 (no power of two needed). The buffer has no reset (dla_fifo): rsp_data_o is
// meaningful only while rsp_valid_o.
module dla_dma_rd #(
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned DataWidth   = 64,   // one memory atom
  parameter int unsigned MaxInFlight = 8,
  localparam int unsigned CntW       = $clog2(MaxInFlight + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // client request: one atom
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [AddrWidth-1:0] req_addr_i,
  // client response, in request order
  output logic                 rsp_valid_o,
  input  logic                 rsp_ready_i,
  output logic [DataWidth-1:0] rsp_data_o,
  // memory request
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic [AddrWidth-1:0] mem_req_addr_o,
  // memory response, in request order
  input  logic                 mem_rsp_valid_i,
  output logic                 mem_rsp_ready_o,
  input  logic [DataWidth-1:0] mem_rsp_data_i
);
  logic [CntW-1:0] reserved_q;  // requests issued whose response the client has not taken
  logic            credit, issue, retire;

  assign credit          = reserved_q < CntW'(MaxInFlight);
  assign mem_req_valid_o = req_valid_i && credit;
  assign mem_req_addr_o  = req_addr_i;
  assign req_ready_o     = mem_req_ready_i && credit;
  assign issue           = mem_req_valid_o && mem_req_ready_i;
  assign retire          = rsp_valid_o && rsp_ready_i;
  assign mem_rsp_ready_o = 1'b1;  // a slot was reserved for every response

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reserved_q <= '0;
    end else begin
      reserved_q <= reserved_q + CntW'(issue) - CntW'(retire);
    end
  end

  // Always ready by the credits; not used, so that a credit error shows as a lost response.
  logic                               buf_in_ready;
  logic [$clog2(MaxInFlight + 1)-1:0] buf_level;
  dla_fifo #(
    .Depth(MaxInFlight),
    .Width(DataWidth)
  ) u_rsp_buf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (mem_rsp_valid_i),
    .in_ready_o (buf_in_ready),
    .in_data_i  (mem_rsp_data_i),
    .out_valid_o(rsp_valid_o),
    .out_ready_i(rsp_ready_i),
    .out_data_o (rsp_data_o),
    .level_o    (buf_level)
  );
  logic unused_buf;
  assign unused_buf = buf_in_ready ^ (^buf_level);
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovReqFire: cover property (@(posedge clk_i) req_valid_i && req_ready_o);
  CovReqStall: cover property (@(posedge clk_i) req_valid_i && !req_ready_o);
  CovRspFire: cover property (@(posedge clk_i) rsp_valid_o && rsp_ready_i);
  CovRspStall: cover property (@(posedge clk_i) rsp_valid_o && !rsp_ready_i);
  CovMemReqFire: cover property (@(posedge clk_i) mem_req_valid_o && mem_req_ready_i);
  CovMemReqStall: cover property (@(posedge clk_i) mem_req_valid_o && !mem_req_ready_i);
  CovMemRspFire: cover property (@(posedge clk_i) mem_rsp_valid_i && mem_rsp_ready_o);
  CovMemRspStall: cover property (@(posedge clk_i) mem_rsp_valid_i && !mem_rsp_ready_o);
`endif
endmodule
