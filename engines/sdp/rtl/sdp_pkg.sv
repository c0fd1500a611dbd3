// SDP configuration, decoded from the SDP and SDP_RDMA registers by sdp_regs (the one place the
// register fields are read): one struct per datapath stage, per operand stream, and the layer.
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
    logic        out_wide;  // 2-byte output elements (int16, or fp16)
    logic        out_fp16;  // OUT_PRECISION FP16 (fp16 processing: else int16)
    logic        fp;        // PROC_PRECISION FP16: the float stages (sdp_*_fp)
    logic        eql;       // EQL mode: pass the low 16 bits, no conversion
  } c_cfg_t;

  // One operand stream (BRDMA, NRDMA, ERDMA): its cube in memory and its element format.
  typedef struct packed {
    logic [63:0] base;
    logic [31:0] line_stride;
    logic [31:0] surface_stride;
    logic [31:0] batch_stride;
    logic        size2;    // 2-byte operand values
    logic        both;     // ALU and MUL values interleaved
    logic        per_elt;  // one value per element (else per channel)
    logic        need;     // a stage of this stream reads its ALU or MUL operand from memory
  } op_cfg_t;

  // The layer: stages, streams, cube, and the geometry derived from them (docs/SDP_RTL.md).
  typedef struct packed {
    x_cfg_t      bs;
    x_cfg_t      bn;
    y_cfg_t      ew;
    c_cfg_t      c;
    op_cfg_t     brdma;
    op_cfg_t     nrdma;
    op_cfg_t     erdma;
    logic        lut_active;  // EW's LUT stage is on
    // input cube (MRDMA) and output cube (WDMA)
    logic [63:0] src_base;
    logic [31:0] src_line_stride;
    logic [31:0] src_surface_stride;
    logic [63:0] dst_base;
    logic [31:0] dst_line_stride;
    logic [31:0] dst_surface_stride;
    logic [31:0] dst_batch_stride;
    logic [12:0] width_m1;
    logic [12:0] height_m1;
    logic [4:0]  batch_m1;    // flying only, else 0
    logic        flying;
    logic        wg_order;    // Winograd 2x2 tile order (flying only)
    logic        to_pdp;      // OUTPUT_DST = PDP
    logic        in_wide;     // 2-byte input lanes: int16 or fp16 (output: c.out_wide)
    logic        nan_to_zero; // D_FEATURE_MODE_CFG.NAN_TO_ZERO (fp16: data and memory operands)
    // perf counter enables: saturation and LUT (SDP), write stalls (SDP), read stalls (SDP_RDMA)
    logic        perf_sat_en;
    logic        perf_lut_en;
    logic        perf_wr_en;
    logic        perf_rd_en;
    // fp16: NaN / Inf counters of the input (SDP_RDMA) and NaN outputs (SDP)
    logic        perf_nan_inf_en;
    logic        rdma_perf_nan_inf_en;
    // lanes per atom (log2) of the input, the output, the channel loop's groups and the
    // processing precision (PROC_PRECISION: the operand streams' atoms; int16 -> int8 reads its
    // int16 surfaces in pairs, int8 -> int16 writes two surfaces per group); lanes computed
    // (padded atoms included) of the input and output; channel groups - 1
    logic [2:0]  ca_in_log2;
    logic [2:0]  ca_out_log2;
    logic [2:0]  ca_it_log2;
    logic [2:0]  ca_op_log2;
    logic [13:0] in_lanes;
    logic [13:0] out_lanes;
    logic [12:0] surfaces_m1;
  } cfg_t;

endpackage
