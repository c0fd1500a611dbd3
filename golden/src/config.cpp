#include "golden/config.hpp"

#include <bit>
#include <span>
#include <stdexcept>

namespace dla::golden {

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::Int8: return "int8";
    case Precision::Int16: return "int16";
    case Precision::Fp16: return "fp16";
  }
  return "?";
}

std::string_view precision_code_name(uint32_t code) {
  for (const Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
    if (precision_code(p) == code) return precision_name(p);
  }
  return "reserved";
}

std::optional<Precision> parse_precision(std::string_view name) {
  if (name == "int8") return Precision::Int8;
  if (name == "int16") return Precision::Int16;
  if (name == "fp16") return Precision::Fp16;
  return std::nullopt;
}

int HwConfig::psum_bits(Precision p) const {
  return 2 * bits_per_element(p) + std::countr_zero(static_cast<unsigned>(atomic_c));
}

namespace {

// Every configuration of regs/hw_configs.json, in its order (generated: tools/hw_configs.cmake).
std::span<const HwConfig> all_configs() {
  static const HwConfig k[] = {
#include "hw_configs.inc"
  };
  return k;
}

const HwConfig& named(std::string_view name) {
  const HwConfig* c = find_config(name);
  if (c == nullptr) throw std::logic_error(std::string("regs/hw_configs.json has no configuration ") + std::string(name));
  return *c;
}

}  // namespace

const HwConfig& nv_small() {
  static const HwConfig& k = named("nv_small");
  return k;
}
const HwConfig& nv_large() {
  static const HwConfig& k = named("nv_large");
  return k;
}
const HwConfig& nv_full() {
  static const HwConfig& k = named("nv_full");
  return k;
}

const HwConfig* find_config(std::string_view name) {
  for (const HwConfig& c : all_configs()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::vector<std::string> config_names() {
  std::vector<std::string> v;
  for (const HwConfig& c : all_configs()) v.push_back(c.name);
  return v;
}

std::string ram_type_problem(const HwConfig& hw, bool mc, std::string_view reg) {
  if (mc || hw.secondary_memif) return "";
  return std::string(reg) + " = 0 selects the secondary memory interface (CV-SRAM), which " + hw.name +
         " lacks (its spec: SECONDARY_MEMIF_DISABLE); 1 (MC) is its only memory";
}

std::string config_names_text() {
  std::string s;
  for (const HwConfig& c : all_configs()) s += (s.empty() ? "" : ", ") + c.name;
  return s;
}

}  // namespace dla::golden
