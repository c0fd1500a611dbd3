// NVIDIA's trace tests of the NVDLA builds modeled beyond the three the engines' own trace tests
// cover: every trace of the build's folder on the golden model of that build, NVIDIA's CRC.
#include <catch2/catch.hpp>

#include "golden/config.hpp"
#include "golden_traces.hpp"

using dla::harness::testing::check_golden_traces;

namespace {

// Every trace of build `name`'s folder (`count` of them) on its golden model, after checking the
// build's geometry from NVIDIA's spec file: atomic C and memory atom in bytes, atoms per CBUF entry.
void check_build(const char* name, int atomic_c, int atom, int atoms_per_entry, std::size_t count) {
  const auto* hw = dla::golden::find_config(name);
  REQUIRE(hw != nullptr);
  CHECK(hw->atomic_c == atomic_c);
  CHECK(hw->atom_bytes == atom);
  CHECK(hw->cbuf_entry_bytes / hw->atom_bytes == atoms_per_entry);
  check_golden_traces(name, *hw, {"cdp_", "dc_", "img_", "pdp_", "sdp_"}, count);
}

}  // namespace

TEST_CASE("every nv_small_256 trace reproduces NVIDIA's CRC on the golden model", "[traces][builds]") {
  check_build("nv_small_256", 32, 8, 4, 84);
}

TEST_CASE("every nv_medium_512 trace reproduces NVIDIA's CRC on the golden model", "[traces][builds]") {
  check_build("nv_medium_512", 32, 16, 2, 4);
}

namespace {

// The trace `name` of nv_small_256 with register BLOCK.REG's written value set to `value`.
dla::harness::Program with_write(const std::string& name, const std::string& block, const std::string& reg,
                                 uint32_t value) {
  const auto cfg = dla::harness::testing::kTraces / "nv_small_256" / name / (name + ".cfg");
  dla::harness::Program p = dla::harness::import_nvdla_cfg(cfg, "nv_small_256");
  int changed = 0;
  for (auto& st : p.steps) {
    if (st.op == dla::harness::StepOp::RegWrite && st.reg->block == block && st.reg->name == reg) {
      st.value = value;
      ++changed;
    }
  }
  REQUIRE(changed >= 1);
  return p;
}

}  // namespace

// NVDLA's spec gives nv_small, nv_small_256 and nv_medium_512 no secondary memory interface
// (SECONDARY_MEMIF_DISABLE): a DMA whose RAM_TYPE selects CV-SRAM is refused there, with the
// register and the reason; nv_small_256_full, the same CBUF and MAC with the interface, runs the
// same program (one address space here) to NVIDIA's CRC.
TEST_CASE("a DMA on CV-SRAM is refused on builds without the secondary memory interface", "[traces][builds]") {
  struct Case {
    const char* trace;
    const char* block;
    const char* reg;
    uint32_t value;
  };
  for (const Case& c : {Case{"dc_6x8x192_3x3x192x32_int8_0", "CDMA", "D_DAIN_RAM_TYPE", 0},
                        Case{"dc_6x8x192_3x3x192x32_int8_0", "CDMA", "D_WEIGHT_RAM_TYPE", 0},
                        Case{"pdp_8x8x64_2x2_ave_int8_0", "PDP", "D_DST_RAM_CFG", 0},
                        Case{"pdp_8x8x64_2x2_ave_int8_0", "PDP_RDMA", "D_SRC_RAM_CFG", 0},
                        Case{"cdp_8x8x64_lrn3_int8_0", "CDP", "D_DST_DMA_CFG", 0},
                        Case{"cdp_8x8x64_lrn3_int8_0", "CDP_RDMA", "D_SRC_DMA_CFG", 0},
                        Case{"sdp_8x8x32_bypass_int8_0", "SDP", "D_DST_DMA_CFG", 0},
                        Case{"sdp_8x8x32_bypass_int8_0", "SDP_RDMA", "D_SRC_DMA_CFG", 0}}) {
    DYNAMIC_SECTION(c.trace << " " << c.block << "." << c.reg) {
      const dla::harness::Program p = with_write(c.trace, c.block, c.reg, c.value);
      dla::harness::RunOptions o;
      o.mode = "golden";
      const auto r = dla::harness::run_program_in_mode(p, *dla::golden::find_config("nv_small_256"), o);
      INFO(r.message);
      CHECK(r.status != dla::harness::Status::Pass);
      CHECK_THAT(r.message, Catch::Contains(std::string(c.block) + " " + c.reg) &&
                                Catch::Contains("secondary memory interface") &&
                                Catch::Contains("nv_small_256 lacks"));
      const auto full = dla::harness::run_program_in_mode(p, *dla::golden::find_config("nv_small_256_full"), o);
      INFO(full.message);
      CHECK(full.status == dla::harness::Status::Pass);
      REQUIRE_FALSE(full.compares.empty());
      CHECK(full.compares.back().crc_actual == full.compares.back().crc_expected);
    }
  }
}
