// `conv` layers: CBUF banks (conv_banks.hpp): this RTL's rows and banks for the input, why a D_BANK
// split cannot run, and the driver's split.
#include "engines/conv/harness/conv_banks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wfold.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/config.hpp"

namespace dla::harness::engines {

namespace {

using golden::ConvConfig;
using golden::HwConfig;
using golden::Precision;

}  // namespace

int64_t rtl_data_rows(const ConvConfig& c, const HwConfig& hw) {
  // image input: NVDLA's own layout, ENTRY_PER_SLICE rows per line (docs/IMAGE_INPUT.md "RTL")
  if (c.image.enabled) return int64_t{golden::conv_derived(c, hw).entries_per_slice} * c.input.h;
  if (c.mode == golden::ConvMode::Winograd) {
    // rows of 2x2 extended positions x one memory atom of channels per phase (docs/WINOGRAD.md)
    const golden::WinoGeometry g = golden::wino_geometry(c);
    const int ncb = g.phases * g.c_pad * c.bpe() / c.atom_bytes;  // phases x ceil(C * bpe / atom)
    return int64_t{c.output.h / 2 + 1} * ncb * (c.output.w / 2 + 1);
  }
  // W-fold: the folded cube, G channel blocks x Wf x H rows (docs/WFOLD.md)
  if (c.wfold_ws != 0) {
    const ConvConfig& v = golden::wfold_view(c);
    return int64_t{golden::conv_derived(c, hw).channel_blocks} * v.input.w * v.input.h;
  }
  // direct: NVDLA's entry packing, ENTRY_PER_SLICE entries per slice, N slices per line
  // (docs/CONV_RTL.md "CBUF"; batches interleaved line-major, docs/CDMA_MODES.md §1)
  return int64_t{golden::conv_derived(c, hw).entries_per_slice} * c.input.h * std::max(1, c.input.n);
}

int rtl_data_banks(const ConvConfig& c, const HwConfig& hw) {
  const int entries = golden::cbuf_geometry(hw).entries_per_bank;
  const int64_t rtl = (rtl_data_rows(c, hw) + entries - 1) / entries;
  return static_cast<int>(std::max<int64_t>(golden::conv_derived(c, hw).data_banks_min, rtl));
}

RtlCbufProblem rtl_cbuf_problem(const ConvConfig& c, const HwConfig& hw, const ConvBanks& banks) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  const bool wino = c.mode == golden::ConvMode::Winograd;
  if (banks.data + banks.weight > cb.banks) {
    return {false, fmt::format("D_BANK gives {} data + {} weight banks, more than {}'s {} CBUF banks", banks.data,
                               banks.weight, hw.name, cb.banks)};
  }
  if (banks.data < d.data_banks_min) {
    return {false, fmt::format("D_BANK.DATA_BANK gives the input {} bank(s) but it needs {} ({}ENTRY_PER_SLICE {} x "
                               "{} lines{}, {} entries per bank)",
                               banks.data, d.data_banks_min, wino ? "channel-extended cube: " : "", d.entries_per_slice,
                               wino ? golden::wino_geometry(c).h_ext : c.input.h,
                               c.input.n > 1 ? fmt::format(" x {} batches", c.input.n) : std::string(),
                               cb.entries_per_bank)};
  }
  if (const int64_t rows = rtl_data_rows(c, hw); rows > int64_t{banks.data} * cb.entries_per_bank) {
    return {false,
            wino ? fmt::format("the Winograd input needs {} CBUF rows in this RTL ((H'/2 + 1) {} x {} channel block(s) "
                               "x (W'/2 + 1) {} rows of 2x2 positions), more than its {} data bank(s) of {} entries "
                               "(this RTL does not pack positions into entries; docs/WINOGRAD.md)",
                               rows, c.output.h / 2 + 1, rows / (c.output.h / 2 + 1) / (c.output.w / 2 + 1),
                               c.output.w / 2 + 1, banks.data, cb.entries_per_bank)
                 : fmt::format("the W-folded input needs {} CBUF rows in this RTL ({} channel block(s) x the folded "
                               "width x H {}), more than its {} data bank(s) of {} entries (docs/WFOLD.md)",
                               rows, d.channel_blocks, c.input.h, banks.data, cb.entries_per_bank)};
  }
  if (c.compression.enabled) {
    // Compressed weights (docs/CDMA_MODES.md §2): bank 15 holds the mask bits, and the RTL's mask
    // ring must hold one kernel group's bits and the row the next cell may reach into. The
    // packed group against the weight banks (WGS[g] + 128) is checked on memory by the golden
    // model; the uncompressed group rule below does not apply.
    if (banks.data + banks.weight > cb.banks - 1) {
      return {false, fmt::format("D_BANK gives {} data + {} weight banks with compressed weights, more than {}'s {} "
                                 "CBUF banks less bank {} (the weight mask bits)",
                                 banks.data, banks.weight, hw.name, cb.banks, cb.banks - 1)};
    }
    const int64_t kpg = std::min(c.kernels, c.atomic_k);
    const int64_t bpe = c.precision == Precision::Int16 ? 2 : 1;
    const int64_t mask_bytes = (kpg * d.byte_per_kernel / bpe + 7) / 8;
    const int64_t bank_bytes = int64_t{cb.entries_per_bank} * cb.entry_bytes;
    if (mask_bytes + cb.entry_bytes > bank_bytes) {
      return {true, fmt::format("one kernel group's weight mask bits ({} bytes) and one entry exceed bank {}'s {} bytes",
                                mask_bytes, cb.banks - 1, bank_bytes)};
    }
    return {};
  }
  if (banks.weight < d.weight_banks_min) {
    const int kpg = std::min(c.kernels, c.atomic_k);
    return {true, fmt::format("D_BANK.WEIGHT_BANK gives the weights {} bank(s) but one kernel group of {}weights "
                              "needs {} ({} kernels x {} bytes, {} bytes per bank)",
                              banks.weight, wino ? "pre-transformed Winograd " : "", d.weight_banks_min, kpg,
                              d.byte_per_kernel, cb.entries_per_bank * cb.entry_bytes)};
  }
  return {};
}

ConvBanks conv_bank_split(const ConvConfig& c, const HwConfig& hw) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const int banks = golden::cbuf_geometry(hw).banks;
  const int data = rtl_data_banks(c, hw);
  return {data, std::max(d.weight_banks_min, std::min(d.weight_banks_all, banks - data))};
}

}  // namespace dla::harness::engines
