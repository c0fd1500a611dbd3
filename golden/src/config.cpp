#include "golden/config.hpp"

#include <bit>

namespace dla::golden {

std::string_view precision_name(Precision p) { return p == Precision::Int16 ? "int16" : "int8"; }

std::optional<Precision> parse_precision(std::string_view name) {
  if (name == "int8") return Precision::Int8;
  if (name == "int16") return Precision::Int16;
  return std::nullopt;
}

int HwConfig::psum_bits(Precision p) const {
  return 2 * bits_per_element(p) + std::countr_zero(static_cast<unsigned>(atomic_c));
}

// NVDLA master's spec/defs/nv_small.spec: 32 banks x 512 entries x 8 bytes.
const HwConfig& nv_small() {
  static const HwConfig k{.name = "nv_small", .atomic_c = 8, .mac_cells = 8, .int16 = false, .atom_bytes = 8,
                          .dma_bits = 64, .cbuf_banks = 32, .cbuf_entries = 512, .cbuf_entry_bytes = 8,
                          .stripe_lower = 8, .stripe_upper = 16, .winograd = false, .nvdlav1_map = false,
                          .sdp_lanes = 1, .sdp_ew_lanes = 1, .pdp_throughput = 1};
  return k;
}

// NVDLA master's spec/defs/nv_large.spec: int8 only, 16 banks x 512 entries x 64 bytes, 256-bit
// memory interface, master block bases, no Winograd.
const HwConfig& nv_large() {
  static const HwConfig k{.name = "nv_large", .atomic_c = 64, .mac_cells = 32, .int16 = false, .atom_bytes = 32,
                          .dma_bits = 256, .cbuf_banks = 16, .cbuf_entries = 512, .cbuf_entry_bytes = 64,
                          .stripe_lower = 32, .stripe_upper = 64, .winograd = false, .nvdlav1_map = false,
                          .sdp_lanes = 16, .sdp_ew_lanes = 4, .pdp_throughput = 8};
  return k;
}

// NVDLA v1 (branch nvdlav1, spec/defs/nv_full.spec and its RTL): int8 and int16, 16 banks x 256
// entries x 128 bytes (the CBUF's data ports are 1024 bits wide: 32 int16 channels pack two
// positions per entry, as NVDLA v1's own conv_8x8_fc_int16 test programs), 512-bit interface.
const HwConfig& nv_full() {
  static const HwConfig k{.name = "nv_full", .atomic_c = 64, .mac_cells = 16, .int16 = true, .atom_bytes = 32,
                          .dma_bits = 512, .cbuf_banks = 16, .cbuf_entries = 256, .cbuf_entry_bytes = 128,
                          .stripe_lower = 16, .stripe_upper = 32, .winograd = true, .nvdlav1_map = true,
                          .sdp_lanes = 16, .sdp_ew_lanes = 4, .pdp_throughput = 8};
  return k;
}

const HwConfig* find_config(std::string_view name) {
  for (const HwConfig* c : {&nv_small(), &nv_large(), &nv_full()}) {
    if (c->name == name) return c;
  }
  return nullptr;
}

std::vector<std::string> config_names() { return {"nv_small", "nv_large", "nv_full"}; }

}  // namespace dla::golden
