// PDP's writer (split from pdp_core 2026-12-03, no change of behaviour; docs/PDP_RTL.md): packs
// the pooling stages' output beats into whole atoms (int8: one byte per lane, int16 / fp16: two)
// and hands each atom, at its last beat, to the DMA write engine (dla_dma_wr, a 4-entry FIFO:
// docs/DMA.md) with the address the pooling stages computed. Every lane of the atom is written
// (the last surface's lanes past the channels included), so the byte mask is all ones.
module pdp_wdma #(
  parameter int unsigned AtomLog2   = 3,
  parameter int unsigned Throughput = 1,
  parameter int unsigned BeatW      = 1,  // beat index width: pdp_core's, the one definition
  localparam int unsigned AtomBytes = 1 << AtomLog2,
  localparam int unsigned AtomBits  = 8 * AtomBytes
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         wide_i,      // 16-bit elements
  // output beats (pdp_pool)
  input  logic                         beat_fire_i,
  input  logic [BeatW-1:0]             beat_i,
  input  logic                         beat_last_i,
  input  logic [Throughput-1:0][15:0]  value_i,
  input  logic [63:0]                  addr_i,
  output logic                         ready_o,     // the engine takes an atom
  // the atom handed to the engine (fp16's output NaN count)
  output logic                         push_o,
  output logic [AtomBits-1:0]          atom_o,
  // DMA write
  output logic                         dma_wr_req_valid_o,
  input  logic                         dma_wr_req_ready_i,
  output logic [63:0]                  dma_wr_req_addr_o,
  output logic [AtomBits-1:0]          dma_wr_req_data_o,
  output logic [AtomBytes-1:0]         dma_wr_req_mask_o,
  output logic                         idle_o
);
  localparam int unsigned T      = Throughput;
  localparam int unsigned Lanes  = AtomBytes;
  localparam int unsigned NBeats = Lanes / T;

  // The beat's T lanes are written through constant indexes, one branch per beat (a run-time
  // lane index synthesizes as shifts across all lanes: docs/RTL_CONVENTIONS.md).
  logic [AtomBits-1:0] pack_q, pack_d;
  always_comb begin
    pack_d = pack_q;
    for (int unsigned b = 0; b < NBeats; b++) begin
      if (beat_i == BeatW'(b)) begin
        for (int unsigned t = 0; t < T; t++) begin
          if (wide_i) pack_d[16*((b * T + t) % (Lanes / 2)) +: 16] = value_i[t];
          else pack_d[8*(b * T + t) +: 8] = value_i[t][7:0];
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (beat_fire_i) pack_q <= pack_d;
  end
  assign push_o = beat_fire_i && beat_last_i;
  assign atom_o = pack_d;

  logic [$clog2(5)-1:0] unused_wr_pending;
  dla_dma_wr #(
    .AddrWidth(64),
    .DataWidth(AtomBits),
    .Depth    (4),
    .Fifo     (1'b1)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (push_o),
    .req_ready_o    (ready_o),
    .req_addr_i     (addr_i),
    .req_data_i     (pack_d),
    .req_mask_i     ('1),
    .mem_req_valid_o(dma_wr_req_valid_o),
    .mem_req_ready_i(dma_wr_req_ready_i),
    .mem_req_addr_o (dma_wr_req_addr_o),
    .mem_req_data_o (dma_wr_req_data_o),
    .mem_req_mask_o (dma_wr_req_mask_o),
    .pending_o      (unused_wr_pending),
    .idle_o         (idle_o)
  );
endmodule
