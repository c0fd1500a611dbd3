// Hardware configurations, named like NVDLA's (../shared/reference/nvdla-arithmetic.md §3 table).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dla::golden {

// Fp16 is NVDLA v1's float pipeline (nv_full; docs/FP16.md): two bytes per element in memory and
// CBUF like int16. Engines without an fp16 path refuse it by name.
enum class Precision { Int8, Int16, Fp16 };

[[nodiscard]] constexpr int bytes_per_element(Precision p) { return p == Precision::Int8 ? 1 : 2; }
[[nodiscard]] constexpr int bits_per_element(Precision p) { return 8 * bytes_per_element(p); }
// NVDLA's precision field code (IN_ / PROC_ / OUT_PRECISION, DATA_FORMAT): 0 INT8, 1 INT16, 2 FP16.
[[nodiscard]] constexpr uint32_t precision_code(Precision p) {
  return p == Precision::Int8 ? 0u : (p == Precision::Int16 ? 1u : 2u);
}
[[nodiscard]] std::string_view precision_name(Precision p);
// The name of a precision field's raw code ("reserved" for 3).
[[nodiscard]] std::string_view precision_code_name(uint32_t code);
[[nodiscard]] std::optional<Precision> parse_precision(std::string_view name);

// Everything that differs between NVDLA's builds, in one place: code asks these fields, never
// the configuration's name (table in ../shared/DESIGN.md; docs/ARCHITECTURE.md "Configurations").
// The values come from regs/hw_configs.json, which the RTL's parameters are built from too
// (golden/src/hw_configs.inc is generated from it; CTest hw_configs:generated-up-to-date).
struct HwConfig {
  std::string name;
  int atomic_c = 0;         // channels per atomic operation
  int mac_cells = 0;        // MAC cells in the array (both CMACs together)
  bool int16 = false;       // int16 support; each int16 MAC then also runs as two int8 MACs
  int atom_bytes = 0;       // memory atom
  int dma_bits = 0;         // memory interface width
  int cbuf_banks = 0;       // CBUF: banks x entries per bank x bytes per entry
  int cbuf_entries = 0;
  int cbuf_entry_bytes = 0;
  int stripe_lower = 0;     // CSC stripe partition (conv-pipeline.md §5): lower / upper stripe length
  int stripe_upper = 0;
  // NVDLA's secondary memory interface (CV-SRAM, SECONDARY_MEMIF_ENABLE in the build's spec): a
  // DMA whose RAM_TYPE selects CV needs it (ram_type_problem). Both interfaces are one address
  // space in this project (docs/TRACES.md).
  bool secondary_memif = false;
  bool winograd = false;    // Winograd convolution (nvdlav1 only)
  bool wfold = false;       // the W-fold CDMA data path (seed 004, docs/WFOLD.md; nv_full only)
  bool nvdlav1_map = false; // CSB block bases: nvdlav1's map (nv_full), else master's
  int sdp_lanes = 1;        // SDP BS/BN elements per cycle (SDP_BS_THROUGHPUT)
  int sdp_ew_lanes = 1;     // SDP EW elements per cycle (SDP_EW_THROUGHPUT; 1 where NVDLA has none)
  int pdp_throughput = 1;   // PDP elements per cycle (PDP_THROUGHPUT)
  int cdp_throughput = 1;   // CDP elements per cycle (CDP_THROUGHPUT)
  // PDP line buffer: int8 partial sums it holds (7 KB of 14-bit sums; int16 holds half as many).
  // One output column of one split needs one sum per channel of an atom (docs/PDP.md).
  int pdp_line_buffer_elements = 4096;
  // The build of NVIDIA's C model that judges this configuration (harness cmod device,
  // docs/CMOD.md): "nvdlav1" (branch nvdlav1) or "master:PROJECT" (branch master, PROJECT.spec).
  std::string cmod;

  // Widest output line (per split) PDP's line buffer holds for precision p, with a kernel of
  // kernel_h rows at stride stride_h. Beyond the partial-sum count, overlapping windows matter:
  // NVIDIA's C model keeps N = 16 KiB / (2 x atom_bytes) output atoms (256 on nv_full, 1024 on
  // nv_small), atom i in slot i mod N, each held from its window's first row to its last; a new
  // line's atom waits for the atom N before it, so the model stops for good unless that one's
  // window has ended: floor(N / W') x stride_h > kernel_h - 1, or = with W' not dividing N
  // (docs/PDP.md "Line buffer"; measured on the model, session 23).
  [[nodiscard]] int pdp_max_out_width(Precision p, int kernel_h = 1, int stride_h = 1) const {
    const int by_sums = pdp_line_buffer_elements / bytes_per_element(p) / (atom_bytes / bytes_per_element(p));
    const int atoms = 4 * pdp_line_buffer_elements / (2 * atom_bytes);  // N
    const int m = (kernel_h - 1) / stride_h + 1;  // the least floor(N / W') that always works
    if (m <= 1) return std::min(by_sums, atoms);
    int by_lines = atoms / m;
    if ((kernel_h - 1) % stride_h == 0) by_lines = atoms / (m - 1) - (atoms % (m - 1) == 0 ? 1 : 0);
    return std::min(by_sums, by_lines);
  }

  // Kernels per atomic operation (ATOMIC_K): cells, times two for int8 on an int16 array.
  [[nodiscard]] int atomic_k(Precision p) const {
    return (int16 && p == Precision::Int8) ? 2 * mac_cells : mac_cells;
  }
  // NVDLA builds with an int16 array (nv_full) have the fp16 pipeline too (NVDLA v1).
  [[nodiscard]] bool supports(Precision p) const { return p == Precision::Int8 || int16; }
  // Exact partial-sum width: 2*bits + log2(ATOMIC_C).
  [[nodiscard]] int psum_bits(Precision p) const;
};

[[nodiscard]] const HwConfig& nv_small();
[[nodiscard]] const HwConfig& nv_large();
[[nodiscard]] const HwConfig& nv_full();
[[nodiscard]] const HwConfig* find_config(std::string_view name);
[[nodiscard]] std::vector<std::string> config_names();
// A DMA's RAM_TYPE field `reg` (1 MC, 0 CV) on `hw`: empty, or why the build cannot take it (CV
// selects the secondary memory interface, which a build without one lacks).
[[nodiscard]] std::string ram_type_problem(const HwConfig& hw, bool mc, std::string_view reg);
// "nv_small, nv_small_256, ...": the configurations, for messages and help text.
[[nodiscard]] std::string config_names_text();

}  // namespace dla::golden
