// The NVDLA register map, read from the project's copy of the register data
// (regs/nvdla-registers.json, embedded at build time). Everything that names a register — the
// register program, the .cfg importer, drivers — resolves it here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dla::harness {

struct RegField {
  std::string name;
  int lsb = 0;
  int msb = 0;
  std::string access;  // r, w, rw
  std::map<std::string, uint32_t, std::less<>> enums;  // the RDL's named values (IDLE, INT16, ...)
  [[nodiscard]] uint32_t mask() const {
    const int w = msb - lsb + 1;
    return (w >= 32 ? 0xffffffffu : ((1u << w) - 1u)) << lsb;
  }
};

struct RegDef {
  std::string block;
  std::string name;
  uint32_t offset = 0;
  bool dual = false;  // D_* register: one copy per register group
  uint32_t reset = 0;
  std::string extension;  // not empty: this project's register, absent from NVDLA (what it is for)
  std::vector<RegField> fields;
  [[nodiscard]] const RegField* field(std::string_view name) const;
  [[nodiscard]] uint32_t writable_mask() const;
  // The named value `value` of field `field` (the RDL's enum), nullopt when either is unknown.
  [[nodiscard]] std::optional<uint32_t> enum_value(std::string_view field, std::string_view value) const;
};

struct RegBlock {
  std::string name;
  uint32_t base_small = 0;              // master (nv_small family) base
  std::optional<uint32_t> base_full;    // nvdlav1 (nv_full) base
  std::map<std::string, RegDef, std::less<>> regs;
};

class RegDb {
 public:
  static const RegDb& nvdla();

  [[nodiscard]] const RegBlock* block(std::string_view name) const;
  // Accepts "BLOCK.REG", "NVDLA_BLOCK.REG_0" (trace style) and lower case.
  [[nodiscard]] const RegDef* find(std::string_view qualified) const;
  // Byte address of a register in a configuration's CSB space (nv_small or nv_full bases).
  [[nodiscard]] std::optional<uint32_t> address(std::string_view config, const RegDef& reg) const;
  // Register at a byte address in a configuration's CSB space.
  [[nodiscard]] const RegDef* at_address(std::string_view config, uint32_t addr) const;
  [[nodiscard]] std::vector<std::string> block_names() const;
  // Base of a block in a configuration's CSB space; nullopt where the configuration has no such
  // block (nvdlav1's map has no CFGROM; master's configurations compile BDMA out).
  [[nodiscard]] std::optional<uint32_t> block_base(std::string_view config, const RegBlock& b) const;

 private:
  RegDb();
  std::map<std::string, RegBlock, std::less<>> blocks_;
};

}  // namespace dla::harness
