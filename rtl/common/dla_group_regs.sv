// Register file of one NVDLA block with ping-pong register groups (conv-pipeline.md §1):
//   * S_STATUS (0x0) and S_POINTER (0x4) live here; other S_ registers are forwarded to the unit
//     (s_*), D_ registers (offset >= DFirst, D_OP_ENABLE first) exist once per group;
//   * D_ registers reset to DReset and store only their writable bits (DWritable; a read-only
//     register has none, so CSB writes to it change nothing) — both from the generated
//     block's <blk>_regs_pkg (<BLOCK>_D_RESET, <BLOCK>_D_WRITABLE);
//   * CSB writes to D_ registers go to the group S_POINTER.PRODUCER selects and are dropped while
//     that group's OP_EN is set;
//   * the datapath sees the CONSUMER group; done_i clears its OP_EN and toggles CONSUMER;
//   * the hardware writes HwWords words of the consumer group (word HwIdx[k] <- hw_wdata_i[k]
//     where hw_we_i[k]); a CSB write to the same word in the same cycle wins;
//   * S_STATUS.STATUS_g: 0 idle, 1 running (OP_EN and consumer), 2 pending (OP_EN, not consumer).
// CSB: every block sees every request; hit_o says it is this block's; read data follows one cycle
// after the request (rdata_o, zero when the last request was not a read of this block).
// The groups' words leave as d_g0_o and d_g1_o with consumer_o (the datapath's group). For a
// register copy of the consumer group's fields (the generated <blk>_reg_top's reg2hw): the next
// consumer group's words are, at done_i, the other group's, else the consumer's, and in both
// cases a CSB write to word wr_idx_o of the next consumer group (wr_next_o) replaces that word's
// writable bits with wr_data_o's.
module dla_group_regs #(
  parameter logic [31:0]             Base      = 32'h0,
  parameter int unsigned             DFirst    = 8,
  parameter int unsigned             DWords    = 1,
  parameter logic [32*DWords-1:0]    DReset    = '0,  // word i at [32*i +: 32]
  parameter logic [32*DWords-1:0]    DWritable = '1,
  parameter int unsigned             HwWords   = 0,   // hardware-written words (0: none)
  parameter logic [16*(HwWords > 0 ? HwWords : 1)-1:0] HwIdx = '0  // entry k at [16*k +: 16]
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
  output logic [DWords-1:0][31:0]       d_g0_o,
  output logic [DWords-1:0][31:0]       d_g1_o,
  output logic                          wr_next_o,
  output logic [$clog2(DWords > 1 ? DWords : 2)-1:0] wr_idx_o,
  output logic [31:0]                   wr_data_o,
  output logic                          consumer_o,
  output logic                          armed_o,
  input  logic                          done_i,
  input  logic [(HwWords > 0 ? HwWords : 1)-1:0]       hw_we_i,
  input  logic [(HwWords > 0 ? HwWords : 1)-1:0][31:0] hw_wdata_i
);
  // Without hardware-written words the ports are one word wide and hw_we_i is tied to 0.
  localparam int unsigned HwN = HwWords > 0 ? HwWords : 1;
  logic [11:0] offset;
  assign hit_o  = req_valid_i && (req_addr_i[31:12] == Base[31:12]);
  assign offset = req_addr_i[11:0];

  logic        producer_q, consumer_q;
  logic [1:0]  op_en_q;
  // The two groups' words, each group in place (g0_q, g1_q): no copy or swap at done, so the
  // model keeps no per-cycle shadow copy of the words (docs/PERFORMANCE.md "Simulation speed").
  // They are reset word by word with 32-bit constants: Verilator 5.006 mishandles a packed reset
  // constant wider than 256 bits whose top words are 0 (docs/RTL_CONVENTIONS.md "Verilator 5.006").
  logic [DWords-1:0][31:0] g0_q, g1_q;
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

  // Every write names its word by a constant index (loops; each runs only when something is
  // written): an indexed write would synthesize as a shift and mask across the whole register file.
  // The hardware writes the consumer group; a CSB write (to the producer group) wins over it for the
  // same word; done clears the consumer group's OP_EN (word 0, bit 0) last.
  logic clear0, clear1;
  assign clear0 = done_i && !consumer_q;
  assign clear1 = done_i && consumer_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      producer_q <= 1'b0;
      consumer_q <= 1'b0;
      op_en_q    <= '0;
      for (int unsigned i = 0; i < DWords; i++) begin
        g0_q[i] <= DReset[32*i +: 32];
        g1_q[i] <= DReset[32*i +: 32];
      end
    end else begin
      if (hit_o && req_write_i && is_pointer) producer_q <= req_wdata_i[0];
      if (d_we && d_idx == '0) op_en_q[producer_q] <= req_wdata_i[0];
      for (int unsigned k = 0; k < HwN; k++) begin
        if (hw_we_i[k]) begin
          if (consumer_q) g1_q[HwIdx[16*k +: IdxW]] <= hw_wdata_i[k];
          else g0_q[HwIdx[16*k +: IdxW]] <= hw_wdata_i[k];
        end
      end
      if (d_we) begin
        for (int unsigned i = 0; i < DWords; i++) begin
          if (d_idx == IdxW'(i)) begin
            if (producer_q) g1_q[i] <= req_wdata_i & DWritable[32*i +: 32] & ~{31'd0, i == 0 && clear1};
            else g0_q[i] <= req_wdata_i & DWritable[32*i +: 32] & ~{31'd0, i == 0 && clear0};
          end
        end
      end
      if (done_i) begin
        if (!(d_we && d_idx == '0 && producer_q == consumer_q)) begin
          if (consumer_q) g1_q[0][0] <= 1'b0;
          else g0_q[0][0] <= 1'b0;
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
      // rd_word_q is only looked at after a read of this block (rd_q).
      if (!(hit_o && !req_write_i)) rd_word_q <= rd_word_q;
      else if (is_status) rd_word_q <= {14'd0, status1, 14'd0, status0};
      else if (is_pointer) rd_word_q <= {15'd0, consumer_q, 15'd0, producer_q};
      else if (is_d) rd_word_q <= producer_q ? g1_q[d_idx] : g0_q[d_idx];
      else rd_word_q <= '0;
    end
  end
  assign rdata_o = !rd_q ? '0 : rd_s_q ? s_rdata_i : rd_word_q;

  // The write into the next consumer group: at done the other group's (it becomes the consumer),
  // otherwise the consumer's.
  assign wr_next_o = d_we && (done_i ? producer_q != consumer_q : producer_q == consumer_q);
  assign wr_idx_o  = ($clog2(DWords > 1 ? DWords : 2))'(d_idx);
  assign wr_data_o = req_wdata_i;

  assign d_g0_o       = g0_q;
  assign d_g1_o       = g1_q;
  assign consumer_o   = consumer_q;
  assign armed_o      = op_en_q[consumer_q];
endmodule
