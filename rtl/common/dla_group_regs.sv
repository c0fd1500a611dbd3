// Register file of one NVDLA block with ping-pong register groups (conv-pipeline.md §1):
//   * S_STATUS (0x0) and S_POINTER (0x4) live here; other S_ registers are forwarded to the unit
//     (s_*), D_ registers (offset >= DFirst, D_OP_ENABLE first) exist once per group;
//   * D_ registers reset to DReset and store only their writable bits (DWritable; a read-only
//     register has none, so CSB writes to it change nothing) — both from the generated
//     nvdla_regs_pkg (<BLOCK>_D_RESET, <BLOCK>_D_WRITABLE);
//   * CSB writes to D_ registers go to the group S_POINTER.PRODUCER selects and are dropped while
//     that group's OP_EN is set;
//   * the datapath sees the CONSUMER group; done_i clears its OP_EN and toggles CONSUMER;
//   * S_STATUS.STATUS_g: 0 idle, 1 running (OP_EN and consumer), 2 pending (OP_EN, not consumer).
// CSB: every block sees every request; hit_o says it is this block's; read data follows one cycle
// after the request (rdata_o, zero when the last request was not a read of this block).
module dla_group_regs #(
  parameter logic [31:0]             Base      = 32'h0,
  parameter int unsigned             DFirst    = 8,
  parameter int unsigned             DWords    = 1,
  parameter logic [32*DWords-1:0] DReset    = '0,  // word i at [32*i +: 32]
  parameter logic [32*DWords-1:0] DWritable = '1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // CSB request (byte address)
  input  logic                          req_valid_i,
  input  logic [31:0]                   req_addr_i,
  input  logic                          req_write_i,
  input  logic [31:0]                   req_wdata_i,
  output logic                          hit_o,
  output logic [31:0]                   rdata_o,
  // other S_ registers, handled by the unit (s_rdata_i answers an s_re_o one cycle later)
  output logic                          s_we_o,
  output logic                          s_re_o,
  output logic [11:0]                   s_offset_o,
  output logic [31:0]                   s_wdata_o,
  input  logic [31:0]                   s_rdata_i,
  // datapath
  output logic [DWords-1:0][31:0]       d_consumer_o,
  output logic                          consumer_o,
  output logic                          armed_o,
  input  logic                          done_i,
  input  logic [DWords-1:0]             hw_we_i,
  input  logic [DWords-1:0][31:0]       hw_wdata_i
);
  logic [11:0] offset;
  assign hit_o  = req_valid_i && (req_addr_i[31:12] == Base[31:12]);
  assign offset = req_addr_i[11:0];

  logic        producer_q, consumer_q;
  logic [1:0]  op_en_q;
  // [group][word], unpacked: Verilator 5.006 writes a packed register file's reset constant with
  // VL_CONSTHI_W_*, which leaves the upper words unreset and zero-fills memory past the array's end
  // when the constant's top words are 0 (docs/RTL_CONVENTIONS.md "Verilator 5.006"); an unpacked
  // array of 32-bit words is reset word by word.
  (* mem2reg *) logic [31:0] d_q [2][DWords];
  logic [1:0][DWords-1:0][31:0] d_view;  // the same words packed, for the indexed reads
  always_comb begin
    for (int unsigned g = 0; g < 2; g++) begin
      for (int unsigned i = 0; i < DWords; i++) d_view[g][i] = d_q[g][i];
    end
  end

  localparam int unsigned IdxW = DWords > 1 ? $clog2(DWords) : 1;
  logic is_d, is_status, is_pointer;
  logic [11:0] d_off;
  logic [IdxW-1:0] d_idx;
  assign is_d       = offset >= 12'(DFirst) && offset < 12'(DFirst + 4 * DWords);
  assign is_status  = offset == 12'h000;
  assign is_pointer = offset == 12'h004;
  assign d_off      = (offset - 12'(DFirst)) >> 2;
  assign d_idx      = d_off[IdxW-1:0];
  logic unused_off;
  assign unused_off = ^d_off;

  assign s_we_o     = hit_o && req_write_i && !is_d && !is_status && !is_pointer;
  assign s_re_o     = hit_o && !req_write_i && !is_d && !is_status && !is_pointer;
  assign s_offset_o = offset;
  assign s_wdata_o  = req_wdata_i;

  logic d_we;
  assign d_we = hit_o && req_write_i && is_d && !op_en_q[producer_q];

  // Every write names its group and word by constant indexes (loops; the CSB one runs only on a
  // write): an indexed write would synthesize as a shift and mask across the whole register
  // file. A CSB write wins over the unit's own update of the same word; done clears OP_EN last.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      producer_q <= 1'b0;
      consumer_q <= 1'b0;
      op_en_q    <= '0;
      for (int unsigned g = 0; g < 2; g++) begin
        for (int unsigned i = 0; i < DWords; i++) d_q[g][i] <= DReset[32*i +: 32];
      end
    end else begin
      if (hit_o && req_write_i && is_pointer) producer_q <= req_wdata_i[0];
      for (int unsigned g = 0; g < 2; g++) begin
        for (int unsigned i = 0; i < DWords; i++) begin
          if (hw_we_i[i] && consumer_q == 1'(g)) d_q[g][i] <= hw_wdata_i[i];
        end
      end
      if (d_we) begin
        for (int unsigned g = 0; g < 2; g++) begin
          for (int unsigned i = 0; i < DWords; i++) begin
            if (producer_q == 1'(g) && d_idx == IdxW'(i)) d_q[g][i] <= req_wdata_i & DWritable[32*i +: 32];
          end
        end
        if (d_idx == '0) op_en_q[producer_q] <= req_wdata_i[0];
      end
      if (done_i) begin
        for (int unsigned g = 0; g < 2; g++) begin
          if (consumer_q == 1'(g)) d_q[g][0][0] <= 1'b0;
        end
        op_en_q[consumer_q] <= 1'b0;
        consumer_q          <= !consumer_q;
      end
    end
  end

  // Read data, one cycle after the request.
  logic        rd_q, rd_s_q;
  logic [31:0] rd_word_q;
  logic [1:0]  status0, status1;
  assign status0 = !op_en_q[0] ? 2'd0 : (consumer_q == 1'b0) ? 2'd1 : 2'd2;
  assign status1 = !op_en_q[1] ? 2'd0 : (consumer_q == 1'b1) ? 2'd1 : 2'd2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q      <= 1'b0;
      rd_s_q    <= 1'b0;
      rd_word_q <= '0;
    end else begin
      rd_q   <= hit_o && !req_write_i;
      rd_s_q <= s_re_o;
      if (is_status) rd_word_q <= {14'd0, status1, 14'd0, status0};
      else if (is_pointer) rd_word_q <= {15'd0, consumer_q, 15'd0, producer_q};
      else if (is_d) rd_word_q <= d_view[producer_q][d_idx];
      else rd_word_q <= '0;
    end
  end
  assign rdata_o = !rd_q ? '0 : rd_s_q ? s_rdata_i : rd_word_q;

  assign d_consumer_o = d_view[consumer_q];
  assign consumer_o   = consumer_q;
  assign armed_o      = op_en_q[consumer_q];
endmodule
