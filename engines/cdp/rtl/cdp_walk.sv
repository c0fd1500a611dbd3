// CDP's traversal of a cube, one atom per step (pdp-cdp-bdma-rubik.md §3.1, CDP_RDMA's read order
// and CDP's write order): per line h, per chunk of up to 8 atoms along W (w0 = 0, 8, ...), per
// surface s, the chunk's atoms w = 0 .. min(8, W - w0) - 1, at
// base + h x line_stride + s x surface_stride + (w0 + w) x atom.
// start_i loads the first position (active_o rises); step_i (only while active_o) moves to the
// next; after the last position active_o falls. The sizes and strides must hold while active_o.
module cdp_walk #(
  parameter int unsigned AtomLog2 = 3
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        step_i,
  input  logic [63:0] base_i,
  input  logic [31:0] line_stride_i,
  input  logic [31:0] surf_stride_i,
  input  logic [13:0] width_i,       // W, H and surfaces as counts (>= 1)
  input  logic [13:0] height_i,
  input  logic [13:0] surfaces_i,
  output logic        active_o,
  output logic [63:0] addr_o,
  output logic [13:0] s_o,           // surface
  output logic [2:0]  w_o,           // atom within the chunk
  output logic [3:0]  chunk_w_o,     // atoms in this chunk: min(8, W - w0)
  output logic        last_s_o,      // the last surface of the chunk
  output logic        chunk_end_o    // this step ends a surface of the chunk
);
  logic [13:0] h_q, w0_q, s_q;
  logic [3:0]  w_q;
  logic [63:0] line_q, chunk_q, surf_q;
  logic        unused_h;

  assign chunk_w_o   = (width_i - w0_q >= 14'd8) ? 4'd8 : 4'(width_i - w0_q);
  assign last_s_o    = s_q + 14'd1 == surfaces_i;
  assign chunk_end_o = step_i && w_q + 4'd1 == chunk_w_o;
  assign addr_o      = surf_q + (64'(w_q) << AtomLog2);
  assign w_o         = w_q[2:0];
  assign s_o         = s_q;
  assign unused_h    = w_q[3];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_o <= 1'b0;
      h_q      <= '0;
      w0_q     <= '0;
      s_q      <= '0;
      w_q      <= '0;
      line_q   <= '0;
      chunk_q  <= '0;
      surf_q   <= '0;
    end else if (start_i) begin
      active_o <= 1'b1;
      h_q      <= '0;
      w0_q     <= '0;
      s_q      <= '0;
      w_q      <= '0;
      line_q   <= base_i;
      chunk_q  <= base_i;
      surf_q   <= base_i;
    end else if (step_i) begin
      if (!chunk_end_o) begin
        w_q <= w_q + 4'd1;
      end else begin
        w_q <= '0;
        if (!last_s_o) begin
          s_q    <= s_q + 14'd1;
          surf_q <= surf_q + 64'(surf_stride_i);
        end else begin
          s_q <= '0;
          if (w0_q + 14'd8 < width_i) begin
            w0_q    <= w0_q + 14'd8;
            chunk_q <= chunk_q + (64'd8 << AtomLog2);
            surf_q  <= chunk_q + (64'd8 << AtomLog2);
          end else begin
            w0_q <= '0;
            if (h_q + 14'd1 < height_i) begin
              h_q     <= h_q + 14'd1;
              line_q  <= line_q + 64'(line_stride_i);
              chunk_q <= line_q + 64'(line_stride_i);
              surf_q  <= line_q + 64'(line_stride_i);
            end else begin
              active_o <= 1'b0;
            end
          end
        end
      end
    end
  end
endmodule
