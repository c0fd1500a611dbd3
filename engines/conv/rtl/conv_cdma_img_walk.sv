// CDMA's walk over an image (D_DATAIN_FORMAT PIXEL, cdma-input-modes.md §1.3-§1.5), one step a
// cycle, the same sequence on the request and the response side (conv_cdma instantiates it
// twice, as conv_cdma_walk). For each line y, for each padded pixel p in [0, PL + W + PR): one
// step per plane (two for the semi-planar formats: plane 0, then plane 1), then one flush step
// that ends the line. A step reads the memory atom its pixel starts (skip_o clear) only where
// the pixel is the line's first real one or begins an atom of its plane; pad pixels, pixels
// inside an atom already read and the flush step read nothing. Addresses (pitch linear, o =
// PIXEL_X_OFFSET): plane 0 at DAIN_ADDR_0 + y*LINE_STRIDE + (o + x)*bpp0, plane 1 at
// DAIN_ADDR_1 + y*LINE_UV_STRIDE + ((o mod (atom/bpp1)) + x)*bpp1, kept as running sums.
module conv_cdma_img_walk #(
  parameter int unsigned AtomLog2 = 3
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  input  logic                step_i,
  output logic [13:0]         line_o,       // current line = lines complete
  output logic [13:0]         lines_o,
  output logic                done_o,
  output logic                line_last_o,  // the flush step
  output logic                skip_o,       // no read this step
  output logic [63:0]         addr_o,       // atom of the step's plane
  output logic                plane_o,      // the step is plane 1's
  output logic                pad_o,        // the pixel is a pad pixel
  output logic                emit_o,       // the pixel's last step
  output logic [AtomLog2-1:0] off0_o,       // byte of the pixel in its plane-0 atom
  output logic [AtomLog2-1:0] off1_o        // and in its plane-1 atom
);
  conv_pkg::pix_fmt_t fmt;
  assign fmt = conv_pkg::pix_fmt(cfg_i.pix_fmt);

  logic [14:0] npix;   // padded pixels per line
  logic [14:0] first;  // padded index of the first real pixel (PL), one past the last
  logic [14:0] last;
  assign first   = 15'(cfg_i.src_pad_left);
  assign last    = first + 15'(cfg_i.src_w);
  assign npix    = last + 15'(cfg_i.src_pad_right);
  assign lines_o = cfg_i.src_h;

  logic [13:0] line_q;
  logic [14:0] p_q;
  logic        sub_q, flush_q, done_q;
  logic [63:0] line0_q, line1_q;
  logic [31:0] bp0_q, bp1_q;  // byte of the pixel in its line, per plane
  logic [31:0] bp0_init, bp1_init;
  assign bp0_init = 32'(cfg_i.pix_x_off) << fmt.bpp0_log2;
  assign bp1_init = (32'(cfg_i.pix_x_off) << (fmt.bpp1_4 ? 2 : 1)) & 32'((1 << AtomLog2) - 1);

  logic pad, x0, need0, need1;
  assign pad   = p_q < first || p_q >= last;
  assign x0    = p_q == first;
  assign need0 = !pad && (x0 || bp0_q[AtomLog2-1:0] == '0);
  assign need1 = !pad && (x0 || bp1_q[AtomLog2-1:0] == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      line_q  <= '0;
      p_q     <= '0;
      sub_q   <= 1'b0;
      flush_q <= 1'b0;
      done_q  <= 1'b1;
      line0_q <= '0;
      line1_q <= '0;
      bp0_q   <= '0;
      bp1_q   <= '0;
    end else if (start_i) begin
      line_q  <= '0;
      p_q     <= '0;
      sub_q   <= 1'b0;
      flush_q <= 1'b0;
      done_q  <= 1'b0;
      line0_q <= cfg_i.dain_addr;
      line1_q <= cfg_i.dain_addr1;
      bp0_q   <= bp0_init;
      bp1_q   <= bp1_init;
    end else if (step_i && !done_q) begin
      if (flush_q) begin
        flush_q <= 1'b0;
        p_q     <= '0;
        line_q  <= line_q + 14'd1;
        line0_q <= line0_q + 64'(cfg_i.line_stride);
        line1_q <= line1_q + 64'(cfg_i.line_uv_stride);
        bp0_q   <= bp0_init;
        bp1_q   <= bp1_init;
        if (line_q + 14'd1 == cfg_i.src_h) done_q <= 1'b1;
      end else if (fmt.semi && !sub_q) begin
        sub_q <= 1'b1;
      end else begin
        sub_q <= 1'b0;
        p_q   <= p_q + 15'd1;
        if (!pad) begin
          bp0_q <= bp0_q + (32'd1 << fmt.bpp0_log2);
          bp1_q <= bp1_q + (fmt.bpp1_4 ? 32'd4 : 32'd2);
        end
        if (p_q + 15'd1 == npix) flush_q <= 1'b1;
      end
    end
  end

  assign line_o      = line_q;
  assign done_o      = done_q;
  assign line_last_o = flush_q;
  assign plane_o     = sub_q;
  assign pad_o       = pad;
  assign emit_o      = !flush_q && (!fmt.semi || sub_q);
  assign skip_o      = flush_q || !(sub_q ? need1 : need0);
  assign addr_o      = sub_q ? line1_q + 64'({bp1_q[31:AtomLog2], {AtomLog2{1'b0}}})
                             : line0_q + 64'({bp0_q[31:AtomLog2], {AtomLog2{1'b0}}});
  assign off0_o      = bp0_q[AtomLog2-1:0];
  assign off1_o      = bp1_q[AtomLog2-1:0];

  logic unused;
  assign unused = ^{cfg_i, fmt};
endmodule
