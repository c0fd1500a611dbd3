// Running a loadable's plan on the devices, its input files and its output image
// (docs/LOADABLES.md).
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "golden/layout.hpp"
#include "harness/cmod_device.hpp"
#include "harness/errors.hpp"
#include "harness/files.hpp"
#include "harness/golden_device.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/program_runner.hpp"
#include "harness/rtl_factory.hpp"
#include "harness/stopwatch.hpp"

namespace dla::harness::loadable {

namespace {

// NvDlaImage's surface formats as the runtime NVIDIA's regression ran numbered them (its dumps
// carry 40 for int8, 41 for int16 and 42 for fp16 feature tensors: the enum before the x8 int8
// format was added): the channel group x and the bytes per element of each.
struct DimgFormat {
  uint32_t id = 0;
  uint32_t group = 0;  // channels side by side in one surface
  int bpe = 0;
  bool fp = false;
};

DimgFormat dimg_format(const TensorDesc& t, const std::string& what) {
  if (t.pixel_format != 36) {
    throw InputError(what, t.name,
                     fmt::format("pixel format {}: dlacosim writes and reads images of feature tensors (FEATURE, 36) only",
                                 t.pixel_format));
  }
  switch (t.data_type) {
    case DataType::Int8: return {40, 32, 1, false};
    case DataType::Int16: return {41, 16, 2, false};
    case DataType::Half: return {42, 16, 2, true};
    default:
      throw InputError(what, t.name, fmt::format("data type {} has no feature image format (int8, int16, half)",
                                                 static_cast<int>(t.data_type)));
  }
}

// NvDlaImage::getAddrOffset for the CxHWx formats: NVDLA's feature layout.
uint64_t dimg_offset(const DimgFormat& f, const TensorDesc& t, uint32_t x, uint32_t y, uint32_t c) {
  golden::FeatureLayout l;
  l.line_stride = t.stride[1];
  l.surface_stride = t.stride[2];
  l.atom_bytes = static_cast<int>(f.group) * f.bpe;
  l.bpe = f.bpe;
  return l.address(0, static_cast<int>(c), static_cast<int>(y), static_cast<int>(x));
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::vector<uint8_t> read_file(const std::filesystem::path& file, uint64_t limit) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw InputError(file.string(), "", "cannot read the file: " + ec.message());
  if (size > limit) throw InputError(file.string(), "", fmt::format("{} bytes is more than the tensor's {} bytes", size, limit));
  std::ifstream in(file, std::ios::binary);
  std::vector<uint8_t> b(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!in) throw InputError(file.string(), "", "cannot read the file");
  return b;
}

// One element's bytes in the tensor's type from a pixel value (half: the runtime's scaling and
// rounding; integers: the pixel as it is).
void store_value(std::vector<uint8_t>& out, uint64_t at, int value, const DimgFormat& f, const ImageScaling& s) {
  uint16_t bits = static_cast<uint16_t>(value);
  if (f.fp) bits = runtime_float_to_half((static_cast<float>(value) - s.mean) / s.normalize);
  out[at] = static_cast<uint8_t>(bits);
  if (f.bpe == 2) out[at + 1] = static_cast<uint8_t>(bits >> 8);
}

}  // namespace

std::vector<uint8_t> dimg_image(const TensorDesc& t, const std::vector<uint8_t>& memory) {
  const DimgFormat f = dimg_format(t, "the output tensor");
  std::vector<uint8_t> out = {'D', 'I', 'M', 'G'};
  put_u32(out, 0);  // NvDlaImage version
  put_u32(out, f.id);
  put_u32(out, static_cast<uint32_t>(t.w));
  put_u32(out, static_cast<uint32_t>(t.h));
  put_u32(out, static_cast<uint32_t>(t.c));
  put_u32(out, t.stride[1]);
  put_u32(out, t.stride[2]);
  put_u32(out, static_cast<uint32_t>(t.size));
  for (uint32_t c = 0; c < static_cast<uint32_t>(t.c); ++c) {
    for (uint32_t y = 0; y < static_cast<uint32_t>(t.h); ++y) {
      for (uint32_t x = 0; x < static_cast<uint32_t>(t.w); ++x) {
        const uint64_t o = dimg_offset(f, t, x, y, c);
        if (o >= t.size || o + static_cast<uint64_t>(f.bpe) > memory.size()) {
          throw InputError("the output tensor", t.name,
                           fmt::format("element (c {}, h {}, w {}) lies at byte {}, beyond the tensor's {} bytes (the "
                                       "runtime refuses to dump it too)",
                                       c, y, x, o, t.size));
        }
        // Format 42 (D_F16_CxHWx_x16_I) is an integer format to the runtime's packer: half values
        // are dumped as raw bytes too (its "stable hash" of -0 and NaN applies to format 43 only).
        out.push_back(memory[o]);
        if (f.bpe == 2) out.push_back(memory[o + 1]);
      }
    }
  }
  return out;
}

std::vector<uint8_t> raw_tensor_bytes(const TensorDesc& t, uint64_t memory_size, const std::vector<uint8_t>& raw,
                                      const std::string& name) {
  if (raw.size() > memory_size) {
    throw InputError(name, "", fmt::format("{} bytes of raw data, but tensor \"{}\"'s memory holds {}", raw.size(), t.name,
                                           memory_size));
  }
  std::vector<uint8_t> out(static_cast<std::size_t>(memory_size), 0);
  std::copy(raw.begin(), raw.end(), out.begin());
  return out;
}

std::vector<uint8_t> input_tensor_bytes(const TensorDesc& t, uint64_t memory_size, const std::filesystem::path& file,
                                        const ImageScaling& scaling) {
  const std::string name = file.string();
  const uint64_t limit = std::max<uint64_t>(memory_size, 1 << 20);
  std::vector<uint8_t> raw = read_file(file, limit + 64);
  std::vector<uint8_t> out(static_cast<std::size_t>(memory_size), 0);
  const auto fits = [&](uint64_t at, int bpe) {
    if (at + static_cast<uint64_t>(bpe) > memory_size) {
      throw InputError(name, "", fmt::format("an element lands at byte {} of tensor \"{}\", beyond its memory's {} bytes", at,
                                             t.name, memory_size));
    }
  };
  if (raw.size() >= 36 && raw[0] == 'D' && raw[1] == 'I' && raw[2] == 'M' && raw[3] == 'G') {
    const auto u32 = [&](std::size_t o) {
      return uint32_t{raw[o]} | uint32_t{raw[o + 1]} << 8 | uint32_t{raw[o + 2]} << 16 | uint32_t{raw[o + 3]} << 24;
    };
    const DimgFormat f = dimg_format(t, name);
    if (u32(4) != 0) throw InputError(name, "header", fmt::format("NvDlaImage version {} (0 expected)", u32(4)));
    if (u32(8) != f.id || u32(12) != static_cast<uint32_t>(t.w) || u32(16) != static_cast<uint32_t>(t.h) ||
        u32(20) != static_cast<uint32_t>(t.c)) {
      throw InputError(name, "header",
                       fmt::format("format {} and {} x {} x {} (W x H x C), but tensor \"{}\" is format {} and {} x {} x {}",
                                   u32(8), u32(12), u32(16), u32(20), t.name, f.id, t.w, t.h, t.c));
    }
    std::size_t p = 36;
    const uint64_t need = 36 + uint64_t{static_cast<uint32_t>(t.c)} * static_cast<uint32_t>(t.h) * static_cast<uint32_t>(t.w) *
                                   static_cast<uint32_t>(f.bpe);
    if (raw.size() != need) throw InputError(name, "", fmt::format("{} bytes, but the header's image needs {}", raw.size(), need));
    for (uint32_t c = 0; c < static_cast<uint32_t>(t.c); ++c) {
      for (uint32_t y = 0; y < static_cast<uint32_t>(t.h); ++y) {
        for (uint32_t x = 0; x < static_cast<uint32_t>(t.w); ++x) {
          const uint64_t o = dimg_offset(f, t, x, y, c);
          fits(o, f.bpe);
          for (int b = 0; b < f.bpe; ++b) out[o + static_cast<uint64_t>(b)] = raw[p++];
        }
      }
    }
    return out;
  }
  if (raw.size() >= 2 && raw[0] == 'P' && raw[1] == '5') {
    // NVIDIA's PGM2DIMG: three header lines (comments skipped), maxval 255, W x H bytes.
    std::istringstream in(std::string(raw.begin(), raw.end()));
    std::string line;
    std::vector<std::string> header;
    while (header.size() < 3 && std::getline(in, line)) {
      if (!line.empty() && line[0] == '#') continue;
      header.push_back(line);
    }
    unsigned w = 0, h = 0, maxval = 0;
    if (header.size() < 3 || !(std::istringstream(header[1]) >> w >> h) || !(std::istringstream(header[2]) >> maxval) ||
        maxval != 255) {
      throw InputError(name, "header", "an 8-bit PGM (P5) has lines \"P5\", \"W H\" and \"255\"");
    }
    const DimgFormat f = dimg_format(t, name);
    if (!f.fp && !scaling.identity()) {
      throw InputError(name, "", fmt::format("--mean / --normalize scale a grey image into a half tensor; tensor \"{}\" "
                                             "is an integer tensor and takes the pixels as they are",
                                             t.name));
    }
    if (t.c != 1 || static_cast<int>(w) != t.w || static_cast<int>(h) != t.h) {
      throw InputError(name, "header", fmt::format("a {} x {} grey image, but tensor \"{}\" is {} x {} x {} (W x H x C)", w,
                                                   h, t.name, t.w, t.h, t.c));
    }
    const auto pos = static_cast<std::size_t>(in.tellg());
    if (in.fail() || raw.size() < pos + std::size_t{w} * h) {
      throw InputError(name, "", fmt::format("{} pixels expected after the header", w * h));
    }
    for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
        const uint64_t o = dimg_offset(f, t, x, y, 0);
        fits(o, f.bpe);
        store_value(out, o, raw[pos + std::size_t{y} * w + x], f, scaling);
      }
    }
    return out;
  }
  return raw_tensor_bytes(t, memory_size, raw, name);
}

std::string default_config_for(const std::filesystem::path& file) {
  std::string stem = file.filename().string();
  if (stem.ends_with("_fbuf")) stem.resize(stem.size() - 5);
  if (file.extension() == ".nvdla") stem = file.stem().string();
  if (stem.ends_with("_small")) return "nv_small";
  if (stem.ends_with("_large")) return "nv_large";
  return "nv_full";
}

RunResult run_loadable(const std::filesystem::path& file, const RunOptions& opt, const LoadableRunOptions& lo) {
  const auto t0 = std::chrono::steady_clock::now();
  const Loadable l = read_loadable(file);
  const std::string config_name = opt.config.value_or(default_config_for(file));
  const golden::HwConfig* hw = golden::find_config(config_name);
  if (hw == nullptr) throw InputError("--config", config_name, "unknown configuration (" + golden::config_names_text() + ")");
  const Plan plan = plan_loadable(l, *hw, lo.inputs, lo.scaling);
  if (lo.dimg && !plan.output_tensor) {
    throw InputError("--dimg", lo.dimg->string(), "the loadable binds no output tensor (no memory with the OUTPUT flag)");
  }
  RunOptions o = opt;
  o.seed = opt.seed.value_or(1);
  o.stall = opt.stall.value_or(0.0);
  o.sim.seed = *o.seed;
  o.config = hw->name;

  std::vector<std::string> blocks;
  for (const auto& s : plan.steps) {
    for (const auto& b : enabled_blocks(s.program)) {
      if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
    }
  }
  std::unique_ptr<GoldenDevice> golden;
  std::unique_ptr<Device> rtl;
  std::unique_ptr<Device> cmod;
  std::optional<CmodVerdict> not_judged;
  if (o.mode == "cmod" || o.judge_cmod) {
    // NVIDIA's C model runs the same register programs (the firmware is the harness's).
    std::string why;
    for (const auto& s : plan.steps) {
      if (why.empty()) why = cmod_cannot_judge(s.program, *hw);
    }
    if (!why.empty() && o.mode == "cmod") throw InputError("--mode", "cmod", "NVIDIA's C model cannot run this loadable: " + why);
    if (!why.empty()) not_judged = CmodVerdict{CmodVerdict::State::NotJudged, std::move(why)};
    else cmod = make_cmod_device(*hw, o.cmod);
  }
  if (o.mode == "golden" || o.mode == "cross") golden = std::make_unique<GoldenDevice>(*hw);
  if (o.mode == "rtl" || o.mode == "cross") {
    std::string why;
    rtl = make_rtl_device(blocks, *hw, o, why);
    if (rtl == nullptr) {
      throw InputError("--mode", o.mode, fmt::format("{} mode runs the loadable on the RTL, but {}; run it with --mode golden",
                                                     o.mode, why));
    }
  }
  ProgramRunOptions po;
  po.mode = o.mode;
  po.max_listed = o.max_listed;

  RunResult r;
  r.layer_file = file.string();
  r.name = file.filename().string();
  r.unit = "loadable";
  r.config = hw->name;
  r.mode = o.mode;
  r.seed = *o.seed;
  r.stall = *o.stall;
  r.cmod = not_judged;
  r.rand_reset = o.sim.rand_reset;
  std::vector<std::string> notes;
  for (const auto& s : plan.steps) {
    // The C model judges until its first verdict other than agreement (always when it runs alone).
    const bool cmod_judges = o.mode == "cmod" || !r.cmod || r.cmod->state == CmodVerdict::State::Agrees;
    RunResult part = run_program(s.program, golden.get(), rtl.get(), po, cmod_judges ? cmod.get() : nullptr);
    // The C model's first verdict other than agreement stands (it takes no further part).
    if (part.cmod && (!r.cmod || r.cmod->state == CmodVerdict::State::Agrees)) r.cmod = part.cmod;
    if (part.status == Status::Pass) {
      // The runtime's CPU work, on each device's memory (each device stands for a whole system).
      for (const EmuOp& op : s.emu_ops) {
        for (Device* d : {static_cast<Device*>(golden.get()), rtl.get(), cmod.get()}) {
          if (d != nullptr) run_emu_op(op, d->memory());
        }
      }
    }
    for (auto& c : part.compares) r.compares.push_back(std::move(c));
    r.work += part.work;
    if (part.status != Status::Pass) {
      r.status = part.status;
      notes.push_back(part.message);
      break;
    }
  }
  for (const auto& op : plan.ops) {
    notes.push_back(fmt::format("task {} op {} group {}: {}", op.task, op.index, op.group, op.summary));
  }
  Device* dut = rtl != nullptr ? rtl.get() : golden != nullptr ? static_cast<Device*>(golden.get()) : cmod.get();
  if (plan.output_tensor && r.status == Status::Pass) {
    const TensorDesc& t = l.tensors[*plan.output_tensor];
    // The tensor's memory is compared (every byte the image could show, and more); the image is
    // made only when asked for (NVIDIA's view of a tensor of fewer than 32 channels on nv_small
    // reaches beyond it, and the runtime refuses to dump it).
    const std::vector<uint8_t> mem = dut->memory().read(plan.output_addr, t.size);
    if (golden != nullptr && rtl != nullptr && golden->memory().read(plan.output_addr, t.size) != mem) {
      r.status = Status::Mismatch;
      notes.push_back("the output tensor's memory differs between the RTL and the golden model");
    }
    if (cmod != nullptr && dut != cmod.get() && r.cmod && r.cmod->state == CmodVerdict::State::Agrees &&
        cmod->memory().read(plan.output_addr, t.size) != mem) {
      r.status = Status::Mismatch;
      r.cmod = CmodVerdict{CmodVerdict::State::Differs, "the output tensor's memory differs from NVIDIA's C model's"};
      notes.push_back(r.cmod->detail);
    }
    if (lo.dimg) {
      const std::vector<uint8_t> img = dimg_image(t, mem);
      write_file_atomic(*lo.dimg, std::string_view(reinterpret_cast<const char*>(img.data()), img.size()));
    }
    notes.push_back(fmt::format("output tensor \"{}\" ({} x {} x {}, {} bytes at {:#x}){}", t.name, t.w, t.h, t.c, t.size,
                                plan.output_addr, lo.dimg ? " written to " + lo.dimg->string() : std::string()));
  }
  if (rtl != nullptr) {
    r.cycles = rtl->cycles();
    r.dma = rtl->dma_traffic();
    if (r.status == Status::Pass) rtl->finish();
  }
  for (const auto& n : notes) {
    if (!r.message.empty()) r.message += "\n  ";
    r.message += n;
  }
  r.seconds = seconds_since(t0);
  return r;
}

}  // namespace dla::harness::loadable
