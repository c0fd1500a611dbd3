// The convolution pipeline (engines/conv/harness/conv.cpp, conv_bench.cpp, nvdla_rtl.cpp; engines/conv/rtl in
// rtl/top/nvdla_core with SDP and PDP): registry entry, with the nvdla_core top and the int64
// reference judge of random conv layers.
#include <fmt/format.h>

#include "engines/conv/harness/conv_reference.hpp"
#include "harness/regdb.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/conv/harness/conv.hpp"
#include "engines/conv/harness/conv_bench.hpp"
#include "engines/conv/harness/conv_device.hpp"
#include "harness/engine.hpp"
#include "tops/nvdla_core_golden.hpp"
#include "engines/conv/harness/conv_random.hpp"

namespace dla::harness::engines {

namespace {

uint32_t cacc_saturation(Device& dev, const std::string& config) {
  const RegDb& db = RegDb::nvdla();
  return dev.reg_read(*db.address(config, *db.find("CACC.D_OUT_SATURATION")));
}

// Both devices' output and CACC saturation count against the int64 reference (not applicable to
// EW LUT, EQL and inexact Winograd layers: conv_ref::not_applicable).
void judge_conv(const JsonNode& root, const RandomLayer& layer, const RandomCompiled& compiled, Device& gold,
                Device& rtl, RandomRun& out) {
  // Batches: the reference convolves each image on its own; image b's output lies at the batch
  // stride, and CACC's saturation count covers every image.
  // fp16 layers (every one of --focus fp16; a share of --focus winograd and image on nv_full)
  const auto prec = root.get("precision");
  if (layer.focus == "fp16" || (prec && prec->is_string() && prec->as_string() == "fp16")) {
    out.reference = kNoFloatReference;
    return;
  }
  const conv_ref::Layer R = conv_ref::read_layer(root, layer.name, layer.seed);
  std::string g, t;
  uint64_t saturated = 0;
  for (int b = 0; b < R.N; ++b) {
    const conv_ref::Layer Rb = conv_ref::batch_image(R, b);
    const conv_ref::Expected e = conv_ref::reference(Rb);
    const std::string na = conv_ref::not_applicable(Rb, e);
    if (!na.empty()) {
      out.reference = "n/a: " + na;
      return;
    }
    saturated += e.cacc_saturated;
    const uint64_t base = compiled.out_base + static_cast<uint64_t>(b) * R.out_batch_stride();
    const std::string in_image = R.N > 1 ? fmt::format(" (batch {})", b) : "";
    if (g.empty()) {
      g = conv_ref::diff(conv_ref::read_output(gold.memory(), base, Rb), e.out, Rb);
      if (!g.empty()) g += in_image;
    }
    if (t.empty()) {
      t = conv_ref::diff(conv_ref::read_output(rtl.memory(), base, Rb), e.out, Rb);
      if (!t.empty()) t += in_image;
    }
  }
  const uint32_t expected_sat = static_cast<uint32_t>(std::min<uint64_t>(saturated, 0xffffffffu));
  const uint32_t gs = cacc_saturation(gold, layer.config->name), ts = cacc_saturation(rtl, layer.config->name);
  if (g.empty() && gs != expected_sat) g = fmt::format("CACC D_OUT_SATURATION {}, expected {}", gs, expected_sat);
  if (t.empty() && ts != expected_sat) t = fmt::format("CACC D_OUT_SATURATION {}, expected {}", ts, expected_sat);
  if (g.empty() && t.empty()) {
    out.reference = "agrees";
    return;
  }
  out.reference = g.empty() ? "golden agrees with the reference" : "golden differs from the reference: " + g;
  out.reference += t.empty() ? "; RTL agrees with the reference" : "; RTL differs from the reference: " + t;
  out.status = RandomStatus::Mismatch;
  if (out.message.empty()) out.message = "RTL and golden agree but differ from the int64 reference";
}

}  // namespace

Engine engine_conv() {
  return {.name = "conv",
          .order = 50,
          .handler = &conv_handler,
          .rate_unit = "elements/cycle",
          .blocks = {"CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"},
          .interrupts = {"CACC", "CDMA_DAT", "CDMA_WT"},
          .golden = [] { return std::vector<GoldenDevice::Unit>{golden_units::conv()}; },
          .golden_hooks = &conv_golden_hooks,
          // nvdla_core: the convolution pipeline flying into SDP, SDP flying into PDP, the GLB.
          .rtl_tops = {RtlTop{.name = "nvdla_core", .order = 0, .engines = {"conv", "sdp", "pdp"}, .make = &make_nvdla_core_top}},
          .bench = BenchSupport{.run = &bench_conv, .format = &format_bench_conv, .per_config = true},
          .random = RandomSupport{.order = 10,
                                  .generate = &generate_conv_layer,
                                  .compile =
                                      [](const LayerHeader& h, const JsonNode& root) {
                                        const CompiledConv c = compile_conv_layer(h, root, true);
                                        return RandomCompiled{c.program, c.out_layout.base};
                                      },
                                  .device_reference = &judge_conv,
                                  .reports_reference_counts = true,
                                  .focus = {RandomFocus{.name = "wfold",
                                                        .has = &golden::HwConfig::wfold,
                                                        .what = "every layer direct with a \"wfold\" draw (docs/WFOLD.md)"},
                                            RandomFocus{.name = "image",
                                                        .what = "every layer with image input (docs/IMAGE_INPUT.md)"},
                                            RandomFocus{.name = "sparse",
                                                        .has = &golden::HwConfig::nvdlav1_map,
                                                        .what = "every direct or image layer with compressed weights "
                                                                "(docs/CDMA_MODES.md)"},
                                            RandomFocus{.name = "splith",
                                                        .what = "every layer direct with an input 1.2-4x beyond half of "
                                                                "CBUF: Split-H bands, which share their weights in CBUF "
                                                                "where it holds them (docs/CONV.md §9)"},
                                            RandomFocus{.name = "batch",
                                                        .has = &golden::HwConfig::nvdlav1_map,
                                                        .what = "every direct layer with batches, N 1..32 (docs/CDMA_MODES.md)"},
                                            RandomFocus{.name = "fp16",
                                                        .has = &golden::HwConfig::int16,
                                                        .what = "every layer an fp16 convolution, a quarter of them "
                                                                "Winograd (RTL against golden; --judge cmod adds "
                                                                "NVIDIA's C model, the int64 reference has no float; "
                                                                "docs/FP16.md)"},
                                            RandomFocus{.name = "winograd",
                                                        .has = &golden::HwConfig::winograd,
                                                        .what = "every layer in Winograd mode as NVDLA programs it, "
                                                                "a fifth in fp16 where the build has it "
                                                                "(docs/WINOGRAD.md)"}}}};
}

}  // namespace dla::harness::engines
