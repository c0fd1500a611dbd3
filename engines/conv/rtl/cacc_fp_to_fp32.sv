// NVDLA v1 CACC's accumulator to the fp32 it delivers to SDP, combinational: bit for bit the
// golden cacc_fp48_to_fp32 (engines/conv/golden/cacc_fp16.cpp; docs/FP16.md "CACC" rule 5).
// Sign and magnitude, the top 24 magnitude bits kept, rounded half up in magnitude on the next
// bit alone (no sticky: NVIDIA's rule); exponent the accumulator's plus 64, mod 256. The fraction
// is the magnitude's bits 37..15 whether or not the accumulator is normalized, as NVIDIA's is.
module cacc_fp_to_fp32 (
  input  logic [47:0] acc_i,
  output logic [31:0] fp32_o
);
  localparam int unsigned MantW = 40;

  logic [7:0]       exp;
  logic [MantW-1:0] m;
  logic             sign;
  assign {exp, m} = acc_i;
  assign sign     = m[MantW-1];

  // The magnitude of any mantissa but -2^39 fits in 39 bits.
  logic [MantW-2:0] mag;
  assign mag = sign ? -m[MantW-2:0] : m[MantW-2:0];

  logic [24:0] up;
  logic        carry;
  logic [22:0] fraction;
  logic [7:0]  out_exp;
  // The increment works on {sign, top 24 magnitude bits} as the golden code does: a carry shows
  // as the top bit leaving the sign's value.
  assign up    = {sign, mag[MantW-2 -: 24]} + 25'd1;
  assign carry = up[24] != sign;
  always_comb begin
    out_exp  = (m == '0) ? 8'd0 : exp + 8'd64;
    fraction = mag[MantW-3 -: 23];
    if (mag[MantW-26]) begin
      fraction = carry ? up[23:1] : up[22:0];
      out_exp  = out_exp + 8'(carry);
    end
  end

  always_comb begin
    if (exp == 8'hff) begin
      // The NaN's 10 fraction bits land at the bottom of fp32's 23, as NVIDIA's code puts them.
      fp32_o = {sign, 8'hff, 13'd0, m[MantW-2 -: 10]};
    end else if (sign && (m[MantW-2:0] == '0)) begin
      fp32_o = {1'b1, exp + 8'd65, 23'd0};  // -2^39: one magnitude bit longer than any other
    end else begin
      fp32_o = {sign, out_exp, fraction};
    end
  end
endmodule
