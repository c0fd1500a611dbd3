// NVDLA PDP + PDP_RDMA, integer and fp16 data, register level. Spec: ../shared/reference/pdp-cdp-bdma-rubik.md
// §2, nvdla-arithmetic.md §4; decisions: docs/PDP.md.
#include "engines/pdp/golden/pdp.hpp"

#include <algorithm>
#include <stdexcept>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "golden/nvdla_regs.hpp"

namespace dla::golden {
namespace {

namespace rp = regs::pdp;
namespace rr = regs::pdp_rdma;
using regs::field;

uint64_t addr64(uint32_t high, uint32_t low) { return (uint64_t{high} << 32) | low; }
int plus1(uint32_t v) { return static_cast<int>(v) + 1; }
std::string str(int64_t v) { return std::to_string(v); }

const char* method_name(PdpMethod m) {
  switch (m) {
    case PdpMethod::Average: return "average";
    case PdpMethod::Max: return "max";
    case PdpMethod::Min: return "min";
    default: return "reserved";
  }
}

const char* precision_label(PdpPrecision p) {
  switch (p) {
    case PdpPrecision::Int8: return "int8";
    case PdpPrecision::Int16: return "int16";
    case PdpPrecision::Fp16: return "fp16";
    default: return "reserved";
  }
}

std::string cube_str(const CubeShape& s) { return str(s.w) + "x" + str(s.h) + "x" + str(s.c); }

// Width of split piece i of n (first / mid / last).
int piece(const PdpPartialWidths& p, int i, int n) { return i == 0 ? p.first : (i == n - 1 ? p.last : p.mid); }

// The split rules of NVDLA's programming guide (hardware limitations): the pieces add up, each
// piece's input width is exactly what its output columns' windows need (left padding in the first
// piece, right padding in the last, the kernel overlap in the others), so a split layer computes
// exactly the unsplit result.
void check_split(const PdpConfig& c, std::vector<std::string>& out) {
  const int n = c.splits;
  const int ov = c.kernel_w - c.stride_w;
  int sum_in = 0, sum_out = 0;
  for (int i = 0; i < n; ++i) {
    sum_in += piece(c.in_widths, i, n);
    sum_out += piece(c.out_widths, i, n);
  }
  if (sum_in != c.in.w) {
    out.push_back("PDP D_PARTIAL_WIDTH_IN: FIRST + MID x " + str(n - 2) + " + LAST = " + str(sum_in) +
                  " must equal the input width " + str(c.in.w));
  }
  if (sum_out != c.out.w) {
    out.push_back("PDP D_PARTIAL_WIDTH_OUT: FIRST + MID x " + str(n - 2) + " + LAST = " + str(sum_out) +
                  " must equal the output width " + str(c.out.w));
  }
  const auto need = [&](int out_w) { return (out_w - 1) * c.stride_w + c.kernel_w; };
  if (c.in_widths.first + c.pad_left != need(c.out_widths.first)) {
    out.push_back("PDP D_PARTIAL_WIDTH_IN.FIRST (" + str(c.in_widths.first) + ") + PAD_LEFT (" + str(c.pad_left) +
                  ") must equal (OUT_FIRST - 1) x stride + kernel = " + str(need(c.out_widths.first)));
  }
  if (n > 2 && c.in_widths.mid + ov != need(c.out_widths.mid)) {
    out.push_back("PDP D_PARTIAL_WIDTH_IN.MID (" + str(c.in_widths.mid) + ") + overlap (kernel - stride = " + str(ov) +
                  ") must equal (OUT_MID - 1) x stride + kernel = " + str(need(c.out_widths.mid)));
  }
  if (c.in_widths.last + c.pad_right + ov != need(c.out_widths.last)) {
    out.push_back("PDP D_PARTIAL_WIDTH_IN.LAST (" + str(c.in_widths.last) + ") + PAD_RIGHT (" + str(c.pad_right) +
                  ") + overlap (" + str(ov) + ") must equal (OUT_LAST - 1) x stride + kernel = " +
                  str(need(c.out_widths.last)));
  }
  if (ov >= 0) {
    if (ov > c.in_widths.first || (n > 2 && ov > c.in_widths.mid)) {
      out.push_back("PDP D_PARTIAL_WIDTH_IN: the overlap kernel - stride = " + str(ov) +
                    " must not exceed the FIRST and MID input widths");
    }
  } else if (-ov >= c.in_widths.last || (n > 2 && -ov >= c.in_widths.mid)) {
    out.push_back("PDP D_PARTIAL_WIDTH_IN: stride - kernel = " + str(-ov) +
                  " must be less than the LAST and MID input widths");
  }
}

}  // namespace

int PdpConfig::lanes() const {
  const int ca = lanes_per_atom();
  return (in.c + ca - 1) / ca * ca;
}

int pdp_out_size(int in, int pad_lo, int pad_hi, int kernel, int stride) {
  const int span = in + pad_lo + pad_hi - kernel;
  return span < 0 ? 0 : span / stride + 1;
}

int pdp_pad_value_bits(int n, int bpe) {
  static constexpr std::array<int, 8> kInt8Bits{0, 8, 9, 10, 10, 11, 11, 11};
  return kInt8Bits.at(static_cast<std::size_t>(n)) + (bpe == 2 ? 8 : 0);
}

// ---- decode -----------------------------------------------------------------------------------

PdpConfig decode_pdp(const PdpRegReader& pdp, const PdpRegReader& rdma, int atom_bytes) {
  PdpConfig c;
  c.atom_bytes = atom_bytes;
  c.in.w = plus1(field(pdp(rp::D_DATA_CUBE_IN_WIDTH::offset), rp::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH{}));
  c.in.h = plus1(field(pdp(rp::D_DATA_CUBE_IN_HEIGHT::offset), rp::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT{}));
  c.in.c = plus1(field(pdp(rp::D_DATA_CUBE_IN_CHANNEL::offset), rp::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL{}));
  c.out.w = plus1(field(pdp(rp::D_DATA_CUBE_OUT_WIDTH::offset), rp::D_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH{}));
  c.out.h = plus1(field(pdp(rp::D_DATA_CUBE_OUT_HEIGHT::offset), rp::D_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT{}));
  c.out.c = plus1(field(pdp(rp::D_DATA_CUBE_OUT_CHANNEL::offset), rp::D_DATA_CUBE_OUT_CHANNEL::CUBE_OUT_CHANNEL{}));

  const uint32_t mode = pdp(rp::D_OPERATION_MODE_CFG::offset);
  c.method = static_cast<PdpMethod>(field(mode, rp::D_OPERATION_MODE_CFG::POOLING_METHOD{}));
  c.off_flying = field(mode, rp::D_OPERATION_MODE_CFG::FLYING_MODE{}) != 0;
  c.splits = plus1(field(mode, rp::D_OPERATION_MODE_CFG::SPLIT_NUM{}));
  c.nan_to_zero = field(pdp(rp::D_NAN_FLUSH_TO_ZERO::offset), rp::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO{}) != 0;

  const uint32_t pin = pdp(rp::D_PARTIAL_WIDTH_IN::offset);
  c.in_widths = {plus1(field(pin, rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_FIRST{})),
                 plus1(field(pin, rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_MID{})),
                 plus1(field(pin, rp::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_LAST{}))};
  const uint32_t pout = pdp(rp::D_PARTIAL_WIDTH_OUT::offset);
  c.out_widths = {plus1(field(pout, rp::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_FIRST{})),
                  plus1(field(pout, rp::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_MID{})),
                  plus1(field(pout, rp::D_PARTIAL_WIDTH_OUT::PARTIAL_WIDTH_OUT_LAST{}))};

  const uint32_t k = pdp(rp::D_POOLING_KERNEL_CFG::offset);
  c.kernel_w = plus1(field(k, rp::D_POOLING_KERNEL_CFG::KERNEL_WIDTH{}));
  c.kernel_h = plus1(field(k, rp::D_POOLING_KERNEL_CFG::KERNEL_HEIGHT{}));
  c.stride_w = plus1(field(k, rp::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH{}));
  c.stride_h = plus1(field(k, rp::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT{}));
  c.recip_w = field(pdp(rp::D_RECIP_KERNEL_WIDTH::offset), rp::D_RECIP_KERNEL_WIDTH::RECIP_KERNEL_WIDTH{});
  c.recip_h = field(pdp(rp::D_RECIP_KERNEL_HEIGHT::offset), rp::D_RECIP_KERNEL_HEIGHT::RECIP_KERNEL_HEIGHT{});

  const uint32_t pad = pdp(rp::D_POOLING_PADDING_CFG::offset);
  c.pad_left = static_cast<int>(field(pad, rp::D_POOLING_PADDING_CFG::PAD_LEFT{}));
  c.pad_top = static_cast<int>(field(pad, rp::D_POOLING_PADDING_CFG::PAD_TOP{}));
  c.pad_right = static_cast<int>(field(pad, rp::D_POOLING_PADDING_CFG::PAD_RIGHT{}));
  c.pad_bottom = static_cast<int>(field(pad, rp::D_POOLING_PADDING_CFG::PAD_BOTTOM{}));
  // PAD_VALUE_{n}X registers are 4 bytes apart, one 19-bit field each.
  for (uint32_t i = 0; i < 7; ++i) {
    const uint32_t raw = field(pdp(rp::D_POOLING_PADDING_VALUE_1_CFG::offset + 4 * i),
                               rp::D_POOLING_PADDING_VALUE_1_CFG::PAD_VALUE_1X{});
    c.pad_value[i] = static_cast<int32_t>(sign_extend(raw, 19));
  }

  c.dst_base = addr64(pdp(rp::D_DST_BASE_ADDR_HIGH::offset), pdp(rp::D_DST_BASE_ADDR_LOW::offset));
  c.dst_line_stride = pdp(rp::D_DST_LINE_STRIDE::offset);
  c.dst_surface_stride = pdp(rp::D_DST_SURFACE_STRIDE::offset);
  c.dst_ram_mc = field(pdp(rp::D_DST_RAM_CFG::offset), rp::D_DST_RAM_CFG::DST_RAM_TYPE{}) != 0;
  c.precision = static_cast<PdpPrecision>(field(pdp(rp::D_DATA_FORMAT::offset), rp::D_DATA_FORMAT::INPUT_DATA{}));
  c.perf_dma_en = field(pdp(rp::D_PERF_ENABLE::offset), rp::D_PERF_ENABLE::DMA_EN{}) != 0;

  c.rdma_in.w = plus1(field(rdma(rr::D_DATA_CUBE_IN_WIDTH::offset), rr::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH{}));
  c.rdma_in.h = plus1(field(rdma(rr::D_DATA_CUBE_IN_HEIGHT::offset), rr::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT{}));
  c.rdma_in.c = plus1(field(rdma(rr::D_DATA_CUBE_IN_CHANNEL::offset), rr::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL{}));
  c.src_base = addr64(rdma(rr::D_SRC_BASE_ADDR_HIGH::offset), rdma(rr::D_SRC_BASE_ADDR_LOW::offset));
  c.src_line_stride = rdma(rr::D_SRC_LINE_STRIDE::offset);
  c.src_surface_stride = rdma(rr::D_SRC_SURFACE_STRIDE::offset);
  c.src_ram_mc = field(rdma(rr::D_SRC_RAM_CFG::offset), rr::D_SRC_RAM_CFG::SRC_RAM_TYPE{}) != 0;
  c.rdma_precision =
      static_cast<PdpPrecision>(field(rdma(rr::D_DATA_FORMAT::offset), rr::D_DATA_FORMAT::INPUT_DATA{}));
  c.rdma_splits = plus1(field(rdma(rr::D_OPERATION_MODE_CFG::offset), rr::D_OPERATION_MODE_CFG::SPLIT_NUM{}));
  const uint32_t rk = rdma(rr::D_POOLING_KERNEL_CFG::offset);
  c.rdma_kernel_w = plus1(field(rk, rr::D_POOLING_KERNEL_CFG::KERNEL_WIDTH{}));
  c.rdma_stride_w = plus1(field(rk, rr::D_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH{}));
  c.rdma_pad_width =
      static_cast<int>(field(rdma(rr::D_POOLING_PADDING_CFG::offset), rr::D_POOLING_PADDING_CFG::PAD_WIDTH{}));
  const uint32_t rin = rdma(rr::D_PARTIAL_WIDTH_IN::offset);
  c.rdma_in_widths = {plus1(field(rin, rr::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_FIRST{})),
                      plus1(field(rin, rr::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_MID{})),
                      plus1(field(rin, rr::D_PARTIAL_WIDTH_IN::PARTIAL_WIDTH_IN_LAST{}))};
  c.rdma_perf_en = field(rdma(rr::D_PERF_ENABLE::offset), rr::D_PERF_ENABLE::DMA_EN{}) != 0;
  return c;
}

std::string pdp_describe(const PdpConfig& c) {
  std::string s = std::string("PDP ") + method_name(c.method) + " " + precision_label(c.precision) + " " +
                  cube_str(c.in) + " -> " + cube_str(c.out) + ", kernel " + str(c.kernel_w) + "x" + str(c.kernel_h) +
                  " stride " + str(c.stride_w) + "x" + str(c.stride_h) + ", pad L" + str(c.pad_left) + " T" +
                  str(c.pad_top) + " R" + str(c.pad_right) + " B" + str(c.pad_bottom);
  if (c.splits > 1) s += ", " + str(c.splits) + " width splits";
  s += c.off_flying ? ", from memory" : ", on the fly from SDP";
  return s;
}

// ---- limits -----------------------------------------------------------------------------------

std::vector<std::string> PdpConfig::unsupported(const HwConfig& hw) const {
  std::vector<std::string> why;
  for (const std::string& p : {off_flying ? ram_type_problem(hw, src_ram_mc, "PDP_RDMA D_SRC_RAM_CFG.SRC_RAM_TYPE") : "",
                               ram_type_problem(hw, dst_ram_mc, "PDP D_DST_RAM_CFG.DST_RAM_TYPE")}) {
    if (!p.empty()) why.push_back(p);
  }
  if (precision == PdpPrecision::Reserved) why.emplace_back("PDP D_DATA_FORMAT.INPUT_DATA=3 is reserved");
  if (precision == PdpPrecision::Int16 && !hw.supports(Precision::Int16)) {
    why.push_back("PDP D_DATA_FORMAT.INPUT_DATA=INT16: " + hw.name + " has no int16");
  }
  if (precision == PdpPrecision::Fp16 && !hw.supports(Precision::Fp16)) {
    why.push_back("PDP D_DATA_FORMAT.INPUT_DATA=FP16: " + hw.name + " has no fp16");
  }
  // fp16 average with an 8-wide kernel: NVIDIA's C model multiplies the vertical pad value by the
  // kernel width from a table of 8 entries (1..7) indexed by 8, past its end; only a zero pad
  // value gives a defined result there (docs/FP16.md "PDP").
  if (precision == PdpPrecision::Fp16 && method == PdpMethod::Average && kernel_w == 8) {
    const int rows = std::min(7, pad_top + pad_bottom);
    for (int n = 1; n <= rows; ++n) {
      if ((static_cast<uint32_t>(pad_value[static_cast<std::size_t>(n - 1)]) & 0x1ffffu) != 0) {
        why.push_back("PDP fp16 average with KERNEL_WIDTH 8 and a non-zero PAD_VALUE_" + str(n) +
                      "X: NVDLA's C model scales the vertical pad value by the kernel width read past the end of its "
                      "1..7 table, so the result is undefined (use a zero pad value)");
        break;
      }
    }
  }
  if (method == PdpMethod::Reserved) why.emplace_back("PDP D_OPERATION_MODE_CFG.POOLING_METHOD=3 is reserved");
  if (kernel_w > 8) why.push_back("PDP KERNEL_WIDTH " + str(kernel_w) + " exceeds NVDLA's maximum kernel of 8");
  if (kernel_h > 8) why.push_back("PDP KERNEL_HEIGHT " + str(kernel_h) + " exceeds NVDLA's maximum kernel of 8");
  if (!why.empty()) return why;  // the rules below assume a valid precision and kernel

  // Padding: fewer padded columns/rows than the kernel, so every window holds an input element.
  if (pad_left >= kernel_w || pad_right >= kernel_w) {
    why.push_back("PDP PAD_LEFT (" + str(pad_left) + ") and PAD_RIGHT (" + str(pad_right) +
                  ") must be less than the kernel width " + str(kernel_w));
  }
  if (pad_top >= kernel_h || pad_bottom >= kernel_h) {
    why.push_back("PDP PAD_TOP (" + str(pad_top) + ") and PAD_BOTTOM (" + str(pad_bottom) +
                  ") must be less than the kernel height " + str(kernel_h));
  }
  if (out.c != in.c) {
    why.push_back("PDP D_DATA_CUBE_OUT_CHANNEL (" + str(out.c) + ") must equal D_DATA_CUBE_IN_CHANNEL (" +
                  str(in.c) + ")");
  }
  const int ow = pdp_out_size(in.w, pad_left, pad_right, kernel_w, stride_w);
  const int oh = pdp_out_size(in.h, pad_top, pad_bottom, kernel_h, stride_h);
  if (ow == 0 || out.w != ow) {
    why.push_back("PDP D_DATA_CUBE_OUT_WIDTH (" + str(out.w) + ") must be (W + PAD_LEFT + PAD_RIGHT - kernel) / stride + 1 = " +
                  (ow == 0 ? std::string("none (the padded width is less than the kernel)") : str(ow)));
  }
  if (oh == 0 || out.h != oh) {
    why.push_back("PDP D_DATA_CUBE_OUT_HEIGHT (" + str(out.h) +
                  ") must be (H + PAD_TOP + PAD_BOTTOM - kernel) / stride + 1 = " +
                  (oh == 0 ? std::string("none (the padded height is less than the kernel)") : str(oh)));
  }
  if (ow != 0 && (in.w + pad_left + pad_right - kernel_w) % stride_w != 0) {
    why.push_back("PDP: W + PAD_LEFT + PAD_RIGHT - kernel width = " + str(in.w + pad_left + pad_right - kernel_w) +
                  " must be a multiple of the stride " + str(stride_w) + " (NVDLA uses every input column)");
  }
  // The line buffer holds fp16 as it holds int16 (NVIDIA's C model: 4 bytes per lane in both).
  const Precision p = precision == PdpPrecision::Int8 ? Precision::Int8 : Precision::Int16;
  const int max_w = hw.pdp_max_out_width(p, kernel_h, stride_h);
  const std::string holds = " columns PDP's line buffer holds on " + hw.name + " for a kernel of " + str(kernel_h) +
                            " rows at stride " + str(stride_h);
  if (splits == 1) {
    if (out.w > max_w) {
      why.push_back("PDP output width " + str(out.w) + " exceeds the " + str(max_w) + holds + ": split the width (SPLIT_NUM)");
    }
  } else {
    if (!off_flying) why.emplace_back("PDP SPLIT_NUM > 0 needs FLYING_MODE=OFF_FLYING (split width reads from memory)");
    check_split(*this, why);
    const int widest = std::max({out_widths.first, out_widths.last, splits > 2 ? out_widths.mid : 0});
    if (widest > max_w) {
      why.push_back("PDP D_PARTIAL_WIDTH_OUT: a split of " + str(widest) + " output columns exceeds the " + str(max_w) + holds);
    }
  }
  const std::string dst = pdp_output_layout(*this).validate(pdp_output_shape(*this));
  if (!dst.empty()) why.push_back("PDP destination (D_DST_*): " + dst);

  if (off_flying) {
    // PDP_RDMA must read the cube PDP pools.
    if (rdma_in.h != in.h || rdma_in.c != in.c || (splits == 1 && rdma_in.w != in.w)) {
      why.push_back("PDP_RDMA D_DATA_CUBE_IN_* (" + cube_str(rdma_in) + ") differs from PDP's input cube " + cube_str(in));
    }
    if (rdma_precision != precision) why.emplace_back("PDP_RDMA D_DATA_FORMAT.INPUT_DATA differs from PDP's");
    if (rdma_splits != splits) {
      why.push_back("PDP_RDMA SPLIT_NUM (" + str(rdma_splits - 1) + ") differs from PDP's (" + str(splits - 1) + ")");
    }
    if (rdma_kernel_w != kernel_w || rdma_stride_w != stride_w) {
      why.push_back("PDP_RDMA D_POOLING_KERNEL_CFG (kernel width " + str(rdma_kernel_w) + ", stride " +
                    str(rdma_stride_w) + ") differs from PDP's (" + str(kernel_w) + ", " + str(stride_w) + ")");
    }
    if (splits > 1 && !(rdma_in_widths == in_widths)) {
      why.emplace_back("PDP_RDMA D_PARTIAL_WIDTH_IN differs from PDP's");
    }
    const std::string src = pdp_input_layout(*this).validate(pdp_input_shape(*this));
    if (!src.empty()) why.push_back("PDP_RDMA source (D_SRC_*): " + src);
  }
  return why;
}

// ---- arithmetic -------------------------------------------------------------------------------

int64_t pdp_average(int64_t sum, uint32_t recip_w, uint32_t recip_h, int bits) {
  if (saturates(sum, bits + 6)) {
    throw std::domain_error("PDP average: window sum " + str(sum) + " exceeds the " + str(bits + 6) +
                            "-bit sum of NVDLA's datapath (pad values too large)");
  }
  const Wide t = rhaz_shift(Wide{sum} * recip_w, 16);
  if (saturates(t, bits + 3)) {
    throw std::domain_error("PDP average: sum x RECIP_KERNEL_WIDTH / 2^16 = " + str(static_cast<int64_t>(t)) +
                            " exceeds NVDLA's " + str(bits + 3) + "-bit quotient (RECIP_KERNEL_WIDTH above 1/kernel)");
  }
  const Wide r = rhaz_shift(t * recip_h, 16);
  if (saturates(r, bits)) {
    throw std::domain_error("PDP average: result " + str(static_cast<int64_t>(r)) + " exceeds " + str(bits) +
                            " bits (RECIP_KERNEL_WIDTH/HEIGHT above 1/kernel)");
  }
  return static_cast<int64_t>(r);
}

namespace {

// One pooling window: its real rows [row_begin, row_end) and columns [col_begin, col_end) of
// the input, and how many of its rows and columns are padding.
struct Window {
  int row_begin, row_end, col_begin, col_end;
  int nrow, ncol;
};

// Calls value(c, window) for every output element (lanes x out.h x out.w) and collects the results;
// every window must hold an input element (unsupported() makes the pads smaller than the kernel).
template <class Value>
Cube<int64_t> pool_windows(const PdpConfig& cfg, const Cube<int64_t>& input, Value value) {
  const CubeShape is = input.shape();
  Cube<int64_t> out(CubeShape{1, is.c, cfg.out.h, cfg.out.w});
  for (int c = 0; c < is.c; ++c) {
    for (int oh = 0; oh < cfg.out.h; ++oh) {
      const int r0 = oh * cfg.stride_h - cfg.pad_top;
      for (int ow = 0; ow < cfg.out.w; ++ow) {
        const int c0 = ow * cfg.stride_w - cfg.pad_left;
        Window win{std::max(0, r0), std::min(is.h, r0 + cfg.kernel_h), std::max(0, c0), std::min(is.w, c0 + cfg.kernel_w),
                   0, 0};
        if (win.row_begin >= win.row_end || win.col_begin >= win.col_end) {
          throw std::domain_error("PDP: a pooling window holds no input element (padding >= kernel)");
        }
        win.nrow = cfg.kernel_h - (win.row_end - win.row_begin);
        win.ncol = cfg.kernel_w - (win.col_end - win.col_begin);
        out.at(0, c, oh, ow) = value(c, win);
      }
    }
  }
  return out;
}

// fp16 pooling (docs/FP16.md "PDP"): max / min on the fp16 patterns; average sums in fp17, each
// row left to right (the running sum first) plus PAD_VALUE_{ncol}X, the rows top to bottom (the
// new row first), then PAD_VALUE_{nrow}X x kernel width, then x RECIP_KERNEL_WIDTH and x
// RECIP_KERNEL_HEIGHT (fp17 patterns), then to fp16.
Cube<int64_t> pdp_pool_fp16(const PdpConfig& cfg, const Cube<int64_t>& input) {
  using fp::kFp16, fp::kFp17;
  const auto pad17 = [&](int n) { return static_cast<uint32_t>(cfg.pad_value.at(static_cast<std::size_t>(n - 1))) & 0x1ffffu; };
  const uint32_t kw17 = fp::from_int(kFp17, static_cast<uint64_t>(cfg.kernel_w), 8);  // exact
  const uint32_t rw = cfg.recip_w & 0x1ffffu, rh = cfg.recip_h & 0x1ffffu;
  const bool average = cfg.method == PdpMethod::Average;
  const auto cmp = [&](uint32_t a, uint32_t b) {
    return cfg.method == PdpMethod::Max ? fp::max(kFp16, a, b) : fp::min(kFp16, a, b);
  };
  return pool_windows(cfg, input, [&](int c, const Window& win) {
    uint32_t acc = 0;
    for (int r = win.row_begin; r < win.row_end; ++r) {
      uint32_t row = 0;
      for (int col = win.col_begin; col < win.col_end; ++col) {
        const auto x = static_cast<uint32_t>(input.at(0, c, r, col)) & 0xffffu;
        const uint32_t v = average ? fp::convert(kFp16, kFp17, x) : x;
        row = col == win.col_begin ? v : (average ? fp::add(kFp17, row, v) : cmp(row, v));
      }
      if (average && win.ncol > 0) row = fp::add(kFp17, row, pad17(win.ncol));
      acc = r == win.row_begin ? row : (average ? fp::add(kFp17, row, acc) : cmp(row, acc));
    }
    if (average) {
      if (win.nrow > 0) acc = fp::add(kFp17, acc, fp::mul(kFp17, pad17(win.nrow), kw17));
      acc = fp::convert(kFp17, kFp16, fp::mul(kFp17, fp::mul(kFp17, acc, rw), rh));
    }
    return sign_extend(acc, 16);
  });
}

}  // namespace

Cube<int64_t> pdp_pool(const PdpConfig& cfg, const Cube<int64_t>& input) {
  if (cfg.precision == PdpPrecision::Fp16) return pdp_pool_fp16(cfg, input);
  const int bpe = pdp_precision_bytes(cfg.precision);
  const int bits = 8 * bpe;
  // PAD_VALUE_{n}X, checked against the width NVDLA keeps when it is used.
  const auto pad_value = [&](int n) -> int64_t {
    const int64_t v = cfg.pad_value.at(static_cast<std::size_t>(n - 1));
    const int b = pdp_pad_value_bits(n, bpe);
    if (saturates(v, b)) {
      throw std::domain_error("PDP D_POOLING_PADDING_VALUE_" + str(n) + "_CFG = " + str(v) + " does not fit the " +
                              str(b) + " bits NVDLA keeps for " + str(n) + " padded " +
                              (bpe == 1 ? "int8" : "int16") + " elements");
    }
    return v;
  };
  return pool_windows(cfg, input, [&](int c, const Window& win) {
    int64_t acc = 0;
    for (int r = win.row_begin; r < win.row_end; ++r) {
      for (int col = win.col_begin; col < win.col_end; ++col) {
        const int64_t v = input.at(0, c, r, col);
        const bool first = r == win.row_begin && col == win.col_begin;
        if (cfg.method == PdpMethod::Average || first) {
          acc = cfg.method == PdpMethod::Average ? acc + v : v;
        } else {
          acc = cfg.method == PdpMethod::Max ? std::max(acc, v) : std::min(acc, v);
        }
      }
      if (cfg.method == PdpMethod::Average && win.ncol > 0) acc += pad_value(win.ncol);
    }
    if (cfg.method == PdpMethod::Average) {
      if (win.nrow > 0) acc += cfg.kernel_w * pad_value(win.nrow);
      acc = pdp_average(acc, cfg.recip_w, cfg.recip_h, bits);
    }
    return acc;
  });
}

// ---- layer ------------------------------------------------------------------------------------

FeatureLayout pdp_input_layout(const PdpConfig& c) {
  return FeatureLayout::strided(c.src_base, c.src_line_stride, c.src_surface_stride, c.atom_bytes,
                                pdp_precision_bytes(c.precision));
}

FeatureLayout pdp_output_layout(const PdpConfig& c) {
  return FeatureLayout::strided(c.dst_base, c.dst_line_stride, c.dst_surface_stride, c.atom_bytes,
                                pdp_precision_bytes(c.precision));
}

CubeShape pdp_input_shape(const PdpConfig& c) { return {1, c.lanes(), c.in.h, c.in.w}; }
CubeShape pdp_output_shape(const PdpConfig& c) { return {1, c.lanes(), c.out.h, c.out.w}; }

PdpRun run_pdp(const PdpConfig& cfg, const HwConfig& hw, const ByteReader& read, const ByteWriter& write,
               const Cube<int64_t>* flying_input) {
  if (const auto u = cfg.unsupported(hw); !u.empty()) throw std::invalid_argument(u.front());
  Cube<int64_t> input;
  if (cfg.off_flying) {
    input = load_cube(pdp_input_layout(cfg), pdp_input_shape(cfg), read);
  } else {
    if (flying_input == nullptr) throw std::invalid_argument("PDP FLYING_MODE=ON_FLYING needs SDP's output stream");
    const CubeShape fs = flying_input->shape();
    if (fs.n != 1 || fs.w != cfg.in.w || fs.h != cfg.in.h || fs.c < cfg.lanes()) {
      throw std::invalid_argument("PDP D_DATA_CUBE_IN_* (" + cube_str(cfg.in) + ") differs from the cube SDP sends (" +
                                  cube_str(fs) + ", " + str(fs.n) + " batch(es))");
    }
    input = Cube<int64_t>(pdp_input_shape(cfg));
    for (int c = 0; c < cfg.lanes(); ++c) {
      for (int h = 0; h < cfg.in.h; ++h) {
        for (int w = 0; w < cfg.in.w; ++w) input.at(0, c, h, w) = flying_input->at(0, c, h, w);
      }
    }
  }
  PdpRun run;
  if (cfg.precision == PdpPrecision::Fp16) {
    if (cfg.off_flying) {
      // NaN / Inf counters: every lane of every atom PDP_RDMA reads, the columns a split reads
      // again counted again; then NAN_TO_ZERO flushes NaNs to +0 (memory input only).
      const int ov = cfg.kernel_w - cfg.stride_w;
      for (int i = 0; i < cfg.splits; ++i) {
        const int first = cfg.in_widths.first;
        const int start = i == 0 ? 0 : first + (i - 1) * cfg.in_widths.mid - ov;
        const int width = i == 0 ? (cfg.splits == 1 ? cfg.in.w : first)
                                 : (i == cfg.splits - 1 ? cfg.in_widths.last : cfg.in_widths.mid) + ov;
        for (int c = 0; c < cfg.lanes(); ++c) {
          for (int h = 0; h < cfg.in.h; ++h) {
            for (int w = std::max(0, start); w < std::min(cfg.in.w, start + width); ++w) {
              const auto x = static_cast<uint32_t>(input.at(0, c, h, w)) & 0xffffu;
              if (fp::is_nan(fp::kFp16, x)) ++run.nan_input;
              if (fp::is_inf(fp::kFp16, x)) ++run.inf_input;
            }
          }
        }
      }
      if (cfg.nan_to_zero) {
        for (int64_t& v : input.data()) {
          if (fp::is_nan(fp::kFp16, static_cast<uint32_t>(v) & 0xffffu)) v = 0;
        }
      }
    }
  }
  run.output = pdp_pool(cfg, input);
  run.elements = run.output.size();
  if (cfg.precision == PdpPrecision::Fp16) {
    for (const int64_t v : run.output.data()) run.nan_output += fp::is_nan(fp::kFp16, static_cast<uint32_t>(v) & 0xffffu) ? 1 : 0;
  }
  store_cube(pdp_output_layout(cfg), run.output, write);
  return run;
}

}  // namespace dla::golden
