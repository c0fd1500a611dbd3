// N DMA read masters onto one read port whose responses come back in request order.
//   * Requests: round robin between the masters (dla_rr_arb; a stalled grant is held). A request
//     goes out only while the tag FIFO has room for the master's index.
//   * Responses: the tag at the FIFO's head names the master the next response belongs to.
// TagDepth bounds the reads in flight on the port: at least the sum of the masters' own.
// A request is ReqW bits: the 64-bit address, and above it whatever further fields the port has
// (nvdla_core: the request length in atoms - 1, docs/DMA.md "The port"); they pass through as
// the address does. Weights: the arbiter's per-master weights (dla_rr_arb).
module dla_dma_rd_mux #(
  parameter int unsigned N        = 2,
  parameter int unsigned DataW    = 64,
  parameter int unsigned TagDepth = 16,
  parameter int unsigned ReqW     = 64,
  parameter int unsigned WeightW  = 4,
  parameter logic [N*WeightW-1:0] Weights = {N{WeightW'(1)}},
  localparam int unsigned IdxW    = $clog2(N)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // masters
  input  logic [N-1:0]          m_req_valid_i,
  output logic [N-1:0]          m_req_ready_o,
  input  logic [N-1:0][ReqW-1:0] m_req_addr_i,
  output logic [N-1:0]          m_rsp_valid_o,
  input  logic [N-1:0]          m_rsp_ready_i,
  output logic [DataW-1:0]      m_rsp_data_o,  // shared: valid only where m_rsp_valid_o is set
  // the port
  output logic                  req_valid_o,
  input  logic                  req_ready_i,
  output logic [ReqW-1:0]       req_addr_o,
  input  logic                  rsp_valid_i,
  output logic                  rsp_ready_o,
  input  logic [DataW-1:0]      rsp_data_i
);
  logic            arb_valid, arb_ready, tag_ready, tag_valid;
  logic [IdxW-1:0] arb_idx, head;
  logic [$clog2(TagDepth+1)-1:0] tag_level;

  dla_rr_arb #(
    .N      (N),
    .Width  (ReqW),
    .WeightW(WeightW),
    .Weights(Weights)
  ) u_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (m_req_valid_i),
    .in_ready_o (m_req_ready_o),
    .in_data_i  (m_req_addr_i),
    .out_valid_o(arb_valid),
    .out_ready_i(arb_ready),
    .out_data_o (req_addr_o),
    .out_idx_o  (arb_idx)
  );
  assign req_valid_o = arb_valid && tag_ready;
  assign arb_ready   = req_ready_i && tag_ready;

  dla_fifo #(
    .Depth(TagDepth),
    .Width(IdxW)
  ) u_tags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (req_valid_o && req_ready_i),
    .in_ready_o (tag_ready),
    .in_data_i  (arb_idx),
    .out_valid_o(tag_valid),
    .out_ready_i(rsp_valid_i && m_rsp_ready_i[head]),
    .out_data_o (head),
    .level_o    (tag_level)
  );
  always_comb begin
    m_rsp_valid_o = '0;
    m_rsp_valid_o[head] = rsp_valid_i && tag_valid;
  end
  assign m_rsp_data_o = rsp_data_i;
  assign rsp_ready_o  = tag_valid && m_rsp_ready_i[head];

  logic unused;
  assign unused = ^tag_level;
endmodule
