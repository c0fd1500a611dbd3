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

const HwConfig& nv_small() {
  static const HwConfig k{"nv_small", 8, 8, false, 8, 64};
  return k;
}

const HwConfig& nv_full() {
  static const HwConfig k{"nv_full", 64, 16, true, 32, 512};
  return k;
}

const HwConfig* find_config(std::string_view name) {
  if (name == "nv_small") return &nv_small();
  if (name == "nv_full") return &nv_full();
  return nullptr;
}

std::vector<std::string> config_names() { return {"nv_small", "nv_full"}; }

}  // namespace dla::golden
