// NVDLA PDP + PDP_RDMA, integer data (int8, int16) and, with SupportFp16, fp16 (NVDLA v1),
// off-flying (input from memory) or on the fly from SDP, register level. Spec:
// ../shared/reference/pdp-cdp-bdma-rubik.md §1-2, nvdla-arithmetic.md §4; docs/PDP_RTL.md.
//   * two CSB register blocks with ping-pong groups (the generated pdp_reg_top and
//     pdp_rdma_reg_top, fields as structs); the layer starts when PDP's consumer group and
//     PDP_RDMA's consumer group are both armed (either enable order), and both groups are released
//     together after the last output write;
//   * PDP_RDMA (pdp_rdma): per split, surface, input line, one atom read per column (its own
//     registers: widths, split, kernel width/stride for the overlap), through dla_dma_rd (several
//     reads in flight), or SDP's atoms on the fly;
//   * pooling (pdp_pool): Throughput elements (consecutive lanes of one atom) per cycle through
//     the horizontal stage (up to 8 open windows of a line) and the vertical one (8 line buffers
//     of partial results);
//   * average: + KERNEL_WIDTH x PAD_VALUE_{nrow}X, then two multiplications by RECIP_KERNEL_WIDTH
//     and RECIP_KERNEL_HEIGHT, each rounded half away from zero at 2^-16; the result is cast to
//     int8/int16 (NVDLA casts without saturation);
//   * fp16 (pdp_lane_fp, beside the integer lanes): max / min on fp16 patterns, the average in
//     fp17 with NVDLA v1's float rules (docs/FP16.md "PDP"); NAN_TO_ZERO flushes NaN inputs read
//     from memory to +0; D_NAN_INPUT_NUM / D_INF_INPUT_NUM count the NaN / Inf halves of every
//     atom read from memory (a split's overlap columns read again, counted again), and
//     D_NAN_OUTPUT_NUM the NaN halves of every atom written, into the consumer group at the
//     layer's end (0 for integer data);
//   * writer (pdp_wdma): whole atoms (all lanes of the last surface) at DST_BASE + split offset +
//     line and surface strides, in processing order; PDP_DONE for the consumer group after the
//     last write.
module pdp_core #(
  parameter int unsigned AtomLog2    = 3,   // 8-byte memory atom (nv_small); 5 for nv_large/nv_full
  parameter logic [31:0] PdpBase     = 32'hb000,
  parameter logic [31:0] RdmaBase    = 32'ha000,
  parameter int unsigned Throughput  = 1,   // elements per cycle (PDP_THROUGHPUT)
  parameter int unsigned MaxInFlight = 16,  // DMA reads outstanding
  parameter bit          SupportFp16 = 1'b0,  // fp16 data (NVDLA v1, nv_full)
  // Line buffer: 4096 int8 partial results per line (NVDLA), i.e. 4096 / atom bytes output
  // columns per split, int8 or int16 (smaller only for the synthesis check).
  parameter int unsigned MaxOutW     = 4096 >> AtomLog2,
  localparam int unsigned AtomBytes  = 1 << AtomLog2,
  localparam int unsigned AtomBits   = 8 * AtomBytes
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // CSB
  input  logic                  csb_req_valid_i,
  output logic                  csb_req_ready_o,
  input  logic [31:0]           csb_req_addr_i,
  input  logic                  csb_req_write_i,
  input  logic [31:0]           csb_req_wdata_i,
  output logic                  csb_rsp_valid_o,
  output logic [31:0]           csb_rsp_rdata_o,
  // DMA read
  output logic                  dma_rd_req_valid_o,
  input  logic                  dma_rd_req_ready_i,
  output logic [63:0]           dma_rd_req_addr_o,
  input  logic                  dma_rd_rsp_valid_i,
  output logic                  dma_rd_rsp_ready_o,
  input  logic [AtomBits-1:0]   dma_rd_rsp_data_i,
  // DMA write
  output logic                  dma_wr_req_valid_o,
  input  logic                  dma_wr_req_ready_i,
  output logic [63:0]           dma_wr_req_addr_o,
  output logic [AtomBits-1:0]   dma_wr_req_data_o,
  output logic [AtomBytes-1:0]  dma_wr_req_mask_o,
  // on-the-fly input (FLYING_MODE = ON_FLYING): SDP's output atoms in PDP's processing order
  // (surface, line, column), no split
  input  logic                  fly_valid_i,
  output logic                  fly_ready_o,
  input  logic [AtomBits-1:0]   fly_data_i,
  // done pulse per register group (to GLB)
  output logic [1:0]            intr_o
);
  localparam int unsigned Lanes  = AtomBytes;          // int8 lanes of an atom
  // Width of a beat's index within its atom (Lanes / Throughput beats); pdp_pool and pdp_wdma
  // take it from here.
  localparam int unsigned BeatW  = $clog2(Lanes / Throughput + 1);

  // ---------------------------------------------------------------- registers
  // Generated register blocks (tools/reggen): the consumer groups' fields as structs.
  /* verilator lint_off UNUSEDSIGNAL */
  pdp_regs_pkg::pdp_reg2hw_d_t      pdp;
  pdp_rdma_regs_pkg::pdp_rdma_reg2hw_d_t rdma;
  /* verilator lint_on UNUSEDSIGNAL */
  logic pdp_armed, rdma_armed, pdp_consumer, rdma_consumer, layer_done;
  logic flying_q;  // the running layer's input is the flying port (ON_FLYING)
  logic [31:0] pdp_rdata, rdma_rdata;
  pdp_regs_pkg::pdp_hw2reg_t pdp_hw2reg;
  logic unused_s;
  logic        pdp_s_we, pdp_s_re, rdma_s_we, rdma_s_re, pdp_hit, rdma_hit;
  logic [11:0] pdp_s_off, rdma_s_off;
  logic [31:0] pdp_s_wdata, rdma_s_wdata;
  assign unused_s = ^{pdp_s_we, pdp_s_re, rdma_s_we, rdma_s_re, pdp_s_off, rdma_s_off, pdp_s_wdata,
                      rdma_s_wdata, pdp_hit, rdma_hit, rdma_consumer};

  pdp_reg_top #(.Base(PdpBase)) u_pdp_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (pdp_hit),
    .rdata_o    (pdp_rdata),
    .s_we_o     (pdp_s_we),
    .s_re_o     (pdp_s_re),
    .s_offset_o (pdp_s_off),
    .s_wdata_o  (pdp_s_wdata),
    .s_rdata_i  ('0),
    .reg2hw_o   (pdp),
    .hw2reg_i   (pdp_hw2reg),
    .consumer_o (pdp_consumer),
    .armed_o    (pdp_armed),
    .done_i     (layer_done)
  );

  pdp_rdma_reg_top #(.Base(RdmaBase)) u_rdma_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (rdma_hit),
    .rdata_o    (rdma_rdata),
    .s_we_o     (rdma_s_we),
    .s_re_o     (rdma_s_re),
    .s_offset_o (rdma_s_off),
    .s_wdata_o  (rdma_s_wdata),
    .s_rdata_i  ('0),
    .reg2hw_o   (rdma),
    .hw2reg_i   ('0),
    .consumer_o (rdma_consumer),
    .armed_o    (rdma_armed),
    .done_i     (layer_done && !flying_q)
  );

  assign csb_req_ready_o = 1'b1;
  logic csb_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) csb_rd_q <= 1'b0;
    else csb_rd_q <= csb_req_valid_i && !csb_req_write_i;
  end
  assign csb_rsp_valid_o = csb_rd_q;
  assign csb_rsp_rdata_o = pdp_rdata | rdma_rdata;  // a block that did not hit answers 0

  // The element width, read by the pooling stages, the writer and the fp16 counters.
  logic wide, fp16;  // 16-bit elements (int16, fp16); fp16
  assign wide = pdp.data_format != 2'd0;
  assign fp16 = SupportFp16 && pdp.data_format == 2'd2;

  // ---------------------------------------------------------------- layer control
  logic running_q, start;
  logic core_done, rdma_issued;
  logic off_flying;
  assign off_flying = pdp.operation_mode_cfg_flying_mode;
  assign start = !running_q && pdp_armed && (rdma_armed || !off_flying);
  assign layer_done = running_q && core_done;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) running_q <= 1'b0;
    else if (start) running_q <= 1'b1;
    else if (layer_done) running_q <= 1'b0;
  end
  assign intr_o = layer_done ? (pdp_consumer ? 2'b10 : 2'b01) : 2'b00;

  // ---------------------------------------------------------------- PDP_RDMA (pdp_rdma.sv)
  logic                in_valid, in_ready;
  logic [AtomBits-1:0] in_data;
  pdp_rdma #(
    .AtomLog2   (AtomLog2),
    .MaxInFlight(MaxInFlight)
  ) u_rdma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .start_i           (start),
    .off_flying_i      (off_flying),
    .rdma_i            (rdma),
    .issued_o          (rdma_issued),
    .flying_o          (flying_q),
    .in_valid_o        (in_valid),
    .in_ready_i        (in_ready),
    .in_data_o         (in_data),
    .dma_rd_req_valid_o(dma_rd_req_valid_o),
    .dma_rd_req_ready_i(dma_rd_req_ready_i),
    .dma_rd_req_addr_o (dma_rd_req_addr_o),
    .dma_rd_rsp_valid_i(dma_rd_rsp_valid_i),
    .dma_rd_rsp_ready_o(dma_rd_rsp_ready_o),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .fly_valid_i       (fly_valid_i),
    .fly_ready_o       (fly_ready_o),
    .fly_data_i        (fly_data_i)
  );

  // ---------------------------------------------------------------- pooling stages (pdp_pool.sv)
  logic                         wr_ready, wr_fire, wr_last, wr_push, wr_idle;
  logic [BeatW-1:0]             wr_beat;
  logic [Throughput-1:0][15:0]  wr_value;
  logic [63:0]                  wr_addr;
  logic [AtomBits-1:0]          wr_atom;
  pdp_pool #(
    .AtomLog2   (AtomLog2),
    .Throughput (Throughput),
    .SupportFp16(SupportFp16),
    .MaxOutW    (MaxOutW),
    .BeatW      (BeatW)
  ) u_pool (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .pdp_i      (pdp),
    .wide_i     (wide),
    .fp16_i     (fp16),
    .start_i    (start),
    .flying_i   (flying_q),
    .in_valid_i (in_valid),
    .in_ready_o (in_ready),
    .in_data_i  (in_data),
    .out_ready_i(wr_ready),
    .out_fire_o (wr_fire),
    .out_beat_o (wr_beat),
    .out_last_o (wr_last),
    .out_value_o(wr_value),
    .out_addr_o (wr_addr),
    .drained_i  (wr_idle && rdma_issued),
    .done_o     (core_done)
  );

  // ---------------------------------------------------------------- writer (pdp_wdma.sv)
  pdp_wdma #(
    .AtomLog2  (AtomLog2),
    .Throughput(Throughput),
    .BeatW     (BeatW)
  ) u_wdma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .wide_i            (wide),
    .beat_fire_i       (wr_fire),
    .beat_i            (wr_beat),
    .beat_last_i       (wr_last),
    .value_i           (wr_value),
    .addr_i            (wr_addr),
    .ready_o           (wr_ready),
    .push_o            (wr_push),
    .atom_o            (wr_atom),
    .dma_wr_req_valid_o(dma_wr_req_valid_o),
    .dma_wr_req_ready_i(dma_wr_req_ready_i),
    .dma_wr_req_addr_o (dma_wr_req_addr_o),
    .dma_wr_req_data_o (dma_wr_req_data_o),
    .dma_wr_req_mask_o (dma_wr_req_mask_o),
    .idle_o            (wr_idle)
  );

  // fp16's NaN / Inf counters, into the consumer group at the layer's end (0 for integer data)
  logic [31:0] nan_in_q, inf_in_q, nan_out_q;
  if (SupportFp16) begin : g_fp16_count
    localparam int unsigned Halves = Lanes / 2;
    localparam int unsigned CntW   = $clog2(Halves + 1);
    logic [CntW-1:0] in_nan, in_inf, out_nan, unused_out_inf;
    dla_fp16_count #(.Halves(Halves)) u_in_cnt (
      .data_i(in_data), .mask_i('1), .nan_o(in_nan), .inf_o(in_inf)
    );
    dla_fp16_count #(.Halves(Halves)) u_out_cnt (
      .data_i(wr_atom), .mask_i('1), .nan_o(out_nan), .inf_o(unused_out_inf)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        nan_in_q  <= '0;
        inf_in_q  <= '0;
        nan_out_q <= '0;
      end else if (start) begin
        nan_in_q  <= '0;
        inf_in_q  <= '0;
        nan_out_q <= '0;
      end else if (fp16) begin
        if (in_valid && in_ready && !flying_q) begin
          nan_in_q <= nan_in_q + 32'(in_nan);
          inf_in_q <= inf_in_q + 32'(in_inf);
        end
        if (wr_push) nan_out_q <= nan_out_q + 32'(out_nan);
      end
    end
  end else begin : g_int_count
    assign nan_in_q  = '0;
    assign inf_in_q  = '0;
    assign nan_out_q = '0;
    logic unused_wr;  // the written atoms are counted for fp16 only
    assign unused_wr = ^{wr_push, wr_atom};
  end
  always_comb begin
    pdp_hw2reg                   = '0;
    pdp_hw2reg.inf_input_num_de  = layer_done;
    pdp_hw2reg.inf_input_num     = inf_in_q;
    pdp_hw2reg.nan_input_num_de  = layer_done;
    pdp_hw2reg.nan_input_num     = nan_in_q;
    pdp_hw2reg.nan_output_num_de = layer_done;
    pdp_hw2reg.nan_output_num    = nan_out_q;
  end

`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: sequencer, valid/ready ports (pdp_pool: its states).
  CovStart: cover property (@(posedge clk_i) start);
  CovRunning: cover property (@(posedge clk_i) running_q);
  CovLayerDone: cover property (@(posedge clk_i) layer_done);
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
  CovDmaRdReqFire: cover property (@(posedge clk_i) dma_rd_req_valid_o && dma_rd_req_ready_i);
  CovDmaRdReqStall: cover property (@(posedge clk_i) dma_rd_req_valid_o && !dma_rd_req_ready_i);
  CovDmaRdRspFire: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && dma_rd_rsp_ready_o);
  CovDmaRdRspStall: cover property (@(posedge clk_i) dma_rd_rsp_valid_i && !dma_rd_rsp_ready_o);
  CovDmaWrReqFire: cover property (@(posedge clk_i) dma_wr_req_valid_o && dma_wr_req_ready_i);
  CovDmaWrReqStall: cover property (@(posedge clk_i) dma_wr_req_valid_o && !dma_wr_req_ready_i);
  CovFlyInFire: cover property (@(posedge clk_i) fly_valid_i && fly_ready_o);
  CovFlyInStall: cover property (@(posedge clk_i) fly_valid_i && !fly_ready_o);
`endif
endmodule
