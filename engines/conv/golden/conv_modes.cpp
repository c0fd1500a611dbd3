// Multi-batch and compressed weights (docs/CDMA_MODES.md), written from
// ../shared/reference/cdma-input-modes.md §4 (batch) and §5 (compression).
#include "engines/conv/golden/conv_modes.hpp"

#include <algorithm>

#include "golden/nvdla_regs.hpp"

namespace dla::golden {

namespace {

namespace rcdma = regs::cdma;
namespace rcsc = regs::csc;
namespace rcacc = regs::cacc;
using regs::field;

constexpr uint64_t kWeightEntry = 128;  // WEIGHT_BYTES / WMB_BYTES granule, CBUF entry of nv_full
constexpr int kWmbBankEntries = 256;    // bank 15 holds the mask bits

std::string str(uint64_t v) { return std::to_string(v); }
uint64_t roundup(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t addr64(uint32_t hi, uint32_t lo) { return (uint64_t{hi} << 32) | lo; }

int groups_of(const ConvConfig& c) {
  return static_cast<int>(ceil_div(static_cast<uint64_t>(std::max(c.kernels, 1)), static_cast<uint64_t>(c.atomic_k)));
}

// Elements of kernel group g (the last may be short).
uint64_t group_elements(const ConvConfig& c, int g) {
  const uint64_t per_kernel = weight_stream_elements(c) / static_cast<uint64_t>(std::max(c.kernels, 1));
  const int kpg = std::min(c.atomic_k, c.kernels - g * c.atomic_k);
  return per_kernel * static_cast<uint64_t>(kpg);
}

}  // namespace

bool has_batch_and_compression(const HwConfig& hw) { return hw.nvdlav1_map; }

// ---- multi-batch --------------------------------------------------------------------------------

int batch_stripe_normal(int batches) {
  if (batches <= 1) return 16;
  if (batches <= 3) return 8;
  if (batches <= 7) return 4;
  if (batches <= 15) return 2;
  return 1;
}

std::vector<int> batch_stripes(int positions, int batches) {
  const int normal = batch_stripe_normal(batches);
  std::vector<int> out;
  int left = positions;
  if (normal == 1) {
    out.assign(static_cast<std::size_t>(std::max(positions, 0)), 1);
    return out;
  }
  while (left > 2 * normal) {
    out.push_back(normal);
    left -= normal;
  }
  if (left > 0) out.push_back(left);
  return out;
}

std::vector<BatchWrite> batch_write_order(const FeatureLayout& out, const CubeShape& shape) {
  std::vector<BatchWrite> order;
  const int ca = out.channels_per_atom();
  const int surfaces = out.surfaces(shape.c);
  const int atom = out.atom_bytes;
  const bool single = shape.n <= 1 || (shape.w == 1 && shape.h == 1);
  for (int s = 0; s < surfaces; ++s) {
    for (int h = 0; h < shape.h; ++h) {
      for (int w = 0; w < shape.w;) {
        const uint64_t a = out.address(0, s * ca, h, w);  // without the batch term
        const bool pair = !single && a % 64 == 0 && w + 1 < shape.w;
        for (int b = 0; b < std::max(shape.n, 1); ++b)
          order.push_back({out.address(b, s * ca, h, w), pair ? 2 * atom : atom, b, s, h, w});
        w += pair ? 2 : 1;
      }
    }
  }
  return order;
}

std::string batch_pairing_problem(uint64_t cacc_base, uint64_t cacc_line_stride, const FeatureLayout& out,
                                  const CubeShape& shape) {
  if (shape.n <= 1 || shape.w <= 1) return "";  // no pairs: one batch, or every position a line's last
  constexpr uint64_t kPair = 64;
  // Both addresses are affine in (surface, line) modulo 64: 64 of each show every residue.
  const int surfaces = std::min(out.surfaces(shape.c), static_cast<int>(kPair));
  const int lines = std::min(shape.h, static_cast<int>(kPair));
  for (int s = 0; s < surfaces; ++s) {
    for (int h = 0; h < lines; ++h) {
      const uint64_t g = static_cast<uint64_t>(s) * static_cast<uint64_t>(shape.h) + static_cast<uint64_t>(h);
      const bool cacc_pairs = (cacc_base + cacc_line_stride * g) % kPair == 0;
      const uint64_t a = out.address(0, s * out.channels_per_atom(), h, 0);
      const bool sdp_pairs = a % kPair == 0;
      if (cacc_pairs == sdp_pairs) continue;
      const auto is = [](bool aligned) { return std::string(aligned ? " is" : " is not"); };
      return "a batched output's 64-byte pairs are decided twice and must agree (cdma-input-modes.md §4.4; NVDLA "
             "assumes 64-byte-aligned addresses and strides in batch mode): at surface " + str(static_cast<uint64_t>(s)) +
             " line " + str(static_cast<uint64_t>(h)) + ", CACC's D_DATAOUT_ADDR " + str(cacc_base) + " + D_LINE_STRIDE " +
             str(cacc_line_stride) + " x " + str(g) + " (lines of all surfaces before it)" + is(cacc_pairs) +
             " 64-byte aligned, SDP's address " + str(a) + " (D_DST_BASE_ADDR + " + str(static_cast<uint64_t>(s)) +
             " x D_DST_SURFACE_STRIDE " + str(out.surface_stride) + " + " + str(static_cast<uint64_t>(h)) +
             " x D_DST_LINE_STRIDE " + str(out.line_stride) + ")" + is(sdp_pairs) + " 64-byte aligned";
    }
  }
  return "";
}

// ---- weight compression -------------------------------------------------------------------------

std::vector<uint8_t> CompressedWeights::wgs_bytes() const {
  std::vector<uint8_t> b;
  for (const uint32_t v : wgs)
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return b;
}

CompressedWeights compress_weights(const std::vector<uint8_t>& stream, int bpe, uint64_t group_elements) {
  CompressedWeights cw;
  const uint64_t elements = stream.size() / static_cast<uint64_t>(bpe);
  cw.wmb.assign(static_cast<std::size_t>(roundup(ceil_div(elements, 8), kWeightEntry)), 0);
  for (uint64_t n = 0; n < elements; ++n) {
    if (n % group_elements == 0) cw.wgs.push_back(0);
    const auto at = static_cast<std::size_t>(n * static_cast<uint64_t>(bpe));
    const bool nonzero = std::any_of(stream.begin() + static_cast<std::ptrdiff_t>(at),
                                     stream.begin() + static_cast<std::ptrdiff_t>(at) + bpe, [](uint8_t v) { return v != 0; });
    if (!nonzero) continue;
    cw.wmb[static_cast<std::size_t>(n / 8)] |= static_cast<uint8_t>(1u << (n % 8));
    cw.data.insert(cw.data.end(), stream.begin() + static_cast<std::ptrdiff_t>(at),
                   stream.begin() + static_cast<std::ptrdiff_t>(at) + bpe);
    cw.wgs.back() += static_cast<uint32_t>(bpe);
    ++cw.nonzero;
  }
  cw.data.resize(static_cast<std::size_t>(roundup(cw.data.size(), kWeightEntry)), 0);
  return cw;
}

uint64_t weight_stream_elements(const ConvConfig& c) {
  return c.weight_layout().total_bytes() / static_cast<uint64_t>(c.bpe());
}

uint64_t weight_group_elements(const ConvConfig& c) {
  return weight_stream_elements(c) / static_cast<uint64_t>(std::max(c.kernels, 1)) * static_cast<uint64_t>(c.atomic_k);
}

uint64_t wmb_bytes_for(const ConvConfig& c) { return roundup(ceil_div(weight_stream_elements(c), 8), kWeightEntry); }

DecompressedWeights decompress_weights(const ConvConfig& c, const HwConfig& hw, const ByteReader& read) {
  DecompressedWeights d;
  const int bpe = c.bpe();
  const uint64_t elements = weight_stream_elements(c);
  d.bytes.assign(static_cast<std::size_t>(elements * static_cast<uint64_t>(bpe)), 0);
  const ConvCompression& z = c.compression;
  const uint64_t data_elements = c.weight_bytes / static_cast<uint64_t>(bpe);
  uint64_t n = 0;   // mask pointer (bit), continuous across groups
  uint64_t dp = 0;  // data pointer (element), continuous across groups
  bool overrun = false;
  const CbufGeometry cb = cbuf_geometry(hw);
  const uint64_t bank_bytes = static_cast<uint64_t>(cb.entries_per_bank) * static_cast<uint64_t>(cb.entry_bytes);
  for (int g = 0; g < groups_of(c); ++g) {
    uint64_t nnz = 0;
    for (const uint64_t end = n + group_elements(c, g); n < end; ++n) {
      if (((read(z.wmb_base + n / 8) >> (n % 8)) & 1u) == 0) continue;
      ++nnz;
      if (dp >= data_elements) {
        overrun = true;
        continue;
      }
      for (int i = 0; i < bpe; ++i)
        d.bytes[static_cast<std::size_t>(n * static_cast<uint64_t>(bpe)) + static_cast<std::size_t>(i)] =
            read(c.weight_base + dp * static_cast<uint64_t>(bpe) + static_cast<uint64_t>(i));
      ++dp;
    }
    d.group_nonzero.push_back(nnz);
    uint32_t wgs = 0;
    for (int i = 0; i < 4; ++i) wgs |= uint32_t{read(z.wgs_base + 4 * static_cast<uint64_t>(g) + static_cast<uint64_t>(i))} << (8 * i);
    const uint64_t want = nnz * static_cast<uint64_t>(bpe);
    if (wgs != want)
      d.problems.push_back("WGS[" + str(static_cast<uint64_t>(g)) + "] (D_WGS_ADDR + " + str(4 * static_cast<uint64_t>(g)) +
                           ") is " + str(wgs) + " but kernel group " + str(static_cast<uint64_t>(g)) + " has " + str(nnz) +
                           " non-zero weights by its mask bits: WGS[g] = nnz x bpe = " + str(want) +
                           " (cdma-input-modes.md §5.2)");
    if (z.weight_banks > 0 && uint64_t{wgs} + kWeightEntry > static_cast<uint64_t>(z.weight_banks) * bank_bytes)
      d.problems.push_back("kernel group " + str(static_cast<uint64_t>(g)) + "'s compressed weights WGS = " + str(wgs) +
                           " bytes + 128 exceed the " + str(static_cast<uint64_t>(z.weight_banks)) +
                           " weight bank(s) of D_BANK (" + str(bank_bytes) + " bytes each; RTL check, §5.3)");
  }
  uint64_t total = 0;
  for (const uint64_t v : d.group_nonzero) total += v;
  if (overrun)
    d.problems.push_back("the mask bits select " + str(total) + " non-zero weights, more than D_WEIGHT_BYTES " +
                         str(c.weight_bytes) + " holds (" + str(data_elements) + " elements)");
  const uint64_t want_bytes = roundup(total * static_cast<uint64_t>(bpe), kWeightEntry);
  if (c.weight_bytes != want_bytes)
    d.problems.push_back("D_WEIGHT_BYTES is " + str(c.weight_bytes) + " but the compressed stream of " + str(total) +
                         " non-zero weights needs exactly roundup(nnz x bpe, 128) = " + str(want_bytes) +
                         " (the C model consumes exactly that, §5.1)");
  if (z.wmb_bytes != wmb_bytes_for(c))
    d.problems.push_back("D_WMB_BYTES is " + str(z.wmb_bytes) + " but " + str(elements) +
                         " weight elements need exactly roundup(ceil(elements / 8), 128) = " + str(wmb_bytes_for(c)) +
                         " mask bytes (§5.1)");
  return d;
}

// ---- rules -------------------------------------------------------------------------------------

std::string wmb_bank_problem(const ConvConfig& c) {
  if (c.kernels < 1 || c.input.c < 1 || c.kernel_h < 1 || c.kernel_w < 1) return "";
  const uint64_t entries = ceil_div(ceil_div(weight_group_elements(c), 8), kWeightEntry);
  if (entries + 1 <= kWmbBankEntries) return "";
  return "one kernel group's mask bits need " + str(entries) + " CBUF entries; WMB entries + 1 must be <= " +
         str(kWmbBankEntries) + " (bank 15 holds them, §5.3)";
}

std::vector<std::string> modes_unsupported(const ConvConfig& c) {
  std::vector<std::string> u;
  const int n = c.input.n;
  if (n > 1) {
    if (c.mode == ConvMode::Winograd)
      u.push_back("multi-batch (D_BATCH_NUMBER " + str(static_cast<uint64_t>(n - 1)) +
                  ") needs CONV_MODE DIRECT: Winograd with batches is not allowed (CSC / CACC assertions, §4.1)");
    if (c.wfold_ws != 0)
      u.push_back("multi-batch and W-fold (D_WFOLD) exclude each other in this model (docs/CDMA_MODES.md)");
    if (!c.image.enabled && c.in_layout.bpe == c.bpe()) {
      const uint64_t atom = static_cast<uint64_t>(c.atom_bytes);
      const uint64_t cube = c.in_layout.surface_stride * static_cast<uint64_t>(c.in_layout.surfaces(c.input.c));
      if (c.in_layout.batch_stride % atom != 0)
        u.push_back("CDMA D_BATCH_STRIDE " + str(c.in_layout.batch_stride) + " must be a multiple of the " + str(atom) +
                    "-byte atom");
      if (c.in_layout.batch_stride < cube)
        u.push_back("CDMA D_BATCH_STRIDE " + str(c.in_layout.batch_stride) +
                    " is smaller than D_SURF_STRIDE x surfaces = " + str(cube) + " (batch cubes overlap, §4.1)");
    }
  }
  const ConvCompression& z = c.compression;
  if (z.enabled) {
    if (c.mode == ConvMode::Winograd)
      u.push_back("compressed weights (D_WEIGHT_FORMAT COMPRESSED) with Winograd are not modelled (§5 defines the "
                  "stream of direct and image convolutions, docs/CDMA_MODES.md)");
    if (c.wfold_ws != 0)
      u.push_back("compressed weights and W-fold (D_WFOLD) exclude each other in this model (docs/CDMA_MODES.md)");
    const uint64_t atom = static_cast<uint64_t>(c.atom_bytes);
    if (c.weight_base % atom != 0 || z.wmb_base % atom != 0 || z.wgs_base % atom != 0)
      u.push_back("D_WEIGHT_ADDR, D_WMB_ADDR and D_WGS_ADDR must be multiples of the " + str(atom) +
                  "-byte atom (§5.1)");
    if (c.weight_bytes % kWeightEntry != 0 || z.wmb_bytes % kWeightEntry != 0)
      u.push_back("D_WEIGHT_BYTES (" + str(c.weight_bytes) + ") and D_WMB_BYTES (" + str(z.wmb_bytes) +
                  ") must be multiples of 128 with compressed weights (§0, §5.1)");
    if (std::string w = wmb_bank_problem(c); !w.empty()) u.push_back(std::move(w));
  }
  return u;
}

std::vector<std::string> modes_hw_problems(const ConvConfig& c, const HwConfig& hw) {
  std::vector<std::string> u;
  if (has_batch_and_compression(hw)) return u;
  if (c.input.n > 1)
    u.push_back("multi-batch convolution (D_BATCH_NUMBER " + str(static_cast<uint64_t>(c.input.n - 1)) +
                ") exists on nv_full only; " + hw.name + " has no batch mode (BATCH_DISABLE, §4.1)");
  if (c.compression.enabled)
    u.push_back("compressed weights (D_WEIGHT_FORMAT COMPRESSED) exist on nv_full only; " + hw.name +
                " has no weight decompression (§0)");
  return u;
}

void decode_conv_modes(const ConvRegReaders& regs, const HwConfig& hw, ConvConfig& c) {
  std::vector<std::string>& bad = c.decode_problems;
  const uint32_t nb[] = {field(regs.cdma(rcdma::D_BATCH_NUMBER::offset), rcdma::D_BATCH_NUMBER::BATCHES{}),
                         field(regs.csc(rcsc::D_BATCH_NUMBER::offset), rcsc::D_BATCH_NUMBER::BATCHES{}),
                         field(regs.cacc(rcacc::D_BATCH_NUMBER::offset), rcacc::D_BATCH_NUMBER::BATCHES{})};
  if (nb[0] != nb[1] || nb[0] != nb[2])
    bad.push_back("D_BATCH_NUMBER differs in CDMA / CSC / CACC (" + str(nb[0]) + ", " + str(nb[1]) + ", " + str(nb[2]) +
                  "); all three hold the batches - 1 (§4.1)");
  c.input.n = static_cast<int>(nb[0]) + 1;
  c.output.n = c.input.n;
  c.in_layout.batch_stride = field(regs.cdma(rcdma::D_BATCH_STRIDE::offset), rcdma::D_BATCH_STRIDE::BATCH_STRIDE{});
  c.cacc_out_base = field(regs.cacc(rcacc::D_DATAOUT_ADDR::offset), rcacc::D_DATAOUT_ADDR::DATAOUT_ADDR{});
  c.cacc_out_line_stride = field(regs.cacc(rcacc::D_LINE_STRIDE::offset), rcacc::D_LINE_STRIDE::LINE_STRIDE{});

  const uint32_t wf_cdma = field(regs.cdma(rcdma::D_WEIGHT_FORMAT::offset), rcdma::D_WEIGHT_FORMAT::WEIGHT_FORMAT{});
  const uint32_t wf_csc = field(regs.csc(rcsc::D_WEIGHT_FORMAT::offset), rcsc::D_WEIGHT_FORMAT::WEIGHT_FORMAT{});
  if (wf_cdma != wf_csc)
    bad.push_back("D_WEIGHT_FORMAT differs in CDMA (" + str(wf_cdma) + ") and CSC (" + str(wf_csc) +
                  "): compressed weights need COMPRESSED in both (§5)");
  ConvCompression& z = c.compression;
  z.enabled = wf_cdma != 0;
  if (z.enabled) {
    z.wmb_base = addr64(field(regs.cdma(rcdma::D_WMB_ADDR_HIGH::offset), rcdma::D_WMB_ADDR_HIGH::WMB_ADDR_HIGH{}),
                        field(regs.cdma(rcdma::D_WMB_ADDR_LOW::offset), rcdma::D_WMB_ADDR_LOW::WMB_ADDR_LOW{}));
    z.wgs_base = addr64(field(regs.cdma(rcdma::D_WGS_ADDR_HIGH::offset), rcdma::D_WGS_ADDR_HIGH::WGS_ADDR_HIGH{}),
                        field(regs.cdma(rcdma::D_WGS_ADDR_LOW::offset), rcdma::D_WGS_ADDR_LOW::WGS_ADDR_LOW{}));
    z.wmb_bytes = field(regs.cdma(rcdma::D_WMB_BYTES::offset), rcdma::D_WMB_BYTES::WMB_BYTES{});
    const uint32_t csc_wmb = field(regs.csc(rcsc::D_WMB_BYTES::offset), rcsc::D_WMB_BYTES::WMB_BYTES{});
    if (csc_wmb != z.wmb_bytes)
      bad.push_back("D_WMB_BYTES differs in CDMA (" + str(z.wmb_bytes) + ") and CSC (" + str(csc_wmb) + ")");
    const uint32_t bank = regs.cdma(rcdma::D_BANK::offset);
    const uint32_t used = field(bank, rcdma::D_BANK::DATA_BANK{}) + 1 + field(bank, rcdma::D_BANK::WEIGHT_BANK{}) + 1;
    const auto banks = static_cast<uint32_t>(cbuf_geometry(hw).banks);
    if (used > banks - 1)
      bad.push_back("D_BANK uses " + str(used) + " data + weight banks with compressed weights; at most " +
                    str(banks - 1) + ": the last bank is reserved for the weight mask bits (RTL assertion, §5.1)");
  }
  if (!c.image.enabled) {
    if (const uint32_t e = field(regs.csc(rcsc::D_POST_Y_EXTENSION::offset), rcsc::D_POST_Y_EXTENSION::Y_EXTENSION{});
        e != 0)
      bad.push_back("CSC D_POST_Y_EXTENSION.Y_EXTENSION is " + str(e) +
                    " but channel post-extension exists only with image input (RTL assertion, §3)");
  }
}

}  // namespace dla::golden
