// `dlacosim bench linebuf`: the line-buffer engine's RTL (Vlinebuf, NumPe 4) on int8 3x3 layers:
// output pixels per cycle against the PE array's peak (NumPe x 9 MACs per cycle, i.e. one output
// pixel per ceil(C / NumPe) cycles), and for the same convolution the cycles of this project's
// NVDLA conv pipeline on nv_small (engines/conv/harness/conv_bench.hpp, measure_conv). docs/LINEBUF.md,
// docs/PERFORMANCE.md.
#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/rng.hpp"
#include "engines/conv/harness/conv_bench.hpp"
#include "engines/linebuf/harness/linebuf.hpp"
#include "harness/bench.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::engines {

namespace {

struct Case {
  const char* name;
  int c, h, w, k;
  bool pool;
  bool fc;
  bool once = false;  // the weights-once dataflow
};

golden::LinebufLayer random_layer(const Case& k, Rng& rng) {
  golden::LinebufLayer L;
  L.kind = k.fc ? golden::LinebufKind::Fc : golden::LinebufKind::Conv;
  L.outputs = k.k;
  L.pad = k.fc ? 0 : 1;
  L.pool = k.pool;
  L.weights_once = k.once;
  L.out.act = golden::LinebufAct::Relu;
  L.out.out_shift = 6;
  const std::size_t per = k.fc ? static_cast<std::size_t>(k.c) * k.h * k.w : static_cast<std::size_t>(k.c) * 9;
  for (std::size_t i = 0; i < per * static_cast<std::size_t>(k.k); ++i) L.weights.push_back(rng.range(-8, 8));
  for (int i = 0; i < k.k; ++i) L.bias.push_back(rng.range(-500, 500));
  return L;
}

}  // namespace

std::vector<BenchCase> bench_linebuf(const BenchOptions& opt) {
  if (opt.ops != 0) {
    throw InputError("--ops", std::to_string(opt.ops),
                     "bench linebuf runs fixed layers (docs/PERFORMANCE.md); it takes no --ops");
  }
  const Case cases_in[] = {{"conv 56x56 c16 k16", 16, 56, 56, 16, false, false},
                           {"conv 64x32 c8 k16", 8, 32, 64, 16, false, false},
                           {"conv+pool 56x56 c4 k8", 4, 56, 56, 8, true, false},
                           {"conv 28x28 c32 k32", 32, 28, 28, 32, false, false},
                           {"conv 7x7 c64 k64", 64, 7, 7, 64, false, false},
                           {"fc 392 -> 16", 8, 7, 7, 16, false, true},
                           {"conv 7x7 c64 k64 wonce", 64, 7, 7, 64, false, false, true},
                           {"conv 14x14 c32 k32", 32, 14, 14, 32, false, false},
                           {"conv 14x14 c32 k32 wonce", 32, 14, 14, 32, false, false, true}};
  const golden::HwConfig& nv = *golden::find_config("nv_small");
  std::vector<BenchCase> out;
  for (const Case& k : cases_in) {
    Rng rng = Rng::derive(opt.seed, k.name);
    LinebufJob job;
    job.input = {k.c, k.h, k.w, {}};
    for (int i = 0; i < k.c * k.h * k.w; ++i) job.input.data.push_back(rng.range(-128, 127));
    job.layers.push_back(random_layer(k, rng));
    SimOptions s;
    s.seed = opt.seed;
    s.watchdog = 200000;
    const auto t0 = std::chrono::steady_clock::now();
    const LinebufOutcome rtl = run_linebuf_rtl(job, s, 0.0, opt.seed);
    const double sec = seconds_since(t0);
    const LinebufOutcome gold = run_linebuf_golden(job);
    // Output pixels of the convolution (before pooling): what the PEs compute.
    const int groups = k.fc ? (k.c * k.h * k.w + 8) / 9 : k.c;  // channels the engine runs
    const int ch_groups = (groups + kLinebufNumPe - 1) / kLinebufNumPe;
    const uint64_t pixels = k.fc ? static_cast<uint64_t>(k.k) : static_cast<uint64_t>(k.h) * k.w * k.k;
    const double peak = 1.0 / ch_groups;  // output pixels per cycle at NumPe x 9 MACs per cycle
    BenchCase b;
    b.unit = "linebuf";
    b.config = fmt::format("pe{}", kLinebufNumPe);
    b.name = k.name;
    b.element = "pixel";
    b.cycles = rtl.cycles;
    b.elements = pixels;
    b.wall_s = sec;
    b.utilization = rtl.cycles != 0 ? static_cast<double>(pixels) / peak / static_cast<double>(rtl.cycles) : 0.0;
    b.status = rtl.maps.back().data == gold.maps.back().data ? "PASS" : "MISMATCH";
    b.extra = {{"cube", fmt::format("{}x{}x{}", k.w, k.h, k.c)},
               {"kernels", k.k},
               {"peak_pixels_per_cycle", peak},
               {"sim_elements_per_s", sec > 0 ? static_cast<double>(pixels) / sec : 0.0},
               {"dataflow", k.once ? "weights_once" : "pixels_once"},
               // Weight groups streamed in (one per kernel and group of 4 channels, per output row
               // in the pixels-once dataflow).
               {"weight_beats", static_cast<uint64_t>(k.once || k.fc ? 1 : k.h) * k.k * ch_groups},
               {"nvdla_config", nv.name},
               {"nvdla_cycles", nullptr},
               {"nvdla_detail", ""}};
    if (!k.fc && !k.pool && !k.once) {
      // The same convolution on NVDLA's pipeline (nv_small), direct, pad 1.
      golden::ConvParams p;
      p.w = k.w;
      p.h = k.h;
      p.c = k.c;
      p.k = k.k;
      p.r = 3;
      p.s = 3;
      p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
      try {
        const ConvBenchResult r = measure_conv(nv, p, opt.seed);
        b.extra["nvdla_cycles"] = r.cycles_layer;
        b.nvdla_elements_per_cycle =
            r.cycles_layer != 0 ? static_cast<double>(pixels) / static_cast<double>(r.cycles_layer) : 0.0;
        if (!r.outputs_equal) b.extra["nvdla_detail"] = "NVDLA RTL output differs from golden: " + r.detail;
      } catch (const std::exception& e) {
        b.extra["nvdla_detail"] = e.what();
      }
    } else {
      b.extra["nvdla_detail"] = k.fc     ? "FC: no NVDLA conv case"
                                : k.once ? "weights once: the pixels-once case of the same layer has it"
                                         : "pooling fused here: no like-for-like NVDLA case";
    }
    out.push_back(std::move(b));
  }
  return out;
}

std::string format_bench_linebuf(const std::vector<BenchCase>& cases) {
  std::string out = fmt::format("{:<6} {:<26} {:>10} {:>4} {:>9} {:>9} {:>9} {:>9} {:>6} {:>8} {:>12} {:>7} {:>8}\n",
                                "config", "case", "cube", "K", "pixels", "cycles", "pix/cyc", "peak", "util",
                                "wt beats", "NVDLA cycles", "ratio", "status");
  for (const BenchCase& c : cases) {
    const auto& nvc = c.extra.at("nvdla_cycles");
    const std::string nv = nvc.is_null() ? "-" : fmt::format("{}", nvc.get<uint64_t>());
    const std::string ratio =
        nvc.is_null() ? "-" : fmt::format("{:.2f}", static_cast<double>(c.cycles) / nvc.get<double>());
    out += fmt::format("{:<6} {:<26} {:>10} {:>4} {:>9} {:>9} {:>9.3f} {:>9.3f} {:>6.3f} {:>8} {:>12} {:>7} {:>8}\n",
                       c.config, c.name, c.extra.at("cube").get<std::string>(), c.extra.at("kernels").get<int>(),
                       c.elements, c.cycles, c.elements_per_cycle(), c.num("peak_pixels_per_cycle"),
                       c.utilization.value_or(0), c.extra.at("weight_beats").get<uint64_t>(), nv, ratio, c.status);
  }
  out += "pixels: convolution outputs (before pooling); peak: NumPe x 9 MACs per cycle = one pixel per ceil(C/NumPe) "
         "cycles; util = pixels per cycle / peak (a pass of Wo outputs takes Wo + 2 cycles); NVDLA cycles: the same "
         "3x3 pad-1 int8 convolution on this project's NVDLA conv pipeline (nv_small, 64 MACs per cycle), ratio = "
         "linebuf cycles / NVDLA cycles; wt beats: weight groups streamed in (NumPe filters each), once per output row "
         "(pixels once) or once per layer (wonce: weights once, the padded map on chip)\n";
  return out;
}

}  // namespace dla::harness::engines
