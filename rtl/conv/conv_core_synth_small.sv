// Synthesis check of conv_core with nv_small's parameters and a reduced CBUF (64 + 64 rows;
// the full 128 KiB as flip-flops is beyond the WebAssembly Yosys' 4 GB). A parameter-free top,
// because Yosys 0.55 asserts (rtlil.cc:1004, "modules_.count(module->name) == 0") when it
// re-derives a -chparam'd conv_core once its dla_group_regs instances become available.
// Not used in simulation (docs/CONV_RTL.md).
module conv_core_synth_small (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        csb_req_valid_i,
  output logic        csb_req_ready_o,
  input  logic [31:0] csb_req_addr_i,
  input  logic        csb_req_write_i,
  input  logic [31:0] csb_req_wdata_i,
  output logic        csb_rsp_valid_o,
  output logic [31:0] csb_rsp_rdata_o,
  output logic        dma_rd_req_valid_o,
  input  logic        dma_rd_req_ready_i,
  output logic [63:0] dma_rd_req_addr_o,
  output logic        dma_rd_req_len_o,
  input  logic        dma_rd_rsp_valid_i,
  output logic        dma_rd_rsp_ready_o,
  input  logic [63:0] dma_rd_rsp_data_i,
  output logic        fly_valid_o,
  input  logic        fly_ready_i,
  output logic [31:0] fly_data_o,
  output logic [5:0]  intr_o
);
  conv_core #(
    .AtomLog2    (3),
    .AtomicC     (8),
    .NumCells    (8),
    .SupportInt16(1'b0),
    .CbufBanks   (2),
    .CbufEntries (64),
    .StripeLower (8),
    .StripeUpper (16)
  ) u_conv (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .csb_req_valid_i   (csb_req_valid_i),
    .csb_req_ready_o   (csb_req_ready_o),
    .csb_req_addr_i    (csb_req_addr_i),
    .csb_req_write_i   (csb_req_write_i),
    .csb_req_wdata_i   (csb_req_wdata_i),
    .csb_rsp_valid_o   (csb_rsp_valid_o),
    .csb_rsp_rdata_o   (csb_rsp_rdata_o),
    .dma_rd_req_valid_o(dma_rd_req_valid_o),
    .dma_rd_req_ready_i(dma_rd_req_ready_i),
    .dma_rd_req_addr_o (dma_rd_req_addr_o),
    .dma_rd_req_len_o  (dma_rd_req_len_o),
    .dma_rd_rsp_valid_i(dma_rd_rsp_valid_i),
    .dma_rd_rsp_ready_o(dma_rd_rsp_ready_o),
    .dma_rd_rsp_data_i (dma_rd_rsp_data_i),
    .fly_valid_o       (fly_valid_o),
    .fly_ready_i       (fly_ready_i),
    .fly_data_o        (fly_data_o),
    .intr_o            (intr_o)
  );
endmodule
