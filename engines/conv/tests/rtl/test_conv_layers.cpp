// Direct-mode `conv` layers (testvectors/layers/conv/) judged by an independent reference
// (conv_reference.hpp: the layer read from its JSON, the expected output from plain int64 loops),
// on the golden device and on the RTL (cross mode under three of the ten stress legs each, all ten
// in the "[.long]" case).
// Also: the compiled programs are a driver's, the layers cover the cases they are meant to, they
// are strong tests, and malformed layers are refused by name. Winograd layers:
// test_conv_wino_layers.cpp.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/test_paths.hpp"
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "conv_reference.hpp"

using namespace conv_ref;  // NOLINT(google-build-using-namespace)

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

TEST_CASE("every conv layer equals the int64 reference on the golden model at its own seed", "[conv][conv_layers]") {
  const auto files = layer_files();
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    const LoadedLayer l = load_layer(f);
    check_layer(f, l.header.seed, nullptr);
  }
}

TEST_CASE("every nv_small conv layer equals the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][conv_layers]") {
  const auto files = layer_files("small_");
  REQUIRE(files.size() >= 12);
  run_rtl(files);
}

TEST_CASE("every nv_full conv layer equals the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][conv_layers]") {
  const auto files = layer_files("full_");
  REQUIRE(files.size() >= 8);
  run_rtl(files);
}

TEST_CASE("every nv_large conv layer equals the int64 reference on golden and RTL under stalls and random reset",
          "[rtl][conv][conv_layers]") {
  const auto files = layer_files("large_");
  REQUIRE(files.size() >= 2);
  run_rtl(files);
}

TEST_CASE("every conv layer equals the int64 reference on golden and RTL under all ten stress legs",
          "[rtl][conv][conv_layers][.long]") {
  run_rtl(layer_files(), true);
}

TEST_CASE("the conv layers cover the intended shapes and are strong tests", "[conv][conv_layers]") {
  std::set<std::string> seen;
  for (const auto& f : layer_files()) {
    const LoadedLayer l = load_layer(f);
    const Layer L = read_layer(f, l.header.seed);
    INFO(L.name);
    const bool small = L.config == "nv_small";
    const int ac = small ? 8 : 64, ak = small ? 8 : (L.int16 ? 16 : 32);
    seen.insert(L.config);
    if (L.R == 1 && L.S == 1) seen.insert("1x1");
    if (L.R == 3 && L.S == 3 && L.pl == 1 && L.pr == 1 && L.pt == 1 && L.pb == 1 && L.dx == 1) seen.insert("3x3 pad 1");
    if (L.R == 5 && L.S == 5 && L.sx == 2 && L.sy == 2) seen.insert("5x5 stride 2");
    if (L.dx == 2 || L.dy == 2) seen.insert("dilation 2");
    if (L.dx == 3 || L.dy == 3) seen.insert("dilation 3");
    if (L.C % ac != 0 && L.K % ak != 0) seen.insert(L.config + " C and K not multiples of the atomics");
    if (L.oh() * L.ow() < (small ? 8 : 16)) seen.insert("fewer positions than one stripe");
    if (L.W == 1 && L.H == 1) seen.insert("fully connected");
    if (L.int16) {
      CHECK(L.config == "nv_full");
      seen.insert("int16");
    }
    if (L.pl != L.pr || L.pt != L.pb) seen.insert("asymmetric padding");
    if (L.post_ops()) seen.insert("SDP post-ops");
    if (L.bs.alu.used && L.bs.alu.mem && !L.bs.alu.per_element) seen.insert("bias per kernel");
    if (L.bs.relu || L.bn.relu) seen.insert("relu");
    if (L.out16 != L.int16) seen.insert("output precision differs");
    if (L.cvt) seen.insert("input converter");
    if (L.pool.on) seen.insert("pool " + L.pool.method + " on " + L.config);

    const Expected e = reference(L);
    // Split-H layers: larger than CBUF by purpose, and their CACC saturation counter is the last
    // band's only, so they are built not to saturate (checked here).
    const engines::CompiledConv cc = compile_at(f, l.header.seed);
    const bool split =
        all_written(cc.program, "CDMA", "D_OP_ENABLE", dla::golden::regs::cdma::D_OP_ENABLE::OP_EN{}).size() > 1 ||
        written(cc.program, "CDMA", "D_DATAIN_SIZE_0", dla::golden::regs::cdma::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}) + 1 !=
            uint32_t(L.H);
    if (split) {
      seen.insert("Split-H");
      CHECK(e.cacc_saturated == 0);
    }
    check_strong(L, e, split);
    if (L.name.find("saturate") != std::string::npos) {
      CHECK(e.cacc_saturated > 0);
    }
  }
  for (const char* want : {"nv_small", "nv_large", "nv_full", "1x1", "3x3 pad 1", "5x5 stride 2", "dilation 2", "dilation 3",
                           "nv_small C and K not multiples of the atomics", "nv_full C and K not multiples of the atomics",
                           "fewer positions than one stripe", "fully connected", "int16", "asymmetric padding",
                           "SDP post-ops", "bias per kernel", "relu", "output precision differs", "input converter",
                           "Split-H", "pool max on nv_small", "pool average on nv_small", "pool min on nv_small",
                           "pool max on nv_large", "pool average on nv_full", "pool max on nv_full"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("conv layers compile to a driver's program: bookkeeping registers, enable order, interrupts",
          "[conv][conv_layers]") {
  namespace r = dla::golden::regs;
  int reuse_layers = 0;  // Split-H layers whose bands share the weights
  for (const auto& f : layer_files()) {
    const LoadedLayer l = load_layer(f);
    const Layer L = read_layer(f, l.header.seed);
    INFO(L.name);
    const Program p = engines::compile_conv_layer(l.header, l.root(), false).program;
    const bool small = L.config == "nv_small";
    const int bpe = L.int16 ? 2 : 1;
    // conv-pipeline.md §3-4: EPS (N atoms per position, A atoms per entry: nv_small 1, nv_large's
    // 64-byte entries 2, nv_full's 128-byte entries 4; a last group of more than half an entry takes one entry per position,
    // of half an entry one per 2 positions, of a quarter one per 4), BYTE_PER_KERNEL,
    // WEIGHT_BYTES rounded up to 128, ATOMICS, RELEASE, output size, banks.
    const int n_atoms = ceil_div(L.C * bpe, L.atom());
    const bool large = L.config == "nv_large";
    const int a = small ? 1 : (large ? 2 : 4), rem = n_atoms % a;
    const int eps = n_atoms / a * L.W +
                    (rem == 0 ? 0 : (2 * rem > a ? L.W : (2 * rem == a ? ceil_div(L.W, 2) : ceil_div(L.W, 4))));
    CHECK(written(p, "CDMA", "D_ENTRY_PER_SLICE", r::cdma::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    CHECK(written(p, "CSC", "D_ENTRY_PER_SLICE", r::csc::D_ENTRY_PER_SLICE::ENTRIES{}) + 1 == uint32_t(eps));
    CHECK(written(p, "CDMA", "D_WEIGHT_SIZE_0", r::cdma::D_WEIGHT_SIZE_0::BYTE_PER_KERNEL{}) + 1 ==
          uint32_t(L.R * L.S * L.C * bpe));
    CHECK(written(p, "CDMA", "D_WEIGHT_BYTES", r::cdma::D_WEIGHT_BYTES::WEIGHT_BYTES{}) ==
          uint32_t(ceil_div(L.R * L.S * L.C * L.K * bpe, 128) * 128));
    const auto enables_cdma = all_written(p, "CDMA", "D_OP_ENABLE", r::cdma::D_OP_ENABLE::OP_EN{});
    // Split-H: several bands, or one that reads fewer input rows than the layer has (rows only
    // the top padding's windows would read are not fetched).
    const bool split_h = enables_cdma.size() > 1 ||
                         written(p, "CDMA", "D_DATAIN_SIZE_0", r::cdma::D_DATAIN_SIZE_0::DATAIN_HEIGHT{}) + 1 != uint32_t(L.H);
    if (split_h) {
      // Split-H (docs/CONV.md §7): bands of output rows in alternate groups. Hand rules: the
      // heights add up to H', each band's ATOMICS is W' x its height, its input starts at row
      // max(0, o0 * sy - PT), only the first band has the top pad, and the last band the bottom
      // pad rows its last output row reads (max(0, (H' - 1) * sy - PT + extent - H)).
      const auto heights = all_written(p, "CACC", "D_DATAOUT_SIZE_0", r::cacc::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{});
      const auto atomics = all_written(p, "CSC", "D_ATOMICS", r::csc::D_ATOMICS::ATOMICS{});
      const auto bases = all_written(p, "CDMA", "D_DAIN_ADDR_LOW_0", r::cdma::D_DAIN_ADDR_LOW_0::DATAIN_ADDR_LOW_0{});
      const auto tops = all_written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_TOP{});
      const auto bottoms = all_written(p, "CDMA", "D_ZERO_PADDING", r::cdma::D_ZERO_PADDING::PAD_BOTTOM{});
      const std::size_t n = enables_cdma.size();
      REQUIRE(heights.size() == n);
      REQUIRE(atomics.size() == n);
      REQUIRE(bases.size() == n);
      const uint64_t line = written(p, "CDMA", "D_LINE_STRIDE", r::cdma::D_LINE_STRIDE::LINE_STRIDE{});
      int o0 = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const int hb = static_cast<int>(heights[i]) + 1;
        CHECK(atomics[i] + 1 == uint32_t(L.ow() * hb));
        CHECK(bases[i] - bases[0] == uint32_t(std::max(0, o0 * L.sy - L.pt) * line));
        CHECK(tops[i] == uint32_t(i == 0 ? L.pt : 0));
        const int extent = (L.R - 1) * L.dy + 1;
        CHECK(bottoms[i] == uint32_t(i + 1 == n ? std::max(0, (L.oh() - 1) * L.sy - L.pt + extent - L.H) : 0));
        o0 += hb;
      }
      CHECK(o0 == L.oh());
      // The bands share the weights (docs/CONV.md §9) when every band takes one D_BANK whose
      // weight banks hold them all: the first fetches and keeps them, the others reuse them.
      const auto dbank = all_written(p, "CDMA", "D_BANK", r::cdma::D_BANK::DATA_BANK{});
      const auto wbank = all_written(p, "CDMA", "D_BANK", r::cdma::D_BANK::WEIGHT_BANK{});
      const auto reuse = all_written(p, "CDMA", "D_MISC_CFG", r::cdma::D_MISC_CFG::WEIGHT_REUSE{});
      const auto skip = all_written(p, "CDMA", "D_MISC_CFG", r::cdma::D_MISC_CFG::SKIP_WEIGHT_RLS{});
      const auto csc_misc = all_written(p, "CSC", "D_MISC_CFG", r::csc::D_MISC_CFG::WEIGHT_REUSE{});
      REQUIRE(reuse.size() == n);
      const int bank_bytes = small ? 512 * 8 : 512 * 64;
      const bool shared = n > 1 && reuse[1] == 1;
      if (shared) {
        ++reuse_layers;
        CHECK(int64_t{wbank[0] + 1} * bank_bytes >= int64_t{ceil_div(L.R * L.S * L.C * L.K * bpe, 128) * 128});
      }
      for (std::size_t i = 0; i < n; ++i) {
        CHECK(reuse[i] == (shared && i > 0 ? 1u : 0u));
        CHECK(csc_misc[i] == reuse[i]);
        CHECK(skip[i] == (shared && i + 1 < n ? 1u : 0u));
        if (shared) {
          CHECK(dbank[i] == dbank[0]);
          CHECK(wbank[i] == wbank[0]);
        }
      }
      continue;
    }
    CHECK(written(p, "CSC", "D_ATOMICS", r::csc::D_ATOMICS::ATOMICS{}) + 1 == uint32_t(L.ow() * L.oh()));
    CHECK(written(p, "CSC", "D_RELEASE", r::csc::D_RELEASE::RLS_SLICES{}) + 1 == uint32_t(L.H));
    CHECK(written(p, "CACC", "D_DATAOUT_SIZE_0", r::cacc::D_DATAOUT_SIZE_0::DATAOUT_WIDTH{}) + 1 == uint32_t(L.ow()));
    CHECK(written(p, "CACC", "D_DATAOUT_SIZE_0", r::cacc::D_DATAOUT_SIZE_0::DATAOUT_HEIGHT{}) + 1 == uint32_t(L.oh()));
    CHECK(written(p, "CACC", "D_CLIP_CFG", r::cacc::D_CLIP_CFG::CLIP_TRUNCATE{}) == uint32_t(L.clip));
    CHECK(written(p, "CDMA", "D_FETCH_GRAIN", r::cdma::D_FETCH_GRAIN::GRAINS{}) == 0);
    const uint32_t data_banks = written(p, "CDMA", "D_BANK", r::cdma::D_BANK::DATA_BANK{}) + 1;
    const uint32_t weight_banks = written(p, "CDMA", "D_BANK", r::cdma::D_BANK::WEIGHT_BANK{}) + 1;
    // Banks: nv_small 512 x 8 B, nv_large 512 x 64 B, nv_full 256 x 128 B.
    const uint32_t bank_entries = small || large ? 512 : 256;
    const int bank_bytes = small ? 512 * 8 : 512 * 64;
    CHECK(data_banks * bank_entries >= uint32_t(eps * L.H));
    CHECK(int64_t{weight_banks} * bank_bytes >= int64_t{std::min(L.K, small ? 8 : (L.int16 ? 16 : 32))} * L.R * L.S * L.C * bpe);
    CHECK(data_banks + weight_banks <= (small ? 32u : 16u));
    CHECK(written(p, "SDP", "D_FEATURE_MODE_CFG", r::sdp::D_FEATURE_MODE_CFG::FLYING_MODE{}) == 1);
    // A pool post-op: SDP's output goes to PDP (OUTPUT_DST 1), which takes it on the fly
    // (FLYING_MODE 0) as the W' x H' x K cube and writes the pooled one.
    CHECK(written(p, "SDP", "D_FEATURE_MODE_CFG", r::sdp::D_FEATURE_MODE_CFG::OUTPUT_DST{}) == (L.pool.on ? 1u : 0u));
    if (L.pool.on) {
      CHECK(written(p, "PDP", "D_OPERATION_MODE_CFG", r::pdp::D_OPERATION_MODE_CFG::FLYING_MODE{}) == 0);
      CHECK(written(p, "PDP", "D_DATA_CUBE_IN_WIDTH", r::pdp::D_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH{}) + 1 == uint32_t(L.ow()));
      CHECK(written(p, "PDP", "D_DATA_CUBE_IN_HEIGHT", r::pdp::D_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT{}) + 1 == uint32_t(L.oh()));
      CHECK(written(p, "PDP", "D_DATA_CUBE_IN_CHANNEL", r::pdp::D_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL{}) + 1 == uint32_t(L.K));
      CHECK(written(p, "PDP", "D_DATA_CUBE_OUT_WIDTH", r::pdp::D_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH{}) + 1 == uint32_t(L.out_w()));
      CHECK(written(p, "PDP", "D_DATA_CUBE_OUT_HEIGHT", r::pdp::D_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT{}) + 1 == uint32_t(L.out_h()));
    }

    // Enables: consumers first (PDP with a pool post-op, SDP, SDP_RDMA when an operand comes from
    // memory, CACC, CMAC_A, CMAC_B, CSC, CDMA), after every D_ register was written once, after
    // the CBUF flush poll.
    std::vector<std::string> enables;
    std::set<std::string> d_regs;
    bool flush_polled = false;
    for (const auto& s : p.steps) {
      if (s.op == StepOp::RegRead && s.reg->name == "S_CBUF_FLUSH_STATUS") flush_polled = enables.empty();
      if (s.op != StepOp::RegWrite) continue;
      if (s.reg->name == "D_OP_ENABLE") {
        CHECK(s.value == 1);
        enables.push_back(s.reg->block);
      } else if (s.reg->dual) {
        CHECK(enables.empty());
        CHECK(d_regs.insert(s.reg->block + "." + s.reg->name).second);
      }
    }
    CHECK(flush_polled);
    const bool operands = L.bs.alu.mem || L.bs.mul.mem || L.bn.alu.mem || L.bn.mul.mem || L.ew.alu.mem || L.ew.mul.mem;
    std::vector<std::string> want = {"SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"};
    if (operands) want.insert(want.begin() + 1, "SDP_RDMA");
    if (L.pool.on) want.insert(want.begin(), "PDP");
    CHECK(enables == want);
    std::vector<std::string> intrs;
    for (const auto& s : p.steps) {
      if (s.op == StepOp::WaitIntr) intrs.push_back(s.intr);
    }
    std::vector<std::string> want_intrs{"CDMA_DAT_0", "CDMA_WT_0", "CACC_0", "SDP_0"};
    if (L.pool.on) want_intrs.emplace_back("PDP_0");
    CHECK(intrs == want_intrs);
    CHECK(p.steps.back().op == StepOp::Check);
    CHECK(p.steps.back().check == CheckKind::Golden);
  }
  CHECK(reuse_layers >= 1);
}

TEST_CASE("the reference comparison catches a one-byte weight change", "[conv][conv_layers]") {
  const fs::path f = kLayers / "small_odd_c_k.json";
  // The last weight byte R*S*C*K - 1 (kernel 10, channel 12, r 1, s 2) gains 1: only kernel 10's outputs change.
  const std::string d = diff_after_weight_change(f, [](std::vector<uint8_t>& bytes, const Layer& L) {
    bytes[static_cast<std::size_t>(L.R * L.S * L.C * L.K - 1)] += 1;
  });
  INFO(d);
  CHECK_THAT(d, Catch::Contains("outputs differ; first (k, h, w) = (10, "));
}

TEST_CASE("layers at this RTL's CBUF limits compile and run on the RTL", "[rtl][conv][conv_layers]") {
  // The driver's D_BANK split (docs/CONV.md §7) at nv_small's 32 banks: an input filling 31 banks
  // (64 x 248 x 8 = 15872 entries) with one weight bank runs whole; one kernel group filling 31
  // banks (8 x 3x3x1760 = 126720 bytes) with a one-bank input (1 x 1 x 1760, pad 1) runs whole; one input row more
  // (64 x 249) runs as bands (Split-H); an input whose one-row band does not fit is refused
  // (tests/data/bad_layers/conv_cbuf_nvdla.json).
  const char* texts[] = {
      R"({"unit":"conv","config":"nv_small","input":{"w":64,"h":248,"c":8,"data":{"random":{}}},
          "weights":{"k":8,"r":1,"s":1,"data":{"random":{}}},"clip":6})",
      R"({"unit":"conv","config":"nv_small","input":{"w":1,"h":1,"c":1760,"data":{"random":{"min":-8,"max":8}}},
          "weights":{"k":8,"r":3,"s":3,"data":{"random":{"min":-8,"max":8}}},
          "padding":{"left":1,"right":1,"top":1,"bottom":1},"clip":4})",
      R"({"unit":"conv","config":"nv_small","input":{"w":64,"h":249,"c":8,"data":{"random":{}}},
          "weights":{"k":8,"r":1,"s":1,"data":{"random":{}}},"clip":6})",
  };
  const std::size_t bands[] = {1, 1, 2};
  std::size_t i = 0;
  for (const char* text : texts) {
    const auto doc = parse_json_text("cbuf_limit.json", text);
    LayerHeader h;
    h.file = doc->file;
    h.unit = "conv";
    h.name = "cbuf_limit";
    h.config = &dla::golden::nv_small();
    const engines::CompiledConv c = engines::compile_conv_layer(h, JsonNode::root(doc));
    CHECK(all_written(c.program, "CDMA", "D_OP_ENABLE", dla::golden::regs::cdma::D_OP_ENABLE::OP_EN{}).size() ==
          bands[i++]);
    RunOptions o;
    o.mode = "cross";
    o.seed = 3;
    o.stall = 0.1;
    o.sim.watchdog = 200000;
    const RunResult r = run_program_in_mode(c.program, *h.config, o);
    INFO(text << "\n" << format_run(r));
    CHECK(r.status == Status::Pass);
  }
}

TEST_CASE("malformed conv layers are refused naming file, JSON pointer and rule", "[conv][conv_layers]") {
  const std::vector<Refusal> cases = {
      {"conv_k_zero.json", "/weights/k", "0 is out of range [1, 8192]"},
      {"conv_c_zero.json", "/input/c", "0 is out of range [1, 8192]"},
      {"conv_int16_small.json", "/precision", "nv_small does not support int16 convolution"},
      {"conv_dilation_too_big.json", "/dilation/x",
       "the kernel spans 13 input columns ((3 - 1) x dilation 6 + 1), more than the padded input's 10"},
      {"conv_pad_right.json", "/padding/right", "PAD_RIGHT 3 must be smaller than the kernel's x extent 3"},
      {"conv_cbuf_nvdla.json", "/input", "the layer does not fit in CBUF: the input needs 32 banks"},
      {"conv_cbuf_nvdla.json", "/input", "even for one output row (Split-H)"},
      {"conv_cbuf_rtl.json", "/input",
       "the layer does not fit in this RTL's CBUF: the W-folded input needs 3998 rows in this RTL's layout (16 banks of "
       "256 entries, where NVDLA's needs 1999 entries; docs/WFOLD.md)"},
      {"conv_cbuf_rtl.json", "/input", "even for one output row (Split-H)"},
      {"conv_weights_cbuf.json", "/weights",
       "one kernel group of weights 32 (8 kernels x 16384 bytes, 4096 per bank), more than nv_small's 32 banks"},
      {"conv_clip.json", "/clip", "17 is out of range [0, 16]"},
      {"conv_stride.json", "/stride/y", "9 is out of range [1, 8]"},
      {"conv_pad_value.json", "/padding/value", "128 is out of range [-128, 127]"},
      {"conv_weight_count.json", "/weights/data/values", "3 values given, the layer needs exactly 18"},
      {"conv_bias_count.json", "/bs/alu/operand/values", "2 values given, the layer needs exactly 5"},
      {"conv_unknown_field.json", "/padding/lft", "unknown field \"lft\""},
      {"conv_pool_kernel.json", "/pool/kernel/w", "NVDLA's PDP kernel is at most 8 x 8"},
      {"conv_pool_output_stride.json", "/output/line_stride", "with \"pool\" the output (PDP's) is packed"},
      {"conv_pool_split_h.json", "/pool", "a pool post-op is not split"},
      {"conv_pool_wide.json", "/pool", "the pooled width 300 exceeds the 128 columns of PDP's line buffer on nv_large"},
      {"conv_pool_wino.json", "/pool", "a Winograd convolution delivers 2x2 tiles"},
      {"conv_pool_precision.json", "/output/precision",
       "with a pool post-op SDP's output precision must be the convolution's"},
  };
  check_refusals(cases);
}

// The issue's Split-H layers at network scale (testvectors/layers/conv_large/: 224x224x64 -> 64 and
// 56x56x256 -> 256, 3x3 pad 1, nv_full): each against the int64 reference on golden and RTL. About
// 1 M cycles and a minute each, so hidden from the default run:
// `build/tests/dla_tests_rtl "[.large]"` (docs/CONV.md §7 records the last run).
TEST_CASE("network-scale layers run through Split-H equal the int64 reference on golden and RTL",
          "[.large][rtl][conv]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DLA_SOURCE_DIR) / "testvectors/layers/conv_large")) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 2);
  for (const auto& f : files) {
    RunOptions o;
    o.mode = "cross";
    o.seed = 1;
    o.sim.seed = 1;
    o.sim.watchdog = 200000;
    check_layer(f, load_layer(f).header.seed, &o);
  }
}
