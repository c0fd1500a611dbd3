// SDP's sequencer: the layer's start and end and the walker's position (docs/SDP_RTL.md).
// Order: channel group (surface), h, w (Winograd: 2x2 tiles), batch, lane -- CACC's flying order
// with batches (each position's N batches in turn, docs/CONV_RTL.md); batches exist in flying
// mode only (batch_m1 is 0 otherwise), so N = 1 walks as before. A step takes cnt_i
// consecutive lanes of one (n, surface, h, w); sdp_rdma decides cnt_i (the leading lanes whose
// operand bytes lie in lane 0's atoms) and step_i (it issues the step). The layer starts when
// SDP's consumer group is armed and, with flying mode off, SDP_RDMA's too; it is done when the
// datapath took the last step and the output side has drained (drained_i).
module sdp_seq #(
  parameter int unsigned Lanes = 1,
  localparam int unsigned CntW = $clog2(Lanes + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  sdp_pkg::cfg_t cfg_i,
  input  logic          sdp_armed_i,
  input  logic          rdma_armed_i,
  // the walker's step
  input  logic [CntW-1:0] cnt_i,
  input  logic          step_i,
  // the datapath took the layer's last step; nothing is left in the output side
  input  logic          last_taken_i,
  input  logic          drained_i,
  output logic          start_o,
  output logic          running_o,
  output logic          walk_o,      // running and steps left to issue
  output logic          done_o,
  // position of the walker's step
  output logic [4:0]    n_o,
  output logic [12:0]   c_o,         // channel of the step's lane 0
  output logic [12:0]   h_o,
  output logic [12:0]   w_o,
  output logic [6:0]    beat_o,      // lane of c_o inside its Lanes-aligned group
  output logic          last_l_o,    // the step ends its channel group
  output logic          last_o       // the layer's last step
);
  logic running_q, fetch_done_q, cons_done_q;
  logic [4:0]  n_q;
  logic [12:0] s_q, h_q, w_q;
  logic [5:0]  l_q;
  logic        last_l, last_w, last_h, last_s, last_n;

  /* verilator lint_off UNUSEDSIGNAL */
  sdp_pkg::cfg_t cfg;  // only the geometry is read here
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  assign start_o   = !running_q && sdp_armed_i && (cfg.flying || rdma_armed_i);
  assign running_o = running_q;
  assign walk_o    = running_q && !fetch_done_q;
  assign c_o       = (s_q << cfg.ca_it_log2) | 13'(l_q);
  assign beat_o    = 7'(l_q) & 7'(Lanes - 1);
  assign last_l    = 7'(l_q) + 7'(cnt_i) == (7'd1 << cfg.ca_it_log2);
  assign last_w    = w_q == cfg.width_m1;
  assign last_h    = h_q == cfg.height_m1;
  assign last_s    = s_q == cfg.surfaces_m1;
  assign last_n    = n_q == cfg.batch_m1;
  assign last_l_o  = last_l;
  assign last_o    = last_l && last_w && last_h && last_s && last_n;
  assign n_o       = n_q;
  assign h_o       = h_q;
  assign w_o       = w_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q    <= 1'b0;
      fetch_done_q <= 1'b0;
      n_q <= '0;
      s_q <= '0;
      h_q <= '0;
      w_q <= '0;
      l_q <= '0;
    end else begin
      if (start_o) begin
        running_q    <= 1'b1;
        fetch_done_q <= 1'b0;
        n_q <= '0;
        s_q <= '0;
        h_q <= '0;
        w_q <= '0;
        l_q <= '0;
      end else if (step_i) begin
        l_q <= last_l ? '0 : l_q + 6'(cnt_i);
        if (last_l) n_q <= last_n ? '0 : n_q + 1'b1;
        if (last_l && !last_n) begin
          // the same position's next batch
        end else if (last_l && cfg.wg_order && !(last_w && last_h)) begin
          // next position of the 2x2 tile, then the next tile (w, h even)
          if (!w_q[0]) begin
            w_q <= w_q + 1'b1;
          end else if (!h_q[0]) begin
            w_q <= w_q - 1'b1;
            h_q <= h_q + 1'b1;
          end else if (last_w) begin
            w_q <= '0;
            h_q <= h_q + 1'b1;
          end else begin
            w_q <= w_q + 1'b1;
            h_q <= h_q - 1'b1;
          end
        end else if (last_l) begin
          w_q <= last_w ? '0 : w_q + 1'b1;
          if (last_w) begin
            h_q <= last_h ? '0 : h_q + 1'b1;
            if (last_h) begin
              s_q <= last_s ? '0 : s_q + 1'b1;
              if (last_s) fetch_done_q <= 1'b1;
            end
          end
        end
      end
      if (done_o) running_q <= 1'b0;
    end
  end

  // the datapath took the layer's last step
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cons_done_q <= 1'b0;
    else if (start_o) cons_done_q <= 1'b0;
    else if (last_taken_i) cons_done_q <= 1'b1;
  end
  assign done_o = running_q && cons_done_q && drained_i;
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the layer sequencer.
  CovStart: cover property (@(posedge clk_i) start_o);
  CovRunning: cover property (@(posedge clk_i) running_q);
  CovLayerDone: cover property (@(posedge clk_i) done_o);
`endif
endmodule
