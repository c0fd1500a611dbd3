// Synthesis wrapper of linebuf_core at a small size (NumPe 2, LineDepth 8, MaxC 2, MaxK 2, int8,
// 4 line slots, a 2 x 32-value on-chip map store):
// parameter-free, because Yosys 0.55 asserts when -chparam re-derives a module with
// parameterized children (docs/SYNTHESIS.md). The same logic as the verilated model, smaller.
module linebuf_core_synth (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          cfg_valid_i,
  output logic          cfg_ready_o,
  input  logic [98:0]   cfg_i,
  input  logic          px_valid_i,
  output logic          px_ready_o,
  input  logic [7:0]    px_data_i,
  input  logic          wt_valid_i,
  output logic          wt_ready_o,
  input  logic [175:0]  wt_data_i,  // 9 x 2 x 8 weight bits + 32 bias bits
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [7:0]    out_data_o,
  output logic          busy_o,
  output logic [3:0]    cfg_err_o
);
  linebuf_core #(
    .NumPe    (2),
    .LineDepth(8),
    .MaxC     (2),
    .MaxK     (2),
    .DataW    (8),
    .MapRows  (4),
    .MapWords (32)
  ) u_core (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cfg_valid_i(cfg_valid_i),
    .cfg_ready_o(cfg_ready_o),
    .cfg_i      (cfg_i),
    .px_valid_i (px_valid_i),
    .px_ready_o (px_ready_o),
    .px_data_i  (px_data_i),
    .wt_valid_i (wt_valid_i),
    .wt_ready_o (wt_ready_o),
    .wt_data_i  (wt_data_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (out_data_o),
    .busy_o     (busy_o),
    .cfg_err_o  (cfg_err_o)
  );
endmodule
