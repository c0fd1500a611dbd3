// One lane of PDP's pooling datapath in fp16 (pdp_core instantiates Throughput of them beside the
// integer pdp_lane when SupportFp16): the same window accumulators and line-buffer banks, holding
// fp16 patterns (max, min) or fp17 patterns (average), with NVDLA v1's float rules
// (rtl/prim/dla_fp_*; docs/FP16.md "PDP"). The operand order is NVIDIA's C model's, which matters
// for NaN payloads and signed zeros:
//   * a window's row: the running value first, then the new element (max / min on fp16; average
//     widens each element to fp17 and adds in fp17), then + PAD_VALUE_{ncol}X (fp17) when the
//     window has padded columns, as NVIDIA's model adds it (adding +0 otherwise would change
//     nothing: NVDLA's adder keeps the first operand's sign on -0 + +0);
//   * a line-buffer bank: the new row result first, then the bank's value;
//   * an average's total: + KERNEL_WIDTH x PAD_VALUE_{nrow}X (fp17, formed once in pdp_core) when
//     the window has padded lines, then x RECIP_KERNEL_WIDTH, x RECIP_KERNEL_HEIGHT (fp17) and
//     narrowed to fp16.
module pdp_lane_fp #(
  parameter int unsigned AccW = 32  // the shared accumulator words (fp17 / fp16 in the low bits)
) (
  input  logic [1:0]           method_i,   // 0 average, 1 max, 2 min
  input  logic [15:0]          elem_i,     // the lane's input element (fp16)
  input  logic [7:0][AccW-1:0] hacc_i,     // the lane's window accumulators
  input  logic [7:0]           h_take_i,   // window k takes the element this beat ...
  input  logic [7:0]           h_first_i,  // ... as its first value
  input  logic [2:0]           h_sel_i,    // the window whose row result goes to the line buffer
  input  logic                 h_pad_en_i, // the window has padded columns
  input  logic [16:0]          h_pad_i,    // PAD_VALUE_{ncol}X (fp17)
  input  logic [7:0][AccW-1:0] lb_i,       // the lane's line-buffer values of this column
  input  logic [7:0]           v_first_i,  // bank k starts a new output line with the row result
  input  logic [2:0]           v_sel_i,    // the bank of the output line that may finish
  input  logic                 flush_i,    // the output value is the line buffer's (bottom flush)
  input  logic                 v_pad_en_i, // the window has padded lines
  input  logic [16:0]          v_pad_i,    // KERNEL_WIDTH x PAD_VALUE_{nrow}X (fp17)
  input  logic [16:0]          recip_w_i,
  input  logic [16:0]          recip_h_i,
  output logic [7:0][AccW-1:0] hacc_o,
  output logic [7:0][AccW-1:0] lb_o,
  output logic [15:0]          out_o
);
  logic avg, is_max;
  assign avg    = method_i == 2'd0;
  assign is_max = method_i == 2'd1;

  // the element as the accumulators hold it
  logic [16:0] elem17;
  dla_fp_cvt #(.InExpW(5), .InMantW(10), .OutExpW(6), .OutMantW(10)) u_widen (
    .a_i(elem_i),
    .z_o(elem17)
  );
  logic [AccW-1:0] elem_acc;
  assign elem_acc = avg ? AccW'(elem17) : AccW'(elem_i);

  // horizontal: window k combined with the element
  logic [7:0][16:0] h_sum;
  logic [7:0][15:0] h_cmp;
  for (genvar k = 0; k < 8; k++) begin : g_h
    dla_fp_add #(.ExpW(6), .MantW(10)) u_add (
      .a_i  (hacc_i[k][16:0]),
      .b_i  (elem17),
      .sub_i(1'b0),
      .z_o  (h_sum[k])
    );
    dla_fp_minmax #(.ExpW(5), .MantW(10)) u_cmp (
      .a_i  (hacc_i[k][15:0]),
      .b_i  (elem_i),
      .max_i(is_max),
      .z_o  (h_cmp[k])
    );
  end

  // the row result, plus the pad of its padded columns (average)
  logic [AccW-1:0] hsel;
  logic [16:0]     hres_padded;
  dla_fp_add #(.ExpW(6), .MantW(10)) u_hpad (
    .a_i  (hsel[16:0]),
    .b_i  (h_pad_i),
    .sub_i(1'b0),
    .z_o  (hres_padded)
  );
  logic [AccW-1:0] hres;

  // vertical: bank k combined with the row result
  logic [7:0][16:0] v_sum;
  logic [7:0][15:0] v_cmp;
  for (genvar k = 0; k < 8; k++) begin : g_v
    dla_fp_add #(.ExpW(6), .MantW(10)) u_add (
      .a_i  (hres[16:0]),
      .b_i  (lb_i[k][16:0]),
      .sub_i(1'b0),
      .z_o  (v_sum[k])
    );
    dla_fp_minmax #(.ExpW(5), .MantW(10)) u_cmp (
      .a_i  (hres[15:0]),
      .b_i  (lb_i[k][15:0]),
      .max_i(is_max),
      .z_o  (v_cmp[k])
    );
  end

  // three processes, so that no signal of one feeds back through the adders into the same one
  always_comb begin
    for (int k = 0; k < 8; k++) begin
      hacc_o[k] = hacc_i[k];
      if (h_take_i[k]) hacc_o[k] = h_first_i[k] ? elem_acc : (avg ? AccW'(h_sum[k]) : AccW'(h_cmp[k]));
    end
  end
  assign hsel = hacc_o[h_sel_i];
  assign hres = (avg && h_pad_en_i) ? AccW'(hres_padded) : hsel;
  logic [AccW-1:0] ofinal;
  always_comb begin
    for (int k = 0; k < 8; k++) lb_o[k] = v_first_i[k] ? hres : (avg ? AccW'(v_sum[k]) : AccW'(v_cmp[k]));
    ofinal = flush_i ? lb_i[v_sel_i] : lb_o[v_sel_i];
  end

  // average: the total, its padded lines, the two reciprocals, fp16
  logic [16:0] total_padded, total, quo_w, quo_h;
  logic [15:0] avg16;
  dla_fp_add #(.ExpW(6), .MantW(10)) u_vpad (
    .a_i  (ofinal[16:0]),
    .b_i  (v_pad_i),
    .sub_i(1'b0),
    .z_o  (total_padded)
  );
  assign total = v_pad_en_i ? total_padded : ofinal[16:0];
  dla_fp_mul #(.ExpW(6), .MantW(10)) u_div_w (
    .a_i(total),
    .b_i(recip_w_i),
    .z_o(quo_w)
  );
  dla_fp_mul #(.ExpW(6), .MantW(10)) u_div_h (
    .a_i(quo_w),
    .b_i(recip_h_i),
    .z_o(quo_h)
  );
  dla_fp_cvt #(.InExpW(6), .InMantW(10), .OutExpW(5), .OutMantW(10)) u_narrow (
    .a_i(quo_h),
    .z_o(avg16)
  );
  assign out_o = avg ? avg16 : ofinal[15:0];

  // the words' upper bits (0 in fp16, used by the integer lane)
  logic unused_hi;
  assign unused_hi = ^{hacc_i, lb_i, ofinal, hsel};
endmodule
