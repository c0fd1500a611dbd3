// Valid/ready control of a pipeline of Stages registers whose data the caller keeps: stage k
// loads (ld_o[k]) from stage k-1 (stage 0 from the input) when it is empty or its beat moves
// on. Bubbles collapse: a stage is ready while any stage at or after it is empty or the output
// is taken, so a full pipeline moves one beat per cycle and in_ready_o = out_ready_i only when
// every stage holds a beat (the ready path is not cut; put a dla_spill_reg in front for that).
// A beat leaves Stages cycles after it is accepted when nothing stalls.
module dla_pipe_ctrl #(
  parameter int unsigned Stages = 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              in_valid_i,
  output logic              in_ready_o,
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [Stages-1:0] ld_o,     // stage k takes a beat at this edge
  output logic [Stages-1:0] valid_o   // stage k holds a beat
);
  logic [Stages-1:0] valid_q, valid_d, ready;

  always_comb begin
    logic r;
    r = out_ready_i;
    for (int k = Stages - 1; k >= 0; k--) begin
      r        = r || !valid_q[k];
      ready[k] = r;
    end
  end

  always_comb begin
    for (int unsigned k = 0; k < Stages; k++) begin
      logic prev;
      prev       = (k == 0) ? in_valid_i : valid_q[(k == 0) ? 0 : k - 1];
      ld_o[k]    = ready[k] && prev;
      valid_d[k] = ready[k] ? prev : valid_q[k];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else valid_q <= valid_d;
  end

  assign in_ready_o  = ready[0];
  assign out_valid_o = valid_q[Stages-1];
  assign valid_o     = valid_q;
endmodule
