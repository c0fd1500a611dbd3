// Winograd POA (the output transform in CMAC): per beat, the 16 per-position MAC results of every
// kernel of one Winograd atomic operation in, the 2x2 output tile of every kernel out
// (wino_poa_tile.sv, exact). One register stage, full throughput, valid/ready on both sides.
//
// Kernel slots follow cmac_array.sv: slot = kernel index; int8 on an int16-capable array has two
// kernels per MAC cell (2*NumCells slots), int16 one (slots 0..NumCells-1, the rest output 0).
// Widths: a position's MAC result sums the products of 4 channels, 2*bits + 2 bits (int8 18,
// int16 34); an output sums 9 of them, + 4 bits (int8 22, int16 38 -- the widths NVDLA's CACC
// takes). Sums enter sign-extended to SumW; in int8 mode only their low 18 bits are read, and the
// outputs leave sign-extended to OutW. Position p = 4*r + c, output e = 2*i + j.
module wino_poa #(
  parameter int unsigned  NumCells     = 16,
  parameter bit           SupportInt16 = 1'b1,
  localparam int unsigned KernPerCell  = SupportInt16 ? 2 : 1,
  localparam int unsigned NumKern      = NumCells * KernPerCell,
  localparam int unsigned SumW         = (SupportInt16 ? 32 : 16) + 2,
  localparam int unsigned OutW         = SumW + 4
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // Static per layer.
  input  logic                             cfg_int16_i,
  // MAC results: 16 positions per kernel slot.
  input  logic                             in_valid_i,
  output logic                             in_ready_o,
  input  logic [NumKern-1:0][15:0][SumW-1:0] in_sum_i,
  // 2x2 outputs per kernel slot.
  output logic                             out_valid_o,
  input  logic                             out_ready_i,
  output logic [NumKern-1:0][3:0][OutW-1:0]  out_data_o
);
  localparam int unsigned Int8SumW = 18;
  localparam int unsigned Int8OutW = Int8SumW + 4;

  logic int16;
  assign int16 = SupportInt16 && cfg_int16_i;

  // ---------------------------------------------------------------- transform (combinational)
  // (Multi-dimensional packed arrays live at module level: Yosys cannot size them inside
  // generate blocks.)
  localparam int unsigned NumHi = SupportInt16 ? NumKern - NumCells : 1;

  logic [NumKern-1:0][3:0][OutW-1:0]   result;
  logic [NumCells-1:0][15:0][SumW-1:0] m_lo;  // slots every precision uses
  logic [NumCells-1:0][3:0][OutW-1:0]  y_lo;
  logic [NumHi-1:0][15:0][Int8SumW-1:0] m_hi;  // slots only int8 uses (second kernel of a cell)
  logic [NumHi-1:0][3:0][Int8OutW-1:0]  y_hi;

  // Full width; int8 sums re-sign-extended from their low 18 bits.
  always_comb begin
    for (int unsigned k = 0; k < NumCells; k++) begin
      for (int unsigned p = 0; p < 16; p++) begin
        m_lo[k][p] = int16 ? in_sum_i[k][p] : SumW'($signed(in_sum_i[k][p][Int8SumW-1:0]));
      end
    end
  end

  for (genvar k = 0; k < NumCells; k++) begin : g_lo
    wino_poa_tile #(
      .InW(SumW)
    ) u_tile (
      .m_i(m_lo[k]),
      .y_o(y_lo[k])
    );
  end

  if (SupportInt16) begin : g_hi
    // int8 width; these slots output 0 in int16 mode. Their inputs' upper bits are not read.
    logic unused_hi;
    assign unused_hi = ^in_sum_i[NumKern-1:NumCells];

    always_comb begin
      for (int unsigned k = 0; k < NumHi; k++) begin
        for (int unsigned p = 0; p < 16; p++) begin
          m_hi[k][p] = in_sum_i[NumCells + k][p][Int8SumW-1:0];
        end
      end
    end

    for (genvar k = 0; k < NumHi; k++) begin : g_tile
      wino_poa_tile #(
        .InW(Int8SumW)
      ) u_tile (
        .m_i(m_hi[k]),
        .y_o(y_hi[k])
      );
    end

    always_comb begin
      for (int unsigned k = 0; k < NumCells; k++) begin
        result[k] = y_lo[k];
      end
      for (int unsigned k = 0; k < NumHi; k++) begin
        for (int unsigned e = 0; e < 4; e++) begin
          result[NumCells + k][e] = int16 ? '0 : OutW'($signed(y_hi[k][e]));
        end
      end
    end
  end else begin : g_no_hi
    assign m_hi   = '0;
    assign y_hi   = '0;
    assign result = y_lo;
    logic unused_hi;
    assign unused_hi = ^{m_hi, y_hi};
  end

  // ---------------------------------------------------------------- output register
  logic [NumKern-1:0][3:0][OutW-1:0] out_data_q;

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
