// NVDLA loadables (docs/LOADABLES.md) on the golden model: every int8 / int16 loadable of NVIDIA's
// KMD regression reproduces NVIDIA's md5 of the runtime's output image; the firmware's register
// programming of one convolution checked by hand against its descriptors; the output image and
// the input files by hand; hostile and unsupported loadables refused naming the list, the index
// and the rule.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include "common/md5.hpp"
#include "common/nvdla_sw.hpp"
#include "golden/config.hpp"
#include "harness/errors.hpp"
#include "harness/loadable.hpp"
#include "harness/loadable_runner.hpp"
#include "harness/memory.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dla::harness;
using dla::test::file_bytes;
using dla::test::kmd_loadable;
using dla::test::kmd_md5;
using dla::test::md5_hex;

std::vector<uint8_t> text(const std::string& s) { return {s.begin(), s.end()}; }

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("dlacosim-loadables-" + std::to_string(::getpid()) + "-" + name);
}

// Runs a loadable in golden mode and returns the md5 of its output image.
std::string golden_md5(const fs::path& file, const std::string& name) {
  RunOptions o;
  o.mode = "golden";
  loadable::LoadableRunOptions lo;
  lo.dimg = temp_path(name + ".dimg");
  const RunResult r = loadable::run_loadable(file, o, lo);
  INFO(r.message);
  REQUIRE(r.status == Status::Pass);
  const std::string md5 = md5_hex(file_bytes(*lo.dimg));
  fs::remove(*lo.dimg);
  return md5;
}

// A loadable that `edit` changed, written to a temporary *_fbuf file.
template <typename Edit>
fs::path edited(const std::string& test, const std::string& name, Edit edit) {
  loadable::Loadable l = loadable::read_loadable(kmd_loadable(test));
  edit(l);
  const fs::path p = temp_path(name + "_fbuf");
  const std::vector<uint8_t> b = loadable::serialize_loadable(l);
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return p;
}

loadable::Blob& blob(loadable::Loadable& l, const std::string& part) {
  for (auto& b : l.blobs) {
    if (b.name.find(part) != std::string::npos) return b;
  }
  FAIL("no blob named *" << part << "*");
  return l.blobs.front();
}

void put16(std::vector<uint8_t>& d, std::size_t at, uint16_t v) {
  d[at] = static_cast<uint8_t>(v);
  d[at + 1] = static_cast<uint8_t>(v >> 8);
}
void put32(std::vector<uint8_t>& d, std::size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) d[at + static_cast<std::size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

// Planning (or running) `file` is refused: the message names the file, the place and the rule.
void refused(const fs::path& file, const std::string& where, const std::string& rule, const char* config = nullptr) {
  try {
    const loadable::Loadable l = loadable::read_loadable(file);
    const auto* hw = dla::golden::find_config(config != nullptr ? config : loadable::default_config_for(file));
    (void)loadable::plan_loadable(l, *hw, {});
    FAIL("not refused: " << file);
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.file() == file.string());
    CHECK_THAT(e.where(), Catch::Contains(where));
    CHECK_THAT(e.rule(), Catch::Contains(rule));
  }
}

}  // namespace

TEST_CASE("md5 of the tests is RFC 1321's", "[loadable]") {
  CHECK(md5_hex(text("")) == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(md5_hex(text("abc")) == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(md5_hex(text("message digest")) == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(md5_hex(text("abcdefghijklmnopqrstuvwxyz")) == "c3fcd3d76192e4007dfb496cca67e13b");
  CHECK(md5_hex(text("12345678901234567890123456789012345678901234567890123456789012345678901234567890")) ==
        "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("every int8 / int16 KMD loadable reproduces NVIDIA's md5 on the golden model", "[loadable]") {
  if (!dla::test::kmd_present()) return;
  for (const auto& test : dla::test::kmd_int_tests()) {
    INFO(test);
    CHECK(golden_md5(kmd_loadable(test), test) == kmd_md5(test));
  }
}

TEST_CASE("a changed input byte changes the output image (the md5 check can fail)", "[loadable]") {
  if (!dla::test::kmd_present()) return;
  const fs::path p = edited("PDP_L0_0", "pdp_changed", [](loadable::Loadable& l) { blob(l, "PDPSrc").data[0] ^= 0x41; });
  CHECK(golden_md5(p, "pdp_changed") != kmd_md5("PDP_L0_0"));
  fs::remove(p);
}

TEST_CASE("the firmware programs CONV_D_L0_0_small's convolution and SDP from their descriptors", "[loadable]") {
  if (!dla::test::kmd_present()) return;
  // Descriptors (NVIDIA's file): 8x8x128 int8 input, 3x3x128 x 32 kernels, pad 1 all round, data
  // banks 2, weight banks 9, 128 entries per slice, 1152 bytes per kernel, 36864 weight bytes;
  // SDP on the fly: x1 ADD (SUM) per layer with ReLU.
  const auto l = loadable::read_loadable(kmd_loadable("CONV_D_L0_0_small"));
  const auto plan = loadable::plan_loadable(l, dla::golden::nv_small(), {});
  REQUIRE(plan.steps.size() == 1);
  std::map<std::string, uint32_t> last;
  std::vector<std::string> order;
  for (const auto& s : plan.steps[0].program.steps) {
    if (s.op == StepOp::RegWrite) {
      const std::string name = s.reg->block + "." + s.reg->name;
      last[name] = s.value;
      if (s.reg->name == "D_OP_ENABLE") order.push_back(s.reg->block);
    }
    if (s.op == StepOp::WaitIntr) order.push_back("wait " + s.intr);
  }
  CHECK(last.at("CDMA.D_DATAIN_SIZE_0") == 0x00070007u);
  CHECK(last.at("CDMA.D_DATAIN_SIZE_1") == 127u);
  CHECK(last.at("CDMA.D_LINE_STRIDE") == 64u);
  CHECK(last.at("CDMA.D_SURF_STRIDE") == 512u);
  CHECK(last.at("CDMA.D_DAIN_MAP") == 0x00010001u);  // 64 = 8 x 8-byte atoms, 512 = 8 x 8 atoms
  CHECK(last.at("CDMA.D_ZERO_PADDING") == 0x01010101u);
  CHECK(last.at("CDMA.D_BANK") == 0x00080001u);  // weight banks - 1 at 16, data banks - 1 at 0
  CHECK(last.at("CSC.D_BANK") == 0x00080001u);
  CHECK(last.at("CDMA.D_ENTRY_PER_SLICE") == 127u);
  CHECK(last.at("CDMA.D_WEIGHT_SIZE_0") == 1151u);
  CHECK(last.at("CDMA.D_WEIGHT_SIZE_1") == 31u);
  CHECK(last.at("CDMA.D_WEIGHT_BYTES") == 36864u);
  CHECK(last.at("CSC.D_WEIGHT_SIZE_EXT_0") == 0x00020002u);
  CHECK(last.at("CSC.D_WEIGHT_SIZE_EXT_1") == 0x001f007fu);
  CHECK(last.at("CSC.D_ATOMICS") == 63u);
  CHECK(last.at("CACC.D_DATAOUT_SIZE_0") == 0x00070007u);
  CHECK(last.at("CACC.D_DATAOUT_SIZE_1") == 31u);
  CHECK(last.at("SDP.D_FEATURE_MODE_CFG") == 1u);  // on the fly, to memory
  // BS: not bypassed, ALU SUM (2 << 2), MUL bypassed (1 << 4), ReLU on.
  CHECK(last.at("SDP.D_DP_BS_CFG") == 0x18u);
  CHECK(last.at("SDP.D_DST_LINE_STRIDE") == 64u);
  CHECK(last.at("SDP.D_DST_SURFACE_STRIDE") == 512u);
  // The graph: the conv is programmed, which lets SDP be enabled; SDP's enabling lets the conv be
  // enabled (its fused parent). Then the interrupts, in the order the ops were enabled.
  const std::vector<std::string> expected = {"SDP",  "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA", "wait SDP_0",
                                             "wait CDMA_DAT_0", "wait CDMA_WT_0", "wait CACC_0"};
  CHECK(order == expected);
  REQUIRE(plan.ops.size() == 2);
  CHECK(plan.ops[0].out_size == 0);     // the conv flies into SDP
  CHECK(plan.ops[1].out_size == 2048u);  // SDP writes the output tensor
  CHECK(plan.ops[1].out_addr == plan.output_addr);
}

TEST_CASE("the output image is NvDlaImage's: header, then elements by channel, line and column", "[loadable]") {
  loadable::TensorDesc t;
  t.name = "out";
  t.data_type = loadable::DataType::Int16;
  t.pixel_format = 36;
  t.c = 17;
  t.h = 1;
  t.w = 2;
  t.stride = {2, 64, 128, 0, 0, 0, 0, 0};
  t.size = 256;
  std::vector<uint8_t> mem(256);
  for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<uint8_t>(i);
  const auto img = loadable::dimg_image(t, mem);
  // "DIMG", version 0, format 41 (int16, 16 channels a surface), W 2, H 1, C 17, strides, size.
  REQUIRE(img.size() == 36u + 17u * 2u * 2u);
  CHECK(std::string(img.begin(), img.begin() + 4) == "DIMG");
  const auto u32 = [&](std::size_t o) { return img[o] | img[o + 1] << 8 | img[o + 2] << 16 | img[o + 3] << 24; };
  CHECK(u32(4) == 0);
  CHECK(u32(8) == 41);
  CHECK(u32(12) == 2);
  CHECK(u32(16) == 1);
  CHECK(u32(20) == 17);
  CHECK(u32(24) == 64);
  CHECK(u32(28) == 128);
  CHECK(u32(32) == 256);
  // c 0, w 0 at byte 0; c 0, w 1 at 32 (16 channels x 2 bytes); c 1, w 0 at 2; c 16, w 1 at 128 + 32.
  CHECK(img[36] == 0);
  CHECK(img[38] == 32);
  CHECK(img[40] == 2);
  CHECK(img[36 + 4 * 16 + 2] == 160);
  // An element beyond the tensor's bytes is refused, as the runtime refuses to dump it.
  t.size = 100;
  CHECK_THROWS_AS(loadable::dimg_image(t, mem), InputError);
}

TEST_CASE("input tensors from PGM, DIMG and raw files", "[loadable]") {
  loadable::TensorDesc t;
  t.name = "data";
  t.data_type = loadable::DataType::Half;
  t.pixel_format = 36;
  t.c = 1;
  t.h = 2;
  t.w = 3;
  t.stride = {2, 96, 192, 0, 0, 0, 0, 0};
  t.size = 192;
  const fs::path pgm = temp_path("digit.pgm");
  std::ofstream(pgm, std::ios::binary) << "P5\n# a comment\n3 2\n255\n" << std::string("\x00\x01\x02\x03\x80\xff", 6);
  const auto bytes = loadable::input_tensor_bytes(t, 192, pgm);
  // Pixel (x, y) at y * 96 + x * 32 (16 half channels a surface), as half: 1 = 0x3c00,
  // 2 = 0x4000, 3 = 0x4200, 128 = 0x5800, 255 = 0x5bf8.
  const auto half = [&](std::size_t o) { return bytes[o] | bytes[o + 1] << 8; };
  CHECK(half(0) == 0);
  CHECK(half(32) == 0x3c00);
  CHECK(half(64) == 0x4000);
  CHECK(half(96) == 0x4200);
  CHECK(half(128) == 0x5800);
  CHECK(half(160) == 0x5bf8);
  // The DIMG of the same tensor places its elements back where dimg_image read them.
  const auto img = loadable::dimg_image(t, bytes);
  const fs::path dimg = temp_path("digit.dimg");
  std::ofstream(dimg, std::ios::binary).write(reinterpret_cast<const char*>(img.data()), static_cast<std::streamsize>(img.size()));
  CHECK(loadable::input_tensor_bytes(t, 192, dimg) == bytes);
  // Raw bytes as they are; more than the memory holds is refused.
  const fs::path raw = temp_path("raw.bin");
  std::ofstream(raw, std::ios::binary) << std::string(4, '\x07');
  const auto r = loadable::input_tensor_bytes(t, 192, raw);
  CHECK(r[3] == 7);
  CHECK(r[4] == 0);
  CHECK_THROWS_AS(loadable::input_tensor_bytes(t, 2, raw), InputError);
  // A grey image of another size is refused.
  std::ofstream(pgm, std::ios::binary) << "P5\n4 2\n255\n" << std::string(8, '\x01');
  CHECK_THROWS_AS(loadable::input_tensor_bytes(t, 192, pgm), InputError);
  for (const auto& p : {pgm, dimg, raw}) fs::remove(p);
}

TEST_CASE("truncated, corrupted and hostile loadables are refused naming the list, the index and the rule",
          "[loadable]") {
  if (!dla::test::kmd_present()) return;
  const fs::path src = kmd_loadable("PDP_L0_0_small");
  const auto bytes = file_bytes(src);
  SECTION("truncated or corrupted files fail the FlatBuffers verifier") {
    const auto check = [&](std::vector<uint8_t> b, const std::string& rule) {
      try {
        (void)loadable::parse_loadable(b, "x_fbuf");
        FAIL("accepted");
      } catch (const InputError& e) {
        CHECK_THAT(e.rule(), Catch::Contains(rule));
      }
    };
    check({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2)}, "FlatBuffers verifier");
    check({bytes.begin(), bytes.begin() + 4}, "too short");
    auto c = bytes;
    put32(c, 0, 0x7fffff00u);  // the root offset points outside the file
    check(c, "FlatBuffers verifier");
    c = bytes;
    put32(c, 0, 0x20u);  // the root table somewhere else: its vtable offset is garbage
    check(c, "FlatBuffers verifier");
  }
  SECTION("lists and indices") {
    const auto case_of = [&](const std::string& name, auto edit, const std::string& where, const std::string& rule) {
      const fs::path p = edited("PDP_L0_0_small", name, edit);
      refused(p, where, rule);
      fs::remove(p);
    };
    case_of("mem_id", [](loadable::Loadable& l) { l.addresses[5].mem_id = 99; }, "/address_list/5/mem_id",
            "memory 99 does not exist (6 memories)");
    case_of("task_addr", [](loadable::Loadable& l) { l.tasks[0].address_list[3] = 42; },
            "/task_list/0/address_list/3", "address 42 does not exist (6 address list entries)");
    case_of("blob_name", [](loadable::Loadable& l) { l.memories[0].contents[0] = "nope"; },
            "/memory_list/0/contents/0", "no blob is named \"nope\"");
    case_of("blob_fit", [](loadable::Loadable& l) { l.memories[4].size = 100; }, "/memory_list/4/offsets/0",
            "does not fit the memory's 100 bytes");
    case_of("version", [](loadable::Loadable& l) { l.version.minor = 8; }, "/version", "0.8.0 is not one dlacosim reads");
    case_of("ids", [](loadable::Loadable& l) { l.memories[2].id = 7; }, "/memory_list/2/id", "ids must be 0, 1, 2");
    case_of("submit", [](loadable::Loadable& l) { l.submits[0].task_ids[0] = 3; }, "/submit_list/0/task_id/0",
            "task 3 does not exist");
  }
  SECTION("descriptors") {
    const auto case_of = [&](const std::string& name, auto edit, const std::string& rule) {
      const fs::path p = edited("PDP_L0_0_small", name, edit);
      refused(p, "/task_list/0", rule);
      fs::remove(p);
    };
    case_of("op_type", [](loadable::Loadable& l) { blob(l, "DEPGraph").data[3] = 9; },
            "op 0 has op type 9, which the firmware does not know (0..5)");
    case_of("cycle", [](loadable::Loadable& l) { blob(l, "DEPGraph").data[4] = 1; },
            "the dependency graph never runs op(s) 0 (pdp)");
    case_of("cube_address", [](loadable::Loadable& l) { put16(blob(l, "SurfList").data, 2, 42); },
            "refers to address 42 of the task, which has 6 addresses");
    case_of("cube_size", [](loadable::Loadable& l) { put32(blob(l, "SurfList").data, 28 + 4, 1u << 20); },
            "PDP's output (1048576 bytes at offset 0 of memory 5) runs past the memory's 2048 bytes");
    case_of("desc_version", [](loadable::Loadable& l) {
      for (auto& b : l.blobs) b.version.minor = 9;
    }, "descriptor interface version 0.9.0");
    case_of("stride", [](loadable::Loadable& l) { blob(l, "OpList").data[16] = 9; }, "strides 9 x 1 are outside 1..8");
    case_of("short_list", [](loadable::Loadable& l) {
      auto& b = blob(l, "OpList");
      b.data.resize(40);
      b.size = 40;
      l.memories[1].size = 40;
      l.addresses[1].size = 40;
    }, "the operation descriptor list (116 bytes at offset 0 of memory 1) runs past the memory's 40 bytes");
  }
  SECTION("what dlacosim does not model or the configuration lacks") {
    refused(kmd_loadable("NN_L0_0"), "/task_list/1", "op 0 (conv): in_precision is fp16, which nv_small does not have",
            "nv_small");
    refused(kmd_loadable("CDP_L0_0"), "/task_list/0", "op 0 (cdp): in_precision is int16, which nv_small does not have",
            "nv_small");
    refused(kmd_loadable("BDMA_L0_0"), "/task_list/0", "BDMA is not supported for this configuration (nv_small has no BDMA block)",
            "nv_small");
    refused(kmd_loadable("RBK_L0_0"), "/task_list/0", "nv_large has no RBK block", "nv_large");
  }
}

TEST_CASE("NN_L0_0 (LeNet, fp16) reproduces NVIDIA's md5 on the golden model, the runtime's power and softmax included",
          "[loadable][fp16]") {
  if (!dla::test::kmd_present()) return;
  // Task 0 (EMU: power 1, scale 1, shift 0 copies the input), task 1 (DLA: 11 fp16 ops), task 2
  // (EMU: softmax of 10 halves into the output tensor "prob"); the input is zero, as NVIDIA's
  // regression ran it without an image.
  CHECK(golden_md5(kmd_loadable("NN_L0_0"), "NN_L0_0") == kmd_md5("NN_L0_0"));
}

namespace {

float float_of(uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

TEST_CASE("the runtime's float to half rounds to nearest, ties away from zero, as its half library", "[loadable][fp16]") {
  using loadable::runtime_float_to_half;
  CHECK(runtime_float_to_half(0.0f) == 0x0000);
  CHECK(runtime_float_to_half(-0.0f) == 0x8000);
  CHECK(runtime_float_to_half(1.0f) == 0x3c00);
  CHECK(runtime_float_to_half(-1.5f) == 0xbe00);
  CHECK(runtime_float_to_half(255.0f) == 0x5bf8);
  // 1 + 2^-11 lies halfway between 0x3c00 and 0x3c01: away from zero (IEEE's even would be 0x3c00).
  CHECK(runtime_float_to_half(float_of(0x3f801000u)) == 0x3c01);
  CHECK(runtime_float_to_half(float_of(0xbf801000u)) == 0xbc01);
  CHECK(runtime_float_to_half(float_of(0x3f800fffu)) == 0x3c00);  // just below the tie
  // 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02: away again (IEEE's even agrees here).
  CHECK(runtime_float_to_half(float_of(0x3f803000u)) == 0x3c02);
  // The largest finite half, and the first float that rounds past it.
  CHECK(runtime_float_to_half(65504.0f) == 0x7bff);
  CHECK(runtime_float_to_half(65519.996f) == 0x7bff);
  CHECK(runtime_float_to_half(65520.0f) == 0x7c00);
  CHECK(runtime_float_to_half(1e10f) == 0x7c00);
  CHECK(runtime_float_to_half(-std::numeric_limits<float>::infinity()) == 0xfc00);
  // Subnormals: 2^-24 is the smallest; 2^-25 is the tie below it (away: up); smaller is zero.
  CHECK(runtime_float_to_half(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(runtime_float_to_half(std::ldexp(1.0f, -25)) == 0x0001);
  CHECK(runtime_float_to_half(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(runtime_float_to_half(std::ldexp(3.0f, -25)) == 0x0002);  // 1.5 * 2^-24: tie, away
  CHECK(runtime_float_to_half(std::ldexp(1.0f, -14)) == 0x0400);
  CHECK(runtime_float_to_half(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)) == 0x0400);  // rounds into the normals
  // NaN keeps the top ten bits of its payload; one with none left becomes Inf (the library's way).
  CHECK(runtime_float_to_half(float_of(0x7fc00000u)) == 0x7e00);
  CHECK(runtime_float_to_half(float_of(0x7f800001u)) == 0x7c00);
}

TEST_CASE("the runtime's power and softmax, by hand", "[loadable][fp16]") {
  Memory mem;
  const auto put = [&](uint64_t a, uint16_t v) {
    const uint8_t b[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
    mem.write(a, std::span<const uint8_t>(b, 2));
  };
  const auto get = [&](uint64_t a) { return static_cast<uint16_t>(mem.read(a) | mem.read(a + 1) << 8); };
  loadable::EmuBuffer src;
  src.addr = 0x1000;
  src.size = 0x200;
  src.format = 2;
  src.width = 2;
  src.height = 1;
  src.channel = 17;
  src.line_stride = 64;
  src.surf_stride = 64;
  loadable::EmuBuffer dst = src;
  dst.addr = 0x2000;
  SECTION("power: (shift + scale x) ^ power over the strided cube, 16 halves an atom") {
    // x = 1 at (w 0, c 0), 2 at (w 1, c 0), -3 at (w 0, c 16): byte 0, 32 and the next surface (64).
    put(0x1000, 0x3c00);
    put(0x1000 + 32, 0x4000);
    put(0x1000 + 64, 0xc200);
    loadable::EmuOp op;
    op.kind = loadable::EmuOp::Kind::Power;
    op.power = 2.0f;
    op.scale = 2.0f;
    op.shift = 1.0f;
    op.src = src;
    op.dst = dst;
    loadable::run_emu_op(op, mem);
    CHECK(get(0x2000) == 0x4880);       // (1 + 2)^2 = 9
    CHECK(get(0x2000 + 32) == 0x4e40);  // (1 + 4)^2 = 25
    CHECK(get(0x2000 + 64) == 0x4e40);  // (1 - 6)^2 = 25
    CHECK(get(0x2000 + 2) == 0x3c00);   // every other element: (1 + 0)^2 = 1
    CHECK(get(0x2000 + 96 + 2) == 0);   // beyond channel 16 of the second surface: not written
  }
  SECTION("softmax: channel contiguous halves, the maximum subtracted, in float") {
    src.channel = 2;
    dst.channel = 2;
    put(0x1000, 0x3c00);  // 1
    put(0x1002, 0x4000);  // 2
    loadable::EmuOp op;
    op.kind = loadable::EmuOp::Kind::Softmax;
    op.src = src;
    op.dst = dst;
    loadable::run_emu_op(op, mem);
    // 1 / (1 + e) = 0.268941 -> 0x3400 + round(0.075764 * 1024 = 77.58) = 0x344e;
    // e / (1 + e) = 0.731059 -> 0x3800 + round(0.462117 * 1024 = 473.21) = 0x39d9.
    CHECK(get(0x2000) == 0x344e);
    CHECK(get(0x2002) == 0x39d9);
    CHECK(get(0x2000 + 32) == 0);  // nothing strided: the emulator ignores width and strides
  }
}

namespace {

// NN_L0_0's LeNet in double from the loadable's own weights and biases, an independent reference
// for the fp16 datapath: blobs tb-3 / tb-8 / tb-13 / tb-18 are the weights of conv1, conv2, ip1
// and ip2 in NVDLA's direct-convolution order (groups of 16 kernels, blocks of 64 channels, then
// r, s, kernel, channel), tb-5 / tb-10 / tb-15 / tb-20 the biases (the loadable's descriptors).
struct LeNetRef {
  struct Layer {
    int k = 0, c = 0, r = 0, s = 0;
    std::vector<double> w;  // [k][c][r][s]
    std::vector<double> b;
  };
  Layer conv1, conv2, ip1, ip2;

  static std::vector<double> halves(const loadable::Loadable& l, const std::string& name) {
    for (const auto& b : l.blobs) {
      if (b.name != name) continue;
      std::vector<double> v;
      for (std::size_t i = 0; i + 1 < b.data.size(); i += 2) {
        const uint16_t h = static_cast<uint16_t>(b.data[i] | b.data[i + 1] << 8);
        // Every weight and bias here is a normal half or zero.
        const int e = (h >> 10) & 0x1f;
        const double m = e == 0 ? (h & 0x3ff) / 1024.0 * std::ldexp(1.0, -14) : (1.0 + (h & 0x3ff) / 1024.0) * std::ldexp(1.0, e - 15);
        v.push_back((h & 0x8000) != 0 ? -m : m);
      }
      return v;
    }
    FAIL("no blob " << name);
    return {};
  }

  static Layer layer(const loadable::Loadable& l, const std::string& w, const std::string& b, int k, int c, int r, int s) {
    Layer y{k, c, r, s, std::vector<double>(static_cast<std::size_t>(k * c * r * s)), halves(l, b)};
    const auto raw = halves(l, w);
    std::size_t i = 0;
    for (int g = 0; g < k; g += 16) {
      for (int cb = 0; cb < c; cb += 64) {
        for (int rr = 0; rr < r; ++rr) {
          for (int ss = 0; ss < s; ++ss) {
            for (int kk = g; kk < std::min(k, g + 16); ++kk) {
              for (int cc = cb; cc < std::min(c, cb + 64); ++cc) {
                y.w[static_cast<std::size_t>(((kk * c + cc) * r + rr) * s + ss)] = raw.at(i++);
              }
            }
          }
        }
      }
    }
    return y;
  }

  explicit LeNetRef(const loadable::Loadable& l)
      : conv1(layer(l, "tb-3", "tb-5", 20, 1, 5, 5)), conv2(layer(l, "tb-8", "tb-10", 50, 20, 5, 5)),
        ip1(layer(l, "tb-13", "tb-15", 500, 50, 4, 4)), ip2(layer(l, "tb-18", "tb-20", 10, 500, 1, 1)) {}

  // x is [h][w][c]; valid convolution, stride 1.
  static std::vector<double> conv(const std::vector<double>& x, int h, int w, const Layer& L, bool relu) {
    const int ho = h - L.r + 1, wo = w - L.s + 1;
    std::vector<double> y(static_cast<std::size_t>(ho * wo * L.k));
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        for (int k = 0; k < L.k; ++k) {
          double acc = L.b.at(static_cast<std::size_t>(k));
          for (int c = 0; c < L.c; ++c) {
            for (int r = 0; r < L.r; ++r) {
              for (int s = 0; s < L.s; ++s) {
                acc += L.w[static_cast<std::size_t>(((k * L.c + c) * L.r + r) * L.s + s)] *
                       x[static_cast<std::size_t>(((oy + r) * w + ox + s) * L.c + c)];
              }
            }
          }
          y[static_cast<std::size_t>((oy * wo + ox) * L.k + k)] = relu ? std::max(0.0, acc) : acc;
        }
      }
    }
    return y;
  }

  static std::vector<double> pool2(const std::vector<double>& x, int h, int w, int c) {
    std::vector<double> y(static_cast<std::size_t>(h / 2 * (w / 2) * c));
    for (int oy = 0; oy < h / 2; ++oy) {
      for (int ox = 0; ox < w / 2; ++ox) {
        for (int k = 0; k < c; ++k) {
          double m = -1e300;
          for (int dy = 0; dy < 2; ++dy) {
            for (int dx = 0; dx < 2; ++dx) m = std::max(m, x[static_cast<std::size_t>(((2 * oy + dy) * w + 2 * ox + dx) * c + k)]);
          }
          y[static_cast<std::size_t>((oy * (w / 2) + ox) * c + k)] = m;
        }
      }
    }
    return y;
  }

  [[nodiscard]] std::vector<double> probabilities(const std::vector<uint8_t>& pixels) const {
    std::vector<double> x(pixels.begin(), pixels.end());
    x = pool2(conv(x, 28, 28, conv1, false), 24, 24, 20);
    x = pool2(conv(x, 12, 12, conv2, false), 8, 8, 50);
    x = conv(conv(x, 4, 4, ip1, true), 1, 1, ip2, false);
    const double m = *std::max_element(x.begin(), x.end());
    double sum = 0;
    for (double& v : x) sum += (v = std::exp(v - m));
    for (double& v : x) v /= sum;
    return x;
  }
};

}  // namespace

TEST_CASE("NN_L0_0 on NVIDIA's digits: the fp16 golden model's probabilities follow a double-precision LeNet",
          "[loadable][fp16]") {
  if (!dla::test::kmd_present()) return;
  const fs::path file = kmd_loadable("NN_L0_0");
  const LeNetRef ref(loadable::read_loadable(file));
  // The digits NVIDIA's network gets right with the runtime's default image conversion (the pixel
  // as it is); it takes two for 7, six for 5, eight and nine for 3, in double as in fp16
  // (docs/LOADABLES.md).
  const std::map<std::string, int> expected = {{"one", 1}, {"two", 7},   {"three", 3}, {"four", 4}, {"five", 5},
                                               {"six", 5}, {"seven", 7}, {"eight", 3}, {"nine", 3}};
  for (const auto& [digit, cls] : expected) {
    INFO(digit);
    const fs::path pgm = dla::test::kmd_dir() / "images" / (digit + ".pgm");
    const auto bytes = file_bytes(pgm);
    REQUIRE(bytes.size() > 784u);
    const std::vector<uint8_t> pixels(bytes.end() - 784, bytes.end());
    const auto p = ref.probabilities(pixels);
    RunOptions o;
    o.mode = "golden";
    loadable::LoadableRunOptions lo;
    lo.inputs.push_back({"data", pgm});
    lo.dimg = temp_path("nn-" + digit + ".dimg");
    const RunResult r = loadable::run_loadable(file, o, lo);
    INFO(r.message);
    REQUIRE(r.status == Status::Pass);
    const auto img = file_bytes(*lo.dimg);
    fs::remove(*lo.dimg);
    REQUIRE(img.size() == 36u + 20u);
    int best = 0, ref_best = 0;
    std::vector<double> got(10);
    for (int i = 0; i < 10; ++i) {
      const uint16_t h = static_cast<uint16_t>(img[36 + 2 * i] | img[37 + 2 * i] << 8);
      const int e = (h >> 10) & 0x1f;
      got[static_cast<std::size_t>(i)] = e == 0 ? (h & 0x3ff) * std::ldexp(1.0, -24) : (1024 + (h & 0x3ff)) * std::ldexp(1.0, e - 25);
      if (got[static_cast<std::size_t>(i)] > got[static_cast<std::size_t>(best)]) best = i;
      if (p[static_cast<std::size_t>(i)] > p[static_cast<std::size_t>(ref_best)]) ref_best = i;
      CHECK(std::abs(got[static_cast<std::size_t>(i)] - p[static_cast<std::size_t>(i)]) < 0.02);
    }
    CHECK(ref_best == cls);
    CHECK(best == cls);
  }
}
