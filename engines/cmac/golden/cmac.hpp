// CMAC atomic operation model: one 1x1xATOMIC_C data atom against every loaded kernel.
// Written from ../shared/reference/nvdla-arithmetic.md §3: each kernel's result is the exact dot
// product over ATOMIC_C channels; kernels without weights produce 0.
#pragma once

#include <cstdint>
#include <vector>

#include "golden/config.hpp"

namespace dla::golden {

// The weights of one stripe: weights[k][c] for the loaded kernels k < weights.size().
using CmacWeights = std::vector<std::vector<int32_t>>;

// Partial sums for kernels 0 .. atomic_k(p)-1; kernels beyond weights.size() are 0.
// data.size() and every weights[k].size() must equal cfg.atomic_c. Integer precisions; fp16's
// cell is engines/cmac/golden/cmac_fp16.hpp.
[[nodiscard]] std::vector<int64_t> cmac_atomic_op(const HwConfig& cfg, Precision p,
                                                  const CmacWeights& weights,
                                                  const std::vector<int32_t>& data);

// A stream of stripes as the array sees it: each stripe loads a weight set, then runs `ops`
// atomic operations with it.
struct CmacStripe {
  CmacWeights weights;                    // [kernel][channel]
  std::vector<std::vector<int32_t>> ops;  // [op][channel]
  bool channel_end = false;               // tag every op of the stripe as the channel's last pass
};

struct CmacBeat {
  std::vector<int64_t> psum;  // one per kernel (atomic_k)
  bool stripe_end = false;
  bool channel_end = false;
  bool operator==(const CmacBeat&) const = default;
};

[[nodiscard]] std::vector<CmacBeat> cmac_run(const HwConfig& cfg, Precision p,
                                             const std::vector<CmacStripe>& stripes);

}  // namespace dla::golden
