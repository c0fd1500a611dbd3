// CMAC MAC cell array: one atomic operation per cycle, i.e. one 1x1xAtomicC data atom against
// every cell's kernel(s), producing exact partial sums (2*bits + log2(AtomicC) wide).
//
// Weight port: one beat loads one cell's shadow register; `wt_last_i` closes the set. A closed
// set waits in the shadow registers until a data beat tagged `dat_stripe_st_i` swaps it in, so
// the next stripe's weights load while the current stripe runs. Cells not loaded in a set
// output 0. Output index = kernel index: int8 on an int16-capable array gives two kernels per
// cell (cell c -> kernels 2c, 2c+1), int16 one (cell c -> kernel c, upper half 0).
// SupportWino (AtomicC 64): out_wino_o carries, per kernel, the POA of the 16 per-position
// 4-channel sums (Winograd F(2x2,3x3): 2x2 outputs [2*i + j]); the cells compute both.
// SupportFp16 (SupportInt16, AtomicC 64): `cfg_fp16_i` runs NVDLA v1's fp16 MAC on int16's
// layout (cell c -> kernel c); every output is then a 44-bit word, exponent in bits 43..38 and a
// 38-bit two's complement sum below (docs/FP16.md "CMAC"). PsumW is 44 for int results too.
module cmac_array #(
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter bit          SupportWino  = 1'b0,
  parameter bit          SupportFp16  = 1'b0,
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW       = AtomicC * DataW,
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1,
  localparam int unsigned NumOut      = NumCells * KernPerCell,
  localparam int unsigned PsumW       = SupportFp16 ? 44 : (SupportInt16 ? 32 : 16) + $clog2(AtomicC),
  localparam int unsigned CellW       = NumCells > 1 ? $clog2(NumCells) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Static per layer.
  input  logic                          cfg_int16_i,
  input  logic                          cfg_fp16_i,   // set with cfg_int16_i (SupportFp16)
  // Weights into the shadow registers.
  input  logic                          wt_valid_i,
  output logic                          wt_ready_o,
  input  logic [CellW-1:0]              wt_cell_i,
  input  logic [WordW-1:0]              wt_data_i,
  input  logic                          wt_last_i,
  // Data atoms: int8 lane j in byte j, int16 lane j in halfword j.
  input  logic                          dat_valid_i,
  output logic                          dat_ready_o,
  input  logic [WordW-1:0]              dat_data_i,
  input  logic                          dat_stripe_st_i,
  input  logic                          dat_stripe_end_i,
  input  logic                          dat_channel_end_i,
  // Partial sums, one per kernel, sign-extended to PsumW (fp16: the 44-bit word).
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output logic [NumOut-1:0][PsumW-1:0]  out_psum_o,
  output logic [NumOut-1:0][3:0][PsumW-1:0] out_wino_o,
  output logic                          out_stripe_end_o,
  output logic                          out_channel_end_o
);

  // ---------------------------------------------------------------- weight set control
  // The shadow takes a new beat in the same cycle its full set is swapped into the active
  // registers, so a stripe as long as the weight load (one beat per cell) never waits.
  logic shadow_full_q, swap, wt_fire;
  assign wt_ready_o = !shadow_full_q || swap;
  assign wt_fire    = wt_valid_i && wt_ready_o;

  // ---------------------------------------------------------------- pipeline control
  // Stage 1 holds the accepted atom (products are formed from it and the active weights);
  // stage 2 holds the partial sums. A stage moves when the next one is empty or moving.
  logic [1:0]       pipe_ld, pipe_valid;
  logic [WordW-1:0] s1_data_q;
  logic             s1_int16_q, s1_fp16_q, s1_stripe_end_q, s1_channel_end_q;
  logic             s1_ready, dat_ok, dat_fire;

  // A stripe start needs a complete weight set to swap in.
  assign dat_ok = !dat_stripe_st_i || shadow_full_q;
  dla_pipe_ctrl #(
    .Stages(2)
  ) u_pipe (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (dat_valid_i && dat_ok),
    .in_ready_o (s1_ready),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .ld_o       (pipe_ld),
    .valid_o    (pipe_valid)
  );
  assign dat_ready_o = s1_ready && dat_ok;
  assign dat_fire    = pipe_ld[0];
  logic unused_pipe;
  assign unused_pipe = ^pipe_valid;
  assign swap        = dat_fire && dat_stripe_st_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shadow_full_q <= 1'b0;
    end else begin
      if (wt_fire && wt_last_i) shadow_full_q <= 1'b1;
      else if (swap) shadow_full_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (dat_fire) begin
      s1_data_q        <= dat_data_i;
      // fp16 has int16's kernel order even if the caller left cfg_int16_i clear.
      s1_int16_q       <= SupportInt16 && (cfg_int16_i || (SupportFp16 && cfg_fp16_i));
      s1_fp16_q        <= SupportFp16 && cfg_fp16_i;
      s1_stripe_end_q  <= dat_stripe_end_i;
      s1_channel_end_q <= dat_channel_end_i;
    end
  end

  // ---------------------------------------------------------------- cells
  localparam int unsigned CellPsumW = SupportFp16 ? 44 : SupportInt16 ? 32 + $clog2(AtomicC) : 16 + $clog2(AtomicC);
  logic [NumCells-1:0][KernPerCell-1:0][CellPsumW-1:0] cell_psum;
  logic [NumCells-1:0][KernPerCell-1:0][3:0][CellPsumW-1:0] cell_wino;

  for (genvar c = 0; c < NumCells; c++) begin : g_cell
    cmac_cell #(
      .AtomicC     (AtomicC),
      .SupportInt16(SupportInt16),
      .SupportWino (SupportWino),
      .SupportFp16 (SupportFp16)
    ) u_cell (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .load_i     (wt_fire && (wt_cell_i == CellW'(c))),
      .load_data_i(wt_data_i),
      .swap_i     (swap),
      .int16_i    (s1_int16_q),
      .fp16_i     (s1_fp16_q),
      .data_i     (s1_data_q),
      .psum_o     (cell_psum[c]),
      .wino_o     (cell_wino[c])
    );
  end

  // Kernel order: int8 -> kernel c*KernPerCell + kk; int16 -> kernel c.
  logic [NumOut-1:0][PsumW-1:0] psum_d;
  logic [NumOut-1:0][3:0][PsumW-1:0] wino_d;
  always_comb begin
    psum_d = '0;
    wino_d = '0;
    for (int unsigned c = 0; c < NumCells; c++) begin
      if (s1_int16_q) begin
        psum_d[c] = cell_psum[c][0];
        wino_d[c] = cell_wino[c][0];
      end else begin
        for (int unsigned kk = 0; kk < KernPerCell; kk++) begin
          psum_d[c * KernPerCell + kk] = cell_psum[c][kk];
          wino_d[c * KernPerCell + kk] = cell_wino[c][kk];
        end
      end
    end
  end

  logic [NumOut-1:0][PsumW-1:0] out_psum_q;
  logic                         out_stripe_end_q, out_channel_end_q;
  always_ff @(posedge clk_i) begin
    if (pipe_ld[1]) begin
      out_psum_q        <= psum_d;
      out_stripe_end_q  <= s1_stripe_end_q;
      out_channel_end_q <= s1_channel_end_q;
    end
  end

  assign out_psum_o        = out_psum_q;
  logic [NumOut-1:0][3:0][PsumW-1:0] out_wino_q;  // outside the generate block (Yosys 0.55)
  if (SupportWino) begin : g_wino_out
    always_ff @(posedge clk_i) begin
      if (pipe_ld[1]) out_wino_q <= wino_d;
    end
    assign out_wino_o = out_wino_q;
  end else begin : g_no_wino_out
    logic unused_wino;
    assign out_wino_q  = '0;
    assign unused_wino = ^{wino_d, out_wino_q};
    assign out_wino_o  = '0;
  end
  assign out_stripe_end_o  = out_stripe_end_q;
  assign out_channel_end_o = out_channel_end_q;

`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the valid/ready ports.
  CovWtFire: cover property (@(posedge clk_i) wt_valid_i && wt_ready_o);
  CovWtStall: cover property (@(posedge clk_i) wt_valid_i && !wt_ready_o);
  CovDatFire: cover property (@(posedge clk_i) dat_valid_i && dat_ready_o);
  CovDatStall: cover property (@(posedge clk_i) dat_valid_i && !dat_ready_o);
  CovOutFire: cover property (@(posedge clk_i) out_valid_o && out_ready_i);
  CovOutStall: cover property (@(posedge clk_i) out_valid_o && !out_ready_i);
`endif
endmodule
