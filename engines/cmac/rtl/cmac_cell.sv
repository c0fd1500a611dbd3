// One MAC cell: a shadow and an active weight register and AtomicC multiply-accumulate lanes.
// The shadow register loads while the current stripe runs on the active one; `swap_i` moves
// shadow to active so stripes run back to back. With SupportInt16, each 16-bit MAC lane also
// runs as two int8 MACs (two kernels sharing one data byte), so int8 gives two kernels per cell.
// Sums are formed per group of 4 lanes first; Winograd (SupportWino, AtomicC 64) uses the 16
// group sums as the per-position results M[p] (lane 4p + ch) and applies the POA to them.
// SupportFp16 (SupportInt16, AtomicC 64): fp16 uses int16's lanes and NVDLA v1's block-floating
// dot product (cmac_fp16_dot); its group sums replace int16's before the sum and the POA, and
// each result is a 44-bit word: exponent in bits 43..38, 38-bit two's complement sum below.
module cmac_cell #(
  parameter int unsigned AtomicC      = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter bit          SupportWino  = 1'b0,
  parameter bit          SupportFp16  = 1'b0,
  localparam int unsigned Groups      = AtomicC / 4,
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW       = AtomicC * DataW,
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1,
  localparam int unsigned Sum8W       = 16 + $clog2(AtomicC),
  localparam int unsigned Sum16W      = 32 + $clog2(AtomicC),
  localparam int unsigned PsumW       = SupportFp16 ? 44 : SupportInt16 ? Sum16W : Sum8W
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // Shadow load: one whole cell's weights per beat.
  input  logic                               load_i,
  input  logic [WordW-1:0]                   load_data_i,
  input  logic                               swap_i,
  // Datapath (combinational; the array registers the result).
  input  logic                               int16_i,
  input  logic                               fp16_i,   // with int16_i set (SupportFp16)
  input  logic [WordW-1:0]                   data_i,
  output logic [KernPerCell-1:0][PsumW-1:0]  psum_o,
  // Winograd: the POA of each kernel's 16 group sums, 2x2 outputs [2*i + j], sign-extended
  // (fp16: four words, all the NaN word when there is one)
  output logic [KernPerCell-1:0][3:0][PsumW-1:0] wino_o
);

  logic [WordW-1:0] shadow_q, active_q;
  logic             shadow_loaded_q, active_loaded_q;

  // Weights are datapath registers: no reset needed, the loaded flags gate them.
  always_ff @(posedge clk_i) begin
    if (load_i) shadow_q <= load_data_i;
    if (swap_i) active_q <= shadow_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shadow_loaded_q <= 1'b0;
      active_loaded_q <= 1'b0;
    end else begin
      if (swap_i) active_loaded_q <= shadow_loaded_q;
      // A swap empties the shadow, so every weight set starts with all cells unloaded.
      if (load_i) shadow_loaded_q <= 1'b1;
      else if (swap_i) shadow_loaded_q <= 1'b0;
    end
  end

  // int8 dot products: kernel kk uses weight bytes [kk*AtomicC +: AtomicC], data bytes 0..AtomicC-1;
  // group g is lanes 4g..4g+3 (18 bits).
  logic [KernPerCell-1:0][Groups-1:0][17:0] grp8;   // signed values
  logic [Groups-1:0][33:0]                  grp16;  // int16 or fp16 group sums (SupportInt16), signed values
  logic [Groups-1:0][33:0]                  grp_i16, grp_f16;
  // fp16 word fields (SupportFp16)
  logic [5:0]                               f16_exp;
  logic                                     f16_nan, fp16_sel;
  logic [37:0]                              f16_nan_mant;
  // Winograd POA outputs (multi-dimensional signals stay outside generate blocks: Yosys 0.55)
  logic [3:0][37:0]                  poa16;
  logic [KernPerCell-1:0][3:0][21:0] poa8;
  logic signed [KernPerCell-1:0][Sum8W-1:0] sum8;
  always_comb begin
    for (int unsigned kk = 0; kk < KernPerCell; kk++) begin
      logic signed [Sum8W-1:0] acc;
      acc = '0;
      for (int unsigned g = 0; g < Groups; g++) begin
        logic signed [17:0] gs;
        gs = '0;
        for (int unsigned j = 4 * g; j < 4 * g + 4; j++) begin
          logic signed [7:0] w8, d8;
          w8 = active_q[(kk * AtomicC + j) * 8 +: 8];
          d8 = data_i[j * 8 +: 8];
          gs = gs + 18'(w8 * d8);
        end
        grp8[kk][g] = gs;
        acc = acc + Sum8W'(gs);
      end
      sum8[kk] = acc;
    end
  end

  if (SupportFp16) begin : g_fp16
    if (!SupportInt16 || AtomicC != 64) begin : g_fp16_check
      $error("cmac_cell: SupportFp16 needs SupportInt16 and AtomicC 64");
    end
    cmac_fp16_dot #(
      .Lanes(AtomicC)
    ) u_fp16 (
      .en_i      (fp16_i),
      .data_i    (data_i),
      .wt_i      (active_q),
      .grp_o     (grp_f16),
      .exp_o     (f16_exp),
      .nan_o     (f16_nan),
      .nan_mant_o(f16_nan_mant)
    );
    assign fp16_sel = fp16_i;
  end else begin : g_no_fp16
    logic unused_fp16;
    assign grp_f16      = '0;
    assign f16_exp      = '0;
    assign f16_nan      = 1'b0;
    assign f16_nan_mant = '0;
    assign fp16_sel     = 1'b0;
    assign unused_fp16  = ^{fp16_i, grp_f16, f16_exp, f16_nan, f16_nan_mant};
  end

  if (SupportInt16) begin : g_int16
    logic signed [Sum16W-1:0] sum16;
    always_comb begin
      for (int unsigned g = 0; g < Groups; g++) begin
        logic signed [33:0] gs;
        gs = '0;
        for (int unsigned j = 4 * g; j < 4 * g + 4; j++) begin
          logic signed [15:0] w16, d16;
          w16 = active_q[j * 16 +: 16];
          d16 = data_i[j * 16 +: 16];
          gs  = gs + 34'(w16 * d16);
        end
        grp_i16[g] = gs;
      end
    end
    // fp16 shares the group adder and the POA: its group sums fit int16's 34 bits.
    assign grp16 = fp16_sel ? grp_f16 : grp_i16;
    always_comb begin
      sum16 = '0;
      for (int unsigned g = 0; g < Groups; g++) sum16 = sum16 + Sum16W'($signed(grp16[g]));
    end
    always_comb begin
      if (!active_loaded_q) begin
        psum_o = '0;
      end else if (fp16_sel) begin
        psum_o[0] = f16_nan ? PsumW'({6'h3f, f16_nan_mant}) : PsumW'({f16_exp, 38'(sum16)});
        psum_o[1] = '0;
      end else if (int16_i) begin
        psum_o[0] = PsumW'(sum16);
        psum_o[1] = '0;
      end else begin
        psum_o[0] = PsumW'($signed(sum8[0]));
        psum_o[1] = PsumW'($signed(sum8[1]));
      end
    end
    if (SupportWino) begin : g_wino
      wino_poa_tile #(.InW(34)) u_poa16 (.m_i(grp16), .y_o(poa16));
      for (genvar kk = 0; kk < KernPerCell; kk++) begin : g_poa8
        wino_poa_tile #(.InW(18)) u_poa8 (.m_i(grp8[kk]), .y_o(poa8[kk]));
      end
      always_comb begin
        wino_o = '0;
        for (int unsigned o = 0; o < 4; o++) begin
          if (active_loaded_q && fp16_sel) begin
            wino_o[0][o] = f16_nan ? PsumW'({6'h3f, f16_nan_mant}) : PsumW'({f16_exp, poa16[o]});
          end else if (active_loaded_q && int16_i) begin
            wino_o[0][o] = PsumW'($signed(poa16[o]));
          end else if (active_loaded_q) begin
            for (int unsigned kk = 0; kk < KernPerCell; kk++) wino_o[kk][o] = PsumW'($signed(poa8[kk][o]));
          end
        end
      end
    end else begin : g_no_wino
      logic unused_grp;
      assign poa16      = '0;
      assign poa8       = '0;
      assign unused_grp = ^{grp8, grp16, poa16, poa8};
      assign wino_o     = '0;
    end
  end else begin : g_int8
    logic unused_int16;
    assign unused_int16 = ^{int16_i, grp8, grp16, grp_i16, poa16, poa8, fp16_sel};
    assign grp16        = '0;
    assign grp_i16      = '0;
    assign poa16        = '0;
    assign poa8         = '0;
    always_comb psum_o[0] = active_loaded_q ? PsumW'($signed(sum8[0])) : '0;
    assign wino_o = '0;
  end

endmodule
