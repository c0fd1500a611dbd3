// The single (S_) LUT registers of a unit with a LUT engine (SDP, CDP), between the unit's
// dla_group_regs S_ port and its lut_engine:
//   * S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA (reads and writes) become engine programming requests
//     (prog_*; prog_addr_o 1 = ACCESS_DATA), whose response answers the read;
//   * the NumRegs configuration words from LutFirst (S_LUT_CFG ...) are stored here with their
//     writable bits (Masks, word k at [32k +: 32]) and read back; lut_regs_o feeds the engine;
//   * every other S_ offset reads 0 and ignores writes.
// Read data follow one cycle after the request (dla_group_regs' s_rdata_i contract).
module lut_s_regs #(
  parameter int unsigned          NumRegs   = 10,
  parameter logic [11:0]          CfgOffset = 12'h008,  // S_LUT_ACCESS_CFG (ACCESS_DATA follows)
  parameter logic [11:0]          LutFirst  = 12'h010,  // S_LUT_CFG
  parameter logic [32*NumRegs-1:0] Masks    = '1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // S_ port of dla_group_regs
  input  logic                      s_we_i,
  input  logic                      s_re_i,
  input  logic [11:0]               s_offset_i,
  input  logic [31:0]               s_wdata_i,
  output logic [31:0]               s_rdata_o,
  // configuration words
  output logic [NumRegs-1:0][31:0]  lut_regs_o,
  // engine programming
  output logic                      prog_valid_o,
  output logic                      prog_addr_o,
  output logic                      prog_write_o,
  output logic [31:0]               prog_wdata_o,
  input  logic [31:0]               prog_rsp_rdata_i
);
  localparam int unsigned IdxW = $clog2(NumRegs);
  logic             rd_prog_q;
  logic [31:0]      word_q;
  logic [11:0]      idx_off;
  logic [IdxW-1:0]  idx;
  logic             reg_sel, unused_idx;

  assign prog_valid_o = (s_we_i || s_re_i) && (s_offset_i == CfgOffset || s_offset_i == CfgOffset + 12'd4);
  assign prog_addr_o  = s_offset_i == CfgOffset + 12'd4;
  assign prog_write_o = s_we_i;
  assign prog_wdata_o = s_wdata_i;
  assign idx_off      = (s_offset_i - LutFirst) >> 2;
  assign idx          = idx_off[IdxW-1:0];
  assign unused_idx   = ^idx_off;
  assign reg_sel      = s_offset_i >= LutFirst && idx_off < 12'(NumRegs);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lut_regs_o <= '0;
      rd_prog_q  <= 1'b0;
      word_q     <= '0;
    end else begin
      if (s_we_i && reg_sel) lut_regs_o[idx] <= s_wdata_i & Masks[32*idx +: 32];
      rd_prog_q <= s_re_i && prog_valid_o;
      word_q    <= (s_re_i && reg_sel) ? lut_regs_o[idx] : '0;
    end
  end
  assign s_rdata_o = rd_prog_q ? prog_rsp_rdata_i : word_q;
endmodule
