// Golden BDMA. Every expected value is worked by hand from ../shared/reference/pdp-cdp-bdma-rubik.md
// §5 and the programming guide's BDMA section (the working is in the comments), never taken from
// the code under test.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>

#include "engines/bdma/golden/bdma.hpp"

using namespace dla::golden;
namespace r = dla::golden::bdma_reg;

namespace {

// A byte memory: unwritten bytes read 0xee.
struct Mem {
  std::map<uint64_t, uint8_t> b;
  [[nodiscard]] uint8_t at(uint64_t a) const {
    const auto it = b.find(a);
    return it == b.end() ? 0xee : it->second;
  }
  ByteReader reader() const {
    return [this](uint64_t a) { return at(a); };
  }
  ByteWriter writer() {
    return [this](uint64_t a, uint8_t v) { b[a] = v; };
  }
};

void stage(BdmaEngine& e, const BdmaCommand& c) {
  const auto regs = c.registers();
  for (std::size_t i = 0; i < regs.size(); ++i) (void)e.write(static_cast<uint32_t>(4 * i), regs[i]);
}

BdmaCommand one_line(uint64_t src, uint64_t dst, uint64_t bytes = 32) {
  BdmaCommand c;
  c.src = src;
  c.dst = dst;
  c.line_bytes = bytes;
  c.dst_mc = c.src_mc = true;
  return c;
}

}  // namespace

TEST_CASE("bdma: register encoding of a command", "[golden][bdma]") {
  BdmaCommand c;
  c.src = 0x12'3456'7820;  // 40-bit address: HIGH = 0x12, LOW = 0x34567820
  c.dst = 0x40;
  c.line_bytes = 96;  // SIZE = 96 / 32 - 1 = 2
  c.lines = 3;        // NUMBER = 2
  c.surfaces = 2;     // NUMBER = 1
  c.src_line = 0x100;
  c.dst_line = 0x80;
  c.src_surf = 0x400;
  c.dst_surf = 0x200;
  c.src_mc = true;
  const auto v = c.registers();
  CHECK(v[0] == 0x34567820u);
  CHECK(v[1] == 0x12u);
  CHECK(v[2] == 0x40u);
  CHECK(v[4] == 2u);
  CHECK(v[5] == 1u);  // SRC_RAM_TYPE MC, DST_RAM_TYPE CVSRAM
  CHECK(v[6] == 2u);
  CHECK(v[9] == 1u);
  CHECK(c.bytes() == 96u * 3 * 2);
}

TEST_CASE("bdma: decode ignores the low 5 address and stride bits and keeps 40-bit addresses", "[golden][bdma]") {
  std::array<uint32_t, r::kStagingRegs> v{};
  v[0] = 0x1000'001f;  // low 5 bits do not exist: 0x10000000
  v[1] = 0xffff'ff01;  // ADDR_HIGH[7:0] = 0x01
  v[2] = 0x2000'0007;
  v[4] = 0;            // one 32-byte unit
  v[6] = 0x0000'0001;  // 2 lines
  v[7] = 0x0000'005f;  // src line stride 0x40
  v[8] = 0x0000'0021;  // dst line stride 0x20
  const BdmaCommand c = BdmaCommand::decode(v);
  CHECK(c.src == 0x1'1000'0000u);
  CHECK(c.dst == 0x2000'0000u);
  CHECK(c.line_bytes == 32u);
  CHECK(c.lines == 2);
  CHECK(c.surfaces == 1);
  CHECK(c.src_line == 0x40u);
  CHECK(c.dst_line == 0x20u);
}

TEST_CASE("bdma: copy with line and surface repeats and strides", "[golden][bdma]") {
  // 2 surfaces x 2 lines of 32 bytes. Source: line stride 0x40, surface stride 0x100 from 0x1000;
  // destination packed: line stride 0x20, surface stride 0x40 from 0x8000. Source byte at
  // 0x1000 + s*0x100 + l*0x40 + i holds (s*64 + l*32 + i) & 0xff.
  Mem m;
  for (int s = 0; s < 2; ++s) {
    for (int l = 0; l < 2; ++l) {
      for (int i = 0; i < 32; ++i) m.b[0x1000 + s * 0x100 + l * 0x40 + i] = static_cast<uint8_t>(s * 64 + l * 32 + i);
    }
  }
  BdmaCommand c = one_line(0x1000, 0x8000);
  c.lines = 2;
  c.surfaces = 2;
  c.src_line = 0x40;
  c.src_surf = 0x100;
  c.dst_line = 0x20;
  c.dst_surf = 0x40;
  bdma_copy(c, m.reader(), m.writer());
  for (int k = 0; k < 128; ++k) CHECK(m.at(0x8000 + k) == k);  // packed: 0..127 in order
  CHECK(m.at(0x8080) == 0xee);                                   // nothing past the region
  CHECK(m.at(0x7fff) == 0xee);
  // The source's stride gaps are not copied: 0x1020..0x103f was never written, and is not read into
  // the destination (destination bytes 32..63 come from 0x1040..).
  CHECK(m.at(0x8020) == 32);
}

TEST_CASE("bdma: FIFO slots, launch groups, busy and idle", "[golden][bdma]") {
  BdmaEngine e;
  // Reset: FREE_SLOT 20 (0x14), IDLE 1 -> 0x114 (the register's reset value).
  CHECK(e.read(r::kStatus) == 0x114u);
  stage(e, one_line(0x1000, 0x2000));
  CHECK_FALSE(e.write(r::kOp, 1).has_value());
  CHECK_FALSE(e.write(r::kOp, 1).has_value());  // the same staging twice
  // Two commands pending, not launched: FREE_SLOT 18, not idle, no group busy -> 0x12.
  CHECK(e.read(r::kStatus) == 0x12u);
  CHECK_FALSE(e.write(r::kOp, 0).has_value());  // EN = 0 pushes nothing
  CHECK(e.read(r::kStatus) == 0x12u);
  auto b = e.write(r::kLaunch1, 1);
  REQUIRE(b.has_value());
  CHECK(b->group == 1);
  CHECK(b->commands.size() == 2);
  // Launched (golden: executed at once, slots free), group 1 busy until its interrupt:
  // FREE_SLOT 20 | GRP1_BUSY (bit 10) = 0x414.
  CHECK(e.read(r::kStatus) == 0x414u);
  stage(e, one_line(0x3000, 0x4000));
  (void)e.write(r::kOp, 1);
  b = e.write(r::kLaunch0, 1);
  REQUIRE(b.has_value());
  CHECK(b->group == 0);
  CHECK(b->commands.size() == 1);
  CHECK(b->commands[0].src == 0x3000u);
  CHECK(e.read(r::kStatus) == 0x614u);  // both busy
  e.release_group(1);
  CHECK(e.read(r::kStatus) == 0x214u);
  e.release_group(0);
  CHECK(e.read(r::kStatus) == 0x114u);
  // Staging reads back the defined bits; triggers read 0.
  CHECK(e.read(r::kSrcAddrLow) == 0x3000u);
  CHECK(e.read(r::kOp) == 0u);
  CHECK(e.read(r::kGrp0ReadStall) == 0u);
}

TEST_CASE("bdma: refusals", "[golden][bdma]") {
  BdmaEngine e;
  stage(e, one_line(0x1000, 0x2000));
  SECTION("launch with no command") { CHECK_THROWS_WITH(e.write(r::kLaunch0, 1), Catch::Contains("no command pushed")); }
  SECTION("a 21st command into a full FIFO") {
    for (int i = 0; i < 20; ++i) (void)e.write(r::kOp, 1);
    CHECK(e.read(r::kStatus) == 0u);  // FREE_SLOT 0, not idle, no group busy
    CHECK_THROWS_WITH(e.write(r::kOp, 1), Catch::Contains("FIFO full"));
    // The 20 commands are intact and launch as one group.
    const auto b = e.write(r::kLaunch0, 1);
    REQUIRE(b.has_value());
    CHECK(b->commands.size() == 20);
  }
  SECTION("a second launch of a busy group") {
    (void)e.write(r::kOp, 1);
    REQUIRE(e.write(r::kLaunch0, 1).has_value());
    (void)e.write(r::kOp, 1);
    CHECK_THROWS_WITH(e.write(r::kLaunch0, 1), Catch::Contains("group 0 is busy"));
    e.release_group(0);
    CHECK(e.write(r::kLaunch0, 1).has_value());
  }
  SECTION("a command while both groups are busy") {
    (void)e.write(r::kOp, 1);
    REQUIRE(e.write(r::kLaunch0, 1).has_value());
    (void)e.write(r::kOp, 1);
    REQUIRE(e.write(r::kLaunch1, 1).has_value());
    CHECK_THROWS_WITH(e.write(r::kOp, 1), Catch::Contains("both groups are busy"));
  }
  SECTION("reserved repeat bits") {
    (void)e.write(r::kLineRepeat, 0x2000);  // NUMBER[13] is reserved
    CHECK_THROWS_WITH(e.write(r::kOp, 1), Catch::Contains("CFG_LINE_REPEAT"));
    CHECK(e.read(r::kStatus) == 0x114u);  // nothing was pushed
  }
  SECTION("mixed destination RAM types in one group") {
    (void)e.write(r::kOp, 1);
    (void)e.write(r::kCmd, 1);  // DST_RAM_TYPE CVSRAM
    (void)e.write(r::kOp, 1);
    CHECK_THROWS_WITH(e.write(r::kLaunch0, 1), Catch::Contains("DST_RAM_TYPE"));
  }
}
