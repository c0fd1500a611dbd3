// Compressed weights on the RTL (docs/CDMA_MODES.md §2 and "RTL"): every bundled sparse layer of
// testvectors/layers/sparse/ in cross mode -- the RTL's output equal to the golden model's byte for
// byte, the golden model itself judged by the int64 reference of
// engines/conv/tests/harness/test_conv_modes_layers.cpp -- under three of the ten stress legs each, rotating
// (every leg for every layer in the "[.long]" case); and a 50 % sparse layer whose DMA reads are
// the packed stream plus the mask bits, against its uncompressed twin, bytes hand-calculated.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "cross_stress.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dla::harness;  // NOLINT(google-build-using-namespace)

// nv_full int8, input 8 x 8 x 64, 32 kernels 3x3 pad 1; weight element i (the JSON's order) is
// non-zero exactly when i is even: 32 x 9 x 64 = 18432 elements, 9216 non-zero.
RunResult run_half_sparse(bool compressed) {
  std::string values;
  for (int i = 0; i < 32 * 9 * 64; ++i) {
    values += (i == 0 ? "" : ",") + std::to_string(i % 2 == 0 ? 1 + (i * 37) % 101 : 0);
  }
  const std::string doc = R"({"unit":"conv","config":"nv_full","seed":5,"input":{"w":8,"h":8,"c":64,"data":{"random":{}}},
    "weights":{"k":32,"r":3,"s":3,"compressed":)" +
                          std::string(compressed ? "true" : "false") + R"(,"data":{"values":[)" + values + R"(]}},
    "padding":{"left":1,"right":1,"top":1,"bottom":1},"clip":9})";
  const fs::path f = fs::temp_directory_path() / (std::string("dla_half_sparse_") + (compressed ? "c" : "u") + ".json");
  std::ofstream(f) << doc;
  RunOptions o = cross_stress::options()[0];
  o.stall = 0.0;
  const RunResult r = run_layer(f, o);
  fs::remove(f);
  return r;
}

}  // namespace

TEST_CASE("every bundled sparse layer runs on the RTL equal to golden under stress", "[rtl][conv][compress]") {
  cross_stress::run_bundled_layers("sparse", 7, true);
}

TEST_CASE("every bundled sparse layer runs on the RTL equal to golden under every stress leg",
          "[rtl][conv][compress][.long]") {
  cross_stress::run_bundled_layers("sparse", 7);
}

TEST_CASE("a 50 percent sparse layer compressed reads the packed stream and the mask bits instead of the weights",
          "[rtl][conv][compress]") {
  const RunResult u = run_half_sparse(false);
  const RunResult c = run_half_sparse(true);
  INFO(format_run(u) << "\n" << format_run(c));
  REQUIRE(u.status == Status::Pass);
  REQUIRE(c.status == Status::Pass);
  REQUIRE(u.dma.has_value());
  REQUIRE(c.dma.has_value());
  // Hand: the input 8 x 8 positions x 64 bytes = 4096; uncompressed weights 18432 bytes (a 128
  // multiple); compressed: 9216 packed bytes and 18432 / 8 = 2304 mask bytes (both 128
  // multiples); WGS is not read (the loader's pointers find each group's start).
  CHECK(u.dma->bytes_read == 4096 + 18432);
  CHECK(c.dma->bytes_read == 4096 + 9216 + 2304);
}
