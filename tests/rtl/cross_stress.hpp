// The RTL tests' stress matrix, in one place: cross mode (golden and RTL, compared) at 3
// back-pressure seeds x rand-reset 0/1/2, stall probability 0.3 on every handshake, plus one
// slow-memory leg: DMA read latency 64..256 cycles and 4 bytes/cycle of bandwidth (half an
// nv_small beat, an eighth of an nv_full one per cycle; docs/CLI.md "Memory model options").
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/json_reader.hpp"
#include "harness/layer.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/report.hpp"
#include "harness/rng.hpp"
#include "harness/rtl_factory.hpp"

namespace cross_stress {

inline std::vector<dla::harness::RunOptions> options() {
  std::vector<dla::harness::RunOptions> out;
  auto leg = [&](uint64_t seed, int rr) -> dla::harness::RunOptions& {
    dla::harness::RunOptions o;
    o.mode = "cross";
    o.seed = seed;
    o.stall = 0.3;
    o.sim.seed = seed;
    o.sim.rand_reset = rr;
    o.sim.watchdog = 200000;
    out.push_back(o);
    return out.back();
  };
  for (const uint64_t seed : {11u, 22u, 33u}) {
    for (const int rr : {0, 1, 2}) leg(seed, rr);
  }
  dla::harness::RunOptions& slow = leg(44, 2);
  slow.mem.latency_min = 64;
  slow.mem.latency_max = 256;
  slow.mem.bandwidth = 4;
  return out;
}

// CI's share of the matrix for the `item`-th of a test's many layers: three of the ten legs,
// rotating (item i gets legs 3i, 3i+1 and 3i+2, mod 10), so that every four consecutive layers
// together meet every leg. For the tests whose full matrix (every layer under every leg) costs
// minutes; each keeps that as a hidden "[.long]" test case.
inline std::vector<dla::harness::RunOptions> legs_for(std::size_t item) {
  const std::vector<dla::harness::RunOptions> all = options();
  std::vector<dla::harness::RunOptions> out;
  for (std::size_t k = 0; k < 3; ++k) out.push_back(all[(3 * item + k) % all.size()]);
  return out;
}

// Every bundled layer of testvectors/layers/<folder> (at least `min_files`; only the files whose
// name starts with `prefix`) in cross mode under every leg (`rotate`: CI's share, legs_for(i) for
// the i-th file): passes, and the RTL's output equals the golden model's byte for byte.
inline void run_bundled_layers(const std::string& folder, std::size_t min_files, bool rotate = false,
                               const std::string& prefix = {}) {
  namespace fs = std::filesystem;
  using namespace dla::harness;
  const fs::path dir = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / folder;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json" && e.path().filename().string().starts_with(prefix)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= min_files);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& f = files[i];
    for (const RunOptions& o : rotate ? legs_for(i) : options()) {
      const RunResult r = run_layer(f, o);
      INFO(f.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << " latency "
                                 << o.mem.latency_min << ":" << o.mem.latency_max << "\n"
                                 << format_run(r));
      REQUIRE(r.status == Status::Pass);
      const auto mem = std::find_if(r.compares.begin(), r.compares.end(),
                                    [](const CompareResult& c) { return c.region.rfind("golden memory", 0) == 0; });
      REQUIRE(mem != r.compares.end());
      CHECK(mem->elements > 0);
      CHECK(mem->mismatches == 0);
    }
  }
}

// The bundled layers of testvectors/layers/<unit> (at least `min_files`) as random layers on
// `cfg` (name, document, seed and stall from the file), for tests that also judge them with the
// unit's reference (cross_with_reference).
// `Layer` is dla::harness::RandomLayer (a template so that this header does not need
// harness/random_layers.hpp, whose names some tests define for themselves).
template <class Layer>
std::vector<Layer> bundled_as_random(const std::string& unit, const dla::golden::HwConfig& cfg,
                                     std::size_t min_files) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / unit)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= min_files);
  std::vector<Layer> out;
  for (const auto& f : files) {
    Layer L;
    L.unit = unit;
    L.name = f.stem().string();
    L.config = &cfg;
    L.doc = nlohmann::ordered_json::parse(std::ifstream(f));
    L.seed = L.doc.value("seed", uint64_t{1});
    L.stall = L.doc.value("stall", 0.0);
    out.push_back(std::move(L));
  }
  return out;
}

// Layer L compiled by `compile(header, root)` in cross mode under leg `o`, the RTL side
// `make_rtl(cfg, o)`: passes, compares something, and `reference_diff(L, root, rtl memory)` (the
// unit's independent reference on the RTL's memory) is empty.
template <class Layer, class Compile, class MakeRtl, class ReferenceDiff>
void cross_with_reference(const Layer& L, const dla::harness::RunOptions& o, Compile compile,
                          MakeRtl make_rtl, ReferenceDiff reference_diff) {
  using namespace dla::harness;
  const auto jd = parse_json_text(L.name + ".json", L.doc.dump(1));
  const JsonNode root = JsonNode::root(jd);
  LayerHeader h;
  h.file = L.name + ".json";
  h.unit = L.unit;
  h.name = L.name;
  h.config = L.config;
  h.seed = L.seed;
  h.stall = L.stall;
  const Program prog = compile(h, root);
  GoldenDevice gold(*L.config);
  const std::unique_ptr<Device> rtl = make_rtl(*L.config, o);
  ProgramRunOptions po;
  po.mode = "cross";
  const RunResult r = run_program(prog, &gold, rtl.get(), po);
  INFO(L.name << " (" << L.features << ") seed " << *o.seed << " rand-reset " << o.sim.rand_reset << " latency "
              << o.mem.latency_min << ":" << o.mem.latency_max << "\n"
              << format_run(r));
  REQUIRE(r.status == Status::Pass);
  REQUIRE_FALSE(r.compares.empty());
  CHECK(rtl->cycles() > 0);
  CHECK(std::string(reference_diff(L, root, rtl->memory())).empty());
}

// `count` layers of `unit` from its generator with `focus` on `cfg` (`generate(cfg, L, rng)`, the
// stream derived from `seed` and `stream`), each in cross mode under one stress leg in turn, on the
// RTL device of `blocks`; golden is the judge (no unit reference).
template <class Layer, class Generate, class Compile>
void cross_generated(const std::string& unit, const std::string& focus, const dla::golden::HwConfig& cfg, int count,
                     uint64_t seed, const std::string& stream, Generate generate, Compile compile,
                     const std::vector<std::string>& blocks) {
  using namespace dla::harness;
  const std::vector<RunOptions> legs = options();
  Rng rng = Rng::derive(seed, stream);
  for (int i = 0; i < count; ++i) {
    Layer L;
    L.unit = unit;
    L.name = fmt::format("{}_rtl_{}_{}", unit, focus, i);
    L.config = &cfg;
    L.seed = static_cast<uint64_t>(i) + 1;
    L.focus = focus;
    L = generate(cfg, L, rng);
    if (focus == "fp16") {
      // a layer's precision (conv) or its input's (sdp, cdp)
      REQUIRE((L.doc.contains("precision") ? L.doc.at("precision") : L.doc.at("input").at("precision")) == "fp16");
    }
    cross_with_reference(
        L, legs[static_cast<std::size_t>(i) % legs.size()], compile,
        [&blocks](const dla::golden::HwConfig& hw, const RunOptions& o) {
          std::string why;
          auto d = make_rtl_device(blocks, hw, o, why);
          INFO(why);
          REQUIRE(d != nullptr);
          return d;
        },
        [](const Layer&, const JsonNode&, const Memory&) { return std::string(); });
  }
}

// Replays the register writes of `prog` on the RTL device of `blocks` on `hw`, each value through
// `edit(block.name, value)` (a register this build has not is skipped): the device's refusal
// (its guard's InputError), or "" when every write is taken. For the guards' tests.
template <class Edit>
std::string replay_refusal(const dla::harness::Program& prog, const std::vector<std::string>& blocks,
                           const dla::golden::HwConfig& hw, Edit edit) {
  using namespace dla::harness;
  RunOptions o;
  std::string why;
  auto dev = make_rtl_device(blocks, hw, o, why);
  INFO(why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  try {
    for (const ProgramStep& st : prog.steps) {
      if (st.op != StepOp::RegWrite) continue;
      const auto addr = db.address(hw.name, *st.reg);
      if (!addr) continue;
      dev->reg_write(*addr, edit(st.reg->block + "." + st.reg->name, st.value));
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cross_stress
