// `dlacosim bench cdp --json`: the CDP RTL's rate from memory (engines/cdp/harness/cdp_bench.cpp), its
// figures against the cube it runs and NVDLA's rate (docs/PERFORMANCE.md "CDP").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

using dla::test::Cmd;
using dla::test::dlacosim;

TEST_CASE("bench cdp --json: five cases whose figures agree with the cube and NVDLA's rate", "[cli][bench][cdp]") {
  // --ops 4096: a 64 x 1 x 64 cube, 4096 elements in every configuration (64 channels fill whole
  // atoms: 8 x 8 int8 on nv_small, 2 x 32 int8 / 4 x 16 int16 or fp16 on nv_large and nv_full)
  const Cmd c = dlacosim("bench cdp --ops 4096 --json", false);
  INFO(c.out);
  REQUIRE(c.exit == 0);
  const auto a = nlohmann::json::parse(c.out);
  REQUIRE(a.is_array());
  REQUIRE(a.size() == 5);
  CHECK(a.at(4).at("case") == "memory lrn5 fp16");
  for (const auto& o : a) {
    INFO(o.dump());
    CHECK(o.at("unit") == "cdp");
    CHECK(o.at("status") == "PASS");
    const auto cycles = o.at("cycles").get<uint64_t>();
    const auto elements = o.at("elements").get<uint64_t>();
    CHECK(elements == 4096);
    REQUIRE(cycles > 0);
    CHECK(o.at("elements_per_cycle").get<double>() == Approx(double(elements) / double(cycles)).epsilon(1e-12));
    const bool small = o.at("config") == "nv_small";
    // CDP_THROUGHPUT; the memory term (64 or 32 bytes per cycle over 2 or 4 bytes per element)
    // is above it everywhere
    CHECK(o.at("nvdla_elements_per_cycle").get<double>() == (small ? 1.0 : 8.0));
    const std::string name = o.at("case").get<std::string>();
    const uint64_t bpe = name.find("int16") != std::string::npos || name.find("fp16") != std::string::npos ? 2 : 1;
    CHECK(o.at("dma_bytes_read").get<uint64_t>() == elements * bpe);
    CHECK(o.at("dma_bytes_written").get<uint64_t>() == elements * bpe);
    // the datapath takes a beat per cycle once running: at most the programming (~360 CSB writes)
    // and the pipeline fill above elements / throughput
    CHECK(cycles >= elements / (small ? 1 : 8));
    CHECK(cycles <= elements / (small ? 1 : 8) + 600);
  }
}
