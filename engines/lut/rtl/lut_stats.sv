// LUT statistics counters (PERF_LUT_UFLOW / OFLOW / HYBRID / LE_HIT / LO_HIT), 32-bit saturating,
// synchronous clear. Counts the lanes of each beat leaving the engine whose mask bit is set,
// while en_i. Semantics per variant (../shared/reference/nvdla-arithmetic.md):
//   SDP (Variant 0): uflow/oflow += final flag; hybrid += !(uflow | oflow); le_hit/lo_hit += that
//                    table's own hit (both can count one element).
//   CDP (Variant 1): one counter per element: both uflow -> uflow; both oflow -> oflow; LE hit
//                    only -> le_hit; LO hit only -> lo_hit; both hit, or uflow + oflow -> hybrid.
module lut_stats #(
  parameter int unsigned Variant = 0,
  parameter int unsigned Lanes   = 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clr_i,
  input  logic                   en_i,
  input  logic                   fire_i,       // a beat leaves the engine
  input  logic [Lanes-1:0]       mask_i,
  input  logic [Lanes-1:0]       uflow_i,      // final flags
  input  logic [Lanes-1:0]       oflow_i,
  input  logic [Lanes-1:0][1:0]  le_status_i,  // {oflow, uflow} of each table on its own
  input  logic [Lanes-1:0][1:0]  lo_status_i,
  output logic [4:0][31:0]       count_o       // {lo_hit, le_hit, hybrid, oflow, uflow}
);
  localparam int unsigned IncW = $clog2(Lanes + 1);

  logic [4:0][IncW-1:0] inc;
  logic [4:0][31:0]     count_q, count_d;

  always_comb begin
    inc = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      logic le_uf, le_of, lo_uf, lo_of, le_hit, lo_hit;
      le_uf  = le_status_i[l][0];
      le_of  = le_status_i[l][1];
      lo_uf  = lo_status_i[l][0];
      lo_of  = lo_status_i[l][1];
      le_hit = !le_uf && !le_of;
      lo_hit = !lo_uf && !lo_of;
      if (mask_i[l]) begin
        if (Variant == 0) begin
          inc[0] += IncW'(uflow_i[l]);
          inc[1] += IncW'(oflow_i[l]);
          inc[2] += IncW'(!uflow_i[l] && !oflow_i[l]);
          inc[3] += IncW'(le_hit);
          inc[4] += IncW'(lo_hit);
        end else begin
          if (le_uf && lo_uf) begin
            inc[0] += IncW'(1);
          end else if (le_of && lo_of) begin
            inc[1] += IncW'(1);
          end else if (le_hit && !lo_hit) begin
            inc[3] += IncW'(1);
          end else if (lo_hit && !le_hit) begin
            inc[4] += IncW'(1);
          end else begin
            inc[2] += IncW'(1);
          end
        end
      end
    end
    for (int unsigned k = 0; k < 5; k++) begin
      logic [32:0] sum;
      sum = {1'b0, count_q[k]} + 33'(inc[k]);
      if (clr_i) begin
        count_d[k] = '0;
      end else if (fire_i && en_i) begin
        count_d[k] = sum[32] ? 32'hffff_ffff : sum[31:0];
      end else begin
        count_d[k] = count_q[k];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  assign count_o = count_q;
endmodule
