// One lane of PDP's pooling datapath (pdp_core instantiates Throughput of them): the lane's input
// element combined into the 8 open window accumulators, the finished window's row result combined
// into the 8 line-buffer banks, and the lane's output value (max / min, or the average's total
// times RECIP_KERNEL_WIDTH then RECIP_KERNEL_HEIGHT, each rounded half away from zero at 2^-16,
// cast to 16 bits without saturation). Spec: nvdla-arithmetic.md §4; docs/PDP_RTL.md.
// A module of its own so that the lanes are one piece of logic, synthesized once.
module pdp_lane #(
  parameter int unsigned AccW = 32,  // partial results
  parameter int unsigned TotW = 38   // an average's window total: |total| < 2^31 + 16 x 2^31
) (
  input  logic [1:0]           method_i,   // 0 average, 1 max, 2 min
  input  logic [AccW-1:0]      elem_i,     // the lane's input element
  input  logic [7:0][AccW-1:0] hacc_i,     // the lane's window accumulators
  input  logic [7:0]           h_take_i,   // window k takes the element this beat ...
  input  logic [7:0]           h_first_i,  // ... as its first value
  input  logic [2:0]           h_sel_i,    // the window whose row result goes to the line buffer
  input  logic [AccW-1:0]      h_pad_i,    // added to an average's row result (PAD_VALUE_{ncol}X)
  input  logic [7:0][AccW-1:0] lb_i,       // the lane's line-buffer values of this column
  input  logic [7:0]           v_first_i,  // bank k starts a new output line with the row result
  input  logic [2:0]           v_sel_i,    // the bank of the output line that may finish
  input  logic                 flush_i,    // the output value is the line buffer's (bottom flush)
  input  logic [TotW-1:0]      v_pad_i,    // KERNEL_WIDTH x PAD_VALUE_{nrow}X, added to the total
  input  logic [16:0]          recip_w_i,
  input  logic [16:0]          recip_h_i,
  output logic [7:0][AccW-1:0] hacc_o,
  output logic [7:0][AccW-1:0] lb_o,
  output logic [15:0]          out_o
);
  // each step multiplies by a 17-bit reciprocal (an 18-bit signed operand) and drops 16 bits,
  // exactly, so no step can overflow
  localparam int unsigned ProdWW = TotW + 18;
  localparam int unsigned QuoWW  = ProdWW - 16;
  localparam int unsigned ProdHW = QuoWW + 18;
  localparam int unsigned QuoHW  = ProdHW - 16;

  function automatic logic signed [AccW-1:0] combine(input logic [1:0] method,
                                                     input logic signed [AccW-1:0] a,
                                                     input logic signed [AccW-1:0] e);
    case (method)
      2'd1:    combine = (e > a) ? e : a;
      2'd2:    combine = (e < a) ? e : a;
      default: combine = a + e;
    endcase
  endfunction

  logic [AccW-1:0] hres, ofinal;
  logic [TotW-1:0] total;
  always_comb begin
    for (int k = 0; k < 8; k++) begin
      hacc_o[k] = hacc_i[k];
      if (h_take_i[k]) hacc_o[k] = h_first_i[k] ? elem_i : combine(method_i, hacc_i[k], elem_i);
    end
    hres = hacc_o[h_sel_i];
    if (method_i == 2'd0) hres = hres + h_pad_i;
    for (int k = 0; k < 8; k++) lb_o[k] = v_first_i[k] ? hres : combine(method_i, lb_i[k], hres);
    ofinal = flush_i ? lb_i[v_sel_i] : lb_o[v_sel_i];
    total  = TotW'($signed(ofinal)) + v_pad_i;
  end

  logic [ProdWW-1:0] prod_w;
  logic [QuoWW-1:0]  quo_w;
  logic [ProdHW-1:0] prod_h;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [QuoHW-1:0]  quo_h;  // low 16 bits used
  /* verilator lint_on UNUSEDSIGNAL */
  logic unused_sat_w, unused_sat_h;
  // the operands are sign-extended by hand (packed values are unsigned)
  assign prod_w = ProdWW'($signed(ProdWW'($signed(total))) * $signed(ProdWW'({1'b0, recip_w_i})));
  assign prod_h = ProdHW'($signed(ProdHW'($signed(quo_w))) * $signed(ProdHW'({1'b0, recip_h_i})));
  dla_sshift_sat #(
    .InW (ProdWW),
    .OutW(QuoWW),
    .ShW (6)
  ) u_div_w (
    .data_i (prod_w),
    .shift_i(6'sd16),
    .data_o (quo_w),
    .sat_o  (unused_sat_w)
  );
  dla_sshift_sat #(
    .InW (ProdHW),
    .OutW(QuoHW),
    .ShW (6)
  ) u_div_h (
    .data_i (prod_h),
    .shift_i(6'sd16),
    .data_o (quo_h),
    .sat_o  (unused_sat_h)
  );
  // max / min: the value; average: the two rounded quotients (the quotients never reach the
  // shifter's saturation); NVDLA drops the MSBs, no saturation
  assign out_o = method_i != 2'd0 ? ofinal[15:0] : quo_h[15:0];
endmodule
