// The direct-convolution pipeline at register level: CDMA -> CBUF -> CSC -> CMAC_A/B -> CACC,
// with a flying output stream into SDP (docs/CONV_RTL.md). Five CSB register blocks (the
// generated <blk>_reg_top each: NVDLA offsets, block bases as parameters, fields as structs), two
// DMA read ports, CDMA's data and weight clients (NVDLA's CDMA_DAT and CDMA_WT), each through a
// dla_dma_rd engine of DatRdSlots / WtRdSlots reads in flight (1 .. DmaAtoms atoms per request,
// one beat per response, responses in order; docs/DMA.md "The port"), the CACC output on fly_* (FlyLanes
// 32-bit elements per beat in SDP's processing order: kernel group, h, w, lane; padded lanes
// included).
//
// A layer starts when the consumer groups of CDMA, CSC, CMAC_A, CMAC_B and CACC are all armed;
// the configuration is read from their consumer groups (CSC: geometry; CDMA: addresses,
// strides, converter, BYTE_PER_KERNEL; CACC: clip) and must stay there until the end, which
// holds because armed groups do not take CSB writes. When CACC has delivered the last element
// all five groups are released (OP_EN clears, CONSUMER toggles) and CACC's
// D_OUT_SATURATION of the finished group is written -- but not before CDMA's last read has come
// back: the fetch can outlast the convolution (weight bytes past the last kernel up to
// WEIGHT_BYTES, input lines no output uses), and a response arriving after the release would
// miss its interrupt (gated by the running layer) or land in the next layer's CBUF.
// Interrupts (one-cycle pulses, bit = 2*source + group): intr_o[1:0] CACC_DONE,
// intr_o[3:2] CDMA_DAT_DONE (input cube in CBUF), intr_o[5:4] CDMA_WT_DONE (all weights fetched).
// CBUF's flush after reset is timed as NVDLA's CDMA times it: FlushCycles cycles (half the CBUF
// entries, one per cycle, times the DMA beats per atomic-C word), then CDMA.S_CBUF_FLUSH_STATUS
// reads FLUSH_DONE = 1. This CBUF needs no clearing, so only the time is modelled; a layer armed
// earlier waits for it (NVDLA leaves that to the firmware's poll; docs/CONV_RTL.md "CBUF flush").
module conv_core #(
  parameter int unsigned AtomLog2     = 3,
  parameter int unsigned AtomicC      = 8,
  parameter int unsigned NumCells     = 8,
  parameter bit          SupportInt16 = 1'b0,
  parameter int unsigned CbufBanks    = 32,    // CBUF banks (D_BANK splits them: data, weights)
  parameter int unsigned CbufEntries  = 512,   // CBUF entries (rows of one channel block) per bank
  parameter int unsigned StripeLower  = 8,
  parameter int unsigned StripeUpper  = 16,
  parameter logic [31:0] CdmaBase     = 32'h3000,
  parameter logic [31:0] CscBase      = 32'h4000,
  parameter logic [31:0] CmacABase    = 32'h5000,
  parameter logic [31:0] CmacBBase    = 32'h6000,
  parameter logic [31:0] CaccBase     = 32'h7000,
  parameter int unsigned FlyLanes     = 1,  // CACC elements per beat to SDP
  parameter bit          SupportWino  = 1'b0,  // Winograd F(2x2,3x3) (nv_full: AtomicC 64, int16)
  parameter bit          SupportFp16  = 1'b0,  // fp16 direct convolution (NVDLA v1: AtomicC 64, int16)
  parameter bit          SupportWfold = 1'b0,  // the W-fold CDMA data path (nv_full, docs/WFOLD.md)
  parameter int unsigned DmaAtoms     = 1,  // atoms per DMA read beat (dma_bits / atom bits)
  // reads in flight of CDMA's data / weight client (their engines' buffers, in beats): small by
  // default (synthesis); the verilated models take regs/hw_configs.json's (docs/DMA.md)
  parameter int unsigned DatRdSlots   = 8,
  parameter int unsigned WtRdSlots    = 8,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned AtomBits    = 8 * AtomBytes,
  localparam int unsigned DmaBits     = AtomBits * DmaAtoms,
  localparam int unsigned LenW        = DmaAtoms > 1 ? $clog2(DmaAtoms) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // CSB
  input  logic                csb_req_valid_i,
  output logic                csb_req_ready_o,
  input  logic [31:0]         csb_req_addr_i,
  input  logic                csb_req_write_i,
  input  logic [31:0]         csb_req_wdata_i,
  output logic                csb_rsp_valid_o,
  output logic [31:0]         csb_rsp_rdata_o,
  // DMA read, CDMA_DAT and CDMA_WT: len + 1 atoms per request, one beat per response, responses
  // in order
  output logic                dat_rd_req_valid_o,
  input  logic                dat_rd_req_ready_i,
  output logic [63:0]         dat_rd_req_addr_o,
  output logic [LenW-1:0]     dat_rd_req_len_o,
  input  logic                dat_rd_rsp_valid_i,
  output logic                dat_rd_rsp_ready_o,
  input  logic [DmaBits-1:0]  dat_rd_rsp_data_i,
  output logic                wt_rd_req_valid_o,
  input  logic                wt_rd_req_ready_i,
  output logic [63:0]         wt_rd_req_addr_o,
  output logic [LenW-1:0]     wt_rd_req_len_o,
  input  logic                wt_rd_rsp_valid_i,
  output logic                wt_rd_rsp_ready_o,
  input  logic [DmaBits-1:0]  wt_rd_rsp_data_i,
  // flying output to SDP
  output logic                fly_valid_o,
  input  logic                fly_ready_i,
  output logic [FlyLanes-1:0][31:0] fly_data_o,
  // interrupts: [1:0] CACC, [3:2] CDMA_DAT, [5:4] CDMA_WT (bit 0 of each pair: group 0)
  output logic [5:0]          intr_o
);
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8;
  localparam int unsigned WordW       = AtomicC * DataW;
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1;
  localparam int unsigned NumOut      = NumCells * KernPerCell;
  // fp16: the MAC cell's word, a 6-bit exponent over a 38-bit sum (docs/FP16.md "CMAC")
  localparam int unsigned PsumW       = SupportFp16 ? 44 : (SupportInt16 ? 32 : 16) + $clog2(AtomicC);
  localparam int unsigned CellW       = NumCells > 1 ? $clog2(NumCells) : 1;
  localparam int unsigned RowAtoms    = WordW / AtomBits;
  localparam int unsigned CbufRows    = CbufBanks * CbufEntries;
  localparam int unsigned RowW        = $clog2(CbufRows);
  localparam int unsigned EntLog2     = $clog2(CbufEntries);
  localparam int unsigned DatRdPorts  = SupportWino ? 8 : 2;  // CSC's (conv_csc)
  // compressed weights (nv_full: SupportWino's feature set): the mask ring is the last bank
  localparam int unsigned WmbRows     = SupportWino ? CbufEntries : 0;
  localparam int unsigned FlushCycles = CbufBanks * CbufEntries / 2
                                      * (AtomicC * DataW > DmaBits ? AtomicC * DataW / DmaBits : 1);
  localparam int unsigned FlushW      = $clog2(FlushCycles + 1);

  // ---------------------------------------------------------------- register blocks
  // Generated (tools/reggen): each block's consumer group as a struct of its fields (reg2hw),
  // hardware-written fields in (hw2reg). Only the fields named below are read.
  /* verilator lint_off UNUSEDSIGNAL */
  cdma_regs_pkg::cdma_reg2hw_d_t   cdma;
  csc_regs_pkg::csc_reg2hw_d_t    csc;
  cmac_a_regs_pkg::cmac_a_reg2hw_d_t cmac_a;
  cmac_b_regs_pkg::cmac_b_reg2hw_d_t cmac_b;
  cacc_regs_pkg::cacc_reg2hw_d_t   cacc;
  /* verilator lint_on UNUSEDSIGNAL */
  cdma_regs_pkg::cdma_hw2reg_t     cdma_hw2reg;
  cacc_regs_pkg::cacc_hw2reg_t     cacc_hw2reg;
  logic [4:0]        armed, consumer, hit;
  logic [4:0][31:0]  rdata;
  logic [4:0]        s_we, s_re;
  logic [4:0][11:0]  s_off;
  logic [4:0][31:0]  s_wdata;
  logic [31:0]       cdma_s_rdata;
  logic              layer_done;

  assign csb_req_ready_o = 1'b1;

  cdma_reg_top #(.Base(CdmaBase)) u_cdma_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (hit[0]),
    .rdata_o    (rdata[0]),
    .s_we_o     (s_we[0]),
    .s_re_o     (s_re[0]),
    .s_offset_o (s_off[0]),
    .s_wdata_o  (s_wdata[0]),
    .s_rdata_i  (cdma_s_rdata),
    .reg2hw_o   (cdma),
    .hw2reg_i   (cdma_hw2reg),
    .consumer_o (consumer[0]),
    .armed_o    (armed[0]),
    .done_i     (layer_done)
  );

  csc_reg_top #(.Base(CscBase)) u_csc_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (hit[1]),
    .rdata_o    (rdata[1]),
    .s_we_o     (s_we[1]),
    .s_re_o     (s_re[1]),
    .s_offset_o (s_off[1]),
    .s_wdata_o  (s_wdata[1]),
    .s_rdata_i  ('0),
    .reg2hw_o   (csc),
    .consumer_o (consumer[1]),
    .armed_o    (armed[1]),
    .done_i     (layer_done)
  );

  cmac_a_reg_top #(.Base(CmacABase)) u_cmac_a_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (hit[2]),
    .rdata_o    (rdata[2]),
    .s_we_o     (s_we[2]),
    .s_re_o     (s_re[2]),
    .s_offset_o (s_off[2]),
    .s_wdata_o  (s_wdata[2]),
    .s_rdata_i  ('0),
    .reg2hw_o   (cmac_a),
    .consumer_o (consumer[2]),
    .armed_o    (armed[2]),
    .done_i     (layer_done)
  );

  cmac_b_reg_top #(.Base(CmacBBase)) u_cmac_b_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (hit[3]),
    .rdata_o    (rdata[3]),
    .s_we_o     (s_we[3]),
    .s_re_o     (s_re[3]),
    .s_offset_o (s_off[3]),
    .s_wdata_o  (s_wdata[3]),
    .s_rdata_i  ('0),
    .reg2hw_o   (cmac_b),
    .consumer_o (consumer[3]),
    .armed_o    (armed[3]),
    .done_i     (layer_done)
  );

  cacc_reg_top #(.Base(CaccBase)) u_cacc_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(csb_req_valid_i),
    .req_addr_i (csb_req_addr_i),
    .req_write_i(csb_req_write_i),
    .req_wdata_i(csb_req_wdata_i),
    .hit_o      (hit[4]),
    .rdata_o    (rdata[4]),
    .s_we_o     (s_we[4]),
    .s_re_o     (s_re[4]),
    .s_offset_o (s_off[4]),
    .s_wdata_o  (s_wdata[4]),
    .s_rdata_i  ('0),
    .reg2hw_o   (cacc),
    .hw2reg_i   (cacc_hw2reg),
    .consumer_o (consumer[4]),
    .armed_o    (armed[4]),
    .done_i     (layer_done)
  );

  // CSB read data: a block that did not hit answers 0.
  logic csb_rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) csb_rd_q <= 1'b0;
    else csb_rd_q <= csb_req_valid_i && !csb_req_write_i;
  end
  assign csb_rsp_valid_o = csb_rd_q;
  assign csb_rsp_rdata_o = rdata[0] | rdata[1] | rdata[2] | rdata[3] | rdata[4];

  // CBUF's flush after reset: data and weight halves in parallel, FLUSH_DONE one cycle after both.
  logic [FlushW-1:0] flush_cnt_q;
  logic              flush_done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flush_cnt_q  <= '0;
      flush_done_q <= 1'b0;
    end else begin
      if (flush_cnt_q != FlushW'(FlushCycles)) flush_cnt_q <= flush_cnt_q + FlushW'(1);
      flush_done_q <= flush_cnt_q == FlushW'(FlushCycles);
    end
  end

  // CDMA's S_ registers: S_ARBITER (stored), S_CBUF_FLUSH_STATUS (FLUSH_DONE).
  logic [31:0] arbiter_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      arbiter_q    <= cdma_regs_pkg::CDMA_S_ARBITER_RESET;
      cdma_s_rdata <= '0;
    end else begin
      if (s_we[0] && s_off[0] == cdma_regs_pkg::CDMA_S_ARBITER_OFFSET) begin
        arbiter_q <= s_wdata[0] & cdma_regs_pkg::CDMA_S_ARBITER_WRITABLE_MASK;
      end
      cdma_s_rdata <= !s_re[0] ? '0
                    : (s_off[0] == cdma_regs_pkg::CDMA_S_ARBITER_OFFSET) ? arbiter_q
                    : (s_off[0] == cdma_regs_pkg::CDMA_S_CBUF_FLUSH_STATUS_OFFSET) ? 32'(flush_done_q) : '0;
    end
  end

  // ---------------------------------------------------------------- register decode
  conv_pkg::cfg_t cfg;
  always_comb begin
    // fp16 has int16's layout (two bytes per element, 16 channels per 32-byte atom)
    cfg.fp16            = SupportFp16 && csc.misc_cfg_proc_precision == 2'd2;
    cfg.int16           = SupportInt16 && (csc.misc_cfg_proc_precision == 2'd1 || cfg.fp16);
    cfg.nan_to_zero     = cdma.nan_flush_to_zero;
    cfg.in_w            = 14'(csc.datain_size_ext_0_datain_width_ext) + 14'd1;
    cfg.in_h            = 14'(csc.datain_size_ext_0_datain_height_ext) + 14'd1;
    // image input: CSC's channels are the pre-extended C' = S x C of WEIGHT_CHANNEL_EXT
    cfg.in_c            = (csc.datain_format ? 14'(csc.weight_size_ext_1_weight_channel_ext)
                                             : 14'(csc.datain_size_ext_1)) + 14'd1;
    cfg.kernels         = 14'(csc.weight_size_ext_1_weight_kernel) + 14'd1;
    cfg.kern_w          = 6'(csc.weight_size_ext_0_weight_width_ext) + 6'd1;
    cfg.kern_h          = 6'(csc.weight_size_ext_0_weight_height_ext) + 6'd1;
    cfg.byte_per_kernel = 19'(cdma.weight_size_0) + 19'd1;
    cfg.wt_addr         = {cdma.weight_addr_high, cdma.weight_addr_low};
    cfg.wt_bytes        = cdma.weight_bytes;
    cfg.out_w           = 14'(csc.dataout_size_0_dataout_width) + 14'd1;
    cfg.out_h           = 14'(csc.dataout_size_0_dataout_height) + 14'd1;
    cfg.stride_x        = 4'(csc.conv_stride_ext_conv_x_stride_ext) + 4'd1;
    cfg.stride_y        = 4'(csc.conv_stride_ext_conv_y_stride_ext) + 4'd1;
    cfg.dil_x           = 6'(csc.dilation_ext_x_dilation_ext) + 6'd1;
    cfg.dil_y           = 6'(csc.dilation_ext_y_dilation_ext) + 6'd1;
    cfg.pad_left        = csc.zero_padding_pad_left;
    cfg.pad_top         = csc.zero_padding_pad_top;
    cfg.pad_value       = csc.zero_padding_value;
    cfg.dain_addr       = {cdma.dain_addr_high_0, cdma.dain_addr_low_0};
    cfg.line_stride     = cdma.line_stride;
    cfg.surf_stride     = cdma.surf_stride;
    cfg.cvt_en          = cdma.cvt_cfg_cvt_en;
    cfg.cvt_truncate    = cdma.cvt_cfg_cvt_truncate;
    cfg.cvt_offset      = cdma.cvt_offset;
    cfg.cvt_scale       = cdma.cvt_scale;
    cfg.clip_truncate   = cacc.clip_cfg;
    // CSC's CONV_MODE selects the mode (the driver writes the same value into all five blocks).
    cfg.wino            = SupportWino && csc.misc_cfg_conv_mode;
    cfg.pra_truncate    = csc.pra_cfg;
    cfg.src_w           = 14'(cdma.datain_size_0_datain_width) + 14'd1;
    cfg.src_h           = 14'(cdma.datain_size_0_datain_height) + 14'd1;
    cfg.src_c           = 14'(cdma.datain_size_1) + 14'd1;
    cfg.src_stride_x    = 4'(cdma.conv_stride_conv_x_stride) + 4'd1;
    cfg.src_stride_y    = 4'(cdma.conv_stride_conv_y_stride) + 4'd1;
    cfg.src_pad_left    = cdma.zero_padding_pad_left;
    cfg.src_pad_top     = cdma.zero_padding_pad_top;
    cfg.src_pad_value   = cdma.zero_padding_value;
    cfg.wfold           = SupportWfold && !cfg.wino && cdma.wfold_wfold_en;
    cfg.ws_log2         = cdma.wfold_ws_log2;
    cfg.fold_kern_w     = 6'(cdma.wfold_kernel_width) + 6'd1;
    cfg.fold_dil_x      = 6'(cdma.wfold_x_dilation) + 6'd1;
    cfg.img             = csc.datain_format;
    cfg.img_c           = 3'(csc.datain_size_ext_1) + 3'd1;
    cfg.eps             = cdma.entry_per_slice + 14'd1;
    cfg.pix_fmt         = cdma.datain_format_pixel_format;
    cfg.pix_signed      = cdma.datain_format_pixel_sign_override;
    cfg.pix_x_off       = cdma.pixel_offset_pixel_x_offset;
    cfg.src_pad_right   = cdma.zero_padding_pad_right;
    cfg.dain_addr1      = {cdma.dain_addr_high_1, cdma.dain_addr_low_1};
    cfg.line_uv_stride  = cdma.line_uv_stride;
    cfg.mean_en         = cdma.mean_format;
    cfg.mean            = {cdma.mean_global_1_mean_ax, cdma.mean_global_1_mean_bv,
                           cdma.mean_global_0_mean_gu, cdma.mean_global_0_mean_ry};
    cfg.post_e          = csc.post_y_extension;
    // batches exist on nv_full only (SupportWino: the nv_full feature set); CDMA's copy decides
    cfg.batch_m1        = SupportWino ? cdma.batch_number : 5'd0;
    cfg.batch_stride    = cdma.batch_stride;
    // compressed weights: nv_full only (SupportWino: the nv_full feature set); CDMA's copy decides
    cfg.wt_comp         = SupportWino && cdma.weight_format;
    cfg.wmb_addr        = {cdma.wmb_addr_high, cdma.wmb_addr_low};
    cfg.wmb_bytes       = 32'(cdma.wmb_bytes);
    // CDMA's copies decide (the golden device refuses a CSC copy that differs); SKIP_*_RLS need
    // nothing here: this CBUF never clears, a layer only overwrites
    cfg.dat_reuse       = cdma.misc_cfg_data_reuse;
    cfg.wt_reuse        = cdma.misc_cfg_weight_reuse;
  end

  // ---------------------------------------------------------------- layer control
  logic running_q, start;
  assign start = !running_q && (&armed) && flush_done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) running_q <= 1'b0;
    else if (start) running_q <= 1'b1;
    else if (layer_done) running_q <= 1'b0;
  end

  // ---------------------------------------------------------------- CDMA, CBUF, CSC
  logic                dat_we, wt_we, dat_done_pulse, wt_done_pulse, fetch_done;
  logic [13:0]         dat_lines;
  logic [RowW-1:0]     dat_wrow;
  logic [DatRdPorts-1:0][RowW-1:0] dat_rrow;
  logic [DatRdPorts-1:0][WordW-1:0] dat_rdata;
  logic [RowW-1:0]     wt_wrow, wt_rrow0, wt_rrow1;
  // D_BANK (CDMA's copy; the golden device refuses a CSC copy that differs): the data part is
  // banks 0..DATA_BANK, the weight ring the WEIGHT_BANK+1 banks after it. A program whose banks
  // exceed CBUF or do not hold its input or a kernel group is refused before it runs (the RTL
  // device's guard; harness/tops/nvdla_core_rtl.cpp).
  logic [5:0]          data_banks, weight_banks;
  logic [RowW-1:0]     wt_base;
  logic [RowW:0]       wt_ring;
  assign data_banks   = 6'(cdma.bank_data_bank) + 6'd1;
  assign weight_banks = 6'(cdma.bank_weight_bank) + 6'd1;
  assign wt_base      = RowW'((RowW + 6)'(data_banks) << EntLog2);
  assign wt_ring      = (RowW + 1)'((RowW + 6)'(weight_banks) << EntLog2);
  logic [RowAtoms-1:0] dat_wmask, wt_wmask;
  logic [WordW-1:0]    dat_wdata, wt_wdata, dat_wdata1;
  logic                dat_wnext;
  logic [RowAtoms-1:0] dat_wmask1;
  logic [WordW-1:0]    wt_rdata0, wt_rdata1;
  logic [31:0]         wt_written, wt_release;
  logic [31:0]         wmb_written, wmb_release;
  logic                wt_wmb;
  logic [1:0][RowW-1:0]  wmb_rrow;
  logic [1:0][WordW-1:0] wmb_rdata;
  // CDMA's clients on their engines' client side
  logic                cdat_req_valid, cdat_req_ready, cdat_rsp_valid, cdat_rsp_ready;
  logic                cwt_req_valid, cwt_req_ready, cwt_rsp_valid, cwt_rsp_ready;
  logic [63:0]         cdat_req_addr, cwt_req_addr;
  logic [LenW-1:0]     cdat_req_len, cwt_req_len;
  logic [DmaBits-1:0]  cdat_rsp_data, cwt_rsp_data;

  logic [5:0] img_nan, img_inf;  // fp16 image input: NaN / Inf halves CDMA fetched (conv_cdma_img_pack)
  conv_cdma #(
    .AtomLog2      (AtomLog2),
    .AtomicC       (AtomicC),
    .SupportInt16  (SupportInt16),
    .SupportFp16   (SupportFp16),
    .CbufRows      (CbufRows),
    .WtRdSlots     (WtRdSlots),
    .GroupKernels  (NumOut),
    .SupportWino   (SupportWino),
    .SupportWfold  (SupportWfold),
    .StripeLower   (StripeLower),
    .StripeUpper   (StripeUpper),
    .DmaAtoms      (DmaAtoms),
    .WmbRows       (WmbRows)
  ) u_cdma (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .start_i           (start),
    .cfg_i             (cfg),
    .dat_rd_req_valid_o(cdat_req_valid),
    .dat_rd_req_ready_i(cdat_req_ready),
    .dat_rd_req_addr_o (cdat_req_addr),
    .dat_rd_req_len_o  (cdat_req_len),
    .dat_rd_port_i     (dat_rd_req_valid_o),
    .dat_rd_rsp_valid_i(cdat_rsp_valid),
    .dat_rd_rsp_ready_o(cdat_rsp_ready),
    .dat_rd_rsp_data_i (cdat_rsp_data),
    .wt_rd_req_valid_o (cwt_req_valid),
    .wt_rd_req_ready_i (cwt_req_ready),
    .wt_rd_req_addr_o  (cwt_req_addr),
    .wt_rd_req_len_o   (cwt_req_len),
    .wt_rd_rsp_valid_i (cwt_rsp_valid),
    .wt_rd_rsp_ready_o (cwt_rsp_ready),
    .wt_rd_rsp_data_i  (cwt_rsp_data),
    .dat_we_o          (dat_we),
    .dat_wrow_o        (dat_wrow),
    .dat_wmask_o       (dat_wmask),
    .dat_wdata_o       (dat_wdata),
    .dat_wnext_o       (dat_wnext),
    .dat_wmask1_o      (dat_wmask1),
    .dat_wdata1_o      (dat_wdata1),
    .wt_we_o           (wt_we),
    .wt_wrow_o         (wt_wrow),
    .wt_wmask_o        (wt_wmask),
    .wt_wdata_o        (wt_wdata),
    .wt_release_i      (wt_release),
    .wmb_release_i     (wmb_release),
    .wmb_written_o     (wmb_written),
    .wt_wmb_o          (wt_wmb),
    .wt_ring_i         (wt_ring),
    .dat_lines_o       (dat_lines),
    .wt_written_o      (wt_written),
    .dat_done_pulse_o  (dat_done_pulse),
    .wt_done_pulse_o   (wt_done_pulse),
    .fetch_done_o      (fetch_done),
    .img_nan_o         (img_nan),
    .img_inf_o         (img_inf)
  );

  // CDMA's two read clients, each through its DMA read engine (reads in flight, in-order
  // responses in a buffer of that many beats); the request is {len, address}.
  dla_dma_rd #(
    .AddrWidth  (LenW + 64),
    .DataWidth  (DmaBits),
    .MaxInFlight(DatRdSlots)
  ) u_dat_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (cdat_req_valid),
    .req_ready_o    (cdat_req_ready),
    .req_addr_i     ({cdat_req_len, cdat_req_addr}),
    .rsp_valid_o    (cdat_rsp_valid),
    .rsp_ready_i    (cdat_rsp_ready),
    .rsp_data_o     (cdat_rsp_data),
    .mem_req_valid_o(dat_rd_req_valid_o),
    .mem_req_ready_i(dat_rd_req_ready_i),
    .mem_req_addr_o ({dat_rd_req_len_o, dat_rd_req_addr_o}),
    .mem_rsp_valid_i(dat_rd_rsp_valid_i),
    .mem_rsp_ready_o(dat_rd_rsp_ready_o),
    .mem_rsp_data_i (dat_rd_rsp_data_i)
  );
  dla_dma_rd #(
    .AddrWidth  (LenW + 64),
    .DataWidth  (DmaBits),
    .MaxInFlight(WtRdSlots)
  ) u_wt_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (cwt_req_valid),
    .req_ready_o    (cwt_req_ready),
    .req_addr_i     ({cwt_req_len, cwt_req_addr}),
    .rsp_valid_o    (cwt_rsp_valid),
    .rsp_ready_i    (cwt_rsp_ready),
    .rsp_data_o     (cwt_rsp_data),
    .mem_req_valid_o(wt_rd_req_valid_o),
    .mem_req_ready_i(wt_rd_req_ready_i),
    .mem_req_addr_o ({wt_rd_req_len_o, wt_rd_req_addr_o}),
    .mem_rsp_valid_i(wt_rd_rsp_valid_i),
    .mem_rsp_ready_o(wt_rd_rsp_ready_o),
    .mem_rsp_data_i (wt_rd_rsp_data_i)
  );

  // ---------------------------------------------------------------- CDMA's fp16 input rules
  // NVDLA v1's CDMA counts the NaNs and infinities of every fp16 it fetches (the feature data's
  // every lane of every input atom, channels beyond C included; every halfword of the weights)
  // and, with D_NAN_FLUSH_TO_ZERO, writes the feature data's NaNs into CBUF as +0 (weights are
  // never flushed; docs/FP16.md "Convolution" 1-2). Both at CBUF's write ports, where each
  // fetched atom arrives once.
  localparam int unsigned FpHalves = WordW / 16;
  localparam int unsigned FpCntW   = $clog2(FpHalves + 1);
  logic [WordW-1:0]            dat_wdata_c, dat_wdata1_c;
  logic [3:0][31:0]            fp_cnt;  // data NaN, data Inf, weight NaN, weight Inf
  // multi-dimensional signals stay outside generate blocks (Yosys 0.55)
  logic [2:0][FpHalves-1:0]    fp_hmask;  // row 0, row 1 (dat_wnext), weights
  logic [2:0][FpCntW-1:0]      fp_nan, fp_inf;
  logic [3:0][31:0]            fp_inc;
  if (SupportFp16) begin : g_fp16_in
    // Feature data is counted and flushed as it enters CBUF; image input where CDMA fetches it
    // (conv_cdma_img_pack: fp16 formats only, pads never).
    logic flush;
    assign flush = cfg.fp16 && cfg.nan_to_zero && !cfg.img;
    always_comb begin
      fp_hmask = '0;
      for (int unsigned h = 0; h < FpHalves; h++) begin
        fp_hmask[0][h] = dat_we && !cfg.img && dat_wmask[h / (AtomBits / 16)];
        fp_hmask[1][h] = dat_wnext && dat_wmask1[h / (AtomBits / 16)];
        fp_hmask[2][h] = wt_we && !wt_wmb && wt_wmask[h / (AtomBits / 16)];
      end
      dat_wdata_c  = dat_wdata;
      dat_wdata1_c = dat_wdata1;
      for (int unsigned h = 0; h < FpHalves; h++) begin
        if (flush && dla_fp_pkg::fp16_is_nan(dat_wdata[16*h +: 15])) dat_wdata_c[16*h +: 16] = '0;
        if (flush && dla_fp_pkg::fp16_is_nan(dat_wdata1[16*h +: 15])) dat_wdata1_c[16*h +: 16] = '0;
      end
    end
    dla_fp16_count #(.Halves(FpHalves)) u_cnt_dat0 (
      .data_i(dat_wdata), .mask_i(fp_hmask[0]), .nan_o(fp_nan[0]), .inf_o(fp_inf[0])
    );
    dla_fp16_count #(.Halves(FpHalves)) u_cnt_dat1 (
      .data_i(dat_wdata1), .mask_i(fp_hmask[1]), .nan_o(fp_nan[1]), .inf_o(fp_inf[1])
    );
    dla_fp16_count #(.Halves(FpHalves)) u_cnt_wt (
      .data_i(wt_wdata), .mask_i(fp_hmask[2]), .nan_o(fp_nan[2]), .inf_o(fp_inf[2])
    );
    // Winograd: CDMA writes the pads into CBUF and counts them (NVIDIA's C model; this RTL pads
    // in CSC): PAD_VALUE in every channel of C' (C rounded up to the atom) at every pad position of
    // the padded input, the extended cube less the fetched one, added once as the layer starts.
    logic        pad_done_q, pad_pulse;
    logic [41:0] ext_elems, src_elems, pad_elems;
    logic [13:0] c_pad;
    logic [31:0] pad_cnt;
    assign c_pad     = cfg.in_c >> (32'(cfg.src_stride_x == 4'd2) + 32'(cfg.src_stride_y == 4'd2));
    assign ext_elems = 42'(cfg.in_w) * 42'(cfg.in_h) * 42'(cfg.in_c);
    assign src_elems = 42'(cfg.src_w) * 42'(cfg.src_h) * 42'(c_pad);
    assign pad_elems = ext_elems - src_elems;
    assign pad_cnt   = (|pad_elems[41:32]) ? '1 : pad_elems[31:0];
    assign pad_pulse = SupportWino && cfg.wino && running_q && !pad_done_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) pad_done_q <= 1'b1;
      else if (start) pad_done_q <= 1'b0;
      else if (running_q) pad_done_q <= 1'b1;
    end
    assign fp_inc[0] = 32'(fp_nan[0]) + 32'(fp_nan[1]) + 32'(img_nan) +
                       ((pad_pulse && dla_fp_pkg::fp16_is_nan(cfg.src_pad_value[14:0])) ? pad_cnt : 32'd0);
    assign fp_inc[1] = 32'(fp_inf[0]) + 32'(fp_inf[1]) + 32'(img_inf) +
                       ((pad_pulse && dla_fp_pkg::fp16_is_inf(cfg.src_pad_value[14:0])) ? pad_cnt : 32'd0);
    assign fp_inc[2] = 32'(fp_nan[2]);
    assign fp_inc[3] = 32'(fp_inf[2]);
    // A client that fetches nothing (DATA_REUSE / WEIGHT_REUSE) keeps the counts of its last
    // fetch, as NVIDIA's C model reports them (docs/FP16.md "Convolution").
    for (genvar k = 0; k < 4; k++) begin : g_cnt
      logic clr;
      assign clr = start && !(k < 2 ? cfg.dat_reuse : cfg.wt_reuse);
      dla_perf_cnt #(.IncW(32)) u_cnt (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(clr),
                                               .en_i(cfg.fp16 && running_q), .inc_i(fp_inc[k]), .count_o(fp_cnt[k]));
    end
  end else begin : g_int_in
    logic unused_fp;
    assign fp_hmask     = '0;
    assign fp_nan       = '0;
    assign fp_inf       = '0;
    assign fp_inc       = '0;
    assign unused_fp    = ^{fp_hmask, fp_nan, fp_inf, fp_inc, cfg.nan_to_zero, img_nan, img_inf};
    assign dat_wdata_c  = dat_wdata;
    assign dat_wdata1_c = dat_wdata1;
    assign fp_cnt       = '0;
  end

  conv_cbuf #(
    .WordW   (WordW),
    .AtomBits(AtomBits),
    .CbufRows(CbufRows),
    .DatRdPorts(DatRdPorts),
    .WmbRows (WmbRows)
  ) u_cbuf (
    .clk_i      (clk_i),
    .wt_base_i  (wt_base),
    .dat_we_i   (dat_we),
    .dat_wrow_i (dat_wrow),
    .dat_wmask_i(dat_wmask),
    .dat_wdata_i(dat_wdata_c),
    .dat_wnext_i(dat_wnext),
    .dat_wmask1_i(dat_wmask1),
    .dat_wdata1_i(dat_wdata1_c),
    .wt_we_i    (wt_we),
    .wt_wrow_i  (wt_wrow),
    .wt_wmask_i (wt_wmask),
    .wt_wdata_i (wt_wdata),
    .wt_wmb_i   (wt_wmb),
    .wmb_rrow_i (wmb_rrow),
    .wmb_rdata_o(wmb_rdata),
    .dat_rrow_i (dat_rrow),
    .dat_rdata_o(dat_rdata),
    .wt_rrow0_i (wt_rrow0),
    .wt_rdata0_o(wt_rdata0),
    .wt_rrow1_i (wt_rrow1),
    .wt_rdata1_o(wt_rdata1)
  );

  logic                 mac_wt_valid, mac_wt_ready, mac_wt_last;
  logic [CellW-1:0]     mac_wt_cell;
  logic [WordW-1:0]     mac_wt_data, mac_dat_data;
  logic                 mac_dat_valid, mac_dat_ready, mac_stripe_st, mac_stripe_end, mac_channel_end;

  conv_csc #(
    .AtomLog2    (AtomLog2),
    .AtomicC     (AtomicC),
    .NumCells    (NumCells),
    .SupportInt16(SupportInt16),
    .CbufRows    (CbufRows),
    .StripeLower (StripeLower),
    .StripeUpper (StripeUpper),
    .SupportWino (SupportWino),
    .SupportFp16 (SupportFp16),
    .WmbRows     (WmbRows)
  ) u_csc (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .start_i          (start),
    .cfg_i            (cfg),
    .dat_lines_i      (dat_lines),
    .wt_written_i     (wt_written),
    .wt_release_o     (wt_release),
    .wt_ring_i        (wt_ring),
    .dat_rrow_o       (dat_rrow),
    .dat_rdata_i      (dat_rdata),
    .wt_rrow0_o       (wt_rrow0),
    .wt_rdata0_i      (wt_rdata0),
    .wt_rrow1_o       (wt_rrow1),
    .wt_rdata1_i      (wt_rdata1),
    .wmb_written_i    (wmb_written),
    .wmb_release_o    (wmb_release),
    .wmb_rrow_o       (wmb_rrow),
    .wmb_rdata_i      (wmb_rdata),
    .wt_valid_o       (mac_wt_valid),
    .wt_ready_i       (mac_wt_ready),
    .wt_cell_o        (mac_wt_cell),
    .wt_data_o        (mac_wt_data),
    .wt_last_o        (mac_wt_last),
    .dat_valid_o      (mac_dat_valid),
    .dat_ready_i      (mac_dat_ready),
    .dat_data_o       (mac_dat_data),
    .dat_stripe_st_o  (mac_stripe_st),
    .dat_stripe_end_o (mac_stripe_end),
    .dat_channel_end_o(mac_channel_end)
  );

  // ---------------------------------------------------------------- CMAC (A and B as one array)
  logic                         psum_valid, psum_ready, psum_stripe_end, psum_channel_end;
  logic [NumOut-1:0][PsumW-1:0] psum;
  logic [NumOut-1:0][3:0][PsumW-1:0] psum_wino;

  cmac_array #(
    .AtomicC     (AtomicC),
    .NumCells    (NumCells),
    .SupportInt16(SupportInt16),
    .SupportWino (SupportWino),
    .SupportFp16 (SupportFp16)
  ) u_cmac (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .cfg_int16_i      (cfg.int16),
    .cfg_fp16_i       (cfg.fp16),
    .wt_valid_i       (mac_wt_valid),
    .wt_ready_o       (mac_wt_ready),
    .wt_cell_i        (mac_wt_cell),
    .wt_data_i        (mac_wt_data),
    .wt_last_i        (mac_wt_last),
    .dat_valid_i      (mac_dat_valid),
    .dat_ready_o      (mac_dat_ready),
    .dat_data_i       (mac_dat_data),
    .dat_stripe_st_i  (mac_stripe_st),
    .dat_stripe_end_i (mac_stripe_end),
    .dat_channel_end_i(mac_channel_end),
    .out_valid_o      (psum_valid),
    .out_ready_i      (psum_ready),
    .out_psum_o       (psum),
    .out_wino_o       (psum_wino),
    .out_stripe_end_o (psum_stripe_end),
    .out_channel_end_o(psum_channel_end)
  );

  // ---------------------------------------------------------------- CACC
  logic        cacc_done;
  logic [31:0] sat_count;

  conv_cacc #(
    .AtomicC     (AtomicC),
    .NumCells    (NumCells),
    .SupportInt16(SupportInt16),
    .MaxStripe   (StripeUpper),
    .FifoDepth   (2 * StripeUpper),
    .FlyLanes    (FlyLanes),
    .SupportWino (SupportWino),
    .SupportFp16 (SupportFp16)
  ) u_cacc (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .start_i         (start),
    .cfg_i           (cfg),
    .in_valid_i      (psum_valid),
    .in_ready_o      (psum_ready),
    .in_psum_i       (psum),
    .in_wino_i       (psum_wino),
    .in_stripe_end_i (psum_stripe_end),
    .in_channel_end_i(psum_channel_end),
    .fly_valid_o     (fly_valid_o),
    .fly_ready_i     (fly_ready_i),
    .fly_data_o      (fly_data_o),
    .done_o          (cacc_done),
    .sat_count_o     (sat_count)
  );

  // The layer ends when CACC has delivered its last element (cacc_done pulses; cacc_fin_q keeps
  // it) and CDMA's fetch is complete (every read answered), whichever comes last.
  logic cacc_fin_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cacc_fin_q <= 1'b0;
    else if (start || layer_done) cacc_fin_q <= 1'b0;
    else if (cacc_done) cacc_fin_q <= 1'b1;
  end
  assign layer_done = running_q && (cacc_done || cacc_fin_q) && fetch_done;

  always_comb begin
    cacc_hw2reg                   = '0;
    cacc_hw2reg.out_saturation_de = layer_done;
    cacc_hw2reg.out_saturation    = sat_count;
  end

  // CDMA perf counters (D_PERF_ENABLE.DMA_EN), per client at its port: stall = cycles a read
  // waits on the port; latency = the sum over reads of request-accept to response cycles (each
  // cycle adds the client's reads in flight at the port).
  localparam int unsigned DatOutW = $clog2(DatRdSlots + 1);
  localparam int unsigned WtOutW  = $clog2(WtRdSlots + 1);
  logic               perf_en;
  logic [DatOutW-1:0] dat_out_q;
  logic [WtOutW-1:0]  wt_out_q;
  logic [3:0][31:0]   perf_cnt;
  assign perf_en = cdma.perf_enable;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dat_out_q <= '0;
      wt_out_q  <= '0;
    end else begin
      dat_out_q <= dat_out_q + DatOutW'(dat_rd_req_valid_o && dat_rd_req_ready_i)
                             - DatOutW'(dat_rd_rsp_valid_i && dat_rd_rsp_ready_o);
      wt_out_q  <= wt_out_q + WtOutW'(wt_rd_req_valid_o && wt_rd_req_ready_i)
                            - WtOutW'(wt_rd_rsp_valid_i && wt_rd_rsp_ready_o);
    end
  end
  dla_perf_cnt u_dat_stall (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(start), .en_i(perf_en && running_q),
                            .inc_i(dat_rd_req_valid_o && !dat_rd_req_ready_i), .count_o(perf_cnt[0]));
  dla_perf_cnt u_wt_stall (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(start), .en_i(perf_en && running_q),
                           .inc_i(wt_rd_req_valid_o && !wt_rd_req_ready_i), .count_o(perf_cnt[1]));
  dla_perf_cnt #(.IncW(DatOutW)) u_dat_lat (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(start),
                                            .en_i(perf_en && running_q), .inc_i(dat_out_q), .count_o(perf_cnt[2]));
  dla_perf_cnt #(.IncW(WtOutW)) u_wt_lat (.clk_i(clk_i), .rst_ni(rst_ni), .clr_i(start),
                                          .en_i(perf_en && running_q), .inc_i(wt_out_q), .count_o(perf_cnt[3]));
  always_comb begin
    cdma_hw2reg                          = '0;
    cdma_hw2reg.perf_dat_read_stall_de   = layer_done;
    cdma_hw2reg.perf_wt_read_stall_de    = layer_done;
    cdma_hw2reg.perf_dat_read_latency_de = layer_done;
    cdma_hw2reg.perf_wt_read_latency_de  = layer_done;
    cdma_hw2reg.perf_dat_read_stall      = perf_cnt[0];
    cdma_hw2reg.perf_wt_read_stall       = perf_cnt[1];
    cdma_hw2reg.perf_dat_read_latency    = perf_cnt[2];
    cdma_hw2reg.perf_wt_read_latency     = perf_cnt[3];
    cdma_hw2reg.nan_input_data_num_de    = layer_done;
    cdma_hw2reg.inf_input_data_num_de    = layer_done;
    cdma_hw2reg.nan_input_weight_num_de  = layer_done;
    cdma_hw2reg.inf_input_weight_num_de  = layer_done;
    cdma_hw2reg.nan_input_data_num       = fp_cnt[0];
    cdma_hw2reg.inf_input_data_num       = fp_cnt[1];
    cdma_hw2reg.nan_input_weight_num     = fp_cnt[2];
    cdma_hw2reg.inf_input_weight_num     = fp_cnt[3];
  end

  // Interrupts: CACC at the end; CDMA_DAT / CDMA_WT when their fetch finishes (CDMA's group).
  always_comb begin
    intr_o = '0;
    intr_o[0 + 32'(consumer[4])] = layer_done;
    intr_o[2 + 32'(consumer[0])] = running_q && dat_done_pulse;
    intr_o[4 + 32'(consumer[0])] = running_q && wt_done_pulse;
  end

  logic unused;
  assign unused = ^{hit, s_we[4:1], s_re[4:1], s_off[4:1], s_wdata, consumer[3:1], arbiter_q[31:20]};
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the layer sequencer and the valid/ready ports.
  CovStart: cover property (@(posedge clk_i) start);
  CovRunning: cover property (@(posedge clk_i) running_q);
  CovLayerDone: cover property (@(posedge clk_i) layer_done);
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
  CovDatRdReqFire: cover property (@(posedge clk_i) dat_rd_req_valid_o && dat_rd_req_ready_i);
  CovDatRdReqStall: cover property (@(posedge clk_i) dat_rd_req_valid_o && !dat_rd_req_ready_i);
  CovWtRdReqFire: cover property (@(posedge clk_i) wt_rd_req_valid_o && wt_rd_req_ready_i);
  CovWtRdReqStall: cover property (@(posedge clk_i) wt_rd_req_valid_o && !wt_rd_req_ready_i);
  CovRdReqBoth: cover property (@(posedge clk_i) dat_rd_req_valid_o && wt_rd_req_valid_o);
  CovFlyFire: cover property (@(posedge clk_i) fly_valid_o && fly_ready_i);
  CovFlyStall: cover property (@(posedge clk_i) fly_valid_o && !fly_ready_i);
`endif
endmodule
