// Winograd PRA (the input transform in CSC): per beat, one 4x4 data tile of AtomicC/16 channels
// (nv_full: 4 channels = 64 lanes, one Winograd atomic operation's data) in, the transformed
// 4x4 tiles out, with NVDLA's PRA_TRUNCATE rounding and int8/int16 saturation
// (wino_pra_tile.sv). One register stage, full throughput, valid/ready on both sides.
//
// Lane layout (in and out): lane l = 4*(4*r + c) + ch holds row r, column c, channel ch -- the
// (r, s, channel) order of NVDLA's pre-transformed Winograd weights, so output lane l meets weight
// lane l in the MAC cell. int8 lane l in byte l, int16 lane l in halfword l (the CMAC data word
// convention of cmac_array.sv); int8 inputs are read from the low byte only, the unused upper
// half of an int8 output word is 0.
module wino_pra #(
  parameter int unsigned  AtomicC      = 64,    // lanes per beat: 16 positions x channels
  parameter bit           SupportInt16 = 1'b1,
  parameter bit           SupportFp16  = 1'b0,  // NVDLA v1's fp16 (with SupportInt16)
  localparam int unsigned DataW        = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW        = AtomicC * DataW
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Static per layer.
  input  logic             cfg_int16_i,     // precision: 1 int16 (needs SupportInt16), 0 int8
  input  logic             cfg_fp16_i,      // 1: fp16 (needs SupportFp16; with cfg_int16_i: 16-bit lanes)
  input  logic [1:0]       cfg_truncate_i,  // D_PRA_CFG.PRA_TRUNCATE
  // Data tiles.
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [WordW-1:0] in_data_i,
  // Transformed tiles.
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [WordW-1:0] out_data_o
);
  localparam int unsigned Channels = AtomicC / 16;

  logic int16;
  assign int16 = SupportInt16 && cfg_int16_i;

  // ---------------------------------------------------------------- transform (combinational)
  // 16-bit views of the word (zero-padded when the array is int8-only, so every index is legal).
  logic [AtomicC*16-1:0]           in_wide;
  logic [Channels-1:0][15:0][15:0] tile_in, tile_out;
  logic [AtomicC*16-1:0]           res16;
  logic [AtomicC*8-1:0]            res8;
  logic [WordW-1:0]                result;

  assign in_wide = (AtomicC * 16)'(in_data_i);

  always_comb begin
    for (int unsigned ch = 0; ch < Channels; ch++) begin
      for (int unsigned p = 0; p < 16; p++) begin
        tile_in[ch][p] = int16 ? in_wide[(4 * p + ch) * 16 +: 16]
                               : 16'($signed(in_data_i[(4 * p + ch) * 8 +: 8]));
      end
    end
  end

  for (genvar ch = 0; ch < Channels; ch++) begin : g_ch
    wino_pra_tile #(
      .SupportFp16(SupportFp16)
    ) u_tile (
      .tile_i    (tile_in[ch]),
      .int16_i   (int16),
      .fp16_i    (cfg_fp16_i),
      .truncate_i(cfg_truncate_i),
      .tile_o    (tile_out[ch])
    );
  end

  always_comb begin
    for (int unsigned ch = 0; ch < Channels; ch++) begin
      for (int unsigned p = 0; p < 16; p++) begin
        res16[(4 * p + ch) * 16 +: 16] = tile_out[ch][p];
        res8[(4 * p + ch) * 8 +: 8]    = tile_out[ch][p][7:0];
      end
    end
    result = int16 ? WordW'(res16) : WordW'(res8);
  end

  if (!SupportInt16) begin : g_int8_only
    // The int16 half of the results is never selected on an int8-only array.
    logic unused_res16;
    assign unused_res16 = ^res16;
  end

  // ---------------------------------------------------------------- output register
  logic [WordW-1:0] out_data_q;

  logic out_ld, out_held;  // out_held = out_valid_o
  dla_pipe_ctrl #(
    .Stages(1)
  ) u_pipe (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .ld_o       (out_ld),
    .valid_o    (out_held)
  );

  always_ff @(posedge clk_i) begin
    if (out_ld) begin
      out_data_q <= result;
    end
  end

  assign out_data_o  = out_data_q;

  logic unused_held;
  assign unused_held = out_held;
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovInFire: cover property (@(posedge clk_i) in_valid_i && in_ready_o);
  CovInStall: cover property (@(posedge clk_i) in_valid_i && !in_ready_o);
  CovOutFire: cover property (@(posedge clk_i) out_valid_o && out_ready_i);
  CovOutStall: cover property (@(posedge clk_i) out_valid_o && !out_ready_i);
`endif
endmodule
