// NVDLA's facts that the independent int64 references need, written out here from NVIDIA's spec
// files (nvdla/hw master spec/defs/*.spec MEMORY_ATOMIC_SIZE; nvdlav1's nv_full) rather than read
// from regs/hw_configs.json, so that a wrong value there cannot make golden, RTL and reference
// agree on a wrong layout.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace dla::harness {

// The memory atom in bytes of NVDLA build `config`: the unit of the cube layout's channel groups.
[[nodiscard]] inline int reference_atom_bytes(std::string_view config) {
  if (config == "nv_small" || config == "nv_small_256" || config == "nv_small_256_full") return 8;
  if (config == "nv_medium_512") return 16;
  if (config == "nv_medium_1024_full" || config == "nv_large" || config == "nv_full") return 32;
  throw std::invalid_argument("int64 reference: no memory atom known for configuration " + std::string(config));
}

}  // namespace dla::harness
