// The handshakes inside nvdla_core that the watchdog counts as progress besides its CSB and DMA
// ports (docs/CLI.md "Watchdog"). Once a convolution's input and weights are in CBUF, CSC feeds
// CMAC a whole stripe -- up to StripeUpper positions x R x S x channel blocks atomic operations,
// one a cycle -- before CACC hands anything to SDP: tens of thousands of legal cycles with no port
// moving (a 24x27 kernel on nv_full: 20736). A pooling PDP behind it takes kernel + stride such
// lines before it writes. These streams always move while that work goes on, so the watchdog
// measures a hang, not the length of a kernel. The signals are kept readable by
// rtl/top/nvdla_core_watch.vlt (public_flat_rd); a rename in the RTL fails this file's compile.
// Include it (not only rtl_device.hpp) wherever an RtlDevice or Lane of nvdla_core is built.
#pragma once

#include <type_traits>

#include "dla_rtl_models_roots.hpp"
#include "harness/rtl_device.hpp"

namespace dla::harness {

template <class Root>
const char* nvdla_core_moved(const Root& r) {
  if (r.nvdla_core__DOT__u_conv__DOT__u_csc__DOT__d_fire) return "CSC->CMAC operand (convolution computing)";
  if (r.nvdla_core__DOT__fly_valid && r.nvdla_core__DOT__fly_ready) return "CACC->SDP output";
  if (r.nvdla_core__DOT__pdp_fly_valid && r.nvdla_core__DOT__pdp_fly_ready) return "SDP->PDP input";
  return nullptr;
}

// Every configuration's nvdla_core model (two configurations may share one: specialized once).
template <class Model>
concept NvdlaCoreModel = (false
#define DLA_IS_CORE(C) || std::is_same_v<Model, rtl_models::C::nvdla_core>
                          DLA_RTL_CONFIGS(DLA_IS_CORE)
#undef DLA_IS_CORE
);

template <NvdlaCoreModel Model>
struct WatchProbe<Model> {
  static const char* moved(const Model& m) { return nvdla_core_moved(*m.rootp); }
};

}  // namespace dla::harness
