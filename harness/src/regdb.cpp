#include "harness/regdb.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "golden/config.hpp"

namespace dla::harness {

// Generated from regs/nvdla-registers.json (see harness/CMakeLists.txt).
extern const char* const kNvdlaRegistersJson;

const RegField* RegDef::field(std::string_view n) const {
  for (const auto& f : fields) {
    if (f.name == n) return &f;
  }
  return nullptr;
}

std::optional<uint32_t> RegDef::enum_value(std::string_view f, std::string_view value) const {
  const RegField* rf = field(f);
  if (rf == nullptr) return std::nullopt;
  const auto it = rf->enums.find(value);
  if (it == rf->enums.end()) return std::nullopt;
  return it->second;
}

uint32_t RegDef::writable_mask() const {
  uint32_t m = 0;
  for (const auto& f : fields) {
    if (f.access.find('w') != std::string::npos) m |= f.mask();
  }
  return m;
}

RegDb::RegDb() {
  const auto j = nlohmann::json::parse(kNvdlaRegistersJson);
  const auto& full = j.at("nvdlav1_bases");
  for (const auto& [bname, b] : j.at("blocks").items()) {
    RegBlock blk;
    blk.name = bname;
    blk.base_small = b.at("base").get<uint32_t>();
    if (full.contains(bname)) blk.base_full = full.at(bname).at("base").get<uint32_t>();
    for (const auto& [rname, r] : b.at("registers").items()) {
      RegDef def;
      def.block = bname;
      def.name = rname;
      def.offset = r.at("offset").get<uint32_t>();
      def.reset = r.value("reset", 0u);
      def.dual = r.value("group", std::string{}) == "dual";
      def.extension = r.value("extension", std::string{});
      for (const auto& [fname, f] : r.at("fields").items()) {
        RegField field{fname, f.at("lsb").get<int>(), f.at("msb").get<int>(), f.value("access", "rw"), {}};
        if (f.contains("enums")) {
          for (const auto& [ename, v] : f.at("enums").items()) field.enums.emplace(ename, v.get<uint32_t>());
        }
        def.fields.push_back(std::move(field));
      }
      blk.regs.emplace(rname, std::move(def));
    }
    blocks_.emplace(bname, std::move(blk));
  }
}

const RegDb& RegDb::nvdla() {
  static const RegDb db;
  return db;
}

const RegBlock* RegDb::block(std::string_view name) const {
  const auto it = blocks_.find(name);
  return it == blocks_.end() ? nullptr : &it->second;
}

const RegDef* RegDb::find(std::string_view qualified) const {
  std::string q(qualified);
  std::transform(q.begin(), q.end(), q.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (q.rfind("NVDLA_", 0) == 0) q = q.substr(6);
  const auto dot = q.find('.');
  if (dot == std::string::npos) return nullptr;
  const RegBlock* b = block(std::string_view(q).substr(0, dot));
  if (b == nullptr) return nullptr;
  std::string reg = q.substr(dot + 1);
  if (const auto it = b->regs.find(reg); it != b->regs.end()) return &it->second;
  // Trace files append "_0" to every register name.
  if (reg.size() > 2 && reg.ends_with("_0")) {
    reg.resize(reg.size() - 2);
    if (const auto it = b->regs.find(reg); it != b->regs.end()) return &it->second;
  }
  return nullptr;
}

namespace {

// Whether a configuration decodes the CSB with nvdlav1's block bases (else master's).
bool nvdlav1_map(std::string_view config) {
  const golden::HwConfig* c = golden::find_config(config);
  return c != nullptr && c->nvdlav1_map;
}

}  // namespace

// Blocks NVDLA's master configurations (nv_small, nv_large) compile out although master's map has
// a base for them (reference pdp-cdp-bdma-rubik.md §4: their done sources are tied to 0).
constexpr std::string_view kMasterAbsent[] = {"BDMA", "RBK"};

std::optional<uint32_t> RegDb::block_base(std::string_view config, const RegBlock& b) const {
  if (nvdlav1_map(config)) return b.base_full;
  for (const std::string_view a : kMasterAbsent) {
    if (b.name == a) return std::nullopt;
  }
  return b.base_small;
}

std::optional<uint32_t> RegDb::address(std::string_view config, const RegDef& reg) const {
  const RegBlock* b = block(reg.block);
  if (b == nullptr) return std::nullopt;
  const std::optional<uint32_t> base = block_base(config, *b);
  if (!base) return std::nullopt;
  return *base + reg.offset;
}

const RegDef* RegDb::at_address(std::string_view config, uint32_t addr) const {
  for (const auto& [name, b] : blocks_) {
    const std::optional<uint32_t> base = block_base(config, b);
    if (!base || addr < *base || addr >= *base + 0x1000) continue;
    for (const auto& [rname, r] : b.regs) {
      if (r.offset == addr - *base) return &r;
    }
  }
  return nullptr;
}

std::vector<std::string> RegDb::block_names() const {
  std::vector<std::string> out;
  for (const auto& [name, b] : blocks_) out.push_back(name);
  return out;
}

}  // namespace dla::harness
