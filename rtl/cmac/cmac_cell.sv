// One MAC cell: a shadow and an active weight register and AtomicC multiply-accumulate lanes.
// The shadow register loads while the current stripe runs on the active one; `swap_i` moves
// shadow to active so stripes run back to back. With SupportInt16, each 16-bit MAC lane also
// runs as two int8 MACs (two kernels sharing one data byte), so int8 gives two kernels per cell.
module cmac_cell #(
  parameter int unsigned AtomicC      = 8,
  parameter bit          SupportInt16 = 1'b0,
  localparam int unsigned DataW       = SupportInt16 ? 16 : 8,
  localparam int unsigned WordW       = AtomicC * DataW,
  localparam int unsigned KernPerCell = SupportInt16 ? 2 : 1,
  localparam int unsigned Sum8W       = 16 + $clog2(AtomicC),
  localparam int unsigned Sum16W      = 32 + $clog2(AtomicC),
  localparam int unsigned PsumW       = SupportInt16 ? Sum16W : Sum8W
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // Shadow load: one whole cell's weights per beat.
  input  logic                               load_i,
  input  logic [WordW-1:0]                   load_data_i,
  input  logic                               swap_i,
  // Datapath (combinational; the array registers the result).
  input  logic                               int16_i,
  input  logic [WordW-1:0]                   data_i,
  output logic [KernPerCell-1:0][PsumW-1:0]  psum_o
);

  logic [WordW-1:0] shadow_q, active_q;
  logic             shadow_loaded_q, active_loaded_q;

  // Weights are datapath registers: no reset needed, the loaded flags gate them.
  always_ff @(posedge clk_i) begin
    if (load_i) shadow_q <= load_data_i;
    if (swap_i) active_q <= shadow_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shadow_loaded_q <= 1'b0;
      active_loaded_q <= 1'b0;
    end else begin
      if (swap_i) active_loaded_q <= shadow_loaded_q;
      // A swap empties the shadow, so every weight set starts with all cells unloaded.
      if (load_i) shadow_loaded_q <= 1'b1;
      else if (swap_i) shadow_loaded_q <= 1'b0;
    end
  end

  // int8 dot products: kernel kk uses weight bytes [kk*AtomicC +: AtomicC], data bytes 0..AtomicC-1.
  logic signed [KernPerCell-1:0][Sum8W-1:0] sum8;
  always_comb begin
    for (int unsigned kk = 0; kk < KernPerCell; kk++) begin
      logic signed [Sum8W-1:0] acc;
      acc = '0;
      for (int unsigned j = 0; j < AtomicC; j++) begin
        logic signed [7:0] w8, d8;
        w8  = active_q[(kk * AtomicC + j) * 8 +: 8];
        d8  = data_i[j * 8 +: 8];
        acc = acc + Sum8W'(w8 * d8);
      end
      sum8[kk] = acc;
    end
  end

  if (SupportInt16) begin : g_int16
    logic signed [Sum16W-1:0] sum16;
    always_comb begin
      sum16 = '0;
      for (int unsigned j = 0; j < AtomicC; j++) begin
        logic signed [15:0] w16, d16;
        w16   = active_q[j * 16 +: 16];
        d16   = data_i[j * 16 +: 16];
        sum16 = sum16 + Sum16W'(w16 * d16);
      end
    end
    always_comb begin
      if (!active_loaded_q) begin
        psum_o = '0;
      end else if (int16_i) begin
        psum_o[0] = PsumW'(sum16);
        psum_o[1] = '0;
      end else begin
        psum_o[0] = PsumW'($signed(sum8[0]));
        psum_o[1] = PsumW'($signed(sum8[1]));
      end
    end
  end else begin : g_int8
    logic unused_int16;
    assign unused_int16 = int16_i;
    always_comb psum_o[0] = active_loaded_q ? PsumW'($signed(sum8[0])) : '0;
  end

endmodule
