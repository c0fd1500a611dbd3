#include "engines/conv/golden/conv.hpp"

#include <algorithm>
#include <stdexcept>

#include "golden/arith.hpp"
#include "golden/fp.hpp"
#include "engines/cmac/golden/cmac.hpp"
#include "engines/conv/golden/conv_fp16.hpp"
#include "engines/conv/golden/conv_image.hpp"
#include "engines/conv/golden/conv_modes.hpp"
#include "engines/conv/golden/conv_wfold.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/nvdla_regs.hpp"

namespace dla::golden {

namespace {

namespace rcdma = regs::cdma;
namespace rcsc = regs::csc;
namespace rcmac = regs::cmac_a;  // CMAC_B has the same registers at the same offsets
namespace rcacc = regs::cacc;
using regs::field;

constexpr int kCaccOutBits = 32;

int ceil_div(int a, int b) { return (a + b - 1) / b; }
uint64_t u64(int v) { return static_cast<uint64_t>(v); }

int sint(uint32_t v) { return static_cast<int>(v); }

std::string str(int v) { return std::to_string(v); }

}  // namespace

int64_t conv_read_element(const ByteReader& read, uint64_t addr, int bpe) {
  uint64_t raw = 0;
  for (int i = 0; i < bpe; ++i) raw |= uint64_t{read(addr + u64(i))} << (8 * i);
  return sign_extend(raw, 8 * bpe);
}

// ---- configuration geometry -------------------------------------------------------------------

CbufGeometry cbuf_geometry(const HwConfig& hw) {
  return {hw.cbuf_banks, hw.cbuf_entries, hw.cbuf_entry_bytes};
}

StripeLimits stripe_limits(const HwConfig& hw) {
  return {hw.stripe_lower, hw.stripe_upper};
}

std::vector<int> csc_stripes(int positions, const StripeLimits& limits) {
  std::vector<int> out;
  int left = positions;
  while (left > 0) {
    const int len = left >= 2 * limits.upper ? limits.upper : (left > limits.upper ? limits.lower : left);
    out.push_back(len);
    left -= len;
  }
  return out;
}

// ---- typed configuration ----------------------------------------------------------------------

WeightLayout ConvConfig::weight_layout() const {
  if (image.enabled) return image_view(*this).weight_layout();
  if (wfold_ws != 0) return wfold_view(*this).weight_layout();
  WeightLayout w;
  w.k = kernels;
  w.c = input.c;
  w.r = kernel_h;
  w.s = kernel_w;
  w.atomic_k = atomic_k;
  w.atomic_c = atomic_c;
  w.bpe = bpe();
  return w;
}

int ConvConfig::output_lanes() const { return ceil_div(std::max(kernels, 1), atomic_k) * atomic_k; }

std::vector<std::string> ConvConfig::unsupported() const {
  std::vector<std::string> u = decode_problems;
  if (input.n < 1 || input.n > kMaxConvBatches || output.n != input.n)
    u.push_back("the batches must be 1.." + str(kMaxConvBatches) + " and equal in the input (" + str(input.n) +
                ") and the output (" + str(output.n) + ")");
  if (input.c < 1 || input.h < 1 || input.w < 1) u.push_back("the input cube must have W, H, C >= 1");
  if (kernels < 1 || kernel_h < 1 || kernel_w < 1) u.push_back("the kernel must have K, R, S >= 1");
  if (kernel_h > 32 || kernel_w > 32) u.push_back("R and S must be <= 32 (CSC D_WEIGHT_SIZE_EXT_0)");
  if (stride_x < 1 || stride_x > 8 || stride_y < 1 || stride_y > 8) u.push_back("strides must be 1..8");
  if (dilation_x < 1 || dilation_x > 32 || dilation_y < 1 || dilation_y > 32) u.push_back("dilations must be 1..32");
  if (pad_left < 0 || pad_top < 0 || pad_left > 31 || pad_top > 31) u.push_back("PAD_LEFT and PAD_TOP must be 0..31");
  if (output.w < 1 || output.h < 1 || output.c != kernels)
    u.push_back("the output cube must be W' x H' x K with W', H' >= 1 (got " + str(output.w) + "x" + str(output.h) + "x" +
                str(output.c) + " for K=" + str(kernels) + ")");
  if (clip_truncate < 0 || clip_truncate > 16)
    u.push_back("CACC CLIP_TRUNCATE " + str(clip_truncate) +
                " is outside 0..16 (NVDLA keeps 16 fraction bits; the C model rejects larger values)");
  if (atomic_c < 1 || atomic_k < 1) u.push_back("atomic_c and atomic_k must be >= 1");
  if (!image.enabled && (in_layout.bpe != bpe() || in_layout.atom_bytes != atom_bytes))
    u.push_back("the input layout's element size / atom does not match the precision / configuration");
  if (const std::string e = image.enabled ? std::string() : in_layout.validate(input); !e.empty())
    u.push_back("input cube layout: " + e);
  if (const std::string e = weight_layout().validate(); !e.empty()) u.push_back("weights: " + e);
  if (!compression.enabled && kernels >= 1 && input.c >= 1 && kernel_h >= 1 && kernel_w >= 1 &&
      weight_bytes < weight_layout().total_bytes())
    u.push_back("D_WEIGHT_BYTES " + std::to_string(weight_bytes) + " is smaller than the " +
                std::to_string(weight_layout().total_bytes()) + " weight bytes R*S*C*K*bpe (CSC would wait forever)");
  if (cvt.enabled && (cvt.truncate < 0 || cvt.truncate > 63)) u.push_back("CDMA CVT_TRUNCATE must be 0..63");
  if (mode == ConvMode::Winograd) {
    const std::vector<std::string> w = wino_unsupported(*this);
    u.insert(u.end(), w.begin(), w.end());
  }
  const std::vector<std::string> f = wfold_unsupported(*this);
  u.insert(u.end(), f.begin(), f.end());
  const std::vector<std::string> im = image_unsupported(*this);
  u.insert(u.end(), im.begin(), im.end());
  const std::vector<std::string> md = modes_unsupported(*this);
  u.insert(u.end(), md.begin(), md.end());
  const std::vector<std::string> fp = conv_fp16_unsupported(*this);
  u.insert(u.end(), fp.begin(), fp.end());
  return u;
}

// ---- register decoding --------------------------------------------------------------------------

ConvConfig decode_conv(const ConvRegReaders& regs, const HwConfig& hw) {
  ConvConfig c;
  std::vector<std::string>& bad = c.decode_problems;
  auto mismatch = [&](const std::string& what, uint32_t a, uint32_t b) {
    if (a != b) bad.push_back(what + " differ (" + std::to_string(a) + " vs " + std::to_string(b) + ")");
  };

  // ---- memories: CDMA's two read clients on a build without NVDLA's secondary interface read MC
  for (const std::string& p :
       {ram_type_problem(hw, field(regs.cdma(rcdma::D_DAIN_RAM_TYPE::offset), rcdma::D_DAIN_RAM_TYPE::DATAIN_RAM_TYPE{}) != 0,
                         "CDMA D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE"),
        ram_type_problem(hw, field(regs.cdma(rcdma::D_WEIGHT_RAM_TYPE::offset), rcdma::D_WEIGHT_RAM_TYPE::WEIGHT_RAM_TYPE{}) != 0,
                         "CDMA D_WEIGHT_RAM_TYPE.WEIGHT_RAM_TYPE")}) {
    if (!p.empty()) bad.push_back(p);
  }

  // ---- modes and precisions (every block must agree)
  const uint32_t cdma_misc = regs.cdma(rcdma::D_MISC_CFG::offset);
  const uint32_t csc_misc = regs.csc(rcsc::D_MISC_CFG::offset);
  const uint32_t cma_misc = regs.cmac_a(rcmac::D_MISC_CFG::offset);
  const uint32_t cmb_misc = regs.cmac_b(rcmac::D_MISC_CFG::offset);
  const uint32_t cacc_misc = regs.cacc(rcacc::D_MISC_CFG::offset);
  const uint32_t modes[] = {field(cdma_misc, rcdma::D_MISC_CFG::CONV_MODE{}), field(csc_misc, rcsc::D_MISC_CFG::CONV_MODE{}),
                            field(cma_misc, rcmac::D_MISC_CFG::CONV_MODE{}), field(cmb_misc, rcmac::D_MISC_CFG::CONV_MODE{}),
                            field(cacc_misc, rcacc::D_MISC_CFG::CONV_MODE{})};
  const bool wg = std::all_of(std::begin(modes), std::end(modes), [](uint32_t m) { return m == 1; });
  if (wg) c.mode = ConvMode::Winograd;
  if (!wg && std::any_of(std::begin(modes), std::end(modes), [](uint32_t m) { return m != 0; }))
    bad.push_back("D_MISC_CFG.CONV_MODE is WINOGRAD in some but not all of CDMA/CSC/CMAC_A/CMAC_B/CACC");
  // W-fold (docs/WFOLD.md): CDMA's copies describe the layer, CSC's the folded convolution.
  const bool wf = field(regs.cdma(rcdma::D_WFOLD::offset), rcdma::D_WFOLD::WFOLD_EN{}) != 0;
  // Image input (golden/conv_image.hpp): CDMA's DATAIN_FORMAT decides what CDMA fetches.
  const uint32_t cdma_format =
      field(regs.cdma(rcdma::D_DATAIN_FORMAT::offset), rcdma::D_DATAIN_FORMAT::DATAIN_FORMAT{});
  const bool img = cdma_format != 0;
  mismatch("CDMA and CSC DATAIN_FORMAT", cdma_format,
           field(regs.csc(rcsc::D_DATAIN_FORMAT::offset), rcsc::D_DATAIN_FORMAT::DATAIN_FORMAT{}));
  // Relations that hold in direct mode only; decode_conv_wino / _wfold / _image check theirs.
  auto mismatch_dc = [&](const std::string& what, uint32_t a, uint32_t b) {
    if (!wg && !wf && !img) mismatch(what, a, b);
  };

  const uint32_t prec = field(cdma_misc, rcdma::D_MISC_CFG::PROC_PRECISION{});
  const uint32_t cdma_in = field(cdma_misc, rcdma::D_MISC_CFG::IN_PRECISION{});
  const uint32_t csc_in = field(csc_misc, rcsc::D_MISC_CFG::IN_PRECISION{});
  const uint32_t precs[] = {field(csc_misc, rcsc::D_MISC_CFG::PROC_PRECISION{}),
                            field(cma_misc, rcmac::D_MISC_CFG::PROC_PRECISION{}),
                            field(cmb_misc, rcmac::D_MISC_CFG::PROC_PRECISION{}),
                            field(cacc_misc, rcacc::D_MISC_CFG::PROC_PRECISION{})};
  // Image input: IN_PRECISION (CDMA's and CSC's) is the pixel format's, checked by
  // decode_conv_image; the PROC precisions still agree.
  if (std::any_of(std::begin(precs), std::end(precs), [&](uint32_t p) { return p != prec; }) || csc_in != cdma_in ||
      (!img && cdma_in != prec))
    bad.push_back(img ? "the precisions of CDMA and CSC (IN), CDMA, CSC, CMAC_A, CMAC_B and CACC (PROC) differ"
                      : "the precisions of CDMA (IN/PROC), CSC (IN/PROC), CMAC_A, CMAC_B and CACC differ");
  if (prec == 0) {
    c.precision = Precision::Int8;
  } else if (prec == 1) {
    c.precision = Precision::Int16;
  } else if (prec == 2) {
    c.precision = Precision::Fp16;  // engines/conv/golden/conv_fp16.hpp
  } else {
    bad.push_back("precision code " + std::to_string(prec) + " is reserved (0 INT8, 1 INT16, 2 FP16)");
  }
  if (!hw.supports(c.precision)) bad.push_back(std::string(precision_name(c.precision)) + " is not supported by " + hw.name);

  // CBUF across layers. A reuse bit changes this layer's result, so CDMA's and CSC's agree. The
  // skip-release bits do not (single-layer tests set them freely): CBUF keeps what both keep.
  c.cbuf.data_reuse = field(cdma_misc, rcdma::D_MISC_CFG::DATA_REUSE{}) != 0;
  c.cbuf.weight_reuse = field(cdma_misc, rcdma::D_MISC_CFG::WEIGHT_REUSE{}) != 0;
  c.cbuf.skip_data_rls = field(cdma_misc, rcdma::D_MISC_CFG::SKIP_DATA_RLS{}) != 0 &&
                         field(csc_misc, rcsc::D_MISC_CFG::SKIP_DATA_RLS{}) != 0;
  c.cbuf.skip_weight_rls = field(cdma_misc, rcdma::D_MISC_CFG::SKIP_WEIGHT_RLS{}) != 0 &&
                           field(csc_misc, rcsc::D_MISC_CFG::SKIP_WEIGHT_RLS{}) != 0;
  mismatch("CDMA and CSC D_MISC_CFG.DATA_REUSE", c.cbuf.data_reuse ? 1u : 0u,
           field(csc_misc, rcsc::D_MISC_CFG::DATA_REUSE{}));
  mismatch("CDMA and CSC D_MISC_CFG.WEIGHT_REUSE", c.cbuf.weight_reuse ? 1u : 0u,
           field(csc_misc, rcsc::D_MISC_CFG::WEIGHT_REUSE{}));
  c.nan_to_zero = field(regs.cdma(rcdma::D_NAN_FLUSH_TO_ZERO::offset), rcdma::D_NAN_FLUSH_TO_ZERO::NAN_TO_ZERO{}) != 0;
  c.atom_bytes = hw.atom_bytes;
  c.atomic_c = hw.atomic_c;
  c.atomic_k = hw.atomic_k(c.precision);
  const int bpe = c.bpe();

  // ---- input cube: CDMA fetch, CSC view
  const uint32_t in0 = regs.cdma(rcdma::D_DATAIN_SIZE_0::offset);
  const uint32_t in1 = regs.cdma(rcdma::D_DATAIN_SIZE_1::offset);
  const uint32_t csc_in0 = regs.csc(rcsc::D_DATAIN_SIZE_EXT_0::offset);
  const uint32_t csc_in1 = regs.csc(rcsc::D_DATAIN_SIZE_EXT_1::offset);
  const uint32_t w = field(in0, rcdma::D_DATAIN_SIZE_0::DATAIN_WIDTH{}) + 1;
  const uint32_t h = field(in0, rcdma::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}) + 1;
  const uint32_t ch = field(in1, rcdma::D_DATAIN_SIZE_1::DATAIN_CHANNEL{}) + 1;
  // CDMA's D_DATAIN_SIZE_EXT_0 is read only in Winograd mode (decode_conv_wino checks it there): the
  // direct-mode fetch does not use it, and NVDLA v1's own nv_full tests leave it at 0 (docs/CONV.md).
  mismatch_dc("CDMA and CSC input widths", w, field(csc_in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_WIDTH_EXT{}) + 1);
  mismatch_dc("CDMA and CSC input heights", h, field(csc_in0, rcsc::D_DATAIN_SIZE_EXT_0::DATAIN_HEIGHT_EXT{}) + 1);
  mismatch_dc("CDMA and CSC input channels", ch, field(csc_in1, rcsc::D_DATAIN_SIZE_EXT_1::DATAIN_CHANNEL_EXT{}) + 1);
  c.input = CubeShape{1, sint(ch), sint(h), sint(w)};

  c.in_layout.base =
      (uint64_t{field(regs.cdma(rcdma::D_DAIN_ADDR_HIGH_0::offset), rcdma::D_DAIN_ADDR_HIGH_0::DATAIN_ADDR_HIGH_0{})} << 32) |
      field(regs.cdma(rcdma::D_DAIN_ADDR_LOW_0::offset), rcdma::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{});
  c.in_layout.line_stride = field(regs.cdma(rcdma::D_LINE_STRIDE::offset), rcdma::D_LINE_STRIDE::LINE_STRIDE{});
  c.in_layout.surface_stride = field(regs.cdma(rcdma::D_SURF_STRIDE::offset), rcdma::D_SURF_STRIDE::SURF_STRIDE{});
  c.in_layout.atom_bytes = hw.atom_bytes;
  c.in_layout.bpe = bpe;

  const uint32_t cvt_cfg = regs.cdma(rcdma::D_CVT_CFG::offset);
  c.cvt.enabled = field(cvt_cfg, rcdma::D_CVT_CFG::CVT_EN{}) != 0;
  c.cvt.truncate = sint(field(cvt_cfg, rcdma::D_CVT_CFG::CVT_TRUNCATE{}));
  c.cvt.offset = static_cast<int32_t>(
      sign_extend(field(regs.cdma(rcdma::D_CVT_OFFSET::offset), rcdma::D_CVT_OFFSET::CVT_OFFSET{}), 16));
  c.cvt.scale = static_cast<int32_t>(
      sign_extend(field(regs.cdma(rcdma::D_CVT_SCALE::offset), rcdma::D_CVT_SCALE::CVT_SCALE{}), 16));

  // ---- weights
  const uint32_t cdma_k = field(regs.cdma(rcdma::D_WEIGHT_SIZE_1::offset), rcdma::D_WEIGHT_SIZE_1::WEIGHT_KERNEL{}) + 1;
  const uint32_t bpk =
      field(regs.cdma(rcdma::D_WEIGHT_SIZE_0::offset), rcdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1;
  const uint32_t wext0 = regs.csc(rcsc::D_WEIGHT_SIZE_EXT_0::offset);
  const uint32_t wext1 = regs.csc(rcsc::D_WEIGHT_SIZE_EXT_1::offset);
  c.kernel_w = sint(field(wext0, rcsc::D_WEIGHT_SIZE_EXT_0::WEIGHT_WIDTH_EXT{})) + 1;
  c.kernel_h = sint(field(wext0, rcsc::D_WEIGHT_SIZE_EXT_0::WEIGHT_HEIGHT_EXT{})) + 1;
  const uint32_t csc_k = field(wext1, rcsc::D_WEIGHT_SIZE_EXT_1::WEIGHT_KERNEL{}) + 1;
  mismatch("CDMA and CSC kernel counts", cdma_k, csc_k);
  mismatch_dc("CSC WEIGHT_CHANNEL_EXT and the input channels", field(wext1, rcsc::D_WEIGHT_SIZE_EXT_1::WEIGHT_CHANNEL_EXT{}) + 1,
           ch);
  c.kernels = sint(csc_k);
  mismatch_dc("CDMA BYTE_PER_KERNEL and R*S*C*bpe", bpk,
           static_cast<uint32_t>(c.kernel_h * c.kernel_w) * ch * static_cast<uint32_t>(bpe));
  c.weight_base =
      (uint64_t{field(regs.cdma(rcdma::D_WEIGHT_ADDR_HIGH::offset), rcdma::D_WEIGHT_ADDR_HIGH::WEIGHT_ADDR_HIGH{})} << 32) |
      field(regs.cdma(rcdma::D_WEIGHT_ADDR_LOW::offset), rcdma::D_WEIGHT_ADDR_LOW::WEIGHT_ADDR_LOW{});
  c.weight_bytes = field(regs.cdma(rcdma::D_WEIGHT_BYTES::offset), rcdma::D_WEIGHT_BYTES::WEIGHT_BYTES{});
  mismatch("CDMA and CSC D_WEIGHT_BYTES", static_cast<uint32_t>(c.weight_bytes),
           field(regs.csc(rcsc::D_WEIGHT_BYTES::offset), rcsc::D_WEIGHT_BYTES::WEIGHT_BYTES{}));

  // ---- geometry (CSC), cross-checked against CDMA
  const uint32_t stride = regs.csc(rcsc::D_CONV_STRIDE_EXT::offset);
  c.stride_x = sint(field(stride, rcsc::D_CONV_STRIDE_EXT::CONV_X_STRIDE_EXT{})) + 1;
  c.stride_y = sint(field(stride, rcsc::D_CONV_STRIDE_EXT::CONV_Y_STRIDE_EXT{})) + 1;
  const uint32_t cdma_stride = regs.cdma(rcdma::D_CONV_STRIDE::offset);
  mismatch_dc("CDMA and CSC X strides", field(cdma_stride, rcdma::D_CONV_STRIDE::CONV_X_STRIDE{}) + 1,
           static_cast<uint32_t>(c.stride_x));
  mismatch_dc("CDMA and CSC Y strides", field(cdma_stride, rcdma::D_CONV_STRIDE::CONV_Y_STRIDE{}) + 1,
           static_cast<uint32_t>(c.stride_y));
  const uint32_t dil = regs.csc(rcsc::D_DILATION_EXT::offset);
  c.dilation_x = sint(field(dil, rcsc::D_DILATION_EXT::X_DILATION_EXT{})) + 1;
  c.dilation_y = sint(field(dil, rcsc::D_DILATION_EXT::Y_DILATION_EXT{})) + 1;
  const uint32_t pad = regs.csc(rcsc::D_ZERO_PADDING::offset);
  c.pad_left = sint(field(pad, rcsc::D_ZERO_PADDING::PAD_LEFT{}));
  c.pad_top = sint(field(pad, rcsc::D_ZERO_PADDING::PAD_TOP{}));
  const uint32_t cdma_pad = regs.cdma(rcdma::D_ZERO_PADDING::offset);
  mismatch_dc("CDMA and CSC PAD_LEFT", field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_LEFT{}), static_cast<uint32_t>(c.pad_left));
  mismatch_dc("CDMA and CSC PAD_TOP", field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_TOP{}), static_cast<uint32_t>(c.pad_top));
  c.pad_right = sint(field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_RIGHT{}));
  c.pad_bottom = sint(field(cdma_pad, rcdma::D_ZERO_PADDING::PAD_BOTTOM{}));
  const uint32_t pad_raw = field(regs.csc(rcsc::D_ZERO_PADDING_VALUE::offset), rcsc::D_ZERO_PADDING_VALUE::PAD_VALUE{});
  // Image input: CDMA's value pads left / right, CSC's top / bottom (decode_conv_image).
  if (!img)
    mismatch("CDMA and CSC PAD_VALUE",
             field(regs.cdma(rcdma::D_ZERO_PADDING_VALUE::offset), rcdma::D_ZERO_PADDING_VALUE::PAD_VALUE{}), pad_raw);
  c.pad_value = static_cast<int32_t>(sign_extend(pad_raw, 8 * bpe));

  // ---- output (CSC, CACC)
  const uint32_t out0 = regs.csc(rcsc::D_DATAOUT_SIZE_0::offset);
  const uint32_t out1 = regs.csc(rcsc::D_DATAOUT_SIZE_1::offset);
  const uint32_t ow = field(out0, rcsc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) + 1;
  const uint32_t oh = field(out0, rcsc::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}) + 1;
  const uint32_t oc = field(out1, rcsc::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}) + 1;
  const uint32_t cacc0 = regs.cacc(rcacc::D_DATAOUT_SIZE_0::offset);
  mismatch("CSC and CACC output widths", ow, field(cacc0, rcacc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) + 1);
  mismatch("CSC and CACC output heights", oh, field(cacc0, rcacc::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}) + 1);
  mismatch("CSC and CACC output channels", oc,
           field(regs.cacc(rcacc::D_DATAOUT_SIZE_1::offset), rcacc::D_DATAOUT_SIZE_1::DATAOUT_CHANNEL{}) + 1);
  mismatch("CSC output channels and kernels", oc, csc_k);
  c.output = CubeShape{1, sint(oc), sint(oh), sint(ow)};
  mismatch_dc("CSC D_ATOMICS+1 and W'*H'", field(regs.csc(rcsc::D_ATOMICS::offset), rcsc::D_ATOMICS::ATOMICS{}) + 1, ow * oh);
  c.clip_truncate = sint(field(regs.cacc(rcacc::D_CLIP_CFG::offset), rcacc::D_CLIP_CFG::CLIP_TRUNCATE{}));

  if (wg) decode_conv_wino(regs, hw, c);
  if (wf) decode_conv_wfold(regs, hw, c);
  if (img) decode_conv_image(regs, hw, c);  // names a wrong ENTRY_PER_SLICE with its rule
  decode_conv_modes(regs, hw, c);           // batches (input.n, output.n), compressed weights

  // ---- CBUF bookkeeping: must agree, or the hardware fails or hangs
  const ConvDerived d = conv_derived(c, hw);
  const uint32_t eps = field(regs.cdma(rcdma::D_ENTRY_PER_SLICE::offset), rcdma::D_ENTRY_PER_SLICE::ENTRIES{}) + 1;
  mismatch("CDMA and CSC D_ENTRY_PER_SLICE", eps,
           field(regs.csc(rcsc::D_ENTRY_PER_SLICE::offset), rcsc::D_ENTRY_PER_SLICE::ENTRIES{}) + 1);
  if (!img) mismatch("D_ENTRY_PER_SLICE and the entries one input line needs", eps, static_cast<uint32_t>(d.entries_per_slice));
  const uint32_t bank = regs.cdma(rcdma::D_BANK::offset);
  mismatch("CDMA and CSC D_BANK", bank, regs.csc(rcsc::D_BANK::offset));
  const int data_banks = sint(field(bank, rcdma::D_BANK::DATA_BANK{})) + 1;
  const int weight_banks = sint(field(bank, rcdma::D_BANK::WEIGHT_BANK{})) + 1;
  const CbufGeometry cb = cbuf_geometry(hw);
  if (data_banks + weight_banks > cb.banks)
    bad.push_back("D_BANK uses " + str(data_banks) + " data + " + str(weight_banks) + " weight banks, more than the " +
                  str(cb.banks) + " CBUF banks");
  if (data_banks < d.data_banks_min)
    bad.push_back("D_BANK.DATA_BANK holds " + str(data_banks) + " banks but the whole input (EPS*H" +
                  (c.input.n > 1 ? "*batches" : "") + " entries) needs " + str(d.data_banks_min) +
                  "; CSC would wait forever");
  // Compressed weights: the group sizes in memory decide (decompress_weights checks WGS[g] + 128).
  c.compression.weight_banks = weight_banks;
  c.cbuf.data_banks = data_banks;
  c.cbuf.weight_banks = weight_banks;
  if (!c.compression.enabled && weight_banks < d.weight_banks_min)
    bad.push_back("D_BANK.WEIGHT_BANK holds " + str(weight_banks) + " banks but one kernel group needs " +
                  str(d.weight_banks_min) + "; CSC would wait forever");
  return c;
}

std::string conv_describe(const ConvConfig& c) {
  auto cube = [](const CubeShape& s) { return str(s.w) + "x" + str(s.h) + "x" + str(s.c); };
  std::string s = std::string(c.mode == ConvMode::Winograd ? "winograd conv (PRA_TRUNCATE " + str(c.pra_truncate) + ") " : "direct conv ") + std::string(precision_name(c.precision)) + ", input " + cube(c.input) + ", kernel KxCxRxS " +
                  str(c.kernels) + "x" + str(c.input.c) + "x" + str(c.kernel_h) + "x" + str(c.kernel_w) + ", output " +
                  cube(c.output) + ", stride " + str(c.stride_x) + "x" + str(c.stride_y) + ", dilation " +
                  str(c.dilation_x) + "x" + str(c.dilation_y) + ", pad L" + str(c.pad_left) + " R" + str(c.pad_right) +
                  " T" + str(c.pad_top) + " B" + str(c.pad_bottom) + " value " + str(c.pad_value) + ", clip " +
                  str(c.clip_truncate);
  if (c.wfold_ws != 0) s += ", W-fold ws " + str(c.wfold_ws);
  if (c.input.n > 1) s += ", " + str(c.input.n) + " batches (stride " + std::to_string(c.in_layout.batch_stride) + ")";
  if (c.compression.enabled) s += ", compressed weights";
  if (c.cvt.enabled)
    s += ", input cvt offset " + str(c.cvt.offset) + " scale " + str(c.cvt.scale) + " truncate " + str(c.cvt.truncate);
  if (c.image.enabled) {
    const PixelFormat* f = pixel_format(c.image.pixel_format);
    s += ", image " + std::string(f != nullptr ? f->name : "reserved format") +
         (c.image.sign_override ? " signed" : " unsigned") + " x offset " + str(c.image.x_offset) +
         ", left/right pad value " + str(c.image.pad_value_lr);
    if (c.image.post_extension != 1) s += ", post-extension " + str(c.image.post_extension) + " rows";
    if (c.image.mean)
      s += ", means " + str(c.image.means[0]) + "/" + str(c.image.means[1]) + "/" + str(c.image.means[2]) + "/" +
           str(c.image.means[3]);
  }
  return s;
}

// ---- what a compiler starts from ----------------------------------------------------------------

int conv_out_w(const ConvParams& p) {
  const int span = p.w + p.pad_left + p.pad_right - ((p.s - 1) * p.dilation_x + 1);
  return span < 0 || p.stride_x < 1 ? 0 : span / p.stride_x + 1;
}

int conv_out_h(const ConvParams& p) {
  const int span = p.h + p.pad_top + p.pad_bottom - ((p.r - 1) * p.dilation_y + 1);
  return span < 0 || p.stride_y < 1 ? 0 : span / p.stride_y + 1;
}

ConvConfig conv_config_from(const ConvParams& p, const HwConfig& hw, uint64_t in_base, uint64_t weight_base) {
  ConvConfig c;
  c.precision = p.precision;
  if (!hw.supports(p.precision))
    c.decode_problems.push_back(std::string(precision_name(p.precision)) + " is not supported by " + hw.name);
  c.atom_bytes = hw.atom_bytes;
  c.atomic_c = hw.atomic_c;
  c.atomic_k = hw.atomic_k(p.precision);
  c.input = CubeShape{p.batch, p.c, p.h, p.w};
  c.in_layout = FeatureLayout::packed(c.input, hw.atom_bytes, c.bpe(), in_base);
  c.cvt = p.cvt;
  c.kernels = p.k;
  c.kernel_h = p.r;
  c.kernel_w = p.s;
  c.weight_base = weight_base;
  c.stride_x = p.stride_x;
  c.stride_y = p.stride_y;
  c.dilation_x = p.dilation_x;
  c.dilation_y = p.dilation_y;
  c.pad_left = p.pad_left;
  c.pad_right = p.pad_right;
  c.pad_top = p.pad_top;
  c.pad_bottom = p.pad_bottom;
  c.pad_value = p.pad_value;
  c.output = CubeShape{p.batch, p.k, conv_out_h(p), conv_out_w(p)};
  c.clip_truncate = p.clip_truncate;
  c.wfold_ws = p.wfold_ws;
  c.weight_bytes = c.weight_layout().padded_bytes();
  return c;
}

ConvDerived conv_derived(const ConvConfig& c, const HwConfig& hw) {
  if (c.image.enabled) return conv_derived_image(c, hw);
  if (c.mode == ConvMode::Winograd) return conv_derived_wino(c, hw);
  if (c.wfold_ws != 0) return conv_derived(wfold_view(c), hw);  // CBUF holds the folded cube
  ConvDerived d;
  const CbufGeometry cb = cbuf_geometry(hw);
  const int bpe = c.bpe();
  // ENTRY_PER_SLICE: N atoms per (h, w) position, A atoms per CBUF entry; a short last group of
  // atoms is packed so that 2 or 4 positions share an entry (conv-pipeline.md §3).
  const int n_atoms = ceil_div(c.input.c * bpe, c.atom_bytes);
  const int a = std::max(1, cb.entry_bytes / c.atom_bytes);
  const int rem = n_atoms % a;
  const int extra = rem == 0 ? 0 : (2 * rem > a ? c.input.w : (4 * rem > a ? ceil_div(c.input.w, 2) : ceil_div(c.input.w, 4)));
  d.entries_per_slice = (n_atoms / a) * c.input.w + extra;
  // Batches: the slices of every batch, interleaved line-major (cdma-input-modes.md §4.2).
  d.data_banks_min = ceil_div(d.entries_per_slice * c.input.h * std::max(1, c.input.n), cb.entries_per_bank);
  const uint64_t bank_bytes = u64(cb.entries_per_bank) * u64(cb.entry_bytes);
  d.byte_per_kernel = static_cast<uint32_t>(c.kernel_h * c.kernel_w * c.input.c * bpe);
  const uint64_t group_bytes = u64(std::min(c.kernels, c.atomic_k)) * d.byte_per_kernel;
  d.weight_banks_min = static_cast<int>((group_bytes + bank_bytes - 1) / bank_bytes);
  d.weight_bytes = c.weight_layout().padded_bytes();
  d.weight_banks_all = static_cast<int>((d.weight_bytes + bank_bytes - 1) / bank_bytes);
  d.atomics = c.output.w * c.output.h;
  d.kernel_groups = ceil_div(c.kernels, c.atomic_k);
  d.channel_blocks = ceil_div(c.input.c, c.atomic_c);
  d.stripes = c.input.n > 1 ? batch_stripes(d.atomics, c.input.n) : csc_stripes(d.atomics, stripe_limits(hw));
  return d;
}

// ---- CACC arithmetic ----------------------------------------------------------------------------

int cacc_psum_bits(Precision p) { return p == Precision::Int16 ? 48 : 34; }

int64_t cacc_accumulate(int64_t acc, int64_t psum, Precision p) { return sat(Wide{acc} + psum, cacc_psum_bits(p)); }

int64_t cacc_output(int64_t acc, int clip_truncate, bool* saturated) {
  return shift_right_sat(acc, 64, clip_truncate, kCaccOutBits, saturated);
}

// ---- one layer ---------------------------------------------------------------------------------

int64_t cdma_convert(int64_t x, int32_t operand, const ConvInputCvt& cvt, int out_bits) {
  const Wide v = (Wide{x} - operand) * cvt.scale;
  return shift_right_sat(v, 128, cvt.truncate, out_bits);
}

Cube<int64_t> conv_fetch_input(const ConvConfig& cfg, const ByteReader& read) {
  Cube<int64_t> in = load_cube(cfg.in_layout, cfg.input, read);
  if (cfg.cvt.enabled) {
    for (auto& x : in.data()) x = cdma_convert(x, cfg.cvt.offset, cfg.cvt, 8 * cfg.bpe());
  }
  if (cfg.precision == Precision::Fp16 && cfg.nan_to_zero) {
    for (auto& x : in.data()) x = fp::is_nan(fp::kFp16, static_cast<uint32_t>(x) & 0xffffu) ? 0 : x;
  }
  return in;
}

namespace {
ConvRun run_conv_direct(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read, const Cube<int64_t>& in,
                        const std::vector<int>& stripes);
}  // namespace

std::vector<std::string> cbuf_reuse_problems(const ConvConfig* last, const ConvConfig& next, const HwConfig& hw) {
  std::vector<std::string> u;
  const ConvCbufFlags& f = next.cbuf;
  if (!f.data_reuse && !f.weight_reuse) return u;
  auto banks = [](const ConvConfig& c) {
    return str(c.cbuf.data_banks) + " data + " + str(c.cbuf.weight_banks) + " weight banks";
  };
  if (f.weight_reuse) {
    const CbufGeometry g = cbuf_geometry(hw);
    const uint64_t bank_bytes = static_cast<uint64_t>(g.entries_per_bank) * static_cast<uint64_t>(g.entry_bytes);
    if (last == nullptr) {
      u.push_back("WEIGHT_REUSE, but no convolution has run since reset: CBUF holds no weights");
    } else if (!last->cbuf.skip_weight_rls) {
      u.push_back("WEIGHT_REUSE, but the previous layer released its weights (its SKIP_WEIGHT_RLS is 0)");
    } else if (last->weight_bytes > static_cast<uint64_t>(last->cbuf.weight_banks) * bank_bytes) {
      u.push_back("WEIGHT_REUSE, but the previous layer's " + std::to_string(last->weight_bytes) +
                  " weight bytes did not fit its " + str(last->cbuf.weight_banks) +
                  " weight banks: its weight ring wrapped, so CBUF holds only part of them");
    } else if (last->cbuf.data_banks != f.data_banks || last->cbuf.weight_banks != f.weight_banks) {
      u.push_back("WEIGHT_REUSE needs the previous layer's D_BANK (" + banks(*last) + "), got " + banks(next) +
                  ": the held weights sit in other banks");
    } else if (last->weight_bytes != next.weight_bytes) {
      u.push_back("WEIGHT_REUSE needs the held weights' D_WEIGHT_BYTES " + std::to_string(last->weight_bytes) +
                  ", got " + std::to_string(next.weight_bytes));
    } else if (last->mode != next.mode || last->precision != next.precision) {
      u.push_back("WEIGHT_REUSE needs the previous layer's CONV_MODE and precision");
    } else if (last->compression.enabled || next.compression.enabled) {
      u.push_back("WEIGHT_REUSE with compressed weights is not modelled (the mask bits share bank 15)");
    }
  }
  if (f.data_reuse) {
    auto plain = [](const ConvConfig& c) {
      return c.mode == ConvMode::Direct && !c.image.enabled && c.wfold_ws == 0;
    };
    auto cube = [](const ConvConfig& c) {
      return str(c.input.w) + "x" + str(c.input.h) + "x" + str(c.input.c) + " (" + str(c.input.n) + " batch(es), " +
             std::string(precision_name(c.precision)) + ")";
    };
    if (last == nullptr) {
      u.push_back("DATA_REUSE, but no convolution has run since reset: CBUF holds no input");
    } else if (!last->cbuf.skip_data_rls) {
      u.push_back("DATA_REUSE, but the previous layer released its input lines (its SKIP_DATA_RLS is 0; the lines a "
                  "partial D_RELEASE keeps are not modelled)");
    } else if (last->cbuf.data_banks != f.data_banks) {
      u.push_back("DATA_REUSE needs the previous layer's D_BANK.DATA_BANK (" + str(last->cbuf.data_banks) +
                  " banks), got " + str(f.data_banks));
    } else if (!plain(*last) || !plain(next)) {
      u.push_back("DATA_REUSE is modelled for direct convolutions of feature input only (not Winograd, image input "
                  "or W-fold, in either layer)");
    } else if (last->input.n != next.input.n || last->input.c != next.input.c || last->input.h != next.input.h ||
               last->input.w != next.input.w || last->precision != next.precision) {
      u.push_back("DATA_REUSE needs the held input cube " + cube(*last) + ", got " + cube(next));
    }
  }
  return u;
}

ConvRun run_conv(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read, ConvCbufState* cbuf) {
  std::vector<std::string> u = cfg.unsupported();
  if (cfg.atomic_c != hw.atomic_c || cfg.atomic_k != hw.atomic_k(cfg.precision) || cfg.atom_bytes != hw.atom_bytes)
    u.push_back("atomic_c / atomic_k / atom of the config do not match " + hw.name);
  if (cfg.mode == ConvMode::Winograd && !has_winograd(hw)) u.push_back(wino_hw_refusal(hw));
  if (cfg.wfold_ws != 0 && !hw.wfold) u.push_back(wfold_hw_refusal(hw));
  const std::vector<std::string> im = image_hw_problems(cfg, hw);
  u.insert(u.end(), im.begin(), im.end());
  const std::vector<std::string> md = modes_hw_problems(cfg, hw);
  u.insert(u.end(), md.begin(), md.end());
  if (cbuf != nullptr) {
    const std::vector<std::string> cb = cbuf_reuse_problems(cbuf->last ? &*cbuf->last : nullptr, cfg, hw);
    u.insert(u.end(), cb.begin(), cb.end());
  } else if (cfg.cbuf.data_reuse || cfg.cbuf.weight_reuse) {
    u.push_back("DATA_REUSE / WEIGHT_REUSE take what a previous layer left in CBUF, and a single layer has none");
  }
  // Compressed weights: CSC decompresses the stream (WMB, data, WGS in memory); the rules on
  // those images are checked here, where memory is known.
  DecompressedWeights dw;
  if (u.empty() && cfg.compression.enabled) {
    dw = decompress_weights(cfg, hw, read);
    u.insert(u.end(), dw.problems.begin(), dw.problems.end());
  }
  if (!u.empty()) {
    std::string msg = "convolution: cannot run this configuration: " + u.front();
    for (std::size_t i = 1; i < u.size(); ++i) msg += "; " + u[i];
    throw std::invalid_argument(msg);
  }
  // The weight bytes CBUF receives: from memory, or (WEIGHT_REUSE) those it holds.
  const bool held_w = cfg.cbuf.weight_reuse;
  const ByteReader mread = !held_w ? read : ByteReader([&](uint64_t a) -> uint8_t {
    const uint64_t off = a - cfg.weight_base;
    return a >= cfg.weight_base && off < cbuf->weights.size() ? cbuf->weights[static_cast<std::size_t>(off)] : 0;
  });
  // CSC's weights: those, or the decompressed stream in place of the compressed one.
  const ByteReader wread = !cfg.compression.enabled ? mread : ByteReader([&](uint64_t a) -> uint8_t {
    const uint64_t off = a - cfg.weight_base;
    return a >= cfg.weight_base && off < dw.bytes.size() ? dw.bytes[static_cast<std::size_t>(off)] : read(a);
  });
  Cube<int64_t> in;  // the input cube CDMA wrote into CBUF (direct and W-fold modes)
  ConvRun run;
  if (cfg.mode == ConvMode::Winograd) {
    run = run_conv_wino(cfg, hw, read, mread);
  } else if (cfg.image.enabled) {
    // Image input: CDMA writes the padded, converted image lines into CBUF; CSC reads each kernel
    // row as C' pre-extended channels of a line (golden/conv_image.hpp) in its image stripes.
    // Post-extension (§3): the stored weights re-ordered to the direct layout CSC's lanes meet. The
    // row groups change the issue order, not the integer arithmetic; in fp16 they decide the
    // rounding (one CMAC dot product and one CACC add per row group), so the fp16 path issues them.
    std::vector<uint8_t> direct;
    ByteReader iread = wread;
    if (cfg.image.post_extension > 1) {
      direct = image_weights_direct(cfg, wread);
      iread = [&](uint64_t a) -> uint8_t {
        const uint64_t off = a - cfg.weight_base;
        return a >= cfg.weight_base && off < direct.size() ? direct[static_cast<std::size_t>(off)] : read(a);
      };
    }
    const ConvConfig view = image_view(cfg);
    const Cube<int64_t> vin = image_view_cube(cfg, image_cbuf(cfg, hw, read));
    run = cfg.precision == Precision::Fp16
              ? run_conv_direct_fp16(view, iread, vin, image_stripes(cfg), cfg.image.post_extension)
                                           : run_conv_direct(view, hw, iread, vin, image_stripes(cfg));
  } else {
    // CDMA: fetch the input cube (every element through the feature layout) and convert it, or
    // (DATA_REUSE) take the one CBUF holds; in fold mode it writes the folded cube into CBUF,
    // which CSC reads as an ordinary direct convolution. Batches: every batch's cube through
    // in_layout (D_BATCH_STRIDE apart), CSC's batch stripes.
    in = cfg.cbuf.data_reuse ? cbuf->data : conv_fetch_input(cfg, read);
    const int positions = cfg.output.w * cfg.output.h;
    const std::vector<int> stripes =
        cfg.input.n > 1 ? batch_stripes(positions, cfg.input.n) : csc_stripes(positions, stripe_limits(hw));
    run = cfg.wfold_ws != 0                   ? run_conv_direct(wfold_view(cfg), hw, wread, wfold_fold(cfg, in), stripes)
          : cfg.precision == Precision::Fp16 ? run_conv_direct_fp16(cfg, wread, in, stripes)
                                              : run_conv_direct(cfg, hw, wread, in, stripes);
  }
  if (cbuf != nullptr) {
    // What stays in CBUF for the next layer. Weights beyond their banks wrapped in the ring
    // (cbuf_reuse_problems refuses to reuse them), so none are kept then.
    const CbufGeometry g = cbuf_geometry(hw);
    const uint64_t ring = static_cast<uint64_t>(cfg.cbuf.weight_banks) * static_cast<uint64_t>(g.entries_per_bank) *
                          static_cast<uint64_t>(g.entry_bytes);
    if (!cfg.cbuf.skip_weight_rls || cfg.weight_bytes > ring) {
      cbuf->weights.clear();
    } else if (!held_w) {
      cbuf->weights.resize(static_cast<std::size_t>(cfg.weight_bytes));
      for (std::size_t i = 0; i < cbuf->weights.size(); ++i) cbuf->weights[i] = read(cfg.weight_base + i);
    }
    if (!cfg.cbuf.skip_data_rls) {
      cbuf->data = Cube<int64_t>{};
    } else if (!cfg.cbuf.data_reuse) {
      cbuf->data = std::move(in);  // empty outside direct / W-fold mode: not reusable (cbuf_reuse_problems)
    }
    cbuf->last = cfg;
  }
  return run;
}

namespace {

// The direct convolution of the cube `in` CBUF holds (CSC's geometry in cfg), in CSC's `stripes`
// (consecutive output positions in raster order).
ConvRun run_conv_direct(const ConvConfig& cfg, const HwConfig& hw, const ByteReader& read, const Cube<int64_t>& in,
                        const std::vector<int>& stripes) {
  const Precision prec = cfg.precision;
  const int bpe = cfg.bpe();
  const int ck = cfg.atomic_c;
  const int kk = cfg.atomic_k;
  const int C = cfg.input.c;
  const int K = cfg.kernels, R = cfg.kernel_h, S = cfg.kernel_w;
  const int OW = cfg.output.w, OH = cfg.output.h;

  // CDMA/CSC: the weights of each (kernel group, channel block, r, s) as the MAC cells load them:
  // weights[k][c] for the group's kernels, channels beyond C zero.
  const WeightLayout wl = cfg.weight_layout();
  const int groups = ceil_div(K, kk);
  const int blocks = ceil_div(C, ck);
  std::vector<CmacWeights> wsets(static_cast<std::size_t>(groups * blocks * R * S));
  auto wset = [&](int g, int b, int r, int s) -> CmacWeights& {
    return wsets[static_cast<std::size_t>(((g * blocks + b) * R + r) * S + s)];
  };
  for (int g = 0; g < groups; ++g) {
    const int kpg = std::min(kk, K - g * kk);
    for (int b = 0; b < blocks; ++b) {
      const int cpb = std::min(ck, C - b * ck);
      for (int r = 0; r < R; ++r) {
        for (int s = 0; s < S; ++s) {
          CmacWeights& ws = wset(g, b, r, s);
          ws.assign(static_cast<std::size_t>(kpg), std::vector<int32_t>(static_cast<std::size_t>(ck), 0));
          for (int k = 0; k < kpg; ++k)
            for (int ci = 0; ci < cpb; ++ci)
              ws[static_cast<std::size_t>(k)][static_cast<std::size_t>(ci)] = static_cast<int32_t>(
                  conv_read_element(read, cfg.weight_base + wl.offset(g * kk + k, b * ck + ci, r, s), bpe));
        }
      }
    }
  }

  // CSC issue order: kernel group -> stripe -> channel block -> r -> s -> positions of the stripe
  // -> batch (cdma-input-modes.md §4.3: one weight load serves stripe x N atoms).
  // CACC accumulates every (batch, position, kernel) over (b, r, s) in that order with saturating
  // partial sums, then clip-truncates on the last pass.
  const int N = std::max(1, cfg.input.n);
  ConvRun run;
  run.cacc = Cube<int64_t>(CubeShape{N, cfg.output_lanes(), OH, OW}, 0);
  run.stats.stripes_per_group = static_cast<int>(stripes.size());
  std::vector<int32_t> atom(static_cast<std::size_t>(ck), 0);
  for (int g = 0; g < groups; ++g) {
    int first = 0;
    for (const int len : stripes) {
      std::vector<int64_t> acc(static_cast<std::size_t>(len * N) * static_cast<std::size_t>(kk), 0);
      for (int b = 0; b < blocks; ++b) {
        const int cpb = std::min(ck, C - b * ck);
        for (int r = 0; r < R; ++r) {
          for (int s = 0; s < S; ++s) {
            const CmacWeights& ws = wset(g, b, r, s);
            for (int i = 0; i < len * N; ++i) {
              const int p = first + i / N;
              const int n = i % N;
              const ConvTap t = conv_tap(cfg, p, r, s);
              for (int ci = 0; ci < ck; ++ci) {
                int64_t v = 0;
                if (ci < cpb) v = t.inside ? in.at(n, b * ck + ci, t.h, t.w) : cfg.pad_value;
                atom[static_cast<std::size_t>(ci)] = static_cast<int32_t>(v);
              }
              const std::vector<int64_t> psum = cmac_atomic_op(hw, prec, ws, atom);
              ++run.stats.atomic_ops;
              for (int k = 0; k < kk; ++k) {
                int64_t& a = acc[static_cast<std::size_t>(i * kk + k)];
                const Wide exact = Wide{a} + psum[static_cast<std::size_t>(k)];
                a = cacc_accumulate(a, psum[static_cast<std::size_t>(k)], prec);
                if (a != exact) ++run.stats.psum_saturations;
              }
            }
          }
        }
      }
      // Last pass of the stripe (channel_end): round, saturate to 32 bits, deliver.
      for (int i = 0; i < len * N; ++i) {
        const int p = first + i / N;
        for (int k = 0; k < kk; ++k) {
          bool saturated = false;
          const int64_t y = cacc_output(acc[static_cast<std::size_t>(i * kk + k)], cfg.clip_truncate, &saturated);
          if (saturated && run.stats.out_saturation != UINT32_MAX) ++run.stats.out_saturation;
          run.cacc.at(i % N, g * kk + k, p / OW, p % OW) = y;
        }
      }
      first += len;
    }
  }
  return run;
}

}  // namespace

}  // namespace dla::golden
