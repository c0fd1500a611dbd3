#include "engines/lut/harness/lut_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

namespace dla::harness::engines {

namespace {

constexpr std::array<std::string_view, 2> kLutBlocks{"SDP", "CDP"};

}  // namespace

golden::LutRam& lut_ram(GoldenDevice& d, std::string_view block) {
  if (std::find(kLutBlocks.begin(), kLutBlocks.end(), block) == kLutBlocks.end() || !d.has_block(block)) {
    throw std::out_of_range(fmt::format("golden device: block {} has no LUT", block));
  }
  return d.state<golden::LutRam>(block);
}

std::vector<GoldenDevice::Hooks> lut_golden_hooks() {
  GoldenDevice::Hooks h;
  h.blocks = {kLutBlocks.begin(), kLutBlocks.end()};
  h.write = [](GoldenDevice& d, std::string_view block, const RegDef& r, uint32_t value) {
    if (r.name == "S_LUT_ACCESS_CFG") {
      golden::LutRam& ram = d.state<golden::LutRam>(block);
      (void)ram.cfg_write(value);  // refused while busy: only the sticky error flag changes
      d.set_hw_register(block, r.offset, 0, ram.cfg_read());
      return true;
    }
    if (r.name == "S_LUT_ACCESS_DATA") {
      (void)d.state<golden::LutRam>(block).data_write(value);
      return true;
    }
    return false;
  };
  h.read = [](GoldenDevice& d, std::string_view block, const RegDef& r) -> std::optional<uint32_t> {
    if (r.name == "S_LUT_ACCESS_CFG") return d.state<golden::LutRam>(block).cfg_read();
    if (r.name == "S_LUT_ACCESS_DATA") return d.state<golden::LutRam>(block).data_read();
    return std::nullopt;
  };
  return {h};
}

}  // namespace dla::harness::engines
