// SDP datapath configuration, decoded from the SDP registers by sdp_regs (one struct per stage).
package sdp_pkg;

  typedef enum logic [1:0] {
    AluMax = 2'd0,
    AluMin = 2'd1,
    AluSum = 2'd2,
    AluEql = 2'd3   // EW only; X stages treat 3 as SUM (NVDLA RTL)
  } alu_algo_e;

  // BS (X1) and BN (X2): identical stages.
  typedef struct packed {
    logic        bypass;
    logic        alu_bypass;
    alu_algo_e   alu_algo;
    logic        mul_bypass;
    logic        mul_prelu;
    logic        relu_bypass;
    logic        alu_src_mem;
    logic [5:0]  alu_shift;
    logic [15:0] alu_operand;
    logic        mul_src_mem;
    logic [5:0]  mul_shift;
    logic [15:0] mul_operand;
  } x_cfg_t;

  // EW (Y): operand converters, MUL, ALU (incl. EQL), LUT select.
  typedef struct packed {
    logic        bypass;
    logic        alu_bypass;
    alu_algo_e   alu_algo;
    logic        mul_bypass;
    logic        mul_prelu;
    logic        lut_bypass;
    logic        alu_src_mem;
    logic        alu_cvt_bypass;
    logic [31:0] alu_operand;
    logic [31:0] alu_cvt_offset;
    logic [15:0] alu_cvt_scale;
    logic [5:0]  alu_cvt_truncate;
    logic        mul_src_mem;
    logic        mul_cvt_bypass;
    logic [31:0] mul_operand;
    logic [31:0] mul_cvt_offset;
    logic [15:0] mul_cvt_scale;
    logic [5:0]  mul_cvt_truncate;
    logic [9:0]  truncate;
  } y_cfg_t;

  // Output converter (C).
  typedef struct packed {
    logic [31:0] offset;
    logic [15:0] scale;
    logic [5:0]  shift;
    logic        out_int16;
    logic        eql;   // EQL mode: pass the low 16 bits, no conversion
  } c_cfg_t;

endpackage
