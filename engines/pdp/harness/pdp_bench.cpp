// `dlacosim bench pdp`: the PDP RTL's rate from memory (rtl/top/nvdla_core), elements per
// cycle against NVDLA's rate min(PDP_THROUGHPUT, memory interface x elements / bytes moved), and
// on the fly behind conv -> SDP (rtl/top/nvdla_core) against the rate the same layer reaches
// without PDP (docs/PERFORMANCE.md, docs/PDP_RTL.md). An element is one input element of one
// lane (all lanes of the last surface count: PDP processes them).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "harness/bench.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines {

namespace {

// Cycles of a `conv` layer (JSON text) on the RTL, from memory to memory.
RunResult run_conv_text(const golden::HwConfig& hw, const std::string& name, const std::string& text,
                        const BenchOptions& opt) {
  const auto doc = parse_json_text(name + ".json", text);
  LayerHeader hd;
  hd.file = doc->file;
  hd.unit = "conv";
  hd.name = name;
  hd.config = &hw;
  hd.seed = opt.seed;
  const CompiledConv cc = compile_conv_layer(hd, JsonNode::root(doc), false);
  RunOptions ro;
  ro.mode = "rtl";
  ro.seed = opt.seed;
  ro.stall = 0.0;
  ro.sim.seed = opt.seed;
  ro.mem = opt.mem;
  Program p = cc.program;
  // The trailing status reads expect 0 (compiled without the golden run): keep the run to the
  // layer itself (status reads and the golden check need a golden device).
  while (!p.steps.empty() && (p.steps.back().op == StepOp::RegRead || p.steps.back().op == StepOp::Check)) {
    p.steps.pop_back();
  }
  return run_program_in_mode(p, hw, ro);
}

// On the fly: a 3x3 pad 1 convolution of 32 x 16 x ATOMIC_C into 2 x ATOMIC_K kernels, its SDP
// output pooled by PDP (max 2x2 stride 2) against the same layer writing SDP's output: PDP keeps
// up when the two take the same cycles.
void bench_fly(const golden::HwConfig& hw, const BenchOptions& opt, std::vector<BenchCase>& cases) {
  const int c = hw.atomic_c, k = 2 * hw.atomic_k(golden::Precision::Int8);
  const std::string conv = fmt::format(
      R"("unit":"conv","config":"{}","input":{{"w":32,"h":16,"c":{},"data":{{"random":{{"min":-20,"max":20}}}}}},
  "weights":{{"k":{},"r":3,"s":3,"data":{{"random":{{"min":-20,"max":20}}}}}},
  "padding":{{"left":1,"right":1,"top":1,"bottom":1}},"clip":6)",
      hw.name, c, k);
  const RunResult alone = run_conv_text(hw, "bench_fly_sdp_" + hw.name, "{" + conv + "}", opt);
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult fly = run_conv_text(
      hw, "bench_fly_pdp_" + hw.name,
      "{" + conv + R"(,"pool":{"method":"max","kernel":{"w":2,"h":2},"stride":{"w":2,"h":2}}})", opt);
  const double sec = seconds_since(t0);
  const uint64_t lanes = static_cast<uint64_t>((k + hw.atom_bytes - 1) / hw.atom_bytes * hw.atom_bytes);
  const uint64_t elements = uint64_t{32} * 16 * lanes;  // SDP's output, PDP's input
  BenchCase b;
  b.unit = "pdp";
  b.config = hw.name;
  b.name = "fly conv3x3 max 2x2";
  b.element = "element";
  b.cycles = fly.cycles;
  b.elements = elements;
  // On the fly PDP (PDP_THROUGHPUT) is fed by SDP: NVDLA's rate is SDP's, i.e. the same layer's
  // rate without PDP.
  b.nvdla_elements_per_cycle =
      alone.cycles != 0 ? static_cast<double>(elements) / static_cast<double>(alone.cycles) : 0.0;
  b.wall_s = sec;
  b.mem = opt.mem;
  b.dma = fly.dma;
  b.status = fly.status == Status::Pass && alone.status == Status::Pass ? "PASS" : std::string(status_name(fly.status));
  b.extra = {{"cube", fmt::format("32x16x{}", k)},
             {"sdp_alone_cycles", alone.cycles},
             {"sim_elements_per_s", static_cast<double>(elements) / sec}};
  cases.push_back(std::move(b));
}

}  // namespace

std::vector<BenchCase> bench_pdp(const BenchOptions& opt) {
  // 64 x 32 x 64 int8 (`--ops N` scales H to about N input elements): max 2x2 stride 2, and
  // average 3x3 stride 1 with one padded row/column on every side; the same in fp16 where the
  // configuration has it (nv_full: half the elements per atom, so half NVDLA's rate per byte).
  int h = 32;
  if (opt.ops != 0) h = static_cast<int>(std::clamp<uint64_t>(opt.ops / (64 * 64), 1, 8192));
  struct Kind {
    const char* name;
    const char* pool;
  };
  const Kind kinds[] = {
      {"max 2x2 s2", R"("method":"max","kernel":{"w":2,"h":2},"stride":{"w":2,"h":2})"},
      {"avg 3x3 pad1",
       R"("method":"average","kernel":{"w":3,"h":3},"pad":{"left":1,"right":1,"top":1,"bottom":1,"value":5})"},
  };
  std::vector<BenchCase> cases;
  std::vector<std::pair<const golden::HwConfig*, golden::Precision>> runs;
  const auto configs = bench_configs(opt, {&golden::nv_small(), &golden::nv_large(), &golden::nv_full()});
  for (const auto* cfg : configs) {
    runs.emplace_back(cfg, golden::Precision::Int8);
    if (cfg->supports(golden::Precision::Fp16)) runs.emplace_back(cfg, golden::Precision::Fp16);
  }
  for (const auto& [cfg, prec] : runs) {
    const bool fp16 = prec == golden::Precision::Fp16;
    for (const Kind& k : kinds) {
      const std::string text = fmt::format(
          R"({{"unit":"pdp","config":"{}","seed":{},"cube":{{"w":64,"h":{},"c":64}},
  "input":{{"precision":"{}","data":{{"random":{{}}}}}},"pool":{{{}}},"output":{{}}}})",
          cfg->name, opt.seed, h, golden::precision_name(prec), k.pool);
      const auto doc = parse_json_text(fmt::format("bench-pdp-{}.json", cfg->name), text);
      LayerHeader hd;
      hd.file = doc->file;
      hd.unit = "pdp";
      hd.name = fmt::format("bench_pdp_{}", cfg->name);
      hd.config = cfg;
      hd.seed = opt.seed;
      const Program prog = compile_pdp_layer(hd, JsonNode::root(doc));
      // Bytes the layer moves: the input image it loads, the output region it checks.
      uint64_t read = 0, written = 0;
      for (const ProgramStep& st : prog.steps) {
        if (st.op == StepOp::MemLoad) read += st.bytes.size();
        if (st.op == StepOp::Check && st.check == CheckKind::Golden) written += st.size;
      }
      const uint64_t lanes = static_cast<uint64_t>(cfg->atom_bytes / (fp16 ? 2 : 1));  // elements per atom
      const uint64_t elements = uint64_t{64} * static_cast<uint64_t>(h) * ((64 + lanes - 1) / lanes * lanes);
      RunOptions ro;
      ro.mode = "rtl";
      ro.seed = opt.seed;
      ro.stall = 0.0;
      ro.sim.seed = opt.seed;
      ro.mem = opt.mem;
      const auto t0 = std::chrono::steady_clock::now();
      const RunResult rr = run_program_in_mode(prog, *cfg, ro);
      const double sec = seconds_since(t0);
      BenchCase b;
      b.unit = "pdp";
      b.config = cfg->name;
      b.name = fmt::format("memory {}{}", fp16 ? "fp16 " : "", k.name);
      b.element = "element";
      b.cycles = rr.cycles;
      b.elements = elements;
      b.nvdla_elements_per_cycle = nvdla_rate(cfg->pdp_throughput, nvdla_interface_bytes(*cfg, opt.mem), elements,
                                              read + written);
      b.wall_s = sec;
      b.mem = opt.mem;
      b.dma = rr.dma;
      b.status = std::string(status_name(rr.status));
      b.extra = {{"cube", fmt::format("64x{}x64", h)},
                 {"layer_bytes", read + written},
                 {"sim_elements_per_s", static_cast<double>(elements) / sec}};
      cases.push_back(std::move(b));
    }
  }
  for (const auto* cfg : configs) bench_fly(*cfg, opt, cases);
  return cases;
}

std::string format_bench_pdp(const std::vector<BenchCase>& cases) {
  std::string out = format_rate_table(cases);
  out += "fly: conv -> SDP -> PDP on the fly; NVDLA elem/cyc there is the same layer's conv -> SDP rate without PDP "
         "(ratio 1: PDP never stalls SDP)\n";
  return out;
}

}  // namespace dla::harness::engines
