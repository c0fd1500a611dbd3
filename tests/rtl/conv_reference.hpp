// Helpers of the `conv` layer tests (engines/conv/tests/rtl/test_conv_layers.cpp, test_conv_wino_layers.cpp)
// around the independent int64 reference (harness/conv_reference.hpp: the layer read from its
// JSON, its expected output from plain int64 loops -- the convolution, CDMA input converter, CACC's
// clip and 32-bit saturation, the SDP post-ops -- with no golden/ arithmetic and no layer-compiler
// code). A Winograd layer ("mode": "winograd") or a W-fold layer ("wfold", docs/WFOLD.md) computes
// the same convolution, so the same reference judges it (it reads neither key).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "golden/config.hpp"
#include "golden/nvdla_regs.hpp"
#include "engines/conv/harness/conv_reference.hpp"
#include "harness/errors.hpp"
#include "harness/golden_device.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"
#include "cross_stress.hpp"
#include "engines/conv/harness/conv.hpp"

namespace conv_ref {

namespace fs = std::filesystem;
using namespace dla::harness;            // NOLINT(google-build-using-namespace): test helpers
using namespace dla::harness::conv_ref;  // NOLINT(google-build-using-namespace): Layer, reference, ...
using nlohmann::json;

inline const fs::path kLayers = fs::path(DLA_SOURCE_DIR) / "testvectors" / "layers" / "conv";
inline const fs::path kBad = fs::path(DLA_SOURCE_DIR) / "tests" / "data" / "bad_layers";

// The bundled layers whose file name starts with `prefix`, of one mode: direct ("mode" absent or
// "direct") or Winograd ("mode": "winograd").
enum class Mode { Direct, Winograd };
inline std::vector<fs::path> layer_files(const std::string& prefix = "", Mode mode = Mode::Direct) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kLayers)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.rfind(prefix, 0) != 0) continue;
    std::ifstream in(e.path());
    const bool wino = json::parse(in).value("mode", std::string("direct")) == "winograd";
    if (wino == (mode == Mode::Winograd)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline uint32_t cacc_saturation(Device& d, const dla::golden::HwConfig& hw) {
  const RegDb& db = RegDb::nvdla();
  return d.reg_read(*db.address(hw.name, *db.find("CACC.D_OUT_SATURATION")));
}

inline engines::CompiledConv compile_at(const fs::path& f, uint64_t seed) {
  LoadedLayer l = load_layer(f);
  l.header.seed = seed;
  return engines::compile_conv_layer(l.header, l.root());
}

// Runs the layer's program on the golden device and (when `rtl_opt` is given) the RTL together,
// and checks each device's output and CACC saturation count against the reference.
inline void check_layer(const fs::path& f, uint64_t seed, const RunOptions* rtl_opt) {
  const Layer L = read_layer(f, seed);
  const Expected e = reference(L);
  // No EW LUT / EQL, and no partial sum reaching CACC's saturating width (the plain sum is what
  // CACC computes only then).
  REQUIRE(not_applicable(L, e) == "");
  const engines::CompiledConv c = compile_at(f, seed);
  const dla::golden::HwConfig& hw = *dla::golden::find_config(L.config);
  GoldenDevice gold(hw);
  std::unique_ptr<Device> rtl;
  if (rtl_opt != nullptr) {
    std::string why;
    rtl = make_rtl_device(enabled_blocks(c.program), hw, *rtl_opt, why);
    INFO(why);
    REQUIRE(rtl != nullptr);
  }
  ProgramRunOptions po;
  po.mode = rtl ? "cross" : "golden";
  const RunResult r = run_program(c.program, &gold, rtl.get(), po);
  INFO(L.name << " seed " << seed << (rtl_opt ? " rand-reset " + std::to_string(rtl_opt->sim.rand_reset) : "")
              << "\n" << format_run(r));
  REQUIRE(r.status == Status::Pass);
  CHECK(diff(read_output(gold.memory(), c.out_layout.base, L), e.out, L) == "");
  CHECK(cacc_saturation(gold, hw) == e.cacc_saturated);
  if (!rtl) return;
  CHECK(diff(read_output(rtl->memory(), c.out_layout.base, L), e.out, L) == "");
  CHECK(cacc_saturation(*rtl, hw) == e.cacc_saturated);
  rtl->finish();
}

// Each layer in cross mode (golden and RTL) under three of the stress legs, rotating so that
// the layers together meet all of them (cross_stress::legs_for); `all_legs`: every layer under
// every leg (3 back-pressure seeds x rand-reset 0/1/2, and slow memory), the "[.long]" tests.
inline void run_rtl(const std::vector<fs::path>& files, bool all_legs = false) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (RunOptions o : all_legs ? cross_stress::options() : cross_stress::legs_for(i)) {
      check_layer(files[i], *o.seed, &o);
    }
  }
}

// The value of `field` in the last write of BLOCK.REG in the program.
inline uint32_t written(const Program& p, const std::string& block, const std::string& reg, dla::golden::regs::Field field) {
  for (auto it = p.steps.rbegin(); it != p.steps.rend(); ++it) {
    if (it->op == StepOp::RegWrite && it->reg->block == block && it->reg->name == reg) {
      return dla::golden::regs::field(it->value, field);
    }
  }
  FAIL("no write of " << block << "." << reg);
  return 0;
}

// Every value written to a register field, in program order (one per Split-H band).
inline std::vector<uint32_t> all_written(const Program& p, const std::string& block, const std::string& reg,
                                         dla::golden::regs::Field field) {
  std::vector<uint32_t> out;
  for (const auto& s : p.steps) {
    if (s.op == StepOp::RegWrite && s.reg->block == block && s.reg->name == reg) {
      out.push_back(dla::golden::regs::field(s.value, field));
    }
  }
  return out;
}

// The reference comparison of a layer whose weight image `change` alters: the program compiled,
// the weight bytes changed, run on the golden device (without the status reads, which expect the
// unchanged layer's values); returns diff() of its output against the unchanged reference.
template <class F>
std::string diff_after_weight_change(const fs::path& f, F change) {
  const LoadedLayer l = load_layer(f);
  const Layer L = read_layer(f, l.header.seed);
  engines::CompiledConv c = engines::compile_conv_layer(l.header, l.root(), false);
  auto w = std::find_if(c.program.steps.begin(), c.program.steps.end(), [](const ProgramStep& s) {
    return s.op == StepOp::MemLoad && s.where.find("weights") != std::string::npos;
  });
  REQUIRE(w != c.program.steps.end());
  change(w->bytes, L);
  c.program.steps.erase(std::remove_if(c.program.steps.begin(), c.program.steps.end(),
                                       [](const ProgramStep& s) { return s.op == StepOp::RegRead; }),
                        c.program.steps.end());
  GoldenDevice gold(*l.header.config);
  const RunResult r = run_program(c.program, &gold, nullptr, {});
  REQUIRE(r.status == Status::Pass);
  return diff(read_output(gold.memory(), c.out_layout.base, L), reference(L).out, L);
}

// Strong: the outputs spread over many values and stay off the rails; small enough for the RTL
// (a Split-H layer is larger than CBUF by its purpose: `split_h` allows 100000 outputs);
// a ReLU clamps some but not most.
inline void check_strong(const Layer& L, const Expected& e, bool split_h = false) {
  const std::set<int64_t> distinct(e.out.begin(), e.out.end());
  CHECK(distinct.size() >= std::min<std::size_t>(16, e.out.size() / 2));
  const int64_t hi = L.out16 ? 32767 : 127;
  const auto rails = std::count_if(e.out.begin(), e.out.end(), [&](int64_t v) { return v == hi || v == -hi - 1; });
  CHECK(static_cast<std::size_t>(rails) * 4 <= e.out.size());
  CHECK(std::set<int64_t>(e.cacc.begin(), e.cacc.end()).size() >= std::min<std::size_t>(16, e.cacc.size() / 2));
  CHECK(e.out.size() <= (split_h ? 100000u : 4000u));
  if (L.bs.relu || L.bn.relu) {
    CHECK(e.relu_clamped > 0);
    CHECK(e.relu_clamped * 4 < static_cast<int64_t>(e.cacc.size()) * 3);  // of SDP's outputs (before a pool)
  }
}

// A malformed layer in tests/data/bad_layers and what its InputError must say.
struct Refusal {
  const char* file;
  const char* where;  // JSON pointer
  const char* rule;   // contained in the rule text
};
inline void check_refusals(const std::vector<Refusal>& cases) {
  for (const auto& c : cases) {
    const fs::path f = kBad / c.file;
    INFO(c.file);
    try {
      (void)load_layer(f);
      FAIL("accepted " << c.file);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.file() == f.string());
      CHECK(e.where() == c.where);
      CHECK_THAT(e.rule(), Catch::Contains(c.rule));
    }
  }
}

}  // namespace conv_ref
