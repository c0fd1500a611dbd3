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
  // The two groups held as the consumer's words (cur_q, which the datapath sees directly) and the
  // other group's (oth_q), swapped at done: the model then does no per-cycle group selection or
  // copy of the register file (docs/PERFORMANCE.md "Simulation speed"), and the words stay packed.
  // They are reset word by word with 32-bit constants: Verilator 5.006 mishandles a packed reset
  // constant wider than 256 bits whose top words are 0 (docs/RTL_CONVENTIONS.md "Verilator 5.006").
  logic [DWords-1:0][31:0] cur_q, oth_q;
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
  // A CSB write wins over the unit's own update of the same word; done clears OP_EN last.
  logic cur_is_prod;
  assign cur_is_prod = producer_q == consumer_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      producer_q <= 1'b0;
      consumer_q <= 1'b0;
      op_en_q    <= '0;
      for (int unsigned i = 0; i < DWords; i++) begin
        cur_q[i] <= DReset[32*i +: 32];
        oth_q[i] <= DReset[32*i +: 32];
      end
    end else begin
      if (hit_o && req_write_i && is_pointer) producer_q <= req_wdata_i[0];
      if (d_we && d_idx == '0) op_en_q[producer_q] <= req_wdata_i[0];
      if (!done_i) begin
        if (|hw_we_i) begin
          for (int unsigned i = 0; i < DWords; i++) begin
            if (hw_we_i[i]) cur_q[i] <= hw_wdata_i[i];
          end
        end
        if (d_we) begin
          for (int unsigned i = 0; i < DWords; i++) begin
            if (d_idx == IdxW'(i)) begin
              if (cur_is_prod) cur_q[i] <= req_wdata_i & DWritable[32*i +: 32];
              else oth_q[i] <= req_wdata_i & DWritable[32*i +: 32];
            end
          end
        end
      end else begin
        // The finished group becomes the other one, with this cycle's writes and OP_ENABLE clear;
        // the other group becomes the consumer's.
        for (int unsigned i = 0; i < DWords; i++) begin
          oth_q[i] <= (d_we && d_idx == IdxW'(i) && cur_is_prod ? req_wdata_i & DWritable[32*i +: 32]
                       : hw_we_i[i] ? hw_wdata_i[i] : cur_q[i]) & ~32'(i == 0);
          cur_q[i] <= d_we && d_idx == IdxW'(i) && !cur_is_prod ? req_wdata_i & DWritable[32*i +: 32]
                      : oth_q[i];
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
      else if (is_d) rd_word_q <= cur_is_prod ? cur_q[d_idx] : oth_q[d_idx];
      else rd_word_q <= '0;
    end
  end
  assign rdata_o = !rd_q ? '0 : rd_s_q ? s_rdata_i : rd_word_q;

  assign d_consumer_o = cur_q;
  assign consumer_o   = consumer_q;
  assign armed_o      = op_en_q[consumer_q];
endmodule
