// NVDLA v1 CACC's fp16 accumulate, combinational: sum_o = acc_i + one MAC cell word, bit for bit
// the golden cacc_fp16_add (engines/conv/golden/cacc_fp16.cpp; rules: docs/FP16.md "CACC").
//   acc_i  {exp[7:0], mant[39:0]}: value mant * 2^(exp - 101), two's complement mantissa; 0 is the
//          empty accumulator, exponent 0xff a NaN.
//   word_i {exp[5:0], mant[37:0]}: value mant * 2^(exp - 50); exponent 0x3f a NaN.
// Not IEEE; NVIDIA's quirks kept because the golden model (judged against NVIDIA's C model) has
// them: an operand aligned more than 40 places becomes 0 and leaves no sticky bit, a negative sum
// rounds up only on guard and sticky (half away from zero in two's complement), exponents wrap
// mod 256.
module cacc_fp_add (
  input  logic [47:0] acc_i,
  input  logic [43:0] word_i,
  output logic [47:0] sum_o
);
  localparam int unsigned MantW = 40;  // accumulator mantissa
  localparam int unsigned MacW  = 38;  // MAC word mantissa

  logic [7:0]       acc_exp;
  logic [MantW-1:0] acc_m;
  logic [5:0]       mac_exp;
  logic [MacW-1:0]  mac;
  assign {acc_exp, acc_m} = acc_i;
  assign {mac_exp, mac}   = word_i;

  // ---- The word normalized over its redundant sign bits, placed two bits up in 40 bits.
  // A bit that differs from the one above it ends the sign run: lzc of v ^ (v >> 1).
  logic [MacW-2:0] mac_diff;
  logic [5:0]      n0;
  assign mac_diff = mac[MacW-1:1] ^ mac[MacW-2:0];
  dla_lzc #(
    .Width (MacW - 1)
  ) u_lzc_word (
    .data_i (mac_diff),
    .cnt_o  (n0)
  );

  logic [MacW-1:0]  mac_shl;
  logic [MantW-1:0] mac_ext;
  logic [7:0]       mac_norm_exp, acc_eff_exp;
  assign mac_shl      = mac << n0;
  assign mac_ext      = {mac_shl, 2'b00};
  // Rebased from 2^(e - 50) on 38 bits to 2^(e - 101) on 40, less the shift.
  assign mac_norm_exp = 8'(mac_exp) - 8'(n0) + 8'd49;
  // An empty accumulator must not hold the sum at its stale exponent.
  assign acc_eff_exp  = (acc_m == '0) ? 8'd0 : acc_exp;

  // ---- Alignment: the smaller exponent's operand shifts right (arithmetically); its lost bits
  // are kept for rounding. Equal exponents shift nothing.
  logic             acc_sm;
  logic [7:0]       lg_exp, shift;
  logic [MantW-1:0] lg_m, sm_m, sm_al, lost;
  assign acc_sm = mac_norm_exp > acc_eff_exp;
  assign lg_m   = acc_sm ? mac_ext : acc_m;
  assign sm_m   = acc_sm ? acc_m : mac_ext;
  assign lg_exp = acc_sm ? mac_norm_exp : acc_eff_exp;
  assign shift  = acc_sm ? mac_norm_exp - acc_eff_exp : acc_eff_exp - mac_norm_exp;

  always_comb begin
    if (shift > 8'(MantW)) begin
      // Beyond 40 places: 0 even for a negative operand, and nothing kept for rounding.
      sm_al = '0;
      lost  = '0;
    end else begin
      sm_al = MantW'($signed(sm_m) >>> shift);
      lost  = sm_m << (8'(MantW) - shift);  // a shift by 40 (shift 0) gives 0
    end
  end

  // ---- Sum and renormalization.
  logic [MantW-1:0] raw;
  logic             ovf;
  assign raw = lg_m + sm_al;
  assign ovf = (lg_m[MantW-1] == sm_al[MantW-1]) && (raw[MantW-1] != lg_m[MantW-1]);

  logic [MantW-2:0] raw_diff;
  logic [5:0]       n1;
  assign raw_diff = raw[MantW-1:1] ^ raw[MantW-2:0];
  dla_lzc #(
    .Width (MantW - 1)
  ) u_lzc_sum (
    .data_i (raw_diff),
    .cnt_o  (n1)
  );

  logic [MantW-1:0] sum, lost_n;
  logic [7:0]       norm_exp;
  logic             guard, sticky;
  always_comb begin
    sum      = raw;
    lost_n   = lost;
    norm_exp = lg_exp;
    guard    = lost[MantW-1];
    sticky   = |lost[MantW-2:0];
    if (ovf) begin
      // One place right, the true sign on top; the dropped LSB becomes the guard.
      sum      = {lg_m[MantW-1], raw[MantW-1:1]};
      norm_exp = lg_exp + 8'd1;
      guard    = raw[0];
      sticky   = |lost;
    end else if (raw[MantW-1] == raw[MantW-2]) begin
      // Left over the redundant sign bits (n1 >= 1 here), the lost bits shifting back in.
      sum      = (raw << n1) | (lost >> (6'(MantW) - n1));
      lost_n   = lost << n1;
      norm_exp = lg_exp - 8'(n1);
      guard    = lost_n[MantW-1];
      sticky   = |lost_n[MantW-2:0];
    end
  end

  // ---- Rounding half away from zero: a negative sum is already truncated downwards, so it
  // rounds up only above the half (guard and sticky).
  logic             rnd;
  logic [MantW-1:0] rounded, result;
  logic [7:0]       res_exp;
  assign rnd     = sum[MantW-1] ? (guard && sticky) : guard;
  assign rounded = sum + MantW'(rnd);
  always_comb begin
    result  = rounded;
    res_exp = norm_exp;
    if (rounded[MantW-1] != sum[MantW-1]) begin
      // The increment carried into the sign: one place right again.
      result  = {sum[MantW-1], rounded[MantW-1:1]};
      res_exp = norm_exp + 8'd1;
    end
  end

  // ---- Special cases, in the golden model's order of precedence.
  always_comb begin
    if (mac == '0) begin
      sum_o = acc_i;  // a zero word changes nothing, a NaN accumulator included
    end else if (acc_exp == 8'hff) begin
      sum_o = {8'hff, acc_m[MantW-1 -: 11], 29'd0};  // NaN sign and fraction at the top
    end else if (mac_exp == 6'h3f) begin
      sum_o = {8'hff, mac[MacW-1 -: 11], 29'd0};
    end else begin
      sum_o = {(result == '0) ? 8'd0 : res_exp, result};
    end
  end
endmodule
