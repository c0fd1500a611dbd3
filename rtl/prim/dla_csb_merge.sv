// CSB fan-in of a top: every block sees every request (the fan-out is the shared request
// wires) and decodes its own 4 KiB window; a block that did not hit answers 0, so the read
// data are ORed. A request is taken when every block is ready; a response is valid when any
// block answers.
module dla_csb_merge #(
  parameter int unsigned N = 2
) (
  input  logic [N-1:0]       req_ready_i,
  output logic               req_ready_o,
  input  logic [N-1:0]       rsp_valid_i,
  input  logic [N-1:0][31:0] rsp_rdata_i,
  output logic               rsp_valid_o,
  output logic [31:0]        rsp_rdata_o
);
  assign req_ready_o = &req_ready_i;
  assign rsp_valid_o = |rsp_valid_i;
  always_comb begin
    rsp_rdata_o = '0;
    for (int unsigned i = 0; i < N; i++) rsp_rdata_o |= rsp_rdata_i[i];
  end
endmodule
