// The PDP RTL (rtl/top/nvdla_pdp_top.sv; docs/PDP_RTL.md):
//   * NVDLA's own off-flying pdp_* traces in cross mode (RTL beside the golden model) under
//     cross_stress's legs: NVIDIA's CRC judges;
//   * generated register programs (random legal pooling: method, kernel 1-8, strides 1-16, pads
//     below the kernel with non-zero pad values, int8/int16, width splits by the software rule,
//     either enable order, back-pressure and rand-reset) whose output must equal an int64
//     pooling reference written here from the spec (pdp-cdp-bdma-rubik.md §2.2), and the golden
//     model (cross mode);
//   * refusals of what this RTL does not compute (exit 2 naming the register and the rule);
//   * every bundled `pdp` JSON layer (testvectors/layers/pdp) in cross mode under the stress legs.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <filesystem>
#include <map>
#include <string>

#include "cross_stress.hpp"
#include "golden/config.hpp"
#include "engines/pdp/harness/pdp.hpp"
#include "engines/pdp/harness/pdp_random.hpp"
#include "harness/errors.hpp"
#include "harness/random_layers.hpp"
#include "harness/nvdla_cfg.hpp"
#include "harness/program_runner.hpp"
#include "harness/regdb.hpp"
#include "harness/rng.hpp"
#include "harness/rtl_factory.hpp"
#include "tops/rtl_devices.hpp"

namespace fs = std::filesystem;
using namespace dla::harness;

namespace {

std::vector<fs::path> pdp_traces(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SHARED_DIR) / "nvdla-traces" / dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("pdp_", 0) == 0) out.push_back(e.path() / (name + ".cfg"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_all(const std::string& dir, const dla::golden::HwConfig& hw, std::size_t expected_traces) {
  std::size_t ran = 0;
  for (const auto& cfg : pdp_traces(dir)) {
    const Program p = import_nvdla_cfg(cfg, hw.name);
    for (const RunOptions& o : cross_stress::options()) {
      const RunResult r = run_program_in_mode(p, hw, o);
      INFO(cfg.filename().string() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE_FALSE(r.compares.empty());
      CHECK(r.cycles > 0);
    }
    ++ran;
  }
  CHECK(ran == expected_traces);
}

// ---- generated layers

struct Pool {
  int w = 1, h = 1, c = 1, kw = 1, kh = 1, sw = 1, sh = 1, pl = 0, pr = 0, pt = 0, pb = 0;
  int method = 0;  // 0 average, 1 max, 2 min
  bool int16 = false;
  int pad = 0;        // pad value; PAD_VALUE_{n}X = n x pad (as software programs it)
  int max_out = 0;    // output columns per split (0: no split)
  bool rdma_first = false;
  [[nodiscard]] int ow() const { return (w + pl + pr - kw) / sw + 1; }
  [[nodiscard]] int oh() const { return (h + pt + pb - kh) / sh + 1; }
  [[nodiscard]] std::string str() const {
    return fmt::format("{}x{}x{} {} k{}x{} s{}x{} pad l{} r{} t{} b{} value {} {} split-out {} {}", w, h, c,
                       method == 0 ? "average" : method == 1 ? "max" : "min", kw, kh, sw, sh, pl, pr, pt, pb, pad,
                       int16 ? "int16" : "int8", max_out, rdma_first ? "rdma-first" : "pdp-first");
  }
};

struct Split {
  int n = 1;
  int in_first = 0, in_mid = 0, in_last = 0, out_first = 0, out_mid = 0, out_last = 0;
};

// The split software programs (PDPNode.cpp, pdp-cdp-bdma-rubik.md §2.2); n = 0 if it is not legal.
Split split_of(const Pool& p) {
  Split s;
  const int ow = p.ow();
  if (p.max_out == 0 || p.max_out >= ow) return s;
  const int ov = p.kw - p.sw;
  s.n = (ow + p.max_out - 1) / p.max_out;
  s.out_first = p.max_out;
  s.out_mid = p.max_out;
  s.out_last = ow - p.max_out * (s.n - 1);
  s.in_first = (s.out_first - 1) * p.sw + p.kw - p.pl;
  s.in_mid = (s.out_mid - 1) * p.sw + p.kw - ov;
  s.in_last = p.w - s.in_first - (s.n - 2) * s.in_mid;
  const bool ok = s.n <= 256 && s.in_first >= 1 && s.in_mid >= 1 && s.in_last >= 1 && s.in_first <= 1024 &&
                  s.in_mid <= 1024 && s.in_last <= 1024 && s.out_mid <= 1024 && s.out_last <= 1024 &&
                  (ov >= 0 ? ov <= s.in_first && (s.n == 2 || ov <= s.in_mid)
                           : -ov < s.in_last && (s.n == 2 || -ov < s.in_mid));
  if (!ok) s.n = 0;
  return s;
}

int64_t rhaz16(int64_t x) { return x < 0 ? -((-x + 0x8000) >> 16) : (x + 0x8000) >> 16; }

// int64 pooling of every lane of every surface, from the spec's window rules.
std::vector<uint8_t> reference(const Pool& p, const std::vector<uint8_t>& in, int atom) {
  const int bpe = p.int16 ? 2 : 1, lanes = atom / bpe, surf = (p.c + lanes - 1) / lanes;
  const int ow = p.ow(), oh = p.oh();
  const auto elem = [&](int s, int r, int col, int l) -> int64_t {
    const std::size_t a = static_cast<std::size_t>(((s * p.h + r) * p.w + col) * atom + l * bpe);
    return p.int16 ? static_cast<int16_t>(in[a] | (in[a + 1] << 8)) : static_cast<int8_t>(in[a]);
  };
  const int64_t recip_w = 65536 / p.kw, recip_h = 65536 / p.kh;
  std::vector<uint8_t> out(static_cast<std::size_t>(surf * oh * ow * atom));
  for (int s = 0; s < surf; ++s) {
    for (int y = 0; y < oh; ++y) {
      for (int x = 0; x < ow; ++x) {
        for (int l = 0; l < lanes; ++l) {
          const int r0 = y * p.sh - p.pt, c0 = x * p.sw - p.pl;
          int nrow = 0, ncol = 0;
          for (int i = 0; i < p.kh; ++i) nrow += (r0 + i < 0 || r0 + i >= p.h) ? 1 : 0;
          for (int j = 0; j < p.kw; ++j) ncol += (c0 + j < 0 || c0 + j >= p.w) ? 1 : 0;
          int64_t acc = 0;
          bool any = false;
          for (int i = 0; i < p.kh; ++i) {
            const int r = r0 + i;
            if (r < 0 || r >= p.h) continue;
            for (int j = 0; j < p.kw; ++j) {
              const int col = c0 + j;
              if (col < 0 || col >= p.w) continue;
              const int64_t v = elem(s, r, col, l);
              if (p.method == 0) acc += v;
              else if (!any) acc = v;
              else acc = p.method == 1 ? std::max(acc, v) : std::min(acc, v);
              any = true;
            }
            if (p.method == 0 && ncol > 0) acc += int64_t{ncol} * p.pad;
          }
          if (p.method == 0) {
            if (nrow > 0) acc += int64_t{p.kw} * nrow * p.pad;
            acc = rhaz16(rhaz16(acc * recip_w) * recip_h);
          }
          const std::size_t a = static_cast<std::size_t>(((s * oh + y) * ow + x) * atom + l * bpe);
          out[a] = static_cast<uint8_t>(acc);
          if (p.int16) out[a + 1] = static_cast<uint8_t>(acc >> 8);
        }
      }
    }
  }
  return out;
}

constexpr uint64_t kIn = 0x80000000ull, kOut = 0x80800000ull;

Program program_of(const Pool& p, const dla::golden::HwConfig& hw, Rng& rng) {
  const RegDb& db = RegDb::nvdla();
  Program prog;
  prog.name = "pdp " + p.str();
  prog.config = hw.name;
  const int atom = hw.atom_bytes, bpe = p.int16 ? 2 : 1, lanes = atom / bpe, surf = (p.c + lanes - 1) / lanes;
  std::vector<uint8_t> in(static_cast<std::size_t>(surf * p.h * p.w * atom));
  for (auto& b : in) b = static_cast<uint8_t>(rng.next());
  ProgramStep load;
  load.op = StepOp::MemLoad;
  load.where = "generated: input";
  load.addr = kIn;
  load.bytes = in;
  prog.steps.push_back(load);
  const auto wr = [&](const std::string& reg, uint32_t v) {
    ProgramStep st;
    st.op = StepOp::RegWrite;
    st.where = "generated: " + reg;
    st.reg = db.find(reg);
    REQUIRE(st.reg != nullptr);
    st.value = v;
    prog.steps.push_back(st);
  };
  const Split sp = split_of(p);
  const auto u = [](int v) { return static_cast<uint32_t>(v); };
  const uint32_t fmt_v = p.int16 ? 1u : 0u;
  const uint32_t pw_in = u(sp.in_first - 1) | u(sp.in_last - 1) << 10 | u(sp.in_mid - 1) << 20;
  const uint32_t pw_out = u(sp.out_first - 1) | u(sp.out_last - 1) << 10 | u(sp.out_mid - 1) << 20;
  const uint32_t line = u(p.w * atom), sstride = u(p.w * p.h * atom);
  const uint32_t oline = u(p.ow() * atom), osstride = u(p.ow() * p.oh() * atom);
  wr("PDP.S_POINTER", 0);
  wr("PDP.D_DATA_CUBE_IN_WIDTH", u(p.w - 1));
  wr("PDP.D_DATA_CUBE_IN_HEIGHT", u(p.h - 1));
  wr("PDP.D_DATA_CUBE_IN_CHANNEL", u(p.c - 1));
  wr("PDP.D_DATA_CUBE_OUT_WIDTH", u(p.ow() - 1));
  wr("PDP.D_DATA_CUBE_OUT_HEIGHT", u(p.oh() - 1));
  wr("PDP.D_DATA_CUBE_OUT_CHANNEL", u(p.c - 1));
  wr("PDP.D_OPERATION_MODE_CFG", u(p.method) | 1u << 4 | u(sp.n - 1) << 8);
  wr("PDP.D_PARTIAL_WIDTH_IN", sp.n > 1 ? pw_in : 0);
  wr("PDP.D_PARTIAL_WIDTH_OUT", sp.n > 1 ? pw_out : 0);
  wr("PDP.D_POOLING_KERNEL_CFG", u(p.kw - 1) | u(p.kh - 1) << 8 | u(p.sw - 1) << 16 | u(p.sh - 1) << 20);
  wr("PDP.D_RECIP_KERNEL_WIDTH", u(65536 / p.kw));
  wr("PDP.D_RECIP_KERNEL_HEIGHT", u(65536 / p.kh));
  wr("PDP.D_POOLING_PADDING_CFG", u(p.pl) | u(p.pt) << 4 | u(p.pr) << 8 | u(p.pb) << 12);
  for (int n = 1; n <= 7; ++n) {
    wr(fmt::format("PDP.D_POOLING_PADDING_VALUE_{}_CFG", n), static_cast<uint32_t>(n * p.pad) & 0x7ffffu);
  }
  wr("PDP.D_DST_BASE_ADDR_LOW", static_cast<uint32_t>(kOut));
  wr("PDP.D_DST_LINE_STRIDE", oline);
  wr("PDP.D_DST_SURFACE_STRIDE", osstride);
  wr("PDP.D_DST_RAM_CFG", 1);  // MC: nv_small has no CV-SRAM (the reset value 0 selects it)
  wr("PDP.D_DATA_FORMAT", fmt_v);
  wr("PDP_RDMA.S_POINTER", 0);
  wr("PDP_RDMA.D_DATA_CUBE_IN_WIDTH", u(p.w - 1));
  wr("PDP_RDMA.D_DATA_CUBE_IN_HEIGHT", u(p.h - 1));
  wr("PDP_RDMA.D_DATA_CUBE_IN_CHANNEL", u(p.c - 1));
  wr("PDP_RDMA.D_FLYING_MODE", 1);
  wr("PDP_RDMA.D_SRC_BASE_ADDR_LOW", static_cast<uint32_t>(kIn));
  wr("PDP_RDMA.D_SRC_LINE_STRIDE", line);
  wr("PDP_RDMA.D_SRC_SURFACE_STRIDE", sstride);
  wr("PDP_RDMA.D_SRC_RAM_CFG", 1);
  wr("PDP_RDMA.D_DATA_FORMAT", fmt_v);
  wr("PDP_RDMA.D_OPERATION_MODE_CFG", u(sp.n - 1));
  wr("PDP_RDMA.D_POOLING_KERNEL_CFG", u(p.kw - 1) | u(p.sw - 1) << 4);
  wr("PDP_RDMA.D_PARTIAL_WIDTH_IN", sp.n > 1 ? pw_in : 0);
  if (p.rdma_first) wr("PDP_RDMA.D_OP_ENABLE", 1);
  wr("PDP.D_OP_ENABLE", 1);
  if (!p.rdma_first) wr("PDP_RDMA.D_OP_ENABLE", 1);
  ProgramStep wait;
  wait.op = StepOp::WaitIntr;
  wait.where = "generated: wait";
  wait.intr = "PDP_0";
  prog.steps.push_back(wait);
  ProgramStep ref;
  ref.op = StepOp::Check;
  ref.where = "generated: int64 reference";
  ref.check = CheckKind::File;
  ref.addr = kOut;
  ref.file = "int64 reference";
  ref.bytes = reference(p, in, atom);
  prog.steps.push_back(ref);
  ProgramStep gold;
  gold.op = StepOp::Check;
  gold.where = "generated: golden";
  gold.check = CheckKind::Golden;
  gold.addr = kOut;
  gold.size = ref.bytes.size();
  prog.steps.push_back(gold);
  return prog;
}

Pool random_pool(Rng& rng, bool int16) {
  for (;;) {
    Pool p;
    p.kw = static_cast<int>(rng.range(1, 8));
    p.kh = static_cast<int>(rng.range(1, 8));
    p.sw = static_cast<int>(rng.range(1, rng.chance(0.2) ? 16 : 4));
    p.sh = static_cast<int>(rng.range(1, rng.chance(0.2) ? 16 : 4));
    p.pl = static_cast<int>(rng.range(0, std::min(7, p.kw - 1)));
    p.pr = static_cast<int>(rng.range(0, std::min(7, p.kw - 1)));
    p.pt = static_cast<int>(rng.range(0, std::min(7, p.kh - 1)));
    p.pb = static_cast<int>(rng.range(0, std::min(7, p.kh - 1)));
    p.w = static_cast<int>(rng.range(1, 24));
    p.h = static_cast<int>(rng.range(1, 12));
    p.c = static_cast<int>(rng.range(1, 40));
    p.method = static_cast<int>(rng.range(0, 2));
    p.int16 = int16 && rng.chance(0.5);
    p.pad = static_cast<int>(rng.range(p.int16 ? -32768 : -128, p.int16 ? 32767 : 127)) / 8;
    p.rdma_first = rng.chance(0.5);
    // every input column is used (NVDLA; the golden model refuses other widths)
    if (p.w + p.pl + p.pr < p.kw || p.h + p.pt + p.pb < p.kh || (p.w + p.pl + p.pr - p.kw) % p.sw != 0) continue;
    if (rng.chance(0.4) && p.ow() > 1) p.max_out = static_cast<int>(rng.range(1, p.ow() - 1));
    if (p.max_out != 0 && split_of(p).n == 0) continue;
    return p;
  }
}

void run_generated(const dla::golden::HwConfig& hw, int count) {
  Rng rng = Rng::derive(7, hw.name);
  const std::vector<RunOptions> legs = cross_stress::options();
  for (int i = 0; i < count; ++i) {
    const Pool p = random_pool(rng, hw.int16);
    const Program prog = program_of(p, hw, rng);
    const RunOptions& o = legs[static_cast<std::size_t>(i) % legs.size()];
    const RunResult r = run_program_in_mode(prog, hw, o);
    INFO(hw.name << " layer " << i << ": " << p.str() << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset
                 << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
    REQUIRE(r.compares.size() == 2);
  }
}

}  // namespace

TEST_CASE("PDP RTL equals an int64 pooling reference and the golden model on generated layers", "[rtl][pdp]") {
  run_generated(dla::golden::nv_small(), 60);
  run_generated(dla::golden::nv_large(), 40);
  run_generated(dla::golden::nv_full(), 40);  // int8 and int16
}

TEST_CASE("PDP RTL pools a line of 8192 in width splits as wide as its line buffer", "[rtl][pdp]") {
  for (const auto* hw : {&dla::golden::nv_small(), &dla::golden::nv_large()}) {
    Rng rng = Rng::derive(8, hw->name);
    Pool p;
    p.w = 8192;
    p.h = 2;
    p.c = 3;
    p.kw = 2;
    p.kh = 2;
    p.sw = 2;
    p.sh = 2;
    p.method = 0;
    p.pad = 0;
    p.max_out = 4096 / hw->atom_bytes;  // the line buffer's columns
    const Program prog = program_of(p, *hw, rng);
    RunOptions o;
    o.mode = "cross";
    o.sim.watchdog = 2000000;
    const RunResult r = run_program_in_mode(prog, *hw, o);
    INFO(hw->name << ": " << p.str() << "\n" << format_run(r));
    REQUIRE(r.status == Status::Pass);
  }
}

TEST_CASE("PDP RTL reproduces NVIDIA's CRC on every nv_small pdp trace", "[rtl][pdp][traces]") {
  run_all("nv_small", dla::golden::nv_small(), 9);
}

TEST_CASE("SDP -> PDP on the fly (nvdla_core) reproduces NVIDIA's CRC on sdp_pdp_* and nv_large's pdp trace",
          "[rtl][pdp][traces][fly]") {
  const fs::path root = fs::path(DLA_SHARED_DIR) / "nvdla-traces";
  struct Trace {
    const char* dir;
    const char* name;
    const dla::golden::HwConfig& hw;
  };
  for (const Trace& t : {Trace{"nv_small", "sdp_pdp_32x16x32_pass_through_int8_0", dla::golden::nv_small()},
                         Trace{"nv_large", "pdp_3x3x33_2x2_ave_int8_0", dla::golden::nv_large()}}) {
    const Program p = import_nvdla_cfg(root / t.dir / t.name / (std::string(t.name) + ".cfg"), t.hw.name);
    for (const RunOptions& o : cross_stress::options()) {
      const RunResult r = run_program_in_mode(p, t.hw, o);
      INFO(t.name << " seed " << *o.seed << " rand-reset " << o.sim.rand_reset << "\n" << format_run(r));
      REQUIRE(r.status == Status::Pass);
      REQUIRE_FALSE(r.compares.empty());
      CHECK(r.cycles > 0);
    }
  }
}

TEST_CASE("on the fly, an SDP that converts its output precision is refused (its atoms are not PDP's)",
          "[rtl][pdp][fly]") {
  const fs::path root = fs::path(DLA_SHARED_DIR) / "nvdla-traces";
  const char* name = "sdp_pdp_32x16x32_pass_through_int8_0";
  const Program p = import_nvdla_cfg(root / "nv_small" / name / (std::string(name) + ".cfg"), "nv_small");
  const auto replay = [&](uint32_t out_precision) -> std::string {
    RunOptions o;
    std::string why;
    auto dev = make_rtl_device({"SDP", "SDP_RDMA", "PDP"}, dla::golden::nv_small(), o, why);
    REQUIRE(dev != nullptr);
    const RegDb& db = RegDb::nvdla();
    try {
      for (const ProgramStep& st : p.steps) {
        if (st.op != StepOp::RegWrite) continue;
        uint32_t v = st.value;
        if (st.reg->block == "SDP" && st.reg->name == "D_DATA_FORMAT") v = (v & ~0xcu) | (out_precision << 2);
        dev->reg_write(*db.address("nv_small", *st.reg), v);
      }
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(replay(0).empty());  // int8 -> int8, as the trace programs it
  const std::string r = replay(1);
  CHECK(r.find("SDP.D_DATA_FORMAT") != std::string::npos);
  CHECK(r.find("feeds PDP on the fly") != std::string::npos);
}

TEST_CASE("every bundled pdp layer passes on the RTL against golden under the stress legs", "[rtl][pdp][pdp_layers]") {
  cross_stress::run_bundled_layers("pdp", 24);
}

// fp16 (nv_full): the bundled layers (max / min with specials and NAN_TO_ZERO, averages with pad
// values, denormals and large values, a split) and generated ones (`random pdp --focus fp16`),
// the NaN / Inf counters read back in each program. Golden is the judge here; NVIDIA's C model
// judges the same generator three ways (tests/cmod/test_cmod_campaigns.cpp) and the bundled layers
// (tests/cmod/test_fp16_layers_cmod.cpp).
TEST_CASE("every bundled fp16 pdp layer passes on the RTL against golden under the stress legs", "[rtl][pdp][fp16]") {
  cross_stress::run_bundled_layers("fp16", 6, false, "pdp_");
}

TEST_CASE("PDP RTL equals golden on 60 generated fp16 layers under the stress legs", "[rtl][pdp][fp16]") {
  cross_stress::cross_generated<RandomLayer>("pdp", "fp16", dla::golden::nv_full(), 60, 17, "pdp_rtl_fp16",
                                             &generate_pdp_layer, &engines::compile_pdp_layer, {"PDP", "PDP_RDMA"});
}

namespace {

// Replays a generated program's register writes on the PDP RTL device; the guard's refusal at
// D_OP_ENABLE, or "" when the layer launches.
std::string refusal(const Pool& p, const dla::golden::HwConfig& hw, uint32_t mode_clear = 0) {
  Rng rng(1);
  const Program prog = program_of(p, hw, rng);
  RunOptions o;
  std::string why;
  auto dev = make_rtl_device({"PDP", "PDP_RDMA"}, hw, o, why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  try {
    for (const ProgramStep& st : prog.steps) {
      if (st.op != StepOp::RegWrite) continue;
      uint32_t v = st.value;
      if (st.reg->block == "PDP" && st.reg->name == "D_OPERATION_MODE_CFG") v &= ~mode_clear;
      dev->reg_write(*db.address(hw.name, *st.reg), v);
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("PDP RTL device refuses what the RTL does not compute, naming the register and the rule", "[rtl][pdp]") {
  Pool ok;
  ok.w = 8;
  ok.h = 4;
  ok.c = 8;
  ok.kw = 2;
  ok.kh = 2;
  ok.sw = 2;
  ok.sh = 2;
  CHECK(refusal(ok, dla::golden::nv_small()).empty());
  Pool pad = ok;
  pad.pl = 2;  // a window of padding only
  pad.w = 6;
  const std::string r_pad = refusal(pad, dla::golden::nv_small());
  CHECK(r_pad.find("PDP.D_POOLING_PADDING_CFG") != std::string::npos);
  CHECK(r_pad.find("smaller than the kernel") != std::string::npos);
  const std::string r_fly = refusal(ok, dla::golden::nv_small(), 1u << 4);
  CHECK(r_fly.find("FLYING_MODE") != std::string::npos);
  Pool i16 = ok;
  i16.int16 = true;
  CHECK(refusal(i16, dla::golden::nv_small()).find("nv_small has no int16") != std::string::npos);
  CHECK(refusal(i16, dla::golden::nv_full()).empty());
  Pool wide = ok;  // 300 output columns unsplit: nv_large's line buffer holds 128
  wide.w = 300;
  wide.kw = 1;
  wide.sw = 1;
  const std::string r_wide = refusal(wide, dla::golden::nv_large());
  CHECK(r_wide.find("line buffer") != std::string::npos);
  CHECK(refusal(wide, dla::golden::nv_small()).empty());  // 512 columns there
}
