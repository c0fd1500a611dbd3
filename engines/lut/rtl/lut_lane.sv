// One lane of the LUT engine datapath: four register stages, loaded by the engine's shared
// handshake (ld_i[k] loads stage k+1's registers with the previous stage's result).
//   stage 1: X - START for both tables, X > START, leading one of X - LE_START
//   stage 2: index/fraction per table, the five priority rules, table reads, flow operand
//            X - (anchor + bias), slope scale/shift
//   stage 3: products: SDP y0*(2^35-F) + y1*F, CDP (y1-y0)*f16, flow (X-A)*scale
//   stage 4: rounding shift + saturation, + y0, saturation to OutW -> outputs
// Arithmetic: ../shared/reference/nvdla-arithmetic.md sections 1.3 (SDP) and 1.5 (CDP).
module lut_lane #(
  parameter int unsigned Variant = 0,   // 0: SDP, 1: CDP
  parameter int unsigned InW     = 32,  // X and START/END width
  parameter int unsigned OutW    = 32   // result width
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [3:0]                  ld_i,
  input  logic signed [InW-1:0]       x_i,
  input  logic                        mask_i,
  // decoded configuration (stable while the engine is busy)
  input  logic                        le_linear_i,
  input  logic                        uflow_prio_lo_i,
  input  logic                        oflow_prio_lo_i,
  input  logic                        hybrid_prio_lo_i,
  input  logic signed [7:0]           le_off_i,
  input  logic signed [7:0]           le_sel_i,
  input  logic signed [7:0]           lo_sel_i,
  input  logic signed [InW-1:0]       le_start_i,
  input  logic signed [InW-1:0]       le_end_i,
  input  logic signed [InW-1:0]       lo_start_i,
  input  logic signed [InW-1:0]       lo_end_i,
  input  logic signed [15:0]          le_uflow_scale_i,
  input  logic signed [15:0]          le_oflow_scale_i,
  input  logic signed [15:0]          lo_uflow_scale_i,
  input  logic signed [15:0]          lo_oflow_scale_i,
  input  logic signed [4:0]           le_uflow_shift_i,
  input  logic signed [4:0]           le_oflow_shift_i,
  input  logic signed [4:0]           lo_uflow_shift_i,
  input  logic signed [4:0]           lo_oflow_shift_i,
  // tables
  input  logic [64:0][15:0]           le_tab_i,
  input  logic [256:0][15:0]          lo_tab_i,
  // stage-4 outputs
  output logic signed [OutW-1:0]      value_o,
  output logic                        uflow_o,
  output logic                        oflow_o,
  output logic                        le_hit_o,
  output logic                        lo_hit_o,
  output logic                        lo_sel_o,
  output logic [1:0]                  le_status_o,  // {oflow, uflow} of LE on its own
  output logic [1:0]                  lo_status_o,
  output logic                        mask_o
);
  localparam int unsigned FracW   = (Variant == 0) ? 35 : 16;
  // Largest offset whose exponent underflow bias 2^off fits the data path (SDP: the RTL's
  // 32-bit `1 << off`; CDP: 38-bit START), see docs/LUT.md.
  localparam int unsigned MaxBias = InW - 1;
  localparam int unsigned DiffW   = InW + 2;           // X - (A + B)
  localparam int unsigned AccW    = (Variant == 0) ? 54 : 56;

  // ---------------------------------------------------------------- stage 1
  logic signed [InW:0] dle_c, dlo_c;
  logic                le_pos_c, lo_pos_c;
  logic [5:0]          lead_c;

  always_comb begin
    dle_c    = $signed({x_i[InW-1], x_i}) - $signed({le_start_i[InW-1], le_start_i});
    dlo_c    = $signed({x_i[InW-1], x_i}) - $signed({lo_start_i[InW-1], lo_start_i});
    le_pos_c = !dle_c[InW] && (dle_c != '0);
    lo_pos_c = !dlo_c[InW] && (dlo_c != '0);
    lead_c   = '0;
    for (int unsigned b = 0; b < InW; b++) begin
      if (dle_c[b]) begin
        lead_c = 6'(b);
      end
    end
  end

  logic signed [InW-1:0] x_q1;
  logic [InW-1:0]        dle_q1, dlo_q1;
  logic                  le_pos_q1, lo_pos_q1, mask_q1;
  logic [5:0]            lead_q1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_q1      <= '0;
      dle_q1    <= '0;
      dlo_q1    <= '0;
      le_pos_q1 <= 1'b0;
      lo_pos_q1 <= 1'b0;
      lead_q1   <= '0;
      mask_q1   <= 1'b0;
    end else if (ld_i[0]) begin
      x_q1      <= x_i;
      dle_q1    <= dle_c[InW-1:0];
      dlo_q1    <= dlo_c[InW-1:0];
      le_pos_q1 <= le_pos_c;
      lo_pos_q1 <= lo_pos_c;
      lead_q1   <= lead_c;
      mask_q1   <= mask_i;
    end
  end

  // ---------------------------------------------------------------- stage 2
  logic             le_uf, le_of, lo_uf, lo_of;
  logic [8:0]       le_idx, lo_idx;
  logic [1:0]       unused_le_idx;  // LE indices stop at 64
  assign unused_le_idx = le_idx[8:7];
  logic [FracW-1:0] le_frac, lo_frac;

  lut_index #(
    .DW    (InW),
    .FracW (FracW),
    .Depth (65),
    .HasExp(1'b1)
  ) u_le_index (
    .d_i       (dle_q1),
    .pos_i     (le_pos_q1),
    .lead_i    (lead_q1),
    .exp_mode_i(!le_linear_i),
    .off_i     (le_off_i),
    .sel_i     (le_sel_i),
    .uflow_o   (le_uf),
    .oflow_o   (le_of),
    .index_o   (le_idx),
    .frac_o    (le_frac)
  );

  lut_index #(
    .DW    (InW),
    .FracW (FracW),
    .Depth (257),
    .HasExp(1'b0)
  ) u_lo_index (
    .d_i       (dlo_q1),
    .pos_i     (lo_pos_q1),
    .lead_i    (6'd0),
    .exp_mode_i(1'b0),
    .off_i     (8'sd0),
    .sel_i     (lo_sel_i),
    .uflow_o   (lo_uf),
    .oflow_o   (lo_of),
    .index_o   (lo_idx),
    .frac_o    (lo_frac)
  );

  logic                    le_hit_c, lo_hit_c, sel_lo_c, uf_c, of_c;
  logic [15:0]             y0_u, y1_u;
  logic signed [15:0]      y0_c, y1_c;
  logic [FracW-1:0]        frac_c;
  logic [InW-1:0]          bias_c;
  logic signed [InW:0]     anchor_c;
  logic signed [DiffW-1:0] diff_c;
  logic signed [15:0]      scale_c;
  logic signed [4:0]       shift_c;

  lut_select #(
    .FracW(FracW)
  ) u_select (
    .le_uf_i         (le_uf),
    .le_of_i         (le_of),
    .le_idx_i        (le_idx[6:0]),
    .le_frac_i       (le_frac),
    .lo_uf_i         (lo_uf),
    .lo_of_i         (lo_of),
    .lo_idx_i        (lo_idx),
    .lo_frac_i       (lo_frac),
    .uflow_prio_lo_i (uflow_prio_lo_i),
    .oflow_prio_lo_i (oflow_prio_lo_i),
    .hybrid_prio_lo_i(hybrid_prio_lo_i),
    .le_tab_i        (le_tab_i),
    .lo_tab_i        (lo_tab_i),
    .le_hit_o        (le_hit_c),
    .lo_hit_o        (lo_hit_c),
    .sel_lo_o        (sel_lo_c),
    .uf_o            (uf_c),
    .of_o            (of_c),
    .y0_o            (y0_u),
    .y1_o            (y1_u),
    .frac_o          (frac_c)
  );
  assign y0_c = $signed(y0_u);
  assign y1_c = $signed(y1_u);

  always_comb begin
    // Flow operand: anchor START (+ bias for exponent-mode LE underflow) or END.
    bias_c = '0;
    if (!sel_lo_c && !le_linear_i && uf_c && !le_off_i[7] && (32'(le_off_i) <= MaxBias)) begin
      bias_c = InW'(1) << le_off_i[6:0];
    end
    if (uf_c) begin
      anchor_c = $signed({(sel_lo_c ? lo_start_i[InW-1] : le_start_i[InW-1]),
                          (sel_lo_c ? lo_start_i : le_start_i)})
               + $signed({1'b0, bias_c});
      scale_c  = sel_lo_c ? lo_uflow_scale_i : le_uflow_scale_i;
      shift_c  = sel_lo_c ? lo_uflow_shift_i : le_uflow_shift_i;
    end else begin
      anchor_c = $signed({(sel_lo_c ? lo_end_i[InW-1] : le_end_i[InW-1]),
                          (sel_lo_c ? lo_end_i : le_end_i)});
      scale_c  = sel_lo_c ? lo_oflow_scale_i : le_oflow_scale_i;
      shift_c  = sel_lo_c ? lo_oflow_shift_i : le_oflow_shift_i;
    end
    diff_c = DiffW'(x_q1) - DiffW'(anchor_c);
  end

  // the flags ride lut_flags_pipe to the outputs
  logic [9:0]              flags_q2;
  logic                    hit_q2;
  lut_flags_pipe u_flags (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .ld_i   (ld_i),
    .flags_i({uf_c, of_c, le_hit_c, lo_hit_c, sel_lo_c, le_of, le_uf, lo_of, lo_uf, mask_q1}),
    .q2_o   (flags_q2),
    .q4_o   ({uflow_o, oflow_o, le_hit_o, lo_hit_o, lo_sel_o, le_status_o, lo_status_o, mask_o})
  );
  assign hit_q2 = !flags_q2[9] && !flags_q2[8];
  logic unused_flags;  // the rest ride to the outputs only
  assign unused_flags = ^flags_q2[7:0];
  logic signed [15:0]      y0_q2, y1_q2, scale_q2;
  logic [FracW-1:0]        frac_q2;
  logic signed [DiffW-1:0] diff_q2;
  logic signed [4:0]       shift_q2;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      y0_q2     <= '0;
      y1_q2     <= '0;
      scale_q2  <= '0;
      frac_q2   <= '0;
      diff_q2   <= '0;
      shift_q2  <= '0;
    end else if (ld_i[1]) begin
      y0_q2     <= y0_c;
      y1_q2     <= y1_c;
      scale_q2  <= scale_c;
      frac_q2   <= frac_c;
      diff_q2   <= diff_c;
      shift_q2  <= shift_c;
    end
  end

  // ---------------------------------------------------------------- stage 3
  logic [FracW:0]         w0_c;    // SDP: 2^35 - F
  logic signed [16:0]     dy_c;    // CDP: y1 - y0
  logic signed [AccW-1:0] acc_c;
  logic signed [6:0]      sh_c;    // signed shift for stage 4: 35 / 16 on a hit, slope shift on flow
  logic signed [15:0]     add_c;   // term added after the shift

  always_comb begin
    w0_c = {1'b1, {FracW{1'b0}}} - {1'b0, frac_q2};
    dy_c = $signed({y1_q2[15], y1_q2}) - $signed({y0_q2[15], y0_q2});
    if (!hit_q2) begin
      acc_c = AccW'(diff_q2) * AccW'(scale_q2);
      sh_c  = 7'(shift_q2);
      add_c = y0_q2;
    end else if (Variant == 0) begin
      // y0 * (2^35 - F) + y1 * F, F/2^35 the fraction; then rhaz(/2^35).
      acc_c = AccW'(y0_q2) * $signed(AccW'(w0_c)) + AccW'(y1_q2) * $signed(AccW'(frac_q2));
      sh_c  = 7'sd35;
      add_c = '0;
    end else begin
      // (y1 - y0) * f16; then y0 + rhaz(/2^16).
      acc_c = AccW'(dy_c) * $signed(AccW'(frac_q2));
      sh_c  = 7'sd16;
      add_c = y0_q2;
    end
  end

  logic signed [AccW-1:0] acc_q3;
  logic signed [6:0]      sh_q3;
  logic signed [15:0]     add_q3;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q3    <= '0;
      sh_q3     <= '0;
      add_q3    <= '0;
    end else if (ld_i[2]) begin
      acc_q3    <= acc_c;
      sh_q3     <= sh_c;
      add_q3    <= add_c;
    end
  end

  // ---------------------------------------------------------------- stage 4
  // sat_OutW(add + sat_32(sshift(acc))). SDP: the flow product is clamped to 32 bits before y0
  // is added (NVDLA SDP). CDP: a 32-bit clamp of the shifted value cannot change the 16-bit
  // result (|y0| < 2^15), so the same path serves both.
  logic signed [31:0]   shifted_c;
  logic signed [32:0]   sum_c;
  logic signed [OutW-1:0] value_c;
  logic                 sat_shift_unused, sat_sum_unused;

  dla_sshift_sat #(
    .InW  (AccW),
    .OutW (32),
    .ShW  (7),
    .LeftW(16)
  ) u_shift (
    .data_i (acc_q3),
    .shift_i(sh_q3),
    .data_o (shifted_c),
    .sat_o  (sat_shift_unused)
  );

  assign sum_c = 33'(shifted_c) + 33'(add_q3);

  dla_sat #(
    .InW (33),
    .OutW(OutW)
  ) u_sat (
    .data_i(sum_c),
    .data_o(value_c),
    .sat_o (sat_sum_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) value_o <= '0;
    else if (ld_i[3]) value_o <= value_c;
  end
endmodule
