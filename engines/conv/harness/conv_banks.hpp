// `conv` layers: CBUF banks (D_BANK) as this RTL needs them and as NVDLA's driver splits them, and
// the register words every conv compiler writes. Shared by the conv compiler (conv.hpp) and its
// mode files (conv_image.hpp, conv_modes.hpp), which include this rather than conv.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engines/conv/golden/conv.hpp"
#include "golden/config.hpp"

namespace dla::harness::engines {

// D_BANK: CBUF banks for the input (DATA_BANK + 1) and the weights (WEIGHT_BANK + 1).
struct ConvBanks {
  int data = 0;
  int weight = 0;
};

// This RTL's CBUF (engines/conv/rtl/conv_cbuf.sv, docs/CONV_RTL.md "CDMA and CBUF"): NVDLA's banks x
// entries, a row = one entry = one channel block (ATOMIC_C elements at the widest precision),
// split by D_BANK as NVDLA splits it (data banks 0..DATA_BANK, then the weight banks, a ring
// over the weight stream like NVDLA's). Direct convolution and image input store the input as
// NVDLA does (entry packing: ENTRY_PER_SLICE x H entries, x N with batches); Winograd stores rows
// of 2x2 extended positions and W-fold one row per folded channel block and position, which can
// take more rows than NVDLA's ENTRY_PER_SLICE x H entries.
[[nodiscard]] int64_t rtl_data_rows(const golden::ConvConfig& c, const golden::HwConfig& hw);
// Banks the input needs on this RTL: NVDLA's (ceil(EPS x H / entries)) or, when more, this
// RTL's (ceil(rtl_data_rows / entries)).
[[nodiscard]] int rtl_data_banks(const golden::ConvConfig& c, const golden::HwConfig& hw);

// Why this RTL cannot run the convolution `c` with D_BANK `banks` (empty reason: it can): banks
// beyond CBUF, data banks that hold less than the input (NVDLA's rule, or this RTL's Winograd /
// W-fold layout), weight banks that hold less than one kernel group (NVDLA's rule). The RTL device
// refuses register programs by it; the `conv` compiler's bank split never breaks it.
struct RtlCbufProblem {
  bool weights = false;  // about the weights (else the input or the banks)
  std::string reason;
};
[[nodiscard]] RtlCbufProblem rtl_cbuf_problem(const golden::ConvConfig& c, const golden::HwConfig& hw,
                                              const ConvBanks& banks);

// The driver's bank split: the whole input (ceil(EPS * H / entries per bank), or this RTL's
// need when larger, rtl_data_banks), and all weights when they fit in the rest, else the rest
// (at least one kernel group must fit; the caller checks).
[[nodiscard]] ConvBanks conv_bank_split(const golden::ConvConfig& c, const golden::HwConfig& hw);

// Register words of the D_ groups (block -> offset -> word): conv_register_words (conv.hpp) and
// the modes' apply_*_regs.
using BlockWords = std::map<std::string, std::map<uint32_t, uint32_t>>;

}  // namespace dla::harness::engines
