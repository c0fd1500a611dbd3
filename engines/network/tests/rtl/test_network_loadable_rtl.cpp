// `dlacosim compile NET.json --loadable` on the RTL: bundled networks exported as loadables and
// run in cross mode (golden and the RTL, every op's output compared at its interrupt, the output
// tensor's memory compared) with their own input values bound, plain and under three of the stress
// matrix's legs each (rotating: every four networks meet all ten). The
// golden model's round trip against the JSON path: tests/harness (test_network_loadable.cpp).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/test_paths.hpp"
#include "cross_stress.hpp"
#include "engines/network/harness/network.hpp"
#include "harness/layer.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("dlacosim-export-rtl-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace

TEST_CASE("loadable export: bundled networks run as loadables on the RTL equal golden at every op",
          "[network][loadable][rtl]") {
  std::size_t item = 0;
  const fs::path bundled = fs::path(DLA_SOURCE_DIR) / "testvectors/networks";
  // fused_pool_reuse: group 1 enabled before group 0 (a fused chain enabled downstream first),
  // with CBUF data reuse in group 1; fp16_export: fp16 with an average pool (docs/LOADABLES.md
  // "Export").
  for (const fs::path& path : {bundled / "resnet_block.json", bundled / "inception.json", bundled / "mlp_batch.json",
                               bundled / "alexnet_lrn.json", bundled / "lrn_pair.json", bundled / "lenet5.json",
                               bundled / "resnet18_stem.json", bundled / "lenet5_fused.json", bundled / "yolo_tiny.json",
                               bundled / "dense_block.json", bundled / "decoder.json",
                               fs::path(DLA_SOURCE_DIR) / "tests/data/networks/fused_pool_reuse.json",
                               fs::path(DLA_SOURCE_DIR) / "tests/data/networks/fp16_export.json"}) {
    const std::string name = path.stem().string();
    INFO(name);
    const LoadedLayer l = load_layer(path);
    const engines::CompiledNetwork cn = engines::compile_network(l.header, l.root());
    const std::vector<uint8_t> bytes = loadable::serialize_loadable(engines::export_loadable(cn, l.header));
    const fs::path file = temp_path(name + ".nvdla");
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    loadable::LoadableRunOptions lo;
    std::vector<fs::path> files{file};
    for (const auto& [tensor, raw] : engines::loadable_inputs(cn)) {
      files.push_back(temp_path(name + "-" + tensor + ".raw"));
      std::ofstream(files.back(), std::ios::binary).write(reinterpret_cast<const char*>(raw.data()),
                                                          static_cast<std::streamsize>(raw.size()));
      lo.inputs.push_back({tensor, files.back()});
    }
    std::vector<RunOptions> legs = cross_stress::legs_for(item++);
    RunOptions plain;
    plain.mode = "cross";
    plain.seed = 7;
    plain.stall = 0.0;
    legs.insert(legs.begin(), plain);
    for (RunOptions o : legs) {
      o.config = l.header.config->name;
      INFO("seed " << o.seed.value_or(1) << " stall " << o.stall.value_or(0) << " rand-reset " << o.sim.rand_reset
                   << " bandwidth " << o.mem.bandwidth);
      const RunResult r = loadable::run_loadable(file, o, lo);
      CHECK(r.status == Status::Pass);
      INFO(r.message);
      CHECK(r.cycles > 0);
    }
    for (const auto& f : files) fs::remove(f);
  }
}
