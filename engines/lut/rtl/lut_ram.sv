// The LUT tables (LE 65 x 16, LO 257 x 16, flops) and their programming registers with NVDLA
// S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA semantics:
//   ACCESS_CFG write: LUT_ADDR[9:0] (clamped to the table's last entry), LUT_TABLE_ID[16]
//                     (0 LE, 1 LO), LUT_ACCESS_TYPE[17] (0 read, 1 write). Read: the same fields.
//   ACCESS_DATA write: with type write, store LUT_DATA[15:0] at the current entry and increment
//                     the address, saturating at 64 / 256; with type read, ignored.
//   ACCESS_DATA read:  the current entry (zero-extended); with type read the address then
//                     increments (saturating); with type write it does not.
// Busy refusal: while busy_i, every write (ACCESS_CFG or ACCESS_DATA) is refused: no state
// changes, the response carries err, and the sticky err_o is set until err_clr_i. Reads are
// always served. Every request is answered one cycle later (rsp_valid_o).
module lut_ram (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 busy_i,
  // register-like request: addr 0 = S_LUT_ACCESS_CFG, 1 = S_LUT_ACCESS_DATA
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic                 req_addr_i,
  input  logic                 req_write_i,
  input  logic [31:0]          req_wdata_i,
  output logic                 rsp_valid_o,
  output logic [31:0]          rsp_rdata_o,
  output logic                 rsp_err_o,
  output logic                 err_o,
  input  logic                 err_clr_i,
  output logic [64:0][15:0]    le_tab_o,
  output logic [256:0][15:0]   lo_tab_o
);
  logic [64:0][15:0]  le_q;
  logic [256:0][15:0] lo_q;
  logic [8:0]         addr_q, addr_d;
  logic               table_lo_q, table_lo_d;
  logic               write_q, write_d;
  logic               err_q, err_d;
  logic               rsp_valid_q, rsp_err_q, rsp_err_d;
  logic [31:0]        rsp_rdata_q, rsp_rdata_d;
  logic               wr_le, wr_lo;
  logic [8:0]         last, cfg_last, cfg_addr, addr_inc;
  logic [15:0]        entry;
  logic               refuse;

  always_comb begin
    last       = table_lo_q ? 9'd256 : 9'd64;
    cfg_last   = req_wdata_i[16] ? 9'd256 : 9'd64;
    cfg_addr   = (req_wdata_i[9:0] > 10'(cfg_last)) ? cfg_last : req_wdata_i[8:0];
    addr_inc   = (addr_q == last) ? addr_q : addr_q + 9'd1;
    entry      = table_lo_q ? lo_q[addr_q] : le_q[addr_q[6:0]];
    refuse     = req_valid_i && req_write_i && busy_i;

    addr_d      = addr_q;
    table_lo_d  = table_lo_q;
    write_d     = write_q;
    wr_le       = 1'b0;
    wr_lo       = 1'b0;
    rsp_err_d   = refuse;
    rsp_rdata_d = '0;
    err_d       = (err_q && !err_clr_i) || refuse;

    if (req_valid_i && !refuse) begin
      unique case ({req_addr_i, req_write_i})
        2'b01: begin  // ACCESS_CFG write
          addr_d     = cfg_addr;
          table_lo_d = req_wdata_i[16];
          write_d    = req_wdata_i[17];
        end
        2'b00: begin  // ACCESS_CFG read
          rsp_rdata_d = {14'd0, write_q, table_lo_q, 7'd0, addr_q};
        end
        2'b11: begin  // ACCESS_DATA write
          if (write_q) begin
            wr_le  = !table_lo_q;
            wr_lo  = table_lo_q;
            addr_d = addr_inc;
          end
        end
        2'b10: begin  // ACCESS_DATA read
          rsp_rdata_d = {16'd0, entry};
          if (!write_q) begin
            addr_d = addr_inc;
          end
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      le_q        <= '0;
      lo_q        <= '0;
      addr_q      <= '0;
      table_lo_q  <= 1'b0;
      write_q     <= 1'b0;
      err_q       <= 1'b0;
      rsp_valid_q <= 1'b0;
      rsp_err_q   <= 1'b0;
      rsp_rdata_q <= '0;
    end else begin
      // A decoded write (a loop over constant indexes, run only on a write) rather than an
      // indexed one: synthesis would turn an indexed write into these packed tables into a
      // table-wide shift and mask.
      if (wr_le) begin
        for (int unsigned e = 0; e < 65; e++) begin
          if (addr_q[6:0] == 7'(e)) le_q[e] <= req_wdata_i[15:0];
        end
      end
      if (wr_lo) begin
        for (int unsigned e = 0; e < 257; e++) begin
          if (addr_q == 9'(e)) lo_q[e] <= req_wdata_i[15:0];
        end
      end
      addr_q      <= addr_d;
      table_lo_q  <= table_lo_d;
      write_q     <= write_d;
      err_q       <= err_d;
      rsp_valid_q <= req_valid_i;
      rsp_err_q   <= rsp_err_d;
      rsp_rdata_q <= rsp_rdata_d;
    end
  end

  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;
  assign err_o       = err_q;
  assign le_tab_o    = le_q;
  assign lo_tab_o    = lo_q;

  logic unused_wdata;
  assign unused_wdata = ^{req_wdata_i[31:18]};
endmodule
