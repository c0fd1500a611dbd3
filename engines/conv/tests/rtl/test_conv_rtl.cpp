// The direct-convolution RTL (engines/conv/rtl, flying into SDP inside rtl/top/nvdla_core.sv) against
// NVDLA's own trace tests: every dc_* trace replayed in cross mode (RTL under test, golden model
// beside it) must reproduce NVIDIA's CRC, under back-pressure seeds and randomized-reset modes.
// Each trace on its own configuration (nv_small, nv_large). Plus the utilization of the
// issue's reference layer (docs/CONV_RTL.md "Throughput").
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <iostream>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "engines/conv/harness/conv_bench.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

std::vector<fs::path> dc_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("dc_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_trace(const fs::path& cfg, const dla::golden::HwConfig& hw) {
  const Program p = import_nvdla_cfg(cfg, hw.name);
  for (const RunOptions& o : cross_stress::options()) {
    const RunResult r = run_program_in_mode(p, hw, o);
    INFO(cfg.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
    REQUIRE_FALSE(r.compares.empty());
    CHECK(r.compares.back().crc_actual == r.compares.back().crc_expected);
  }
}

}  // namespace

// Every trace under 3 back-pressure seeds (stall 0.3 on every DMA and flying handshake) x
// rand-reset 0/1/2: about 15 s in all (docs/CONV_RTL.md).
TEST_CASE("conv RTL reproduces NVIDIA's CRC on every nv_small dc trace", "[rtl][conv][traces]") {
  const auto traces = dc_traces("nv_small");
  REQUIRE(traces.size() == 7);
  for (const auto& cfg : traces) {
    DYNAMIC_SECTION(cfg.stem().string()) {
      run_trace(cfg, dla::golden::nv_small());
    }
  }
}

TEST_CASE("conv RTL reproduces NVIDIA's CRC on the nv_large dc trace", "[rtl][conv][traces]") {
  const auto traces = dc_traces("nv_large");
  REQUIRE(traces.size() == 1);
  run_trace(traces.front(), dla::golden::nv_large());
}

namespace {

struct Layer {
  const char* what;
  const dla::golden::HwConfig& hw;
  dla::golden::ConvParams p;
};

dla::golden::ConvParams params(int w, int h, int c, int k, int r, int s) {
  dla::golden::ConvParams p;
  p.w = w;
  p.h = h;
  p.c = c;
  p.k = k;
  p.r = r;
  p.s = s;
  p.clip_truncate = 4;
  return p;
}

std::vector<Layer> layers() {
  using dla::golden::nv_full;
  using dla::golden::nv_small;
  using dla::golden::Precision;
  std::vector<Layer> out;
  auto a = params(9, 7, 13, 11, 2, 3);  // partial block and group, 2x3 kernel
  a.dilation_x = 2;
  a.stride_y = 2;
  a.pad_left = 1;
  a.pad_right = 2;
  a.pad_bottom = 1;
  a.cvt = {true, 3, -5, 2};
  out.push_back({"nv_small: C 13, K 11, 2x3 kernel, dilation x2, stride y2, asymmetric pads, input converter",
                 nv_small(), a});
  out.push_back({"nv_small: 1x1 kernel, 3 positions (stripes shorter than the weight load)", nv_small(),
                 params(3, 1, 8, 1, 1, 1)});
  out.push_back({"nv_small: fully connected 4x4x20 -> 9", nv_small(), params(4, 4, 20, 9, 4, 4)});
  auto d = params(10, 6, 70, 33, 3, 3);  // 2 blocks (64 + 6), 2 groups (32 + 1)
  d.stride_x = d.stride_y = 2;
  d.pad_left = d.pad_top = 1;
  out.push_back({"nv_full int8: C 70, K 33, 3x3, stride 2, pad 1", nv_full(), d});
  auto e = params(7, 5, 65, 17, 2, 2);
  e.precision = Precision::Int16;
  e.dilation_x = e.dilation_y = 2;
  e.pad_left = e.pad_right = e.pad_top = 1;
  e.cvt = {true, -100, 3, 1};
  out.push_back({"nv_full int16: C 65, K 17, 2x2 dilation 2, pads, input converter", nv_full(), e});
  auto f = params(4, 4, 64, 16, 3, 3);
  f.precision = Precision::Int16;
  f.pad_left = f.pad_right = f.pad_top = f.pad_bottom = 1;
  f.clip_truncate = 0;
  out.push_back({"nv_full int16: full-range products, clip 0 (32-bit output saturation)", nv_full(), f});
  return out;
}

}  // namespace

// Shapes the traces do not cover (int16, the input converter, odd groups on nv_full, fully
// connected, short stripes), random data, against the golden device byte for byte and
// D_OUT_SATURATION, under back-pressure and each rand-reset mode.
TEST_CASE("conv RTL equals the golden model on layers beyond the traces", "[rtl][conv]") {
  for (const Layer& l : layers()) {
    for (const uint64_t seed : {1u, 2u, 3u}) {
      const auto r = engines::measure_conv(l.hw, l.p, seed, 0.3, static_cast<int>(seed % 3));
      INFO(l.what << " seed " << seed << ": " << r.detail);
      REQUIRE(r.outputs_equal);
      CHECK(r.out_saturation_rtl == r.out_saturation_golden);
    }
  }
  // the saturation case does saturate
  const auto r = engines::measure_conv(dla::golden::nv_full(), layers().back().p, 1, 0.0);
  CHECK(r.out_saturation_golden > 0);
}

TEST_CASE("conv RTL keeps the MACs busy on the reference 3x3 layer", "[rtl][conv][perf]") {
  const auto r = engines::measure_conv(dla::golden::nv_small(), engines::conv_bench_layer(), 1, 0.0);
  INFO(r.detail);
  REQUIRE(r.outputs_equal);
  std::cout << "conv nv_small 32x16x32 -> 32x16x16, 3x3: ideal " << r.ideal_cycles << " cycles; layer "
            << r.cycles_layer << " (" << 100.0 * r.util_layer() << "%)\n";
  CHECK(r.util_layer() >= 0.90);
}

// The nv_full figure: 3x3, W*H >= 256, C >= 64, K >= 32, whole layer (CBUF loading
// included); the SDP must take 16 lanes per cycle for this to hold.
TEST_CASE("conv RTL keeps the nv_full MACs busy on 3x3 layers", "[rtl][conv][perf]") {
  struct Case {
    dla::golden::Precision prec;
    int c, k;
  };
  for (const Case cs : {Case{dla::golden::Precision::Int8, 128, 64}, Case{dla::golden::Precision::Int16, 64, 32}}) {
    dla::golden::ConvParams p = engines::conv_bench_layer();
    p.c = cs.c;
    p.k = cs.k;
    p.precision = cs.prec;
    const auto r = engines::measure_conv(dla::golden::nv_full(), p, 1, 0.0);
    INFO(r.detail);
    REQUIRE(r.outputs_equal);
    std::cout << "conv nv_full 32x16x" << cs.c << " -> 32x16x" << cs.k << ", 3x3, "
              << (cs.prec == dla::golden::Precision::Int8 ? "int8" : "int16") << ": ideal " << r.ideal_cycles
              << " cycles; layer " << r.cycles_layer << " (" << 100.0 * r.util_layer() << "%)\n";
    CHECK(r.util_layer() >= 0.90);
  }
}

// CDMA D_PERF_{DAT,WT}_READ_{STALL,LATENCY} and SDP D_PERF_WDMA_WRITE_STALL (PERF_ENABLE DMA bits
// set by measure_conv). The reference layer reads 32*16*4 = 2048 input atoms and 3*3*32*16 / 8 =
// 576 weight atoms; the DMA server answers each read after 4..32 cycles.
TEST_CASE("conv RTL perf counters count DMA stall and latency cycles", "[rtl][conv]") {
  const uint64_t dat_reads = 2048, wt_reads = 576;
  const auto calm = engines::measure_conv(dla::golden::nv_small(), engines::conv_bench_layer(), 1, 0.0);
  REQUIRE(calm.outputs_equal);
  // no back-pressure and no SDP reads (flying, operands bypassed): the port never refuses
  CHECK(calm.cdma_dat_stall == 0);
  CHECK(calm.cdma_wt_stall == 0);
  CHECK(calm.sdp_wr_stall == 0);
  CHECK(calm.cdma_dat_latency >= 4 * dat_reads);
  CHECK(calm.cdma_dat_latency <= 40 * dat_reads);
  CHECK(calm.cdma_wt_latency >= 4 * wt_reads);
  CHECK(calm.cdma_wt_latency <= 40 * wt_reads);

  const auto busy = engines::measure_conv(dla::golden::nv_small(), engines::conv_bench_layer(), 1, 0.5);
  REQUIRE(busy.outputs_equal);
  // with ready low half the time, a few hundred of the 2624 requests must wait
  CHECK(busy.cdma_dat_stall > 200);
  CHECK(busy.cdma_wt_stall > 50);
  CHECK(busy.sdp_wr_stall > 50);
  CHECK(busy.cdma_dat_stall + busy.cdma_wt_stall < busy.cycles_to_sdp);
}
