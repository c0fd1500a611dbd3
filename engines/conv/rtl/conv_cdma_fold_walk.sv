// CDMA's walk over the W-fold input fetch (docs/WFOLD.md), one slot per step: conv_cdma
// instantiates it twice, like conv_cdma_walk (request and response side, responses in order).
// Loop order: line h -> channel group g -> folded column wf = ow*S' + t -> slot j. Slot j of
// folded column (ow, t) stands for kernel column s = t*ws + j and input column
// x = ow*sx - PAD_LEFT + s*dx; the slots of a row stop at s = S - 1 (the rest of the row is
// zero). A slot is pci = AtomicC / ws channels (pci*bpe <= one memory atom), taken from the
// memory atom a = (g*pci*bpe) / AtomBytes of pixel (h, x) at byte src_off_o and placed at byte
// dst_off_o of row h*G*Wf + g*Wf + wf, which is written whole (the lanes in mask_o) at its last
// slot. A slot whose x lies outside [0, W) is padding: no read (skip_o), the pad value instead.
// Reuse: with one folded column (S <= ws), X dilation 1 and sx < S, the row of output column
// ow + 1 is the row of ow moved down by sx slots plus sx new slots, so after a channel group's
// first row only slots S - sx .. S - 1 are walked (reuse_o: move the previous row): sx reads
// per output column instead of S.
module conv_cdma_fold_walk #(
  parameter int unsigned AtomLog2     = 5,
  parameter int unsigned AtomicC      = 64,
  parameter bit          SupportInt16 = 1'b1,
  parameter int unsigned CbufRows     = 4096,
  localparam int unsigned AtomBytes   = 1 << AtomLog2,
  localparam int unsigned WordW       = AtomicC * (SupportInt16 ? 16 : 8),
  localparam int unsigned RowAtoms    = WordW / (8 * AtomBytes),
  localparam int unsigned RowLog2     = $clog2(WordW / 8),
  localparam int unsigned RowW        = $clog2(CbufRows)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  conv_pkg::cfg_t      cfg_i,
  input  logic                step_i,       // the current slot is done: go to the next
  output logic [13:0]         line_o,       // current line = lines complete
  output logic [13:0]         lines_o,
  output logic                done_o,
  output logic                line_last_o,  // the current slot is its line's last
  output logic                skip_o,       // padding: no read
  output logic [63:0]         addr_o,       // memory atom of the current slot
  output logic [RowW-1:0]     row_o,
  output logic [RowAtoms-1:0] mask_o,       // the lanes a row's slots reach (written at its end)
  output logic [AtomLog2-1:0] src_off_o,    // byte offset of the slot in the memory atom
  output logic [RowLog2-1:0]  dst_off_o,    // byte offset of the slot in the row
  output logic [AtomLog2:0]   bytes_o,      // bytes of real channels in the slot (the rest 0)
  output logic                row_first_o,  // the row's first walked slot: start the row
  output logic                reuse_o,      // ... from the previous row moved by shift_o bytes
  output logic [RowLog2:0]    shift_o,
  output logic                row_last_o    // the row's last slot: write it
);
  localparam int unsigned CLog2 = $clog2(AtomicC);

  logic        int16;
  logic [2:0]  pci_log2, sb_log2;   // channels / bytes of a slot, log2
  logic [13:0] ws, groups, kcols, wf_n, pci;
  assign int16    = SupportInt16 && cfg_i.int16;
  assign pci_log2 = 3'(CLog2) - cfg_i.ws_log2;
  assign sb_log2  = pci_log2 + 3'(int16);
  assign ws       = 14'd1 << cfg_i.ws_log2;
  assign pci      = 14'd1 << pci_log2;
  assign groups   = (cfg_i.src_c + pci - 14'd1) >> pci_log2;
  assign kcols    = (14'(cfg_i.fold_kern_w) + ws - 14'd1) >> cfg_i.ws_log2;  // S'
  assign wf_n     = cfg_i.out_w * kcols;                                     // Wf
  assign lines_o  = cfg_i.in_h;

  logic       reuse;   // the layer reuses slots (see above)
  logic [5:0] j_reuse; // first new slot of a reused row: S - sx
  assign reuse   = kcols == 14'd1 && cfg_i.fold_dil_x == 6'd1 && 6'(cfg_i.src_stride_x) < cfg_i.fold_kern_w;
  assign j_reuse = cfg_i.fold_kern_w - 6'(cfg_i.src_stride_x);

  // Position: line, group, output column, folded column t, slot j; wf counts (ow, t) rows.
  logic [13:0] ln_q, g_q, ow_q, wf_q;
  logic [5:0]  t_q, j_q;
  logic [7:0]  s_q;                  // t*ws + j
  logic signed [16:0] x_ow_q, x_t_q, x_q;  // ow*sx - PAD_LEFT; that + t*ws*dx; the slot's column
  logic [27:0] row_base_q;           // (h*G + g)*Wf
  logic [63:0] line_addr_q;          // dain_addr + h*line_stride
  logic        last_j, last_t, last_ow, last_g;
  assign last_j  = j_q == 6'(ws - 14'd1) || s_q == 8'(cfg_i.fold_kern_w) - 8'd1;
  assign last_t  = 14'(t_q) == kcols - 14'd1;
  assign last_ow = ow_q == cfg_i.out_w - 14'd1;
  assign last_g  = g_q == groups - 14'd1;
  assign line_last_o = last_j && last_t && last_ow && last_g;
  assign done_o      = ln_q == lines_o;
  assign line_o      = ln_q;

  logic signed [16:0] x_start;  // the first output column's first input column: -PAD_LEFT
  assign x_start = 17'sd0 - 17'(cfg_i.src_pad_left);
  logic signed [16:0] ws_dx;  // x advance from one folded column to the next: ws*dx
  assign ws_dx = 17'(cfg_i.fold_dil_x) << cfg_i.ws_log2;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ln_q        <= '0;
      g_q         <= '0;
      ow_q        <= '0;
      wf_q        <= '0;
      t_q         <= '0;
      j_q         <= '0;
      s_q         <= '0;
      x_ow_q      <= '0;
      x_t_q       <= '0;
      x_q         <= '0;
      row_base_q  <= '0;
      line_addr_q <= '0;
    end else if (start_i) begin
      ln_q        <= '0;
      g_q         <= '0;
      ow_q        <= '0;
      wf_q        <= '0;
      t_q         <= '0;
      j_q         <= '0;
      s_q         <= '0;
      x_ow_q      <= x_start;
      x_t_q       <= x_start;
      x_q         <= x_start;
      row_base_q  <= '0;
      line_addr_q <= cfg_i.dain_addr;
    end else if (step_i) begin
      if (!last_j) begin
        j_q <= j_q + 6'd1;
        s_q <= s_q + 8'd1;
        x_q <= x_q + 17'(cfg_i.fold_dil_x);
      end else begin
        j_q <= '0;
        if (!last_t) begin
          t_q   <= t_q + 6'd1;
          s_q   <= 8'(14'(s_q) - 14'(j_q) + ws);  // (t + 1)*ws
          x_t_q <= x_t_q + ws_dx;
          x_q   <= x_t_q + ws_dx;
          wf_q  <= wf_q + 14'd1;
        end else begin
          t_q <= '0;
          s_q <= '0;
          if (!last_ow) begin
            ow_q   <= ow_q + 14'd1;
            x_ow_q <= x_ow_q + 17'(cfg_i.src_stride_x);
            x_t_q  <= x_ow_q + 17'(cfg_i.src_stride_x);
            x_q    <= x_ow_q + 17'(cfg_i.src_stride_x) + (reuse ? 17'(j_reuse) : 17'sd0);
            j_q    <= reuse ? j_reuse : '0;
            s_q    <= reuse ? 8'(j_reuse) : '0;
            wf_q   <= wf_q + 14'd1;
          end else begin
            ow_q       <= '0;
            wf_q       <= '0;
            x_ow_q     <= x_start;
            x_t_q      <= x_start;
            x_q        <= x_start;
            row_base_q <= row_base_q + 28'(wf_n);
            if (!last_g) begin
              g_q <= g_q + 14'd1;
            end else begin
              g_q         <= '0;
              ln_q        <= ln_q + 14'd1;  // stops at lines_o: done
              line_addr_q <= line_addr_q + 64'(cfg_i.line_stride);
            end
          end
        end
      end
    end
  end

  // Where the slot's bytes are: group g's first byte g*pci*bpe in the pixel's channel bytes,
  // slot j's first byte j*pci*bpe in the row.
  logic [19:0] g_byte, j_byte;
  logic [13:0] atom;
  assign g_byte    = 20'(g_q) << sb_log2;
  assign j_byte    = 20'(j_q) << sb_log2;
  assign atom      = 14'(g_byte >> AtomLog2);
  assign src_off_o = g_byte[AtomLog2-1:0];
  assign dst_off_o = RowLog2'(j_byte);

  logic [13:0] chans;  // real channels of the slot: min(pci, C - g*pci)
  assign chans   = (cfg_i.src_c - (g_q << pci_log2) < pci) ? cfg_i.src_c - (g_q << pci_log2) : pci;
  assign bytes_o = (AtomLog2 + 1)'(chans << int16);

  // The row starts at its first walked slot: slot 0, or S - sx of a reused row (ow > 0).
  logic row_reused;
  assign row_reused  = reuse && ow_q != '0;
  assign row_first_o = row_reused ? j_q == j_reuse : j_q == '0;
  assign reuse_o     = row_reused;
  assign shift_o     = (RowLog2 + 1)'(20'(cfg_i.src_stride_x) << sb_log2);
  assign row_last_o  = last_j;

  // Lanes reached: the bytes of min(S, ws) slots.
  logic [19:0] row_bytes;
  logic [5:0]  used_slots;
  assign used_slots = (14'(cfg_i.fold_kern_w) < ws) ? cfg_i.fold_kern_w : 6'(ws);
  assign row_bytes  = 20'(used_slots) << sb_log2;
  always_comb begin
    for (int l = 0; l < RowAtoms; l++) mask_o[l] = 20'(l) << AtomLog2 < row_bytes;
  end

  assign skip_o = x_q < 17'sd0 || x_q >= $signed(17'(cfg_i.src_w));
  assign addr_o = line_addr_q + 64'(atom) * 64'(cfg_i.surf_stride) + (64'(x_q[15:0]) << AtomLog2);

  logic [27:0] row;
  assign row   = row_base_q + 28'(wf_q);
  assign row_o = RowW'(row);

  logic unused;
  assign unused = ^{cfg_i, row, g_byte, j_byte, atom, s_q};
endmodule
