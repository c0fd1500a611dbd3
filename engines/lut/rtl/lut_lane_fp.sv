// One lane of the float LUT (NVDLA v1, fp16 data; docs/FP16.md "SDP EW and LUT", "CDP in fp16"):
// the same four register stages and shared handshake as the integer lane (lut_lane), on NVDLA's
// float primitives. X, START and END are fp32 patterns, the table entries and slope scales fp16;
// the result is fp32 (SDP) or fp17 (CDP, in value_o's low bits).
//   stage 1: D = X - START in fp32 for both tables
//   stage 2: each table's index (lut_index_fp), the priority rules and table read (lut_select),
//            the extrapolation gap X - anchor in fp32 (anchor START, START + 2^off for an
//            exponent-mode LE underflow -- le_uanchor_i, computed once by the engine -- or END)
//   stage 3: hit, SDP: fp17(1 - f) x y0 and fp17(f) x y1 (f = frac / 2^35; 1 - f is exactly 1
//                  at f = 0);
//            hit, CDP: fp17(y1 - y0 in fp32) x fp17(frac / 2^16);
//            flow: fp17(gap) x fp17(scale)
//   stage 4: in fp17, SDP: the two products' sum, or y0 + the flow product; CDP: the product
//            + y0 (the product first); SDP widens the sum to fp32
// No slope shift in float.
module lut_lane_fp #(
  parameter int unsigned Variant = 1,  // 0: SDP, 1: CDP
  localparam int unsigned FracW  = (Variant == 0) ? 35 : 16
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [3:0]         ld_i,
  input  logic [31:0]        x_i,
  input  logic               mask_i,
  // decoded configuration (stable while the engine is busy)
  input  logic               le_linear_i,
  input  logic               uflow_prio_lo_i,
  input  logic               oflow_prio_lo_i,
  input  logic               hybrid_prio_lo_i,
  input  logic signed [7:0]  le_off_i,
  input  logic signed [7:0]  le_sel_i,
  input  logic signed [7:0]  lo_sel_i,
  input  logic [31:0]        le_start_i,
  input  logic [31:0]        le_uanchor_i,  // LE_START + 2^LE_INDEX_OFFSET in fp32
  input  logic [31:0]        le_end_i,
  input  logic [31:0]        lo_start_i,
  input  logic [31:0]        lo_end_i,
  input  logic [15:0]        le_uflow_scale_i,
  input  logic [15:0]        le_oflow_scale_i,
  input  logic [15:0]        lo_uflow_scale_i,
  input  logic [15:0]        lo_oflow_scale_i,
  // tables
  input  logic [64:0][15:0]  le_tab_i,
  input  logic [256:0][15:0] lo_tab_i,
  // stage-4 outputs
  output logic [31:0]        value_o,
  output logic               uflow_o,
  output logic               oflow_o,
  output logic               le_hit_o,
  output logic               lo_hit_o,
  output logic               lo_sel_o,
  output logic [1:0]         le_status_o,  // {oflow, uflow} of LE on its own
  output logic [1:0]         lo_status_o,
  output logic               mask_o
);
  // ---------------------------------------------------------------- stage 1
  logic [31:0] dle_c, dlo_c;
  dla_fp_add #(.ExpW(8), .MantW(23)) u_dle (
    .a_i  (x_i),
    .b_i  (le_start_i),
    .sub_i(1'b1),
    .z_o  (dle_c)
  );
  dla_fp_add #(.ExpW(8), .MantW(23)) u_dlo (
    .a_i  (x_i),
    .b_i  (lo_start_i),
    .sub_i(1'b1),
    .z_o  (dlo_c)
  );

  logic [31:0] x_q1, dle_q1, dlo_q1;
  logic        mask_q1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_q1    <= '0;
      dle_q1  <= '0;
      dlo_q1  <= '0;
      mask_q1 <= 1'b0;
    end else if (ld_i[0]) begin
      x_q1    <= x_i;
      dle_q1  <= dle_c;
      dlo_q1  <= dlo_c;
      mask_q1 <= mask_i;
    end
  end

  // ---------------------------------------------------------------- stage 2
  logic             le_uf, le_of, lo_uf, lo_of;
  logic [8:0]       le_idx, lo_idx;
  logic [FracW-1:0] le_frac, lo_frac;
  logic [1:0]  unused_le_idx;  // LE indices stop at 64
  assign unused_le_idx = le_idx[8:7];

  lut_index_fp #(
    .Variant(Variant),
    .Depth  (65),
    .HasExp (1'b1)
  ) u_le_index (
    .d_i       (dle_q1),
    .exp_mode_i(!le_linear_i),
    .off_i     (le_off_i),
    .sel_i     (le_sel_i),
    .uflow_o   (le_uf),
    .oflow_o   (le_of),
    .index_o   (le_idx),
    .frac_o    (le_frac)
  );
  lut_index_fp #(
    .Variant(Variant),
    .Depth  (257),
    .HasExp (1'b0)
  ) u_lo_index (
    .d_i       (dlo_q1),
    .exp_mode_i(1'b0),
    .off_i     (8'sd0),
    .sel_i     (lo_sel_i),
    .uflow_o   (lo_uf),
    .oflow_o   (lo_of),
    .index_o   (lo_idx),
    .frac_o    (lo_frac)
  );

  logic             le_hit_c, lo_hit_c, sel_lo_c, uf_c, of_c;
  logic [15:0]      y0_c, y1_c, scale_c;
  logic [FracW-1:0] frac_c;
  logic [31:0]      anchor_c, gap_c;
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
    .y0_o            (y0_c),
    .y1_o            (y1_c),
    .frac_o          (frac_c)
  );

  always_comb begin
    if (uf_c) begin
      anchor_c = sel_lo_c ? lo_start_i : (le_linear_i ? le_start_i : le_uanchor_i);
      scale_c  = sel_lo_c ? lo_uflow_scale_i : le_uflow_scale_i;
    end else begin
      anchor_c = sel_lo_c ? lo_end_i : le_end_i;
      scale_c  = sel_lo_c ? lo_oflow_scale_i : le_oflow_scale_i;
    end
  end
  dla_fp_add #(.ExpW(8), .MantW(23)) u_gap (
    .a_i  (x_q1),
    .b_i  (anchor_c),
    .sub_i(1'b1),
    .z_o  (gap_c)
  );

  // the flags ride lut_flags_pipe to the outputs
  logic [9:0]  flags_q2;
  logic        hit_q2;
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
  logic [15:0]      y0_q2, y1_q2, scale_q2;
  logic [FracW-1:0] frac_q2;
  logic [31:0] gap_q2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      y0_q2     <= '0;
      y1_q2     <= '0;
      frac_q2   <= '0;
      scale_q2  <= '0;
      gap_q2    <= '0;
    end else if (ld_i[1]) begin
      y0_q2     <= y0_c;
      y1_q2     <= y1_c;
      frac_q2   <= frac_c;
      scale_q2  <= scale_c;
      gap_q2    <= gap_c;
    end
  end

  // ---------------------------------------------------------------- stage 3
  // mA = a17 x b17 (CDP hit, SDP hit's y0 term, every flow); SDP hit: mB = fp17(f) x y1
  logic [31:0] gap_or_dy;
  logic [16:0] a17, b17, f17, s17, m_a, m_b, y0_17, y1_17;
  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_y0_17 (
    .a_i(y0_q2),
    .z_o(y0_17)
  );
  dla_fp_from_int #(.IntW(FracW), .Fraction(1'b1), .ExpW(6), .MantW(10)) u_f17 (
    .a_i(frac_q2),
    .z_o(f17)
  );
  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_s17 (
    .a_i(scale_q2),
    .z_o(s17)
  );
  logic [16:0] gap17;
  dla_fp_cvt #(.InExpW(8), .InMantW(23), .OutExpW(6), .OutMantW(10), .Denorm(1'b0)) u_gap17 (
    .a_i(gap_or_dy),
    .z_o(gap17)
  );
  if (Variant == 0) begin : g_sdp_hit
    // 1 - f: exactly 1.0 at f = 0, else the fraction 2^35 - frac
    logic [16:0] w17;
    dla_fp_from_int #(.IntW(FracW), .Fraction(1'b1), .ExpW(6), .MantW(10)) u_w17 (
      .a_i(FracW'(0) - frac_q2),
      .z_o(w17)
    );
    dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10), .Denorm(1'b1)) u_y1_17 (
      .a_i(y1_q2),
      .z_o(y1_17)
    );
    assign gap_or_dy = gap_q2;
    assign a17 = !hit_q2 ? gap17 : (frac_q2 == '0) ? {1'b0, 6'd31, 10'd0} : w17;
    assign b17 = hit_q2 ? y0_17 : s17;
    dla_fp_mul #(.ExpW(6), .MantW(10)) u_mul_b (
      .a_i(f17),
      .b_i(y1_17),
      .z_o(m_b)
    );
  end else begin : g_cdp_hit
    // y1 - y0 in fp32, then fp17
    logic [31:0] y0_32, y1_32, dy_32;
    dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b1)) u_y0_32 (
      .a_i(y0_q2),
      .z_o(y0_32)
    );
    dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b1)) u_y1_32 (
      .a_i(y1_q2),
      .z_o(y1_32)
    );
    dla_fp_add #(.ExpW(8), .MantW(23)) u_dy (
      .a_i  (y1_32),
      .b_i  (y0_32),
      .sub_i(1'b1),
      .z_o  (dy_32)
    );
    assign gap_or_dy = hit_q2 ? dy_32 : gap_q2;
    assign a17 = gap17;
    assign b17 = hit_q2 ? f17 : s17;
    assign m_b   = '0;
    assign y1_17 = '0;
    logic unused_y1;  // SDP's interpolation only
    assign unused_y1 = ^y1_17;
  end
  dla_fp_mul #(.ExpW(6), .MantW(10)) u_mul_a (
    .a_i(a17),
    .b_i(b17),
    .z_o(m_a)
  );

  // stage 4 adds p + q, or q + p where SDP adds y0 first (its flow)
  logic [16:0] p_q3, q_q3;
  logic        swap_q3;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q3      <= '0;
      q_q3      <= '0;
      swap_q3   <= 1'b0;
    end else if (ld_i[2]) begin
      p_q3      <= m_a;
      q_q3      <= (Variant == 0 && hit_q2) ? m_b : y0_17;
      swap_q3   <= Variant == 0 && !hit_q2;
    end
  end

  // ---------------------------------------------------------------- stage 4
  logic [16:0] sum17;
  logic [31:0] value_c;
  dla_fp_add #(.ExpW(6), .MantW(10)) u_add (
    .a_i  (swap_q3 ? q_q3 : p_q3),
    .b_i  (swap_q3 ? p_q3 : q_q3),
    .sub_i(1'b0),
    .z_o  (sum17)
  );
  if (Variant == 0) begin : g_sdp_out
    dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(8), .OutMantW(23), .Denorm(1'b0)) u_sum32 (
      .a_i(sum17),
      .z_o(value_c)
    );
  end else begin : g_cdp_out
    assign value_c = {15'd0, sum17};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) value_o <= '0;
    else if (ld_i[3]) value_o <= value_c;
  end
endmodule
