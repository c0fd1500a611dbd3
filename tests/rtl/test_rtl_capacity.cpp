// The conv RTL keeps its input in a fixed half of CBUF (docs/CONV_RTL.md). A register program whose
// input fits NVDLA's banks (D_BANK may give the input up to 31 of nv_small's 32 banks) but not that
// half must be refused with a reason when CDMA is enabled, never computed wrong.
#include <catch2/catch.hpp>

#include "golden/config.hpp"
#include "golden/conv.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_devices.hpp"
#include "units/conv.hpp"

using namespace dla::harness;
namespace golden = dla::golden;

namespace {

// Writes the convolution blocks' D_ groups for an H-line 128 x H x 8 int8 input, then CDMA's
// D_OP_ENABLE; returns the refusal's text ("" when accepted).
std::string enable_conv(int h) {
  const golden::HwConfig& hw = golden::nv_small();
  golden::ConvParams p;
  p.w = 128;
  p.h = h;
  p.c = 8;
  p.k = 8;
  const golden::ConvConfig c = golden::conv_config_from(p, hw, 0x80000000ull, 0x90000000ull);
  golden::FeatureLayout out = c.in_layout;
  out.base = 0xa0000000ull;
  const units::BlockWords words = units::conv_register_words(c, hw, units::conv_bank_split(c, hw), out);
  std::string why;
  RunOptions o;
  auto dev = make_nvdla_core_device({"CDMA"}, hw, o, why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  for (const auto& [block, regs] : words) {
    const uint32_t base = *db.address(hw.name, *db.find(block + ".S_POINTER")) - db.find(block + ".S_POINTER")->offset;
    for (const auto& [offset, value] : regs) dev->reg_write(base + offset, value);
  }
  try {
    dev->reg_write(*db.address(hw.name, *db.find("CDMA.D_OP_ENABLE")), 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the conv RTL refuses an input larger than its CBUF data half when CDMA is enabled", "[rtl][conv]") {
  // 128 x 100 positions x 1 channel block = 12800 rows: NVDLA holds it in 25 banks (the compiler's
  // bank split), this RTL's data half has 8192 rows.
  const std::string refused = enable_conv(100);
  CHECK_THAT(refused, Catch::Contains("CDMA.D_OP_ENABLE") && Catch::Contains("this RTL refuses the layer") &&
                          Catch::Contains("12800 CBUF rows") && Catch::Contains("8192 data rows"));
  // 128 x 64 = 8192 rows: the whole half, accepted.
  CHECK(enable_conv(64).empty());
}
