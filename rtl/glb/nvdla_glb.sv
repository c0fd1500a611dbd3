// NVDLA GLB: the hardware version and the interrupt block (pdp-cdp-bdma-rubik.md §4).
//   * S_NVDLA_HW_VERSION: read-only, its reset value;
//   * S_INTR_MASK: 1 = the source does not drive intr_o (its status bit is still set);
//   * S_INTR_SET: write 1 to set status bits by software; reads 0;
//   * S_INTR_STATUS: a unit's done pulse sets its bit; write 1 to clear.
// A done pulse (or an S_INTR_SET write) and an S_INTR_STATUS clear of the same bit in the same
// cycle leave the bit set: set wins, as in NVDLA's NV_NVDLA_GLB_ic, so no completion is lost.
// Only the fields the register data defines are stored (the STATUS/SET/MASK writable masks).
// intr_o is NVDLA's level interrupt (dla_intr): |(S_INTR_STATUS & ~S_INTR_MASK), from flops.
// CSB as the other blocks: always ready, read data the cycle after the read, 0 when the read was
// not for this block (the top ORs every block's read data).
module nvdla_glb #(
  parameter logic [31:0] GlbBase = 32'h1000  // master map (nv_small); nvdlav1 (nv_full): 32'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // CSB
  input  logic        csb_req_valid_i,
  output logic        csb_req_ready_o,
  input  logic [31:0] csb_req_addr_i,
  input  logic        csb_req_write_i,
  input  logic [31:0] csb_req_wdata_i,
  output logic        csb_rsp_valid_o,
  output logic [31:0] csb_rsp_rdata_o,
  // done pulses (one cycle), bit g = register group g; tie absent units to '0
  input  logic [1:0]  sdp_done_i,
  input  logic [1:0]  cdp_done_i,
  input  logic [1:0]  pdp_done_i,
  input  logic [1:0]  bdma_done_i,
  input  logic [1:0]  rubik_done_i,
  input  logic [1:0]  cdma_dat_done_i,
  input  logic [1:0]  cdma_wt_done_i,
  input  logic [1:0]  cacc_done_i,
  // level interrupt
  output logic        intr_o
);
  localparam logic [31:0] StatusBits = glb_regs_pkg::GLB_S_INTR_STATUS_WRITABLE_MASK;
  localparam logic [31:0] SetBits    = glb_regs_pkg::GLB_S_INTR_SET_WRITABLE_MASK;
  localparam logic [31:0] MaskBits   = glb_regs_pkg::GLB_S_INTR_MASK_WRITABLE_MASK;

  // ---------------------------------------------------------------- CSB decode
  logic        hit, we, re;
  logic [11:0] offset;
  logic        mask_we, set_we, status_we;
  assign hit       = csb_req_valid_i && (csb_req_addr_i[31:12] == GlbBase[31:12]);
  assign offset    = csb_req_addr_i[11:0];
  assign we        = hit && csb_req_write_i;
  assign re        = hit && !csb_req_write_i;
  assign mask_we   = we && offset == glb_regs_pkg::GLB_S_INTR_MASK_OFFSET;
  assign set_we    = we && offset == glb_regs_pkg::GLB_S_INTR_SET_OFFSET;
  assign status_we = we && offset == glb_regs_pkg::GLB_S_INTR_STATUS_OFFSET;

  assign csb_req_ready_o = 1'b1;

  // ---------------------------------------------------------------- done pulses -> status bits
  logic [31:0] done;
  always_comb begin
    done = '0;
    done[glb_regs_pkg::GLB_S_INTR_STATUS_SDP_DONE_STATUS0_LSB]      = sdp_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_SDP_DONE_STATUS1_LSB]      = sdp_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDP_DONE_STATUS0_LSB]      = cdp_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDP_DONE_STATUS1_LSB]      = cdp_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_PDP_DONE_STATUS0_LSB]      = pdp_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_PDP_DONE_STATUS1_LSB]      = pdp_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_BDMA_DONE_STATUS0_LSB]     = bdma_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_BDMA_DONE_STATUS1_LSB]     = bdma_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_RUBIK_DONE_STATUS0_LSB]    = rubik_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_RUBIK_DONE_STATUS1_LSB]    = rubik_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS0_LSB] = cdma_dat_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS1_LSB] = cdma_dat_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS0_LSB]  = cdma_wt_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS1_LSB]  = cdma_wt_done_i[1];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CACC_DONE_STATUS0_LSB]     = cacc_done_i[0];
    done[glb_regs_pkg::GLB_S_INTR_STATUS_CACC_DONE_STATUS1_LSB]     = cacc_done_i[1];
  end

  // ---------------------------------------------------------------- registers
  logic [31:0] status_d, status_q, mask_d, mask_q, clr, set;
  assign clr      = status_we ? csb_req_wdata_i : '0;
  assign set      = done | (set_we ? (csb_req_wdata_i & SetBits) : '0);
  assign status_d = ((status_q & ~clr) | set) & StatusBits;  // set after clear: set wins
  assign mask_d   = mask_we ? (csb_req_wdata_i & MaskBits) : mask_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      status_q <= glb_regs_pkg::GLB_S_INTR_STATUS_RESET;
      mask_q   <= glb_regs_pkg::GLB_S_INTR_MASK_RESET;
    end else begin
      status_q <= status_d;
      mask_q   <= mask_d;
    end
  end

  assign intr_o = |(status_q & ~mask_q);

  // ---------------------------------------------------------------- read data, one cycle later
  logic        rd_q;
  logic [31:0] rdata_d, rdata_q;
  always_comb begin
    rdata_d = '0;
    if (re) begin
      unique case (offset)
        glb_regs_pkg::GLB_S_NVDLA_HW_VERSION_OFFSET: rdata_d = glb_regs_pkg::GLB_S_NVDLA_HW_VERSION_RESET;
        glb_regs_pkg::GLB_S_INTR_MASK_OFFSET:        rdata_d = mask_q;
        glb_regs_pkg::GLB_S_INTR_STATUS_OFFSET:      rdata_d = status_q;
        default:                                       rdata_d = '0;  // S_INTR_SET is write-only
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= 1'b0;
      rdata_q <= '0;
    end else begin
      rd_q    <= csb_req_valid_i && !csb_req_write_i;
      rdata_q <= rdata_d;
    end
  end

  assign csb_rsp_valid_o = rd_q;
  assign csb_rsp_rdata_o = rdata_q;
`ifndef SYNTHESIS
  // Cover points for scripts/coverage.sh: the CSB port.
  CovCsbReqFire: cover property (@(posedge clk_i) csb_req_valid_i && csb_req_ready_o);
  CovCsbReqStall: cover property (@(posedge clk_i) csb_req_valid_i && !csb_req_ready_o);
  CovCsbRsp: cover property (@(posedge clk_i) csb_rsp_valid_o);
`endif
endmodule
