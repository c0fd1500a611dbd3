// `dlacosim bench pdp`: the PDP RTL's rate from memory (rtl/top/nvdla_pdp_top), elements per
// cycle against NVDLA's rate min(PDP_THROUGHPUT, memory interface x elements / bytes moved)
// (docs/PERFORMANCE.md, docs/PDP_RTL.md). An element is one input element of one lane (all
// lanes of the last surface count: PDP processes them).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "golden/config.hpp"
#include "harness/json_reader.hpp"
#include "harness/program_runner.hpp"
#include "harness/report.hpp"
#include "units/pdp.hpp"
#include "units/units.hpp"

namespace dla::harness::units {

std::vector<BenchCase> bench_pdp(const BenchOptions& opt) {
  // 64 x 32 x 64 int8 (`--ops N` scales H to about N input elements): max 2x2 stride 2, and
  // average 3x3 stride 1 with one padded row/column on every side.
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
  for (const auto* cfg : {&golden::nv_small(), &golden::nv_large(), &golden::nv_full()}) {
    for (const Kind& k : kinds) {
      const std::string text = fmt::format(
          R"({{"unit":"pdp","config":"{}","seed":{},"cube":{{"w":64,"h":{},"c":64}},
  "input":{{"precision":"int8","data":{{"random":{{}}}}}},"pool":{{{}}},"output":{{}}}})",
          cfg->name, opt.seed, h, k.pool);
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
      const uint64_t lanes = static_cast<uint64_t>(cfg->atom_bytes);  // int8: one element per byte
      const uint64_t elements = uint64_t{64} * static_cast<uint64_t>(h) * ((64 + lanes - 1) / lanes * lanes);
      RunOptions ro;
      ro.mode = "rtl";
      ro.seed = opt.seed;
      ro.stall = 0.0;
      ro.sim.seed = opt.seed;
      ro.mem = opt.mem;
      const auto t0 = std::chrono::steady_clock::now();
      const RunResult rr = run_program_in_mode(prog, *cfg, ro);
      const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      BenchCase b;
      b.unit = "pdp";
      b.config = cfg->name;
      b.name = fmt::format("memory {}", k.name);
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
  return cases;
}

std::string format_bench_pdp(const std::vector<BenchCase>& cases) {
  std::string out = format_rate_table(cases);
  out += "on the fly from SDP: not measured (SDP -> PDP is not wired in the RTL yet; docs/PDP_RTL.md)\n";
  return out;
}

}  // namespace dla::harness::units
