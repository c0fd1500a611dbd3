// The conv RTL's CBUF is split by the programmed D_BANK as NVDLA splits it (data banks 0..DATA_BANK,
// then WEIGHT_BANK+1 weight banks; docs/CONV_RTL.md "CBUF"). A register program whose banks hold its
// input and one kernel group runs, also when data or weights take more than half of CBUF; one
// whose banks do not (or exceed CBUF) is refused with a reason when CDMA is enabled, never
// computed wrong. Expected bank counts below are hand-calculated from conv-pipeline.md §3 (EPS,
// D_BANK) and the configurations' geometry (nv_small 32 x 512 x 8 B, nv_full 16 x 256 x 128 B).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "conv_reference.hpp"
#include "golden/config.hpp"
#include "engines/conv/golden/conv.hpp"
#include "engines/conv/golden/conv_wino.hpp"
#include "golden/nvdla_regs.hpp"
#include "harness/errors.hpp"
#include "harness/regdb.hpp"
#include "tops/rtl_devices.hpp"
#include "engines/conv/harness/conv.hpp"

using namespace dla::harness;
namespace golden = dla::golden;

namespace {

struct Layer {
  const golden::HwConfig* hw;
  int w, h, c, k, r, s;
  golden::Precision precision = golden::Precision::Int8;
};

golden::ConvConfig config_of(const Layer& l) {
  golden::ConvParams p;
  p.w = l.w;
  p.h = l.h;
  p.c = l.c;
  p.k = l.k;
  p.r = l.r;
  p.s = l.s;
  p.precision = l.precision;
  return golden::conv_config_from(p, *l.hw, 0x80000000ull, 0x90000000ull);
}

// Writes the convolution blocks' D_ groups of `l` with D_BANK `banks` (the compiler's split when
// absent) to the RTL device, then CDMA's D_OP_ENABLE; returns the refusal's text ("" when accepted).
// `edit` may change the words before they are written.
std::string enable_conv(const Layer& l, std::optional<engines::ConvBanks> banks = std::nullopt,
                        const std::function<void(engines::BlockWords&)>& edit = {}) {
  const golden::HwConfig& hw = *l.hw;
  const golden::ConvConfig c = config_of(l);
  golden::FeatureLayout out = c.in_layout;
  out.base = 0xa0000000ull;
  engines::BlockWords words = engines::conv_register_words(c, hw, banks.value_or(engines::conv_bank_split(c, hw)), out);
  if (edit) edit(words);
  std::string why;
  RunOptions o;
  auto dev = make_nvdla_core_device({"CDMA"}, hw, o, why);
  REQUIRE(dev != nullptr);
  const RegDb& db = RegDb::nvdla();
  for (const auto& [block, regs] : words) {
    const uint32_t base = *db.address(hw.name, *db.find(block + ".S_POINTER")) - db.find(block + ".S_POINTER")->offset;
    for (const auto& [offset, value] : regs) dev->reg_write(base + offset, value);
  }
  try {
    dev->reg_write(*db.address(hw.name, *db.find("CDMA.D_OP_ENABLE")), 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the conv compiler's D_BANK split is the driver's: data banks for the whole input, the rest for the weights",
          "[rtl][conv]") {
  // nv_small 128 x 100 x 8: 12800 entries = 25 banks of 512; 8 kernels x 8 B = 1 bank; all weights
  // fit in the other 7.
  const golden::ConvConfig a = config_of({&golden::nv_small(), 128, 100, 8, 8, 1, 1});
  CHECK(engines::conv_bank_split(a, golden::nv_small()).data == 25);
  CHECK(engines::conv_bank_split(a, golden::nv_small()).weight == 1);
  // nv_small 6 x 6 x 512, 12 kernels 5x5: input 6*6*64 = 2304 entries = 5 banks; a kernel group
  // 8 x 12800 B = 25 banks of 4 KiB, all weights 12 x 12800 = 38 banks: the other 27.
  const golden::ConvConfig b = config_of({&golden::nv_small(), 6, 6, 512, 12, 5, 5});
  CHECK(engines::conv_bank_split(b, golden::nv_small()).data == 5);
  CHECK(engines::conv_bank_split(b, golden::nv_small()).weight == 27);
  // nv_full int8 40 x 60 x 64: 64 bytes a position, two 32-byte atoms, half a 128-byte entry, so
  // two positions share an entry (EPS 40 / 2 = 20, 1200 entries, 5 banks of 256), in NVDLA and in
  // this RTL (CBUF entry packing since 2026-11-30; before, 2400 rows and 10 banks).
  const golden::ConvConfig f = config_of({&golden::nv_full(), 40, 60, 64, 40, 3, 3});
  CHECK(golden::conv_derived(f, golden::nv_full()).data_banks_min == 5);
  CHECK(engines::conv_bank_split(f, golden::nv_full()).data == 5);
  // nv_full int8 28 x 28 x 1 (NVIDIA's LeNet's input in int8): one atom, four positions an entry,
  // EPS ceil(28 / 4) = 7, 196 entries: one bank.
  CHECK(engines::conv_bank_split(config_of({&golden::nv_full(), 28, 28, 1, 20, 5, 5}), golden::nv_full()).data == 1);
}

// Issue #38: nothing NVDLA accepts is refused for want of CBUF. This RTL stores Winograd's
// channel-extended cube as rows of 2 x 2 positions (docs/WINOGRAD.md); NVDLA as ENTRY_PER_SLICE x
// H_ext entries with H_ext = H' + 4. Over every Winograd layer the golden model takes in a grid
// (strides 1 and 2 each way, outputs 8..32, C up to 300, int8, int16, fp16, pads 0..2), this RTL
// needs no more data banks than NVDLA's rule gives.
TEST_CASE("this RTL's Winograd CBUF layout never needs more data banks than NVDLA's rule", "[conv][wino]") {
  const golden::HwConfig& hw = golden::nv_full();
  int legal = 0, equal = 0;
  std::string refused;  // one reason the golden model gave, for the message
  for (const int sx : {1, 2}) {
    for (const int sy : {1, 2}) {
      for (const golden::Precision prec :
           {golden::Precision::Int8, golden::Precision::Int16, golden::Precision::Fp16}) {
        for (const int c : {1, 3, 16, 17, 32, 33, 64, 100, 128, 200, 300}) {
          for (const int ow : {8, 12, 16, 20, 24, 28, 32}) {
            for (const int oh : {8, 12, 16, 24, 32}) {
              for (const int pad : {0, 1, 2}) {
                // The layer as CDMA fetches it: (W + PL + PR) / sx = W' + 4 extended columns.
                golden::ConvParams p;
                p.c = c;
                p.k = 16;
                p.r = p.s = 3;
                p.stride_x = sx;
                p.stride_y = sy;
                p.pad_left = p.pad_top = pad;
                p.pad_right = p.pad_bottom = pad;
                p.w = (ow + 4) * sx - 2 * pad;
                p.h = (oh + 4) * sy - 2 * pad;
                p.precision = prec;
                golden::ConvConfig cfg = golden::conv_config_from(p, hw, 0x80000000ull, 0x90000000ull);
                cfg.mode = golden::ConvMode::Winograd;
                cfg.output.w = ow;
                cfg.output.h = oh;
                cfg.weight_bytes = golden::wino_weight_layout(cfg).padded_bytes();
                if (const auto u = cfg.unsupported(); !u.empty()) {
                  refused = u.front();
                  continue;
                }
                ++legal;
                const int nvdla = golden::conv_derived(cfg, hw).data_banks_min;
                const int ours = engines::rtl_data_banks(cfg, hw);
                INFO("C " << c << " " << p.w << "x" << p.h << " stride " << sx << "x" << sy << " pad " << pad << " "
                          << golden::precision_name(prec) << ": NVDLA's banks " << nvdla << ", this RTL's rows "
                          << engines::rtl_data_rows(cfg, hw));
                CHECK(ours == nvdla);
                equal += ours == nvdla ? 1 : 0;
              }
            }
          }
        }
      }
    }
  }
  INFO("legal Winograd shapes " << legal << "; a refused one: " << refused);
  CHECK(legal > 1000);
  CHECK(equal == legal);
}

TEST_CASE("the conv RTL runs what D_BANK holds and refuses with a reason what it does not", "[rtl][conv]") {
  const Layer in25{&golden::nv_small(), 128, 100, 8, 8, 1, 1};
  // More than half of CBUF for the input (today's hardware split): accepted.
  CHECK(enable_conv(in25).empty());
  CHECK(enable_conv(in25, engines::ConvBanks{25, 7}).empty());
  // One data bank short (NVDLA's rule: CSC would wait forever).
  CHECK_THAT(enable_conv(in25, engines::ConvBanks{24, 8}),
             Catch::Contains("CDMA.D_OP_ENABLE") && Catch::Contains("this RTL refuses the layer") &&
                 Catch::Contains("D_BANK.DATA_BANK gives the input 24 bank(s) but it needs 25") &&
                 Catch::Contains("CDMA.D_BANK 0x70017"));
  // More banks than CBUF has.
  CHECK_THAT(enable_conv(in25, engines::ConvBanks{25, 8}),
             Catch::Contains("D_BANK gives 25 data + 8 weight banks, more than nv_small's 32 CBUF banks"));
  // A kernel group of 25 banks in 24 weight banks.
  const Layer wt25{&golden::nv_small(), 6, 6, 512, 12, 5, 5};
  CHECK(enable_conv(wt25).empty());
  CHECK(enable_conv(wt25, engines::ConvBanks{5, 25}).empty());
  CHECK_THAT(enable_conv(wt25, engines::ConvBanks{5, 24}),
             Catch::Contains("D_BANK.WEIGHT_BANK gives the weights 24 bank(s) but one kernel group of weights needs 25"));
  // nv_full int8: NVDLA's 5 data banks hold the packed input (EPS 20 x 60 lines), here too; 4 do not.
  const Layer packed{&golden::nv_full(), 40, 60, 64, 40, 3, 3};
  CHECK(enable_conv(packed).empty());
  CHECK(enable_conv(packed, engines::ConvBanks{5, 11}).empty());
  CHECK_THAT(enable_conv(packed, engines::ConvBanks{4, 12}),
             Catch::Contains("D_BANK.DATA_BANK gives the input 4 bank(s) but it needs 5 (ENTRY_PER_SLICE 20 x 60 lines, "
                             "256 entries per bank)"));
}

TEST_CASE("the conv RTL takes image input (PIXEL) on NVDLA's CBUF layout and refuses it on too few banks", "[rtl][conv]") {
  // nv_small R8 image 16 x 600, 8 kernels 1x1: with C = 1 and S = 1 the pre-extended kernel is the
  // direct one (C' = S x C = 1); image mode needs DATAIN_FORMAT = PIXEL in CDMA and CSC and the
  // image line's ENTRY_PER_SLICE, ceil(16 pixels x 1 byte / 8-byte entries) = 2 (field 1). The
  // image takes 600 x 2 = 1200 entries, 3 banks of 512 (NVDLA's layout; as feature data this RTL
  // needs 16 x 600 rows, 19 banks).
  namespace r = golden::regs;
  const Layer img{&golden::nv_small(), 16, 600, 1, 8, 1, 1};
  const auto pixel = [](engines::BlockWords& w) {
    w["CDMA"][r::cdma::D_DATAIN_FORMAT::offset] = 1u | (1u << 20);  // PIXEL, T_R8 (0), signed
    w["CSC"][r::csc::D_DATAIN_FORMAT::offset] = 1u;
    w["CDMA"][r::cdma::D_ENTRY_PER_SLICE::offset] = 1u;
    w["CSC"][r::csc::D_ENTRY_PER_SLICE::offset] = 1u;
  };
  CHECK(enable_conv(img, engines::ConvBanks{3, 1}, pixel).empty());
  CHECK_THAT(enable_conv(img, engines::ConvBanks{3, 1}),  // the same banks for feature data
             Catch::Contains("this RTL refuses the layer") && Catch::Contains("D_BANK.DATA_BANK gives the input 3"));
  CHECK_THAT(enable_conv(img, engines::ConvBanks{2, 1}, pixel),
             Catch::Contains("this RTL refuses the layer") &&
                 Catch::Contains("D_BANK.DATA_BANK gives the input 2 bank(s) but it needs 3 (ENTRY_PER_SLICE 2 x 600 lines"));
}

TEST_CASE("the conv RTL takes batches on nv_full and refuses what it cannot run with the reason", "[rtl][conv]") {
  // nv_full 4 x 4 x 64, 32 kernels 3x3, as 2 batches: accepted (N cubes in CBUF, docs/CDMA_MODES.md).
  namespace r = golden::regs;
  const Layer l{&golden::nv_full(), 4, 4, 64, 32, 3, 3};
  CHECK(enable_conv(l).empty());
  const auto batches = [](uint32_t n_m1, uint32_t stride) {
    return [n_m1, stride](engines::BlockWords& w) {
      w["CDMA"][r::cdma::D_BATCH_NUMBER::offset] = n_m1;
      w["CSC"][r::csc::D_BATCH_NUMBER::offset] = n_m1;
      w["CACC"][r::cacc::D_BATCH_NUMBER::offset] = n_m1;
      w["CDMA"][r::cdma::D_BATCH_STRIDE::offset] = stride;
    };
  };
  CHECK(enable_conv(l, std::nullopt, batches(1u, 0x10000u)).empty());
  // CACC's copy alone (an inconsistent program): the RTL reads CDMA's, so it is refused.
  CHECK_THAT(enable_conv(l, std::nullopt, [](engines::BlockWords& w) { w["CACC"][r::cacc::D_BATCH_NUMBER::offset] = 3u; }),
             Catch::Contains("CDMA.D_OP_ENABLE") && Catch::Contains("this RTL refuses the layer") &&
                 Catch::Contains("D_BATCH_NUMBER is 0 / 0 / 3 in CDMA / CSC / CACC") &&
                 Catch::Contains("the three copies differ"));
  // No batch mode off nv_full.
  CHECK_THAT(enable_conv({&golden::nv_small(), 4, 4, 8, 8, 3, 3}, std::nullopt, batches(1u, 0x1000u)),
             Catch::Contains("D_BATCH_NUMBER is 1 / 1 / 1") && Catch::Contains("multi-batch mode on nv_full only"));
  // Capacity counts the N cubes: nv_full int8 40 x 60 x 64 takes 1200 entries (5 banks of 256) as
  // one batch; 2 batches need 2400 entries, 10 banks (hand: 2 x 60 slices x EPS 20).
  const Layer big{&golden::nv_full(), 40, 60, 64, 40, 3, 3};
  CHECK(enable_conv(big, engines::ConvBanks{5, 6}).empty());
  CHECK(enable_conv(big, engines::ConvBanks{10, 6}, batches(1u, 0x40000u)).empty());
  CHECK_THAT(enable_conv(big, engines::ConvBanks{9, 6}, batches(1u, 0x40000u)),
             Catch::Contains("this RTL refuses the layer") &&
                 Catch::Contains("D_BANK.DATA_BANK gives the input 9 bank(s) but it needs 10 (ENTRY_PER_SLICE 20 x 60 "
                                 "lines x 2 batches, 256 entries per bank)"));
}

TEST_CASE("the conv RTL takes compressed weights on nv_full and refuses what it cannot run with the reason",
          "[rtl][conv][compress]") {
  namespace r = golden::regs;
  const Layer l{&golden::nv_full(), 4, 4, 64, 32, 3, 3};
  const auto compressed = [](engines::BlockWords& w) {
    w["CDMA"][r::cdma::D_WEIGHT_FORMAT::offset] = 1u;
    w["CSC"][r::csc::D_WEIGHT_FORMAT::offset] = 1u;
  };
  CHECK(enable_conv(l, std::nullopt, compressed).empty());
  // CSC's copy alone: the RTL reads CDMA's.
  CHECK_THAT(enable_conv(l, std::nullopt, [](engines::BlockWords& w) { w["CSC"][r::csc::D_WEIGHT_FORMAT::offset] = 1u; }),
             Catch::Contains("this RTL refuses the layer") && Catch::Contains("D_WEIGHT_FORMAT is COMPRESSED") &&
                 Catch::Contains("CDMA's and CSC's copies differ"));
  CHECK_THAT(enable_conv({&golden::nv_small(), 4, 4, 8, 8, 3, 3}, std::nullopt, compressed),
             Catch::Contains("D_WEIGHT_FORMAT is COMPRESSED") && Catch::Contains("on nv_full only"));
  // Bank 15 holds the mask bits: 1 data + 15 weight banks is one too many.
  CHECK_THAT(enable_conv(l, engines::ConvBanks{1, 15}, compressed),
             Catch::Contains("1 data + 15 weight banks with compressed weights") && Catch::Contains("less bank 15"));
  // One kernel group's mask bits beyond bank 15: C 1024, 3x3, 32 kernels: 32 x 9 x 1024 / 8 = 36864
  // bytes > 256 x 128 - 128 (hand).
  CHECK_THAT(enable_conv({&golden::nv_full(), 4, 4, 1024, 32, 3, 3}, engines::ConvBanks{1, 10}, compressed),
             Catch::Contains("one kernel group's weight mask bits (36864 bytes) and one entry exceed bank 15's 32768 "
                             "bytes"));
  CHECK_THAT(enable_conv(l, std::nullopt, [](engines::BlockWords& w) { w["CSC"][r::csc::D_POST_Y_EXTENSION::offset] = 2u; }),
             Catch::Contains("this RTL refuses the layer") && Catch::Contains("CSC D_POST_Y_EXTENSION is 2") &&
                 Catch::Contains("only with image input on nv_full"));
}

TEST_CASE("a conv program whose D_BANK does not hold its input stops as bad input (exit 2) with the reason",
          "[rtl][conv]") {
  const auto doc = parse_json_text("dbank.json", R"({"unit":"conv","config":"nv_small",
      "input":{"w":128,"h":100,"c":8,"data":{"random":{}}},"weights":{"k":8,"r":1,"s":1,"data":{"random":{}}}})");
  LayerHeader h;
  h.file = doc->file;
  h.unit = "conv";
  h.name = "dbank";
  h.config = &golden::nv_small();
  engines::CompiledConv c = engines::compile_conv_layer(h, JsonNode::root(doc), false);
  int changed = 0;
  for (auto& s : c.program.steps) {
    if (s.op == StepOp::RegWrite && s.reg->name == "D_BANK") {
      CHECK(s.value == 0x00000018u);  // hand: 25 data banks, 1 weight bank
      s.value = 0x00010017u;          // 24 data banks, 2 weight banks
      ++changed;
    }
  }
  CHECK(changed == 2);  // CDMA and CSC
  RunOptions o;
  o.mode = "rtl";
  const RunResult r = run_program_in_mode(c.program, golden::nv_small(), o);
  INFO(format_run(r));
  CHECK(r.status == Status::BadInput);
  CHECK_THAT(format_run(r), Catch::Contains("D_BANK.DATA_BANK gives the input 24 bank(s) but it needs 25"));
}

TEST_CASE("Winograd conv layers whose data or weights take more than half of CBUF equal the int64 reference on "
          "golden and RTL under the stress matrix",
          "[rtl][conv][wino]") {
  // nv_full Winograd as NVDLA programs it: a 46 x 46 x 64 int16 input is NVDLA's EPS 48 x 64 x 2 /
  // 128 = 48 entries x H_ext 48 = 2304 entries, 9 of 16 banks (this RTL's (44/2 + 1)^2 x 4 = 2116
  // rows of 2x2 positions fit them); 16 int16 kernels over C' = 528 channels pre-transformed (16 x
  // 528 x 2 B = 16896 B each) are 270336 B, 9 banks of 32 KiB, for one kernel group.
  const char* texts[] = {
      R"({"unit":"conv","config":"nv_full","mode":"winograd","precision":"int16","seed":71,
          "input":{"w":46,"h":46,"c":64,"data":{"random":{"min":-300,"max":300}}},
          "weights":{"k":4,"r":3,"s":3,"data":{"random":{"min":-300,"max":300}}},"clip":8})",
      R"({"unit":"conv","config":"nv_full","mode":"winograd","precision":"int16","seed":72,
          "input":{"w":10,"h":10,"c":520,"data":{"random":{"min":-300,"max":300}}},
          "weights":{"k":16,"r":3,"s":3,"data":{"random":{"min":-300,"max":300}}},"clip":10})",
  };
  const auto dir = std::filesystem::temp_directory_path() / "dla_test_rtl_capacity";
  std::filesystem::create_directories(dir);
  int n = 0;
  for (const char* text : texts) {
    const auto f = dir / ("wino_dbank_" + std::to_string(n++) + ".json");
    std::ofstream(f) << text;
    const LoadedLayer l = load_layer(f);
    const engines::CompiledConv c = ::conv_ref::compile_at(f, l.header.seed);
    const auto banks = ::conv_ref::all_written(c.program, "CDMA", "D_BANK", golden::regs::cdma::D_BANK::DATA_BANK{});
    const auto wbanks = ::conv_ref::all_written(c.program, "CDMA", "D_BANK", golden::regs::cdma::D_BANK::WEIGHT_BANK{});
    REQUIRE(banks.size() == 1);
    CHECK((banks[0] + 1 > 8 || wbanks[0] + 1 > 8));
    for (RunOptions o : cross_stress::options()) ::conv_ref::check_layer(f, *o.seed, &o);
  }
}
