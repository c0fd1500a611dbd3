// `conv` layers with batches or compressed weights (docs/CDMA_MODES.md "Compiler"), written from
// ../shared/reference/cdma-input-modes.md §4 and §5.
#include "engines/conv/harness/conv_modes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "golden/nvdla_regs.hpp"

namespace dla::harness::engines {

namespace {

namespace cd = golden::regs::cdma;
namespace cs = golden::regs::csc;
namespace ca = golden::regs::cacc;
using golden::ConvConfig;
using golden::HwConfig;
using golden::regs::place;

uint32_t u(int64_t v) { return static_cast<uint32_t>(v); }
uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v & 0xffffffffu); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

// A batch stride: a multiple of the atom, at least `min` (one cube), below 4 GiB.
uint64_t batch_stride(const JsonNode& n, uint64_t min, int atom, const char* what) {
  const uint64_t v = n.as_u64(0xffffffe0u);
  if (v % static_cast<uint64_t>(atom) != 0)
    n.fail(fmt::format("{} must be a multiple of the {}-byte memory atom", v, atom));
  if (v < min)
    n.fail(fmt::format("{} is smaller than one {} cube ({} bytes): the batches would overlap (§4.1)", v, what, min));
  return v;
}

}  // namespace

BatchLayer parse_batch(const JsonNode& root, const HwConfig& hw, bool wino, bool image) {
  BatchLayer b;
  const auto n = root.get("batch");
  if (!n) return b;
  if (n->is_object()) {
    n->allow_keys({"n", "input_stride", "output_stride"});
    b.n = static_cast<int>(n->require("n").as_int(1, golden::kMaxConvBatches));
    if (const auto s = n->get("input_stride")) b.input_stride = s->as_u64(0xffffffe0u);
    if (const auto s = n->get("output_stride")) b.output_stride = s->as_u64(0xffffffe0u);
  } else {
    b.n = static_cast<int>(n->as_int(1, golden::kMaxConvBatches));
  }
  if (b.n == 1 && !b.input_stride && !b.output_stride) return b;
  if (!golden::has_batch_and_compression(hw))
    n->fail(fmt::format("multi-batch convolution (D_BATCH_NUMBER) exists on nv_full only; {} has no batch mode "
                        "(BATCH_DISABLE, cdma-input-modes.md §4.1)",
                        hw.name));
  if (wino)
    n->fail("batches need CONV_MODE DIRECT: Winograd with batches is not allowed (CSC / CACC assertions, §4.1)");
  if (image) n->fail("image input allows no batches (D_BATCH_NUMBER must be 0; CSC assertion, §1.7 / §4.1)");
  if (const auto w = root.get("wfold"); w && !(w->is_string() && w->as_string() == "off"))
    w->fail("W-fold and batches exclude each other in this model (docs/CDMA_MODES.md)");
  if (const auto p = root.get("pool"))
    p->fail("a pool post-op with batches is not done: PDP on the fly takes one cube (docs/CDMA_MODES.md)");
  return b;
}

bool parse_compressed(const JsonNode& root, const JsonNode& weights, const HwConfig& hw, bool wino) {
  const auto n = weights.get("compressed");
  if (!n || !n->as_bool()) return false;
  if (!golden::has_batch_and_compression(hw))
    n->fail(fmt::format("compressed weights (D_WEIGHT_FORMAT COMPRESSED) exist on nv_full only; {} has no weight "
                        "decompression (cdma-input-modes.md §0)",
                        hw.name));
  if (wino)
    n->fail("compressed weights with \"mode\": \"winograd\" are not done (§5 defines the stream of direct and image "
            "convolutions, docs/CDMA_MODES.md)");
  if (const auto w = root.get("wfold"); w && !(w->is_string() && w->as_string() == "off"))
    w->fail("W-fold and compressed weights exclude each other in this model (docs/CDMA_MODES.md)");
  return true;
}

void apply_batch_input(const JsonNode& root, const BatchLayer& b, ConvConfig& c) {
  if (!b.input_stride) return;
  const golden::FeatureLayout& l = c.in_layout;
  c.in_layout.batch_stride = batch_stride(root.require("batch").require("input_stride"),
                                          l.surface_stride * static_cast<uint64_t>(l.surfaces(c.input.c)), c.atom_bytes,
                                          "input");
}

void check_modes_cbuf(const JsonNode& root, const ConvConfig& c, const HwConfig& hw, bool compressed) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  const int banks = cb.banks - (compressed ? 1 : 0);
  const int weight = compressed ? 1 : d.weight_banks_min;
  if (d.data_banks_min + weight <= banks) return;
  const JsonNode at = c.input.n > 1 ? root.require("batch") : root.require("input");
  at.fail(fmt::format("the layer does not fit in CBUF: the input of {} batch(es) needs {} banks (ENTRY_PER_SLICE {} x "
                      "H {} x batches {} entries, {} per bank) and the weights at least {}, more than the {} banks "
                      "{}; batched and compressed layers are not split (Split-H), §4.2",
                      c.input.n, d.data_banks_min, d.entries_per_slice, c.input.h, c.input.n, cb.entries_per_bank,
                      weight, banks, compressed ? "left beside the WMB bank" : "of " + hw.name));
}

void apply_batch_output(const JsonNode& root, const BatchLayer& b, sdp::Layer& s) {
  s.shape.n = b.n;
  golden::FeatureLayout& l = s.out_layout;
  const uint64_t cube = l.surface_stride * static_cast<uint64_t>(l.surfaces(s.out_lanes()));
  l.batch_stride = b.output_stride ? batch_stride(root.require("batch").require("output_stride"), cube,
                                                  l.atom_bytes, "output")
                                   : cube;
  // CACC gets SDP's base and line stride (conv_register_words), so the two decide the 64-byte
  // pairs alike unless the surface stride breaks the line rhythm (golden::batch_pairing_problem).
  if (const std::string p = golden::batch_pairing_problem(l.base, l.line_stride, l, s.shape); !p.empty()) {
    const auto out = root.get("output");
    const auto ss = out ? out->get("surface_stride") : std::nullopt;
    const JsonNode at = ss ? *ss : out ? *out : root.require("batch");
    at.fail(fmt::format("{}; with CACC's copy equal to SDP's, the surface stride minus H' x line stride ({} - {} x {}) "
                        "must be a multiple of 64",
                        p, l.surface_stride, s.shape.h, l.line_stride));
  }
}

golden::CompressedWeights compress_layer_weights(const JsonNode& root, const ConvConfig& c,
                                                 const std::vector<uint8_t>& uncompressed) {
  const uint64_t total = c.weight_layout().total_bytes();
  const std::vector<uint8_t> stream(uncompressed.begin(), uncompressed.begin() + static_cast<std::ptrdiff_t>(total));
  golden::CompressedWeights cw = golden::compress_weights(stream, c.bpe(), golden::weight_group_elements(c));
  if (cw.nonzero == 0)
    root.require("weights").require("data").fail(
        "every weight is 0: the compressed stream would be empty (D_WEIGHT_BYTES 0), which NVDLA does not define; "
        "give the weights uncompressed");
  return cw;
}

void apply_compression(ConvConfig& c, const golden::CompressedWeights& cw) {
  c.compression.enabled = true;
  c.compression.wmb_base = kWmbBase;
  c.compression.wgs_base = kWgsBase;
  c.compression.wmb_bytes = cw.wmb.size();
  c.weight_bytes = cw.data.size();
}

ConvBanks modes_bank_split(const JsonNode& root, const ConvConfig& c, const HwConfig& hw,
                           const golden::CompressedWeights* cw) {
  const golden::ConvDerived d = golden::conv_derived(c, hw);
  const golden::CbufGeometry cb = golden::cbuf_geometry(hw);
  const uint64_t bank_bytes = static_cast<uint64_t>(cb.entries_per_bank) * static_cast<uint64_t>(cb.entry_bytes);
  const int banks = cb.banks - (cw != nullptr ? 1 : 0);
  int need = d.weight_banks_min;
  int all = d.weight_banks_all;
  if (cw != nullptr) {
    const uint32_t largest = *std::max_element(cw->wgs.begin(), cw->wgs.end());
    need = static_cast<int>((uint64_t{largest} + 128 + bank_bytes - 1) / bank_bytes);  // RTL: WGS[g] + 128 <= bytes
    all = std::max(need, static_cast<int>((cw->data.size() + bank_bytes - 1) / bank_bytes));
  }
  if (d.data_banks_min + need > banks)
    root.require("weights").fail(fmt::format(
        "the layer does not fit in CBUF: the input needs {} banks and the largest kernel group of {}weights {} ({} "
        "bytes per bank), more than the {} banks {}",
        d.data_banks_min, cw != nullptr ? "compressed " : "", need, bank_bytes, banks,
        cw != nullptr ? "left beside the bank reserved for the mask bits (§5.1)" : "of " + hw.name));
  // The input: the RTL's rows of all N cubes (rtl_data_banks) where they fit beside the
  // weights, else NVDLA's minimum (the golden model runs it; the RTL device refuses it with the
  // reason, docs/CONV_RTL.md "CBUF").
  const int data = std::max(d.data_banks_min, std::min(rtl_data_banks(c, hw), banks - need));
  return {data, std::max(need, std::min(all, banks - data))};
}

void apply_modes_regs(BlockWords& w, const ConvConfig& c) {
  if (c.input.n > 1) {
    const uint32_t nb = u(c.input.n - 1);
    w["CDMA"][cd::D_BATCH_NUMBER::offset] = place(nb, cd::D_BATCH_NUMBER::BATCHES{});
    w["CDMA"][cd::D_BATCH_STRIDE::offset] = place(lo32(c.in_layout.batch_stride), cd::D_BATCH_STRIDE::BATCH_STRIDE{});
    w["CSC"][cs::D_BATCH_NUMBER::offset] = place(nb, cs::D_BATCH_NUMBER::BATCHES{});
    w["CACC"][ca::D_BATCH_NUMBER::offset] = place(nb, ca::D_BATCH_NUMBER::BATCHES{});
  }
  const golden::ConvCompression& z = c.compression;
  if (z.enabled) {
    auto& cdma = w["CDMA"];
    cdma[cd::D_WEIGHT_FORMAT::offset] = place(1u, cd::D_WEIGHT_FORMAT::WEIGHT_FORMAT{});
    cdma[cd::D_WEIGHT_BYTES::offset] = lo32(c.weight_bytes);
    cdma[cd::D_WMB_ADDR_HIGH::offset] = hi32(z.wmb_base);
    cdma[cd::D_WMB_ADDR_LOW::offset] = lo32(z.wmb_base);
    cdma[cd::D_WMB_BYTES::offset] = place(lo32(z.wmb_bytes), cd::D_WMB_BYTES::WMB_BYTES{});
    cdma[cd::D_WGS_ADDR_HIGH::offset] = hi32(z.wgs_base);
    cdma[cd::D_WGS_ADDR_LOW::offset] = lo32(z.wgs_base);
    auto& csc = w["CSC"];
    csc[cs::D_WEIGHT_FORMAT::offset] = place(1u, cs::D_WEIGHT_FORMAT::WEIGHT_FORMAT{});
    csc[cs::D_WEIGHT_BYTES::offset] = lo32(c.weight_bytes);
    csc[cs::D_WMB_BYTES::offset] = place(lo32(z.wmb_bytes), cs::D_WMB_BYTES::WMB_BYTES{});
  }
}

}  // namespace dla::harness::engines
