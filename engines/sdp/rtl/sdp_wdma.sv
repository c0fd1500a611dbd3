// SDP's writer (WDMA, docs/SDP_RTL.md "Writes"): collects the datapath's converted lanes into the
// output atom (int8: one byte per lane, int16: two) and hands each finished atom that is written
// (not in EQL mode, not past the output channels) to the DMA write engine (dla_dma_wr, one
// request buffered). Its requests go to the DMA write port, or with OUTPUT_DST = PDP to PDP's
// on-the-fly port in the same order. An atom leaves while the next one's lanes arrive: the engine
// takes a new atom in the cycle its port takes the last one. OUTPUT_DST is read from the layer's
// configuration, which cannot change while a write is pending (the consumer group's registers
// are locked while it is armed, and a layer ends only when the engine is idle).
module sdp_wdma #(
  parameter int unsigned AtomLog2 = 3,
  parameter int unsigned Lanes    = 1,
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes,
  localparam int unsigned CntW      = $clog2(Lanes + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  sdp_pkg::cfg_t          cfg_i,
  input  logic                   start_i,
  input  logic                   running_i,
  // a step's converted lanes (sdp_dp)
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  logic [Lanes-1:0][15:0] in_val_i,
  input  logic [CntW-1:0]        in_cnt_i,
  input  logic [5:0]             in_lane_i,
  input  logic                   in_atom_last_i,
  input  logic                   in_write_i,
  input  logic [AtomBytes-1:0]   in_mask_i,
  input  logic [63:0]            in_addr_i,
  // DMA write: one atom per request, byte mask
  output logic                   dma_wr_req_valid_o,
  input  logic                   dma_wr_req_ready_i,
  output logic [63:0]            dma_wr_req_addr_o,
  output logic [AtomBits-1:0]    dma_wr_req_data_o,
  output logic [AtomBytes-1:0]   dma_wr_req_mask_o,
  // on-the-fly output to PDP
  output logic                   pdp_valid_o,
  input  logic                   pdp_ready_i,
  output logic [AtomBits-1:0]    pdp_data_o,
  // every write has left; cycles a write waited on the DMA port (SDP's PERF_DMA_EN)
  output logic                   idle_o,
  output logic [31:0]            wr_stall_o
);
  localparam int unsigned LaneW = (Lanes > 1) ? $clog2(Lanes) : 1;
  /* verilator lint_off UNUSEDSIGNAL */
  sdp_pkg::cfg_t cfg;  // only the output format, the destination and the perf enable are read
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  // The atom being collected: the lanes of the steps so far, then this step's.
  logic [AtomBytes-1:0][15:0] lanes_q, lanes_d;
  logic [AtomBits-1:0]        atom_data;
  logic                       in_fire;
  assign in_fire = in_valid_i && in_ready_o;
  always_comb begin
    atom_data = '0;
    lanes_d   = lanes_q;
    for (int unsigned i = 0; i < AtomBytes; i++) begin
      logic [6:0] rel;
      rel = 7'(i) - 7'(in_lane_i);
      if (7'(i) >= 7'(in_lane_i) && rel < 7'(in_cnt_i)) lanes_d[i] = in_val_i[LaneW'(rel)];
      if (cfg.c.out_wide) begin
        if (i < AtomBytes / 2) atom_data[16*i +: 16] = lanes_d[i];
      end else begin
        atom_data[8*i +: 8] = lanes_d[i][7:0];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_fire) lanes_q <= lanes_d;
  end

  // A finished atom goes to the write engine; its port is the DMA's or PDP's.
  logic                 mem_valid, mem_ready;
  logic [63:0]          mem_addr;
  logic [AtomBits-1:0]  mem_data;
  logic [AtomBytes-1:0] mem_mask;
  logic                 pending;
  dla_dma_wr #(
    .AddrWidth(64),
    .DataWidth(AtomBits),
    .Depth    (1)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (in_valid_i && in_atom_last_i && in_write_i),
    .req_ready_o    (in_ready_o),
    .req_addr_i     (in_addr_i),
    .req_data_i     (atom_data),
    .req_mask_i     (in_mask_i),
    .mem_req_valid_o(mem_valid),
    .mem_req_ready_i(mem_ready),
    .mem_req_addr_o (mem_addr),
    .mem_req_data_o (mem_data),
    .mem_req_mask_o (mem_mask),
    .pending_o      (pending),
    .idle_o         (idle_o)
  );
  assign mem_ready          = cfg.to_pdp ? pdp_ready_i : dma_wr_req_ready_i;
  assign dma_wr_req_valid_o = mem_valid && !cfg.to_pdp;
  assign pdp_valid_o        = mem_valid && cfg.to_pdp;
  assign pdp_data_o         = mem_data;
  assign dma_wr_req_addr_o  = mem_addr;
  assign dma_wr_req_data_o  = mem_data;
  assign dma_wr_req_mask_o  = mem_mask;

  dla_perf_cnt u_wr_stall (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clr_i  (start_i),
    .en_i   (cfg.perf_wr_en && running_i),
    .inc_i  (dma_wr_req_valid_o && !dma_wr_req_ready_i),
    .count_o(wr_stall_o)
  );

  logic unused;
  assign unused = pending;
endmodule
