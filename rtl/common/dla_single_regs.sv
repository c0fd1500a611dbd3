// Register file of one NVDLA block whose registers are all single (no S_/D_ groups: BDMA), the
// counterpart of dla_group_regs for the generated <blk>_reg_top of such a block:
//   * word i = offset 4i (Words words); a word stores its Writable bits (reset Reset & Writable),
//     a CSB write keeps the written value's Writable bits;
//   * a read returns the stored bits OR hw_i[word] (the hardware's read-only bits, zero elsewhere)
//     one cycle after the request: rdata_o, zero when the last request was not a read of this
//     block or named no word (beyond the block's words, or not word aligned);
//   * we_o[i] / wdata_o: this cycle's CSB write of word i (whether or not the block takes it
//     yet), for write-triggered behaviour (trigger registers) and the block's back-pressure;
//   * req_ready_i: the block takes the request; a write is stored only when taken.
// Like dla_group_regs, the words are an unpacked array reset word by word (Verilator 5.006,
// docs/RTL_CONVENTIONS.md).
module dla_single_regs #(
  parameter logic [31:0]         Base     = 32'h0,
  parameter int unsigned         Words    = 1,
  parameter logic [32*Words-1:0] Reset    = '0,  // word i at [32*i +: 32]
  parameter logic [32*Words-1:0] Writable = '0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // CSB request (byte address)
  input  logic                   req_valid_i,
  input  logic                   req_ready_i,
  input  logic [31:0]            req_addr_i,
  input  logic                   req_write_i,
  input  logic [31:0]            req_wdata_i,
  output logic                   hit_o,
  output logic [31:0]            rdata_o,
  // the block
  output logic [Words-1:0][31:0] q_o,
  output logic [Words-1:0]       we_o,
  output logic [31:0]            wdata_o,
  input  logic [Words-1:0][31:0] hw_i
);
  localparam int unsigned IdxW = Words > 1 ? $clog2(Words) : 1;
  logic [11:0]     offset;
  logic            is_word;
  logic [IdxW-1:0] idx;
  assign hit_o   = req_valid_i && (req_addr_i[31:12] == Base[31:12]);
  assign offset  = req_addr_i[11:0];
  assign is_word = offset[1:0] == 2'b00 && offset < 12'(4 * Words);
  assign idx     = IdxW'(offset >> 2);

  always_comb begin
    for (int unsigned i = 0; i < Words; i++) we_o[i] = hit_o && req_write_i && is_word && idx == IdxW'(i);
  end
  assign wdata_o = req_wdata_i;

  logic [31:0] q_q [Words];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < Words; i++) q_q[i] <= Reset[32*i +: 32] & Writable[32*i +: 32];
    end else if (req_ready_i) begin
      for (int unsigned i = 0; i < Words; i++) begin
        if (we_o[i]) q_q[i] <= req_wdata_i & Writable[32*i +: 32];
      end
    end
  end
  always_comb begin
    for (int unsigned i = 0; i < Words; i++) q_o[i] = q_q[i];
  end

  logic [31:0] rdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rdata_q <= '0;
    else rdata_q <= (hit_o && !req_write_i && is_word) ? q_o[idx] | hw_i[idx] : '0;
  end
  assign rdata_o = rdata_q;
endmodule
