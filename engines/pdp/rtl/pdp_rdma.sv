// PDP_RDMA: PDP's input side. Off the fly, the read sequencer walks split, surface, input line
// and column (its own registers: widths, split, kernel width / stride for the overlap between
// splits) and reads one atom per column through dla_dma_rd (several reads in flight); on the fly,
// SDP's atoms enter through a 2-atom FIFO. Either way the atoms leave on one valid / ready stream
// in PDP's processing order. docs/PDP_RTL.md.
module pdp_rdma #(
  parameter int unsigned AtomLog2    = 3,   // 8-byte memory atom (nv_small); 5 for nv_large/nv_full
  parameter int unsigned MaxInFlight = 16,  // DMA reads outstanding
  localparam int unsigned AtomBytes  = 1 << AtomLog2,
  localparam int unsigned AtomBits   = 8 * AtomBytes
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,       // the layer starts (its registers are stable)
  input  logic                  off_flying_i,  // FLYING_MODE: 1 = input from memory
  // PDP_RDMA's consumer group
  /* verilator lint_off UNUSEDSIGNAL */
  input  pdp_rdma_regs_pkg::pdp_rdma_reg2hw_d_t rdma_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                  issued_o,      // every read of the layer is issued
  output logic                  flying_o,      // the running layer's input is the flying port
  // input atoms to the pooling core
  output logic                  in_valid_o,
  input  logic                  in_ready_i,
  output logic [AtomBits-1:0]   in_data_o,
  // DMA read
  output logic                  dma_rd_req_valid_o,
  input  logic                  dma_rd_req_ready_i,
  output logic [63:0]           dma_rd_req_addr_o,
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]   dma_rd_rsp_data_i,
  // on-the-fly input
  input  logic                  fly_valid_i,
  output logic                  fly_ready_o,
  input  logic [AtomBits-1:0]   fly_data_i
);
  localparam int unsigned Lanes = AtomBytes;  // int8 lanes of an atom

  // Split i of n: offset and width in atoms (overlap = kernel - stride, may be negative).
  logic        r_wide;  // 16-bit elements (int16, fp16)
  logic [8:0]  r_n_split;
  logic [10:0] r_first, r_mid, r_last;
  logic signed [5:0] r_overlap;
  logic [13:0] r_in_h_n, r_in_w_n, r_surfaces;
  assign r_wide     = rdma_i.data_format != 2'd0;
  assign r_n_split  = 9'(rdma_i.operation_mode_cfg) + 9'd1;
  assign r_first    = 11'(rdma_i.partial_width_in_partial_width_in_first) + 11'd1;
  assign r_last     = 11'(rdma_i.partial_width_in_partial_width_in_last) + 11'd1;
  assign r_mid      = 11'(rdma_i.partial_width_in_partial_width_in_mid) + 11'd1;
  assign r_overlap  = $signed({2'b0, rdma_i.pooling_kernel_cfg_kernel_width}) - $signed({2'b0, rdma_i.pooling_kernel_cfg_kernel_stride_width});
  assign r_in_h_n   = 14'(rdma_i.data_cube_in_height) + 14'd1;
  assign r_in_w_n   = 14'(rdma_i.data_cube_in_width) + 14'd1;
  assign r_surfaces = r_wide ? 14'((14'(rdma_i.data_cube_in_channel) + 14'(Lanes / 2)) >> (AtomLog2 - 1))
                              : 14'((14'(rdma_i.data_cube_in_channel) + 14'(Lanes)) >> AtomLog2);

  logic        rq_active_q;
  logic [8:0]  rq_split_q;
  logic [13:0] rq_surf_q, rq_line_q, rq_col_q, rq_width_q;
  logic [63:0] rq_split_base_q, rq_surf_base_q, rq_line_base_q, rq_addr_q;
  logic signed [31:0] rq_next_off_q;  // atom offset of the next split
  logic        rq_fire;
  logic        ce_req_ready;

  // width of split i (atoms)
  function automatic logic [13:0] r_split_width(input logic [8:0] i);
    if (r_n_split == 9'd1) r_split_width = r_in_w_n;
    else if (i == 9'd0) r_split_width = 14'(r_first);
    else if (i == r_n_split - 9'd1) r_split_width = 14'($signed({3'b0, r_last}) + 14'(r_overlap));
    else r_split_width = 14'($signed({3'b0, r_mid}) + 14'(r_overlap));
  endfunction

  assign rq_fire = rq_active_q && ce_req_ready;
  logic [63:0] src_base;
  assign src_base = {rdma_i.src_base_addr_high, rdma_i.src_base_addr_low};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_active_q     <= 1'b0;
      rq_split_q      <= '0;
      rq_surf_q       <= '0;
      rq_line_q       <= '0;
      rq_col_q        <= '0;
      rq_width_q      <= '0;
      rq_split_base_q <= '0;
      rq_surf_base_q  <= '0;
      rq_line_base_q  <= '0;
      rq_addr_q       <= '0;
      rq_next_off_q   <= '0;
    end else if (start_i) begin
      rq_active_q     <= off_flying_i;
      rq_split_q      <= '0;
      rq_surf_q       <= '0;
      rq_line_q       <= '0;
      rq_col_q        <= '0;
      rq_width_q      <= r_split_width(9'd0);
      rq_split_base_q <= src_base;
      rq_surf_base_q  <= src_base;
      rq_line_base_q  <= src_base;
      rq_addr_q       <= src_base;
      rq_next_off_q   <= 32'(r_first) - 32'(r_overlap);
    end else if (rq_fire) begin
      if (rq_col_q + 14'd1 < rq_width_q) begin
        rq_col_q  <= rq_col_q + 14'd1;
        rq_addr_q <= rq_addr_q + 64'(AtomBytes);
      end else begin
        rq_col_q <= '0;
        if (rq_line_q + 14'd1 < r_in_h_n) begin
          rq_line_q      <= rq_line_q + 14'd1;
          rq_line_base_q <= rq_line_base_q + 64'(rdma_i.src_line_stride);
          rq_addr_q      <= rq_line_base_q + 64'(rdma_i.src_line_stride);
        end else begin
          rq_line_q <= '0;
          if (rq_surf_q + 14'd1 < r_surfaces) begin
            rq_surf_q      <= rq_surf_q + 14'd1;
            rq_surf_base_q <= rq_surf_base_q + 64'(rdma_i.src_surface_stride);
            rq_line_base_q <= rq_surf_base_q + 64'(rdma_i.src_surface_stride);
            rq_addr_q      <= rq_surf_base_q + 64'(rdma_i.src_surface_stride);
          end else begin
            rq_surf_q <= '0;
            if (rq_split_q + 9'd1 < r_n_split) begin
              logic [63:0] b;
              b = src_base + 64'($signed(64'(rq_next_off_q)) <<< AtomLog2);
              rq_split_q      <= rq_split_q + 9'd1;
              rq_width_q      <= r_split_width(rq_split_q + 9'd1);
              rq_split_base_q <= b;
              rq_surf_base_q  <= b;
              rq_line_base_q  <= b;
              rq_addr_q       <= b;
              rq_next_off_q   <= rq_next_off_q + 32'(r_mid);
            end else begin
              rq_active_q <= 1'b0;
            end
          end
        end
      end
    end
  end
  assign issued_o = !rq_active_q;
  logic unused_rq;
  assign unused_rq = ^rq_split_base_q;

  logic                rd_valid, rd_ready;
  logic [AtomBits-1:0] rd_data;
  logic                flying_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) flying_q <= 1'b0;
    else if (start_i) flying_q <= !off_flying_i;
  end
  assign flying_o = flying_q;
  // On the fly, a 2-atom FIFO takes SDP's atom at once: PDP spends Lanes / Throughput beats on
  // an atom and pops it at the last, and without the FIFO SDP could not build its next atom
  // meanwhile (the two would take turns, half the rate).
  logic                fly_valid, fly_ready;
  logic [AtomBits-1:0] fly_data;
  logic [1:0]          unused_fly_level;
  dla_fifo #(
    .Depth      (2),
    .Width      (AtomBits),
    .FallThrough(1'b1)
  ) u_fly_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (flying_q && fly_valid_i),
    .in_ready_o (fly_ready),
    .in_data_i  (fly_data_i),
    .out_valid_o(fly_valid),
    .out_ready_i(flying_q && in_ready_i),
    .out_data_o (fly_data),
    .level_o    (unused_fly_level)
  );
  assign fly_ready_o = flying_q && fly_ready;
  assign in_valid_o  = flying_q ? fly_valid : rd_valid;
  assign in_data_o   = flying_q ? fly_data : rd_data;
  assign rd_ready    = !flying_q && in_ready_i;
  dla_dma_rd #(
    .AddrWidth  (64),
    .DataWidth  (AtomBits),
    .MaxInFlight(MaxInFlight)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (rq_active_q),
    .req_ready_o    (ce_req_ready),
    .req_addr_i     (rq_addr_q),
    .rsp_valid_o    (rd_valid),
    .rsp_ready_i    (rd_ready),
    .rsp_data_o     (rd_data),
    .mem_req_valid_o(dma_rd_req_valid_o),
    .mem_req_ready_i(dma_rd_req_ready_i),
    .mem_req_addr_o (dma_rd_req_addr_o),
    .mem_rsp_valid_i(dma_rd_rsp_valid_i),
    .mem_rsp_ready_o(dma_rd_rsp_ready_o),
    .mem_rsp_data_i (dma_rd_rsp_data_i)
  );
endmodule
