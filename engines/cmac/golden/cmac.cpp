#include "engines/cmac/golden/cmac.hpp"

#include <stdexcept>

#include "golden/arith.hpp"

namespace dla::golden {

std::vector<int64_t> cmac_atomic_op(const HwConfig& cfg, Precision p, const CmacWeights& weights,
                                    const std::vector<int32_t>& data) {
  if (p == Precision::Fp16) throw std::invalid_argument("cmac_atomic_op: integer precisions only (fp16: cmac_fp16_cell)");
  const auto kernels = static_cast<std::size_t>(cfg.atomic_k(p));
  if (data.size() != static_cast<std::size_t>(cfg.atomic_c) || weights.size() > kernels) {
    throw std::invalid_argument("cmac_atomic_op: operand shape does not match the configuration");
  }
  std::vector<int64_t> psum(kernels, 0);
  for (std::size_t k = 0; k < weights.size(); ++k) {
    if (weights[k].size() != data.size()) {
      throw std::invalid_argument("cmac_atomic_op: kernel width differs from ATOMIC_C");
    }
    int64_t acc = 0;
    for (std::size_t c = 0; c < data.size(); ++c) {
      acc += int64_t{weights[k][c]} * data[c];
    }
    // The partial-sum width is exact by construction; a value outside it is a model bug.
    if (saturates(acc, cfg.psum_bits(p))) {
      throw std::logic_error("cmac_atomic_op: partial sum exceeds the exact width");
    }
    psum[k] = acc;
  }
  return psum;
}

std::vector<CmacBeat> cmac_run(const HwConfig& cfg, Precision p, const std::vector<CmacStripe>& stripes) {
  std::vector<CmacBeat> beats;
  for (const auto& stripe : stripes) {
    for (std::size_t i = 0; i < stripe.ops.size(); ++i) {
      CmacBeat beat;
      beat.psum = cmac_atomic_op(cfg, p, stripe.weights, stripe.ops[i]);
      beat.stripe_end = i + 1 == stripe.ops.size();
      beat.channel_end = stripe.channel_end;
      beats.push_back(std::move(beat));
    }
  }
  return beats;
}

}  // namespace dla::golden
