// PDP_RDMA's memory read engine, with the interface of the shared DMA read engine (dla_dma_rd,
// rtl/dma/): one request = one memory atom, responses to the client in request order, up to
// MaxInFlight reads outstanding. A memory request is issued only when a response slot is reserved
// for it (outstanding + buffered < MaxInFlight), so the memory's response path is never blocked
// (mem_rsp_ready_o is constant 1). When dla_dma_rd lands, it replaces this module instance for
// instance (docs/PDP_RTL.md).
module pdp_dma_rd #(
  parameter int unsigned AddrWidth   = 64,
  parameter int unsigned DataWidth   = 64,
  parameter int unsigned MaxInFlight = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [AddrWidth-1:0] req_addr_i,
  output logic                 rsp_valid_o,
  input  logic                 rsp_ready_i,
  output logic [DataWidth-1:0] rsp_data_o,
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic [AddrWidth-1:0] mem_req_addr_o,
  input  logic                 mem_rsp_valid_i,
  output logic                 mem_rsp_ready_o,
  input  logic [DataWidth-1:0] mem_rsp_data_i
);
  localparam int unsigned CntW = $clog2(MaxInFlight + 1);
  logic [CntW-1:0] outstanding_q, level;
  logic            credit, req_fire, rsp_fire;

  assign credit          = (outstanding_q + level) < CntW'(MaxInFlight);
  assign mem_req_valid_o = req_valid_i && credit;
  assign mem_req_addr_o  = req_addr_i;
  assign req_ready_o     = mem_req_ready_i && credit;
  assign mem_rsp_ready_o = 1'b1;
  assign req_fire        = mem_req_valid_o && mem_req_ready_i;
  assign rsp_fire        = mem_rsp_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) outstanding_q <= '0;
    else outstanding_q <= outstanding_q + CntW'(req_fire) - CntW'(rsp_fire);
  end

  logic unused_in_ready;
  dla_fifo #(
    .Depth(MaxInFlight),
    .Width(DataWidth)
  ) u_rsp_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (mem_rsp_valid_i),
    .in_ready_o (unused_in_ready),
    .in_data_i  (mem_rsp_data_i),
    .out_valid_o(rsp_valid_o),
    .out_ready_i(rsp_ready_i),
    .out_data_o (rsp_data_o),
    .level_o    (level)
  );
endmodule
